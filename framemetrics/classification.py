"""Binary classification metrics from true and predicted labels, as Polars expressions.

Stage 1 counts the weighted confusion-matrix cells ``tp, fp, fn, tn``; each
function below is its formula over them (see :mod:`framemetrics.formulas`
and the matching ``fm_formula_*`` macros of ``sql/framemetrics.sql``).
"""

from __future__ import annotations

from typing import Any

import polars as pl

from framemetrics.compose import fill_doc, metric_expr
from framemetrics.inputs import ColumnLike

__all__ = [
    "accuracy_score",
    "balanced_accuracy_score",
    "cohen_kappa_score",
    "error_rate",
    "f1_score",
    "false_negative_rate",
    "false_positive_rate",
    "fbeta_score",
    "jaccard_score",
    "matthews_corrcoef",
    "negative_predictive_value",
    "precision_score",
    "prevalence",
    "recall_score",
    "specificity_score",
]


@fill_doc
def accuracy_score(
    y_true: ColumnLike,
    y_pred: ColumnLike,
    sample_weight: ColumnLike | None = None,
    *,
    pos_label: Any = 1,
    neg_label: Any = None,
) -> pl.Expr:
    """Accuracy: the weighted share of correct predictions.

    Parameters
    ----------
    {labels}

    Returns
    -------
    {returns}

    See Also
    --------
    sklearn.metrics.accuracy_score : the reference it matches.

    Notes
    -----
    ``(tp + tn) / (tp + fp + fn + tn)``; null if the total weight is 0.

    Examples
    --------
    >>> import polars as pl, framemetrics as fm
    >>> df = pl.DataFrame({"y": [0, 1, 1, 0, 1], "p": [0.1, 0.8, 0.4, 0.6, 0.9]})
    >>> round(df.select(fm.accuracy_score("y", pl.col("p") >= 0.5)).item(), 4)
    0.6
    """
    return metric_expr(
        "accuracy_score",
        y_true=y_true,
        y_pred=y_pred,
        sample_weight=sample_weight,
        pos_label=pos_label,
        neg_label=neg_label,
    )


@fill_doc
def error_rate(
    y_true: ColumnLike,
    y_pred: ColumnLike,
    sample_weight: ColumnLike | None = None,
    *,
    pos_label: Any = 1,
    neg_label: Any = None,
) -> pl.Expr:
    """Error rate: the weighted share of wrong predictions, ``1 - accuracy``.

    Parameters
    ----------
    {labels}

    Returns
    -------
    {returns}

    See Also
    --------
    1 - sklearn.metrics.accuracy_score : the reference it matches.

    Notes
    -----
    ``(fp + fn) / (tp + fp + fn + tn)``; null if the total weight is 0.

    Examples
    --------
    >>> import polars as pl, framemetrics as fm
    >>> df = pl.DataFrame({"y": [0, 1, 1, 0, 1], "p": [0.1, 0.8, 0.4, 0.6, 0.9]})
    >>> round(df.select(fm.error_rate("y", pl.col("p") >= 0.5)).item(), 4)
    0.4
    """
    return metric_expr(
        "error_rate",
        y_true=y_true,
        y_pred=y_pred,
        sample_weight=sample_weight,
        pos_label=pos_label,
        neg_label=neg_label,
    )


@fill_doc
def precision_score(
    y_true: ColumnLike,
    y_pred: ColumnLike,
    sample_weight: ColumnLike | None = None,
    *,
    pos_label: Any = 1,
    neg_label: Any = None,
    zero_division: float | None = None,
) -> pl.Expr:
    """Precision (positive predictive value).

    Parameters
    ----------
    {labels}
    {zero_division}

    Returns
    -------
    {returns}

    See Also
    --------
    sklearn.metrics.precision_score : the reference it matches.

    Notes
    -----
    ``tp / (tp + fp)``.

    Examples
    --------
    >>> import polars as pl, framemetrics as fm
    >>> df = pl.DataFrame({"y": [0, 1, 1, 0, 1], "p": [0.1, 0.8, 0.4, 0.6, 0.9]})
    >>> round(df.select(fm.precision_score("y", pl.col("p") >= 0.5)).item(), 4)
    0.6667
    """
    return metric_expr(
        "precision_score",
        y_true=y_true,
        y_pred=y_pred,
        sample_weight=sample_weight,
        pos_label=pos_label,
        neg_label=neg_label,
        zero_division=zero_division,
    )


