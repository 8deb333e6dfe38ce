"""The Poisson bootstrap in Polars: the replicates' statistics in one ``group_by`` per batch, then percentiles.

Each row's hash (:func:`~framemetrics.core.resampling.row_hash` of its key)
gives its Poisson(1) weight in every replicate (``fm_k0, fm_k1...``); for
each batch of replicates
(:func:`~framemetrics.core.resampling.replicate_batches`, the batches'
results joined per group), one aggregation per group (per group and
confusion cell where the statistics are counted by cells) computes each
statistic of each replicate
(:func:`~framemetrics.core.resampling.replicate_row_statistic`), one curve
stage with a weight column per replicate the ranking statistics, the metric's
formula turns them into replicate values, and the interval is their
percentiles, NumPy's linear interpolation (replicates where the metric is
undefined are left out; none left gives null).
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import replace

import polars as pl

from framemetrics.compilers.polars.namespace import POLARS
from framemetrics.compilers.polars.stages import curve_statistic, grouped, running_sums
from framemetrics.core import bca
from framemetrics.core.cells import CLASSES, counts_cells
from framemetrics.core.plan import IntervalCall, Plan
from framemetrics.core.resampling import (
    Resampling,
    centred_terms,
    percentile_position,
    poisson_weight,
    replicate_batches,
    replicate_cells,
    replicate_points,
    replicate_row_statistic,
    replicate_totals,
    replicate_uniforms,
    row_hash,
    row_terms,
)
from framemetrics.core.statistics import (
    CURVE_SUMS,
    STATISTICS,
    Rows,
    bin_score,
    curve_rows,
    negative_weight,
    positive_weight,
    roc_gap,
)

__all__ = ["ROW_KEY", "bootstrap_bounds", "poisson_weights"]

ROW_KEY = "fm_key"  # the canonical frame's column of row keys


def _percentiles(values: list[pl.Expr], interval: IntervalCall, levels: dict[str, pl.Expr]) -> dict[str, pl.Expr]:
    """The interval's bounds: the replicates' percentiles at the ``levels`` of its outputs, ``(1 -+ level) / 2`` or
    BCa's, NumPy's linear interpolation at the 0-based position ``h = (n - 1) q`` of the ``n`` defined values."""
    ordered = pl.concat_list(values).list.drop_nulls().list.sort()
    n = ordered.list.len()
    bounds = {}
    for output, name in interval.columns().items():
        h = percentile_position(n.cast(pl.Float64), levels[output])
        below = h.floor()
        lower = ordered.list.get(below.cast(pl.Int64), null_on_oob=True)
        upper = ordered.list.get(pl.min_horizontal(below + 1, n - 1).cast(pl.Int64), null_on_oob=True)
        bounds[name] = pl.when(n > 0).then(lower + (h - below) * (upper - lower))
    return bounds


def poisson_weights(resampling: Resampling, replicates: Iterable[int]) -> dict[str, pl.Expr]:
    """Each of the ``replicates``' Poisson weight of a row, ``fm_k<b>``, from its hash in the column ``fm_hash``.

    Examples
    --------
    >>> from framemetrics.core.resampling import Resampling
    >>> sorted(poisson_weights(Resampling(3, seed=0), range(2)))
    ['fm_k0', 'fm_k1']
    """
    uniforms = replicate_uniforms(POLARS, pl.col("fm_hash"), resampling, replicates)
    return {f"fm_k{b}": poisson_weight(POLARS, uniforms[f"fm_u{b}"]) for b in replicates}


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
    requested = list(dict.fromkeys(s for i in plan.bootstrapped for s in i.call.statistics))
    statistics = [s for s in requested if not STATISTICS[s].curve]
    curve = [s for s in requested if STATISTICS[s].curve]
    terms = row_terms(POLARS, statistics, x)
    hashed = data.with_columns(
        fm_hash=row_hash(POLARS, pl.col(ROW_KEY), resampling.seed),
        **{f"fm_v_{s}": term.cast(pl.Float64) for s, term in (terms | centred_terms(POLARS, statistics, x)).items()},
    )
    parts = []
    for batch in replicate_batches(resampling):  # one aggregation per batch, joined per group
        weighted = hashed.with_columns(**poisson_weights(resampling, batch))
        if counts_cells(statistics):  # as the point estimates: per group and confusion cell, then per group
            cells = [e.alias(n) for b in batch for n, e in replicate_cells(POLARS, statistics, x, pl.col(f"fm_k{b}"),
                                                                            b).items()]  # fmt: skip
            totals = [e.alias(n) for b in batch for n, e in replicate_totals(POLARS, statistics, x, b).items()]
            parts.append(grouped(weighted.group_by([*keys, *CLASSES]).agg(cells), keys, totals))
        elif statistics:
            parts.append(grouped(weighted, keys, [
                replicate_row_statistic(POLARS, s, x, pl.col(f"fm_k{b}"), terms).alias(f"{s}__{b}")
                for b in batch for s in statistics
            ]))  # fmt: skip
        if curve:
            parts += _curve_replicates(weighted, keys, plan, x, curve, batch)
    corrected = [(j, i) for j, i in enumerate(plan.bootstrapped) if i.interval.method == "bca"]
    if corrected:
        parts.append(_jackknife(hashed, keys, corrected, x))
    replicated = parts[0]
    for part in parts[1:]:
        replicated = replicated.join(part, on=keys, nulls_equal=True) if keys else replicated.join(part, how="cross")
    values = {}
    for j, interval in enumerate(plan.bootstrapped):
        call = interval.call
        for b in replicates:
            values[f"fm_m{j}__{b}"] = call.value(POLARS, {s: pl.col(f"{s}__{b}") for s in call.statistics})
    replicated = replicated.with_columns(**values)
    if corrected:
        replicated = _bca_levels(replicated, corrected, replicates)
    bounds = {}
    for j, interval in enumerate(plan.bootstrapped):
        columns = [pl.col(f"fm_m{j}__{b}") for b in replicates]
        corrected = interval.interval.method == "bca"
        levels = {o: pl.col(f"fm_alpha{j}_{o}") if corrected else pl.lit(q) for o, q in interval.quantiles().items()}
        bounds |= _percentiles(columns, interval, levels)
    return replicated.select(*keys, **bounds)


def _jackknife(hashed: pl.LazyFrame, keys: list[str], intervals: list[tuple[int, IntervalCall]], x: Rows
               ) -> pl.LazyFrame:  # fmt: skip
    """Per group, for each BCa interval ``j``: the estimate ``fm_theta<j>`` and the acceleration ``fm_a<j>``
    from the rows' jackknife values (:func:`~framemetrics.core.bca.jackknife_statistics`), in one pass over the
    rows with their group's sums beside them (windows)."""
    statistics = list(dict.fromkeys(s for _, i in intervals for s in i.call.statistics))
    terms = {t: pl.col(f"fm_v_{t}") for t in bca.jackknife_terms(statistics)}
    sums = {f"fm_t_{t}": term.sum() for t, term in terms.items()} | {"fm_t_weight": x.sample_weight.sum()}
    with_totals = hashed.with_columns(**{n: total.over(keys) if keys else total for n, total in sums.items()})
    total, weight_total = {t: pl.col(f"fm_t_{t}") for t in terms}, pl.col("fm_t_weight")
    full = bca.jackknife_statistics(POLARS, statistics, total, weight_total)
    left_out = bca.jackknife_statistics(POLARS, statistics, total, weight_total, terms, x.sample_weight)
    thetas = {f"fm_theta{j}": i.call.value(POLARS, full) for j, i in intervals}
    deviations = {f"fm_e{j}": i.call.value(POLARS, left_out) - pl.col(f"fm_theta{j}") for j, i in intervals}
    rows = with_totals.with_columns(**thetas).with_columns(**deviations)
    aggregates = [pl.col(f"fm_theta{j}").first() for j, _ in intervals]
    aggregates += [e.alias(f"fm_{k}_{j}") for j, _ in intervals
                   for k, e in bca.jackknife_sums(POLARS, pl.col(f"fm_e{j}")).items()]  # fmt: skip
    accelerations = {
        f"fm_a{j}": bca.acceleration(POLARS, {k: pl.col(f"fm_{k}_{j}") for k in ("n", "s1", "s2", "s3", "undefined")})
        for j, _ in intervals
    }
    per_group = grouped(rows, keys, aggregates).with_columns(**accelerations)
    return per_group.select(*keys, *(c for j, _ in intervals for c in (f"fm_theta{j}", f"fm_a{j}")))


