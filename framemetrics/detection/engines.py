"""The tables of a detection call on its engine: the user's sources as frames, and running the result.

Polars reads each source as a ``LazyFrame``; DuckDB reads every source on
one connection (``con``, or a quiet one of its own): frames registered
through Arrow and unregistered at the end, files by ``read_parquet`` /
``read_csv``, table names quoted; it runs the stages as one statement there.
Spark reads Spark DataFrames (as temporary views) or table names of its
session and runs the same statement in its dialect, or a script where the
stages hold a fixpoint; only the result is collected.
"""

from __future__ import annotations

import itertools
import re
from collections.abc import Mapping, Sequence
from typing import Any

import duckdb
import polars as pl
from sqlglot import exp

from framemetrics.columns import check_column_name
from framemetrics.compilers.polars.frame import PolarsFrame
from framemetrics.compilers.sql.emit import to_sql
from framemetrics.compilers.sql.frame import SqlFrame, Statement
from framemetrics.compilers.sql.namespace import identifier, table_name
from framemetrics.compilers.sql.script import script_views, statement_sql
from framemetrics.core.errors import ArgumentError, missing_column
from framemetrics.core.frame import Frame
from framemetrics.sources import Source, from_pandas, open_duckdb, open_polars, quiet_connection, to_polars
from framemetrics.spark import SparkSource, open_spark

__all__ = ["DetectionEngine", "TextEngine", "detection_engine"]

_names = itertools.count()


class DetectionEngine:
    """Where a detection call runs: :meth:`frame` opens a source, :meth:`run` computes a frame."""

    def frame(
        self, source: Source, columns: Mapping[str, str], role: str, optional: Mapping[str, str] | None = None
    ) -> Frame:
        """``source``'s ``columns`` (``{stage name: user's column}``) as a frame; a missing column raises.

        The ``optional`` columns are read where the source has them.
        """
        available = self._open(source)
        _check_columns(columns, available, role)
        present = {n: c for n, c in (optional or {}).items() if c in available}
        return self._frame({**columns, **present})

    def columns(self, source: Source) -> list[str]:
        """The column names of ``source``."""
        return list(self._open(source))

    def _open(self, source: Source) -> list[str]:
        """Open ``source``; its column names."""
        raise NotImplementedError

    def _frame(self, columns: Mapping[str, str]) -> Frame:
        """The source opened last, its ``columns`` renamed."""
        raise NotImplementedError

    def run(self, frame: Frame) -> pl.DataFrame:
        """The rows of ``frame``."""
        raise NotImplementedError

    def close(self) -> None:
        """Drop what was registered."""


def _check_columns(columns: Mapping[str, str], available: Sequence[str], role: str) -> None:
    for name, column in columns.items():
        check_column_name(column, f"{role} {name}")
        if column not in available:
            raise missing_column(column, role, available)


class _Polars(DetectionEngine):
    def __init__(self, con: duckdb.DuckDBPyConnection | None) -> None:
        self.con = con

    def _open(self, source: Source) -> list[str]:
        self.lazy = open_polars(source, self.con)
        return self.lazy.collect_schema().names()

    def _frame(self, columns: Mapping[str, str]) -> PolarsFrame:
        return PolarsFrame(self.lazy.select(**{name: pl.col(column) for name, column in columns.items()}))

    def run(self, frame: Frame) -> pl.DataFrame:
        assert isinstance(frame, PolarsFrame)
        return frame.collect()


class _SqlEngine(DetectionEngine):
    """An engine whose frames are stages of one :class:`Statement`, each source read as ``self.table``."""

    def __init__(self) -> None:
        self.statement = Statement()
        self.table: exp.Expression | None = None

    def _frame(self, columns: Mapping[str, str]) -> SqlFrame:
        return SqlFrame.table(self.statement, self.table, columns)


class _DuckDB(_SqlEngine):
    def __init__(self, con: duckdb.DuckDBPyConnection | None) -> None:
        super().__init__()
        self.own = con is None
        self.connection = quiet_connection() if con is None else con
        self.registered: list[str] = []

    def _table(self, source: Source) -> exp.Expression:
        source = from_pandas(source)
        if isinstance(source, (pl.DataFrame, pl.LazyFrame)) or type(source).__module__.startswith("pyarrow"):
            name = f"fm_detection_{next(_names)}"
            self.connection.register(name, source)
            self.registered.append(name)
            return exp.Table(this=identifier(name))
        if isinstance(source, duckdb.DuckDBPyRelation):
            raise TypeError("a DuckDB relation is not accepted here: pass a table or view name and con=")
        return open_duckdb(source, self.connection).table

    def _open(self, source: Source) -> list[str]:
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


class _Spark(_SqlEngine):
    """Spark DataFrames or table names (read by ``session``) as temporary views; the stages as one Spark SQL
    statement, or a script where they hold a fixpoint (:mod:`framemetrics.compilers.sql.script`)."""

    def __init__(self, session: Any) -> None:
        super().__init__()
        self.session = session
        self.sources: list[SparkSource] = []

    def _open(self, source: Source) -> list[str]:
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


class TextEngine(_SqlEngine):
    """No engine: table names read as SQL text (``fm.sql``), their columns as the caller declares them."""

    def __init__(self, tables: Mapping[str, Sequence[str]]) -> None:
        super().__init__()
        self.tables = tables

    def _open(self, source: Source) -> list[str]:
        self.table = table_name(source)
        return list(self.tables[source])

    def sql(self, frame: Frame, order: Sequence[str], dialect: str) -> str:
        """The statement computing ``frame``, rows sorted by ``order``, in ``dialect``."""
        assert isinstance(frame, SqlFrame)
        return statement_sql(self.statement.query(frame, order), dialect)


def detection_engine(engine: str, con: Any = None, spark: Any = None) -> DetectionEngine:
    """The engine named ``engine`` (``"polars"``, ``"duckdb"``, ``"spark"``), reading table names from ``con``
    (a DuckDB connection) or, for Spark, from ``spark`` (a SparkSession; Spark DataFrames need none).

    Examples
    --------
    >>> type(detection_engine("polars")).__name__
    '_Polars'
    """
    if engine == "polars":
        return _Polars(con)
    if engine == "duckdb":
        return _DuckDB(con)
    if engine == "spark":
        return _Spark(spark)
    raise ArgumentError(f"engine must be 'polars', 'duckdb' or 'spark', got {engine!r}")
