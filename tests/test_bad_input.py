"""Bad input gives the same clear error on both engines, or a documented null."""

from __future__ import annotations

import math
import re
import tempfile
from pathlib import Path

import numpy as np
import polars as pl
import pytest
from conftest import RUNNERS, Columns

import framemetrics as fm

EVALUATE_ENGINES = ("polars", "duckdb")


def _classification(**overrides) -> pl.DataFrame:
    data = {"g": ["a", "a", "b", "b"], "y": [0, 1, 1, 0], "p": [0.2, 0.8, 0.6, 0.1], "w": [1.0, 2.0, 1.0, 1.0]}
    return pl.DataFrame({**data, **overrides}, strict=False)


def _regression(**overrides) -> pl.DataFrame:
    data = {"g": ["a", "a", "b", "b"], "y": [1.0, 2.0, 3.0, 4.0], "f": [1.5, 2.0, 2.0, 5.0]}
    return pl.DataFrame({**data, **overrides}, strict=False)


CASES = [
    pytest.param(
        _classification(y=[0, None, 1, 0]),
        {"y_true": "y", "y_score": "p", "metrics": ["f1_score"]},
        "column 'y' (y_true): 1 row is null, NaN or not one of the labels 1, 0",
        id="null-label",
    ),
    pytest.param(
        _classification(y=[0, 2, 1, 0]),
        {"y_true": "y", "y_score": "p", "metrics": ["accuracy_score"]},
        "column 'y' (y_true): 1 row is null, NaN or not one of the labels 1, 0",
        id="label-outside-set",
    ),
    pytest.param(
        _classification(y=[-1, 1, 1, -1]),
        {"y_true": "y", "y_score": "p", "metrics": ["accuracy_score"]},
        "column 'y' (y_true): 2 rows are null, NaN or not one of the labels 1, 0",
        id="minus-one-labels-need-neg-label",
    ),
    pytest.param(
        _classification(p=[0.2, math.nan, 0.6, 0.1]),
        {"y_true": "y", "y_score": "p", "metrics": ["log_loss"]},
        "column 'p' (y_score): 1 row is null, NaN or outside [0, 1]",
        id="nan-probability",
    ),
    pytest.param(
        _classification(p=[0.2, 1.5, -0.1, 0.1]),
        {"y_true": "y", "y_score": "p", "metrics": ["brier_score_loss"]},
        "column 'p' (y_score): 2 rows are null, NaN or outside [0, 1]",
        id="probability-outside-unit-interval",
    ),
    pytest.param(
        _classification(p=[0.2, math.nan, 0.6, None]),
        {"y_true": "y", "y_score": "p", "metrics": ["precision_score"]},
        "column 'p' (y_score): 2 rows are null or NaN",
        id="nan-score-thresholded",
    ),
    pytest.param(
        _classification(w=[1.0, -2.0, math.inf, 1.0]),
        {"y_true": "y", "y_score": "p", "sample_weight": "w", "metrics": ["recall_score"]},
        "column 'w' (sample_weight): 2 rows are null, NaN, infinite or negative",
        id="bad-weights",
    ),
    pytest.param(
        _regression(f=[1.0, math.inf, -math.inf, math.nan]),
        {"y_true": "y", "y_pred": "f", "metrics": ["mean_squared_error"]},
        "column 'f' (y_pred): 3 rows are null, NaN or infinite",
        id="infinite-regression",
    ),
    pytest.param(
        _regression(y=[1.0, -1.0, -3.0, 4.0]),
        {"y_true": "y", "y_pred": "f", "metrics": ["root_mean_squared_log_error"]},
        "column 'y' (y_true): 2 rows are <= -1 (log(1 + x) is undefined)",
        id="log-domain",
    ),
    pytest.param(
        _regression(y=[1.0, -1.0, 0.0, 4.0], f=[1.5, 2.0, 0.0, 5.0]),
        {"y_true": "y", "y_pred": "f", "metrics": ["mean_poisson_deviance"]},
        "column 'y' (y_true): 1 row is null, NaN, infinite or negative; "
        "column 'f' (y_pred): 1 row is null, NaN, infinite, zero or negative",
        id="poisson-domain",
    ),
    pytest.param(
        _regression(y=[1.0, 0.0, 3.0, 4.0]),
        {"y_true": "y", "y_pred": "f", "metrics": ["mean_gamma_deviance"]},
        "column 'y' (y_true): 1 row is null, NaN, infinite, zero or negative",
        id="gamma-domain",
    ),
    pytest.param(
        _classification(p=[0.2, math.inf, 0.6, 0.1]),
        {"y_true": "y", "y_score": "p", "metrics": ["hinge_loss"]},
        "column 'p' (y_score): 1 row is null, NaN or infinite",
        id="hinge-domain",
    ),
]


