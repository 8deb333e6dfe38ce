"""The binary classification and regression metrics of the registry.

A metric's formula is the function of its name in
:data:`framemetrics.core.formulas.FORMULAS`, over the statistics it reads.
"""

from __future__ import annotations

import math
from typing import Any

from framemetrics.core.checks import Check, check
from framemetrics.core.formulas import FORMULAS, formula_parameters
from framemetrics.core.registry.metric import Call, Metric

__all__ = ["BINARY"]

_LABELS = (check("label", "y_true"),)


def _metric(name: str, task: str, family: str, statistics: str, checks: tuple[Check, ...], **kwargs: Any) -> Metric:
    formula = Call(FORMULAS[name], formula_parameters(name))
    return Metric(name, task, family, tuple(statistics.split()), checks, formula, **kwargs)


def _classification(name: str, statistics: str, **params: Any) -> Metric:
    return _metric(name, "binary", "classification", statistics, _LABELS + (check("label", "y_pred"),), params=params)


def _probability(name: str, statistics: str) -> Metric:
    return _metric(name, "binary", "probability", statistics, _LABELS + (check("probability", "y_score"),))


def _ranking(name: str, statistics: str, **kwargs: Any) -> Metric:
    # Finite scores, as scikit-learn: an infinite score would tie with the curves' +inf point.
    return _metric(name, "binary", "ranking", statistics, _LABELS + (check("finite", "y_score"),), **kwargs)


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


def _regression(name: str, statistics: str, checks: tuple[Check, ...] = _FINITE, **kwargs: Any) -> Metric:
    return _metric(name, "regression", "regression", statistics, checks, **kwargs)


_ZD = {"zero_division": None}
_CELLS = "tp fp fn tn"

BINARY: tuple[Metric, ...] = (
    _classification("accuracy_score", _CELLS),
    _classification("error_rate", _CELLS),
    _classification("precision_score", "tp fp", **_ZD),
    _classification("recall_score", "tp fn", **_ZD),
    _classification("specificity_score", "fp tn", **_ZD),
    _classification("false_positive_rate", "fp tn", **_ZD),
    _classification("false_negative_rate", "tp fn", **_ZD),
    _classification("negative_predictive_value", "fn tn", **_ZD),
    _classification("f1_score", "tp fp fn", **_ZD),
    _classification("fbeta_score", "tp fp fn", beta=1.0, **_ZD),
    _classification("jaccard_score", "tp fp fn", **_ZD),
    _classification("balanced_accuracy_score", _CELLS),
    _classification("matthews_corrcoef", _CELLS),
    _classification("cohen_kappa_score", _CELLS),
    _classification("prevalence", _CELLS),
    _classification("positive_likelihood_ratio", _CELLS),
    _classification("negative_likelihood_ratio", _CELLS),
    _probability("log_loss", "sum_log_loss sum_weight"),
    _probability("brier_score_loss", "sum_brier sum_weight"),
    _probability("d2_log_loss_score", "sum_log_loss sum_positive sum_weight n_rows"),
    _probability("d2_brier_score", "sum_brier sum_positive sum_weight n_rows"),
    _metric("hinge_loss", "binary", "probability", "sum_hinge sum_weight", _LABELS + (check("finite", "y_score"),)),
    _ranking(
        "roc_auc_score",
        "auc_sum partial_auc sum_pos sum_neg",
        params={"max_fpr": None},
        input_params={"max_fpr": None},
        conditional={"partial_auc": lambda params: params["max_fpr"] not in (None, 1)},
    ),
    _ranking("gini_score", "auc_sum sum_pos sum_neg"),
    _ranking("roc_auc_error_bound", "auc_tie_sum sum_pos sum_neg"),
    _ranking("average_precision_score", "ap_sum sum_pos"),
    _ranking("pr_auc_score", "pr_auc_sum sum_pos"),
    _ranking("ks_statistic", "ks_max sum_pos sum_neg"),
    _ranking("ks_threshold", "ks_max ks_score sum_pos sum_neg"),
    _ranking("break_even_point", "bep_tp sum_pos"),
    _regression("mean_squared_error", "sum_sq_error sum_weight"),
    _regression("root_mean_squared_error", "sum_sq_error sum_weight"),
    _regression("mean_absolute_error", "sum_abs_error sum_weight"),
    _regression("mean_squared_log_error", "sum_sq_log_error sum_weight", _LOG),
    _regression("root_mean_squared_log_error", "sum_sq_log_error sum_weight", _LOG),
    _regression("mean_absolute_percentage_error", "sum_abs_pct_error sum_weight"),
    _regression("mean_pinball_loss", "sum_pinball sum_weight", input_params={"alpha": 0.5}),
    _regression("mean_poisson_deviance", "sum_poisson_deviance sum_weight", _POISSON),
    _regression("mean_gamma_deviance", "sum_gamma_deviance sum_weight", _GAMMA),
    _regression(
        "mean_tweedie_deviance",
        "sum_tweedie_deviance sum_weight",
        _FINITE,
        input_params={"power": 0.0},
        power_checks=_TWEEDIE,
    ),
    _regression("r2_score", "sum_sq_error ss_total sum_weight n_rows", params={"force_finite": True}),
    _regression("explained_variance_score", "ss_error_deviation ss_total sum_weight", params={"force_finite": True}),
    _regression("max_error", "max_abs_error"),
    _regression("median_absolute_error", "median_abs_error sum_weight"),
    _regression("d2_absolute_error_score", "sum_abs_error abs_deviation_median sum_weight n_rows"),
    _regression("d2_pinball_score", "sum_pinball pinball_baseline sum_weight n_rows", input_params={"alpha": 0.5}),
    _regression(
        "d2_tweedie_score",
        "sum_tweedie_deviance tweedie_baseline sum_weight n_rows",
        _FINITE,
        input_params={"power": 0.0},
        power_checks=_TWEEDIE,
    ),
)
