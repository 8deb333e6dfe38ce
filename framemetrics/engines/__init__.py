"""Where a call runs, chosen in this one module: :func:`open_engine`.

Every entry point opens its source once and asks the engine it gets for
what it needs by the same names (:class:`~framemetrics.engines.base.Backend`):
Polars (:class:`~framemetrics.engines.polars.PolarsBackend`) or a SQL engine,
DuckDB or Spark (:class:`~framemetrics.engines.sql.SqlBackend`). Object
detection reads several sources as frames of one engine
(:func:`open_tables`, :class:`~framemetrics.engines.base.Tables`).
"""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

import duckdb

from framemetrics.core.errors import ArgumentError
from framemetrics.engines.base import Backend, Tables
from framemetrics.engines.polars import PolarsBackend, PolarsTables
from framemetrics.engines.sql import DuckDBTables, SparkTables, SqlBackend
from framemetrics.sources import Source

__all__ = ["Backend", "Tables", "open_engine", "open_tables"]


@contextmanager
def open_engine(
    source: Source, engine: str, con: duckdb.DuckDBPyConnection | None = None, spark: Any = None
) -> Iterator[Backend]:
    """``source`` opened on ``engine`` (``"polars"``, ``"duckdb"`` or ``"spark"``), closed on leaving.

    Examples
    --------
    >>> import polars as pl
    >>> with open_engine(pl.DataFrame({"y": [1, 2]}), "polars") as engine:
    ...     engine.name, engine.kinds()
    ('polars', {'y': 'numeric'})
    """
    opened = PolarsBackend(source, con) if engine == "polars" else SqlBackend(source, engine, con, spark)
    try:
        yield opened
    finally:
        opened.close()


def open_tables(engine: str, con: duckdb.DuckDBPyConnection | None = None, spark: Any = None) -> Tables:
    """The tables of ``engine`` (``"polars"``, ``"duckdb"``, ``"spark"``): table names read from ``con`` (a
    DuckDB connection) or, for Spark, from ``spark`` (a SparkSession; Spark DataFrames need none).

    Examples
    --------
    >>> type(open_tables("polars")).__name__
    'PolarsTables'
    """
    if engine == "polars":
        return PolarsTables(con)
    if engine == "duckdb":
        return DuckDBTables(con)
    if engine == "spark":
        return SparkTables(spark)
    raise ArgumentError(f"engine must be 'polars', 'duckdb' or 'spark', got {engine!r}")
