"""The SQL dialects framemetrics writes: each a few settings and the rewrites they select, in one place.

Every tree is built once, in DuckDB's vocabulary, by the core and the SQL
compiler; :func:`for_dialect` rewrites the few constructs that differ
between engines, then sqlglot writes the text of the dialect it is closest
to. The rewrites keep the meaning, nulls included:

* finiteness: DuckDB's ``ISFINITE(x)``, ClickHouse's ``isFinite(x)``, else
  ``x - x = 0`` (false for NaN and +-inf, null for null);
* NaN: ``ISNAN(x)``, ClickHouse's ``isNaN(x)``, PostgreSQL's
  ``x = 'NaN'`` (PostgreSQL orders NaN above every number and equal to
  itself);
* a boolean as a number: ``CAST(p AS DOUBLE)``, through an integer where the
  engine cannot cast a boolean to a float (PostgreSQL, BigQuery, Snowflake);
* a column of the user's source: DuckDB matches even quoted names without
  regard to case and reads it with ``COLUMNS(...)``
  (:func:`~framemetrics.compilers.sql.query.user_column`); every other
  engine by its quoted name;
* distribution (Spark): the curve stage's sum per group and score reads its
  rows repartitioned by the group (``/*+ REPARTITION(keys) */``), so that the
  window over the group's scores needs no second shuffle (the aggregate
  marks its group keys in ``meta[DISTRIBUTE]``), and the group totals are
  windows over the same order (``meta[ORDERED]``), computed by the same
  Window operator. Measured at 1e7 rows and 1e3 groups, exact AUC: 13.3 s
  against 17.2-18.6 s without the repartition, and about 1 s less again for
  the totals (on DuckDB the ordered totals cost 15%: it keeps the plain ones);
* a double literal (ClickHouse): written bare, ``0.5`` rather than ``CAST(0.5
  AS Nullable(Float64))``, where the engine reads a number with a point or
  an exponent as a double: the Beta quantile's 2,630 literal casts were 99 KB
  of its 228 KB in ClickHouse's text.

DataFusion has no sqlglot dialect: its text is PostgreSQL's, with DataFusion's
own functions for the tests above.

Examples
--------
>>> from framemetrics.compilers.sql.namespace import SQL
>>> tree = SQL.is_finite(SQL.col("x"))
>>> for_dialect(tree, DIALECTS["spark"]).sql("spark")
'x - x = 0'
"""

from __future__ import annotations

from dataclasses import dataclass

from sqlglot import exp

from framemetrics.core.errors import ArgumentError

__all__ = [
    "DEEP",
    "DIALECTS",
    "DISTRIBUTE",
    "INLINE",
    "MATERIALIZE",
    "ORDERED",
    "ROW_POSITION",
    "Dialect",
    "dialect_named",
    "for_dialect",
]

# The meta key of an aggregate whose input rows may be distributed by these group keys.
DISTRIBUTE = "fm_distribute"
# The meta key of a window's equivalent over the curve stage's order.
ORDERED = "fm_ordered"
# The meta key of a CTE's select that an engine inlining CTEs must materialize.
MATERIALIZE = "fm_materialize"
# The meta key of a CTE's select that an engine materializing every CTE read more than once must inline.
INLINE = "fm_inline"
# meta key: a window numbering the rows in the order they are read (the bootstrap's default row key)
ROW_POSITION = "fm_row_position"
# meta key: a select of the Beta quantile's deep expressions (Clopper-Pearson's interval)
DEEP = "fm_deep"


