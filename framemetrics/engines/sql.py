"""A SQL engine, DuckDB or Spark: each plan one statement of :mod:`framemetrics.compilers.sql`, run there."""

from __future__ import annotations

import itertools
import re
from collections.abc import Iterator, Mapping, Sequence
from contextlib import contextmanager
from typing import Any

import duckdb
import polars as pl
from sqlglot import exp

from framemetrics.compilers.sql import SQL
from framemetrics.compilers.sql.emit import to_sql
from framemetrics.compilers.sql.frame import SqlFrame, Statement
from framemetrics.compilers.sql.namespace import identifier, table_name
from framemetrics.compilers.sql.query import (
    McQueryInputs,
    QueryInputs,
    checks_query,
    curve_query,
    group_keys,
    input_frame,
    plan_literals,
    plan_query,
    rows_of,
    user_column,
)
from framemetrics.compilers.sql.query import shared_stage as shared_stage_query
from framemetrics.compilers.sql.script import script_views, statement_sql
from framemetrics.core.checks import check_counts
from framemetrics.core.curves import Curve
from framemetrics.core.frame import Frame
from framemetrics.core.plan import Plan
from framemetrics.engines.base import Backend, Tables
from framemetrics.sources import (
    Source,
    from_pandas,
    open_duckdb,
    quiet_connection,
    sql_schema,
    to_polars,
)
from framemetrics.spark import SparkSource, open_spark
from framemetrics.stages import group_keys as stage_keys
from framemetrics.stages import multiclass as classes
from framemetrics.stages.calibration import calibration_bins, stage_bins
from framemetrics.stages.multiclass_bootstrap import bootstrap_table
from framemetrics.stages.paired import paired_test

__all__ = [
    "DuckDBTables",
    "SparkTables",
    "SqlBackend",
    "TextTables",
    "bootstrap_mc_query",
    "calibration_statement",
    "class_query",
    "paired_statement",
]

_tables = itertools.count()

_CLASS_TABLES = {
    "metrics": classes.metrics_table,
    "report": classes.report_table,
    "classes": classes.class_rows_table,
    "confusion": classes.confusion_table,
}


