"""Compute what the evaluation report shows, each part a query on the chosen engine."""

from __future__ import annotations

import glob
import time
from collections.abc import Sequence
from dataclasses import dataclass, field
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import polars as pl

from framemetrics.columns import resolve_curve
from framemetrics.core.plan import default_neg_label
from framemetrics.engines import Backend
from framemetrics.report.shared import POSITIVES_SQUARED, shared_results
from framemetrics.request import Call
from framemetrics.request.call import check_schema
from framemetrics.sources import Source

__all__ = [
    "INTERVAL_SUFFIXES",
    "REPORT_METRICS",
    "ReportData",
    "collect",
    "direction",
    "largest_segments",
    "report_data",
    "score_range",
    "segment_label",
    "source_size",
    "stack",
    "stated_inputs",
]

# The columns of a metric's interval beside it (framemetrics.evaluate(ci=...)).
INTERVAL_SUFFIXES = ("_low", "_high")
REPORT_METRICS = (
    "prevalence",
    "roc_auc_score",
    "average_precision_score",
    "ks_statistic",
    "log_loss",
    "brier_score_loss",
    "accuracy_score",
    "precision_score",
    "recall_score",
    "f1_score",
)
_PROBABILITY_ONLY = ("log_loss", "brier_score_loss")
OVERALL = "all"
HISTOGRAM_BINS = 50


def direction(metric: str) -> int:
    """+1 if higher is better, -1 if lower is better, 0 if neither (scikit-learn's naming).

    Examples
    --------
    >>> direction("roc_auc_score"), direction("log_loss"), direction("prevalence")
    (1, -1, 0)
    >>> direction("fbeta_score(beta=2)")
    1
    """
    metric = metric.partition("(")[0]  # a metric with parameters: fbeta_score(beta=2)
    if metric.endswith(("_loss", "_error", "error_rate", "negative_rate", "positive_rate")):
        return -1
    if metric.endswith("_score") or metric in ("matthews_corrcoef", "ks_statistic", "break_even_point"):
        return 1
    if metric.startswith(("f1_", "fbeta_", "precision_", "recall_", "jaccard_", "roc_auc_", "average_precision_")):
        return 1  # multiclass averages (scikit-learn's scorer names)
    return 0


@dataclass(frozen=True)
class ReportData:
    """Everything the report shows: metrics overall and per segment, curves and bins, and their context.

    ``roc``, ``pr``, ``calibration`` and ``distribution`` have a ``segment``
    column: ``"all"`` for the whole data, else the segment's label. For a
    multiclass model (``task``), ``roc`` and ``pr`` hold the one-vs-rest
    curves of the ``classes_shown``, their ``segment`` the class; ``classes``
    is the class table and ``confusion`` the confusion matrices (long, with
    ``segment``). ``positives_squared`` holds, per ``segment`` of a binary
    model, the sum of the positives' squared weights (Kish's n of the ROC band).
    ``inputs`` names every input that changes a number, with its value
    (:func:`stated_inputs`): the page's header states them; ``weighted``
    tells whether rows have weights (the calibration's bin sizes are weights).
    """

    title: str
    source: str
    source_bytes: int | None
    engine: str
    by: tuple[str, ...]
    metrics: tuple[str, ...]
    overall: pl.DataFrame
    segments: pl.DataFrame | None
    shown: tuple[str, ...]
    roc: pl.DataFrame
    pr: pl.DataFrame
    calibration: pl.DataFrame | None
    distribution: pl.DataFrame | None
    seconds: float
    generated: str
    max_points: int
    notes: list[str] = field(default_factory=list)
    task: str = "binary"
    classes: pl.DataFrame | None = None
    confusion: pl.DataFrame | None = None
    classes_shown: tuple[str, ...] = ()
    positives_squared: pl.DataFrame | None = None
    inputs: tuple[tuple[str, str], ...] = ()
    weighted: bool = False

    @property
    def n_rows(self) -> int:
        """Rows evaluated."""
        return int(self.overall["n_rows"].item())


