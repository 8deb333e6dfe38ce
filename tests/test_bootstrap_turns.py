"""The bootstrap's batches of replicates computed in turns (issue 37): the same intervals, one batch at a time.

Polars collects each batch before the next; DuckDB running the statement
makes each a temporary table first (dropped after); the SQL text keeps them
in one statement. All give the same bounds, the engines report each batch
done (the command line shows them), and no temporary table is left behind.
"""

from __future__ import annotations

import io
import time

import duckdb
import numpy as np
import polars as pl
import pytest
from rich.console import Console

import framemetrics as fm
from framemetrics.cli.progress import progress
from framemetrics.core.resampling import BATCH
from framemetrics.core.turns import listening, turn_done

N_RESAMPLES = 3 * BATCH + 5  # four batches


def _frame() -> pl.DataFrame:
    rng = np.random.default_rng(7)
    n = 600
    y = rng.integers(0, 2, n)
    return pl.DataFrame({"g": rng.choice(["a", "b"], n), "y": y, "p": np.clip(0.3 * y + rng.random(n) * 0.7, 0, 1)})


ARGUMENTS = {"y_true": "y", "y_score": "p", "by": "g", "metrics": ["f1_score", "average_precision_score", "ks_statistic"],
             "ci": 0.9, "ci_method": "bootstrap", "n_resamples": N_RESAMPLES}  # fmt: skip


@pytest.mark.parametrize("engine", ["polars", "duckdb"])
def test_each_batch_is_computed_in_turn_and_reported(engine):
    heard = []
    with listening(lambda done, total: heard.append((done, total))):
        out = fm.evaluate(_frame(), engine=engine, **ARGUMENTS)
    assert heard == [(k, 4) for k in range(1, 5)]
    assert out["average_precision_score_low"].null_count() == 0


def test_the_batches_in_turn_equal_the_one_statement_of_the_sql_text():
    df = _frame()
    con = duckdb.connect()
    con.register("data", df)
    text = con.sql(fm.sql.query(table="data", **ARGUMENTS)).pl().sort("g")
    assert "fm_turn" not in fm.sql.query(table="data", **ARGUMENTS)
    for engine in ("polars", "duckdb"):
        out = fm.evaluate(df, engine=engine, **ARGUMENTS).sort("g")
        for column in out.columns[1:]:
            assert np.allclose(out[column].to_numpy(), text[column].to_numpy(), rtol=1e-12, atol=0), (engine, column)


def test_no_temporary_table_is_left_behind():
    con = duckdb.connect()
    con.execute("CREATE TABLE data AS SELECT range % 2 AS y, (range % 7) / 7 AS p, range % 3 AS g FROM range(300)")
    fm.evaluate(con.table("data"), engine="duckdb", **ARGUMENTS)
    tables = con.sql("SELECT table_name FROM duckdb_tables() WHERE table_name LIKE 'fm_turn%'").fetchall()
    assert tables == []


def test_the_command_line_progress_shows_the_batches():
    terminal = Console(file=io.StringIO(), force_terminal=True, width=160)
    with progress(terminal, "Evaluating"):
        for k in (1, 2):
            turn_done(k, 2)
            time.sleep(0.45)  # the progress line is redrawn every 0.2 s
    assert "bootstrap: 1 of 2 batches of replicates" in terminal.file.getvalue()
