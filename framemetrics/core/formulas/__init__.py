"""Stage 2 of every metric, written once: a formula over its per-group statistics.

A formula is ``f(ns, **statistics, n_invalid, **parameters)``: ``ns`` is a
:class:`~framemetrics.core.namespace.Namespace`, every other argument an
expression of that namespace (a statistic's column, the count of invalid
rows, a parameter's typed literal or macro parameter). The same function
gives the Polars expression and the SQL tree; the macro file's
``fm_formula_<metric>`` macros are generated from it.

Examples
--------
>>> from framemetrics.compilers.sql import SQL
>>> f = FORMULAS["recall_score"]
>>> f(SQL, tp=SQL.col("tp"), fn=SQL.col("fn"), n_invalid=SQL.lit(0), zero_division=SQL.null()).sql()
'CASE WHEN 0 > 0 THEN CAST(NULL AS DOUBLE) WHEN tp + fn = 0 THEN CAST(NULL AS DOUBLE) ELSE tp / (tp + fn) END'
"""

from __future__ import annotations

import inspect
from collections.abc import Callable, Mapping
from typing import Any

from framemetrics.core.formulas import classification, probability, ranking, regression
from framemetrics.core.formulas.guards import bounded
from framemetrics.core.namespace import Namespace

__all__ = ["FORMULAS", "apply_formula", "formula_parameters", "parameter_literal"]

# Every public function of the family modules is the formula of the metric of its name.
FORMULAS: dict[str, Callable[..., Any]] = {
    name: function
    for module in (classification, probability, ranking, regression)
    for name, function in vars(module).items()
    if inspect.isfunction(function) and function.__module__ == module.__name__ and not name.startswith("_")
}


def formula_parameters(name: str) -> tuple[str, ...]:
    """The argument names of a formula, after the namespace, in order.

    Examples
    --------
    >>> formula_parameters("f1_score")
    ('tp', 'fp', 'fn', 'n_invalid', 'zero_division')
    """
    return tuple(inspect.signature(FORMULAS[name]).parameters)[1:]


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
    name: str,
    statistics: Mapping[str, Any],
    n_invalid: Any,
    params: Mapping[str, Any],
    *,
    guarded: bool = True,
) -> Any:
    """The formula of metric ``name`` in namespace ``ns``.

    Parameters
    ----------
    ns : Namespace
        The compiler's namespace.
    name : str
        A registered metric.
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

    Returns
    -------
    expression
        A ``pl.Expr`` or a sqlglot tree, as ``ns`` builds them.

    Examples
    --------
    >>> import polars as pl
    >>> from framemetrics.compilers.polars import POLARS
    >>> stats = {"tp": pl.lit(3.0), "fp": pl.lit(1.0)}
    >>> pl.select(apply_formula(POLARS, "precision_score", stats, pl.lit(0), {"zero_division": 0})).item()
    0.75
    """
    arguments = {p: parameter_literal(ns, v) for p, v in params.items()}
    value = FORMULAS[name](ns, **statistics, n_invalid=n_invalid, **arguments)
    return bounded(ns, value) if guarded else value
