"""A plan's metrics per group, written once on a frame: inputs, checks, statistics, formulas, the metrics table.

The rows (one per input row: the group columns ``keys`` and the canonical
columns ``y_true, y_pred, y_score, sample_weight``) go through:

1. the first pass (``fm_means``): the group means a centred sum reads,
   joined back to the rows;
2. the row statistics and the check counts per group (``fm_statistics``),
   through the confusion cells (:mod:`framemetrics.stages.cells`) where the
   statistics are cells and sums;
3. the curve statistics per group, one curve stage
   (:mod:`framemetrics.stages.curve_stage`) per score the plan sorts, with the
   group's largest ROC gap and weighted quantile where a statistic reads
   them (``<prefix>_ranking``);
4. the Beta quantiles and the bootstrap's bounds, stages the caller gives;
5. the formulas (``fm_values``), then each metric bounded (a number or
   null) in the metrics table: the group columns, ``n_rows``, the metrics,
   the exposed statistics and the check counts.

Each engine gives the rows as a frame (:mod:`framemetrics.engines`); a
stage's name is its common table expression in SQL.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from functools import reduce
from typing import Any

from framemetrics.core.cells import counts_cells, summed_over_cells
from framemetrics.core.formulas.guards import bounded
from framemetrics.core.frame import Frame
from framemetrics.core.namespace import Namespace
from framemetrics.core.plan import IntervalCall, Plan
from framemetrics.core.statistics import (
    STATISTICS,
    CurvePoints,
    Rows,
    bin_score,
    curve_rows,
    quantile_level,
    roc_gap,
    weighted_quantile,
)
from framemetrics.stages.cells import cell_statistics, cells, with_all_rows
from framemetrics.stages.curve_stage import curve_stage
from framemetrics.stages.parts import by_parts

__all__ = [
    "GroupWindows",
    "checks_table",
    "curve_statistics",
    "metrics_table",
    "rolls_up",
    "row_statistics",
    "shared_stage",
]

Expr = Any
# Per group, the columns ``fm_q<j>`` of the Beta quantiles at ``p`` of ``pairs`` over the statistics.
BetaStage = Callable[[Frame, Sequence[str], list[tuple[Expr, Expr]], float], Frame]
# Per group, the bootstrap's bounds of a plan's intervals, from the rows with their group means.
Bootstrap = Callable[[Frame, Plan], Sequence[Frame]]


def row_statistics(
    rows: Frame, plan: Plan, keys: Sequence[str], x: Rows, statistics: Sequence[str], *, all_rows: bool = False
) -> Frame:
    """The row ``statistics`` and the plan's check counts per group (``fm_statistics``).

    Confusion cells go through the counting stage (:mod:`framemetrics.stages.cells`),
    everything else is one aggregate of the rows. With ``all_rows`` (a plan that
    :func:`rolls_up`), the rows are those of the groups of ``keys[1:]`` at the
    level ``keys[0]`` = 1, and all rows get their group too, at level 0: its
    cells summed from the groups' (:func:`~framemetrics.stages.cells.with_all_rows`).

    Examples
    --------
    >>> from framemetrics.compilers.polars.frame import PolarsFrame
    >>> from framemetrics.compilers.polars.query import plan_rows
    >>> from framemetrics.core.plan import make_plan
    >>> f = PolarsFrame.values({"y_true": [0, 1, 1], "y_pred": [1, 1, 0], "sample_weight": [1.0, 1.0, 1.0]})
    >>> plan = make_plan("recall_score", weighted=False)
    >>> x = plan_rows(plan, group_means=True)
    >>> row_statistics(f, plan, [], x, plan.row_statistics).collect().select("n_rows", "tp", "fn").rows()
    [(3, 1.0, 1.0)]
    """
    ns = rows.ns
    checks = {c.name: c.count(ns, getattr(x, c.role), x.pos_label, x.neg_label) for c in plan.checks}
    if counts_cells(statistics):
        sums = {s: STATISTICS[s].build(ns, x) for s in summed_over_cells(statistics)}
        counted = cells(rows, keys, x, sums | checks).named("fm_cells")
        if all_rows:
            counted = with_all_rows(counted, keys).named("fm_all_cells")
        return cell_statistics(counted, keys, x, statistics).named("fm_statistics")
    assert not all_rows, "all rows' statistics are summed from the groups' confusion cells alone"
    aggregates = {s: STATISTICS[s].build(ns, x) for s in statistics} | checks
    return rows.aggregate(keys, aggregates).named("fm_statistics")


def rolls_up(plan: Plan) -> bool:
    """Whether the plan's statistics of all rows can be summed from those of the groups, given a shared curve
    stage of both levels (:func:`metrics_table` ``all_rows``): row statistics all counted through the confusion
    cells (sums), no first pass, no bootstrap, every curve statistic of the unbinned scores' stage.

    Examples
    --------
    >>> from framemetrics.core.plan import make_plan
    >>> rolls_up(make_plan(["roc_auc_score", "f1_score", "log_loss"], weighted=True))
    True
    >>> rolls_up(make_plan(["r2_score"], weighted=True)), rolls_up(make_plan(["roc_auc_score"], weighted=True))
    (False, False)
    """
    scores_only = all(score == "y_score" and not quantile for score, quantile in plan.curve_stages)
    return (
        counts_cells(plan.row_statistics)
        and not plan.first_pass
        and not plan.bootstrapped
        and scores_only
        and (plan.bins is None)
    )


def checks_table(rows: Frame, plan: Plan, keys: Sequence[str], x: Rows) -> Frame:
    """The row count and the plan's check counts per group (``fm_statistics``).

    Examples
    --------
    >>> from framemetrics.compilers.polars.frame import PolarsFrame
    >>> from framemetrics.compilers.polars.query import plan_rows
    >>> from framemetrics.core.plan import make_plan
    >>> f = PolarsFrame.values({"y_true": [0, 1, 2], "y_score": [0.5, 0.2, 0.9], "sample_weight": [1.0] * 3})
    >>> plan = make_plan("roc_auc_score", weighted=False)
    >>> out = checks_table(f, plan, [], plan_rows(plan, group_means=True)).collect()
    >>> out.select("n_rows", "invalid_label_y_true").rows()
    [(3, 1)]
    """
    return row_statistics(rows, plan, keys, x, ("n_rows",))


def shared_stage(rows: Frame, plan: Plan, keys: Sequence[str], x: Rows) -> Frame:
    """The scores' curve stage that :func:`metrics_table` sorts (every score, even of zero weight, ``tp_prev,
    fp_prev`` where the plan's statistics read them), for metrics and curves to share. Without ``bins``.

    Each score also has ``n_rows``, its rows: the calibration bins
    (:func:`framemetrics.stages.calibration.stage_bins`) and the groups' sizes read it.

    Examples
    --------
    >>> from framemetrics.compilers.polars.frame import PolarsFrame
    >>> from framemetrics.compilers.polars.query import plan_rows
    >>> from framemetrics.core.plan import make_plan
    >>> f = PolarsFrame.values({"y_true": [0, 1], "y_score": [0.2, 0.9], "sample_weight": [1.0, 1.0]})
    >>> plan = make_plan("roc_auc_score", weighted=False)
    >>> x = plan_rows(plan)
    >>> shared_stage(f, plan, [], x).collect().sort("y_score")["tp"].to_list()
    [1.0, 1.0]
    """
    return curve_stage(rows, keys, x, previous=plan.scores_read_previous, counted=True)


class GroupWindows:
    """The namespace ``ns`` whose aggregates are windows over the group: a group's value on each of its rows.

    Examples
    --------
    >>> from framemetrics.compilers.polars.frame import PolarsFrame
    >>> f = PolarsFrame.values({"g": [1, 1, 2], "x": [1.0, 2.0, 5.0]})
    >>> f.with_columns(t=GroupWindows(f.ns, ["g"]).sum(f.ns.col("x"))).collect()["t"].to_list()
    [3.0, 3.0, 5.0]
    """

    def __init__(self, ns: Namespace, keys: Sequence[str]) -> None:
        self.ns, self.keys = ns, keys

    def __getattr__(self, name: str) -> Any:
        return getattr(self.ns, name)

    def sum(self, x: Expr) -> Expr:
        return self.ns.window("sum", x, self.keys)

    def max(self, x: Expr) -> Expr:
        return self.ns.window("max", x, self.keys)

    def min(self, x: Expr) -> Expr:
        return self.ns.window("min", x, self.keys)


def curve_statistics(
    stage: Frame, keys: Sequence[str], x: Rows, statistics: Sequence[str], quantile: str = "", prefix: str = "fm"
) -> Frame:
    """The curve ``statistics`` per group of a curve stage (``<prefix>_ranking``).

    The group's largest ROC gap (``gap_max``) and weighted ``quantile``
    (``median``, ``alpha``), where a statistic reads them, are windows over
    the group on every point first (``<prefix>_gaps``, ``<prefix>_quantiles``).

    Examples
    --------
    >>> from framemetrics.compilers.polars.frame import PolarsFrame
    >>> from framemetrics.compilers.polars.query import plan_rows
    >>> from framemetrics.core.plan import make_plan
    >>> f = PolarsFrame.values({"y_true": [0, 1, 1], "y_score": [0.2, 0.2, 0.9], "sample_weight": [1.0] * 3})
    >>> x = plan_rows(make_plan("roc_auc_score", weighted=False))
    >>> curve_statistics(curve_stage(f, [], x), [], x, ("auc_sum", "sum_pos")).collect().rows()
    [(1.5, 2.0)]
    """
    ns = stage.ns
    columns = {f: ns.col(f) for f in CurvePoints.__dataclass_fields__}
    points = CurvePoints(**columns | {"max_fpr": x.max_fpr, "alpha": x.alpha})
    extra = {}
    if any(STATISTICS[s].gap_max for s in statistics):
        extra["gap_max"] = ns.window("max", roc_gap(ns, points), keys)
    if quantile:
        level = quantile_level(ns, quantile, x.alpha)
        extra["quantile"] = weighted_quantile(GroupWindows(ns, keys), points, level)  # type: ignore[arg-type]
    if extra:
        stage = stage.with_columns(**extra).named(f"{prefix}_{'gaps' if 'gap_max' in extra else 'quantiles'}")
    ranking = stage.aggregate(keys, {s: STATISTICS[s].build(ns, points) for s in statistics})
    return ranking.named(f"{prefix}_ranking")


def _plan_curve_statistics(rows: Frame, plan: Plan, keys: Sequence[str], x: Rows, stage: Frame | None) -> list[Frame]:
    """The curve statistics of every curve stage of the plan: the scores' (binned with ``bins=``, or the shared
    ``stage``), and each other value's a quantile sorts (``fm_abs_error_...``)."""
    rankings = []
    for (score, quantile), statistics in plan.curve_stages.items():
        scored = curve_rows(rows.ns, x, score)
        prefix = "_".join(p for p in ("fm", "" if score == "y_score" else score, quantile) if p)
        if score == "y_score" and not quantile and stage is not None and plan.bins is None:
            curve = stage
        else:
            binned = None
            if plan.bins is not None and score == "y_score":
                binned = bin_score(rows.ns, rows.ns.score(scored.y_score), rows.ns.lit(float(plan.bins)))
            previous = any(STATISTICS[s].previous for s in statistics)
            labelled = score == "y_score"
            curve = curve_stage(rows, keys, scored, score=binned, previous=previous, labelled=labelled, name=prefix)
        rankings.append(curve_statistics(curve, keys, scored, statistics, quantile, prefix))
    return rankings


