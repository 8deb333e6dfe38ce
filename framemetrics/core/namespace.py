"""The few operations a formula needs beyond Python's operators, once per engine.

``pl.Expr`` and sqlglot expressions both overload ``+ - * /``, unary minus,
``**`` and ``< <= > >=``; everything else a formula says goes through a
:class:`Namespace`: equality (sqlglot's ``==`` compares trees), boolean
logic, conditionals, nulls, typed literals, casts, the elementary functions
and the aggregates. The null and zero-division rules of every metric are
written here, once: :meth:`Namespace.ratio` is null on a zero denominator on
every engine (Polars would give inf or NaN, DuckDB NULL or inf).
"""

from __future__ import annotations

from abc import ABC, abstractmethod
from collections.abc import Sequence
from typing import Any

__all__ = ["Case", "Namespace"]

Expr = Any  # a pl.Expr or a sqlglot expression, as the namespace builds it


class Case:
    """``CASE WHEN ... THEN ... ELSE ... END``, built branch by branch.

    Examples
    --------
    >>> from framemetrics.compilers.sql.namespace import SQL
    >>> x = SQL.col("x")
    >>> SQL.when(x > 0, x).otherwise(-x).sql()
    'CASE WHEN x > 0 THEN x ELSE -x END'
    """

    def __init__(self, namespace: Namespace, condition: Expr, value: Expr) -> None:
        self._namespace = namespace
        self._branches = [(condition, value)]

    def when(self, condition: Expr, value: Expr) -> Case:
        """Add the branch ``condition -> value`` after the previous ones."""
        self._branches.append((condition, value))
        return self

    def otherwise(self, value: Expr | None = None) -> Expr:
        """Close the case with ``value`` where no branch holds (a float null if None)."""
        return self._namespace.case(self._branches, self._namespace.null() if value is None else value)


