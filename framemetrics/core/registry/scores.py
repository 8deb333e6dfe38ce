"""The probability and ranking metrics of the registry: one entry each, its formula a function of the core.

Probability metrics read the true labels and the predicted probability of
``pos_label`` (stage 1: weighted sums of per-row losses). Ranking metrics read
scores and are formulas over the curve stage (per distinct score, the
positive and negative weight ``pw, nw`` and their cumulative sums ``tp, fp``
over scores at or above it); inside one Polars expression the stage is read
from the group's rows by sorting and binary search, and ``evaluate`` and SQL
build it with a ``GROUP BY`` and a window. Each is one call of
:func:`_probability` or :func:`_ranking`: formula, summary, README formula,
Notes, example value.
"""

from __future__ import annotations

import math
from typing import Any

from framemetrics.core.checks import check
from framemetrics.core.formulas import probability, ranking
from framemetrics.core.registry.metric import LABELS, Example, Metric, entry

__all__ = ["SCORES"]


_PROBABILITIES = Example('{"y": [0, 1, 1, 0], "p": [0.1, 0.9, 0.8, 0.3]}', '"y", "p"')
_FIVE_PROBABILITIES = Example('{"y": [0, 1, 1, 0, 1], "p": [0.1, 0.9, 0.8, 0.3, 0.6]}', '"y", "p"')
_SCORES = Example('{"y": [0, 0, 1, 1], "s": [0.1, 0.4, 0.35, 0.8]}', '"y", "s"')


def _probability(formula: Any, summary: str, readme: str, notes: str, example: str | Example, **kwargs: Any) -> Metric:
    """A probability metric: ``example`` a value on :data:`_PROBABILITIES` or an example of its own."""
    example = _PROBABILITIES(example) if isinstance(example, str) else example
    checks = kwargs.pop("checks", LABELS + (check("probability", "y_score"),))
    return entry(formula, "binary", "probability", checks, summary, readme, notes, example, **kwargs)


def _ranking(formula: Any, summary: str, readme: str, notes: str, example: str | Example, **kwargs: Any) -> Metric:
    """A ranking metric: ``example`` a value on :data:`_SCORES` or an example of its own."""
    example = _SCORES(example) if isinstance(example, str) else example
    # Finite scores, as scikit-learn: an infinite score would tie with the curves' +inf point.
    checks = LABELS + (check("finite", "y_score"),)
    return entry(formula, "binary", "ranking", checks, summary, readme, notes, example, **kwargs)


