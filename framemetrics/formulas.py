"""Stage 2 of every metric: the formula over its per-group statistics.

Each function mirrors the DuckDB macro ``fm_formula_<metric>`` of
``sql/framemetrics.sql``, with the same parameter names in the same order
(a test checks this). Arguments are Polars expressions: aggregations inside
``group_by().agg()``, or columns of a statistics frame.
"""

from __future__ import annotations

import polars as pl

from framemetrics.statistics import KS_TOLERANCE

_NULL = pl.lit(None, dtype=pl.Float64)


def _value(x: float | None) -> pl.Expr:
    return pl.lit(x, dtype=pl.Float64)


def _guarded(n_invalid: pl.Expr, denominator: pl.Expr, zero_division: float | None, value: pl.Expr) -> pl.Expr:
    return pl.when(n_invalid > 0).then(_NULL).when(denominator == 0).then(_value(zero_division)).otherwise(value)


def _share(part: pl.Expr, whole: pl.Expr, n_invalid: pl.Expr) -> pl.Expr:
    return pl.when((n_invalid > 0) | (whole == 0)).then(_NULL).otherwise(part / whole)


def accuracy_score(tp: pl.Expr, fp: pl.Expr, fn: pl.Expr, tn: pl.Expr, n_invalid: pl.Expr) -> pl.Expr:
    return _share(tp + tn, tp + fp + fn + tn, n_invalid)


def error_rate(tp: pl.Expr, fp: pl.Expr, fn: pl.Expr, tn: pl.Expr, n_invalid: pl.Expr) -> pl.Expr:
    return _share(fp + fn, tp + fp + fn + tn, n_invalid)


def prevalence(tp: pl.Expr, fp: pl.Expr, fn: pl.Expr, tn: pl.Expr, n_invalid: pl.Expr) -> pl.Expr:
    return _share(tp + fn, tp + fp + fn + tn, n_invalid)


def precision_score(tp: pl.Expr, fp: pl.Expr, n_invalid: pl.Expr, zero_division: float | None) -> pl.Expr:
    return _guarded(n_invalid, tp + fp, zero_division, tp / (tp + fp))


def recall_score(tp: pl.Expr, fn: pl.Expr, n_invalid: pl.Expr, zero_division: float | None) -> pl.Expr:
    return _guarded(n_invalid, tp + fn, zero_division, tp / (tp + fn))


def specificity_score(fp: pl.Expr, tn: pl.Expr, n_invalid: pl.Expr, zero_division: float | None) -> pl.Expr:
    return _guarded(n_invalid, tn + fp, zero_division, tn / (tn + fp))


def false_positive_rate(fp: pl.Expr, tn: pl.Expr, n_invalid: pl.Expr, zero_division: float | None) -> pl.Expr:
    return _guarded(n_invalid, fp + tn, zero_division, fp / (fp + tn))


def false_negative_rate(tp: pl.Expr, fn: pl.Expr, n_invalid: pl.Expr, zero_division: float | None) -> pl.Expr:
    return _guarded(n_invalid, fn + tp, zero_division, fn / (fn + tp))


def negative_predictive_value(fn: pl.Expr, tn: pl.Expr, n_invalid: pl.Expr, zero_division: float | None) -> pl.Expr:
    return _guarded(n_invalid, tn + fn, zero_division, tn / (tn + fn))


def fbeta_score(
    tp: pl.Expr, fp: pl.Expr, fn: pl.Expr, n_invalid: pl.Expr, beta: float, zero_division: float | None
) -> pl.Expr:
    b2 = pl.lit(float(beta)) * pl.lit(float(beta))
    denominator = (1 + b2) * tp + b2 * fn + fp
    return _guarded(n_invalid, denominator, zero_division, (1 + b2) * tp / denominator)


def f1_score(tp: pl.Expr, fp: pl.Expr, fn: pl.Expr, n_invalid: pl.Expr, zero_division: float | None) -> pl.Expr:
    denominator = 2 * tp + fn + fp
    return _guarded(n_invalid, denominator, zero_division, 2 * tp / denominator)


def jaccard_score(tp: pl.Expr, fp: pl.Expr, fn: pl.Expr, n_invalid: pl.Expr, zero_division: float | None) -> pl.Expr:
    return _guarded(n_invalid, tp + fp + fn, zero_division, tp / (tp + fp + fn))


