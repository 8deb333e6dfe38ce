"""Assemble the report's single, self-contained HTML page (inline CSS, SVG and script; no fetches)."""

from __future__ import annotations

import html
import math
from importlib.resources import files

import polars as pl

import framemetrics
from framemetrics.report.collect import INTERVAL_SUFFIXES, ReportData, direction, segment_label
from framemetrics.report.svg import count_text

__all__ = ["COUNTS", "FULL_RED_GAP", "FULL_RED_RATIO", "badness", "error_bar", "header", "render_page"]


def _asset(name: str) -> str:
    return files("framemetrics.report").joinpath("assets", name).read_text(encoding="utf-8")


# Columns of counts (sums of weights): integers without weights, with as few decimals as their values need.
COUNTS = ("n_rows", "tp", "fp", "fn", "tn", "support")


def _text(value: object, column: str = "") -> str:
    if value is None or (isinstance(value, float) and math.isnan(value)):
        return "null"
    if isinstance(value, float) and column in COUNTS and math.isfinite(value):
        return count_text(value)
    if isinstance(value, float):
        return f"{value:.4f}"
    if isinstance(value, int) and not isinstance(value, bool):
        return f"{value:,}"
    return str(value)


def header(column: str) -> str:
    """A column's header: its name, free to wrap after each underscore, in full as its tooltip.

    Examples
    --------
    >>> header("roc_auc_score")
    '<span title="roc_auc_score">roc_<wbr>auc_<wbr>score</span>'
    """
    parts = [html.escape(part) for part in column.split("_")]
    return f'<span title="{html.escape(column)}">{"_<wbr>".join(parts)}</span>'


# A segment's cell is fully red when it is this much worse than the overall value: 0.10 in the metric's own
# units for scores and rates in [0, 1] (an AUC 0.10 below the whole data's), +50% for losses and errors.
FULL_RED_GAP = 0.10
FULL_RED_RATIO = 0.5


def badness(metric: str, value: float | None, overall: float | None) -> float:
    """How much worse than ``overall`` a segment's ``value`` is, from 0 (not worse) to 1 (full red).

    Scores and rates (in [0, 1]) count the gap in their own units, full at
    :data:`FULL_RED_GAP`; losses and errors (unbounded) count it relative to
    the overall value, full at +:data:`FULL_RED_RATIO`. A fixed scale, so a
    difference means the same on every report, whatever the other segments.

    Examples
    --------
    >>> badness("roc_auc_score", 0.892, 0.90), badness("roc_auc_score", 0.75, 0.90), badness("log_loss", 0.3, 0.2)
    (0.08, 1.0, 1.0)
    >>> badness("roc_auc_score", 0.95, 0.90), badness("prevalence", 0.2, 0.1)
    (0.0, 0.0)
    """
    sign = direction(metric)
    if not sign or value is None or overall is None or math.isnan(value) or math.isnan(overall):
        return 0.0
    worse = (overall - value) if sign > 0 else (value - overall)
    if sign < 0:  # losses and errors: relative to the overall value
        share = worse / (FULL_RED_RATIO * overall) if overall > 0 else float(worse > 0)
    else:
        share = worse / FULL_RED_GAP
    return round(min(max(share, 0.0), 1.0), 9)


def error_bar(
    low: float, high: float, value: float, overall: float | None = None, span: tuple[float, float] = (0.0, 1.0)
) -> str:
    """A small inline SVG of an interval on the axis ``span``: the bar from ``low`` to ``high``, a dot at
    ``value`` and a tick at the ``overall`` value.

    Examples
    --------
    >>> error_bar(0.25, 0.75, 0.5).count("<line")
    1
    """
    start, end = span
    width = end - start if end > start else 1.0

    def x(v: float) -> str:
        return f"{2 + 56 * min(max((v - start) / width, 0.0), 1.0):.1f}"

    tick = "" if overall is None else f'<path d="M{x(overall)} 1V9" class="overall"/>'
    return (
        f'<svg class="bar" width="60" height="10" role="img" aria-label="95% interval {low:.4f} to {high:.4f}">'
        f'<line x1="{x(low)}" x2="{x(high)}" y1="5" y2="5"/>{tick}<circle cx="{x(value)}" cy="5" r="2"/></svg>'
    )


def _span(low: pl.Series, high: pl.Series, overall: float | None) -> tuple[float, float]:
    """The axis of a column's error bars: its lowest and highest bound and the overall value, padded 5 %."""
    values = [v for v in (*low.drop_nulls(), *high.drop_nulls(), overall) if v is not None and math.isfinite(v)]
    if not values:
        return (0.0, 1.0)
    start, end = min(values), max(values)
    pad = 0.05 * (end - start) or 0.01
    return (start - pad, end + pad)


