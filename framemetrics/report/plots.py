"""The report's figures as inline SVG (matplotlib, no pyplot): ROC, PR, calibration, score distributions."""

from __future__ import annotations

import io
import re

import matplotlib
import polars as pl
from matplotlib.figure import Figure

from framemetrics.report.collect import OVERALL, ReportData, segment_label

__all__ = ["calibration_svg", "confusion_svg", "distribution_svg", "figures", "pr_svg", "roc_svg"]

_STYLE = {
    "svg.fonttype": "none",
    "svg.hashsalt": "framemetrics",
    "font.size": 9,
    "axes.spines.top": False,
    "axes.spines.right": False,
    "axes.grid": True,
    "grid.alpha": 0.3,
}
_PALETTE = matplotlib.colormaps["tab10"].colors
_ID = re.compile(r'(id="|url\(#|href="#)([^")]+)')


def _svg(figure: Figure, prefix: str) -> str:
    """The figure as an ``<svg>`` element whose ids start with ``prefix`` (several share a page)."""
    buffer = io.StringIO()
    with matplotlib.rc_context(_STYLE):
        figure.savefig(buffer, format="svg", metadata={"Date": None, "Creator": None}, bbox_inches="tight")
    text = buffer.getvalue()
    text = text[text.index("<svg") :]
    return _ID.sub(lambda m: f"{m.group(1)}{prefix}-{m.group(2)}", text)


def _figure(xlabel: str, ylabel: str) -> tuple[Figure, object]:
    with matplotlib.rc_context(_STYLE):
        figure = Figure(figsize=(5.4, 4.4))
        axes = figure.add_subplot()
    axes.set_xlabel(xlabel)
    axes.set_ylabel(ylabel)
    return figure, axes


def _style(segment: str, data: ReportData) -> dict[str, object]:
    """Black for all rows; each segment (each class, multiclass) keeps its colour across the figures."""
    if segment == OVERALL:
        return {"color": "black", "linewidth": 2.2, "zorder": 3}
    shown = data.classes_shown if data.task == "multiclass" else data.shown
    return {"color": _PALETTE[shown.index(segment) % len(_PALETTE)], "linewidth": 1.2, "alpha": 0.9}


def _label(segment: str, data: ReportData, metric: str, short: str) -> str:
    table = data.overall if segment == OVERALL else data.segments
    if metric not in data.metrics or table is None:
        return segment
    if segment != OVERALL:
        labels = table.select(segment_label(data.by))["segment"]
        table = table.filter(labels == segment)
    value = table[metric].item() if table.height == 1 else None
    return segment if value is None else f"{segment} ({short} {value:.3f})"


def _curves(data: ReportData, frame: pl.DataFrame, x: str, y: str, figure_axes, metric: str, short: str) -> None:
    figure, axes = figure_axes
    for (segment,) in frame.select("segment").unique(maintain_order=True).rows():
        points = frame.filter(pl.col("segment") == segment).drop_nulls([x, y])
        if points.height:
            label = _label(segment, data, metric, short)
            axes.plot(points[x].to_list(), points[y].to_list(), label=label, **_style(segment, data))
    axes.set_xlim(-0.01, 1.01)
    axes.set_ylim(-0.01, 1.01)
    axes.legend(loc="lower right" if x == "fpr" else "lower left", fontsize=7, frameon=False)


def roc_svg(data: ReportData) -> str:
    """ROC curves: the whole data in black, the largest segments in colour."""
    figure, axes = _figure("False positive rate", "True positive rate")
    axes.plot([0, 1], [0, 1], linestyle=":", color="grey", linewidth=0.8)
    _curves(data, data.roc, "fpr", "tpr", (figure, axes), "roc_auc_score", "AUC")
    axes.set_title("One-vs-rest ROC curve per class" if data.task == "multiclass" else "ROC curve")
    return _svg(figure, "roc")


def pr_svg(data: ReportData) -> str:
    """Precision-recall curves, with the overall prevalence as the no-skill line."""
    figure, axes = _figure("Recall", "Precision")
    if "prevalence" in data.metrics:
        prevalence = data.overall["prevalence"].item()
        axes.axhline(prevalence, linestyle=":", color="grey", linewidth=0.8)
    _curves(data, data.pr, "recall", "precision", (figure, axes), "average_precision_score", "AP")
    axes.set_title(
        "One-vs-rest precision-recall curve per class" if data.task == "multiclass" else "Precision-recall curve"
    )
    return _svg(figure, "pr")


