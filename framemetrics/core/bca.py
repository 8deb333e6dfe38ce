"""BCa intervals of the Poisson bootstrap (Efron 1987), where the jackknife is exact: written once for every engine.

The bias-corrected and accelerated interval moves the percentile interval's
levels by the replicates' bias and the statistic's skewness (Efron and
Tibshirani, *An Introduction to the Bootstrap*, 1993, 14.3; SciPy's
``scipy.stats.bootstrap(method="BCa")``):

* ``z0 = Phi^-1((#{theta*_b < theta} + #{theta*_b <= theta}) / 2B)``,
  ``theta`` the estimate on all rows, ``theta*_b`` the ``B`` replicates
  where the metric is defined, a tie counting half (:func:`replicates_below`,
  :func:`bias_correction`). A replicate within 1e-12 (relative, :data:`TIE`)
  of the estimate is a tie: replicates equal to it in exact arithmetic,
  frequent on discrete data, differ from it by a rounding that depends on
  the engine's order of summation (SciPy compares exactly);
* ``a = sum d_i^3 / (6 (sum d_i^2)^(3/2))``, ``d_i = mean(theta_(.)) -
  theta_(i)`` over the jackknife values ``theta_(i)``, the metric without row
  ``i`` (:func:`acceleration`). Rows are the units, as in the bootstrap (a
  row's weight ``w`` becomes ``w k``): row ``i`` is left out whole;
* the bounds are the replicates' percentiles (NumPy's linear interpolation)
  at ``alpha_j = Phi(z0 + (z0 + z_j) / (1 - a (z0 + z_j)))``, ``z_j`` the
  normal quantiles of ``(1 -+ level) / 2`` (:func:`adjusted_deviates`,
  :func:`adjusted_level`). Each step reads the previous one's columns: the
  normal functions read their argument many times.

**Exact jackknife.** Where every statistic of a metric is one sum over rows
(``S = sum v_i``: the confusion cells, log loss, Brier, the regression
means; :func:`jackknifable`), ``theta_(i)`` is the formula over ``S - v_i``;
for a centred sum ``sum w (v - m)^2`` (R², explained variance), written as
the replicates write it from the sums ``S0 = sum w``, ``S1 = sum w d``,
``S2 = sum w d^2`` of ``d = v - m`` (``m`` the first pass's mean), it is
``S2' - S1'^2 / S0'`` over the sums less the row's terms: the sum about the
mean of the other rows, exactly. One pass over the rows with the group's
sums beside them (:func:`jackknife_statistics`). The others (the curve
metrics, the quantiles, the Tweedie D², a maximum) have no such form here
and refuse BCa.

**Null** where ``z0`` is infinite (no replicate, or every one, below the
estimate), where a ``theta_(i)`` is undefined or all are equal (``a`` is
0/0, as SciPy's NaN), and where ``1 - a (z0 + z_j) <= 0``.

Examples
--------
>>> [jackknifable(s) for s in ("tp", "sum_log_loss", "ss_total", "ap_sum", "max_abs_error")]
[True, True, True, False, False]
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from framemetrics.core.namespace import Namespace
from framemetrics.core.normal import inverse_normal_cdf, normal_cdf, normal_quantile
from framemetrics.core.resampling import CENTRED, about_own_mean, row_terms
from framemetrics.core.statistics import STATISTICS, Rows

__all__ = [
    "TIE",
    "acceleration",
    "adjusted_deviates",
    "adjusted_level",
    "bias_correction",
    "jackknifable",
    "jackknife_statistics",
    "jackknife_sums",
    "jackknife_terms",
    "replicates_below",
    "under_estimate",
]

Expr = Any
# A replicate this close to the estimate (relative) is a tie: replicates equal to it in exact arithmetic (frequent
# on discrete data) differ from it by a rounding that depends on each engine's order of summation.
TIE = 1e-12


class _Symbol:
    """Any expression, built without an engine: what :func:`jackknifable` builds a statistic with."""

    def _any(self, *_: Any) -> _Symbol:
        return self

    def __getattr__(self, name: str) -> Any:  # a case's when and otherwise
        return self._any

    __add__ = __radd__ = __sub__ = __rsub__ = __mul__ = __rmul__ = __truediv__ = __rtruediv__ = _any
    __pow__ = __rpow__ = __neg__ = __lt__ = __le__ = __gt__ = __ge__ = __and__ = __or__ = __invert__ = _any


class _Symbolic:
    """A namespace whose every operation gives a :class:`_Symbol`."""

    def __getattr__(self, name: str) -> Any:
        return lambda *_, **__: _Symbol()


def jackknifable(statistic: str) -> bool:
    """Whether leaving a row out of ``statistic`` is exact from sums: one sum over rows, or a centred sum.

    Examples
    --------
    >>> jackknifable("sum_sq_error"), jackknifable("ss_error_deviation"), jackknifable("auc_sum")
    (True, True, False)
    """
    if statistic in CENTRED:
        return True
    definition = STATISTICS[statistic]
    if definition.curve or definition.needs:
        return False
    symbolic: Any = _Symbolic()
    return statistic in row_terms(symbolic, [statistic], Rows.named(symbolic))


def jackknife_terms(statistics: Sequence[str]) -> list[str]:
    """The per-row terms the ``statistics`` are summed from: a sum's own (its name), a centred sum's ``<s>_1``
    and ``<s>_2`` (``w d`` and ``w d^2``, :func:`~framemetrics.core.resampling.centred_terms`).

    Examples
    --------
    >>> jackknife_terms(["tp", "ss_total"])
    ['tp', 'ss_total_1', 'ss_total_2']
    """
    return [t for s in statistics for t in ((f"{s}_1", f"{s}_2") if s in CENTRED else (s,))]


def jackknife_statistics(
    ns: Namespace,
    statistics: Sequence[str],
    total: Mapping[str, Expr],
    weight_total: Expr,
    term: Mapping[str, Expr] | None = None,
    weight: Expr | None = None,
) -> dict[str, Expr]:
    """The ``statistics`` of the group from its ``total`` of each term (:func:`jackknife_terms`) and of the
    weights; without the row whose ``term`` and ``weight`` are given, its terms subtracted.

    Examples
    --------
    >>> from framemetrics.compilers.sql import SQL
    >>> total = {t: SQL.col(f"t_{t}") for t in jackknife_terms(["tp", "ss_total"])}
    >>> term = {t: SQL.col(f"v_{t}") for t in total}
    >>> left_out = jackknife_statistics(SQL, ["tp", "ss_total"], total, SQL.col("w_total"), term, SQL.col("w"))
    >>> left_out["tp"].sql(), left_out["ss_total"].sql().startswith("CASE WHEN (w_total - w) > 0")
    ('t_tp - v_tp', True)
    """

    def summed(name: str) -> Expr:
        return total[name] if term is None else total[name] - term[name]

    out = {}
    for s in statistics:
        if s in CENTRED:
            weights = weight_total if weight is None else weight_total - weight
            out[s] = about_own_mean(ns, weights, summed(f"{s}_1"), summed(f"{s}_2"))
        else:
            out[s] = summed(s)
    return out


def jackknife_sums(ns: Namespace, deviation: Expr) -> dict[str, Expr]:
    """The aggregates per group that :func:`acceleration` reads, of each row's ``deviation`` ``e_i = theta_(i) -
    theta``: the rows ``n``, the power sums ``s1, s2, s3`` and the rows whose value is ``undefined``.

    Examples
    --------
    >>> import polars as pl
    >>> from framemetrics.compilers.polars.namespace import POLARS
    >>> sums = jackknife_sums(POLARS, pl.col("e"))
    >>> [round(v, 12) for v in pl.DataFrame({"e": [0.1, -0.2, None]}).select(**sums).row(0)]
    [3.0, -0.1, 0.05, -0.007, 1.0]
    """
    return {
        "n": ns.to_float(ns.count_rows()),
        "s1": ns.sum(deviation),
        "s2": ns.sum(deviation * deviation),
        "s3": ns.sum(deviation * deviation * deviation),
        "undefined": ns.sum(ns.indicator(ns.is_null(deviation))),
    }


def acceleration(ns: Namespace, sums: Mapping[str, Expr]) -> Expr:
    """``a`` from the columns of :func:`jackknife_sums`: the power sums ``s_k = sum e_i^k`` of ``e_i = theta_(i) -
    theta`` over the group's ``n`` rows.

    With ``m = s1 / n``: ``sum d^2 = s2 - n m^2`` and ``sum d^3 = -(s3 - 3 m s2
    + 2 n m^3)``. The ``e_i`` are of the order of ``1 / n`` and their mean of
    ``1 / n^2``, so the centred sums lose no digit. Null where any
    ``theta_(i)`` is ``undefined`` or every ``d_i`` is 0.

    Examples
    --------
    >>> import polars as pl
    >>> from framemetrics.compilers.polars.namespace import POLARS
    >>> e = [0.1, -0.2, 0.7]  # d = mean - e: 0.1, 0.4, -0.5
    >>> sums = {f"s{k}": pl.lit(float(sum(v**k for v in e))) for k in (1, 2, 3)}
    >>> round(pl.select(acceleration(POLARS, sums | {"n": pl.lit(3.0), "undefined": pl.lit(0)})).item(), 12)
    -0.036738892848
    """
    n, s1, s2, s3, undefined = (sums[k] for k in ("n", "s1", "s2", "s3", "undefined"))
    mean = s1 / n
    squares = s2 - n * mean * mean
    cubes = -(s3 - ns.lit(3.0) * mean * s2 + ns.lit(2.0) * n * mean * mean * mean)
    defined = ns.eq(undefined, ns.lit(0)) & (squares > ns.lit(0.0))
    return ns.when(defined, cubes / (ns.lit(6.0) * squares * ns.sqrt(squares))).otherwise(ns.null())


def under_estimate(ns: Namespace, value: Expr, theta: Expr) -> tuple[Expr, Expr]:
    """Whether a replicate's ``value`` is under the estimate ``theta``, and whether it is at most equal to it, as
    numbers (1 or 0; null for a null value): a value within :data:`TIE` (relative) of ``theta`` is a tie.

    Examples
    --------
    >>> import polars as pl
    >>> from framemetrics.compilers.polars.namespace import POLARS
    >>> theta = pl.lit(0.6931471805599454)
    >>> [pl.select(pl.concat_list(under_estimate(POLARS, pl.lit(v), theta))).item().to_list()
    ...  for v in (0.6931471805599452, 0.5, 0.7)]
    [[0.0, 1.0], [1.0, 1.0], [0.0, 0.0]]
    """
    margin = ns.abs(theta) * ns.lit(TIE)
    return ns.indicator(value < theta - margin), ns.indicator(value <= theta + margin)


def replicates_below(ns: Namespace, below: Expr, at_or_below: Expr, defined: Expr) -> Expr:
    """The share of the ``defined`` replicates under the estimate: ``below`` are under it and ``at_or_below`` at
    most equal to it, a tie counting half (SciPy's "mean" percentile of score); null without a defined replicate.

    Examples
    --------
    >>> import polars as pl
    >>> from framemetrics.compilers.polars.namespace import POLARS
    >>> pl.select(replicates_below(POLARS, pl.lit(970), pl.lit(980), pl.lit(1000))).item()
    0.975
    """
    return ns.ratio(ns.to_float(below + at_or_below), ns.lit(2.0) * ns.to_float(defined))


def bias_correction(ns: Namespace, share: Expr) -> Expr:
    """``z0 = Phi^-1(share)``, ``share`` the column of :func:`replicates_below`; null at 0 and 1.

    Examples
    --------
    >>> import polars as pl
    >>> from framemetrics.compilers.polars.namespace import POLARS
    >>> round(pl.select(bias_correction(POLARS, pl.lit(0.975))).item(), 9)
    1.959963985
    """
    return inverse_normal_cdf(ns, share)


def adjusted_deviates(ns: Namespace, z0: Expr, a: Expr, level: float) -> dict[str, Expr]:
    """The normal deviates of BCa's levels, ``{"low": ..., "high": ...}`` at a confidence ``level``:
    ``z0 + (z0 + z_j) / (1 - a (z0 + z_j))`` from the columns ``z0`` (:func:`bias_correction`) and ``a``
    (:func:`acceleration`); null where ``1 - a (z0 + z_j) <= 0``. A level is :func:`adjusted_level` of its
    deviate's column.

    Examples
    --------
    >>> import polars as pl
    >>> from framemetrics.compilers.polars.namespace import POLARS
    >>> deviates = adjusted_deviates(POLARS, pl.lit(0.0), pl.lit(0.0), 0.9)  # no bias, no skew
    >>> [round(pl.select(adjusted_level(POLARS, v)).item(), 12) for v in deviates.values()]
    [0.05, 0.95]
    """
    deviates = {}
    for output, p in (("low", (1 - level) / 2), ("high", (1 + level) / 2)):
        shifted = z0 + ns.lit(normal_quantile(p))
        denominator = ns.lit(1.0) - a * shifted
        deviates[output] = ns.when(denominator > ns.lit(0.0), z0 + shifted / denominator).otherwise(ns.null())
    return deviates


def adjusted_level(ns: Namespace, deviate: Expr) -> Expr:
    """``alpha_j = Phi(deviate)``, the percentile level of a column of :func:`adjusted_deviates`."""
    return normal_cdf(ns, deviate)
