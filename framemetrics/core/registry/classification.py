"""The binary classification metrics of the registry: one entry each, over the weighted confusion cells.

An entry is the metric's formula, ``f(ns, <cells>, n_invalid, <parameters>)``
over the cells ``tp, fp, fn, tn`` it reads (sums of weights, stage 1), under
:func:`_confusion`, which holds the rest: its builder's docstring and README
row, its reference, its interval (``proportion``: Wilson's and
Clopper-Pearson's, for ``successes / trials`` of cells), its range and its
parameters with their defaults. Every engine, SQL dialect, macro, builder,
``evaluate``, the CLI and the report read the registry; adding a metric is
adding an entry here (and its reference to ``tests/sklearn_binary.py``).

``zero_division`` is the value of a ratio whose denominator is 0 (None: null).

Examples
--------
>>> [m.name for m in CLASSIFICATION][:3]
['accuracy_score', 'error_rate', 'precision_score']
>>> precision_score.statistics, precision_score.proportion
(('tp', 'fp'), (('tp',), ('tp', 'fp')))
"""

from __future__ import annotations

import math
from collections.abc import Callable
from typing import Any

from framemetrics.core.checks import check
from framemetrics.core.formulas.guards import guarded, share, valid
from framemetrics.core.namespace import Namespace
from framemetrics.core.registry.metric import LABELS, Doc, Metric, entry

__all__ = ["CLASSIFICATION"]

Expr = Any

_CHECKS = LABELS + (check("label", "y_pred"),)
_FRAME = 'pl.DataFrame({"y": [0, 1, 1, 0, 1], "p": [0.1, 0.8, 0.4, 0.6, 0.9]})'


def _example(call: str, value: str) -> str:
    """The builder example of ``fm.<call>`` on the shared five rows, rounded to 4 digits."""
    return (
        f">>> import polars as pl, framemetrics as fm\n>>> df = {_FRAME}\n"
        f">>> round(df.select(fm.{call}).item(), 4)\n{value}"
    )


def _confusion(
    summary: str,
    *,
    readme: str,
    notes: str,
    see_also: str,
    reference: str,
    examples: str,
    proportion: tuple[str, str] | None = None,
    value_range: tuple[float, float] = (0.0, 1.0),
    **params: Any,
) -> Callable[[Callable[..., Expr]], Metric]:
    """Make the decorated formula a binary classification metric of its name.

    ``proportion`` is ``("<successes>", "<trials>")``, each a sum of cells
    (``"tp + fp"``); ``params`` are the metric's parameters and defaults.
    """
    cells = None if proportion is None else (tuple(proportion[0].split(" + ")), tuple(proportion[1].split(" + ")))

    def metric(formula: Callable[..., Expr]) -> Metric:
        doc = Doc(summary, readme, notes, see_also, examples)
        return entry(
            formula,
            "binary",
            "classification",
            _CHECKS,
            doc,
            params=params,
            reference=reference,
            proportion=cells,
            value_range=value_range,
        )

    return metric


@_confusion(
    summary="Accuracy: the weighted share of correct predictions.",
    readme="(tp + tn) / total",
    notes="``(tp + tn) / (tp + fp + fn + tn)``; null if the total weight is 0.",
    see_also="sklearn.metrics.accuracy_score : the reference it matches.",
    reference="`accuracy_score`",
    examples=_example('accuracy_score("y", pl.col("p") >= 0.5)', "0.6"),
    proportion=("tp + tn", "tp + fp + fn + tn"),
)
def accuracy_score(ns: Namespace, tp: Expr, fp: Expr, fn: Expr, tn: Expr, n_invalid: Expr) -> Expr:
    """(tp + tn) / (tp + fp + fn + tn); null if the total weight is 0."""
    return share(ns, tp + tn, tp + fp + fn + tn, n_invalid)


