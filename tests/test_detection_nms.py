"""Non-maximum suppression equals a plain greedy loop; box_iou equals pycocotools' bbIou."""

from __future__ import annotations

import numpy as np
import polars as pl
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from pycocotools import mask as mask_utils

import framemetrics as fm

ENGINES = ("polars", "duckdb")


def greedy_nms(rows: pl.DataFrame, threshold: float, by: list[str], score_threshold: float | None) -> list[int]:
    """The kept ids: per partition, boxes by score (ties by id), each kept unless a kept box overlaps it above."""
    if score_threshold is not None:
        rows = rows.filter(pl.col("score") > score_threshold)
    kept = []
    groups = rows.group_by(by) if by else [((), rows)]
    for _, group in groups:
        group = group.sort(["score", "id"], descending=[True, False])
        boxes = group.select("x", "y", "w", "h").to_numpy()
        chosen: list[int] = []
        for i in range(len(boxes)):
            if not chosen or mask_utils.iou(boxes[[i]], boxes[chosen], [0] * len(chosen)).max() <= threshold:
                chosen.append(i)
        kept += group["id"].gather(chosen).to_list()
    return sorted(kept)


_COORDINATE = st.sampled_from([0.0, 1.0, 2.0, 3.0, 5.0, 8.0, 13.0])
_SIDE = st.sampled_from([0.0, 2.0, 4.0, 6.0, 10.0])


@st.composite
def boxes(draw):
    n = draw(st.integers(0, 40))
    rows = [
        (draw(st.integers(1, 2)), draw(st.integers(1, 2)), draw(_COORDINATE), draw(_COORDINATE), draw(_SIDE),
         draw(_SIDE), draw(st.sampled_from([0.1, 0.5, 0.5, 0.7, 0.9])), draw(st.sampled_from(["a", "b"])))
        for _ in range(n)
    ]  # fmt: skip
    frame = pl.DataFrame(rows, orient="row", schema=["image_id", "category_id", "x", "y", "w", "h", "score", "tag"])
    return frame.with_row_index("id", offset=1).with_columns(pl.col("id").cast(pl.Int64))


@pytest.mark.parametrize("engine", ENGINES)
@pytest.mark.examples(duckdb=12)
@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(rows=boxes(), threshold=st.sampled_from([0.0, 0.3, 0.5]), score_threshold=st.sampled_from([None, 0.4]),
       by=st.sampled_from([["image_id", "category_id"], ["image_id"], []]))  # fmt: skip
def test_nms_equals_greedy_loop(engine, rows, threshold, score_threshold, by):
    kept = fm.nms(rows, iou_threshold=threshold, by=by or None, score_threshold=score_threshold, engine=engine)
    assert kept.columns == rows.columns
    assert sorted(kept["id"].to_list()) == greedy_nms(rows, threshold, by, score_threshold)
    assert kept.schema == rows.schema


@pytest.mark.parametrize("engine", ENGINES)
def test_nms_on_a_chain_keeps_every_other_box(engine):
    """Each box overlaps the next, scores decreasing: the greedy keeps boxes 1, 3, 5... (one decision per round)."""
    n = 60
    rows = pl.DataFrame({"image_id": [1] * n, "category_id": [1] * n, "id": list(range(1, n + 1)),
                         "x": [float(i) for i in range(n)], "y": [0.0] * n, "w": [1.5] * n, "h": [1.0] * n,
                         "score": [1.0 - i / n for i in range(n)]})  # fmt: skip
    kept = fm.nms(rows, iou_threshold=0.1, engine=engine)
    assert kept["id"].to_list() == list(range(1, n + 1, 2)) == greedy_nms(rows, 0.1, ["image_id"], None)


_BOX = st.tuples(*[st.floats(-50, 50, allow_nan=False)] * 2, *[st.floats(0, 60, allow_nan=False)] * 2)


@settings(max_examples=200, deadline=None)
@given(d=_BOX, g=_BOX, crowd=st.booleans())
def test_box_iou_equals_pycocotools(d, g, crowd):
    frame = pl.DataFrame([(*d, *g, crowd)], orient="row", schema=["x1", "y1", "w1", "h1", "x2", "y2", "w2", "h2", "c"])
    got = frame.select(fm.box_iou(("x1", "y1", "w1", "h1"), ("x2", "y2", "w2", "h2"), iscrowd="c")).item()
    want = mask_utils.iou(np.array([d], dtype=float), np.array([g], dtype=float), [int(crowd)])[0, 0]
    assert got == (0.0 if np.isnan(want) else want)  # NaN where the intersection underflows: 0 here


def test_box_iou_of_corners():
    frame = pl.DataFrame(
        {"a": [0.0], "b": [0.0], "c": [2.0], "d": [2.0], "e": [1.0], "f": [0.0], "g": [3.0], "h": [2.0]}
    )
    iou = frame.select(fm.box_iou(("a", "b", "c", "d"), ("e", "f", "g", "h"), box_format="xyxy")).item()
    assert iou == pytest.approx(1 / 3, abs=1e-15)
