"""Open what ``evaluate`` is given, for either engine, without copying data.

Accepted: a path or glob of Parquet or CSV files, a Polars DataFrame or
LazyFrame, a pyarrow Table or Dataset, a DuckDB relation, or the name of a
table or view on a DuckDB connection ``con``.
"""

from __future__ import annotations

import glob
import itertools
from collections.abc import Callable
from dataclasses import dataclass
from functools import partial
from pathlib import Path
from typing import Any

import duckdb
import polars as pl
from sqlglot import exp

from framemetrics.compilers.sql.emit import to_sql
from framemetrics.compilers.sql.namespace import identifier

__all__ = ["DuckDBSource", "Source", "duckdb_schema", "open_duckdb", "open_polars", "schema"]

Source = Any
_PARQUET = (".parquet", ".pq")
_CSV = (".csv", ".tsv", ".csv.gz")
_names = itertools.count()
# DuckDB's CSV types limited to those Polars infers (DuckDB would read "Yes"/"No" as BOOLEAN).
_CSV_TYPES = ("BIGINT", "DOUBLE", "DATE", "TIMESTAMP", "VARCHAR")


def _file_kind(source: Source) -> str | None:
    if isinstance(source, Path):
        source = str(source)
    if not isinstance(source, str):
        return None
    lower = source.lower()
    if lower.endswith(_PARQUET):
        return "parquet"
    if lower.endswith(_CSV):
        return "csv"
    return None


def _check_files(path: str) -> None:
    if not glob.glob(path):
        raise ValueError(f"no file matches {path!r}")


def open_polars(source: Source, con: duckdb.DuckDBPyConnection | None = None) -> pl.LazyFrame:
    """``source`` as a Polars LazyFrame.

    Examples
    --------
    >>> open_polars(pl.DataFrame({"y": [1]})).collect_schema().names()
    ['y']
    """
    kind = _file_kind(source)
    if kind:
        _check_files(str(source))
    if kind == "parquet":
        return pl.scan_parquet(source)
    if kind == "csv":
        return pl.scan_csv(
            source, try_parse_dates=True, separator="\t" if str(source).lower().endswith(".tsv") else ","
        )
    if isinstance(source, pl.LazyFrame):
        return source
    if isinstance(source, pl.DataFrame):
        return source.lazy()
    if isinstance(source, duckdb.DuckDBPyRelation):
        return source.pl(lazy=True)
    if isinstance(source, str) and con is not None:
        return con.table(to_sql(exp.to_identifier(source, quoted=True))).pl(lazy=True)
    module = type(source).__module__
    if module.startswith("pyarrow") and type(source).__name__ in ("Table", "RecordBatch"):
        return pl.from_arrow(source).lazy()
    if module.startswith("pyarrow") and hasattr(source, "to_batches"):
        return pl.scan_pyarrow_dataset(source)
    raise TypeError(_unsupported(source))


@dataclass(frozen=True)
class DuckDBSource:
    """How to query a source with DuckDB: ``run(sql)`` of a statement reading ``table`` (a sqlglot tree).

    ``close()`` drops what was registered on the connection for it.
    """

    run: Callable[[str], duckdb.DuckDBPyRelation]
    table: exp.Expression
    close: Callable[[], object] = lambda: None

    def select(self, *columns: exp.Expression) -> duckdb.DuckDBPyRelation:
        """Run ``SELECT columns FROM table`` (``*`` without columns)."""
        return self.run(to_sql(exp.select(*(columns or [exp.Star()])).from_(self.table.copy())))

    def empty(self) -> pl.DataFrame:
        """No rows, the source's columns and types."""
        return self.run(to_sql(exp.select(exp.Star()).from_(self.table.copy()).limit(0))).pl()


def open_duckdb(source: Source, con: duckdb.DuckDBPyConnection | None = None) -> DuckDBSource:
    """``source`` as something DuckDB can query.

    In-memory frames are registered under a fresh name (DuckDB scans them
    through Arrow, without a copy); a relation is queried in its own
    connection.

    Examples
    --------
    >>> src = open_duckdb(pl.DataFrame({"y": [1]}))
    >>> src.select().fetchall()
    [(1,)]
    """
    if isinstance(source, duckdb.DuckDBPyRelation):
        return DuckDBSource(lambda sql: source.query("fm_source", sql), exp.to_table("fm_source"))
    kind = _file_kind(source)
    if isinstance(source, str) and not kind and con is None:
        raise TypeError(_unsupported(source))
    con = con if con is not None else duckdb.connect()
    if kind:
        _check_files(str(source))
        path = exp.Literal.string(str(source))
        if kind == "parquet":
            return DuckDBSource(con.sql, exp.Table(this=exp.func("read_parquet", path)))
        types = exp.Array(expressions=[exp.Literal.string(t) for t in _CSV_TYPES])
        option = exp.EQ(this=exp.column("auto_type_candidates"), expression=types)
        return DuckDBSource(con.sql, exp.Table(this=exp.ReadCSV(this=path, expressions=[option])))
    if isinstance(source, str):
        return DuckDBSource(con.sql, exp.Table(this=identifier(source)))
    if isinstance(source, (pl.DataFrame, pl.LazyFrame)) or type(source).__module__.startswith("pyarrow"):
        name = f"fm_source_{next(_names)}"
        con.register(name, source)
        return DuckDBSource(con.sql, exp.Table(this=identifier(name)), partial(con.unregister, name))
    raise TypeError(_unsupported(source))


def _unsupported(source: Source) -> str:
    return (
        f"cannot read {type(source).__name__}: pass a Parquet/CSV path or glob, a Polars DataFrame "
        "or LazyFrame, a pyarrow Table or Dataset, a DuckDB relation, or a table name with con="
    )


def schema(frame: pl.LazyFrame) -> dict[str, str]:
    """Column names mapped to a coarse kind: numeric, bool, string, null (all-null) or other.

    Examples
    --------
    >>> schema(pl.LazyFrame({"a": [1], "b": ["x"], "c": [True]}))
    {'a': 'numeric', 'b': 'string', 'c': 'bool'}
    """
    return {name: _kind(dtype) for name, dtype in frame.collect_schema().items()}


def duckdb_schema(source: DuckDBSource) -> dict[str, str]:
    """Like :func:`schema`, for a DuckDB source (read from an empty result)."""
    return {name: _kind(dtype) for name, dtype in source.empty().schema.items()}


def _kind(dtype: pl.DataType) -> str:
    if dtype == pl.Null:
        return "null"
    if dtype == pl.Boolean:
        return "bool"
    if dtype.is_numeric():
        return "numeric"
    if dtype in (pl.String, pl.Categorical) or isinstance(dtype, pl.Enum):
        return "string"
    return "other"
