"""fm.sql.query writes plain, quoted SQL that equals evaluate on DuckDB."""

from __future__ import annotations

import math
import re
from pathlib import Path

import duckdb
import numpy as np
import polars as pl
import pytest
from polars.testing import assert_frame_equal

import framemetrics as fm

SNAPSHOTS = Path(__file__).parent / "snapshots"


def _preds() -> pl.DataFrame:
    return pl.read_csv("data/default_predictions.csv")


def test_query_runs_without_macros_and_equals_evaluate():
    con = duckdb.connect()
    con.register("preds", _preds())
    metrics = ["f1_score", "log_loss", "matthews_corrcoef"]
    sql = fm.sql.query(metrics, table="preds", y_true="default", y_score="p_default", by=["student", "fold"])
    assert not re.search(r"\bfm_\w+\s*\(", sql), "a macro call is left in the SQL"
    got = con.sql(sql).pl()
    want = fm.evaluate(_preds(), y_true="default", y_score="p_default", by=["student", "fold"], metrics=metrics)
    assert_frame_equal(got, want, rel_tol=1e-12)


SNAPSHOT_CASES = {
    "classification_by_student.sql": lambda d: fm.sql.query(
        ["f1_score", "log_loss"], table="preds", y_true="default", y_score="p_default", by="student", dialect=d
    ),
    "ranking_weighted_by_student.sql": lambda d: fm.sql.query(
        ["roc_auc_score", "average_precision_score", "f1_score"],
        table="preds",
        y_true="default",
        y_score="p_default",
        sample_weight="w",
        by="student",
        dialect=d,
    ),
    "regression_weighted_by_season.sql": lambda d: fm.sql.query(
        ["r2_score", "root_mean_squared_error", "median_absolute_error"],
        table="bikes",
        y_true="bikers",
        y_pred="predicted_bikers",
        sample_weight="w",
        by=["season"],
        dialect=d,
    ),
    "partial_aucs_by_student.sql": lambda d: fm.sql.query(
        ["roc_auc_score(max_fpr=0.1)", "roc_auc_score(max_fpr=0.2)"],
        table="preds",
        y_true="default",
        y_score="p_default",
        by="student",
        dialect=d,
    ),
    "roc_curve_by_student.sql": lambda d: fm.sql.curve(
        "roc_curve", table="preds", y_true="default", y_score="p_default", by="student", dialect=d
    ),
    "multiclass_by_segment.sql": lambda d: fm.sql.multiclass_query(
        ["f1_macro", "cohen_kappa_score", "roc_auc_ovr"],
        table="preds",
        y_true="y",
        y_pred="yhat",
        y_score=["p_a", "p_b", "p_c"],
        labels=["a", "b", "c"],
        by="segment",
        dialect=d,
    ),
}
# DuckDB's snapshots at the top; BigQuery and Snowflake, which no test engine runs, reviewed as text.
SNAPSHOT_DIALECTS = ("duckdb", "bigquery", "snowflake")


def snapshot_path(name: str, dialect: str) -> Path:
    return SNAPSHOTS / name if dialect == "duckdb" else SNAPSHOTS / dialect / name


@pytest.mark.parametrize("dialect", SNAPSHOT_DIALECTS)
@pytest.mark.parametrize("snapshot", list(SNAPSHOT_CASES))
def test_generated_sql_matches_its_snapshot(snapshot, dialect):
    """A change to the generated SQL shows in review as a change to tests/snapshots."""
    assert SNAPSHOT_CASES[snapshot](dialect) + "\n" == snapshot_path(snapshot, dialect).read_text()


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
    con = duckdb.connect()
    con.register("t", pl.DataFrame({"y": [1, None, 0, 1], "p": [1, 1, None, 0]}))
    sql = fm.sql.query("f1_score", table="t", y_true="y", y_pred="p", nulls="drop")
    assert "WHERE" in sql
    assert con.sql(sql).fetchall() == [(2, 2 / 3)]


def test_a_label_that_looks_like_sql_stays_a_literal():
    sql = fm.sql.query("f1_score", table="t", y_true="y", y_pred="p", pos_label="fm_log1p(1)", neg_label="no")
    assert "'fm_log1p(1)'" in sql


