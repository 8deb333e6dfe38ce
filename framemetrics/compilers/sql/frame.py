"""The :class:`~framemetrics.core.frame.Frame` of SQL: one statement of common table expressions.

Each operation nests the previous query as a derived table; :meth:`SqlFrame.named`
turns a stage into a named common table expression (read by every later
stage that needs it, and by a reviewer); :meth:`SqlFrame.fixpoint` is a
``WITH RECURSIVE`` expression whose recursive term reads the previous round
once, through windows only, which DuckDB, PostgreSQL, ClickHouse and
DataFusion accept (Spark runs it as a script: :mod:`framemetrics.compilers.sql.script`). Join keys are compared with ``=``: the stages join on
ids and integer codes that are never null.
"""

from __future__ import annotations

import itertools
from collections.abc import Callable, Mapping, Sequence
from typing import Any

from sqlglot import exp

from framemetrics.compilers.sql.dialects import DEEP, DISTRIBUTE, INLINE, MATERIALIZE, ORDERED
from framemetrics.compilers.sql.namespace import SQL, identifier
from framemetrics.core.frame import Frame, Running, Table

__all__ = ["TURNS", "SqlFrame", "Statement", "needed_stages"]

TURNS = "fm_turns"  # a statement's meta: the temporary tables to compute first, in order (Statement.turn)
_turn_tables = itertools.count()


def needed_stages(tree: exp.Expression, ctes: Sequence[exp.CTE]) -> set[str]:
    """The names of the stages of ``ctes`` that ``tree`` reads, directly or through other stages.

    Examples
    --------
    >>> cte = exp.CTE(this=exp.select("x").from_("t"), alias=exp.TableAlias(this=exp.to_identifier("s")))
    >>> needed_stages(exp.select("x").from_("s"), [cte])
    {'s'}
    """
    bodies = {cte.alias: cte.this for cte in ctes}
    needed: set[str] = set()
    pending = [tree]
    while pending:
        for table in pending.pop().find_all(exp.Table):
            if table.name in bodies and table.name not in needed:
                needed.add(table.name)
                pending.append(bodies[table.name])
    return needed


class _Turns(tuple):
    """The turns of a statement in its tree's meta: shared, not copied, when sqlglot copies the tree (each turn is
    a whole statement: the bootstrap's 40 batches were copied at every copy of the tree)."""

    def __deepcopy__(self, memo: dict[int, object]) -> _Turns:
        return self


