"""The Beta distribution's quantile to double precision, as stages of one formula for every engine.

:func:`beta_quantile_stages` gives ``x`` with ``I_x(a, b) = p`` (SciPy's
``beta.ppf(p, a, b)``), per row, for the shape columns ``fm_beta_a`` and
``fm_beta_b`` and a constant ``p``: Clopper-Pearson's bounds of ``k``
successes in ``n`` trials are the ``alpha / 2`` quantile of
``Beta(k, n - k + 1)`` and the ``1 - alpha / 2`` quantile of
``Beta(k + 1, n - k)``. Each stage is one projection (Polars
``with_columns``, a SQL ``SELECT``): a column read many times costs
nothing, a sub-expression read twice is written twice, so each stage leaves
its heavy parts as columns for the next.

**Engines.** Only ``+ - * /``, comparisons, ``CASE``, ``EXP``, ``LN``,
``SQRT``, ``ABS``, ``LEAST`` and ``GREATEST`` are used (and
:func:`~framemetrics.core.normal.normal_cdf`). PostgreSQL raises where an
``EXP``, a product or a quotient leaves the double range (overflow, or an
underflow to 0), on the logarithm of 0 and on a division by 0: every
exponent is clamped to [-700, 700] (those of the normal distribution function
are bounded by its branches), every argument of ``LN`` to at least
1e-300, of ``SQRT`` to at least 0; ``x`` and ``1 - x`` never go below 3e-278,
squares of small numbers are floored (1e-200 in the continued fraction,
1e-300 in series, where the difference is far below the rounding) and no
denominator can be 0. A SQL compiler must keep the stages apart:
PostgreSQL pulls a subquery's expressions into the outer query (every
reference to a column becomes a copy of its expression), which multiplies
the trees beyond memory; ``OFFSET 0`` in each stage's subquery (or a
``MATERIALIZED`` CTE) prevents it. Shapes are clamped to [1e-8, 1e15]; a
null, non-positive or non-finite shape gives null.

**Orientation.** For ``p > 1/2`` the stages solve ``I_y(b, a) = 1 - p``
and return ``y = 1 - x``, so that the tail ``p`` is at most 1/2 and never
a difference from 1. The unknown is ``w = ln(x / y)``:
``x = 1 / (1 + e^-w)`` and ``y = 1 / (1 + e^w)`` both keep their relative
precision.

**Iteration.** In ``w`` the density ``g = dI/dw = x^a y^b / B(a, b)`` is
log-concave (``d ln g / dw = lambda = a y - b x``, ``d lambda / dw =
-(a + b) x y < 0``), hence so is ``F(w) = I_x(a, b)`` (Prekopa): ``ln F`` is
concave, below its tangents ``a w - ln(a B)``, and ``ln(1 - F)`` below
``-b w - ln(b B)``. Each step inverts the Taylor series of ``h = ln F`` to
fourth order: with ``rho = h' = g / F``, ``q = lambda - rho``,
``delta = (ln p - h) / rho``, ``dw = delta (1 + delta (-q / 2 + delta ((q (q
+ lambda) - lambda') / 6 + delta (q (7 lambda' - 6 q lambda - rho^2) + rho
lambda' - lambda'') / 24)))``, the correction to Newton's ``delta`` clamped to
+-50 % (far from the root the step is Newton's, monotone on a concave ``h``).
Each step raises the error to the fifth power: the start below is within
about 0.5 of the root in ``w``, and one step leaves at most 5e-5 (3,000
draws over the domain), so two steps leave the rounding of ``F``.

**Start**, clamped to the tangents' bracket ``[(ln p + ln(a B)) / a,
-(ln(b B) + ln(1 - p)) / b]``: for both shapes below 1, the left tangent's
root if it is at most 0, else the right one's; for ``a >= 4 b``, ``b < 3``,
``a >= 1``, ``I_x(a, b) ~ Q(b, nu ln(1 / x))`` (``nu = a + (b - 1) / 2``) with
DiDonato and Morris's (1986) approximations of the gamma quantile (their
eqs. 21-23, 31-33); for ``b >= 4 a``, ``a < 1``, ``b >= 1``, likewise
``P(a, nu ln(1 / y))`` (eq. 21); otherwise the Cornish-Fisher expansion of
the log-F variable ``w = ln G_a - ln G_b`` from its cumulants
``psi(a) - psi(b)``, ``psi'(a) + psi'(b)``, ``psi''(a) - psi''(b)``,
``psi'''(a) + psi'''(b)``.

**Incomplete beta** ``F`` at the iterate (after TOMS 708, Didonato and
Morris 1992, the algorithm of R's ``pbeta``), in three regimes:

* ``min(a, b) >= 50``: BASYM, Temme's uniform asymptotic expansion, to order
  18 in ``w0 = (min(a, b) (1 + h))^-1/2``, ``h = min / max``:
  ``F = e^-bcorr (Phi(-z) (1 + w0^2 f_2) + phi(z) (s w0 G(T) + z w0^2 H(T)))``,
  ``z = sqrt(2 f)``, ``f = a rlog1(-lambda / a) + b rlog1(lambda / b)``
  (``rlog1(t) = t - ln(1 + t)``), ``T = (w0 z)^2``, ``s = +-1``, ``G, H``
  polynomials whose coefficients come from BASYM's ``d_n``, themselves
  polynomials in ``h`` of degree ``n + 1`` derived from BASYM's recursion in
  exact rational arithmetic (in floating point the recursion loses up to five
  digits at order 16). Its error moves ``x`` by less than 1e-15 of
  ``x (1 - x)`` from 50 (2e-14 at order 16).
* ``b < 1`` and ``y <= 0.3`` where the fraction below would be on ``1 - F``:
  BPSER, ``F = 1 - I_y(b, a) = -expm1(L) - e^L b S``, ``L = b ln y - ln(b B(b,
  a))``, ``S = sum_{j>=1} (1 - a)_j y^j / (j! (b + j))`` (40 terms: ``a y <=
  4.5`` there). Every term of ``L`` is of order ``b``, so a small ``F`` keeps
  its digits where ``1 - I_y`` would lose them.
* otherwise BFRAC, TOMS 708's continued fraction (its even contraction,
  written with ``lambda`` so that ``x`` near 1 loses nothing), evaluated
  backward with 30 steps, on ``I_x(a, b)`` where ``lambda > (x - y)`` (``3.5 (x -
  y)`` when ``x > y``), else on ``1 - I_y(b, a)``: at most 26 steps are needed
  over the domain for 1e-16.

The factor ``x^a y^b / B(a, b)`` is ``exp(a ln x + b ln y - ln B)`` for
``min(a, b) < 8``, with ``ln(1 - x)`` a series in ``atanh`` where ``x`` is
small and ``ln B`` from Stirling's series and TOMS 708's ALGDIV; from 8, BRCOMP's
``sqrt(a b / (2 pi (a + b))) e^(-f - bcorr(a, b))``.

**Accuracy.** The error of ``x`` is that of ``F`` times ``F / (x y f(x))``.
Against an independent quadrature in 40 digits (mpmath), over a grid of
``a, b`` in [0.01, 1e12] and ``p`` in [1e-6, 1 - 1e-6] and random draws, the
error is below ``1e-12 x (1 - x)`` or 1e-13 (often below 1e-14); where ``x``
underflows (below about 1e-297) the result is a number below 1e-297.

References
----------
A. R. Didonato and A. H. Morris, Jr., Algorithm 708: significant digit
computation of the incomplete beta function ratios, ACM TOMS 18 (1992) 360-373.
A. R. Didonato and A. H. Morris, Jr., Computation of the incomplete gamma
function ratios and their inverse, ACM TOMS 12 (1986) 377-393.
N. M. Temme, Asymptotic inversion of the incomplete beta function, J. Comput.
Appl. Math. 41 (1992) 145-157.

Examples
--------
>>> import polars as pl
>>> from framemetrics.compilers.polars.namespace import POLARS
>>> frame = pl.DataFrame({"fm_beta_a": [3.0], "fm_beta_b": [8.0]})
>>> for stage in beta_quantile_stages(0.025):
...     frame = frame.with_columns(**stage(POLARS, {n: pl.col(n) for n in frame.columns}))
>>> round(frame["fm_beta_q"].item(), 12)  # scipy.stats.beta.ppf(0.025, 3, 8)
0.066739511178
"""

