"""Every multiclass metric: its inputs, its stage-2 formula and its reference.

A metric's formula is a call of a function of the core (a multiclass formula
of :mod:`framemetrics.core.formulas.multiclass` or a binary one of
:data:`framemetrics.core.formulas.FORMULAS`) over per-group columns, compiled
by each engine; averaged metrics first aggregate a per-class value over the
classes of the group (``average``).
Argument names are columns of the per-group table, parameters of the metric,
or ``NULL``. Names follow scikit-learn's scorer names (``f1_macro``,
``roc_auc_ovo_weighted``); ``{"f1_score": {"average": "macro"}}`` is an alias.
"""

from __future__ import annotations

import difflib
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from framemetrics.core.formulas import FORMULAS
from framemetrics.core.formulas import multiclass as mc

__all__ = ["MULTICLASS", "PER_CLASS", "RANK_PER_CLASS", "Call", "MulticlassMetric", "get_multiclass_metric"]


@dataclass(frozen=True)
class Call:
    """A core function applied to columns, parameters or ``NULL``, in parameter order (after the namespace)."""

    function: Callable[..., Any]
    arguments: tuple[str, ...]


@dataclass(frozen=True)
class MulticlassMetric:
    """One multiclass metric.

    Attributes
    ----------
    name : str
        Output column and registry key.
    reads : {"y_pred", "y_score"}
        Hard predictions, or one score column per class.
    formula : Call
        Stage 2c over per-group columns and the ``averages``.
    averages : dict of str to Call
        Stage 2b: aggregates over the per-class rows (the class table of
        ``y_pred`` metrics or of the ranking stage), each an argument of the
        formula by its key (``value``).
    params : dict
        Parameters and their defaults.
    scores : {"probability", "finite"}, optional
        Domain of the score columns; ``probability`` also needs rows summing to 1.
    weighted : bool
        Whether ``sample_weight`` is supported.
    stage : str
        The stage that gives its columns: ``classes``, ``kappa``, ``rows``,
        ``ranking``, ``ovo`` or ``micro``.
    reference : str
        The scikit-learn function it equals.
    """

    name: str
    reads: str
    formula: Call
    stage: str
    reference: str
    averages: dict[str, Call] = field(default_factory=dict)
    params: dict[str, Any] = field(default_factory=dict)
    scores: str | None = None
    weighted: bool = True


