"""Stage 1 of every metric, written once: the sufficient statistics per group.

A row statistic is an aggregation over the rows of a group (:class:`Rows`);
a curve statistic an aggregation over the curve stage of a group, one row
per distinct score (:class:`CurvePoints`, the role of scikit-learn's
``confusion_matrix_at_thresholds``). Each is a function of a
:class:`~framemetrics.core.namespace.Namespace` and its inputs, compiled to
Polars and to SQL; the macro file's ``fm_stat_<name>`` macros are generated
from it.

Examples
--------
>>> from framemetrics.compilers.sql import SQL
>>> from framemetrics.compilers.sql.emit import to_sql
>>> to_sql(STATISTICS["tp"].build(SQL, Rows.named(SQL)))
'COALESCE(SUM(sample_weight * CAST(y_true = pos_label AND y_pred = pos_label AS DOUBLE)), 0)'
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, fields, replace
from typing import Any

from framemetrics.core.constants import EPS, KS_TOLERANCE, QUANTILE_TOLERANCE
from framemetrics.core.namespace import Namespace

__all__ = [
    "CURVE_SUMS",
    "STATISTICS",
    "CurvePoints",
    "Rows",
    "Statistic",
    "bin_score",
    "clipped_log_loss",
    "curve_rows",
    "error",
    "group_mean",
    "log1p",
    "negative_weight",
    "negatives_above",
    "pinball",
    "positive_weight",
    "positives_above",
    "quantile_level",
    "roc_gap",
    "tweedie_deviance",
    "weighted_quantile",
]

Expr = Any


@dataclass(frozen=True)
class Rows:
    """The row inputs of a group: the four roles, the labels and parameters, the first-pass means.

    Every field is an expression of the namespace (a column, a literal, a
    macro parameter); ``mean_y_true`` and ``mean_error`` are the group means
    of the first pass, as columns joined back or as aggregations broadcast
    within the group; ``power`` is the Tweedie deviances' power.
    """

    y_true: Expr
    y_pred: Expr
    y_score: Expr
    sample_weight: Expr
    pos_label: Expr
    neg_label: Expr
    alpha: Expr
    max_fpr: Expr
    mean_y_true: Expr = None
    mean_error: Expr = None
    power: Expr = 0.0

    @classmethod
    def named(cls, ns: Namespace) -> Rows:
        """Every field as the column (or macro parameter) of its own name."""
        return cls(**{f.name: ns.col(f.name) for f in fields(cls)})

    def with_parameters(self, ns: Namespace, alpha: float, max_fpr: float, power: float) -> Rows:
        """These rows with the statistics' parameters as literals (one part of a plan,
        :attr:`framemetrics.core.plan.Plan.parts`).

        Examples
        --------
        >>> from framemetrics.compilers.sql import SQL
        >>> Rows.named(SQL).with_parameters(SQL, 0.9, 0.1, 0.0).max_fpr.sql()
        'CAST(0.1 AS DOUBLE)'
        """
        literal = {"alpha": alpha, "max_fpr": max_fpr, "power": power}
        return replace(self, **{name: ns.lit(float(value)) for name, value in literal.items()})


# The curve stage's running sums: each weight column of a point, its running sum down the scores and its total.
CURVE_SUMS = (("pw", "tp", "pos_total"), ("nw", "fp", "neg_total"))


@dataclass(frozen=True)
class CurvePoints:
    """The curve stage of a group, one row per distinct score.

    ``pw, nw``: the positive and negative weight at the score; ``tp, fp``: their
    sums over the scores at or above it; ``tp_prev, fp_prev``: the same over
    strictly higher scores (the previous point, summed rather than subtracted);
    ``pos_total, neg_total``: the group's totals; ``gap_max``: the group's
    largest ``tp / P - fp / N``; ``max_fpr``: the partial-AUC bound;
    ``alpha``: the pinball loss's level; ``quantile``: the group's weighted
    quantile of the scores (:func:`weighted_quantile`) at the level the
    statistic asks for (:attr:`Statistic.quantile`).
    """

    y_score: Expr
    pw: Expr
    nw: Expr
    tp: Expr
    fp: Expr
    tp_prev: Expr
    fp_prev: Expr
    pos_total: Expr
    neg_total: Expr
    gap_max: Expr
    max_fpr: Expr
    alpha: Expr = 0.5
    quantile: Expr = None

    @classmethod
    def named(cls, ns: Namespace) -> CurvePoints:
        """Every field as the column (or macro parameter) of its own name."""
        return cls(**{f.name: ns.col(f.name) for f in fields(cls)})


@dataclass(frozen=True)
class Statistic:
    """A per-group aggregate: its column name and its definition.

    ``doc`` says what it gathers (the macro file's comment; the build's docstring if empty);
    ``curve`` marks a curve statistic (``build`` reads :class:`CurvePoints`);
    ``needs`` lists the first-pass means a row statistic reads; ``previous``
    and ``gap_max`` ask the curve stage for ``tp_prev, fp_prev`` and for
    ``gap_max``; ``counted`` says how the counting stage of confusion cells
    (:mod:`framemetrics.core.cells`) gathers it: ``cell`` from the cells'
    weights, ``sum`` summed over them, ``""`` not at all. ``score`` names
    the value a curve statistic's stage sorts (:func:`curve_rows`: ``y_score``,
    or every row counted positive at ``y_true`` or ``abs_error``) and
    ``quantile`` the level of the points' ``quantile`` it reads (``median``,
    ``alpha``; :func:`quantile_level`) per point.
    """

    name: str
    build: Callable[[Namespace, Any], Expr]
    doc: str = ""
    needs: tuple[str, ...] = ()
    curve: bool = False
    previous: bool = False
    gap_max: bool = False
    counted: str = ""
    score: str = "y_score"
    quantile: str = ""


def positive_weight(ns: Namespace, x: Rows) -> Expr:
    """A row's weight if it is of ``pos_label``, else 0."""
    return x.sample_weight * ns.indicator(ns.eq(x.y_true, x.pos_label))


