"""Open what ``evaluate`` is given, for either engine, without copying data.

Accepted: a path or glob of Parquet or CSV files, a Polars DataFrame or
LazyFrame, a pandas DataFrame (read as Polars through Arrow), a pyarrow
Table or Dataset, a DuckDB relation, or the name of a table or view on a
DuckDB connection ``con``.
"""

from __future__ import annotations

import glob
import itertools
from collections.abc import Callable, Iterator, Mapping, Sequence
from dataclasses import dataclass, field, replace
from functools import partial
from pathlib import Path
from typing import Any

import duckdb
import polars as pl
import pyarrow as pa
import pyarrow.parquet as pq
from polars.io.plugins import register_io_source
from sqlglot import exp

from framemetrics.compilers.sql.emit import to_sql
from framemetrics.compilers.sql.frame import TURNS
from framemetrics.compilers.sql.namespace import identifier
from framemetrics.core.turns import turn_done
from framemetrics.spark import SparkSource

__all__ = [
    "DuckDBSource",
    "Source",
    "duckdb_schema",
    "from_pandas",
    "index_levels",
    "open_duckdb",
    "open_polars",
    "quiet_connection",
    "schema",
    "sql_schema",
    "to_polars",
]

Source = Any
_PARQUET = (".parquet", ".pq")
_CSV = (".csv", ".tsv", ".csv.gz")
_EXTENSIONS = ".parquet, .pq, .csv, .tsv or .csv.gz"
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


def from_pandas(source: Source) -> Source:
    """A pandas DataFrame as a Polars DataFrame (other sources unchanged), without importing pandas.

    Through Arrow: numeric columns without nulls are not copied; nullable
    dtypes (``Int64``, ``boolean``, ``string``) keep their nulls,
    categoricals become Polars categoricals, and NaN in a float column is
    null, as pandas reads it: missing. The index is not a column.

    Examples
    --------
    >>> from_pandas(pl.DataFrame({"y": [1]})).shape
    (1, 1)
    """
    kind = type(source)
    if kind.__name__ == "DataFrame" and kind.__module__.startswith("pandas"):
        return pl.from_pandas(source)
    return source


def index_levels(source: Source) -> list[str]:
    """The named index levels of a pandas DataFrame that are not also columns (none for other sources).

    :func:`from_pandas` does not read the index; a call naming a level as a
    column is told so (:func:`~framemetrics.core.errors.index_column`).

    Examples
    --------
    >>> import pandas as pd
    >>> index_levels(pd.DataFrame({"y": [1]}, index=pd.Index(["a"], name="segment")))
    ['segment']
    >>> index_levels(pl.DataFrame({"y": [1]}))
    []
    """
    kind = type(source)
    if not (kind.__name__ == "DataFrame" and kind.__module__.startswith("pandas")):
        return []
    return [n for n in source.index.names if isinstance(n, str) and n not in source.columns]


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
    source = from_pandas(source)
    kind = _file_kind(source)
    if kind:
        _check_files(str(source))
    if kind == "parquet":
        return pl.scan_parquet(source) if polars_imports(str(source)) else _scan_through_duckdb(str(source))
    if kind == "csv":
        return pl.scan_csv(
            source, try_parse_dates=True, separator="\t" if str(source).lower().endswith(".tsv") else ","
        )
    if isinstance(source, pl.LazyFrame):
        return source
    if isinstance(source, pl.DataFrame):
        return source.lazy()
    if isinstance(source, (str, Path)) and con is None:
        raise ValueError(_no_such_source(str(source)))
    # A DuckDB relation or table is read once, eagerly: a lazy scan read twice by one
    # plan (AUC, R^2) would query a connection that is still busy with the first read.
    if isinstance(source, duckdb.DuckDBPyRelation) or (isinstance(source, str) and con is not None):
        duck = open_duckdb(source, con)
        return to_polars(duck.select()).lazy()
    module = type(source).__module__
    if module.startswith("pyarrow") and type(source).__name__ in ("Table", "RecordBatch"):
        return pl.from_arrow(source).lazy()
    if module.startswith("pyarrow") and hasattr(source, "to_batches"):
        return pl.scan_pyarrow_dataset(source)
    raise TypeError(_unsupported(source))


def polars_imports(path: str) -> bool:
    """Whether Polars can read the schema of the Parquet files ``path`` (a path or glob).

    Polars panics on a Parquet INTERVAL column, even unused, as soon as it
    reads the schema. Like Polars, this reads the first file's footer only; a
    directory, or a file whose footer cannot be read, is left to Polars (which
    says why).

    Examples
    --------
    >>> polars_imports("no/such/*.parquet")
    True
    """
    first = min(glob.glob(path), default=None)
    if first is None or not Path(first).is_file():
        return True
    try:
        columns = pq.ParquetFile(first).schema
    except (pa.ArrowException, OSError):
        return True
    return all(columns.column(i).converted_type != "INTERVAL" for i in range(len(columns)))


