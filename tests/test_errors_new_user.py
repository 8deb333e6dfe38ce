"""Errors that say what to do (issue 36): each mistake a new user makes first, on Polars and DuckDB."""

from __future__ import annotations

import duckdb
import pandas as pd
import polars as pl
import pytest
from reference import close
from sklearn import metrics as skm

import framemetrics as fm
from framemetrics.core.defaults import DEFAULT_METRICS

ENGINES = ("polars", "duckdb")

PROBABILITIES = pl.DataFrame({"y": [0, 1, 1, 0, 1, 0], "p": [0.1, 0.8, 0.6, 0.3, 0.9, 0.55]})


# --- threshold: in [0, 1] where label metrics read y_score ---------------------------------------------------------


@pytest.mark.parametrize("engine", ENGINES)
@pytest.mark.parametrize("threshold", [50, -0.1, 1.0000001])
def test_a_threshold_outside_the_unit_interval_is_rejected_for_label_metrics(engine, threshold):
    """threshold=50 gave F1 = 0.0 silently (every score is below it), while ci=95 was rejected."""
    with pytest.raises(fm.ArgumentError, match=r"threshold must be in \[0, 1\] .* got .*pass y_pred="):
        fm.evaluate(PROBABILITIES, y_true="y", y_score="p", threshold=threshold, metrics=["f1_score"], engine=engine)
    with pytest.raises(fm.ArgumentError, match=r"threshold must be in \[0, 1\]"):
        fm.evaluate(PROBABILITIES, y_true="y", y_score="p", threshold=threshold, engine=engine)  # the defaults
    with pytest.raises(fm.ArgumentError, match=r"threshold must be in \[0, 1\]"):
        fm.sql.query(["accuracy_score"], table="t", y_true="y", y_score="p", threshold=threshold)


@pytest.mark.parametrize("engine", ENGINES)
def test_the_bounds_of_the_unit_interval_and_ranking_only_calls_keep_their_threshold(engine):
    for threshold in (0.0, 1.0):
        got = fm.evaluate(
            PROBABILITIES, y_true="y", y_score="p", threshold=threshold, metrics=["recall_score"], engine=engine
        )
        assert got["recall_score"].item() == (1.0 if threshold == 0.0 else 0.0)
    raw = PROBABILITIES.with_columns(p=pl.col("p") * 100 - 50)  # raw scores: ranking metrics only, any threshold
    got = fm.evaluate(raw, y_true="y", y_score="p", threshold=50, metrics=["roc_auc_score"], engine=engine)
    assert got["roc_auc_score"].item() == 1.0
    assert "roc_auc_score" in fm.sql.query(["roc_auc_score"], table="t", y_true="y", y_score="p", threshold=50)
    labels = raw.with_columns(yhat=(pl.col("p") >= 10).cast(pl.Int64))  # the way for other scores: y_pred
    got = fm.evaluate(labels, y_true="y", y_pred="yhat", threshold=50, metrics=["f1_score"], engine=engine)
    assert got["f1_score"].item() == 1.0


# --- a pandas index level named as a column ---------------------------------------------------------------------


@pytest.mark.parametrize("engine", ENGINES)
def test_by_naming_a_pandas_index_level_says_it_is_the_index(engine):
    frame = pd.DataFrame(
        {"y": [0, 1, 1, 0], "p": [0.1, 0.8, 0.6, 0.3]}, index=pd.Index(["a", "a", "b", "b"], name="segment")
    )
    message = r"column 'segment' \(by\) is the index of the pandas DataFrame, not a column: pass df.reset_index\(\)"
    with pytest.raises(ValueError, match=message):
        fm.evaluate(frame, y_true="y", y_score="p", by="segment", engine=engine)
    with pytest.raises(ValueError, match=message):
        fm.roc_curve(frame, y_true="y", y_score="p", by=["segment"], engine=engine)
    got = fm.evaluate(frame.reset_index(), y_true="y", y_score="p", by="segment", metrics=["roc_auc_score"])
    assert got["segment"].to_list() == ["a", "b"]
    with pytest.raises(ValueError, match=r"column 'y' \(y_true\) is the index"):
        fm.evaluate(frame.set_index("y"), y_true="y", y_score="p", engine=engine)


