"""scikit-learn references of the multiclass metrics (needs the test extras).

Each takes one group's rows as NumPy arrays: ``y`` true classes, ``yhat``
predicted classes, ``proba`` the score columns in the order of ``labels``,
``w`` the weights (or None), the labels (or None: the group's classes) and
the metric's parameters; it returns a float, or None where framemetrics
returns null (scikit-learn's NaN, or an error for undefined input). Where
scikit-learn raises because a class is absent from the group, the one-vs-rest
averages run over the classes present: each class's value is scikit-learn's
binary metric.
"""

from __future__ import annotations

import math
import warnings
from collections.abc import Callable
from typing import Any

import numpy as np
from sklearn import metrics as skm

__all__ = ["MC_REFERENCES"]


def _finite(value: float) -> float | None:
    value = float(value)
    return None if math.isnan(value) or math.isinf(value) else value


def _quiet(function: Callable[[], float]) -> float | None:
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        try:
            return _finite(function())
        except (ValueError, ZeroDivisionError):
            return None


def _zd(params: dict) -> float:
    zd = params.get("zero_division")
    return np.nan if zd is None else zd


def _sorted_scores(proba: np.ndarray, labels: list) -> tuple[np.ndarray, list]:
    order = sorted(range(len(labels)), key=lambda j: labels[j])
    return proba[:, order], [labels[j] for j in order]


def _averaged(function: Callable, average: str) -> Callable:
    def reference(y, yhat, proba, w, labels, params):
        kwargs = {"zero_division": _zd(params), **({"beta": params["beta"]} if "beta" in params else {})}
        return _quiet(lambda: function(y, yhat, average=average, sample_weight=w, labels=labels, **kwargs))

    return reference


def _jaccard(average: str) -> Callable:
    """scikit-learn's jaccard_score takes no zero_division=np.nan: with framemetrics' default
    (None), a class without weight (absent from the group's rows, or of rows of weight 0 only) is
    undefined, and so are the macro and weighted averages (scikit-learn's plain numpy.average of a NaN)."""

    def reference(y, yhat, proba, w, labels, params):
        zd = params.get("zero_division")
        score = lambda: skm.jaccard_score(  # noqa: E731
            y, yhat, average=average, sample_weight=w, labels=labels, zero_division=0 if zd is None else zd
        )
        weighed = np.ones(len(y), dtype=bool) if w is None else np.asarray(w) > 0
        seen = set(y[weighed].tolist()) | set(yhat[weighed].tolist())
        classes = set(labels) if labels is not None else set(y.tolist()) | set(yhat.tolist())
        if zd is None and average != "micro" and not seen >= classes:
            return None
        return _quiet(score)

    return reference


def _kappa(y, yhat, proba, w, labels, params):
    return _quiet(lambda: skm.cohen_kappa_score(y, yhat, labels=labels, weights=params["weights"], sample_weight=w))


def _harmonic(y, yhat, proba, w, labels, params):
    p = _quiet(
        lambda: skm.precision_score(y, yhat, average="macro", sample_weight=w, labels=labels, zero_division=_zd(params))
    )
    r = _quiet(
        lambda: skm.recall_score(y, yhat, average="macro", sample_weight=w, labels=labels, zero_division=_zd(params))
    )
    if p is None or r is None:
        return None
    return params.get("zero_division") if p + r == 0 else 2 * p * r / (p + r)


def _balanced(y, yhat, proba, w, labels, params):
    return _quiet(lambda: skm.balanced_accuracy_score(y, yhat, sample_weight=w, adjusted=params["adjusted"]))


def _scored(function: Callable) -> Callable:
    def reference(y, yhat, proba, w, labels, params):
        scores, ordered = _sorted_scores(proba, labels)
        return _quiet(lambda: function(y, scores, ordered, w, params))

    return reference


