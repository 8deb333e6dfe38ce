"""Reference implementations (scikit-learn) that the tests compare each metric to.

Each reference takes NumPy arrays for one group: ``y_true`` (already 0/1
with 1 = the positive class, for classification), the prediction (hard 0/1
labels, probabilities or regression predictions) and ``sample_weight``
(or None), plus the metric's parameters. It returns a float, or None where
scikit-learn returns NaN (framemetrics' null). scikit-learn is imported
lazily: it is a test dependency, not a runtime one.
"""

from __future__ import annotations

import math
from collections.abc import Callable
from typing import Any

import numpy as np

__all__ = ["REFERENCES"]

Reference = Callable[..., "float | None"]


def _sk(name: str) -> Callable[..., Any]:
    from sklearn import metrics

    return getattr(metrics, name)


def _none_if_nan(value: float) -> float | None:
    """scikit-learn's NaN, and its -inf (R^2 without force_finite), are framemetrics' null."""
    value = float(value)
    return None if not math.isfinite(value) else value


def _zd(zero_division: float | None) -> float:
    return np.nan if zero_division is None else zero_division


def _sklearn(name: str, **fixed: Any) -> Reference:
    def reference(y_true, y_pred, sample_weight=None, **params):
        if name in _ZERO_DIVISION:
            params["zero_division"] = _zd(params.get("zero_division"))
        return _none_if_nan(_sk(name)(y_true, y_pred, sample_weight=sample_weight, **fixed, **params))

    reference.__doc__ = f"sklearn.metrics.{name}"
    return reference


_ZERO_DIVISION = {"precision_score", "recall_score", "f1_score", "fbeta_score"}


def _cells(y_true, y_pred, sample_weight):
    (tn, fp), (fn, tp) = _sk("confusion_matrix")(y_true, y_pred, labels=[0, 1], sample_weight=sample_weight)
    return float(tp), float(fp), float(fn), float(tn)


def _ratio_of_cells(numerator: str, denominator: tuple[str, ...]) -> Reference:
    def reference(y_true, y_pred, sample_weight=None, zero_division=None):
        cells = dict(zip(("tp", "fp", "fn", "tn"), _cells(y_true, y_pred, sample_weight), strict=True))
        den = sum(cells[c] for c in denominator)
        return zero_division if den == 0 else cells[numerator] / den

    reference.__doc__ = f"{numerator} / ({' + '.join(denominator)}) from sklearn.metrics.confusion_matrix"
    return reference


def _jaccard(y_true, y_pred, sample_weight=None, zero_division=None):
    """sklearn.metrics.jaccard_score (which takes no NaN zero_division: null if tp + fp + fn = 0)"""
    tp, fp, fn, _ = _cells(y_true, y_pred, sample_weight)
    if zero_division is None and tp + fp + fn == 0:
        return None
    zd = 0 if zero_division is None else zero_division
    return float(_sk("jaccard_score")(y_true, y_pred, sample_weight=sample_weight, zero_division=zd))


def _matthews(y_true, y_pred, sample_weight=None):
    """sklearn.metrics.matthews_corrcoef; 0 (its value when undefined) whenever a class is never
    true or never predicted, where its float rounding of n^2 - p.p can otherwise give sqrt(-1e-10)"""
    tp, fp, fn, tn = _cells(y_true, y_pred, sample_weight)
    if 0 in (tp + fn, fp + tn, tp + fp, fn + tn):
        return 0.0
    return _none_if_nan(_sk("matthews_corrcoef")(y_true, y_pred, sample_weight=sample_weight))


def _error_rate(y_true, y_pred, sample_weight=None):
    """1 - sklearn.metrics.accuracy_score"""
    if sample_weight is not None and np.sum(sample_weight) == 0:
        return None
    return 1.0 - _sk("accuracy_score")(y_true, y_pred, sample_weight=sample_weight)


def _accuracy(y_true, y_pred, sample_weight=None):
    """sklearn.metrics.accuracy_score"""
    if sample_weight is not None and np.sum(sample_weight) == 0:
        return None
    return float(_sk("accuracy_score")(y_true, y_pred, sample_weight=sample_weight))