@pytest.mark.parametrize("engine", EVALUATE_ENGINES)
@pytest.mark.parametrize(("df", "kwargs", "message"), CASES)
def test_invalid_rows_raise_the_same_error(engine, df, kwargs, message):
    with pytest.raises(ValueError) as error:
        fm.evaluate(df, by="g", engine=engine, **kwargs)
    assert message in str(error.value)


@pytest.mark.parametrize(
    ("kwargs", "message"),
    [
        (
            {"y_true": "nope", "y_score": "p"},
            "column 'nope' (y_true) not found; the input has columns 'g', 'y', 'p', 'w'",
        ),
        ({"y_true": "y", "y_score": "p", "by": "country"}, "column 'country' (by) not found"),
        ({"y_true": "y", "y_score": "p", "metrics": ["f1"]}, "unknown metric 'f1'; did you mean f1_score"),
        ({"y_true": "y", "y_score": "p", "metrics": ["mean_squared_error"]}, "mean_squared_error needs y_pred="),
        ({"y_true": "g", "y_score": "p"}, "column 'g' (y_true) holds string values but pos_label=1"),
        ({"y_true": "y", "y_score": "g"}, "column 'g' (y_score) must be numeric, got string values"),
        ({"y_true": "y", "y_score": "p", "metrics": {"fbeta_score": {"beta": -1}}}, "beta must be a number >= 0"),
        ({"y_true": "y", "y_score": "p", "metrics": {"f1_score": {"alpha": 1}}}, "f1_score has no parameter ['alpha']"),
        ({"y_true": "y", "y_score": "p", "zero_division": 0.5, "metrics": ["recall_score"]}, "zero_division must be"),
        ({"y_true": "y", "y_score": "p", "by": "n_rows"}, "column 'n_rows' (by) not found"),
        ({"y_true": "y", "y_score": "p", "threshold": float("nan")}, "threshold must be a finite number"),
        ({"y_true": "y", "y_score": "p", "nulls": "skip"}, "nulls must be 'error' or 'drop'"),
        ({"y_true": "y", "y_score": "p", "metrics": ["recall_score"], "zero_division": True}, "zero_division must"),
        ({"y_true": "y", "y_pred": "p", "metrics": {"r2_score": {"force_finite": "no"}}}, "force_finite must be"),
        ({"y_true": "y", "y_score": "p", "metrics": {"fbeta_score": {"beta": True}}}, "beta must be a number >= 0"),
        ({"y_true": "y", "y_score": "p", "metrics": {"roc_auc_score": {"max_fpr": 0}}}, "max_fpr must be None or"),
        ({"y_true": "y", "y_pred": "p", "metrics": {"mean_pinball_loss": {"alpha": 2}}}, "alpha must be a number"),
        (
            {"y_true": "g", "y_pred": "p", "pos_label": "a", "neg_label": "b", "metrics": ["f1_score", "max_error"]},
            "column 'g' (y_true) must be numeric, got string values",
        ),
        ({"y_true": "y", "y_score": "p", "pos_label": "1"}, "pos_label='1' is not 0 or 1: pass neg_label too"),
        (
            {"y_true": "y", "y_score": "p", "pos_label": "1", "neg_label": "0"},
            "column 'y' (y_true) holds numeric values but pos_label='1'",
        ),
    ],
)
@pytest.mark.parametrize("engine", EVALUATE_ENGINES)
def test_bad_arguments_raise_the_same_error(engine, kwargs, message):
    with pytest.raises(ValueError) as error:
        fm.evaluate(_classification(), engine=engine, **kwargs)
    assert message in str(error.value)


