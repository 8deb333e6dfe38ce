"""The multiclass metrics of the registry.

A metric's formula is a call of a function of the core (a multiclass formula
of :mod:`framemetrics.core.formulas.multiclass` or a binary metric's formula) over per-group columns, compiled
by each engine; averaged metrics first aggregate a per-class value over the
classes of the group (``averages``).
Argument names are columns of the per-group table, parameters of the metric,
or ``NULL``. Names follow scikit-learn's scorer names (``f1_macro``,
``roc_auc_ovo_weighted``); ``{"f1_score": {"average": "macro"}}`` is an alias
(:func:`framemetrics.core.registry.get_metric`).
"""

from __future__ import annotations

import math
from typing import Any

from framemetrics.core.checks import check
from framemetrics.core.formulas import multiclass as mc
from framemetrics.core.formulas import ranking
from framemetrics.core.registry import classification
from framemetrics.core.registry.metric import Call, Metric

__all__ = ["MULTICLASS", "PER_CLASS", "RANK_PER_CLASS"]

# The binary formulas the multiclass metrics apply per class or to the micro-averaged cells.
_BINARY = {
    **{m.name: m.formula.function for m in classification.CLASSIFICATION},
    "roc_auc_score": ranking.roc_auc_score,
    "average_precision_score": ranking.average_precision_score,
}

_SCORES = {
    None: (),
    "finite": (check("finite", "y_score"),),
    "probability": (check("probability", "y_score"), check("simplex", "y_score")),
}


def _mc(
    name: str,
    family: str,
    formula: Call,
    stage: str,
    reference: str,
    *,
    scores: str | None = None,
    value_range: tuple[float, float] = (0.0, 1.0),
    **kwargs: Any,
) -> Metric:
    """A multiclass metric whose columns come from ``stage``; ``scores`` is the domain of its score columns.

    ``value_range`` is its range (a share, by default).
    """
    return Metric(
        name,
        "multiclass",
        family,
        (stage,),
        _SCORES[scores],
        formula,
        reference=reference,
        value_range=value_range,
        **kwargs,
    )


# Stage 2a: the binary formulas per class (``fm_class_values``, ``fm_rank_values``), with no
# invalid row (the group's checks apply in stage 2c) and undefined ratios NULL (the averages
# apply each metric's zero_division).
PER_CLASS = {
    "precision_score": Call(_BINARY["precision_score"], ("tp", "fp", "NO_INVALID", "NULL")),
    "recall_score": Call(_BINARY["recall_score"], ("tp", "fn", "NO_INVALID", "NULL")),
    "f1_score": Call(_BINARY["f1_score"], ("tp", "fp", "fn", "NO_INVALID", "NULL")),
    "fbeta_score": Call(_BINARY["fbeta_score"], ("tp", "fp", "fn", "NO_INVALID", "beta", "NULL")),
    "jaccard_score": Call(_BINARY["jaccard_score"], ("tp", "fp", "fn", "NO_INVALID", "NULL")),
}
RANK_PER_CLASS = {
    "roc_auc_score": Call(_BINARY["roc_auc_score"], ("auc_sum", "NULL", "sum_pos", "sum_neg", "NO_INVALID", "NULL")),
    "average_precision_score": Call(_BINARY["average_precision_score"], ("ap_sum", "sum_pos", "NO_INVALID")),
}

_ZD = {"zero_division": None}
_MICRO_ARGS = {
    "precision_score": ("tp", "fp", "n_invalid", "zero_division"),
    "recall_score": ("tp", "fn", "n_invalid", "zero_division"),
    "f1_score": ("tp", "fp", "fn", "n_invalid", "zero_division"),
    "fbeta_score": ("tp", "fp", "fn", "n_invalid", "beta", "zero_division"),
    "jaccard_score": ("tp", "fp", "fn", "n_invalid", "zero_division"),
}
_VALUE = Call(mc.value, ("value", "n_invalid"))


def _averaged(prefix: str, per_class: str, strict: bool = False) -> list[Metric]:
    beta = {"beta": 1.0} if per_class == "fbeta_score" else {}
    reference = f"{per_class}(average=...)"
    kwargs = {"params": _ZD, "input_params": beta}
    return [
        _mc(
            f"{prefix}_micro",
            "classification",
            Call(_BINARY[per_class], _MICRO_ARGS[per_class]),
            "classes",
            reference,
            **kwargs,
        ),
        _mc(
            f"{prefix}_macro",
            "classification",
            _VALUE,
            "classes",
            reference,
            averages={"value": Call(mc.macro_strict if strict else mc.macro, (per_class, "zero_division"))},
            **kwargs,
        ),
        _mc(
            f"{prefix}_weighted",
            "classification",
            _VALUE,
            "classes",
            reference,
            averages={
                "value": Call(mc.weighted_strict if strict else mc.weighted, (per_class, "support", "zero_division"))
            },
            **kwargs,
        ),
    ]


