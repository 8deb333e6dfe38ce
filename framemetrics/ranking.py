"""Binary ranking metrics from true labels and scores, as Polars expressions.

Every one is a formula over the curve stage (:mod:`framemetrics.compilers.polars.stages`):
per distinct score, the positive and negative weight ``pw, nw`` and their
cumulative sums ``tp, fp`` over scores at or above it. Inside one
expression the stage is read from the group's rows by sorting and binary
search; ``evaluate`` and SQL build it with a ``GROUP BY`` and a window.
"""

from __future__ import annotations

from typing import Any

import polars as pl

from framemetrics.compose import fill_doc, metric_expr
from framemetrics.inputs import ColumnLike

__all__ = [
    "average_precision_score",
    "break_even_point",
    "gini_score",
    "ks_statistic",
    "ks_threshold",
    "pr_auc_score",
    "roc_auc_error_bound",
    "roc_auc_score",
]


@fill_doc
def roc_auc_score(
    y_true: ColumnLike,
    y_score: ColumnLike,
    sample_weight: ColumnLike | None = None,
    *,
    pos_label: Any = 1,
    neg_label: Any = None,
    max_fpr: float | None = None,
) -> pl.Expr:
    """Area under the ROC curve, exact with tied scores and weights.

    Parameters
    ----------
    {ranking}
    max_fpr : float, optional
        In (0, 1]: the McClish-standardised partial AUC over FPR <= max_fpr,
        as scikit-learn's ``max_fpr``.

    Returns
    -------
    {returns}

    See Also
    --------
    sklearn.metrics.roc_auc_score : the reference it matches.

    Notes
    -----
    The trapezoidal area, tied scores counting 1/2: ``sum(nw (2 tp - pw)) / (2 P N)``
    over distinct scores, with ``P`` and ``N`` the total positive and negative
    weight. Null when ``P`` or ``N`` is 0 (scikit-learn raises). With
    ``max_fpr = m < 1``: the area ``A`` left of FPR = m (the last segment cut by
    linear interpolation), standardised as ``(1 + (A - m^2/2) / (m - m^2/2)) / 2``.

    Examples
    --------
    >>> import polars as pl, framemetrics as fm
    >>> df = pl.DataFrame({"y": [0, 0, 1, 1], "s": [0.1, 0.4, 0.35, 0.8]})
    >>> df.select(fm.roc_auc_score("y", "s")).item()
    0.75
    >>> round(df.select(fm.roc_auc_score("y", "s", max_fpr=0.5)).item(), 4)
    0.6667
    """
    return metric_expr(
        "roc_auc_score",
        y_true=y_true,
        y_score=y_score,
        sample_weight=sample_weight,
        pos_label=pos_label,
        neg_label=neg_label,
        max_fpr=max_fpr,
    )


@fill_doc
def gini_score(
    y_true: ColumnLike,
    y_score: ColumnLike,
    sample_weight: ColumnLike | None = None,
    *,
    pos_label: Any = 1,
    neg_label: Any = None,
) -> pl.Expr:
    """Normalized Gini coefficient, ``2 AUC - 1``.

    Parameters
    ----------
    {ranking}

    Returns
    -------
    {returns}

    See Also
    --------
    roc_auc_score : the AUC it rescales; the reference is ``2 * sklearn.metrics.roc_auc_score - 1``.

    Notes
    -----
    ``2 AUC - 1`` with the AUC of :func:`roc_auc_score`; null where it is.

    Examples
    --------
    >>> import polars as pl, framemetrics as fm
    >>> df = pl.DataFrame({"y": [0, 0, 1, 1], "s": [0.1, 0.4, 0.35, 0.8]})
    >>> df.select(fm.gini_score("y", "s")).item()
    0.5
    """
    return metric_expr(
        "gini_score",
        y_true=y_true,
        y_score=y_score,
        sample_weight=sample_weight,
        pos_label=pos_label,
        neg_label=neg_label,
    )


