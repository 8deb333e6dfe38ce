"""COCO bbox evaluation per segment: :func:`coco_evaluate`, :func:`coco_precision_table`, :func:`coco_recall_table`."""

from __future__ import annotations

import functools
import inspect
from collections.abc import Callable, Sequence

import polars as pl

from framemetrics.columns import as_tuple
from framemetrics.core.detection import AREA_RANGES, COCO_STATS, IOU_THRESHOLDS, MAX_DETECTIONS, RECALL_THRESHOLDS
from framemetrics.core.frame import Frame
from framemetrics.detection import coco_stages as stages
from framemetrics.detection.boxes import check_box_format
from framemetrics.detection.engines import DetectionEngine
from framemetrics.detection.tables import Build, DetectionTables, by_columns, evaluate_with, open_tables
from framemetrics.sources import Source
from framemetrics.wrapping import bound_function

__all__ = ["coco_build", "coco_evaluate", "coco_precision_table", "coco_recall_table"]

_SUMMARY_COMBOS = (("all", 1), ("all", 10), ("all", 100), ("small", 100), ("medium", 100), ("large", 100))
_ALL_COMBOS = tuple((area, m) for area in AREA_RANGES for m in MAX_DETECTIONS)


def _coco_tables(
    engine: DetectionEngine, gt: Source, dt: Source, images: Source | None, by: tuple[str, ...], box_format: str
) -> DetectionTables:
    """The canonical tables, ``garea`` (``w * h`` without ``area``) and ``crowd`` (0 without ``iscrowd``) filled."""
    tables = open_tables(
        engine, gt, dt, images, by, box_format, {"garea": ("area", "float"), "crowd": ("iscrowd", "id")}
    )
    ground_truths = tables.ground_truths
    ns = ground_truths.ns
    c = ns.col
    if "garea" in ground_truths.columns:
        area = c("garea")
        tables.checks.domains(ground_truths, "ground truth", {"area": (area, "nonnegative")})
    else:
        ground_truths = ground_truths.with_columns(garea=c("gw") * c("gh"))
    if "crowd" in ground_truths.columns:
        tables.checks.flags(ground_truths, "ground truth", {"iscrowd": c("crowd")})
    else:
        ground_truths = ground_truths.with_columns(crowd=ns.lit(0))
    tables.ground_truths = ground_truths
    return tables


def _evaluated(tables: DetectionTables, combos: Sequence[tuple[str, int]]) -> tuple[Frame, Frame, Frame, Frame]:
    """The per-threshold rows, true positives, sequences and recall points of ``combos``."""
    detections = stages.ranked_detections(tables.detections)
    pairs = stages.scored_pairs(detections, tables.ground_truths)
    area_reps = stages.area_representatives(tables.ground_truths)
    threshold_reps = stages.threshold_representatives(pairs)
    candidates = stages.candidate_pairs(pairs, area_reps, threshold_reps)
    matched = stages.matches(candidates, area_reps, threshold_reps)
    combo_frame = stages.combo_grid(detections, combos)
    true_pos, sequences = stages.true_positives(detections, matched, combos)
    areas = stages.area_grid(detections, sorted({area for area, _ in combos}, key=list(AREA_RANGES).index))
    counts = stages.ground_truth_counts(tables.ground_truths, areas)
    points = stages.recall_points(counts)
    rows = stages.per_threshold(true_pos, counts, points, combo_frame)
    return rows, true_pos, sequences, points


def _stats(tables: DetectionTables, per_category: bool) -> Frame:
    """The 12 stats per segment (and category), every segment (and category) present."""
    rows, *_ = _evaluated(tables, _SUMMARY_COMBOS)
    keys = ["seg", "category_id"] if per_category else ["seg"]
    stats = stages.summary(rows, keys)
    base = tables.segments.join(tables.categories, [], "cross") if per_category else tables.segments
    return base.join(stats, keys, "left").keep(*base.columns, *COCO_STATS)


def _precision(tables: DetectionTables) -> Frame:
    """pycocotools' precision and scores arrays as rows."""
    rows, true_pos, sequences, points = _evaluated(tables, _ALL_COMBOS)
    ns = rows.ns
    c = ns.col
    group = ["seg", "category_id", "a", "m", "t"]
    read = (
        rows.join(points, ["npig"])
        .join(true_pos.keep(*group, "k", "envelope", "score"), [*group, "k"], "left")
        .join(sequences, ["seg", "category_id", "m"], "left")
    )
    first_score = ns.coalesce(c("top_score"), ns.lit(0.0))
    read = read.select({
        **{n: c(n) for n in (*group, "r")},
        "precision": ns.coalesce(c("envelope"), ns.lit(0.0)),
        "score": ns.when(ns.eq(c("r"), 0), first_score).otherwise(ns.coalesce(c("score"), ns.lit(0.0))),
    })  # fmt: skip
    result = _long_grid(tables, rows, with_recall=True).join(read, [*group, "r"], "left")
    return _labelled(result, ["precision", "score"])


