"""COCO JSON files as Polars frames: :func:`read_coco`."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import polars as pl

__all__ = ["read_coco"]

_GT_SCHEMA = {
    "image_id": pl.Int64, "category_id": pl.Int64, "id": pl.Int64,
    "x": pl.Float64, "y": pl.Float64, "w": pl.Float64, "h": pl.Float64, "area": pl.Float64, "iscrowd": pl.Int64,
}  # fmt: skip
_DT_SCHEMA = {
    "image_id": pl.Int64, "category_id": pl.Int64, "id": pl.Int64,
    "x": pl.Float64, "y": pl.Float64, "w": pl.Float64, "h": pl.Float64, "score": pl.Float64,
}  # fmt: skip


def _load(source: str | Path | Any) -> Any:
    if isinstance(source, (str, Path)):
        with open(source, encoding="utf-8") as file:
            return json.load(file)
    return source


def _boxes(records: list[dict], extra: dict[str, Any], schema: dict[str, pl.DataType]) -> pl.DataFrame:
    rows = {name: [] for name in schema}
    for record in records:
        x, y, w, h = record["bbox"]
        values = {"x": x, "y": y, "w": w, "h": h}
        for name in schema:
            rows[name].append(values[name] if name in values else extra[name](record))
    return pl.DataFrame(rows, schema=schema)


def read_coco(
    annotations: str | Path | dict, detections: str | Path | list | None = None
) -> tuple[pl.DataFrame, pl.DataFrame | None, pl.DataFrame]:
    """A COCO annotation file (and a results file) as frames of one row per box and per image.

    Parameters
    ----------
    annotations : path or parsed JSON
        COCO's instances file: ``images``, ``annotations`` (with ``bbox``),
        ``categories``.
    detections : path or parsed JSON, optional
        COCO's results format: a list of ``image_id, category_id, bbox, score``.

    Returns
    -------
    gt : pl.DataFrame
        ``image_id, category_id, id, x, y, w, h, area, iscrowd`` in file order.
    dt : pl.DataFrame or None
        ``image_id, category_id, id, x, y, w, h, score``, numbered 1...n in
        file order as pycocotools' ``loadRes`` does (an ``id`` in the file is
        replaced, as there).
    images : pl.DataFrame
        ``image_id`` and every scalar field of the file's images
        (``width``, ``height``, ``file_name``...): add a segment column to it.

    Examples
    --------
    >>> gt, dt, images = read_coco({"images": [{"id": 1, "width": 4}], "categories": [],
    ...     "annotations": [{"id": 7, "image_id": 1, "category_id": 2, "bbox": [0, 0, 2, 2], "area": 4.0,
    ...                      "iscrowd": 0}]}, [{"image_id": 1, "category_id": 2, "bbox": [0, 0, 1, 1], "score": 0.5}])
    >>> gt["id"].to_list(), dt["id"].to_list(), images.columns
    ([7], [1], ['image_id', 'width'])
    """
    data = _load(annotations)
    gt = _boxes(
        data.get("annotations", []),
        {
            "image_id": lambda r: r["image_id"],
            "category_id": lambda r: r["category_id"],
            "id": lambda r: r["id"],
            "area": lambda r: r.get("area", r["bbox"][2] * r["bbox"][3]),
            "iscrowd": lambda r: r.get("iscrowd", 0),
        },
        _GT_SCHEMA,
    )
    image_records = data.get("images", [])
    fields = [k for k in dict.fromkeys(k for r in image_records for k in r) if k != "id"]
    scalar = [k for k in fields if all(not isinstance(r.get(k), (dict, list)) for r in image_records)]
    images = pl.DataFrame(
        {"image_id": [r["id"] for r in image_records], **{k: [r.get(k) for r in image_records] for k in scalar}},
        schema_overrides={"image_id": pl.Int64},
    )
    if detections is None:
        return gt, None, images
    numbered = iter(range(1, 1 << 62))
    dt = _boxes(
        _load(detections),
        {
            "image_id": lambda r: r["image_id"],
            "category_id": lambda r: r["category_id"],
            "id": lambda r: next(numbered),
            "score": lambda r: r["score"],
        },
        _DT_SCHEMA,
    )
    return gt, dt, images