class SqlBackend(Backend):
    """``source`` read by DuckDB (``con``, or a connection of its own) or by Spark (``spark``).

    Examples
    --------
    >>> engine = SqlBackend(pl.DataFrame({"y": [0, 1], "p": [1, 1]}), "duckdb")
    >>> from framemetrics.core.plan import make_plan
    >>> plan = make_plan("accuracy_score", weighted=False)
    >>> columns = {"y_true": engine.column("y"), "y_pred": engine.column("p")}
    >>> engine.metrics(plan, columns, (), False)["accuracy_score"].item()
    0.5
    >>> engine.close()
    """

    ns = SQL

    def __init__(
        self, source: Source, name: str, con: duckdb.DuckDBPyConnection | None = None, spark: Any = None
    ) -> None:
        self.name = name
        self.opened = open_spark(source, spark) if name == "spark" else open_duckdb(source, con)

    def kinds(self) -> dict[str, str]:
        return sql_schema(self.opened)

    def dtypes(self, used: Sequence[str]) -> dict[str, pl.DataType]:
        if self.opened.dtypes:
            return dict(self.opened.dtypes)
        named = dict.fromkeys(self.opened.types(), pl.Unknown())
        return named | dict(self.opened.empty(list(used)).schema)

    def null_rows(self, columns: Sequence[str]) -> int:
        condition = SQL.any(*(SQL.is_null(exp.column(identifier(c))) for c in columns))
        return int(self.opened.fetch(exp.select(SQL.count_where(condition)).from_(self.opened.table.copy())).item())

    def column(self, name: str) -> exp.Expression:
        return user_column(name)

    def frame(self, columns: Mapping[str, str]) -> SqlFrame:
        select = exp.select(*(exp.alias_(user_column(c), n) for n, c in columns.items())).from_(
            self.opened.table.copy()
        )
        return SqlFrame(Statement(), select, list(columns))

    def run(self, frame: Frame) -> pl.DataFrame:
        assert isinstance(frame, SqlFrame)
        return self.opened.fetch(frame.statement.query(frame))

    def _inputs(
        self,
        columns: Mapping[str, exp.Expression],
        by: tuple[str, ...],
        drop: bool,
        level: str | None = None,
        all_rows: bool = False,
    ) -> QueryInputs:
        """The rows as the queries read them; with ``level``, every row twice: level 0 with null group
        columns (all rows), level 1 in its group; with ``all_rows`` too, every row once, at level 1 (all rows'
        statistics are then summed from the groups')."""
        table = self.opened.table
        if not (level and by):
            return QueryInputs(table, dict(columns), by, drop)
        if all_rows:
            return QueryInputs(
                table, dict(columns), (level, *by), drop, group_columns=(SQL.lit(1), *map(user_column, by))
            )

        def at(value: int) -> exp.Select:
            return exp.select(exp.Star(), exp.alias_(SQL.lit(value), level)).from_(table.copy())

        both = exp.union(at(0), at(1), distinct=False).subquery("fm_levels")
        at_level_1 = SQL.eq(exp.column(level), SQL.lit(1))
        # No ELSE: the null keeps the column's type.
        groups = (exp.column(level), *(exp.Case().when(at_level_1.copy(), user_column(b)) for b in by))
        return QueryInputs(both, dict(columns), (level, *by), drop, group_columns=groups)

    @contextmanager
    def shared_stage(
        self,
        plan: Plan,
        columns: Mapping[str, exp.Expression],
        by: tuple[str, ...],
        drop: bool,
        level: str | None = None,
    ) -> Iterator[str]:
        """The stage (of both levels) as one temporary table of the engine, dropped on leaving."""
        table = f"fm_shared_stage_{next(_tables)}"
        properties = exp.Properties(expressions=[exp.TemporaryProperty()])
        query = shared_stage_query(plan, self._inputs(columns, by, drop, level))
        create = exp.Create(this=exp.to_table(table), kind="TABLE", expression=query, properties=properties)
        try:
            self.opened.run(to_sql(create, self.name))
            yield table
        finally:
            self.opened.run(to_sql(exp.Drop(tables=[exp.to_table(table)], kind="TABLE", exists=True), self.name))

    def metrics(
        self,
        plan: Plan,
        columns: Mapping[str, exp.Expression],
        by: tuple[str, ...],
        drop: bool,
        stage: str | None = None,
        level: str | None = None,
        all_rows: bool = False,
    ) -> pl.DataFrame:
        inputs = self._inputs(columns, by, drop, level, all_rows)
        query = plan_query(plan, inputs, checks=True, stage=stage, apart=self.name == "duckdb", all_rows=all_rows)
        return self.opened.fetch(query, inputs.by)

    def checks(
        self, plan: Plan, columns: Mapping[str, exp.Expression], by: tuple[str, ...], drop: bool
    ) -> pl.DataFrame:
        return self.opened.fetch(checks_query(plan, self._inputs(columns, by, drop)))

    def curve(
        self,
        curve: Curve,
        plan: Plan,
        columns: Mapping[str, exp.Expression],
        by: tuple[str, ...],
        drop: bool,
        drop_intermediate: bool,
        max_points: int | None,
        stage: str | None = None,
        level: str | None = None,
        min_rows: int | None = None,
    ) -> pl.DataFrame:
        inputs = self._inputs(columns, by, drop, level)
        query = curve_query(
            curve, plan, inputs, drop_intermediate=drop_intermediate, max_points=max_points, stage=stage,
            min_rows=min_rows,
        )  # fmt: skip
        return self.opened.fetch(query, inputs.by)

    def calibration(
        self,
        plan: Plan,
        columns: Mapping[str, exp.Expression],
        by: tuple[str, ...],
        drop: bool,
        n_bins: int,
        level: str | None = None,
    ) -> pl.DataFrame:
        inputs = self._inputs(columns, by, drop, level)
        return self.opened.fetch(calibration_statement(plan, inputs, n_bins), inputs.by)

    def stage_calibration(self, stage: str, by: tuple[str, ...], level: str, n_bins: int) -> pl.DataFrame:
        groups = (level, *by) if by else ()  # the stage's group columns: the level first where there are segments
        return self.opened.fetch(stage_calibration_statement(stage, groups, n_bins), groups)

    def paired(
        self, plan: Plan, columns: Mapping[str, exp.Expression], by: tuple[str, ...], drop: bool, z: float
    ) -> pl.DataFrame:
        return self.opened.fetch(paired_statement(plan, self._inputs(columns, by, drop), z, checks=True), by)

    def multiclass(self, request: Any) -> pl.DataFrame:
        inputs = request.sql_inputs(self.opened.table)
        if request.plan.bootstrapped:
            return self.opened.fetch(bootstrap_mc_query(request.plan, inputs, checks=True), request.by)
        return self.opened.fetch(class_query(request.plan, inputs), request.by)

    def class_checks(self, request: Any) -> pl.DataFrame:
        statement = Statement()
        data = request.sql_inputs(self.opened.table).frame(request.plan, statement)
        return self.opened.fetch(statement.query(classes.checks_table(data, request.plan, request.by).frame))

    def class_curve(self, curve: Curve, request: Any, drop_intermediate: bool, max_points: int | None) -> pl.DataFrame:
        statement = Statement()
        data = request.sql_inputs(self.opened.table).frame(request.plan, statement)
        table = classes.class_curve_table(data, request.plan, request.by, curve, drop_intermediate, max_points)
        return self.opened.fetch(statement.query(table.frame, table.order)).drop(table.hidden)

    def class_table(self, kind: str, request: Any) -> pl.DataFrame:
        query = class_query(request.plan, request.sql_inputs(self.opened.table), kind)
        hidden = [c for c in ("true_index", "pred_index") if kind == "confusion"]
        return self.opened.fetch(query, request.by).drop(hidden)

    def close(self) -> None:
        self.opened.close()