def score_range(opened: Backend, y_score: str) -> tuple[float | None, float | None]:
    """Smallest and largest score (NaN ignored), computed on the ``opened`` source's engine.

    Examples
    --------
    >>> from framemetrics.engines import open_engine
    >>> with open_engine(pl.DataFrame({"s": [0.2, 0.9]}), "duckdb") as opened:
    ...     score_range(opened, "s")
    (0.2, 0.9)
    """
    _check_score(y_score, opened.kinds())
    frame = opened.frame({"score": y_score})
    ns = frame.ns
    score = ns.col("score")
    valid = ns.when(ns.is_nan(score), ns.null()).otherwise(ns.to_float(score))
    return opened.run(frame.aggregate([], {"low": ns.min(valid), "high": ns.max(valid)})).row(0)


def _check_score(y_score: str, kinds: dict[str, str]) -> None:
    """The column checks of :func:`framemetrics.evaluate` for the score alone."""
    resolved = resolve_curve(y_true=y_score, y_score=y_score, sample_weight=None, pos_label=1, neg_label=None)
    check_schema(resolved.plan, {"y_score": y_score}, (), kinds, False)


def segment_label(by: tuple[str, ...]) -> pl.Expr:
    parts = [pl.col(c).cast(pl.String).fill_null("null") for c in by]
    if len(by) == 1:
        return parts[0].alias("segment")
    return pl.concat_str([pl.lit(f"{c}=") + p for c, p in zip(by, parts, strict=True)], separator=", ").alias("segment")


def stack(
    overall: pl.DataFrame, per_segment: pl.DataFrame | None, by: tuple[str, ...], shown: tuple[str, ...]
) -> pl.DataFrame:
    """The whole data's rows (segment ``"all"``) above those of the ``shown`` segments, labelled by segment."""
    parts = [overall.with_columns(segment=pl.lit(OVERALL))]
    if per_segment is not None:
        labelled = per_segment.with_columns(segment_label(by)).drop(list(by))
        parts.append(labelled.filter(pl.col("segment").is_in(list(shown))))
    return pl.concat([p.select("segment", pl.exclude("segment")) for p in parts])


def stated_inputs(
    call: Call, *, threshold: float | None = None, classes: Sequence[Any] = ()
) -> tuple[tuple[str, str], ...]:
    """Every input of ``call`` that changes a number, as (what, its value) for the report's header.

    The columns read; a binary model's decision ``threshold`` and its
    positive and negative labels; a multiclass model's classes (``labels``,
    else the ``classes`` found) and where its predicted classes come from;
    the weights; what ``nulls`` does.

    Examples
    --------
    >>> call = Call(pl.DataFrame(), y_true="y", y_score="p", sample_weight="w", nulls="drop")
    >>> dict(stated_inputs(call, threshold=0.3))["Decision threshold"]
    'y_score ≥ 0.3 predicts the positive class'
    >>> dict(stated_inputs(call, threshold=0.3))["Weights"]
    "column 'w'"
    """
    scores = [call.y_score] if isinstance(call.y_score, str) else list(call.y_score or ())
    read = {"y_true": call.y_true, "y_pred": call.y_pred, "y_score": ", ".join(scores) or None}
    stated = [("Columns", ", ".join(f"{role}={name!r}" for role, name in read.items() if name))]
    if threshold is not None:
        positive, negative = call.pos_label, default_neg_label(call.pos_label, call.neg_label)
        stated += [
            ("Decision threshold", f"y_score ≥ {threshold:g} predicts the positive class"),
            ("Labels", f"pos_label={positive!r}, neg_label={negative!r}"),
        ]
    else:
        given = call.labels is not None
        names = ", ".join(map(str, call.labels if given else classes))
        stated.append(("Classes", f"{names} ({'labels=' if given else 'found in the data'})"))
        predicted = f"column {call.y_pred!r}" if call.y_pred is not None else "the argmax of the scores"
        stated.append(("Predicted class", predicted))
    weights = f"column {call.sample_weight!r}" if call.sample_weight else "none (each row counts 1)"
    nulls = (
        "rows with a null in a column read are dropped first" if call.drop else "a null in a column read is an error"
    )
    return (*stated, ("Weights", weights), ("Nulls", f"nulls={call.nulls!r} ({nulls})"))