@fill_doc
def average_precision_score(
    y_true: ColumnLike,
    y_score: ColumnLike,
    sample_weight: ColumnLike | None = None,
    *,
    pos_label: Any = 1,
    neg_label: Any = None,
) -> pl.Expr:
    """Average precision, scikit-learn's step-wise definition (not the trapezoid).

    Parameters
    ----------
    {ranking}

    Returns
    -------
    {returns}

    See Also
    --------
    sklearn.metrics.average_precision_score : the reference it matches.

    Notes
    -----
    ``sum_n (R_n - R_(n-1)) P_n`` over distinct scores in decreasing order, i.e.
    ``sum(pw tp / (tp + fp)) / P``. Null when ``P`` is 0 (scikit-learn returns
    0.0 with a warning).

    Examples
    --------
    >>> import polars as pl, framemetrics as fm
    >>> df = pl.DataFrame({"y": [0, 0, 1, 1], "s": [0.1, 0.4, 0.35, 0.8]})
    >>> round(df.select(fm.average_precision_score("y", "s")).item(), 4)
    0.8333
    """
    return metric_expr(
        "average_precision_score",
        y_true=y_true,
        y_score=y_score,
        sample_weight=sample_weight,
        pos_label=pos_label,
        neg_label=neg_label,
    )


@fill_doc
def pr_auc_score(
    y_true: ColumnLike,
    y_score: ColumnLike,
    sample_weight: ColumnLike | None = None,
    *,
    pos_label: Any = 1,
    neg_label: Any = None,
) -> pl.Expr:
    """Area under the precision-recall curve by the trapezoid (Spark's ``areaUnderPR``).

    Parameters
    ----------
    {ranking}

    Returns
    -------
    {returns}

    See Also
    --------
    average_precision_score : the step-wise area, scikit-learn's preferred summary.
    sklearn.metrics.auc : the reference, ``auc(recall, precision)`` of ``precision_recall_curve``.

    Notes
    -----
    Over distinct scores in decreasing order, starting from the point
    (recall 0, precision 1): ``sum (R_n - R_(n-1)) (P_n + P_(n-1)) / 2``.
    Average precision uses ``P_n`` alone: straight lines between PR points are
    an interpolation no classifier achieves (precision does not vary linearly
    with recall; Davis & Goadrich, 2006), which is why scikit-learn recommends
    average precision; the trapezoid is what Spark MLlib and many dashboards
    report. Null when ``P`` is 0.

    Examples
    --------
    >>> import polars as pl, framemetrics as fm
    >>> df = pl.DataFrame({"y": [0, 0, 1, 1], "s": [0.1, 0.4, 0.35, 0.8]})
    >>> round(df.select(fm.pr_auc_score("y", "s")).item(), 4)
    0.7917
    """
    return metric_expr(
        "pr_auc_score",
        y_true=y_true,
        y_score=y_score,
        sample_weight=sample_weight,
        pos_label=pos_label,
        neg_label=neg_label,
    )


@fill_doc
def ks_statistic(
    y_true: ColumnLike,
    y_score: ColumnLike,
    sample_weight: ColumnLike | None = None,
    *,
    pos_label: Any = 1,
    neg_label: Any = None,
) -> pl.Expr:
    """Kolmogorov-Smirnov statistic: the largest gap between TPR and FPR over thresholds.

    Parameters
    ----------
    {ranking}

    Returns
    -------
    {returns}

    See Also
    --------
    sklearn.metrics.roc_curve : the reference is ``max(tpr - fpr)`` of its points.

    Notes
    -----
    ``max_s (tp_s / P - fp_s / N)`` over distinct scores: the two-sample
    Kolmogorov-Smirnov statistic between the (weighted) score distributions of
    the two classes. Null when ``P`` or ``N`` is 0.

    Examples
    --------
    >>> import polars as pl, framemetrics as fm
    >>> df = pl.DataFrame({"y": [0, 0, 1, 1], "s": [0.1, 0.4, 0.35, 0.8]})
    >>> df.select(fm.ks_statistic("y", "s")).item()
    0.5
    """
    return metric_expr(
        "ks_statistic",
        y_true=y_true,
        y_score=y_score,
        sample_weight=sample_weight,
        pos_label=pos_label,
        neg_label=neg_label,
    )