def _prevalence(y_true, y_pred, sample_weight=None):
    """numpy.average(y_true, weights=sample_weight)"""
    if sample_weight is not None and np.sum(sample_weight) == 0:
        return None
    return float(np.average(y_true, weights=sample_weight))


def _balanced_accuracy(y_true, y_pred, sample_weight=None):
    """sklearn.metrics.balanced_accuracy_score"""
    if sample_weight is not None and np.sum(sample_weight) == 0:
        return None
    import warnings

    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        return _none_if_nan(_sk("balanced_accuracy_score")(y_true, y_pred, sample_weight=sample_weight))


def _weighted_mean_or_none(name: str, **fixed: Any) -> Reference:
    inner = _sklearn(name, **fixed)

    def reference(y_true, y_pred, sample_weight=None, **params):
        if sample_weight is not None and np.sum(sample_weight) == 0:
            return None
        return inner(y_true, y_pred, sample_weight, **params)

    reference.__doc__ = inner.__doc__
    return reference


def _forecasting(loss: str, scale: float, weighted: Callable[[np.ndarray, np.ndarray, np.ndarray], float]) -> Reference:
    """utilsforecast's ``losses.<loss>`` times ``scale`` without weights; with weights (which utilsforecast has
    not), ``weighted(y, f, w)`` in NumPy; None for a zero total weight or utilsforecast's NaN."""

    def reference(y_true, y_pred, sample_weight=None):
        y, f = np.asarray(y_true, dtype=float), np.asarray(y_pred, dtype=float)
        if sample_weight is not None:
            w = np.asarray(sample_weight, dtype=float)
            with np.errstate(divide="ignore", invalid="ignore"):
                value = weighted(y, f, w) if w.sum() > 0 else math.nan
            return float(value) if math.isfinite(value) else None
        import polars as pl
        from utilsforecast import losses

        frame = pl.DataFrame({"unique_id": [0] * len(y), "y": y, "f": f})
        value = scale * getattr(losses, loss)(frame, models=["f"])["f"].item()
        return None if value is None or not math.isfinite(value) else value

    reference.__doc__ = f"{scale} * utilsforecast.losses.{loss}; weighted: the same in NumPy"
    return reference


def _weighted_smape(y: np.ndarray, f: np.ndarray, w: np.ndarray) -> float:
    scale = np.abs(y) + np.abs(f)
    terms = np.where(scale == 0, 0.0, 2 * np.abs(y - f) / np.where(scale == 0, 1.0, scale))
    return np.average(terms, weights=w)


def _constant(values, sample_weight) -> bool:
    kept = np.asarray(values, dtype=float)
    if sample_weight is not None:
        kept = kept[np.asarray(sample_weight) > 0]
    return len(kept) > 0 and bool(np.all(kept == kept[0]))


def _r2(y_true, y_pred, sample_weight=None, force_finite=True):
    """sklearn.metrics.r2_score; a constant y_true is first shifted to exact zeros
    (R^2 is shift-invariant), sparing scikit-learn's mean its rounding residue."""
    if len(y_true) < 2 or (sample_weight is not None and np.sum(sample_weight) == 0):
        return None
    y_true, y_pred = np.asarray(y_true, dtype=float), np.asarray(y_pred, dtype=float)
    if _constant(y_true, sample_weight):
        shift = y_true[np.asarray(sample_weight) > 0][0] if sample_weight is not None else y_true[0]
        y_true, y_pred = y_true - shift, y_pred - shift
    return _none_if_nan(_sk("r2_score")(y_true, y_pred, sample_weight=sample_weight, force_finite=force_finite))