def negative_weight(ns: Namespace, x: Rows) -> Expr:
    """A row's weight if it is of ``neg_label``, else 0."""
    return x.sample_weight * ns.indicator(ns.eq(x.y_true, x.neg_label))


def bin_score(ns: Namespace, y_score: Expr, bins: Expr) -> Expr:
    """The lower edge of the score's bin of width 1 / bins (the approximate mode ``bins=``).

    ``floor(y_score * bins) * (1 / bins)``: a product, as Polars' streaming
    engine may divide equal scores to values one ulp apart (then split a tie).
    """
    return ns.floor(y_score * bins) * (1 / bins)


def error(ns: Namespace, x: Rows) -> Expr:
    """``y_true - y_pred`` in double (integer inputs never overflow)."""
    return ns.to_float(x.y_true) - ns.to_float(x.y_pred)


def log1p(ns: Namespace, v: Expr) -> Expr:
    """log(1 + v) in Goldberg's form, ln(1 + v) v / ((1 + v) - 1), exact to a few ulps for tiny v."""
    return ns.when(ns.eq(1 + v, 1), v).otherwise(ns.ln(1 + v) * v / ((1 + v) - 1))


def group_mean(ns: Namespace, v: Expr, w: Expr) -> Expr:
    """Weighted mean; exactly the value when it is constant over the rows of positive weight."""
    kept = ns.when(w > 0, v).otherwise()
    return ns.when(ns.eq(ns.min(kept), ns.max(kept)), ns.min(kept)).otherwise(ns.ratio(ns.sum(w * v), ns.sum(w)))


def _cell(true_label: str, pred_label: str) -> Callable[[Namespace, Rows], Expr]:
    def build(ns: Namespace, x: Rows) -> Expr:
        hit = ns.all(ns.eq(x.y_true, getattr(x, true_label)), ns.eq(x.y_pred, getattr(x, pred_label)))
        return ns.sum(x.sample_weight * ns.indicator(hit))

    build.__doc__ = f"Weight of the rows with y_true = {true_label} and y_pred = {pred_label}."
    return build


def _squared_cell(true_label: str, pred_label: str) -> Callable[[Namespace, Rows], Expr]:
    def build(ns: Namespace, x: Rows) -> Expr:
        hit = ns.all(ns.eq(x.y_true, getattr(x, true_label)), ns.eq(x.y_pred, getattr(x, pred_label)))
        return ns.sum(x.sample_weight * x.sample_weight * ns.indicator(hit))

    build.__doc__ = f"Squared weight of the rows with y_true = {true_label} and y_pred = {pred_label} (Kish's n)."
    return build


