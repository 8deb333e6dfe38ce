"""Intervals of the proportions of the confusion cells: Wilson's score interval and Clopper-Pearson's.

A proportion metric (:data:`PROPORTIONS`) is ``successes / trials``, each a
sum of confusion cells, as its registry entry declares (``Metric.proportion``). With weights, ``n`` is Kish's effective sample
size ``(sum w)^2 / sum w^2`` of the trials (the ``<cell>_sq`` statistics)
and ``p`` the weighted proportion; both intervals are null without trials,
or where ``sum w^2`` leaves the double range (weights beyond about 1e150 or
below 1e-145).

**Wilson** (1927), with ``z2 = z^2``: ``(p + z2 / (2n) -+ z sqrt(p (1 - p) / n
+ z2 / (4 n^2))) / (1 + z2 / n)``, statsmodels'
``proportion_confint(method="wilson")``.

**Clopper and Pearson** (1934), with ``x = p n`` and ``a = (1 - level) / 2``,
statsmodels' ``proportion_confint(method="beta")``:

* ``low = B^-1(a; x, n - x + 1)``, and 0 where ``x = 0``;
* ``high = B^-1(1 - a; x + 1, n - x) = 1 - B^-1(a; n - x, x + 1)``, and 1 where ``x = n``.

An effective count need not be an integer: the Beta quantile
(:func:`~framemetrics.core.beta.beta_quantile_stages`) takes any positive
parameters. A compiler computes every quantile of a request in one set of
stages, over rows (group, quantile): both bounds of every proportion.

Examples
--------
>>> PROPORTIONS["precision_score"]
(('tp',), ('tp', 'fp'))
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any

from framemetrics.core.formulas.guards import valid
from framemetrics.core.namespace import Namespace
from framemetrics.core.registry import REGISTRY

__all__ = [
    "PROPORTIONS",
    "clipped",
    "clopper_pearson_bounds",
    "clopper_pearson_parameters",
    "proportion_statistics",
    "wilson_bounds",
    "wilson_centre",
    "wilson_clipped",
    "wilson_parts",
    "wilson_steps",
]

Expr = Any
Cells = tuple[str, ...]

# The least sum of squared weights whose terms keep their digits (a square below 2.2e-308 is subnormal).
_LEAST_SQUARES = 1e-290

# A proportion metric's successes and trials, as confusion cells: its registry entry's.
PROPORTIONS: dict[str, tuple[Cells, Cells]] = {
    name: metric.proportion for name, metric in REGISTRY.items() if metric.proportion is not None
}


def proportion_statistics(name: str) -> tuple[str, ...]:
    """The statistics an interval of proportion ``name`` reads: its trials' cells and their squared weights.

    Examples
    --------
    >>> proportion_statistics("recall_score")
    ('tp', 'fn', 'tp_sq', 'fn_sq')
    """
    trials = PROPORTIONS[name][1]
    return tuple(dict.fromkeys((*trials, *(f"{c}_sq" for c in trials))))


def _parts(name: str, s: Mapping[str, Expr]) -> tuple[Expr, Expr, Expr]:
    """The successes, trials and trials' squared weights of proportion ``name``, summed from the cells."""

    def total(cells: Cells, suffix: str = "") -> Expr:
        value = s[cells[0] + suffix]
        for cell in cells[1:]:
            value = value + s[cell + suffix]
        return value

    successes, trials = PROPORTIONS[name]
    return total(successes), total(trials), total(trials, "_sq")


def clipped(ns: Namespace, x: Expr, low: float, high: float) -> Expr:
    """``x`` clipped to [low, high]; null stays null."""
    return ns.when(x < low, ns.lit(low)).when(x > high, ns.lit(high)).otherwise(x)


def _undefined(ns: Namespace, trials: Expr, trials_sq: Expr) -> Expr:
    """No trials, or a sum of squared weights outside the double range."""
    return ns.any(trials <= 0, trials_sq < _LEAST_SQUARES, ns.not_(ns.is_finite(trials_sq)))


