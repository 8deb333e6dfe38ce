"""The Poisson bootstrap of multiclass metrics as one SQL statement: the stages of
:mod:`framemetrics.compilers.polars.multiclass_bootstrap`.

``fm_input`` carries the row key; ``fm_hashed``, ``fm_drawn`` and
``fm_weighted`` give every row its Poisson weight in every replicate
(:func:`~framemetrics.compilers.sql.bootstrap.weighted_ctes`);
``fm_replicate_cells`` sums, per group and confusion cell, the rows, the
check counts, and the weight and row sums of the full data and of every
replicate (``weight__<b>``, ``<s>__<b>``); ``fm_cells`` lays them out as rows,
``fm_b`` -1 for the full data and 0, 1... for the replicates, so that the
multiclass stages (:func:`~framemetrics.compilers.sql.multiclass.stage_ctes`)
and every metric's formula run once over the groups ``(keys, fm_b)``
(``fm_mc_values``); the curves' stages read ``fm_replicated_input``, the
rows laid out the same way. The full data's row gives the estimates, the replicates'
percentiles the intervals (``fm_mc_bounds``, from one pass over the values:
:func:`~framemetrics.compilers.sql.bootstrap.percentile_ctes`).
"""

from __future__ import annotations

from sqlglot import exp

from framemetrics.compilers.sql.bootstrap import percentile_ctes, weighted_ctes
from framemetrics.compilers.sql.multiclass import (
    Ctes,
    McQueryInputs,
    cell_sums,
    groups_cte,
    input_ctes,
    metrics_select,
    plan_classes,
    stage_ctes,
)
from framemetrics.compilers.sql.namespace import SQL, identifier
from framemetrics.compilers.sql.stages import same_group, select_from
from framemetrics.core import multiclass as mc_core
from framemetrics.core.plan import Plan
from framemetrics.core.resampling import REPLICATE, replicate_cell_sums, sum_terms

__all__ = ["bootstrap_mc_query"]


def _replicated_cells(plan: Plan, keys: list[str], terms: dict[str, exp.Expression]) -> Ctes:
    """``fm_replicate_cells`` (per group and cell, every replicate's sums of the row ``terms`` as columns) and
    ``fm_cells`` (as rows)."""
    replicates = range(plan.resampling.n_resamples)
    checks = {name: v for name, v in cell_sums(plan).items() if name not in terms}
    sums = replicate_cell_sums(SQL, terms, SQL.lit(1.0), "")
    for b in replicates:
        sums |= replicate_cell_sums(SQL, terms, exp.column(f"fm_k{b}"), f"__{b}")
    group = [exp.column(k) for k in [*keys, *plan_classes(plan)]]
    columns = [*group, exp.alias_(SQL.count_rows(), "n_rows")]
    columns += [exp.alias_(value, name) for name, value in (checks | sums).items()]
    ids = exp.values([exp.tuple_(SQL.lit(b)) for b in (-1, *replicates)], alias="fm_ids", columns=[REPLICATE])
    replicate = exp.column(REPLICATE)

    def picked(name: str) -> exp.Expression:
        branches = [exp.If(this=SQL.lit(b), true=exp.column(f"{name}__{b}")) for b in replicates]
        return exp.alias_(exp.Case(this=replicate.copy(), ifs=branches, default=exp.column(name)), name)

    laid_out = [*(c.copy() for c in group), replicate.copy(), exp.column("n_rows"), *map(exp.column, checks)]
    laid_out += [picked(name) for name in ["weight", *terms]]
    rows = select_from(laid_out, "fm_replicate_cells").join(ids, join_type="cross")
    return [
        ("fm_replicate_cells", select_from(columns, "fm_weighted", group_by=group)),
        ("fm_cells", rows),
        groups_cte([*checks, *terms], [*keys, REPLICATE]),
    ]