from __future__ import annotations

import math
from collections.abc import Callable, Mapping, Sequence
from fractions import Fraction
from functools import lru_cache, partial
from statistics import NormalDist
from typing import Any

from framemetrics.core.namespace import Namespace
from framemetrics.core.normal import normal_cdf

__all__ = ["BETA_INPUTS", "BETA_QUANTILE", "Stage", "beta_quantile_stages"]

Expr = Any
Stage = Callable[[Namespace, Mapping[str, Expr]], dict[str, Expr]]

BETA_INPUTS = ("fm_beta_a", "fm_beta_b")
"""The columns the first stage reads: the shapes ``a`` and ``b``."""
BETA_QUANTILE = "fm_beta_q"
"""The column the last stage writes: ``x`` with ``I_x(a, b) = p``."""

_TINY = 1e-300  # the least argument of a logarithm
_EXP_LIMIT = 700.0  # every exponent in [-700, 700]
_W_LIMIT = 640.0  # x and y computed from w in [-640, 640]: at least 3e-278
_SHAPES = (1e-8, 1e15)  # shapes clamped to this range
_LARGE = 8.0  # from this min(a, b) the factor x^a y^b / B is BRCOMP's
_ASYMPTOTIC = 50.0  # from this min(a, b) F is BASYM's
_BASYM_ORDER = 18
_CF_STEPS = 30
_ORIENTATION = 3.5  # the continued fraction on I_x where lambda > 3.5 (x - y), x > y
_POWER_TERMS = 40  # BPSER's terms where b < 1 and y <= 0.3 (a y <= 4.5 there)
_POWER_Y = 0.3
_SERIES = 0.1  # |t| below which ln(1 + t), t - ln(1 + t) and e^t - 1 are series
_SERIES_TERMS = 6
_RHO_LIMIT = math.log(1e20)  # d ln F / dw kept in [1e-20, 1e20]
_STEP_LIMIT = 700.0
_LN_SQRT_2PI = 0.5 * math.log(2.0 * math.pi)
_EULER = 0.5772156649015329
# Stirling: ln Gamma(z) = (z - 1/2) ln z - z + ln sqrt(2 pi) + sum c_k / z^(2k+1), c_k = B_2k+2 / ((2k+2)(2k+1)).
_STIRLING = (1 / 12, -1 / 360, 1 / 1260, -1 / 1680, 1 / 1188, -691 / 360360, 1 / 156)
# DiDonato and Morris's eq. 32: s = t - A(t) / B(t), t = sqrt(-2 ln p), the normal quantile to 1e-3.
_QUANTILE_A = (3.31125922108741, 11.6616720288968, 4.28342155967104, 0.213623493715853)
_QUANTILE_B = (1.0, 6.61053765625462, 6.40691597760039, 1.27364489782223, 0.3611708101884203e-1)


