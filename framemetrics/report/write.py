"""``evaluation_report``: compute the report on an engine and write its HTML file."""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path
from typing import Any, Literal

import duckdb

from framemetrics.columns import By
from framemetrics.core.errors import ArgumentError
from framemetrics.report.collect import HISTOGRAM_BINS, ReportData, collect
from framemetrics.report.multiclass import collect_multiclass
from framemetrics.report.page import render_page
from framemetrics.report.plots import figures
from framemetrics.request import Call, validated
from framemetrics.request.call import forward
from framemetrics.sources import Source
from framemetrics.tasks import infer_task, task_from_arguments

__all__ = ["evaluation_report"]


@validated("evaluation_report")
def evaluation_report(
    source: Source,
    *,
    y_true: str,
    y_score: str | Sequence[str] | None = None,
    y_pred: str | None = None,
    labels: Sequence[Any] | None = None,
    task: Literal["binary", "multiclass"] | None = None,
    by: By = None,
    sample_weight: str | None = None,
    metrics: Sequence[str] | dict[str, dict[str, Any]] | None = None,
    threshold: float = 0.5,
    pos_label: Any = 1,
    neg_label: Any = None,
    nulls: Literal["error", "drop"] = "error",
    engine: Literal["polars", "duckdb"] | None = None,
    con: duckdb.DuckDBPyConnection | None = None,
    output: str | Path = "report.html",
    title: str | None = None,
    max_points: int = 1000,
    max_segments: int = 8,
) -> Path:
    """Write the evaluation report of a binary or multiclass classifier: one self-contained HTML file.

    The report holds the metrics over all rows and per segment (a sortable
    table, worst segments tinted red and named), ROC and precision-recall
    curves per segment overlaid on the overall curve, a reliability diagram
    with the size of each bin and the score distribution of each class,
    with the data's size, the time taken and the framemetrics version. Its
    header states every input that changes a number (the threshold, the
    labels, the weights, ``nulls``). Every number is computed in the
    engine; the page needs no network (inline SVG, CSS and script).

    For a multiclass model (inferred as :func:`framemetrics.evaluate` does:
    one score column per class, more than two ``labels``...), the report
    holds the multiclass metrics overall and per segment, the class table,
    confusion-matrix heatmaps of all rows and of the largest segments and,
    with scores, the one-vs-rest ROC and precision-recall curves of every
    class up to 12, else of the 12 of lowest recall.

    Parameters
    ----------
    source, y_true, by, sample_weight, threshold, pos_label, neg_label, nulls, con
        As in :func:`framemetrics.evaluate`; ``by`` defines the segments.
    y_score : str or list of str, optional
        Binary: the column of scores (required). When all lie in [0, 1]
        they are read as probabilities: the report then adds log loss,
        Brier score, calibration and score distributions. Multiclass: one
        column per class (or a list column with ``labels``).
    y_pred, labels, task
        Multiclass: the predicted classes (default: the scores' argmax), the
        classes, and the task, as in :func:`framemetrics.evaluate`.
    metrics : list of str or dict, optional
        Metrics of the tables. Default: prevalence, ROC AUC, average
        precision, KS, log loss, Brier score (probabilities only), and
        accuracy, precision, recall and F1 at ``threshold``.
    engine : {"polars", "duckdb"}, optional
        Where to compute: Polars by default, as :func:`framemetrics.evaluate`
        (the command line defaults to DuckDB, which reads files larger than
        memory).
    output : str or Path, default "report.html"
        File to write.
    title : str, optional
        Heading of the page.
    max_points : int, default 1000
        Points per curve at most (:func:`framemetrics.curve_table`), so the
        file stays small whatever the number of rows.
    max_segments : int, default 8
        Segments drawn in the plots: the largest by rows (the tables list all).

    Returns
    -------
    Path
        The file written.

    Raises
    ------
    ValueError
        As :func:`framemetrics.evaluate` for bad columns or rows.

    See Also
    --------
    framemetrics.evaluate, framemetrics.roc_curve, framemetrics.calibration_curve

    Examples
    --------
    >>> import tempfile, polars as pl, framemetrics as fm
    >>> df = pl.DataFrame({"seg": ["a", "a", "b", "b"], "y": [0, 1, 1, 0], "p": [0.2, 0.9, 0.4, 0.3]})
    >>> path = fm.evaluation_report(df, y_true="y", y_score="p", by="seg",
    ...                             output=tempfile.mkdtemp() + "/report.html")
    >>> "ROC curve" in path.read_text()
    True
    """
    arguments = dict(locals())
    call = Call.of(arguments)
    if engine == "spark":
        raise ArgumentError("the report runs on Polars or DuckDB: compute on Spark with fm.evaluate and fm.roc_curve")
    if task is None:  # with a score column, binary unless the arguments tell (the report reads no list of scores)
        scored = y_score is not None
        task = task_from_arguments(y_score, labels, metrics) if scored else infer_task(call, metrics)
    if task == "multiclass":
        return _write(forward(collect_multiclass, arguments, call=call), output)
    if task not in (None, "binary") or not isinstance(y_score, str):
        raise ArgumentError("the report evaluates classifiers: a binary one needs y_score= (one score column)")
    return _write(forward(collect, arguments, call=call), output)


def _write(data: ReportData, output: str | Path) -> Path:
    path = Path(output)
    path.write_text(render_page(data, figures(data, HISTOGRAM_BINS)), encoding="utf-8")
    return path