def _joined(left: Frame, right: Frame, keys: Sequence[str]) -> Frame:
    """``right``'s columns on ``left``'s rows of the same group (null keys match)."""
    return left.join(right, keys, nulls_equal=True) if keys else left.join(right, [], "cross")


def metrics_table(
    rows: Frame,
    plan: Plan,
    keys: Sequence[str],
    x: Rows,
    by: Sequence[str],
    *,
    stage: Frame | None = None,
    beta: BetaStage | None = None,
    bootstrap: Bootstrap | None = None,
    checks: bool = True,
    all_rows: bool = False,
) -> Frame:
    """The metrics of ``plan`` per group of ``rows``: the group columns (named ``by``), ``n_rows``, one column per
    metric, the exposed statistics, then (with ``checks``) the check counts.

    Parameters
    ----------
    rows : Frame
        The rows: the group columns ``keys`` and the canonical columns.
    plan : Plan
        What to compute.
    keys : sequence of str
        The group columns of ``rows``.
    x : Rows
        The canonical columns as the namespace's expressions, the labels and
        parameters (the group means as the columns ``mean_y_true, mean_error``).
    by : sequence of str
        The group columns' names in the table.
    stage : Frame, optional
        The scores' curve stage of the same rows and groups (:func:`shared_stage`),
        read in place of sorting the scores again.
    beta : callable, optional
        The Beta quantiles' stage (``fm_q<j>`` per group), for plans with
        Clopper-Pearson's intervals.
    bootstrap : callable, optional
        The bootstrap's bounds per group of a plan (the plan, or one of its
        parts), from the rows with their group means, for plans with bootstrap
        intervals.
    checks : bool, default True
        End with the check counts.
    all_rows : bool, default False
        ``rows`` are those of the groups of ``keys[1:]``, at the level
        ``keys[0]`` = 1, and ``stage`` holds both levels: the table also has
        the group of all rows, at level 0 (the other keys null), its row
        statistics summed from the groups' cells, so the rows are read once
        (a plan that :func:`rolls_up`; the report).

    Returns
    -------
    Frame
        One row per group, in no order. A plan of parts (several values of a
        statistics' parameter) computes each part's table, with ``x`` at the
        part's values, and joins them (:func:`~framemetrics.stages.parts.joined_parts`).

    Examples
    --------
    >>> from framemetrics.compilers.polars.frame import PolarsFrame
    >>> from framemetrics.compilers.polars.query import plan_rows
    >>> from framemetrics.core.plan import make_plan
    >>> f = PolarsFrame.values({"y_true": [0, 1, 1], "y_score": [0.2, 0.2, 0.9], "sample_weight": [1.0] * 3})
    >>> plan = make_plan("roc_auc_score", weighted=False)
    >>> metrics_table(f, plan, [], plan_rows(plan, group_means=True), (), checks=False).collect().rows()
    [(3, 0.75)]
    """
    ns = rows.ns
    counts = [c.name for c in plan.checks] if checks else []

    def part_table(part: Plan) -> Frame:
        own = x if part is plan else x.with_parameters(ns, part.alpha, part.max_fpr, part.power)
        return _part_table(rows, part, keys, own, stage, beta, bootstrap, checks, all_rows)

    table = by_parts(plan, part_table, keys, ["n_rows", *plan.output_columns, *plan.exposed_columns, *counts])
    # The last step names the columns as the user sees them (in SQL: quoted, ``"fbeta_score(beta=2)"``).
    return table.rename(dict(zip(keys, by, strict=True)) | {name: name for name in plan.output_columns})