def beta_quantile_stages(p: float) -> tuple[Stage, ...]:
    """The stages of ``x = I^-1_p(a, b)``: the Beta(a, b) distribution's ``p`` quantile, per row.

    Each stage is ``stage(ns, columns) -> {name: expression}``: it reads the
    columns of the earlier stages (and :data:`BETA_INPUTS`) by name and
    returns new ``fm_beta_*`` columns; the last returns :data:`BETA_QUANTILE`.
    Nine stages: the shapes, their constants, the start, then two rounds of
    (prepare, evaluate ``ln F``, step).

    Parameters
    ----------
    p : float
        The probability, 0 < p < 1 (a constant: the level of a bound).

    Returns
    -------
    tuple of Stage
        The stages, to apply in order.

    Raises
    ------
    ValueError
        If ``p`` is not strictly between 0 and 1.

    Examples
    --------
    >>> import polars as pl
    >>> from framemetrics.compilers.polars.namespace import POLARS
    >>> frame = pl.DataFrame({"fm_beta_a": [0.5, None], "fm_beta_b": [1e5, 2.0]})
    >>> for stage in beta_quantile_stages(0.975):
    ...     frame = frame.with_columns(**stage(POLARS, {n: pl.col(n) for n in frame.columns}))
    >>> q, null = frame["fm_beta_q"]
    >>> f"{q:.10e}", null  # scipy.stats.beta.ppf(0.975, 0.5, 1e5) = 2.5119178243257737e-05
    ('2.5119178243e-05', None)
    """
    if not 0.0 < p < 1.0:
        raise ValueError(f"p must be strictly between 0 and 1, got {p!r}")
    swap = p > 0.5
    target = 1.0 - p if swap else p
    return (
        partial(_shapes, names=tuple(reversed(BETA_INPUTS)) if swap else BETA_INPUTS),
        _constants,
        partial(_start, p=target),
        partial(_prepare, k=1),
        partial(_evaluate, k=1),
        partial(_step, p=target, k=1),
        partial(_prepare, k=2),
        partial(_evaluate, k=2),
        partial(_last_step, p=target, swap=swap),
    )


# Elementary pieces, safe on every engine.


def _lit(ns: Namespace, value: float) -> Expr:
    return ns.lit(float(value))


def _clamp(ns: Namespace, x: Expr, low: float, high: float) -> Expr:
    return ns.least(ns.greatest(x, _lit(ns, low)), _lit(ns, high))


def _exp(ns: Namespace, x: Expr, low: float = -_EXP_LIMIT) -> Expr:
    """``e^x``, the exponent clamped to [low, 700]."""
    return ns.exp(_clamp(ns, x, low, _EXP_LIMIT))


def _ln(ns: Namespace, x: Expr) -> Expr:
    """``ln x``, the argument at least 1e-300."""
    return ns.ln(ns.greatest(x, _lit(ns, _TINY)))


def _sqrt(ns: Namespace, x: Expr) -> Expr:
    return ns.sqrt(ns.greatest(x, _lit(ns, 0.0)))


def _square(ns: Namespace, x: Expr, floor: float = 1e-150) -> Expr:
    """``x^2``, or ``floor^2`` where ``|x| < floor``: no underflow to 0 (PostgreSQL raises on it)."""
    m = ns.greatest(ns.abs(x), _lit(ns, floor))
    return m * m


def _horner(ns: Namespace, t: Expr, coefficients: Sequence[Any]) -> Expr:
    """``c0 + t (c1 + t (c2 + ...))``, the coefficients numbers or expressions."""

    def term(c: Any) -> Expr:
        return _lit(ns, c) if isinstance(c, (int, float)) else c

    total = term(coefficients[-1])
    for c in reversed(coefficients[:-1]):
        total = term(c) + t * total
    return total


def _atanh_series(ns: Namespace, s: Expr, first: int) -> Expr:
    """``sum_k s^2k / (2k + first)``, k < 6: enough for |s| <= 0.053 (``s = t / (2 + t)``, |t| <= 0.1)."""
    return _horner(ns, _square(ns, s), [1.0 / (2 * k + first) for k in range(_SERIES_TERMS)])


def _log1p(ns: Namespace, u: Expr) -> Expr:
    """``ln(1 + u)``, u > -1, to full relative precision: ``2 atanh(u / (2 + u))`` near 0."""
    s = u / (2 + u)
    return ns.when(ns.abs(u) <= _lit(ns, _SERIES), 2 * s * _atanh_series(ns, s, 1)).otherwise(_ln(ns, 1 + u))


def _rlog1(ns: Namespace, t: Expr, log_1_plus_t: Expr) -> Expr:
    """``t - ln(1 + t)``; ``log_1_plus_t`` is ``ln(1 + t)``, used where |t| > 0.1.

    Near 0, with ``s = t / (2 + t)``: ``s^2 ((2 + t) - 2 s sum_k s^2k / (2k + 3))``.
    """
    s = t / (2 + t)
    series = _square(ns, s) * ((2 + t) - 2 * s * _atanh_series(ns, s, 3))
    return ns.when(ns.abs(t) <= _lit(ns, _SERIES), series).otherwise(t - log_1_plus_t)


def _expm1(ns: Namespace, t: Expr) -> Expr:
    """``e^t - 1`` to full relative precision: its Taylor series where |t| <= 0.1."""
    series = _lit(ns, 1.0)
    for n in range(9, 1, -1):
        series = 1 + t / n * series
    return ns.when(ns.abs(t) <= _lit(ns, _SERIES), t * series).otherwise(_exp(ns, t) - 1)


# Logarithms of gamma and beta functions.


def _stirling_tail(ns: Namespace, z: Expr) -> Expr:
    """``ln Gamma(z) - ((z - 1/2) ln z - z + ln sqrt(2 pi))``, z >= 8 (error below 1e-16)."""
    r = 1 / z
    return r * _horner(ns, r * r, _STIRLING)


def _ln_gamma(ns: Namespace, z: Expr) -> Expr:
    """``ln Gamma(z)`` for z > 0: Stirling at ``z + 8`` less ``ln(z (z + 1) ... (z + 7))``."""
    shifted = z + 8
    product = z
    for i in range(1, 8):
        product = product * (z + i)
    stirling = (shifted - _lit(ns, 0.5)) * _ln(ns, shifted) - shifted + _lit(ns, _LN_SQRT_2PI)
    return stirling + _stirling_tail(ns, shifted) - _ln(ns, product)


