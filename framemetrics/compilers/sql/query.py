"""A plan as one SQL statement, built as a sqlglot tree: the stages of :mod:`framemetrics.stages.statistics`
(and of :mod:`framemetrics.stages.curves`) over ``fm_input``.

The statement reads the source once into ``fm_input`` (group keys
``fm_g0, fm_g1...`` and the canonical columns ``y_true, y_pred, y_score,
sample_weight``: :func:`input_select`); the stage
(:func:`~framemetrics.stages.statistics.metrics_table`) gathers the
statistics and check counts per group, the curve statistics and the
formulas; this module adds the SQL stages of the Beta quantiles and the
bootstrap, and the group order.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass

from sqlglot import exp

from framemetrics.compilers.sql.dialects import INLINE, ROW_POSITION
from framemetrics.compilers.sql.frame import SqlFrame, Statement
from framemetrics.compilers.sql.namespace import SQL, identifier
from framemetrics.core.curves import Curve
from framemetrics.core.frame import Frame
from framemetrics.core.plan import Plan
from framemetrics.core.resampling import ROW_KEY
from framemetrics.core.statistics import Rows
from framemetrics.stages import multiclass as classes
from framemetrics.stages import statistics as stages
from framemetrics.stages.beta_quantiles import beta_quantiles
from framemetrics.stages.bootstrap import bootstrap_bounds
from framemetrics.stages.curves import curve_table
from framemetrics.stages.statistics import checks_table, metrics_table

__all__ = [
    "McQueryInputs",
    "QueryInputs",
    "checks_query",
    "curve_query",
    "group_keys",
    "input_frame",
    "input_select",
    "kept_rows",
    "plan_literals",
    "plan_query",
    "row_key",
    "rows_of",
    "shared_stage",
    "stage_columns",
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


def rows_of(literals: dict[str, exp.Expression]) -> Rows:
    """The columns of ``fm_input`` (and ``fm_means``) with the plan's labels and parameters.

    Examples
    --------
    >>> rows_of({"pos_label": SQL.lit(1), "neg_label": SQL.lit(0)}).pos_label.sql()
    '1'
    """
    names = ("y_true", "y_pred", "y_score", "sample_weight", "mean_y_true", "mean_error")
    return Rows(
        **{n: SQL.col(n) for n in names},
        pos_label=literals["pos_label"],
        neg_label=literals["neg_label"],
        alpha=literals.get("alpha", SQL.lit(0.5)),
        max_fpr=literals.get("max_fpr", SQL.lit(1.0)),
        power=literals.get("power", SQL.lit(0.0)),
    )


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


def input_frame(
    statement: Statement, plan: Plan, inputs: QueryInputs, keys: list[str], extra: Sequence[str] = ()
) -> SqlFrame:
    """``fm_input`` (:func:`input_select`) defined in ``statement``, as a frame; then the roles ``extra`` beyond
    the plan's (a second score), each dropped at a null too where nulls are dropped.

    Examples
    --------
    >>> from framemetrics.core.plan import make_plan
    >>> inputs = QueryInputs(exp.to_table("t"), {"y_true": user_column("y"), "y_score": user_column("s")})
    >>> input_frame(Statement(), make_plan("roc_auc_score", weighted=False), inputs, []).columns
    ('y_true', 'y_score', 'sample_weight')
    """
    columns = [*keys, *plan.roles, *(() if plan.weighted else ("sample_weight",))]
    columns += [ROW_KEY] if plan.bootstrapped else []
    select = input_select(plan, inputs, keys)
    for role in extra:
        select = select.select(exp.alias_(inputs.columns[role], role), copy=False)
        if inputs.drop_nulls:
            select = select.where(SQL.not_(SQL.is_null(inputs.columns[role].copy())), copy=False)
    return SqlFrame(statement, statement.define("fm_input", select), [*columns, *extra])


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


def plan_query(
    plan: Plan,
    inputs: QueryInputs,
    *,
    checks: bool = False,
    stage: str | None = None,
    apart: bool = False,
    all_rows: bool = False,
) -> exp.Select:
    """The statement computing ``plan`` per group of ``inputs``, as a tree: the stage
    :func:`framemetrics.stages.statistics.metrics_table` over ``fm_input``.

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
    apart : bool, default False
        The bootstrap's batches of replicates as temporary tables computed
        one after the other before the statement (``Statement(apart=True)``:
        DuckDB running it, in bounded memory), not parts of it.
    all_rows : bool, default False
        The rows are those of the groups at level 1 (the first group column),
        ``stage`` holds both levels: all rows' group (level 0) is added, its
        statistics summed from the groups' (:func:`~framemetrics.stages.statistics.metrics_table`).

    Returns
    -------
    sqlglot.exp.Select
        Group columns, ``n_rows``, one column per metric (and the check
        counts), ordered by group.

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
    statement = Statement(apart=apart)
    rows = input_frame(statement, plan, inputs, keys)
    shared = None if stage is None else SqlFrame(statement, exp.to_table(stage), stage_columns(plan, keys))

    def bootstrap(rows: Frame, part: Plan) -> list[Frame]:
        return [bootstrap_bounds(rows, keys, part, rows_of(plan_literals(part, inputs)))]

    x = rows_of(literals)
    table = metrics_table(
        rows, plan, keys, x, inputs.by, stage=shared, beta=beta_quantiles, bootstrap=bootstrap, checks=checks,
        all_rows=all_rows,
    )  # fmt: skip
    return statement.query(table, inputs.by, copy=False)


