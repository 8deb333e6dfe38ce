"""The tables of a detection call: the user's sources as frames of one engine, their columns checked.

The engine is chosen by :func:`framemetrics.engines.open_tables` (Polars,
DuckDB, Spark) or is SQL text (:class:`~framemetrics.engines.sql.TextTables`);
:class:`DetectionEngine` checks each source's columns before its stages read
them.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

import polars as pl

from framemetrics.columns import check_column_name
from framemetrics.core.errors import missing_column
from framemetrics.core.frame import Frame
from framemetrics.engines import Tables, open_tables
from framemetrics.engines.sql import TextTables
from framemetrics.sources import Source

__all__ = ["DetectionEngine", "TextEngine", "detection_engine"]


class DetectionEngine:
    """Where a detection call runs: :meth:`frame` opens a source, :meth:`run` computes a frame.

    Examples
    --------
    >>> engine = detection_engine("polars")
    >>> f = engine.frame(pl.DataFrame({"id": [2, 1]}), {"gid": "id"}, "ground truth")
    >>> engine.run(f)["gid"].to_list()
    [2, 1]
    """

    def __init__(self, tables: Tables) -> None:
        self.tables = tables

    def frame(
        self, source: Source, columns: Mapping[str, str], role: str, optional: Mapping[str, str] | None = None
    ) -> Frame:
        """``source``'s ``columns`` (``{stage name: user's column}``) as a frame; a missing column raises.

        The ``optional`` columns are read where the source has them.
        """
        available = self.tables.open(source)
        for name, column in columns.items():
            check_column_name(column, f"{role} {name}")
            if column not in available:
                raise missing_column(column, role, available)
        present = {n: c for n, c in (optional or {}).items() if c in available}
        return self.tables.frame({**columns, **present})

    def columns(self, source: Source) -> list[str]:
        """The column names of ``source``."""
        return list(self.tables.open(source))

    def run(self, frame: Frame) -> pl.DataFrame:
        """The rows of ``frame``."""
        return self.tables.run(frame)

    def close(self) -> None:
        """Drop what was registered."""
        self.tables.close()


class TextEngine(DetectionEngine):
    """No engine: table names read as SQL text (``fm.sql``), their columns as the caller declares them."""

    def __init__(self, tables: Mapping[str, Sequence[str]]) -> None:
        self.text = TextTables(tables)
        self.statement = self.text.statement  # the stages written so far, for a caller's own final select
        super().__init__(self.text)

    def sql(self, frame: Frame, order: Sequence[str], dialect: str) -> str:
        """The statement computing ``frame``, rows sorted by ``order``, in ``dialect``."""
        return self.text.sql(frame, order, dialect)


def detection_engine(engine: str, con: Any = None, spark: Any = None) -> DetectionEngine:
    """The engine named ``engine`` (``"polars"``, ``"duckdb"``, ``"spark"``), reading table names from ``con``
    (a DuckDB connection) or, for Spark, from ``spark`` (a SparkSession; Spark DataFrames need none).

    Examples
    --------
    >>> type(detection_engine("polars").tables).__name__
    'PolarsTables'
    """
    return DetectionEngine(open_tables(engine, con, spark))