@fill_doc
def ks_threshold(
    y_true: ColumnLike,
    y_score: ColumnLike,
    sample_weight: ColumnLike | None = None,
    *,
    pos_label: Any = 1,
    neg_label: Any = None,
) -> pl.Expr:
    """The highest score at which TPR - FPR is within 1e-12 of the Kolmogorov-Smirnov statistic.

    Parameters
    ----------
    {ranking}

    Returns
    -------
    {returns}

    See Also
    --------
    ks_statistic : the gap reached there.
    sklearn.metrics.roc_curve : the reference is the threshold of the highest
        point of ``tpr - fpr`` (``drop_intermediate=False``).

    Notes
    -----
    The highest distinct score ``s`` whose gap ``tp_s / P - fp_s / N`` is within
    1e-12 of the largest gap: predicting ``y_score >= s`` separates the classes
    best. The tolerance makes gaps that are equal in exact arithmetic tie
    although rounding sets them 1e-16 apart (``1/3 - 0`` and ``2/3 - 1/3``), so
    the highest of them wins on every engine; the price is that a gap short
    of the maximum by less than 1e-12 (a score of weight 1e-13 of the group's)
    ties too. ``+inf`` (predict no positive,
    scikit-learn's first ROC threshold) when the largest gap is 0. Null when
    ``P`` or ``N`` is 0.

    Examples
    --------
    >>> import polars as pl, framemetrics as fm
    >>> df = pl.DataFrame({"y": [0, 0, 1, 1], "s": [0.1, 0.4, 0.35, 0.8]})
    >>> df.select(fm.ks_threshold("y", "s")).item()
    0.8
    """
    return metric_expr(
        "ks_threshold",
        y_true=y_true,
        y_score=y_score,
        sample_weight=sample_weight,
        pos_label=pos_label,
        neg_label=neg_label,
    )


@fill_doc
def break_even_point(
    y_true: ColumnLike,
    y_score: ColumnLike,
    sample_weight: ColumnLike | None = None,
    *,
    pos_label: Any = 1,
    neg_label: Any = None,
) -> pl.Expr:
    """Precision-recall break-even point: where precision equals recall.

    Parameters
    ----------
    {ranking}

    Returns
    -------
    {returns}

    See Also
    --------
    sklearn.metrics.precision_recall_curve : the reference interpolates its points.

    Notes
    -----
    Precision ``tp / k`` equals recall ``tp / P`` exactly when the predicted
    positive weight ``k`` is ``P``. On the discrete curve this is reached by
    ranking rows by decreasing score and taking the top ``P`` of the weight;
    a tied score that straddles rank ``P`` contributes its positive weight pro
    rata, the expected count when tied rows are ordered at random (the linear
    interpolation between the two PR points around ``k = P``):

    ``BEP = (1 / P) sum_s pw_s min(1, max(0, (P - above_s) / (pw_s + nw_s)))``

    with ``above_s`` the weight of scores higher than ``s``. Without ties or
    weights this is R-precision, the precision of the top ``P`` rows.
    Null when ``P`` is 0.

    Examples
    --------
    >>> import polars as pl, framemetrics as fm
    >>> df = pl.DataFrame({"y": [0, 0, 1, 1], "s": [0.1, 0.4, 0.35, 0.8]})
    >>> df.select(fm.break_even_point("y", "s")).item()
    0.5
    """
    return metric_expr(
        "break_even_point",
        y_true=y_true,
        y_score=y_score,
        sample_weight=sample_weight,
        pos_label=pos_label,
        neg_label=neg_label,
    )


@fill_doc
def roc_auc_error_bound(
    y_true: ColumnLike,
    y_score: ColumnLike,
    sample_weight: ColumnLike | None = None,
    *,
    pos_label: Any = 1,
    neg_label: Any = None,
) -> pl.Expr:
    """Bound on how far the AUC over tied (or binned) scores can be from an AUC without the ties.

    Parameters
    ----------
    {ranking}

    Returns
    -------
    {returns}

    See Also
    --------
    roc_auc_score : the AUC it bounds; ``evaluate(..., bins=)`` reports it next to each binned AUC.

    Notes
    -----
    ``sum_s pw_s nw_s / (2 P N)`` over distinct scores: a (positive, negative)
    pair tied at a score counts 1/2 in the AUC, where any ordering of the two
    counts 0 or 1. With scores binned (``bins=`` of :func:`framemetrics.evaluate`,
    or ``(pl.col("p") * 1024).floor()`` here), pairs that only the binning
    ties move by at most 1/2 each, so ``|AUC(binned) - AUC(exact)| <= bound``.
    Null when ``P`` or ``N`` is 0. The reference is the same sum in NumPy; the
    tests also check the bound against scikit-learn's exact AUC.

    Examples
    --------
    >>> import polars as pl, framemetrics as fm
    >>> df = pl.DataFrame({"y": [0, 1, 0, 1], "s": [0.1, 0.5, 0.5, 0.9]})
    >>> df.select(fm.roc_auc_error_bound("y", "s")).item()
    0.125
    """
    return metric_expr(
        "roc_auc_error_bound",
        y_true=y_true,
        y_score=y_score,
        sample_weight=sample_weight,
        pos_label=pos_label,
        neg_label=neg_label,
    )