def clipped_log_loss(ns: Namespace, q: Expr) -> Expr:
    """``-log q``, the probability ``q`` of the true class clipped to [eps, 1 - eps] as scikit-learn."""
    return -ns.ln(ns.greatest(ns.least(q, ns.lit(1 - EPS)), ns.lit(EPS)))


def _log_loss_term(ns: Namespace, x: Rows) -> Expr:
    """-log q, q the probability of the true class clipped to [eps, 1 - eps] as scikit-learn."""
    p = ns.to_float(x.y_score)
    q = ns.when(ns.eq(x.y_true, x.pos_label), p).otherwise(1 - p)
    return clipped_log_loss(ns, q)


def _hinge_term(ns: Namespace, x: Rows) -> Expr:
    """max(0, 1 - t s), t = +1 for pos_label and -1 otherwise, s = y_score (a decision function)."""
    sign = ns.when(ns.eq(x.y_true, x.pos_label), ns.lit(1.0)).otherwise(ns.lit(-1.0))
    margin = 1 - sign * ns.to_float(x.y_score)
    return ns.when(margin > 0, margin).otherwise(ns.lit(0.0))


def _smape_term(ns: Namespace, x: Rows) -> Expr:
    """2 |y_true - y_pred| / (|y_true| + |y_pred|); 0 where both are 0."""
    scale = ns.abs(ns.to_float(x.y_true)) + ns.abs(ns.to_float(x.y_pred))
    return ns.when(ns.eq(scale, 0), ns.lit(0.0)).otherwise(2 * ns.abs(error(ns, x)) / scale)


def pinball(ns: Namespace, e: Expr, alpha: Expr) -> Expr:
    """The pinball loss of an error ``e``: ``alpha e`` if ``e >= 0``, else ``(alpha - 1) e``."""
    return ns.when(e >= 0, alpha * e).otherwise((alpha - 1) * e)


def curve_rows(ns: Namespace, x: Rows, score: str) -> Rows:
    """The rows of the curve stage sorting ``score``: ``y_score`` as labelled, else every row positive.

    ``y_true`` and ``abs_error`` (``|y_true - y_pred|``) make the stage of a
    weighted quantile: the points are the distinct values with their weight
    ``pw``, ``tp`` the weight at or above a value, ``pos_total`` the group's.
    """
    if score == "y_score":
        return x
    value = ns.abs(error(ns, x)) if score == "abs_error" else ns.to_float(x.y_true)
    return replace(x, y_true=ns.lit(True), y_score=value, pos_label=ns.lit(True), neg_label=ns.lit(False))


def quantile_level(ns: Namespace, quantile: str, alpha: Expr) -> Expr:
    """The level of a statistic's ``quantile``: 0.5 for ``median``, the pinball level for ``alpha``."""
    return alpha if quantile == "alpha" else ns.lit(0.5)


def weighted_quantile(ns: Namespace, c: CurvePoints, level: Expr) -> Expr:
    """The weighted ``level``-quantile of a group's scores, over its curve points (an aggregate).

    scikit-learn's ``_weighted_percentile(average=True)`` (NumPy's
    ``averaged_inverted_cdf``; the median for unit weights): with ``W`` the
    total weight and ``F(v)`` the weight at or below ``v``, the lowest value
    of positive weight with ``F(v) >= level W``; where ``F(v) = level W``
    exactly, the mean of it and the next value of positive weight. Read from
    the top, the weight above the quantile is ``u = (1 - level) W``: the
    value is the lowest whose ``tp_prev`` (weight strictly above) is at most
    ``u``. Sums are compared within ``QUANTILE_TOLERANCE * W`` (scikit-learn:
    an absolute 2.2e-16), so that weights of any scale, or summed in any
    order, give one value; null if the total weight is 0.
    """
    above = (1 - level) * c.pos_total
    tolerance = QUANTILE_TOLERANCE * c.pos_total
    candidate = ns.all(c.pw > 0, c.tp_prev <= above + tolerance)
    lower = ns.min(ns.when(candidate, c.y_score).otherwise())
    upper = ns.min(ns.when(ns.all(c.pw > 0, c.tp <= above + tolerance), c.y_score).otherwise())
    # The lowest candidate has the most weight above it: "it sits on the level" is "some candidate does".
    on_point = ns.max(ns.when(ns.all(candidate, c.tp_prev >= above - tolerance), ns.lit(1.0)).otherwise()) > 0
    return ns.when(ns.all(on_point, ns.not_(ns.is_null(upper))), lower / 2 + upper / 2).otherwise(lower)


