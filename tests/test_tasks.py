"""One ``fm.evaluate`` for every task: the inference table, the defaults of each task, and the ambiguous case."""

from __future__ import annotations

import numpy as np
import pandas as pd
import polars as pl
import pytest
from polars.testing import assert_frame_equal
from reference import close
from sklearn import metrics as skm

import framemetrics as fm
from framemetrics.core.defaults import DEFAULT_METRICS

ENGINES = ["polars", "duckdb"]

RNG = np.random.default_rng(7)
N = 60
PROBA = RNG.dirichlet([1, 1, 1], N)
FRAME = pl.DataFrame(
    {
        "g": RNG.choice(["a", "b"], N),
        "y01": RNG.integers(0, 2, N),
        "yhat01": RNG.integers(0, 2, N),
        "p": RNG.random(N),
        "y3": RNG.integers(0, 3, N),
        "yhat3": RNG.integers(0, 3, N),
        "animal": RNG.choice(["cat", "dog", "pig"], N),
        "guess": RNG.choice(["cat", "dog", "pig"], N),
        "cat": PROBA[:, 0],
        "dog": PROBA[:, 1],
        "pig": PROBA[:, 2],
        "target": RNG.random(N) * 10,
        "forecast": RNG.random(N) * 10,
        "yes": RNG.random(N) < 0.5,
        "said_yes": RNG.random(N) < 0.5,
    }
).with_columns(
    listed=pl.concat_list("cat", "dog", "pig"),
    y01_float=pl.col("y01").cast(pl.Float64),
    yhat01_float=pl.col("yhat01").cast(pl.Float64),
)

# (arguments, the task, the metric columns by default)
INFERRED = [
    ({"y_true": "y01", "y_score": "p"}, "binary", DEFAULT_METRICS["binary", "y_score"]),
    ({"y_true": "y01", "y_pred": "yhat01"}, "binary", DEFAULT_METRICS["binary", "y_pred"]),
    ({"y_true": "y01_float", "y_pred": "yhat01_float"}, "binary", DEFAULT_METRICS["binary", "y_pred"]),
    ({"y_true": "yes", "y_pred": "said_yes", "pos_label": True}, "binary", DEFAULT_METRICS["binary", "y_pred"]),
    ({"y_true": "animal", "y_score": ["cat", "dog", "pig"]}, "multiclass", DEFAULT_METRICS["multiclass", "y_score"]),
    (
        {"y_true": "animal", "y_score": "listed", "labels": ["cat", "dog", "pig"]},
        "multiclass",
        DEFAULT_METRICS["multiclass", "y_score"],
    ),
    ({"y_true": "animal", "y_pred": "guess"}, "multiclass", DEFAULT_METRICS["multiclass", "y_pred"]),
    ({"y_true": "y3", "y_pred": "yhat3", "labels": [0, 1, 2]}, "multiclass", DEFAULT_METRICS["multiclass", "y_pred"]),
    ({"y_true": "target", "y_pred": "forecast"}, "regression", DEFAULT_METRICS["regression", "y_pred"]),
    ({"y_true": "y3", "y_pred": "yhat3", "metrics": ["mean_absolute_error"]}, "regression", ("mean_absolute_error",)),
    ({"y_true": "y3", "y_pred": "yhat3", "task": "multiclass"}, "multiclass", DEFAULT_METRICS["multiclass", "y_pred"]),
    ({"y_true": "y3", "y_pred": "yhat3", "task": "regression"}, "regression", DEFAULT_METRICS["regression", "y_pred"]),
]