def _algdiv(ns: Namespace, a: Expr, b: Expr) -> Expr:
    """``ln(Gamma(b) / Gamma(a + b))`` for b >= 8 (TOMS 708's ALGDIV): every term of order ``a``."""
    tails = _stirling_tail(ns, b) - _stirling_tail(ns, a + b)
    return tails - (a + b - _lit(ns, 0.5)) * _log1p(ns, a / b) - a * (_ln(ns, b) - 1)


def _bcorr(ns: Namespace, a: Expr, b: Expr) -> Expr:
    """``del(a) + del(b) - del(a + b)``, ``del`` Stirling's tail (TOMS 708's BCORR), a, b >= 8."""
    return _stirling_tail(ns, a) + _stirling_tail(ns, b) - _stirling_tail(ns, a + b)


def _ln_beta(ns: Namespace, lo: Expr, hi: Expr) -> Expr:
    """``ln B(lo, hi)``, lo <= hi (TOMS 708's BETALN), to about 1e-15 absolute."""
    large = (
        -_lit(ns, 0.5) * _ln(ns, hi)
        + _lit(ns, _LN_SQRT_2PI)
        + _bcorr(ns, lo, hi)
        + (lo - _lit(ns, 0.5)) * _ln(ns, lo / (lo + hi))
        - hi * _log1p(ns, lo / hi)
    )
    small_hi = hi < _lit(ns, _LARGE)
    shifted = ns.when(small_hi, hi + 8).otherwise(hi)
    ratio = 1 + lo / hi
    for i in range(1, 8):
        ratio = ratio * (1 + lo / (hi + i))
    shift = ns.when(small_hi, _ln(ns, ratio)).otherwise(_lit(ns, 0.0))
    small = _ln_gamma(ns, lo) + _algdiv(ns, lo, shifted) + shift
    return ns.when(lo >= _lit(ns, _LARGE), large).otherwise(small)


def _ln_b_beta(ns: Namespace, a: Expr, b: Expr, shift: Expr) -> Expr:
    """``ln(b B(b, a)) = ln Gamma(1 + b) + ln Gamma(a) - ln Gamma(a + b)``, to full relative precision as b -> 0.

    ``ln Gamma(1 + b) = -ALGDIV(b, 9) - sum_{i<8} ln(1 + b / (1 + i))`` and ``ln Gamma(a) - ln Gamma(a + b) =
    ALGDIV(b, a + 8) + sum_{i<8} ln(1 + b / (a + i))``; the two sums are ``ln(1 + shift)`` (:func:`_shapes`).
    """
    return _algdiv(ns, b, a + 8) - _algdiv(ns, b, _lit(ns, 9.0)) + _log1p(ns, shift)


def _polygammas(ns: Namespace, z: Expr) -> list[Expr]:
    """``psi(z), psi'(z), psi''(z), psi'''(z)`` to about 1e-9: asymptotic series at ``z + 6``, then recurrences."""
    big = z + 6
    r = 1 / big
    r2 = r * r
    values = [
        _ln(ns, big) - r * (_lit(ns, 0.5) + r * _horner(ns, r2, [1 / 12, -1 / 120, 1 / 252])),
        r * _horner(ns, r, [1.0, 0.5, 1 / 6, 0.0, -1 / 30, 0.0, 1 / 42]),
        -r2 * _horner(ns, r, [1.0, 1.0, 0.5, 0.0, -1 / 6, 0.0, 1 / 6]),
        r2 * r * _horner(ns, r, [2.0, 3.0, 2.0, 0.0, -1.0, 0.0, 4 / 3]),
    ]
    for i in range(6):
        u = 1 / (z + i)
        values = [values[0] - u, values[1] + u * u, values[2] - 2 * u * u * u, values[3] + 6 * u * u * u * u]
    return values


# BASYM's coefficients, polynomials in h = min(a, b) / max(a, b).


def _poly_add(p: list[Fraction], q: list[Fraction], c: Fraction = Fraction(1)) -> list[Fraction]:
    out = [Fraction(0)] * max(len(p), len(q))
    for i, v in enumerate(p):
        out[i] += v
    for i, v in enumerate(q):
        out[i] += c * v
    return out


def _poly_mul(p: list[Fraction], q: list[Fraction]) -> list[Fraction]:
    out = [Fraction(0)] * (len(p) + len(q) - 1)
    for i, u in enumerate(p):
        for j, v in enumerate(q):
            out[i + j] += u * v
    return out


def _scaled(p: list[Fraction], c: Fraction) -> list[Fraction]:
    return [v * c for v in p]


@lru_cache(maxsize=1)
def _basym_coefficients() -> tuple[tuple[float, ...], ...]:
    """BASYM's ``d_0 .. d_18`` for ``a < b``, as coefficients of polynomials in ``h`` (``d_n`` has degree n + 1).

    TOMS 708's recursion with ``r0 = 1 / (1 + h)``, ``r1 = 1 - h``: its
    ``a_n`` are polynomials in ``h`` (``r0 (1 + h^(n+1)) = 1 - h + ... + h^n``
    for even n), and ``b, c, d`` follow exactly. For ``a > b``, the ``d_n`` of
    even ``n`` change sign (``r1 = h - 1``).
    """
    order, r1 = _BASYM_ORDER, [Fraction(1), Fraction(-1)]
    a0: list[list[Fraction]] = [_scaled(r1, Fraction(2, 3))] + [[]] * order
    c: list[list[Fraction]] = [_scaled(a0[0], Fraction(-1, 2))] + [[]] * order
    d: list[list[Fraction]] = [_scaled(c[0], Fraction(-1))] + [[]] * order
    s = [Fraction(1)]
    for n in range(2, order + 1, 2):
        a0[n - 1] = [Fraction(2 * (-1) ** k, n + 2) for k in range(n + 1)]
        s = _poly_add(s, [Fraction(0)] * n + [Fraction(1)])
        a0[n] = _scaled(_poly_mul(r1, s), Fraction(2, n + 3))
        for i in (n, n + 1):
            c[i - 1] = _scaled(_basym_b(a0, i), Fraction(1, i + 1))
            total = c[i - 1]
            for j in range(1, i):
                total = _poly_add(total, _poly_mul(d[i - j - 1], c[j - 1]))
            d[i - 1] = _scaled(total, Fraction(-1))
    return tuple(tuple(float(v) for v in poly) for poly in d)