@fill_doc
def recall_score(
    y_true: ColumnLike,
    y_pred: ColumnLike,
    sample_weight: ColumnLike | None = None,
    *,
    pos_label: Any = 1,
    neg_label: Any = None,
    zero_division: float | None = None,
) -> pl.Expr:
    """Recall (sensitivity, true positive rate).

    Parameters
    ----------
    {labels}
    {zero_division}

    Returns
    -------
    {returns}

    See Also
    --------
    sklearn.metrics.recall_score : the reference it matches.

    Notes
    -----
    ``tp / (tp + fn)``.

    Examples
    --------
    >>> import polars as pl, framemetrics as fm
    >>> df = pl.DataFrame({"y": [0, 1, 1, 0, 1], "p": [0.1, 0.8, 0.4, 0.6, 0.9]})
    >>> round(df.select(fm.recall_score("y", pl.col("p") >= 0.5)).item(), 4)
    0.6667
    """
    return metric_expr(
        "recall_score",
        y_true=y_true,
        y_pred=y_pred,
        sample_weight=sample_weight,
        pos_label=pos_label,
        neg_label=neg_label,
        zero_division=zero_division,
    )


@fill_doc
def specificity_score(
    y_true: ColumnLike,
    y_pred: ColumnLike,
    sample_weight: ColumnLike | None = None,
    *,
    pos_label: Any = 1,
    neg_label: Any = None,
    zero_division: float | None = None,
) -> pl.Expr:
    """Specificity (true negative rate, the recall of the negative class).

    Parameters
    ----------
    {labels}
    {zero_division}

    Returns
    -------
    {returns}

    See Also
    --------
    sklearn.metrics.recall_score with pos_label = the negative class : the reference it matches.

    Notes
    -----
    ``tn / (tn + fp)``.

    Examples
    --------
    >>> import polars as pl, framemetrics as fm
    >>> df = pl.DataFrame({"y": [0, 1, 1, 0, 1], "p": [0.1, 0.8, 0.4, 0.6, 0.9]})
    >>> round(df.select(fm.specificity_score("y", pl.col("p") >= 0.5)).item(), 4)
    0.5
    """
    return metric_expr(
        "specificity_score",
        y_true=y_true,
        y_pred=y_pred,
        sample_weight=sample_weight,
        pos_label=pos_label,
        neg_label=neg_label,
        zero_division=zero_division,
    )


@fill_doc
def false_positive_rate(
    y_true: ColumnLike,
    y_pred: ColumnLike,
    sample_weight: ColumnLike | None = None,
    *,
    pos_label: Any = 1,
    neg_label: Any = None,
    zero_division: float | None = None,
) -> pl.Expr:
    """False positive rate (fall-out), ``1 - specificity``.

    Parameters
    ----------
    {labels}
    {zero_division}

    Returns
    -------
    {returns}

    See Also
    --------
    fp / (fp + tn) of sklearn.metrics.confusion_matrix : the reference it matches.

    Notes
    -----
    ``fp / (fp + tn)``.

    Examples
    --------
    >>> import polars as pl, framemetrics as fm
    >>> df = pl.DataFrame({"y": [0, 1, 1, 0, 1], "p": [0.1, 0.8, 0.4, 0.6, 0.9]})
    >>> round(df.select(fm.false_positive_rate("y", pl.col("p") >= 0.5)).item(), 4)
    0.5
    """
    return metric_expr(
        "false_positive_rate",
        y_true=y_true,
        y_pred=y_pred,
        sample_weight=sample_weight,
        pos_label=pos_label,
        neg_label=neg_label,
        zero_division=zero_division,
    )


