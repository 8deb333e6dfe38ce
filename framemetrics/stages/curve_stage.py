"""The curve stage, written once on a frame: per group and distinct score, the weights and their running sums.

One row per group and distinct score: ``y_score``, ``pw, nw`` (the positive
and negative weight at the score), ``tp, fp`` (their sums over the scores at
or above it), ``pos_total, neg_total`` (the group's), and on demand
``tp_prev, fp_prev`` (over strictly higher scores) or the curves' columns.
The ranking statistics (:data:`~framemetrics.core.statistics.STATISTICS`
over :class:`~framemetrics.core.statistics.CurvePoints`) and the curves'
points (:mod:`framemetrics.stages.curves`) read it. The running sums are
the frame's :meth:`~framemetrics.core.frame.Frame.running`, which each
backend lowers to its own plan (Polars: one sort).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from framemetrics.core.frame import Frame, Running
from framemetrics.core.statistics import CURVE_SUMS, Rows, negative_weight, positive_weight

__all__ = ["curve_stage"]

Expr = Any


def curve_stage(
    rows: Frame,
    keys: Sequence[str],
    x: Rows,
    *,
    score: Expr | None = None,
    previous: bool = False,
    points: bool = False,
    labelled: bool = True,
    counted: bool = False,
    name: str = "fm",
) -> Frame:
    """One row per group and distinct score, with ``y_score, pw, nw, tp, fp, pos_total, neg_total``.

    Parameters
    ----------
    rows : Frame
        Rows with the group columns ``keys`` and the columns ``x`` reads.
    keys : sequence of str
        Group columns.
    x : Rows
        Expressions of ``y_true``, ``y_score`` and ``sample_weight``, and the labels.
    score : expression, optional
        The score of a row, if not ``x.y_score`` (its bin).
    previous : bool, default False
        Add ``tp_prev, fp_prev``, the sums over strictly higher scores.
    points : bool, default False
        The curves' points: only scores of positive weight (as scikit-learn
        drops zero weights), with ``next_pw, next_nw`` (the next lower
        score's), ``is_first`` (the group's highest score) and ``fn, tn``
        (the weights below the score: the total less the running sum, as
        scikit-learn's ``tps[-1] - tps``).
    labelled : bool, default True
        False for a quantile's stage, every row positive: no negative
        columns (``nw, fp, neg_total, fp_prev``).
    counted : bool, default False
        Add ``n_rows``, the rows of each score (after ``pw, nw``), and
        ``group_rows``, the rows of its group.
    name : str, default "fm"
        The prefix of the stages' names (``<name>_scores``, ``<name>_curve``).

    Returns
    -------
    Frame
        The curve stage, in no order.

    Examples
    --------
    >>> from framemetrics.compilers.polars.frame import PolarsFrame
    >>> from framemetrics.core.statistics import Rows
    >>> f = PolarsFrame.values({"y": [0, 1, 1], "s": [0.2, 0.2, 0.9], "w": [1.0, 1.0, 1.0]})
    >>> c = f.ns.col
    >>> x = Rows(c("y"), None, c("s"), c("w"), pos_label=1, neg_label=0, alpha=0.5, max_fpr=1.0)
    >>> curve_stage(f, [], x, previous=True).collect().sort("y_score", descending=True).rows()
    [(0.9, 1.0, 0.0, 1.0, 0.0, 2.0, 1.0, 0.0, 0.0), (0.2, 1.0, 1.0, 2.0, 1.0, 2.0, 1.0, 1.0, 0.0)]
    """
    ns, c = rows.ns, rows.ns.col
    weights = {"pw": positive_weight(ns, x)} | ({"nw": negative_weight(ns, x)} if labelled else {})
    value = ns.score(x.y_score if score is None else score)
    scored = rows.select({**{k: c(k) for k in keys}, "y_score": value, **weights})
    sums = {w: ns.sum(c(w)) for w in weights} | ({"n_rows": ns.count_rows()} if counted else {})
    stage = scored.aggregate([*keys, "y_score"], sums).named(f"{name}_scores")
    if points:
        stage = stage.filter(c("pw") + c("nw") > 0)
    curve_sums = CURVE_SUMS[: len(weights)]
    values = Running(
        sums={running: weight for weight, running, _ in curve_sums},
        totals={total: weight for weight, _, total in curve_sums} | ({"group_rows": "n_rows"} if counted else {}),
        before={f"{running}_prev": weight for weight, running, _ in curve_sums} if previous else {},
        following={f"next_{weight}": weight for weight in weights} if points else {},
        first="is_first" if points else None,
    )
    stage = stage.running(keys, "y_score", values)
    if points:
        stage = stage.with_columns(fn=c("pos_total") - c("tp"), tn=c("neg_total") - c("fp"))
    return stage.named(f"{name}_curve")
