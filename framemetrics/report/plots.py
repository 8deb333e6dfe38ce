"""The report's figures as inline SVG (:mod:`framemetrics.report.svg`): ROC, PR, calibration, score distributions."""

from __future__ import annotations

import polars as pl

from framemetrics.compilers.polars import POLARS
from framemetrics.core.normal import normal_quantile
from framemetrics.core.proportions import wilson_bounds
from framemetrics.report.collect import OVERALL, ReportData, segment_label
from framemetrics.report.shared import REPORT_LEVEL
from framemetrics.report.svg import PALETTE, Axes, heatmap, stacked

__all__ = ["calibration_svg", "confusion_svg", "distribution_svg", "figures", "pr_svg", "roc_svg", "tpr_band"]


def _style(segment: str, data: ReportData) -> dict[str, object]:
    """Black for all rows; each segment (each class, multiclass) keeps its colour across the figures."""
    if segment == OVERALL:
        return {"color": "black", "width": 2.2}
    shown = data.classes_shown if data.task == "multiclass" else data.shown
    return {"color": PALETTE[shown.index(segment) % len(PALETTE)], "width": 1.2}


def _label(segment: str, data: ReportData, metric: str, short: str) -> str:
    table = data.overall if segment == OVERALL else data.segments
    if metric not in data.metrics or table is None:
        return segment
    if segment != OVERALL:
        labels = table.select(segment_label(data.by))["segment"]
        table = table.filter(labels == segment)
    value = table[metric].item() if table.height == 1 else None
    return segment if value is None else f"{segment} ({short} {value:.3f})"


def tpr_band(points: pl.DataFrame, positives_squared: float | pl.Expr, level: float = REPORT_LEVEL) -> pl.DataFrame:
    """Wilson's interval of the true positive rate at each point of a ROC curve: ``tp`` successes of the
    ``tp + fn`` positives, Kish's ``n = (tp + fn)^2 / positives_squared`` (the proportions' interval,
    :func:`~framemetrics.core.proportions.wilson_bounds`; without weights ``n`` is the count of positives).
    ``positives_squared`` is a number, or an expression over ``points`` (each point its segment's).

    Examples
    --------
    >>> band = tpr_band(pl.DataFrame({"tp": [3.0], "fn": [7.0]}), 10.0)
    >>> [round(v, 6) for v in band.row(0)]
    [0.107791, 0.603222]
    """
    positives, z = pl.col("tp") + pl.col("fn"), pl.lit(normal_quantile((1 + level) / 2))
    squares = positives_squared if isinstance(positives_squared, pl.Expr) else pl.lit(positives_squared)
    return points.select(**wilson_bounds(POLARS, pl.col("tp"), positives, squares, z))


def _banded(data: ReportData, frame: pl.DataFrame) -> pl.DataFrame:
    """``frame`` (the ROC points) with ``low`` and ``high``, every segment's band in one query: null where the
    sum of the positives' squared weights is unknown or null (no band)."""
    if data.positives_squared is None:
        return frame.with_columns(low=pl.lit(None, pl.Float64), high=pl.lit(None, pl.Float64))
    squares = frame.select("segment").join(data.positives_squared, on="segment", how="left", maintain_order="left")
    bounds = tpr_band(frame.with_columns(squares["positives_squared"]), pl.col("positives_squared"))
    return frame.with_columns(bounds)


def _curves(
    data: ReportData, frame: pl.DataFrame, x: str, y: str, axes: Axes, metric: str, short: str, *, band: bool = False
) -> None:
    if band:
        frame = _banded(data, frame)
    for (segment,), points in frame.group_by("segment", maintain_order=True):
        points = points.drop_nulls([x, y])
        if points.height:
            label = _label(segment, data, metric, short)
            style = _style(segment, data)
            if band and points["low"].null_count() < points.height:
                axes.band(points[x].to_list(), points["low"].to_list(), points["high"].to_list(), color=style["color"])
            axes.line(points[x].to_list(), points[y].to_list(), label=label, **style)


def roc_svg(data: ReportData) -> str:
    """ROC curves: the whole data in black, the largest segments in colour; for a binary model each in a band of
    Wilson's 95 % interval of its true positive rate (:func:`tpr_band`)."""
    title = "One-vs-rest ROC curve per class" if data.task == "multiclass" else "ROC curve"
    axes = Axes(title, "False positive rate", "True positive rate")
    axes.line([0.0, 1.0], [0.0, 1.0], color="grey", width=0.8, dashed=True)
    _curves(data, data.roc, "fpr", "tpr", axes, "roc_auc_score", "AUC", band=True)
    return axes.svg("lower right")


