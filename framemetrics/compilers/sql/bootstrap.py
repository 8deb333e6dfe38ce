"""The Poisson bootstrap in SQL, built as sqlglot trees: the stages of :mod:`framemetrics.compilers.polars.bootstrap`.

``fm_hashed`` adds each row's hash and the per-row terms of the sums
(``fm_v_<s>``); then, for each batch ``j`` of replicates
(:func:`~framemetrics.core.resampling.replicate_batches`), ``fm_drawn_j``
its uniform integer in each replicate, ``fm_weighted_j`` its Poisson weight
(``fm_k0, fm_k1...``), ``fm_replicates_j`` every row statistic of each
replicate per group (one ``GROUP BY``: ``SUM(fm_k<b> * fm_v_<s>)`` for a
sum; through ``fm_replicate_cells_j`` per group and confusion cell where
the statistics are counted by cells, as the point estimates are), and
``fm_<value>_curve_replicates_j`` each replicate's curve statistics from one
curve stage per value sorted (:func:`_curve_replicates`); ``fm_replicates``
joins them all per group; ``fm_replicate_rows`` lays the replicates out as
rows (the groups crossed with the replicates' numbers, each row picking its
replicate's statistics), so that ``fm_replicate_values`` writes each
metric's formula once; :func:`percentile_ctes` reads the values of all the
metrics in one pass and interpolates their percentiles linearly, as NumPy
does (``fm_replicate_bounds``).
"""

from __future__ import annotations

from sqlglot import exp

