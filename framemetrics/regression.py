"""Regression metrics as Polars expressions.

Stage 1 gathers weighted sums of per-row errors (and, for R^2 and explained
variance, sums of squares centred on the group's weighted means); each
function is a formula over them.
"""

from __future__ import annotations

import polars as pl

from framemetrics.compose import fill_doc, metric_expr
from framemetrics.inputs import ColumnLike

__all__ = [
    "explained_variance_score",
    "max_error",
    "mean_absolute_error",
    "mean_absolute_percentage_error",
    "mean_pinball_loss",
    "mean_squared_error",
    "mean_squared_log_error",
    "median_absolute_error",
    "r2_score",
    "root_mean_squared_error",
    "root_mean_squared_log_error",
]


@fill_doc
def mean_squared_error(
    y_true: ColumnLike,
    y_pred: ColumnLike,
    sample_weight: ColumnLike | None = None,
) -> pl.Expr:
    """Mean squared error.

    Parameters
    ----------
    {regression}

    Returns
    -------
    {returns}

    See Also
    --------
    sklearn.metrics.mean_squared_error : the reference it matches.

    Notes
    -----
    ``sum(w (y - f)^2) / sum(w)``.

    Examples
    --------
    >>> import polars as pl, framemetrics as fm
    >>> df = pl.DataFrame({"y": [3.0, 5.0, 2.5, 7.0], "f": [2.5, 5.0, 4.0, 8.0]})
    >>> round(df.select(fm.mean_squared_error("y", "f")).item(), 4)
    0.875
    """
    return metric_expr("mean_squared_error", y_true=y_true, y_pred=y_pred, sample_weight=sample_weight)


@fill_doc
def root_mean_squared_error(
    y_true: ColumnLike,
    y_pred: ColumnLike,
    sample_weight: ColumnLike | None = None,
) -> pl.Expr:
    """Root mean squared error.

    Parameters
    ----------
    {regression}

    Returns
    -------
    {returns}

    See Also
    --------
    sklearn.metrics.root_mean_squared_error : the reference it matches.

    Notes
    -----
    ``sqrt(sum(w (y - f)^2) / sum(w))``.

    Examples
    --------
    >>> import polars as pl, framemetrics as fm
    >>> df = pl.DataFrame({"y": [3.0, 5.0, 2.5, 7.0], "f": [2.5, 5.0, 4.0, 8.0]})
    >>> round(df.select(fm.root_mean_squared_error("y", "f")).item(), 4)
    0.9354
    """
    return metric_expr("root_mean_squared_error", y_true=y_true, y_pred=y_pred, sample_weight=sample_weight)


@fill_doc
def mean_absolute_error(
    y_true: ColumnLike,
    y_pred: ColumnLike,
    sample_weight: ColumnLike | None = None,
) -> pl.Expr:
    """Mean absolute error.

    Parameters
    ----------
    {regression}

    Returns
    -------
    {returns}

    See Also
    --------
    sklearn.metrics.mean_absolute_error : the reference it matches.

    Notes
    -----
    ``sum(w |y - f|) / sum(w)``.

    Examples
    --------
    >>> import polars as pl, framemetrics as fm
    >>> df = pl.DataFrame({"y": [3.0, 5.0, 2.5, 7.0], "f": [2.5, 5.0, 4.0, 8.0]})
    >>> round(df.select(fm.mean_absolute_error("y", "f")).item(), 4)
    0.75
    """
    return metric_expr("mean_absolute_error", y_true=y_true, y_pred=y_pred, sample_weight=sample_weight)


@fill_doc
def mean_squared_log_error(
    y_true: ColumnLike,
    y_pred: ColumnLike,
    sample_weight: ColumnLike | None = None,
) -> pl.Expr:
    """Mean squared logarithmic error.

    Parameters
    ----------
    {regression}

    Returns
    -------
    {returns}

    See Also
    --------
    sklearn.metrics.mean_squared_log_error : the reference it matches.

    Notes
    -----
    ``sum(w (log1p(y) - log1p(f))^2) / sum(w)``; values <= -1 are invalid input.
    ``log1p(x)`` is computed as ``log(1 + x) x / ((1 + x) - 1)`` in both engines.

    Examples
    --------
    >>> import polars as pl, framemetrics as fm
    >>> df = pl.DataFrame({"y": [3.0, 5.0, 2.5, 7.0], "f": [2.5, 5.0, 4.0, 8.0]})
    >>> round(df.select(fm.mean_squared_log_error("y", "f")).item(), 4)
    0.0397
    """
    return metric_expr("mean_squared_log_error", y_true=y_true, y_pred=y_pred, sample_weight=sample_weight)