def _basym_b(a0: list[list[Fraction]], i: int) -> list[Fraction]:
    """BASYM's ``b_(i-1)`` for ``r = -(i + 1) / 2`` from ``a_0 .. a_(i-1)``."""
    r = Fraction(-(i + 1), 2)
    b0 = [_scaled(a0[0], r)]
    for m in range(2, i + 1):
        total: list[Fraction] = [Fraction(0)]
        for j in range(1, m):
            total = _poly_add(total, _poly_mul(a0[j - 1], b0[m - j - 1]), j * r - (m - j))
        b0.append(_poly_add(_scaled(a0[m - 1], r), _scaled(total, Fraction(1, m))))
    return b0[i - 1]


# Stages 1 and 2: what depends on the shapes only.


def _shapes(ns: Namespace, s: Mapping[str, Expr], names: tuple[str, str]) -> dict[str, Expr]:
    """The shapes ``a, b`` of the oriented problem, clamped; ``lo = min``, ``hi = max``, ``h = lo / hi``, and
    ``sh = prod_{i<8} (1 + r_i) - 1`` with ``r_i = b (1 - a) / ((a + i) (1 + i + b))``: ``ln(1 + r_i) = ln(1 + b /
    (a + i)) - ln(1 + b / (1 + i))``, all of one sign, so ``P <- r + P (1 + r)`` keeps every digit."""
    a, b = (_clamp(ns, s[n], *_SHAPES) for n in names)
    lo, hi = ns.least(a, b), ns.greatest(a, b)
    shift = _lit(ns, 0.0)
    for i in range(8):
        r = b * (1 - a) / ((a + i) * (1 + i + b))
        shift = r + shift * (1 + r)
    return {"fm_beta_sa": a, "fm_beta_sb": b, "fm_beta_lo": lo, "fm_beta_hi": hi, "fm_beta_h": lo / hi,
            "fm_beta_sh": shift}  # fmt: skip


def _constants(ns: Namespace, s: Mapping[str, Expr]) -> dict[str, Expr]:
    """``ln B``, ``ln(b B(b, a))``, BRCOMP's constant, the log-F cumulants, BASYM's ``w0`` and ``d_n``."""
    a, b, lo, hi, h = (s[f"fm_beta_{n}"] for n in ("sa", "sb", "lo", "hi", "h"))
    bcorr = _bcorr(ns, a, b)
    psi_a, psi_b = _polygammas(ns, a), _polygammas(ns, b)
    out = {
        "fm_beta_lnb": _ln_beta(ns, lo, hi),
        "fm_beta_lbb": _ln_b_beta(ns, a, b, s["fm_beta_sh"]),
        "fm_beta_bc": bcorr,
        "fm_beta_lnc": _lit(ns, 0.5) * _ln(ns, a * b / (a + b)) - _lit(ns, _LN_SQRT_2PI) - bcorr,
        "fm_beta_rab": a / b,
        "fm_beta_rba": b / a,
        "fm_beta_w0": 1 / _sqrt(ns, lo * (1 + h)),
        "fm_beta_eta": 1 / (lo * (1 + h)),
        "fm_beta_lga": _ln_gamma(ns, a),
        "fm_beta_lgb": _ln_gamma(ns, b),
    }
    for k in range(4):  # psi(a) - psi(b), psi'(a) + psi'(b), psi''(a) - psi''(b), psi'''(a) + psi'''(b)
        out[f"fm_beta_k{k + 1}"] = psi_a[k] + psi_b[k] if k % 2 else psi_a[k] - psi_b[k]
    for n, poly in enumerate(_basym_coefficients()):
        out[f"fm_beta_d{n}"] = _horner(ns, h, poly)
    return out


# Stage 3: the start.


def _normal_deviate(p: float) -> float:
    """DiDonato and Morris's eq. 32: the standard normal upper ``p`` quantile to about 1e-3, p < 1/2."""
    t = math.sqrt(-2.0 * math.log(p))
    numerator = sum(c * t**k for k, c in enumerate(_QUANTILE_A))
    return t - numerator / sum(c * t**k for k, c in enumerate(_QUANTILE_B))


def _wilson_hilferty(ns: Namespace, s: Expr, deviate: float) -> Expr:
    """DiDonato and Morris's eq. 31: the Gamma(s) quantile at the normal ``deviate``, s >= 1."""
    d, root = deviate, _sqrt(ns, s)
    return (
        s
        + _lit(ns, d) * root
        + _lit(ns, (d * d - 1) / 3)
        + _lit(ns, (d**3 - 7 * d) / 36) / root
        - _lit(ns, (3 * d**4 + 7 * d * d - 16) / 810) / s
        + _lit(ns, (9 * d**5 + 256 * d**3 - 433 * d) / 38880) / (s * root)
    )