def _poisson_deviance(ns: Namespace, y: Expr, f: Expr) -> Expr:
    """2 (y log(y / f) - y + f), y log(y / f) = 0 at y = 0 (scikit-learn's xlogy)."""
    xlogy = ns.when(ns.all(y > 0, f > 0), y * ns.ln(y / f)).otherwise(ns.lit(0.0))
    return 2 * (xlogy - y + f)


def _gamma_deviance(ns: Namespace, y: Expr, f: Expr) -> Expr:
    """2 (log(f / y) + y / f - 1)."""
    log_ratio = ns.when(ns.all(y > 0, f > 0), ns.ln(f / y)).otherwise(ns.lit(0.0))
    return 2 * (log_ratio + y / f - 1)


def tweedie_deviance(ns: Namespace, y: Expr, f: Expr, power: Expr) -> Expr:
    """A row's Tweedie deviance at ``power``, as scikit-learn's ``_mean_tweedie_deviance`` writes it.

    ``(y - f)^2`` at power 0, the Poisson deviance at 1, the Gamma deviance
    at 2, else ``2 (max(y, 0)^(2-p) / ((1-p)(2-p)) - y f^(1-p) / (1-p) +
    f^(2-p) / (2-p))``; exactly 0 where ``f = y`` (the general form leaves a
    rounding residue there, which would make the D^2 of a constant ``y`` a
    huge number instead of undefined).
    """
    p = power
    general = 2 * (ns.greatest(y, ns.lit(0.0)) ** (2 - p) / ((1 - p) * (2 - p)) - y * f ** (1 - p) / (1 - p))
    general = general + 2 * (f ** (2 - p) / (2 - p))
    return (
        ns.when(ns.eq(y, f), ns.lit(0.0))
        .when(ns.eq(p, 0), (y - f) ** 2)
        .when(ns.eq(p, 1), _poisson_deviance(ns, y, f))
        .when(ns.eq(p, 2), _gamma_deviance(ns, y, f))
        .otherwise(general)
    )


def _deviance_sum(deviance: Callable[..., Expr], ns: Namespace, x: Rows, f: Expr, *power: Expr) -> Expr:
    """sum w deviance(y_true, f[, power])."""
    return ns.sum(x.sample_weight * deviance(ns, ns.to_float(x.y_true), f, *power))


def _two_classes(ns: Namespace, c: CurvePoints, value: Expr) -> Expr:
    """``value`` where the group has both classes, else null: no engine divides by a zero total (PostgreSQL
    and Spark's ANSI mode raise)."""
    return ns.when(ns.all(c.pos_total > 0, c.neg_total > 0), value).otherwise()


def roc_gap(ns: Namespace, c: CurvePoints) -> Expr:
    """TPR - FPR at a score, as ``1 - (FN / P + FP / N)``; null with one class.

    Where a score separates the classes (``FN = FP = 0``) the gap is exactly 1:
    Polars divides a column by a scalar through its reciprocal, so ``tp / P``
    can be ``1 - 1e-16`` even when ``tp == P``, while ``(P - tp) / P`` is 0.
    """
    missed = (c.pos_total - c.tp) / c.pos_total + c.fp / c.neg_total
    return _two_classes(ns, c, ns.lit(1.0) - missed)