def calibration_svg(data: ReportData) -> str:
    """Reliability diagram: mean predicted probability against the observed share of positives, per bin."""
    figure, axes = _figure("Mean predicted probability", "Fraction of positives")
    axes.plot([0, 1], [0, 1], linestyle=":", color="grey", linewidth=0.8, label="perfectly calibrated")
    frame = data.calibration
    for (segment,) in frame.select("segment").unique(maintain_order=True).rows():
        points = frame.filter(pl.col("segment") == segment).drop_nulls(["prob_pred", "prob_true"])
        axes.plot(points["prob_pred"].to_list(), points["prob_true"].to_list(), marker="o", markersize=3,
                  label=segment, **_style(segment, data))  # fmt: skip
    axes.set_xlim(-0.01, 1.01)
    axes.set_ylim(-0.01, 1.01)
    axes.legend(loc="upper left", fontsize=7, frameon=False)
    axes.set_title("Calibration (10 bins)")
    return _svg(figure, "calibration")


def distribution_svg(data: ReportData, bins: int) -> str:
    """Histograms of the score for each true class, each normalised to its class's weight."""
    figure, axes = _figure("Score", "Share of the class's weight")
    everything = pl.DataFrame({"bin": range(bins)}, schema={"bin": pl.Int64})
    frame = everything.join(data.distribution, on="bin", how="left").fill_null(0.0)
    edges = [i / bins for i in range(bins + 1)]
    for column, label, color in (
        ("negative_weight", "negatives", "#4c72b0"),
        ("positive_weight", "positives", "#dd8452"),
    ):
        total = frame[column].sum()
        shares = [v / total if total else 0.0 for v in frame[column].to_list()]
        axes.stairs(shares, edges, fill=True, alpha=0.35, color=color, label=label)
        axes.stairs(shares, edges, color=color, linewidth=1.2)
    axes.set_xlim(0, 1)
    axes.legend(fontsize=7, frameon=False)
    axes.set_title("Score distribution by true class")
    return _svg(figure, "distribution")


def confusion_svg(data: ReportData) -> str:
    """Heatmaps of the confusion matrices: each true class's weight shared among the predicted classes."""
    frame = data.confusion
    segments = frame["segment"].unique(maintain_order=True).to_list()
    with matplotlib.rc_context(_STYLE | {"axes.grid": False}):
        figure = Figure(figsize=(2.9 * len(segments) + 0.6, 3.2))
        grid = figure.subplots(1, len(segments), squeeze=False)[0]
    for axes, segment in zip(grid, segments, strict=True):
        part = frame.filter(pl.col("segment") == segment)
        classes = part["y_true"].unique(maintain_order=True).to_list()
        weights = part["weight"].to_list()
        k = len(classes)
        rows = [weights[i * k : (i + 1) * k] for i in range(k)]
        shares = [[v / sum(row) if sum(row) else 0.0 for v in row] for row in rows]
        axes.imshow(shares, cmap="Blues", vmin=0, vmax=1)
        for i in range(k):
            for j in range(k):
                color = "white" if shares[i][j] > 0.6 else "black"
                axes.text(j, i, f"{shares[i][j]:.2f}", ha="center", va="center", fontsize=7, color=color)
        axes.set_xticks(range(k), classes, rotation=45, ha="right", fontsize=7)
        axes.set_yticks(range(k), classes, fontsize=7)
        axes.set_xlabel("Predicted")
        axes.set_title(segment, fontsize=8)
    grid[0].set_ylabel("True")
    return _svg(figure, "confusion")


def figures(data: ReportData, bins: int) -> dict[str, str]:
    """Every figure of the report, by name, as SVG text.

    Examples
    --------
    >>> import framemetrics as fm
    >>> from framemetrics.report.collect import collect
    >>> df = pl.DataFrame({"y": [0, 1, 0, 1], "p": [0.1, 0.8, 0.4, 0.35]})
    >>> sorted(figures(collect(df, y_true="y", y_score="p"), 10))
    ['calibration', 'distribution', 'pr', 'roc']
    """
    if data.task == "multiclass":
        shown = {"confusion": confusion_svg(data)}
        if data.roc.height:
            shown |= {"roc": roc_svg(data), "pr": pr_svg(data)}
        return shown
    shown = {"roc": roc_svg(data), "pr": pr_svg(data)}
    if data.calibration is not None:
        shown["calibration"] = calibration_svg(data)
    if data.distribution is not None:
        shown["distribution"] = distribution_svg(data, bins)
    return shown
