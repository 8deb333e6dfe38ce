"""Binary probability metrics (log loss, Brier score) as Polars expressions."""

from __future__ import annotations

from typing import Any

import polars as pl

from framemetrics.compose import fill_doc, metric_expr
from framemetrics.inputs import ColumnLike

__all__ = ["brier_score_loss", "log_loss"]


@fill_doc
def log_loss(
    y_true: ColumnLike,
    y_score: ColumnLike,
    sample_weight: ColumnLike | None = None,
    *,
    pos_label: Any = 1,
    neg_label: Any = None,
) -> pl.Expr:
    """Log loss (cross-entropy) of the predicted probabilities.

    Parameters
    ----------
    {probabilities}

    Returns
    -------
    {returns}

    See Also
    --------
    sklearn.metrics.log_loss : the reference it matches.

    Notes
    -----
    ``sum(w * -log(q)) / sum(w)`` with ``q`` the probability given to the true
    class, clipped to ``[eps, 1 - eps]`` with ``eps = 2**-52`` exactly as
    scikit-learn clips ``[1 - p, p]``.

    Examples
    --------
    >>> import polars as pl, framemetrics as fm
    >>> df = pl.DataFrame({"y": [0, 1, 1, 0], "p": [0.1, 0.9, 0.8, 0.3]})
    >>> round(df.select(fm.log_loss("y", "p")).item(), 4)
    0.1976
    """
    return metric_expr(
        "log_loss",
        y_true=y_true,
        y_score=y_score,
        sample_weight=sample_weight,
        pos_label=pos_label,
        neg_label=neg_label,
    )


@fill_doc
def brier_score_loss(
    y_true: ColumnLike,
    y_score: ColumnLike,
    sample_weight: ColumnLike | None = None,
    *,
    pos_label: Any = 1,
    neg_label: Any = None,
) -> pl.Expr:
    """Brier score: the weighted mean squared error of the probabilities.

    Parameters
    ----------
    {probabilities}

    Returns
    -------
    {returns}

    See Also
    --------
    sklearn.metrics.brier_score_loss : the reference it matches.

    Notes
    -----
    ``sum(w * (y - p)^2) / sum(w)`` with ``y`` 1 for ``pos_label``, else 0.

    Examples
    --------
    >>> import polars as pl, framemetrics as fm
    >>> df = pl.DataFrame({"y": [0, 1, 1, 0], "p": [0.1, 0.9, 0.8, 0.3]})
    >>> round(df.select(fm.brier_score_loss("y", "p")).item(), 4)
    0.0375
    """
    return metric_expr(
        "brier_score_loss",
        y_true=y_true,
        y_score=y_score,
        sample_weight=sample_weight,
        pos_label=pos_label,
        neg_label=neg_label,
    )