def _interval(frame: pl.DataFrame, column: str) -> tuple[pl.Series, pl.Series] | None:
    names = [f"{column}{suffix}" for suffix in INTERVAL_SUFFIXES]
    return (frame[names[0]], frame[names[1]]) if all(n in frame.columns for n in names) else None


def _table(
    frame: pl.DataFrame,
    table_id: str,
    sort_by: str | None = None,
    overall: pl.DataFrame | None = None,
    keys: tuple[str, ...] = (),
) -> str:
    """An HTML table whose cells carry their raw value for sorting and a red tint by :func:`badness`.

    A metric with an interval (its ``_low`` and ``_high`` columns) shows it
    as an :func:`error_bar` in its cell, and is tinted only where the interval
    lies wholly on the worse side of the overall value (the gap is not
    within the segment's uncertainty). The ``keys`` columns (the segment) are
    pinned when the table scrolls sideways in its box.
    """
    shown = [c for c in frame.columns if not (c.endswith(INTERVAL_SUFFIXES) and c.rsplit("_", 1)[0] in frame.columns)]
    pinned = {c: "key last" if c == keys[-1] else "key" for c in keys}
    reference = {} if overall is None else overall.row(0, named=True)
    values = {c: frame[c].to_list() for c in frame.columns}  # read as lists once, not a Series per cell
    intervals = {c: _interval(frame, c) for c in shown}
    bounds = {c: (b[0].to_list(), b[1].to_list()) for c, b in intervals.items() if b is not None}
    spans = {c: _span(*b, reference.get(c)) for c, b in intervals.items() if b is not None}
    tints = {}
    for c in shown:
        base = reference.get(c)
        tints[c] = {}
        for i, v in enumerate(values[c]):
            tint = badness(c, v, base) if c in reference else 0.0
            if tint and c in bounds and base is not None:
                low, high = bounds[c][0][i], bounds[c][1][i]
                tint = tint if low is not None and not low <= base <= high else 0.0
            tints[c][i] = tint
    sorted_by = ' aria-sort="ascending"'
    classes = {c: f' class="{pinned[c]}"' for c in pinned}
    headers = "".join(
        f'<th scope="col"{classes.get(c, "")}{sorted_by if c == sort_by else ""}>{header(c)}</th>' for c in shown
    )
    rows = []
    for i in range(frame.height):
        cells = []
        for column in shown:
            value = values[column][i]
            raw = "" if value is None or (isinstance(value, float) and math.isnan(value)) else repr(value)
            attributes = f' data-value="{html.escape(raw if not isinstance(value, str) else value)}"'
            names = [*([pinned[column]] if column in pinned else []), *(["null"] if value is None else [])]
            if names:
                attributes += f' class="{" ".join(names)}"'
            if value is not None and tints[column].get(i):
                attributes += f' style="background: rgba(230, 73, 60, {0.42 * tints[column][i]:.3f})"'
            text = html.escape(_text(value, column))
            if column in bounds and value is not None and bounds[column][0][i] is not None:
                low, high = bounds[column][0][i], bounds[column][1][i]
                text += error_bar(low, high, value, reference.get(column), spans[column])
                text += f'<span class="ci">[{low:.3f}, {high:.3f}]</span>'
            cells.append(f"<td{attributes}>{text}</td>")
        rows.append("<tr>" + "".join(cells) + "</tr>")
    body = "\n".join(rows)
    table = f'<table class="sortable" id="{table_id}"><thead><tr>{headers}</tr></thead>\n<tbody>{body}</tbody></table>'
    return f'<div class="scroll">{table}</div>'


def _key_metric(data: ReportData) -> str | None:
    for metric in ("roc_auc_score", "roc_auc_ovr", "average_precision_score", "f1_macro", *data.metrics):
        if metric in data.metrics and direction(metric):
            return metric
    return None


def _worst(data: ReportData, metric: str) -> str:
    ranked = data.segments.drop_nulls(metric).sort(metric, descending=direction(metric) < 0)
    if ranked.height == 0:
        return ""
    worst = ranked.head(1)
    label = worst.select(segment_label(data.by))["segment"].item()
    value, overall = worst[metric].item(), data.overall[metric].item()
    return (
        f'<p class="worst" id="worst">Worst segment by {html.escape(metric)}: <b>{html.escape(label)}</b> '
        f"({value:.4f}, against {_text(overall)} overall, {worst['n_rows'].item():,} rows).</p>"
    )


def _size(n_bytes: int | None) -> str:
    if n_bytes is None:
        return ""
    for unit in ("B", "KB", "MB", "GB"):
        if n_bytes < 1024 or unit == "GB":
            return f"{n_bytes:.0f} {unit}" if unit == "B" else f"{n_bytes:.1f} {unit}"
        n_bytes /= 1024
    return ""


