"""The curves (ROC, precision-recall, DET), written once: which points they keep and their rates.

A curve's points are the curve stage restricted to scores of positive
weight, plus per score ``fn, tn`` (the weights strictly below it, as scikit-learn's
``tps[-1] - tps``), ``next_pw,
next_nw`` (the next lower score's) and ``is_first``; each curve keeps the
points scikit-learn keeps (``drop_intermediate``), adds the point at
threshold +inf and computes its two rates. :data:`CURVES` describes each
curve over those columns (``cols``, a mapping of name to expression), for
the points' stage of every engine (:mod:`framemetrics.stages.curves`).

Examples
--------
>>> from framemetrics.compilers.sql import SQL
>>> precision(SQL, SQL.col("tp"), SQL.col("fp"), SQL.lit(0)).sql()
'CASE WHEN 0 > 0 THEN CAST(NULL AS DOUBLE) WHEN tp + fp = 0 THEN CAST(1.0 AS DOUBLE) ELSE tp / (tp + fp) END'
>>> pr = CURVES["precision_recall_curve"]
>>> list(pr.rates), (pr.x, pr.y), pr.descending, pr.drop_intermediate
(['precision', 'recall'], ('recall', 'precision'), False, False)
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Any

from framemetrics.core.namespace import Namespace

__all__ = [
    "COUNTS",
    "CURVES",
    "Curve",
    "curve_column",
    "curve_outputs",
    "keep_det",
    "keep_pr",
    "keep_roc",
    "precision",
    "rate",
]

Expr = Any
Columns = Mapping[str, Expr]
COUNTS = ("tp", "fp", "tn", "fn")


def keep_roc(ns: Namespace, pw: Expr, nw: Expr, next_pw: Expr, next_nw: Expr, is_first: Expr, drop: Expr) -> Expr:
    """Keep a ROC point unless it is collinear with its neighbours (equal steps before and after)."""
    return ns.any(ns.not_(drop), is_first, ns.is_null(next_pw), ns.ne(next_pw, pw), ns.ne(next_nw, nw))


def keep_pr(ns: Namespace, pw: Expr, next_pw: Expr, is_first: Expr, drop: Expr) -> Expr:
    """Keep a PR point unless its tp equals the previous and the next point's."""
    return ns.any(ns.not_(drop), is_first, ns.is_null(next_pw), pw > 0, next_pw > 0)


def keep_det(ns: Namespace, pw: Expr, next_pw: Expr, drop: Expr) -> Expr:
    """Keep a DET point unless its tp equals its neighbours' (the +inf point being the first)."""
    return ns.any(ns.not_(drop), ns.is_null(next_pw), pw > 0, next_pw > 0)


def rate(ns: Namespace, count: Expr, total: Expr, n_invalid: Expr) -> Expr:
    """``count / total`` (fpr, tpr, fnr, recall); null without a total or with invalid input."""
    return ns.when(ns.any(n_invalid > 0, ns.eq(total, 0)), ns.null()).otherwise(count / total)


def precision(ns: Namespace, tp: Expr, fp: Expr, n_invalid: Expr) -> Expr:
    """``tp / (tp + fp)``, 1 at the +inf point (scikit-learn's final (recall 0, precision 1) point)."""
    return ns.when(n_invalid > 0, ns.null()).when(ns.eq(tp + fp, 0), ns.lit(1.0)).otherwise(tp / (tp + fp))


def curve_column(ns: Namespace, x: Expr, columns: Expr) -> Expr:
    """The column of a point when thinning (M4): ``floor(x * columns)``, at most ``columns - 1``; -1 for null."""
    return ns.when(ns.is_null(x), ns.lit(-1)).otherwise(ns.least(ns.to_int(ns.floor(x * columns)), columns - 1))


@dataclass(frozen=True)
class Curve:
    """One curve: its rate columns, which points it keeps and its order.

    ``rates`` maps each rate column to its expression over the points'
    columns; ``keep(ns, cols, drop_intermediate)`` says which points stay.
    ``x`` and ``y`` are its axes. ``descending`` orders thresholds from +inf
    down (ROC), else up (PR, DET); ``drop_intermediate`` is the default of
    its ``drop_intermediate=`` (scikit-learn's: True for ROC only).
    ``sliced``: DET's points run from the last with ``fp = 0`` to the first
    with ``fn = 0`` (found from the scores' weights, never by comparing a sum
    with 0), and a group with one class has none.
    """

    name: str
    rates: dict[str, Callable[[Namespace, Columns], Expr]]
    keep: Callable[[Namespace, Columns, Expr], Expr]
    x: str
    y: str
    descending: bool = False
    drop_intermediate: bool = False
    sliced: bool = False


def _rate(count: str, total: str) -> Callable[[Namespace, Columns], Expr]:
    """The rate column ``count / total`` of a curve's points (:func:`rate`)."""
    return lambda ns, c: rate(ns, c[count], c[total], c["n_invalid"])


CURVES: dict[str, Curve] = {
    c.name: c
    for c in (
        Curve(
            "roc_curve",
            {"fpr": _rate("fp", "neg_total"), "tpr": _rate("tp", "pos_total")},
            lambda ns, c, drop: keep_roc(ns, c["pw"], c["nw"], c["next_pw"], c["next_nw"], c["is_first"], drop),
            x="fpr",
            y="tpr",
            descending=True,
            drop_intermediate=True,
        ),
        Curve(
            "precision_recall_curve",
            {
                "precision": lambda ns, c: precision(ns, c["tp"], c["fp"], c["n_invalid"]),
                "recall": _rate("tp", "pos_total"),
            },
            lambda ns, c, drop: keep_pr(ns, c["pw"], c["next_pw"], c["is_first"], drop),
            x="recall",
            y="precision",
        ),
        Curve(
            "det_curve",
            {"fpr": _rate("fp", "neg_total"), "fnr": _rate("fn", "pos_total")},
            lambda ns, c, drop: keep_det(ns, c["pw"], c["next_pw"], drop),
            x="fpr",
            y="fnr",
            sliced=True,
        ),
    )
}


def curve_outputs(curve: Curve) -> tuple[str, ...]:
    """The columns of a curve's points after the group columns.

    Examples
    --------
    >>> curve_outputs(CURVES["roc_curve"])
    ('threshold', 'fpr', 'tpr', 'tp', 'fp', 'tn', 'fn')
    """
    return ("threshold", *curve.rates, *COUNTS)