def class_query(plan: Plan, inputs: McQueryInputs, kind: str = "metrics", *, checks: bool = True) -> exp.Query:
    """A multiclass evaluation as one statement: its metrics per group (``kind`` ``"metrics"``: group columns,
    ``n_rows``, one column per metric, with ``checks`` the ``invalid_*`` counts), its class report
    (``"report"``), class table (``"classes"``) or confusion matrix (``"confusion"``), sorted.

    Examples
    --------
    >>> import duckdb
    >>> from framemetrics.compilers.sql.emit import to_sql
    >>> from framemetrics.core.plan import make_plan
    >>> plan = make_plan(["accuracy_score"], task="multiclass", weighted=False)
    >>> q = class_query(plan, McQueryInputs(exp.to_table("t"), user_column("y"), user_column("p")), checks=False)
    >>> con = duckdb.connect()
    >>> _ = con.execute("CREATE TABLE t AS SELECT * FROM (VALUES (1, 1), (2, 1)) v(y, p)")
    >>> con.sql(to_sql(q)).fetchall()
    [(2, 0.5)]
    """
    statement = Statement()
    data = inputs.frame(plan, statement)
    build = _CLASS_TABLES[kind]
    table = build(data, plan, inputs.by, checks=checks) if kind == "metrics" else build(data, plan, inputs.by)
    return statement.query(table.frame, table.order)


class _SqlTables(Tables):
    """Frames that are stages of one :class:`Statement`, each source read as ``self.table``."""

    def __init__(self) -> None:
        self.statement = Statement()
        self.table: exp.Expression | None = None

    def frame(self, columns: Mapping[str, str]) -> SqlFrame:
        return SqlFrame.table(self.statement, self.table, columns)


