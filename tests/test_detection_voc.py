"""Pascal VOC AP equals py-faster-rcnn's ``voc_eval``, written here plainly (with a stable sort)."""

from __future__ import annotations

import numpy as np
import polars as pl
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import framemetrics as fm

ENGINES = ("polars", "duckdb")


def voc_ap(rec: np.ndarray, prec: np.ndarray, use_07_metric: bool) -> float:
    """py-faster-rcnn's ``voc_ap``."""
    if use_07_metric:
        ap = 0.0
        for t in np.arange(0.0, 1.1, 0.1):
            p = 0 if np.sum(rec >= t) == 0 else np.max(prec[rec >= t])
            ap = ap + p / 11.0
        return ap
    mrec = np.concatenate(([0.0], rec, [1.0]))
    mpre = np.concatenate(([0.0], prec, [0.0]))
    for i in range(mpre.size - 1, 0, -1):
        mpre[i - 1] = np.maximum(mpre[i - 1], mpre[i])
    i = np.where(mrec[1:] != mrec[:-1])[0]
    return float(np.sum((mrec[i + 1] - mrec[i]) * mpre[i + 1]))


def voc_eval(gt: pl.DataFrame, dt: pl.DataFrame, category: int, threshold: float, use_07_metric: bool) -> float | None:
    """py-faster-rcnn's ``voc_eval`` for one class, on frames with corners ``x1, y1, x2, y2``."""
    gt = gt.filter(pl.col("category_id") == category).sort("id")
    records = {}
    npos = 0
    for image, rows in gt.group_by("image_id"):
        boxes = rows.select("x1", "y1", "x2", "y2").to_numpy()
        difficult = rows["difficult"].to_numpy().astype(bool)
        npos += int((~difficult).sum())
        records[image[0]] = {"bbox": boxes, "difficult": difficult, "det": [False] * len(rows)}
    if npos == 0:
        return None
    dt = dt.filter(pl.col("category_id") == category)
    order = np.argsort(-dt["score"].to_numpy(), kind="stable")
    boxes = dt.select("x1", "y1", "x2", "y2").to_numpy()[order]
    images = dt["image_id"].to_numpy()[order]
    tp, fp = np.zeros(len(order)), np.zeros(len(order))
    for d in range(len(order)):
        record = records.get(images[d], {"bbox": np.zeros((0, 4)), "difficult": np.zeros(0, bool), "det": []})
        bb, ovmax, bbgt = boxes[d].astype(float), -np.inf, record["bbox"].astype(float)
        if bbgt.size > 0:
            ixmin = np.maximum(bbgt[:, 0], bb[0])
            iymin = np.maximum(bbgt[:, 1], bb[1])
            ixmax = np.minimum(bbgt[:, 2], bb[2])
            iymax = np.minimum(bbgt[:, 3], bb[3])
            iw = np.maximum(ixmax - ixmin + 1.0, 0.0)
            ih = np.maximum(iymax - iymin + 1.0, 0.0)
            inters = iw * ih
            uni = (
                (bb[2] - bb[0] + 1.0) * (bb[3] - bb[1] + 1.0)
                + (bbgt[:, 2] - bbgt[:, 0] + 1.0) * (bbgt[:, 3] - bbgt[:, 1] + 1.0)
                - inters
            )
            overlaps = inters / uni
            ovmax, jmax = np.max(overlaps), np.argmax(overlaps)
        if ovmax > threshold:
            if not record["difficult"][jmax]:
                if not record["det"][jmax]:
                    tp[d] = 1.0
                    record["det"][jmax] = 1
                else:
                    fp[d] = 1.0
        else:
            fp[d] = 1.0
    fp, tp = np.cumsum(fp), np.cumsum(tp)
    rec = tp / float(npos)
    prec = tp / np.maximum(tp + fp, np.finfo(np.float64).eps)
    return voc_ap(rec, prec, use_07_metric)


_COORDINATE = st.sampled_from([0.0, 1.0, 3.0, 5.0, 10.0, 12.0, 20.0])
_SIDE = st.sampled_from([0.0, 1.0, 4.0, 9.0, 15.0])


@st.composite
def voc_data(draw):
    gt_rows = []
    for _ in range(draw(st.integers(0, 10))):
        x, y, w, h = draw(_COORDINATE), draw(_COORDINATE), draw(_SIDE), draw(_SIDE)
        row = (draw(st.integers(1, 3)), draw(st.integers(1, 2)), x, y, x + w, y + h, int(draw(st.integers(0, 3)) == 0))
        gt_rows += [row] * draw(st.sampled_from([1, 1, 2]))
    dt_rows = []
    for image, category, x1, y1, x2, y2, _ in gt_rows:
        for _ in range(draw(st.integers(0, 3))):
            shift = draw(st.sampled_from([0.0, 1.0, 2.0, -2.0, 6.0]))
            dt_rows.append((image, category, x1 + shift, y1, x2 + shift, y2, draw(st.sampled_from([0.3, 0.5, 0.8]))))
    for _ in range(draw(st.integers(0, 4))):
        x, y, w, h = draw(_COORDINATE), draw(_COORDINATE), draw(_SIDE), draw(_SIDE)
        dt_rows.append((draw(st.integers(1, 3)), draw(st.integers(1, 2)), x, y, x + w, y + h, 0.5))
    gt = pl.DataFrame(gt_rows, orient="row", schema=["image_id", "category_id", "x1", "y1", "x2", "y2", "difficult"])
    dt = pl.DataFrame(dt_rows, orient="row", schema=["image_id", "category_id", "x1", "y1", "x2", "y2", "score"])
    return gt.with_row_index("id", offset=1), dt.with_row_index("id", offset=1)


@pytest.mark.parametrize("engine", ENGINES)
@pytest.mark.parametrize("use_07_metric", [False, True])
@pytest.mark.examples(duckdb=10)
@settings(max_examples=30, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(data=voc_data(), threshold=st.sampled_from([0.5, 0.3, 0.0]))
def test_voc_equals_voc_eval(engine, use_07_metric, data, threshold):
    gt, dt = data
    result = fm.voc_evaluate(gt, dt, iou_threshold=threshold, use_07_metric=use_07_metric, box_format="xyxy",
                             engine=engine)  # fmt: skip
    categories = sorted(set(gt["category_id"]) | set(dt["category_id"]))
    assert result["category_id"].to_list() == categories
    for category, ap in result.iter_rows():
        want = voc_eval(gt, dt, category, threshold, use_07_metric)
        assert (ap is None) == (want is None), category
        if want is not None:
            assert abs(ap - want) <= 1e-12, (category, ap, want)


@pytest.mark.parametrize("engine", ENGINES)
def test_voc_edge_cases(engine):
    gt = pl.DataFrame({
        "image_id": [1, 1, 2], "category_id": [1, 2, 3], "id": [1, 2, 3],
        "x": [0.0, 0.0, 0.0], "y": [0.0, 0.0, 0.0], "w": [9.0, 9.0, 9.0], "h": [9.0, 9.0, 9.0], "difficult": [0, 1, 0],
    })  # fmt: skip
    dt = pl.DataFrame({"image_id": [1], "category_id": [2], "id": [1], "x": [0.0], "y": [0.0], "w": [9.0], "h": [9.0],
                       "score": [0.5]})  # fmt: skip
    result = fm.voc_evaluate(gt, dt, engine=engine)
    # class 1: ground truth, no detection -> 0.0; class 2: all difficult -> null; class 3 likewise 0.0
    assert result.rows() == [(1, 0.0), (2, None), (3, 0.0)]
    assert result.schema == {"category_id": pl.Int64, "ap": pl.Float64}