def pr_svg(data: ReportData) -> str:
    """Precision-recall curves, with the overall prevalence as the no-skill line."""
    title = "One-vs-rest precision-recall curve per class" if data.task == "multiclass" else "Precision-recall curve"
    axes = Axes(title, "Recall", "Precision")
    if "prevalence" in data.metrics and data.overall["prevalence"].item() is not None:
        axes.hline(data.overall["prevalence"].item())
    _curves(data, data.pr, "recall", "precision", axes, "average_precision_score", "AP")
    return axes.svg("lower left")


def calibration_svg(data: ReportData) -> str:
    """Reliability diagram: mean predicted probability against the observed share of positives, per bin; beneath
    it, the size of each bin over all rows (its rows, or its weight with weights)."""
    axes = Axes("Calibration (10 bins)", "Mean predicted probability", "Fraction of positives")
    axes.line([0.0, 1.0], [0.0, 1.0], color="grey", width=0.8, dashed=True, label="perfectly calibrated")
    frame = data.calibration
    for (segment,) in frame.select("segment").unique(maintain_order=True).rows():
        points = frame.filter(pl.col("segment") == segment).drop_nulls(["prob_pred", "prob_true"])
        xs, ys = points["prob_pred"].to_list(), points["prob_true"].to_list()
        axes.line(xs, ys, markers=True, label=segment, **_style(segment, data))
    whole = frame.filter(pl.col("segment") == OVERALL)
    weighted = data.weighted
    sizes = (whole["positive_weight"] + whole["negative_weight"]) if weighted else whole["n_rows"].cast(pl.Float64)
    top = max(sizes.max() or 0.0, 1.0) * 1.18  # room for the numbers above the bars
    counts = Axes("", "Predicted probability (bin)", "Weight" if weighted else "Rows", ylim=(0.0, top), height=170,
                  top=14)  # fmt: skip
    counts.bars(whole["bin_lower"].to_list(), whole["bin_upper"].to_list(), sizes.to_list(), color="#6b7280")
    return stacked([(axes, "upper left"), (counts, "")])


def distribution_svg(data: ReportData, bins: int) -> str:
    """Histograms of the score for each true class, each normalised to its class's weight."""
    everything = pl.DataFrame({"bin": range(bins)}, schema={"bin": pl.Int64})
    frame = everything.join(data.distribution, on="bin", how="left").fill_null(0.0)
    edges = [i / bins for i in range(bins + 1)]
    classes = (("negative_weight", "negatives", "#4c72b0"), ("positive_weight", "positives", "#dd8452"))
    shares = {}
    for column, label, _ in classes:
        total = frame[column].sum()
        shares[label] = [v / total if total else 0.0 for v in frame[column].to_list()]
    top = max((v for values in shares.values() for v in values), default=0.0) or 1.0
    axes = Axes("Score distribution by true class", "Score", "Share of the class's weight", ylim=(0.0, top * 1.05))
    for _, label, color in classes:
        axes.steps(edges, shares[label], color=color, label=label)
    return axes.svg("upper right")


def confusion_svg(data: ReportData) -> str:
    """The confusion matrices, one heatmap each (all rows, then the largest segments), side by side as room allows:
    each true class's weight shared among the predicted classes, with its count."""
    frame = data.confusion
    panels = []
    for segment in frame["segment"].unique(maintain_order=True).to_list():
        part = frame.filter(pl.col("segment") == segment)
        classes = [str(c) for c in part["y_true"].unique(maintain_order=True).to_list()]
        weights = part["weight"].to_list()
        k = len(classes)
        panels.append(heatmap(segment, classes, [weights[i * k : (i + 1) * k] for i in range(k)]))
    return f'<div class="panels">{"".join(panels)}</div>'


def figures(data: ReportData, bins: int) -> dict[str, str]:
    """Every figure of the report, by name, as SVG text.

    Examples
    --------
    >>> import framemetrics as fm
    >>> from framemetrics.report.collect import Call, collect
    >>> df = pl.DataFrame({"y": [0, 1, 0, 1], "p": [0.1, 0.8, 0.4, 0.35]})
    >>> sorted(figures(collect(Call(df, y_true="y", y_score="p")), 10))
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