def wilson_parts(ns: Namespace, successes: Expr, trials: Expr, trials_sq: Expr) -> dict[str, Expr]:
    """Wilson's first step: the proportion ``p``, Kish's ``n = trials^2 / trials_sq`` and whether the interval
    is ``undefined`` (no trials, or squared weights outside the double range; ``p`` and ``n`` null there).

    Examples
    --------
    >>> import polars as pl
    >>> from framemetrics.compilers.polars import POLARS
    >>> parts = wilson_parts(POLARS, pl.lit(3.0), pl.lit(10.0), pl.lit(5.0))
    >>> [pl.select(parts[k]).item() for k in ("p", "n", "undefined")]
    [0.3, 20.0, False]
    """
    undefined = _undefined(ns, trials, trials_sq)
    return {
        "p": ns.when(undefined, ns.null()).otherwise(successes / trials),
        "n": ns.when(undefined, ns.null()).otherwise(trials * (trials / trials_sq)),
        "undefined": undefined,
    }


def wilson_centre(ns: Namespace, p: Expr, n: Expr, z: Expr) -> dict[str, Expr]:
    """Wilson's second step: the interval's ``centre`` ``(p + z^2 / (2n)) / (1 + z^2 / n)`` and its ``half`` width
    ``z sqrt(p (1 - p) / n + z^2 / (4 n^2)) / (1 + z^2 / n)``.

    Examples
    --------
    >>> import polars as pl
    >>> from framemetrics.compilers.polars import POLARS
    >>> c = wilson_centre(POLARS, pl.lit(0.3), pl.lit(10.0), pl.lit(1.959963984540054))
    >>> [round(pl.select(c[k]).item(), 6) for k in ("centre", "half")]
    [0.355507, 0.247715]
    """
    z2 = z * z
    denominator = 1 + z2 / n
    return {
        "centre": (p + z2 / (2 * n)) / denominator,
        "half": z * ns.sqrt(p * (1 - p) / n + z2 / (4 * n) / n) / denominator,
    }


def wilson_clipped(ns: Namespace, centre: Expr, half: Expr, undefined: Expr) -> dict[str, Expr]:
    """Wilson's bounds ``centre -+ half``, clipped to [0, 1]; null where ``undefined``."""
    return {
        "low": ns.when(undefined, ns.null()).otherwise(clipped(ns, centre - half, 0.0, 1.0)),
        "high": ns.when(undefined, ns.null()).otherwise(clipped(ns, centre + half, 0.0, 1.0)),
    }


def wilson_bounds(ns: Namespace, successes: Expr, trials: Expr, trials_sq: Expr, z: Expr) -> dict[str, Expr]:
    """Wilson's score interval of ``successes / trials`` with Kish's ``n = trials^2 / trials_sq``, its steps in one
    expression.

    Examples
    --------
    >>> import polars as pl
    >>> from framemetrics.compilers.polars import POLARS
    >>> b = wilson_bounds(POLARS, pl.lit(3.0), pl.lit(10.0), pl.lit(10.0), pl.lit(1.959963984540054))
    >>> [round(pl.select(b[k]).item(), 6) for k in ("low", "high")]
    [0.107791, 0.603222]
    """
    parts = wilson_parts(ns, successes, trials, trials_sq)
    centre = wilson_centre(ns, parts["p"], parts["n"], z)
    return wilson_clipped(ns, centre["centre"], centre["half"], parts["undefined"])


def wilson(name: str) -> Callable[[Namespace, Mapping[str, Expr], Expr, Expr], dict[str, Expr]]:
    """The bounds of Wilson's interval of proportion ``name`` from its steps' outputs (:func:`wilson_steps`), null
    with invalid input.

    Examples
    --------
    >>> import polars as pl
    >>> from framemetrics.compilers.polars import POLARS
    >>> s = {"tp": pl.lit(3.0), "fn": pl.lit(7.0), "tp_sq": pl.lit(3.0), "fn_sq": pl.lit(7.0)}
    >>> z = pl.lit(1.959963984540054)
    >>> for step in wilson_steps("recall_score"):
    ...     s |= step(POLARS, s, z, pl.lit(0))
    >>> round(pl.select(wilson("recall_score")(POLARS, s, z, pl.lit(0))["low"]).item(), 6)
    0.107791
    """

    def bounds(ns: Namespace, s: Mapping[str, Expr], z: Expr, n_invalid: Expr) -> dict[str, Expr]:
        clipped_bounds = wilson_clipped(ns, s["centre"], s["half"], s["undefined"])
        return {k: valid(ns, n_invalid, v) for k, v in clipped_bounds.items()}

    return bounds


