"""DeLong's paired test of two scores per group, in Polars: two curve stages and one pass over the rows.

Each score's curve stage (:func:`~framemetrics.compilers.polars.stages.curve_stage`)
gives its AUC statistics and, per distinct score, the placements ``a, b``
(:func:`~framemetrics.core.statistics.negatives_above`,
:func:`~framemetrics.core.statistics.positives_above`); the rows are joined
to the placements of their two scores and summed per group
(:func:`~framemetrics.core.intervals.paired_sums`). The formulas are the
core's (:func:`~framemetrics.core.intervals.paired_delong`).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import replace

import polars as pl

from framemetrics.compilers.polars.namespace import POLARS
from framemetrics.compilers.polars.stages import aggregated, curve_stage, frame_points, grouped
from framemetrics.core.intervals import paired_sums
from framemetrics.core.statistics import Rows, negatives_above, positives_above

__all__ = ["paired_statistics"]


def paired_statistics(
    data: pl.LazyFrame, keys: list[str], x: Rows, scores: tuple[pl.Expr, pl.Expr], checks: Mapping[str, pl.Expr]
) -> pl.LazyFrame:
    """Per group: ``auc_sum_1, auc_sum_2, sum_pos, sum_neg``, the paired sums and the ``checks`` counts.

    Examples
    --------
    >>> from framemetrics.compilers.polars.stages import rows_of
    >>> from framemetrics.compilers.polars.inputs import MetricInputs
    >>> lf = pl.LazyFrame({"y": [0, 0, 1, 1], "a": [0.1, 0.5, 0.4, 0.9], "b": [0.2, 0.1, 0.6, 0.7]})
    >>> x = rows_of(MetricInputs.of(y_true="y", y_score="a"))
    >>> out = paired_statistics(lf, [], x, (pl.col("a"), pl.col("b")), {}).collect()
    >>> out.select("auc_sum_1", "auc_sum_2", "delong_neg_sum").row(0)
    (1.5, 2.0, -1.0)
    """
    points = frame_points()
    joined, stages = data, []
    for k, score in enumerate(scores, start=1):
        stage = curve_stage(data, keys, replace(x, y_score=score))
        named = {"auc_sum": f"auc_sum_{k}"}
        stages.append(aggregated(stage, keys, ("auc_sum", "sum_pos", "sum_neg")).rename(named))
        placements = stage.select(
            *keys,
            pl.col("y_score").alias(f"fm_score_{k}"),
            negatives_above(points).alias(f"fm_a_{k}"),
            positives_above(points).alias(f"fm_b_{k}"),
        )
        joined = joined.with_columns(score.cast(pl.Float64).alias(f"fm_score_{k}"))
        joined = joined.join(placements, on=[*keys, f"fm_score_{k}"], how="left", nulls_equal=True)
    a_1, a_2, b_1, b_2 = (pl.col(f"fm_{v}_{k}") for v in "ab" for k in (1, 2))
    sums = paired_sums(POLARS, x, a_1, a_2, b_1, b_2)
    summed = grouped(joined, keys, [*(e.alias(n) for n, e in sums.items()), *(e.alias(n) for n, e in checks.items())])
    first, second = stages
    second = second.drop("sum_pos", "sum_neg")
    if not keys:
        return summed.join(first, how="cross").join(second, how="cross")
    return summed.join(first, on=keys, nulls_equal=True).join(second, on=keys, nulls_equal=True)