@_confusion(
    summary="Error rate: the weighted share of wrong predictions, ``1 - accuracy``.",
    readme="(fp + fn) / total",
    notes="``(fp + fn) / (tp + fp + fn + tn)``; null if the total weight is 0.",
    see_also="1 - sklearn.metrics.accuracy_score : the reference it matches.",
    reference="1 − `accuracy_score`",
    examples=_example('error_rate("y", pl.col("p") >= 0.5)', "0.4"),
    proportion=("fp + fn", "tp + fp + fn + tn"),
)
def error_rate(ns: Namespace, tp: Expr, fp: Expr, fn: Expr, tn: Expr, n_invalid: Expr) -> Expr:
    """(fp + fn) / (tp + fp + fn + tn); null if the total weight is 0."""
    return share(ns, fp + fn, tp + fp + fn + tn, n_invalid)


@_confusion(
    summary="Precision (positive predictive value).",
    readme="tp / (tp + fp)",
    notes="``tp / (tp + fp)``.",
    see_also="sklearn.metrics.precision_score : the reference it matches.",
    reference="`precision_score`",
    examples=_example('precision_score("y", pl.col("p") >= 0.5)', "0.6667"),
    proportion=("tp", "tp + fp"),
    zero_division=None,
)
def precision_score(ns: Namespace, tp: Expr, fp: Expr, n_invalid: Expr, zero_division: Expr) -> Expr:
    """tp / (tp + fp); zero_division if tp + fp = 0."""
    return guarded(ns, n_invalid, tp + fp, zero_division, tp / (tp + fp))


@_confusion(
    summary="Recall (sensitivity, true positive rate).",
    readme="tp / (tp + fn)",
    notes="``tp / (tp + fn)``.",
    see_also="sklearn.metrics.recall_score : the reference it matches.",
    reference="`recall_score`",
    examples=_example('recall_score("y", pl.col("p") >= 0.5)', "0.6667"),
    proportion=("tp", "tp + fn"),
    zero_division=None,
)
def recall_score(ns: Namespace, tp: Expr, fn: Expr, n_invalid: Expr, zero_division: Expr) -> Expr:
    """tp / (tp + fn); zero_division if tp + fn = 0."""
    return guarded(ns, n_invalid, tp + fn, zero_division, tp / (tp + fn))


@_confusion(
    summary="Specificity (true negative rate, the recall of the negative class).",
    readme="tn / (tn + fp)",
    notes="``tn / (tn + fp)``.",
    see_also="sklearn.metrics.recall_score with pos_label = the negative class : the reference it matches.",
    reference="`recall_score` of the negative class",
    examples=_example('specificity_score("y", pl.col("p") >= 0.5)', "0.5"),
    proportion=("tn", "tn + fp"),
    zero_division=None,
)
def specificity_score(ns: Namespace, fp: Expr, tn: Expr, n_invalid: Expr, zero_division: Expr) -> Expr:
    """tn / (tn + fp); zero_division if tn + fp = 0."""
    return guarded(ns, n_invalid, tn + fp, zero_division, tn / (tn + fp))


@_confusion(
    summary="False positive rate (fall-out), ``1 - specificity``.",
    readme="fp / (fp + tn)",
    notes="``fp / (fp + tn)``.",
    see_also="fp / (fp + tn) of sklearn.metrics.confusion_matrix : the reference it matches.",
    reference="from `confusion_matrix`",
    examples=_example('false_positive_rate("y", pl.col("p") >= 0.5)', "0.5"),
    proportion=("fp", "fp + tn"),
    zero_division=None,
)
def false_positive_rate(ns: Namespace, fp: Expr, tn: Expr, n_invalid: Expr, zero_division: Expr) -> Expr:
    """fp / (fp + tn); zero_division if fp + tn = 0."""
    return guarded(ns, n_invalid, fp + tn, zero_division, fp / (fp + tn))


@_confusion(
    summary="False negative rate (miss rate), ``1 - recall``.",
    readme="fn / (fn + tp)",
    notes="``fn / (fn + tp)``.",
    see_also="fn / (fn + tp) of sklearn.metrics.confusion_matrix : the reference it matches.",
    reference="from `confusion_matrix`",
    examples=_example('false_negative_rate("y", pl.col("p") >= 0.5)', "0.3333"),
    proportion=("fn", "fn + tp"),
    zero_division=None,
)
def false_negative_rate(ns: Namespace, tp: Expr, fn: Expr, n_invalid: Expr, zero_division: Expr) -> Expr:
    """fn / (fn + tp); zero_division if fn + tp = 0."""
    return guarded(ns, n_invalid, fn + tp, zero_division, fn / (fn + tp))