# Each metric: its formula, summary, README formula, Notes and example, then what differs from the defaults.
SCORES: tuple[Metric, ...] = (
    _probability(
        probability.log_loss,
        "Log loss (cross-entropy) of the predicted probabilities.",
        "Σ w·(−log q) / Σ w, q the probability of the true class clipped to [ε, 1 − ε], ε = 2⁻⁵²",
        """\
``sum(w * -log(q)) / sum(w)`` with ``q`` the probability given to the true
class, clipped to ``[eps, 1 - eps]`` with ``eps = 2**-52`` exactly as
scikit-learn clips ``[1 - p, p]``.""",
        "0.1976",
        value_range=(0.0, math.inf),
        mean="sum_log_loss",
    ),
    _probability(
        probability.brier_score_loss,
        "Brier score: the weighted mean squared error of the probabilities.",
        "Σ w·(y − p)² / Σ w",
        "``sum(w * (y - p)^2) / sum(w)`` with ``y`` 1 for ``pos_label``, else 0.",
        "0.0375",
        value_range=(0.0, 1.0),
        mean="sum_brier",
    ),
    _probability(
        probability.d2_log_loss_score,
        "D^2 of the log loss: the fraction of the prevalence baseline's log loss that the model explains.",
        (
            "1 − log loss / (π L(π) + (1 − π) L(1 − π)), π = Σ w [y = pos] / Σ w the weighted prevalence, L the "
            "clipped −log; null under two rows"
        ),
        """\
``1 - log_loss / baseline``, the baseline the log loss of predicting the
weighted prevalence ``pi = sum(w [y = pos_label]) / sum(w)`` on every row:
``pi L(pi) + (1 - pi) L(1 - pi)``, ``L`` the log loss's clipped ``-log``.
Null under two rows (scikit-learn: NaN). With one class the clipped
baseline is about 2.2e-16, so the score is a large negative number, as
scikit-learn's.""",
        _FIVE_PROBABILITIES("0.6133"),
        value_range=(-math.inf, 1.0),
    ),
    _probability(
        probability.d2_brier_score,
        "D^2 of the Brier score: the fraction of the prevalence baseline's Brier score the model explains.",
        "1 − Brier / (π (1 − π)); null under two rows or with one class",
        """\
``1 - brier / (pi (1 - pi))``, ``pi`` the weighted prevalence (the Brier
score of predicting it). Null under two rows and with one class.""",
        _FIVE_PROBABILITIES("0.7417"),
        reference="`d2_brier_score` (−inf with one class)",
        value_range=(-math.inf, 1.0),
    ),
    _probability(
        probability.hinge_loss,
        "Average hinge loss of a decision function (the SVM loss).",
        (
            "Σ w max(0, 1 − t s) / Σ w, t = +1 for `pos_label`, −1 otherwise, `y_score` a decision function (any "
            "finite number)"
        ),
        """\
``sum(w max(0, 1 - t s)) / sum(w)`` with ``t = +1`` for ``pos_label`` and
``-1`` for ``neg_label``. A group holding one class only keeps that class's
sign; scikit-learn's ``LabelBinarizer`` would encode a lone class as -1.""",
        _PROBABILITIES("0.45", frame='{"y": [0, 1, 1, 0], "s": [-2.0, 0.5, 1.5, 0.3]}', inputs='"y", "s"'),
        see_also="sklearn.metrics.hinge_loss : the reference it matches (binary).",
        reference="`hinge_loss` (which encodes a group's lone class as −1; framemetrics keeps `pos_label` +1)",
        inputs={"y_score": "Decision function: finite scores, positive meaning ``pos_label``."},
        checks=LABELS + (check("finite", "y_score"),),
        value_range=(0.0, math.inf),
        mean="sum_hinge",
    ),
    _ranking(
        ranking.roc_auc_score,
        "Area under the ROC curve, exact with tied scores and weights.",
        (
            "Σ nw (2 tp − pw) / (2 P N): the trapezoid, ties counting ½; null with one class. `max_fpr = m`: the area "
            "A left of FPR = m (last segment cut by interpolation), standardised as McClish, (1 + (A − m²/2) / (m − "
            "m²/2)) / 2"
        ),
        """\
The trapezoidal area, tied scores counting 1/2: ``sum(nw (2 tp - pw)) / (2 P N)``
over distinct scores, with ``P`` and ``N`` the total positive and negative
weight. Null when ``P`` or ``N`` is 0 (scikit-learn raises). With
``max_fpr = m < 1``: the area ``A`` left of FPR = m (the last segment cut by
linear interpolation), standardised as ``(1 + (A - m^2/2) / (m - m^2/2)) / 2``.""",
        _SCORES(
            "0.75", exact=True, more='\n>>> round(df.select(fm.roc_auc_score("y", "s", max_fpr=0.5)).item(), 4)\n0.6667'
        ),
        reference="`roc_auc_score` (raises with one class), same `max_fpr`",
        params={"max_fpr": None},
        input_params={"max_fpr": None},
        conditional={"partial_auc": lambda params: params["max_fpr"] not in (None, 1)},
        value_range=(0.0, 1.0),
    ),
    _ranking(
        ranking.gini_score,
        "Normalized Gini coefficient, ``2 AUC - 1``.",
        "2 AUC − 1",
        "``2 AUC - 1`` with the AUC of :func:`roc_auc_score`; null where it is.",
        _SCORES("0.5", exact=True),
        see_also="roc_auc_score : the AUC it rescales; the reference is ``2 * sklearn.metrics.roc_auc_score - 1``.",
        reference="2 · `roc_auc_score` − 1",
        value_range=(-1.0, 1.0),
    ),
    _ranking(
        ranking.roc_auc_error_bound,
        "Bound on how far the AUC over tied (or binned) scores can be from an AUC without the ties.",
        (
            "Σ pw · nw / (2 P N): half the weight of tied (positive, negative) pairs, the most the AUC can move when "
            "ties are broken; with `bins=` a bound on the binning error; null with one class"
        ),
        """\
``sum_s pw_s nw_s / (2 P N)`` over distinct scores: a (positive, negative)
pair tied at a score counts 1/2 in the AUC, where any ordering of the two
counts 0 or 1. With scores binned (``bins=`` of :func:`framemetrics.evaluate`,
or ``(pl.col("p") * 1024).floor()`` here), pairs that only the binning
ties move by at most 1/2 each, so ``|AUC(binned) - AUC(exact)| <= bound``.
Null when ``P`` or ``N`` is 0. The reference is the same sum in NumPy; the
tests also check the bound against scikit-learn's exact AUC.""",
        _SCORES("0.125", frame='{"y": [0, 1, 0, 1], "s": [0.1, 0.5, 0.5, 0.9]}', exact=True),
        see_also="roc_auc_score : the AUC it bounds; ``evaluate(..., bins=)`` reports it next to each binned AUC.",
        reference="the same sum in NumPy, and |binned AUC − exact `roc_auc_score`| ≤ bound (tested)",
        value_range=(0.0, 0.5),
    ),
    _ranking(
        ranking.average_precision_score,
        "Average precision, scikit-learn's step-wise definition (not the trapezoid).",
        "Σ pw · tp / (tp + fp) / P, the step-wise sum; null when P = 0",
        """\
``sum_n (R_n - R_(n-1)) P_n`` over distinct scores in decreasing order, i.e.
``sum(pw tp / (tp + fp)) / P``. Null when ``P`` is 0 (scikit-learn returns
0.0 with a warning).""",
        "0.8333",
        reference="`average_precision_score` (0.0 with a warning when P = 0)",
        value_range=(0.0, 1.0),
    ),
    _ranking(
        ranking.pr_auc_score,
        "Area under the precision-recall curve by the trapezoid (Spark's ``areaUnderPR``).",
        "trapezoid under the PR curve from (recall 0, precision 1): Σ pw (prec + prev. prec) / 2 / P; null when P = 0",
        """\
Over distinct scores in decreasing order, starting from the point
(recall 0, precision 1): ``sum (R_n - R_(n-1)) (P_n + P_(n-1)) / 2``.
Average precision uses ``P_n`` alone: straight lines between PR points are
an interpolation no classifier achieves (precision does not vary linearly
with recall; Davis & Goadrich, 2006), which is why scikit-learn recommends
average precision; the trapezoid is what Spark MLlib and many dashboards
report. Null when ``P`` is 0.""",
        "0.7917",
        see_also="""\
average_precision_score : the step-wise area, scikit-learn's preferred summary.
sklearn.metrics.auc : the reference, ``auc(recall, precision)`` of ``precision_recall_curve``.""",
        reference="`auc(recall, precision)` of `precision_recall_curve`",
        value_range=(0.0, 1.0),
    ),
    _ranking(
        ranking.ks_statistic,
        "Kolmogorov-Smirnov statistic: the largest gap between TPR and FPR over thresholds.",
        "max over scores of tp / P − fp / N (the two-sample KS statistic); null with one class",
        """\
``max_s (tp_s / P - fp_s / N)`` over distinct scores: the two-sample
Kolmogorov-Smirnov statistic between the (weighted) score distributions of
the two classes. Null when ``P`` or ``N`` is 0.""",
        _SCORES("0.5", exact=True),
        see_also="sklearn.metrics.roc_curve : the reference is ``max(tpr - fpr)`` of its points.",
        reference="max(tpr − fpr) of `roc_curve`",
        value_range=(0.0, 1.0),
    ),
    _ranking(
        ranking.ks_threshold,
        "The highest score at which TPR - FPR is within 1e-12 of the Kolmogorov-Smirnov statistic.",
        (
            "the highest score whose tp / P − fp / N is within 10⁻¹² of the maximum (gaps equal in exact arithmetic "
            "tie although rounding sets them 10⁻¹⁶ apart, so every engine picks the same score); null when the maximum "
            "is 0 (scikit-learn's +inf: no score separates the classes) or with one class"
        ),
        """\
The highest distinct score ``s`` whose gap ``tp_s / P - fp_s / N`` is within
1e-12 of the largest gap: predicting ``y_score >= s`` separates the classes
best. The tolerance makes gaps that are equal in exact arithmetic tie
although rounding sets them 1e-16 apart (``1/3 - 0`` and ``2/3 - 1/3``), so
the highest of them wins on every engine; the price is that a gap short
of the maximum by less than 1e-12 (a score of weight 1e-13 of the group's)
ties too. Null when the largest gap is 0 (no score separates the classes;
scikit-learn's ``argmax`` gives its first ROC threshold, ``+inf``: a metric
is a number or null, never infinite) and when ``P`` or ``N`` is 0.""",
        _SCORES("0.8", exact=True),
        see_also="""\
ks_statistic : the gap reached there.
sklearn.metrics.roc_curve : the reference is the threshold of the highest
    point of ``tpr - fpr`` (``drop_intermediate=False``).""",
        reference=(
            "highest threshold of `roc_curve(drop_intermediate=False)` within 10⁻¹² of max(tpr − fpr) (its plain "
            "`argmax` can pick a lower, rounded-up tie)"
        ),
    ),
    _ranking(
        ranking.break_even_point,
        "Precision-recall break-even point: where precision equals recall.",
        (
            "precision = recall = tp* / P once the top P of the weight is predicted positive, ranking by decreasing "
            "score; a tied score straddling rank P adds its pw pro rata (the expected count under a random order of "
            "ties, i.e. linear interpolation between the two PR points around tp + fp = P): Σ pw · clip((P − above) / "
            "(pw + nw), 0, 1) / P, `above` the weight of higher scores. Without ties or weights: R-precision. Null "
            "when P = 0"
        ),
        """\
Precision ``tp / k`` equals recall ``tp / P`` exactly when the predicted
positive weight ``k`` is ``P``. On the discrete curve this is reached by
ranking rows by decreasing score and taking the top ``P`` of the weight;
a tied score that straddles rank ``P`` contributes its positive weight pro
rata, the expected count when tied rows are ordered at random (the linear
interpolation between the two PR points around ``k = P``):

``BEP = (1 / P) sum_s pw_s min(1, max(0, (P - above_s) / (pw_s + nw_s)))``

with ``above_s`` the weight of scores higher than ``s``. Without ties or
weights this is R-precision, the precision of the top ``P`` rows.
Null when ``P`` is 0.""",
        _SCORES("0.5", exact=True),
        see_also="sklearn.metrics.precision_recall_curve : the reference interpolates its points.",
        reference="the same interpolation between the points of `confusion_matrix_at_thresholds`",
        value_range=(0.0, 1.0),
    ),
)
