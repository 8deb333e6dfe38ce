"""One-vs-rest curves: per group and class, scikit-learn's curve of ``y_true == class`` against its score."""

from __future__ import annotations

import numpy as np
import polars as pl
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from polars.testing import assert_frame_equal
from sklearn import metrics as skm

import framemetrics as fm

ENGINES = ["polars", "duckdb"]
LABELS = ["cat", "dog", "pig"]


def _frame(rows: list[tuple]) -> pl.DataFrame:
    frame = pl.DataFrame(rows, schema=["g", "y", "cat", "dog", "pig", "w"], orient="row")
    return frame.with_columns(pl.col(LABELS).cast(pl.Float64) / 4, pl.col("w").cast(pl.Float64))


ROWS = st.lists(
    st.tuples(
        st.sampled_from(["a", "b"]), st.sampled_from(LABELS), *(st.integers(0, 4) for _ in range(3)), st.integers(1, 3)
    ),  # fmt: skip
    min_size=1,
    max_size=40,
)


@settings(max_examples=20, deadline=None)
@given(rows=ROWS)
@pytest.mark.parametrize("engine", ENGINES)
@pytest.mark.parametrize("curve", ["roc_curve", "precision_recall_curve"])
def test_each_class_curve_equals_scikit_learn(engine, curve, rows):
    frame = _frame(rows)
    got = fm.curve_table(curve, frame, y_true="y", y_score=LABELS, sample_weight="w", by="g", engine=engine)
    for group in sorted(set(frame["g"])):
        rows_g = frame.filter(pl.col("g") == group)
        for label in LABELS:
            points = got.filter((pl.col("g") == group) & (pl.col("class") == label))
            is_class = (rows_g["y"] == label).to_numpy()
            score, weight = rows_g[label].to_numpy(), rows_g["w"].to_numpy()
            if curve == "roc_curve":
                if is_class.all() or not is_class.any():
                    continue  # scikit-learn warns and divides by zero; framemetrics' nulls are tested binary
                fpr, tpr, thresholds = skm.roc_curve(is_class, score, sample_weight=weight)
                np.testing.assert_allclose(points["fpr"].to_numpy(), fpr, rtol=1e-12)
                np.testing.assert_allclose(points["tpr"].to_numpy(), tpr, rtol=1e-12)
                np.testing.assert_allclose(points["threshold"].to_numpy(), thresholds, rtol=1e-12)
            else:
                if not is_class.any():
                    continue
                precision, recall, thresholds = skm.precision_recall_curve(is_class, score, sample_weight=weight)
                np.testing.assert_allclose(points["precision"].to_numpy(), precision, rtol=1e-12)
                np.testing.assert_allclose(points["recall"].to_numpy(), recall, rtol=1e-12)
                np.testing.assert_allclose(points["threshold"].to_numpy()[:-1], thresholds, rtol=1e-12)


@pytest.mark.parametrize("engine", ENGINES)
def test_thinned_and_listed_scores_match_the_binary_curve_of_each_class(engine):
    rng = np.random.default_rng(5)
    proba = rng.dirichlet([1, 1, 1], 3000).round(3)
    frame = pl.DataFrame({"g": rng.choice(["a", "b"], 3000), "y": rng.choice(LABELS, 3000)}).with_columns(
        scores=pl.Series(proba.tolist())
    )
    got = fm.roc_curve(frame, y_true="y", y_score="scores", labels=LABELS, by="g", max_points=40, engine=engine)
    assert got.columns[:2] == ["g", "class"]
    for j, label in enumerate(LABELS):
        binary = frame.with_columns(is_class=(pl.col("y") == label).cast(pl.Int64), s=pl.col("scores").list.get(j))
        want = fm.roc_curve(binary, y_true="is_class", y_score="s", by="g", max_points=40, engine=engine)
        part = got.filter(pl.col("class") == label).drop("class")
        assert_frame_equal(part, want, rel_tol=1e-12)


@pytest.mark.parametrize("engine", ENGINES)
def test_one_vs_rest_errors(engine):
    frame = _frame([("a", "cat", 1, 2, 1, 1), ("a", "cow", 1, 2, 1, 1)])
    with pytest.raises(ValueError, match=r"column 'y' \(y_true\): 1 row is null or not one of labels"):
        fm.roc_curve(frame, y_true="y", y_score=LABELS, labels=LABELS, engine=engine)
    with pytest.raises(fm.ArgumentError, match=r"need labels=: .*1 row is null or not one of the columns' names"):
        fm.roc_curve(frame, y_true="y", y_score=LABELS, engine=engine)
    with pytest.raises(fm.ArgumentError, match="pos_label and neg_label are binary only"):
        fm.roc_curve(frame, y_true="y", y_score=LABELS, pos_label="cat", engine=engine)
    with pytest.raises(fm.ArgumentError, match="SQL text is not written"):
        fm.sql.curve("roc_curve", table="t", y_true="y", y_score=LABELS)