@fill_doc
def root_mean_squared_log_error(
    y_true: ColumnLike,
    y_pred: ColumnLike,
    sample_weight: ColumnLike | None = None,
) -> pl.Expr:
    """Root mean squared logarithmic error.

    Parameters
    ----------
    {regression}

    Returns
    -------
    {returns}

    See Also
    --------
    sklearn.metrics.root_mean_squared_log_error : the reference it matches.

    Notes
    -----
    ``sqrt(mean_squared_log_error)``.

    Examples
    --------
    >>> import polars as pl, framemetrics as fm
    >>> df = pl.DataFrame({"y": [3.0, 5.0, 2.5, 7.0], "f": [2.5, 5.0, 4.0, 8.0]})
    >>> round(df.select(fm.root_mean_squared_log_error("y", "f")).item(), 4)
    0.1993
    """
    return metric_expr("root_mean_squared_log_error", y_true=y_true, y_pred=y_pred, sample_weight=sample_weight)


@fill_doc
def mean_absolute_percentage_error(
    y_true: ColumnLike,
    y_pred: ColumnLike,
    sample_weight: ColumnLike | None = None,
) -> pl.Expr:
    """Mean absolute percentage error (as a fraction, not in percent).

    Parameters
    ----------
    {regression}

    Returns
    -------
    {returns}

    See Also
    --------
    sklearn.metrics.mean_absolute_percentage_error : the reference it matches.

    Notes
    -----
    ``sum(w |f - y| / max(|y|, eps)) / sum(w)`` with ``eps = 2**-52``.

    Examples
    --------
    >>> import polars as pl, framemetrics as fm
    >>> df = pl.DataFrame({"y": [3.0, 5.0, 2.5, 7.0], "f": [2.5, 5.0, 4.0, 8.0]})
    >>> round(df.select(fm.mean_absolute_percentage_error("y", "f")).item(), 4)
    0.2274
    """
    return metric_expr("mean_absolute_percentage_error", y_true=y_true, y_pred=y_pred, sample_weight=sample_weight)


@fill_doc
def mean_pinball_loss(
    y_true: ColumnLike, y_pred: ColumnLike, sample_weight: ColumnLike | None = None, *, alpha: float = 0.5
) -> pl.Expr:
    """Mean pinball (quantile) loss at quantile ``alpha``.

    Parameters
    ----------
    {regression}
    alpha : float, default 0.5
        The quantile, in [0, 1].

    Returns
    -------
    {returns}

    See Also
    --------
    sklearn.metrics.mean_pinball_loss : the reference it matches.

    Notes
    -----
    ``sum(w (alpha max(y - f, 0) + (1 - alpha) max(f - y, 0))) / sum(w)``.

    Examples
    --------
    >>> import polars as pl, framemetrics as fm
    >>> df = pl.DataFrame({"y": [3.0, 5.0, 2.5, 7.0], "f": [2.5, 5.0, 4.0, 8.0]})
    >>> round(df.select(fm.mean_pinball_loss("y", "f")).item(), 4)
    0.375
    """
    return metric_expr("mean_pinball_loss", y_true=y_true, y_pred=y_pred, sample_weight=sample_weight, alpha=alpha)