def _upper_gamma_quantile(ns: Namespace, s: Expr, ln_gamma: Expr, p: float) -> Expr:
    """``u`` with ``Q(s, u) = p`` to a few digits, s < 3 (DiDonato and Morris's eqs. 21-23, 31, 33)."""
    scaled = _lit(ns, p) * _exp(ns, ln_gamma)  # p Gamma(s)
    u0 = _exp(ns, (_lit(ns, math.log1p(-p)) + ln_gamma + _ln(ns, s)) / s)
    power = u0 / ns.greatest(1 - u0 / (s + 1), _lit(ns, 0.01))  # eq. 21
    t = _exp(ns, -_lit(ns, _EULER) - scaled)
    small = t * _exp(ns, t * _exp(ns, t))  # eq. 22
    y = -_ln(ns, scaled)
    v = y - (1 - s) * _ln(ns, y)
    tail = y - (1 - s) * _ln(ns, v) - _ln(ns, 1 + (1 - s) / (1 + ns.greatest(v, _lit(ns, 0.0))))  # eq. 23
    w = _wilson_hilferty(ns, s, _normal_deviate(p))
    lb = _lit(ns, math.log(p)) + ln_gamma
    u1 = -lb + (s - 1) * _ln(ns, w) - _ln(ns, 1 + (1 - s) / (1 + ns.greatest(w, _lit(ns, 0.0))))
    u2 = -lb + (s - 1) * _ln(ns, u1) - _ln(ns, 1 + (1 - s) / (1 + ns.greatest(u1, _lit(ns, 0.0))))  # eq. 33
    return (
        ns.when(s >= 1, ns.when(w < 3 * s, w).otherwise(u2))
        .when(ns.any(scaled > _lit(ns, 0.6), ns.all(scaled >= _lit(ns, 0.45), s >= _lit(ns, 0.3))), power)
        .when(ns.all(s < _lit(ns, 0.3), scaled >= _lit(ns, 0.35)), small)
        .otherwise(tail)
    )


def _lower_gamma_log_quantile(ns: Namespace, s: Expr, ln_gamma: Expr, p: float) -> Expr:
    """``ln u`` with ``P(s, u) = p`` to a few digits, s < 1, p <= 1/2 (DiDonato and Morris's eq. 21)."""
    v = _lit(ns, math.log(p)) + ln_gamma + _ln(ns, s)  # ln(p Gamma(s + 1))
    return v / s - _ln(ns, 1 - _exp(ns, v / s) / (s + 1))


def _cornish_fisher(ns: Namespace, s: Mapping[str, Expr], p: float) -> Expr:
    """The ``p`` quantile of ``w = ln G_a - ln G_b`` from its first four cumulants."""
    z = NormalDist().inv_cdf(p)
    k1, k2, k3, k4 = (s[f"fm_beta_k{k}"] for k in range(1, 5))
    sigma = _sqrt(ns, k2)
    return (
        k1
        + _lit(ns, z) * sigma
        + _lit(ns, (z * z - 1) / 6) * k3 / k2
        + _lit(ns, (z**3 - 3 * z) / 24) * k4 / (k2 * sigma)
        - _lit(ns, (2 * z**3 - 5 * z) / 36) * k3 * k3 / (k2 * k2 * sigma)
    )


def _logit_point(ns: Namespace, w: Expr, k: int) -> dict[str, Expr]:
    """The iterate ``k``: ``w`` and ``x = 1 / (1 + e^-w)``, ``y = 1 / (1 + e^w)``, w clamped to +-640 there."""
    bounded = _clamp(ns, w, -_W_LIMIT, _W_LIMIT)
    return {f"fm_beta_w{k}": w, f"fm_beta_x{k}": 1 / (1 + ns.exp(-bounded)), f"fm_beta_y{k}": 1 / (1 + ns.exp(bounded))}


def _start(ns: Namespace, s: Mapping[str, Expr], p: float) -> dict[str, Expr]:
    """The starting ``w``, clamped to the tangents' bracket, and BASYM's regrouped coefficients.

    Where ``I_x(a, b) ~ Q(b, t nu)``, ``t = ln(1 / x)``: ``w = -t - ln(1 - e^-t)``; where ``I_x(a, b) ~ P(a, t
    nu)``, ``t = ln(1 / y)``: ``w = ln(e^t - 1) ~ ln t + t / 2 + t^2 / 24`` (``t < 1.5`` there).
    """
    a, b, ln_beta = s["fm_beta_sa"], s["fm_beta_sb"], s["fm_beta_lnb"]
    left = (_lit(ns, math.log(p)) + _ln(ns, a) + ln_beta) / a
    right = -(_ln(ns, b) + ln_beta + _lit(ns, math.log1p(-p))) / b
    t = _upper_gamma_quantile(ns, b, s["fm_beta_lgb"], p) / ns.greatest(a + (b - 1) / 2, _lit(ns, 0.5))
    from_upper = -t - _ln(ns, 1 - _exp(ns, -t))
    ln_u, nu = _lower_gamma_log_quantile(ns, a, s["fm_beta_lga"], p), ns.greatest(b + (a - 1) / 2, _lit(ns, 0.5))
    t = _exp(ns, ln_u, -600.0) / nu
    from_lower = ln_u - _ln(ns, nu) + t * (_lit(ns, 0.5) + t / 24)
    guess = (
        ns.when(ns.all(a < 1, b < 1), ns.when(left <= 0, left).otherwise(right))
        .when(ns.all(a >= 4 * b, b < 3, a >= 1), from_upper)
        .when(ns.all(b >= 4 * a, a < 1, b >= 1), from_lower)
        .otherwise(_cornish_fisher(ns, s, p))
    )
    w = _clamp(ns, ns.least(ns.greatest(guess, left), right), -_W_LIMIT, _W_LIMIT)
    return _logit_point(ns, w, 1) | _basym_sums(ns, s)


