"""The :class:`~framemetrics.core.namespace.Namespace` of Polars: every operation as a ``pl.Expr``."""

from __future__ import annotations

from collections.abc import Sequence
from functools import lru_cache, reduce
from typing import Any

import polars as pl

from framemetrics.core.namespace import Namespace

__all__ = ["POLARS", "PolarsNamespace"]

_MAX_TABLE = 1 << 21  # the largest table of steps looked up
_HASHES = 1 << 31  # the values a table of steps covers: 0 to 2^31 - 1


class PolarsNamespace(Namespace):
    """Formulas over ``pl.Expr`` columns, for ``select`` and ``group_by().agg()``.

    Examples
    --------
    >>> x = POLARS.col("x")
    >>> pl.DataFrame({"x": [0.0, 2.0]}).select(POLARS.ratio(1, x)).to_series().to_list()
    [None, 0.5]
    """

    def lit(self, value: Any) -> pl.Expr:
        if value is None or (isinstance(value, float)):
            return pl.lit(value, dtype=pl.Float64)
        return pl.lit(value)

    def null_int(self) -> pl.Expr:
        return pl.lit(None, dtype=pl.Int64)

    def col(self, name: str) -> pl.Expr:
        return pl.col(name)

    def to_float(self, x: pl.Expr) -> pl.Expr:
        return x.cast(pl.Float64)

    def to_int(self, x: pl.Expr) -> pl.Expr:
        return x.cast(pl.Int64)

    def eq(self, a: Any, b: Any) -> pl.Expr:
        return a == b if isinstance(a, pl.Expr) else b == a

    def ne(self, a: Any, b: Any) -> pl.Expr:
        return a != b if isinstance(a, pl.Expr) else b != a

    def any(self, *conditions: pl.Expr) -> pl.Expr:
        return reduce(lambda a, b: a | b, conditions)

    def all(self, *conditions: pl.Expr) -> pl.Expr:
        return reduce(lambda a, b: a & b, conditions)

    def not_(self, condition: pl.Expr) -> pl.Expr:
        return ~condition

    def is_null(self, x: pl.Expr) -> pl.Expr:
        return x.is_null()

    def is_nan(self, x: pl.Expr) -> pl.Expr:
        return x.is_nan()

    def is_finite(self, x: pl.Expr) -> pl.Expr:
        return x.is_finite()

    def case(self, branches: list[tuple[pl.Expr, pl.Expr]], otherwise: pl.Expr) -> pl.Expr:
        (condition, value), *rest = branches
        chain = pl.when(condition).then(value)
        for condition, value in rest:
            chain = chain.when(condition).then(value)
        return chain.otherwise(otherwise)

    def steps(self, x: pl.Expr, thresholds: Sequence[int]) -> pl.Expr:
        """A lookup (one gather) in a table of the steps of every multiple of the thresholds' largest common
        power-of-two unit below 2^31, where that table is small; else the comparisons. ``x`` must then be below
        2^31 and not negative (a hash).

        Examples
        --------
        >>> pl.DataFrame({"u": [0, 3, 4, 12, 15]}).select(POLARS.steps(pl.col("u"), [4, 8, 12])).to_series().to_list()
        [0, 0, 1, 3, 3]
        """
        unit = _unit(tuple(thresholds))
        if unit == 0 or _HASHES // unit > _MAX_TABLE or thresholds[-1] >= _HASHES:
            return super().steps(x, thresholds)
        return pl.lit(_step_table(tuple(thresholds), unit)).gather(x // unit)

    def coalesce(self, *values: pl.Expr) -> pl.Expr:
        return pl.coalesce(*values)

    def sqrt(self, x: pl.Expr) -> pl.Expr:
        return x.sqrt()

    def ln(self, x: pl.Expr) -> pl.Expr:
        return x.log()

    def exp(self, x: pl.Expr) -> pl.Expr:
        return x.exp()

    def abs(self, x: pl.Expr) -> pl.Expr:
        return x.abs()

    def floor(self, x: pl.Expr) -> pl.Expr:
        return x.floor()

    def ceil(self, x: pl.Expr) -> pl.Expr:
        return x.ceil()

    def least(self, *values: pl.Expr) -> pl.Expr:
        return pl.min_horizontal(*values)

    def greatest(self, *values: pl.Expr) -> pl.Expr:
        return pl.max_horizontal(*values)

    def sum(self, x: pl.Expr) -> pl.Expr:
        return x.sum()

    def max(self, x: pl.Expr) -> pl.Expr:
        # NaN is the largest value, as in SQL engines' total order of doubles.
        return x.nan_max()

    def min(self, x: pl.Expr) -> pl.Expr:
        return x.min()

    def median(self, x: pl.Expr) -> pl.Expr:
        return x.median()

    def count_rows(self) -> pl.Expr:
        return pl.len().cast(pl.Int64)

    def count_where(self, condition: pl.Expr) -> pl.Expr:
        return condition.fill_null(False).cast(pl.Int64).sum()

    def row_number(self, partition: Sequence[str], order: Sequence[pl.Expr]) -> pl.Expr:
        return pl.int_range(1, pl.len() + 1, dtype=pl.Int64).over(_partition(partition), order_by=list(order))

    def window(self, kind: str, x: pl.Expr, partition: Sequence[str], order: Sequence[pl.Expr] = ()) -> pl.Expr:
        if order:
            running = {"sum": x.cum_sum, "min": x.cum_min, "max": x.cum_max}[kind]()
            return running.over(_partition(partition), order_by=list(order))
        return {"sum": x.sum, "min": x.min, "max": x.max}[kind]().over(_partition(partition))

    def to_text(self, x: pl.Expr) -> pl.Expr:
        return x.cast(pl.String)

    def score(self, x: pl.Expr) -> pl.Expr:
        """A 64-bit float, whatever the column's type."""
        return x.cast(pl.Float64)


def _partition(names: Sequence[str]) -> list[pl.Expr]:
    """The partition of a window: its columns, or one partition of every row."""
    return [pl.col(n) for n in names] if names else [pl.lit(0)]


POLARS = PolarsNamespace()


def _unit(thresholds: tuple[int, ...]) -> int:
    """The largest power of two dividing every (positive) threshold, 0 if one is not positive."""
    if any(t <= 0 for t in thresholds):
        return 0
    return 1 << min((t & -t).bit_length() - 1 for t in thresholds)


@lru_cache(maxsize=4)
def _step_table(thresholds: tuple[int, ...], unit: int) -> pl.Series:
    """``table[i]``: how many thresholds are at or below ``i * unit``, for every ``i * unit`` below 2^31 (bytes, so
    that a table of 2^20 steps stays in the processor's cache)."""
    jumps = [0] * (_HASHES // unit)
    for t in thresholds:
        jumps[t // unit] += 1
    return pl.Series(jumps, dtype=pl.Int32).cum_sum().cast(pl.Int8 if len(thresholds) < 128 else pl.Int32)