@fill_doc
def r2_score(
    y_true: ColumnLike, y_pred: ColumnLike, sample_weight: ColumnLike | None = None, *, force_finite: bool = True
) -> pl.Expr:
    """Coefficient of determination R^2.

    Parameters
    ----------
    {regression}
    force_finite : bool, default True
        Replace the undefined values of a constant ``y_true`` by 1 or 0.

    Returns
    -------
    {returns}

    See Also
    --------
    sklearn.metrics.r2_score : the reference it matches.

    Notes
    -----
    ``1 - sum(w (y - f)^2) / sum(w (y - ybar)^2)``, ``ybar`` the weighted mean,
    centred exactly (a first pass computes ``ybar`` per group). With
    ``force_finite`` (default) a zero numerator gives 1 and a zero denominator
    0; without, ``0 / 0`` is null and ``x / 0`` is ``-inf``. Null with fewer
    than two rows (scikit-learn: NaN).

    Examples
    --------
    >>> import polars as pl, framemetrics as fm
    >>> df = pl.DataFrame({"y": [3.0, 5.0, 2.5, 7.0], "f": [2.5, 5.0, 4.0, 8.0]})
    >>> round(df.select(fm.r2_score("y", "f")).item(), 4)
    0.7241
    """
    return metric_expr("r2_score", y_true=y_true, y_pred=y_pred, sample_weight=sample_weight, force_finite=force_finite)


@fill_doc
def explained_variance_score(
    y_true: ColumnLike, y_pred: ColumnLike, sample_weight: ColumnLike | None = None, *, force_finite: bool = True
) -> pl.Expr:
    """Explained variance score.

    Parameters
    ----------
    {regression}
    force_finite : bool, default True
        Replace the undefined values of a constant ``y_true`` by 1 or 0.

    Returns
    -------
    {returns}

    See Also
    --------
    sklearn.metrics.explained_variance_score : the reference it matches.

    Notes
    -----
    ``1 - var_w(y - f) / var_w(y)`` with weighted, exactly centred variances;
    the same ``force_finite`` rules as :func:`r2_score`.

    Examples
    --------
    >>> import polars as pl, framemetrics as fm
    >>> df = pl.DataFrame({"y": [3.0, 5.0, 2.5, 7.0], "f": [2.5, 5.0, 4.0, 8.0]})
    >>> round(df.select(fm.explained_variance_score("y", "f")).item(), 4)
    0.803
    """
    return metric_expr(
        "explained_variance_score", y_true=y_true, y_pred=y_pred, sample_weight=sample_weight, force_finite=force_finite
    )


@fill_doc
def max_error(
    y_true: ColumnLike,
    y_pred: ColumnLike,
    sample_weight: ColumnLike | None = None,
) -> pl.Expr:
    """Maximum absolute error.

    Parameters
    ----------
    {regression}

    Returns
    -------
    {returns}

    See Also
    --------
    sklearn.metrics.max_error : the reference it matches.

    Notes
    -----
    ``max |y - f|`` over the rows of positive weight (scikit-learn's
    ``max_error`` takes no weights: zero-weight rows are left out).

    Examples
    --------
    >>> import polars as pl, framemetrics as fm
    >>> df = pl.DataFrame({"y": [3.0, 5.0, 2.5, 7.0], "f": [2.5, 5.0, 4.0, 8.0]})
    >>> round(df.select(fm.max_error("y", "f")).item(), 4)
    1.5
    """
    return metric_expr("max_error", y_true=y_true, y_pred=y_pred, sample_weight=sample_weight)


@fill_doc
def median_absolute_error(
    y_true: ColumnLike,
    y_pred: ColumnLike,
) -> pl.Expr:
    """Median absolute error.

    Parameters
    ----------
    y_true : str or polars.Expr
        True values (finite numbers).
    y_pred : str or polars.Expr
        Predicted values (finite numbers).

    Returns
    -------
    {returns}

    See Also
    --------
    sklearn.metrics.median_absolute_error : the reference it matches.

    Notes
    -----
    ``median |y - f|`` (the mean of the two middle values for an even count).
    Unweighted only: a weighted median is not implemented yet.

    Examples
    --------
    >>> import polars as pl, framemetrics as fm
    >>> df = pl.DataFrame({"y": [3.0, 5.0, 2.5, 7.0], "f": [2.5, 5.0, 4.0, 8.0]})
    >>> round(df.select(fm.median_absolute_error("y", "f")).item(), 4)
    0.75
    """
    return metric_expr("median_absolute_error", y_true=y_true, y_pred=y_pred)
