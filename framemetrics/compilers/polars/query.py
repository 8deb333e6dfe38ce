"""Execute a plan with Polars: one ``group_by().agg()`` of statistics, then formulas."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import replace
from functools import reduce

import polars as pl

from framemetrics.compilers.polars import POLARS
from framemetrics.compilers.polars.beta_quantiles import beta_quantile_frame
from framemetrics.compilers.polars.frame import PolarsFrame
from framemetrics.compilers.polars.inputs import MetricInputs
from framemetrics.compilers.polars.stages import (
    aggregated,
    cell_statistics,
    cells_stage,
    check_count,
    curve_stage,
    curve_statistics,
    grouped,
    row_statistic,
    rows_of,
)
from framemetrics.core.cells import counts_cells, summed_over_cells
from framemetrics.core.plan import MetricCall, Plan
from framemetrics.core.resampling import ROW_KEY
from framemetrics.core.statistics import bin_score, curve_rows
from framemetrics.stages.bootstrap import bootstrap_bounds

__all__ = [
    "NO_SHARED_SCANS",
    "aggregate",
    "canonical_frame",
    "formula_expr",
    "plan_inputs",
    "run_polars",
    "shared_stage",
]

# The row statistics and the curve stage both read the input; with the default
# common-subplan elimination Polars caches the whole scan in memory to share it
# (5.3 GB for a binned AUC over 2e7 Parquet rows, 1.3 GB without, and faster).
NO_SHARED_SCANS = pl.QueryOptFlags(comm_subplan_elim=False)


def formula_expr(call: MetricCall, statistics: Mapping[str, pl.Expr], checks: Mapping[str, pl.Expr]) -> pl.Expr:
    """Stage 2 of ``call`` over statistics and check counts given as expressions.

    Examples
    --------
    >>> from framemetrics.core.plan import make_plan
    >>> call = make_plan("recall_score", weighted=False).calls[0]
    >>> stats = {"tp": pl.lit(3.0), "fn": pl.lit(1.0)}
    >>> checks = {c.name: pl.lit(0) for c in call.checks}
    >>> pl.select(formula_expr(call, stats, checks)).item()
    0.75
    """
    n_invalid = reduce(lambda a, b: a + b, (checks[c.name] for c in call.checks))
    return call.value(POLARS, statistics, n_invalid).alias(call.name)


def row_key(plan: Plan) -> pl.Expr:
    """The bootstrap's row key: the ``row_id`` column, or the row's position as read."""
    row_id = plan.resampling.row_id
    return pl.int_range(pl.len(), dtype=pl.Int64) if row_id is None else pl.col(row_id)


def plan_inputs(plan: Plan, group_means: bool = False) -> MetricInputs:
    """Inputs reading the canonical columns ``y_true``, ``y_pred``, ... of a frame."""
    return MetricInputs(
        y_true=pl.col("y_true"),
        y_pred=pl.col("y_pred"),
        y_score=pl.col("y_score"),
        sample_weight=pl.col("sample_weight"),
        pos_label=plan.pos_label,
        neg_label=plan.neg_label,
        alpha=plan.alpha,
        max_fpr=plan.max_fpr,
        power=plan.power,
        group_means=group_means,
    )


def _with_group_means(data: pl.LazyFrame, plan: Plan, keys: list[str]) -> pl.LazyFrame:
    """As in SQL: the group means of the first pass, joined back to the rows."""
    if not plan.first_pass:
        return data
    means = [row_statistic(s, rows_of(plan_inputs(plan))).alias(s) for s in plan.first_pass]
    first = data.group_by(keys).agg(means) if keys else data.select(means)
    return data.join(first, on=keys, nulls_equal=True) if keys else data.join(first, how="cross")


def aggregate(rows: pl.LazyFrame, plan: Plan, keys: list[str], statistics: tuple[str, ...]) -> pl.LazyFrame:
    """The row ``statistics`` and the plan's checks per group (SQL: ``statistics_select``).

    Confusion cells go through the counting stage (:mod:`framemetrics.core.cells`),
    everything else is one ``GROUP BY`` of the rows.
    """
    x = rows_of(plan_inputs(plan, group_means=bool(plan.first_pass)))
    checks = {c.name: check_count(c, x) for c in plan.checks}
    if counts_cells(statistics):
        sums = {s: row_statistic(s, x) for s in summed_over_cells(statistics)}
        return cell_statistics(cells_stage(rows, keys, x, sums | checks), keys, x, statistics)
    aggregations = [row_statistic(s, x).alias(s) for s in statistics]
    return grouped(rows, keys, aggregations + [expr.alias(name) for name, expr in checks.items()])


def shared_stage(data: pl.LazyFrame, plan: Plan, keys: list[str]) -> pl.LazyFrame:
    """The scores' curve stage per group of ``data`` (:func:`canonical_frame`), for metrics and curves to share.

    The stage :func:`run_polars` sorts (every score, even of zero weight,
    ``tp_prev, fp_prev`` where the plan's statistics read them);
    :func:`run_polars` takes it as ``stage``, and
    :func:`framemetrics.compilers.polars.curves.shared_points` reads the
    curves' points from it. Without ``bins``.

    Examples
    --------
    >>> from framemetrics.core.plan import make_plan
    >>> lf = pl.LazyFrame({"y_true": [0, 1], "y_score": [0.2, 0.9], "sample_weight": [1.0, 1.0]})
    >>> shared_stage(lf, make_plan("roc_auc_score", weighted=False), []).collect()["tp"].to_list()
    [1.0, 1.0]
    """
    return curve_stage(data, keys, rows_of(plan_inputs(plan)), previous=plan.scores_read_previous)


def canonical_frame(
    frame: pl.LazyFrame,
    plan: Plan,
    columns: Mapping[str, pl.Expr],
    by: tuple[str, ...],
    *,
    drop_nulls: bool,
    extra: Mapping[str, pl.Expr] | None = None,
) -> pl.LazyFrame:
    """As SQL's ``fm_input``: group keys ``fm_g0...`` and the canonical input columns.

    ``extra`` adds columns beyond the plan's roles (a second score), dropped
    at a null too with ``drop_nulls``.

    Examples
    --------
    >>> from framemetrics.core.plan import make_plan
    >>> lf = pl.LazyFrame({"seg": ["a"], "y": [1], "p": [1]})
    >>> plan = make_plan("accuracy_score", weighted=False)
    >>> frame = canonical_frame(lf, plan, {"y_true": pl.col("y"), "y_pred": pl.col("p")}, ("seg",), drop_nulls=False)
    >>> frame.collect_schema().names()
    ['fm_g0', 'y_true', 'y_pred', 'sample_weight']
    """
    keys = [f"fm_g{i}" for i in range(len(by))]
    extra = dict(extra or {})
    data = frame.select(
        *(pl.col(c).alias(k) for c, k in zip(by, keys, strict=True)),
        *(columns[role].alias(role) for role in plan.roles),
        *(value.alias(name) for name, value in extra.items()),
        *(() if plan.weighted else (pl.lit(1.0).alias("sample_weight"),)),
    )
    return data.drop_nulls([*plan.roles, *extra]) if drop_nulls else data


def run_polars(
    frame: pl.LazyFrame,
    plan: Plan,
    columns: Mapping[str, pl.Expr],
    by: tuple[str, ...] = (),
    *,
    drop_nulls: bool = False,
    stage: pl.LazyFrame | None = None,
) -> pl.DataFrame:
    """Compute ``plan`` per group of ``frame``; columns as in :func:`framemetrics.sql.query.plan_query`.

    Parameters
    ----------
    frame : polars.LazyFrame
        The data.
    plan : Plan
        What to compute.
    columns : mapping of str to polars.Expr
        The expression of each input role over ``frame``.
    by : tuple of str
        Group columns.
    drop_nulls : bool
        Drop rows with a null in any used column first.
    stage : polars.LazyFrame, optional
        The scores' curve stage of the same rows and groups (:func:`shared_stage`),
        read in place of sorting the scores again.

    Returns
    -------
    polars.DataFrame
        Group columns, ``n_rows``, one column per metric, then the check counts.

    Examples
    --------
    >>> from framemetrics.core.plan import make_plan
    >>> lf = pl.LazyFrame({"y": [0, 1, 1], "p": [0, 1, 0]})
    >>> out = run_polars(lf, make_plan("accuracy_score", weighted=False),
    ...                  {"y_true": pl.col("y"), "y_pred": pl.col("p")})
    >>> out["accuracy_score"].round(4).item()
    0.6667
    """
    keys = [f"fm_g{i}" for i in range(len(by))]
    extra = {ROW_KEY: row_key(plan)} if plan.bootstrapped else None
    data = canonical_frame(frame, plan, columns, by, drop_nulls=drop_nulls, extra=extra)
    rows = _with_group_means(data, plan, keys)
    stats = aggregate(rows, plan, keys, plan.row_statistics)
    for (score, _), statistics in plan.curve_stages.items():
        x = curve_rows(POLARS, rows_of(plan_inputs(plan)), score)
        if plan.bins is not None and score == "y_score":
            x = replace(x, y_score=bin_score(POLARS, x.y_score.cast(pl.Float64), float(plan.bins)))
        if stage is not None and score == "y_score" and plan.bins is None:
            ranked = aggregated(stage, keys, statistics, plan.max_fpr, plan.alpha)
        else:
            ranked = curve_statistics(data, keys, x, statistics, plan.max_fpr, plan.alpha, labelled=score == "y_score")
        stats = stats.join(ranked, on=keys, nulls_equal=True) if keys else stats.join(ranked, how="cross")
    if plan.bootstrapped:
        x = rows_of(plan_inputs(plan, group_means=bool(plan.first_pass)))
        boot = bootstrap_bounds(PolarsFrame(rows), keys, plan, x).lazy
        stats = stats.join(boot, on=keys, nulls_equal=True) if keys else stats.join(boot, how="cross")
    columns_of = {name: pl.col(name) for name in [*plan.statistics, *(c.name for c in plan.checks)]}
    outputs = [pl.col(k).alias(c) for k, c in zip(keys, by, strict=True)]
    values = {call.name: formula_expr(call, columns_of, columns_of) for call in plan.calls}
    pairs, quantiles = plan.beta_quantiles(POLARS, columns_of)
    if pairs:  # Clopper-Pearson's bounds: every Beta quantile in one set of stages
        beta = beta_quantile_frame(stats, keys, pairs, plan.beta_probability)
        stats = stats.join(beta, on=keys, nulls_equal=True) if keys else stats.join(beta, how="cross")
    for interval, names in zip(plan.formula_intervals, quantiles, strict=True):
        columns = columns_of | {local: pl.col(name) for local, name in names.items()}
        values |= {n: v.alias(n) for n, v in interval.values(POLARS, columns).items()}
    for interval in plan.bootstrapped:
        columns_of |= {n: pl.col(n) for n in interval.columns().values()}
        values |= {n: v.alias(n) for n, v in interval.resampled(POLARS, columns_of).items()}
    outputs += [pl.col("n_rows"), *(values[name] for name in plan.output_columns)]
    outputs += [pl.col(s).cast(pl.Float64).alias(c) for c, s in plan.exposed_columns.items()]
    outputs += [pl.col(c.name) for c in plan.checks]
    result = stats.select(outputs)
    if by:
        result = result.sort(list(by), nulls_last=True)
    # The bootstrap's replicate columns must be streamed in batches: in memory they would be rows x replicates.
    return result.collect(optimizations=NO_SHARED_SCANS, engine="streaming" if plan.bootstrapped else "auto")
