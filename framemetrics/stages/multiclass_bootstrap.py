"""The Poisson bootstrap of multiclass metrics, written once on a :class:`~framemetrics.core.frame.Frame`.

A replicate reweights every row by its Poisson weight
(:mod:`framemetrics.core.resampling`, :func:`~framemetrics.stages.bootstrap.weighted`),
so its confusion cells are the cells' sums with the weights ``k_b w``: one
aggregation per group and cell gives every replicate's weight and row sums
(``weight__<b>``, ``<s>__<b>``) beside the full data's, and laid out as rows
(the column :data:`~framemetrics.core.resampling.REPLICATE`: -1 for the full
data, then 0, 1...) they are the ``fm_cells`` of the groups ``(keys,
replicate)`` (:func:`replicated_cells`). The multiclass stages run on them
unchanged, each metric's formula written once: the full data's row is the
estimate, the replicates' percentiles (NumPy's linear interpolation,
undefined replicates left out: :func:`interval_bounds`) its interval. A
group with invalid rows has null metrics in every replicate, so null
bounds. The curves (one-vs-rest, one-vs-one, micro) read rows rather than
cells: their stages run on the rows laid out the same way
(:func:`replicated_rows`).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from framemetrics.core import multiclass as mc_core
from framemetrics.core.cells import CLASSES
from framemetrics.core.frame import Frame
from framemetrics.core.plan import Plan
from framemetrics.core.resampling import REPLICATE, replicate_cell_sums, sum_terms
from framemetrics.stages import multiclass as classes
from framemetrics.stages.bootstrap import hashed, percentile_bounds, weighted
from framemetrics.stages.parts import by_parts

__all__ = ["bootstrap_table", "interval_bounds", "replicated_cells", "replicated_rows", "weighted_rows"]

Expr = Any


def weighted_rows(rows: Frame, plan: Plan) -> Frame:
    """``rows`` (the multiclass input with its row keys) with the row sums' terms ``fm_v_<s>`` and every replicate's
    Poisson weight ``fm_k<b>``: the stages ``fm_hashed``, ``fm_drawn``, ``fm_weighted``.

    Examples
    --------
    >>> from framemetrics.compilers.polars.frame import PolarsFrame
    >>> from framemetrics.core.plan import make_plan
    >>> plan = make_plan("accuracy_score", task="multiclass", weighted=False, has_pred=True, ci=0.9, n_resamples=2)
    >>> f = PolarsFrame.values({"y_true": [1, 2], "y_pred": [1, 1], "sample_weight": [1.0, 1.0], "fm_key": [0, 1]})
    >>> [c for c in weighted_rows(f, plan).columns if c.startswith("fm_k")]
    ['fm_key', 'fm_k0', 'fm_k1']
    """
    resampling = plan.resampling
    return weighted(hashed(rows, resampling, _terms(rows, plan)), resampling, range(resampling.n_resamples))


def _terms(frame: Frame, plan: Plan) -> dict[str, Expr]:
    """The per-row terms of the plan's row sums (:func:`~framemetrics.core.multiclass.row_sums`)."""
    names = {c.metric.name for c in plan.calls}
    return sum_terms(frame.ns, lambda ns: mc_core.row_sums(ns, names, plan.n_scores, plan.k))


def replicated_cells(rows: Frame, plan: Plan, keys: Sequence[str]) -> Frame:
    """``fm_cells`` of the full data and every replicate, per group, :data:`~framemetrics.core.resampling.REPLICATE`
    and cell, from :func:`weighted_rows`: the rows and check counts of a cell (the same in every replicate), its
    weight and row sums.

    Examples
    --------
    >>> from framemetrics.compilers.polars.frame import PolarsFrame
    >>> from framemetrics.core.plan import make_plan
    >>> plan = make_plan("accuracy_score", task="multiclass", weighted=False, has_pred=True, ci=0.9, n_resamples=2)
    >>> f = PolarsFrame.values({"fm_g0": [0, 0, 1], "y_true": [1, 2, 2], "y_pred": [1, 1, 2], "sample_weight": [1.0] * 3,
    ...                         "fm_key": [0, 1, 2]})
    >>> cells = replicated_cells(weighted_rows(f, plan), plan, ["fm_g0"]).collect()
    >>> cells.height  # 3 cells (2 of group 0, 1 of group 1), each for the full data and 2 replicates
    9
    >>> cells.filter(fm_g0=1).sort("fm_b").select("fm_b", "weight").rows()  # -1: the full data
    [(-1, 1.0), (0, 3.0), (1, 4.0)]
    """
    ns, c = rows.ns, rows.ns.col
    replicates = range(plan.resampling.n_resamples)
    terms = _terms(rows, plan)
    sums = replicate_cell_sums(ns, terms, ns.lit(1.0), "")
    for b in replicates:
        sums |= replicate_cell_sums(ns, terms, c(f"fm_k{b}"), f"__{b}")
    checks = {check.name: mc_core.check_count(ns, check, plan.labels, plan.n_scores) for check in plan.checks}
    classes = list(CLASSES if plan.has_pred else CLASSES[:1])
    cells = rows.aggregate([*keys, *classes], {"n_rows": ns.count_rows(), **checks, **sums})
    laid_out = {n: [c(n), *(c(f"{n}__{b}") for b in replicates)] for n in ["weight", *terms]}
    kept = [*keys, *classes, "n_rows", *checks]
    return cells.named("fm_replicate_cells").lay_out(REPLICATE, [-1, *replicates], laid_out, kept).named("fm_cells")


