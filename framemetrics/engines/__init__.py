"""Where a call runs, chosen in this one module: :func:`open_engine`.

Every entry point opens its source once and asks the engine it gets for
what it needs by the same names (:class:`~framemetrics.engines.base.Backend`):
Polars (:class:`~framemetrics.engines.polars.PolarsBackend`) or a SQL engine,
DuckDB or Spark (:class:`~framemetrics.engines.sql.SqlBackend`).
"""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

import duckdb

from framemetrics.engines.base import Backend
from framemetrics.engines.polars import PolarsBackend
from framemetrics.engines.sql import SqlBackend
from framemetrics.sources import Source

__all__ = ["Backend", "open_engine"]


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
