"""Errors that say what to do (issue 36): each mistake a new user makes first, on Polars and DuckDB."""

from __future__ import annotations

import math

import duckdb
import pandas as pd
import polars as pl
import pytest
from reference import close
from sklearn import metrics as skm

import framemetrics as fm
from framemetrics.compilers.polars import POLARS
from framemetrics.core.checks import DOMAINS, check
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
    for name in ("preds", tmp_path / "preds"):
        with pytest.raises(ValueError, match=message.replace("'preds'", f"'{name}'")):
            fm.evaluate(name, y_true="y", y_score="p", engine=engine)
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


# --- invalid rows: one sentence per column, each problem once ---------------------------------------------------------

NAN_SCORES = pl.DataFrame({"y": [0, 1, 1, 0, 1, 0, 1], "p": [math.nan] * 5 + [0.3, 0.4]})


@pytest.mark.parametrize("engine", ENGINES)
def test_nan_scores_are_told_once(engine):
    """The 5 NaN rows were told three times ("null or NaN; null, NaN or infinite; null, NaN or outside [0, 1]")."""
    with pytest.raises(ValueError) as error:
        fm.evaluate(NAN_SCORES, y_true="y", y_score="p", engine=engine)  # thresholded, ranking and probability
    assert str(error.value) == "invalid input: column 'p' (y_score): 5 rows are null or NaN"
    mixed = NAN_SCORES.with_columns(p=pl.Series([math.nan, None, math.inf, 1.5, -0.5, 0.3, 0.4]))
    with pytest.raises(ValueError) as error:
        fm.evaluate(mixed, y_true="y", y_score="p", engine=engine)
    assert str(error.value) == (
        "invalid input: column 'p' (y_score): 2 rows are null or NaN, 1 is infinite, 2 are outside [0, 1] "
        "(1 row has a null: nulls='drop' drops such rows)"
    )


@pytest.mark.parametrize("engine", ENGINES)
def test_a_check_that_finds_nothing_rules_its_problems_out(engine):
    outside = NAN_SCORES.with_columns(p=pl.Series([1.5, -0.5, 0.2, 0.3, 0.4, 0.3, 0.4]))
    with pytest.raises(ValueError) as error:
        fm.evaluate(outside, y_true="y", y_score="p", metrics=["f1_score", "log_loss"], engine=engine)
    assert str(error.value) == "invalid input: column 'p' (y_score): 2 rows are outside [0, 1]"
    with pytest.raises(ValueError) as error:  # one check on the column: its words as they were
        fm.evaluate(outside, y_true="y", y_score="p", metrics=["log_loss"], engine=engine)
    assert str(error.value) == "invalid input: column 'p' (y_score): 2 rows are null, NaN or outside [0, 1]"


@pytest.mark.parametrize("engine", ENGINES)
def test_nulls_drop_says_that_nan_is_not_dropped(engine):
    """A Polars NaN is not a null: nulls="drop" keeps it, and the message now says so."""
    with pytest.raises(ValueError) as error:
        fm.evaluate(NAN_SCORES, y_true="y", y_score="p", nulls="drop", engine=engine)
    assert str(error.value) == (
        "invalid input: column 'p' (y_score): 5 rows are NaN (nulls='drop' drops nulls, not NaN)"
    )
    with_null = NAN_SCORES.with_columns(p=pl.Series([None, math.nan, 0.2, 0.3, 0.4, 0.3, 0.4]))
    without_nan = with_null.filter(~pl.col("p").is_nan().fill_null(False))
    got = fm.evaluate(without_nan, y_true="y", y_score="p", nulls="drop", engine=engine)
    assert (without_nan.height, got["n_rows"].item()) == (6, 5)  # the null is dropped: only NaN is an error
    multiclass = pl.DataFrame({"y": ["a", "b", "a"], "a": [0.5, math.nan, 0.9], "b": [0.5, 0.5, 0.1]})
    with pytest.raises(
        ValueError, match=r"column 'a' \(y_score\): 1 row is NaN .*\(nulls='drop' drops nulls, not NaN\)"
    ):
        fm.evaluate(multiclass, y_true="y", y_score=["a", "b"], nulls="drop", engine=engine)


