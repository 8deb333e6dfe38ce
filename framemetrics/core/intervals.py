"""Confidence intervals of the metrics, written once: DeLong's for ROC AUC, Wilson's or Clopper-Pearson's for
proportions, the normal interval of means, the delta method's of F-scores, the logit interval of average precision.

An :class:`Interval` is, like a metric, statistics per group and a formula
over them: :attr:`Interval.statistics` are names of
:data:`~framemetrics.core.statistics.STATISTICS` and :attr:`Interval.bounds`
gives the standard error (where the method has one) and the two bounds at
the normal quantile ``z`` of the level. :func:`metric_interval` picks each
metric's method.

**DeLong** (DeLong, DeLong and Clarke-Pearson 1988), for ``roc_auc_score``
and ``gini_score``. A positive's placement is ``V10 = 1 - a / N`` and a
negative's ``V01 = b / P``, with ``a`` the negative weight above its score
and ``b`` the positive weight above it, ties counting half
(:func:`~framemetrics.core.statistics.negatives_above`,
:func:`~framemetrics.core.statistics.positives_above`); the AUC is their mean
and ``Var(AUC) = S10 / P + S01 / N``, with ``S10 = sum pw (V10 - AUC)^2 / (P - 1)``
and ``S01 = sum nw (V01 - AUC)^2 / (N - 1)``: per distinct score, as Sun and
Xu's (2014) midranks. Weights are frequency weights: an integer weight is
that many repeated rows (pROC on the repeated rows is the reference), and
``P, N`` are the weights of the classes; null when either is at most 1.
The sums are taken in weight units, ``sum pw a^2 - (sum pw a)^2 / P``, so
that for integer weights they are exact (up to 2^53): a group whose
placements are all equal gets a variance of exactly 0, as pROC. Weights
beyond about 1e100 overflow the sums: the interval is then null. The
interval is ``AUC -+ z se``, clipped to [0, 1] as pROC's ``ci.auc``; Gini's
is the AUC's mapped by ``2 AUC - 1``, its standard error ``2 se``.

**Normal** for the metrics that are weighted means of per-row terms (log
loss, Brier, MSE, MAE...): ``m -+ z se``, the standard error of a weighted
mean with frequency weights (:mod:`framemetrics.core.means`).

**Delta** for the ratios of confusion cells (F1, F-beta, Jaccard):
``F -+ z se`` with the delta method's variance, clipped to [0, 1]
(:mod:`framemetrics.core.cell_ratios`).

**Logit** for average precision: Boyd, Eng and Page's (2013) interval on the
logit scale, ``expit(logit(AP) -+ z / sqrt(n AP (1 - AP)))`` with ``n`` the
positives (:mod:`framemetrics.core.logit_interval`).

**Wilson** (1927) by default, **Clopper-Pearson** (1934) on request, for the
proportions ``successes / trials`` of the confusion cells (accuracy,
precision, recall, specificity...): :mod:`framemetrics.core.proportions`,
statsmodels' ``proportion_confint`` (``wilson``, ``beta``). With weights,
``n`` is Kish's effective sample size ``(sum w)^2 / sum w^2`` of the trials.

Examples
--------
>>> from framemetrics.compilers.sql import SQL
>>> sorted(metric_interval("precision_score", {}, None).statistics)
['fp', 'fp_sq', 'tp', 'tp_sq']
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Any

from framemetrics.core.bca import jackknifable
from framemetrics.core.cell_ratios import RATIOS, ratio_bounds, ratio_statistics, ratio_steps
from framemetrics.core.errors import ArgumentError
from framemetrics.core.formulas import apply_formula
from framemetrics.core.formulas.guards import valid
from framemetrics.core.formulas.ranking import roc_auc_score
from framemetrics.core.logit_interval import LOGIT_STATISTICS, LOGIT_STEPS, logit_bounds
from framemetrics.core.means import MEANS, centred_squares, mean_statistics, normal_bounds, normal_step
from framemetrics.core.namespace import Namespace
from framemetrics.core.normal import normal_cdf, normal_quantile
from framemetrics.core.proportions import (
    PROPORTIONS,
    clipped,
    clopper_pearson_bounds,
    clopper_pearson_parameters,
    proportion_statistics,
    wilson,
    wilson_bounds,
    wilson_steps,
)
from framemetrics.core.resampling import bootstrappable
from framemetrics.core.statistics import Rows, negative_weight, positive_weight

__all__ = [
    "CI_METHODS",
    "PAIRED_OUTPUTS",
    "PAIRED_STAGES",
    "PROPORTIONS",
    "RESAMPLED",
    "Interval",
    "check_level",
    "delong_variance",
    "has_own_interval",
    "interval_z",
    "metric_interval",
    "multiclass_interval",
    "paired_sums",
    "wilson_bounds",
]

Expr = Any
Bounds = Callable[[Namespace, Mapping[str, Expr], Expr, Expr], dict[str, Expr]]
Quantiles = Callable[[Namespace, Mapping[str, Expr]], list[tuple[Expr, Expr]]]

CI_METHODS = ("delong", "wilson", "clopper-pearson", "normal", "delta", "logit", "bootstrap", "bca")
RESAMPLED = ("bootstrap", "bca")  # the methods computed from the bootstrap's replicates


@dataclass(frozen=True)
class Interval:
    """One metric's interval method: the statistics it reads and its bounds.

    ``bounds(ns, statistics, z, n_invalid)`` maps each of ``outputs``
    (``se`` where the method has one, ``low``, ``high``) to an expression
    over the statistics' columns. A method whose bounds are Beta quantiles
    (Clopper-Pearson's) has ``quantiles(ns, statistics)``: the parameters
    ``(a, b)`` of each quantile at ``(1 - level) / 2``; a compiler computes
    them all in one set of stages (:func:`~framemetrics.core.beta.beta_quantile_stages`)
    and ``bounds`` reads quantile ``k`` as the column ``q<k>``.

    ``steps`` compute the quantities the bounds read many times (a
    proportion and its count, a standard error), each step's outputs read by
    name by the next and by ``bounds``, with the same arguments: a compiler
    makes each step's outputs columns of a stage before the next (the SQL
    then names each once, where a tree would repeat it at every use: Wilson's
    bounds were 16 KB of SQL), or substitutes them into one expression (the
    Polars builders).
    """

    method: str
    statistics: tuple[str, ...]
    bounds: Bounds
    outputs: tuple[str, ...] = ("low", "high")
    quantiles: Quantiles | None = None
    steps: tuple[Bounds, ...] = ()


def check_level(level: Any, name: str = "level") -> float:
    """``level`` as a confidence level: a number strictly between 0 and 1.

    Examples
    --------
    >>> check_level(0.95)
    0.95
    >>> check_level(95)
    Traceback (most recent call last):
    ...
    framemetrics.core.errors.ArgumentError: level must be a number strictly between 0 and 1 (0.95 for 95 %), got 95
    """
    if isinstance(level, bool) or not isinstance(level, (int, float)) or not 0 < level < 1:
        raise ArgumentError(f"{name} must be a number strictly between 0 and 1 (0.95 for 95 %), got {level!r}")
    return float(level)


def interval_z(level: float) -> float:
    """The normal quantile of a two-sided interval at ``level``: ``Phi^-1(1 - (1 - level) / 2)``.

    Examples
    --------
    >>> round(interval_z(0.95), 6)
    1.959964
    """
    return normal_quantile(1 - (1 - level) / 2)


def _overflowed(ns: Namespace, variance: Expr) -> Expr:
    """A variance whose sums left the double range (squared placements of weights near 1e150 and up): its
    standard error, interval, ``z`` and p-value are null, never the bounds of an infinite one."""
    return ns.all(ns.not_(ns.is_null(variance)), ns.not_(ns.is_finite(variance)))


def delong_variance(
    ns: Namespace,
    delong_pos_sum: Expr,
    delong_pos_sq: Expr,
    delong_neg_sum: Expr,
    delong_neg_sq: Expr,
    sum_pos: Expr,
    sum_neg: Expr,
) -> Expr:
    """DeLong's ``Var(AUC) = S10 / P + S01 / N``, from the placements' sums in weight units; null if P or N <= 1.

    ``S10 = (sum pw a^2 - (sum pw a)^2 / P) / (N^2 (P - 1))`` and
    ``S01 = (sum nw b^2 - (sum nw b)^2 / N) / (P^2 (N - 1))``.

    Examples
    --------
    >>> import polars as pl
    >>> from framemetrics.compilers.polars import POLARS
    >>> # scores: positives 0.9, 0.4; negatives 0.5, 0.1: a = (0, 1), b = (1, 2); AUC 0.75.
    >>> v = delong_variance(POLARS, *(pl.lit(x) for x in (1.0, 1.0, 3.0, 5.0, 2.0, 2.0)))
    >>> pl.select(v).item()
    0.125
    """
    p, n = sum_pos, sum_neg
    s10 = centred_squares(ns, delong_pos_sq, delong_pos_sum, p) / n / n / (p - 1)
    s01 = centred_squares(ns, delong_neg_sq, delong_neg_sum, n) / p / p / (n - 1)
    return ns.when(ns.any(p <= 1, n <= 1), ns.null()).otherwise(s10 / p + s01 / n)


def paired_sums(ns: Namespace, x: Rows, a_1: Expr, a_2: Expr, b_1: Expr, b_2: Expr) -> dict[str, Expr]:
    """The sums of DeLong's paired test over a group's rows: each row's placements under two scores' orders.

    ``a_k, b_k`` are a row's placements in weight units under score ``k``
    (:func:`~framemetrics.core.statistics.negatives_above` and
    :func:`~framemetrics.core.statistics.positives_above` of its score's
    point). The variance of the difference of the AUCs is DeLong's variance
    of the placements' differences (:func:`delong_variance` of these sums):
    pROC's ``L S L'`` with ``L = (1, -1)``, taken directly, so that two equal
    scores give exactly 0.
    """
    pos, neg = positive_weight(ns, x), negative_weight(ns, x)
    a, b = a_1 - a_2, b_1 - b_2
    return {
        "delong_pos_sum": ns.sum(pos * a),
        "delong_pos_sq": ns.sum(pos * a * a),
        "delong_neg_sum": ns.sum(neg * b),
        "delong_neg_sq": ns.sum(neg * b * b),
    }


PAIRED_OUTPUTS = ("roc_auc_1", "roc_auc_2", "diff", "se", "z", "p_value", "low", "high")


def _paired_estimates(ns: Namespace, s: Mapping[str, Expr], z: Expr, n_invalid: Expr) -> dict[str, Expr]:
    """The two AUCs (the formula of ``roc_auc_score``), their difference and its standard error."""
    p, n = s["sum_pos"], s["sum_neg"]
    no_auc = {"partial_auc": ns.null(), "sum_pos": p, "sum_neg": n}
    aucs = [apply_formula(ns, roc_auc_score, no_auc | {"auc_sum": s[f"auc_sum_{k}"]}, n_invalid, {"max_fpr": None})
            for k in (1, 2)]  # fmt: skip
    variance = delong_variance(ns, *(s[name] for name in _DELONG[1:5]), p, n)
    se = valid(ns, n_invalid, ns.sqrt(variance), ns.eq(p, 0), ns.eq(n, 0), _overflowed(ns, variance))
    return {"roc_auc_1": aucs[0], "roc_auc_2": aucs[1], "diff": aucs[0] - aucs[1], "se": se}


def _paired_bounds(ns: Namespace, s: Mapping[str, Expr], z: Expr, n_invalid: Expr) -> dict[str, Expr]:
    """``z = diff / se`` (null where ``se = 0``), ``fm_tail = -|z|`` and the interval ``diff -+ z se``."""
    diff, se = s["diff"], s["se"]
    statistic = ns.when(se > 0, diff / se).otherwise(ns.null())
    return {"z": statistic, "fm_tail": -ns.abs(statistic), "low": diff - z * se, "high": diff + z * se}


def _paired_p_value(ns: Namespace, s: Mapping[str, Expr], z: Expr, n_invalid: Expr) -> dict[str, Expr]:
    """The two-sided ``p_value = 2 Phi(-|z|)``."""
    return {"p_value": 2 * normal_cdf(ns, s["fm_tail"])}


PairedStage = Callable[[Namespace, Mapping[str, Expr], Expr, Expr], dict[str, Expr]]

# DeLong's paired test, three stages each reading the columns of the previous (a compiler makes each a
# projection: the normal distribution function reads z many times, which must be a column, not a tree).
PAIRED_STAGES: tuple[PairedStage, ...] = (_paired_estimates, _paired_bounds, _paired_p_value)
"""DeLong's paired test of two AUCs on the same rows, in stages over the columns of the previous one.

