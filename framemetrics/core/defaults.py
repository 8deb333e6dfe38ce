"""The default metrics of each task, the same for ``fm.evaluate``, ``fm.sql.query`` and the command line.

=========================  ==================================================================
task, prediction           default metrics
=========================  ==================================================================
binary, ``y_score``        accuracy, precision, recall, F1 (at ``threshold``), ROC AUC,
                           average precision, log loss, Brier score
binary, ``y_pred``         accuracy, precision, recall, F1, Matthews correlation
multiclass, ``y_score``    accuracy, macro F1, weighted F1 (of the scores' argmax without
                           ``y_pred``), log loss, one-vs-rest ROC AUC (macro)
multiclass, ``y_pred``     accuracy, macro F1, weighted F1
regression, ``y_pred``     RMSE, MAE, R²
=========================  ==================================================================

Examples
--------
>>> DEFAULT_METRICS["regression", "y_pred"]
('root_mean_squared_error', 'mean_absolute_error', 'r2_score')
"""

from __future__ import annotations

__all__ = ["DEFAULT_METRICS", "default_metrics"]

_LABELS = ("accuracy_score", "precision_score", "recall_score", "f1_score")
DEFAULT_METRICS: dict[tuple[str, str], tuple[str, ...]] = {
    ("binary", "y_score"): (*_LABELS, "roc_auc_score", "average_precision_score", "log_loss", "brier_score_loss"),
    ("binary", "y_pred"): (*_LABELS, "matthews_corrcoef"),
    ("multiclass", "y_score"): ("accuracy_score", "f1_macro", "f1_weighted", "log_loss", "roc_auc_ovr"),
    ("multiclass", "y_pred"): ("accuracy_score", "f1_macro", "f1_weighted"),
    ("regression", "y_pred"): ("root_mean_squared_error", "mean_absolute_error", "r2_score"),
}


def default_metrics(task: str, scored: bool) -> tuple[str, ...]:
    """The default metrics of ``task`` with scores (``scored``) or predictions only.

    Examples
    --------
    >>> default_metrics("multiclass", scored=False)
    ('accuracy_score', 'f1_macro', 'f1_weighted')
    """
    return DEFAULT_METRICS[task, "y_score" if scored and task != "regression" else "y_pred"]