def curve_query(
    curve: Curve,
    plan: Plan,
    inputs: QueryInputs,
    *,
    drop_intermediate: bool | None = None,
    max_points: int | None = None,
    stage: str | None = None,
    min_rows: int | None = None,
) -> exp.Select:
    """The points of ``curve`` per group of ``inputs``, as a tree: the stage
    :func:`framemetrics.stages.curves.curve_table` over ``fm_input``.

    A group with an invalid row gets one row, NULL but for its group columns
    (``checked``: a table macro raises nothing); ``framemetrics.roc_curve``
    and its siblings raise instead.

    Parameters
    ----------
    curve : Curve
        Which curve (:data:`framemetrics.core.curves.CURVES`).
    plan : Plan
        The plan of a ranking metric: its checks and labels.
    inputs : QueryInputs
        The source and the expressions of ``y_true``, ``y_score``,
        ``sample_weight``. With ``inputs.literals``, ``pos_label``,
        ``neg_label`` and ``drop_intermediate`` are a table macro's parameters.
    drop_intermediate : bool, optional
        Default: the curve's (scikit-learn's) default.
    max_points : int, optional
        Thin each group's curve to at most this many points, as
        :func:`framemetrics.stages.curves.thin`.
    stage : str, optional
        A table holding the scores' curve stage of the same rows and groups
        (:func:`shared_stage`), read in place of sorting the scores again;
        every point is kept (``drop_intermediate`` must be False).
    min_rows : int, optional
        With ``stage``, the curves of the groups of at least that many rows alone.

    Returns
    -------
    sqlglot.exp.Select
        The group columns, ``threshold``, the rates and ``tp, fp, tn, fn``,
        ordered by group and threshold.

    Examples
    --------
    >>> from framemetrics.compilers.sql.emit import to_sql
    >>> from framemetrics.core.curves import CURVES
    >>> from framemetrics.core.plan import make_plan
    >>> q = curve_query(CURVES["roc_curve"], make_plan("roc_auc_score", weighted=False),
    ...                 QueryInputs(exp.to_table("t"), {"y_true": user_column("y"), "y_score": user_column("s")}))
    >>> to_sql(q).endswith('ORDER BY "threshold" DESC')
    True
    """
    keys = group_keys(inputs)
    drop = curve.drop_intermediate if drop_intermediate is None else drop_intermediate
    statement = Statement()
    rows = input_frame(statement, plan, inputs, keys)
    shared = None if stage is None else SqlFrame(statement, exp.to_table(stage), stage_columns(plan, keys))
    if stage is None:
        drop = (inputs.literals or {}).get("drop_intermediate", drop)
    x = rows_of(plan_literals(plan, inputs))
    # A shared stage's rows were checked by the metrics that read it first (and raised if one was invalid).
    checked = stage is None
    table = curve_table(
        rows, plan, inputs.by, x, curve, drop, max_points, stage=shared, checked=checked, min_rows=min_rows
    )
    return statement.output(table, copy=False)