The first reads ``auc_sum_1, auc_sum_2, sum_pos, sum_neg`` and the sums of
:func:`paired_sums`: ``roc_auc_1, roc_auc_2``, ``diff = AUC1 - AUC2`` and
``se``, the square root of DeLong's variance of the difference; the next
``z = diff / se`` and the interval ``diff -+ z se``, not clipped (pROC's
``roc.test``); the last the two-sided ``p_value = 2 Phi(-|z|)``
(:func:`~framemetrics.core.normal.normal_cdf`). Null with fewer than 2 of
either class (weights at most 1); ``z`` and ``p_value`` null where ``se = 0``.
"""


_DELONG = ("auc_sum", "delong_pos_sum", "delong_pos_sq", "delong_neg_sum", "delong_neg_sq", "sum_pos", "sum_neg")


def _delong_variance(ns: Namespace, s: Mapping[str, Expr], z: Expr, n_invalid: Expr) -> dict[str, Expr]:
    """DeLong's interval, first step: the ``variance`` of the AUC (:func:`delong_variance`)."""
    return {"variance": delong_variance(ns, *(s[name] for name in _DELONG[1:]))}


def _delong_se(ns: Namespace, s: Mapping[str, Expr], z: Expr, n_invalid: Expr) -> dict[str, Expr]:
    """DeLong's interval, second step: the AUC's ``se``, null with one class, invalid input or an overflow."""
    variance = s["variance"]
    undefined = (ns.eq(s["sum_pos"], 0), ns.eq(s["sum_neg"], 0), _overflowed(ns, variance))
    return {"se": valid(ns, n_invalid, ns.sqrt(variance), *undefined)}


