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
from framemetrics.compilers.sql.calibration import calibration_query
from framemetrics.compilers.sql.curves import curve_query
from framemetrics.compilers.sql.emit import to_sql
from framemetrics.compilers.sql.frame import SqlFrame, Statement
from framemetrics.compilers.sql.multiclass import (
    McQueryInputs,
    class_table_query,
    confusion_query,
    groups_cte,
    input_ctes,
    mc_query,
    metrics_select,
    one_vs_rest_rows,
    report_query,
    stage_ctes,
)
from framemetrics.compilers.sql.multiclass import checks_query as class_checks_query
from framemetrics.compilers.sql.namespace import identifier, table_name
from framemetrics.compilers.sql.paired import paired_query
from framemetrics.compilers.sql.query import QueryInputs, checks_query, plan_query, user_column
from framemetrics.compilers.sql.query import shared_stage as shared_stage_query
from framemetrics.compilers.sql.script import script_views, statement_sql
from framemetrics.compilers.sql.stages import same_group, select_from
from framemetrics.core.checks import check_counts
from framemetrics.core.curves import Curve
from framemetrics.core.frame import Frame
from framemetrics.core.multiclass import CURVE_STAGES
from framemetrics.core.plan import Plan, make_plan
from framemetrics.core.resampling import REPLICATE
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
from framemetrics.stages.multiclass_bootstrap import interval_bounds, replicated_cells, replicated_rows, weighted_rows

__all__ = ["DuckDBTables", "SparkTables", "SqlBackend", "TextTables", "bootstrap_mc_query"]

_tables = itertools.count()

_CLASS_TABLES = {"report": report_query, "classes": class_table_query, "confusion": confusion_query}


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
        self, columns: Mapping[str, exp.Expression], by: tuple[str, ...], drop: bool, level: str | None = None
    ) -> QueryInputs:
        """The rows as the queries read them; with ``level``, every row twice: level 0 with null group
        columns (all rows), level 1 in its group."""
        table = self.opened.table
        if not (level and by):
            return QueryInputs(table, dict(columns), by, drop)

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
    ) -> pl.DataFrame:
        inputs = self._inputs(columns, by, drop, level)
        return self.opened.fetch(plan_query(plan, inputs, checks=True, stage=stage), inputs.by)

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
    ) -> pl.DataFrame:
        inputs = self._inputs(columns, by, drop, level)
        query = curve_query(
            curve, plan, inputs, drop_intermediate=drop_intermediate, max_points=max_points, stage=stage
        )
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
        return self.opened.fetch(calibration_query(plan, inputs, n_bins), inputs.by)

    def paired(
        self, plan: Plan, columns: Mapping[str, exp.Expression], by: tuple[str, ...], drop: bool, z: float
    ) -> pl.DataFrame:
        counts = check_counts(plan.checks, SQL, plan.pos_label, plan.neg_label)
        query = paired_query(plan, self._inputs(columns, by, drop), counts, z, with_checks=True)
        return self.opened.fetch(query, by)

    def multiclass(self, request: Any) -> pl.DataFrame:
        query = bootstrap_mc_query if request.plan.bootstrapped else mc_query
        return self.opened.fetch(query(request.plan, request.sql_inputs(self.opened.table), checks=True), request.by)

    def class_checks(self, request: Any) -> pl.DataFrame:
        return self.opened.fetch(class_checks_query(request.plan, request.sql_inputs(self.opened.table)))

    def class_curve(self, curve: Curve, request: Any, drop_intermediate: bool, max_points: int | None) -> pl.DataFrame:
        binary = make_plan("roc_auc_score", weighted=True, pos_label=True, neg_label=False)
        roles = {"y_true": "is_pos", "y_score": "y_score", "sample_weight": "sample_weight"}
        segments = tuple(f"fm_segment_{i}" for i in range(len(request.by)))
        rows = one_vs_rest_rows(request.plan, request.sql_inputs(self.opened.table))
        inputs = QueryInputs(rows, {r: exp.column(c) for r, c in roles.items()}, (*segments, "column_index"))
        query = curve_query(curve, binary, inputs, drop_intermediate=drop_intermediate, max_points=max_points)
        return self.opened.fetch(query).rename({s: f"fm_g{i}" for i, s in enumerate(segments)})

    def class_table(self, kind: str, request: Any) -> pl.DataFrame:
        query = _CLASS_TABLES[kind](request.plan, request.sql_inputs(self.opened.table))
        return self.opened.fetch(query, request.by)

    def close(self) -> None:
        self.opened.close()


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


