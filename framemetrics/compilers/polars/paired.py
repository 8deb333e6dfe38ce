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
from framemetrics.compilers.polars.query import plan_inputs
from framemetrics.compilers.polars.stages import aggregated, curve_stage, frame_points, grouped, rows_of
from framemetrics.core.checks import check_counts
from framemetrics.core.formulas.guards import bounded
from framemetrics.core.intervals import PAIRED_OUTPUTS, PAIRED_STAGES, paired_sums
from framemetrics.core.plan import Plan
from framemetrics.core.statistics import Rows, negatives_above, positives_above

__all__ = ["paired_result", "paired_statistics"]


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


def paired_result(data: pl.LazyFrame, plan: Plan, by: tuple[str, ...], z: float) -> pl.LazyFrame:
    """The paired test per group of canonical rows ``data`` (``y_score_2`` the second score), with check counts.

    Examples
    --------
    >>> from framemetrics.core.plan import make_plan
    >>> rows = pl.LazyFrame({"y_true": [0, 1, 0, 1], "y_score": [0.1, 0.9, 0.3, 0.8],
    ...                      "y_score_2": [0.2, 0.7, 0.6, 0.5], "sample_weight": [1.0] * 4})
    >>> out = paired_result(rows, make_plan("roc_auc_score", weighted=False), (), 1.96).collect()
    >>> out.select("roc_auc_1", "roc_auc_2").rows()
    [(1.0, 0.75)]
    """
    keys = [f"fm_g{i}" for i in range(len(by))]
    counts = check_counts(plan.checks, POLARS, plan.pos_label, plan.neg_label) | {"n_rows": POLARS.count_rows()}
    stats = paired_statistics(data, keys, rows_of(plan_inputs(plan)), (pl.col("y_score"), pl.col("y_score_2")), counts)
    n_invalid = sum((pl.col(c.name) for c in plan.checks), pl.lit(0))
    columns = {name: pl.col(name) for name in stats.collect_schema().names()}
    for stage in PAIRED_STAGES:
        values = stage(POLARS, columns, pl.lit(z), n_invalid)
        stats = stats.with_columns(**values)
        columns |= {name: pl.col(name) for name in values}
    outputs = [pl.col(k).alias(c) for k, c in zip(keys, by, strict=True)]
    outputs += [pl.col("n_rows"), *(bounded(POLARS, pl.col(n)).alias(n) for n in PAIRED_OUTPUTS)]
    return stats.select(*outputs, *(pl.col(c.name) for c in plan.checks))
