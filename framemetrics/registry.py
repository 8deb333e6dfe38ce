"""The registry: every metric with its statistics, formulas and reference.

``evaluate``, :func:`framemetrics.sql.query`, the macro tests and the parity
tests all walk :data:`REGISTRY`; a metric missing from an engine fails them.
"""

from __future__ import annotations

import difflib
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from framemetrics.core.checks import Check, check
from framemetrics.core.formulas import FORMULAS

__all__ = ["REGISTRY", "Metric", "get_metric"]

_LABELS = (check("label", "y_true"),)


@dataclass(frozen=True)
class Metric:
    """One metric: how both engines compute it and what it is compared to.

    Attributes
    ----------
    name : str
        Public name; also the output column, the Polars builder
        ``framemetrics.<name>`` and the DuckDB macro ``fm_<name>``.
    family : {"classification", "probability", "ranking", "regression"}
        Which inputs it reads: hard labels, probabilities, scores or real values.
    statistics : tuple of str
        Stage 1: the per-group statistics its formula reads
        (:data:`framemetrics.statistics.STATISTICS`).
    checks : tuple of Check
        Input domains; any invalid row makes the group's value NULL.
    params : dict
        Formula parameters and their defaults (``zero_division``, ``beta``...).
    input_params : dict
        Parameters of the statistics (``alpha`` of the pinball loss,
        ``max_fpr`` of the partial ROC AUC, which its formula reads too).
    weighted : bool
        Whether ``sample_weight`` is supported.
    conditional : dict
        Statistics computed only when the predicate of the metric's
        parameters holds (the partial AUC only with ``max_fpr < 1``);
        otherwise the formula receives NULL for them.
    """

    name: str
    family: str
    statistics: tuple[str, ...]
    checks: tuple[Check, ...]
    params: dict[str, Any] = field(default_factory=dict)
    input_params: dict[str, Any] = field(default_factory=dict)
    weighted: bool = True
    conditional: dict[str, Callable[[dict[str, Any]], bool]] = field(default_factory=dict)

    @property
    def prediction(self) -> str:
        """The input role of the prediction: ``y_pred`` or ``y_score``."""
        return "y_score" if self.family in ("probability", "ranking") else "y_pred"

    @property
    def formula(self) -> Callable[..., Any]:
        """Stage 2, written once (:data:`framemetrics.core.formulas.FORMULAS`)."""
        return FORMULAS[self.name]

    @property
    def sql_formula(self) -> str:
        """Stage 2 in SQL: the macro ``fm_formula_<name>``."""
        return f"fm_formula_{self.name}"

    @property
    def sql_macro(self) -> str:
        """The user-facing DuckDB aggregate macro."""
        return f"fm_{self.name}"


def _classification(name: str, statistics: str, **params: Any) -> Metric:
    return Metric(name, "classification", tuple(statistics.split()), _LABELS + (check("label", "y_pred"),), params)


def _probability(name: str, statistic: str) -> Metric:
    return Metric(name, "probability", (statistic, "sum_weight"), _LABELS + (check("probability", "y_score"),))


def _ranking(name: str, statistics: str, **kwargs: Any) -> Metric:
    # Finite scores, as scikit-learn: an infinite score would tie with the curves' +inf point.
    return Metric(name, "ranking", tuple(statistics.split()), _LABELS + (check("finite", "y_score"),), **kwargs)


_FINITE = (check("finite", "y_true"), check("finite", "y_pred"))
_LOG = _FINITE + (check("log1p", "y_true"), check("log1p", "y_pred"))


def _regression(name: str, statistics: str, checks: tuple[Check, ...] = _FINITE, **kwargs: Any) -> Metric:
    return Metric(name, "regression", tuple(statistics.split()), checks, **kwargs)


_ZD = {"zero_division": None}
_CELLS = "tp fp fn tn"

_METRICS = [
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
    _probability("log_loss", "sum_log_loss"),
    _probability("brier_score_loss", "sum_brier"),
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
    _regression("r2_score", "sum_sq_error ss_total sum_weight n_rows", params={"force_finite": True}),
    _regression("explained_variance_score", "ss_error_deviation ss_total sum_weight", params={"force_finite": True}),
    _regression("max_error", "max_abs_error"),
    _regression("median_absolute_error", "median_abs_error", weighted=False),
]

REGISTRY: dict[str, Metric] = {m.name: m for m in _METRICS}


def get_metric(name: str) -> Metric:
    """Look a metric up by name, suggesting the closest names on a typo.

    Parameters
    ----------
    name : str
        A key of :data:`REGISTRY`.

    Returns
    -------
    Metric

    Examples
    --------
    >>> get_metric("f1_score").statistics
    ('tp', 'fp', 'fn')
    """
    try:
        return REGISTRY[name]
    except KeyError:
        containing = [n for n in REGISTRY if str(name).lower() in n]
        close = list(dict.fromkeys(difflib.get_close_matches(str(name), REGISTRY, n=3) + containing))[:3]
        hint = f"; did you mean {', '.join(close)}?" if close else ""
        raise ValueError(f"unknown metric {name!r}{hint}") from None