def _recall(tables: DetectionTables) -> Frame:
    """pycocotools' recall array as rows."""
    rows, *_ = _evaluated(tables, _ALL_COMBOS)
    group = ["seg", "category_id", "a", "m", "t"]
    result = _long_grid(tables, rows, with_recall=False).join(rows.keep(*group, "recall"), group, "left")
    return _labelled(result, ["recall"])


def coco_build(
    gt: Source,
    dt: Source,
    images: Source | None,
    by: tuple[str, ...],
    box_format: str,
    output: str,
    per_category: bool = False,
) -> Build:
    """The computation of ``output`` (``"stats"``, ``"precision"`` or ``"recall"``) on any engine."""

    def build(engine: DetectionEngine) -> tuple[Frame, DetectionTables, list[str]]:
        tables = _coco_tables(engine, gt, dt, images, by, box_format)
        if output == "stats":
            return _stats(tables, per_category), tables, ["category_id"]
        return (_precision(tables) if output == "precision" else _recall(tables)), tables, _LONG_ORDER

    return build


def coco_evaluate(
    gt: Source,
    dt: Source,
    *,
    images: Source | None = None,
    by: str | Sequence[str] | None = None,
    per_category: bool = False,
    box_format: str = "xywh",
    engine: str = "polars",
    con: object = None,
    spark: object = None,
) -> pl.DataFrame:
    """pycocotools' 12 bbox ``stats`` per segment of images (and per category), in the engine.

    Parameters
    ----------
    gt : frame, Arrow table, Parquet/CSV path or DuckDB table name
        Ground truth, one row per box: ``image_id, category_id, id``, the
        box (``x, y, w, h``, or ``x1, y1, x2, y2``), ``area`` (COCO's
        annotation area; ``w * h`` where absent) and ``iscrowd`` (0 where
        absent).
    dt : same kinds
        Detections, one row per box: ``image_id, category_id, id``, the box
        and ``score``.
    images : same kinds, optional
        ``image_id`` and the columns ``by`` names. Without it, ``by`` names
        columns of both ``gt`` and ``dt``.
    by : column name or list of names, optional
        The segments: each is a set of images, evaluated as pycocotools
        with ``params.imgIds`` set to those images.
    per_category : bool
        One row per segment and category (``category_id``): pycocotools
        with ``params.catIds = [category]``.
    box_format : {"xywh", "xyxy"}
    engine : {"polars", "duckdb", "spark"}
    con : DuckDB connection, optional
        Where table names are read.
    spark : pyspark.sql.SparkSession, optional
        Where table names are read with ``engine="spark"`` (Spark DataFrames need none).

    Returns
    -------
    pl.DataFrame
        The ``by`` columns (and ``category_id``), then ``map, map_50,
        map_75, map_small, map_medium, map_large, mar_1, mar_10, mar_100,
        mar_small, mar_medium, mar_large`` (Float64), null where
        pycocotools reports -1 (no ground truth that is not ignored).

    Notes
    -----
    Precision after the ``k``-th true positive is ``k / (fp + k +
    spacing(1))`` with ``fp`` the false positives up to it, made
    non-increasing from the end; AP is its mean over the 101 recall
    thresholds ``r`` read at the least ``k`` with ``k / npig >= r``
    (``npig``: ground truths neither crowd nor outside the area range),
    and over IoU thresholds and categories. AR is the mean of ``tp / npig``.
    The matching, tie rules and id rules are in the README's detection
    section; an id of 0 is an ordinary id here (pycocotools reads a match
    to id 0 as none).

    Examples
    --------
    >>> gt = pl.DataFrame({"image_id": [1], "category_id": [1], "id": [1],
    ...                    "x": [0.0], "y": [0.0], "w": [10.0], "h": [10.0], "area": [100.0], "iscrowd": [0]})
    >>> dt = pl.DataFrame({"image_id": [1], "category_id": [1], "id": [1],
    ...                    "x": [0.0], "y": [0.0], "w": [10.0], "h": [9.0], "score": [0.9]})
    >>> row = coco_evaluate(gt, dt).select("map", "map_50", "map_75", "mar_100").row(0)
    >>> [round(v, 12) for v in row]  # IoU 0.9: matched at 9 of the 10 thresholds
    [0.9, 1.0, 1.0, 0.9]
    """
    return _coco("stats", gt, dt, images, by, box_format, engine, con, spark, per_category)


def _coco(
    output: str,
    gt: Source,
    dt: Source,
    images: Source | None,
    by: str | Sequence[str] | None,
    box_format: str,
    engine: str,
    con: object,
    spark: object,
    per_category: bool = False,
) -> pl.DataFrame:
    """:func:`coco_build`'s ``output`` of the entry points' arguments, run on ``engine``."""
    check_box_format(box_format)
    return evaluate_with(engine, con, coco_build(gt, dt, images, as_tuple(by), box_format, output, per_category), spark)


