"""Multiclass evaluation: confusion matrix, class report, averaged metrics, multiclass AUC and AP."""

from framemetrics.multiclass.api import evaluate_multiclass
from framemetrics.multiclass.registry import MULTICLASS, MulticlassMetric, get_multiclass_metric

__all__ = ["MULTICLASS", "MulticlassMetric", "evaluate_multiclass", "get_multiclass_metric"]