@dataclass(frozen=True)
class Dialect:
    """How framemetrics writes SQL for one engine.

    Attributes
    ----------
    name : str
        framemetrics' name of the dialect (``dialect=``).
    sqlglot : str
        The sqlglot dialect that writes its text.
    finite, nan : str
        The function testing finiteness and NaN (``""``: by arithmetic,
        ``x - x = 0`` and ``x = 'NaN'``).
    boolean_to_double : bool
        Whether ``CAST(<boolean> AS DOUBLE)`` is valid.
    tested_on : str
        The engine the test suite runs the dialect's SQL on (``""``: only
        reviewed snapshots of its text).
    settings : tuple of (str, int)
        Settings the statement carries (ClickHouse: resolve a name to the
        column before an alias of the same SELECT, and fill an outer join's
        missing side with NULL rather than 0, as every other engine).
    parenthesized : tuple of types
        Operators the engine parses with another precedence, parenthesized
        wherever they are an operand (DataFusion reads ``a IS NOT DISTINCT
        FROM b AND c`` as ``a IS NOT DISTINCT FROM (b AND c)``).
    repartition : bool
        Whether an aggregate marked ``meta[DISTRIBUTE]`` reads its rows
        repartitioned by those keys (Spark's ``REPARTITION`` hint), and a
        window marked ``meta[ORDERED]`` is written as that ordered form.
    materialize : bool
        Whether a CTE whose select is marked ``meta[MATERIALIZE]`` is written
        ``AS MATERIALIZED``: PostgreSQL inlines a CTE read once, substituting
        its columns' expressions, so the bootstrap's columns of replicate
        weights (each read by many sums) would be expanded into every sum.
    inline : bool
        Whether a CTE whose select is marked ``meta[INLINE]`` is written
        ``AS NOT MATERIALIZED``: DuckDB materializes a CTE read more than
        once, and the bootstrap's batches of replicates, each reading the
        rows, then ran slower than one after the other (F1 and log loss,
        10^7 rows, 100 replicates: 24 s, inlined 14.5 s).
    ordered_rows : bool
        Whether a table's rows are read in a defined order, so that a row's
        position (``ROW_NUMBER() OVER ()``, marked ``meta[ROW_POSITION]``)
        is the same on every run: DuckDB's scans keep the insertion order. A
        warehouse's table has no order (Spark refuses the window): the
        bootstrap there needs ``row_id=``.
    deep_expressions : bool
        Whether the engine takes the Beta quantile's stages (Clopper-Pearson's
        interval, marked ``meta[DEEP]``: about 160 KB of SQL on one line,
        expressions nested far beyond 50 levels). DuckDB, Spark, PostgreSQL (each stage
        materialized) and DataFusion do (tested; DataFusion's parser needs
        ``datafusion.sql_parser.recursion_limit`` raised from 50 to 256), and
        ClickHouse with ``deep_settings``; BigQuery and Snowflake are not
        tested. Elsewhere an ``ArgumentError`` says so.
    deep_settings : tuple of (str, int)
        Settings a statement with those stages carries besides ``settings``.
        ClickHouse's ``query_plan_merge_expressions = 0``: merging the stages'
        projections into one expression, its planner did not finish in 5
        minutes; kept apart, the nine proportions' intervals take about 1 s.
    float_literals : bool
        Whether a double literal whose text has a point or an exponent (every
        :meth:`~framemetrics.compilers.sql.namespace.SqlNamespace.lit` of a
        float) is written bare, the engine reading it as a double.
    max_statement : int
        The longest statement the engine parses, in bytes (0: no limit):
        where the indented text is longer, it is written on one line
        (ClickHouse's ``max_query_size``, 256 KiB by default: the nine
        proportions with Clopper-Pearson's intervals are 168 KB on one line).
    """

    name: str
    sqlglot: str
    finite: str = ""
    nan: str = "ISNAN"
    boolean_to_double: bool = True
    tested_on: str = ""
    settings: tuple[tuple[str, int], ...] = ()
    parenthesized: tuple[type[exp.Expression], ...] = ()
    repartition: bool = False
    materialize: bool = False
    inline: bool = False
    ordered_rows: bool = False
    deep_expressions: bool = False
    deep_settings: tuple[tuple[str, int], ...] = ()
    float_literals: bool = False
    max_statement: int = 0


