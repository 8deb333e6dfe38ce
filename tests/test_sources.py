"""evaluate reads every supported source the same way on both engines."""

from __future__ import annotations

import duckdb
import polars as pl
import pyarrow.dataset as ds
import pytest
from polars.testing import assert_frame_equal

import framemetrics as fm

ENGINES = ("polars", "duckdb")
METRICS = ["accuracy_score", "f1_score", "log_loss"]


@pytest.fixture(scope="module")
def frame() -> pl.DataFrame:
    return pl.read_csv("data/default_predictions.csv").head(3000)


@pytest.fixture(scope="module")
def expected(frame) -> pl.DataFrame:
    return fm.evaluate(frame, y_true="default", y_score="p_default", by="student", metrics=METRICS)


def _run(source, engine, con=None):
    return fm.evaluate(
        source, y_true="default", y_score="p_default", by="student", metrics=METRICS, engine=engine, con=con
    )


@pytest.mark.parametrize("engine", ENGINES)
def test_in_memory_sources(engine, frame, expected):
    for source in (frame, frame.lazy(), frame.to_arrow(), ds.dataset(frame.to_arrow())):
        assert_frame_equal(_run(source, engine), expected, rel_tol=1e-12)


@pytest.mark.parametrize("engine", ENGINES)
def test_files_and_globs(engine, frame, expected, tmp_path):
    frame.head(1000).write_parquet(tmp_path / "part-1.parquet")
    frame.slice(1000).write_parquet(tmp_path / "part-2.parquet")
    frame.write_csv(tmp_path / "all.csv")
    assert_frame_equal(_run(str(tmp_path / "part-*.parquet"), engine), expected, rel_tol=1e-12)
    assert_frame_equal(_run(tmp_path / "all.csv", engine), expected, rel_tol=1e-12)


@pytest.mark.parametrize("engine", ENGINES)
def test_duckdb_relation_and_table(engine, frame, expected):
    con = duckdb.connect()
    con.register("staging", frame)
    con.execute('CREATE TABLE "my preds" AS SELECT * FROM staging')
    assert_frame_equal(_run(con.sql('SELECT * FROM "my preds"'), engine), expected, rel_tol=1e-12)
    assert_frame_equal(_run("my preds", engine, con=con), expected, rel_tol=1e-12)


@pytest.mark.parametrize("engine", ENGINES)
def test_missing_file_and_unknown_source(engine, tmp_path):
    with pytest.raises(ValueError, match="no file matches"):
        _run(str(tmp_path / "nothing-*.parquet"), engine)
    with pytest.raises(TypeError, match="cannot read"):
        _run({"not": "a frame"}, engine)
    with pytest.raises(ValueError, match=r"no file or table 'a_table_name'; a table name needs con= \(DuckDB\)"):
        _run("a_table_name", engine)


def test_frames_registered_on_a_user_connection_are_released(frame):
    con = duckdb.connect()
    before = con.sql("SELECT count(*) FROM duckdb_views() WHERE NOT internal").fetchall()
    _run(frame, "duckdb", con=con)
    assert con.sql("SELECT count(*) FROM duckdb_views() WHERE NOT internal").fetchall() == before
