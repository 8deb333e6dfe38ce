"""The regression metrics of the registry: one entry each, its formula a function of the core.

They read ``y_true`` and ``y_pred`` (finite numbers); stage 1 sums per-row
errors, or sorts them for the weighted quantiles. Each is one call of
:func:`_regression`: formula, summary, README formula, Notes, example value.
"""

from __future__ import annotations

import math
from typing import Any

from framemetrics.core.checks import check
from framemetrics.core.formulas import regression
from framemetrics.core.registry.metric import Example, Metric, entry

__all__ = ["REGRESSION"]

_FINITE = (check("finite", "y_true"), check("finite", "y_pred"))
_LOG = _FINITE + (check("log1p", "y_true"), check("log1p", "y_pred"))
_POISSON = (check("nonnegative", "y_true"), check("positive", "y_pred"))
_GAMMA = (check("positive", "y_true"), check("positive", "y_pred"))
# scikit-learn's domains of the Tweedie deviance by power: p < 0 (y any, y_pred > 0), p = 0 (normal),
# 1 <= p < 2 (Poisson to compound Poisson: y >= 0, y_pred > 0), p >= 2 (y, y_pred > 0); 0 < p < 1 is invalid.
_TWEEDIE = (
    (0.0, (check("finite", "y_true"), check("positive", "y_pred"))),
    (1.0, _FINITE),
    (2.0, _POISSON),
    (math.inf, _GAMMA),
)


_ROWS = Example('{"y": [3.0, 5.0, 2.5, 7.0], "f": [2.5, 5.0, 4.0, 8.0]}', '"y", "f"')


def _regression(formula: Any, summary: str, readme: str, notes: str, example: str | Example, **kwargs: Any) -> Metric:
    """The regression metric of ``formula``: an :func:`~framemetrics.core.registry.metric.entry`.

    ``example`` is the value on :data:`_ROWS` or an example of its own;
    ``checks`` default to finite values.
    """
    example = _ROWS(example) if isinstance(example, str) else example
    checks = kwargs.pop("checks", _FINITE)
    return entry(formula, "regression", "regression", checks, summary, readme, notes, example, **kwargs)