@pytest.mark.parametrize("engine", EVALUATE_ENGINES)
def test_misspelled_names_get_a_suggestion(engine):
    """Columns (any case) and metric parameters; the call's own mistakes are ``fm.ArgumentError``."""
    df = _classification().rename({"p": "proba"})
    with pytest.raises(ValueError, match=r"column 'Proba' \(y_score\) not found; did you mean 'proba'\? The input"):
        fm.evaluate(df, y_true="y", y_score="Proba", engine=engine)
    with pytest.raises(ValueError, match=r"column 'yy' \(y_true\) not found; did you mean 'y'\?"):
        fm.evaluate_multiclass(df, y_true="yy", y_pred="y", labels=[0, 1, 2], engine=engine)
    with pytest.raises(fm.ArgumentError, match=r"has no parameter \['bta'\]; did you mean beta\? it takes"):
        fm.evaluate(df, y_true="y", y_score="proba", metrics={"fbeta_score": {"bta": 2}}, engine=engine)
    with pytest.raises(fm.ArgumentError, match="unknown metric 'f1'; did you mean f1_score"):
        fm.evaluate(df, y_true="y", y_score="proba", metrics=["f1"], engine=engine)


@pytest.mark.parametrize("name", ["f1_score", "n_rows", "invalid_label_y_true", "invalid_score_y_score"])
@pytest.mark.parametrize("engine", EVALUATE_ENGINES)
def test_group_column_clashing_with_output(engine, name):
    df = _classification().rename({"g": name})
    with pytest.raises(ValueError, match=f"group column '{name}' clashes"):
        fm.evaluate(df, y_true="y", y_score="p", by=name, metrics=["f1_score"], engine=engine)


@pytest.mark.parametrize("engine", EVALUATE_ENGINES)
def test_empty_input_raises(engine):
    empty = _classification().clear()
    with pytest.raises(ValueError, match="no rows to evaluate"):
        fm.evaluate(empty, y_true="y", y_score="p", engine=engine)
    with pytest.raises(ValueError, match="no rows to evaluate"):
        fm.evaluate(empty, y_true="y", y_score="p", by="g", engine=engine)


@pytest.mark.parametrize("engine", EVALUATE_ENGINES)
def test_nulls_drop_removes_incomplete_rows(engine):
    df = _classification(y=[0, None, 1, 0], p=[0.2, 0.8, None, 0.1])
    out = fm.evaluate(df, y_true="y", y_score="p", by="g", metrics=["accuracy_score"], nulls="drop", engine=engine)
    complete = fm.evaluate(df.drop_nulls(), y_true="y", y_score="p", by="g", metrics=["accuracy_score"], engine=engine)
    assert out.equals(complete)
    assert out["n_rows"].to_list() == [1, 1]


@pytest.mark.parametrize("engine", EVALUATE_ENGINES)
def test_nulls_drop_keeps_nan_an_error(engine):
    df = _classification(p=[0.2, math.nan, 0.6, None])
    message = r"1 row is NaN or outside \[0, 1\] \(nulls='drop' drops nulls, not NaN\)"
    with pytest.raises(ValueError, match=message):
        fm.evaluate(df, y_true="y", y_score="p", metrics=["log_loss"], nulls="drop", engine=engine)


