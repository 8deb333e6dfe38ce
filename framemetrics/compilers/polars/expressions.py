"""A metric's statistics inside one group's ``group_by().agg()``: the Polars lowering of the public builders.

The public builders (``framemetrics.roc_auc_score("y", "p")``,
:mod:`framemetrics.compose`) are one Polars aggregation each, with no frame
to build stages on: a row statistic is its aggregation over the group's
rows (:func:`row_statistic`), a curve statistic the core's definition over
the group's curve points taken as expressions (:func:`curve_in_group`: the
curve stage of :mod:`framemetrics.stages.curve_stage` within the group).
"""

from __future__ import annotations

from dataclasses import replace

import polars as pl

from framemetrics.compilers.polars.namespace import POLARS
from framemetrics.core import statistics
from framemetrics.core.checks import Check
from framemetrics.core.statistics import STATISTICS, CurvePoints, Rows

__all__ = ["check_count", "curve_in_group", "curve_statistic", "row_statistic", "statistic_in_group"]


def row_statistic(name: str, x: Rows) -> pl.Expr:
    """The row statistic ``name`` as an aggregation over a group's rows.

    Examples
    --------
    >>> from framemetrics.compilers.polars.inputs import MetricInputs, rows_of
    >>> x = rows_of(MetricInputs.of(y_true="y", y_pred="p"))
    >>> pl.DataFrame({"y": [0, 1], "p": [1, 1]}).select(row_statistic("tp", x)).item()
    1.0
    """
    return STATISTICS[name].build(POLARS, x)


def check_count(check: Check, x: Rows) -> pl.Expr:
    """The number of rows of ``check.role`` outside its domain, as an aggregation."""
    return check.count(POLARS, getattr(x, check.role), x.pos_label, x.neg_label)


def curve_statistic(name: str, points: CurvePoints) -> pl.Expr:
    """The curve statistic ``name`` as an aggregation over a group's curve points.

    A statistic reading the group's weighted quantile gets it computed over
    the same points, within the group, as ``gap_max``.
    """
    statistic = STATISTICS[name]
    if statistic.quantile:
        level = statistics.quantile_level(POLARS, statistic.quantile, points.alpha)
        points = replace(points, quantile=statistics.weighted_quantile(POLARS, points, level))
    return statistic.build(POLARS, points)


def curve_in_group(x: Rows, running_totals: bool = False) -> CurvePoints:
    """One group's curve points as expressions inside its ``group_by().agg()``.

    The rows sorted by decreasing score; ``tp, fp`` are the running sums at
    the last row of each distinct score, ``tp_prev, fp_prev`` those of the
    previous distinct score, and ``pw = tp - tp_prev`` (exactly 0 where a score
    has no positive weight). The totals are the weights' sums; with
    ``running_totals`` the positive one is where the running sum ends (``tp``
    is then ``pos_total`` exactly once every positive is ranked, so that a
    perfect KS is exactly 1: one more pass over the sorted weights, about 40 %
    more time for KS).

    Examples
    --------
    >>> from framemetrics.compilers.polars.inputs import MetricInputs, rows_of
    >>> x = rows_of(MetricInputs.of(y_true="y", y_score="s"))
    >>> df = pl.DataFrame({"y": [0, 1, 1], "s": [0.2, 0.2, 0.9]})
    >>> df.select(curve_in_group(x).tp).to_series().to_list()
    [1.0, 2.0]
    """
    score = x.y_score.cast(pl.Float64)
    ordered = score.sort(descending=True, nulls_last=True)
    last = ordered.ne_missing(ordered.shift(-1)).fill_null(True)

    def running(weight: pl.Expr) -> pl.Expr:
        return weight.sort_by(score, descending=True, nulls_last=True).cum_sum().filter(last)

    tp, fp = running(statistics.positive_weight(POLARS, x)), running(statistics.negative_weight(POLARS, x))
    tp_prev, fp_prev = tp.shift(1, fill_value=0.0), fp.shift(1, fill_value=0.0)
    points = CurvePoints(
        y_score=ordered.filter(last),
        pw=tp - tp_prev,
        nw=fp - fp_prev,
        tp=tp,
        fp=fp,
        tp_prev=tp_prev,
        fp_prev=fp_prev,
        pos_total=tp.last() if running_totals else statistics.positive_weight(POLARS, x).sum(),
        neg_total=statistics.negative_weight(POLARS, x).sum(),
        gap_max=None,
        max_fpr=x.max_fpr,
        alpha=x.alpha,
    )
    return replace(points, gap_max=statistics.roc_gap(POLARS, points).max())


def statistic_in_group(name: str, x: Rows) -> pl.Expr:
    """Statistic ``name`` of one group inside ``group_by().agg()``: over its rows or its curve."""
    statistic = STATISTICS[name]
    if statistic.curve:
        rows = statistics.curve_rows(POLARS, x, statistic.score)
        return curve_statistic(name, curve_in_group(rows, running_totals=statistic.gap))
    return row_statistic(name, x)
