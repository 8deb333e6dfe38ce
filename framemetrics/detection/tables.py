"""The canonical tables of a detection call: boxes, segments of images, categories.

Segments are sets of images: ``by`` names columns of ``images`` (or, without
it, of both ground truth and detections, whose images must then agree).
Each segment gets an integer code ``seg``, the least image id in it, so that
no stage ever joins on a user's column (which may be null); the user's
values come back at the end (:func:`finish`).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

import polars as pl

from framemetrics.core.frame import Frame
from framemetrics.detection.boxes import BOX_COLUMNS, box_columns, canonical_boxes
from framemetrics.detection.checks import Checks
from framemetrics.detection.engines import DetectionEngine, TextEngine, detection_engine
from framemetrics.sources import Source

__all__ = [
    "Build",
    "DetectionTables",
    "box_checks",
    "by_columns",
    "by_names",
    "detection_sql",
    "evaluate_with",
    "open_tables",
]


@dataclass
class DetectionTables:
    """Detections ``seg, image_id, category_id, did, d*, score`` and ground truths ``seg, image_id,
    category_id, gid, g*`` and extras; the segments ``seg, fm_by_*``; the categories of either."""

    detections: Frame
    ground_truths: Frame
    segments: Frame
    categories: Frame
    by: tuple[str, ...]
    checks: Checks | None = None


def by_names(by: Sequence[str]) -> dict[str, str]:
    """The stage names of the user's segment columns: ``{"fm_by_0": by[0], ...}``.

    Examples
    --------
    >>> by_names(["camera"])
    {'fm_by_0': 'camera'}
    """
    return {f"fm_by_{i}": name for i, name in enumerate(by)}


def by_columns(frame: Frame) -> list[str]:
    """The segment columns of ``frame`` (stage names)."""
    return [c for c in frame.columns if c.startswith("fm_by_")]


def open_tables(
    engine: DetectionEngine,
    gt: Source,
    dt: Source,
    images: Source | None,
    by: tuple[str, ...],
    box_format: str,
    gt_extras: Mapping[str, tuple[str, str]],
    corners: bool = False,
) -> DetectionTables:
    """The canonical tables of ``gt``, ``dt`` and ``images``.

    ``gt_extras``: ``{stage name: (user's column, kind)}`` read from the
    ground truth where present (kind as in :func:`canonical_boxes`);
    ``corners`` adds ``gx2, gy2, dx2, dy2``.
    """
    segment_names = by_names(by)
    on_boxes = segment_names if images is None else {}
    ids = {"image_id": "image_id", "category_id": "category_id"}
    gt_frame = engine.frame(
        gt, {**ids, "gid": "id", **box_columns("g", box_format), **on_boxes}, "ground truth",
        optional={name: column for name, (column, _) in gt_extras.items()},
    )  # fmt: skip
    dt_frame = engine.frame(
        dt, {**ids, "did": "id", "score": "score", **box_columns("d", box_format), **on_boxes}, "detections"
    )
    ns = gt_frame.ns
    c = ns.col
    kinds = {"image_id": "id", "category_id": "id", **dict.fromkeys(segment_names, "as is")}
    extras = {name: kind for name, (_, kind) in gt_extras.items()}
    ground_truths = canonical_boxes(gt_frame, "g", box_format, {**kinds, "gid": "id", **extras}, corners)
    detections = canonical_boxes(dt_frame, "d", box_format, {**kinds, "did": "id", "score": "float"}, corners)
    checks = Checks()
    box_checks(checks, ground_truths, "g", "ground truth", box_format, "gid")
    box_checks(checks, detections, "d", "detections", box_format, "did")
    checks.domains(detections, "detections", {"score": (c("score"), "finite")})
    if images is None:
        keys = ["image_id", *segment_names]
        image_rows = ground_truths.keep(*keys).concat(detections.keep(*keys)).aggregate(keys, {})
        if by:
            checks.segments_agree(image_rows, by)
    else:
        image_frame = engine.frame(images, {"image_id": "image_id", **segment_names}, "images")
        image_rows = image_frame.with_columns(image_id=ns.to_int(c("image_id")))
        checks.domains(image_rows, "images", {"image_id": (c("image_id"), "present")})
        checks.repeated(image_rows, "image_id", "images", "image_id")
        checks.unlisted(ground_truths, image_rows, "ground truth")
        checks.unlisted(detections, image_rows, "detections")
    segment = ns.window("min", c("image_id"), list(segment_names)) if by else ns.lit(0)
    image_rows = image_rows.with_columns(seg=segment).named("fm_images")
    seg_of = image_rows.keep("image_id", "seg")
    categories = ground_truths.keep("category_id").concat(detections.keep("category_id"))
    first_images = image_rows.filter(ns.eq(c("image_id"), c("seg"))).keep("seg", *segment_names)
    return DetectionTables(
        detections=detections.drop(*segment_names).join(seg_of, ["image_id"]),
        ground_truths=ground_truths.drop(*segment_names).join(seg_of, ["image_id"]),
        segments=first_images if by else image_rows.constant({"seg": [0]}),
        categories=categories.aggregate(["category_id"], {}).named("fm_categories"),
        by=by,
        checks=checks,
    )


def box_checks(checks: Checks, frame: Frame, prefix: str, table: str, box_format: str, key: str) -> None:
    """The checks of a canonical box frame: ids not null and unique, coordinates finite, sizes not negative."""
    ns = frame.ns
    c = ns.col
    first, second, third, fourth = BOX_COLUMNS[box_format]
    boxes = dict(zip([first, second, third, fourth], "xywh", strict=True))
    negative = "negative" if box_format == "xywh" else f"less than {first} or {second}"
    ids = [n for n in ("image_id", "category_id") if n in frame.columns]
    checks.domains(frame, table, {
        **{n: (c(n), "present") for n in ids},
        "id": (c(key), "present"),
        **{user: (c(prefix + f), "finite") for user, f in boxes.items()},
    })  # fmt: skip
    checks.rows_where(
        frame, table, {f"{third}, {fourth}": (negative, ns.any(c(prefix + "w") < 0, c(prefix + "h") < 0))}
    )
    checks.repeated(frame, key, table, "id")


Build = Callable[[DetectionEngine], tuple[Frame, DetectionTables, Sequence[str]]]
"""A detection computation: from the engine's tables to the result frame, its tables and its row order."""


def _output(build: Build, engine: DetectionEngine) -> tuple[Frame, list[str], Checks | None]:
    """The result of ``build`` without ``seg``, the segment columns under the user's names; its sort keys, checks."""
    frame, tables, order = build(engine)
    output = frame.drop("seg").rename(by_names(tables.by))
    return output, [*tables.by, *(k for k in order if k in output.columns)], tables.checks


def evaluate_with(engine: str, con: Any, build: Build, spark: Any = None) -> pl.DataFrame:
    """Run ``build`` on ``engine``: the result as a Polars frame, sorted (nulls last).

    Examples
    --------
    >>> def build(e):
    ...     f = e.frame(pl.DataFrame({"id": [2, 1]}), {"gid": "id"}, "ground truth")
    ...     return f, DetectionTables(f, f, f, f, ()), ["gid"]
    >>> evaluate_with("duckdb", None, build)["gid"].to_list()
    [1, 2]
    """
    runner = detection_engine(engine, con, spark)
    try:
        output, keys, checks = _output(build, runner)
        if checks is not None:
            checks.raise_for(runner.run(checks.frame()).row(0, named=True))
        result = runner.run(output)
        return result.sort(keys, nulls_last=True) if keys else result
    finally:
        runner.close()


def detection_sql(tables: Mapping[str, Sequence[str]], build: Build, dialect: str) -> str:
    """``build`` as SQL text of ``dialect``, reading the named ``tables`` (their columns as declared)."""
    text = TextEngine(tables)
    output, keys, _ = _output(build, text)
    return text.sql(output, keys, dialect)