class Statement:
    """The named stages of one SQL statement, in the order they are defined.

    Examples
    --------
    >>> s = Statement()
    >>> f = SqlFrame.values(s, {"x": [1, 2]})
    >>> s.query(f.filter(f.ns.col("x") > 1)).sql()
    'SELECT * FROM (SELECT x FROM (SELECT 1 AS x UNION ALL SELECT 2 AS x) AS fm_1 WHERE x > 1) AS fm_2'
    """

    def __init__(self, *, apart: bool = False) -> None:
        self.ctes: list[exp.CTE] = []
        self.recursive = False
        self._aliases = itertools.count(1)
        # With apart (DuckDB running the statement), SqlFrame.in_turn's parts: (temporary table, its statement),
        # each run before the statement (Statement.query lists them in the meta TURNS of its tree).
        self.apart = apart
        self.turns: list[tuple[str, exp.Select]] = []

    def turn(self, frame: SqlFrame) -> str:
        """A temporary table computed from ``frame`` before the statement runs: its name.

        Examples
        --------
        >>> s = Statement(apart=True)
        >>> name = s.turn(SqlFrame.values(s, {"x": [1]}))
        >>> s.turns[0][1].sql()
        'SELECT x FROM (SELECT 1 AS x) AS fm_1'
        """
        name = f"fm_turn_{next(_turn_tables)}"
        select = exp.select(*(exp.column(c) for c in frame.columns)).from_(frame.source())
        self.turns.append((name, self.with_stages(select, copy=False)))
        return name

    def alias(self) -> str:
        """A fresh name for a derived table."""
        return f"fm_{next(self._aliases)}"

    def define(self, name: str, body: exp.Expression, columns: Sequence[str] | None = None) -> exp.Table:
        """Add the stage ``name`` (its ``columns`` listed where the stage is recursive); a name already defined gets
        the first free suffix ``_2``, ``_3``... (each part of a plan defines its stages: ``fm_statistics_2``).

        Examples
        --------
        >>> s = Statement()
        >>> s.define("fm_a", exp.select("1")).name, s.define("fm_a", exp.select("2")).name
        ('fm_a', 'fm_a_2')
        """
        taken = {cte.alias for cte in self.ctes}
        name = next(n for n in itertools.chain([name], (f"{name}_{k}" for k in itertools.count(2))) if n not in taken)
        listed = [exp.to_identifier(c) for c in columns] if columns else None
        self.ctes.append(exp.CTE(this=body, alias=exp.TableAlias(this=exp.to_identifier(name), columns=listed)))
        return exp.table_(name)

    def query(self, frame: SqlFrame, order: Sequence[str] = (), *, copy: bool = True) -> exp.Select:
        """``WITH <stages> SELECT * FROM <frame> [ORDER BY order]``: the statement that computes ``frame``
        (``copy=False``: the last use of this statement, its stages moved into the tree rather than copied)."""
        select = exp.select("*").from_(frame.source())
        if order:
            select = select.order_by(*(exp.Ordered(this=exp.column(identifier(c)), nulls_first=False) for c in order))
        if self.turns:
            select.meta[TURNS] = _Turns(self.turns)
        return self.with_stages(select, copy=copy)

    def output(self, table: Table, *, copy: bool = True) -> exp.Select:
        """The statement that computes ``table``: its visible columns in its order (nulls last).

        Examples
        --------
        >>> s = Statement()
        >>> f = SqlFrame.values(s, {"x": [1, 2], "y": [3, 4]})
        >>> s.output(Table(f, ("x",), ("y",), descending=("x",))).sql()
        'SELECT "x" FROM (SELECT 1 AS x, 3 AS y UNION ALL SELECT 2 AS x, 4 AS y) AS fm_1 ORDER BY "x" DESC'
        """
        visible = [
            exp.alias_(exp.column(c), identifier(table.names[c])) if c in table.names else exp.column(identifier(c))
            for c in table.frame.columns
            if c not in table.hidden
        ]
        assert isinstance(table.frame, SqlFrame)
        select = exp.select(*visible).from_(table.frame.source())
        order = [
            exp.Ordered(this=exp.column(identifier(c)), desc=c in table.descending, nulls_first=False)
            for c in table.order
        ]
        return self.with_stages(select.order_by(*order) if order else select, copy=copy)

    def with_stages(self, select: exp.Select, *, copy: bool = True) -> exp.Select:
        """``select`` under ``WITH`` the stages it reads, directly or through other stages (in place; the stages
        copied, or with ``copy=False`` moved).

        Examples
        --------
        >>> s = Statement()
        >>> _ = s.define("fm_one", exp.select("1 AS x"))
        >>> s.with_stages(exp.select("x").from_("fm_one")).sql()
        'WITH fm_one AS (SELECT 1 AS x) SELECT x FROM fm_one'
        """
        needed = needed_stages(select, self.ctes)
        ctes = [c.copy() if copy else c for c in self.ctes if c.alias in needed]
        if ctes:
            select.set("with_", exp.With(expressions=ctes, recursive=self.recursive or None))
        return select