def _coco_table(output: str, doc: str) -> Callable[..., pl.DataFrame]:
    """The entry point of pycocotools' ``output`` array (``"precision"`` or ``"recall"``) as a long table.

    Its parameters are those of :func:`coco_evaluate` but ``per_category``;
    ``doc`` is its docstring.

    Examples
    --------
    >>> table = _coco_table("recall", "The recall table.")
    >>> table.__name__, table.__doc__, table.__module__
    ('coco_recall_table', 'The recall table.', 'framemetrics.detection.coco')
    >>> "per_category" in inspect.signature(table).parameters
    False
    """
    evaluate = inspect.signature(coco_evaluate)
    signature = evaluate.replace(parameters=[p for p in evaluate.parameters.values() if p.name != "per_category"])
    return bound_function(f"coco_{output}_table", signature, functools.partial(_coco, output), doc, __name__)


coco_precision_table = _coco_table(
    "precision",
    """pycocotools' ``eval["precision"]`` and ``eval["scores"]`` as a long table, per segment.

    Parameters are those of :func:`coco_evaluate` but ``per_category``.

    Returns
    -------
    pl.DataFrame
        The ``by`` columns, ``iou_threshold, area_range, max_dets,
        category_id, recall_threshold, precision, score``: one row per
        element of pycocotools' arrays (``T x R x K x A x M``), precision
        and score null where pycocotools has -1.

    Examples
    --------
    >>> gt = pl.DataFrame({"image_id": [1], "category_id": [1], "id": [1],
    ...                    "x": [0.0], "y": [0.0], "w": [10.0], "h": [10.0]})
    >>> dt = gt.with_columns(score=pl.lit(0.9))
    >>> t = coco_precision_table(gt, dt)
    >>> t.height, t["precision"].min(), t["score"].max()  # 1 / (1 + spacing(1)), as pycocotools
    (12120, 0.9999999999999998, 0.9)
    """,
)

coco_recall_table = _coco_table(
    "recall",
    """pycocotools' ``eval["recall"]`` as a long table, per segment.

    Parameters are those of :func:`coco_evaluate` but ``per_category``.

    Returns
    -------
    pl.DataFrame
        The ``by`` columns, ``iou_threshold, area_range, max_dets,
        category_id, recall``: one row per element of pycocotools' array
        (``T x K x A x M``), null where pycocotools has -1.

    Examples
    --------
    >>> gt = pl.DataFrame({"image_id": [1], "category_id": [1], "id": [1],
    ...                    "x": [0.0], "y": [0.0], "w": [10.0], "h": [10.0]})
    >>> t = coco_recall_table(gt, gt.with_columns(score=pl.lit(0.9)))
    >>> t.height, t["recall"].min()
    (120, 1.0)
    """,
)

# Made by bound_function (its function's globals are another module's): doctest finds their examples here.
__test__ = {"coco_precision_table": coco_precision_table, "coco_recall_table": coco_recall_table}

_LONG_ORDER = ["iou_threshold", "recall_threshold", "category_id", "area_range", "max_dets"]


def _long_grid(tables: DetectionTables, rows: Frame, with_recall: bool) -> Frame:
    """Every element of pycocotools' arrays per segment: ``seg, category_id, a, m, t`` (and ``r``)."""
    grid = tables.segments.join(tables.categories, [], "cross")
    grid = grid.join(stages.combo_grid(rows, _ALL_COMBOS).keep("a", "m"), [], "cross")
    grid = grid.join(rows.constant({"t": list(range(len(IOU_THRESHOLDS)))}), [], "cross")
    if with_recall:
        grid = grid.join(rows.constant({"r": list(range(len(RECALL_THRESHOLDS)))}), [], "cross")
    return grid


def _labelled(frame: Frame, values: list[str]) -> Frame:
    """Codes as values: ``t`` as ``iou_threshold``, ``a`` as ``area_range``, ``m`` as ``max_dets``, ``r``."""
    ns = frame.ns
    c = ns.col
    labels = frame.constant(
        {
            "t": list(range(len(IOU_THRESHOLDS))),
            "iou_threshold": list(IOU_THRESHOLDS),
        }
    ).join(frame.constant({"a": list(range(len(AREA_RANGES))), "area_range": list(AREA_RANGES)}), [], "cross")
    labelled = frame.join(labels, ["t", "a"]).with_columns(max_dets=c("m"))
    columns = ["seg", *by_columns(frame), "iou_threshold", "area_range", "max_dets", "category_id"]
    if "r" in frame.columns:
        recall = frame.constant({"r": list(range(len(RECALL_THRESHOLDS))), "recall_threshold": list(RECALL_THRESHOLDS)})
        labelled = labelled.join(recall, ["r"])
        columns.append("recall_threshold")
    return labelled.keep(*columns, *values)