def _scan_through_duckdb(path: str) -> pl.LazyFrame:
    """The Parquet files ``path`` as a lazy Polars scan that DuckDB reads, INTERVAL columns as text.

    As on the DuckDB engine, an INTERVAL reads as text. Only the columns a
    query uses are read; the rows to read (``n_rows``, which Polars applies
    before the predicate) are DuckDB's ``LIMIT``; each read runs on a cursor
    of its own (a plan may read the scan twice at once).
    """
    con = quiet_connection()
    opened = open_duckdb(path, con)
    schema = opened.empty(list(opened.types())).schema

    def batches(
        columns: list[str] | None, predicate: pl.Expr | None, n_rows: int | None, batch_size: int | None
    ) -> Iterator[pl.DataFrame]:
        columns = list(schema) if columns is None else columns
        roots = predicate.meta.root_names() if predicate is not None else []
        read = list(dict.fromkeys([*columns, *roots]))
        query = exp.select(*(exp.column(identifier(c)) for c in read)).from_(opened.table.copy())
        if n_rows is not None:
            query = query.limit(n_rows)
        for batch in con.cursor().sql(to_sql(query)).to_arrow_reader(batch_size or 100_000):
            frame = pl.from_arrow(batch)
            yield (frame if predicate is None else frame.filter(predicate)).select(columns)

    return register_io_source(batches, schema=schema)


def to_polars(relation: duckdb.DuckDBPyRelation) -> pl.DataFrame:
    """A DuckDB result as a Polars frame; a panic of the conversion becomes a ``TypeError``.

    Polars panics (a ``BaseException`` that escapes ``except Exception``) on
    a type it cannot import, e.g. DuckDB's INTERVAL; only the columns a call
    uses are ever converted, so this names a used column of such a type.

    Examples
    --------
    >>> to_polars(duckdb.sql("SELECT 1 AS a")).rows()
    [(1,)]
    """
    try:
        return relation.pl()
    except BaseException as error:
        if type(error).__name__ != "PanicException" and not isinstance(error, pl.exceptions.ComputeError):
            raise
        columns = ", ".join(f"{n!r} ({t})" for n, t in zip(relation.columns, relation.types, strict=True))
        raise TypeError(f"cannot read the columns {columns} into Polars: {str(error).splitlines()[0]}") from None


@dataclass
class DuckDBSource:
    """How to query a source with DuckDB: ``run(sql)`` of a statement reading ``table`` (a sqlglot tree).

    ``close()`` drops what was registered for it (a frame is registered on a
    cursor of the user's connection, never on the connection itself);
    ``dtypes`` are the Polars types of a frame or Parquet source, which
    :meth:`fetch` gives back to the group columns of a result (DuckDB returns
    an Enum as text, a time-zoned datetime in UTC, a Parquet Duration as BIGINT).
    """

    run: Callable[[str], duckdb.DuckDBPyRelation]
    table: exp.Expression
    close: Callable[[], object] = lambda: None
    dtypes: Mapping[str, pl.DataType] = field(default_factory=dict)
    probed: dict[str, str] | None = None

    def select(self, *columns: exp.Expression) -> duckdb.DuckDBPyRelation:
        """Run ``SELECT columns FROM table`` (``*`` without columns)."""
        return self.run(to_sql(exp.select(*(columns or [exp.Star()])).from_(self.table.copy())))

    def types(self) -> dict[str, str]:
        """The source's columns and DuckDB type ids (``integer``, ``varchar``...), nothing converted.

        Read once per source (a file or table is probed when opened, a frame here).
        """
        if self.probed is None:
            self.probed = _type_ids(self.run, self.table)
        return self.probed

    def empty(self, columns: Sequence[str]) -> pl.DataFrame:
        """No rows, the Polars types of those ``columns`` the source has: unused columns are never converted."""
        present = set(self.types())
        selected = [exp.column(identifier(c)) for c in columns if c in present]
        return to_polars(self.run(to_sql(exp.select(*selected).from_(self.table.copy()).limit(0))))

    def fetch(self, query: exp.Expression, by: Sequence[str] = ()) -> pl.DataFrame:
        """Run ``query``; its group columns ``by`` get the source's Polars types back, ordered as Polars orders them.

        The temporary tables the query reads (its meta :data:`~framemetrics.compilers.sql.frame.TURNS`: the
        bootstrap's batches) are computed first, one after the other, and dropped after.
        """
        turns = query.meta.get(TURNS, ())
        try:
            for done, (name, select) in enumerate(turns, start=1):
                properties = exp.Properties(expressions=[exp.TemporaryProperty()])
                self.run(to_sql(exp.Create(this=exp.to_table(name), kind="TABLE", expression=select,
                                           properties=properties)))  # fmt: skip
                turn_done(done, len(turns))
            result = to_polars(self.run(to_sql(query)))
        finally:
            for name, _ in turns:
                self.run(to_sql(exp.Drop(tables=[exp.to_table(name)], kind="TABLE", exists=True)))
        changed = [c for c in by if c in self.dtypes and result.schema[c] != self.dtypes[c]]
        if not changed:
            return result
        restored = result.with_columns(_restored(result.schema[c], self.dtypes[c], c) for c in changed)
        return restored.sort(list(by), nulls_last=True, maintain_order=True)