@fill_doc
def false_negative_rate(
    y_true: ColumnLike,
    y_pred: ColumnLike,
    sample_weight: ColumnLike | None = None,
    *,
    pos_label: Any = 1,
    neg_label: Any = None,
    zero_division: float | None = None,
) -> pl.Expr:
    """False negative rate (miss rate), ``1 - recall``.

    Parameters
    ----------
    {labels}
    {zero_division}

    Returns
    -------
    {returns}

    See Also
    --------
    fn / (fn + tp) of sklearn.metrics.confusion_matrix : the reference it matches.

    Notes
    -----
    ``fn / (fn + tp)``.

    Examples
    --------
    >>> import polars as pl, framemetrics as fm
    >>> df = pl.DataFrame({"y": [0, 1, 1, 0, 1], "p": [0.1, 0.8, 0.4, 0.6, 0.9]})
    >>> round(df.select(fm.false_negative_rate("y", pl.col("p") >= 0.5)).item(), 4)
    0.3333
    """
    return metric_expr(
        "false_negative_rate",
        y_true=y_true,
        y_pred=y_pred,
        sample_weight=sample_weight,
        pos_label=pos_label,
        neg_label=neg_label,
        zero_division=zero_division,
    )


@fill_doc
def negative_predictive_value(
    y_true: ColumnLike,
    y_pred: ColumnLike,
    sample_weight: ColumnLike | None = None,
    *,
    pos_label: Any = 1,
    neg_label: Any = None,
    zero_division: float | None = None,
) -> pl.Expr:
    """Negative predictive value (the precision of the negative class).

    Parameters
    ----------
    {labels}
    {zero_division}

    Returns
    -------
    {returns}

    See Also
    --------
    sklearn.metrics.precision_score with pos_label = the negative class : the reference it matches.

    Notes
    -----
    ``tn / (tn + fn)``.

    Examples
    --------
    >>> import polars as pl, framemetrics as fm
    >>> df = pl.DataFrame({"y": [0, 1, 1, 0, 1], "p": [0.1, 0.8, 0.4, 0.6, 0.9]})
    >>> round(df.select(fm.negative_predictive_value("y", pl.col("p") >= 0.5)).item(), 4)
    0.5
    """
    return metric_expr(
        "negative_predictive_value",
        y_true=y_true,
        y_pred=y_pred,
        sample_weight=sample_weight,
        pos_label=pos_label,
        neg_label=neg_label,
        zero_division=zero_division,
    )


@fill_doc
def f1_score(
    y_true: ColumnLike,
    y_pred: ColumnLike,
    sample_weight: ColumnLike | None = None,
    *,
    pos_label: Any = 1,
    neg_label: Any = None,
    zero_division: float | None = None,
) -> pl.Expr:
    """F1 score, the harmonic mean of precision and recall.

    Parameters
    ----------
    {labels}
    {zero_division}

    Returns
    -------
    {returns}

    See Also
    --------
    sklearn.metrics.f1_score : the reference it matches.

    Notes
    -----
    ``2 tp / (2 tp + fp + fn)``.

    Examples
    --------
    >>> import polars as pl, framemetrics as fm
    >>> df = pl.DataFrame({"y": [0, 1, 1, 0, 1], "p": [0.1, 0.8, 0.4, 0.6, 0.9]})
    >>> round(df.select(fm.f1_score("y", pl.col("p") >= 0.5)).item(), 4)
    0.6667
    """
    return metric_expr(
        "f1_score",
        y_true=y_true,
        y_pred=y_pred,
        sample_weight=sample_weight,
        pos_label=pos_label,
        neg_label=neg_label,
        zero_division=zero_division,
    )


