"""fm.sql.query writes plain, quoted SQL that equals evaluate on DuckDB."""

from __future__ import annotations

from pathlib import Path

import duckdb
import polars as pl
import pytest
from polars.testing import assert_frame_equal

import framemetrics as fm
from framemetrics.sql.macros import expand, macros

SNAPSHOTS = Path(__file__).parent / "snapshots"


def _preds() -> pl.DataFrame:
    return pl.read_csv("data/default_predictions.csv")


def test_query_runs_without_macros_and_equals_evaluate():
    con = duckdb.connect()
    con.register("preds", _preds())
    metrics = ["f1_score", "log_loss", "matthews_corrcoef"]
    sql = fm.sql.query(metrics, table="preds", y_true="default", y_score="p_default", by=["student", "fold"])
    assert "fm_" not in sql.replace("fm_input", "").replace("fm_statistics", "").replace("fm_g", "")
    got = con.sql(sql).pl()
    want = fm.evaluate(_preds(), y_true="default", y_score="p_default", by=["student", "fold"], metrics=metrics)
    assert_frame_equal(got, want, rel_tol=1e-12)


@pytest.mark.parametrize(
    ("snapshot", "kwargs"),
    [
        (
            "classification_by_student.sql",
            dict(metrics=["f1_score", "log_loss"], table="preds", y_true="default", y_score="p_default", by="student"),
        ),
        (
            "ranking_weighted_by_student.sql",
            dict(
                metrics=["roc_auc_score", "average_precision_score", "f1_score"],
                table="preds",
                y_true="default",
                y_score="p_default",
                sample_weight="w",
                by="student",
            ),
        ),
        (
            "regression_weighted_by_season.sql",
            dict(
                metrics=["r2_score", "root_mean_squared_error"],
                table="bikes",
                y_true="bikers",
                y_pred="predicted_bikers",
                sample_weight="w",
                by=["season"],
            ),
        ),
    ],
)
def test_generated_sql_matches_its_snapshot(snapshot, kwargs):
    """A change to the generated SQL shows in review as a change to tests/snapshots."""
    assert fm.sql.query(**kwargs) + "\n" == (SNAPSHOTS / snapshot).read_text()


HOSTILE = ['y"; DROP TABLE preds; --', "it's", "ünï cödé", "select", 'a""b']


@pytest.mark.parametrize("name", HOSTILE)
def test_hostile_identifiers_are_quoted(name):
    df = pl.DataFrame({name: [0, 1, 1, 0], f"{name}_p": [0.1, 0.9, 0.4, 0.3], f"{name}_g": ["x", "x", "y", "y"]})
    con = duckdb.connect()
    con.register("t", df)
    con.execute(f"CREATE TABLE {fm.sql.quote_identifier(name)} AS SELECT * FROM t")
    sql = fm.sql.query("accuracy_score", table=name, y_true=name, y_score=f"{name}_p", by=f"{name}_g")
    got = con.sql(sql).pl()
    assert got.columns == [f"{name}_g", "n_rows", "accuracy_score"]
    for engine in ("polars", "duckdb"):
        out = fm.evaluate(df, y_true=name, y_score=f"{name}_p", by=f"{name}_g", metrics="accuracy_score", engine=engine)
        assert_frame_equal(out, got)
    assert con.sql("SELECT count(*) FROM t").fetchall() == [(4,)]


def test_string_parameters_are_literals():
    sql = fm.sql.query("f1_score", table="t", y_true="y", y_pred="p", pos_label="it's", neg_label="no")
    assert "'it''s'" in sql


def test_nulls_drop_adds_a_where_clause():
    sql = fm.sql.query("f1_score", table="t", y_true="y", y_pred="p", nulls="drop")
    assert 'WHERE ("y") IS NOT NULL AND ("p") IS NOT NULL' in sql


def test_expand_inlines_nested_macros():
    text = expand("fm_stat_sum_sq_log_error", {})
    assert "fm_" not in text and "ln(1 + (CAST(y_true AS DOUBLE)))" in text
    assert all(expand(name, {}) for name in macros())


def test_literals_are_never_expanded_as_macros():
    sql = fm.sql.query("f1_score", table="t", y_true="y", y_pred="p", pos_label="fm_log1p(1)", neg_label="no")
    assert "'fm_log1p(1)'" in sql
