"""``framemetrics detection`` on the COCO fixture and on tables: the library's numbers, its errors' exit codes."""

from __future__ import annotations

import io
from pathlib import Path

import polars as pl
import pytest
from click.testing import CliRunner
from polars.testing import assert_frame_equal

import framemetrics as fm
from framemetrics.cli import cli

COCO_DIR = Path(__file__).resolve().parents[2] / "shared" / "data" / "coco"
GT_JSON = str(COCO_DIR / "instances_val2014_100.json")
DT_JSON = str(COCO_DIR / "instances_val2014_fakebbox100_results.json")


def invoke(*args: str) -> tuple[int, str, str]:
    result = CliRunner().invoke(cli, list(args), catch_exceptions=False)
    return result.exit_code, result.stdout, result.stderr


@pytest.fixture(scope="module")
def tables(tmp_path_factory: pytest.TempPathFactory) -> dict[str, str]:
    gt, dt, images = fm.read_coco(GT_JSON, DT_JSON)
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
def test_coco_json_gives_the_library_stats(engine):
    code, out, _ = invoke("detection", GT_JSON, DT_JSON, "--engine", engine, "--format", "csv")
    assert code == 0
    gt, dt, images = fm.read_coco(GT_JSON, DT_JSON)
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


def test_errors_and_exit_codes(tables):
    code, _, err = invoke("detection", tables["gt"], tables["bad"])
    assert code == 1 and "column 'score' (detections): 2 rows are null, NaN or infinite" in err
    code, _, err = invoke("detection", "missing.json", DT_JSON)
    assert code == 3
    code, _, err = invoke("detection", GT_JSON, DT_JSON, "--engine", "polars", "--memory-limit", "1GB")
    assert code == 2 and "--memory-limit" in err
    code, _, err = invoke("detection", GT_JSON, DT_JSON, "--by", "camera")
    assert code == 1 and "'camera'" in err
