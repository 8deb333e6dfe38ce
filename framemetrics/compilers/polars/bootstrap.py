"""The Poisson bootstrap in Polars: every replicate's statistics in one ``group_by``, then percentiles.

Each row's hash (:func:`~framemetrics.core.resampling.row_hash` of its key)
gives its Poisson(1) weight in every replicate (``fm_k0, fm_k1...``); one
aggregation per group computes each statistic of each replicate
(:func:`~framemetrics.core.resampling.replicate_statistic`), the metric's
formula turns them into replicate values, and the interval is their
percentiles, NumPy's linear interpolation (replicates where the metric is
undefined are left out; none left gives null).
"""

from __future__ import annotations

import polars as pl

from framemetrics.compilers.polars.namespace import POLARS
from framemetrics.compilers.polars.stages import grouped
from framemetrics.core.cells import CLASSES, counts_cells
from framemetrics.core.formulas import apply_formula
from framemetrics.core.plan import IntervalCall, Plan
from framemetrics.core.resampling import (
    poisson_weight,
    replicate_cells,
    replicate_statistic,
    replicate_sum,
    replicate_totals,
    replicate_uniforms,
    row_hash,
    row_terms,
)
from framemetrics.core.statistics import Rows

__all__ = ["ROW_KEY", "bootstrap_bounds"]

ROW_KEY = "fm_key"  # the canonical frame's column of row keys


def _percentiles(values: list[pl.Expr], interval: IntervalCall) -> dict[str, pl.Expr]:
    """The interval's bounds: the replicates' percentiles at (1 -+ level) / 2."""
    replicates = pl.concat_list(values)
    quantiles = interval.quantiles()
    return {
        name: replicates.list.eval(pl.element().quantile(quantiles[output], interpolation="linear")).list.first()
        for output, name in interval.columns().items()
    }


def bootstrap_bounds(data: pl.LazyFrame, keys: list[str], plan: Plan, x: Rows) -> pl.LazyFrame:
    """Per group, the bounds of every bootstrap interval of ``plan`` over ``data`` (with :data:`ROW_KEY`).

    Examples
    --------
    >>> from framemetrics.compilers.polars.query import plan_inputs
    >>> from framemetrics.compilers.polars.stages import rows_of
    >>> from framemetrics.core.plan import make_plan
    >>> plan = make_plan("mean_absolute_error", task="regression", weighted=False, ci=0.9, n_resamples=50)
    >>> lf = pl.LazyFrame({"y_true": [1.0, 2, 3, 4], "y_pred": [1.5, 2, 2, 5], "sample_weight": 1.0,
    ...                    "fm_key": [0, 1, 2, 3]})
    >>> out = bootstrap_bounds(lf, [], plan, rows_of(plan_inputs(plan))).collect()
    >>> out.columns, 0 <= out.item(0, 0) <= out.item(0, 1) <= 1
    (['mean_absolute_error_low', 'mean_absolute_error_high'], True)
    """
    resampling, replicates = plan.resampling, range(plan.resampling.n_resamples)
    uniforms = replicate_uniforms(POLARS, pl.col("fm_hash"), resampling)
    weights = {f"fm_k{b}": poisson_weight(POLARS, u) for b, u in enumerate(uniforms.values())}
    statistics = list(dict.fromkeys(s for i in plan.bootstrapped for s in i.call.statistics))
    terms = row_terms(POLARS, statistics, x)
    weighted = data.with_columns(
        fm_hash=row_hash(POLARS, pl.col(ROW_KEY), resampling.seed),
        **{f"fm_v_{s}": term.cast(pl.Float64) for s, term in terms.items()},
    ).with_columns(**weights)
    if counts_cells(statistics):  # as the point estimates: per group and confusion cell, then per group
        cells = [e.alias(n) for b in replicates for n, e in replicate_cells(POLARS, statistics, x, pl.col(f"fm_k{b}"),
                                                                            b).items()]  # fmt: skip
        totals = [e.alias(n) for b in replicates for n, e in replicate_totals(POLARS, statistics, x, b).items()]
        replicated = grouped(weighted.group_by([*keys, *CLASSES]).agg(cells), keys, totals)
    else:
        replicated = grouped(weighted, keys, [
            (replicate_sum(POLARS, s, pl.col(f"fm_k{b}") * pl.col(f"fm_v_{s}")) if s in terms
             else replicate_statistic(POLARS, s, x, pl.col(f"fm_k{b}"))).alias(f"{s}__{b}")
            for b in replicates for s in statistics
        ])  # fmt: skip
    bounds = {}
    for interval in plan.bootstrapped:
        call = interval.call
        values = []
        for b in replicates:
            arguments = {s: pl.col(f"{s}__{b}") for s in call.statistics} | {s: POLARS.null() for s in call.skipped}
            values.append(apply_formula(POLARS, call.name, arguments, pl.lit(0), call.params))
        bounds |= _percentiles(values, interval)
    return replicated.select(*keys, **bounds)