def wilson_steps(name: str) -> tuple[Callable[[Namespace, Mapping[str, Expr], Expr, Expr], dict[str, Expr]], ...]:
    """The steps of Wilson's interval of proportion ``name``: :func:`wilson_parts` of its cells, then
    :func:`wilson_centre`."""

    def parts(ns: Namespace, s: Mapping[str, Expr], z: Expr, n_invalid: Expr) -> dict[str, Expr]:
        return wilson_parts(ns, *_parts(name, s))

    def centre(ns: Namespace, s: Mapping[str, Expr], z: Expr, n_invalid: Expr) -> dict[str, Expr]:
        return wilson_centre(ns, s["p"], s["n"], z)

    return parts, centre


def clopper_pearson_parameters(name: str) -> Callable[[Namespace, Mapping[str, Expr]], list[tuple[Expr, Expr]]]:
    """The Beta parameters of Clopper-Pearson's bounds of proportion ``name``: ``(x, n - x + 1)`` for ``low`` and
    ``(n - x, x + 1)`` for ``high`` (``1 - B^-1(a; n - x, x + 1)``), both quantiles at ``a = (1 - level) / 2``;
    1 where the bound is 0 or 1 without a quantile, null where the interval is undefined.

    Examples
    --------
    >>> import polars as pl
    >>> from framemetrics.compilers.polars import POLARS
    >>> cells = {"tp": pl.lit(3.0), "fn": pl.lit(1.0), "tp_sq": pl.lit(3.0), "fn_sq": pl.lit(1.0)}
    >>> pairs = clopper_pearson_parameters("recall_score")(POLARS, cells)
    >>> [tuple(pl.select(v).item() for v in pair) for pair in pairs]
    [(3.0, 2.0), (1.0, 4.0)]
    """

    def parameters(ns: Namespace, s: Mapping[str, Expr]) -> list[tuple[Expr, Expr]]:
        successes, trials, trials_sq = _parts(name, s)
        n = trials * (trials / trials_sq)
        x = successes / trials * n
        undefined = _undefined(ns, trials, trials_sq)

        def parameter(value: Expr, given: Expr) -> Expr:
            return ns.when(undefined, ns.null()).when(given, value).otherwise(ns.lit(1.0))

        has_low, has_high = successes > 0, successes < trials
        return [
            (parameter(x, has_low), parameter(n - x + 1, has_low)),
            (parameter(n - x, has_high), parameter(x + 1, has_high)),
        ]

    return parameters


def clopper_pearson_bounds(name: str) -> Callable[[Namespace, Mapping[str, Expr], Expr, Expr], dict[str, Expr]]:
    """The bounds of Clopper-Pearson's interval of proportion ``name``, from the quantiles ``q0``, ``q1`` of its
    :func:`clopper_pearson_parameters`.

    Examples
    --------
    >>> import polars as pl
    >>> from framemetrics.compilers.polars import POLARS
    >>> s = {"tp": pl.lit(0.0), "fn": pl.lit(4.0), "tp_sq": pl.lit(0.0), "fn_sq": pl.lit(4.0),
    ...      "q0": pl.lit(0.1), "q1": pl.lit(0.2)}
    >>> b = clopper_pearson_bounds("recall_score")(POLARS, s, pl.lit(1.96), pl.lit(0))
    >>> [pl.select(b[k]).item() for k in ("low", "high")]
    [0.0, 0.8]
    """

    def bounds(ns: Namespace, s: Mapping[str, Expr], z: Expr, n_invalid: Expr) -> dict[str, Expr]:
        successes, trials, trials_sq = _parts(name, s)
        undefined = _undefined(ns, trials, trials_sq)
        low = ns.when(ns.eq(successes, 0), ns.lit(0.0)).otherwise(s["q0"])
        high = ns.when(successes >= trials, ns.lit(1.0)).otherwise(1 - s["q1"])
        return {"low": valid(ns, n_invalid, low, undefined), "high": valid(ns, n_invalid, high, undefined)}

    return bounds
