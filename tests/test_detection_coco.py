"""COCO bbox evaluation equals pycocotools: the shared fixture, its segments and categories, generated data."""

from __future__ import annotations

import numpy as np
import polars as pl
import pytest
from coco_reference import as_array, coco_eval, coco_files, stats
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import framemetrics as fm
from framemetrics.core.detection import AREA_RANGES, COCO_STATS, IOU_THRESHOLDS, MAX_DETECTIONS, RECALL_THRESHOLDS

ENGINES = ("polars", "duckdb")
TOLERANCE = 1e-12


@pytest.fixture(scope="module")
def fixture():
    gt_json, dt_json = coco_files()
    gt, dt, images = fm.read_coco(gt_json, dt_json)
    categories = sorted({c["id"] for c in __import__("json").loads(gt_json.read_text())["categories"]})
    return gt, dt, images, categories


@pytest.fixture(scope="module")
def reference(fixture):
    gt, dt, images, categories = fixture
    return coco_eval(gt, dt, images["image_id"].to_list(), categories)


def _close(got: list[float | None], want: list[float | None]) -> bool:
    return all(
        (g is None and w is None) or (g is not None and w is not None and abs(g - w) <= TOLERANCE)
        for g, w in zip(got, want, strict=True)
    )


@pytest.mark.parametrize("engine", ENGINES)
def test_fixture_stats_equal_pycocotools(fixture, reference, engine):
    gt, dt, images, _ = fixture
    result = fm.coco_evaluate(gt, dt, images=images, engine=engine)
    assert result.columns == list(COCO_STATS)
    assert result.schema == dict.fromkeys(COCO_STATS, pl.Float64)
    assert _close(list(result.row(0)), stats(reference))


def _dense(table: pl.DataFrame, value: str, categories: list[int], recall: bool) -> np.ndarray:
    """A long table back into pycocotools' array order (T, R, K, A, M) or (T, K, A, M)."""
    shape = [len(IOU_THRESHOLDS), *([len(RECALL_THRESHOLDS)] if recall else []), len(categories), 4, 3]
    out = np.full(shape, np.nan)
    index = {
        "iou_threshold": {t: i for i, t in enumerate(IOU_THRESHOLDS)},
        "recall_threshold": {r: i for i, r in enumerate(RECALL_THRESHOLDS)},
        "category_id": {c: i for i, c in enumerate(categories)},
        "area_range": {a: i for i, a in enumerate(AREA_RANGES)},
        "max_dets": {m: i for i, m in enumerate(MAX_DETECTIONS)},
    }
    axes = ["iou_threshold", *(["recall_threshold"] if recall else []), "category_id", "area_range", "max_dets"]
    for row in table.iter_rows(named=True):
        if row[value] is not None:
            out[tuple(index[a][row[a]] for a in axes)] = row[value]
    return out


@pytest.mark.parametrize("engine", ENGINES)
def test_fixture_precision_recall_scores_equal_pycocotools(fixture, reference, engine):
    gt, dt, images, categories = fixture
    precision = fm.coco_precision_table(gt, dt, images=images, engine=engine)
    recall = fm.coco_recall_table(gt, dt, images=images, engine=engine)
    present = sorted(set(gt["category_id"]) | set(dt["category_id"]))
    assert precision.height == len(present) * 4 * 3 * 10 * 101
    assert recall.height == len(present) * 4 * 3 * 10
    k = [categories.index(c) for c in present]
    want = {
        "precision": as_array(reference.eval["precision"])[:, :, k],
        "score": as_array(np.where(reference.eval["precision"] == -1, -1, reference.eval["scores"]))[:, :, k],
        "recall": as_array(reference.eval["recall"])[:, k],
    }
    got = {
        "precision": _dense(precision, "precision", present, True),
        "score": _dense(precision, "score", present, True),
        "recall": _dense(recall, "recall", present, False),
    }
    for name, expected in want.items():
        np.testing.assert_array_equal(np.isnan(got[name]), np.isnan(expected), err_msg=name)
        np.testing.assert_allclose(got[name], expected, rtol=0, atol=TOLERANCE, err_msg=name)


@pytest.mark.parametrize("engine", ENGINES)
def test_segments_equal_pycocotools_with_their_images(fixture, engine):
    gt, dt, images, categories = fixture
    images = images.with_columns(
        camera=pl.when(pl.col("image_id") % 5 == 0).then(None).otherwise((pl.col("image_id") % 3).cast(pl.String)),
    )
    images = pl.concat([images, pl.DataFrame({"image_id": [10**9], "camera": ["empty"]})], how="diagonal_relaxed")
    result = fm.coco_evaluate(gt, dt, images=images, by="camera", engine=engine)
    assert result["camera"].to_list() == ["0", "1", "2", "empty", None]
    for row in result.iter_rows(named=True):
        members = images.filter(pl.col("camera").eq_missing(row["camera"]))["image_id"].to_list()
        want = stats(coco_eval(gt, dt, images["image_id"].to_list(), categories, img_ids=members))
        assert _close([row[s] for s in COCO_STATS], want), row["camera"]


