"""Probability formulas: weighted means of per-row losses."""

from __future__ import annotations

from typing import Any

from framemetrics.core.formulas.guards import share
from framemetrics.core.namespace import Namespace

Expr = Any


def log_loss(ns: Namespace, sum_log_loss: Expr, sum_weight: Expr, n_invalid: Expr) -> Expr:
    """sum w (-log q) / sum w, q the probability of the true class clipped to [eps, 1 - eps]."""
    return share(ns, sum_log_loss, sum_weight, n_invalid)


def brier_score_loss(ns: Namespace, sum_brier: Expr, sum_weight: Expr, n_invalid: Expr) -> Expr:
    """sum w (y - p)^2 / sum w."""
    return share(ns, sum_brier, sum_weight, n_invalid)