def _bca_levels(replicated: pl.LazyFrame, intervals: list[tuple[int, IntervalCall]], replicates: range
                ) -> pl.LazyFrame:  # fmt: skip
    """``replicated`` with each BCa interval's adjusted levels ``fm_alpha<j>_low, fm_alpha<j>_high``."""
    shares, corrections, deviates, levels = {}, {}, {}, {}
    for j, interval in intervals:
        values = [pl.col(f"fm_m{j}__{b}") for b in replicates]
        theta = pl.col(f"fm_theta{j}")
        under = [bca.under_estimate(POLARS, v, theta) for v in values]
        below = pl.sum_horizontal([strictly for strictly, _ in under])
        at_or_below = pl.sum_horizontal([at_most for _, at_most in under])
        defined = pl.sum_horizontal([v.is_not_null().cast(pl.Int64) for v in values])
        shares[f"fm_share{j}"] = bca.replicates_below(POLARS, below, at_or_below, defined)
        corrections[f"fm_z0_{j}"] = bca.bias_correction(POLARS, pl.col(f"fm_share{j}"))
        for output, deviate in bca.adjusted_deviates(POLARS, pl.col(f"fm_z0_{j}"), pl.col(f"fm_a{j}"),
                                                 interval.level).items():  # fmt: skip
            deviates[f"fm_deviate{j}_{output}"] = deviate
            levels[f"fm_alpha{j}_{output}"] = bca.adjusted_level(POLARS, pl.col(f"fm_deviate{j}_{output}"))
    for stage in (shares, corrections, deviates, levels):  # each reads the previous one's columns
        replicated = replicated.with_columns(**stage)
    return replicated


