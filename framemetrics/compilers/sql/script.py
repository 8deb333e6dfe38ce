"""A statement with fixpoints as a Spark SQL script: each recursive table a loop over cached rounds.

Spark refuses window functions and aggregates over a recursive reference,
so a ``WITH RECURSIVE`` fixpoint (:meth:`SqlFrame.fixpoint
<framemetrics.compilers.sql.frame.SqlFrame.fixpoint>`) is run there as a
SQL script (``BEGIN ... END``, Spark 4): the anchor is cached as the
temporary view ``<name>_0``; each round caches ``<name>_<k>``, the
recursive term reading ``<name>_<k-1>``, until a round has no row; the
view ``<name>`` caches the union of the rounds, and the last statement
reads it as it read the recursive table. A view's name is only known in
the loop, so a round's statement is run by ``EXECUTE IMMEDIATE`` from its
text, a string literal. The script drops a view of the same name before
caching it, so it can run again in the same session; the views stay in the
session afterwards (:func:`script_views` lists their names).
"""

from __future__ import annotations

from sqlglot import exp

from framemetrics.compilers.sql.emit import to_sql
from framemetrics.compilers.sql.frame import needed_stages

__all__ = ["fixpoint_script", "has_fixpoint", "script_views", "statement_sql"]

_VARIABLES = ["DECLARE fm_round INT DEFAULT 0;", "DECLARE fm_rows BIGINT DEFAULT 0;", "DECLARE fm_union STRING;"]


def has_fixpoint(query: exp.Expression) -> bool:
    """Whether ``query`` has a recursive common table expression.

    Examples
    --------
    >>> has_fixpoint(exp.select("x").from_("t"))
    False
    """
    with_ = query.args.get("with_")
    return bool(with_) and any(_is_recursive(cte) for cte in with_.expressions)


def script_views(query: exp.Expression) -> list[str]:
    """The names of the recursive tables of ``query``: the views ``<name>`` and ``<name>_<k>`` of its script."""
    with_ = query.args.get("with_")
    return [cte.alias for cte in with_.expressions if _is_recursive(cte)] if has_fixpoint(query) else []


def _is_recursive(cte: exp.CTE) -> bool:
    return any(t.name == cte.alias for t in cte.this.find_all(exp.Table))


def _with_needed(select: exp.Expression, ctes: list[exp.CTE]) -> exp.Expression:
    """``select`` with the common table expressions of ``ctes`` it reads, directly or through others."""
    needed = needed_stages(select, ctes)
    listed = [cte.copy() for cte in ctes if cte.alias in needed]
    select = select.copy()
    if listed:
        select.set("with_", exp.With(expressions=listed))
    return select


def _renamed(tree: exp.Expression, old: str, new: str) -> exp.Expression:
    """``tree`` reading the table ``new`` where it read ``old``."""
    tree = tree.copy()
    for table in tree.find_all(exp.Table):
        if table.name == old and not table.args.get("db"):
            table.set("this", exp.to_identifier(new))
    return tree


def _literal(text: str) -> str:
    return exp.Literal.string(text).sql("spark")


def _loop(name: str, anchor: exp.Expression, term: exp.Expression) -> list[str]:
    """The statements computing the recursive table ``name`` from its anchor and term (plain CTEs attached)."""
    previous, current = f"{name}_previous", f"{name}_current"
    round_sql = f"CACHE TABLE {current} AS {to_sql(_renamed(term, name, previous), 'spark')}"
    view, last = f"'{name}_' || fm_round", f"'{name}_' || (fm_round - 1)"
    return [
        f"DROP VIEW IF EXISTS {name}_0;",
        f"CACHE TABLE {name}_0 AS {to_sql(anchor, 'spark')};",
        "SET fm_round = 0;",
        f"SET fm_rows = (SELECT COUNT(*) FROM {name}_0);",
        f"SET fm_union = 'SELECT * FROM {name}_0';",
        "WHILE fm_rows > 0 DO",
        "  SET fm_round = fm_round + 1;",
        f"  EXECUTE IMMEDIATE 'DROP VIEW IF EXISTS ' || {view};",
        f"  EXECUTE IMMEDIATE replace(replace({_literal(round_sql)}, '{current}', {view}), '{previous}', {last});",
        f"  EXECUTE IMMEDIATE 'SELECT COUNT(*) FROM ' || {view} INTO fm_rows;",
        f"  SET fm_union = fm_union || ' UNION ALL SELECT * FROM ' || {view};",
        "END WHILE;",
        f"DROP VIEW IF EXISTS {name};",
        f"EXECUTE IMMEDIATE 'CACHE TABLE {name} AS ' || fm_union;",
    ]


def fixpoint_script(query: exp.Select) -> str:
    """``query`` (a ``WITH RECURSIVE`` statement) as a Spark SQL script ending with its rows.

    Examples
    --------
    >>> from framemetrics.compilers.sql.frame import SqlFrame, Statement
    >>> s = Statement()
    >>> start = SqlFrame.values(s, {"n": [1]})
    >>> rounds = start.fixpoint(lambda f: f.filter(f.ns.col("n") < 3).with_columns(n=f.ns.col("n") + 1))
    >>> text = fixpoint_script(s.query(rounds))
    >>> text.splitlines()[0], text.splitlines()[-1]
    ('BEGIN', 'END')
    """
    ctes: list[exp.CTE] = []
    lines = ["BEGIN", *(f"  {v}" for v in _VARIABLES)]
    for cte in query.args["with_"].expressions:
        if _is_recursive(cte):
            union = cte.this
            anchor, term = _with_needed(union.this, ctes), _with_needed(union.expression, ctes)
            lines += [f"  {line}" for line in _loop(cte.alias, anchor, term)]
        else:
            ctes.append(cte)
    final = query.copy()
    final.set("with_", None)
    lines += [f"  {to_sql(_with_needed(final, ctes), 'spark')};", "END"]
    return "\n".join(lines)


def statement_sql(query: exp.Select, dialect: str) -> str:
    """``query`` as text of ``dialect``: a script (:func:`fixpoint_script`) where Spark must run a fixpoint.

    Examples
    --------
    >>> statement_sql(exp.select("x").from_("t"), "spark").split()
    ['SELECT', 'x', 'FROM', 't']
    """
    if dialect == "spark" and has_fixpoint(query):
        return fixpoint_script(query)
    return to_sql(query, dialect, pretty=True)
