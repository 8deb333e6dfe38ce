"""The canonical inputs a metric reads: columns as Polars expressions, plus labels, and the core's rows of them."""

from __future__ import annotations

from dataclasses import dataclass, replace
from typing import Any

import polars as pl

from framemetrics.compilers.polars.namespace import POLARS
from framemetrics.core.plan import check_labels, default_neg_label
from framemetrics.core.statistics import STATISTICS, Rows

__all__ = ["ColumnLike", "MetricInputs", "rows_of", "to_expr"]

ColumnLike = str | pl.Expr


def to_expr(column: ColumnLike) -> pl.Expr:
    """A column name or expression as an expression.

    Examples
    --------
    >>> to_expr("y").meta.output_name()
    'y'
    """
    return pl.col(column) if isinstance(column, str) else column


@dataclass(frozen=True)
class MetricInputs:
    """Expressions for the roles a metric reads, and the class labels.

    ``group_means`` says that the group means (``mean_y_true``,
    ``mean_error``) are columns, computed by a first pass, rather than
    aggregations to broadcast inside the group.

    Examples
    --------
    >>> MetricInputs.of(y_true="y", y_pred="p").neg_label
    0
    """

    y_true: pl.Expr
    y_pred: pl.Expr
    y_score: pl.Expr
    sample_weight: pl.Expr
    pos_label: Any = 1
    neg_label: Any = 0
    alpha: float = 0.5
    max_fpr: float = 1.0
    power: float = 0.0
    group_means: bool = False

    @classmethod
    def of(
        cls,
        *,
        y_true: ColumnLike,
        y_pred: ColumnLike | None = None,
        y_score: ColumnLike | None = None,
        sample_weight: ColumnLike | None = None,
        pos_label: Any = 1,
        neg_label: Any = None,
        alpha: float = 0.5,
        max_fpr: float = 1.0,
        power: float = 0.0,
    ) -> MetricInputs:
        """Build inputs from column names or expressions (see the class example)."""
        missing = pl.lit(None, dtype=pl.Float64)
        truth = to_expr(y_true)
        # Unweighted: a one per row, elementwise (pl.repeat(1.0, pl.len()) inside an aggregation is built group by
        # group: 7x the time of the sum it weights at 20,000 groups).
        ones = (truth.is_null() | truth.is_not_null()).cast(pl.Float64)
        weight = ones if sample_weight is None else to_expr(sample_weight)
        pos_label, neg_label = check_labels(pos_label, neg_label)
        return cls(
            y_true=truth,
            y_pred=missing if y_pred is None else to_expr(y_pred),
            y_score=missing if y_score is None else to_expr(y_score),
            sample_weight=weight.cast(pl.Float64),
            pos_label=pos_label,
            neg_label=default_neg_label(pos_label, neg_label),
            alpha=alpha,
            max_fpr=max_fpr,
            power=power,
        )


def rows_of(inputs: MetricInputs) -> Rows:
    """The core's :class:`~framemetrics.core.statistics.Rows` of ``inputs``: the group means as columns (a first
    pass computed them) or as aggregations broadcast inside the group.

    Examples
    --------
    >>> x = rows_of(MetricInputs.of(y_true="y", y_pred="p"))
    >>> pl.DataFrame({"y": [0, 1, 1, 0]}).select(x.mean_y_true).item()
    0.5
    """
    x = Rows(
        y_true=inputs.y_true,
        y_pred=inputs.y_pred,
        y_score=inputs.y_score,
        sample_weight=inputs.sample_weight,
        pos_label=inputs.pos_label,
        neg_label=inputs.neg_label,
        alpha=inputs.alpha,
        max_fpr=inputs.max_fpr,
        power=inputs.power,
    )
    if inputs.group_means:
        return replace(x, mean_y_true=pl.col("mean_y_true"), mean_error=pl.col("mean_error"))
    means = ("mean_y_true", "mean_error")
    return replace(x, **{name: STATISTICS[name].build(POLARS, x) for name in means})