def replicated_rows(rows: Frame, plan: Plan, columns: Sequence[str]) -> Frame:
    """The ``columns`` of the rows of :func:`weighted_rows` once for the full data and once per replicate
    (:data:`~framemetrics.core.resampling.REPLICATE` -1, then 0, 1...), each replicate's ``sample_weight`` times the
    row's Poisson weight in it.

    The rows of the stages that read rows rather than cells (the one-vs-rest
    and one-vs-one curves, the micro curve): ``n_resamples + 1`` times the
    rows. A row a replicate does not draw stays, of weight 0, as in
    scikit-learn on the weights ``w k``.

    Examples
    --------
    >>> from framemetrics.compilers.polars.frame import PolarsFrame
    >>> from framemetrics.core.plan import make_plan
    >>> plan = make_plan("accuracy_score", task="multiclass", weighted=False, has_pred=True, ci=0.9, n_resamples=2)
    >>> f = PolarsFrame.values({"y_true": [1, 2], "sample_weight": [2.0, 2.0], "fm_key": [0, 1]})
    >>> out = replicated_rows(weighted_rows(f, plan), plan, ["y_true"]).collect()
    >>> out.sort("y_true", "fm_b").rows()
    [(1, -1, 2.0), (1, 0, 4.0), (1, 1, 6.0), (2, -1, 2.0), (2, 0, 0.0), (2, 1, 0.0)]
    """
    c = rows.ns.col
    replicates = range(plan.resampling.n_resamples)
    weights = [c("sample_weight"), *(c("sample_weight") * c(f"fm_k{b}") for b in replicates)]
    kept = [n for n in columns if n != "sample_weight"]
    laid_out = rows.lay_out(REPLICATE, [-1, *replicates], {"sample_weight": weights}, kept)
    return laid_out.named("fm_replicated_input")


def interval_bounds(values: Frame, plan: Plan, keys: Sequence[str]) -> Frame:
    """Per group, the bounds of the plan's intervals from the metrics' values per group and
    :data:`~framemetrics.core.resampling.REPLICATE` (a column per metric; -1, the full data's, left out).

    Examples
    --------
    >>> from framemetrics.compilers.polars.frame import PolarsFrame
    >>> from framemetrics.core.plan import make_plan
    >>> plan = make_plan("accuracy_score", task="multiclass", weighted=False, has_pred=True, ci=0.5, n_resamples=4)
    >>> v = PolarsFrame.values({"fm_b": [-1, 0, 1, 2, 3], "accuracy_score": [9.0, 0.1, 0.4, 0.2, 0.3]})
    >>> [round(b, 12) for b in interval_bounds(v, plan, []).collect().row(0)]
    [0.175, 0.325]
    """
    ns = values.ns
    drawn = values.filter(ns.col(REPLICATE) >= 0)
    metrics = [interval.call.name for interval in plan.bootstrapped]
    return percentile_bounds(drawn, keys, plan.bootstrapped, metrics, prefix="fm_mc")


def bootstrap_table(data: Frame, plan: Plan, by: Sequence[str], *, checks: bool = True) -> classes.Table:
    """The plan's multiclass metrics per group of ``fm_input`` (``data``, with the row keys) and their bootstrap
    intervals, sorted by group: the multiclass stages over the replicates laid out as groups.

    Examples
    --------
    >>> from framemetrics.compilers.polars.frame import PolarsFrame
    >>> from framemetrics.core.plan import make_plan
    >>> plan = make_plan("accuracy_score", task="multiclass", weighted=False, has_pred=True, ci=0.9, n_resamples=20)
    >>> f = PolarsFrame.values({"y_true": [1, 2, 2, 3], "y_pred": [1, 1, 2, 3], "sample_weight": [1.0] * 4,
    ...                         "fm_key": [0, 1, 2, 3]})
    >>> bootstrap_table(f, plan, ()).frame.collect().columns[:4]
    ['n_rows', 'accuracy_score', 'accuracy_score_low', 'accuracy_score_high']
    """
    keys = classes.group_keys(by)
    counts = [c.name for c in plan.checks if checks]
    columns = ["n_rows", *plan.output_columns, *counts]
    table = by_parts(plan, lambda part: _bootstrap_frame(data, part, keys), keys, columns)  # several k or beta
    named = table.keep(*keys, *columns).rename(dict(zip(keys, by, strict=True)))
    return classes.Table(named, tuple(by))


def _bootstrap_frame(data: Frame, plan: Plan, keys: Sequence[str]) -> Frame:
    """:func:`bootstrap_table` of a plan without parts, its group columns ``keys``, with the check counts."""
    drawn = weighted_rows(data, plan)
    cells = replicated_cells(drawn, plan, keys)
    rows = data
    if plan.stages & mc_core.CURVE_STAGES:
        columns = [*keys, "true_index", *(f"s_{j}" for j in range(plan.n_scores)), "sample_weight"]
        rows = replicated_rows(drawn, plan, columns)
    frames = classes.class_frames(rows, plan, [*keys, REPLICATE], plan.stages, cells)
    values = classes.metrics_frame(frames, plan, internal=True).named("fm_mc_values")
    bounds = interval_bounds(values, plan, keys)
    estimates = values.filter(values.ns.eq(values.ns.col(REPLICATE), values.ns.lit(-1)))
    table = estimates.join(bounds, keys, nulls_equal=True) if keys else estimates.join(bounds, [], "cross")
    return table.keep(*keys, "n_rows", *plan.output_columns, *(c.name for c in plan.checks))