def _delong(scale: float) -> Bounds:
    """DeLong's interval of ``scale * AUC - (scale - 1)``: the AUC (1) or Gini (2), from the steps' ``se``."""

    def bounds(ns: Namespace, s: Mapping[str, Expr], z: Expr, n_invalid: Expr) -> dict[str, Expr]:
        auc, se = s["auc_sum"] / 2, s["se"]
        low, high = clipped(ns, auc - z * se, 0.0, 1.0), clipped(ns, auc + z * se, 0.0, 1.0)
        return {"se": scale * se, "low": scale * low - (scale - 1), "high": scale * high - (scale - 1)}

    return bounds


def metric_interval(
    name: str, params: Mapping[str, Any], method: str | None, statistics: tuple[str, ...] = ()
) -> Interval:
    """The interval of metric ``name`` (with its ``params``) by ``method``, or by default its own.

    The defaults: DeLong for ``roc_auc_score`` (without ``max_fpr``) and
    ``gini_score``, Wilson for the proportions (:data:`PROPORTIONS`), the
    normal interval for the means of per-row terms (:data:`~framemetrics.core.means.MEANS`), the
    delta method for F1, F-beta and Jaccard (:data:`~framemetrics.core.cell_ratios.RATIOS`), the logit
    interval for ``average_precision_score``, the Poisson bootstrap for every other metric, over its ``statistics``
    (those a replicate reweights: :func:`~framemetrics.core.resampling.bootstrappable`).
    ``method="bootstrap"`` forces it; ``method="bca"`` forces its BCa
    interval, for the metrics whose statistics are sums over rows
    (:func:`~framemetrics.core.bca.jackknifable`).

    Examples
    --------
    >>> metric_interval("roc_auc_score", {"max_fpr": None}, None).method
    'delong'
    >>> metric_interval("f1_score", {}, "wilson")
    Traceback (most recent call last):
    ...
    framemetrics.core.errors.ArgumentError: ci_method='wilson' does not apply to f1_score: it takes 'delta' or 'bootstrap'
    """
    if method is not None and method not in CI_METHODS:
        raise ArgumentError(f"ci_method must be one of {', '.join(map(repr, CI_METHODS))}, got {method!r}")
    own = _own_interval(name, params)
    if own is not None and method in (None, own.method):
        return own
    if method == "clopper-pearson" and name in PROPORTIONS:
        statistics = proportion_statistics(name)
        return Interval(method, statistics, clopper_pearson_bounds(name), quantiles=clopper_pearson_parameters(name))
    if method in (None, *RESAMPLED):
        bca = method == "bca"
        missing = [s for s in statistics if not (jackknifable if bca else bootstrappable)(s)]
        if missing or not statistics:
            reads = f"it reads {', '.join(missing) or 'no sum'}, not a sum over rows"
            raise ArgumentError(
                f"ci_method='bca' does not apply to {name}: {reads}, so its jackknife is not exact here; use "
                "ci_method='bootstrap'"
                if bca
                else f"{name}: its bootstrap interval is not available yet ({reads})"
            )
        return Interval(method or "bootstrap", statistics, _no_bounds)
    takes = " or ".join(repr(m) for m in _methods(own) + ["bootstrap"])
    raise ArgumentError(f"ci_method={method!r} does not apply to {name}: it takes {takes}")


