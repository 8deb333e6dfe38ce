"""framemetrics: model-evaluation metrics computed inside Polars and DuckDB.

Every metric is a Polars expression (usable in ``group_by().agg()``) and
DuckDB SQL (``sql/framemetrics.sql``); :func:`evaluate` runs many metrics per
group on either engine and :func:`framemetrics.sql.query` writes the SQL.

The names below load on first use (PEP 562): ``import framemetrics`` reads
no engine, so it costs milliseconds; the first ``fm.evaluate`` imports
Polars, DuckDB and sqlglot. The ``TYPE_CHECKING`` imports are the one list of
what each name is: type checkers read them, and :data:`_LAZY` is parsed from
them.
"""

from __future__ import annotations

import ast
import importlib
import importlib.util
from pathlib import Path
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from framemetrics import sql
    from framemetrics.builders import (
        accuracy_score,
        average_precision_score,
        balanced_accuracy_score,
        break_even_point,
        brier_score_loss,
        cohen_kappa_score,
        d2_absolute_error_score,
        d2_brier_score,
        d2_log_loss_score,
        d2_pinball_score,
        d2_tweedie_score,
        error_rate,
        explained_variance_score,
        f1_score,
        false_negative_rate,
        false_positive_rate,
        fbeta_score,
        gini_score,
        hinge_loss,
        jaccard_score,
        ks_statistic,
        ks_threshold,
        log_loss,
        matthews_corrcoef,
        max_error,
        mean_absolute_error,
        mean_absolute_percentage_error,
        mean_gamma_deviance,
        mean_pinball_loss,
        mean_poisson_deviance,
        mean_squared_error,
        mean_squared_log_error,
        mean_tweedie_deviance,
        median_absolute_error,
        negative_likelihood_ratio,
        negative_predictive_value,
        positive_likelihood_ratio,
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
    from framemetrics.core.errors import ArgumentError
    from framemetrics.core.registry import REGISTRY, Metric, get_metric
    from framemetrics.curves import curve_table, det_curve, precision_recall_curve, roc_curve
    from framemetrics.detection import (
        box_iou,
        coco_evaluate,
        coco_precision_table,
        coco_recall_table,
        nms,
        read_coco,
        voc_evaluate,
    )
    from framemetrics.evaluation import evaluate
    from framemetrics.multiclass import (
        MULTICLASS,
        class_table,
        classification_report,
        evaluate_multiclass,
        multiclass_confusion_matrix,
    )
    from framemetrics.report import evaluation_report
    from framemetrics.uncertainty import bootstrap, compare_auc, confidence_interval, roc_auc_ci, roc_auc_se


def _lazy_names() -> dict[str, str]:
    """Each public name and the module it comes from, read from this file's ``TYPE_CHECKING`` imports."""
    tree = ast.parse(Path(__file__).read_text(encoding="utf-8"))
    block = next(node for node in tree.body if isinstance(node, ast.If) and ast.unparse(node.test) == "TYPE_CHECKING")
    names = {}
    for node in block.body:
        if isinstance(node, ast.ImportFrom) and node.module:
            names |= {alias.name: node.module for alias in node.names}
    return names


_LAZY = _lazy_names()


def __getattr__(name: str) -> Any:
    """Import the module of ``name`` on first use and keep the value (PEP 562); ``fm.<submodule>`` too."""
    module = _LAZY.get(name, "framemetrics")
    if module == "framemetrics":  # a submodule: ``fm.sql``, ``fm.tasks``...
        if importlib.util.find_spec(f"framemetrics.{name}") is None:
            raise AttributeError(f"module 'framemetrics' has no attribute {name!r}")
        value = importlib.import_module(f"framemetrics.{name}")
    else:
        value = getattr(importlib.import_module(module), name)
    globals()[name] = value
    return value


def __dir__() -> list[str]:
    return sorted({*globals(), *_LAZY})


__version__ = "0.1.0"

__all__ = [
    "MULTICLASS",
    "REGISTRY",
    "ArgumentError",
    "Metric",
    "accuracy_score",
    "average_precision_score",
    "balanced_accuracy_score",
    "bootstrap",
    "box_iou",
    "break_even_point",
    "brier_score_loss",
    "calibration_curve",
    "class_table",
    "classification_report",
    "coco_evaluate",
    "coco_precision_table",
    "coco_recall_table",
    "cohen_kappa_score",
    "compare_auc",
    "confidence_interval",
    "curve_table",
    "d2_absolute_error_score",
    "d2_brier_score",
    "d2_log_loss_score",
    "d2_pinball_score",
    "d2_tweedie_score",
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
    "hinge_loss",
    "jaccard_score",
    "ks_statistic",
    "ks_threshold",
    "log_loss",
    "matthews_corrcoef",
    "max_error",
    "mean_absolute_error",
    "mean_absolute_percentage_error",
    "mean_gamma_deviance",
    "mean_pinball_loss",
    "mean_poisson_deviance",
    "mean_squared_error",
    "mean_squared_log_error",
    "mean_tweedie_deviance",
    "median_absolute_error",
    "multiclass_confusion_matrix",
    "negative_likelihood_ratio",
    "negative_predictive_value",
    "nms",
    "positive_likelihood_ratio",
    "pr_auc_score",
    "precision_recall_curve",
    "precision_score",
    "prevalence",
    "r2_score",
    "read_coco",
    "recall_score",
    "roc_auc_ci",
    "roc_auc_error_bound",
    "roc_auc_score",
    "roc_auc_se",
    "roc_curve",
    "root_mean_squared_error",
    "root_mean_squared_log_error",
    "specificity_score",
    "sql",
    "voc_evaluate",
]
