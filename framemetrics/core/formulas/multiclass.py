"""Multiclass stage 2, written once: row terms, averages over classes and per-group formulas.

Every function takes a :class:`~framemetrics.core.namespace.Namespace` and
expressions of it, as the binary formulas do. The row terms are summed per
group (``sum_log_loss``, ``sum_brier``, ``sum_top_k``); the averages
aggregate one value per class of a group (scikit-learn's ``average=``); the
formulas compute a metric from a group's sums. The per-class values
themselves are the binary formulas (:data:`framemetrics.core.formulas.FORMULAS`)
over each class's ``tp, fp, fn``.

Examples
--------
>>> from framemetrics.compilers.sql import SQL
>>> from framemetrics.compilers.sql.emit import to_sql
>>> to_sql(share(SQL, SQL.col("tp"), SQL.col("total"), SQL.lit(0)))
'CASE WHEN 0 > 0 OR total = 0 THEN CAST(NULL AS DOUBLE) ELSE tp / total END'
"""

from __future__ import annotations

from typing import Any

from framemetrics.core.namespace import Namespace
from framemetrics.core.statistics import clipped_log_loss

__all__ = [
    "balanced_accuracy",
    "brier",
    "brier_term",
    "class_value",
    "harmonic_f1",
    "kappa",
    "kappa_weight",
    "log_loss_row",
    "macro",
    "macro_strict",
    "matthews",
    "mean",
    "ovo_pair",
    "ranks_above",
    "share",
    "value",
    "weighted",
    "weighted_strict",
]

Expr = Any


def log_loss_row(ns: Namespace, p_true: Expr) -> Expr:
    """-log of the true class's probability, clipped as the binary log loss."""
    return clipped_log_loss(ns, ns.to_float(p_true))


def brier_term(ns: Namespace, s: Expr, c: Expr, true_index: Expr) -> Expr:
    """``(s_c - [c is the true class])^2``, one class's term of a row's Brier score."""
    d = ns.to_float(s) - ns.indicator(ns.eq(c, true_index))
    return d * d


def ranks_above(ns: Namespace, s: Expr, c: Expr, p_true: Expr, true_index: Expr) -> Expr:
    """1 if class ``c`` ranks above the true class (higher score, or equal score and larger index)."""
    return ns.indicator(ns.any(s > p_true, ns.all(ns.eq(s, p_true), c > true_index)))


def kappa_weight(ns: Namespace, i: Expr, j: Expr, weights: str | None) -> Expr:
    """The disagreement weight of classes ``i`` and ``j``: ``|i - j|``, ``(i - j)^2`` or ``[i != j]``."""
    if weights == "linear":
        return ns.to_float(ns.abs(i - j))
    if weights == "quadratic":
        return ns.to_float((i - j) * (i - j))
    return ns.indicator(ns.ne(i, j))


def mean(ns: Namespace, value: Expr) -> Expr:
    """Mean of the non-null values of the group; null without one."""
    return ns.ratio(ns.sum(value), ns.to_float(ns.count_where(ns.not_(ns.is_null(value)))))


def class_value(ns: Namespace, value: Expr, zero_division: Expr) -> Expr:
    """A class's value, undefined (null) set to ``zero_division`` (a null ``zero_division`` keeps it null)."""
    return ns.coalesce(value, zero_division)


def macro(ns: Namespace, value: Expr, zero_division: Expr) -> Expr:
    """Mean over the classes of the per-class value, undefined values set to ``zero_division`` (or skipped)."""
    return mean(ns, class_value(ns, value, zero_division))


def weighted(ns: Namespace, value: Expr, support: Expr, zero_division: Expr) -> Expr:
    """Support-weighted mean over the classes (undefined values skipped); the plain mean without support."""
    v = class_value(ns, value, zero_division)
    used = ns.sum(ns.when(ns.is_null(v), ns.lit(0.0)).otherwise(support))
    return ns.when(used > 0, ns.sum(support * v) / used).otherwise(mean(ns, v))


def macro_strict(ns: Namespace, value: Expr, zero_division: Expr) -> Expr:
    """:func:`macro`, null if a class's value is undefined (scikit-learn's jaccard)."""
    v = class_value(ns, value, zero_division)
    return ns.when(ns.count_where(ns.is_null(v)) > 0, ns.null()).otherwise(mean(ns, v))


