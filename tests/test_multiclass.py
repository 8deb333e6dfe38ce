"""Multiclass metrics against scikit-learn, per group, on both engines."""

from __future__ import annotations

import math

import numpy as np
import polars as pl
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from reference import output_column
from sklearn import metrics as skm
from sklearn_multiclass import MC_REFERENCES

import framemetrics as fm
from framemetrics.multiclass import MULTICLASS

ENGINES = ["polars", "duckdb"]
HARD = [m for m in MULTICLASS if MULTICLASS[m].prediction == "y_pred"]
SCORED = [m for m in MULTICLASS if MULTICLASS[m].prediction == "y_score"]
UNWEIGHTED = [m for m in MULTICLASS if not MULTICLASS[m].weighted]


def close(ours: float | None, expected: float | None) -> bool:
    if ours is None or expected is None:
        return ours is None and expected is None
    return math.isclose(ours, expected, rel_tol=1e-9, abs_tol=1e-9)


@st.composite
def datasets(draw: st.DrawFn) -> dict:
    """3-20 classes, some absent from some groups, ties in the scores, optional weights."""
    k = draw(st.integers(3, 20))
    seed = draw(st.integers(0, 2**32 - 1))
    rng = np.random.default_rng(seed)
    text = draw(st.booleans())
    labels = [f"c{j:02d}" for j in range(k)] if text else list(range(k))
    n = draw(st.integers(1, 60))
    used = rng.choice(k, size=draw(st.integers(1, k)), replace=False)
    y = rng.choice(used, n)
    yhat = np.where(rng.random(n) < 0.5, y, rng.choice(used, n))
    counts = rng.integers(0, 4, size=(n, k)).astype(float)
    counts[counts.sum(axis=1) == 0, 0] = 1
    proba = counts / counts.sum(axis=1, keepdims=True)
    weighted = draw(st.booleans())
    w = rng.choice([0.5, 1.0, 2.0, 3.0], n) if weighted else None
    frame = {
        "g": rng.integers(0, 3, n),
        "y": [labels[i] for i in y],
        "yhat": [labels[i] for i in yhat],
        **{f"p{j}": proba[:, j] for j in range(k)},
    }
    if weighted:
        frame["w"] = w
    return {"frame": pl.DataFrame(frame), "labels": labels, "k": k, "weighted": weighted}


def per_group(data: dict, metrics: dict, labels: list | None, engine: str, scored: bool) -> pl.DataFrame:
    k = data["k"]
    return fm.evaluate_multiclass(
        data["frame"],
        y_true="y",
        y_pred=None if scored else "yhat",
        y_score=[f"p{j}" for j in range(k)] if scored else None,
        labels=labels,
        sample_weight="w" if data["weighted"] else None,
        by="g",
        metrics=metrics,
        engine=engine,
    )


def check_against_reference(data: dict, result: pl.DataFrame, metrics: dict, labels: list | None) -> None:
    frame = data["frame"]
    for row in result.iter_rows(named=True):
        rows = frame.filter(pl.col("g") == row["g"])
        y, yhat = rows["y"].to_numpy(), rows["yhat"].to_numpy()
        proba = rows.select(f"p{j}" for j in range(data["k"])).to_numpy()
        w = rows["w"].to_numpy() if data["weighted"] else None
        for name, params in metrics.items():
            metric = MULTICLASS[name]
            expected = MC_REFERENCES[name](y, yhat, proba, w, labels, {**metric.parameters, **params})
            column = output_column(name, params, "multiclass")
            assert close(row[column], expected), (name, params, row["g"], row[column], expected)


SETTINGS = settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow])


@pytest.mark.parametrize("engine", ENGINES)
@SETTINGS
@given(
    data=datasets(),
    given_labels=st.booleans(),
    zero_division=st.sampled_from([None, 0, 1]),
    beta=st.sampled_from([0.5, 1.0, 2.0]),
    weights=st.sampled_from([None, "linear", "quadratic"]),
    adjusted=st.booleans(),
)
def test_hard_prediction_metrics_match_scikit_learn(engine, data, given_labels, zero_division, beta, weights, adjusted):
    labels = data["labels"] if given_labels else None
    metrics = {m: {} for m in HARD}
    for name, metric in MULTICLASS.items():
        if "zero_division" in metric.params and name in metrics:
            metrics[name] = {"zero_division": zero_division}
    for name in ("fbeta_micro", "fbeta_macro", "fbeta_weighted"):
        metrics[name]["beta"] = beta
    metrics["cohen_kappa_score"] = {"weights": weights}
    metrics["balanced_accuracy_score"] = {"adjusted": adjusted}
    result = per_group(data, metrics, labels, engine, scored=False)
    check_against_reference(data, result, metrics, labels)