@pytest.mark.parametrize("engine", ENGINES)
def test_per_category_equals_pycocotools_with_one_category(fixture, engine):
    gt, dt, images, categories = fixture
    result = fm.coco_evaluate(gt, dt, images=images, per_category=True, engine=engine)
    assert result.columns == ["category_id", *COCO_STATS]
    assert result["category_id"].to_list() == sorted(set(gt["category_id"]) | set(dt["category_id"]))
    crowd_only = gt.group_by("category_id").agg(pl.col("iscrowd").min()).filter(pl.col("iscrowd") == 1)
    chosen = [*result["category_id"].head(4).to_list(), *crowd_only["category_id"].to_list()]
    for category in chosen:
        want = stats(coco_eval(gt, dt, images["image_id"].to_list(), categories, cat_ids=[category]))
        got = result.filter(pl.col("category_id") == category).row(0)[1:]
        assert _close(list(got), want), category


_SIDES = st.sampled_from([1.0, 2.0, 4.0, 8.0, 16.0, 31.0, 32.0, 33.0, 64.0, 96.0, 97.0, 120.0])
_CORNERS = st.sampled_from([0.0, 1.0, 2.0, 4.0, 8.0, 16.0, 32.0, 48.0])


@st.composite
def coco_data(draw):
    """Ground truth and detections that reach pycocotools' edge cases (see the issue's list)."""
    n_images = draw(st.integers(1, 5))
    boxes = st.tuples(_CORNERS, _CORNERS, _SIDES, _SIDES)
    gt_rows = []
    for _ in range(draw(st.integers(0, 12))):
        x, y, w, h = draw(boxes)
        area = draw(st.sampled_from([w * h, 1024.0, 9216.0, w * h / 2]))
        row = (
            draw(st.integers(1, n_images)),
            draw(st.integers(1, 3)),
            x,
            y,
            w,
            h,
            area,
            int(draw(st.integers(0, 4)) == 0),
        )
        gt_rows += [row] * draw(st.sampled_from([1, 1, 1, 2]))  # duplicate ground truths
    scores = st.sampled_from([0.1, 0.5, 0.5, 0.9, 0.25])
    dt_rows = []
    for image, category, x, y, w, h, _, _ in gt_rows:
        for _ in range(draw(st.integers(0, 2))):
            dx, dy = draw(st.sampled_from([0.0, 1.0, -1.0, 4.0])), draw(st.sampled_from([0.0, 2.0, -3.0]))
            dt_rows.append((image, category, x + dx, y + dy, w, h, draw(scores)))
    for _ in range(draw(st.integers(0, 6))):
        dt_rows.append((draw(st.integers(1, n_images)), draw(st.integers(1, 3)), *draw(boxes), draw(scores)))
    if draw(st.booleans()) and gt_rows:  # more than maxDets in one image and category
        image, category, x, y, w, h, _, _ = gt_rows[0]
        dt_rows += [(image, category, x + i % 3, y, w, h, draw(scores)) for i in range(draw(st.integers(95, 115)))]
    gt = (
        pl.DataFrame(gt_rows, orient="row", schema=["image_id", "category_id", "x", "y", "w", "h", "area", "iscrowd"])
        .with_row_index("id", offset=1)
        .with_columns(pl.col("id").cast(pl.Int64))
    )
    dt = (
        pl.DataFrame(dt_rows, orient="row", schema=["image_id", "category_id", "x", "y", "w", "h", "score"])
        .with_row_index("id", offset=1)
        .with_columns(pl.col("id").cast(pl.Int64))
    )
    images = pl.DataFrame({"image_id": list(range(1, n_images + 1)), "half": [i % 2 for i in range(1, n_images + 1)]})
    return (
        gt.cast({"image_id": pl.Int64, "category_id": pl.Int64}),
        dt.cast({"image_id": pl.Int64, "category_id": pl.Int64}),
        images,
    )


@pytest.mark.parametrize("engine", ENGINES)
@pytest.mark.examples(duckdb=10)
@settings(
    max_examples=int(__import__("os").environ.get("FM_EXAMPLES", 25)),
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large],
)
@given(data=coco_data())
def test_generated_data_equal_pycocotools_per_segment(engine, data):
    gt, dt, images = data
    all_images = images["image_id"].to_list()
    result = fm.coco_evaluate(gt, dt, images=images, by="half", engine=engine)
    assert result["half"].to_list() == sorted(set(images["half"]))
    for row in result.iter_rows(named=True):
        members = images.filter(pl.col("half") == row["half"])["image_id"].to_list()
        want = stats(coco_eval(gt, dt, all_images, [1, 2, 3], img_ids=members))
        assert _close([row[s] for s in COCO_STATS], want), (row, want)


@pytest.mark.parametrize("engine", ENGINES)
def test_every_source_kind_gives_the_same_stats(fixture, tmp_path, engine):
    gt, dt, images, _ = fixture
    want = fm.coco_evaluate(gt, dt, images=images, engine=engine)
    con = __import__("duckdb").connect()
    for name, frame in {"gt_table": gt, "dt_table": dt, "images_table": images.select("image_id")}.items():
        con.execute(f"CREATE TABLE {name} AS SELECT * FROM frame")
        frame.write_parquet(tmp_path / f"{name}.parquet")
    kinds = {
        "duckdb tables": ("gt_table", "dt_table", "images_table"),
        "parquet": tuple(str(tmp_path / f"{n}.parquet") for n in ("gt_table", "dt_table", "images_table")),
        "pandas": (gt.to_pandas(), dt.to_pandas(), images.select("image_id").to_pandas()),
        "arrow": (gt.to_arrow(), dt.to_arrow(), images.select("image_id").to_arrow()),
    }
    for kind, (g, d, i) in kinds.items():
        got = fm.coco_evaluate(g, d, images=i, engine=engine, con=con)
        assert _close(list(got.row(0)), list(want.row(0))), kind