def _explained_variance(y_true, y_pred, sample_weight=None, force_finite=True):
    """sklearn.metrics.explained_variance_score; with a constant error, that of y_pred = y_true
    (the score ignores a constant bias) and of a shifted y_true as in r2."""
    if sample_weight is not None and np.sum(sample_weight) == 0:
        return None
    y_true, y_pred = np.asarray(y_true, dtype=float), np.asarray(y_pred, dtype=float)
    if _constant(y_true - y_pred, sample_weight):
        y_pred = y_true
    if _constant(y_true, sample_weight):
        shift = y_true[np.asarray(sample_weight) > 0][0] if sample_weight is not None else y_true[0]
        y_true, y_pred = y_true - shift, y_pred - shift
    ev = _sk("explained_variance_score")(y_true, y_pred, sample_weight=sample_weight, force_finite=force_finite)
    return _none_if_nan(ev)


def _max_error(y_true, y_pred, sample_weight=None):
    """sklearn.metrics.max_error over the rows of positive weight"""
    if sample_weight is not None:
        keep = np.asarray(sample_weight) > 0
        y_true, y_pred = np.asarray(y_true)[keep], np.asarray(y_pred)[keep]
    return float(_sk("max_error")(y_true, y_pred)) if len(y_true) else None


def _both_classes(y_true, sample_weight) -> bool:
    weight = np.ones(len(y_true)) if sample_weight is None else np.asarray(sample_weight)
    y = np.asarray(y_true)
    return bool(weight[y == 1].sum() > 0 and weight[y == 0].sum() > 0)


def _roc_auc(y_true, y_score, sample_weight=None, max_fpr=None):
    """sklearn.metrics.roc_auc_score; None where it raises (one class present)"""
    if not _both_classes(y_true, sample_weight):
        return None
    return float(_sk("roc_auc_score")(y_true, y_score, sample_weight=sample_weight, max_fpr=max_fpr))


def _gini(y_true, y_score, sample_weight=None):
    """2 * sklearn.metrics.roc_auc_score - 1"""
    auc = _roc_auc(y_true, y_score, sample_weight)
    return None if auc is None else 2 * auc - 1


def _roc_auc_error_bound(y_true, y_score, sample_weight=None):
    """sum over distinct scores of pw * nw / (2 P N), in NumPy; None with one class"""
    if not _both_classes(y_true, sample_weight):
        return None
    weight = np.ones(len(y_true)) if sample_weight is None else np.asarray(sample_weight, dtype=float)
    y = np.asarray(y_true)
    scores, index = np.unique(np.asarray(y_score, dtype=float), return_inverse=True)
    pw = np.bincount(index, weights=weight * (y == 1), minlength=len(scores))
    nw = np.bincount(index, weights=weight * (y == 0), minlength=len(scores))
    return float((pw * nw).sum() / (2 * pw.sum() * nw.sum()))


def _average_precision(y_true, y_score, sample_weight=None):
    """sklearn.metrics.average_precision_score; None without positive weight (it returns 0.0)"""
    weight = np.ones(len(y_true)) if sample_weight is None else np.asarray(sample_weight)
    if not weight[np.asarray(y_true) == 1].sum() > 0:
        return None
    return float(_sk("average_precision_score")(y_true, y_score, sample_weight=sample_weight))


def _pr_auc(y_true, y_score, sample_weight=None):
    """sklearn.metrics.auc(recall, precision) of sklearn.metrics.precision_recall_curve; None without positives"""
    weight = np.ones(len(y_true)) if sample_weight is None else np.asarray(sample_weight)
    if not weight[np.asarray(y_true) == 1].sum() > 0:
        return None
    precision, recall, _ = _sk("precision_recall_curve")(y_true, y_score, sample_weight=sample_weight)
    return float(_sk("auc")(recall, precision))


def _ks(y_true, y_score, sample_weight=None):
    """max(tpr - fpr) of sklearn.metrics.roc_curve(drop_intermediate=False); None with one class"""
    if not _both_classes(y_true, sample_weight):
        return None
    fpr, tpr, _ = _sk("roc_curve")(y_true, y_score, sample_weight=sample_weight, drop_intermediate=False)
    return float(np.max(tpr - fpr))