def multiclass_interval(name: str, method: str | None, stages: tuple[str, ...]) -> Interval:
    """The interval of multiclass metric ``name`` reading the multiclass ``stages``: the Poisson bootstrap.

    A replicate reweights the confusion cells (and the row sums kept in
    them): every class average, kappa, MCC, log loss, Brier and top-k
    accuracy; and the rows that the one-vs-rest, one-vs-one and micro curves
    read (each row once per replicate).

    Examples
    --------
    >>> multiclass_interval("roc_auc_ovr", None, ("ranking",)).method
    'bootstrap'
    >>> multiclass_interval("f1_macro", "wilson", ("classes",))
    Traceback (most recent call last):
    ...
    framemetrics.core.errors.ArgumentError: ci_method='wilson' does not apply to multiclass f1_macro: it takes 'bootstrap'
    """
    if method is not None and method not in CI_METHODS:
        raise ArgumentError(f"ci_method must be one of {', '.join(map(repr, CI_METHODS))}, got {method!r}")
    if method not in (None, "bootstrap"):
        raise ArgumentError(f"ci_method={method!r} does not apply to multiclass {name}: it takes 'bootstrap'")
    return Interval("bootstrap", stages, _no_bounds)


def _methods(own: Interval | None) -> list[str]:
    """The methods of a metric's own interval: Wilson's comes with Clopper-Pearson's."""
    if own is None:
        return []
    return [own.method, "clopper-pearson"] if own.method == "wilson" else [own.method]