@pytest.mark.parametrize("engine", EVALUATE_ENGINES)
def test_nulls_drop_hint_counts_only_rows_holding_a_null(engine):
    """The hint appears only where nulls are among the invalid rows, with their count ("1 row has")."""
    out_of_range = _classification(p=[0.2, 1.5, 0.6, -0.1])
    with pytest.raises(ValueError) as error:
        fm.evaluate(out_of_range, y_true="y", y_score="p", metrics=["log_loss"], engine=engine)
    assert "2 rows are null, NaN or outside [0, 1]" in str(error.value)
    assert "nulls=" not in str(error.value)
    mixed = _classification(y=[0, None, 1, 0], p=[0.2, 1.5, None, 0.1])
    with pytest.raises(ValueError) as error:
        fm.evaluate(mixed, y_true="y", y_score="p", metrics=["log_loss"], engine=engine)
    message = str(error.value)
    assert "'y' (y_true): 1 row is null" in message and "'p' (y_score): 2 rows are null" in message
    assert message.endswith("(2 rows have a null: nulls='drop' drops such rows)")
    one = _classification(p=[0.2, None, 0.6, 0.1])
    with pytest.raises(ValueError, match=r"\(1 row has a null: nulls='drop' drops such rows\)$"):
        fm.evaluate(one, y_true="y", y_score="p", metrics=["log_loss"], engine=engine)


@pytest.mark.parametrize("engine", EVALUATE_ENGINES)
def test_multiclass_nulls_drop_hint(engine):
    df = pl.DataFrame({"y": ["a", "b", None, "c"], "yhat": ["a", "b", "c", "d"]})
    with pytest.raises(ValueError) as error:
        fm.evaluate_multiclass(df, y_true="y", y_pred="yhat", labels=["a", "b", "c"], engine=engine)
    message = str(error.value)
    assert "'y' (y_true): 1 row is null" in message and "'yhat' (y_pred): 1 row is null" in message
    assert message.endswith("(1 row has a null: nulls='drop' drops such rows)")


@pytest.mark.parametrize("engine", EVALUATE_ENGINES)
def test_all_rows_dropped_raises(engine):
    df = _classification(y=[None, None, None, None])
    with pytest.raises(ValueError, match="no rows to evaluate after dropping rows with nulls"):
        fm.evaluate(df, y_true="y", y_score="p", nulls="drop", engine=engine)


@pytest.mark.parametrize("engine_name", ["polars_expr", "duckdb_macro"])
def test_expressions_give_null_for_groups_with_invalid_rows(engine_name):
    engine = RUNNERS[engine_name]
    df = _classification(y=[0, 2, 1, 0], p=[0.2, 1.5, 0.6, 0.1])
    out = engine(df, {"f1_score": {}, "log_loss": {}}, Columns(y_score="p"))
    assert out["f1_score"].to_list() == [None, 1.0]
    assert out["log_loss"][0] is None and out["log_loss"][1] > 0


def test_zero_total_weight_follows_the_formulas(engine):
    df = _classification(w=[0.0, 0.0, 1.0, 1.0])
    metrics = {
        "accuracy_score": {},
        "precision_score": {},
        "matthews_corrcoef": {},
        "cohen_kappa_score": {},
        "log_loss": {},
        "balanced_accuracy_score": {},
    }
    out = engine(df, metrics, Columns(y_score="p", sample_weight="w")).row(0, named=True)
    assert out == {
        "g": "a",
        "accuracy_score": None,
        "precision_score": None,
        "matthews_corrcoef": 0.0,
        "cohen_kappa_score": None,
        "log_loss": None,
        "balanced_accuracy_score": None,
    }


def _scored(call, **kwargs):
    """``call`` of a source's scores (binary), with ``kwargs`` and the labels."""
    return lambda engine, labels: call(_classification(), y_true="y", y_score="p", engine=engine, **kwargs, **labels)


def _sql(call, *args, **kwargs):
    return lambda engine, labels: call(*args, table="t", y_true="y", **kwargs, **labels)


def _builder(metric, column):
    return lambda engine, labels: _classification().select(metric("y", column, **labels))