def _ranking(prefix: str, per_class: str, micro: Call, **kwargs: Any) -> list[Metric]:
    reference = (
        "roc_auc_score(multi_class='ovr', average=...)"
        if prefix == "roc_auc_ovr"
        else ("average_precision_score(average=...)")
    )
    names = {"macro": prefix, "weighted": f"{prefix}_weighted", "micro": f"{prefix}_micro"}
    if prefix == "average_precision":
        names["macro"] = "average_precision_macro"
    return [
        _mc(
            names["macro"],
            "ranking",
            _VALUE,
            "ranking",
            reference,
            averages={"value": Call(mc.macro, (per_class, "NULL"))},
            **kwargs,
        ),
        _mc(
            names["weighted"],
            "ranking",
            _VALUE,
            "ranking",
            reference,
            averages={"value": Call(mc.weighted, (per_class, "sum_pos", "NULL"))},
            **kwargs,
        ),
        _mc(names["micro"], "ranking", micro, "micro", reference, **kwargs),
    ]


MULTICLASS: tuple[Metric, ...] = (
    _mc("accuracy_score", "classification", Call(mc.share, ("tp", "total", "n_invalid")), "classes", "accuracy_score"),
    _mc("error_rate", "classification", Call(mc.share, ("fn", "total", "n_invalid")), "classes", "1 - accuracy_score"),
    _mc("hamming_loss", "classification", Call(mc.share, ("fn", "total", "n_invalid")), "classes", "hamming_loss"),
    _mc(
        "balanced_accuracy_score",
        "classification",
        Call(mc.balanced_accuracy, ("mean_recall", "n_true_classes", "adjusted", "n_invalid")),
        "classes",
        "balanced_accuracy_score",
        params={"adjusted": False},
        value_range=(-1.0, 1.0),  # adjusted: from -1 / (C - 1)
    ),
    _mc(
        "matthews_corrcoef",
        "classification",
        Call(
            mc.matthews,
            (
                "tp",
                "total",
                "true_dot_pred",
                "true_dot_true",
                "pred_dot_pred",
                "n_true_classes",
                "n_pred_classes",
                "n_invalid",
            ),
        ),
        "classes",
        "matthews_corrcoef",
        value_range=(-1.0, 1.0),
    ),
    _mc(
        "cohen_kappa_score",
        "classification",
        Call(mc.kappa, ("observed_{weights}", "expected_{weights}", "n_invalid")),
        "kappa",
        "cohen_kappa_score",
        params={"weights": None},
        value_range=(-1.0, 1.0),
    ),
    *_averaged("precision", "precision_score"),
    *_averaged("recall", "recall_score"),
    *_averaged("f1", "f1_score"),
    *_averaged("fbeta", "fbeta_score"),
    *_averaged("jaccard", "jaccard_score", strict=True),
    _mc(
        "f1_macro_harmonic",
        "classification",
        Call(mc.harmonic_f1, ("macro_precision", "macro_recall", "n_invalid", "zero_division")),
        "classes",
        "harmonic mean of precision_score and recall_score (average='macro')",
        averages={
            "macro_precision": Call(mc.macro, ("precision_score", "zero_division")),
            "macro_recall": Call(mc.macro, ("recall_score", "zero_division")),
        },
        params=_ZD,
    ),
    _mc(
        "top_k_accuracy_score",
        "ranking",
        Call(mc.share, ("sum_top_k", "total", "n_invalid")),
        "rows",
        "top_k_accuracy_score",
        input_params={"k": 2},
        scores="finite",
    ),
    _mc(
        "log_loss",
        "probability",
        Call(mc.share, ("sum_log_loss", "total", "n_invalid")),
        "rows",
        "log_loss",
        scores="probability",
        value_range=(0.0, math.inf),
    ),
    _mc(
        "brier_score_loss",
        "probability",
        Call(mc.brier, ("sum_brier", "total", "n_classes", "n_invalid")),
        "rows",
        "brier_score_loss",
        scores="probability",
        value_range=(0.0, 2.0),  # the sum over classes of squared errors; halved for two classes
    ),
    *_ranking(
        "roc_auc_ovr",
        "roc_auc_score",
        Call(
            _BINARY["roc_auc_score"], ("micro_auc_sum", "NULL", "micro_sum_pos", "micro_sum_neg", "n_invalid", "NULL")
        ),
        scores="probability",
    ),
    *(
        _mc(
            name,
            "ranking",
            Call(mc.value, (column, "n_invalid")),
            "ovo",
            reference,
            scores="probability",
            weighted=False,
        )
        for name, column, reference in (
            ("roc_auc_ovo", "ovo_macro", "roc_auc_score(multi_class='ovo')"),
            ("roc_auc_ovo_weighted", "ovo_weighted", "roc_auc_score(multi_class='ovo', average='weighted')"),
        )
    ),
    *_ranking(
        "average_precision",
        "average_precision_score",
        Call(_BINARY["average_precision_score"], ("micro_ap_sum", "micro_sum_pos", "n_invalid")),
        scores="finite",
    ),
)