@_confusion(
    summary="Negative predictive value (the precision of the negative class).",
    readme="tn / (tn + fn)",
    notes="``tn / (tn + fn)``.",
    see_also="sklearn.metrics.precision_score with pos_label = the negative class : the reference it matches.",
    reference="`precision_score` of the negative class",
    examples=_example('negative_predictive_value("y", pl.col("p") >= 0.5)', "0.5"),
    proportion=("tn", "tn + fn"),
    zero_division=None,
)
def negative_predictive_value(ns: Namespace, fn: Expr, tn: Expr, n_invalid: Expr, zero_division: Expr) -> Expr:
    """tn / (tn + fn); zero_division if tn + fn = 0."""
    return guarded(ns, n_invalid, tn + fn, zero_division, tn / (tn + fn))


@_confusion(
    summary="F1 score, the harmonic mean of precision and recall.",
    readme="2 tp / (2 tp + fp + fn)",
    notes="``2 tp / (2 tp + fp + fn)``.",
    see_also="sklearn.metrics.f1_score : the reference it matches.",
    reference="`f1_score`",
    examples=_example('f1_score("y", pl.col("p") >= 0.5)', "0.6667"),
    zero_division=None,
)
def f1_score(ns: Namespace, tp: Expr, fp: Expr, fn: Expr, n_invalid: Expr, zero_division: Expr) -> Expr:
    """2 tp / (2 tp + fp + fn); zero_division if the denominator is 0."""
    denominator = 2 * tp + fn + fp
    return guarded(ns, n_invalid, denominator, zero_division, 2 * tp / denominator)


@_confusion(
    summary="F-beta score: recall weighted ``beta`` times as much as precision.",
    readme=(
        "(1 + β²) tp / ((1 + β²) tp + β² fn + fp), computed as tp / (tp + w fn + (1 − w) fp), w = β² / (1 + β²): "
        "finite for every β ≥ 0, β = 0 the precision and β = ∞ the recall, as scikit-learn (recall once β² overflows, "
        "β ≳ 1e154, where scikit-learn raises OverflowError)"
    ),
    notes="``(1 + b^2) tp / ((1 + b^2) tp + b^2 fn + fp)`` with ``b = beta``.",
    see_also="sklearn.metrics.fbeta_score : the reference it matches.",
    reference="`fbeta_score`",
    examples=_example('fbeta_score("y", pl.col("p") >= 0.5, beta=2)', "0.6667"),
    beta=1.0,
    zero_division=None,
)
def fbeta_score(ns: Namespace, tp: Expr, fp: Expr, fn: Expr, n_invalid: Expr, beta: Expr, zero_division: Expr) -> Expr:
    """(1 + b^2) tp / ((1 + b^2) tp + b^2 fn + fp); zero_division if the denominator is 0.

    Divided through by 1 + b^2: ``tp / (tp + w fn + (1 - w) fp)`` with
    ``w = b^2 / (1 + b^2)``, finite for every beta (``b^2`` overflows from
    beta ~ 1e154: w is then 1, recall, the limit of F-beta).
    """
    b2 = beta * beta
    w = ns.when(b2 > 1, 1 / (1 + 1 / b2)).otherwise(b2 / (1 + b2))
    denominator = tp + w * fn + (1 - w) * fp
    return guarded(ns, n_invalid, denominator, zero_division, tp / denominator)


@_confusion(
    summary="Jaccard index (intersection over union) of the positive class.",
    readme="tp / (tp + fp + fn)",
    notes="``tp / (tp + fp + fn)``.",
    see_also="sklearn.metrics.jaccard_score : the reference it matches.",
    reference="`jaccard_score`",
    examples=_example('jaccard_score("y", pl.col("p") >= 0.5)', "0.5"),
    zero_division=None,
)
def jaccard_score(ns: Namespace, tp: Expr, fp: Expr, fn: Expr, n_invalid: Expr, zero_division: Expr) -> Expr:
    """tp / (tp + fp + fn); zero_division if the denominator is 0."""
    return guarded(ns, n_invalid, tp + fp + fn, zero_division, tp / (tp + fp + fn))


