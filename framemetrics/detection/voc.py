"""Pascal VOC average precision per segment and category: :func:`voc_evaluate`, as py-faster-rcnn's ``voc_eval``.

``voc_eval`` needs no fixpoint: a detection looks only at its best
overlapping ground truth (``jmax``, the first of equal overlaps), so the
true positive of a ground truth is the first detection, in score order,
whose best it is. As stages:

1. pairs of a detection and a ground truth of its image and category, their
   pixel-inclusive overlap; per detection the best (highest overlap, then
   lowest ground-truth id);
2. a detection is *difficult* (neither true nor false positive) when its
   best overlap is above the threshold and that ground truth is difficult;
   a true positive when it is above, not difficult, and the first in score
   order (ties by id) to take that ground truth; otherwise a false positive;
3. in score order per segment and category, the ``k``-th true positive has
   ``fp = n - k`` false positives up to it (``n`` its position among the
   detections that are not difficult); precision ``k / max(k + fp, eps)``,
   recall ``k / npos`` (``npos``: ground truths not difficult), the
   envelope from the end;
4. all-point AP: ``sum_k (k / npos - (k - 1) / npos) * envelope_k``;
   11-point AP: ``sum_t envelope(k_t) / 11`` over NumPy's
   ``arange(0, 1.1, 0.1)``, ``k_t`` the least ``k`` whose recall reaches
   ``t`` (0 where none does).
"""

from __future__ import annotations

from collections.abc import Sequence

import polars as pl

from framemetrics.columns import as_tuple
from framemetrics.core.detection import VOC_07_RECALLS, Corners, first_rank_reaching, voc_iou, voc_precision
from framemetrics.core.frame import Frame
from framemetrics.detection.boxes import check_box_format, check_iou_threshold
from framemetrics.detection.engines import DetectionEngine
from framemetrics.detection.tables import Build, DetectionTables, evaluate_with, open_tables
from framemetrics.sources import Source

__all__ = ["voc_build", "voc_evaluate", "voc_true_positives"]


def _order(f: Frame) -> list:
    """``voc_eval``'s order of a category's detections: score descending (ties by id, a stable sort)."""
    ns = f.ns
    return [-ns.col("score"), ns.col("did")]


def voc_true_positives(tables: DetectionTables, iou_threshold: float) -> Frame:
    """``seg, category_id, k, precision, envelope``: the true positives of ``voc_eval`` in score order."""
    ns = tables.detections.ns
    c = ns.col
    detections = tables.detections
    pairs = detections.keep("image_id", "category_id", "did", "dx", "dy", "dx2", "dy2").join(
        tables.ground_truths.keep("image_id", "category_id", "gid", "gx", "gy", "gx2", "gy2", "difficult"),
        ["image_id", "category_id"],
    )
    d, g = Corners(c("dx"), c("dy"), c("dx2"), c("dy2")), Corners(c("gx"), c("gy"), c("gx2"), c("gy2"))
    pairs = pairs.with_columns(overlap=voc_iou(ns, d, g))
    best = pairs.filter(ns.eq(ns.row_number(["did"], [-c("overlap"), c("gid")]), 1))
    above = best.filter(c("overlap") > ns.lit(float(iou_threshold))).keep("did", "gid", "difficult")
    rows = detections.keep("seg", "category_id", "did", "score").join(above, ["did"], "left")  # ids are unique
    rows = rows.filter(ns.any(ns.is_null(c("difficult")), ns.eq(c("difficult"), 0)))
    rows = rows.with_columns(n=ns.row_number(["seg", "category_id"], _order(rows)))
    first = ns.eq(ns.row_number(["seg", "category_id", "gid"], _order(rows)), 1)
    rows = rows.filter(ns.all(ns.not_(ns.is_null(c("gid"))), first))
    rows = rows.with_columns(k=ns.row_number(["seg", "category_id"], _order(rows)))
    rows = rows.with_columns(precision=voc_precision(ns, c("k"), c("n") - c("k")))
    rows = rows.with_columns(envelope=ns.window("max", c("precision"), ["seg", "category_id"], [-c("k")]))
    return rows.keep("seg", "category_id", "k", "precision", "envelope").named("fm_voc_true_positives")


