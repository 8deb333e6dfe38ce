"""Text helpers for the queries still assembled as text: curves, calibration, multiclass.

The metric query is a sqlglot tree (:mod:`framemetrics.compilers.sql.query`);
the curve, calibration and multiclass queries are text around the same
tree-built ``fm_input`` and ``fm_statistics`` CTEs, until they are trees too.
"""

from __future__ import annotations

from sqlglot import exp

from framemetrics.compilers.sql.emit import to_sql
from framemetrics.compilers.sql.namespace import SQL
from framemetrics.compilers.sql.query import (
    QueryInputs,
    group_keys,
    input_select,
    plan_literals,
    statistics_select,
)
from framemetrics.compilers.sql.stages import rows_of
from framemetrics.core.statistics import negative_weight, positive_weight
from framemetrics.plan import Plan
from framemetrics.sql.macros import expand, macros

__all__ = [
    "QueryInputs",
    "cte",
    "group_keys",
    "inline",
    "input_cte",
    "literal_text",
    "same_group",
    "score_weights",
    "statistics_cte",
    "weight_sums",
]

_INDENT = ",\n        "


def literal_text(literals: dict[str, exp.Expression]) -> dict[str, str]:
    """The SQL text of each literal (or table macro parameter)."""
    return {name: to_sql(value) for name, value in literals.items()}


def inline(macro: str, arguments: dict[str, str]) -> str:
    """Macro ``macro`` inlined with the given arguments (those it takes)."""
    params = macros()[macro].params
    return expand(macro, {k: v for k, v in arguments.items() if k in params})


def input_cte(plan: Plan, inputs: QueryInputs, keys: list[str]) -> str:
    """``fm_input AS (...)``: the tree of :func:`framemetrics.compilers.sql.query.input_select` as text."""
    return f"fm_input AS (\n    {to_sql(input_select(plan, inputs, keys))}\n)"


def statistics_cte(plan: Plan, inputs: QueryInputs, keys: list[str], statistics: tuple[str, ...]) -> str:
    """``fm_statistics AS (...)``: the tree of :func:`~framemetrics.compilers.sql.query.statistics_select` as text."""
    select = statistics_select(plan, plan_literals(plan, inputs), keys, statistics)
    return f"fm_statistics AS (\n    {to_sql(select)}\n)"


def cte(name: str, columns: list[str], source: str, group_by: list[str]) -> str:
    """``name AS (SELECT columns FROM source GROUP BY group_by)``, indented."""
    grouped = f"\n    GROUP BY {', '.join(group_by)}" if group_by else ""
    return f"{name} AS (\n    SELECT\n        {_INDENT.join(columns)}\n    FROM {source}{grouped}\n)"


def same_group(left: str, right: str, keys: list[str]) -> str:
    """Join condition of two CTEs on the group keys (NULL keys match)."""
    return " AND ".join(f"{left}.{k} IS NOT DISTINCT FROM {right}.{k}" for k in keys) or "TRUE"


def weight_sums(plan: Plan, inputs: QueryInputs) -> tuple[str, str]:
    """The positive and the negative weight of a group, the core's sums as text."""
    x = rows_of(plan_literals(plan, inputs))
    return to_sql(SQL.sum(positive_weight(SQL, x))), to_sql(SQL.sum(negative_weight(SQL, x)))


def score_weights(plan: Plan, inputs: QueryInputs, keys: list[str]) -> list[str]:
    """Columns of the curve stage's ``GROUP BY keys, y_score``: the weights ``pw, nw``."""
    pw, nw = weight_sums(plan, inputs)
    return [*keys, "y_score", f"{pw} AS pw", f"{nw} AS nw"]