def _auc_sum(ns: Namespace, c: CurvePoints) -> Expr:
    """Twice the AUC as ``2 - D``, ``D`` twice the discordant share of the pairs (ties counting half).

    ``D`` sums terms in ``fp`` and ``pw``, each exactly 0 when no negative
    outranks a positive, so a perfect ranking's AUC is exactly 1 (summing the
    concordant share instead gives ``1 +- 2e-16``); every term is >= 0, so
    the AUC is never above 1. One sum, as cheap as the concordant one.
    """
    both = ns.all(c.pos_total > 0, c.neg_total > 0)
    discordant = ns.sum(ns.when(both, c.pw / c.pos_total * ((2 * c.fp - c.nw) / c.neg_total)).otherwise(ns.lit(0.0)))
    return ns.lit(2.0) - discordant


def partial_roc_area(ns: Namespace, c: CurvePoints) -> Expr:
    """Area of one ROC segment, from the previous (higher-score) point to this one, left of FPR = max_fpr.

    The previous point is (tp - pw, fp - nw): rates are normalised, so the
    subtraction costs ~1e-16 and AUC queries need no extra window.
    """
    m = c.max_fpr
    fpr, tpr = c.fp / c.neg_total, c.tp / c.pos_total
    fpr0, tpr0 = (c.fp - c.nw) / c.neg_total, (c.tp - c.pw) / c.pos_total
    tpr_at_max = tpr0 + (tpr - tpr0) * (m - fpr0) / (fpr - fpr0)
    return (
        ns.when(ns.any(ns.eq(c.pos_total, 0), ns.eq(c.neg_total, 0)), ns.null())
        .when(fpr <= m, (fpr - fpr0) * (tpr + tpr0) / 2)
        .when(fpr0 < m, (m - fpr0) * (tpr0 + tpr_at_max) / 2)
        .otherwise(ns.lit(0.0))
    )


def _pr_auc_sum(ns: Namespace, c: CurvePoints) -> Expr:
    """sum pw (precision + previous precision) / 2, the previous being 1 at the top."""
    previous = ns.when(c.tp_prev + c.fp_prev > 0, c.tp_prev / (c.tp_prev + c.fp_prev)).otherwise(ns.lit(1.0))
    return ns.sum(ns.when(c.pw > 0, c.pw * (c.tp / (c.tp + c.fp) + previous) / 2).otherwise(ns.lit(0.0)))


def _bep_tp(ns: Namespace, c: CurvePoints) -> Expr:
    """Positive weight ranked among the top P, a score of weight pw + nw straddling rank P sharing pw pro rata.

    A score with no negative at or above it (``fp = 0``) lies wholly within the top P (``tp <= P``): its share
    is 1 exactly, not the rounded ``(P - (tp - pw)) / pw``, so that a perfect ranking's point is exactly 1.
    """
    block = c.pw + c.nw
    share = ns.least(ns.greatest((c.pos_total - (c.tp + c.fp - block)) / block, ns.lit(0.0)), ns.lit(1.0))
    share = ns.when(ns.eq(c.fp, 0), ns.lit(1.0)).otherwise(share)
    return ns.sum(ns.when(block > 0, c.pw * share).otherwise(ns.lit(0.0)))


def negatives_above(c: CurvePoints) -> Expr:
    """A positive's DeLong placement in weight units, ``a = fp - nw / 2``: the negative weight above its score,
    ties counting half (its placement is ``V10 = 1 - a / N``)."""
    return c.fp - c.nw / 2


def positives_above(c: CurvePoints) -> Expr:
    """A negative's DeLong placement in weight units, ``b = tp - pw / 2``: the positive weight above its score,
    ties counting half (its placement is ``V01 = b / P``)."""
    return c.tp - c.pw / 2


def _placement_moments(
    side: str, weight: str, placement: Callable[[CurvePoints], Expr], formula: str, whose: str
) -> tuple[Statistic, Statistic]:
    """``delong_<side>_sum`` and ``delong_<side>_sq``: the first two moments of one class's DeLong
    placements in weight units, ``sum w v`` and ``sum w v^2`` (exact for integer weights)."""
    first, second = (f"sum {weight} {formula[0]}", f"sum {weight} {formula[0]}^2")
    return (
        Statistic(
            f"delong_{side}_sum",
            lambda ns, c: ns.sum(getattr(c, weight) * placement(c)),
            curve=True,
            doc=f"{first}, {formula}: the {whose} DeLong placements in weight units (exact for integer weights).",
        ),
        Statistic(
            f"delong_{side}_sq",
            lambda ns, c: ns.sum(getattr(c, weight) * placement(c) * placement(c)),
            curve=True,
            doc=f"{second}, {formula}: the second moment of the {whose} placements in weight units.",
        ),
    )


