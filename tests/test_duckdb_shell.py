"""The macro file works in the DuckDB shell itself, with no Python (the duckdb-cli test extra)."""

from __future__ import annotations

import shutil
import subprocess
import sys
from pathlib import Path

import polars as pl
from reference import close

import framemetrics as fm


def _duckdb_cli() -> str:
    beside_python = Path(sys.executable).parent / "duckdb"
    found = str(beside_python) if beside_python.exists() else shutil.which("duckdb")
    assert found, "the duckdb shell (PyPI package duckdb-cli, in the test extras) is not installed"
    return found


def test_read_macros_then_aggregate_in_the_shell(tmp_path):
    query = (
        'SELECT student, fm_f1_score("default", p_default >= 0.5) AS f1, '
        'fm_log_loss("default", p_default, sample_weight := fold) AS log_loss '
        "FROM read_csv('data/default_predictions.csv') GROUP BY ALL ORDER BY student"
    )
    out = tmp_path / "out.csv"
    subprocess.run(
        [_duckdb_cli(), "-c", f".read {fm.sql.macro_file()}", "-c", f"COPY ({query}) TO '{out}' (HEADER)"],
        check=True,
        capture_output=True,
    )
    shell = pl.read_csv(out)
    df = pl.read_csv("data/default_predictions.csv")
    f1 = fm.evaluate(df, y_true="default", y_score="p_default", by="student", metrics="f1_score")
    loss = fm.evaluate(
        df, y_true="default", y_score="p_default", by="student", metrics="log_loss", sample_weight="fold"
    )
    assert all(close(a, b) for a, b in zip(shell["f1"], f1["f1_score"], strict=True))
    assert all(close(a, b) for a, b in zip(shell["log_loss"], loss["log_loss"], strict=True))
