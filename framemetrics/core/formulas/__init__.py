"""Stage 2 of every metric, written once: a formula over its per-group statistics.

A formula is ``f(ns, **statistics, n_invalid, **parameters)``: ``ns`` is a
:class:`~framemetrics.core.namespace.Namespace`, every other argument an
expression of that namespace (a statistic's column, the count of invalid
rows, a parameter's typed literal or macro parameter). The same function
gives the Polars expression and the SQL tree; the macro file's
``fm_formula_<metric>`` macros are generated from it. The family modules
hold the formulas of the probability, ranking, regression and multiclass
metrics and the null rules (:mod:`~framemetrics.core.formulas.guards`); a
binary classification metric's formula is written in its registry entry
(:mod:`framemetrics.core.registry.classification`).

Examples
--------
>>> from framemetrics.compilers.sql import SQL
>>> from framemetrics.core.formulas.ranking import average_precision_score as f
>>> f(SQL, ap_sum=SQL.col("ap"), sum_pos=SQL.col("p"), n_invalid=SQL.lit(0)).sql()
'CASE WHEN 0 > 0 OR p = 0 THEN CAST(NULL AS DOUBLE) ELSE ap / p END'
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any

from framemetrics.core.formulas.guards import bounded
from framemetrics.core.namespace import Namespace

__all__ = ["apply_formula", "parameter_literal"]


def parameter_literal(ns: Namespace, value: Any) -> Any:
    """A validated metric parameter as a typed literal: numbers as doubles, booleans and None as such.

    Examples
    --------
    >>> from framemetrics.compilers.sql import SQL
    >>> parameter_literal(SQL, 2).sql(), parameter_literal(SQL, True).sql()
    ('CAST(2.0 AS DOUBLE)', 'TRUE')
    """
    if value is None or isinstance(value, bool):
        return ns.lit(value)
    return ns.lit(float(value))


def apply_formula(
    ns: Namespace,
    formula: Callable[..., Any],
    statistics: Mapping[str, Any],
    n_invalid: Any,
    params: Mapping[str, Any],
    *,
    guarded: bool = True,
    value_range: tuple[float, float] | None = None,
) -> Any:
    """A metric's ``formula`` in namespace ``ns``.

    Parameters
    ----------
    ns : Namespace
        The compiler's namespace.
    formula : callable
        A metric's formula (its registry entry's ``formula.function``).
    statistics : mapping of str to expression
        Each statistic the formula reads (a null literal for a skipped one).
    n_invalid : expression
        The number of invalid input rows of the group.
    params : mapping of str to Python value
        The metric's validated parameters, rendered as typed literals.
    guarded : bool, default True
        Pass the value through :func:`~framemetrics.core.formulas.guards.bounded`
        (a number or null). The SQL compiler applies it to the formula's
        column in an outer SELECT instead, so that the text holds each formula once.
    value_range : tuple of (float, float), optional
        The metric's range (``Metric.value_range``), which ``bounded`` keeps it in.

    Returns
    -------
    expression
        A ``pl.Expr`` or a sqlglot tree, as ``ns`` builds them.

    Examples
    --------
    >>> import polars as pl
    >>> from framemetrics.compilers.polars import POLARS
    >>> from framemetrics.core.formulas.ranking import average_precision_score
    >>> stats = {"ap_sum": pl.lit(3.0), "sum_pos": pl.lit(4.0)}
    >>> pl.select(apply_formula(POLARS, average_precision_score, stats, pl.lit(0), {})).item()
    0.75
    """
    arguments = {p: parameter_literal(ns, v) for p, v in params.items()}
    value = formula(ns, **statistics, n_invalid=n_invalid, **arguments)
    return bounded(ns, value, value_range) if guarded else value
