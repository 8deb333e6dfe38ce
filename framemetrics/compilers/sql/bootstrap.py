"""The Poisson bootstrap in SQL, built as sqlglot trees: the stages of :mod:`framemetrics.compilers.polars.bootstrap`.

``fm_hashed`` adds each row's hash and the per-row terms of the sums
(``fm_v_<s>``), ``fm_drawn`` its uniform integer in every replicate,
``fm_weighted`` its Poisson weight (``fm_k0, fm_k1...``),
``fm_replicates`` every statistic of every replicate per group (one
``GROUP BY``: ``SUM(fm_k<b> * fm_v_<s>)`` for a sum; through
``fm_replicate_cells`` per group and confusion cell where the statistics
are counted by cells, as the point estimates are); ``fm_replicate_rows``
lays the replicates out as rows (the groups crossed with the replicates'
numbers, each row picking its replicate's statistics), so that
``fm_replicate_values`` writes each metric's formula once; per metric
``fm_ranked_<i>`` orders the values and ``fm_bounds_<i>``
interpolates its two percentiles linearly, as NumPy does: at the 0-based
position ``h = (n - 1) q`` of the ``n`` defined values,
``v[floor h] + (h - floor h) (v[floor h + 1] - v[floor h])``.
"""

from __future__ import annotations

from sqlglot import exp

from framemetrics.compilers.sql.dialects import MATERIALIZE
from framemetrics.compilers.sql.namespace import SQL
from framemetrics.compilers.sql.stages import rows_of, select_from
from framemetrics.core.cells import CLASSES, counts_cells
from framemetrics.core.formulas import apply_formula
from framemetrics.core.plan import IntervalCall, Plan
from framemetrics.core.resampling import (
    percentile_position,
    poisson_weight,
    replicate_cells,
    replicate_statistic,
    replicate_sum,
    replicate_totals,
    replicate_uniforms,
    row_hash,
    row_terms,
)

__all__ = ["ROW_KEY", "bootstrap_ctes"]

ROW_KEY = "fm_key"  # fm_input's column of row keys


def _value(interval: IntervalCall) -> exp.Expression:
    """The metric's formula over one replicate's statistics (a row of ``fm_replicate_rows``)."""
    call = interval.call
    arguments = {s: SQL.col(s) for s in call.statistics} | {s: SQL.null() for s in call.skipped}
    return apply_formula(SQL, call.name, arguments, SQL.lit(0), call.params)


def _bounds(i: int, interval: IntervalCall, keys: list[str]) -> exp.Select:
    """``fm_bounds_<i>``: the interval's percentiles over ``fm_ranked_<i>`` per group."""
    n, rank, value = exp.column("fm_n"), exp.column("fm_rank"), exp.column("fm_value")
    quantiles = interval.quantiles()
    columns = []
    for output, name in interval.columns().items():
        h = percentile_position(n, quantiles[output])
        below = SQL.floor(h)

        def at(position: exp.Expression) -> exp.Expression:
            return exp.Max(this=SQL.when(SQL.eq(rank, position), value).otherwise(SQL.null()))

        lower, upper = at(below + 1), at(SQL.least(below + 2, n))
        bound = SQL.when(exp.Max(this=n) > 0, lower + (exp.Max(this=h) - exp.Max(this=below)) * (upper - lower))
        columns.append(exp.alias_(bound.otherwise(SQL.null()), name))
    group = [exp.column(k) for k in keys]
    return select_from([*group, *columns], f"fm_ranked_{i}", group_by=group or None)