@pytest.mark.parametrize("engine", ENGINES)
@SETTINGS
@given(data=datasets(), k=st.integers(1, 20))
def test_score_metrics_match_scikit_learn(engine, data, k):
    metrics = {m: {} for m in SCORED if data["weighted"] is False or m not in UNWEIGHTED}
    metrics["top_k_accuracy_score"] = {"k": k}
    result = per_group(data, metrics, data["labels"], engine, scored=True)
    check_against_reference(data, result, metrics, data["labels"])


@pytest.mark.parametrize("engine", ENGINES)
@SETTINGS
@given(data=datasets())
def test_micro_averages_equal_accuracy(engine, data):
    metrics = ["accuracy_score", "precision_micro", "recall_micro", "f1_micro"]
    result = per_group(data, metrics, None, engine, scored=False)
    for row in result.iter_rows(named=True):
        assert close(row["precision_micro"], row["accuracy_score"])
        assert close(row["recall_micro"], row["accuracy_score"])
        assert close(row["f1_micro"], row["accuracy_score"])


def animals() -> pl.DataFrame:
    cells = {
        ("cat", "cat"): 40,
        ("cat", "dog"): 20,
        ("cat", "pig"): 10,
        ("dog", "cat"): 35,
        ("dog", "dog"): 85,
        ("dog", "pig"): 40,
        ("pig", "cat"): 0,
        ("pig", "dog"): 10,
        ("pig", "pig"): 20,
    }
    rows = [pair for pair, count in cells.items() for _ in range(count)]
    return pl.DataFrame(rows, schema=["y_true", "y_pred"], orient="row")


@pytest.mark.parametrize("engine", ENGINES)
def test_worked_example_matches_scikit_learn_and_the_issue(engine):
    df = animals()
    report = fm.classification_report(df, y_true="y_true", y_pred="y_pred", engine=engine)
    expected = skm.classification_report(df["y_true"], df["y_pred"], output_dict=True)
    by_class = {row["class"]: row for row in report.iter_rows(named=True)}
    for name in ("cat", "dog", "pig", "macro avg", "weighted avg"):
        for ours, theirs in (("precision", "precision"), ("recall", "recall"), ("f1_score", "f1-score")):
            assert close(by_class[name][ours], expected[name][theirs]), (name, ours)
        assert by_class[name]["support"] == expected[name]["support"]
    micro = by_class["micro avg"]
    assert close(micro["precision"], expected["accuracy"]) and close(micro["recall"], expected["accuracy"])
    shown = {name: (round(by_class[name]["precision"], 4), round(by_class[name]["recall"], 4)) for name in by_class}
    assert shown["macro avg"] == (0.5194, 0.5898)
    assert shown["weighted avg"] == (0.6314, 0.5577)
    assert shown["micro avg"] == (0.5577, 0.5577)


@pytest.mark.parametrize("engine", ENGINES)
@settings(max_examples=15, deadline=None)
@given(data=datasets(), given_labels=st.booleans())
def test_confusion_matrix_and_report_per_group(engine, data, given_labels):
    labels = data["labels"] if given_labels else None
    w = "w" if data["weighted"] else None
    frame = data["frame"]
    long = fm.multiclass_confusion_matrix(
        frame, y_true="y", y_pred="yhat", labels=labels, sample_weight=w, by="g", engine=engine
    )
    report = fm.classification_report(
        frame,
        y_true="y",
        y_pred="yhat",
        labels=labels,
        sample_weight=w,
        by="g",
        engine=engine,
        y_score=[f"p{j}" for j in range(data["k"])] if labels else None,
    )
    for g in frame["g"].unique().to_list():
        rows = frame.filter(pl.col("g") == g)
        weights = rows["w"].to_numpy() if w else None
        classes = labels or sorted(set(rows["y"].to_list()) | set(rows["yhat"].to_list()))
        expected = skm.confusion_matrix(rows["y"], rows["yhat"], labels=classes, sample_weight=weights)
        ours = long.filter(pl.col("g") == g)
        assert ours["weight"].to_list() == pytest.approx(expected.ravel().tolist())
        p, r, f, s = skm.precision_recall_fscore_support(
            rows["y"], rows["yhat"], labels=classes, sample_weight=weights, zero_division=np.nan
        )
        part = report.filter(pl.col("g") == g).head(len(classes))
        assert part["class"].to_list() == [str(c) for c in classes]
        for ours_values, theirs in ((part["precision"], p), (part["recall"], r), (part["f1_score"], f)):
            assert all(
                close(a, None if math.isnan(b) else b) for a, b in zip(ours_values.to_list(), theirs, strict=True)
            )
        assert part["support"].to_list() == pytest.approx(s.tolist())


def test_pivoted_confusion_matrix():
    df = pl.DataFrame({"y": ["a", "b", "b"], "yhat": ["b", "b", "c"]})
    wide = fm.multiclass_confusion_matrix(df, y_true="y", y_pred="yhat", pivot=True, engine="duckdb")
    assert wide.columns == ["y_true", "a", "b", "c"]
    assert wide.rows() == [("a", 0.0, 1.0, 0.0), ("b", 0.0, 1.0, 1.0), ("c", 0.0, 0.0, 0.0)]