def _replicated_rows(plan: Plan, keys: list[str]) -> Ctes:
    """``fm_replicated_input``: the rows of ``fm_weighted`` once for the full data and once per replicate
    (``fm_b`` -1, then 0, 1...), each replicate's ``sample_weight`` times the row's Poisson weight in it: the rows
    of the one-vs-rest, one-vs-one and micro curves (:func:`~framemetrics.compilers.polars.multiclass_bootstrap.replicated_rows`)."""
    replicates = range(plan.resampling.n_resamples)
    ids = exp.values([exp.tuple_(SQL.lit(b)) for b in (-1, *replicates)], alias="fm_ids", columns=[REPLICATE])
    replicate = exp.column(REPLICATE)
    drawn = exp.Case(this=replicate.copy(), ifs=[exp.If(this=SQL.lit(b), true=exp.column(f"fm_k{b}")) for b in replicates],
                     default=SQL.lit(1.0))  # fmt: skip
    columns = [exp.column(c) for c in [*keys, "true_index", *(f"s_{j}" for j in range(plan.n_scores))]]
    columns += [replicate.copy(), exp.alias_(exp.column("sample_weight") * drawn, "sample_weight")]
    return [("fm_replicated_input", select_from(columns, "fm_weighted").join(ids, join_type="cross"))]


def bootstrap_mc_query(plan: Plan, inputs: McQueryInputs, *, checks: bool = False) -> exp.Query:
    """The plan's metrics per group and their bootstrap intervals, as a tree (see the module).

    Examples
    --------
    >>> import duckdb
    >>> from framemetrics.compilers.sql.emit import to_sql
    >>> from framemetrics.compilers.sql.query import user_column
    >>> from framemetrics.core.plan import make_plan
    >>> plan = make_plan(["accuracy_score"], task="multiclass", weighted=False, has_pred=True, ci=0.9, n_resamples=9)
    >>> q = bootstrap_mc_query(plan, McQueryInputs(exp.to_table("t"), user_column("y"), user_column("p")))
    >>> con = duckdb.connect()
    >>> _ = con.execute("CREATE TABLE t AS SELECT * FROM (VALUES (1, 1), (2, 1), (2, 2)) v(y, p)")
    >>> [c[0] for c in con.sql(to_sql(q)).description]
    ['n_rows', 'accuracy_score', 'accuracy_score_low', 'accuracy_score_high']
    """
    keys = [f"fm_g{i}" for i in range(len(inputs.by))]
    replicated = [*keys, REPLICATE]
    terms = sum_terms(SQL, lambda ns: mc_core.row_sums(ns, {c.name for c in plan.calls}, plan.n_scores, plan.k))
    ctes = [*input_ctes(plan, inputs), *weighted_ctes(plan, terms, keys), *_replicated_cells(plan, keys, terms)]
    rows = "fm_input"
    if plan.stages & mc_core.CURVE_STAGES:
        ctes += _replicated_rows(plan, keys)
        rows = "fm_replicated_input"
    ctes += stage_ctes(plan, replicated, plan.stages, rows)
    ctes.append(("fm_mc_values", metrics_select(plan, replicated, inputs.by, checks=True, internal=True)))
    values = [exp.column(identifier(interval.call.name)) for interval in plan.bootstrapped]
    ctes += percentile_ctes("fm_mc", list(plan.bootstrapped), values, keys, "fm_mc_values", exp.column(REPLICATE) >= 0)
    outputs = [exp.alias_(exp.column(k, table="fm_mc_values"), identifier(c)) for k, c in zip(keys, inputs.by,
                                                                                                  strict=True)]  # fmt: skip
    outputs += [exp.column("n_rows"), *(exp.column(identifier(name)) for name in plan.output_columns)]
    outputs += [exp.column(c.name) for c in plan.checks] if checks else []
    select = select_from(outputs, "fm_mc_values", where=SQL.eq(exp.column(REPLICATE, table="fm_mc_values"), -1))
    select = select.join("fm_mc_bounds", on=same_group("fm_mc_values", "fm_mc_bounds", keys))
    if keys:
        select = select.order_by(*(exp.Ordered(this=exp.column(k, table="fm_mc_values"), nulls_first=False)
                                   for k in keys))  # fmt: skip
    for name, cte in ctes:
        select = select.with_(name, as_=cte, copy=False)
    return select