def _restored(got: pl.DataType, dtype: pl.DataType, name: str) -> pl.Expr:
    column = pl.col(name)
    if isinstance(dtype, pl.Datetime) and isinstance(got, pl.Datetime) and dtype.time_zone and got.time_zone:
        return column.dt.convert_time_zone(dtype.time_zone).dt.cast_time_unit(dtype.time_unit)
    return column.cast(dtype)


def _type_ids(run: Callable[[str], duckdb.DuckDBPyRelation], table: exp.Expression) -> dict[str, str]:
    """The columns of ``table`` and their DuckDB type ids, from a query without rows (nothing converted)."""
    probe = run(to_sql(exp.select(exp.Star()).from_(table.copy()).limit(0)))
    return {n: t.id for n, t in zip(probe.columns, probe.types, strict=True)}


def _probed(run: Callable[[str], duckdb.DuckDBPyRelation], table: exp.Expression) -> DuckDBSource:
    """A source reading ``table`` with its INTERVAL columns as text: Polars cannot import DuckDB's
    INTERVAL (it panics). So an INTERVAL group column gives text keys on both engines, and an unused
    one costs nothing. The probe of the types is kept (:meth:`DuckDBSource.types`)."""
    types = _type_ids(run, table)
    names = [n for n, t in types.items() if t == "interval"]
    if names:
        as_text = [exp.alias_(exp.cast(exp.column(identifier(n)), "VARCHAR"), identifier(n)) for n in names]
        table = exp.select(exp.Star(replace=as_text)).from_(table.copy()).subquery("fm_source")
    return DuckDBSource(run, table, probed=types | dict.fromkeys(names, "varchar"))


def _duckdb_readable(frame: pl.DataFrame | pl.LazyFrame) -> pl.DataFrame | pl.LazyFrame:
    """``frame`` as DuckDB reads it through Arrow: NUL-named columns left out, Float16 and Int128 cast,
    Durations as their integer counts (DuckDB's INTERVAL would not come back; :meth:`DuckDBSource.fetch`
    restores a group column's type). A frame that needs none of it is returned as it is (zero-copy)."""
    schema = frame.collect_schema()
    columns = {name: _as_duckdb_reads(pl.col(name), dtype) for name, dtype in schema.items() if "\0" not in name}
    if len(columns) == len(schema) and all(expr.meta.is_column() for expr in columns.values()):
        return frame
    return frame.select(columns.values())


def _as_duckdb_reads(column: pl.Expr, dtype: pl.DataType) -> pl.Expr:
    """``column`` cast to a type DuckDB reads through Arrow (it reads neither Float16 nor Int128)."""
    if dtype == pl.Float16:
        return column.cast(pl.Float32)
    if dtype in (pl.Int128, pl.UInt128):
        return column.cast(pl.Decimal(38, 0))
    if isinstance(dtype, pl.Duration):
        return column.to_physical()
    return column