def _ks_score(ns: Namespace, c: CurvePoints) -> Expr:
    """The highest score whose gap is within KS_TOLERANCE of the group's largest."""
    return ns.max(ns.when(roc_gap(ns, c) >= c.gap_max - ns.lit(KS_TOLERANCE), c.y_score).otherwise())


Term = Callable[[Namespace, Rows], Expr]


def _weighted(term: Term) -> Callable[[Namespace, Rows], Expr]:
    """The statistic ``sum w t`` of a row ``term`` t."""
    return lambda ns, x: ns.sum(x.sample_weight * term(ns, x))


def _squared(term: Term) -> Term:
    """The row term ``t * t``."""
    return lambda ns, x: term(ns, x) * term(ns, x)


# The statistics sum w t whose mean sum w t / sum w is a metric (Metric.mean), by their row term t: each has its
# sum of squares <name>_sq, sum w t^2, that the normal interval of the mean reads (framemetrics.core.means).
MEAN_TERMS: dict[str, Term] = {
    "sum_log_loss": _log_loss_term,
    "sum_brier": lambda ns, x: (ns.indicator(ns.eq(x.y_true, x.pos_label)) - ns.to_float(x.y_score)) ** 2,
    "sum_hinge": _hinge_term,
    "sum_sq_error": lambda ns, x: error(ns, x) ** 2,
    "sum_abs_error": lambda ns, x: ns.abs(error(ns, x)),
    "sum_sq_log_error": lambda ns, x: (log1p(ns, ns.to_float(x.y_true)) - log1p(ns, ns.to_float(x.y_pred))) ** 2,
    "sum_abs_pct_error": lambda ns, x: ns.abs(error(ns, x)) / ns.greatest(ns.abs(ns.to_float(x.y_true)), ns.lit(EPS)),
    "sum_smape": _smape_term,
    "sum_bias": lambda ns, x: ns.to_float(x.y_pred) - ns.to_float(x.y_true),
    "sum_pinball": lambda ns, x: pinball(ns, error(ns, x), x.alpha),
    "sum_poisson_deviance": lambda ns, x: _poisson_deviance(ns, ns.to_float(x.y_true), ns.to_float(x.y_pred)),
    "sum_gamma_deviance": lambda ns, x: _gamma_deviance(ns, ns.to_float(x.y_true), ns.to_float(x.y_pred)),
    "sum_tweedie_deviance": lambda ns, x: tweedie_deviance(ns, ns.to_float(x.y_true), ns.to_float(x.y_pred), x.power),
}