def _no_bounds(ns: Namespace, s: Mapping[str, Expr], z: Expr, n_invalid: Expr) -> dict[str, Expr]:
    raise TypeError("a bootstrap interval is computed from replicates, not a formula of the statistics")


def has_own_interval(name: str, params: Mapping[str, Any]) -> bool:
    """Whether metric ``name`` has an interval of its own (DeLong's, Wilson's...), not only the bootstrap.

    Examples
    --------
    >>> has_own_interval("recall_score", {}), has_own_interval("ks_statistic", {})
    (True, False)
    """
    return _own_interval(name, params) is not None


def _own_interval(name: str, params: Mapping[str, Any]) -> Interval | None:
    if name in ("roc_auc_score", "gini_score") and params.get("max_fpr") in (None, 1, 1.0):
        bounds = _delong(1.0 if name == "roc_auc_score" else 2.0)
        return Interval("delong", _DELONG, bounds, ("se", "low", "high"), steps=(_delong_variance, _delong_se))
    if name in PROPORTIONS:
        return Interval("wilson", proportion_statistics(name), wilson(name), steps=wilson_steps(name))
    if name in MEANS:
        return Interval(
            "normal", mean_statistics(name), normal_bounds, ("se", "low", "high"), steps=(normal_step(name),)
        )
    if name in RATIOS:
        steps = ratio_steps(name, params)
        return Interval("delta", ratio_statistics(), ratio_bounds, ("se", "low", "high"), steps=steps)
    if name == "average_precision_score":
        return Interval("logit", LOGIT_STATISTICS, logit_bounds, steps=LOGIT_STEPS)
    return None