FRAME = pl.DataFrame(
    {"y": [0, 1, 1, 0, 1, 0], "p": [0.1, 0.8, 0.4, 0.6, 0.9, 0.3], "g": ["a", "a", "a", "b", "b", "b"]}
)


def _sql_rows(sql: str) -> list[tuple]:
    con = duckdb.connect()
    con.register("t", FRAME)
    return con.sql(sql).fetchall()


@pytest.mark.parametrize("beta", [np.float64(2.0), np.float32(2.0), np.int64(2), 2])
def test_numpy_parameters_give_the_same_value_on_every_path(beta):
    """NumPy scalars are accepted wherever Python numbers are, with the same value on every path."""
    metrics = {"fbeta_score": {"beta": beta, "zero_division": np.int64(0)}}
    kwargs = {"y_true": "y", "y_score": "p", "by": "g", "threshold": np.float32(0.5), "metrics": metrics}
    sql = fm.sql.query(kwargs.pop("metrics"), table="t", **kwargs)
    expected = [(g, n, v) for g, n, v in _sql_rows(sql)]
    for engine in ("polars", "duckdb"):
        assert fm.evaluate(FRAME, metrics=metrics, engine=engine, **kwargs).rows() == expected


@pytest.mark.parametrize(
    ("entry", "by"),
    [
        (lambda by: fm.sql.query("f1_score", table="t", y_true="y", y_score="p", by=by), "n_rows"),
        (lambda by: fm.sql.query("f1_score", table="t", y_true="y", y_score="p", by=by), "f1_score"),
        (
            lambda by: fm.sql.query("f1_score", table="t", y_true="y", y_score="p", by=by, checks=True),
            "invalid_label_y_true",
        ),
        (lambda by: fm.sql.curve("roc_curve", table="t", y_true="y", y_score="p", by=by), "threshold"),
        (lambda by: fm.sql.curve("det_curve", table="t", y_true="y", y_score="p", by=by), "fnr"),
        (lambda by: fm.sql.calibration_curve(table="t", y_true="y", y_score="p", by=by), "bin"),
        (lambda by: fm.sql.multiclass_query("accuracy_score", table="t", y_true="y", y_pred="p", by=by), "n_rows"),
    ],
)
def test_sql_entry_points_reject_a_group_column_named_like_an_output(entry, by):
    """As their Python counterparts: a clash would reorder rows or rename an output."""
    with pytest.raises(ValueError, match=f"group column '{by}' clashes"):
        entry(by)


@pytest.mark.parametrize("threshold", ["0.5", True, float("nan"), float("inf"), None])
def test_sql_query_rejects_a_threshold_that_evaluate_rejects(threshold):
    with pytest.raises(ValueError, match="threshold must be a finite number"):
        fm.sql.query("f1_score", table="t", y_true="y", y_score="p", threshold=threshold)
    with pytest.raises(ValueError, match="threshold must be a finite number"):
        fm.evaluate(FRAME, y_true="y", y_score="p", metrics="f1_score", threshold=threshold)


def test_pos_label_none_is_an_error_on_every_path():
    """Not null metrics on DuckDB (y = NULL matches no row) and a number for log_loss."""
    with pytest.raises(ValueError, match="pos_label must be a label"):
        fm.sql.query(["f1_score", "log_loss"], table="t", y_true="y", y_score="p", pos_label=None, neg_label=0)
    for engine in ("polars", "duckdb"):
        with pytest.raises(ValueError, match="pos_label must be a label"):
            fm.evaluate(FRAME, y_true="y", y_score="p", metrics="log_loss", pos_label=None, neg_label=0, engine=engine)