DIALECTS: dict[str, Dialect] = {
    d.name: d
    for d in (
        Dialect(
            "duckdb",
            "duckdb",
            finite="ISFINITE",
            tested_on="duckdb",
            inline=True,
            ordered_rows=True,
            deep_expressions=True,
        ),
        Dialect("spark", "spark", tested_on="pyspark (local[2])", repartition=True, deep_expressions=True),
        Dialect(
            "postgres",
            "postgres",
            nan="",
            boolean_to_double=False,
            tested_on="PostgreSQL 15",
            materialize=True,
            deep_expressions=True,
        ),
        Dialect(
            "clickhouse",
            "clickhouse",
            finite="isFinite",
            nan="isNaN",
            tested_on="chdb",
            # group_by_use_nulls: a GROUPING SETS row's absent keys are null, not their type's default.
            settings=(("prefer_column_name_to_alias", 1), ("join_use_nulls", 1), ("group_by_use_nulls", 1)),
            deep_expressions=True,
            deep_settings=(("query_plan_merge_expressions", 0),),
            float_literals=True,
            max_statement=256 * 1024,
        ),
        Dialect(
            "datafusion",
            "postgres",
            nan="isnan",
            tested_on="datafusion",
            parenthesized=(exp.NullSafeEQ, exp.NullSafeNEQ),
            deep_expressions=True,
        ),
        Dialect("bigquery", "bigquery", nan="IS_NAN", boolean_to_double=False),
        Dialect("snowflake", "snowflake", nan="", boolean_to_double=False),
    )
}


def dialect_named(name: str) -> Dialect:
    """The dialect ``name``, or a ``ValueError`` listing the dialects.

    Examples
    --------
    >>> dialect_named("spark").sqlglot
    'spark'
    """
    if name not in DIALECTS:
        raise ValueError(f"unknown dialect {name!r}: choose one of {', '.join(DIALECTS)}")
    return DIALECTS[name]


_BOOLEAN = (exp.Predicate, exp.Connector, exp.Not, exp.Boolean)


def _is_float_literal(cast: exp.Cast) -> bool:
    """Whether ``cast`` is a double literal written with a point or an exponent (a negative one is negated)."""
    number = cast.this.this if isinstance(cast.this, exp.Neg) else cast.this
    return (
        cast.to.this == exp.DataType.Type.DOUBLE
        and isinstance(number, exp.Literal)
        and number.is_number
        and any(c in number.name for c in ".eE")
    )


def _rewrite(node: exp.Expression, dialect: Dialect) -> exp.Expression:
    if isinstance(node, exp.Columns) and isinstance(node.this, exp.Lambda):
        # user_column's exact-name match, DuckDB's alone: elsewhere the quoted name is exact.
        return exp.column(exp.to_identifier(node.this.this.expression.name, quoted=True))
    if isinstance(node, exp.Anonymous) and node.name.lower() == "isfinite":
        (x,) = node.expressions
        if dialect.finite:
            return exp.Anonymous(this=dialect.finite, expressions=[x])
        return exp.EQ(this=exp.Sub(this=x.copy(), expression=x.copy()), expression=exp.Literal.number(0))
    if isinstance(node, exp.IsNan) and dialect.nan != "ISNAN":
        x = node.this
        if dialect.nan:
            return exp.Anonymous(this=dialect.nan, expressions=[x])
        return exp.EQ(this=x, expression=exp.cast(exp.Literal.string("NaN"), exp.DataType.Type.DOUBLE))
    if dialect.float_literals and isinstance(node, exp.Cast) and _is_float_literal(node):
        return node.this.copy()
    if (
        isinstance(node, exp.Cast)
        and not dialect.boolean_to_double
        and isinstance(node.this, _BOOLEAN)
        and node.to.this == exp.DataType.Type.DOUBLE
    ):
        return exp.cast(exp.cast(node.this, exp.DataType.Type.INT), exp.DataType.Type.DOUBLE)
    if dialect.repartition and isinstance(node, exp.Select) and node.meta.get(DISTRIBUTE):
        return _repartitioned(node, node.meta[DISTRIBUTE])
    if dialect.repartition and isinstance(node, exp.Window) and ORDERED in node.meta:
        return node.meta[ORDERED].copy()
    if not dialect.ordered_rows and node.meta.get(ROW_POSITION):
        raise ArgumentError(
            f"the bootstrap on {dialect.name} needs row_id=, an integer column identifying each row: its tables have "
            "no row order, so a row's position would draw other replicates on each run"
        )
    if not dialect.deep_expressions and node.meta.get(DEEP):
        raise ArgumentError(
            f"Clopper-Pearson's interval on {dialect.name}: its Beta quantile is about 160 KB of SQL with expressions "
            f"nested too deep for {dialect.name} (README, Known limits); use Wilson's interval there, or DuckDB, Spark, "
            "PostgreSQL, ClickHouse or DataFusion"
        )
    if dialect.materialize and isinstance(node, exp.CTE) and node.this.meta.get(MATERIALIZE):
        node.set("materialized", True)
    if dialect.inline and isinstance(node, exp.CTE) and node.this.meta.get(INLINE):
        node.set("materialized", False)
    return node