_ALL = [
    Statistic("n_rows", lambda ns, x: ns.count_rows(), doc="Rows of the group (unweighted).", counted="sum"),
    Statistic("tp", _cell("pos_label", "pos_label"), counted="cell"),
    Statistic("fp", _cell("neg_label", "pos_label"), counted="cell"),
    Statistic("fn", _cell("pos_label", "neg_label"), counted="cell"),
    Statistic("tn", _cell("neg_label", "neg_label"), counted="cell"),
    Statistic("tp_sq", _squared_cell("pos_label", "pos_label"), counted="sum"),
    Statistic("fp_sq", _squared_cell("neg_label", "pos_label"), counted="sum"),
    Statistic("fn_sq", _squared_cell("pos_label", "neg_label"), counted="sum"),
    Statistic("tn_sq", _squared_cell("neg_label", "neg_label"), counted="sum"),
    Statistic(
        "sum_pos_sq",
        lambda ns, x: ns.sum(x.sample_weight * positive_weight(ns, x)),
        counted="sum",
        doc="sum w^2 over the rows of pos_label: Kish's n of the positives, (sum w)^2 / sum w^2 (the ROC band).",
    ),
    Statistic("sum_weight", lambda ns, x: ns.sum(x.sample_weight), doc="Total weight of the group.", counted="sum"),
    Statistic(
        "sum_positive",
        lambda ns, x: ns.sum(x.sample_weight * ns.indicator(ns.eq(x.y_true, x.pos_label))),
        doc="Weight of the rows of pos_label (the prevalence baseline of the D^2 scores).",
        counted="sum",
    ),
    Statistic(
        "sum_log_loss",
        _weighted(MEAN_TERMS["sum_log_loss"]),
        doc="sum w (-log q), q the probability of the true class clipped to [eps, 1 - eps] as scikit-learn.",
        counted="sum",
    ),
    Statistic(
        "sum_brier",
        _weighted(MEAN_TERMS["sum_brier"]),
        doc="sum w (1[y_true = pos_label] - y_score)^2.",
        counted="sum",
    ),
    Statistic(
        "sum_hinge",
        _weighted(MEAN_TERMS["sum_hinge"]),
        doc="sum w max(0, 1 - t s), t = +1 for pos_label and -1 otherwise, s = y_score (a decision function).",
        counted="sum",
    ),
    Statistic("sum_sq_error", _weighted(MEAN_TERMS["sum_sq_error"]), doc="sum w (y_true - y_pred)^2."),
    Statistic("sum_abs_error", _weighted(MEAN_TERMS["sum_abs_error"]), doc="sum w |y_true - y_pred|."),
    Statistic(
        "sum_sq_log_error",
        _weighted(MEAN_TERMS["sum_sq_log_error"]),
        doc="sum w (log1p(y_true) - log1p(y_pred))^2.",
    ),
    Statistic(
        "sum_abs_pct_error",
        _weighted(MEAN_TERMS["sum_abs_pct_error"]),
        doc="sum w |y_true - y_pred| / max(|y_true|, eps).",
    ),
    Statistic(
        "sum_smape",
        _weighted(MEAN_TERMS["sum_smape"]),
        doc="sum w 2 |y_true - y_pred| / (|y_true| + |y_pred|), a row with y_true = y_pred = 0 counting 0.",
    ),
    Statistic(
        "sum_abs_y_true",
        lambda ns, x: ns.sum(x.sample_weight * ns.abs(ns.to_float(x.y_true))),
        doc="sum w |y_true|: the scale of the weighted absolute percentage error.",
    ),
    Statistic(
        "sum_bias",
        _weighted(MEAN_TERMS["sum_bias"]),
        doc="sum w (y_pred - y_true): the total of the forecast's bias.",
    ),
    Statistic(
        "sum_pinball", _weighted(MEAN_TERMS["sum_pinball"]), doc="sum w pinball(y_true - y_pred), at level alpha."
    ),
    Statistic(
        "sum_poisson_deviance",
        _weighted(MEAN_TERMS["sum_poisson_deviance"]),
        doc="sum w 2 (y log(y / y_pred) - y + y_pred): the Tweedie deviance at power 1.",
    ),
    Statistic(
        "sum_gamma_deviance",
        _weighted(MEAN_TERMS["sum_gamma_deviance"]),
        doc="sum w 2 (log(y_pred / y) + y / y_pred - 1): the Tweedie deviance at power 2.",
    ),
    Statistic(
        "sum_tweedie_deviance",
        _weighted(MEAN_TERMS["sum_tweedie_deviance"]),
        doc="sum w d_p(y_true, y_pred): the Tweedie deviance at the given power.",
    ),
    Statistic(
        "tweedie_baseline",
        lambda ns, x: _deviance_sum(tweedie_deviance, ns, x, x.mean_y_true, x.power),
        needs=("mean_y_true",),
        doc="sum w d_p(y_true, mean_y_true): the deviance of the weighted mean, given the first pass's mean.",
    ),
    Statistic(
        "max_abs_error",
        lambda ns, x: ns.max(ns.when(x.sample_weight > 0, ns.abs(error(ns, x))).otherwise()),
        doc="max |y_true - y_pred| over the rows of positive weight.",
    ),
    Statistic(
        "median_abs_error",
        lambda ns, c: weighted_quantile(ns, c, ns.lit(0.5)),
        curve=True,
        previous=True,
        score="abs_error",
        doc="Weighted median of |y_true - y_pred| (scikit-learn's averaged inverted CDF).",
    ),
    Statistic(
        "abs_deviation_median",
        lambda ns, c: ns.sum(c.pw * ns.abs(c.y_score - c.quantile)),
        curve=True,
        previous=True,
        score="y_true",
        quantile="median",
        doc="sum w |y_true - median_w(y_true)|: the absolute error of the constant median.",
    ),
    Statistic(
        "pinball_baseline",
        lambda ns, c: ns.sum(c.pw * pinball(ns, c.y_score - c.quantile, c.alpha)),
        curve=True,
        previous=True,
        score="y_true",
        quantile="alpha",
        doc="sum w pinball(y_true - q), q the weighted alpha-quantile of y_true: the constant quantile's loss.",
    ),
    Statistic(
        "mean_y_true",
        lambda ns, x: group_mean(ns, ns.to_float(x.y_true), x.sample_weight),
        doc="Weighted mean of y_true (exact when constant), for the centred sums.",
    ),
    Statistic(
        "mean_error",
        lambda ns, x: group_mean(ns, error(ns, x), x.sample_weight),
        doc="Weighted mean of y_true - y_pred (exact when constant), for the centred sums.",
    ),
    Statistic(
        "ss_total",
        lambda ns, x: ns.sum(x.sample_weight * (ns.to_float(x.y_true) - x.mean_y_true) ** 2),
        needs=("mean_y_true",),
        doc="sum w (y_true - mean_y_true)^2, given the group mean of a first pass.",
    ),
    Statistic(
        "ss_error_deviation",
        lambda ns, x: ns.sum(x.sample_weight * (error(ns, x) - x.mean_error) ** 2),
        needs=("mean_error",),
        doc="sum w (e - mean_error)^2, e = y_true - y_pred, given the group mean of a first pass.",
    ),
    Statistic(
        "auc_sum",
        _auc_sum,
        curve=True,
        doc=(
            "Twice the trapezoidal ROC AUC, ties counting 1/2: 2 - D, D = sum (pw / P) (2 fp - nw) / N twice the "
            "discordant share of the pairs: exactly 2 when no negative outranks a positive, never above 2."
        ),
    ),
    Statistic(
        "auc_tie_sum",
        lambda ns, c: ns.sum(_two_classes(ns, c, c.pw / c.pos_total * (c.nw / c.neg_total))),
        curve=True,
        doc="Share of the tied (positive, negative) pairs: sum (pw / P) (nw / N) bounds the AUC's tie or binning error.",
    ),
    Statistic(
        "partial_auc",
        lambda ns, c: ns.sum(partial_roc_area(ns, c)),
        curve=True,
        doc="Area of the ROC curve left of FPR = max_fpr, the last segment cut by interpolation.",
    ),
    Statistic(
        "ap_sum",
        lambda ns, c: ns.sum(ns.when(c.pw > 0, c.pw * (c.tp / (c.tp + c.fp))).otherwise(ns.lit(0.0))),
        curve=True,
        doc="Average precision numerator: sum over scores of pw times the precision there.",
    ),
    Statistic("pr_auc_sum", _pr_auc_sum, curve=True, previous=True),
    Statistic(
        "ks_max",
        lambda ns, c: ns.max(roc_gap(ns, c)),
        curve=True,
        doc="Kolmogorov-Smirnov: the largest TPR - FPR over the scores.",
    ),
    Statistic("ks_score", _ks_score, curve=True, gap_max=True),
    Statistic("bep_tp", _bep_tp, curve=True),
    *_placement_moments("pos", "pw", negatives_above, "a = fp - nw / 2", "positives'"),
    *_placement_moments("neg", "nw", positives_above, "b = tp - pw / 2", "negatives'"),
    Statistic("sum_pos", lambda ns, c: ns.sum(c.pw), curve=True, doc="Positive weight of the group (P)."),
    Statistic("sum_neg", lambda ns, c: ns.sum(c.nw), curve=True, doc="Negative weight of the group (N)."),
]

_ALL += [
    Statistic(
        f"{name}_sq",
        _weighted(_squared(term)),
        doc=f"sum w t^2 of the terms t of {name}: the normal interval of its mean.",
        counted=next(s.counted for s in _ALL if s.name == name),
    )
    for name, term in MEAN_TERMS.items()
]

STATISTICS: dict[str, Statistic] = {s.name: s for s in _ALL}
