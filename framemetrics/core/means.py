"""The normal interval of a metric that is a weighted mean of per-row terms: log loss, Brier, MSE, MAE...

A mean metric (:data:`MEANS`, a registry entry's ``Metric.mean``) is
``m = sum w t / sum w`` over its rows' terms ``t`` (the per-row log loss,
squared error...). Its interval is the normal (z) interval of a weighted mean,
statsmodels' ``DescrStatsW(t, weights=w).zconfint_mean()``:

* ``SS = sum w (t - m)^2``, taken as ``sum w t^2 - (sum w t)^2 / sum w``
  (the statistics ``<sum>_sq``, ``<sum>`` and ``sum_weight``; a rounding
  below 0 is 0);
* ``se = sqrt(SS / W / (W - 1))``, ``W = sum w``: the standard error of the
  mean with weights as frequency weights (an integer weight is that many
  repeated rows, as DeLong's interval reads them), statsmodels' ``std_mean``;
* ``m -+ z se``, not clipped to the metric's range.

It needs ``W > 1`` (null otherwise, so weights that sum to at most 1 give no
interval) and rests on the central limit theorem: the mean of many rows
whose terms have a finite variance. Heavy-tailed terms (a log loss near
``-log(2^-52)`` on a few confident mistakes) or few rows make it optimistic;
the bootstrap (``ci_method="bootstrap"``) makes no such assumption. Null with
invalid input, and where the sum of squares leaves the double range.

Examples
--------
>>> MEANS["log_loss"]
'sum_log_loss'
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any

from framemetrics.core.formulas.guards import valid
from framemetrics.core.namespace import Namespace
from framemetrics.core.registry import REGISTRY

__all__ = ["MEANS", "centred_squares", "mean_statistics", "normal_bounds", "normal_step"]

Expr = Any

# A mean metric's sum statistic, as its registry entry declares it.
MEANS: dict[str, str] = {name: metric.mean for name, metric in REGISTRY.items() if metric.mean is not None}


def mean_statistics(name: str) -> tuple[str, ...]:
    """The statistics the normal interval of mean metric ``name`` reads.

    Examples
    --------
    >>> mean_statistics("mean_squared_error")
    ('sum_sq_error', 'sum_sq_error_sq', 'sum_weight')
    """
    return MEANS[name], f"{MEANS[name]}_sq", "sum_weight"


def centred_squares(ns: Namespace, squares: Expr, total: Expr, weight: Expr) -> Expr:
    """``sum w (v - mean)^2`` from ``sum w v^2``, ``sum w v`` and ``sum w``; a rounding below 0 is 0 (this
    interval's and DeLong's).

    Examples
    --------
    >>> import polars as pl
    >>> from framemetrics.compilers.polars import POLARS
    >>> pl.select(centred_squares(POLARS, pl.lit(14.0), pl.lit(6.0), pl.lit(3.0))).item()
    2.0
    """
    value = squares - total * (total / weight)
    return ns.when(value < 0, ns.lit(0.0)).otherwise(value)


def normal_step(name: str) -> Callable[[Namespace, Mapping[str, Expr], Expr, Expr], dict[str, Expr]]:
    """The step of the normal interval of mean metric ``name``: its ``mean`` and ``se``, null with invalid input.

    Examples
    --------
    >>> import polars as pl
    >>> from framemetrics.compilers.polars import POLARS
    >>> sums = {"sum_abs_error": pl.lit(6.0), "sum_abs_error_sq": pl.lit(14.0), "sum_weight": pl.lit(3.0)}
    >>> step = normal_step("mean_absolute_error")(POLARS, sums, pl.lit(1.959963984540054), pl.lit(0))
    >>> [round(pl.select(step[k]).item(), 6) for k in ("mean", "se")]
    [2.0, 0.57735]
    """
    total, squares, weight = mean_statistics(name)

    def step(ns: Namespace, s: Mapping[str, Expr], z: Expr, n_invalid: Expr) -> dict[str, Expr]:
        w, sum_t = s[weight], s[total]
        centred = centred_squares(ns, s[squares], sum_t, w)
        undefined = (ns.not_(w > 1), ns.not_(ns.is_finite(centred)))
        return {"mean": ns.ratio(sum_t, w), "se": valid(ns, n_invalid, ns.sqrt(centred / w / (w - 1)), *undefined)}

    return step


def normal_bounds(ns: Namespace, s: Mapping[str, Expr], z: Expr, n_invalid: Expr) -> dict[str, Expr]:
    """``se``, ``low`` and ``high`` of the normal interval of a mean from its step's ``mean`` and ``se``
    (:func:`normal_step`), not clipped.

    Examples
    --------
    >>> import polars as pl
    >>> from framemetrics.compilers.polars import POLARS
    >>> b = normal_bounds(POLARS, {"mean": pl.lit(2.0), "se": pl.lit(0.5)}, pl.lit(2.0), pl.lit(0))
    >>> [pl.select(b[k]).item() for k in ("low", "high")]
    [1.0, 3.0]
    """
    mean, se = s["mean"], s["se"]
    return {"se": se, "low": mean - z * se, "high": mean + z * se}
