"""Multiclass evaluation: confusion matrix, class report, averaged metrics, multiclass AUC and AP."""

from framemetrics.core.registry import MULTICLASS
from framemetrics.multiclass.api import (
    class_table,
    classification_report,
    evaluate_multiclass,
    multiclass_confusion_matrix,
)

__all__ = [
    "MULTICLASS",
    "class_table",
    "classification_report",
    "evaluate_multiclass",
    "multiclass_confusion_matrix",
]