class Namespace(ABC):
    """What formulas and statistics call besides operators; one subclass per compiler."""

    # Literals, columns, casts.
    @abstractmethod
    def lit(self, value: Any) -> Expr:
        """A typed literal: floats as double, None as a double null, ints, bools and strings as such."""

    def null(self) -> Expr:
        """A double-typed null."""
        return self.lit(None)

    @abstractmethod
    def null_int(self) -> Expr:
        """A null of 64-bit integer type (a branch beside integers: ClickHouse refuses mixed types)."""

    @abstractmethod
    def col(self, name: str) -> Expr:
        """The column ``name``."""

    @abstractmethod
    def to_float(self, x: Expr) -> Expr:
        """``x`` cast to double (integers, decimals and booleans alike)."""

    @abstractmethod
    def to_int(self, x: Expr) -> Expr:
        """``x`` cast to a 64-bit integer (an integer-valued double)."""

    # Comparisons and logic.
    @abstractmethod
    def eq(self, a: Expr, b: Expr) -> Expr:
        """``a = b`` (null if either is null)."""

    def ne(self, a: Expr, b: Expr) -> Expr:
        """``a <> b`` (null if either is null)."""
        return self.not_(self.eq(a, b))

    @abstractmethod
    def any(self, *conditions: Expr) -> Expr:
        """``c1 OR c2 OR ...``."""

    @abstractmethod
    def all(self, *conditions: Expr) -> Expr:
        """``c1 AND c2 AND ...``."""

    @abstractmethod
    def not_(self, condition: Expr) -> Expr:
        """``NOT condition``."""

    @abstractmethod
    def is_null(self, x: Expr) -> Expr:
        """``x IS NULL``."""

    @abstractmethod
    def is_nan(self, x: Expr) -> Expr:
        """``x`` is a float NaN (false for null)."""

    @abstractmethod
    def is_finite(self, x: Expr) -> Expr:
        """``x`` is neither NaN nor +-inf (null for null)."""

    # Conditionals and null rules.
    def when(self, condition: Expr, value: Expr) -> Case:
        """Start a :class:`Case`: ``ns.when(c, v).when(c2, v2).otherwise(d)``."""
        return Case(self, condition, value)

    @abstractmethod
    def case(self, branches: list[tuple[Expr, Expr]], otherwise: Expr) -> Expr:
        """The first value whose condition holds, else ``otherwise`` (used by :class:`Case`)."""

    def steps(self, x: Expr, thresholds: Sequence[int]) -> Expr:
        """How many of the increasing integer ``thresholds`` are at or below the integer ``x`` (a step function).

        Examples
        --------
        >>> from framemetrics.compilers.sql.namespace import SQL
        >>> SQL.steps(SQL.col("u"), [4, 8]).sql()
        'CASE WHEN u < 4 THEN 0 WHEN u < 8 THEN 1 ELSE 2 END'
        """
        case = self.when(x < thresholds[0], self.lit(0))
        for j, threshold in enumerate(thresholds[1:], start=1):
            case = case.when(x < threshold, self.lit(j))
        return case.otherwise(self.lit(len(thresholds)))

    def ratio(self, numerator: Expr, denominator: Expr) -> Expr:
        """``numerator / denominator``, null where the denominator is 0."""
        return self.when(self.eq(denominator, 0), self.null()).otherwise(numerator / denominator)

    @abstractmethod
    def coalesce(self, *values: Expr) -> Expr:
        """The first non-null value."""

    # Elementary functions.
    @abstractmethod
    def sqrt(self, x: Expr) -> Expr:
        """Square root."""

    @abstractmethod
    def ln(self, x: Expr) -> Expr:
        """Natural logarithm."""

    @abstractmethod
    def exp(self, x: Expr) -> Expr:
        """``e`` to the power ``x``."""

    @abstractmethod
    def abs(self, x: Expr) -> Expr:
        """Absolute value."""

    @abstractmethod
    def floor(self, x: Expr) -> Expr:
        """Largest integer-valued double <= x."""

    @abstractmethod
    def ceil(self, x: Expr) -> Expr:
        """Smallest integer-valued double >= x."""

    @abstractmethod
    def least(self, *values: Expr) -> Expr:
        """Smallest of the values, nulls ignored (null only if all are null)."""

    @abstractmethod
    def greatest(self, *values: Expr) -> Expr:
        """Largest of the values, nulls ignored (null only if all are null)."""

    # Aggregates over a group's rows.
    @abstractmethod
    def sum(self, x: Expr) -> Expr:
        """Sum over the group (nulls skipped); 0 when there is no value."""

    @abstractmethod
    def max(self, x: Expr) -> Expr:
        """Largest value over the group (nulls skipped; NaN is larger than every number)."""

    @abstractmethod
    def min(self, x: Expr) -> Expr:
        """Smallest value over the group (nulls skipped; NaN is larger than every number)."""

    @abstractmethod
    def median(self, x: Expr) -> Expr:
        """Median over the group (nulls skipped)."""

    @abstractmethod
    def count_rows(self) -> Expr:
        """Number of rows of the group, as a 64-bit integer."""

    @abstractmethod
    def count_where(self, condition: Expr) -> Expr:
        """Number of rows where ``condition`` holds (null counts as false), as a 64-bit integer."""

    # Windows over the rows of a partition (the rows whose ``partition`` columns are equal).
    @abstractmethod
    def row_number(self, partition: Sequence[str], order: Sequence[Expr]) -> Expr:
        """1, 2, ... through the partition in ascending ``order`` (which must leave no tie), as a 64-bit integer."""

    @abstractmethod
    def window(self, kind: str, x: Expr, partition: Sequence[str], order: Sequence[Expr] = ()) -> Expr:
        """``kind`` ("sum", "min" or "max") of ``x`` over the partition, nulls skipped.

        With ``order`` (ascending, no tie) the running value through the
        current row, of an ``x`` that is never null; without, the
        partition's value on each of its rows.
        """

    def flag(self, condition: Expr) -> Expr:
        """1 where ``condition`` holds, 0 where it does not or is null (an integer; no boolean cast, which
        PostgreSQL refuses)."""
        return self.when(condition, self.lit(1)).otherwise(self.lit(0))

    def indicator(self, condition: Expr) -> Expr:
        """1.0 where ``condition`` holds, 0.0 where not, null where it is null."""
        return self.to_float(condition)

    @abstractmethod
    def to_text(self, x: Expr) -> Expr:
        """``x`` cast to text (a class label as shown in a table)."""

    def score(self, x: Expr) -> Expr:
        """A score as the curve stage groups and sorts it (SQL engines: the column's own type)."""
        return x
