"""Benchmark: COCO bbox evaluation in the engines against pycocotools, faster-coco-eval and hotcoco.

Run ``python -m framemetrics.detection.bench --detections 1000000 --images
10000``. A detector's output is generated with Polars (hashes of the row
number: boxes near a ground truth or anywhere, 80 categories, scores rounded
to 3 decimals so that ties occur); every evaluator gets the same boxes, the
peers as COCO dictionaries in memory (their ``loadRes``, ``evaluate``,
``accumulate`` and ``summarize`` are timed), framemetrics as frames. Each
line prints the time and the ratio to framemetrics measured in the same run;
``--segments`` also times ``by=`` a column of 10 values; ``--spark`` also
times ``engine="spark"`` on a local Spark session (2 cores; the frames made
Spark DataFrames and cached first). Peers run where installed (``pip install
'.[bench]'``); ``--skip-pycocotools`` leaves out the slowest.
"""

from __future__ import annotations

import argparse
import contextlib
import importlib.util
import io
from typing import Any

import polars as pl

import framemetrics as fm
from framemetrics.bench.common import best_of
from framemetrics.bench.spark import local_spark

__all__ = ["coco_dicts", "detector_output", "main", "run_detection_benchmark"]


def _uniform(seed: int) -> pl.Expr:
    """A value in [0, 1) from the row number's hash: reproducible without NumPy."""
    return (pl.int_range(pl.len(), dtype=pl.UInt64).hash(seed) % 1_000_000).cast(pl.Float64) / 1_000_000


def detector_output(detections: int, images: int, per_image: int = 7, categories: int = 80) -> tuple[pl.DataFrame, ...]:
    """Ground truth (``per_image`` boxes an image), detections (30 % near a ground truth) and images.

    Examples
    --------
    >>> gt, dt, im = detector_output(100, 10)
    >>> gt.height, dt.height, im.height
    (70, 100, 10)
    """
    n_gt = images * per_image
    gt = pl.select(id=pl.int_range(1, n_gt + 1)).with_columns(
        image_id=(pl.col("id") - 1) // per_image + 1,
        category_id=(_uniform(1) * categories).cast(pl.Int64) + 1,
        x=(_uniform(2) * 600).round(2), y=(_uniform(3) * 400).round(2),
        w=(8 * (50.0 ** _uniform(4))).round(2), h=(8 * (50.0 ** _uniform(5))).round(2),
        iscrowd=(_uniform(6) < 0.01).cast(pl.Int64),
    ).with_columns(area=(pl.col("w") * pl.col("h") * (0.5 + 0.4 * _uniform(7))).round(2))  # fmt: skip
    source = (_uniform(8) * n_gt).cast(pl.Int64)
    near = _uniform(9) < 0.3
    jitter = lambda seed: (_uniform(seed) - 0.5) * 0.2
    dt = pl.select(id=pl.int_range(1, detections + 1)).with_columns(src=source, near=near)
    dt = dt.join(gt.with_row_index("src").with_columns(pl.col("src").cast(pl.Int64)), on="src", how="left")
    dt = dt.with_columns(
        image_id=pl.when("near").then("image_id").otherwise((_uniform(10) * images).cast(pl.Int64) + 1),
        category_id=pl.when("near").then("category_id").otherwise((_uniform(11) * categories).cast(pl.Int64) + 1),
        x=pl.when("near").then(pl.col("x") + jitter(12) * pl.col("w")).otherwise(_uniform(13) * 600).round(2),
        y=pl.when("near").then(pl.col("y") + jitter(14) * pl.col("h")).otherwise(_uniform(15) * 400).round(2),
        w=pl.when("near").then(pl.col("w") * (1 + jitter(16))).otherwise(8 * (50.0 ** _uniform(17))).round(2),
        h=pl.when("near").then(pl.col("h") * (1 + jitter(18))).otherwise(8 * (50.0 ** _uniform(19))).round(2),
        score=pl.when("near").then(0.5 + 0.5 * _uniform(20)).otherwise(0.6 * _uniform(21)).round(3),
    ).select("image_id", "category_id", "id", "x", "y", "w", "h", "score")
    image_rows = pl.select(image_id=pl.int_range(1, images + 1)).with_columns(camera=pl.col("image_id") % 10)
    return gt.select("image_id", "category_id", "id", "x", "y", "w", "h", "area", "iscrowd"), dt, image_rows


