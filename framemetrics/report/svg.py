"""Charts as SVG text, drawn directly: axes with a grid, lines, steps, a legend; heatmaps.

The report's figures are a few lines over the unit square: writing their
SVG takes milliseconds where a plotting library took half a second, and
needs no dependency. Every text from the data is escaped.

Examples
--------
>>> axes = Axes("ROC curve", "False positive rate", "True positive rate")
>>> axes.line([0.0, 0.5, 1.0], [0.0, 0.8, 1.0], color="black", label="all <rows>")
>>> svg = axes.svg("lower right")
>>> svg.startswith("<svg") and "all &lt;rows&gt;" in svg
True
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass, field
from html import escape

__all__ = ["PALETTE", "Axes", "blues", "count_text", "fit", "heatmap", "nice_ticks", "stacked"]

PALETTE = (
    "#1f77b4", "#ff7f0e", "#2ca02c", "#d62728", "#9467bd", "#8c564b", "#e377c2", "#7f7f7f", "#bcbd22", "#17becf",
    "#393b79", "#637939",
)  # fmt: skip
WIDTH, HEIGHT = 540, 440
LEFT, RIGHT, TOP, BOTTOM = 62, 14, 34, 50
_FONT = 'font-family="system-ui, -apple-system, Segoe UI, sans-serif"'
_GRID = 'stroke="#d4d4d8" stroke-width="0.6"'
_CHAR = 5.8  # width of a character of the legend's 10 px font, generously


def nice_ticks(low: float, high: float, count: int = 5) -> list[float]:
    """About ``count`` round tick values from ``low`` to ``high`` (steps of 1, 2 or 5 times a power of 10).

    Examples
    --------
    >>> nice_ticks(0.0, 1.0)
    [0.0, 0.2, 0.4, 0.6, 0.8, 1.0]
    >>> nice_ticks(0.0, 0.13)
    [0.0, 0.02, 0.04, 0.06, 0.08, 0.1, 0.12]
    """
    span = max(high - low, 1e-12)
    power = 10 ** math.floor(math.log10(span / count))
    step = next(m * power for m in (1, 2, 5, 10) if span / (m * power) <= count + 2)
    first = math.ceil(low / step - 1e-9)
    return [round(i * step, 12) for i in range(first, math.floor(high / step + 1e-9) + 1)]


def fit(label: str, room: int) -> str:
    """``label`` in at most ``room`` characters: its middle cut (``…``), a final ``(value)`` kept.

    Examples
    --------
    >>> fit("balance_band=1000-1499, income_band=high (AUC 0.671)", 30)
    'balance_band=1000… (AUC 0.671)'
    """
    if len(label) <= room:
        return label
    cut = label.rfind(" (")
    tail = label[cut:] if cut > 0 and len(label) - cut < room // 2 else ""
    return label[: room - len(tail) - 1] + "…" + tail


def _number(value: float) -> str:
    return f"{value:.1f}"


def _tick_label(value: float) -> str:
    return f"{value:,.0f}" if abs(value) >= 1000 else f"{value:g}"


def count_text(value: float) -> str:
    """A count or a sum of weights: an integer when it is one, else at most 4 decimals, no trailing zeros.

    Examples
    --------
    >>> count_text(177.0), count_text(12345.0), count_text(2.5), count_text(1 / 3)
    ('177', '12,345', '2.5', '0.3333')
    """
    if float(value).is_integer():
        return f"{int(value):,}"
    return f"{value:,.4f}".rstrip("0").rstrip(".")


@dataclass
class Axes:
    """One chart: ``line``, ``steps`` and ``hline`` add marks, ``svg`` writes it with its legend."""

    title: str
    xlabel: str
    ylabel: str
    xlim: tuple[float, float] = (0.0, 1.0)
    ylim: tuple[float, float] = (0.0, 1.0)
    marks: list[str] = field(default_factory=list)
    legend: list[tuple[str, str]] = field(default_factory=list)
    height: int = HEIGHT
    top: int = TOP

    def x(self, value: float) -> float:
        low, high = self.xlim
        return LEFT + (value - low) / (high - low) * (WIDTH - LEFT - RIGHT)

    def y(self, value: float) -> float:
        low, high = self.ylim
        return self.height - BOTTOM - (value - low) / (high - low) * (self.height - self.top - BOTTOM)

    def _path(self, xs: Sequence[float], ys: Sequence[float]) -> str:
        points = [f"{_number(self.x(a))} {_number(self.y(b))}" for a, b in zip(xs, ys, strict=True)]
        return "M" + " L".join(points)

    def line(
        self,
        xs: Sequence[float],
        ys: Sequence[float],
        *,
        color: str,
        width: float = 1.2,
        dashed: bool = False,
        markers: bool = False,
        label: str | None = None,
    ) -> None:
        """A polyline through the points (and a dot at each with ``markers``)."""
        if not xs:
            return
        dash = ' stroke-dasharray="2 3"' if dashed else ""
        style = f'fill="none" stroke="{color}" stroke-width="{width}"{dash} stroke-linejoin="round"'
        self.marks.append(f'<path d="{self._path(xs, ys)}" {style}/>')
        if markers:
            self.marks += [
                f'<circle cx="{_number(self.x(a))}" cy="{_number(self.y(b))}" r="2.6" fill="{color}"/>'
                for a, b in zip(xs, ys, strict=True)
            ]
        if label is not None:
            self.legend.append((label, f'stroke="{color}" stroke-width="{max(width, 1.5)}"{dash}'))

    def band(self, xs: Sequence[float], lows: Sequence[float], highs: Sequence[float], *, color: str) -> None:
        """A lightly filled band between ``lows`` and ``highs`` over ``xs``."""
        if not xs:
            return
        outline = self._path([*xs, *reversed(xs)], [*highs, *reversed(lows)])
        self.marks.append(f'<path class="band" d="{outline} Z" fill="{color}" fill-opacity="0.12" stroke="none"/>')

    def steps(self, edges: Sequence[float], values: Sequence[float], *, color: str, label: str) -> None:
        """A histogram: ``values[i]`` over ``[edges[i], edges[i + 1])``, filled lightly and outlined."""
        xs, ys = [edges[0]], [0.0]
        for i, value in enumerate(values):
            xs += [edges[i], edges[i + 1]]
            ys += [value, value]
        xs.append(edges[-1])
        ys.append(0.0)
        self.marks.append(f'<path d="{self._path(xs, ys)} Z" fill="{color}" fill-opacity="0.3" stroke="none"/>')
        self.line(xs, ys, color=color, label=label)

    def bars(self, lows: Sequence[float], highs: Sequence[float], values: Sequence[float], *, color: str) -> None:
        """A bar over each ``[lows[i], highs[i]]`` of height ``values[i]``, its value written above it."""
        base = self.y(self.ylim[0])
        for low, high, value in zip(lows, highs, values, strict=True):
            x, top = self.x(low) + 1, self.y(value)
            self.marks.append(
                f'<rect x="{_number(x)}" y="{_number(top)}" width="{_number(self.x(high) - x - 1)}" '
                f'height="{_number(base - top)}" fill="{color}" fill-opacity="0.5"/>'
                f'<text class="count" x="{_number((x + self.x(high)) / 2)}" y="{_number(top - 3)}" text-anchor="middle">'
                f"{count_text(value)}</text>"
            )

    def hline(self, value: float, *, color: str = "grey") -> None:
        """A dotted horizontal line across the chart."""
        self.line(list(self.xlim), [value, value], color=color, width=0.8, dashed=True)

    def _frame(self) -> list[str]:
        parts = []
        for tick in nice_ticks(*self.xlim):
            x = _number(self.x(tick))
            parts.append(f'<path d="M{x} {self.top} V{self.height - BOTTOM}" {_GRID}/>')
            parts.append(
                f'<text x="{x}" y="{self.height - BOTTOM + 16}" text-anchor="middle">{_tick_label(tick)}</text>'
            )
        for tick in nice_ticks(*self.ylim):
            y = _number(self.y(tick))
            parts.append(f'<path d="M{LEFT} {y} H{WIDTH - RIGHT}" {_GRID}/>')
            parts.append(f'<text x="{LEFT - 6}" y="{y}" dy="0.32em" text-anchor="end">{_tick_label(tick)}</text>')
        parts.append(
            f'<path d="M{LEFT} {self.top} V{self.height - BOTTOM} H{WIDTH - RIGHT}" fill="none" stroke="#52525b"/>'
        )
        middle_x, middle_y = (LEFT + WIDTH - RIGHT) / 2, (self.top + self.height - BOTTOM) / 2
        parts.append(f'<text x="{middle_x}" y="{self.height - 12}" text-anchor="middle">{escape(self.xlabel)}</text>')
        parts.append(
            f'<text transform="translate(16 {middle_y}) rotate(-90)" text-anchor="middle">{escape(self.ylabel)}</text>'
        )
        if self.title:
            parts.append(
                f'<text x="{middle_x}" y="20" text-anchor="middle" font-size="13" font-weight="600">'
                f"{escape(self.title)}</text>"
            )
        return parts

    def _legend(self, corner: str) -> list[str]:
        if not self.legend:
            return []
        room = int((WIDTH - LEFT - RIGHT - 16 - 30) / _CHAR)
        labels = [fit(label, room) for label, _ in self.legend]
        width = 30 + _CHAR * max(len(label) for label in labels)
        height = 14 * len(self.legend) + 6
        left = LEFT + 8 if "left" in corner else WIDTH - RIGHT - width - 4
        top = self.top + 6 if "upper" in corner else self.height - BOTTOM - height - 6
        parts = [f'<rect x="{left}" y="{top}" width="{width}" height="{height}" fill="white" fill-opacity="0.85"/>']
        for i, ((label, stroke), shown) in enumerate(zip(self.legend, labels, strict=True)):
            y = top + 10 + 14 * i
            parts.append(f'<path d="M{left + 4} {y} h18" {stroke}/>')
            parts.append(
                f'<text x="{left + 26}" y="{y}" dy="0.32em" font-size="10">{escape(shown)}'
                f"<title>{escape(label)}</title></text>"
            )
        return parts

    def body(self, legend: str = "lower right") -> str:
        """The chart's marks, axes and legend (in the ``legend`` corner: "upper left"...), without the ``<svg>``."""
        return "".join([*self._frame(), *self.marks, *self._legend(legend)])

    def svg(self, legend: str = "lower right") -> str:
        """The chart as an ``<svg>`` element; the legend in the ``legend`` corner ("upper left"...)."""
        return stacked([(self, legend)])