def weighted_strict(ns: Namespace, value: Expr, support: Expr, zero_division: Expr) -> Expr:
    """:func:`weighted`, null if a class's value is undefined."""
    v = class_value(ns, value, zero_division)
    total = ns.sum(support)
    return (
        ns.when(ns.count_where(ns.is_null(v)) > 0, ns.null())
        .when(total > 0, ns.sum(support * v) / total)
        .otherwise(mean(ns, v))
    )


def ovo_pair(ns: Namespace, auc_sum_ab: Expr, auc_sum_ba: Expr) -> Expr:
    """Hand & Till's score of a class pair: the mean of its two AUCs, ``(auc_sum_ab + auc_sum_ba) / 4``."""
    return (auc_sum_ab + auc_sum_ba) / 4


def share(ns: Namespace, part: Expr, whole: Expr, n_invalid: Expr) -> Expr:
    """``part / whole`` (accuracy, error rate, top-k accuracy, log loss); null if ``whole`` is 0."""
    return ns.when(ns.any(n_invalid > 0, ns.eq(whole, 0)), ns.null()).otherwise(part / whole)


def value(ns: Namespace, value: Expr, n_invalid: Expr) -> Expr:
    """An averaged value as it is; null with an invalid row."""
    return ns.when(n_invalid > 0, ns.null()).otherwise(value)


def balanced_accuracy(ns: Namespace, mean_recall: Expr, n_true_classes: Expr, adjusted: Expr, n_invalid: Expr) -> Expr:
    """Mean recall of the classes present; adjusted: ``(r - 1/C) / (1 - 1/C)``, null for one class."""
    chance = 1 / ns.to_float(n_true_classes)
    return (
        ns.when(ns.any(n_invalid > 0, ns.eq(n_true_classes, 0)), ns.null())
        .when(ns.all(adjusted, ns.eq(n_true_classes, 1)), ns.null())
        .when(adjusted, (mean_recall - chance) / (1 - chance))
        .otherwise(mean_recall)
    )


def matthews(
    ns: Namespace,
    correct: Expr,
    total: Expr,
    true_dot_pred: Expr,
    true_dot_true: Expr,
    pred_dot_pred: Expr,
    n_true_classes: Expr,
    n_pred_classes: Expr,
    n_invalid: Expr,
) -> Expr:
    """``(c s - t.p) / sqrt((s^2 - t.t)(s^2 - p.p))``; 0 with fewer than two true or predicted classes.

    Divided through by ``s^2``: the dot products are those of the class
    marginals as fractions of ``s`` (``class_sums``), ``(c / s - t.p) /
    (sqrt(1 - t.t) sqrt(1 - p.p))``, of any weight scale.
    """
    denominator = ns.sqrt(1 - true_dot_true) * ns.sqrt(1 - pred_dot_pred)
    return (
        ns.when(n_invalid > 0, ns.null())
        .when(ns.any(n_true_classes < 2, n_pred_classes < 2), ns.lit(0.0))
        .otherwise((correct / total - true_dot_pred) / denominator)
    )


def kappa(ns: Namespace, observed: Expr, expected: Expr, n_invalid: Expr) -> Expr:
    """Cohen's kappa: ``1 - observed / expected`` disagreement; null if nothing is expected."""
    undefined = ns.any(n_invalid > 0, ns.is_null(expected), ns.eq(expected, 0))
    return ns.when(undefined, ns.null()).otherwise(1 - observed / expected)


def harmonic_f1(ns: Namespace, macro_precision: Expr, macro_recall: Expr, n_invalid: Expr, zero_division: Expr) -> Expr:
    """Harmonic mean of macro precision and macro recall."""
    total = macro_precision + macro_recall
    return (
        ns.when(ns.any(n_invalid > 0, ns.is_null(macro_precision), ns.is_null(macro_recall)), ns.null())
        .when(ns.eq(total, 0), zero_division)
        .otherwise(2 * macro_precision * macro_recall / total)
    )


def brier(ns: Namespace, sum_brier: Expr, total: Expr, n_classes: Expr, n_invalid: Expr) -> Expr:
    """Mean over rows of the sum of squared errors; halved for two classes (scikit-learn's binary scale)."""
    return (
        ns.when(ns.any(n_invalid > 0, ns.eq(total, 0)), ns.null())
        .when(n_classes < 3, sum_brier / total / 2)
        .otherwise(sum_brier / total)
    )