def _ks_threshold(y_true, y_score, sample_weight=None):
    """The highest threshold of sklearn.metrics.roc_curve(drop_intermediate=False) whose
    tpr - fpr is within 1e-12 of the maximum; None with one class, and None where that is the
    first threshold, +inf (the largest gap is 0: the README's "a metric is never infinite")"""
    if not _both_classes(y_true, sample_weight):
        return None
    fpr, tpr, thresholds = _sk("roc_curve")(y_true, y_score, sample_weight=sample_weight, drop_intermediate=False)
    gap = tpr - fpr
    best = float(np.max(thresholds[gap >= gap.max() - 1e-12]))
    return None if math.isinf(best) else best


def _break_even_point(y_true, y_score, sample_weight=None):
    """Recall where the predicted positive weight k = tp + fp reaches P, linear between the two
    points of sklearn.metrics.confusion_matrix_at_thresholds around it; None without positives"""
    weight = np.ones(len(y_true)) if sample_weight is None else np.asarray(sample_weight)
    if not weight[np.asarray(y_true) == 1].sum() > 0:
        return None
    _, fps, _, tps, _ = _sk("confusion_matrix_at_thresholds")(y_true, y_score, sample_weight=sample_weight)
    predicted = np.r_[0.0, tps + fps]
    tps = np.r_[0.0, tps]
    positives = tps[-1]
    at = int(np.searchsorted(predicted, positives, side="left"))  # first point with k >= P
    share = (positives - predicted[at - 1]) / (predicted[at] - predicted[at - 1])
    return float((tps[at - 1] + share * (tps[at] - tps[at - 1])) / positives)


def _likelihood_ratio(which: int) -> Reference:
    def reference(y_true, y_pred, sample_weight=None):
        import warnings

        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            value = _sk("class_likelihood_ratios")(y_true, y_pred, sample_weight=sample_weight, labels=[0, 1])[which]
        return _none_if_nan(value)

    reference.__doc__ = f"sklearn.metrics.class_likelihood_ratios()[{which}]; None for its NaN"
    return reference


def _both_classes_minus_one(name: str) -> Reference:
    """Powers' informedness (recall) or markedness (precision): the score of each class, minus 1."""
    positive, negative = _sklearn(name), _sklearn(name, pos_label=0)

    def reference(y_true, y_pred, sample_weight=None, zero_division=None):
        terms = [f(y_true, y_pred, sample_weight, zero_division=zero_division) for f in (positive, negative)]
        return None if None in terms else terms[0] + terms[1] - 1

    reference.__doc__ = f"sklearn.metrics.{name} + {name}(pos_label=0) - 1, each with zero_division; None for a NaN"
    return reference


def _hinge(y_true, y_score, sample_weight=None):
    """sklearn.metrics.hinge_loss; a one-class group gets a zero-weight row of the other class, so that
    scikit-learn's LabelBinarizer encodes pos_label as +1 (alone, it would encode any class as -1)"""
    y_true, y_score = np.asarray(y_true), np.asarray(y_score, dtype=float)
    weight = np.ones(len(y_true)) if sample_weight is None else np.asarray(sample_weight, dtype=float)
    if not weight.sum() > 0:
        return None
    if len(np.unique(y_true)) == 1:
        y_true, y_score = np.append(y_true, 1 - y_true[0]), np.append(y_score, 0.0)
        weight = np.append(weight, 0.0)
    return float(_sk("hinge_loss")(y_true, y_score, sample_weight=weight))


def _d2(name: str, **fixed: Any) -> Reference:
    def reference(y_true, y_score, sample_weight=None, **params):
        weight = np.ones(len(y_true)) if sample_weight is None else np.asarray(sample_weight, dtype=float)
        if len(y_true) < 2 or not weight.sum() > 0:
            return None
        import warnings

        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            try:
                value = float(_sk(name)(y_true, y_score, sample_weight=sample_weight, **fixed, **params))
            except ZeroDivisionError:  # d2_tweedie_score divides Python floats: a zero baseline raises
                return None
        return None if not math.isfinite(value) else value

    reference.__doc__ = (
        f"sklearn.metrics.{name}; None for its NaN, -inf or ZeroDivisionError (fewer than two rows, a zero baseline)"
    )
    return reference


