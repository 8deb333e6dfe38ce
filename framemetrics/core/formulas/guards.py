"""The null rules every formula shares: invalid input, zero denominators, values beyond the double range."""

from __future__ import annotations

from typing import Any

from framemetrics.core.namespace import Namespace

__all__ = ["bounded", "guarded", "share", "valid"]

Expr = Any


def valid(ns: Namespace, n_invalid: Expr, value: Expr, *undefined: Expr) -> Expr:
    """``value``, or null where any input row is invalid or any ``undefined`` condition holds."""
    return ns.when(ns.any(n_invalid > 0, *undefined), ns.null()).otherwise(value)


def share(ns: Namespace, part: Expr, whole: Expr, n_invalid: Expr) -> Expr:
    """``part / whole``; null with invalid input or ``whole = 0``."""
    return valid(ns, n_invalid, part / whole, ns.eq(whole, 0))


def guarded(ns: Namespace, n_invalid: Expr, denominator: Expr, zero_division: Expr, value: Expr) -> Expr:
    """``value``; ``zero_division`` where ``denominator = 0``; null with invalid input."""
    return ns.when(n_invalid > 0, ns.null()).when(ns.eq(denominator, 0), zero_division).otherwise(value)


def bounded(ns: Namespace, value: Expr) -> Expr:
    """A metric's value where it is finite, else null: a metric is a number or null, never NaN or infinite.

    Every metric's formula passes through it once (``apply_formula``, the
    formula macros, the multiclass metrics): a sum beyond the double range
    (targets of 1e200 squared, weights summing past 1.8e308) makes a null,
    not an infinity or a NaN.

    Examples
    --------
    >>> from framemetrics.compilers.sql import SQL
    >>> bounded(SQL, SQL.col("v")).sql()
    'CASE WHEN ISFINITE(v) THEN v ELSE CAST(NULL AS DOUBLE) END'
    """
    return ns.when(ns.is_finite(value), value).otherwise(ns.null())