@pytest.mark.parametrize("engine", ENGINES)
def test_regression_checks_of_one_column_are_one_sentence(engine):
    frame = pl.DataFrame({"y": [1.0, 2.0, -3.0, 0.0, 4.0], "f": [1.0, 0.0, 2.0, -2.0, 1.0]})
    with pytest.raises(ValueError) as error:
        fm.evaluate(
            frame, y_true="y", y_pred="f", engine=engine, metrics=["mean_squared_log_error", "mean_gamma_deviance"]
        )
    assert str(error.value) == (
        "invalid input: column 'y' (y_true): 1 row is <= -1 (log(1 + x) is undefined), 1 is zero or negative; "
        "column 'f' (y_pred): 1 row is <= -1 (log(1 + x) is undefined), 1 is zero or negative"
    )
    with pytest.raises(ValueError) as error:  # Poisson: y >= 0, f > 0; 0 is the only problem of f beyond y's
        fm.evaluate(frame, y_true="y", y_pred="f", engine=engine, metrics=["r2_score", "mean_poisson_deviance"])
    assert str(error.value) == (
        "invalid input: column 'y' (y_true): 1 row is negative; column 'f' (y_pred): 2 rows are zero or negative"
    )


def test_each_domain_covers_what_it_says():
    """A domain's invalid values include those of every domain it covers, on sample values of each problem."""
    values = [None, math.nan, math.inf, -math.inf, -2.0, -1.0, -0.5, 0.0, 0.5, 1.0, 2.0]
    frame = pl.DataFrame({"x": values}, schema={"x": pl.Float64})
    numeric = [d for d, spec in DOMAINS.items() if not spec.labels_listed and d not in ("label", "simplex")]

    def invalid(domain: str) -> set[int]:
        flags = frame.select(check(domain, "x").invalid(POLARS, pl.col("x")).fill_null(False))["x"].to_list()
        return {i for i, flag in enumerate(flags) if flag}

    for domain in numeric:
        for covered in DOMAINS[domain].covers:
            assert invalid(covered) <= invalid(domain), (domain, covered)
            assert DOMAINS[covered].covers <= DOMAINS[domain].covers | {domain}, (domain, covered)  # transitive


# --- the DuckDB macros on text labels with only pos_label := --------------------------------------------------------


@pytest.fixture(scope="module")
def macros() -> duckdb.DuckDBPyConnection:
    con = duckdb.connect()
    con.execute(fm.sql.macro_file().read_text())
    tumours = pl.DataFrame(
        {
            "y": ["malignant", "benign", "malignant", "benign", "benign"],
            "yhat": ["malignant", "malignant", "benign", "benign", "benign"],
            "p": [0.9, 0.6, 0.4, 0.2, 0.1],
        }
    )
    con.register("staging", tumours)
    con.execute("CREATE TABLE tumours AS SELECT * FROM staging")
    return con


@pytest.mark.parametrize(
    "query",
    [
        "SELECT fm_f1_score(y, yhat, pos_label := 'malignant') FROM tumours",
        "SELECT fm_roc_auc_score(y, p, pos_label := 'malignant') FROM tumours",
        "SELECT fm_log_loss(y, p, pos_label := 'malignant') FROM tumours",
        "SELECT count(*) FROM fm_roc_curve('tumours', y, p, pos_label := 'malignant')",
    ],
)
def test_a_text_pos_label_without_neg_label_names_neg_label_in_the_macros(macros, query):
    """DuckDB said "Could not convert string 'malignant' to INT32" (the default neg_label is 0)."""
    with pytest.raises(duckdb.InvalidInputException, match=r"pos_label is text \(malignant\): pass neg_label :="):
        macros.sql(query).fetchall()


def test_the_macros_with_both_text_labels_equal_scikit_learn(macros):
    labels = "pos_label := 'malignant', neg_label := 'benign'"
    f1, auc = macros.sql(
        f"SELECT fm_f1_score(y, yhat, {labels}), fm_roc_auc_score(y, p, {labels}) FROM tumours"
    ).fetchall()[0]
    frame = macros.sql("SELECT * FROM tumours").pl()
    assert close(f1, skm.f1_score(frame["y"], frame["yhat"], pos_label="malignant"))
    assert close(auc, skm.roc_auc_score(frame["y"] == "malignant", frame["p"]))
    points = macros.sql(f"SELECT count(*) FROM fm_roc_curve('tumours', y, p, {labels})").fetchall()[0][0]
    assert points == len(skm.roc_curve(frame["y"] == "malignant", frame["p"], drop_intermediate=True)[0])