@pytest.mark.parametrize(("kwargs", "task", "columns"), INFERRED, ids=[str(c[0]) for c in INFERRED])
@pytest.mark.parametrize("engine", ENGINES)
def test_the_task_is_inferred_and_its_defaults_computed(engine, kwargs, task, columns):
    got = fm.evaluate(FRAME, by="g", engine=engine, **kwargs)
    assert got.columns == ["g", "n_rows", *columns]
    assert got["g"].to_list() == ["a", "b"]
    frame = FRAME.filter(pl.col("g") == "a")
    y = frame[kwargs["y_true"]].to_numpy()
    first = got.row(0, named=True)
    if task == "regression":
        want = skm.mean_absolute_error(y, frame[kwargs["y_pred"]].to_numpy())
        assert close(first["mean_absolute_error"], want)
    elif task == "multiclass":
        predicted = (
            frame[kwargs["y_pred"]]
            if "y_pred" in kwargs
            else np.array(["cat", "dog", "pig"])[frame.select("cat", "dog", "pig").to_numpy().argmax(axis=1)]
        )
        assert close(first["accuracy_score"], skm.accuracy_score(y, predicted))
    elif "y_score" in kwargs:
        assert close(first["roc_auc_score"], skm.roc_auc_score(y, frame["p"].to_numpy()))
    else:
        want = skm.f1_score(y, frame[kwargs["y_pred"]].to_numpy(), pos_label=kwargs.get("pos_label", 1))
        assert close(first["f1_score"], want)


@pytest.mark.parametrize("engine", ENGINES)
def test_integers_with_more_than_two_values_are_ambiguous(engine):
    with pytest.raises(fm.ArgumentError, match=r"integers from 0 to 2: classes or counts\? Pass task="):
        fm.evaluate(FRAME, y_true="y3", y_pred="yhat3", engine=engine)


@pytest.mark.parametrize("engine", ENGINES)
def test_text_classes_with_a_text_pos_label_are_binary(engine):
    two = FRAME.filter(pl.col("animal").is_in(["cat", "dog"]) & pl.col("guess").is_in(["cat", "dog"]))
    got = fm.evaluate(two, y_true="animal", y_pred="guess", pos_label="cat", neg_label="dog", engine=engine)
    assert close(got["f1_score"].item(), skm.f1_score(two["animal"], two["guess"], pos_label="cat"))


@pytest.mark.parametrize("engine", ENGINES)
def test_two_labels_mean_binary_with_the_second_positive(engine):
    got = fm.evaluate(FRAME, y_true="y01", y_pred="yhat01", labels=[1, 0], metrics=["recall_score"], engine=engine)
    assert close(got["recall_score"].item(), skm.recall_score(FRAME["y01"], FRAME["yhat01"], pos_label=0))


@pytest.mark.parametrize(
    ("kwargs", "message"),
    [
        ({"y_true": "y01", "y_score": "p", "task": "ternary"}, "task must be one of 'binary', 'multiclass'"),
        ({"y_true": "animal", "y_score": ["cat", "dog", "pig"], "threshold": 0.3}, "threshold: binary only"),
        ({"y_true": "y01", "y_pred": "yhat01", "task": "regression", "metrics": ["f1_score"]}, "not a regression"),
        ({"y_true": "y01", "y_score": ["p"], "task": "binary"}, "reads one score column"),
        ({"y_true": "y01"}, "pass y_score= (scores or probabilities) or y_pred="),
    ],
)
@pytest.mark.parametrize("engine", ENGINES)
def test_task_usage_errors(engine, kwargs, message):
    with pytest.raises(fm.ArgumentError, match=message.replace("(", r"\(").replace(")", r"\)")):
        fm.evaluate(FRAME, engine=engine, **kwargs)


def test_evaluate_multiclass_is_the_multiclass_task_of_evaluate():
    kwargs = {"y_true": "animal", "y_score": ["cat", "dog", "pig"], "by": "g"}
    expected = fm.evaluate_multiclass(FRAME, metrics=DEFAULT_METRICS["multiclass", "y_score"], **kwargs)
    assert_frame_equal(fm.evaluate(FRAME, **kwargs), expected, rel_tol=1e-12)  # sums in any order


@pytest.mark.parametrize("engine", ENGINES)
def test_pandas_input_infers_the_task_too(engine):
    frame = FRAME.select("g", "animal", "cat", "dog", "pig", "target", "forecast").to_pandas()
    frame["animal"] = frame["animal"].astype("category")
    assert isinstance(frame, pd.DataFrame)
    multiclass = fm.evaluate(frame, y_true="animal", y_score=["cat", "dog", "pig"], engine=engine)
    assert multiclass.columns[1:] == list(DEFAULT_METRICS["multiclass", "y_score"])
    regression = fm.evaluate(frame, y_true="target", y_pred="forecast", engine=engine)
    assert regression.columns[1:] == list(DEFAULT_METRICS["regression", "y_pred"])
