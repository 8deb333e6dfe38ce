"""The null rules every formula shares: invalid input, zero denominators, values beyond the double range."""

from __future__ import annotations

import inspect
import math
from collections.abc import Callable
from typing import Any

from framemetrics.core.namespace import Namespace

__all__ = ["bounded", "guarded", "named_formula", "share", "valid", "weighted_mean"]

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


def bounded(ns: Namespace, value: Expr, value_range: tuple[float, float] | None = None) -> Expr:
    """A metric's value where it is finite, else null, within ``value_range``: a number or null, never NaN or infinite.

    Every metric's formula passes through it once (``apply_formula``, the
    formula macros, the multiclass metrics): a sum beyond the double range
    (targets of 1e200 squared, weights summing past 1.8e308) makes a null,
    not an infinity or a NaN. ``value_range`` is the metric's declared range
    (``Metric.value_range``): a value rounded past a finite end of it is that
    end (an AUC of ``1.0000000000000002`` is 1.0), so that every engine
    keeps a bounded metric in its range.

    Examples
    --------
    >>> from framemetrics.compilers.sql import SQL
    >>> bounded(SQL, SQL.col("v")).sql()
    'CASE WHEN ISFINITE(v) THEN v ELSE CAST(NULL AS DOUBLE) END'
    >>> bounded(SQL, SQL.col("v"), (0.0, float("inf"))).sql()
    'CASE WHEN ISFINITE(v) THEN GREATEST(v, CAST(0.0 AS DOUBLE)) ELSE CAST(NULL AS DOUBLE) END'
    """
    within = value
    low, high = value_range or (-math.inf, math.inf)
    if math.isfinite(low):
        within = ns.greatest(within, ns.lit(float(low)))
    if math.isfinite(high):
        within = ns.least(within, ns.lit(float(high)))
    # The branch holds finite values only: least and greatest, which skip nulls, never meet one.
    return ns.when(ns.is_finite(value), within).otherwise(ns.null())


def named_formula(
    name: str, parameters: tuple[str, ...], doc: str, module: str, body: Callable[..., Expr]
) -> Callable[..., Expr]:
    """``body`` as the formula ``name`` of ``module``: signature ``(ns, *parameters)``, docstring ``doc``.

    For formulas written from a specification: the registry reads the
    statistics from the signature and the macro file the docstring, as of a
    formula written out; ``body`` takes the arguments by name.

    Examples
    --------
    >>> from framemetrics.compilers.sql import SQL
    >>> f = named_formula("half", ("x", "n_invalid"), "x / 2.", __name__, lambda ns, x, n_invalid: x / 2)
    >>> list(inspect.signature(f).parameters), f.__doc__, f(SQL, SQL.col("v"), SQL.lit(0)).sql()
    (['ns', 'x', 'n_invalid'], 'x / 2.', 'v / 2')
    """
    signature = inspect.Signature(
        [inspect.Parameter(n, inspect.Parameter.POSITIONAL_OR_KEYWORD) for n in ("ns", *parameters)]
    )

    def formula(*args: Expr, **kwargs: Expr) -> Expr:
        return body(**signature.bind(*args, **kwargs).arguments)

    formula.__signature__ = signature  # type: ignore[attr-defined]
    formula.__name__ = formula.__qualname__ = name
    formula.__doc__, formula.__module__ = doc, module
    return formula


def weighted_mean(name: str, statistic: str, doc: str, module: str, *, root: bool = False) -> Callable[..., Expr]:
    """The formula of metric ``name``, a weighted mean of one row statistic: ``statistic / sum_weight``.

    ``root`` takes its square root (RMSE). Null with invalid input or a zero
    total weight (:func:`share`). The function has the signature
    ``(ns, <statistic>, sum_weight, n_invalid)``, the docstring ``doc`` and
    the name ``name`` in ``module`` (:func:`named_formula`).

    Examples
    --------
    >>> f = weighted_mean("mse", "sum_sq_error", "sum w e^2 / sum w.", __name__)
    >>> list(inspect.signature(f).parameters), f.__doc__
    (['ns', 'sum_sq_error', 'sum_weight', 'n_invalid'], 'sum w e^2 / sum w.')
    """

    def mean(ns: Namespace, sum_weight: Expr, n_invalid: Expr, **total: Expr) -> Expr:
        value = share(ns, total[statistic], sum_weight, n_invalid)
        return ns.sqrt(value) if root else value

    return named_formula(name, (statistic, "sum_weight", "n_invalid"), doc, module, mean)
