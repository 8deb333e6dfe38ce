"""Object detection's constants and formulas, written once for every engine.

The formulas take a :class:`~framemetrics.core.namespace.Namespace` and its
expressions, as the metrics' do; the stages that read them are
:mod:`framemetrics.detection.coco_stages`, :mod:`framemetrics.detection.voc`
and :mod:`framemetrics.detection.nms`. Every constant is the double that
pycocotools (NumPy's ``linspace``) or ``voc_eval`` (NumPy's ``arange``)
computes, not its decimal name: ``IOU_THRESHOLDS[8]`` is
``0.8999999999999999``, ten recall thresholds are one ulp above theirs.
"""

from __future__ import annotations

from typing import Any, NamedTuple

from framemetrics.core.namespace import Namespace

__all__ = [
    "AREA_RANGES",
    "COCO_EPSILON",
    "COCO_STATS",
    "IOU_THRESHOLDS",
    "MAX_DETECTIONS",
    "RECALL_THRESHOLDS",
    "VOC_07_RECALLS",
    "Box",
    "CocoStat",
    "Corners",
    "coco_iou",
    "coco_precision",
    "first_rank_reaching",
    "voc_iou",
    "voc_precision",
]

Expr = Any


def _linspace(start: float, stop: float, num: int) -> tuple[float, ...]:
    """NumPy's ``linspace(start, stop, num)``: ``i * step + start``, the last value ``stop`` itself."""
    step = (stop - start) / (num - 1)
    return (*(i * step + start for i in range(num - 1)), stop)


IOU_THRESHOLDS = _linspace(0.5, 0.95, 10)
"""pycocotools' ``iouThrs``."""
RECALL_THRESHOLDS = _linspace(0.0, 1.0, 101)
"""pycocotools' ``recThrs``."""
AREA_RANGES = {"all": (0.0, 1e10), "small": (0.0, 32.0**2), "medium": (32.0**2, 96.0**2), "large": (96.0**2, 1e10)}
"""pycocotools' ``areaRng`` by ``areaRngLbl``: a box is in a range when ``low <= area <= high``."""
MAX_DETECTIONS = (1, 10, 100)
"""pycocotools' ``maxDets``: the detections kept per image and category, by score."""
COCO_EPSILON = 2.220446049250313e-16
"""``np.spacing(1)``, added to the denominator of pycocotools' precision."""
VOC_07_RECALLS = tuple(i * 0.1 for i in range(11))
"""``voc_eval``'s 11 recall points, NumPy's ``arange(0.0, 1.1, 0.1)``."""


class CocoStat(NamedTuple):
    """One of pycocotools' 12 ``stats``: average precision (``ap``) or recall, where it is read."""

    ap: bool
    area: str
    max_detections: int
    iou_threshold: float | None


COCO_STATS = {
    "map": CocoStat(True, "all", 100, None),
    "map_50": CocoStat(True, "all", 100, IOU_THRESHOLDS[0]),
    "map_75": CocoStat(True, "all", 100, IOU_THRESHOLDS[5]),
    "map_small": CocoStat(True, "small", 100, None),
    "map_medium": CocoStat(True, "medium", 100, None),
    "map_large": CocoStat(True, "large", 100, None),
    "mar_1": CocoStat(False, "all", 1, None),
    "mar_10": CocoStat(False, "all", 10, None),
    "mar_100": CocoStat(False, "all", 100, None),
    "mar_small": CocoStat(False, "small", 100, None),
    "mar_medium": CocoStat(False, "medium", 100, None),
    "mar_large": CocoStat(False, "large", 100, None),
}
"""pycocotools' ``summarize()`` in order, under torchmetrics' names."""


class Box(NamedTuple):
    """A box's four coordinates as expressions: COCO's ``x, y, w, h``."""

    x: Expr
    y: Expr
    w: Expr
    h: Expr


def coco_iou(ns: Namespace, d: Box, g: Box, crowd: Expr | None = None) -> Expr:
    """pycocotools' ``bbIou`` of a detection ``d`` and a ground truth ``g`` (``x, y, w, h``, no +1).

    ``iw = min(dx + dw, gx + gw) - max(dx, gx)``, ``ih`` likewise,
    ``iou = iw * ih / (dw * dh + gw * gh - iw * ih)``, and 0 where ``iw <= 0``
    or ``ih <= 0``; where ``crowd`` holds the union is the detection's area
    ``dw * dh``. The operations are pycocotools' own, in its order, so the
    doubles are the same, except where ``iw * ih`` underflows to 0 (sides
    below 1e-154): 0 here, NaN in pycocotools.

    Examples
    --------
    >>> import polars as pl
    >>> from framemetrics.compilers.polars.namespace import POLARS as ns
    >>> c = Box(*(pl.lit(v) for v in (0.0, 0.0, 2.0, 2.0)))
    >>> d = Box(*(pl.lit(v) for v in (1.0, 0.0, 2.0, 2.0)))
    >>> pl.select(coco_iou(ns, d, c)).item()
    0.3333333333333333
    """
    iw = ns.least(d.w + d.x, g.w + g.x) - ns.greatest(d.x, g.x)
    ih = ns.least(d.h + d.y, g.h + g.y) - ns.greatest(d.y, g.y)
    inter = iw * ih
    detection_area = d.w * d.h
    union = detection_area + g.w * g.h - inter
    if crowd is not None:
        union = ns.when(crowd, detection_area).otherwise(union)
    return ns.when(ns.any(iw <= 0, ih <= 0, inter <= 0), ns.lit(0.0)).otherwise(inter / union)