def _d2_tweedie(y_true, y_pred, sample_weight=None, power=0.0):
    """sklearn.metrics.d2_tweedie_score; None where y_true is constant over the rows of positive weight:
    framemetrics' weighted mean is then exact and the baseline 0 (null), scikit-learn's mean keeps a
    rounding residue and the score explodes (-4.6e31)."""
    if _constant(y_true, sample_weight):
        return None
    return _d2("d2_tweedie_score")(y_true, y_pred, sample_weight, power=power)


REFERENCES: dict[str, Reference] = {
    "accuracy_score": _accuracy,
    "error_rate": _error_rate,
    "precision_score": _sklearn("precision_score"),
    "recall_score": _sklearn("recall_score"),
    "specificity_score": _sklearn("recall_score", pos_label=0),
    "false_positive_rate": _ratio_of_cells("fp", ("fp", "tn")),
    "false_negative_rate": _ratio_of_cells("fn", ("fn", "tp")),
    "negative_predictive_value": _sklearn("precision_score", pos_label=0),
    "f1_score": _sklearn("f1_score"),
    "fbeta_score": _sklearn("fbeta_score"),
    "jaccard_score": _jaccard,
    "balanced_accuracy_score": _balanced_accuracy,
    "matthews_corrcoef": _matthews,
    "cohen_kappa_score": _sklearn("cohen_kappa_score"),
    "prevalence": _prevalence,
    "positive_likelihood_ratio": _likelihood_ratio(0),
    "negative_likelihood_ratio": _likelihood_ratio(1),
    "informedness": _both_classes_minus_one("recall_score"),
    "markedness": _both_classes_minus_one("precision_score"),
    "log_loss": _weighted_mean_or_none("log_loss", labels=[0, 1]),
    "d2_log_loss_score": _d2("d2_log_loss_score", labels=[0, 1]),
    "d2_brier_score": _d2("d2_brier_score", pos_label=1),
    "hinge_loss": _hinge,
    "brier_score_loss": _weighted_mean_or_none("brier_score_loss", pos_label=1),
    "roc_auc_score": _roc_auc,
    "gini_score": _gini,
    "roc_auc_error_bound": _roc_auc_error_bound,
    "average_precision_score": _average_precision,
    "pr_auc_score": _pr_auc,
    "ks_statistic": _ks,
    "ks_threshold": _ks_threshold,
    "break_even_point": _break_even_point,
    "mean_squared_error": _weighted_mean_or_none("mean_squared_error"),
    "root_mean_squared_error": _weighted_mean_or_none("root_mean_squared_error"),
    "mean_absolute_error": _weighted_mean_or_none("mean_absolute_error"),
    "mean_squared_log_error": _weighted_mean_or_none("mean_squared_log_error"),
    "root_mean_squared_log_error": _weighted_mean_or_none("root_mean_squared_log_error"),
    "mean_absolute_percentage_error": _weighted_mean_or_none("mean_absolute_percentage_error"),
    "symmetric_mean_absolute_percentage_error": _forecasting("smape", 2.0, _weighted_smape),
    "weighted_absolute_percentage_error": _forecasting(
        "wape", 1.0, lambda y, f, w: np.sum(w * np.abs(y - f)) / np.sum(w * np.abs(y))
    ),
    "mean_error": _forecasting("bias", 1.0, lambda y, f, w: np.average(f - y, weights=w)),
    "mean_pinball_loss": _weighted_mean_or_none("mean_pinball_loss"),
    "mean_poisson_deviance": _weighted_mean_or_none("mean_poisson_deviance"),
    "mean_gamma_deviance": _weighted_mean_or_none("mean_gamma_deviance"),
    "mean_tweedie_deviance": _weighted_mean_or_none("mean_tweedie_deviance"),
    "d2_tweedie_score": _d2_tweedie,
    "r2_score": _r2,
    "explained_variance_score": _explained_variance,
    "max_error": _max_error,
    "median_absolute_error": _weighted_mean_or_none("median_absolute_error"),
    "d2_absolute_error_score": _d2("d2_absolute_error_score"),
    "d2_pinball_score": _d2("d2_pinball_score"),
}
