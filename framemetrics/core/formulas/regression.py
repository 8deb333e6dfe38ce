"""Regression formulas: weighted means of per-row errors, extremes, explained fractions."""

from __future__ import annotations

from typing import Any

from framemetrics.core.formulas.guards import share, valid, weighted_mean
from framemetrics.core.namespace import Namespace

Expr = Any


# The weighted means of one row statistic each (guards.weighted_mean): name, statistic, formula.
mean_squared_error = weighted_mean("mean_squared_error", "sum_sq_error", "sum w (y - y_pred)^2 / sum w.", __name__)
root_mean_squared_error = weighted_mean(
    "root_mean_squared_error", "sum_sq_error", "sqrt(sum w (y - y_pred)^2 / sum w).", __name__, root=True
)
mean_absolute_error = weighted_mean("mean_absolute_error", "sum_abs_error", "sum w |y - y_pred| / sum w.", __name__)
mean_squared_log_error = weighted_mean(
    "mean_squared_log_error", "sum_sq_log_error", "sum w (log1p(y) - log1p(y_pred))^2 / sum w.", __name__
)
root_mean_squared_log_error = weighted_mean(
    "root_mean_squared_log_error",
    "sum_sq_log_error",
    "sqrt(sum w (log1p(y) - log1p(y_pred))^2 / sum w).",
    __name__,
    root=True,
)
mean_absolute_percentage_error = weighted_mean(
    "mean_absolute_percentage_error", "sum_abs_pct_error", "sum w |y - y_pred| / max(|y|, eps) / sum w.", __name__
)
symmetric_mean_absolute_percentage_error = weighted_mean(
    "symmetric_mean_absolute_percentage_error",
    "sum_smape",
    "sum w 2 |y - y_pred| / (|y| + |y_pred|) / sum w, a row with y = y_pred = 0 counting 0.",
    __name__,
)
mean_pinball_loss = weighted_mean(
    "mean_pinball_loss", "sum_pinball", "sum w max(alpha e, (alpha - 1) e) / sum w, e = y - y_pred.", __name__
)
mean_poisson_deviance = weighted_mean(
    "mean_poisson_deviance",
    "sum_poisson_deviance",
    "sum w 2 (y log(y / y_pred) - y + y_pred) / sum w (Tweedie power 1; y >= 0, y_pred > 0).",
    __name__,
)
mean_gamma_deviance = weighted_mean(
    "mean_gamma_deviance",
    "sum_gamma_deviance",
    "sum w 2 (log(y_pred / y) + y / y_pred - 1) / sum w (Tweedie power 2; y > 0, y_pred > 0).",
    __name__,
)
mean_tweedie_deviance = weighted_mean(
    "mean_tweedie_deviance",
    "sum_tweedie_deviance",
    "sum w d_p(y, y_pred) / sum w, d_p the Tweedie deviance at power p (p <= 0 or p >= 1).",
    __name__,
)


def weighted_absolute_percentage_error(
    ns: Namespace, sum_abs_error: Expr, sum_abs_y_true: Expr, n_invalid: Expr
) -> Expr:
    """sum w |y - y_pred| / sum w |y|; null if sum w |y| = 0."""
    return share(ns, sum_abs_error, sum_abs_y_true, n_invalid)


def mean_error(ns: Namespace, sum_bias: Expr, sum_weight: Expr, n_invalid: Expr) -> Expr:
    """sum w (y_pred - y) / sum w, the bias (positive: over-forecast); null if sum w = 0."""
    return share(ns, sum_bias, sum_weight, n_invalid)


def max_error(ns: Namespace, max_abs_error: Expr, n_invalid: Expr) -> Expr:
    """max |y - y_pred| over the rows of positive weight."""
    return valid(ns, n_invalid, max_abs_error)


def median_absolute_error(ns: Namespace, median_abs_error: Expr, sum_weight: Expr, n_invalid: Expr) -> Expr:
    """The weighted median of |y - y_pred| (scikit-learn's averaged inverted CDF); null if sum w = 0."""
    return valid(ns, n_invalid, median_abs_error, ns.eq(sum_weight, 0))


