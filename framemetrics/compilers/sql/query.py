"""A plan as one SQL statement, built as a sqlglot tree: one ``GROUP BY`` of statistics, then formulas.

The statement reads the source once into ``fm_input`` (group keys
``fm_g0, fm_g1...`` and the canonical columns ``y_true, y_pred, y_score,
sample_weight``), gathers the statistics and check counts per group in
``fm_statistics`` (after ``fm_means``, the group means of a first pass, when
a centred sum needs them), builds the curve stage (:mod:`.stages`) when a
ranking statistic is requested, and applies the formulas. Every statistic,
check and formula is the core's (:mod:`framemetrics.core`), so this module
only composes.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from functools import reduce

from sqlglot import exp

from framemetrics.compilers.sql.beta_quantiles import beta_quantile_ctes
from framemetrics.compilers.sql.dialects import INLINE, ROW_POSITION
from framemetrics.compilers.sql.frame import SqlFrame, Statement
from framemetrics.compilers.sql.namespace import SQL, identifier
from framemetrics.compilers.sql.stages import (
    cell_statistics,
    cells_stage,
    curve_ctes,
    curve_stage,
    rows_of,
    same_group,
)
from framemetrics.core.cells import counts_cells, summed_over_cells
from framemetrics.core.formulas.guards import bounded
from framemetrics.core.plan import MetricCall, Plan
from framemetrics.core.resampling import ROW_KEY
from framemetrics.core.statistics import STATISTICS, Rows
from framemetrics.stages.bootstrap import bootstrap_bounds

__all__ = [
    "QueryInputs",
    "checks_query",
    "group_keys",
    "input_frame",
    "input_select",
    "kept_rows",
    "plan_literals",
    "plan_query",
    "row_key",
    "same_group",
    "shared_stage",
    "statistics_ctes",
    "statistics_select",
    "user_column",
]


@dataclass(frozen=True)
class QueryInputs:
    """Where the data comes from: the FROM clause and the expression of each input role.

    Attributes
    ----------
    source : sqlglot expression
        The FROM clause: a quoted table, a table function.
    columns : dict of str to sqlglot expression
        The expression of each input role (``y_true``, ``y_pred``, ``y_score``,
        ``sample_weight``) over the source (:func:`user_column` for a column).
    by : tuple of str
        Group columns: the output names, and the source columns unless
        ``group_columns`` says otherwise.
    drop_nulls : bool
        Drop rows with a null in any used column before aggregating.
    literals : dict of str to sqlglot expression, optional
        The parameters (``pos_label``...) in place of the plan's values as
        literals: the parameter names of a table macro.
    group_columns : tuple of sqlglot expressions, optional
        The group expressions, if not the source columns ``by``.
    """

    source: exp.Expression
    columns: dict[str, exp.Expression]
    by: tuple[str, ...] = ()
    drop_nulls: bool = False
    literals: dict[str, exp.Expression] | None = None
    group_columns: tuple[exp.Expression, ...] | None = None


def user_column(name: str) -> exp.Expression:
    """A column of the user's source, matched by its exact name.

    DuckDB matches even quoted identifiers case-insensitively (``"P"`` reads
    a column ``p``), so the column is selected by name with ``COLUMNS``: a
    source without a column of exactly that name fails when the SQL runs.

    Examples
    --------
    >>> from framemetrics.compilers.sql.emit import to_sql
    >>> to_sql(user_column("P"))
    "COLUMNS(LAMBDA fm_name : fm_name = 'P')"
    """
    identifier(name)  # validates the name
    parameter = exp.to_identifier("fm_name")
    match = exp.EQ(this=parameter.copy(), expression=exp.Literal.string(name))
    return exp.Columns(this=exp.Lambda(this=match, expressions=[parameter]))


def group_keys(inputs: QueryInputs) -> list[str]:
    """Internal names of the group columns: ``fm_g0, fm_g1...``."""
    return [f"fm_g{i}" for i in range(len(inputs.by))]


def plan_literals(plan: Plan, inputs: QueryInputs | None = None) -> dict[str, exp.Expression]:
    """The labels and input parameters as typed literals (or a table macro's parameters)."""
    if inputs is not None and inputs.literals is not None:
        return inputs.literals
    return {
        "pos_label": SQL.lit(plan.pos_label),
        "neg_label": SQL.lit(plan.neg_label),
        "alpha": SQL.lit(float(plan.alpha)),
        "max_fpr": SQL.lit(float(plan.max_fpr)),
        "power": SQL.lit(float(plan.power)),
    }


def input_select(plan: Plan, inputs: QueryInputs, keys: list[str]) -> exp.Select:
    """``fm_input``: the group keys and the canonical input columns of every row."""
    groups = inputs.group_columns or tuple(user_column(b) for b in inputs.by)
    columns = [exp.alias_(g, k, copy=False) for g, k in zip(groups, keys, strict=True)]
    columns += [exp.alias_(inputs.columns[role], role, copy=False) for role in plan.roles]
    if not plan.weighted:
        columns.append(exp.alias_(SQL.lit(1.0), "sample_weight", copy=False))
    if plan.bootstrapped:
        columns.append(exp.alias_(row_key(plan), ROW_KEY, copy=False))
    select = kept_rows(columns, inputs.source, plan.roles if inputs.drop_nulls else ())
    if plan.bootstrapped and plan.resampling.row_id is not None:  # read by every batch of replicates: inlined
        select.meta[INLINE] = True  # (a row's position, a window, is computed once)
    return select


def input_frame(statement: Statement, plan: Plan, inputs: QueryInputs, keys: list[str]) -> SqlFrame:
    """``fm_input`` (:func:`input_select`) defined in ``statement``, as a frame.

    Examples
    --------
    >>> from framemetrics.core.plan import make_plan
    >>> inputs = QueryInputs(exp.to_table("t"), {"y_true": user_column("y"), "y_score": user_column("s")})
    >>> input_frame(Statement(), make_plan("roc_auc_score", weighted=False), inputs, []).columns
    ('y_true', 'y_score', 'sample_weight')
    """
    columns = [*keys, *plan.roles, *(() if plan.weighted else ("sample_weight",))]
    columns += [ROW_KEY] if plan.bootstrapped else []
    return SqlFrame(statement, statement.define("fm_input", input_select(plan, inputs, keys)), columns)


def kept_rows(columns: list[exp.Alias], source: exp.Expression, required: Sequence[str]) -> exp.Select:
    """``SELECT columns FROM source``, keeping the rows where none of the ``required`` columns is null.

    A row's position (the bootstrap's default key) counts the rows as read,
    before any is dropped, as Polars counts them: the rows are then filtered
    in an outer query.

    Examples
    --------
    >>> from framemetrics.compilers.sql.emit import to_sql
    >>> to_sql(kept_rows([exp.alias_(exp.column("a"), "y_true")], exp.to_table("t"), ["y_true"]))
    'SELECT a AS y_true FROM t WHERE NOT (a IS NULL)'
    """
    select = exp.select(*columns, copy=False).from_(source, copy=False)
    if not required:
        return select
    if any(node.meta.get(ROW_POSITION) for column in columns for node in column.walk()):
        kept = SQL.all(*(SQL.not_(SQL.is_null(exp.column(name))) for name in required))
        return exp.select(exp.Star()).from_(select.subquery("fm_read"), copy=False).where(kept, copy=False)
    named = {column.alias: column.this for column in columns}
    return select.where(SQL.all(*(SQL.not_(SQL.is_null(named[name].copy())) for name in required)), copy=False)


def row_key(plan: Plan) -> exp.Expression:
    """The bootstrap's row key: the ``row_id`` column as a 64-bit integer, or the row's position as read."""
    row_id = plan.resampling.row_id
    if row_id is None:
        position = exp.Window(this=exp.RowNumber())
        position.meta[ROW_POSITION] = True  # only DuckDB reads a table's rows in a defined order
        return position - SQL.lit(1)
    return SQL.to_int(user_column(row_id))


def statistics_select(
    plan: Plan, literals: dict[str, exp.Expression], keys: list[str], statistics: tuple[str, ...]
) -> exp.Select:
    """``fm_statistics``: one ``GROUP BY`` of ``statistics`` and the plan's check counts (after ``fm_means``)."""
    x = rows_of(literals)
    columns = [exp.alias_(exp.column(k, table="fm_input"), k, copy=False) for k in keys]
    columns += [exp.alias_(STATISTICS[s].build(SQL, x), s, copy=False) for s in statistics]
    columns += [exp.alias_(expr, name, copy=False) for name, expr in _check_counts(plan, x).items()]
    select = exp.select(*columns, copy=False).from_("fm_input", copy=False)
    if any(STATISTICS[s].needs for s in statistics):
        select = select.join("fm_means", on=same_group("fm_input", "fm_means", keys), copy=False)
    return select.group_by(*(exp.column(k, table="fm_input") for k in keys), copy=False) if keys else select


def _check_counts(plan: Plan, x: Rows) -> dict[str, exp.Expression]:
    return {c.name: c.count(SQL, getattr(x, c.role), x.pos_label, x.neg_label) for c in plan.checks}


def statistics_ctes(
    plan: Plan, literals: dict[str, exp.Expression], keys: list[str], statistics: tuple[str, ...]
) -> list[tuple[str, exp.Select]]:
    """``fm_statistics`` per group: through the counting stage's ``fm_cells`` where it applies, else one GROUP BY."""
    if not counts_cells(statistics):
        return [("fm_statistics", statistics_select(plan, literals, keys, statistics))]
    x = rows_of(literals)
    sums = {s: STATISTICS[s].build(SQL, x) for s in summed_over_cells(statistics)}
    sums |= _check_counts(plan, x)
    return [
        ("fm_cells", cells_stage(x, keys, sums)),
        ("fm_statistics", cell_statistics(x, keys, ["n_rows", *sums], statistics)),
    ]


def _means_select(plan: Plan, literals: dict[str, exp.Expression], keys: list[str]) -> exp.Select:
    x = rows_of(literals)
    columns = [
        *(exp.column(k) for k in keys),
        *(exp.alias_(STATISTICS[s].build(SQL, x), s, copy=False) for s in plan.first_pass),
    ]
    select = exp.select(*columns, copy=False).from_("fm_input", copy=False)
    return select.group_by(*(exp.column(k) for k in keys), copy=False) if keys else select


def _formula(call: MetricCall) -> exp.Expression:
    n_invalid = reduce(lambda a, b: a + b, (SQL.col(c.name) for c in call.checks))
    formula = call.value(SQL, {s: SQL.col(s) for s in call.statistics}, n_invalid, guarded=False)
    return exp.alias_(formula, identifier(call.name), copy=False)


def plan_query(plan: Plan, inputs: QueryInputs, *, checks: bool = False, stage: str | None = None) -> exp.Select:
    """The statement computing ``plan`` per group of ``inputs``, as a tree.

    Parameters
    ----------
    plan : Plan
        The metrics to compute (:func:`framemetrics.core.plan.make_plan`).
    inputs : QueryInputs
        The source and the expression of each input role.
    checks : bool, default False
        Also return the ``invalid_*`` counts per group.
    stage : str, optional
        A table holding the scores' curve stage of the same rows and groups
        (:func:`shared_stage`), read in place of sorting the scores again.

    Returns
    -------
    sqlglot.exp.Select
        Group columns, ``n_rows``, one column per metric (and the check counts).

    Examples
    --------
    >>> from framemetrics.compilers.sql.emit import to_sql
    >>> from framemetrics.core.plan import make_plan
    >>> tree = plan_query(make_plan("accuracy_score", weighted=False),
    ...                   QueryInputs(exp.to_table("t"), {"y_true": user_column("y"), "y_pred": user_column("p")}))
    >>> to_sql(tree).startswith("WITH fm_input AS (SELECT COLUMNS(LAMBDA fm_name : fm_name = 'y') AS y_true")
    True
    """
    keys = group_keys(inputs)
    literals = plan_literals(plan, inputs)
    ctes = [("fm_input", input_select(plan, inputs, keys))]
    if plan.first_pass:
        ctes.append(("fm_means", _means_select(plan, literals, keys)))
    ctes += statistics_ctes(plan, literals, keys, plan.row_statistics)
    outputs = [exp.alias_(exp.column(k, table="fm_statistics"), k, copy=False) for k in keys]
    outputs += [exp.column("n_rows"), *(_formula(call) for call in plan.calls)]
    columns = {name: SQL.col(name) for name in [*plan.statistics, *(c.name for c in plan.checks)]}
    pairs, quantiles = plan.beta_quantiles(SQL, columns)
    for interval, names in zip(plan.formula_intervals, quantiles, strict=True):
        interval_columns = columns | {local: SQL.col(name) for local, name in names.items()}
        outputs += [
            exp.alias_(value, identifier(name), copy=False)
            for name, value in interval.values(SQL, interval_columns, guarded=False).items()
        ]
    for interval in plan.bootstrapped:  # the bounds of fm_replicate_bounds..., null with invalid input
        columns |= {name: SQL.col(name) for name in interval.columns().values()}
        outputs += [exp.alias_(v, identifier(n), copy=False) for n, v in interval.resampled(SQL, columns).items()]
    outputs += [exp.alias_(SQL.to_float(exp.column(s)), c) for c, s in plan.exposed_columns.items()]
    outputs += [exp.column(c.name) for c in plan.checks] if checks else []
    values = exp.select(*outputs, copy=False).from_("fm_statistics", copy=False)
    curves, rankings = curve_ctes(plan, literals, keys, stage)
    ctes += curves
    if pairs:  # Clopper-Pearson's bounds: every Beta quantile in one set of stages
        ctes += beta_quantile_ctes(keys, pairs, plan.beta_probability)
        rankings.append("fm_beta_quantiles")
    if plan.bootstrapped:
        ctes += _bootstrap_ctes(plan, literals, keys)
        rankings.append("fm_replicate_bounds")
    for ranking in rankings:
        values = values.join(ranking, on=same_group("fm_statistics", ranking, keys), copy=False)
    ctes.append(("fm_values", values))
    # A metric is a number or null (guards.bounded), applied to each formula's column: the formula written once.
    final = [exp.alias_(exp.column(k), identifier(c), copy=False) for k, c in zip(keys, inputs.by, strict=True)]
    final.append(exp.column("n_rows"))
    final += [exp.alias_(bounded(SQL, exp.column(identifier(n))), identifier(n)) for n in plan.output_columns]
    final += [exp.column(c) for c in plan.exposed_columns]
    final += [exp.column(c.name) for c in plan.checks] if checks else []
    select = exp.select(*final, copy=False).from_("fm_values", copy=False)
    if keys:
        select = select.order_by(*(exp.Ordered(this=exp.column(k), nulls_first=False) for k in keys))
    for name, cte in ctes:
        select = select.with_(name, as_=cte, copy=False)
    return select


def _bootstrap_ctes(
    plan: Plan, literals: dict[str, exp.Expression], keys: list[str]
) -> list[tuple[str, exp.Expression]]:
    """The stages of :func:`framemetrics.stages.bootstrap.bootstrap_bounds` over ``fm_input`` (and ``fm_means``),
    the last ``fm_replicate_bounds``."""
    statement = Statement()
    weight = [] if plan.weighted else ["sample_weight"]
    rows = SqlFrame(statement, exp.table_("fm_input"), [*keys, *plan.roles, *weight, ROW_KEY])
    if plan.first_pass:
        means = SqlFrame(statement, exp.table_("fm_means"), [*keys, *plan.first_pass])
        rows = rows.join(means, keys, nulls_equal=True) if keys else rows.join(means, [], "cross")
    bootstrap_bounds(rows, keys, plan, rows_of(literals))
    return [(cte.alias, cte.this) for cte in statement.ctes]


def checks_query(plan: Plan, inputs: QueryInputs) -> exp.Select:
    """The row counts and check counts per group alone (``fm_statistics``), as a tree.

    Examples
    --------
    >>> from framemetrics.compilers.sql.emit import to_sql
    >>> from framemetrics.core.plan import make_plan
    >>> inputs = QueryInputs(exp.to_table("t"), {"y_true": user_column("y"), "y_score": user_column("s")})
    >>> to_sql(checks_query(make_plan("roc_auc_score", weighted=False), inputs)).endswith("SELECT * FROM fm_statistics")
    True
    """
    keys = group_keys(inputs)
    statistics = statistics_select(plan, plan_literals(plan, inputs), keys, ("n_rows",))
    select = exp.select(exp.Star(), copy=False).from_("fm_statistics", copy=False)
    return select.with_("fm_input", as_=input_select(plan, inputs, keys), copy=False).with_(
        "fm_statistics", as_=statistics, copy=False
    )


def shared_stage(plan: Plan, inputs: QueryInputs) -> exp.Select:
    """The scores' curve stage per group of ``inputs``, for one table that metrics and curves both read.

    The stage :func:`plan_query` sorts (every score, even of zero weight,
    ``tp_prev, fp_prev`` where the plan's statistics read them):
    :func:`plan_query` and :func:`framemetrics.compilers.sql.curves.curve_query`
    take the table's name as ``stage``. Without ``bins``.

    Examples
    --------
    >>> from framemetrics.compilers.sql.emit import to_sql
    >>> from framemetrics.core.plan import make_plan
    >>> inputs = QueryInputs(exp.to_table("t"), {"y_true": user_column("y"), "y_score": user_column("s")})
    >>> to_sql(shared_stage(make_plan("average_precision_score", weighted=False), inputs)).endswith("FROM fm_curve")
    True
    """
    keys = group_keys(inputs)
    x = rows_of(plan_literals(plan, inputs))
    select = exp.select(exp.Star(), copy=False).from_("fm_curve", copy=False)
    for name, cte in [
        ("fm_input", input_select(plan, inputs, keys)),
        *curve_stage(x, keys, x.y_score, previous=plan.scores_read_previous),
    ]:
        select = select.with_(name, as_=cte, copy=False)
    return select