def test_an_index_level_that_is_also_a_column_is_read_as_the_column():
    frame = pd.DataFrame({"g": ["a", "b"], "y": [0, 1], "p": [0.2, 0.7]}).set_index("g", drop=False)
    assert fm.evaluate(frame, y_true="y", y_score="p", by="g", metrics=["accuracy_score"]).height == 2


# --- a string that is neither a file nor, without con=, a table ----------------------------------------------------


@pytest.mark.parametrize("engine", ENGINES)
def test_a_table_name_without_con_says_it_needs_con(engine, tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    message = r"no file or table 'preds'; a table name needs con= \(DuckDB\) or spark="
    with pytest.raises(ValueError, match=message):
        fm.evaluate("preds", y_true="y", y_score="p", engine=engine)
    (tmp_path / "preds").mkdir()
    with pytest.raises(ValueError, match=r"cannot read 'preds': .* \(a directory: pass a glob, 'preds/\*.parquet'\)"):
        fm.evaluate("preds", y_true="y", y_score="p", engine=engine)
    con = duckdb.connect()
    con.register("staging", PROBABILITIES)
    con.execute("CREATE TABLE preds AS SELECT * FROM staging")
    got = fm.evaluate("preds", y_true="y", y_score="p", metrics=["roc_auc_score"], engine=engine, con=con)
    assert got["roc_auc_score"].item() == 1.0


# --- two text classes without pos_label -----------------------------------------------------------------------------

YES_NO = pl.DataFrame({"y": ["yes", "no", "yes", "no", "yes"], "yhat": ["yes", "yes", "no", "no", "yes"]})


@pytest.mark.parametrize("engine", ENGINES)
@pytest.mark.parametrize("dtype", [pl.String, pl.Categorical, pl.Enum(["no", "yes"])])
def test_two_text_classes_without_pos_label_ask_which_is_positive(engine, dtype):
    """They silently became a multiclass evaluation (f1_macro in place of f1_score)."""
    frame = YES_NO.with_columns(pl.all().cast(dtype))
    message = (
        r"y_true and y_pred hold two classes, 'no' and 'yes': which is positive\? Pass pos_label= and neg_label= "
        r"\(e.g. pos_label='yes', neg_label='no'\) or labels=\['no', 'yes'\] for a binary evaluation, "
        r"or task=\"multiclass\""
    )
    with pytest.raises(fm.ArgumentError, match=message):
        fm.evaluate(frame, y_true="y", y_pred="yhat", engine=engine)
    with pytest.raises(fm.ArgumentError, match=message):
        fm.evaluate(frame.to_pandas(), y_true="y", y_pred="yhat", engine=engine)
    want = skm.f1_score(YES_NO["y"], YES_NO["yhat"], pos_label="yes")
    for kwargs in ({"pos_label": "yes", "neg_label": "no"}, {"labels": ["no", "yes"]}):
        got = fm.evaluate(frame, y_true="y", y_pred="yhat", engine=engine, **kwargs)
        assert got.columns[1:] == list(DEFAULT_METRICS["binary", "y_pred"])
        assert close(got["f1_score"].item(), want)
    multiclass = fm.evaluate(frame, y_true="y", y_pred="yhat", task="multiclass", engine=engine)
    assert close(multiclass["f1_macro"].item(), skm.f1_score(YES_NO["y"], YES_NO["yhat"], average="macro"))


@pytest.mark.parametrize("engine", ENGINES)
def test_three_text_classes_or_one_stay_multiclass(engine):
    three = YES_NO.with_columns(yhat=pl.Series(["yes", "maybe", "no", "no", "yes"]))
    assert "f1_macro" in fm.evaluate(three, y_true="y", y_pred="yhat", engine=engine).columns
    one = YES_NO.with_columns(y=pl.lit("yes"), yhat=pl.lit("yes"))
    assert "f1_macro" in fm.evaluate(one, y_true="y", y_pred="yhat", engine=engine).columns