@fill_doc
def fbeta_score(
    y_true: ColumnLike,
    y_pred: ColumnLike,
    sample_weight: ColumnLike | None = None,
    *,
    pos_label: Any = 1,
    neg_label: Any = None,
    beta: float = 1.0,
    zero_division: float | None = None,
) -> pl.Expr:
    """F-beta score: recall weighted ``beta`` times as much as precision.

    Parameters
    ----------
    {labels}
    beta : float, default 1.0
        Weight of recall relative to precision (> 0).
    {zero_division}

    Returns
    -------
    {returns}

    See Also
    --------
    sklearn.metrics.fbeta_score : the reference it matches.

    Notes
    -----
    ``(1 + b^2) tp / ((1 + b^2) tp + b^2 fn + fp)`` with ``b = beta``.

    Examples
    --------
    >>> import polars as pl, framemetrics as fm
    >>> df = pl.DataFrame({"y": [0, 1, 1, 0, 1], "p": [0.1, 0.8, 0.4, 0.6, 0.9]})
    >>> round(df.select(fm.fbeta_score("y", pl.col("p") >= 0.5, beta=2)).item(), 4)
    0.6667
    """
    return metric_expr(
        "fbeta_score",
        y_true=y_true,
        y_pred=y_pred,
        sample_weight=sample_weight,
        pos_label=pos_label,
        neg_label=neg_label,
        beta=beta,
        zero_division=zero_division,
    )


@fill_doc
def jaccard_score(
    y_true: ColumnLike,
    y_pred: ColumnLike,
    sample_weight: ColumnLike | None = None,
    *,
    pos_label: Any = 1,
    neg_label: Any = None,
    zero_division: float | None = None,
) -> pl.Expr:
    """Jaccard index (intersection over union) of the positive class.

    Parameters
    ----------
    {labels}
    {zero_division}

    Returns
    -------
    {returns}

    See Also
    --------
    sklearn.metrics.jaccard_score : the reference it matches.

    Notes
    -----
    ``tp / (tp + fp + fn)``.

    Examples
    --------
    >>> import polars as pl, framemetrics as fm
    >>> df = pl.DataFrame({"y": [0, 1, 1, 0, 1], "p": [0.1, 0.8, 0.4, 0.6, 0.9]})
    >>> round(df.select(fm.jaccard_score("y", pl.col("p") >= 0.5)).item(), 4)
    0.5
    """
    return metric_expr(
        "jaccard_score",
        y_true=y_true,
        y_pred=y_pred,
        sample_weight=sample_weight,
        pos_label=pos_label,
        neg_label=neg_label,
        zero_division=zero_division,
    )


@fill_doc
def balanced_accuracy_score(
    y_true: ColumnLike,
    y_pred: ColumnLike,
    sample_weight: ColumnLike | None = None,
    *,
    pos_label: Any = 1,
    neg_label: Any = None,
) -> pl.Expr:
    """Balanced accuracy: the mean of recall and specificity.

    Parameters
    ----------
    {labels}

    Returns
    -------
    {returns}

    See Also
    --------
    sklearn.metrics.balanced_accuracy_score : the reference it matches.

    Notes
    -----
    ``(tp / (tp + fn) + tn / (tn + fp)) / 2``; with one class in ``y_true``,
    the recall of that class (scikit-learn averages the defined recalls).

    Examples
    --------
    >>> import polars as pl, framemetrics as fm
    >>> df = pl.DataFrame({"y": [0, 1, 1, 0, 1], "p": [0.1, 0.8, 0.4, 0.6, 0.9]})
    >>> round(df.select(fm.balanced_accuracy_score("y", pl.col("p") >= 0.5)).item(), 4)
    0.5833
    """
    return metric_expr(
        "balanced_accuracy_score",
        y_true=y_true,
        y_pred=y_pred,
        sample_weight=sample_weight,
        pos_label=pos_label,
        neg_label=neg_label,
    )


