"""Stage 1 of every metric: the sufficient statistics gathered per group.

Each statistic has one name, used for its column in both engines, a Polars
aggregation here and a DuckDB macro ``fm_stat_<name>`` in
``sql/framemetrics.sql``. Checks (``invalid_<domain>_<role>``) count the rows
of one input column outside its domain (:mod:`framemetrics.checks`).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

import polars as pl

from framemetrics.core.constants import EPS, KS_TOLERANCE
from framemetrics.inputs import MetricInputs

__all__ = ["KS_TOLERANCE", "STATISTICS", "Statistic", "log1p"]





@dataclass(frozen=True)
class Statistic:
    """A per-group aggregate: its column name, Polars builder and SQL macro.

    ``needs`` lists statistics that must be known per group first (the group
    means that centred sums of squares use): SQL computes them in a first pass.
    ``curve`` marks a ranking statistic: the engines compute it as the
    aggregation it returns over the curve stage (columns ``pw, nw, tp, fp, pos_total, neg_total``, see
    :mod:`framemetrics.curve`), while ``polars`` computes the same value from
    the rows of one group, for the expression builders. ``previous`` asks the
    stage for ``tp_prev, fp_prev``, the sums over strictly higher scores;
    ``gap_max`` asks SQL for the group's largest ``TPR - FPR`` beside each
    score (Polars reads it inside the aggregation).
    """

    name: str
    polars: Callable[[MetricInputs], pl.Expr]
    needs: tuple[str, ...] = ()
    curve: Callable[[MetricInputs], pl.Expr] | None = None
    previous: bool = False
    gap_max: bool = False

    @property
    def sql_macro(self) -> str:
        """Name of the DuckDB macro computing this statistic."""
        return f"fm_stat_{self.name}"


def _cell(true_label_of: str, pred_label_of: str) -> Callable[[MetricInputs], pl.Expr]:
    def build(x: MetricInputs) -> pl.Expr:
        true_label = getattr(x, true_label_of)
        pred_label = getattr(x, pred_label_of)
        hit = (x.y_true == true_label) & (x.y_pred == pred_label)
        return (x.sample_weight * hit.cast(pl.Float64)).sum()

    return build


def log1p(x: pl.Expr) -> pl.Expr:
    """log(1 + x), written as in the SQL macro ``fm_log1p`` (Goldberg's form).

    Examples
    --------
    >>> pl.select(log1p(pl.lit(1e-20))).item()
    1e-20
    """
    return pl.when(1 + x == 1).then(x).otherwise((1 + x).log() * x / ((1 + x) - 1))


def _f(expr: pl.Expr) -> pl.Expr:
    return expr.cast(pl.Float64)


def _error(x: MetricInputs) -> pl.Expr:
    return _f(x.y_true) - _f(x.y_pred)


def _ratio(numerator: pl.Expr, denominator: pl.Expr) -> pl.Expr:
    return pl.when(denominator != 0).then(numerator / denominator)


def _log_loss(x: MetricInputs) -> pl.Expr:
    p_true = pl.when(x.y_true == x.pos_label).then(_f(x.y_score)).otherwise(1 - _f(x.y_score))
    return (x.sample_weight * -(p_true.clip(EPS, 1 - EPS).log())).sum()


def _pinball(x: MetricInputs) -> pl.Expr:
    error = _error(x)
    loss = pl.when(error >= 0).then(x.alpha * error).otherwise((x.alpha - 1) * error)
    return (x.sample_weight * loss).sum()


def _group_mean_of(values: pl.Expr, weight: pl.Expr) -> pl.Expr:
    """Weighted mean; exactly the value when it is constant over positive weights (SQL ``fm_group_mean``)."""
    kept = pl.when(weight > 0).then(values)
    return pl.when(kept.min() == kept.max()).then(kept.min()).otherwise(_ratio((weight * values).sum(), weight.sum()))


def _mean_y_true(x: MetricInputs) -> pl.Expr:
    return _group_mean_of(_f(x.y_true), x.sample_weight)


def _mean_error(x: MetricInputs) -> pl.Expr:
    return _group_mean_of(_error(x), x.sample_weight)


def _group_mean(x: MetricInputs, name: str) -> pl.Expr:
    """The first-pass column ``name``, or its aggregation broadcast within the group."""
    if x.group_means:
        return pl.col(name)
    return _mean_y_true(x) if name == "mean_y_true" else _mean_error(x)


def _curve_at_rows(x: MetricInputs) -> dict[str, pl.Expr]:
    """The curve stage seen from each row of a group: ``tp`` and ``fp`` over scores >= the
    row's score, ``tp_prev`` and ``fp_prev`` over scores > it. Sums over the sorted rows
    from the top (a reverse cumulative sum read by binary search), never differences,
    so that no cancellation creeps in; inside ``group_by().agg()``."""
    score = _f(x.y_score)
    positive, negative = x.positive_weight, x.negative_weight
    ordered = score.sort()
    left = ordered.search_sorted(score, side="left").cast(pl.Int64)
    right = ordered.search_sorted(score, side="right").cast(pl.Int64)
    rows = pl.len().cast(pl.Int64)

    def from_top(weight: pl.Expr, index: pl.Expr) -> pl.Expr:
        from_here = weight.sort_by(score).cum_sum(reverse=True)
        return pl.when(index < rows).then(from_here.gather(index.clip(0, rows - 1))).otherwise(0.0)

    return {
        "positive": positive,
        "negative": negative,
        "rows_at_score": (right - left).cast(pl.Float64),
        "tp": from_top(positive, left),
        "fp": from_top(negative, left),
        "tp_prev": from_top(positive, right),
        "fp_prev": from_top(negative, right),
    }


def _auc_sum(x: MetricInputs) -> pl.Expr:
    c = _curve_at_rows(x)
    return (c["negative"] * (c["tp"] + c["tp_prev"])).sum()


def _ap_sum(x: MetricInputs) -> pl.Expr:
    c = _curve_at_rows(x)
    return pl.when(c["positive"] > 0).then(c["positive"] * c["tp"] / (c["tp"] + c["fp"])).otherwise(0.0).sum()


def _pr_trapezoid(tp: pl.Expr, fp: pl.Expr, tp_prev: pl.Expr, fp_prev: pl.Expr, weight: pl.Expr) -> pl.Expr:
    """``weight`` times the mean of the precision at a score and at the previous (higher) one."""
    previous = pl.when(tp_prev + fp_prev > 0).then(tp_prev / (tp_prev + fp_prev)).otherwise(1.0)
    return pl.when(weight > 0).then(weight * (tp / (tp + fp) + previous) / 2).otherwise(0.0).sum()


def _pr_auc_sum(x: MetricInputs) -> pl.Expr:
    c = _curve_at_rows(x)
    return _pr_trapezoid(c["tp"], c["fp"], c["tp_prev"], c["fp_prev"], c["positive"])


def _partial_roc_area(
    tp: pl.Expr,
    fp: pl.Expr,
    tp_prev: pl.Expr,
    fp_prev: pl.Expr,
    pos_total: pl.Expr,
    neg_total: pl.Expr,
    max_fpr: float,
) -> pl.Expr:
    """Area of one ROC segment, from the previous (higher-score) point to this one, left of FPR = max_fpr."""
    fpr, tpr = fp / neg_total, tp / pos_total
    fpr0, tpr0 = fp_prev / neg_total, tp_prev / pos_total
    tpr_at_max = tpr0 + (tpr - tpr0) * (max_fpr - fpr0) / (fpr - fpr0)
    return (
        pl.when((pos_total == 0) | (neg_total == 0))
        .then(None)
        .when(fpr <= max_fpr)
        .then((fpr - fpr0) * (tpr + tpr0) / 2)
        .when(fpr0 < max_fpr)
        .then((max_fpr - fpr0) * (tpr0 + tpr_at_max) / 2)
        .otherwise(0.0)
    )


def _partial_auc(x: MetricInputs) -> pl.Expr:
    c = _curve_at_rows(x)
    totals = c["positive"].sum(), c["negative"].sum()
    area = _partial_roc_area(c["tp"], c["fp"], c["tp_prev"], c["fp_prev"], *totals, x.max_fpr)
    return (area / c["rows_at_score"]).sum()


def _gap(tp: pl.Expr, fp: pl.Expr, pos_total: pl.Expr, neg_total: pl.Expr) -> pl.Expr:
    """TPR - FPR at a score (SQL ``fm_ks_gap``); null with one class."""
    return pl.when((pos_total > 0) & (neg_total > 0)).then(tp / pos_total - fp / neg_total)


def _highest_score_near_max(score: pl.Expr, gap: pl.Expr) -> pl.Expr:
    return score.filter(gap >= gap.max() - KS_TOLERANCE).max()


def _auc_tie_sum(x: MetricInputs) -> pl.Expr:
    c = _curve_at_rows(x)
    return (c["positive"] * (c["fp"] - c["fp_prev"])).sum()


def _ks_max(x: MetricInputs) -> pl.Expr:
    c = _curve_at_rows(x)
    return _gap(c["tp"], c["fp"], c["positive"].sum(), c["negative"].sum()).max()


def _ks_score(x: MetricInputs) -> pl.Expr:
    c = _curve_at_rows(x)
    return _highest_score_near_max(_f(x.y_score), _gap(c["tp"], c["fp"], c["positive"].sum(), c["negative"].sum()))


def _break_even(pw: pl.Expr, block: pl.Expr, above: pl.Expr, pos_total: pl.Expr) -> pl.Expr:
    """The positive weight ranked among the top ``P`` (SQL ``fm_stat_bep_tp``), ties shared pro rata:
    a score of weight ``block`` that straddles rank ``P`` (``above`` is the weight ranked higher)
    counts the fraction ``(P - above) / block`` of its positive weight ``pw``."""
    share = ((pos_total - above) / block).clip(0.0, 1.0)
    return pl.when(block > 0).then(pw * share).otherwise(0.0).sum()


def _bep_tp(x: MetricInputs) -> pl.Expr:
    c = _curve_at_rows(x)
    above = c["tp_prev"] + c["fp_prev"]
    return _break_even(c["positive"], c["tp"] + c["fp"] - above, above, c["positive"].sum())


_PW, _NW, _TP, _FP = pl.col("pw"), pl.col("nw"), pl.col("tp"), pl.col("fp")
_TP_PREV, _FP_PREV = pl.col("tp_prev"), pl.col("fp_prev")
_POS, _NEG = pl.col("pos_total"), pl.col("neg_total")

_ALL = [
    Statistic("n_rows", lambda x: pl.len().cast(pl.Int64)),
    Statistic("tp", _cell("pos_label", "pos_label")),
    Statistic("fp", _cell("neg_label", "pos_label")),
    Statistic("fn", _cell("pos_label", "neg_label")),
    Statistic("tn", _cell("neg_label", "neg_label")),
    Statistic("sum_weight", lambda x: x.sample_weight.sum()),
    Statistic("sum_log_loss", _log_loss),
    Statistic(
        "sum_brier",
        lambda x: (x.sample_weight * ((x.y_true == x.pos_label).cast(pl.Float64) - _f(x.y_score)).pow(2)).sum(),
    ),
    Statistic("sum_sq_error", lambda x: (x.sample_weight * _error(x).pow(2)).sum()),
    Statistic("sum_abs_error", lambda x: (x.sample_weight * _error(x).abs()).sum()),
    Statistic(
        "sum_sq_log_error",
        lambda x: (x.sample_weight * (log1p(_f(x.y_true)) - log1p(_f(x.y_pred))).pow(2)).sum(),
    ),
    Statistic(
        "sum_abs_pct_error",
        lambda x: (x.sample_weight * _error(x).abs() / _f(x.y_true).abs().clip(lower_bound=EPS)).sum(),
    ),
    Statistic("sum_pinball", _pinball),
    Statistic("max_abs_error", lambda x: pl.when(x.sample_weight > 0).then(_error(x).abs()).max()),
    Statistic("median_abs_error", lambda x: _error(x).abs().median()),
    Statistic("mean_y_true", _mean_y_true),
    Statistic("mean_error", _mean_error),
    Statistic(
        "ss_total",
        lambda x: (x.sample_weight * (_f(x.y_true) - _group_mean(x, "mean_y_true")).pow(2)).sum(),
        needs=("mean_y_true",),
    ),
    Statistic(
        "ss_error_deviation",
        lambda x: (x.sample_weight * (_error(x) - _group_mean(x, "mean_error")).pow(2)).sum(),
        needs=("mean_error",),
    ),
    Statistic("auc_sum", _auc_sum, curve=lambda x: (_NW * (2 * _TP - _PW)).sum()),
    Statistic("auc_tie_sum", _auc_tie_sum, curve=lambda x: (_PW * _NW).sum()),
    Statistic(
        "partial_auc",
        _partial_auc,
        # The previous point by subtraction: FPR and TPR are normalised, so the rounding stays ~1e-16
        # (unlike a precision, a ratio of two small sums), and AUC queries need no extra window.
        curve=lambda x: _partial_roc_area(_TP, _FP, _TP - _PW, _FP - _NW, _POS, _NEG, x.max_fpr).sum(),
    ),
    Statistic("ap_sum", _ap_sum, curve=lambda x: pl.when(_PW > 0).then(_PW * _TP / (_TP + _FP)).otherwise(0.0).sum()),
    Statistic(
        "pr_auc_sum", _pr_auc_sum, curve=lambda x: _pr_trapezoid(_TP, _FP, _TP_PREV, _FP_PREV, _PW), previous=True
    ),
    Statistic(
        "ks_max",
        _ks_max,
        curve=lambda x: _gap(_TP, _FP, _POS, _NEG).max(),
    ),
    Statistic(
        "ks_score",
        _ks_score,
        curve=lambda x: _highest_score_near_max(pl.col("y_score"), _gap(_TP, _FP, _POS, _NEG)),
        gap_max=True,
    ),
    Statistic("bep_tp", _bep_tp, curve=lambda x: _break_even(_PW, _PW + _NW, _TP + _FP - _PW - _NW, _POS)),
    Statistic(
        "sum_pos",
        lambda x: x.positive_weight.sum(),
        curve=lambda x: _PW.sum(),
    ),
    Statistic(
        "sum_neg",
        lambda x: x.negative_weight.sum(),
        curve=lambda x: _NW.sum(),
    ),
]

STATISTICS: dict[str, Statistic] = {s.name: s for s in _ALL}