class Corners(NamedTuple):
    """A box's corners as expressions: ``x1, y1, x2, y2``, inclusive pixel coordinates (Pascal VOC)."""

    x1: Expr
    y1: Expr
    x2: Expr
    y2: Expr


def voc_iou(ns: Namespace, d: Corners, g: Corners) -> Expr:
    """``voc_eval``'s overlap of two boxes given by their pixel corners (+1 on each side's length).

    ``iw = max(min(dx2, gx2) - max(dx1, gx1) + 1, 0)``, ``ih`` likewise,
    ``iou = iw * ih / ((dx2 - dx1 + 1) * (dy2 - dy1 + 1) + (gx2 - gx1 + 1) * (gy2 - gy1 + 1) - iw * ih)``.

    Examples
    --------
    >>> import polars as pl
    >>> from framemetrics.compilers.polars.namespace import POLARS as ns
    >>> b = Corners(*(pl.lit(v) for v in (0.0, 0.0, 1.0, 1.0)))
    >>> pl.select(voc_iou(ns, b, b)).item()
    1.0
    """
    iw = ns.greatest(ns.least(g.x2, d.x2) - ns.greatest(g.x1, d.x1) + 1.0, ns.lit(0.0))
    ih = ns.greatest(ns.least(g.y2, d.y2) - ns.greatest(g.y1, d.y1) + 1.0, ns.lit(0.0))
    inter = iw * ih
    union = (d.x2 - d.x1 + 1.0) * (d.y2 - d.y1 + 1.0) + (g.x2 - g.x1 + 1.0) * (g.y2 - g.y1 + 1.0) - inter
    return inter / union


def coco_precision(ns: Namespace, tp: Expr, fp: Expr) -> Expr:
    """pycocotools' precision after ``tp`` true and ``fp`` false positives: ``tp / (fp + tp + spacing(1))``.

    Examples
    --------
    >>> from framemetrics.compilers.sql.namespace import SQL
    >>> coco_precision(SQL, SQL.col("tp"), SQL.col("fp")).sql()
    'CAST(tp AS DOUBLE) / (CAST(fp AS DOUBLE) + CAST(tp AS DOUBLE) + CAST(2.220446049250313e-16 AS DOUBLE))'
    """
    tp, fp = ns.to_float(tp), ns.to_float(fp)
    return tp / (fp + tp + ns.lit(COCO_EPSILON))


def voc_precision(ns: Namespace, tp: Expr, fp: Expr) -> Expr:
    """``voc_eval``'s precision: ``tp / max(tp + fp, eps)`` (``eps`` NumPy's float64 epsilon).

    Examples
    --------
    >>> from framemetrics.compilers.sql.namespace import SQL
    >>> voc_precision(SQL, SQL.col("tp"), SQL.col("fp")).sql()[:40]
    'CAST(tp AS DOUBLE) / GREATEST(CAST(tp AS'
    """
    tp, fp = ns.to_float(tp), ns.to_float(fp)
    return tp / ns.greatest(tp + fp, ns.lit(COCO_EPSILON))


def first_rank_reaching(ns: Namespace, threshold: Expr, total: Expr) -> Expr:
    """The least ``k >= 0`` with ``k / total >= threshold`` in doubles: where a recall threshold is read.

    NumPy's ``searchsorted(tp / total, threshold, "left")`` finds the first
    detection whose recall ``tp / total`` reaches the threshold; that is the
    ``k``-th true positive. ``ceil(threshold * total)`` is within one of it
    (one rounding apart), so the two neighbours are compared as NumPy does.

    Examples
    --------
    >>> import polars as pl
    >>> from framemetrics.compilers.polars.namespace import POLARS as ns
    >>> pl.select(first_rank_reaching(ns, pl.lit(0.35000000000000003), pl.lit(20))).item()
    8
    """
    total = ns.to_float(total)
    c = ns.ceil(threshold * total)
    below = c - 1.0
    return ns.to_int(
        ns.when(ns.all(below >= 0.0, below / total >= threshold), below)
        .when(c / total >= threshold, c)
        .otherwise(c + 1.0)
    )
