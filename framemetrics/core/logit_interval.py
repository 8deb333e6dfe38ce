"""The logit interval of average precision (Boyd, Eng and Page 2013).

Average precision has no closed-form variance; Boyd, Eng and Page ("Area
under the precision-recall curve: point estimates and confidence
intervals", ECML PKDD 2013) found that the logit interval, built on the
binomial variance of a proportion of the ``n`` positives, covers well in
their simulations and never leaves (0, 1):

``eta = log(AP / (1 - AP))``, ``tau = 1 / sqrt(n AP (1 - AP))``,
``low, high = expit(eta -+ z tau)``,

with ``n`` the number of positives, with weights Kish's effective number
``(sum pw)^2 / sum pw^2`` (the ``sum_pos`` and ``sum_pos_sq`` statistics,
as the proportions' intervals). It treats AP as a proportion of the
positives, an approximation that is best with many positives; the Poisson
bootstrap (``ci_method="bootstrap"``) makes no such assumption. Null where
AP is null or 1 (the logit is infinite: the interval's limit is all of [0,
1]), with invalid input, or where the sum of squared weights leaves the
double range.

Examples
--------
>>> LOGIT_STATISTICS
('ap_sum', 'sum_pos', 'sum_pos_sq')
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from framemetrics.core.namespace import Namespace

__all__ = ["LOGIT_STATISTICS", "LOGIT_STEPS", "logit_bounds"]

Expr = Any

LOGIT_STATISTICS = ("ap_sum", "sum_pos", "sum_pos_sq")
"""The statistics of average precision's logit interval: AP's own and the positives' squared weights."""


def _share(ns: Namespace, s: Mapping[str, Expr], z: Expr, n_invalid: Expr) -> dict[str, Expr]:
    """First step: ``ap`` where it is in (0, 1) with a finite Kish count ``n`` of the positives, else null, so that
    no engine divides by 0, takes the logarithm of 0 or the root of a negative number (PostgreSQL and Spark raise)."""
    positives, squares = s["sum_pos"], s["sum_pos_sq"]
    share = ns.ratio(s["ap_sum"], positives)
    defined = ns.all(n_invalid <= 0, share > 0, share < 1, squares > 0, ns.is_finite(squares))
    return {
        "ap": ns.when(defined, share).otherwise(ns.null()),
        "n": ns.when(defined, positives * ns.ratio(positives, squares)).otherwise(ns.null()),
    }


def _logit(ns: Namespace, s: Mapping[str, Expr], z: Expr, n_invalid: Expr) -> dict[str, Expr]:
    """Second step: ``eta = logit(AP)`` and ``tau = 1 / sqrt(n AP (1 - AP))``."""
    ap = s["ap"]
    return {"eta": ns.ln(ap / (1 - ap)), "tau": 1 / ns.sqrt(s["n"] * ap * (1 - ap))}


LOGIT_STEPS = (_share, _logit)
"""The steps of the logit interval: AP and the Kish count of the positives, then its logit and ``tau``."""


def logit_bounds(ns: Namespace, s: Mapping[str, Expr], z: Expr, n_invalid: Expr) -> dict[str, Expr]:
    """``low`` and ``high`` of the logit interval of average precision, from its steps' ``eta`` and ``tau``
    (:data:`LOGIT_STEPS`).

    Examples
    --------
    >>> import polars as pl
    >>> from framemetrics.compilers.polars import POLARS
    >>> s = {"ap_sum": pl.lit(16.0), "sum_pos": pl.lit(20.0), "sum_pos_sq": pl.lit(20.0)}
    >>> z = pl.lit(1.959963984540054)
    >>> for step in LOGIT_STEPS:
    ...     s |= step(POLARS, s, z, pl.lit(0))
    >>> b = logit_bounds(POLARS, s, z, pl.lit(0))
    >>> [round(pl.select(b[k]).item(), 6) for k in ("low", "high")]
    [0.572153, 0.922867]
    """

    def expit(x: Expr) -> Expr:
        # exp's argument within +-700, where no engine overflows or underflows; null where AP is undefined
        x = ns.least(ns.greatest(x, ns.lit(-700.0)), ns.lit(700.0))
        return ns.when(ns.is_null(s["tau"]), ns.null()).otherwise(1 / (1 + ns.exp(-x)))

    eta, tau = s["eta"], s["tau"]
    return {"low": expit(eta - z * tau), "high": expit(eta + z * tau)}