class SqlFrame(Frame):
    """A query of :class:`Statement`, read as a :class:`~framemetrics.core.frame.Frame`.

    Examples
    --------
    >>> s = Statement()
    >>> f = SqlFrame.table(s, "preds", {"g": "segment", "x": "x"})
    >>> f.columns
    ('g', 'x')
    """

    ns = SQL

    def __init__(self, statement: Statement, tree: exp.Expression, columns: Sequence[str], *, inner: bool = False):
        self.statement = statement
        self.tree = tree
        self.columns = tuple(columns)
        self.inner = inner  # reads the previous round of a fixpoint: stays nested

    @classmethod
    def table(cls, statement: Statement, table: exp.Expression | str, columns: Mapping[str, str]) -> SqlFrame:
        """The user's ``table``, its columns renamed (``{stage name: user's column}``, quoted)."""
        source = exp.to_table(table) if isinstance(table, str) else table
        select = exp.select(
            *(exp.alias_(exp.column(exp.to_identifier(c, quoted=True)), n) for n, c in columns.items())
        ).from_(source)
        return cls(statement, select, list(columns))

    @classmethod
    def values(cls, statement: Statement, columns: Mapping[str, Sequence[Any]]) -> SqlFrame:
        """Constant rows, one list per column (``UNION ALL`` of one-row selects, portable)."""
        names = list(columns)
        rows = [exp.select(*(exp.alias_(SQL.lit(v), n) for n, v in zip(names, row))) for row in zip(*columns.values())]
        union = rows[0]
        for row in rows[1:]:  # built in place: exp.union copies its left side, O(rows^2) for 1,000 replicates
            union = exp.Union(this=union, expression=row, distinct=False)
        return cls(statement, union, names)

    def constant(self, columns: Mapping[str, Sequence[Any]]) -> SqlFrame:
        return SqlFrame.values(self.statement, columns)

    def source(self) -> exp.Expression:
        """This frame in a ``FROM``: a table, or the query as a derived table."""
        if isinstance(self.tree, exp.Table):
            return self.tree.copy()
        return _aliased(self, self.statement.alias())

    def _derived(self, tree: exp.Expression, columns: Sequence[str], other: SqlFrame | None = None) -> SqlFrame:
        inner = self.inner or (other is not None and other.inner)
        return SqlFrame(self.statement, tree, columns, inner=inner)

    def named(self, name: str) -> SqlFrame:
        """This frame as the stage ``name`` (inside a fixpoint's round it stays nested; a stage already keeps its
        own name)."""
        if self.inner or isinstance(self.tree, exp.Table):
            return self
        return SqlFrame(self.statement, self.statement.define(name, self.tree), self.columns)

    def select(self, columns: Mapping[str, Any]) -> SqlFrame:
        """A column kept under its name is selected bare: Spark's optimizer (rule ``RemoveRedundantAliases``)
        made an unresolved plan of ``x AS x`` in both branches of a ``UNION ALL`` under a window."""
        named = [e if _same_column(e, n) else exp.alias_(_own(e), n, copy=False) for n, e in columns.items()]
        return self._derived(exp.select(*named).from_(self.source(), copy=False), list(columns))

    def rename(self, names: Mapping[str, str]) -> SqlFrame:
        renamed = [
            exp.alias_(exp.column(c), exp.to_identifier(names.get(c, c), quoted=c in names or None))
            for c in self.columns
        ]
        tree = exp.select(*renamed).from_(self.source(), copy=False)
        return self._derived(tree, [names.get(c, c) for c in self.columns])

    def filter(self, condition: exp.Expression) -> SqlFrame:
        if condition.find(exp.Window):  # a WHERE clause cannot hold a window: computed as a column first
            return self.with_columns(fm_keep=condition).filter(exp.column("fm_keep")).drop("fm_keep")
        tree = exp.select(*(exp.column(c) for c in self.columns)).from_(self.source(), copy=False)
        tree = tree.where(condition, copy=False)
        return self._derived(tree, self.columns)

    def join(self, other: Frame, on: Sequence[str], how: str = "inner", *, nulls_equal: bool = False) -> SqlFrame:
        self._check_join(other, on)
        assert isinstance(other, SqlFrame)
        left, right = self.statement.alias(), self.statement.alias()
        columns = [
            *(exp.column(c, table=left) for c in self.columns),
            *(exp.column(c, table=right) for c in other.columns if c not in on),
        ]
        equal = exp.NullSafeEQ if nulls_equal else exp.EQ
        pairs = [equal(this=exp.column(k, table=left), expression=exp.column(k, table=right)) for k in on]
        condition = exp.and_(*pairs) if on else None
        tree = (
            exp.select(*columns)
            .from_(_aliased(self, left), copy=False)
            .join(_aliased(other, right), on=condition, join_type="cross" if how == "cross" else how, copy=False)
        )
        return self._derived(tree, [*self.columns, *(c for c in other.columns if c not in on)], other)

    def aggregate(self, keys: Sequence[str], aggregates: Mapping[str, Any]) -> SqlFrame:
        tree = self._aggregated(keys, aggregates)
        if keys:
            tree = tree.group_by(*(exp.column(k) for k in keys), copy=False)
        return self._derived(tree, [*keys, *aggregates])

    def aggregate_sets(self, sets: Sequence[Sequence[str]], aggregates: Mapping[str, Any]) -> SqlFrame:
        """``GROUP BY GROUPING SETS ((...), ...)``: one scan of the rows for every set."""
        keys = list(dict.fromkeys(k for keys in sets for k in keys))
        tree = self._aggregated(keys, aggregates)
        grouping = exp.GroupingSets(expressions=[exp.Tuple(expressions=[exp.column(k) for k in s]) for s in sets])
        tree.set("group", exp.Group(grouping_sets=[grouping]))
        return self._derived(tree, [*keys, *aggregates])

    def _aggregated(self, keys: Sequence[str], aggregates: Mapping[str, Any]) -> exp.Select:
        """``SELECT keys, aggregates FROM`` this frame, its grouping left to the caller."""
        named = [exp.alias_(_own(e), n, copy=False) for n, e in aggregates.items()]
        return exp.select(*(exp.column(k) for k in keys), *named).from_(self.source(), copy=False)

    def concat(self, other: Frame) -> SqlFrame:
        assert isinstance(other, SqlFrame)
        parts = [exp.select(*(exp.column(c) for c in self.columns)).from_(f.source()) for f in (self, other)]
        return self._derived(exp.union(*parts, distinct=False), self.columns, other)

    def in_turn(self, others: Sequence[Frame]) -> SqlFrame:
        """With a statement run ``apart`` (DuckDB running it), each part a temporary table computed first, in turn
        (:meth:`Statement.turn`), and their ``UNION ALL``; else the parts' ``UNION ALL`` in the statement."""
        frames = [self, *others]
        if not self.statement.apart or any(not isinstance(f, SqlFrame) or f.inner for f in frames):
            return super().in_turn(others)
        names = [self.statement.turn(f) for f in frames if isinstance(f, SqlFrame)]
        parts = [exp.select(*(exp.column(c) for c in self.columns)).from_(exp.table_(n)) for n in names]
        union: exp.Expression = parts[0]
        for part in parts[1:]:
            union = exp.Union(this=union, expression=part, distinct=False)
        return SqlFrame(self.statement, union, self.columns)

    def fixpoint(self, step: Callable[[SqlFrame], SqlFrame]) -> SqlFrame:
        """``WITH RECURSIVE fm_rounds(...) AS (self UNION ALL step(fm_rounds))``."""
        name = f"fm_rounds_{len(self.statement.ctes) + 1}"
        previous = SqlFrame(self.statement, exp.table_(name), self.columns, inner=True)
        following = step(previous)
        anchor = exp.select(*(exp.column(c) for c in self.columns)).from_(self.source())
        term = exp.select(*(exp.column(c) for c in self.columns)).from_(following.source())
        self.statement.recursive = True
        table = self.statement.define(name, exp.union(anchor, term, distinct=False), self.columns)
        return SqlFrame(self.statement, table, self.columns)

    def named_deep(self, name: str) -> SqlFrame:
        """The stage ``name`` marked ``MATERIALIZE`` (PostgreSQL would inline it, running out of memory) and
        ``DEEP`` (too deep for some engines' parsers: :class:`~framemetrics.compilers.sql.dialects.Dialect`)."""
        self.tree.meta[DEEP] = True
        self.tree.meta[MATERIALIZE] = True
        return self.named(name)

    def running(self, partition: Sequence[str], order: str, values: Running) -> SqlFrame:
        """Windows ``OVER (PARTITION BY partition ORDER BY order DESC ROWS ...)``, computed by one Window operator.

        Spark (the dialect's ``repartition``): the aggregate these rows come
        from reads its rows distributed by the partition (``meta[DISTRIBUTE]``),
        so that the windows need no second shuffle, and each total is written
        as a window of the same order (``meta[ORDERED]``).
        """

        def over(function: exp.Expression, spec: dict | None = None) -> exp.Window:
            ordered = exp.Order(expressions=[exp.Ordered(this=exp.column(order), desc=True)])
            frame = exp.WindowSpec(**spec) if spec else None
            return exp.Window(this=function, partition_by=[exp.column(k) for k in partition], order=ordered, spec=frame)

        def total(column: str) -> exp.Window:
            window = exp.Window(this=exp.Sum(this=exp.column(column)), partition_by=[exp.column(k) for k in partition])
            window.meta[ORDERED] = over(exp.Sum(this=exp.column(column)), _ALL)
            return window

        columns = {name: over(exp.Sum(this=exp.column(column)), _THROUGH) for name, column in values.sums.items()}
        columns |= {name: total(column) for name, column in values.totals.items()}
        columns |= {
            name: SQL.coalesce(over(exp.Sum(this=exp.column(column)), _BEFORE), SQL.lit(0.0))
            for name, column in values.before.items()
        }
        columns |= {
            name: over(exp.Anonymous(this="LEAD", expressions=[exp.column(column)]))
            for name, column in values.following.items()
        }
        if values.first is not None:
            columns[values.first] = exp.EQ(this=over(exp.RowNumber()), expression=exp.Literal.number(1))
        _distribute(self, list(partition))
        return self.with_columns(**columns)

    def stored(self, name: str, *, inline: bool = False) -> SqlFrame:
        """The stage marked ``meta[MATERIALIZE]`` (and ``meta[INLINE]``): :mod:`~framemetrics.compilers.sql.dialects`."""
        if self.inner:
            return self
        tree = self.tree.copy()
        tree.meta[MATERIALIZE] = True
        tree.meta[INLINE] = inline
        return SqlFrame(self.statement, self.statement.define(name, tree), self.columns)