# Stage 2a: the binary formulas per class (``fm_class_values``, ``fm_rank_values``), with no
# invalid row (the group's checks apply in stage 2c) and undefined ratios NULL (the averages
# apply each metric's zero_division).
PER_CLASS = {
    "precision_score": Call(FORMULAS["precision_score"], ("tp", "fp", "NO_INVALID", "NULL")),
    "recall_score": Call(FORMULAS["recall_score"], ("tp", "fn", "NO_INVALID", "NULL")),
    "f1_score": Call(FORMULAS["f1_score"], ("tp", "fp", "fn", "NO_INVALID", "NULL")),
    "fbeta_score": Call(FORMULAS["fbeta_score"], ("tp", "fp", "fn", "NO_INVALID", "beta", "NULL")),
    "jaccard_score": Call(FORMULAS["jaccard_score"], ("tp", "fp", "fn", "NO_INVALID", "NULL")),
}
RANK_PER_CLASS = {
    "roc_auc_score": Call(FORMULAS["roc_auc_score"], ("auc_sum", "NULL", "sum_pos", "sum_neg", "NO_INVALID", "NULL")),
    "average_precision_score": Call(FORMULAS["average_precision_score"], ("ap_sum", "sum_pos", "NO_INVALID")),
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


def _averaged(prefix: str, per_class: str, strict: bool = False) -> list[MulticlassMetric]:
    params = {**_ZD, **({"beta": 1.0} if per_class == "fbeta_score" else {})}
    reference = f"{per_class}(average=...)"
    return [
        MulticlassMetric(
            f"{prefix}_micro",
            "y_pred",
            Call(FORMULAS[per_class], _MICRO_ARGS[per_class]),
            "classes",
            reference,
            params=params,
        ),
        MulticlassMetric(
            f"{prefix}_macro",
            "y_pred",
            _VALUE,
            "classes",
            reference,
            averages={"value": Call(mc.macro_strict if strict else mc.macro, (per_class, "zero_division"))},
            params=params,
        ),
        MulticlassMetric(
            f"{prefix}_weighted",
            "y_pred",
            _VALUE,
            "classes",
            reference,
            averages={
                "value": Call(mc.weighted_strict if strict else mc.weighted, (per_class, "support", "zero_division"))
            },
            params=params,
        ),
    ]


def _ranking(prefix: str, per_class: str, micro: Call, **kwargs: Any) -> list[MulticlassMetric]:
    reference = (
        "roc_auc_score(multi_class='ovr', average=...)"
        if prefix == "roc_auc_ovr"
        else ("average_precision_score(average=...)")
    )
    names = {"macro": prefix, "weighted": f"{prefix}_weighted", "micro": f"{prefix}_micro"}
    if prefix == "average_precision":
        names["macro"] = "average_precision_macro"
    return [
        MulticlassMetric(
            names["macro"],
            "y_score",
            _VALUE,
            "ranking",
            reference,
            averages={"value": Call(mc.macro, (per_class, "NULL"))},
            **kwargs,
        ),
        MulticlassMetric(
            names["weighted"],
            "y_score",
            _VALUE,
            "ranking",
            reference,
            averages={"value": Call(mc.weighted, (per_class, "sum_pos", "NULL"))},
            **kwargs,
        ),
        MulticlassMetric(names["micro"], "y_score", micro, "micro", reference, **kwargs),
    ]


_METRICS = [
    MulticlassMetric(
        "accuracy_score", "y_pred", Call(mc.share, ("tp", "total", "n_invalid")), "classes", "accuracy_score"
    ),
    MulticlassMetric(
        "error_rate", "y_pred", Call(mc.share, ("fn", "total", "n_invalid")), "classes", "1 - accuracy_score"
    ),
    MulticlassMetric("hamming_loss", "y_pred", Call(mc.share, ("fn", "total", "n_invalid")), "classes", "hamming_loss"),
    MulticlassMetric(
        "balanced_accuracy_score",
        "y_pred",
        Call(mc.balanced_accuracy, ("mean_recall", "n_true_classes", "adjusted", "n_invalid")),
        "classes",
        "balanced_accuracy_score",
        params={"adjusted": False},
    ),
    MulticlassMetric(
        "matthews_corrcoef",
        "y_pred",
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
    ),
    MulticlassMetric(
        "cohen_kappa_score",
        "y_pred",
        Call(mc.kappa, ("observed_{weights}", "expected_{weights}", "n_invalid")),
        "kappa",
        "cohen_kappa_score",
        params={"weights": None},
    ),
    *_averaged("precision", "precision_score"),
    *_averaged("recall", "recall_score"),
    *_averaged("f1", "f1_score"),
    *_averaged("fbeta", "fbeta_score"),
    *_averaged("jaccard", "jaccard_score", strict=True),
    MulticlassMetric(
        "f1_macro_harmonic",
        "y_pred",
        Call(mc.harmonic_f1, ("macro_precision", "macro_recall", "n_invalid", "zero_division")),
        "classes",
        "harmonic mean of precision_score and recall_score (average='macro')",
        averages={
            "macro_precision": Call(mc.macro, ("precision_score", "zero_division")),
            "macro_recall": Call(mc.macro, ("recall_score", "zero_division")),
        },
        params=_ZD,
    ),
    MulticlassMetric(
        "top_k_accuracy_score",
        "y_score",
        Call(mc.share, ("sum_top_k", "total", "n_invalid")),
        "rows",
        "top_k_accuracy_score",
        params={"k": 2},
        scores="finite",
    ),
    MulticlassMetric(
        "log_loss",
        "y_score",
        Call(mc.share, ("sum_log_loss", "total", "n_invalid")),
        "rows",
        "log_loss",
        scores="probability",
    ),
    MulticlassMetric(
        "brier_score_loss",
        "y_score",
        Call(mc.brier, ("sum_brier", "total", "n_classes", "n_invalid")),
        "rows",
        "brier_score_loss",
        scores="probability",
    ),
    *_ranking(
        "roc_auc_ovr",
        "roc_auc_score",
        Call(
            FORMULAS["roc_auc_score"], ("micro_auc_sum", "NULL", "micro_sum_pos", "micro_sum_neg", "n_invalid", "NULL")
        ),
        scores="probability",
    ),
    MulticlassMetric(
        "roc_auc_ovo",
        "y_score",
        Call(mc.value, ("ovo_macro", "n_invalid")),
        "ovo",
        "roc_auc_score(multi_class='ovo')",
        scores="probability",
        weighted=False,
    ),
    MulticlassMetric(
        "roc_auc_ovo_weighted",
        "y_score",
        Call(mc.value, ("ovo_weighted", "n_invalid")),
        "ovo",
        "roc_auc_score(multi_class='ovo', average='weighted')",
        scores="probability",
        weighted=False,
    ),
    *_ranking(
        "average_precision",
        "average_precision_score",
        Call(FORMULAS["average_precision_score"], ("micro_ap_sum", "micro_sum_pos", "n_invalid")),
        scores="finite",
    ),
]

MULTICLASS: dict[str, MulticlassMetric] = {m.name: m for m in _METRICS}


def get_multiclass_metric(name: str, params: dict[str, Any] | None = None) -> tuple[MulticlassMetric, dict[str, Any]]:
    """The metric named ``name`` and its remaining parameters; resolves scikit-learn style aliases.

    ``("f1_score", {"average": "macro"})`` is ``f1_macro``; ``("roc_auc_score",
    {"multi_class": "ovo", "average": "weighted"})`` is ``roc_auc_ovo_weighted``.

    Examples
    --------
    >>> metric, params = get_multiclass_metric("fbeta_score", {"average": "weighted", "beta": 2})
    >>> metric.name, params
    ('fbeta_weighted', {'beta': 2})
    """
    params = dict(params or {})
    if "average" in params or "multi_class" in params:
        average = params.pop("average", "macro")
        if average is None:
            raise ValueError(f"{name} with average=None gives one value per class: use classification_report")
        if name == "roc_auc_score":
            multi_class = params.pop("multi_class", "ovr")
            name = f"roc_auc_{multi_class}" + ("" if average == "macro" else f"_{average}")
        elif name == "average_precision_score":
            name = f"average_precision_{average}"
        else:
            base = name.removesuffix("_score")
            name = f"{base}_{average}"
    if name not in MULTICLASS:
        close = difflib.get_close_matches(str(name), MULTICLASS, n=3)
        hint = f"; did you mean {', '.join(close)}?" if close else ""
        raise ValueError(f"unknown multiclass metric {name!r}{hint}")
    return MULTICLASS[name], params