def quiet_connection(config: Mapping[str, Any] | None = None) -> duckdb.DuckDBPyConnection:
    """A new in-memory DuckDB connection (``config``: DuckDB's settings) whose progress bar never prints.

    framemetrics' own connections use it, so DuckDB's progress bar never
    leaks into a program's output; a connection passed as ``con=`` keeps its
    settings, except that the cursor reading a frame is quiet too.

    Examples
    --------
    >>> con = quiet_connection({"threads": 1, "memory_limit": "500MB"})
    >>> con.execute("SELECT current_setting('enable_progress_bar_print'), current_setting('threads')").fetchone()
    (False, 1)
    """
    con = duckdb.connect(config=dict(config or {}))
    con.execute("SET enable_progress_bar_print = false")
    return con


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
    source = from_pandas(source)
    if isinstance(source, duckdb.DuckDBPyRelation):
        run = partial(source.query, "fm_source")
        return _probed(run, exp.to_table("fm_source"))
    kind = _file_kind(source)
    if isinstance(source, (str, Path)) and not kind and con is None:
        raise ValueError(_no_such_source(str(source)))
    con = con if con is not None else quiet_connection()
    if kind:
        _check_files(str(source))
        path = exp.Literal.string(str(source))
        if kind == "parquet":
            # Polars' reading of the file's types, given back to the group columns (a Duration is BIGINT in DuckDB);
            # none when Polars reads the files through DuckDB too (an INTERVAL column).
            dtypes = dict(pl.scan_parquet(source).collect_schema()) if polars_imports(str(source)) else {}
            return replace(_probed(con.sql, exp.Table(this=exp.func("read_parquet", path))), dtypes=dtypes)
        types = exp.Array(expressions=[exp.Literal.string(t) for t in _CSV_TYPES])
        option = exp.EQ(this=exp.column("auto_type_candidates"), expression=types)
        return DuckDBSource(con.sql, exp.Table(this=exp.ReadCSV(this=path, expressions=[option])))
    if isinstance(source, str):
        return _probed(con.sql, exp.Table(this=identifier(source)))
    if isinstance(source, (pl.DataFrame, pl.LazyFrame)) or type(source).__module__.startswith("pyarrow"):
        # A cursor of its own: the user's connection gets no view, and calls in threads sharing it do not collide.
        cursor, name = con.cursor(), f"fm_source_{next(_names)}"
        cursor.execute("SET enable_progress_bar_print = false")
        if isinstance(source, (pl.DataFrame, pl.LazyFrame)):
            dtypes = dict(source.collect_schema())
            source = _duckdb_readable(source)
            cursor.register(name, source)
            return DuckDBSource(cursor.sql, exp.Table(this=identifier(name)), cursor.close, dtypes)
        cursor.register(name, source)
        return DuckDBSource(cursor.sql, exp.Table(this=identifier(name)), cursor.close)
    raise TypeError(_unsupported(source))


def sql_schema(opened: DuckDBSource | SparkSource) -> dict[str, str]:
    """Like :func:`schema`, for a source opened by :func:`open_duckdb` or :func:`~framemetrics.spark.open_spark`.

    Examples
    --------
    >>> sql_schema(open_duckdb(pl.DataFrame({"a": [1]})))
    {'a': 'numeric'}
    """
    if isinstance(opened, SparkSource):
        return {name: _kind(dtype) for name, dtype in opened.dtypes.items()}
    return duckdb_schema(opened)


def _no_such_source(name: str) -> str:
    """The error of a string that names no file this reads, read without ``con=``.

    Examples
    --------
    >>> _no_such_source("preds")
    "no file or table 'preds'; a table name needs con= (DuckDB) or spark= (Spark), a file a name ending in \
.parquet, .pq, .csv, .tsv or .csv.gz"
    """
    if Path(name).exists():
        glob_text = repr(str(Path(name) / "*.parquet"))
        return f"cannot read {name!r}: files are read by a name ending in {_EXTENSIONS} (a directory: pass a glob, {glob_text})"
    return (
        f"no file or table {name!r}; a table name needs con= (DuckDB) or spark= (Spark), "
        f"a file a name ending in {_EXTENSIONS}"
    )


def _unsupported(source: Source) -> str:
    return (
        f"cannot read {type(source).__name__}: pass a Parquet/CSV path or glob, a Polars or pandas DataFrame, "
        "a Polars LazyFrame, a pyarrow Table or Dataset, a DuckDB relation, or a table name with con="
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
    """Like :func:`schema`, for a DuckDB source: from DuckDB's own types, no column is converted.

    Examples
    --------
    >>> duckdb_schema(open_duckdb(pl.DataFrame({"a": [1], "b": ["x"], "c": [True]})))
    {'a': 'numeric', 'b': 'string', 'c': 'bool'}
    """
    return {name: _duckdb_kind(type_id) for name, type_id in source.types().items()}


_DUCKDB_NUMERIC = frozenset(
    [
        "tinyint",
        "smallint",
        "integer",
        "bigint",
        "hugeint",
        "utinyint",
        "usmallint",
        "uinteger",
        "ubigint",
        "uhugeint",
        "float",
        "double",
        "decimal",
    ]
)


def _duckdb_kind(type_id: str) -> str:
    if type_id == "null":
        return "null"
    if type_id == "boolean":
        return "bool"
    if type_id in _DUCKDB_NUMERIC:
        return "numeric"
    return "string" if type_id in ("varchar", "enum") else "other"


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
