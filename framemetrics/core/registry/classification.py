"""The binary classification metrics of the registry: one entry each, over the weighted confusion cells.

An entry is the metric's formula, ``f(ns, <cells>, n_invalid, <parameters>)``
over the cells ``tp, fp, fn, tn`` it reads (sums of weights, stage 1), under
:func:`_confusion`, which holds the rest: its builder's summary and example
value, its README formula and Notes where its docstring's formula does not
say them, its reference where it is not scikit-learn's function of its name,
its range and its parameters with their defaults. A proportion
``successes / trials`` of cells is one line, :func:`_proportion`: its
formula, docstring, README formula and interval (Wilson's and
Clopper-Pearson's) are written from the two sums. Every engine, SQL dialect,
macro, builder, ``evaluate``, the CLI and the report read the registry;
adding a metric is adding an entry here (and its reference to
``tests/sklearn_binary.py``).

``zero_division`` is the value of a ratio whose denominator is 0 (None: null).

Examples
--------
>>> [m.name for m in CLASSIFICATION][:3]
['accuracy_score', 'error_rate', 'precision_score']
>>> precision = CLASSIFICATION[2]
>>> precision.statistics, precision.proportion, precision.formula.function.__doc__
(('tp', 'fp'), (('tp',), ('tp', 'fp')), 'tp / (tp + fp); zero_division if tp + fp = 0.')
"""

from __future__ import annotations

import math
import operator
from collections.abc import Callable
from functools import reduce
from typing import Any

from framemetrics.core.checks import check
from framemetrics.core.formulas.guards import guarded, named_formula, share, valid
from framemetrics.core.namespace import Namespace
from framemetrics.core.registry.metric import LABELS, Example, Metric, entry

__all__ = ["CLASSIFICATION", "recall_weight"]

Expr = Any

_CHECKS = LABELS + (check("label", "y_pred"),)
_CELLS = ("tp", "fp", "fn", "tn")
_ROWS = Example('{"y": [0, 1, 1, 0, 1], "p": [0.1, 0.8, 0.4, 0.6, 0.9]}', '"y", pl.col("p") >= 0.5')
_SIX_ROWS = Example('{"y": [0, 1, 1, 0, 1, 0], "p": [0.1, 0.8, 0.4, 0.6, 0.9, 0.2]}', _ROWS.inputs)
_ENTRIES: list[Metric] = []  # every metric below, in order


def _confusion(
    summary: str,
    example: str | Example,
    readme: str = "",
    notes: str = "",
    *,
    reference: str = "",
    see_also: str = "",
    value_range: tuple[float, float] = (0.0, 1.0),
    proportion: tuple[tuple[str, ...], tuple[str, ...]] | None = None,
    **params: Any,
) -> Callable[[Callable[..., Expr]], Metric]:
    """Make the decorated formula a binary classification metric of its name.

    ``example`` is the value on :data:`_ROWS` or an example of its own;
    ``readme`` defaults to the formula the formula's docstring begins with
    (up to ``; ``), ``notes`` to the README formula quoted; ``reference``
    and ``see_also`` are :func:`~framemetrics.core.registry.metric.entry`'s;
    ``params`` are the metric's parameters and defaults.
    """

    def metric(formula: Callable[..., Expr]) -> Metric:
        formula_readme = readme or formula.__doc__.split("; ")[0]
        shown = _ROWS(example) if isinstance(example, str) else example
        _ENTRIES.append(
            entry(
                formula,
                "binary",
                "classification",
                _CHECKS,
                summary,
                formula_readme,
                notes or f"``{formula_readme}``.",
                shown,
                reference=reference,
                see_also=see_also,
                params=params,
                proportion=proportion,
                value_range=value_range,
            )
        )
        return _ENTRIES[-1]

    return metric