def stacked(charts: Sequence[tuple[Axes, str]]) -> str:
    """Charts one above the other in one ``<svg>``, each with its legend's corner.

    Examples
    --------
    >>> stacked([(Axes("a", "x", "y"), "upper left"), (Axes("", "x", "n", height=150), "")]).count('viewBox="0 0 540 590"')
    1
    """
    parts, offset = [], 0
    for axes, legend in charts:
        parts.append(f'<g transform="translate(0 {offset})">{axes.body(legend)}</g>')
        offset += axes.height
    return (
        f'<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 {WIDTH} {offset}" width="{WIDTH}" '
        f'height="{offset}" font-size="11" {_FONT}>{"".join(parts)}</svg>'
    )


_BLUES = ((0xF7, 0xFB, 0xFF), (0x6B, 0xAE, 0xD6), (0x08, 0x30, 0x6B))  # ColorBrewer's Blues: ends and middle


def blues(share: float) -> str:
    """A colour from white (0) through mid blue (0.5) to dark blue (1), as a heatmap's cell.

    Examples
    --------
    >>> blues(0.0), blues(0.5), blues(1.0)
    ('#f7fbff', '#6baed6', '#08306b')
    """
    share = min(max(share, 0.0), 1.0)
    low, high = (_BLUES[0], _BLUES[1]) if share <= 0.5 else (_BLUES[1], _BLUES[2])
    t = share * 2 if share <= 0.5 else share * 2 - 1
    return "#" + "".join(f"{round(a + (b - a) * t):02x}" for a, b in zip(low, high, strict=True))