@_confusion(
    summary="Balanced accuracy: the mean of recall and specificity.",
    readme="mean of the recalls of the classes present",
    notes="""\
``(tp / (tp + fn) + tn / (tn + fp)) / 2``; with one class in ``y_true``,
the recall of that class (scikit-learn averages the defined recalls).""",
    see_also="sklearn.metrics.balanced_accuracy_score : the reference it matches.",
    reference="`balanced_accuracy_score`",
    examples=_example('balanced_accuracy_score("y", pl.col("p") >= 0.5)', "0.5833"),
)
def balanced_accuracy_score(ns: Namespace, tp: Expr, fp: Expr, fn: Expr, tn: Expr, n_invalid: Expr) -> Expr:
    """Mean recall of the classes present in y_true (scikit-learn's nanmean of tp/(tp+fn), tn/(tn+fp))."""
    return (
        ns.when(ns.any(n_invalid > 0, ns.eq(tp + fp + fn + tn, 0)), ns.null())
        .when(ns.eq(tp + fn, 0), tn / (tn + fp))
        .when(ns.eq(tn + fp, 0), tp / (tp + fn))
        .otherwise((tp / (tp + fn) + tn / (tn + fp)) / 2)
    )


@_confusion(
    summary="Matthews correlation coefficient.",
    readme="(c·s − t·p) / √((s² − p·p)(s² − t·t)), 0 if undefined",
    notes="""\
scikit-learn's form over the confusion matrix: with ``s`` the total, ``c``
the correct weight, ``t`` and ``p`` the true and predicted class totals,
``(c s - t.p) / sqrt((s^2 - p.p) (s^2 - t.t))``, and 0 when the
denominator is 0. All in floating point: no integer overflow.""",
    see_also="sklearn.metrics.matthews_corrcoef : the reference it matches.",
    reference="`matthews_corrcoef`",
    examples=_example('matthews_corrcoef("y", pl.col("p") >= 0.5)', "0.1667"),
    value_range=(-1.0, 1.0),
)
def matthews_corrcoef(ns: Namespace, tp: Expr, fp: Expr, fn: Expr, tn: Expr, n_invalid: Expr) -> Expr:
    """scikit-learn's (c s - t.p) / sqrt((s^2 - p.p)(s^2 - t.t)) over the cells; 0 if undefined.

    Divided through by s^2: the marginals as fractions of s, so that no
    product of weights under- or overflows at any scale of the weights.
    """
    total = tp + fp + fn + tn
    # Plain divisions: a zero total takes the first branch below (its quotients are never read).
    pred_pos, pred_neg, true_pos, true_neg, correct = (v / total for v in (fp + tp, tn + fn, fn + tp, tn + fp, tp + tn))
    var_pred = 1 - (pred_neg**2 + pred_pos**2)
    var_true = 1 - (true_neg**2 + true_pos**2)
    cov = correct - (true_neg * pred_neg + true_pos * pred_pos)
    return (
        ns.when(n_invalid > 0, ns.null())
        .when(ns.any(ns.eq(total, 0), ns.eq(var_pred, 0), ns.eq(var_true, 0)), ns.lit(0.0))
        .otherwise(cov / (ns.sqrt(var_pred) * ns.sqrt(var_true)))
    )


@_confusion(
    summary="Cohen's kappa between true and predicted labels.",
    readme="1 − (fp + fn) / E, E the chance disagreement",
    notes="""\
``1 - (fp + fn) / e`` with ``e = ((tn + fn)(fn + tp) + (fp + tp)(tn + fp)) / s``
the disagreement expected by chance (``s`` the total); null if ``e = 0``
(scikit-learn: NaN).""",
    see_also="sklearn.metrics.cohen_kappa_score : the reference it matches.",
    reference="`cohen_kappa_score`",
    examples=_example('cohen_kappa_score("y", pl.col("p") >= 0.5)', "0.1667"),
    value_range=(-1.0, 1.0),
)
def cohen_kappa_score(ns: Namespace, tp: Expr, fp: Expr, fn: Expr, tn: Expr, n_invalid: Expr) -> Expr:
    """1 - (fp + fn) / E, E = (pred_neg true_pos + pred_pos true_neg) / total the chance disagreement.

    Over fractions of the total: 1 - ((fp + fn) / s) / (pn tp' + pp tn'), the
    marginals divided by s, so that no product of weights under- or overflows.
    """
    total = tp + fp + fn + tn
    pred_pos, pred_neg, true_pos, true_neg = (v / total for v in (fp + tp, tn + fn, fn + tp, tn + fp))
    expected = pred_neg * true_pos + pred_pos * true_neg
    observed = (fp + fn) / total
    return valid(ns, n_invalid, 1 - observed / expected, ns.eq(total, 0), ns.eq(expected, 0))