class DuckDBTables(_SqlTables):
    """Every source on one DuckDB connection (``con``, or a quiet one of its own): frames registered through
    Arrow and unregistered at the end, files read by ``read_parquet`` / ``read_csv``, table names quoted; the
    stages run as one statement.

    Examples
    --------
    >>> tables = DuckDBTables()
    >>> tables.open(pl.DataFrame({"x": [1.0]}))
    ['x']
    >>> tables.run(tables.frame({"y": "x"})).rows()
    [(1.0,)]
    >>> tables.close()
    """

    def __init__(self, con: duckdb.DuckDBPyConnection | None = None) -> None:
        super().__init__()
        self.own = con is None
        self.connection = quiet_connection() if con is None else con
        self.registered: list[str] = []

    def _table(self, source: Source) -> exp.Expression:
        source = from_pandas(source)
        if isinstance(source, (pl.DataFrame, pl.LazyFrame)) or type(source).__module__.startswith("pyarrow"):
            name = f"fm_detection_{next(_tables)}"
            self.connection.register(name, source)
            self.registered.append(name)
            return exp.Table(this=identifier(name))
        if isinstance(source, duckdb.DuckDBPyRelation):
            raise TypeError("a DuckDB relation is not accepted here: pass a table or view name and con=")
        return open_duckdb(source, self.connection).table

    def open(self, source: Source) -> list[str]:
        self.table = self._table(source)
        return self.connection.sql(to_sql(exp.select(exp.Star()).from_(self.table.copy()).limit(0))).columns

    def run(self, frame: Frame) -> pl.DataFrame:
        assert isinstance(frame, SqlFrame)
        return to_polars(self.connection.sql(to_sql(self.statement.query(frame))))

    def close(self) -> None:
        for name in self.registered:
            self.connection.unregister(name)
        if self.own:
            self.connection.close()


class SparkTables(_SqlTables):
    """Spark DataFrames or table names (read by ``session``) as temporary views; the stages as one Spark SQL
    statement, or a script where they hold a fixpoint (:mod:`framemetrics.compilers.sql.script`); only the
    result is collected."""

    def __init__(self, session: Any) -> None:
        super().__init__()
        self.session = session
        self.sources: list[SparkSource] = []

    def open(self, source: Source) -> list[str]:
        opened = open_spark(source, self.session)
        self.sources.append(opened)
        self.table = opened.table
        return list(opened.dtypes)

    def run(self, frame: Frame) -> pl.DataFrame:
        assert isinstance(frame, SqlFrame)
        query = self.statement.query(frame)
        run = self.sources[0].run
        result = pl.from_arrow(run(statement_sql(query, "spark")).toArrow())
        rounds = [re.compile(rf"{re.escape(name)}(_\d+)?") for name in script_views(query)]
        for view in run("SHOW VIEWS").collect():
            if view["isTemporary"] and any(r.fullmatch(view["viewName"]) for r in rounds):
                run(f"DROP VIEW {to_sql(identifier(view['viewName']), 'spark')}")
        return result

    def close(self) -> None:
        for source in self.sources:
            source.close()


class TextTables(_SqlTables):
    """No engine: table names read as SQL text (``fm.sql``), their columns as the caller declares them.

    Examples
    --------
    >>> tables = TextTables({"boxes": ["id", "score"]})
    >>> tables.open("boxes")
    ['id', 'score']
    >>> print(tables.sql(tables.frame({"s": "score"}), ["s"], "postgres"))
    SELECT
      *
    FROM (
      SELECT
        "score" AS s
      FROM "boxes"
    ) AS fm_1
    ORDER BY
      "s"
    """

    def __init__(self, tables: Mapping[str, Sequence[str]]) -> None:
        super().__init__()
        self.tables = tables

    def open(self, source: Source) -> list[str]:
        self.table = table_name(source)
        return list(self.tables[source])

    def run(self, frame: Frame) -> pl.DataFrame:
        raise TypeError("SQL text is written, not run: call sql()")

    def sql(self, frame: Frame, order: Sequence[str], dialect: str) -> str:
        """The statement computing ``frame``, rows sorted by ``order``, in ``dialect``."""
        assert isinstance(frame, SqlFrame)
        return statement_sql(self.statement.query(frame, order), dialect)


def calibration_statement(plan: Plan, inputs: QueryInputs, n_bins: int) -> exp.Select:
    """The calibration curve's bins per group of ``inputs`` (:func:`~framemetrics.stages.calibration.calibration_bins`)
    as one statement, ordered by group (nulls last) then bin.

    Examples
    --------
    >>> from framemetrics.core.plan import make_plan
    >>> inputs = QueryInputs(exp.to_table("t"), {"y_true": user_column("y"), "y_score": user_column("s")})
    >>> to_sql(calibration_statement(make_plan("brier_score_loss", weighted=False), inputs, 10)).endswith('ORDER BY "bin"')
    True
    """
    rows = input_frame(Statement(), plan, inputs, group_keys(inputs))
    bins = calibration_bins(rows, rows_of(plan_literals(plan, inputs)), group_keys(inputs), inputs.by, n_bins)
    return rows.statement.query(bins, [*inputs.by, "bin"])