_HEAT_CELL, _HEAT_ROW, _HEAT_CHAR = 54, 40, 6.6  # a cell's width and height; a character of the 11 px font
_NAME_ROOM = 20  # characters of a class name shown (its middle cut, the whole name as its tooltip)


def heatmap(title: str, classes: Sequence[str], counts: Sequence[Sequence[float]]) -> str:
    """One confusion matrix as an SVG drawn at its own size (never scaled down, its text 11 px or more): per
    cell the share of its row (the true class) and beneath it the count (a sum of weights with weights).

    Examples
    --------
    >>> svg = heatmap("all", ["a", "b"], [[9.0, 1.0], [2.0, 8.0]])
    >>> svg.count("<rect"), ">0.90<" in svg, ">9<" in svg
    (4, True, True)
    """
    k = len(classes)
    names = [fit(str(name), _NAME_ROOM) for name in classes]
    longest = max((len(name) for name in names), default=1)
    left, top = 14 + _HEAT_CHAR * longest, 30
    bottom = 34 + 0.72 * _HEAT_CHAR * longest  # the column names, at 45 degrees, and the axes' caption
    width = math.ceil(max(left + k * _HEAT_CELL + 12, 260))  # whole pixels: drawn at scale 1
    height = math.ceil(top + k * _HEAT_ROW + bottom)
    parts = [f'<text x="{left}" y="{top - 12}" font-size="13" font-weight="600">{escape(fit(title, 40))}</text>']
    for i, row in enumerate(counts):
        total = sum(row)
        for j, count in enumerate(row):
            share = count / total if total else 0.0
            x, y = left + j * _HEAT_CELL, top + i * _HEAT_ROW
            ink = "white" if share > 0.55 else "#1d1d1f"
            parts.append(f'<rect x="{x}" y="{y}" width="{_HEAT_CELL}" height="{_HEAT_ROW}" fill="{blues(share)}"/>')
            middle = x + _HEAT_CELL / 2
            parts.append(
                f'<text x="{middle}" y="{y + 17}" text-anchor="middle" font-size="12" font-weight="600" '
                f'fill="{ink}">{share:.2f}</text>'
                f'<text class="count" x="{middle}" y="{y + 32}" text-anchor="middle" font-size="11" fill="{ink}">'
                f"{count_text(count)}</text>"
            )
    for j, (name, full) in enumerate(zip(names, classes, strict=True)):
        x, y = left + j * _HEAT_CELL + _HEAT_CELL / 2, top + k * _HEAT_ROW + 10
        parts.append(
            f'<text transform="translate({x} {y}) rotate(-45)" text-anchor="end">{escape(name)}'
            f"<title>{escape(str(full))}</title></text>"
        )
    for i, (name, full) in enumerate(zip(names, classes, strict=True)):
        y = top + i * _HEAT_ROW + _HEAT_ROW / 2
        parts.append(
            f'<text x="{left - 6}" y="{y}" dy="0.32em" text-anchor="end">{escape(name)}'
            f"<title>{escape(str(full))}</title></text>"
        )
    parts.append(f'<text x="4" y="{height - 8}">Rows: true class; columns: predicted class</text>')
    return (
        f'<svg xmlns="http://www.w3.org/2000/svg" class="heatmap" viewBox="0 0 {width} {height}" width="{width}" '
        f'height="{height}" font-size="11" {_FONT}>{"".join(parts)}</svg>'
    )