@_confusion(
    summary="Prevalence: the weighted share of positives in ``y_true``.",
    readme="(tp + fn) / total",
    notes="``(tp + fn) / (tp + fp + fn + tn)``.",
    see_also="numpy.average(y_true == pos_label, weights=sample_weight) : the reference it matches.",
    reference="weighted mean of `y_true == pos_label`",
    examples=_example('prevalence("y", pl.col("p") >= 0.5)', "0.6"),
    proportion=("tp + fn", "tp + fp + fn + tn"),
)
def prevalence(ns: Namespace, tp: Expr, fp: Expr, fn: Expr, tn: Expr, n_invalid: Expr) -> Expr:
    """(tp + fn) / (tp + fp + fn + tn); null if the total weight is 0."""
    return share(ns, tp + fn, tp + fp + fn + tn, n_invalid)


@_confusion(
    summary="Positive likelihood ratio LR+: how much a positive prediction raises the odds of the positive class.",
    readme="LR+ = (tp / (tp + fn)) / (fp / (fp + tn)); null if fp = 0 or no positive",
    notes="""\
``(tp / (tp + fn)) / (fp / (fp + tn))``, sensitivity over the false positive
rate. Null where ``fp = 0`` or the group has no positive (scikit-learn's NaN
with its default ``replace_undefined_by``).""",
    see_also="""\
sklearn.metrics.class_likelihood_ratios : the reference (its first value).
negative_likelihood_ratio : LR-.""",
    reference="`class_likelihood_ratios()[0]`",
    examples="""\
>>> import polars as pl, framemetrics as fm
>>> df = pl.DataFrame({"y": [0, 1, 1, 0, 1, 0], "p": [0.1, 0.8, 0.4, 0.6, 0.9, 0.2]})
>>> round(df.select(fm.positive_likelihood_ratio("y", pl.col("p") >= 0.5)).item(), 4)
2.0""",
    value_range=(0.0, math.inf),
)
def positive_likelihood_ratio(ns: Namespace, tp: Expr, fp: Expr, fn: Expr, tn: Expr, n_invalid: Expr) -> Expr:
    """LR+ = (tp / (tp + fn)) / (fp / (fp + tn)); null if fp = 0 or no positive (scikit-learn's NaN)."""
    return valid(ns, n_invalid, (tp / (tp + fn)) / (fp / (fp + tn)), ns.eq(fp, 0), ns.eq(tp + fn, 0))


@_confusion(
    summary="Negative likelihood ratio LR-: how much a negative prediction lowers the odds of the positive class.",
    readme="LR− = (fn / (tp + fn)) / (tn / (fp + tn)); null if tn = 0 or no positive",
    notes="""\
``(fn / (tp + fn)) / (tn / (fp + tn))``, the false negative rate over the
specificity. Null where ``tn = 0`` or the group has no positive.""",
    see_also="""\
sklearn.metrics.class_likelihood_ratios : the reference (its second value).
positive_likelihood_ratio : LR+.""",
    reference="`class_likelihood_ratios()[1]`",
    examples="""\
>>> import polars as pl, framemetrics as fm
>>> df = pl.DataFrame({"y": [0, 1, 1, 0, 1, 0], "p": [0.1, 0.8, 0.4, 0.6, 0.9, 0.2]})
>>> round(df.select(fm.negative_likelihood_ratio("y", pl.col("p") >= 0.5)).item(), 4)
0.5""",
    value_range=(0.0, math.inf),
)
def negative_likelihood_ratio(ns: Namespace, tp: Expr, fp: Expr, fn: Expr, tn: Expr, n_invalid: Expr) -> Expr:
    """LR- = (fn / (tp + fn)) / (tn / (fp + tn)); null if tn = 0 or no positive (scikit-learn's NaN)."""
    return valid(ns, n_invalid, (fn / (tp + fn)) / (tn / (fp + tn)), ns.eq(tn, 0), ns.eq(tp + fn, 0))


