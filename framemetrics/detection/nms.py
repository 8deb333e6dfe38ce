"""Greedy non-maximum suppression inside the engine: :func:`nms`.

Greedy NMS keeps a box unless a kept box of higher score (ties: lower id)
overlaps it above the threshold. Per partition (image and category by
default) the boxes and their *conflicts* (pairs whose IoU is above the
threshold) form a graph whose edges point from the earlier box to the later;
a box's fate is decided once its earlier neighbours' are:

- kept when it has no earlier neighbour, or when all of them are suppressed;
- suppressed as soon as one earlier neighbour is kept.

Each round of a fixpoint applies these two rules to every undecided box at
once (each conflict is two rows, one per end, so that a window over a box's
rows sees its neighbours and a window over the conflict's two rows passes the
decisions across); a conflict leaves the rounds once its later box is
decided. The greedy result is the only assignment that satisfies both rules,
so the fixpoint is exact; it takes as many rounds as the longest chain of
boxes that wait for each other: a handful on real detections, ``n`` on ``n``
boxes each overlapping the next (whose cost then grows as ``n**2``).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence

import polars as pl

from framemetrics.columns import as_tuple
from framemetrics.core.detection import Box, coco_iou
from framemetrics.core.frame import Frame
from framemetrics.detection.boxes import box_columns, canonical_boxes, check_box_format, check_iou_threshold
from framemetrics.detection.checks import Checks
from framemetrics.detection.engines import DetectionEngine, detection_engine
from framemetrics.detection.tables import box_checks, by_names
from framemetrics.sources import Source

__all__ = ["nms", "nms_boxes", "nms_kept"]

_KEPT, _SUPPRESSED, _UNDECIDED = 1, 0, 2


def _conflicts(boxes: Frame, iou_threshold: float) -> Frame:
    """``part, later, earlier``: pairs of a partition whose IoU is above ``iou_threshold``."""
    ns = boxes.ns
    c = ns.col
    earlier = boxes.select({
        "part": c("part"), "e_id": c("did"), "e_score": c("score"),
        "ex": c("dx"), "ey": c("dy"), "ew": c("dw"), "eh": c("dh"),
    })  # fmt: skip
    pairs = boxes.join(earlier, ["part"])
    before = ns.any(c("e_score") > c("score"), ns.all(ns.eq(c("e_score"), c("score")), c("e_id") < c("did")))
    pairs = pairs.filter(before)
    iou = coco_iou(ns, Box(c("dx"), c("dy"), c("dw"), c("dh")), Box(c("ex"), c("ey"), c("ew"), c("eh")))
    pairs = pairs.with_columns(iou=iou).filter(c("iou") > ns.lit(float(iou_threshold)))
    return pairs.select({"part": c("part"), "later": c("did"), "earlier": c("e_id")}).named("fm_conflicts")


def _step(previous: Frame) -> Frame:
    """Decide every box whose earlier neighbours allow it; pass the decisions along each conflict."""
    ns = previous.ns
    c = ns.col
    incoming = ns.eq(c("incoming"), 1)
    kept_before = ns.window("max", ns.flag(ns.all(incoming, ns.eq(c("other"), _KEPT))), ["part", "box"])
    open_before = ns.window("max", ns.flag(ns.all(incoming, ns.eq(c("other"), _UNDECIDED))), ["part", "box"])
    rows = previous.with_columns(kept_before=kept_before, open_before=open_before)
    decided = ns.to_int(
        ns.when(ns.ne(c("state"), _UNDECIDED), c("state"))
        .when(ns.eq(c("kept_before"), 1), ns.lit(_SUPPRESSED))
        .when(ns.eq(c("open_before"), 0), ns.lit(_KEPT))
        .otherwise(ns.lit(_UNDECIDED))
    )
    rows = rows.with_columns(decided=decided)
    partner = ns.window("sum", c("decided"), ["part", "later", "earlier"]) - c("decided")
    later_state = ns.when(incoming, c("state")).otherwise(c("other"))
    rows = rows.with_columns(partner=partner).filter(ns.eq(later_state, _UNDECIDED))
    return rows.with_columns(state=c("decided"), other=ns.to_int(c("partner")), fm_round=c("fm_round") + 1).keep(
        *previous.columns
    )


def nms_kept(boxes: Frame, iou_threshold: float) -> Frame:
    """``did`` of the boxes greedy NMS keeps (``boxes``: ``part, did, score, dx, dy, dw, dh``)."""
    ns = boxes.ns
    c = ns.col
    conflicts = _conflicts(boxes, iou_threshold)
    waiting = conflicts.aggregate(["part", "later"], {}).select(
        {"part": c("part"), "box": c("later"), "waits": ns.lit(1)}
    )
    state = ns.to_int(ns.when(ns.is_null(c("waits")), ns.lit(_KEPT)).otherwise(ns.lit(_UNDECIDED)))
    states = boxes.select({"part": c("part"), "box": c("did")}).join(waiting, ["part", "box"], "left")
    states = states.select({"part": c("part"), "box": c("box"), "state": state}).named("fm_first_states")
    ends = [("later", "earlier", 1), ("earlier", "later", 0)]
    rows = None
    for own, far, incoming in ends:
        end = conflicts.select({
            "part": c("part"), "later": c("later"), "earlier": c("earlier"), "box": c(own), "far": c(far),
            "incoming": ns.lit(incoming),
        }).join(states, ["part", "box"]).join(
            states.select({"part": c("part"), "far": c("box"), "other": c("state")}), ["part", "far"]
        )  # fmt: skip
        rows = end if rows is None else rows.concat(end)
    start = rows.keep("part", "later", "earlier", "box", "incoming", "state", "other").with_columns(fm_round=ns.lit(0))
    rounds = start.fixpoint(_step).filter(ns.eq(c("incoming"), 1))
    last = rounds.with_columns(last=ns.window("max", c("fm_round"), ["part", "box"]))
    final = last.filter(ns.eq(c("fm_round"), c("last"))).aggregate(["part", "box"], {"state": ns.min(c("state"))})
    decided = states.join(
        final.select({"part": c("part"), "box": c("box"), "final": c("state")}), ["part", "box"], "left"
    )
    kept = decided.filter(ns.eq(ns.coalesce(c("final"), c("state")), _KEPT))
    return kept.select({"did": c("box")}).named("fm_kept")


def nms(
    dt: Source,
    *,
    iou_threshold: float = 0.5,
    by: str | Sequence[str] | None = ("image_id", "category_id"),
    score_threshold: float | None = None,
    box_format: str = "xywh",
    engine: str = "polars",
    con: object = None,
    spark: object = None,
) -> pl.DataFrame:
    """Greedy non-maximum suppression per partition, in the engine: the rows kept, every column kept.

    Parameters
    ----------
    dt : frame, Arrow table, Parquet/CSV path or DuckDB table name
        One row per box: ``id`` (unique), the box, ``score`` and the ``by``
        columns; other columns are carried along.
    iou_threshold : float
        A box is suppressed when its IoU with a kept box of higher score
        is strictly above this.
    by : column name or names
        The partitions boxes compete in (``None``: all boxes together).
    score_threshold : float, optional
        Keep only boxes with ``score > score_threshold`` first (detectron2,
        mmdetection).
    box_format : {"xywh", "xyxy"}
    engine, con, spark
        As :func:`framemetrics.coco_evaluate` (Spark collects the kept rows).

    Returns
    -------
    pl.DataFrame
        The kept rows of ``dt``, all its columns, by score descending
        (ties by id) within the partitions.

    Notes
    -----
    The IoU is :func:`framemetrics.box_iou` (pycocotools' ``bbIou``, no
    +1). Boxes are taken by score, ties by lower id; equal to a plain greedy
    loop and to ``torchvision.ops.batched_nms`` on boxes whose scores are
    distinct.

    Examples
    --------
    >>> dt = pl.DataFrame({"image_id": [1, 1, 1], "category_id": [1, 1, 1], "id": [1, 2, 3],
    ...                    "x": [0.0, 1.0, 20.0], "y": [0.0, 0.0, 0.0], "w": [10.0, 10.0, 5.0],
    ...                    "h": [10.0, 10.0, 5.0], "score": [0.9, 0.8, 0.7]})
    >>> nms(dt, iou_threshold=0.5)["id"].to_list()
    [1, 3]
    """
    check_box_format(box_format)
    partition = as_tuple(by)
    runner = detection_engine(engine, con, spark)
    try:
        carried = {f"fm_col_{i}": name for i, name in enumerate(runner.columns(dt))}
        kept, boxes = nms_boxes(runner, dt, iou_threshold, partition, score_threshold, box_format, carried)
        ns = boxes.ns
        c = ns.col
        checks = Checks()
        box_checks(checks, boxes, "d", "detections", box_format, "did")
        checks.domains(boxes, "detections", {"score": (c("score"), "finite")})
        checks.raise_for(runner.run(checks.frame()).row(0, named=True))
        rows = boxes.join(kept, ["did"])
        rows = rows.with_columns(fm_order=ns.row_number([], [c("part"), -c("score"), c("did")]))
        result = runner.run(rows.keep("fm_order", *carried))
        return result.sort("fm_order").drop("fm_order").rename(carried)
    finally:
        runner.close()


def nms_boxes(
    engine: DetectionEngine,
    dt: Source,
    iou_threshold: float,
    by: tuple[str, ...],
    score_threshold: float | None,
    box_format: str,
    carried: Mapping[str, str] | None = None,
) -> tuple[Frame, Frame]:
    """The kept ``did`` (the stage ``fm_kept``) and the boxes ``part, did, score, d*`` (and ``carried`` columns)."""
    check_iou_threshold(iou_threshold)
    segment_names = by_names(by)
    carried = dict(carried or {})
    frame = engine.frame(
        dt, {"did": "id", "score": "score", **box_columns("d", box_format), **segment_names, **carried}, "detections"
    )
    ns = frame.ns
    c = ns.col
    kinds = {"did": "id", "score": "float", **dict.fromkeys([*segment_names, *carried], "as is")}
    boxes = canonical_boxes(frame, "d", box_format, kinds)
    boxes = boxes.with_columns(part=ns.window("min", c("did"), list(segment_names)) if by else ns.lit(0))
    boxes = boxes.named("fm_boxes")
    competing = boxes if score_threshold is None else boxes.filter(c("score") > ns.lit(float(score_threshold)))
    return nms_kept(competing.keep("part", "did", "score", "dx", "dy", "dw", "dh"), iou_threshold), boxes