_CAPTIONS = {
    "confusion": "Confusion matrices of all rows and of the largest segments: each row (true class) shares its "
    "weight among the predicted classes; in each cell its share of the row and, beneath, its count (its sum of "
    "weights, with weights).",
    "roc": "ROC curve per segment; black: all rows. Shaded: Wilson's 95 % interval of the true positive rate at "
    "each point (pointwise; the segment's positives as trials, Kish's effective count with weights).",
    "pr": "Precision-recall curve per segment; dotted: the overall prevalence (no skill).",
    "roc_multiclass": "One-vs-rest ROC curve of each class shown (see the notes), over all rows.",
    "pr_multiclass": "One-vs-rest precision-recall curve of each class shown (see the notes), over all rows.",
    "calibration": "Reliability diagram: per bin of predicted probability, the observed share of positives; "
    "beneath, the rows (or the weight) of each bin, all rows.",
    "distribution": "Distribution of the score among true negatives and true positives (all rows).",
}


def render_page(data: ReportData, figures: dict[str, str]) -> str:
    """The whole HTML document.

    Examples
    --------
    >>> from framemetrics.report.collect import Call, collect
    >>> df = pl.DataFrame({"y": [0, 1, 0, 1], "p": [0.1, 0.8, 0.4, 0.35]})
    >>> page = render_page(collect(Call(df, y_true="y", y_score="p")), {})
    >>> page.startswith("<!DOCTYPE html>"), "<script" in page
    (True, True)
    """
    size = _size(data.source_bytes)
    meta = [
        f'<span class="source">Data: <code>{html.escape(data.source)}</code>{f" ({size})" if size else ""}</span>',
        f"<span>{data.n_rows:,} rows</span>",
        f"<span>Engine: {html.escape(data.engine)}</span>",
        f"<span>Computed in {data.seconds:.2f} s</span>",
        f"<span>framemetrics {html.escape(framemetrics.__version__)}</span>",
        f"<span>{html.escape(data.generated)}</span>",
    ]
    inputs = "".join(
        f'<span><span class="what">{html.escape(what)}:</span> {html.escape(value)}</span>'
        for what, value in data.inputs
    )
    key = _key_metric(data)
    parts = [f"<h2>Overall</h2>\n{_table(data.overall, 'overall')}"]
    if data.segments is not None:
        title = f"Per segment ({html.escape(', '.join(data.by))}): {data.segments.height} segments"
        hint = (
            "Click a column to sort. A cell is tinted red when the segment is worse than the whole data: "
            f"fully red {FULL_RED_GAP:.2f} below it for scores and rates, {FULL_RED_RATIO:.0%} above it for losses "
            "and errors (a fixed scale, not relative to the other segments). Brackets and bars: the 95 % "
            "interval (DeLong's for the ROC AUC, Wilson's for the proportions; the tick is the whole data's value); "
            "such a cell is tinted only where its interval excludes the whole data's value."
        )
        worst = _worst(data, key) if key else ""
        ordered = data.segments.sort(key, nulls_last=True, descending=direction(key) < 0) if key else data.segments
        parts.append(
            f'<h2>{title}</h2>\n<p class="notes">{hint}</p>\n{worst}{_table(ordered, "segments", key, data.overall, data.by)}'
        )
    if data.classes is not None:
        parts.append(f"<h2>Per class (all rows)</h2>\n{_table(data.classes, 'classes')}")
    captions = {
        name: _CAPTIONS.get(f"{name}_multiclass" if data.task == "multiclass" else name, _CAPTIONS[name])
        for name in figures
    }
    wide = {"confusion": ' class="wide"'}
    shown = "".join(
        f'<figure id="figure-{name}"{wide.get(name, "")}>{svg}<figcaption>{captions[name]}</figcaption></figure>'
        for name, svg in figures.items()
    )
    parts.append(f'<h2>Plots</h2>\n<div class="figures">{shown}</div>')
    notes = [
        *data.notes,
        (
            f"Each curve is drawn from at most {data.max_points} points, chosen in the engine so the lines are "
            "those of the full curve (M4: first, last, lowest and highest point per column of the x axis)."
        ),
        "Null means undefined (e.g. precision with no predicted positive).",
    ]
    parts.append('<div class="notes">' + "".join(f"<p>{html.escape(n)}</p>" for n in notes) + "</div>")
    body = "\n".join(parts)
    return f"""<!DOCTYPE html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="generator" content="framemetrics {html.escape(framemetrics.__version__)}">
<title>{html.escape(data.title)}</title>
<style>
{_asset("report.css")}</style>
</head>
<body>
<main>
<h1>{html.escape(data.title)}</h1>
<p class="meta">{"".join(meta)}</p>
<p class="inputs" id="inputs">{inputs}</p>
{body}
</main>
<script>
{_asset("report.js")}</script>
</body>
</html>
"""