def _ovr(binary: Callable, average: str, least: int) -> Callable:
    """Per present class, the binary metric of class c against the rest; averaged over them
    (None with fewer than ``least`` classes present)."""

    def reference(y, yhat, proba, w, labels, params):
        weights = np.ones(len(y)) if w is None else w
        present = [j for j, c in enumerate(labels) if weights[y == c].sum() > 0]
        if len(present) < least:
            return None
        values = [_quiet(lambda j=j: binary(y == labels[j], proba[:, j], sample_weight=w)) for j in present]
        support = [weights[y == labels[j]].sum() for j in present]
        if average == "macro":
            return float(np.mean(values))
        return float(np.average(values, weights=support))

    return reference


def _micro(binary: Callable) -> Callable:
    def reference(y, yhat, proba, w, labels, params):
        truth = np.stack([y == c for c in labels], axis=1).astype(int)
        repeated = None if w is None else np.repeat(w, len(labels))
        return _quiet(lambda: binary(truth.ravel(), proba.ravel(), sample_weight=repeated))

    return reference


def _ovo(average: str) -> Callable:
    def reference(y, yhat, proba, w, labels, params):
        scores, ordered = _sorted_scores(proba, labels)
        if len(set(y.tolist())) < 2:
            return None
        return _quiet(lambda: skm.roc_auc_score(y, scores, multi_class="ovo", average=average, labels=ordered))

    return reference


MC_REFERENCES: dict[str, Callable[..., float | None]] = {
    "accuracy_score": lambda y, yhat, proba, w, labels, params: _quiet(
        lambda: skm.accuracy_score(y, yhat, sample_weight=w)
    ),
    "error_rate": lambda y, yhat, proba, w, labels, params: _quiet(
        lambda: 1 - skm.accuracy_score(y, yhat, sample_weight=w)
    ),
    "hamming_loss": lambda y, yhat, proba, w, labels, params: _quiet(
        lambda: skm.hamming_loss(y, yhat, sample_weight=w)
    ),
    "balanced_accuracy_score": _balanced,
    "matthews_corrcoef": lambda y, yhat, proba, w, labels, params: _quiet(
        lambda: skm.matthews_corrcoef(y, yhat, sample_weight=w)
    ),
    "cohen_kappa_score": _kappa,
    "f1_macro_harmonic": _harmonic,
    "top_k_accuracy_score": _scored(
        lambda y, s, labels, w, params: skm.top_k_accuracy_score(y, s, k=params["k"], labels=labels, sample_weight=w)
    ),
    "log_loss": _scored(lambda y, s, labels, w, params: skm.log_loss(y, s, labels=labels, sample_weight=w)),
    "brier_score_loss": _scored(
        lambda y, s, labels, w, params: skm.brier_score_loss(y, s, labels=labels, sample_weight=w)
    ),
    "roc_auc_ovr": _ovr(skm.roc_auc_score, "macro", 2),
    "roc_auc_ovr_weighted": _ovr(skm.roc_auc_score, "weighted", 2),
    "roc_auc_ovr_micro": _micro(skm.roc_auc_score),
    "roc_auc_ovo": _ovo("macro"),
    "roc_auc_ovo_weighted": _ovo("weighted"),
    "average_precision_macro": _ovr(skm.average_precision_score, "macro", 1),
    "average_precision_weighted": _ovr(skm.average_precision_score, "weighted", 1),
    "average_precision_micro": _micro(skm.average_precision_score),
}
for _name, _function in (
    ("precision", skm.precision_score),
    ("recall", skm.recall_score),
    ("f1", skm.f1_score),
    ("fbeta", skm.fbeta_score),
):
    for _average in ("micro", "macro", "weighted"):
        MC_REFERENCES[f"{_name}_{_average}"] = _averaged(_function, _average)
for _average in ("micro", "macro", "weighted"):
    MC_REFERENCES[f"jaccard_{_average}"] = _jaccard(_average)


def reference_value(name: str, rows: dict[str, Any], labels: list | None, params: dict) -> float | None:
    """scikit-learn's value of metric ``name`` on one group's ``rows`` (keys y, yhat, proba, w)."""
    return MC_REFERENCES[name](rows["y"], rows["yhat"], rows["proba"], rows["w"], labels, params)
