"""Bad detection input raises the same error on every engine, naming the column, its table and the count."""

from __future__ import annotations

import polars as pl
import pytest

import framemetrics as fm

ENGINES = ("polars", "duckdb")


def _gt(**changes) -> pl.DataFrame:
    base = {"image_id": [1, 1, 2], "category_id": [1, 1, 1], "id": [1, 2, 3], "x": [0.0, 5.0, 0.0],
            "y": [0.0, 5.0, 0.0], "w": [4.0, 4.0, 4.0], "h": [4.0, 4.0, 4.0], "area": [16.0, 16.0, 16.0],
            "iscrowd": [0, 0, 1]}  # fmt: skip
    return pl.DataFrame({**base, **changes})


def _dt(**changes) -> pl.DataFrame:
    base = {"image_id": [1, 2], "category_id": [1, 1], "id": [1, 2], "x": [0.0, 0.0], "y": [0.0, 0.0],
            "w": [4.0, 4.0], "h": [4.0, 4.0], "score": [0.9, 0.5]}  # fmt: skip
    return pl.DataFrame({**base, **changes})


CASES = {
    "null ground-truth id": ({"gt": _gt(id=[1, None, 3])}, "column 'id' (ground truth): 1 row is null"),
    "repeated detection id": ({"dt": _dt(id=[7, 7])}, "column 'id' (detections): 2 rows are not unique"),
    "NaN width": ({"gt": _gt(w=[4.0, float("nan"), 4.0])}, "column 'w' (ground truth): 1 row is null, NaN or infinite"),
    "infinite score": ({"dt": _dt(score=[float("inf"), 0.5])}, "column 'score' (detections): 1 row is null, NaN"),
    "null score": ({"dt": _dt(score=[None, 0.5])}, "column 'score' (detections): 1 row is null, NaN or infinite"),
    "negative height": ({"dt": _dt(h=[-1.0, 4.0])}, "column 'w, h' (detections): 1 row is negative"),
    "iscrowd 2": ({"gt": _gt(iscrowd=[0, 2, None])}, "column 'iscrowd' (ground truth): 2 rows are null or not 0 or 1"),
    "negative area": ({"gt": _gt(area=[16.0, -1.0, 16.0])}, "column 'area' (ground truth): 1 row is null, NaN, infinite"),
    "unlisted image": ({"images": pl.DataFrame({"image_id": [1]})},
                       "column 'image_id' (detections): 1 row is on an image that images does not list"),
    "image listed twice": ({"images": pl.DataFrame({"image_id": [1, 2, 2]})}, "column 'image_id' (images): 2 rows are not unique"),
    "segments disagree": ({"gt": _gt().with_columns(cam=pl.lit("a")), "dt": _dt().with_columns(cam=pl.lit("b")), "by": "cam"},
                          "2 images have different values of 'cam' in ground truth and detections"),
    "missing column": ({"dt": _dt().drop("score")}, "column 'score' (detections) not found"),
}  # fmt: skip


@pytest.mark.parametrize("engine", ENGINES)
@pytest.mark.parametrize("case", list(CASES))
def test_coco_bad_input(engine, case):
    arguments, message = CASES[case]
    arguments = {"gt": _gt(), "dt": _dt(), **arguments}
    with pytest.raises(ValueError, match=message.replace("(", r"\(").replace(")", r"\)")):
        fm.coco_evaluate(**arguments, engine=engine)


@pytest.mark.parametrize("engine", ENGINES)
def test_voc_and_nms_bad_input(engine):
    with pytest.raises(ValueError, match=r"column 'difficult' \(ground truth\): 1 row is null or not 0 or 1"):
        fm.voc_evaluate(_gt(difficult=[0, 3, 1]), _dt(), engine=engine)
    with pytest.raises(ValueError, match=r"column 'x' \(detections\): 1 row is null, NaN or infinite"):
        fm.nms(_dt(x=[None, 0.0]), engine=engine)
    with pytest.raises(ValueError, match="iou_threshold must be in"):
        fm.nms(_dt(), iou_threshold=1.5, engine=engine)


def test_every_engine_raises_the_same_message():
    gt = _gt(w=[4.0, float("nan"), -1.0], id=[1, 1, None])
    messages = []
    for engine in ENGINES:
        with pytest.raises(ValueError) as error:
            fm.coco_evaluate(gt, _dt(), engine=engine)
        messages.append(str(error.value))
    assert messages[0] == messages[1]
    assert "column 'id' (ground truth): 2 rows are not unique" in messages[0]
