"""What the report shows for a multiclass model: metrics, the class table, confusion matrices, one-vs-rest curves."""

from __future__ import annotations

import time
from collections.abc import Sequence
from typing import Any

import polars as pl

from framemetrics.curves import precision_recall_curve, roc_curve
from framemetrics.evaluation import evaluate
from framemetrics.multiclass.api import class_table, multiclass_confusion_matrix
from framemetrics.report.collect import OVERALL, ReportData, largest_segments, report_data, stack, stated_inputs
from framemetrics.request import Call

__all__ = ["MAX_CLASSES", "MULTICLASS_REPORT_METRICS", "classes_to_show", "collect_multiclass"]

MULTICLASS_REPORT_METRICS = (
    "accuracy_score",
    "balanced_accuracy_score",
    "f1_macro",
    "f1_weighted",
    "cohen_kappa_score",
)
_SCORED = ("log_loss", "roc_auc_ovr", "average_precision_macro")
CONFUSION_SEGMENTS = 3  # heatmaps of the largest segments, beside the whole data's
MAX_CLASSES = 12  # one-vs-rest curves drawn: every class up to this many, else those of lowest recall


def collect_multiclass(
    call: Call,
    *,
    metrics: Sequence[str] | dict[str, dict[str, Any]] | None = None,
    title: str | None = None,
    max_points: int = 1000,
    max_segments: int = 8,
) -> ReportData:
    """Run every query of the multiclass report (parameters as :func:`framemetrics.evaluation_report`).

    The metrics overall and per segment; the class table over all rows
    (:func:`framemetrics.class_table`); the confusion matrix of all rows and of
    the largest segments; with scores, the one-vs-rest ROC and precision-recall
    curves of every class, or of the :data:`MAX_CLASSES` of lowest recall
    (:func:`classes_to_show`; :func:`framemetrics.roc_curve`).

    Examples
    --------
    >>> frame = pl.DataFrame({"y": ["a", "b", "c", "a", "b"], "a": [0.6, 0.2, 0.1, 0.3, 0.5],
    ...                       "b": [0.3, 0.5, 0.3, 0.3, 0.4], "c": [0.1, 0.3, 0.6, 0.4, 0.1]})
    >>> data = collect_multiclass(Call(frame, y_true="y", y_score=["a", "b", "c"]))
    >>> data.classes["class"].to_list(), data.confusion.height, sorted(set(data.roc["segment"]))
    (['a', 'b', 'c'], 9, ['a', 'b', 'c'])
    """
    started = time.perf_counter()
    source, y_true, y_pred, y_score, by, engine = (
        call.source,
        call.y_true,
        call.y_pred,
        call.y_score,
        call.by,
        call.engine,
    )
    scored = y_score is not None
    if metrics is None:
        metrics = [*MULTICLASS_REPORT_METRICS, *(_SCORED if scored else ())]
    common = {
        "y_true": y_true, "y_pred": y_pred, "y_score": y_score, "labels": call.labels,
        "sample_weight": call.sample_weight, "nulls": call.nulls, "engine": engine, "con": call.con,
    }  # fmt: skip
    overall = evaluate(source, task="multiclass", metrics=metrics, **common)
    segments = evaluate(source, task="multiclass", metrics=metrics, by=by, **common) if by else None
    notes = []
    if y_pred is None:
        notes.append("Predicted classes are the argmax of the scores (ties: the first class).")
    shown = largest_segments(segments, by, max_segments, notes)
    predicted = {k: v for k, v in common.items() if k != "y_score" or y_pred is None}  # else the argmax of y_score
    classes = class_table(source, **predicted)
    matrices = multiclass_confusion_matrix(source, **predicted)
    if by:
        per_segment = multiclass_confusion_matrix(source, by=by, **predicted)
        matrices = stack(matrices, per_segment, by, shown[:CONFUSION_SEGMENTS])
    else:
        matrices = matrices.with_columns(segment=pl.lit(OVERALL))
    roc = pr = pl.DataFrame(schema={"segment": pl.String})
    classes_shown = classes_to_show(classes, notes)
    if scored:
        curve_args = {k: common[k] for k in ("y_true", "y_score", "labels", "sample_weight", "nulls", "engine", "con")}
        roc = _by_class(roc_curve(source, max_points=max_points, **curve_args), classes_shown)
        pr = _by_class(precision_recall_curve(source, max_points=max_points, **curve_args), classes_shown)
    return report_data(
        source, started, title=title or f"Evaluation of the classes of {y_true}", engine=engine, by=by,
        overall=overall, segments=segments, shown=shown, roc=roc, pr=pr, calibration=None, distribution=None,
        max_points=max_points, notes=notes, task="multiclass", classes=classes,
        confusion=matrices.with_columns(pl.col("y_true", "y_pred").cast(pl.String)), classes_shown=classes_shown,
        inputs=stated_inputs(call, classes=classes["class"].to_list()), weighted=call.sample_weight is not None,
    )  # fmt: skip


def classes_to_show(classes: pl.DataFrame, notes: list[str]) -> tuple[str, ...]:
    """The classes whose curves are drawn, in the class table's order: all of them up to :data:`MAX_CLASSES`,
    else the :data:`MAX_CLASSES` of lowest recall (a class with no true row last), named in a note.

    Examples
    --------
    >>> table = pl.DataFrame({"class": [str(i) for i in range(14)], "recall": [0.9] * 12 + [0.5, None]})
    >>> notes = []
    >>> shown = classes_to_show(table, notes)
    >>> len(shown), "12" in shown, "13" in shown
    (12, True, False)
    >>> notes[0][:60]
    'The curves show the 12 classes of lowest recall of 14: 0, 1,'
    """
    names = classes["class"].cast(pl.String)
    if classes.height <= MAX_CLASSES:
        return tuple(names)
    worst = set(classes.with_row_index().sort("recall", "index", nulls_last=True).head(MAX_CLASSES)["index"])
    shown = tuple(name for i, name in enumerate(names) if i in worst)
    notes.append(f"The curves show the {len(shown)} classes of lowest recall of {classes.height}: {', '.join(shown)}.")
    return shown


def _by_class(points: pl.DataFrame, shown: tuple[str, ...]) -> pl.DataFrame:
    """The curves of the ``shown`` classes, their class as the ``segment`` the figures colour by."""
    named = points.with_columns(segment=pl.col("class").cast(pl.String))
    return named.filter(pl.col("segment").is_in(list(shown))).select("segment", pl.exclude("segment", "class"))