NEVER_WRITTEN = str(Path(tempfile.gettempdir()) / "fm-never-written.html")
# Every entry point taking pos_label/neg_label, on the engines it runs on.
LABEL_ENTRY_POINTS = {
    "evaluate-scores": _scored(fm.evaluate),
    "evaluate-labels": lambda engine, labels: fm.evaluate(
        _classification(yhat=[0, 1, 0, 0]), y_true="y", y_pred="yhat", engine=engine, **labels
    ),
    "evaluate-multiclass": lambda engine, labels: fm.evaluate(
        _classification(q=[0.8, 0.2, 0.4, 0.9]), y_true="y", y_score=["q", "p"], engine=engine, **labels
    ),
    "evaluate-ci": _scored(fm.evaluate, metrics=["roc_auc_score"], ci=0.9),
    "roc_curve": _scored(fm.roc_curve),
    "precision_recall_curve": _scored(fm.precision_recall_curve),
    "det_curve": _scored(fm.det_curve),
    "calibration_curve": _scored(fm.calibration_curve),
    "roc_auc_ci": _scored(fm.roc_auc_ci),
    "bootstrap": _scored(fm.bootstrap, metrics=["log_loss"], n_resamples=5),
    "evaluation_report": lambda engine, labels: fm.evaluation_report(
        _classification(), y_true="y", y_score="p", engine=engine, output=NEVER_WRITTEN, **labels
    ),
}
SQL_ENTRY_POINTS = {
    "sql.query": _sql(fm.sql.query, ["f1_score", "log_loss"], y_score="p"),
    "sql.curve": _sql(fm.sql.curve, "roc_curve", y_score="p"),
    "sql.calibration_curve": _sql(fm.sql.calibration_curve, y_score="p"),
    "sql.roc_auc_ci": _sql(fm.sql.roc_auc_ci, y_score="p"),
}
BUILDERS = {
    "f1_score-builder": _builder(fm.f1_score, "y"),
    "roc_auc_score-builder": _builder(fm.roc_auc_score, "p"),
    "log_loss-builder": _builder(fm.log_loss, "p"),
}
LABEL_CALLS = [
    *((name, engine) for name in LABEL_ENTRY_POINTS for engine in EVALUATE_ENGINES),
    *((name, "duckdb") for name in SQL_ENTRY_POINTS),
    *((name, "polars") for name in BUILDERS),
]
NOT_A_LABEL = [
    pytest.param({"pos_label": [1]}, "pos_label", [1], id="pos-list"),
    pytest.param({"pos_label": [1], "neg_label": 0}, "pos_label", [1], id="pos-list-neg-0"),
    pytest.param({"neg_label": [0]}, "neg_label", [0], id="neg-list"),
    pytest.param({"pos_label": {1}, "neg_label": 0}, "pos_label", {1}, id="pos-set"),
    pytest.param({"pos_label": (1,), "neg_label": 0}, "pos_label", (1,), id="pos-tuple"),
    pytest.param({"pos_label": 1, "neg_label": {"no": 0}}, "neg_label", {"no": 0}, id="neg-dict"),
]


@pytest.mark.parametrize(("labels", "name", "value"), NOT_A_LABEL)
@pytest.mark.parametrize(("entry", "engine"), LABEL_CALLS)
def test_a_label_that_is_not_a_single_value_is_the_same_argument_error(entry, engine, labels, name, value):
    """A list, set, tuple or dict as pos_label/neg_label raised Polars' SchemaError, a TypeError or "unhashable"."""
    call = {**LABEL_ENTRY_POINTS, **SQL_ENTRY_POINTS, **BUILDERS}[entry]
    message = f"{name} must be a single value (a number, string or boolean), got {value!r}"
    with pytest.raises(fm.core.errors.ArgumentError, match=f"^{re.escape(message)}$"):
        call(engine, labels)


@pytest.mark.parametrize("engine", EVALUATE_ENGINES)
def test_an_array_label_is_an_argument_error_and_a_numpy_scalar_a_label(engine):
    """A NumPy array of one value was taken for that value; an array of two raised NumPy's ValueError."""
    for array in (np.array([1]), np.array([1, 0])):
        with pytest.raises(fm.core.errors.ArgumentError, match="pos_label must be a single value"):
            fm.evaluate(_classification(), y_true="y", y_score="p", pos_label=array, neg_label=0, engine=engine)
    scalar = fm.evaluate(_classification(), y_true="y", y_score="p", pos_label=np.int64(1), engine=engine)
    assert scalar.equals(fm.evaluate(_classification(), y_true="y", y_score="p", engine=engine))
