"""The Spark engine: a Spark DataFrame or table evaluated as Spark SQL, only the per-group result collected.

``engine="spark"`` writes the same query as DuckDB's in Spark's dialect
(:mod:`framemetrics.compilers.sql.dialects`), runs it on the DataFrame's
session (a temporary view, dropped afterwards) and brings back the small
per-group result through Arrow, as a Polars frame with the same columns,
types and order as the other engines. pyspark is imported only here, when a
Spark source is given.
"""

from __future__ import annotations

import itertools
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

import polars as pl
from sqlglot import exp

from framemetrics.compilers.sql.emit import to_sql
from framemetrics.compilers.sql.namespace import identifier, table_name

__all__ = ["SparkSource", "is_spark_frame", "open_spark"]

_views = itertools.count()


def is_spark_frame(source: Any) -> bool:
    """Whether ``source`` is a pyspark DataFrame (classic or Spark Connect), without importing pyspark.

    Examples
    --------
    >>> is_spark_frame(pl.DataFrame())
    False
    """
    kind = type(source)
    return kind.__name__ == "DataFrame" and kind.__module__.startswith("pyspark.sql")


@dataclass
class SparkSource:
    """How to query a source with Spark: ``run(sql)`` of a statement reading ``table``.

    ``dtypes`` are the Polars types of the source's columns (through Arrow,
    no row read); :meth:`fetch` collects a result to the driver.
    """

    run: Callable[[str], Any]
    table: exp.Expression
    dtypes: dict[str, pl.DataType]
    close: Callable[[], object] = lambda: None

    def types(self) -> dict[str, str]:
        """The source's columns and their Polars types, as text."""
        return {name: str(dtype) for name, dtype in self.dtypes.items()}

    def empty(self, columns: Sequence[str]) -> pl.DataFrame:
        """No rows, the Polars types of those ``columns`` the source has."""
        return pl.DataFrame(schema={c: self.dtypes[c] for c in columns if c in self.dtypes})

    def fetch(self, query: exp.Expression, by: Sequence[str] = ()) -> pl.DataFrame:
        """Run ``query`` as Spark SQL and collect its (per-group) result as a Polars frame.

        The statement's final ``ORDER BY`` is applied to the collected result
        instead where it names output columns: Spark samples the whole plan
        once more to range-partition a global sort (measured: 10.8 s against
        6.3 s for an exact AUC over 3e6 rows), to order a few rows per group.
        """
        order = _output_order(query)
        if order is None:
            return pl.from_arrow(self.run(to_sql(query, "spark")).toArrow())
        unordered = query.copy()
        unordered.set("order", None)
        result = pl.from_arrow(self.run(to_sql(unordered, "spark")).toArrow())
        if not order or result.is_empty():
            return result
        names, descending = zip(*order, strict=True)
        return result.sort(list(names), descending=list(descending), nulls_last=True, maintain_order=True)


def _output_order(query: exp.Expression) -> list[tuple[str, bool]] | None:
    """The final ``ORDER BY`` of ``query`` as (output column, descending) pairs, nulls last; None if not that.

    Examples
    --------
    >>> key = exp.Ordered(this=exp.column("fm_g0"), nulls_first=False)
    >>> _output_order(exp.select(exp.alias_(exp.column("fm_g0"), "g")).from_("t").order_by(key))
    [('g', False)]
    """
    ordered = query.args.get("order")
    if not isinstance(query, exp.Select) or ordered is None:
        return None
    outputs = {}
    for select in query.selects:
        source = select.this if isinstance(select, exp.Alias) else select
        if isinstance(source, exp.Column):
            outputs.setdefault(source.name, select.alias_or_name)
        outputs.setdefault(select.alias_or_name, select.alias_or_name)
    order = []
    for key in ordered.expressions:
        if not isinstance(key.this, exp.Column) or key.this.name not in outputs or key.args.get("nulls_first"):
            return None
        order.append((outputs[key.this.name], bool(key.args.get("desc"))))
    return order


def open_spark(source: Any, spark: Any = None) -> SparkSource:
    """``source`` (a Spark DataFrame, or a table name with ``spark``, a SparkSession) as a :class:`SparkSource`.

    A DataFrame is queried through a temporary view of its own session, named
    ``fm_source_<n>`` and dropped by ``close()``.
    """
    if is_spark_frame(source):
        session = source.sparkSession
        view = f"fm_source_{next(_views)}"
        source.createOrReplaceTempView(view)
        frame, table = source, exp.Table(this=identifier(view))

        def close() -> None:
            session.catalog.dropTempView(view)

    elif isinstance(source, str) and spark is not None:
        session, table, close = spark, table_name(source), lambda: None
        frame = session.table(to_sql(table, "spark"))
    else:
        raise ValueError("engine='spark' reads a Spark DataFrame, or a table name with spark= (a SparkSession)")
    dtypes = dict(pl.from_arrow(frame.limit(0).toArrow()).schema)
    return SparkSource(session.sql, table, dtypes, close)
