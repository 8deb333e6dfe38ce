"""A table being built, written once and compiled by every engine.

The detection stages (candidate pairs, greedy matching, accumulation) are
relational: joins, windows, aggregates and a fixpoint. They are written
once against :class:`Frame` and its :class:`~framemetrics.core.namespace.Namespace`;
:class:`~framemetrics.compilers.polars.frame.PolarsFrame` runs them as a
Polars ``LazyFrame`` and :class:`~framemetrics.compilers.sql.frame.SqlFrame`
as one SQL statement of common table expressions (a recursive one for the
fixpoint). Rows have no order: every window names its order, with unique
tie-breakers.
"""

from __future__ import annotations

from abc import ABC, abstractmethod
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, Self

from framemetrics.core.namespace import Namespace

__all__ = ["Frame", "Running", "Table"]

Expr = Any


@dataclass(frozen=True)
class Running:
    """The running values :meth:`Frame.running` adds, each ``name: column``, in this order: ``sums``, the sum of
    ``column`` over the rows up to and including this one; ``totals``, the partition's sum; ``before``, the sum
    over the rows before it (0.0 on the first); ``following``, the next row's value (null on the last); and
    ``first``, the name of a flag true on the partition's first row."""

    sums: Mapping[str, str]
    totals: Mapping[str, str] = field(default_factory=dict)
    before: Mapping[str, str] = field(default_factory=dict)
    following: Mapping[str, str] = field(default_factory=dict)
    first: str | None = None