def _interval_steps(values: Frame, intervals: Sequence[IntervalCall], locals_: list[dict[str, Expr]]) -> Frame:
    """``values`` with the outputs of each interval's steps as columns ``fm_ci<j>_<name>``, a stage per step (a
    step reads the previous one's columns); each interval's ``locals_`` then name them."""
    ns = values.ns
    for k in range(max((len(i.interval.steps) for i in intervals), default=0)):
        added = {}
        for j, (interval, local) in enumerate(zip(intervals, locals_, strict=True)):
            if k < len(interval.interval.steps):
                for name, expression in interval.step(ns, local, k).items():
                    added[f"fm_ci{j}_{name}"] = expression
                    local[name] = ns.col(f"fm_ci{j}_{name}")
        values = values.select({c: ns.col(c) for c in values.columns} | added)
    return values


def _part_table(
    rows: Frame,
    plan: Plan,
    keys: Sequence[str],
    x: Rows,
    stage: Frame | None,
    beta: BetaStage | None,
    bootstrap: Bootstrap | None,
    checks: bool,
    all_rows: bool = False,
) -> Frame:
    """:func:`metrics_table` of a plan without parts, its group columns ``keys`` (with ``checks``: the counts)."""
    ns = rows.ns
    assert not all_rows or (stage is not None and rolls_up(plan)), "all rows' statistics need a plan that rolls up"
    measured = rows
    if plan.first_pass:
        means = rows.aggregate(keys, {s: STATISTICS[s].build(ns, x) for s in plan.first_pass}).named("fm_means")
        measured = _joined(rows, means, keys)
    stats = row_statistics(measured, plan, keys, x, plan.row_statistics, all_rows=all_rows)
    values = stats
    for ranking in _plan_curve_statistics(rows, plan, keys, x, stage):
        values = _joined(values, ranking, keys)
    columns = {name: ns.col(name) for name in [*plan.statistics, *(c.name for c in plan.checks)]}
    pairs, quantiles = plan.beta_quantiles(ns, columns)
    if pairs:  # Clopper-Pearson's bounds: every Beta quantile in one set of stages
        assert beta is not None, "a plan with Clopper-Pearson's intervals needs the Beta quantiles' stage"
        values = _joined(values, beta(stats, keys, pairs, plan.beta_probability), keys)
    if plan.bootstrapped:
        assert bootstrap is not None, "a plan with bootstrap intervals needs the bootstrap's stage"
        for bounds in bootstrap(measured, plan):
            values = _joined(values, bounds, keys)
    locals_ = [columns | {name: ns.col(column) for name, column in names.items()} for names in quantiles]
    values = _interval_steps(values, plan.formula_intervals, locals_)
    outputs = {k: ns.col(k) for k in keys} | {"n_rows": ns.col("n_rows")}
    for call in plan.calls:
        n_invalid = reduce(lambda a, b: a + b, (columns[c.name] for c in call.checks))
        outputs[call.name] = call.value(ns, columns, n_invalid, guarded=False)
    for interval, local in zip(plan.formula_intervals, locals_, strict=True):
        outputs |= interval.values(ns, local, guarded=False, stepped=True)
    for interval in plan.bootstrapped:  # the bounds of each interval, null with invalid input
        columns |= {name: ns.col(name) for name in interval.columns().values()}
        outputs |= interval.resampled(ns, columns)
    exposed = {c: ns.to_float(ns.col(s)) for c, s in plan.exposed_columns.items()}
    counts = {c.name: ns.col(c.name) for c in plan.checks}
    values = values.select(outputs | exposed | counts).named("fm_values")
    # A metric is a number or null within its range (guards.bounded), applied to each formula's column: the
    # formula written once. An interval's bounds keep no range: only a metric's value is clamped.
    ranges = {call.name: call.metric.value_range for call in plan.calls}
    table = {k: ns.col(k) for k in keys} | {"n_rows": ns.col("n_rows")}
    table |= {name: bounded(ns, ns.col(name), ranges.get(name)) for name in plan.output_columns}
    table |= {c: ns.col(c) for c in exposed} | (counts if checks else {})
    return values.select(table)
