"""A SQL engine, DuckDB or Spark: each plan one statement of :mod:`framemetrics.compilers.sql`, run there."""

from __future__ import annotations

import itertools
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
from framemetrics.compilers.sql.multiclass import checks_query as class_checks_query
from framemetrics.compilers.sql.multiclass import (
    class_table_query,
    confusion_query,
    mc_query,
    one_vs_rest_rows,
    report_query,
)
from framemetrics.compilers.sql.multiclass_bootstrap import bootstrap_mc_query
from framemetrics.compilers.sql.paired import paired_query
from framemetrics.compilers.sql.query import QueryInputs, checks_query, plan_query, user_column
from framemetrics.compilers.sql.query import shared_stage as shared_stage_query
from framemetrics.core.checks import check_counts
from framemetrics.core.curves import Curve
from framemetrics.core.frame import Frame
from framemetrics.core.plan import Plan, make_plan
from framemetrics.engines.base import Backend
from framemetrics.sources import Source, null_rows, open_sql, sql_schema

__all__ = ["SqlBackend"]

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
        self.opened = open_sql(source, name, con, spark)

    def kinds(self) -> dict[str, str]:
        return sql_schema(self.opened)

    def dtypes(self, used: Sequence[str]) -> dict[str, pl.DataType]:
        if self.opened.dtypes:
            return dict(self.opened.dtypes)
        named = dict.fromkeys(self.opened.types(), pl.Unknown())
        return named | dict(self.opened.empty(list(used)).schema)

    def null_rows(self, columns: Sequence[str]) -> int:
        return null_rows(self.opened, columns)

    def column(self, name: str) -> exp.Expression:
        return user_column(name)

    def frame(self, columns: Mapping[str, str]) -> SqlFrame:
        select = exp.select(*(exp.alias_(user_column(c), n) for n, c in columns.items())).from_(self.opened.table.copy())
        return SqlFrame(Statement(), select, list(columns))

    def run(self, frame: Frame) -> pl.DataFrame:
        assert isinstance(frame, SqlFrame)
        return self.opened.fetch(frame.statement.query(frame))

    def _inputs(self, columns: Mapping[str, exp.Expression], by: tuple[str, ...], drop: bool) -> QueryInputs:
        return QueryInputs(self.opened.table, dict(columns), by, drop)

    @contextmanager
    def shared_stage(
        self, plan: Plan, columns: Mapping[str, exp.Expression], by: tuple[str, ...], drop: bool
    ) -> Iterator[str]:
        """The stage as a temporary table of the engine, dropped on leaving."""
        table = f"fm_shared_stage_{next(_tables)}"
        properties = exp.Properties(expressions=[exp.TemporaryProperty()])
        query = shared_stage_query(plan, self._inputs(columns, by, drop))
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
    ) -> pl.DataFrame:
        return self.opened.fetch(plan_query(plan, self._inputs(columns, by, drop), checks=True, stage=stage), by)

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
    ) -> pl.DataFrame:
        inputs = self._inputs(columns, by, drop)
        query = curve_query(
            curve, plan, inputs, drop_intermediate=drop_intermediate, max_points=max_points, stage=stage
        )
        return self.opened.fetch(query, by)

    def calibration(
        self, plan: Plan, columns: Mapping[str, exp.Expression], by: tuple[str, ...], drop: bool, n_bins: int
    ) -> pl.DataFrame:
        return self.opened.fetch(calibration_query(plan, self._inputs(columns, by, drop), n_bins), by)

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