def _proportion(name: str, successes: str, trials: str, summary: str, example: str, **documentation: str) -> None:
    """The metric ``name``, ``successes / trials`` of sums of cells (``"tp + fp"``), with its intervals.

    A share of the total is null where the total weight is 0; any other
    ratio takes ``zero_division`` where its trials weigh 0.
    """
    part, whole = successes.split(" + "), trials.split(" + ")
    of_total = len(whole) == len(_CELLS)
    numerator = f"({successes})" if len(part) > 1 else successes
    ratio = f"{numerator} / ({trials})"
    rule = "null if the total weight is 0" if of_total else f"zero_division if {trials} = 0"

    def body(ns: Namespace, n_invalid: Expr, zero_division: Expr = None, **cells: Expr) -> Expr:
        def total(names: list[str]) -> Expr:
            return reduce(operator.add, (cells[c] for c in names))

        if of_total:
            return share(ns, total(part), total(whole), n_invalid)
        return guarded(ns, n_invalid, total(whole), zero_division, total(part) / total(whole))

    parameters = (*(c for c in _CELLS if c in part + whole), "n_invalid", *(() if of_total else ("zero_division",)))
    formula = named_formula(name, parameters, f"{ratio}; {rule}.", __name__, body)
    readme = f"{numerator} / total" if of_total else ratio
    notes = f"``{ratio}``; {rule}." if of_total else f"``{ratio}``."
    params = {} if of_total else {"zero_division": None}
    proportion = (tuple(part), tuple(whole))
    _confusion(summary, example, readme, notes, proportion=proportion, **documentation, **params)(formula)


_proportion(
    "accuracy_score", "tp + tn", "tp + fp + fn + tn", "Accuracy: the weighted share of correct predictions.", "0.6"
)
_proportion(
    "error_rate",
    "fp + fn",
    "tp + fp + fn + tn",
    "Error rate: the weighted share of wrong predictions, ``1 - accuracy``.",
    "0.4",
    see_also="1 - sklearn.metrics.accuracy_score : the reference it matches.",
    reference="1 − `accuracy_score`",
)
_proportion("precision_score", "tp", "tp + fp", "Precision (positive predictive value).", "0.6667")
_proportion("recall_score", "tp", "tp + fn", "Recall (sensitivity, true positive rate).", "0.6667")
_proportion(
    "specificity_score",
    "tn",
    "tn + fp",
    "Specificity (true negative rate, the recall of the negative class).",
    "0.5",
    see_also="sklearn.metrics.recall_score with pos_label = the negative class : the reference it matches.",
    reference="`recall_score` of the negative class",
)
_proportion(
    "false_positive_rate",
    "fp",
    "fp + tn",
    "False positive rate (fall-out), ``1 - specificity``.",
    "0.5",
    see_also="fp / (fp + tn) of sklearn.metrics.confusion_matrix : the reference it matches.",
    reference="from `confusion_matrix`",
)
_proportion(
    "false_negative_rate",
    "fn",
    "fn + tp",
    "False negative rate (miss rate), ``1 - recall``.",
    "0.3333",
    see_also="fn / (fn + tp) of sklearn.metrics.confusion_matrix : the reference it matches.",
    reference="from `confusion_matrix`",
)
_proportion(
    "negative_predictive_value",
    "tn",
    "tn + fn",
    "Negative predictive value (the precision of the negative class).",
    "0.5",
    see_also="sklearn.metrics.precision_score with pos_label = the negative class : the reference it matches.",
    reference="`precision_score` of the negative class",
)


@_confusion("F1 score, the harmonic mean of precision and recall.", "0.6667", zero_division=None)
def f1_score(ns: Namespace, tp: Expr, fp: Expr, fn: Expr, n_invalid: Expr, zero_division: Expr) -> Expr:
    """2 tp / (2 tp + fp + fn); zero_division if the denominator is 0."""
    denominator = 2 * tp + fn + fp
    return guarded(ns, n_invalid, denominator, zero_division, 2 * tp / denominator)


def recall_weight(ns: Namespace, beta: Expr) -> Expr:
    """F-beta's ``w = b^2 / (1 + b^2)``, the weight of ``fn`` in ``tp / (tp + w fn + (1 - w) fp)``; finite for every
    beta (``b^2`` overflows from beta ~ 1e154: w is then 1).

    Examples
    --------
    >>> import polars as pl
    >>> from framemetrics.compilers.polars import POLARS
    >>> pl.select(recall_weight(POLARS, pl.lit(2.0))).item()
    0.8
    """
    b2 = beta * beta
    return ns.when(b2 > 1, 1 / (1 + 1 / b2)).otherwise(b2 / (1 + b2))