class Frame(ABC):
    """Rows with named columns; every method returns a new frame.

    Examples
    --------
    >>> from framemetrics.compilers.polars.frame import PolarsFrame
    >>> f = PolarsFrame.values({"g": [1, 1, 2], "x": [1.0, 2.0, 5.0]})
    >>> f.aggregate(["g"], {"total": f.ns.sum(f.ns.col("x"))}).collect().sort("g").to_dicts()
    [{'g': 1, 'total': 3.0}, {'g': 2, 'total': 5.0}]
    """

    ns: Namespace
    columns: tuple[str, ...]

    @abstractmethod
    def select(self, columns: Mapping[str, Expr]) -> Self:
        """The rows with ``columns`` (name -> expression over these rows, windows included)."""

    def with_columns(self, **columns: Expr) -> Self:
        """The rows with their columns and ``columns`` (replacing those of the same name)."""
        kept = {name: self.ns.col(name) for name in self.columns if name not in columns}
        return self.select({**kept, **columns})

    def keep(self, *names: str) -> Self:
        """The rows with only the columns ``names``."""
        return self.select({name: self.ns.col(name) for name in names})

    @abstractmethod
    def rename(self, names: Mapping[str, str]) -> Self:
        """The rows with columns renamed (``{old: new}``): the last step, to the user's names (quoted in SQL)."""

    def drop(self, *names: str) -> Self:
        """The rows without the columns ``names``."""
        return self.keep(*(name for name in self.columns if name not in names))

    @abstractmethod
    def constant(self, columns: Mapping[str, Sequence[Any]]) -> Self:
        """Constant rows of this frame's engine, one list per column (floats as doubles, ints as 64-bit)."""

    def with_first(self, name: str, partition: Sequence[str], order: Sequence[Expr], eligible: Expr) -> Self:
        """The rows with ``name``: true on the row of each partition first in ascending ``order`` among the
        ``eligible`` rows (``order`` leaves no tie among them and holds no null).

        Here a row number over an ordered window (one sort, which SQL engines
        share between windows of the same order).
        """
        ns = self.ns
        rank = ns.row_number(partition, [ns.flag(ns.not_(eligible)), *order])
        return self.with_columns(**{name: ns.all(eligible, ns.eq(rank, 1))})

    def with_firsts(self, name: str, partition: Sequence[str], orders: Mapping[str, Sequence[Expr]]) -> Self:
        """The rows with a flag per entry of ``orders`` (flag name -> order): true on the row of each partition
        first in that ascending order (an order of numbers that leaves no tie; a row of null key is never first,
        a partition whose key is null throughout has no first row).

        Here with aggregates and joins, no window: a round per key, each one aggregate of every order's least
        value and a join back (null keys match), computed once as the stage ``<name>_<round>``; several orders,
        each its own sort in a window, cost one scan. :meth:`with_first` is the single order of a window.

        Examples
        --------
        >>> from framemetrics.compilers.polars.frame import PolarsFrame
        >>> f = PolarsFrame.values({"g": [1, 1, 1], "x": [1.0, 2.0, 3.0], "y": [5.0, 4.0, 4.0]})
        >>> c = f.ns.col
        >>> out = Frame.with_firsts(f, "fm", ["g"], {"last": [-c("x")], "lowest": [c("y"), c("x")]})
        >>> out.collect().sort("x").select("last", "lowest").rows()
        [(False, False), (False, True), (True, False)]
        """
        ns, frame = self.ns, self.named(f"{name}_0")
        for depth in range(max(len(order) for order in orders.values())):
            keyed = {flag: order[depth] for flag, order in orders.items() if depth < len(order)}
            running = {
                flag: key if depth == 0 else ns.when(ns.col(flag), key).otherwise(ns.null())
                for flag, key in keyed.items()
            }
            least = {f"fm_least_{flag}": ns.min(value) for flag, value in running.items()}
            joined = frame.join(frame.aggregate(partition, least), partition, nulls_equal=True)
            reached = {
                flag: ns.coalesce(ns.eq(key, ns.col(f"fm_least_{flag}")), ns.lit(False)) for flag, key in keyed.items()
            }
            if depth:
                reached = {flag: ns.all(ns.col(flag), value) for flag, value in reached.items()}
            frame = joined.with_columns(**reached).drop(*least).named(f"{name}_{depth + 1}")
        return frame

    def named(self, name: str) -> Self:
        """This frame as the stage ``name``: computed once for every later reader (SQL: a ``WITH`` table)."""
        return self

    @abstractmethod
    def filter(self, condition: Expr) -> Self:
        """The rows where ``condition`` holds (null counts as false)."""

    @abstractmethod
    def join(self, other: Self, on: Sequence[str], how: str = "inner", *, nulls_equal: bool = False) -> Self:
        """Rows of both where the ``on`` columns are equal (``=``: a null key matches nothing; with ``nulls_equal``,
        null keys match each other, SQL's ``IS NOT DISTINCT FROM``).

        ``how`` is ``"inner"``, ``"left"`` or ``"cross"`` (``on`` empty). The
        key columns appear once, then the other columns of ``self`` and of
        ``other``, which must not share a name.
        """

    @abstractmethod
    def aggregate(self, keys: Sequence[str], aggregates: Mapping[str, Expr]) -> Self:
        """One row per distinct ``keys`` (one row in all without keys) with the ``aggregates``."""

    @abstractmethod
    def aggregate_sets(self, sets: Sequence[Sequence[str]], aggregates: Mapping[str, Expr]) -> Self:
        """The ``aggregates`` per distinct value of each set of keys in ``sets`` (SQL's ``GROUPING SETS``), the rows
        of every set together: the columns of every set, null in the rows of a set without them, then the
        aggregates.

        Examples
        --------
        >>> from framemetrics.compilers.polars.frame import PolarsFrame
        >>> f = PolarsFrame.values({"g": ["a", "a", "b"], "x": [1.0, 2.0, 5.0]})
        >>> out = f.aggregate_sets([["g"], []], {"total": f.ns.sum(f.ns.col("x"))}).collect()
        >>> out.sort("g", nulls_last=True).rows()
        [('a', 3.0), ('b', 5.0), (None, 8.0)]
        """

    @abstractmethod
    def concat(self, other: Self) -> Self:
        """The rows of both (``other`` has the same columns)."""

    def in_turn(self, others: Sequence[Self]) -> Self:
        """The rows of this frame and of each of ``others`` (the same columns), each computed before the next
        starts, so that an engine holds the work of one at a time (the bootstrap's batches of replicates): Polars
        collects each in turn, DuckDB running a statement makes each a temporary table first; as SQL text (and on
        Spark), ``UNION ALL``. The engine reports each part done (:func:`framemetrics.core.turns.turn_done`).
        """
        rows = self
        for other in others:
            rows = rows.concat(other)
        return rows

    @abstractmethod
    def fixpoint(self, step: Callable[[Self], Self]) -> Self:
        """The rows of ``self`` and of ``step(self)``, ``step(step(self))``... until a step gives no row.

        ``step`` must read its argument once, through windows only (the SQL
        standard's recursive term allows no aggregate and one reference).
        """

    def _check_join(self, other: Frame, on: Sequence[str]) -> None:
        shared = (set(self.columns) & set(other.columns)) - set(on)
        if shared:
            raise ValueError(f"join would repeat the columns {sorted(shared)}")

    def named_deep(self, name: str) -> Self:
        """This frame as the stage ``name``, its expressions nested deep (the Beta quantile's steps): computed apart
        from the stages reading it, never merged into them (SQL: a materialized ``WITH`` table, refused by a dialect
        whose parser cannot take it).
        """
        return self.named(name)

    def with_types_of(self, other: Frame, columns: Mapping[str, str]) -> Self:
        """The rows with each column ``name`` of ``columns`` cast to the type of ``other``'s column
        ``columns[name]`` (a class column of literals typed as the user's labels).

        Here the rows as they are: a SQL literal takes the type of what it meets.
        """
        return self

    def class_ranking_sums(self, keys: Sequence[str], n_scores: int) -> Self | None:
        """The one-vs-rest ranking sums ``auc_sum, ap_sum, sum_pos, sum_neg`` per group of ``keys`` and
        ``column_index`` j of these rows (``true_index``, ``sample_weight``; score ``s_j``, class j positive),
        from a plan of the backend's own; None where it has none (the stage then unpivots the rows).

        Polars sorts each group's rows by every score in one pass, no unpivot.
        """
        return None

    @abstractmethod
    def running(self, partition: Sequence[str], order: str, values: Running) -> Self:
        """The rows with running values through each partition in descending ``order``.

        ``order`` is a column whose values are distinct within a partition
        (nulls last); ``values`` says which running values to add (:class:`Running`).

        Each backend lowers it to its fastest plan: Polars sorts once by
        ``order`` and takes plain windows over the partition, SQL writes
        windows over ``PARTITION BY partition ORDER BY order DESC`` (Spark:
        the aggregate feeding them reads its rows distributed by the
        partition, the totals computed as windows of the same order).

        Examples
        --------
        >>> from framemetrics.compilers.polars.frame import PolarsFrame
        >>> f = PolarsFrame.values({"g": [1, 1, 2], "s": [0.2, 0.9, 0.5], "w": [1.0, 2.0, 4.0]})
        >>> out = f.running(["g"], "s", Running({"run": "w"}, {"total": "w"}, {"prev": "w"}, first="top"))
        >>> out.collect().sort("g", "s").select("run", "prev", "total", "top").rows()
        [(3.0, 2.0, 3.0, False), (2.0, 0.0, 3.0, True), (4.0, 0.0, 4.0, True)]
        """

    def lay_out(self, name: str, numbers: Sequence[int], columns: Mapping[str, Sequence[Expr]], keep: Sequence[str]
                ) -> Self:  # fmt: skip
        """Each row once per entry of ``numbers`` (its number in the column ``name``), with the columns ``keep`` and,
        for each column of ``columns`` (name -> one expression over the row per number), that number's expression.

        Here a cross join with the numbers and a choice of the expression by number (a ``CASE``).

        Examples
        --------
        >>> from framemetrics.compilers.polars.frame import PolarsFrame
        >>> f = PolarsFrame.values({"g": [1], "a": [5.0], "b": [6.0]})
        >>> out = Frame.lay_out(f, "n", [0, 1], {"v": [f.ns.col("a"), f.ns.col("b")]}, ["g"])
        >>> out.collect().sort("n").rows()
        [(1, 0, 5.0), (1, 1, 6.0)]
        """
        ns, number = self.ns, self.ns.col(name)
        crossed = self.join(self.constant({name: list(numbers)}), [], "cross")
        picked = {
            out: ns.case(
                [(ns.eq(number, ns.lit(n)), v) for n, v in zip(numbers[:-1], values, strict=False)], values[-1]
            )
            if len(values) > 1
            else values[0]
            for out, values in columns.items()
        }
        return crossed.select({**{k: ns.col(k) for k in keep}, name: number, **picked})

    def stored(self, name: str, *, inline: bool = False) -> Self:
        """This frame as the stage ``name`` (:meth:`named`), its columns read many times by later stages: an engine
        that would substitute the stage into each reader computes it once (PostgreSQL's ``MATERIALIZED``).

        With ``inline``, an engine that keeps every stage read more than once reads through it instead
        (DuckDB's ``NOT MATERIALIZED``): for a stage of the rows that several aggregations read, each one
        pass.
        """
        return self.named(name)


@dataclass(frozen=True)
class Table:
    """An output: its ``frame``, the columns to sort its rows by (nulls last; those of ``descending`` from the
    highest), the columns to drop after sorting and the output's names of columns renamed after sorting (a SQL
    table macro's parameters name its output columns: the statement refers to them by their stage names)."""

    frame: Frame
    order: tuple[str, ...] = ()
    hidden: tuple[str, ...] = ()
    descending: tuple[str, ...] = ()
    names: Mapping[str, str] = field(default_factory=dict)