def test_a_column_is_read_by_its_exact_name():
    """DuckDB reads quoted "P" from a column p: the SQL selects columns by exact name, or fails naming them."""
    frame = pl.DataFrame({"y": [0, 1, 1, 0], "p": [0.1, 0.2, 0.9, 0.8], "Q": [0.9, 0.8, 0.1, 0.2]})
    con = duckdb.connect()
    con.register("t", frame)
    sql = fm.sql.query("roc_auc_score", table="t", y_true="y", y_score="Q")
    assert con.sql(sql).fetchall() == [(4, 0.25)]
    with pytest.raises(duckdb.BinderException, match="'P'"):
        con.sql(fm.sql.query("roc_auc_score", table="t", y_true="y", y_score="P")).fetchall()
    with pytest.raises(duckdb.BinderException, match="'q'"):
        con.sql(fm.sql.query("roc_auc_score", table="t", y_true="y", y_score="q")).fetchall()
    both = pl.DataFrame({"y": [0, 1, 1, 0], "p": [0.1, 0.2, 0.9, 0.8], "P": [0.9, 0.8, 0.1, 0.2]})
    con.register("both", both)
    for name in ("p", "P"):
        sql = fm.sql.query("roc_auc_score", table="both", y_true="y", y_score=name)
        try:
            got = con.sql(sql).fetchall()
        except duckdb.BinderException as error:  # DuckDB renamed the second column: fail, naming it
            assert f"'{name}'" in str(error)
        else:
            assert got == fm.evaluate(both, y_true="y", y_score=name, metrics="roc_auc_score", engine="polars").rows()


@pytest.mark.parametrize("value", [float("nan"), float("inf"), float("-inf"), 0.1, -0.0, 1e-300])
def test_float_literals_keep_their_value(value):
    from framemetrics.compilers.sql import SQL
    from framemetrics.compilers.sql.emit import to_sql

    got = duckdb.connect().execute(f"SELECT {to_sql(SQL.lit(value))}").fetchone()[0]
    assert (math.isnan(got) and math.isnan(value)) or got == value


@pytest.mark.parametrize(
    ("make", "hints"),
    [
        (lambda d: fm.sql.query("roc_auc_score", table="t", y_true="y", y_score="p", by=["g"], dialect=d), 1),
        (lambda d: fm.sql.query("roc_auc_score", table="t", y_true="y", y_score="p", dialect=d), 0),
        (lambda d: fm.sql.curve("roc_curve", table="t", y_true="y", y_score="p", by="g", dialect=d), 1),
        (lambda d: fm.sql.query("accuracy_score", table="t", y_true="y", y_pred="p", by=["g"], dialect=d), 0),
    ],
)
def test_spark_distributes_the_curve_stage_by_group_only(make, hints):
    """Spark repartitions the rows of each grouped curve stage by the group (one shuffle for the
    aggregate and the window); no other dialect carries a hint."""
    assert make("spark").count("/*+ REPARTITION(fm_g0) */") == hints
    assert all("/*+" not in make(d) for d in ("duckdb", "postgres", "clickhouse", "datafusion", "bigquery"))


def test_clickhouse_statements_fit_its_parser():
    """ClickHouse's text: double literals bare, one line past its 256 KiB ``max_query_size`` (indented
    below it), and the planner setting that keeps the Beta quantile's stages apart only where they are."""
    request = {"table": "t", "y_true": "y", "y_score": "p", "sample_weight": "w", "by": "g", "ci": 0.9}
    wilson = fm.sql.query(["precision_score", "accuracy_score"], dialect="clickhouse", **request)
    exact = fm.sql.query("precision_score", ci_method="clopper-pearson", dialect="clickhouse", **request)
    assert "\n" in wilson and "\n" not in exact
    assert len(exact.encode()) <= 256 * 1024 < len(fm.sql.query("precision_score", ci_method="clopper-pearson",
                                                                   **request).encode())  # fmt: skip
    assert "query_plan_merge_expressions = 0" in exact and "query_plan_merge_expressions" not in wilson
    assert "AS Nullable(Float64))" in wilson  # columns are still cast
    assert not re.search(r"CAST\(-?[0-9.]+(e[-+]?[0-9]+)? AS Nullable\(Float64\)\)", exact + wilson)
    for dialect in ("bigquery", "snowflake"):
        with pytest.raises(ValueError, match=f"Clopper-Pearson's interval on {dialect}: its Beta quantile"):
            fm.sql.query("precision_score", ci_method="clopper-pearson", dialect=dialect, **request)