def bootstrap_mc_query(plan: Plan, inputs: McQueryInputs, *, checks: bool = False) -> exp.Query:
    """The plan's multiclass metrics per group and their bootstrap intervals, as a tree: the multiclass stages
    over the replicates laid out as groups (:mod:`framemetrics.stages.multiclass_bootstrap`).

    ``fm_input`` carries the row key; ``fm_cells`` holds the full data's and
    every replicate's cells, the groups ``(keys, fm_b)``, and the curves'
    stages read ``fm_replicated_input``, the rows laid out the same way;
    ``fm_mc_values`` holds the metrics of each, ``fm_mc_bounds`` the
    replicates' percentiles.

    Examples
    --------
    >>> from framemetrics.compilers.sql.emit import to_sql
    >>> plan = make_plan(["accuracy_score"], task="multiclass", weighted=False, has_pred=True, ci=0.9, n_resamples=9)
    >>> q = bootstrap_mc_query(plan, McQueryInputs(exp.to_table("t"), user_column("y"), user_column("p")))
    >>> con = duckdb.connect()
    >>> _ = con.execute("CREATE TABLE t AS SELECT * FROM (VALUES (1, 1), (2, 1), (2, 2)) v(y, p)")
    >>> [c[0] for c in con.sql(to_sql(q)).description]
    ['n_rows', 'accuracy_score', 'accuracy_score_low', 'accuracy_score_high']
    """
    keys = [f"fm_g{i}" for i in range(len(inputs.by))]
    replicated = [*keys, REPLICATE]
    statement = Statement()
    for name, select in input_ctes(plan, inputs):
        statement.define(name, select)
    drawn = weighted_rows(SqlFrame(statement, exp.table_("fm_input"), _stage_columns(statement, "fm_input")), plan)
    cells = replicated_cells(drawn, plan, keys)
    classes = ("y_true", "y_pred") if plan.has_pred else ("y_true",)
    statement.define(*groups_cte([c for c in cells.columns if c not in (*replicated, *classes, "n_rows", "weight")],
                                 replicated))  # fmt: skip
    rows = "fm_input"
    if plan.stages & CURVE_STAGES:
        columns = [*keys, "true_index", *(f"s_{j}" for j in range(plan.n_scores)), "sample_weight"]
        replicated_rows(drawn, plan, columns)
        rows = "fm_replicated_input"
    for name, select in stage_ctes(plan, replicated, plan.stages, rows):
        statement.define(name, select)
    statement.define("fm_mc_values", metrics_select(plan, replicated, inputs.by, checks=True, internal=True))
    metrics = [interval.call.name for interval in plan.bootstrapped]
    interval_bounds(SqlFrame(statement, exp.table_("fm_mc_values"), [*replicated, *metrics]), plan, keys)
    outputs = [exp.alias_(exp.column(k, table="fm_mc_values"), identifier(c)) for k, c in zip(keys, inputs.by,
                                                                                                  strict=True)]  # fmt: skip
    outputs += [exp.column("n_rows"), *(exp.column(identifier(name)) for name in plan.output_columns)]
    outputs += [exp.column(c.name) for c in plan.checks] if checks else []
    select = select_from(outputs, "fm_mc_values", where=SQL.eq(exp.column(REPLICATE, table="fm_mc_values"), -1))
    select = select.join("fm_mc_bounds", on=same_group("fm_mc_values", "fm_mc_bounds", keys))
    if keys:
        select = select.order_by(*(exp.Ordered(this=exp.column(k, table="fm_mc_values"), nulls_first=False)
                                   for k in keys))  # fmt: skip
    return statement.with_stages(select)


def _stage_columns(statement: Statement, name: str) -> list[str]:
    """The columns of the stage ``name`` of ``statement``."""
    return _columns(statement, next(cte.this for cte in statement.ctes if cte.alias == name))


def _columns(statement: Statement, select: exp.Select) -> list[str]:
    """The columns of ``select``, a ``*`` read as the columns of the stage or derived table it selects from."""
    columns = []
    for column in select.expressions:
        if isinstance(column, exp.Star):
            source = select.args["from_"].this
            inner = isinstance(source, exp.Subquery)
            columns += _columns(statement, source.this) if inner else _stage_columns(statement, source.name)
        else:
            columns.append(column.alias_or_name)
    return columns
