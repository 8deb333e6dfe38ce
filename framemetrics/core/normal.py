"""The standard normal distribution function to double precision, as one formula for every engine.

DuckDB, Polars and most SQL dialects have no normal distribution function
or ``erfc``, and p-values of DeLong's tests must be accurate to 1e-12
relative: Abramowitz and Stegun's 7.1.26 (error 1.5e-7) is far from that.
:func:`normal_cdf` is W. J. Cody's ``ANORM`` (ACM TOMS 715, 1993), the
algorithm of R's ``pnorm``, from near-minimax rational approximations
(Cody, Math. Comp. 1969), with ``y = |x|``:

* ``y <= 0.66291``: ``Phi(x) = 1/2 + x * A(x^2) / B(x^2)``;
* ``y <= sqrt(32)``: the tail ``Phi(-y) = exp(-y^2 / 2) * C(y) / D(y)``;
* ``y < 37.5193``: the tail ``Phi(-y) = exp(-x^2 / 2) * (1 / sqrt(2 pi) - r * P(r) / Q(r)) / y``,
  ``r = 1 / x^2``;
* beyond, where ``Phi(-y)`` is below the least normal double (R's ``pnorm``
  flushes it to 0 there): 0 or 1. This also keeps every ``exp`` above
  underflow, which PostgreSQL raises as an error.

``exp(-x^2 / 2)`` is ``exp(-s^2 / 2) * exp(-(x - s)(x + s) / 2)``, ``s`` the
multiple of 1/16 below ``x``, so that the square loses no digit; and
``Phi(x) = 1 - Phi(-x)`` for ``x > 0`` in the two tail ranges. The
polynomials are evaluated in Cody's order (Horner's scheme), so every engine
computes the same doubles as R.

:func:`inverse_normal_cdf` is its inverse per row (BCa's bias correction):
M. J. Wichura's AS 241 ``PPND16`` (Applied Statistics 37, 1988), accurate to
about 1e-16 relative, the algorithm of R's ``qnorm`` and of Python's
``statistics.NormalDist.inv_cdf``, with ``q = p - 1/2``: for ``|q| <= 0.425``
``q A(r) / B(r)``, ``r = 0.180625 - q^2``; else with ``r = sqrt(-ln(min(p,
1 - p)))``, ``C(r - 1.6) / D(r - 1.6)`` for ``r <= 5`` and ``E(r - 5) / F(r -
5)`` beyond, signed as ``q``; null outside ``(0, 1)``.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from statistics import NormalDist
from typing import Any

from framemetrics.core.namespace import Namespace

__all__ = ["inverse_normal_cdf", "normal_cdf", "normal_quantile"]

Expr = Any

_A = (2.2352520354606839287, 161.02823106855587881, 1067.6894854603709582, 18154.981253343561249,
      0.065682337918207449113)  # fmt: skip
_B = (47.20258190468824187, 976.09855173777669322, 10260.932208618978205, 45507.789335026729956)
_C = (0.39894151208813466764, 8.8831497943883759412, 93.506656132177855979, 597.27027639480026226,
      2494.5375852903726711, 6848.1904505362823326, 11602.651437647350124, 9842.7148383839780218,
      1.0765576773720192317e-8)  # fmt: skip
_D = (22.266688044328115691, 235.38790178262499861, 1519.377599407554805, 6485.558298266760755,
      18615.571640885098091, 34900.952721145977266, 38912.003286093271411, 19685.429676859990727)  # fmt: skip
_P = (0.21589853405795699, 0.1274011611602473639, 0.022235277870649807, 0.001421619193227893466,
      2.9112874951168792e-5, 0.02307344176494017303)  # fmt: skip
_Q = (1.28426009614491121, 0.468238212480865118, 0.0659881378689285515, 0.00378239633202758244,
      7.29751555083966205e-5)  # fmt: skip
# AS 241's coefficients, constant term first (numerator, denominator; the denominators' constant is 1).
_PPND_CENTRAL = (
    (3.3871328727963666080, 133.14166789178437745, 1971.5909503065514427, 13731.693765509461125,
     45921.953931549871457, 67265.770927008700853, 33430.575583588128105, 2509.0809287301226727),
    (1.0, 42.313330701600911252, 687.1870074920579083, 5394.1960214247511077, 21213.794301586595867,
     39307.89580009271061, 28729.085735721942674, 5226.495278852854561),
)  # fmt: skip
_PPND_INTERMEDIATE = (
    (1.42343711074968357734, 4.6303378461565452959, 5.7694972214606914055, 3.64784832476320460504,
     1.27045825245236838258, 0.24178072517745061177, 0.0227238449892691845833, 7.7454501427834140764e-4),
    (1.0, 2.05319162663775882187, 1.6763848301838038494, 0.68976733498510000455, 0.14810397642748007459,
     0.0151986665636164571966, 5.475938084995344946e-4, 1.05075007164441684324e-9),
)  # fmt: skip
_PPND_TAIL = (
    (6.6579046435011037772, 5.4637849111641143699, 1.7848265399172913358, 0.29656057182850489123,
     0.026532189526576123093, 0.0012426609473880784386, 2.71155556874348757815e-5, 2.01033439929228813265e-7),
    (1.0, 0.59983220655588793769, 0.13692988092273580531, 0.0148753612908506148525, 7.868691311456132591e-4,
     1.8463183175100546818e-5, 1.4215117583164458887e-7, 2.04426310338993978564e-15),
)  # fmt: skip
_INNER, _MIDDLE, _OUTER = 0.66291, math.sqrt(32.0), 37.5193
_SIXTEEN = 16.0
_EPSILON = 2.0**-53  # below it x^2 is taken as 0, as Cody's ANORM does


def _ratio(ns: Namespace, t: Expr, numerator: Sequence[float], denominator: Sequence[float], n: int) -> Expr:
    """Cody's ``(xnum + num[n]) / (xden + den[n])`` after ``n`` Horner steps in ``t``."""
    xnum, xden = ns.lit(numerator[-1]) * t, t
    for i in range(n):
        xnum = (xnum + ns.lit(numerator[i])) * t
        xden = (xden + ns.lit(denominator[i])) * t
    return (xnum + ns.lit(numerator[n])) / (xden + ns.lit(denominator[n]))