@_confusion(
    summary="Informedness (Youden's J, bookmaker informedness): recall plus specificity minus 1.",
    readme=(
        "tp / (tp + fn) + tn / (tn + fp) − 1, Powers' informedness, 2 · balanced accuracy − 1 with both classes; "
        "a term whose denominator is 0 takes `zero_division` (default null); in [−1, 1]"
    ),
    notes="""\
``tp / (tp + fn) + tn / (tn + fp) - 1`` (Powers 2011), the true positive rate
plus the true negative rate minus 1: 0 for a chance-level predictor, 1 for a
perfect one. A term whose denominator is 0 (a class absent from ``y_true``)
takes ``zero_division``, as scikit-learn's recall of that class; with the
default None the value is null. In [-1, 1]; with both classes present,
``2 * balanced_accuracy_score - 1``.""",
    see_also="""\
sklearn.metrics.recall_score : the reference, recall of pos_label + recall of neg_label - 1.
markedness : its dual, precision + negative predictive value - 1.""",
    reference="`recall_score` + `recall_score` of the negative class − 1",
    examples=_example('informedness("y", pl.col("p") >= 0.5)', "0.1667")
    + """
>>> ones = pl.DataFrame({"y": [1, 1], "p": [1, 0]})
>>> ones.select(fm.informedness("y", "p")).item(), ones.select(fm.informedness("y", "p", zero_division=1)).item()
(None, 0.5)""",
    value_range=(-1.0, 1.0),
    zero_division=None,
)
def informedness(ns: Namespace, tp: Expr, fp: Expr, fn: Expr, tn: Expr, n_invalid: Expr, zero_division: Expr) -> Expr:
    """tp / (tp + fn) + tn / (tn + fp) - 1; a term whose denominator is 0 takes zero_division."""
    recall = guarded(ns, n_invalid, tp + fn, zero_division, tp / (tp + fn))
    specificity = guarded(ns, n_invalid, tn + fp, zero_division, tn / (tn + fp))
    return recall + specificity - 1


@_confusion(
    summary="Markedness: precision plus negative predictive value minus 1.",
    readme=(
        "tp / (tp + fp) + tn / (tn + fn) − 1, Powers' markedness; a term whose denominator is 0 takes "
        "`zero_division` (default null); in [−1, 1]"
    ),
    notes="""\
``tp / (tp + fp) + tn / (tn + fn) - 1`` (Powers 2011), the precision plus the
negative predictive value minus 1: 0 for a chance-level predictor, 1 for a
perfect one. A term whose denominator is 0 (a class never predicted) takes
``zero_division``, as scikit-learn's precision of that class; with the
default None the value is null. In [-1, 1].""",
    see_also="""\
sklearn.metrics.precision_score : the reference, precision of pos_label + precision of neg_label - 1.
informedness : its dual, recall + specificity - 1.""",
    reference="`precision_score` + `precision_score` of the negative class − 1",
    examples=_example('markedness("y", pl.col("p") >= 0.5)', "0.1667")
    + """
>>> ones = pl.DataFrame({"y": [1, 0], "p": [1, 1]})
>>> ones.select(fm.markedness("y", "p")).item(), ones.select(fm.markedness("y", "p", zero_division=1)).item()
(None, 0.5)""",
    value_range=(-1.0, 1.0),
    zero_division=None,
)
def markedness(ns: Namespace, tp: Expr, fp: Expr, fn: Expr, tn: Expr, n_invalid: Expr, zero_division: Expr) -> Expr:
    """tp / (tp + fp) + tn / (tn + fn) - 1; a term whose denominator is 0 takes zero_division."""
    precision = guarded(ns, n_invalid, tp + fp, zero_division, tp / (tp + fp))
    negative_predictive_value = guarded(ns, n_invalid, tn + fn, zero_division, tn / (tn + fn))
    return precision + negative_predictive_value - 1


# Every entry above, in order.
CLASSIFICATION: tuple[Metric, ...] = tuple(v for v in dict(globals()).values() if isinstance(v, Metric))