@fill_doc
def matthews_corrcoef(
    y_true: ColumnLike,
    y_pred: ColumnLike,
    sample_weight: ColumnLike | None = None,
    *,
    pos_label: Any = 1,
    neg_label: Any = None,
) -> pl.Expr:
    """Matthews correlation coefficient.

    Parameters
    ----------
    {labels}

    Returns
    -------
    {returns}

    See Also
    --------
    sklearn.metrics.matthews_corrcoef : the reference it matches.

    Notes
    -----
    scikit-learn's form over the confusion matrix: with ``s`` the total, ``c``
    the correct weight, ``t`` and ``p`` the true and predicted class totals,
    ``(c s - t.p) / sqrt((s^2 - p.p) (s^2 - t.t))``, and 0 when the
    denominator is 0. All in floating point: no integer overflow.

    Examples
    --------
    >>> import polars as pl, framemetrics as fm
    >>> df = pl.DataFrame({"y": [0, 1, 1, 0, 1], "p": [0.1, 0.8, 0.4, 0.6, 0.9]})
    >>> round(df.select(fm.matthews_corrcoef("y", pl.col("p") >= 0.5)).item(), 4)
    0.1667
    """
    return metric_expr(
        "matthews_corrcoef",
        y_true=y_true,
        y_pred=y_pred,
        sample_weight=sample_weight,
        pos_label=pos_label,
        neg_label=neg_label,
    )


@fill_doc
def cohen_kappa_score(
    y_true: ColumnLike,
    y_pred: ColumnLike,
    sample_weight: ColumnLike | None = None,
    *,
    pos_label: Any = 1,
    neg_label: Any = None,
) -> pl.Expr:
    """Cohen's kappa between true and predicted labels.

    Parameters
    ----------
    {labels}

    Returns
    -------
    {returns}

    See Also
    --------
    sklearn.metrics.cohen_kappa_score : the reference it matches.

    Notes
    -----
    ``1 - (fp + fn) / e`` with ``e = ((tn + fn)(fn + tp) + (fp + tp)(tn + fp)) / s``
    the disagreement expected by chance (``s`` the total); null if ``e = 0``
    (scikit-learn: NaN).

    Examples
    --------
    >>> import polars as pl, framemetrics as fm
    >>> df = pl.DataFrame({"y": [0, 1, 1, 0, 1], "p": [0.1, 0.8, 0.4, 0.6, 0.9]})
    >>> round(df.select(fm.cohen_kappa_score("y", pl.col("p") >= 0.5)).item(), 4)
    0.1667
    """
    return metric_expr(
        "cohen_kappa_score",
        y_true=y_true,
        y_pred=y_pred,
        sample_weight=sample_weight,
        pos_label=pos_label,
        neg_label=neg_label,
    )


@fill_doc
def prevalence(
    y_true: ColumnLike,
    y_pred: ColumnLike,
    sample_weight: ColumnLike | None = None,
    *,
    pos_label: Any = 1,
    neg_label: Any = None,
) -> pl.Expr:
    """Prevalence: the weighted share of positives in ``y_true``.

    Parameters
    ----------
    {labels}

    Returns
    -------
    {returns}

    See Also
    --------
    numpy.average(y_true == pos_label, weights=sample_weight) : the reference it matches.

    Notes
    -----
    ``(tp + fn) / (tp + fp + fn + tn)``.

    Examples
    --------
    >>> import polars as pl, framemetrics as fm
    >>> df = pl.DataFrame({"y": [0, 1, 1, 0, 1], "p": [0.1, 0.8, 0.4, 0.6, 0.9]})
    >>> round(df.select(fm.prevalence("y", pl.col("p") >= 0.5)).item(), 4)
    0.6
    """
    return metric_expr(
        "prevalence",
        y_true=y_true,
        y_pred=y_pred,
        sample_weight=sample_weight,
        pos_label=pos_label,
        neg_label=neg_label,
    )