def _basym_sums(ns: Namespace, s: Mapping[str, Expr]) -> dict[str, Expr]:
    """BASYM's series regrouped by powers of ``T = (w0 z)^2``: ``g_m`` (even) and ``f_m`` (odd terms).

    ``g_m = d_m + (m + 2) eta g_(m+2)`` and ``f_m = d_(m-1) + (m + 1) eta f_(m+2)``, ``eta = w0^2``.
    """
    eta, order = s["fm_beta_eta"], _BASYM_ORDER
    d = [s[f"fm_beta_d{n}"] for n in range(order + 1)]
    out = {}
    for m in range(0, order + 1, 2):
        g, f = d[order], d[order - 1]
        for n in range(order - 2, m - 1, -2):
            g = d[n] + (n + 2) * eta * g
            f = d[n - 1] + (n + 1) * eta * f
        out[f"fm_beta_g{m}"] = g
        if m:
            out[f"fm_beta_f{m}"] = f
    return out


# The rounds: prepare, evaluate ln F, step.


def _prepare(ns: Namespace, s: Mapping[str, Expr], k: int) -> dict[str, Expr]:
    """At the iterate ``x, y``: ``ln(x^a y^b / B)``, BASYM's ``z`` and sign, the regime, the fraction's arguments.

    ``f = a rlog1(-lambda / a) + b rlog1(lambda / b)`` with ``-lambda / a = x b / a - y`` and ``lambda / b = y a
    / b - x``, exact where ``x`` or ``y`` is tiny; ``ln(1 - x)`` is a series where ``x`` is small.
    """
    a, b, lo = s["fm_beta_sa"], s["fm_beta_sb"], s["fm_beta_lo"]
    x, y = s[f"fm_beta_x{k}"], s[f"fm_beta_y{k}"]
    lam = a * y - b * x

    def f() -> Expr:
        left = _rlog1(ns, x * s["fm_beta_rba"] - y, _ln(ns, x + x * s["fm_beta_rba"]))
        return a * left + b * _rlog1(ns, y * s["fm_beta_rab"] - x, _ln(ns, y + y * s["fm_beta_rab"]))

    ln_x = ns.when(y < _lit(ns, 0.5), _log1p(ns, -y)).otherwise(_ln(ns, x))
    ln_y = ns.when(x < _lit(ns, 0.5), _log1p(ns, -x)).otherwise(_ln(ns, y))
    small = a * ln_x + b * ln_y - s["fm_beta_lnb"]
    direct = lam > (x - y) * ns.when(x > y, _lit(ns, _ORIENTATION)).otherwise(_lit(ns, 1.0))
    up = lam >= 0
    same = ns.any(ns.all(a < b, up), ns.all(a >= b, ns.not_(up)))
    power = ns.all(b < 1, y <= _lit(ns, _POWER_Y), ns.not_(direct))

    def flag(condition: Expr, yes: float = 1.0, no: float = 0.0) -> Expr:
        return ns.when(condition, _lit(ns, yes)).otherwise(_lit(ns, no))

    def oriented(this: Expr, other: Expr) -> Expr:
        return ns.when(direct, this).otherwise(other)

    return {
        f"fm_beta_lp{k}": ns.when(lo >= _lit(ns, _LARGE), s["fm_beta_lnc"] - f()).otherwise(small),
        f"fm_beta_z{k}": _sqrt(ns, 2 * f()),
        f"fm_beta_sg{k}": flag(same, 1.0, -1.0),
        f"fm_beta_kp{k}": flag(up, 0.0, 1.0),
        f"fm_beta_dr{k}": flag(direct),
        f"fm_beta_ps{k}": flag(power),
        f"fm_beta_ca{k}": oriented(a, b),
        f"fm_beta_cb{k}": oriented(b, a),
        f"fm_beta_cx{k}": ns.greatest(oriented(x, y), _lit(ns, 1e-100)),
        f"fm_beta_cs{k}": _square(ns, oriented(x, y), 1e-100),
        f"fm_beta_cy{k}": oriented(y, x),
        f"fm_beta_cc{k}": oriented(lam + 1, 1 - lam),
    }


def _bfrac(ns: Namespace, a: Expr, b: Expr, x: Expr, x2: Expr, y: Expr, c: Expr) -> Expr:
    """TOMS 708's BFRAC continued fraction ``K``, ``I_x(a, b) = (x^a y^b / B(a, b)) / K``, ``c = lambda + 1``.

    ``K = c a / (a + 1) + alpha_1 / (beta_1 + alpha_2 / (beta_2 + ...))``, evaluated backward, with
    ``alpha_n = n (a + n - 1) (a + b + n - 1) (b - n) x2 / (a + 2n - 1)^2`` and
    ``beta_n = n + n (b - n) x / (a + 2n - 1) + (a + n) (c + n (1 + y)) / (a + 2n + 1)``, ``x2 = x^2``: ``x`` is
    at least 1e-100 (:func:`_prepare`; its terms are then far below the rounding of ``K``), the tails at least
    1e-200.
    """

    def alpha(n: int) -> Expr:
        odd = a + (2 * n - 1)
        return n * (a + (n - 1)) * (a + b + (n - 1)) * (b - n) * x2 / (odd * odd)

    def beta(n: int) -> Expr:
        return n + n * (b - n) * x / (a + (2 * n - 1)) + (a + n) * (c + n * (1 + y)) / (a + (2 * n + 1))

    def floored(t: Expr) -> Expr:
        return ns.greatest(t, _lit(ns, 1e-200))

    tail = beta(_CF_STEPS)
    for n in range(_CF_STEPS - 1, 0, -1):
        tail = beta(n) + alpha(n + 1) / floored(tail)
    return floored(c * a / (a + 1) + alpha(1) / floored(tail))