@_confusion(
    "F-beta score: recall weighted ``beta`` times as much as precision.",
    _ROWS("0.6667", "beta=2"),
    (
        "(1 + β²) tp / ((1 + β²) tp + β² fn + fp), computed as tp / (tp + w fn + (1 − w) fp), w = β² / (1 + β²): "
        "finite for every β ≥ 0, β = 0 the precision and β = ∞ the recall, as scikit-learn (recall once β² overflows, "
        "β ≳ 1e154, where scikit-learn raises OverflowError)"
    ),
    "``(1 + b^2) tp / ((1 + b^2) tp + b^2 fn + fp)`` with ``b = beta``.",
    beta=1.0,
    zero_division=None,
)
def fbeta_score(ns: Namespace, tp: Expr, fp: Expr, fn: Expr, n_invalid: Expr, beta: Expr, zero_division: Expr) -> Expr:
    """(1 + b^2) tp / ((1 + b^2) tp + b^2 fn + fp); zero_division if the denominator is 0.

    Divided through by 1 + b^2: ``tp / (tp + w fn + (1 - w) fp)`` with
    ``w = b^2 / (1 + b^2)``, finite for every beta (``b^2`` overflows from
    beta ~ 1e154: w is then 1, recall, the limit of F-beta).
    """
    w = recall_weight(ns, beta)
    denominator = tp + w * fn + (1 - w) * fp
    return guarded(ns, n_invalid, denominator, zero_division, tp / denominator)


@_confusion("Jaccard index (intersection over union) of the positive class.", "0.5", zero_division=None)
def jaccard_score(ns: Namespace, tp: Expr, fp: Expr, fn: Expr, n_invalid: Expr, zero_division: Expr) -> Expr:
    """tp / (tp + fp + fn); zero_division if the denominator is 0."""
    return guarded(ns, n_invalid, tp + fp + fn, zero_division, tp / (tp + fp + fn))