def bootstrap_ctes(plan: Plan, literals: dict[str, exp.Expression], keys: list[str]) -> list[tuple[str, exp.Select]]:
    """The CTEs of the plan's bootstrap intervals, after ``fm_input`` (with :data:`ROW_KEY`).

    ``fm_bounds_<i>`` holds the group keys and interval ``i``'s bounds, for
    each ``i`` of :attr:`Plan.bootstrapped`.

    Examples
    --------
    >>> from framemetrics.core.plan import make_plan
    >>> plan = make_plan("f1_score", weighted=False, ci=0.9, n_resamples=3)
    >>> [name for name, _ in bootstrap_ctes(plan, {"pos_label": SQL.lit(1), "neg_label": SQL.lit(0)}, [])]
    ['fm_hashed', 'fm_drawn', 'fm_weighted', 'fm_replicate_cells', 'fm_replicates', 'fm_replicate_rows', 'fm_replicate_values', 'fm_ranked_0', 'fm_bounds_0']
    """
    resampling, x = plan.resampling, rows_of(literals)
    replicates = range(resampling.n_resamples)
    group = [exp.column(k) for k in keys]
    statistics = list(dict.fromkeys(s for i in plan.bootstrapped for s in i.call.statistics))
    terms = row_terms(SQL, statistics, x)
    row_hashed = exp.alias_(row_hash(SQL, exp.column(ROW_KEY), resampling.seed), "fm_hash")
    hashed = exp.select(exp.Star(), row_hashed, *(exp.alias_(SQL.to_float(v), f"fm_v_{s}") for s, v in terms.items()))
    uniforms = replicate_uniforms(SQL, exp.column("fm_hash"), resampling)
    drawn = exp.select(exp.Star(), *(exp.alias_(u, name) for name, u in uniforms.items()))
    weights = {f"fm_k{b}": SQL.to_float(poisson_weight(SQL, exp.column(f"fm_u{b}"))) for b in replicates}
    weighted = exp.select(exp.Star(), *(exp.alias_(w, name) for name, w in weights.items()))
    if counts_cells(statistics):  # as the point estimates: per group and confusion cell, then per group
        weight = [exp.column(f"fm_k{b}") for b in replicates]
        cells = [
            exp.alias_(e, n) for b in replicates for n, e in replicate_cells(SQL, statistics, x, weight[b], b).items()
        ]
        classes = [exp.column(c) for c in CLASSES]
        totals = [exp.alias_(e, n) for b in replicates for n, e in replicate_totals(SQL, statistics, x, b).items()]
        replicated = [
            ("fm_replicate_cells", select_from([*group, *classes, *cells], "fm_weighted", group_by=[*group, *classes])),
            ("fm_replicates", select_from([*group, *totals], "fm_replicate_cells", group_by=group or None)),
        ]
    else:
        sums = [
            exp.alias_(
                replicate_sum(SQL, s, exp.column(f"fm_k{b}") * exp.column(f"fm_v_{s}"))
                if s in terms
                else replicate_statistic(SQL, s, x, exp.column(f"fm_k{b}")),
                f"{s}__{b}",
            )
            for b in replicates
            for s in statistics
        ]
        replicated = [("fm_replicates", select_from([*group, *sums], "fm_weighted", group_by=group or None))]
    index = exp.column("fm_b")
    picked = [
        exp.alias_(exp.Case(this=index.copy(), ifs=[exp.If(this=SQL.lit(b), true=exp.column(f"{name}__{b}"))
                                                    for b in replicates]), name)
        for name in statistics
    ]  # fmt: skip
    ids = exp.values([exp.tuple_(SQL.lit(b)) for b in replicates], alias="fm_ids", columns=["fm_b"])
    rows = exp.select(*group, *picked).from_("fm_replicates").join(ids, join_type="cross")
    values = [exp.alias_(_value(i), f"fm_m{j}") for j, i in enumerate(plan.bootstrapped)]
    staged = [("fm_hashed", hashed.from_("fm_input")), ("fm_drawn", drawn.from_("fm_hashed"))]
    staged.append(("fm_weighted", weighted.from_("fm_drawn")))
    for _, select in staged:  # columns read many times: an engine inlining CTEs must not expand them
        select.meta[MATERIALIZE] = True
    ctes = [
        *staged,
        *replicated,
        ("fm_replicate_rows", rows),
        ("fm_replicate_values", select_from([*group, *values], "fm_replicate_rows")),
    ]
    for j, interval in enumerate(plan.bootstrapped):
        value = exp.column(f"fm_m{j}")
        order = exp.Order(expressions=[exp.Ordered(this=value.copy(), nulls_first=False)])
        partition = [exp.column(k) for k in keys]
        rank = exp.Window(this=exp.RowNumber(), partition_by=partition, order=order)
        count = exp.Window(this=exp.Count(this=value.copy()), partition_by=[p.copy() for p in partition])
        ranked = [*group, exp.alias_(value, "fm_value")]  # ranks as doubles: ClickHouse counts in UInt64
        ranked += [exp.alias_(SQL.to_float(rank), "fm_rank"), exp.alias_(SQL.to_float(count), "fm_n")]
        ctes += [
            (f"fm_ranked_{j}", select_from(ranked, "fm_replicate_values")),
            (f"fm_bounds_{j}", _bounds(j, interval, keys)),
        ]
    return ctes
