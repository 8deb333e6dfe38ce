"""Probability formulas: weighted means of per-row losses, and their D^2 against the prevalence."""

from __future__ import annotations

from typing import Any

from framemetrics.core.formulas.guards import valid, weighted_mean
from framemetrics.core.namespace import Namespace
from framemetrics.core.statistics import clipped_log_loss

Expr = Any


# The weighted means of one row statistic each (guards.weighted_mean): name, statistic, formula.
log_loss = weighted_mean(
    "log_loss",
    "sum_log_loss",
    "sum w (-log q) / sum w, q the probability of the true class clipped to [eps, 1 - eps].",
    __name__,
)
brier_score_loss = weighted_mean("brier_score_loss", "sum_brier", "sum w (y - p)^2 / sum w.", __name__)
hinge_loss = weighted_mean(
    "hinge_loss",
    "sum_hinge",
    "sum w max(0, 1 - t s) / sum w, t = +1 for pos_label, -1 for neg_label, s the decision function.",
    __name__,
)


def _d2(ns: Namespace, loss_sum: Expr, baseline: Expr, sum_weight: Expr, n_rows: Expr, n_invalid: Expr) -> Expr:
    """1 - (loss_sum / W) / baseline; null under two rows (scikit-learn's NaN) or with a zero baseline."""
    undefined = (ns.to_float(n_rows) < 2, ns.eq(sum_weight, 0), ns.eq(baseline, 0))
    return valid(ns, n_invalid, 1 - loss_sum / sum_weight / baseline, *undefined)


def d2_brier_score(
    ns: Namespace, sum_brier: Expr, sum_positive: Expr, sum_weight: Expr, n_rows: Expr, n_invalid: Expr
) -> Expr:
    """1 - Brier / (pi (1 - pi)), pi = sum_positive / W the weighted prevalence (the Brier of predicting it)."""
    prevalence = ns.ratio(sum_positive, sum_weight)
    return _d2(ns, sum_brier, prevalence * (1 - prevalence), sum_weight, n_rows, n_invalid)


def d2_log_loss_score(
    ns: Namespace, sum_log_loss: Expr, sum_positive: Expr, sum_weight: Expr, n_rows: Expr, n_invalid: Expr
) -> Expr:
    """1 - log loss / (pi L(pi) + (1 - pi) L(1 - pi)), L the clipped -log, pi the weighted prevalence.

    The baseline is scikit-learn's log loss of predicting the prevalence,
    clipped to [eps, 1 - eps] as the log loss is: with one class it is
    about 2.2e-16, not 0, so the score is a large negative number there, as
    scikit-learn's.
    """
    prevalence = ns.ratio(sum_positive, sum_weight)
    baseline = prevalence * clipped_log_loss(ns, prevalence) + (1 - prevalence) * clipped_log_loss(ns, 1 - prevalence)
    return _d2(ns, sum_log_loss, baseline, sum_weight, n_rows, n_invalid)
