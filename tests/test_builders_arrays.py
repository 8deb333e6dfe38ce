"""The Polars builders called as scikit-learn's functions: array-likes in, a float out, equal to scikit-learn's.

With column names or expressions a builder is an expression; with NumPy
arrays, pandas or Polars Series, lists, tuples or pyarrow arrays it computes
the metric now. Text labels with the default ``pos_label`` fail with
``evaluate``'s short message on every path.
"""

from __future__ import annotations

import math

import numpy as np
import pandas as pd
import polars as pl
import pyarrow as pa
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from reference import close, zero_weight_outcome
from sklearn import metrics as skm
from sklearn.datasets import load_breast_cancer
from sklearn_binary import REFERENCES

import framemetrics as fm


def _chunked(values: list) -> pa.ChunkedArray:
    whole = pa.array(values)
    return pa.chunked_array([whole.slice(0, len(values) // 2), whole.slice(len(values) // 2)])


KINDS = {
    "numpy": np.asarray,
    "pandas": lambda values: pd.Series(values, index=np.arange(len(values))[::-1]),  # the index is not read
    "polars": pl.Series,
    "list": list,
    "tuple": tuple,
    "pyarrow": pa.array,
    "pyarrow_chunked": _chunked,
}

TIED_SCORES = [0.05, 0.2, 0.35, 0.5, 0.65, 0.8, 0.95]
TIED_VALUES = [0.5, 1.0, 2.0, 3.5, 10.0]
WEIGHTS = [0.0, 0.5, 1.0, 2.0, 3.0]


@st.composite
def _data(draw: st.DrawFn, family: str) -> tuple[list, list, list | None]:
    """Rows of ``family``'s inputs with ties (few distinct values) and optional weights with zeros."""
    n = draw(st.integers(2, 30))
    if family == "regression":
        values = st.one_of(st.sampled_from(TIED_VALUES), st.floats(0.1, 100.0))
        y, prediction = draw(st.lists(values, min_size=n, max_size=n)), draw(st.lists(values, min_size=n, max_size=n))
    else:
        y = draw(st.lists(st.integers(0, 1), min_size=n, max_size=n))
        predictions = st.integers(0, 1) if family == "classification" else st.sampled_from(TIED_SCORES)
        prediction = draw(st.lists(predictions, min_size=n, max_size=n))
    weights = draw(st.none() | st.lists(st.sampled_from(WEIGHTS), min_size=n, max_size=n))
    return y, prediction, weights


def _reference(metric: fm.Metric, y: list, prediction: list, weights: list | None) -> float | None:
    if weights is not None and not any(weights):
        return zero_weight_outcome(metric, {})
    w = None if weights is None else np.asarray(weights, dtype=float)
    return REFERENCES[metric.name](np.asarray(y), np.asarray(prediction), w, **metric.params)


@pytest.mark.parametrize("name", sorted(fm.REGISTRY))
@settings(max_examples=12, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(data=st.data())
def test_every_builder_on_array_likes_equals_scikit_learn(name, data):
    """Random rows with ties and weights, as NumPy arrays and as one other kind of array-like."""
    metric = fm.get_metric(name)
    y, prediction, weights = data.draw(_data(metric.family))
    want = _reference(metric, y, prediction, weights)
    for kind in ("numpy", data.draw(st.sampled_from(sorted(KINDS)))):
        make = KINDS[kind]
        weight = {} if weights is None else {"sample_weight": make(weights)}
        got = getattr(fm, name)(make(y), make(prediction), **weight)
        assert got is None or type(got) is float, (kind, got)
        assert close(got, want), (kind, got, want)


FIXED = {
    "classification": ([0, 1, 1, 0, 1, 1, 0, 0], [0, 1, 0, 0, 1, 1, 1, 0]),
    "probability": ([0, 1, 1, 0, 1, 1, 0, 0], [0.2, 0.8, 0.35, 0.35, 0.8, 0.95, 0.5, 0.05]),
    "regression": ([3.0, 0.5, 2.0, 7.0, 2.0, 1.0, 4.0, 9.0], [2.5, 1.0, 2.0, 8.0, 3.5, 1.0, 3.0, 10.0]),
}
FIXED["ranking"] = FIXED["probability"]
FIXED_WEIGHTS = [1.0, 2.0, 0.0, 0.5, 1.0, 3.0, 1.0, 2.0]


@pytest.mark.parametrize("kind", sorted(KINDS))
@pytest.mark.parametrize("name", sorted(fm.REGISTRY))
def test_every_builder_takes_every_kind_of_array_like(name, kind):
    metric, make = fm.get_metric(name), KINDS[kind]
    y, prediction = FIXED[metric.family]
    got = getattr(fm, name)(make(y), make(prediction), sample_weight=make(FIXED_WEIGHTS))
    assert type(got) is float
    assert close(got, _reference(metric, y, prediction, FIXED_WEIGHTS))


HEADLINE = {
    "roc_auc_score": "score",
    "average_precision_score": "score",
    "log_loss": "score",
    "brier_score_loss": "score",
    "f1_score": "label",
    "precision_score": "label",
    "recall_score": "label",
    "accuracy_score": "label",
    "matthews_corrcoef": "label",
    "mean_squared_error": "value",
    "mean_absolute_error": "value",
    "r2_score": "value",
}


@pytest.fixture(scope="module")
def cancer() -> dict[str, np.ndarray]:
    """scikit-learn's breast cancer data (569 rows): a score from one feature, its labels, weights, a regression."""
    x, y = load_breast_cancer(return_X_y=True)
    radius = x[:, 0]
    score = (radius - radius.min()) / (radius.max() - radius.min())
    return {
        "y": 1 - y,  # malignant as the positive class, as a feature-based score ranks it
        "score": score,
        "label": (score >= 0.3).astype(int),
        "weight": np.where(y == 1, 1.0, 2.5),
        "truth": x[:, 1],
        "value": x[:, 1] + 0.1 * x[:, 0],
    }


@pytest.mark.parametrize("name", HEADLINE)
@pytest.mark.parametrize("weighted", [False, True], ids=["unweighted", "weighted"])
def test_a_scikit_learn_call_returns_scikit_learns_float(cancer, name, weighted):
    kind = HEADLINE[name]
    y = cancer["truth"] if kind == "value" else cancer["y"]
    weight = {"sample_weight": cancer["weight"]} if weighted else {}
    got = getattr(fm, name)(y, cancer[kind], **weight)
    want = getattr(skm, name)(y, cancer[kind], **weight)
    assert type(got) is float
    assert math.isclose(got, want, rel_tol=1e-9, abs_tol=1e-12)


def test_column_names_and_expressions_still_give_an_expression():
    df = pl.DataFrame({"g": ["a", "a", "b", "b"], "y": [0, 1, 1, 0], "p": [0.2, 0.7, 0.6, 0.9]})
    by_name, by_expr = fm.roc_auc_score("y", "p"), fm.roc_auc_score(pl.col("y"), pl.col("p"))
    assert isinstance(by_name, pl.Expr) and isinstance(by_expr, pl.Expr)
    assert by_name.meta.output_name() == "roc_auc_score"
    assert df.group_by("g", maintain_order=True).agg(by_name)["roc_auc_score"].to_list() == [1.0, 0.0]
    assert df.select(by_expr).item() == fm.roc_auc_score(df["y"], df["p"]) == 0.5


def test_a_null_metric_is_none():
    assert fm.roc_auc_score(np.array([1, 1]), np.array([0.2, 0.3])) is None
    assert fm.precision_score([0, 1], [0, 0]) is None
    assert fm.precision_score([0, 1], [0, 0], zero_division=0) == 0.0


def test_arrays_and_columns_do_not_mix():
    with pytest.raises(fm.ArgumentError, match="y_true is an array but y_score is a column name or expression"):
        fm.roc_auc_score(np.array([0, 1]), "p")
    with pytest.raises(fm.ArgumentError, match="y_true and y_score are arrays but sample_weight is a column name"):
        fm.roc_auc_score([0, 1], [0.2, 0.8], sample_weight=pl.col("w"))
    with pytest.raises(fm.ArgumentError, match="sample_weight is an array but y_true and y_pred are column names"):
        fm.f1_score("y", "p", sample_weight=np.ones(2))


def test_lengths_must_agree():
    with pytest.raises(fm.ArgumentError, match="differ in length: y_true has 569 values, y_score 568"):
        fm.roc_auc_score(np.zeros(569), np.zeros(568))
    with pytest.raises(fm.ArgumentError, match="y_true has 3 values, y_pred 3, sample_weight 2"):
        fm.f1_score([0, 1, 1], [0, 1, 1], sample_weight=[1.0, 2.0])


@pytest.mark.parametrize(
    ("value", "message"),
    [
        (3, "y_true must be a column name, a polars.Expr or an array-like"),
        ({"a": 1}, "y_true must be a column name, a polars.Expr or an array-like"),
        (np.zeros((2, 2)), "y_true must be one-dimensional"),
        ([0, "a"], "y_true cannot be read as one column"),
    ],
)
def test_what_is_not_an_array_is_an_argument_error(value, message):
    with pytest.raises(fm.ArgumentError, match=message):
        fm.accuracy_score(value, [0, 1])


@pytest.mark.parametrize(
    ("name", "y", "prediction", "message"),
    [
        ("accuracy_score", [0, 1, 2], [0, 1, 1], "^invalid input: y_true: 1 row is null, NaN or not one of the labels 1, 0$"),
        ("accuracy_score", [0, 1, None], [0, 1, 1], "^invalid input: y_true: 1 row is null, NaN or not one of the labels"),
        ("log_loss", [0, 1, 1], [0.2, float("nan"), 1.5], r"^invalid input: y_score: 2 rows are null, NaN or outside \[0, 1\]$"),
        ("accuracy_score", [], [], "^no rows to evaluate$"),
    ],
)  # fmt: skip
def test_invalid_rows_raise_evaluates_error(name, y, prediction, message):
    with pytest.raises(ValueError, match=message):
        getattr(fm, name)(y, prediction)


def test_a_negative_weight_raises():
    with pytest.raises(ValueError, match=r"sample_weight: 1 row is null, NaN, infinite or negative"):
        fm.mean_squared_error([1.0, 2.0], [1.5, 2.0], sample_weight=[1.0, -1.0])


YES_NO = {"y": ["yes", "no", "yes", "no"], "p": ["yes", "yes", "no", "no"], "s": [0.9, 0.2, 0.4, 0.6]}
NAMES_POS_LABEL = "holds string values but pos_label=1: pass pos_label and neg_label of the column's type"


def _short_error_naming_pos_label(call) -> str:
    with pytest.raises(ValueError, match="pos_label") as raised:
        call()
    message = str(raised.value)
    assert NAMES_POS_LABEL in message
    assert len(message) < 400, message
    return message


def test_text_labels_with_the_default_pos_label_fail_short_with_arrays():
    message = _short_error_naming_pos_label(lambda: fm.f1_score(np.array(YES_NO["y"]), np.array(YES_NO["p"])))
    assert message == f"column 'y_true' (y_true) {NAMES_POS_LABEL}"
    _short_error_naming_pos_label(lambda: fm.roc_auc_score(pd.Series(YES_NO["y"]), YES_NO["s"]))


@pytest.mark.parametrize(
    "run",
    [
        lambda df, e: df.select(e),
        lambda df, e: df.lazy().select(e).collect(),
        lambda df, e: df.group_by("g").agg(e),
        lambda df, e: df.lazy().group_by("g").agg(e).collect(),
        lambda df, e: df.select(e.over("g")),
    ],
    ids=["select", "lazy", "group_by", "lazy_group_by", "over"],
)
@pytest.mark.parametrize("name", ["f1_score", "roc_auc_score", "log_loss"])
def test_text_labels_with_the_default_pos_label_fail_short_at_collection(run, name):
    df = pl.DataFrame({"g": [1, 1, 2, 2], **YES_NO})
    metric = fm.get_metric(name)
    expr = getattr(fm, name)("y", "p" if metric.prediction == "y_pred" else "s")
    message = _short_error_naming_pos_label(lambda: run(df, expr))
    assert message.startswith(f"column 'y' (y_true) {NAMES_POS_LABEL}")
    assert "when(" not in message  # no dump of the expression


def test_a_text_score_fails_short_naming_the_column():
    df = pl.DataFrame({"y": [0, 1], "s": ["0.2", "0.9"]})
    with pytest.raises(ValueError, match=r"^column 's' \(y_score\) must be numeric, got string values$"):
        df.select(fm.roc_auc_score("y", "s"))


def test_text_labels_with_their_pos_label_equal_scikit_learn():
    y, p, s = (np.array(YES_NO[c]) for c in ("y", "p", "s"))
    labels = {"pos_label": "yes", "neg_label": "no"}
    assert fm.f1_score(y, p, **labels) == skm.f1_score(y, p, pos_label="yes")
    assert fm.roc_auc_score(y, s, **labels) == skm.roc_auc_score(y == "yes", s)
    df = pl.DataFrame(YES_NO)
    assert df.select(fm.f1_score("y", "p", **labels)).item() == skm.f1_score(y, p, pos_label="yes")


def test_a_boolean_prediction_expression_is_a_label():
    df = pl.DataFrame({"y": [0, 1, 1, 0], "s": [0.2, 0.7, 0.4, 0.6]})
    assert df.select(fm.f1_score("y", pl.col("s") >= 0.5)).item() == 0.5
    assert fm.f1_score(df["y"], df["s"] >= 0.5) == 0.5
