"""A metric's statistics inside one group's ``group_by().agg()``: the Polars lowering of the public builders.

The public builders (``framemetrics.roc_auc_score("y", "p")``,
:mod:`framemetrics.compose`) are one Polars aggregation each, with no frame
to build stages on: a row statistic is its aggregation over the group's
rows (:func:`row_statistic`), a curve statistic the core's definition over
the group's curve points taken as expressions (the curve stage of
:mod:`framemetrics.stages.curve_stage` within the group).

:func:`in_group` lowers a whole formula so: the group's rows as one struct,
sorted once by the curve's score, each later step a field of it
(``struct.with_fields``), the points' values null off the last row of each
distinct score. Polars computes an expression again at every use inside an
aggregation (its common-subexpression elimination keeps only elementwise
parts there), so the sort is then done once, not at every use of a running
sum (15 sorts for a ROC AUC).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import replace

import polars as pl

from framemetrics.compilers.polars.namespace import POLARS
from framemetrics.core import statistics
from framemetrics.core.checks import Check
from framemetrics.core.statistics import STATISTICS, CurvePoints, Rows

__all__ = ["check_count", "curve_statistic", "in_group", "row_statistic"]


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


_ROLES = ("y_true", "y_pred", "y_score", "sample_weight")
_F = pl.field


class _GroupOnRows:
    """The Polars namespace whose aggregates are running ones, each row holding its group's value: the last row's
    running value carried back (``backward_fill``).

    Inside an aggregation, Polars runs a window operation on a group cheaply, where an aggregation broadcast to
    the group's rows within ``struct.with_fields`` costs several times more (about 4 µs a group): the statistics
    of :func:`in_group` are such columns, and its value their first row.
    """

    def __init__(self, last_row: pl.Expr) -> None:
        self.last_row = last_row

    def __getattr__(self, name: str) -> object:
        return getattr(POLARS, name)

    def _on_rows(self, running: pl.Expr) -> pl.Expr:
        return pl.when(self.last_row).then(running).backward_fill()

    def sum(self, x: pl.Expr) -> pl.Expr:
        return self._on_rows(x.fill_null(0).cum_sum())

    def max(self, x: pl.Expr) -> pl.Expr:  # NaN the largest value, as POLARS.max (nan_max)
        nan = x.is_nan().fill_null(False).cast(pl.Int64).cum_sum()
        return self._on_rows(pl.when(nan > 0).then(float("nan")).otherwise(x.cum_max().forward_fill()))

    def min(self, x: pl.Expr) -> pl.Expr:
        return self._on_rows(x.cum_min().forward_fill())

    def count_rows(self) -> pl.Expr:
        return self._on_rows(self.last_row.cum_count().cast(pl.Int64))

    def count_where(self, condition: pl.Expr) -> pl.Expr:
        return self.sum(condition.fill_null(False).cast(pl.Int64))


def in_group(
    x: Rows, names: Sequence[str], checks: Sequence[Check], outputs: Callable[[Mapping[str, pl.Expr]], pl.Expr]
) -> pl.Expr:
    """``outputs`` of the group's statistics ``names`` and check counts (by name) as one aggregation, the group's
    rows sorted once where a statistic reads the curve.

    The curve statistics of each value a curve sorts (the score; ``|y_true -
    y_pred|`` or ``y_true`` for a quantile) read the group's rows as one
    struct sorted by it: the running sums, the points (null off the last row
    of a distinct value, which every aggregate skips), the totals (where the
    running sums end), the group's ROC gap and quantiles and the statistics
    are fields of it, every aggregate a column holding the group's value on
    each row (:class:`_GroupOnRows`). The row statistics and check counts
    are plain aggregations (:func:`row_statistic`, :func:`check_count`);
    all are gathered in a struct of one row that the outputs read, so each
    is computed once, not at each use in the formula.

    Examples
    --------
    >>> from framemetrics.compilers.polars.inputs import MetricInputs, rows_of
    >>> x = rows_of(MetricInputs.of(y_true="y", y_score="s"))
    >>> value = in_group(x, ["auc_sum"], [], lambda c: c["auc_sum"] / 2)  # the ROC AUC
    >>> pl.DataFrame({"y": [0, 1, 1, 0], "s": [0.2, 0.2, 0.9, 0.1]}).select(value).item()
    0.875
    """
    columns = {s: row_statistic(s, x) for s in names if not STATISTICS[s].curve}
    columns |= {c.name: check_count(c, x) for c in checks}
    group = {f"fm_stat_{name}": value for name, value in columns.items()}
    read = {name: _F(f"fm_stat_{name}") for name in columns}
    curves: dict[str, list[str]] = {}
    for name in names:
        if STATISTICS[name].curve:
            curves.setdefault(STATISTICS[name].score, []).append(name)
    for score, own in curves.items():  # each value sorted once, its curve statistics fields of one row
        group[f"fm_curve_{score}"] = _curve_in_struct(x, score, own).first()
        read |= {name: _F(f"fm_curve_{score}").struct.field(f"fm_stat_{name}") for name in own}
    return pl.struct(**group).struct.with_fields(fm_value=outputs(read)).struct.field("fm_value")


def _curve_in_struct(x: Rows, score: str, names: Sequence[str]) -> pl.Expr:
    """The group's rows as one struct sorted by ``score`` (:func:`in_group`), with the curve statistics ``names``
    as fields ``fm_stat_<name>``, each the group's value on every row."""
    curve = statistics.curve_rows(POLARS, x, score)
    value = curve.y_score.cast(pl.Float64)
    rows = pl.struct(
        value.alias("fm_s"),
        statistics.positive_weight(POLARS, curve).alias("fm_pw"),
        statistics.negative_weight(POLARS, curve).alias("fm_nw"),
    ).sort_by(value, descending=True, nulls_last=True)
    rows = rows.struct.with_fields(
        fm_tp=_F("fm_pw").cum_sum(),
        fm_fp=_F("fm_nw").cum_sum(),
        fm_last=_F("fm_s").ne_missing(_F("fm_s").shift(-1)).fill_null(True),
    )
    ns = _GroupOnRows(_F("fm_last_row"))
    on_points = {f"fm_point_{n}": pl.when(_F("fm_last")).then(_F(f"fm_{n}")) for n in ("s", "tp", "fp")}
    rows = rows.struct.with_fields(**on_points, fm_last_row=_F("fm_last").shift(-1).is_null())
    # The totals where the running sums end (a perfect ranking's tp is then exactly P).
    rows = rows.struct.with_fields(fm_pos_total=ns.max(_F("fm_tp")), fm_neg_total=ns.max(_F("fm_fp")))
    previous = {f"fm_point_{n}_prev": _F(f"fm_point_{n}").shift(1).forward_fill().fill_null(0.0) for n in ("tp", "fp")}
    rows = rows.struct.with_fields(**previous)
    points = CurvePoints(
        y_score=_F("fm_point_s"),
        pw=_F("fm_point_tp") - _F("fm_point_tp_prev"),
        nw=_F("fm_point_fp") - _F("fm_point_fp_prev"),
        tp=_F("fm_point_tp"),
        fp=_F("fm_point_fp"),
        tp_prev=_F("fm_point_tp_prev"),
        fp_prev=_F("fm_point_fp_prev"),
        pos_total=_F("fm_pos_total"),
        neg_total=_F("fm_neg_total"),
        gap_max=_F("fm_gap_max"),
        max_fpr=x.max_fpr,
        alpha=x.alpha,
    )
    group = {}
    if any(STATISTICS[s].gap_max for s in names):
        group["fm_gap_max"] = ns.max(statistics.roc_gap(ns, points))  # type: ignore[arg-type]
    for quantile in {STATISTICS[s].quantile for s in names if STATISTICS[s].quantile}:
        level = statistics.quantile_level(POLARS, quantile, x.alpha)
        group[f"fm_quantile_{quantile}"] = statistics.weighted_quantile(ns, points, level)  # type: ignore[arg-type]
    rows = rows.struct.with_fields(**group) if group else rows
    values = {}
    for name in names:
        quantile = STATISTICS[name].quantile
        own = replace(points, quantile=_F(f"fm_quantile_{quantile}")) if quantile else points
        values[f"fm_stat_{name}"] = STATISTICS[name].build(ns, own)  # type: ignore[arg-type]
    return rows.struct.with_fields(**values)