def source_size(source: Source) -> tuple[str, int | None]:
    """What the report says the data is: the path and its size in bytes, or the type of the object."""
    if isinstance(source, (str, Path)) and glob.glob(str(source)):
        files = [Path(p) for p in glob.glob(str(source))]
        return str(source), sum(p.stat().st_size for p in files if p.is_file())
    return type(source).__name__, None


def collect(
    call: Call,
    *,
    metrics: Sequence[str] | dict[str, dict[str, Any]] | None = None,
    threshold: float = 0.5,
    title: str | None = None,
    max_points: int = 1000,
    max_segments: int = 8,
) -> ReportData:
    """Run every query of a binary classifier's report: the ``call``'s columns and engine, the report's options.

    See :func:`framemetrics.evaluation_report` for the parameters.

    Examples
    --------
    >>> import polars as pl
    >>> df = pl.DataFrame({"y": [0, 1, 1, 0], "p": [0.2, 0.9, 0.4, 0.3]})
    >>> collect(Call(df, y_true="y", y_score="p")).overall["roc_auc_score"].item()
    1.0
    """
    started = time.perf_counter()
    source, y_true, y_score, by, engine = call.source, call.y_true, call.y_score, call.by, call.engine
    with call.open() as opened:  # one engine, one connection, for every query
        low, high = score_range(opened, y_score)
        probabilities = low is not None and high is not None and low >= 0 and high <= 1
        notes = []
        if metrics is None:
            metrics = [m for m in REPORT_METRICS if probabilities or m not in _PROBABILITY_ONLY]
        if not probabilities:
            notes.append(f"Scores span [{low}, {high}], not [0, 1]: no calibration plot or score distributions.")
        bins = {10: True, HISTOGRAM_BINS: False} if probabilities else {}
        shared = shared_results(call, opened, metrics=metrics, threshold=threshold, max_points=max_points,
                                calibration_bins=bins, max_segments=max_segments)  # fmt: skip
    squares = f"fm_{POSITIVES_SQUARED}"
    overall = shared.level(shared.metrics, 0).drop(squares)
    segments = shared.level(shared.metrics, 1).drop(squares) if by else None
    shown = largest_segments(segments, by, max_segments, notes)

    def both(frame: pl.DataFrame) -> pl.DataFrame:
        return stack(shared.level(frame, 0), shared.level(frame, 1) if by else None, by, shown)

    positives = both(shared.metrics.select(*by, *([shared.level_column] if by else []), squares))

    roc, pr = both(shared.curves["roc_curve"]), both(shared.curves["precision_recall_curve"])
    calibration = distribution = None
    if probabilities:
        calibration = both(shared.calibration[10])
        distribution = shared.level(shared.calibration[HISTOGRAM_BINS], 0)
    return report_data(
        source, started, title=title or f"Evaluation of {y_score} against {y_true}", engine=engine, by=by,
        overall=overall, segments=segments, shown=shown, roc=roc, pr=pr, calibration=calibration,
        distribution=distribution, max_points=max_points, notes=notes,
        positives_squared=positives.rename({squares: "positives_squared"}),
        inputs=stated_inputs(call, threshold=threshold), weighted=call.sample_weight is not None,
    )  # fmt: skip


def largest_segments(
    segments: pl.DataFrame | None, by: tuple[str, ...], max_segments: int, notes: list[str]
) -> tuple[str, ...]:
    """The labels of the ``max_segments`` largest segments (by rows), the ones plotted; a note if some are not."""
    if segments is None:
        return ()
    largest = segments.sort("n_rows", descending=True, maintain_order=True).head(max_segments)
    shown = tuple(largest.select(segment_label(by))["segment"].to_list())
    if segments.height > len(shown):
        notes.append(f"The plots show the {len(shown)} largest of {segments.height} segments.")
    return shown


def report_data(source: Source, started: float, *, overall: pl.DataFrame, **fields: Any) -> ReportData:
    """:class:`ReportData` with what every report states: the source and its size, the metrics, the time taken."""
    name, size = source_size(source)
    return ReportData(
        source=name,
        source_bytes=size,
        metrics=tuple(c for c in overall.columns if c != "n_rows" and not c.endswith(INTERVAL_SUFFIXES)),
        overall=overall,
        seconds=time.perf_counter() - started,
        generated=datetime.now(UTC).strftime("%Y-%m-%d %H:%M UTC"),
        **fields,
    )