def stage_columns(plan: Plan, keys: list[str]) -> list[str]:
    """The columns of the table of :func:`shared_stage`.

    Examples
    --------
    >>> from framemetrics.core.plan import make_plan
    >>> stage_columns(make_plan("roc_auc_score", weighted=False), ["fm_g0"])
    ['fm_g0', 'y_score', 'pw', 'nw', 'n_rows', 'tp', 'fp', 'pos_total', 'neg_total', 'group_rows']
    """
    previous = ["tp_prev", "fp_prev"] if plan.scores_read_previous else []
    return [*keys, "y_score", "pw", "nw", "n_rows", "tp", "fp", "pos_total", "neg_total", "group_rows", *previous]


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
    return _stage_query(checks_table, plan, inputs)


def shared_stage(plan: Plan, inputs: QueryInputs) -> exp.Select:
    """The scores' curve stage per group of ``inputs``, for one table that metrics and curves both read
    (:func:`framemetrics.stages.statistics.shared_stage`; its columns :func:`stage_columns`).

    :func:`plan_query` and :func:`curve_query`
    take the table's name as ``stage``. Without ``bins``.

    Examples
    --------
    >>> from framemetrics.compilers.sql.emit import to_sql
    >>> from framemetrics.core.plan import make_plan
    >>> inputs = QueryInputs(exp.to_table("t"), {"y_true": user_column("y"), "y_score": user_column("s")})
    >>> to_sql(shared_stage(make_plan("average_precision_score", weighted=False), inputs)).endswith("FROM fm_curve")
    True
    """
    return _stage_query(stages.shared_stage, plan, inputs)


def _stage_query(stage: Callable[[Frame, Plan, list[str], Rows], Frame], plan: Plan, inputs: QueryInputs) -> exp.Select:
    """The statement of ``stage`` over ``fm_input`` of ``inputs``."""
    keys = group_keys(inputs)
    statement = Statement()
    rows = input_frame(statement, plan, inputs, keys)
    return statement.query(stage(rows, plan, keys, rows_of(plan_literals(plan, inputs))), copy=False)


@dataclass(frozen=True)
class McQueryInputs:
    """The FROM clause and the expression of each input: ``y_true``, ``y_pred``, ``sample_weight``, the scores.

    ``n_listed`` is the length of the list column holding the scores, if they are one.
    """

    source: exp.Expression
    y_true: exp.Expression
    y_pred: exp.Expression | None = None
    scores: tuple[exp.Expression, ...] = ()
    sample_weight: exp.Expression | None = None
    by: tuple[str, ...] = ()
    drop_nulls: bool = False
    n_listed: exp.Expression | None = None

    def frame(self, plan: Plan, statement: Statement) -> SqlFrame:
        """``fm_input`` (:func:`framemetrics.stages.multiclass.input_stage`), a stage of ``statement``.

        Examples
        --------
        >>> from framemetrics.core.plan import make_plan
        >>> plan = make_plan(["accuracy_score"], task="multiclass", has_pred=True, weighted=False)
        >>> McQueryInputs(exp.to_table("t"), user_column("y"), user_column("p")).frame(plan, Statement()).columns
        ('y_true', 'y_pred', 'sample_weight')
        """
        columns = {f"fm_g{i}": user_column(b) for i, b in enumerate(self.by)} | {"y_true": self.y_true.copy()}
        columns |= {} if self.y_pred is None else {"y_pred": self.y_pred.copy()}
        columns["sample_weight"] = SQL.to_float(SQL.lit(1) if self.sample_weight is None else self.sample_weight.copy())
        columns |= {f"s_{j}": SQL.to_float(s.copy()) for j, s in enumerate(self.scores)}
        columns |= {} if self.n_listed is None else {"n_listed": self.n_listed.copy()}
        columns |= {ROW_KEY: row_key(plan)} if plan.bootstrapped else {}
        select = exp.select(*(exp.alias_(value, name) for name, value in columns.items())).from_(self.source.copy())
        required = ["y_true", *(["y_pred"] if self.y_pred is not None else [])]
        required += [f"s_{j}" for j in range(len(self.scores))] + (
            [] if self.sample_weight is None else ["sample_weight"]
        )
        raw = SqlFrame(statement, select, list(columns))
        return classes.input_stage(raw, plan, required if self.drop_nulls else []).named("fm_input")