# Each metric: its formula, summary, README formula, Notes and example, then what differs from the defaults.
REGRESSION: tuple[Metric, ...] = (
    _regression(
        regression.mean_squared_error,
        "Mean squared error.",
        "Σ w e² / Σ w",
        "``sum(w (y - f)^2) / sum(w)``.",
        "0.875",
        mean="sum_sq_error",
    ),
    _regression(
        regression.root_mean_squared_error,
        "Root mean squared error.",
        "√(Σ w e² / Σ w)",
        "``sqrt(sum(w (y - f)^2) / sum(w))``.",
        "0.9354",
    ),
    _regression(
        regression.mean_absolute_error,
        "Mean absolute error.",
        "Σ w |e| / Σ w",
        "``sum(w |y - f|) / sum(w)``.",
        "0.75",
        mean="sum_abs_error",
    ),
    _regression(
        regression.mean_squared_log_error,
        "Mean squared logarithmic error.",
        "Σ w (log1p y − log1p ŷ)² / Σ w; values ≤ −1 are invalid",
        """\
``sum(w (log1p(y) - log1p(f))^2) / sum(w)``; values <= -1 are invalid input.
``log1p(x)`` is computed as ``log(1 + x) x / ((1 + x) - 1)`` in both engines.""",
        "0.0397",
        checks=_LOG,
        mean="sum_sq_log_error",
    ),
    _regression(
        regression.root_mean_squared_log_error,
        "Root mean squared logarithmic error.",
        "√ of the above",
        "``sqrt(mean_squared_log_error)``.",
        "0.1993",
        checks=_LOG,
    ),
    _regression(
        regression.mean_absolute_percentage_error,
        "Mean absolute percentage error (as a fraction, not in percent).",
        "Σ w |e| / max(|y|, ε) / Σ w (a fraction, not %)",
        "``sum(w |f - y| / max(|y|, eps)) / sum(w)`` with ``eps = 2**-52``.",
        "0.2274",
        mean="sum_abs_pct_error",
    ),
    _regression(
        regression.symmetric_mean_absolute_percentage_error,
        "Symmetric mean absolute percentage error (sMAPE, as a fraction in [0, 2], not in percent).",
        "Σ w 2 |e| / (|y| + |ŷ|) / Σ w, a row with y = ŷ = 0 counting 0 (in [0, 2])",
        """\
``sum(w 2 |y - f| / (|y| + |f|)) / sum(w)``, a row with ``y = f = 0``
counting 0. In [0, 2]: utilsforecast's ``smape`` is half of it (its
terms are ``|y - f| / (|y| + |f|)``, in [0, 1]) and takes no weights.""",
        "0.1942",
        reference="2 × utilsforecast's `smape` (weighted: the same mean in NumPy)",
        see_also="""\
mean_absolute_percentage_error : the error relative to ``|y|`` alone.
utilsforecast.losses.smape : half of this value, unweighted.""",
        value_range=(0.0, 2.0),
        mean="sum_smape",
    ),
    _regression(
        regression.weighted_absolute_percentage_error,
        "Weighted absolute percentage error (WAPE): the absolute error relative to the total absolute target.",
        "Σ w |e| / Σ w |y|; null when Σ w |y| = 0",
        """\
``sum(w |y - f|) / sum(w |y|)`` (a fraction, not in percent): a ratio of
totals, so rows with ``y = 0`` are fine where MAPE explodes. Null when
``sum(w |y|)`` is 0 (utilsforecast's ``wape``: NaN).""",
        "0.1714",
        reference="utilsforecast's `wape` (weighted: the same ratio in NumPy)",
        see_also="""\
mean_absolute_percentage_error : the mean of the rows' relative errors.
utilsforecast.losses.wape : the reference, unweighted.""",
        value_range=(0.0, math.inf),
    ),
    _regression(
        regression.mean_error,
        "Mean error: the bias of the predictions, positive when they over-forecast.",
        "Σ w (ŷ − y) / Σ w (the bias: > 0 over-forecasts)",
        """\
``sum(w (f - y)) / sum(w)``: the forecast's bias, positive where it
over-forecasts (utilsforecast's ``bias``, prediction minus actual). Null
when ``sum(w)`` is 0.""",
        "0.5",
        reference="utilsforecast's `bias` (weighted: `numpy.average(y_pred - y_true, weights=w)`)",
        see_also="""\
mean_absolute_error : the mean of ``|y - f|``.
utilsforecast.losses.bias : the reference, unweighted.""",
        mean="sum_bias",
    ),
    _regression(
        regression.mean_pinball_loss,
        "Mean pinball (quantile) loss at quantile ``alpha``.",
        "Σ w (α max(e, 0) + (1 − α) max(−e, 0)) / Σ w",
        "``sum(w (alpha max(y - f, 0) + (1 - alpha) max(f - y, 0))) / sum(w)``.",
        "0.375",
        input_params={"alpha": 0.5},
        mean="sum_pinball",
    ),
    _regression(
        regression.mean_poisson_deviance,
        "Mean Poisson deviance (Tweedie power 1), for counts and rates.",
        "Σ w 2 (y log(y / ŷ) − y + ŷ) / Σ w; y ≥ 0 and ŷ > 0, else invalid",
        """\
``sum(w 2 (y log(y / f) - y + f)) / sum(w)``, ``y log(y / f)`` being 0 at
``y = 0``. Needs ``y >= 0`` and ``f > 0`` (other rows are invalid input).""",
        "0.2186",
        checks=_POISSON,
        mean="sum_poisson_deviance",
    ),
    _regression(
        regression.mean_gamma_deviance,
        "Mean Gamma deviance (Tweedie power 2), for positive skewed targets.",
        "Σ w 2 (log(ŷ / y) + y / ŷ − 1) / Σ w; y > 0 and ŷ > 0, else invalid",
        """\
``sum(w 2 (log(f / y) + y / f - 1)) / sum(w)``. Needs ``y > 0`` and ``f > 0``
(other rows are invalid input).""",
        "0.0606",
        checks=_GAMMA,
        mean="sum_gamma_deviance",
    ),
    _regression(
        regression.mean_tweedie_deviance,
        "Mean Tweedie deviance at ``power``.",
        "Σ w d_p(y, ŷ) / Σ w, `power=` p ≤ 0 or ≥ 1 (0: squared error, 1: Poisson, 2: Gamma); inputs checked per power",
        """\
``sum(w d_p(y, f)) / sum(w)``: ``d_0 = (y - f)^2``, ``d_1`` the Poisson and
``d_2`` the Gamma deviance, else ``2 (max(y, 0)^(2-p) / ((1-p)(2-p)) -
y f^(1-p) / (1-p) + f^(2-p) / (2-p))``. The valid inputs depend on the
power, as in scikit-learn: ``p < 0`` needs ``f > 0``; ``p = 0`` finite
values; ``1 <= p < 2`` needs ``y >= 0`` and ``f > 0``; ``p >= 2`` needs
``y > 0`` and ``f > 0`` (other rows are invalid input).""",
        _ROWS("1.426", "power=1", frame='{"y": [2.0, 0.0, 1.0, 4.0], "f": [0.5, 0.5, 2.0, 2.0]}'),
        input_params={"power": 0.0},
        power_checks=_TWEEDIE,
        mean="sum_tweedie_deviance",
    ),
    _regression(
        regression.r2_score,
        "Coefficient of determination R^2.",
        "1 − Σ w e² / Σ w (y − ȳ)², ȳ weighted, `force_finite`",
        """\
``1 - sum(w (y - f)^2) / sum(w (y - ybar)^2)``, ``ybar`` the weighted mean,
centred exactly (a first pass computes ``ybar`` per group). With
``force_finite`` (default) a zero numerator gives 1 and a zero denominator
0; without, ``0 / 0`` and ``x / 0`` are null (scikit-learn: NaN, ``-inf``). Null with fewer
than two rows (scikit-learn: NaN).""",
        "0.7241",
        params={"force_finite": True},
        value_range=(-math.inf, 1.0),
    ),
    _regression(
        regression.explained_variance_score,
        "Explained variance score.",
        "1 − var_w(e) / var_w(y), `force_finite`",
        """\
``1 - var_w(y - f) / var_w(y)`` with weighted, exactly centred variances;
the same ``force_finite`` rules as :func:`r2_score`.""",
        "0.803",
        params={"force_finite": True},
        value_range=(-math.inf, 1.0),
    ),
    _regression(
        regression.max_error,
        "Maximum absolute error.",
        "max |e| over rows of positive weight",
        """\
``max |y - f|`` over the rows of positive weight (scikit-learn's
``max_error`` takes no weights: zero-weight rows are left out).""",
        "1.5",
    ),
    _regression(
        regression.median_absolute_error,
        "Median absolute error, weighted.",
        "weighted median of |e| (below)",
        """\
The weighted median of ``|y - f|``, scikit-learn's averaged inverted CDF:
the lowest error ``e`` of positive weight whose weight at or below it is at
least half the total; where that is exactly half, the mean of ``e`` and the
next error of positive weight (so the usual median for unit weights). Sums
of weights are compared within 1e-12 of the total (scikit-learn: within an
absolute 2.2e-16), so the value does not depend on the weights' scale. The
errors are sorted in the engine: one ``GROUP BY`` and one window per group.""",
        _ROWS(
            "0.75",
            frame='{"y": [3.0, 5.0, 2.5, 7.0], "f": [2.5, 5.0, 4.0, 8.0], "w": [1.0, 1.0, 1.0, 3.0]}',
            more='\n>>> round(df.select(fm.median_absolute_error("y", "f", "w")).item(), 4)\n1.0',
        ),
    ),
    _regression(
        regression.d2_absolute_error_score,
        "D^2 of the absolute error: the fraction of the absolute error of the median explained.",
        "1 − Σ w |e| / Σ w |y − m|, m the weighted median of y; `force_finite`; null under two rows",
        """\
``1 - sum(w |y - f|) / sum(w |y - m|)``, ``m`` the weighted median of ``y``
(as :func:`median_absolute_error` takes it). As scikit-learn with
``force_finite``: 1 when both sums are 0, 0 when only the baseline is; null
with fewer than two rows or a zero total weight (scikit-learn: NaN).""",
        "0.5385",
        value_range=(-math.inf, 1.0),
    ),
    _regression(
        regression.d2_pinball_score,
        "D^2 of the pinball loss at ``alpha``: the fraction of the loss of the constant quantile explained.",
        "1 − Σ w ρ_α(e) / Σ w ρ_α(y − q), q the weighted α-quantile of y; as above",
        """\
``1 - sum(w pinball(y - f)) / sum(w pinball(y - q))``, ``q`` the weighted
``alpha``-quantile of ``y`` (scikit-learn's averaged inverted CDF, see
:func:`median_absolute_error`). The same ``force_finite`` and null rules as
:func:`d2_absolute_error_score`, which is this score at ``alpha = 0.5``.""",
        _ROWS("0.3333", "alpha=0.9"),
        input_params={"alpha": 0.5},
        value_range=(-math.inf, 1.0),
    ),
    _regression(
        regression.d2_tweedie_score,
        "D^2 of the Tweedie deviance: the fraction of the deviance of the mean explained.",
        "1 − Σ w d_p(y, ŷ) / Σ w d_p(y, ȳ), ȳ weighted; null under two rows or with a zero baseline",
        """\
``1 - sum(w d_p(y, f)) / sum(w d_p(y, ybar))``, ``ybar`` the weighted mean of
``y`` (a first pass computes it per group), ``d_p`` and the valid inputs as
for :func:`mean_tweedie_deviance`. Null with fewer than two rows, a zero
total weight or a zero baseline (scikit-learn: NaN or ``-inf``).""",
        _ROWS("0.4879", "power=1", frame='{"y": [0.5, 1.0, 2.5, 7.0], "f": [1.0, 1.0, 5.0, 3.5]}'),
        reference="`d2_tweedie_score` (ZeroDivisionError or −inf there)",
        input_params={"power": 0.0},
        power_checks=_TWEEDIE,
        value_range=(-math.inf, 1.0),
    ),
)