def coco_dicts(gt: pl.DataFrame, dt: pl.DataFrame, images: pl.DataFrame) -> tuple[dict, list[dict]]:
    """The COCO annotation dictionary and results list of the frames (what the peers read)."""
    annotations = [
        {"id": r[2], "image_id": r[0], "category_id": r[1], "bbox": [r[3], r[4], r[5], r[6]], "area": r[7],
         "iscrowd": r[8]}
        for r in gt.iter_rows()
    ]  # fmt: skip
    categories = [{"id": c} for c in sorted(set(gt["category_id"]) | set(dt["category_id"]))]
    data = {"images": [{"id": i} for i in images["image_id"]], "annotations": annotations, "categories": categories}
    results = [
        {"image_id": r[0], "category_id": r[1], "bbox": [r[3], r[4], r[5], r[6]], "score": r[7]}
        for r in dt.sort("id").iter_rows()
    ]
    return data, results


def _pycocotools(data: dict, results: list[dict]) -> None:
    from pycocotools.coco import COCO
    from pycocotools.cocoeval import COCOeval

    with contextlib.redirect_stdout(io.StringIO()):
        coco = COCO()
        coco.dataset = data
        coco.createIndex()
        evaluation = COCOeval(coco, coco.loadRes(results), "bbox")
        evaluation.evaluate()
        evaluation.accumulate()
        evaluation.summarize()


def _faster_coco_eval(data: dict, results: list[dict]) -> None:
    from faster_coco_eval import COCO, COCOeval_faster

    coco = COCO(data)
    evaluation = COCOeval_faster(coco, coco.loadRes(results), "bbox", print_function=lambda *_: None)
    evaluation.evaluate()
    evaluation.accumulate()
    evaluation.summarize()


def _hotcoco(data: dict, results: list[dict]) -> None:
    import hotcoco

    coco = hotcoco.COCO(data)
    evaluation = hotcoco.COCOeval(coco, coco.load_res(results), "bbox")
    evaluation.evaluate()
    evaluation.accumulate()
    with contextlib.redirect_stdout(io.StringIO()):
        evaluation.summarize()


_PEERS = {"pycocotools": _pycocotools, "faster-coco-eval": _faster_coco_eval, "hotcoco": _hotcoco}
_MODULES = {"pycocotools": "pycocotools", "faster-coco-eval": "faster_coco_eval", "hotcoco": "hotcoco"}


def _spark_frames(*frames: pl.DataFrame) -> list[Any]:
    """The frames as cached Spark DataFrames of a local session (counted, so that the timing reads the cache)."""
    spark = local_spark()
    cached = [spark.createDataFrame(frame.to_arrow()).cache() for frame in frames]
    for frame in cached:
        frame.count()
    return cached


def run_detection_benchmark(
    detections: int, images: int, repeat: int, segments: bool, skip: set[str], spark: bool = False
) -> list[dict[str, object]]:
    """Time every evaluator on the same generated data: one line each, with its ratio to framemetrics (DuckDB)."""
    gt, dt, image_rows = detector_output(detections, images)
    engines = {"duckdb": (gt, dt, image_rows), "polars": (gt, dt, image_rows)}
    if spark:
        engines["spark"] = tuple(_spark_frames(gt, dt, image_rows))
    lines: list[dict[str, object]] = []
    for engine, (g, d, i) in engines.items():
        for by in (None, "camera") if segments else (None,):
            run = lambda e=engine, g=g, d=d, i=i, by=by: fm.coco_evaluate(g, d, images=i, by=by, engine=e)
            seconds = round(best_of(repeat, run), 2)
            lines.append({"evaluator": f"framemetrics ({engine})", "segments": 10 if by else 1, "seconds": seconds})
    data, results = coco_dicts(gt, dt, image_rows)
    for name, peer in _PEERS.items():
        if name in skip or importlib.util.find_spec(_MODULES[name]) is None:
            continue
        lines.append(
            {"evaluator": name, "segments": 1, "seconds": round(best_of(1, lambda p=peer: p(data, results)), 2)}
        )
    ours = lines[0]["seconds"]
    for line in lines:
        line["vs framemetrics (duckdb)"] = round(float(line["seconds"]) / float(ours), 2)
    return lines


def main(argv: list[str] | None = None) -> None:
    """Parse the options, run, print the table."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--detections", type=int, default=1_000_000)
    parser.add_argument("--images", type=int, default=10_000)
    parser.add_argument("--repeat", type=int, default=2)
    parser.add_argument("--segments", action="store_true", help="also time by= a column of 10 values")
    parser.add_argument("--skip-pycocotools", action="store_true")
    parser.add_argument("--spark", action="store_true", help="also time engine='spark' (local, 2 cores)")
    args = parser.parse_args(argv)
    skip = {"pycocotools"} if args.skip_pycocotools else set()
    lines = run_detection_benchmark(args.detections, args.images, args.repeat, args.segments, skip, args.spark)
    with pl.Config(tbl_rows=-1, tbl_hide_dataframe_shape=True):
        print(pl.DataFrame(lines))


if __name__ == "__main__":
    main()
