"""Ranking formulas over the curve stage's statistics; null without both classes."""

from __future__ import annotations

from typing import Any

from framemetrics.core.constants import KS_TOLERANCE
from framemetrics.core.formulas.guards import valid
from framemetrics.core.namespace import Namespace

Expr = Any


def _two_classes(ns: Namespace, n_invalid: Expr, value: Expr, sum_pos: Expr, sum_neg: Expr, *undefined: Expr) -> Expr:
    return valid(ns, n_invalid, value, ns.eq(sum_pos, 0), ns.eq(sum_neg, 0), *undefined)


def _auc(auc_sum: Expr) -> Expr:
    return auc_sum / 2


def roc_auc_score(
    ns: Namespace, auc_sum: Expr, partial_auc: Expr, sum_pos: Expr, sum_neg: Expr, n_invalid: Expr, max_fpr: Expr
) -> Expr:
    """sum nw (2 tp - pw) / (2 P N) (auc_sum / 2); with max_fpr = m < 1, McClish's (1 + (A - m^2/2) / (m - m^2/2)) / 2."""
    m = max_fpr
    return (
        ns.when(ns.any(n_invalid > 0, ns.eq(sum_pos, 0), ns.eq(sum_neg, 0), m <= 0, m > 1), ns.null())
        .when(ns.any(ns.is_null(m), ns.eq(m, 1)), _auc(auc_sum))
        .otherwise((1 + (partial_auc - m * m / 2) / (m - m * m / 2)) / 2)
    )


def gini_score(ns: Namespace, auc_sum: Expr, sum_pos: Expr, sum_neg: Expr, n_invalid: Expr) -> Expr:
    """2 AUC - 1."""
    return _two_classes(ns, n_invalid, 2 * _auc(auc_sum) - 1, sum_pos, sum_neg)


def roc_auc_error_bound(ns: Namespace, auc_tie_sum: Expr, sum_pos: Expr, sum_neg: Expr, n_invalid: Expr) -> Expr:
    """sum pw nw / (2 P N) (auc_tie_sum / 2): half the share of tied (positive, negative) pairs."""
    return _two_classes(ns, n_invalid, _auc(auc_tie_sum), sum_pos, sum_neg)


def average_precision_score(ns: Namespace, ap_sum: Expr, sum_pos: Expr, n_invalid: Expr) -> Expr:
    """sum pw tp / (tp + fp) / P, the step-wise sum; null when P = 0."""
    return valid(ns, n_invalid, ap_sum / sum_pos, ns.eq(sum_pos, 0))


def pr_auc_score(ns: Namespace, pr_auc_sum: Expr, sum_pos: Expr, n_invalid: Expr) -> Expr:
    """Trapezoid under the PR curve from (recall 0, precision 1); null when P = 0."""
    return valid(ns, n_invalid, pr_auc_sum / sum_pos, ns.eq(sum_pos, 0))


def ks_statistic(ns: Namespace, ks_max: Expr, sum_pos: Expr, sum_neg: Expr, n_invalid: Expr) -> Expr:
    """max over scores of tp / P - fp / N."""
    return _two_classes(ns, n_invalid, ks_max, sum_pos, sum_neg)


def ks_threshold(ns: Namespace, ks_max: Expr, ks_score: Expr, sum_pos: Expr, sum_neg: Expr, n_invalid: Expr) -> Expr:
    """The highest score whose gap is within KS_TOLERANCE of the largest; null when that is 0 (no score separates)."""
    return _two_classes(ns, n_invalid, ks_score, sum_pos, sum_neg, ks_max <= ns.lit(KS_TOLERANCE))


def break_even_point(ns: Namespace, bep_tp: Expr, sum_pos: Expr, n_invalid: Expr) -> Expr:
    """tp* / P once the top P of the weight is predicted positive (ties pro rata); null when P = 0."""
    return valid(ns, n_invalid, bep_tp / sum_pos, ns.eq(sum_pos, 0))