def stage_calibration_statement(stage: str, by: Sequence[str], n_bins: int) -> exp.Select:
    """The calibration curve's bins per group ``by`` from the shared curve stage held in the table ``stage``
    (:func:`~framemetrics.stages.calibration.stage_bins`), ordered by group (nulls last) then bin.

    Examples
    --------
    >>> con = duckdb.connect()
    >>> _ = con.execute("CREATE TABLE s AS SELECT * FROM (VALUES ('a', 0.2, 0.0, 1.0, 1), ('a', 0.9, 2.0, 0.0, 2))"
    ...                 " v(fm_g0, y_score, pw, nw, n_rows)")
    >>> con.sql(to_sql(stage_calibration_statement("s", ["g"], 2))).pl().select("g", "bin", "n_rows", "prob_true").rows()
    [('a', 0, 1, 0.0), ('a', 1, 2, 1.0)]
    """
    keys = stage_keys(by)
    statement = Statement()
    frame = SqlFrame(statement, exp.to_table(stage), [*keys, "y_score", "pw", "nw", "n_rows"])
    return statement.query(stage_bins(frame, keys, by, n_bins), [*by, "bin"])


def paired_statement(plan: Plan, inputs: QueryInputs, z: float, *, checks: bool = False) -> exp.Select:
    """DeLong's paired test of ``y_score`` and ``y_score_2`` per group of ``inputs``
    (:func:`~framemetrics.stages.paired.paired_test`) as one statement, ordered by group (nulls last).

    ``plan`` is the plan of ``roc_auc_score`` (labels, weights, checks),
    ``z`` the normal quantile of the interval; ``checks`` keeps the check
    counts after the outputs.

    Examples
    --------
    >>> from framemetrics.core.plan import make_plan
    >>> columns = {"y_true": user_column("y"), "y_score": user_column("a"), "y_score_2": user_column("b")}
    >>> text = to_sql(paired_statement(make_plan("roc_auc_score", weighted=False), QueryInputs("t", columns), 1.96))
    >>> text.startswith("WITH fm_input AS"), "fm_test_2" in text
    (True, True)
    """
    rows = input_frame(Statement(), plan, inputs, group_keys(inputs), ["y_score_2"])
    x = rows_of(plan_literals(plan, inputs))
    counts = check_counts(plan.checks, SQL, plan.pos_label, plan.neg_label)
    test = paired_test(rows, group_keys(inputs), inputs.by, x, counts, z)
    return rows.statement.query(test if checks else test.drop(*counts), inputs.by)


def bootstrap_mc_query(plan: Plan, inputs: McQueryInputs, *, checks: bool = False) -> exp.Query:
    """The plan's multiclass metrics per group and their bootstrap intervals as one statement, sorted by group
    (:func:`~framemetrics.stages.multiclass_bootstrap.bootstrap_table`); ``checks`` keeps the check counts.

    Examples
    --------
    >>> import duckdb
    >>> from framemetrics.core.plan import make_plan
    >>> plan = make_plan(["accuracy_score"], task="multiclass", weighted=False, has_pred=True, ci=0.9, n_resamples=9)
    >>> q = bootstrap_mc_query(plan, McQueryInputs(exp.to_table("t"), user_column("y"), user_column("p")))
    >>> con = duckdb.connect()
    >>> _ = con.execute("CREATE TABLE t AS SELECT * FROM (VALUES (1, 1), (2, 1), (2, 2)) v(y, p)")
    >>> [c[0] for c in con.sql(to_sql(q)).description]
    ['n_rows', 'accuracy_score', 'accuracy_score_low', 'accuracy_score_high']
    """
    statement = Statement()
    table = bootstrap_table(inputs.frame(plan, statement), plan, inputs.by, checks=checks)
    return statement.query(table.frame, table.order)
