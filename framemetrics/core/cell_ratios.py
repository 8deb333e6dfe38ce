"""The delta-method interval of the F-scores and the Jaccard index: ratios of confusion cells.

F1, F-beta and Jaccard are ``F = tp / (tp + u fn + v fp)`` (F1: ``u = v =
1/2``; F-beta: ``u = b^2 / (1 + b^2)``, ``v = 1 - u``; Jaccard: ``u = v =
1``), a ratio of two sums over the rows. Its interval is the Wald interval
``F -+ z se`` with the delta method's variance, linearised over the rows:

``Var(F) = ((1 - F)^2 S_tp + (u F)^2 S_fn + (v F)^2 S_fp) / D^2``,
``D = tp + u fn + v fp``,

where ``S_c = sum w^2`` over the rows of cell ``c`` (the ``<cell>_sq``
statistics; without weights the cell's count). Without weights this is the
delta method over the multinomial confusion matrix, ``g' (diag(p) - p p') g
/ n`` with ``g`` the gradient of ``F`` in the cells' shares ``p``
(statsmodels' ``NonlinearDeltaCov`` is the tests' reference); with weights,
as the proportions' Kish count, it does not change when every weight is
scaled. The bounds are clipped to [0, 1].

It needs many rows in the three cells (the central limit theorem on ``D``):
at ``F`` = 0 or 1 its standard error is 0, the Wald interval's known
weakness, where ``ci_method="bootstrap"`` is the alternative. Null where
``D = 0`` (the score is ``zero_division``), with invalid input, or where a
sum of squared weights leaves the double range.

Examples
--------
>>> sorted(RATIOS)
['f1_score', 'fbeta_score', 'jaccard_score']
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any

from framemetrics.core.namespace import Namespace
from framemetrics.core.proportions import clipped
from framemetrics.core.registry.classification import recall_weight

__all__ = ["RATIOS", "ratio_bounds", "ratio_statistics", "ratio_steps"]

Expr = Any
Bounds = Callable[[Namespace, Mapping[str, Expr], Expr, Expr], dict[str, Expr]]


def _f_beta(ns: Namespace, params: Mapping[str, Any]) -> tuple[Expr, Expr]:
    """``u = b^2 / (1 + b^2)`` and ``v = 1 - u`` of F-beta: the formula's own weight (``recall_weight``)."""
    u = recall_weight(ns, ns.lit(float(params.get("beta", 1.0))))
    return u, 1 - u


# A ratio metric's weights (u, v) of fn and fp, from its parameters.
RATIOS: dict[str, Callable[[Namespace, Mapping[str, Any]], tuple[Expr, Expr]]] = {
    "f1_score": lambda ns, params: (0.5, 0.5),
    "fbeta_score": _f_beta,
    "jaccard_score": lambda ns, params: (1.0, 1.0),
}


def ratio_statistics() -> tuple[str, ...]:
    """The statistics the interval reads: the three cells and their squared weights.

    Examples
    --------
    >>> ratio_statistics()
    ('tp', 'fn', 'fp', 'tp_sq', 'fn_sq', 'fp_sq')
    """
    return "tp", "fn", "fp", "tp_sq", "fn_sq", "fp_sq"


def ratio_steps(name: str, params: Mapping[str, Any]) -> tuple[Bounds, Bounds]:
    """The steps of the delta-method interval of ratio metric ``name``: ``f`` and its ``denominator``, then ``se``
    (null where the denominator is 0, with invalid input, or where the variance leaves the double range).

    Examples
    --------
    >>> import polars as pl
    >>> from framemetrics.compilers.polars import POLARS
    >>> s = {k: pl.lit(v) for k, v in {"tp": 8.0, "fn": 2.0, "fp": 4.0, "tp_sq": 8.0, "fn_sq": 2.0,
    ...                                  "fp_sq": 4.0}.items()}
    >>> z = pl.lit(1.959963984540054)
    >>> for step in ratio_steps("f1_score", {}):
    ...     s |= step(POLARS, s, z, pl.lit(0))
    >>> round(pl.select(s["se"]).item(), 6)
    0.10712
    """
    def ratio(ns: Namespace, s: Mapping[str, Expr], z: Expr, n_invalid: Expr) -> dict[str, Expr]:
        u, v = RATIOS[name](ns, params)
        denominator = s["tp"] + u * s["fn"] + v * s["fp"]
        # null, not a division by 0 (Spark and PostgreSQL raise)
        return {"f": ns.ratio(s["tp"], denominator), "denominator": denominator}

    def error(ns: Namespace, s: Mapping[str, Expr], z: Expr, n_invalid: Expr) -> dict[str, Expr]:
        f, denominator = s["f"], s["denominator"]
        u, v = RATIOS[name](ns, params)
        miss, fall = u * f, v * f
        squares = (1 - f) * (1 - f) * s["tp_sq"] + miss * miss * s["fn_sq"] + fall * fall * s["fp_sq"]
        variance = ns.ratio(ns.ratio(squares, denominator), denominator)
        se = (
            ns.when(ns.any(n_invalid > 0, ns.not_(denominator > 0)), ns.null())
            .when(ns.not_(ns.is_finite(variance)), ns.null())
            .otherwise(ns.sqrt(variance))
        )
        return {"se": se}

    return ratio, error


def ratio_bounds(ns: Namespace, s: Mapping[str, Expr], z: Expr, n_invalid: Expr) -> dict[str, Expr]:
    """``se``, ``low`` and ``high`` of the delta-method interval from its steps' ``f`` and ``se``
    (:func:`ratio_steps`), clipped to [0, 1].

    Examples
    --------
    >>> import polars as pl
    >>> from framemetrics.compilers.polars import POLARS
    >>> b = ratio_bounds(POLARS, {"f": pl.lit(8 / 11), "se": pl.lit(0.10712)}, pl.lit(1.959963984540054), pl.lit(0))
    >>> [round(pl.select(b[k]).item(), 6) for k in ("low", "high")]
    [0.517321, 0.937224]
    """
    f, se = s["f"], s["se"]
    return {"se": se, "low": clipped(ns, f - z * se, 0.0, 1.0), "high": clipped(ns, f + z * se, 0.0, 1.0)}