def _explained_fraction(
    ns: Namespace, numerator: Expr, ss_total: Expr, ratio: Expr, undefined: Expr, force_finite: Expr
) -> Expr:
    """1 - ratio, with scikit-learn's force_finite rules for a zero numerator or ss_total."""
    return (
        ns.when(undefined, ns.null())
        .when(ns.all(ns.ne(ss_total, 0), ns.ne(numerator, 0)), 1 - ratio)
        .when(ns.all(force_finite, ns.eq(numerator, 0)), ns.lit(1.0))
        .when(force_finite, ns.lit(0.0))
        .when(ns.all(ns.eq(numerator, 0), ns.eq(ss_total, 0)), ns.null())
        .when(ns.eq(ss_total, 0), ns.lit(float("-inf")))
        .otherwise(ns.lit(1.0))
    )


def r2_score(
    ns: Namespace,
    sum_sq_error: Expr,
    ss_total: Expr,
    sum_weight: Expr,
    n_rows: Expr,
    n_invalid: Expr,
    force_finite: Expr,
) -> Expr:
    """1 - ss_res / ss_tot; force_finite: 1 if ss_res = 0, else 0 if ss_tot = 0; null below two rows."""
    undefined = ns.any(n_invalid > 0, n_rows < 2, ns.eq(sum_weight, 0))
    return _explained_fraction(ns, sum_sq_error, ss_total, sum_sq_error / ss_total, undefined, force_finite)


def explained_variance_score(
    ns: Namespace,
    ss_error_deviation: Expr,
    ss_total: Expr,
    sum_weight: Expr,
    n_invalid: Expr,
    force_finite: Expr,
) -> Expr:
    """1 - var_w(y - y_pred) / var_w(y), with the same force_finite rules as R^2."""
    undefined = ns.any(n_invalid > 0, ns.eq(sum_weight, 0))
    ratio = (ss_error_deviation / sum_weight) / (ss_total / sum_weight)
    return _explained_fraction(ns, ss_error_deviation, ss_total, ratio, undefined, force_finite)


def _quantile_d2(ns: Namespace, loss: Expr, baseline: Expr, sum_weight: Expr, n_rows: Expr, n_invalid: Expr) -> Expr:
    """1 - loss / baseline with force_finite (1 if both are 0, 0 if only the baseline is); null under two rows."""
    undefined = ns.any(n_invalid > 0, n_rows < 2, ns.eq(sum_weight, 0))
    return _explained_fraction(ns, loss, baseline, loss / baseline, undefined, ns.lit(True))


def d2_absolute_error_score(
    ns: Namespace, sum_abs_error: Expr, abs_deviation_median: Expr, sum_weight: Expr, n_rows: Expr, n_invalid: Expr
) -> Expr:
    """1 - sum w |y - y_pred| / sum w |y - m|, m the weighted median of y (scikit-learn's D^2 at alpha 0.5)."""
    return _quantile_d2(ns, sum_abs_error, abs_deviation_median, sum_weight, n_rows, n_invalid)


def d2_pinball_score(
    ns: Namespace, sum_pinball: Expr, pinball_baseline: Expr, sum_weight: Expr, n_rows: Expr, n_invalid: Expr
) -> Expr:
    """1 - sum w pinball(y - y_pred) / sum w pinball(y - q), q the weighted alpha-quantile of y."""
    return _quantile_d2(ns, sum_pinball, pinball_baseline, sum_weight, n_rows, n_invalid)


def d2_tweedie_score(
    ns: Namespace, sum_tweedie_deviance: Expr, tweedie_baseline: Expr, sum_weight: Expr, n_rows: Expr, n_invalid: Expr
) -> Expr:
    """1 - sum w d_p(y, y_pred) / sum w d_p(y, ybar), ybar the weighted mean of y; null under two rows or at 0 / 0."""
    undefined = (n_rows < 2, ns.eq(sum_weight, 0), ns.eq(tweedie_baseline, 0))
    return valid(ns, n_invalid, 1 - sum_tweedie_deviance / tweedie_baseline, *undefined)