def balanced_accuracy_score(tp: pl.Expr, fp: pl.Expr, fn: pl.Expr, tn: pl.Expr, n_invalid: pl.Expr) -> pl.Expr:
    return (
        pl.when((n_invalid > 0) | (tp + fp + fn + tn == 0))
        .then(_NULL)
        .when(tp + fn == 0)
        .then(tn / (tn + fp))
        .when(tn + fp == 0)
        .then(tp / (tp + fn))
        .otherwise((tp / (tp + fn) + tn / (tn + fp)) / 2)
    )


def matthews_corrcoef(tp: pl.Expr, fp: pl.Expr, fn: pl.Expr, tn: pl.Expr, n_invalid: pl.Expr) -> pl.Expr:
    total = tp + fp + fn + tn
    cov_ypyp = total.pow(2) - ((tn + fn).pow(2) + (fp + tp).pow(2))
    cov_ytyt = total.pow(2) - ((tn + fp).pow(2) + (fn + tp).pow(2))
    cov_ytyp = (tp + tn) * total - ((tn + fp) * (tn + fn) + (fn + tp) * (fp + tp))
    return (
        pl.when(n_invalid > 0)
        .then(_NULL)
        .when(cov_ypyp * cov_ytyt == 0)
        .then(_value(0.0))
        .otherwise(cov_ytyp / (cov_ypyp * cov_ytyt).sqrt())
    )


def cohen_kappa_score(tp: pl.Expr, fp: pl.Expr, fn: pl.Expr, tn: pl.Expr, n_invalid: pl.Expr) -> pl.Expr:
    total = tp + fp + fn + tn
    expected_disagreement = ((tn + fn) * (fn + tp) + (fp + tp) * (tn + fp)) / total
    return (
        pl.when((n_invalid > 0) | (total == 0) | (expected_disagreement == 0))
        .then(_NULL)
        .otherwise(1 - (fp + fn) / expected_disagreement)
    )


def log_loss(sum_log_loss: pl.Expr, sum_weight: pl.Expr, n_invalid: pl.Expr) -> pl.Expr:
    return _share(sum_log_loss, sum_weight, n_invalid)


def brier_score_loss(sum_brier: pl.Expr, sum_weight: pl.Expr, n_invalid: pl.Expr) -> pl.Expr:
    return _share(sum_brier, sum_weight, n_invalid)


def roc_auc_score(
    auc_sum: pl.Expr,
    partial_auc: pl.Expr,
    sum_pos: pl.Expr,
    sum_neg: pl.Expr,
    n_invalid: pl.Expr,
    max_fpr: float | None,
) -> pl.Expr:
    undefined = (n_invalid > 0) | (sum_pos == 0) | (sum_neg == 0)
    if max_fpr is not None and not 0 < max_fpr <= 1:
        return _NULL
    if max_fpr is None or max_fpr == 1:
        return pl.when(undefined).then(_NULL).otherwise(auc_sum / (2 * sum_pos * sum_neg))
    m = float(max_fpr)
    return pl.when(undefined).then(_NULL).otherwise((1 + (partial_auc - m * m / 2) / (m - m * m / 2)) / 2)


def gini_score(auc_sum: pl.Expr, sum_pos: pl.Expr, sum_neg: pl.Expr, n_invalid: pl.Expr) -> pl.Expr:
    undefined = (n_invalid > 0) | (sum_pos == 0) | (sum_neg == 0)
    return pl.when(undefined).then(_NULL).otherwise(2 * (auc_sum / (2 * sum_pos * sum_neg)) - 1)


def average_precision_score(ap_sum: pl.Expr, sum_pos: pl.Expr, n_invalid: pl.Expr) -> pl.Expr:
    return pl.when((n_invalid > 0) | (sum_pos == 0)).then(_NULL).otherwise(ap_sum / sum_pos)


def ks_statistic(ks_max: pl.Expr, sum_pos: pl.Expr, sum_neg: pl.Expr, n_invalid: pl.Expr) -> pl.Expr:
    return pl.when((n_invalid > 0) | (sum_pos == 0) | (sum_neg == 0)).then(_NULL).otherwise(ks_max)


def roc_auc_error_bound(auc_tie_sum: pl.Expr, sum_pos: pl.Expr, sum_neg: pl.Expr, n_invalid: pl.Expr) -> pl.Expr:
    undefined = (n_invalid > 0) | (sum_pos == 0) | (sum_neg == 0)
    return pl.when(undefined).then(_NULL).otherwise(auc_tie_sum / (2 * sum_pos * sum_neg))


