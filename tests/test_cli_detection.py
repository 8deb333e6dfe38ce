"""``framemetrics detection`` on the COCO fixture and on tables: the library's numbers, its errors' exit codes."""

from __future__ import annotations

import io

import polars as pl
import pytest
from click.testing import CliRunner
from coco_reference import coco_files
from polars.testing import assert_frame_equal

import framemetrics as fm
from framemetrics.cli import cli


@pytest.fixture(scope="module")
def coco_json() -> tuple[str, str]:
    gt, dt = coco_files()
    return str(gt), str(dt)


def invoke(*args: str) -> tuple[int, str, str]:
    result = CliRunner().invoke(cli, list(args), catch_exceptions=False)
    return result.exit_code, result.stdout, result.stderr


@pytest.fixture(scope="module")
def tables(tmp_path_factory: pytest.TempPathFactory) -> dict[str, str]:
    gt, dt, images = fm.read_coco(*coco_files())
    folder = tmp_path_factory.mktemp("detection")
    paths = {}
    for name, frame in {"gt": gt, "dt": dt, "images": images.select("image_id", camera=pl.col("image_id") % 3)}.items():
        paths[name] = str(folder / f"{name}.parquet")
        frame.write_parquet(paths[name])
    bad = dt.with_columns(score=pl.when(pl.col("id") <= 2).then(float("nan")).otherwise(pl.col("score")))
    paths["bad"] = str(folder / "bad.parquet")
    bad.write_parquet(paths["bad"])
    return paths


@pytest.mark.parametrize("engine", ["duckdb", "polars"])
def test_coco_json_gives_the_library_stats(engine, coco_json):
    code, out, _ = invoke("detection", *coco_json, "--engine", engine, "--format", "csv")
    assert code == 0
    gt, dt, images = fm.read_coco(*coco_json)
    assert_frame_equal(
        pl.read_csv(io.StringIO(out)), fm.coco_evaluate(gt, dt, images=images), rel_tol=1e-12, abs_tol=1e-12
    )


def test_tables_with_segments_and_voc(tables):
    code, out, _ = invoke("detection", tables["gt"], tables["dt"], "--images", tables["images"], "--by", "camera",
                          "--format", "csv")  # fmt: skip
    assert code == 0
    expected = fm.coco_evaluate(tables["gt"], tables["dt"], images=tables["images"], by="camera")
    assert_frame_equal(pl.read_csv(io.StringIO(out)), expected, rel_tol=1e-12, abs_tol=1e-12)
    code, out, _ = invoke("detection", tables["gt"], tables["dt"], "--metric", "voc", "--use-07-metric",
                          "--format", "json")  # fmt: skip
    assert code == 0
    expected = fm.voc_evaluate(tables["gt"], tables["dt"], use_07_metric=True)
    assert pl.read_json(io.StringIO(out))["ap"].to_list() == pytest.approx(expected["ap"].to_list(), nan_ok=True)


def test_errors_and_exit_codes(tables, coco_json):
    gt_json, dt_json = coco_json
    code, _, err = invoke("detection", tables["gt"], tables["bad"])
    assert code == 1 and "column 'score' (detections): 2 rows are null, NaN or infinite" in err
    code, _, err = invoke("detection", "missing.json", dt_json)
    assert code == 3
    code, _, err = invoke("detection", gt_json, dt_json, "--engine", "polars", "--memory-limit", "1GB")
    assert code == 2 and "--memory-limit" in err
    code, _, err = invoke("detection", gt_json, dt_json, "--by", "camera")
    assert code == 1 and "'camera'" in err
