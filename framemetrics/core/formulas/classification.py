"""Confusion-matrix formulas over the weighted cells ``tp, fp, fn, tn``."""

from __future__ import annotations

from typing import Any

from framemetrics.core.formulas.guards import guarded, share, valid
from framemetrics.core.namespace import Namespace

Expr = Any


def accuracy_score(ns: Namespace, tp: Expr, fp: Expr, fn: Expr, tn: Expr, n_invalid: Expr) -> Expr:
    """(tp + tn) / (tp + fp + fn + tn); null if the total weight is 0."""
    return share(ns, tp + tn, tp + fp + fn + tn, n_invalid)


def error_rate(ns: Namespace, tp: Expr, fp: Expr, fn: Expr, tn: Expr, n_invalid: Expr) -> Expr:
    """(fp + fn) / (tp + fp + fn + tn); null if the total weight is 0."""
    return share(ns, fp + fn, tp + fp + fn + tn, n_invalid)


def prevalence(ns: Namespace, tp: Expr, fp: Expr, fn: Expr, tn: Expr, n_invalid: Expr) -> Expr:
    """(tp + fn) / (tp + fp + fn + tn); null if the total weight is 0."""
    return share(ns, tp + fn, tp + fp + fn + tn, n_invalid)


def precision_score(ns: Namespace, tp: Expr, fp: Expr, n_invalid: Expr, zero_division: Expr) -> Expr:
    """tp / (tp + fp); zero_division if tp + fp = 0."""
    return guarded(ns, n_invalid, tp + fp, zero_division, tp / (tp + fp))


def recall_score(ns: Namespace, tp: Expr, fn: Expr, n_invalid: Expr, zero_division: Expr) -> Expr:
    """tp / (tp + fn); zero_division if tp + fn = 0."""
    return guarded(ns, n_invalid, tp + fn, zero_division, tp / (tp + fn))


def specificity_score(ns: Namespace, fp: Expr, tn: Expr, n_invalid: Expr, zero_division: Expr) -> Expr:
    """tn / (tn + fp); zero_division if tn + fp = 0."""
    return guarded(ns, n_invalid, tn + fp, zero_division, tn / (tn + fp))


def false_positive_rate(ns: Namespace, fp: Expr, tn: Expr, n_invalid: Expr, zero_division: Expr) -> Expr:
    """fp / (fp + tn); zero_division if fp + tn = 0."""
    return guarded(ns, n_invalid, fp + tn, zero_division, fp / (fp + tn))


def false_negative_rate(ns: Namespace, tp: Expr, fn: Expr, n_invalid: Expr, zero_division: Expr) -> Expr:
    """fn / (fn + tp); zero_division if fn + tp = 0."""
    return guarded(ns, n_invalid, fn + tp, zero_division, fn / (fn + tp))


def negative_predictive_value(ns: Namespace, fn: Expr, tn: Expr, n_invalid: Expr, zero_division: Expr) -> Expr:
    """tn / (tn + fn); zero_division if tn + fn = 0."""
    return guarded(ns, n_invalid, tn + fn, zero_division, tn / (tn + fn))


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


def f1_score(ns: Namespace, tp: Expr, fp: Expr, fn: Expr, n_invalid: Expr, zero_division: Expr) -> Expr:
    """2 tp / (2 tp + fp + fn); zero_division if the denominator is 0."""
    denominator = 2 * tp + fn + fp
    return guarded(ns, n_invalid, denominator, zero_division, 2 * tp / denominator)


def jaccard_score(ns: Namespace, tp: Expr, fp: Expr, fn: Expr, n_invalid: Expr, zero_division: Expr) -> Expr:
    """tp / (tp + fp + fn); zero_division if the denominator is 0."""
    return guarded(ns, n_invalid, tp + fp + fn, zero_division, tp / (tp + fp + fn))


def balanced_accuracy_score(ns: Namespace, tp: Expr, fp: Expr, fn: Expr, tn: Expr, n_invalid: Expr) -> Expr:
    """Mean recall of the classes present in y_true (scikit-learn's nanmean of tp/(tp+fn), tn/(tn+fp))."""
    return (
        ns.when(ns.any(n_invalid > 0, ns.eq(tp + fp + fn + tn, 0)), ns.null())
        .when(ns.eq(tp + fn, 0), tn / (tn + fp))
        .when(ns.eq(tn + fp, 0), tp / (tp + fn))
        .otherwise((tp / (tp + fn) + tn / (tn + fp)) / 2)
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


def positive_likelihood_ratio(ns: Namespace, tp: Expr, fp: Expr, fn: Expr, tn: Expr, n_invalid: Expr) -> Expr:
    """LR+ = (tp / (tp + fn)) / (fp / (fp + tn)); null if fp = 0 or no positive (scikit-learn's NaN)."""
    return valid(ns, n_invalid, (tp / (tp + fn)) / (fp / (fp + tn)), ns.eq(fp, 0), ns.eq(tp + fn, 0))


def negative_likelihood_ratio(ns: Namespace, tp: Expr, fp: Expr, fn: Expr, tn: Expr, n_invalid: Expr) -> Expr:
    """LR- = (fn / (tp + fn)) / (tn / (fp + tn)); null if tn = 0 or no positive (scikit-learn's NaN)."""
    return valid(ns, n_invalid, (fn / (tp + fn)) / (tn / (fp + tn)), ns.eq(tn, 0), ns.eq(tp + fn, 0))