def ks_threshold(ks_max: pl.Expr, ks_score: pl.Expr, sum_pos: pl.Expr, sum_neg: pl.Expr, n_invalid: pl.Expr) -> pl.Expr:
    return (
        pl.when((n_invalid > 0) | (sum_pos == 0) | (sum_neg == 0))
        .then(_NULL)
        .when(ks_max <= KS_TOLERANCE)
        .then(_value(float("inf")))
        .otherwise(ks_score)
    )


def break_even_point(bep_tp: pl.Expr, sum_pos: pl.Expr, n_invalid: pl.Expr) -> pl.Expr:
    return pl.when((n_invalid > 0) | (sum_pos == 0)).then(_NULL).otherwise(bep_tp / sum_pos)


def pr_auc_score(pr_auc_sum: pl.Expr, sum_pos: pl.Expr, n_invalid: pl.Expr) -> pl.Expr:
    return pl.when((n_invalid > 0) | (sum_pos == 0)).then(_NULL).otherwise(pr_auc_sum / sum_pos)


def mean_squared_error(sum_sq_error: pl.Expr, sum_weight: pl.Expr, n_invalid: pl.Expr) -> pl.Expr:
    return _share(sum_sq_error, sum_weight, n_invalid)


def root_mean_squared_error(sum_sq_error: pl.Expr, sum_weight: pl.Expr, n_invalid: pl.Expr) -> pl.Expr:
    return _share(sum_sq_error, sum_weight, n_invalid).sqrt()


def mean_absolute_error(sum_abs_error: pl.Expr, sum_weight: pl.Expr, n_invalid: pl.Expr) -> pl.Expr:
    return _share(sum_abs_error, sum_weight, n_invalid)


def mean_squared_log_error(sum_sq_log_error: pl.Expr, sum_weight: pl.Expr, n_invalid: pl.Expr) -> pl.Expr:
    return _share(sum_sq_log_error, sum_weight, n_invalid)


def root_mean_squared_log_error(sum_sq_log_error: pl.Expr, sum_weight: pl.Expr, n_invalid: pl.Expr) -> pl.Expr:
    return _share(sum_sq_log_error, sum_weight, n_invalid).sqrt()


def mean_absolute_percentage_error(sum_abs_pct_error: pl.Expr, sum_weight: pl.Expr, n_invalid: pl.Expr) -> pl.Expr:
    return _share(sum_abs_pct_error, sum_weight, n_invalid)


def mean_pinball_loss(sum_pinball: pl.Expr, sum_weight: pl.Expr, n_invalid: pl.Expr) -> pl.Expr:
    return _share(sum_pinball, sum_weight, n_invalid)


def max_error(max_abs_error: pl.Expr, n_invalid: pl.Expr) -> pl.Expr:
    return pl.when(n_invalid > 0).then(_NULL).otherwise(max_abs_error)


def median_absolute_error(median_abs_error: pl.Expr, n_invalid: pl.Expr) -> pl.Expr:
    return pl.when(n_invalid > 0).then(_NULL).otherwise(median_abs_error)


def _explained_fraction(
    numerator: pl.Expr, ss_total: pl.Expr, ratio: pl.Expr, undefined: pl.Expr, force_finite: bool
) -> pl.Expr:
    finite = pl.lit(bool(force_finite))
    return (
        pl.when(undefined)
        .then(_NULL)
        .when((ss_total != 0) & (numerator != 0))
        .then(1 - ratio)
        .when(finite & (numerator == 0))
        .then(_value(1.0))
        .when(finite)
        .then(_value(0.0))
        .when((numerator == 0) & (ss_total == 0))
        .then(_NULL)
        .when(ss_total == 0)
        .then(_value(float("-inf")))
        .otherwise(_value(1.0))
    )


def r2_score(
    sum_sq_error: pl.Expr,
    ss_total: pl.Expr,
    sum_weight: pl.Expr,
    n_rows: pl.Expr,
    n_invalid: pl.Expr,
    force_finite: bool,
) -> pl.Expr:
    undefined = (n_invalid > 0) | (n_rows < 2) | (sum_weight == 0)
    return _explained_fraction(sum_sq_error, ss_total, sum_sq_error / ss_total, undefined, force_finite)


def explained_variance_score(
    ss_error_deviation: pl.Expr,
    ss_total: pl.Expr,
    sum_weight: pl.Expr,
    n_invalid: pl.Expr,
    force_finite: bool,
) -> pl.Expr:
    undefined = (n_invalid > 0) | (sum_weight == 0)
    ratio = (ss_error_deviation / sum_weight) / (ss_total / sum_weight)
    return _explained_fraction(ss_error_deviation, ss_total, ratio, undefined, force_finite)