from framemetrics.compilers.sql.dialects import DISTRIBUTE, INLINE, MATERIALIZE
from framemetrics.compilers.sql.namespace import SQL
from framemetrics.compilers.sql.stages import (
    curve_statistics,
    group_window,
    rows_of,
    running_sums,
    same_group,
    select_from,
)
from framemetrics.core import bca
from framemetrics.core.cells import CLASSES, counts_cells
from framemetrics.core.plan import IntervalCall, Plan
from framemetrics.core.resampling import (
    PARTS,
    REPLICATE,
    centred_terms,
    percentile_position,
    poisson_weight,
    replicate_batches,
    replicate_cells,
    replicate_from_parts,
    replicate_parts,
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

__all__ = ["ROW_KEY", "bootstrap_ctes", "jackknife_ctes", "percentile_ctes", "weighted_ctes"]

ROW_KEY = "fm_key"  # fm_input's column of row keys


def bootstrap_ctes(plan: Plan, literals: dict[str, exp.Expression], keys: list[str]) -> list[tuple[str, exp.Select]]:
    """The CTEs of the plan's bootstrap intervals, after ``fm_input`` (with :data:`ROW_KEY`).

    The last, ``fm_replicate_bounds`` and ``fm_curve_replicate_bounds``
    (those of the metrics of the curve stage), hold the group keys and the
    bounds of every interval of :attr:`Plan.bootstrapped`.

    Examples
    --------
    >>> from framemetrics.core.plan import make_plan
    >>> plan = make_plan("f1_score", weighted=False, ci=0.9, n_resamples=3)
    >>> [name for name, _ in bootstrap_ctes(plan, {"pos_label": SQL.lit(1), "neg_label": SQL.lit(0)}, [])]
    ['fm_hashed', 'fm_drawn_0', 'fm_weighted_0', 'fm_replicate_cells_0', 'fm_replicates_0', 'fm_replicates', 'fm_replicate_rows', 'fm_replicate_values', 'fm_replicate_long', 'fm_replicate_ranked', 'fm_replicate_quantiles', 'fm_replicate_bounds']
    """
    resampling, x = plan.resampling, rows_of(literals)
    replicates = range(resampling.n_resamples)
    group = [exp.column(k) for k in keys]
    requested = list(dict.fromkeys(s for i in plan.bootstrapped for s in i.call.statistics))
    statistics = [s for s in requested if not STATISTICS[s].curve]
    curve = [s for s in requested if STATISTICS[s].curve]
    terms = row_terms(SQL, statistics, x)
    means = plan.first_pass if any(STATISTICS[s].needs for s in statistics) else ()
    ctes = [hashed_cte(plan, terms | centred_terms(SQL, statistics, x), keys, means)]
    batches = []  # each batch's per-group replicates, its row statistics' and its curve stages'
    for j, batch in enumerate(replicate_batches(resampling)):
        ctes += weight_ctes(plan, batch, f"_{j}")
        source = f"fm_weighted_{j}"
        if counts_cells(statistics):  # as the point estimates: per group and confusion cell, then per group
            weight = {b: exp.column(f"fm_k{b}") for b in batch}
            cells = [
                exp.alias_(e, n) for b in batch for n, e in replicate_cells(SQL, statistics, x, weight[b], b).items()
            ]
            classes = [exp.column(c) for c in CLASSES]
            totals = [exp.alias_(e, n) for b in batch for n, e in replicate_totals(SQL, statistics, x, b).items()]
            ctes.append((f"fm_replicate_cells_{j}", select_from([*group, *classes, *cells], source,
                                                                 group_by=[*group, *classes])))  # fmt: skip
            batches.append(
                (
                    f"fm_replicates_{j}",
                    select_from([*group, *totals], f"fm_replicate_cells_{j}", group_by=group or None),
                )
            )
        elif statistics:
            sums = []
            for b in batch:
                for s in statistics:  # a statistic of parts: its parts, the formula after (fm_replicate_rows)
                    parts = replicate_parts(SQL, s, x, exp.column(f"fm_k{b}"))
                    built = {f"{s}_{p}": e for p, e in parts.items()} if parts else {
                        s: replicate_row_statistic(SQL, s, x, exp.column(f"fm_k{b}"), terms)}  # fmt: skip
                    sums += [exp.alias_(e, f"{n}__{b}") for n, e in built.items()]
            batches.append((f"fm_replicates_{j}", select_from([*group, *sums], source, group_by=group or None)))
        if curve:
            stages, finals = _curve_replicates(plan, x, keys, curve, batch, source, f"_{j}")
            ctes += stages
            batches += finals
    ctes += [*batches, ("fm_replicates", _joined(batches, keys))]
    ids = exp.values([exp.tuple_(SQL.lit(b)) for b in replicates], alias="fm_ids", columns=[REPLICATE])
    names = [*statistics, *curve]
    columns = [c for n in names for c in ([f"{n}_{p}" for p in PARTS[n]] if n in PARTS else [n])]
    picked = [
        exp.alias_(exp.Case(this=exp.column(REPLICATE), ifs=[exp.If(this=SQL.lit(b), true=exp.column(f"{n}__{b}"))
                                                          for b in replicates]), n)
        for n in columns
    ]  # fmt: skip
    rows = exp.select(*group, *picked).from_("fm_replicates").join(ids, join_type="cross")
    if len(columns) > len(names):  # the statistics of parts, each formula written once
        ctes.append(("fm_replicate_parts", rows))
        wholes = [exp.alias_(replicate_from_parts(SQL, n, {p: SQL.col(f"{n}_{p}") for p in PARTS[n]}, x), n)
                  for n in names if n in PARTS]  # fmt: skip
        rows = exp.select(exp.Star(), *wholes).from_("fm_replicate_parts")
    values = [  # each metric's formula over one replicate's statistics (a row of fm_replicate_rows)
        exp.alias_(i.call.value(SQL, {s: SQL.col(s) for s in i.call.statistics}), f"fm_m{j}")
        for j, i in enumerate(plan.bootstrapped)
    ]
    ctes += [("fm_replicate_rows", rows), ("fm_replicate_values", select_from([*group, *values], "fm_replicate_rows"))]
    metrics = [exp.column(f"fm_m{j}") for j in range(len(plan.bootstrapped))]
    corrected = [(j, i) for j, i in enumerate(plan.bootstrapped) if i.interval.method == "bca"]
    jackknife = jackknife_ctes(keys, corrected, x) if corrected else []
    ctes += jackknife
    accelerations = jackknife[-1][0] if jackknife else None
    ctes += percentile_ctes("fm_replicate", list(plan.bootstrapped), metrics, keys, "fm_replicate_values",
                            accelerations=accelerations)  # fmt: skip
    return ctes


def jackknife_ctes(keys: list[str], intervals: list[tuple[int, IntervalCall]], x: Rows) -> list[tuple[str, exp.Select]]:
    """The jackknife of the BCa ``intervals`` (numbered ``j``) over ``fm_hashed``'s rows: ``fm_jackknife_totals``
    sets each row's group sums beside it (windows), ``fm_jackknife_rows`` the estimate ``fm_theta<j>`` and the
    value ``fm_left_out<j>`` without the row (:func:`~framemetrics.core.bca.jackknife_statistics`), and
    ``fm_jackknife`` per group the estimate and the acceleration ``fm_a<j>``.

    Examples
    --------
    >>> from framemetrics.core.plan import make_plan
    >>> plan = make_plan("f1_score", weighted=False, ci=0.9, ci_method="bca", n_resamples=3)
    >>> [name for name, _ in jackknife_ctes([], list(enumerate(plan.bootstrapped)), Rows.named(SQL))]
    ['fm_jackknife_totals', 'fm_jackknife_rows', 'fm_jackknife_sums', 'fm_jackknife']
    """
    group = [exp.column(k) for k in keys]
    statistics = list(dict.fromkeys(s for _, i in intervals for s in i.call.statistics))
    terms = {t: exp.column(f"fm_v_{t}") for t in bca.jackknife_terms(statistics)}
    summed = [exp.alias_(group_window(exp.Sum(this=t.copy()), keys), f"fm_t_{n}") for n, t in terms.items()]
    summed.append(exp.alias_(group_window(exp.Sum(this=x.sample_weight.copy()), keys), "fm_t_weight"))
    total, weight_total = {t: exp.column(f"fm_t_{t}") for t in terms}, exp.column("fm_t_weight")
    full = bca.jackknife_statistics(SQL, statistics, total, weight_total)
    without = bca.jackknife_statistics(SQL, statistics, total, weight_total, terms, x.sample_weight)
    thetas = [exp.alias_(i.call.value(SQL, full), f"fm_theta{j}") for j, i in intervals]
    left_out = [exp.alias_(i.call.value(SQL, without), f"fm_left_out{j}") for j, i in intervals]
    sums, accelerations = [], []
    names = ("n", "s1", "s2", "s3", "undefined")
    for j, _ in intervals:
        e = exp.column(f"fm_left_out{j}") - exp.column(f"fm_theta{j}")
        sums.append(exp.alias_(exp.Max(this=exp.column(f"fm_theta{j}")), f"fm_theta{j}"))
        sums += [exp.alias_(v, f"fm_{k}_{j}") for k, v in bca.jackknife_sums(SQL, e).items()]
        a = bca.acceleration(SQL, {k: exp.column(f"fm_{k}_{j}") for k in names})
        accelerations += [exp.column(f"fm_theta{j}"), exp.alias_(a, f"fm_a{j}")]
    ctes = [
        ("fm_jackknife_totals", select_from([exp.Star(), *summed], "fm_hashed")),
        ("fm_jackknife_rows", select_from([*group, *thetas, *left_out], "fm_jackknife_totals")),
        ("fm_jackknife_sums", select_from([*(g.copy() for g in group), *sums], "fm_jackknife_rows",
                                          group_by=[g.copy() for g in group] or None)),
        ("fm_jackknife", select_from([*(g.copy() for g in group), *accelerations], "fm_jackknife_sums")),
    ]  # fmt: skip
    for _, select in ctes[:3]:
        select.meta[MATERIALIZE] = True  # their columns are read many times (PostgreSQL would copy them in)
    return ctes


def hashed_cte(
    plan: Plan, terms: dict[str, exp.Expression], keys: list[str], means: tuple[str, ...] = ()
) -> tuple[str, exp.Select]:
    """``fm_hashed``: ``fm_input``'s rows with their hash, the row ``terms`` as ``fm_v_<name>``, and the first
    pass's group ``means`` joined; materialized (every batch of replicates reads it).

    Examples
    --------
    >>> from framemetrics.core.plan import make_plan
    >>> hashed_cte(make_plan("f1_score", weighted=False, ci=0.9, n_resamples=3), {}, [])[0]
    'fm_hashed'
    """
    row_hashed = exp.alias_(row_hash(SQL, exp.column(ROW_KEY), plan.resampling.seed), "fm_hash")
    per_row = [exp.alias_(SQL.to_float(v), f"fm_v_{name}") for name, v in terms.items()]
    hashed = exp.select(exp.Column(this=exp.Star(), table=exp.to_identifier("fm_input")), row_hashed, *per_row)
    hashed = hashed.from_("fm_input")
    if means:  # the first pass's group means beside every row
        hashed = hashed.select(*(exp.column(m, table="fm_means") for m in means))
        hashed = hashed.join("fm_means", on=same_group("fm_input", "fm_means", keys))
    hashed.meta[MATERIALIZE] = True
    hashed.meta[INLINE] = plan.resampling.row_id is not None  # as fm_input (query.input_select)
    return "fm_hashed", hashed


def weight_ctes(plan: Plan, replicates: range, suffix: str = "") -> list[tuple[str, exp.Select]]:
    """``fm_drawn<suffix>`` (``fm_hashed`` with each of the ``replicates``' uniform integer ``fm_u<b>``) and
    ``fm_weighted<suffix>`` (its Poisson weight ``fm_k<b>``), materialized: their columns are read many times.

    Examples
    --------
    >>> from framemetrics.core.plan import make_plan
    >>> [name for name, _ in weight_ctes(make_plan("f1_score", weighted=False, ci=0.9, n_resamples=3), range(3))]
    ['fm_drawn', 'fm_weighted']
    """
    uniforms = replicate_uniforms(SQL, exp.column("fm_hash"), plan.resampling, replicates)
    drawn = exp.select(exp.Star(), *(exp.alias_(u, name) for name, u in uniforms.items()))
    weights = {f"fm_k{b}": SQL.to_float(poisson_weight(SQL, exp.column(f"fm_u{b}"))) for b in replicates}
    weighted = exp.select(exp.Star(), *(exp.alias_(w, name) for name, w in weights.items()))
    staged = [
        (f"fm_drawn{suffix}", drawn.from_("fm_hashed")),
        (f"fm_weighted{suffix}", weighted.from_(f"fm_drawn{suffix}")),
    ]
    for _, select in staged:  # columns read many times: an engine inlining CTEs must not expand them
        select.meta[MATERIALIZE] = True
    return staged


def weighted_ctes(
    plan: Plan, terms: dict[str, exp.Expression], keys: list[str], means: tuple[str, ...] = ()
) -> list[tuple[str, exp.Select]]:
    """``fm_hashed`` (:func:`hashed_cte`), then every replicate's ``fm_drawn`` and ``fm_weighted``
    (:func:`weight_ctes`).

    Examples
    --------
    >>> from framemetrics.core.plan import make_plan
    >>> plan = make_plan("f1_score", weighted=False, ci=0.9, n_resamples=3)
    >>> [name for name, _ in weighted_ctes(plan, {}, [])]
    ['fm_hashed', 'fm_drawn', 'fm_weighted']
    """
    return [hashed_cte(plan, terms, keys, means), *weight_ctes(plan, range(plan.resampling.n_resamples))]


def _joined(parts: list[tuple[str, exp.Select]], keys: list[str]) -> exp.Select:
    """The batches' per-group ``parts`` side by side: their columns, joined on the group keys (each named: a
    ClickHouse join of three names a column by its table)."""
    first = parts[0][0]
    columns = [exp.alias_(exp.column(k, table=first), k) for k in keys]
    columns += [
        exp.alias_(exp.column(c, table=name), c)
        for name, select in parts
        for c in select.named_selects
        if c not in keys
    ]
    joined = exp.select(*columns).from_(first)
    for name, _ in parts[1:]:
        joined = joined.join(name, on=same_group(first, name, keys)) if keys else joined.join(name, join_type="cross")
    return joined


def percentile_ctes(
    prefix: str,
    intervals: list[IntervalCall],
    values: list[exp.Expression],
    keys: list[str],
    source: str,
    where: exp.Expression | None = None,
    accelerations: str | None = None,
) -> list[tuple[str, exp.Select]]:
    """The percentile intervals of the replicates' ``values`` (one per interval) in ``source``, where ``where``
    holds: ``<prefix>_bounds``, per group the columns of every interval.

    ``source`` is read once (an engine inlining CTEs, as Spark does, would
    otherwise compute it once per metric): ``<prefix>_long`` lays the values
    out as rows (``fm_j`` the interval's number), ``<prefix>_ranked`` ranks
    them per group and interval, and ``<prefix>_quantiles`` interpolates the
    two percentiles linearly, as NumPy does: at the 0-based position
    ``h = (n - 1) q`` of the ``n`` defined values,
    ``v[floor h] + (h - floor h) (v[floor h + 1] - v[floor h])``;
    ``<prefix>_bounds`` sets each interval's beside the others.

    With ``accelerations``, the CTE of the BCa intervals' estimates and
    accelerations per group (``fm_theta<j>``, ``fm_a<j>``: :func:`jackknife_ctes`),
    the percentiles are at BCa's adjusted levels instead:
    ``<prefix>_below`` counts per group and interval the values under and at
    most equal to the estimate, ``<prefix>_corrections`` takes the bias
    correction, ``<prefix>_deviates`` and ``<prefix>_levels`` the levels
    (:mod:`framemetrics.core.bca`), which ``<prefix>_ranked`` reads.

    Examples
    --------
    >>> from framemetrics.core.plan import make_plan
    >>> intervals = list(make_plan(["f1_score", "log_loss"], weighted=False, ci=0.9, n_resamples=3).intervals)
    >>> ctes = percentile_ctes("fm", intervals, [exp.column("f1_score"), exp.column("log_loss")], [], "fm_values")
    >>> [name for name, _ in ctes], [c.alias for c in ctes[-1][1].expressions]
    (['fm_long', 'fm_ranked', 'fm_quantiles', 'fm_bounds'], ['f1_score_low', 'f1_score_high', 'log_loss_low', 'log_loss_high'])
    """
    group = [exp.column(k) for k in keys]
    number = exp.column("fm_j")
    ids = exp.values([exp.tuple_(SQL.lit(j)) for j in range(len(values))], alias="fm_js", columns=["fm_j"])
    picked = exp.Case(this=number.copy(), ifs=[exp.If(this=SQL.lit(j), true=v) for j, v in enumerate(values)])
    long = select_from([*group, number.copy(), exp.alias_(picked, "fm_value")], source, where=where)
    value = exp.column("fm_value")
    partition = [*keys, "fm_j"]
    order = exp.Order(expressions=[exp.Ordered(this=value.copy(), nulls_first=False)])
    rank = exp.Window(this=exp.RowNumber(), partition_by=[exp.column(k) for k in partition], order=order)
    count = exp.Window(this=exp.Count(this=value.copy()), partition_by=[exp.column(k) for k in partition])
    ranked = [*(c.copy() for c in group), number.copy(), value.copy()]  # ranks as doubles: ClickHouse counts in UInt64
    ranked += [exp.alias_(SQL.to_float(rank), "fm_rank"), exp.alias_(SQL.to_float(count), "fm_n")]
    n, rank_column = exp.column("fm_n"), exp.column("fm_rank")
    quantiles = intervals[0].quantiles()
    levels: list[tuple[str, exp.Select]] = []
    ranked_from: str | exp.Select = f"{prefix}_long"
    if accelerations:
        levels = _bca_level_ctes(prefix, intervals, keys, accelerations)
        ranked = [_qualified(c, f"{prefix}_long") for c in ranked]
        ranked += [_qualified(exp.column(f"fm_level_{output}"), f"{prefix}_levels") for output in quantiles]
        ranked_from = exp.select(*ranked).from_(f"{prefix}_long").join(
            f"{prefix}_levels", on=same_group(f"{prefix}_long", f"{prefix}_levels", keys, SQL.eq(
                exp.column("fm_j", table=f"{prefix}_long"), exp.column("fm_j", table=f"{prefix}_levels"))))  # fmt: skip
    columns = []
    for output, q in quantiles.items():
        h = percentile_position(n.copy(), exp.column(f"fm_level_{output}") if accelerations else q)
        below = SQL.floor(h)

        def at(position: exp.Expression) -> exp.Expression:
            return exp.Max(this=SQL.when(SQL.eq(rank_column.copy(), position), value.copy()).otherwise(SQL.null()))

        lower, upper = at(below + 1), at(SQL.least(below.copy() + 2, n.copy()))
        bound = SQL.when(
            exp.Max(this=n.copy()) > 0, lower + (exp.Max(this=h.copy()) - exp.Max(this=below.copy())) * (upper - lower)
        )
        columns.append(exp.alias_(bound.otherwise(SQL.null()), f"fm_{output}"))
    grouped = [exp.column(k) for k in partition]
    pivoted = [
        exp.alias_(
            exp.Max(this=SQL.when(SQL.eq(number.copy(), j), exp.column(f"fm_{output}")).otherwise(SQL.null())), name
        )
        for j, interval in enumerate(intervals)
        for output, name in interval.columns().items()
    ]
    ranked_select = ranked_from if isinstance(ranked_from, exp.Select) else select_from(ranked, ranked_from)
    return [
        (f"{prefix}_long", long.join(ids, join_type="cross")),
        *levels,
        (f"{prefix}_ranked", ranked_select),
        (f"{prefix}_quantiles", select_from([*grouped, *columns], f"{prefix}_ranked", group_by=grouped)),
        (f"{prefix}_bounds", select_from([*(c.copy() for c in group), *pivoted], f"{prefix}_quantiles",
                                         group_by=[c.copy() for c in group] or None)),
    ]  # fmt: skip


def _qualified(column: exp.Expression, table: str) -> exp.Expression:
    """``column`` (a column, or an alias of one expression over columns) with its columns read from ``table``,
    named (ClickHouse names a column of a join by its table)."""
    out = column.copy()
    for c in out.find_all(exp.Column):
        c.set("table", exp.to_identifier(table))
    return exp.alias_(out, column.name) if isinstance(column, exp.Column) else out


def _bca_level_ctes(prefix: str, intervals: list[IntervalCall], keys: list[str], accelerations: str
                    ) -> list[tuple[str, exp.Select]]:  # fmt: skip
    """Per group and interval ``fm_j``, BCa's adjusted levels ``fm_level_low, fm_level_high`` of the values of
    ``<prefix>_long``, in steps each reading the previous one's columns (:mod:`framemetrics.core.bca`):
    ``<prefix>_below`` (the share of replicates under the estimate, and the acceleration), ``<prefix>_corrections``
    (the bias correction), ``<prefix>_deviates`` and ``<prefix>_levels``."""
    long, number = f"{prefix}_long", exp.column("fm_j", table=f"{prefix}_long")
    value = exp.column("fm_value", table=long)

    def picked(column: str) -> exp.Expression:
        return exp.Case(this=number.copy(), ifs=[exp.If(this=SQL.lit(j), true=exp.column(f"{column}{j}",
                        table=accelerations)) for j in range(len(intervals))])  # fmt: skip

    theta = picked("fm_theta")
    group = [exp.column(k, table=long) for k in keys]
    strictly, at_most = bca.under_estimate(SQL, value, theta)
    below_count, at_or_below_count = SQL.sum(strictly), SQL.sum(at_most)
    share = bca.replicates_below(SQL, below_count, at_or_below_count, exp.Count(this=value.copy()))
    counts = [exp.alias_(share, "fm_share"), exp.alias_(exp.Max(this=picked("fm_a")), "fm_a")]
    below = exp.select(*(exp.alias_(g, g.name) for g in group), exp.alias_(number.copy(), "fm_j"), *counts)
    below = below.from_(long).join(accelerations, on=same_group(long, accelerations, keys))
    below = below.group_by(*(g.copy() for g in group), number.copy())
    plain = [exp.column(k) for k in [*keys, "fm_j"]]
    z0 = exp.alias_(bca.bias_correction(SQL, exp.column("fm_share")), "fm_z0")
    corrections = select_from([*plain, z0, exp.column("fm_a")], f"{prefix}_below")
    deviates = bca.adjusted_deviates(SQL, exp.column("fm_z0"), exp.column("fm_a"), intervals[0].level)
    deviate_columns = [exp.alias_(v, f"fm_deviate_{o}") for o, v in deviates.items()]
    deviated = select_from([*(c.copy() for c in plain), *deviate_columns], f"{prefix}_corrections")
    levels = [exp.alias_(bca.adjusted_level(SQL, exp.column(f"fm_deviate_{o}")), f"fm_level_{o}") for o in deviates]
    for select in (corrections, deviated):
        select.meta[MATERIALIZE] = True  # their columns are read many times by the normal functions
    return [
        (f"{prefix}_below", below),
        (f"{prefix}_corrections", corrections),
        (f"{prefix}_deviates", deviated),
        (f"{prefix}_levels", select_from([*(c.copy() for c in plain), *levels], f"{prefix}_deviates")),
    ]


def _curve_replicates(
    plan: Plan, x: Rows, keys: list[str], statistics: list[str], replicates: range, source: str, suffix: str
) -> tuple[list[tuple[str, exp.Select]], list[tuple[str, exp.Select]]]:
    """The curve ``statistics`` of each of the ``replicates`` per group, from one curve stage over ``source``
    (their Poisson weights) for each value they sort (:attr:`~framemetrics.core.statistics.Statistic.score`):
    the stages' CTEs, and those holding the statistics per group (``fm_<value>..._curve_replicates<suffix>``).

    For each value, ``fm_<value>_replicate_scores`` sums the rows per group
    and value with each replicate's Poisson weights (``pw__<b>, nw__<b>``;
    ``pw__<b>`` alone for a quantile's stage, every row positive:
    :func:`~framemetrics.core.statistics.curve_rows`) and
    ``fm_<value>_replicate_running`` takes every replicate's running sums down
    one sort (:func:`~framemetrics.compilers.sql.stages.running_sums`); the
    scores' statistics are then read per replicate from its columns
    (:func:`_score_statistics`), a quantile's from the replicates laid out as
    rows (:func:`_quantile_statistics`).
    """
    stages: dict[str, list[str]] = {}
    for s in statistics:
        stages.setdefault(STATISTICS[s].score, []).append(s)
    ctes, finals = [], []
    for score, names in stages.items():
        rows, labelled, prefix = curve_rows(SQL, x, score), score == "y_score", f"fm_{score}"
        group = [exp.column(k) for k in keys]
        value = bin_score(SQL, rows.y_score, SQL.lit(float(plan.bins))) if labelled and plan.bins else rows.y_score
        weights = {"pw": positive_weight(SQL, rows)} | ({"nw": negative_weight(SQL, rows)} if labelled else {})
        sums = [exp.alias_(SQL.sum(exp.column(f"fm_k{b}") * w), f"{n}__{b}") for b in replicates
                for n, w in weights.items()]  # fmt: skip
        scores = select_from([*group, exp.alias_(value, "y_score"), *sums], source, group_by=[*group, value])
        scores.meta[DISTRIBUTE] = keys
        previous = any(STATISTICS[s].previous for s in names)
        running = {n: v for b in replicates for n, v in running_sums(keys, CURVE_SUMS[: len(weights)],
                                                                     previous=previous, suffix=f"__{b}").items()}  # fmt: skip
        ctes += [
            (f"{prefix}_replicate_scores{suffix}", scores),
            (f"{prefix}_replicate_running{suffix}", exp.select(exp.Star(), *(exp.alias_(v, n) for n, v in
                                                                            running.items())).from_(
                f"{prefix}_replicate_scores{suffix}")),
        ]  # fmt: skip
        end = _score_statistics if labelled else _quantile_statistics
        built, final = end(rows, keys, names, replicates, prefix, suffix)
        ctes, finals = ctes + built, finals + final
    return ctes, finals


def _score_statistics(
    x: Rows, keys: list[str], statistics: list[str], replicates: range, prefix: str, suffix: str
) -> tuple[list[tuple[str, exp.Select]], list[tuple[str, exp.Select]]]:
    """The scores' curve statistics of each of the ``replicates`` per group, from their columns in
    ``<prefix>_replicate_running<suffix>`` (``<prefix>_replicate_gaps<suffix>``: each replicate's largest
    ``tpr - fpr``, where KS reads it)."""
    group = [exp.column(k) for k in keys]
    points = {b: replicate_points(SQL, b, x.max_fpr, x.alpha) for b in replicates}
    source, ctes = f"{prefix}_replicate_running{suffix}", []
    if any(STATISTICS[s].gap_max for s in statistics):
        gaps = [
            exp.alias_(group_window(exp.Max(this=roc_gap(SQL, p)), keys), f"gap_max__{b}") for b, p in points.items()
        ]
        ctes.append((f"{prefix}_replicate_gaps{suffix}", exp.select(exp.Star(), *gaps).from_(source)))
        source = f"{prefix}_replicate_gaps{suffix}"
    values = [exp.alias_(STATISTICS[s].build(SQL, p), f"{s}__{b}") for b, p in points.items() for s in statistics]
    return ctes, [(f"{prefix}_curve_replicates{suffix}", select_from([*group, *values], source,
                                                                      group_by=group or None))]  # fmt: skip


def _quantile_statistics(
    x: Rows, keys: list[str], statistics: list[str], replicates: range, prefix: str, suffix: str
) -> tuple[list[tuple[str, exp.Select]], list[tuple[str, exp.Select]]]:
    """The statistics of a weighted quantile's stage of each of the ``replicates`` per group, from the running sums
    in ``<prefix>_replicate_running<suffix>``.

    ``<prefix>_replicate_curve<suffix>`` lays the replicates' points out as rows
    (``fm_b``): the point estimates' stages then run on the groups (segment,
    replicate) unchanged
    (:func:`~framemetrics.compilers.sql.stages.curve_statistics`: the
    replicate's own quantile, the statistics), each written once whatever the
    number of replicates (the quantile's expression is long: written per
    replicate, seven regression metrics, three of them quantiles', with 20
    replicates came to 264 KB in ClickHouse's dialect, over its 256 KiB
    statement; 176 KB so); ``<prefix>_<quantile>_curve_replicates<suffix>``
    sets each replicate's statistics beside the others, per group. Sorting
    the rows laid out instead (a sort per segment and replicate) took DuckDB
    8.5 s against 5.8 s for 50 replicates of the median absolute error, 10^6
    rows.
    """
    group, replicate = [exp.column(k) for k in keys], exp.column(REPLICATE)
    previous = any(STATISTICS[s].previous for s in statistics)
    columns = ["pw", "tp", "pos_total", *(["tp_prev"] if previous else [])]
    picked = [
        exp.alias_(exp.Case(this=replicate.copy(), ifs=[exp.If(this=SQL.lit(b), true=exp.column(f"{c}__{b}"))
                                                         for b in replicates]), c)
        for c in columns
    ]  # fmt: skip
    ids = exp.values([exp.tuple_(SQL.lit(b)) for b in replicates], alias="fm_ids", columns=[REPLICATE])
    long = exp.select(*group, exp.column("y_score"), replicate.copy(), *picked)
    curve = f"{prefix}_replicate_curve{suffix}"
    ctes = [(curve, long.from_(f"{prefix}_replicate_running{suffix}").join(ids, join_type="cross"))]
    kinds: dict[str, list[str]] = {}
    for s in statistics:
        kinds.setdefault(STATISTICS[s].quantile, []).append(s)
    finals = []
    for quantile, names in kinds.items():
        kind = f"_{quantile}" if quantile else ""
        stages = curve_statistics(x, [*keys, REPLICATE], tuple(names), quantile=quantile, labelled=False,
                                  prefix=f"{prefix}_replicate{kind}{suffix}", stage=curve)  # fmt: skip
        pivoted = [
            exp.alias_(exp.Max(this=SQL.when(SQL.eq(replicate.copy(), b), exp.column(s)).otherwise(SQL.null())),
                       f"{s}__{b}")
            for b in replicates
            for s in names
        ]  # fmt: skip
        ctes += stages
        finals.append((f"{prefix}{kind}_curve_replicates{suffix}", select_from([*group, *pivoted], stages[-1][0],
                                                                                 group_by=group or None)))  # fmt: skip
    return ctes, finals