def _basym(ns: Namespace, s: Mapping[str, Expr], k: int) -> Expr:
    """BASYM's ``F`` at ``z``, the orientation's sign applied to its odd terms."""
    z, sign, eta = s[f"fm_beta_z{k}"], s[f"fm_beta_sg{k}"], s["fm_beta_eta"]
    z2 = _square(ns, z, 1e-100)
    t = eta * z2
    even = _horner(ns, t, [s[f"fm_beta_g{m}"] for m in range(0, _BASYM_ORDER + 1, 2)])
    odd = _horner(ns, t, [s[f"fm_beta_f{m}"] for m in range(2, _BASYM_ORDER + 1, 2)])
    density = _exp(ns, -z2 / 2, -600.0) * _lit(ns, 1.0 / math.sqrt(2.0 * math.pi))
    corrections = sign * s["fm_beta_w0"] * even + z * eta * odd
    return _exp(ns, -s["fm_beta_bc"]) * (normal_cdf(ns, -z) * (1 + eta * s["fm_beta_f2"]) + density * corrections)


def _power_series(ns: Namespace, s: Mapping[str, Expr], k: int) -> Expr:
    """BPSER's ``F = 1 - I_y(b, a) = -expm1(L) - e^L b S`` (b < 1, y <= 0.3; ``y`` is the fraction's ``x``).

    ``L = b ln y - ln(b B(b, a))``, ``S = sum_{j>=1} (1 - a)_j y^j / (j! (b + j))`` (``y`` at least 1e-100,
    ``L`` at least -200 in ``e^L``: far below the rounding of ``F``).
    """
    a, b, y = s["fm_beta_sa"], s["fm_beta_sb"], s[f"fm_beta_cx{k}"]  # the fraction's x: y, at least 1e-100
    ln_i = b * _ln(ns, s[f"fm_beta_y{k}"]) - s["fm_beta_lbb"]
    series = _lit(ns, 0.0)
    for j in range(_POWER_TERMS, 0, -1):
        series = (j - a) * y / j * (1 / (b + j) + series)
    return -_expm1(ns, ln_i) - _exp(ns, ln_i, -200.0) * b * series


def _evaluate(ns: Namespace, s: Mapping[str, Expr], k: int) -> dict[str, Expr]:
    """``ln F`` at the iterate: BASYM's from ``min(a, b) = 50``, BPSER's where flagged, else the fraction's.

    The fraction gives ``F = pre / K`` (direct) or ``1 - pre / K`` (``pre`` at least ``e^-300`` there).
    """
    direct, ln_pre, upper = s[f"fm_beta_dr{k}"], s[f"fm_beta_lp{k}"], s[f"fm_beta_kp{k}"]
    fraction = _bfrac(ns, *(s[f"fm_beta_{n}{k}"] for n in ("ca", "cb", "cx", "cs", "cy", "cc")))
    complement = 1 - direct
    by_fraction = direct * ln_pre + _ln(ns, complement + (direct - complement * _exp(ns, ln_pre, -300.0)) / fraction)
    by_basym = _ln(ns, upper + (1 - 2 * upper) * _basym(ns, s, k))
    by_power = _ln(ns, _power_series(ns, s, k))
    ln_f = (
        ns.when(s["fm_beta_lo"] >= _lit(ns, _ASYMPTOTIC), by_basym)
        .when(s[f"fm_beta_ps{k}"] > _lit(ns, 0.5), by_power)
        .otherwise(by_fraction)
    )
    return {f"fm_beta_lf{k}": ln_f}


def _newton_step(ns: Namespace, s: Mapping[str, Expr], p: float, k: int) -> Expr:
    """The step ``dw`` inverting ``ln F(w) = ln p`` to fourth order, its correction to Newton's clamped to 50 %.

    ``rho`` is kept in [1e-20, 1e20], ``delta`` in [-700, 700], ``x y`` at least 1e-100 in ``lambda'``: no
    overflow or underflow, no change where the step matters.
    """
    a, b = s["fm_beta_sa"], s["fm_beta_sb"]
    x, y, ln_f = s[f"fm_beta_x{k}"], s[f"fm_beta_y{k}"], s[f"fm_beta_lf{k}"]
    rho = ns.exp(_clamp(ns, s[f"fm_beta_lp{k}"] - ln_f, -_RHO_LIMIT, _RHO_LIMIT))
    delta = _clamp(ns, (_lit(ns, math.log(p)) - ln_f) / rho, -_STEP_LIMIT, _STEP_LIMIT)
    lam = a * y - b * x
    lam1 = -(a + b) * ns.greatest(x * y, _lit(ns, 1e-100))
    q = lam - rho
    c3 = (q * (q + lam) - lam1) / 6
    c4 = (q * (7 * lam1 - 6 * q * lam - rho * rho) + rho * lam1 - lam1 * (y - x)) / 24
    correction = delta * (-q / 2 + delta * (c3 + delta * c4))
    return delta * (1 + _clamp(ns, correction, -0.5, 0.5))


def _step(ns: Namespace, s: Mapping[str, Expr], p: float, k: int) -> dict[str, Expr]:
    """The next iterate: ``w + dw`` and its ``x, y``."""
    return _logit_point(ns, s[f"fm_beta_w{k}"] + _newton_step(ns, s, p, k), k + 1)


def _last_step(ns: Namespace, s: Mapping[str, Expr], p: float, swap: bool) -> dict[str, Expr]:
    """``fm_beta_q = 1 / (1 + e^-w)`` after the last step (``1 / (1 + e^w)``, ``y``, for p > 1/2); null for invalid
    shapes."""
    w = s["fm_beta_w2"] + _newton_step(ns, s, p, 2)
    q = 1 / (1 + _exp(ns, w if swap else -w))
    a, b = (s[n] for n in BETA_INPUTS)
    valid = ns.all(a > 0, b > 0, a <= _lit(ns, 1e300), b <= _lit(ns, 1e300))
    return {BETA_QUANTILE: ns.when(valid, q).otherwise(ns.null())}