def _gauss(ns: Namespace, x: Expr) -> Expr:
    """``exp(-x^2 / 2)`` split at ``s = floor(16 x) / 16`` so that no digit of ``x^2`` is lost."""
    s = ns.floor(x * ns.lit(_SIXTEEN)) / ns.lit(_SIXTEEN)
    return ns.exp(-s * s * ns.lit(0.5)) * ns.exp(-((x - s) * (x + s)) * ns.lit(0.5))


def normal_cdf(ns: Namespace, x: Expr) -> Expr:
    """``Phi(x)``, the standard normal distribution function, to double precision (null where ``x`` is null).

    Examples
    --------
    >>> import polars as pl
    >>> from framemetrics.compilers.polars.namespace import POLARS
    >>> round(pl.select(normal_cdf(POLARS, pl.lit(-1.959963984540054))).item(), 15)
    0.025
    """
    y = ns.abs(x)
    square = ns.when(y > ns.lit(_EPSILON), x * x).otherwise(ns.lit(0.0))  # no underflow (PostgreSQL raises)
    central = ns.lit(0.5) + x * _ratio(ns, square, _A, _B, 3)
    middle = _gauss(ns, y) * _ratio(ns, y, _C, _D, 7)
    r = ns.lit(1.0) / (x * x)
    outer = _gauss(ns, x) * (ns.lit(1.0 / math.sqrt(2.0 * math.pi)) - r * _ratio(ns, r, _P, _Q, 4)) / y
    far = ns.when(y >= ns.lit(_OUTER), ns.lit(0.0)).otherwise(outer)
    tail = ns.when(y > ns.lit(_MIDDLE), far).otherwise(middle)  # a null x reaches the formulas: null
    lower = ns.when(x > ns.lit(0.0), ns.lit(1.0) - tail).otherwise(tail)
    return ns.when(y <= ns.lit(_INNER), central).otherwise(lower)


def _polynomial(ns: Namespace, t: Expr, coefficients: Sequence[float]) -> Expr:
    """``sum c_i t^i`` by Horner's scheme, the highest power first (AS 241's order)."""
    value = ns.lit(coefficients[-1])
    for c in reversed(coefficients[:-1]):
        value = value * t + ns.lit(c)
    return value


def _rational(ns: Namespace, t: Expr, pair: tuple[Sequence[float], Sequence[float]]) -> Expr:
    return _polynomial(ns, t, pair[0]) / _polynomial(ns, t, pair[1])


def inverse_normal_cdf(ns: Namespace, p: Expr) -> Expr:
    """``Phi^-1(p)``, the standard normal quantile of ``p``, to double precision (AS 241); null outside (0, 1).

    Examples
    --------
    >>> import polars as pl
    >>> from framemetrics.compilers.polars.namespace import POLARS
    >>> pl.select(inverse_normal_cdf(POLARS, pl.lit(0.975))).item() == normal_quantile(0.975)
    True
    """
    q = p - ns.lit(0.5)
    central = q * _rational(ns, ns.lit(0.180625) - q * q, _PPND_CENTRAL)
    tail = ns.least(p, ns.lit(1.0) - p)
    r = ns.sqrt(-ns.ln(ns.when(tail > ns.lit(0.0), tail).otherwise(ns.lit(0.5))))  # no log of 0 (PostgreSQL)
    far = ns.when(r <= ns.lit(5.0), _rational(ns, r - ns.lit(1.6), _PPND_INTERMEDIATE)).otherwise(
        _rational(ns, r - ns.lit(5.0), _PPND_TAIL)
    )
    signed = ns.when(q < ns.lit(0.0), -far).otherwise(far)
    inside = (p > ns.lit(0.0)) & (p < ns.lit(1.0))  # null where p is: then no branch is taken
    return ns.when(ns.abs(q) <= ns.lit(0.425), central).when(inside, signed).otherwise(ns.null())


def normal_quantile(p: float) -> float:
    """The standard normal quantile of ``p`` (a constant: the ``z`` of a confidence level), in Python.

    Examples
    --------
    >>> round(normal_quantile(0.975), 9)
    1.959963985
    """
    return NormalDist().inv_cdf(p)