# The frames of the running windows, in the partition's order.
_THROUGH = {"kind": "ROWS", "start": "UNBOUNDED", "start_side": "PRECEDING"}
_BEFORE = _THROUGH | {"end": exp.Literal.number(1), "end_side": "PRECEDING"}
_ALL = _THROUGH | {"end": "UNBOUNDED", "end_side": "FOLLOWING"}


def _distribute(frame: SqlFrame, partition: list[str]) -> None:
    """Mark the aggregate ``frame`` reads from (through filters and selects, into named stages) as one whose rows
    may be distributed by ``partition`` (``meta[DISTRIBUTE]``, Spark's repartition hint); none: nothing."""
    bodies = {cte.alias: cte.this for cte in frame.statement.ctes}
    tree = frame.tree
    while True:
        if isinstance(tree, exp.Table) and tree.name in bodies:
            tree = bodies[tree.name]
        elif isinstance(tree, exp.Select) and tree.args.get("group"):
            tree.meta[DISTRIBUTE] = partition
            return
        elif isinstance(tree, exp.Select) and not tree.args.get("joins") and tree.args.get("from_"):
            source = tree.args["from_"].this
            tree = source.this if isinstance(source, exp.Subquery) else source
        else:
            return


def _own(value: Any) -> exp.Expression:
    """``value`` as an expression of its own: copied if it is already part of another tree."""
    value = SQL._value(value)
    return value.copy() if value.parent is not None else value


def _same_column(value: Any, name: str) -> bool:
    """``value`` is the unqualified column ``name``."""
    return isinstance(value, exp.Column) and not value.table and value.name == name


def _aliased(frame: SqlFrame, alias: str) -> exp.Expression:
    """``frame`` in a ``FROM`` or ``JOIN`` under the name ``alias``."""
    if isinstance(frame.tree, exp.Table):
        return exp.alias_(frame.tree.copy(), alias, table=True)
    return exp.Subquery(this=frame.tree.copy(), alias=exp.TableAlias(this=exp.to_identifier(alias)))
