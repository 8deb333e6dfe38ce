"""SQL text from a sqlglot tree, for one dialect.

sqlglot's Python operators leave out the parentheses of a right operand of
the same class (``(a + b) / (c / d)`` is emitted ``a + b / c / d``), so
every tree goes through :func:`parenthesize` before it is emitted: an
operand that is itself an operator gets parentheses unless it binds more
tightly (``a * b + c``, ``a + b = 0``, ``x > 0 AND y > 0``) or is the left
operand of the same level (``a - b - c``, ``a / b * c``), the order in which
Polars evaluates the same expression.
"""

from __future__ import annotations

from sqlglot import exp

from framemetrics.compilers.sql.dialects import dialect_named, for_dialect

__all__ = ["parenthesize", "to_sql"]

_OPERATORS = (exp.Binary, exp.Unary)
_LEVELS = {
    exp.Neg: 5,
    exp.Mul: 4,
    exp.Div: 4,
    exp.Mod: 4,
    exp.Add: 3,
    exp.Sub: 3,
    exp.EQ: 2,
    exp.NEQ: 2,
    exp.GT: 2,
    exp.GTE: 2,
    exp.LT: 2,
    exp.LTE: 2,
    exp.Is: 2,
    exp.NullSafeEQ: 2,
    exp.NullSafeNEQ: 2,
    exp.Not: 1.5,
    exp.And: 1,
    exp.Or: 0,
}


def _is_operator(node: exp.Expression) -> bool:
    return isinstance(node, _OPERATORS) and not isinstance(node, (exp.Dot, exp.Paren, exp.Pow))


def _needs_parentheses(parent: exp.Expression, child: exp.Expression, left: bool, always: tuple[type, ...]) -> bool:
    if isinstance(child, always):
        return True
    parent_level, child_level = _LEVELS.get(type(parent)), _LEVELS.get(type(child))
    if parent_level is None or child_level is None or (isinstance(parent, exp.Unary) and child_level < 5):
        return True
    if parent_level <= 2 and parent_level == child_level and type(parent) is not type(child):
        return True
    return child_level < parent_level or (child_level == parent_level and not left)


def parenthesize(tree: exp.Expression, always: tuple[type, ...] = ()) -> exp.Expression:
    """``tree`` with the parentheses its operators need, fixed in place (idempotent).

    ``always``: operators parenthesized wherever they are an operand (a
    dialect that parses them with another precedence).

    Examples
    --------
    >>> a, b, c, d = (exp.column(x) for x in "abcd")
    >>> parenthesize((a + b) / (c / d)).sql()
    '(a + b) / (c / d)'
    """

    _wrap(tree, set(), always)
    return tree


def _wrap(tree: exp.Expression, seen: set[int], always: tuple[type, ...]) -> None:
    """Fix the parentheses below ``tree`` in place, walking the arguments (shared nodes once) with a stack, not
    recursion: the bootstrap's 1,000 replicate rows are a chain of 999 ``UNION ALL``."""
    stack = [tree]
    while stack:
        node = stack.pop()
        if id(node) in seen:
            continue
        seen.add(id(node))
        if isinstance(node, exp.Pow):  # emitted as a function, POWER(x, y)
            for key in ("this", "expression"):
                if isinstance(node.args.get(key), exp.Paren):
                    node.args[key] = node.args[key].this
        elif _is_operator(node):
            for key in ("this", "expression"):
                child = node.args.get(key)
                wrapped = isinstance(child, exp.Paren) and not isinstance(child.this, exp.Query)
                inner = child.this if wrapped else child
                needed = _is_operator(inner) and _needs_parentheses(node, inner, key == "this", always)
                if needed and not wrapped:  # a fixed tree is left as it is (idempotent, no mutation)
                    node.args[key] = exp.Paren(this=child)
                elif wrapped and not needed:
                    node.args[key] = inner
        for value in node.args.values():
            for child in value if isinstance(value, list) else (value,):
                if isinstance(child, exp.Expression):
                    stack.append(child)


def to_sql(tree: exp.Expression, dialect: str = "duckdb", *, pretty: bool = False, keep_case: bool = False) -> str:
    """``tree`` as SQL text of ``dialect``, rewritten for it and every operator explicitly parenthesized.

    ``dialect`` is one of :data:`~framemetrics.compilers.sql.dialects.DIALECTS`;
    ``keep_case`` keeps the case of functions called by name (the macro
    file's ``fm_*`` calls) instead of upper-casing them, as every dialect
    but DuckDB does (ClickHouse's ``isFinite`` is case-sensitive). Indented
    (``pretty``) text longer than the dialect's ``max_statement`` is written
    on one line instead.

    Examples
    --------
    >>> a, b = exp.column("a"), exp.column("b")
    >>> to_sql(1 - (a - b))
    '1 - (a - b)'
    """
    target = dialect_named(dialect)
    text = parenthesize(for_dialect(tree, target), target.parenthesized)
    upper = target.name == "duckdb" and not keep_case
    written = text.sql(dialect=target.sqlglot, pretty=pretty, normalize_functions="upper" if upper else False)
    if pretty and target.max_statement and len(written.encode()) > target.max_statement:
        return to_sql(tree, dialect, keep_case=keep_case)
    return written
