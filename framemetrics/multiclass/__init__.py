"""Multiclass evaluation: confusion matrix, class report, averaged metrics, multiclass AUC and AP."""

from framemetrics.multiclass.api import classification_report, evaluate_multiclass, multiclass_confusion_matrix
from framemetrics.multiclass.registry import MULTICLASS, MulticlassMetric, get_multiclass_metric

__all__ = [
    "MULTICLASS",
    "MulticlassMetric",
    "classification_report",
    "evaluate_multiclass",
    "get_multiclass_metric",
    "multiclass_confusion_matrix",
]
