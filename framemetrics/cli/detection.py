"""``framemetrics detection``: COCO or VOC evaluation of a detector per segment of images."""

from __future__ import annotations

import json
from typing import Any

import click
from rich.console import Console

import framemetrics as fm
from framemetrics.cli.engines import check_memory_limit, engine_connection
from framemetrics.cli.errors import reading
from framemetrics.cli.output import FORMATS, choose_format, stdout_console, write_frame
from framemetrics.cli.parsing import resolve_path
from framemetrics.cli.progress import progress

__all__ = ["detection"]


def _is_json(path: str) -> bool:
    return path.lower().endswith(".json")


def _inputs(gt: str, dt: str, images: str | None) -> tuple[Any, Any, Any]:
    """Ground truth, detections and images: COCO JSON read into frames, tables as paths."""
    coco_images = None
    if _is_json(gt):
        with reading(gt):
            gt_frame, dt_frame, coco_images = fm.read_coco(gt, dt if _is_json(dt) else None)
    else:
        gt_frame, dt_frame = resolve_path(gt), None
    if dt_frame is None:
        if _is_json(dt):
            with reading(dt), open(dt, encoding="utf-8") as file:
                _, dt_frame, _ = fm.read_coco({"annotations": []}, json.load(file))
        else:
            dt_frame = resolve_path(dt)
    return gt_frame, dt_frame, resolve_path(images) if images else coco_images


@click.command(epilog="Exit codes: 0 done; 1 the data was rejected; 2 bad usage; 3 a file could not be read.")
@click.argument("gt")
@click.argument("dt")
@click.option("--images", help="Table of images: image_id and the --by columns [default: the COCO file's images].")
@click.option("--by", multiple=True, help="Segment column of the images; repeat for several.")
@click.option("--metric", type=click.Choice(["coco", "voc"]), default="coco", show_default=True,
              help="COCO's 12 stats (pycocotools), or VOC's AP per category (voc_eval).")  # fmt: skip
@click.option("--per-category", is_flag=True, help="COCO: one row per segment and category.")
@click.option("--iou-threshold", type=click.FloatRange(0, 1), default=0.5, show_default=True, help="VOC only.")
@click.option("--use-07-metric", is_flag=True, help="VOC: the 11-point interpolation of VOC2007.")
@click.option("--box-format", type=click.Choice(["xywh", "xyxy"]), default="xywh", show_default=True,
              help="Box columns of tables: x, y, w, h or x1, y1, x2, y2 (COCO JSON is x, y, w, h).")  # fmt: skip
@click.option("--engine", type=click.Choice(["duckdb", "polars"]), default="duckdb", show_default=True)
@click.option("--threads", type=click.IntRange(min=1), help="Threads of the engine [default: one per core].")
@click.option("--memory-limit", callback=lambda _c, _p, v: check_memory_limit(v),
              help="DuckDB's memory limit, e.g. 500MB or 4GB.")  # fmt: skip
@click.option("--format", "fmt", type=click.Choice(FORMATS),
              help="Output format [default: from --output's suffix; a table on a terminal, else csv].")  # fmt: skip
@click.option("--output", "-o", type=click.Path(dir_okay=False), help="Write to this file instead of stdout.")
def detection(gt: str, dt: str, images: str | None, by: tuple[str, ...], metric: str, per_category: bool,
              iou_threshold: float, use_07_metric: bool, box_format: str, engine: str, threads: int | None,
              memory_limit: str | None, fmt: str | None, output: str | None) -> None:  # fmt: skip
    """Evaluate the detections DT against the ground truth GT, per segment of images.

    GT and DT are COCO JSON files (instances and results) or tables (Parquet
    or CSV) of one row per box: image_id, category_id, id, the box, and
    area, iscrowd (ground truth) or score (detections).

    \b
    Examples:
      framemetrics detection instances_val.json detections.json
      framemetrics detection instances_val.json detections.json --images cameras.parquet --by camera
      framemetrics detection gt.parquet dt.parquet --metric voc --use-07-metric --box-format xyxy
    """
    out, err = stdout_console(), Console(stderr=True)
    fmt = choose_format(fmt, output, out.is_terminal)
    con = engine_connection(engine, threads, memory_limit, err)
    gt_source, dt_source, image_source = _inputs(gt, dt, images)
    options = {"images": image_source, "by": list(by) or None, "box_format": box_format, "engine": engine, "con": con}
    with reading(dt), progress(err, "Evaluating the detections", con=con, total=None):
        if metric == "voc":
            result = fm.voc_evaluate(gt_source, dt_source, iou_threshold=iou_threshold, use_07_metric=use_07_metric,
                                     **options)  # fmt: skip
        else:
            result = fm.coco_evaluate(gt_source, dt_source, per_category=per_category, **options)
    write_frame(result, fmt, output, out)