def _average_precision(tables: DetectionTables, true_pos: Frame, use_07_metric: bool) -> Frame:
    """``seg, category_id, ap`` for every segment and category, null where ``npos`` is 0."""
    ns = true_pos.ns
    c = ns.col
    counted = ns.count_where(ns.eq(c("difficult"), 0))
    npos = tables.ground_truths.aggregate(["seg", "category_id"], {"npos": counted}).filter(c("npos") > 0)
    rows = true_pos.join(npos, ["seg", "category_id"])
    if use_07_metric:
        points = npos.aggregate(["npos"], {}).join(rows.constant({"recall_point": list(VOC_07_RECALLS)}), [], "cross")
        reached = ns.greatest(first_rank_reaching(ns, c("recall_point"), c("npos")), ns.lit(1))
        readers = points.with_columns(k=reached).aggregate(["npos", "k"], {"readers": ns.count_rows()})
        terms = rows.join(readers, ["npos", "k"]).select({
            "seg": c("seg"), "category_id": c("category_id"),
            "term": c("envelope") / ns.lit(11.0) * ns.to_float(c("readers")),
        })  # fmt: skip
    else:
        total = ns.to_float(c("npos"))
        step = ns.to_float(c("k")) / total - ns.to_float(c("k") - 1) / total
        terms = rows.select({"seg": c("seg"), "category_id": c("category_id"), "term": step * c("envelope")})
    sums = terms.aggregate(["seg", "category_id"], {"ap": ns.sum(c("term"))})
    scored = npos.join(sums, ["seg", "category_id"], "left")
    return scored.select({
        "seg": c("seg"), "category_id": c("category_id"), "ap": ns.coalesce(c("ap"), ns.lit(0.0)),
    })  # fmt: skip


def voc_evaluate(
    gt: Source,
    dt: Source,
    *,
    iou_threshold: float = 0.5,
    use_07_metric: bool = False,
    images: Source | None = None,
    by: str | Sequence[str] | None = None,
    box_format: str = "xywh",
    engine: str = "polars",
    con: object = None,
    spark: object = None,
) -> pl.DataFrame:
    """Pascal VOC average precision per segment and category, as py-faster-rcnn's ``voc_eval``.

    Parameters
    ----------
    gt : frame, Arrow table, Parquet/CSV path or DuckDB table name
        Ground truth: ``image_id, category_id, id``, the box and
        ``difficult`` (0 where absent).
    dt : same kinds
        Detections: ``image_id, category_id, id``, the box and ``score``.
    iou_threshold : float
        A detection matches when its overlap is strictly above it.
    use_07_metric : bool
        VOC2007's 11-point interpolation instead of the area under the
        envelope.
    images, by, box_format, engine, con, spark
        As :func:`framemetrics.coco_evaluate`.

    Returns
    -------
    pl.DataFrame
        The ``by`` columns, ``category_id``, ``ap`` (Float64): one row per
        segment and category of ``gt`` or ``dt``; ``ap`` is 0.0 for a category
        with ground truth and no detection, null where no ground truth is
        not difficult.

    Notes
    -----
    Overlap on pixel corners, ``(min(x2) - max(x1) + 1) * (min(y2) - max(y1)
    + 1) / union``, both sides +1; with ``box_format="xywh"`` the corners are
    ``x + w``, ``y + h``. Precision ``tp / max(tp + fp, eps)``, recall
    ``tp / npos``. Detections are taken in score order with ties by id (a
    stable sort; ``voc_eval``'s ``argsort`` leaves the order of ties to
    NumPy's quicksort).

    Examples
    --------
    >>> gt = pl.DataFrame({"image_id": [1, 1], "category_id": [1, 1], "id": [1, 2],
    ...                    "x1": [0.0, 50.0], "y1": [0.0, 50.0], "x2": [9.0, 59.0], "y2": [9.0, 59.0]})
    >>> dt = gt.with_columns(score=pl.Series([0.9, 0.2]), x1=pl.Series([0.0, 20.0]))
    >>> voc_evaluate(gt, dt, box_format="xyxy").rows()
    [(1, 0.5)]
    """
    check_box_format(box_format)
    check_iou_threshold(iou_threshold)
    return evaluate_with(
        engine, con, voc_build(gt, dt, images, as_tuple(by), box_format, iou_threshold, use_07_metric), spark
    )


def voc_build(
    gt: Source,
    dt: Source,
    images: Source | None,
    by: tuple[str, ...],
    box_format: str,
    iou_threshold: float,
    use_07_metric: bool,
) -> Build:
    """The computation of :func:`voc_evaluate` on any engine."""

    def build(engine: DetectionEngine) -> tuple[Frame, DetectionTables, list[str]]:
        tables = open_tables(engine, gt, dt, images, by, box_format, {"difficult": ("difficult", "id")}, True)
        ns = tables.ground_truths.ns
        c = ns.col
        if "difficult" in tables.ground_truths.columns:
            tables.checks.flags(tables.ground_truths, "ground truth", {"difficult": c("difficult")})
        else:
            tables.ground_truths = tables.ground_truths.with_columns(difficult=ns.lit(0))
        true_pos = voc_true_positives(tables, float(iou_threshold))
        ap = _average_precision(tables, true_pos, use_07_metric)
        base = tables.segments.join(tables.categories, [], "cross")
        return base.join(ap, ["seg", "category_id"], "left"), tables, ["category_id"]

    return build
