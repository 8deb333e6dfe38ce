"""pycocotools run on frames: the reference of the COCO tests, one run per segment of images.

Ground truth and detections are given to pycocotools as the dictionaries it
reads from JSON; detections in ``id`` order, so that ``loadRes`` numbers them
as their ids (the tests use ids 1...n).
"""

from __future__ import annotations

import contextlib
import io
from pathlib import Path

import numpy as np
import polars as pl
from pycocotools.coco import COCO
from pycocotools.cocoeval import COCOeval

COCO_DIR = Path(__file__).resolve().parents[2] / "shared" / "data" / "coco"
"""The shared COCO fixture, used in place: ``../shared/data/coco`` beside the repository."""


def coco_files() -> tuple[Path, Path]:
    """The fixture's ground truth and results files; a clear error where the shared data is not beside the clone."""
    files = COCO_DIR / "instances_val2014_100.json", COCO_DIR / "instances_val2014_fakebbox100_results.json"
    missing = [str(f) for f in files if not f.exists()]
    if missing:
        raise FileNotFoundError(f"the shared COCO fixture is missing: {', '.join(missing)} (clone beside ../shared)")
    return files


def coco_dataset(gt: pl.DataFrame, images: list[int], categories: list[int]) -> COCO:
    """A pycocotools ``COCO`` of the ground truth rows (``image_id, category_id, id, x, y, w, h, area, iscrowd``)."""
    annotations = [
        {"id": r["id"], "image_id": r["image_id"], "category_id": r["category_id"],
         "bbox": [r["x"], r["y"], r["w"], r["h"]], "area": r["area"], "iscrowd": r["iscrowd"]}
        for r in gt.iter_rows(named=True)
    ]  # fmt: skip
    coco = COCO()
    coco.dataset = {
        "images": [{"id": i} for i in images],
        "annotations": annotations,
        "categories": [{"id": c} for c in categories],
    }
    with contextlib.redirect_stdout(io.StringIO()):
        coco.createIndex()
    return coco


def coco_eval(
    gt: pl.DataFrame,
    dt: pl.DataFrame,
    images: list[int],
    categories: list[int],
    img_ids: list[int] | None = None,
    cat_ids: list[int] | None = None,
) -> COCOeval:
    """pycocotools' bbox evaluation, accumulated and summarized (``params.imgIds``/``catIds`` where given)."""
    coco = coco_dataset(gt, images, categories)
    results = [
        {"image_id": r["image_id"], "category_id": r["category_id"], "bbox": [r["x"], r["y"], r["w"], r["h"]],
         "score": r["score"]}
        for r in dt.sort("id").iter_rows(named=True)
    ]  # fmt: skip
    with contextlib.redirect_stdout(io.StringIO()):
        detections = coco.loadRes(results) if results else _empty_results(coco)
        evaluation = COCOeval(coco, detections, "bbox")
        if img_ids is not None:
            evaluation.params.imgIds = sorted(img_ids)
        if cat_ids is not None:
            evaluation.params.catIds = sorted(cat_ids)
        evaluation.evaluate()
        evaluation.accumulate()
        evaluation.summarize()
    return evaluation


def _empty_results(coco: COCO) -> COCO:
    """A results object without detections (``loadRes`` cannot read an empty list)."""
    empty = COCO()
    empty.dataset = {"images": coco.dataset["images"], "annotations": [], "categories": coco.dataset["categories"]}
    empty.createIndex()
    return empty


def stats(evaluation: COCOeval) -> list[float | None]:
    """The 12 stats, -1 as None."""
    return [None if s == -1 else float(s) for s in evaluation.stats]


def as_array(values: np.ndarray) -> np.ndarray:
    """An array of pycocotools with -1 as NaN, for comparisons."""
    out = values.astype(float).copy()
    out[out == -1] = np.nan
    return out
