"""Multiclass stage 2 in Polars: averages over classes and per-group formulas.

Each function mirrors the DuckDB macro ``fm_<name>`` of
``sql/framemetrics.sql`` with the same parameters in the same order (a test
checks this): ``mc_macro`` is ``fm_mc_macro``, ``formula_mc_kappa`` is
``fm_formula_mc_kappa``. The per-class values themselves are the binary
formulas of :mod:`framemetrics.formulas` over each class's ``tp, fp, fn``.
Arguments are Polars expressions (columns, or aggregations inside
``group_by().agg()``) or parameter values.
"""

from __future__ import annotations

import math

import polars as pl

_NULL = pl.lit(None, dtype=pl.Float64)
_EPS = 2.220446049250313e-16


def _value(x: float | None) -> pl.Expr:
    return pl.lit(x, dtype=pl.Float64)


def invalid_class(x: pl.Expr, labels: list | None) -> pl.Expr:
    return (x.is_null() | ~x.is_in(labels)).fill_null(True).cast(pl.Int64).sum()


def invalid_present(x: pl.Expr) -> pl.Expr:
    return x.is_null().cast(pl.Int64).sum()


def invalid_simplex(row_sum: pl.Expr) -> pl.Expr:
    return (~((row_sum - 1).abs() <= 1e-5)).fill_null(False).cast(pl.Int64).sum()


def mc_log_loss_row(p_true: pl.Expr) -> pl.Expr:
    return -p_true.cast(pl.Float64).clip(_EPS, 1 - _EPS).log(math.e)


def mc_brier_term(s: pl.Expr, c: pl.Expr, true_index: pl.Expr) -> pl.Expr:
    return (s.cast(pl.Float64) - (c == true_index).cast(pl.Float64)).pow(2)


def mc_ranks_above(s: pl.Expr, c: pl.Expr, p_true: pl.Expr, true_index: pl.Expr) -> pl.Expr:
    return ((s > p_true) | ((s == p_true) & (c > true_index))).cast(pl.Int64)


def mc_kappa_weight(i: pl.Expr, j: pl.Expr, weights: str | None) -> pl.Expr:
    if weights == "linear":
        return (i - j).abs().cast(pl.Float64)
    if weights == "quadratic":
        return ((i - j) * (i - j)).cast(pl.Float64)
    return (i != j).cast(pl.Float64)


def _filled(value: pl.Expr, zero_division: float | None) -> pl.Expr:
    return value if zero_division is None else value.fill_null(float(zero_division))


def mc_macro(value: pl.Expr, zero_division: float | None) -> pl.Expr:
    return _filled(value, zero_division).mean()


def mc_weighted(value: pl.Expr, support: pl.Expr, zero_division: float | None) -> pl.Expr:
    v = _filled(value, zero_division)
    used = support.filter(v.is_not_null()).sum()
    return pl.when(used > 0).then((support * v).sum() / used).otherwise(v.mean())


def mc_macro_strict(value: pl.Expr, zero_division: float | None) -> pl.Expr:
    v = _filled(value, zero_division)
    return pl.when(v.null_count() > 0).then(_NULL).otherwise(v.mean())


def mc_weighted_strict(value: pl.Expr, support: pl.Expr, zero_division: float | None) -> pl.Expr:
    v = _filled(value, zero_division)
    return (
        pl.when(v.null_count() > 0)
        .then(_NULL)
        .when(support.sum() > 0)
        .then((support * v).sum() / support.sum())
        .otherwise(v.mean())
    )


def mc_ovo_pair(auc_sum_ab: pl.Expr, auc_sum_ba: pl.Expr, pos_a: pl.Expr, pos_b: pl.Expr) -> pl.Expr:
    return (auc_sum_ab + auc_sum_ba) / (4 * pos_a * pos_b)


def formula_mc_share(part: pl.Expr, whole: pl.Expr, n_invalid: pl.Expr) -> pl.Expr:
    return pl.when((n_invalid > 0) | (whole == 0)).then(_NULL).otherwise(part / whole)


def formula_mc_value(value: pl.Expr, n_invalid: pl.Expr) -> pl.Expr:
    return pl.when(n_invalid > 0).then(_NULL).otherwise(value)


def formula_mc_balanced_accuracy(
    mean_recall: pl.Expr, n_true_classes: pl.Expr, adjusted: bool, n_invalid: pl.Expr
) -> pl.Expr:
    chance = 1 / n_true_classes
    guarded = pl.when((n_invalid > 0) | (n_true_classes == 0)).then(_NULL)
    if not adjusted:
        return guarded.otherwise(mean_recall)
    return guarded.when(n_true_classes == 1).then(_NULL).otherwise((mean_recall - chance) / (1 - chance))


def formula_mc_matthews(
    correct: pl.Expr,
    total: pl.Expr,
    true_dot_pred: pl.Expr,
    true_dot_true: pl.Expr,
    pred_dot_pred: pl.Expr,
    n_true_classes: pl.Expr,
    n_pred_classes: pl.Expr,
    n_invalid: pl.Expr,
) -> pl.Expr:
    denominator = ((total * total - true_dot_true) * (total * total - pred_dot_pred)).sqrt()
    return (
        pl.when(n_invalid > 0)
        .then(_NULL)
        .when((n_true_classes < 2) | (n_pred_classes < 2))
        .then(_value(0.0))
        .otherwise((correct * total - true_dot_pred) / denominator)
    )


def formula_mc_kappa(observed: pl.Expr, expected: pl.Expr, n_invalid: pl.Expr) -> pl.Expr:
    undefined = (n_invalid > 0) | expected.is_null() | (expected == 0)
    return pl.when(undefined).then(_NULL).otherwise(1 - observed / expected)


def formula_mc_harmonic_f1(
    macro_precision: pl.Expr, macro_recall: pl.Expr, n_invalid: pl.Expr, zero_division: float | None
) -> pl.Expr:
    total = macro_precision + macro_recall
    return (
        pl.when((n_invalid > 0) | macro_precision.is_null() | macro_recall.is_null())
        .then(_NULL)
        .when(total == 0)
        .then(_value(zero_division))
        .otherwise(2 * macro_precision * macro_recall / total)
    )


def formula_mc_brier(sum_brier: pl.Expr, total: pl.Expr, n_classes: int, n_invalid: pl.Expr) -> pl.Expr:
    mean = sum_brier / total
    return pl.when((n_invalid > 0) | (total == 0)).then(_NULL).otherwise(mean / 2 if n_classes < 3 else mean)
