"""DeLong's paired test of two scores per group, written once on a frame: two curve stages, one pass over the rows.

Each score's curve stage (:func:`~framemetrics.stages.curve_stage.curve_stage`)
gives its AUC statistics and, per distinct score, the placements ``a, b``
(:func:`~framemetrics.core.statistics.negatives_above`,
:func:`~framemetrics.core.statistics.positives_above`); the rows are
left-joined to the placements of their two scores and summed per group
(:func:`~framemetrics.core.intervals.paired_sums`), then the core's
formulas (:data:`~framemetrics.core.intervals.PAIRED_STAGES`) run as
successive stages.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from framemetrics.core.formulas.guards import bounded
from framemetrics.core.frame import Frame
from framemetrics.core.intervals import PAIRED_OUTPUTS, PAIRED_STAGES, paired_sums
from framemetrics.core.statistics import STATISTICS, CurvePoints, Rows, negatives_above, positives_above
from framemetrics.stages.curve_stage import curve_stage

__all__ = ["paired_test"]

Expr = Any


def _joined(left: Frame, right: Frame, keys: Sequence[str], how: str = "inner") -> Frame:
    """``left`` joined to ``right`` on the group ``keys`` (null keys match), or crossed without keys."""
    return left.join(right, keys, how, nulls_equal=True) if keys else left.join(right, [], "cross")


def _paired_statistics(
    rows: Frame, keys: Sequence[str], x: Rows, scores: tuple[Expr, Expr], checks: Mapping[str, Expr]
) -> Frame:
    """Per group: ``n_rows``, the paired sums, the ``checks`` counts, ``auc_sum_1, auc_sum_2, sum_pos, sum_neg``."""
    ns, c = rows.ns, rows.ns.col
    points = CurvePoints.named(ns)
    joined, rankings = rows, []
    for k, score in enumerate(scores, start=1):
        stage = curve_stage(rows, keys, x, score=score, name=f"fm_{k}")
        statistics = {f"auc_sum_{k}": "auc_sum"} | ({"sum_pos": "sum_pos", "sum_neg": "sum_neg"} if k == 1 else {})
        rankings.append(stage.aggregate(keys, {n: STATISTICS[s].build(ns, points) for n, s in statistics.items()}))
        placements = stage.select({
            **{key: c(key) for key in keys},
            f"fm_score_{k}": c("y_score"),
            f"fm_a_{k}": negatives_above(points),
            f"fm_b_{k}": positives_above(points),
        })  # fmt: skip
        scored = joined.with_columns(**{f"fm_score_{k}": ns.score(score)})
        joined = scored.join(placements, [*keys, f"fm_score_{k}"], "left", nulls_equal=True)
    a_1, a_2, b_1, b_2 = (c(f"fm_{v}_{k}") for v in "ab" for k in (1, 2))
    sums = {"n_rows": ns.count_rows(), **paired_sums(ns, x, a_1, a_2, b_1, b_2), **checks}
    summed = joined.aggregate(keys, sums).named("fm_paired")
    return _joined(_joined(summed, rankings[0], keys), rankings[1], keys)


def paired_test(
    rows: Frame, keys: Sequence[str], by: Sequence[str], x: Rows, checks: Mapping[str, Expr], z: float
) -> Frame:
    """DeLong's paired test of the scores ``y_score`` and ``y_score_2`` per group of ``rows``.

    Parameters
    ----------
    rows : Frame
        The rows: the group columns ``keys``, the columns ``x`` reads and ``y_score_2``.
    keys : sequence of str
        Group columns of ``rows``.
    by : sequence of str
        The group columns' output names, one per key.
    x : Rows
        The rows' inputs (``y_true, y_score, sample_weight``, the labels).
    checks : mapping of str to expression
        The check counts over the rows, by output name.
    z : float
        The normal quantile of the interval.

    Returns
    -------
    Frame
        The group columns ``by``, ``n_rows``,
        :data:`~framemetrics.core.intervals.PAIRED_OUTPUTS`, then the
        ``checks``; one row per group, in no order.

    Examples
    --------
    >>> from dataclasses import replace
    >>> from framemetrics.compilers.polars.frame import PolarsFrame
    >>> rows = PolarsFrame.values({"y_true": [0, 1, 0, 1], "y_score": [0.1, 0.9, 0.3, 0.8],
    ...                            "y_score_2": [0.2, 0.7, 0.6, 0.5], "sample_weight": [1.0] * 4})
    >>> x = replace(Rows.named(rows.ns), pos_label=1, neg_label=0)
    >>> paired_test(rows, [], [], x, {}, 1.96).collect().select("roc_auc_1", "roc_auc_2").rows()
    [(1.0, 0.75)]
    """
    ns, c = rows.ns, rows.ns.col
    stats = _paired_statistics(rows, keys, x, (x.y_score, c("y_score_2")), checks)
    n_invalid = sum((c(name) for name in checks), ns.lit(0))
    columns = {name: c(name) for name in stats.columns}
    for i, stage in enumerate(PAIRED_STAGES):
        values = stage(ns, columns, ns.lit(z), n_invalid)
        stats = stats.with_columns(**values).named(f"fm_test_{i}")
        columns |= {name: c(name) for name in values}
    outputs = {k: c(k) for k in [*keys, "n_rows"]} | {n: bounded(ns, c(n)) for n in PAIRED_OUTPUTS}
    out = stats.select(outputs | {name: c(name) for name in checks})
    return out.rename(dict(zip(keys, by, strict=True))) if keys else out