@_confusion(
    "Balanced accuracy: the mean of recall and specificity.",
    "0.5833",
    "mean of the recalls of the classes present",
    """\
``(tp / (tp + fn) + tn / (tn + fp)) / 2``; with one class in ``y_true``,
the recall of that class (scikit-learn averages the defined recalls).""",
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
    "Matthews correlation coefficient.",
    "0.1667",
    "(c·s − t·p) / √((s² − p·p)(s² − t·t)), 0 if undefined",
    """\
scikit-learn's form over the confusion matrix: with ``s`` the total, ``c``
the correct weight, ``t`` and ``p`` the true and predicted class totals,
``(c s - t.p) / sqrt((s^2 - p.p) (s^2 - t.t))``, and 0 when the
denominator is 0. All in floating point: no integer overflow.""",
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
    "Cohen's kappa between true and predicted labels.",
    "0.1667",
    "1 − (fp + fn) / E, E the chance disagreement",
    """\
``1 - (fp + fn) / e`` with ``e = ((tn + fn)(fn + tp) + (fp + tp)(tn + fp)) / s``
the disagreement expected by chance (``s`` the total); null if ``e = 0``
(scikit-learn: NaN).""",
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


_proportion(
    "prevalence",
    "tp + fn",
    "tp + fp + fn + tn",
    "Prevalence: the weighted share of positives in ``y_true``.",
    "0.6",
    see_also="numpy.average(y_true == pos_label, weights=sample_weight) : the reference it matches.",
    reference="weighted mean of `y_true == pos_label`",
)


@_confusion(
    "Positive likelihood ratio LR+: how much a positive prediction raises the odds of the positive class.",
    _SIX_ROWS("2.0"),
    "LR+ = (tp / (tp + fn)) / (fp / (fp + tn)); null if fp = 0 or no positive",
    """\
``(tp / (tp + fn)) / (fp / (fp + tn))``, sensitivity over the false positive
rate. Null where ``fp = 0`` or the group has no positive (scikit-learn's NaN
with its default ``replace_undefined_by``).""",
    see_also="""\
sklearn.metrics.class_likelihood_ratios : the reference (its first value).
negative_likelihood_ratio : LR-.""",
    reference="`class_likelihood_ratios()[0]`",
    value_range=(0.0, math.inf),
)
def positive_likelihood_ratio(ns: Namespace, tp: Expr, fp: Expr, fn: Expr, tn: Expr, n_invalid: Expr) -> Expr:
    """LR+ = (tp / (tp + fn)) / (fp / (fp + tn)); null if fp = 0 or no positive (scikit-learn's NaN)."""
    return valid(ns, n_invalid, (tp / (tp + fn)) / (fp / (fp + tn)), ns.eq(fp, 0), ns.eq(tp + fn, 0))


@_confusion(
    "Negative likelihood ratio LR-: how much a negative prediction lowers the odds of the positive class.",
    _SIX_ROWS("0.5"),
    "LR− = (fn / (tp + fn)) / (tn / (fp + tn)); null if tn = 0 or no positive",
    """\
``(fn / (tp + fn)) / (tn / (fp + tn))``, the false negative rate over the
specificity. Null where ``tn = 0`` or the group has no positive.""",
    see_also="""\
sklearn.metrics.class_likelihood_ratios : the reference (its second value).
positive_likelihood_ratio : LR+.""",
    reference="`class_likelihood_ratios()[1]`",
    value_range=(0.0, math.inf),
)
def negative_likelihood_ratio(ns: Namespace, tp: Expr, fp: Expr, fn: Expr, tn: Expr, n_invalid: Expr) -> Expr:
    """LR- = (fn / (tp + fn)) / (tn / (fp + tn)); null if tn = 0 or no positive (scikit-learn's NaN)."""
    return valid(ns, n_invalid, (fn / (tp + fn)) / (tn / (fp + tn)), ns.eq(tn, 0), ns.eq(tp + fn, 0))


@_confusion(
    "Informedness (Youden's J, bookmaker informedness): recall plus specificity minus 1.",
    _ROWS(
        "0.1667",
        more="""
>>> ones = pl.DataFrame({"y": [1, 1], "p": [1, 0]})
>>> ones.select(fm.informedness("y", "p")).item(), ones.select(fm.informedness("y", "p", zero_division=1)).item()
(None, 0.5)""",
    ),
    (
        "tp / (tp + fn) + tn / (tn + fp) − 1, Powers' informedness, 2 · balanced accuracy − 1 with both classes; a "
        "term whose denominator is 0 takes `zero_division` (default null); in [−1, 1]"
    ),
    """\
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
    value_range=(-1.0, 1.0),
    zero_division=None,
)
def informedness(ns: Namespace, tp: Expr, fp: Expr, fn: Expr, tn: Expr, n_invalid: Expr, zero_division: Expr) -> Expr:
    """tp / (tp + fn) + tn / (tn + fp) - 1; a term whose denominator is 0 takes zero_division."""
    recall = guarded(ns, n_invalid, tp + fn, zero_division, tp / (tp + fn))
    specificity = guarded(ns, n_invalid, tn + fp, zero_division, tn / (tn + fp))
    return recall + specificity - 1


@_confusion(
    "Markedness: precision plus negative predictive value minus 1.",
    _ROWS(
        "0.1667",
        more="""
>>> ones = pl.DataFrame({"y": [1, 0], "p": [1, 1]})
>>> ones.select(fm.markedness("y", "p")).item(), ones.select(fm.markedness("y", "p", zero_division=1)).item()
(None, 0.5)""",
    ),
    (
        "tp / (tp + fp) + tn / (tn + fn) − 1, Powers' markedness; a term whose denominator is 0 takes `zero_division` "
        "(default null); in [−1, 1]"
    ),
    """\
``tp / (tp + fp) + tn / (tn + fn) - 1`` (Powers 2011), the precision plus the
negative predictive value minus 1: 0 for a chance-level predictor, 1 for a
perfect one. A term whose denominator is 0 (a class never predicted) takes
``zero_division``, as scikit-learn's precision of that class; with the
default None the value is null. In [-1, 1].""",
    see_also="""\
sklearn.metrics.precision_score : the reference, precision of pos_label + precision of neg_label - 1.
informedness : its dual, recall + specificity - 1.""",
    reference="`precision_score` + `precision_score` of the negative class − 1",
    value_range=(-1.0, 1.0),
    zero_division=None,
)
def markedness(ns: Namespace, tp: Expr, fp: Expr, fn: Expr, tn: Expr, n_invalid: Expr, zero_division: Expr) -> Expr:
    """tp / (tp + fp) + tn / (tn + fn) - 1; a term whose denominator is 0 takes zero_division."""
    precision = guarded(ns, n_invalid, tp + fp, zero_division, tp / (tp + fp))
    negative_predictive_value = guarded(ns, n_invalid, tn + fn, zero_division, tn / (tn + fn))
    return precision + negative_predictive_value - 1


CLASSIFICATION: tuple[Metric, ...] = tuple(_ENTRIES)
