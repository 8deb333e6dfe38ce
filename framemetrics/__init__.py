"""framemetrics: model-evaluation metrics computed inside Polars and DuckDB.

Every metric is a Polars expression (usable in ``group_by().agg()``) and
DuckDB SQL (``sql/framemetrics.sql``); :func:`evaluate` runs many metrics per
group on either engine and :func:`framemetrics.sql.query` writes the SQL.
"""

from framemetrics import sql
from framemetrics.builders import (
    accuracy_score,
    average_precision_score,
    balanced_accuracy_score,
    break_even_point,
    brier_score_loss,
    cohen_kappa_score,
    error_rate,
    explained_variance_score,
    f1_score,
    false_negative_rate,
    false_positive_rate,
    fbeta_score,
    gini_score,
    jaccard_score,
    ks_statistic,
    ks_threshold,
    log_loss,
    matthews_corrcoef,
    max_error,
    mean_absolute_error,
    mean_absolute_percentage_error,
    mean_pinball_loss,
    mean_squared_error,
    mean_squared_log_error,
    median_absolute_error,
    negative_predictive_value,
    pr_auc_score,
    precision_score,
    prevalence,
    r2_score,
    recall_score,
    roc_auc_error_bound,
    roc_auc_score,
    root_mean_squared_error,
    root_mean_squared_log_error,
    specificity_score,
)
from framemetrics.calibration import calibration_curve
from framemetrics.core.registry import REGISTRY, Metric, get_metric
from framemetrics.curves import curve_table, det_curve, precision_recall_curve, roc_curve
from framemetrics.evaluate import evaluate
from framemetrics.multiclass import (
    MULTICLASS,
    classification_report,
    evaluate_multiclass,
    multiclass_confusion_matrix,
)
from framemetrics.report import evaluation_report

__version__ = "0.1.0"

__all__ = [
    "MULTICLASS",
    "REGISTRY",
    "Metric",
    "accuracy_score",
    "average_precision_score",
    "balanced_accuracy_score",
    "break_even_point",
    "brier_score_loss",
    "calibration_curve",
    "classification_report",
    "cohen_kappa_score",
    "curve_table",
    "det_curve",
    "error_rate",
    "evaluate",
    "evaluate_multiclass",
    "evaluation_report",
    "explained_variance_score",
    "f1_score",
    "false_negative_rate",
    "false_positive_rate",
    "fbeta_score",
    "get_metric",
    "gini_score",
    "jaccard_score",
    "ks_statistic",
    "ks_threshold",
    "log_loss",
    "matthews_corrcoef",
    "max_error",
    "mean_absolute_error",
    "mean_absolute_percentage_error",
    "mean_pinball_loss",
    "mean_squared_error",
    "mean_squared_log_error",
    "median_absolute_error",
    "multiclass_confusion_matrix",
    "negative_predictive_value",
    "pr_auc_score",
    "precision_recall_curve",
    "precision_score",
    "prevalence",
    "r2_score",
    "recall_score",
    "roc_auc_error_bound",
    "roc_auc_score",
    "roc_curve",
    "root_mean_squared_error",
    "root_mean_squared_log_error",
    "specificity_score",
    "sql",
]