def _curve_replicates(
    weighted: pl.LazyFrame, keys: list[str], plan: Plan, x: Rows, statistics: list[str], replicates: range
) -> list[pl.LazyFrame]:
    """Per group, the curve ``statistics`` of each of the ``replicates``: for each value the statistics sort
    (:attr:`~framemetrics.core.statistics.Statistic.score`), one curve stage with weight columns per replicate.

    The rows are summed per group and value with each replicate's Poisson
    weights (``pw__<b>, nw__<b>``; ``pw__<b>`` alone for a quantile's
    stage, every row positive: :func:`~framemetrics.core.statistics.curve_rows`),
    sorted once by the value, and each replicate's running sums taken over
    that order (:func:`~framemetrics.core.resampling.replicate_points`); a
    quantile is each replicate's own, over its points. It holds a row per
    group and distinct value with two to four columns a replicate: bin the
    scores (``bins=``) where they are many.
    """
    stages: dict[str, list[str]] = {}
    for s in statistics:
        stages.setdefault(STATISTICS[s].score, []).append(s)
    return [_stage_replicates(weighted, keys, plan, x, score, names, replicates) for score, names in stages.items()]


def _stage_replicates(
    weighted: pl.LazyFrame, keys: list[str], plan: Plan, x: Rows, score: str, statistics: list[str], replicates: range
) -> pl.LazyFrame:
    """The curve ``statistics`` of each of the ``replicates`` per group, from the one stage sorting ``score``."""
    x = curve_rows(POLARS, x, score)
    labelled = score == "y_score"
    weights = {"pw": positive_weight(POLARS, x)} | ({"nw": negative_weight(POLARS, x)} if labelled else {})
    sums = [(pl.col(f"fm_k{b}") * w).sum().alias(f"{name}__{b}") for b in replicates for name, w in weights.items()]
    value = x.y_score.cast(pl.Float64)
    value = value if plan.bins is None or not labelled else bin_score(POLARS, value, float(plan.bins))
    per_value = weighted.group_by([*keys, value.alias("y_score")]).agg(sums)
    ordered = per_value.sort("y_score", descending=True, nulls_last=True)
    previous = any(STATISTICS[s].previous for s in statistics)
    running = {
        n: e
        for b in replicates
        for n, e in running_sums(CURVE_SUMS[: len(weights)], previous=previous, suffix=f"__{b}").items()
    }
    curve = ordered.with_columns(**{name: e.over(keys) if keys else e for name, e in running.items()})
    aggregations = []
    for b in replicates:
        points = replicate_points(POLARS, b, plan.max_fpr, plan.alpha)
        points = replace(points, gap_max=roc_gap(POLARS, points).max()) if labelled else points
        aggregations += [curve_statistic(s, points).alias(f"{s}__{b}") for s in statistics]
    return grouped(curve, keys, aggregations)
