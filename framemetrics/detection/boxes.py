"""Boxes as the stages read them, and :func:`box_iou` as a Polars expression.

Users' tables name their columns COCO's way (``image_id, category_id, id,
x, y, w, h, score, area, iscrowd``) or, with ``box_format="xyxy"``,
``x1, y1, x2, y2``. The stages read a canonical frame: ids as 64-bit
integers, coordinates and scores as doubles, the box as ``x, y, w, h``
(from corners ``w = x2 - x1``, ``h = y2 - y1``).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

import polars as pl

from framemetrics.compilers.polars.namespace import POLARS
from framemetrics.core.detection import Box, coco_iou
from framemetrics.core.errors import ArgumentError
from framemetrics.core.frame import Frame

__all__ = ["BOX_COLUMNS", "box_columns", "box_iou", "canonical_boxes", "check_box_format", "check_iou_threshold"]

BOX_COLUMNS = {"xywh": ("x", "y", "w", "h"), "xyxy": ("x1", "y1", "x2", "y2")}
"""The box columns read for each ``box_format``."""


def check_box_format(box_format: str) -> str:
    """``box_format`` if it is ``"xywh"`` or ``"xyxy"``; an :class:`ArgumentError` otherwise."""
    if box_format not in BOX_COLUMNS:
        raise ArgumentError(f"box_format must be 'xywh' or 'xyxy', got {box_format!r}")
    return box_format


def check_iou_threshold(iou_threshold: float) -> float:
    """``iou_threshold`` as a float if it is in [0, 1]; an :class:`ArgumentError` otherwise.

    Examples
    --------
    >>> check_iou_threshold(1)
    1.0
    >>> check_iou_threshold(1.5)
    Traceback (most recent call last):
    ...
    framemetrics.core.errors.ArgumentError: iou_threshold must be in [0, 1], got 1.5
    """
    if not 0.0 <= float(iou_threshold) <= 1.0:
        raise ArgumentError(f"iou_threshold must be in [0, 1], got {iou_threshold!r}")
    return float(iou_threshold)


def box_columns(prefix: str, box_format: str) -> dict[str, str]:
    """``{stage column: user column}`` of a box: ``prefix + "x1"`` -> ``"x1"``, ...

    Examples
    --------
    >>> box_columns("d", "xywh")
    {'dx': 'x', 'dy': 'y', 'dw': 'w', 'dh': 'h'}
    """
    return {prefix + c: c for c in BOX_COLUMNS[check_box_format(box_format)]}


def canonical_boxes(
    frame: Frame, prefix: str, box_format: str, keep: Mapping[str, str], corners: bool = False
) -> Frame:
    """``frame`` with the box as doubles ``<prefix>x, <prefix>y, <prefix>w, <prefix>h`` and ``keep`` typed.

    ``keep``: other columns and their kind (``"id"``: 64-bit integer,
    ``"float"``: double, ``"as is"``), where ``frame`` has them.
    ``corners`` adds ``<prefix>x2, <prefix>y2``: the file's own values
    with ``"xyxy"``, ``x + w`` and ``y + h`` with ``"xywh"``.
    """
    ns = frame.ns
    c, p = ns.col, prefix
    first, second, third, fourth = (ns.to_float(c(p + n)) for n in BOX_COLUMNS[box_format])
    box = _as_box(first, second, third, fourth, box_format)
    kinds = {"id": ns.to_int, "float": ns.to_float, "as is": lambda x: x}
    columns = {n: kinds[kind](c(n)) for n, kind in keep.items() if n in frame.columns}
    columns |= {p + "x": box.x, p + "y": box.y, p + "w": box.w, p + "h": box.h}
    if corners:
        xyxy = box_format == "xyxy"
        columns |= {p + "x2": third if xyxy else box.x + box.w, p + "y2": fourth if xyxy else box.y + box.h}
    return frame.select(columns)


def _as_box(first: Any, second: Any, third: Any, fourth: Any, box_format: str) -> Box:
    """The four box columns in ``box_format`` as ``x, y, w, h``."""
    if box_format == "xyxy":
        return Box(first, second, third - first, fourth - second)
    return Box(first, second, third, fourth)


def box_iou(
    detection: tuple[str | pl.Expr, ...],
    ground_truth: tuple[str | pl.Expr, ...],
    *,
    iscrowd: str | pl.Expr | None = None,
    box_format: str = "xywh",
) -> pl.Expr:
    """The IoU of two boxes per row, as pycocotools' ``bbIou`` computes it, as a ``pl.Expr``.

    Parameters
    ----------
    detection, ground_truth : tuple of four column names or expressions
        ``(x, y, w, h)``, or ``(x1, y1, x2, y2)`` with ``box_format="xyxy"``.
    iscrowd : column name or expression, optional
        Where true, the union is the detection's area alone (a crowd region,
        as pycocotools).
    box_format : {"xywh", "xyxy"}

    Returns
    -------
    pl.Expr
        A Float64 expression named ``iou``.

    Notes
    -----
    ``iw = min(dx + dw, gx + gw) - max(dx, gx)``, ``ih`` likewise,
    ``iou = iw * ih / (dw * dh + gw * gh - iw * ih)``; 0 where the boxes do
    not overlap (``iw <= 0`` or ``ih <= 0``), so also where a box has no
    area. No +1 pixel. With corners, ``w = x2 - x1``: the same value up to
    rounding (pycocotools sees ``w`` and ``h``).

    Examples
    --------
    >>> df = pl.DataFrame({"x1": [0.0], "y1": [0.0], "w1": [2.0], "h1": [2.0],
    ...                    "x2": [1.0], "y2": [0.0], "w2": [2.0], "h2": [2.0]})
    >>> df.select(box_iou(("x1", "y1", "w1", "h1"), ("x2", "y2", "w2", "h2"))).item()
    0.3333333333333333
    """
    check_box_format(box_format)
    d, g = (_box(b, box_format) for b in (detection, ground_truth))
    crowd = None if iscrowd is None else _expr(iscrowd).cast(pl.Boolean)
    return coco_iou(POLARS, d, g, crowd).alias("iou")


def _expr(column: str | pl.Expr) -> pl.Expr:
    return pl.col(column) if isinstance(column, str) else column


def _box(columns: tuple[str | pl.Expr, ...], box_format: str) -> Box:
    if len(columns) != 4:
        raise ArgumentError(f"a box is four columns, got {len(columns)}")
    return _as_box(*(_expr(c).cast(pl.Float64) for c in columns), box_format)