def _inlined(tree: exp.Expression) -> exp.Expression:
    """``tree`` (a copy, if it has any) with its CTEs marked ``meta[INLINE]`` written ``AS NOT MATERIALIZED``."""
    ctes = tree.args.get("with_").expressions if isinstance(tree, exp.Query) and tree.args.get("with_") else []
    marked = [j for j, cte in enumerate(ctes) if cte.this.meta.get(INLINE)]
    if not marked:
        return tree
    root = tree.copy()
    for j in marked:
        root.args["with_"].expressions[j].set("materialized", False)
    return root


def _repartitioned(select: exp.Select, keys: list[str]) -> exp.Select:
    """``select`` reading ``(SELECT /*+ REPARTITION(keys) */ * FROM <its source>)`` (Spark).

    Examples
    --------
    >>> marked = exp.select("g", "s").from_("t").group_by("g", "s")
    >>> _repartitioned(marked, ["g"]).sql("spark")
    'SELECT g, s FROM (SELECT /*+ REPARTITION(g) */ * FROM t) AS fm_rows GROUP BY g, s'
    """
    source = select.args["from_"].this
    hint = exp.Hint(expressions=[exp.Anonymous(this="REPARTITION", expressions=[exp.column(k) for k in keys])])
    rows = exp.select(exp.Star()).from_(source.copy())
    rows.set("hint", hint)
    out = select.copy()
    out.set("from_", exp.From(this=rows.subquery("fm_rows")))
    return out


def for_dialect(tree: exp.Expression, dialect: Dialect) -> exp.Expression:
    """``tree`` with the constructs ``dialect`` spells differently rewritten (DuckDB's own: unchanged).

    Examples
    --------
    >>> from framemetrics.compilers.sql.namespace import SQL
    >>> tree = SQL.indicator(SQL.col("y") > 0)
    >>> for_dialect(tree, DIALECTS["postgres"]).sql("postgres")
    'CAST(CAST(y > 0 AS INT) AS DOUBLE PRECISION)'
    """
    if dialect.name == "duckdb":
        return _inlined(tree) if dialect.inline else tree
    root = tree.copy()
    for node in reversed(list(root.dfs())):  # children first: a rewrite copies rewritten operands
        new = _rewrite(node, dialect)
        if new is not node:
            root = new if node is root else root
            node.replace(new)
    settings = dialect.settings
    if dialect.deep_settings and any(node.meta.get(DEEP) for node in root.dfs()):
        settings += dialect.deep_settings
    if settings and isinstance(root, exp.Query):
        root.set("settings", [exp.EQ(this=exp.column(k), expression=exp.Literal.number(v)) for k, v in settings])
    return root
