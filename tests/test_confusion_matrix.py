"""fm.confusion_matrix against sklearn.metrics.confusion_matrix, per segment, weighted and normalized (issue 36)."""

from __future__ import annotations

import math

import duckdb
import numpy as np
import polars as pl
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from sklearn.metrics import confusion_matrix as sk_confusion_matrix

import framemetrics as fm
from framemetrics.core.errors import ArgumentError

ENGINES = ("polars", "duckdb")
NORMALIZE = (None, "true", "pred", "all")
CELLS = ["tn", "fp", "fn", "tp"]
SETTINGS = settings(max_examples=15, deadline=None, suppress_health_check=[HealthCheck.too_slow])


@st.composite
def segments(draw: st.DrawFn) -> pl.DataFrame:
    """1 to 4 segments of 1 to 12 rows: labels, scores (some at the threshold), weights with zeros."""
    rows = []
    for g in range(draw(st.integers(1, 4))):
        for _ in range(draw(st.integers(1, 12))):
            score = draw(st.sampled_from([0.0, 0.2, 0.5, 0.7, 1.0]))
            weight = draw(st.sampled_from([0.0, 0.1, 1 / 3, 1.0, 7.7]))
            rows.append((f"s{g}", draw(st.integers(0, 1)), draw(st.integers(0, 1)), score, weight))
    return pl.DataFrame(rows, schema=["g", "y", "yhat", "p", "w"], orient="row")


def _reference(part: pl.DataFrame, prediction: np.ndarray, weighted: bool, normalize: str | None) -> list[float | None]:
    """scikit-learn's ravelled matrix of labels [0, 1]; where a normalized cell divides by 0 (its 0), None."""
    y, w = part["y"].to_numpy(), part["w"].to_numpy() if weighted else None
    if w is not None and not w.any():  # scikit-learn refuses weights all 0: a segment weighing 0
        return [0.0] * 4 if normalize is None else [None] * 4
    cells = sk_confusion_matrix(y, prediction, labels=[0, 1], sample_weight=w, normalize=normalize).ravel()
    raw = sk_confusion_matrix(y, prediction, labels=[0, 1], sample_weight=w).astype(float)
    whole = {"true": raw.sum(axis=1, keepdims=True) * np.ones((1, 2)), "pred": raw.sum(axis=0, keepdims=True) *
             np.ones((2, 1)), "all": np.full((2, 2), raw.sum())}.get(normalize)  # fmt: skip
    if whole is None:
        return list(cells)
    return [None if d == 0 else float(c) for c, d in zip(cells, whole.ravel(), strict=True)]


def _check(out: pl.DataFrame, df: pl.DataFrame, predicted: str, weighted: bool, normalize: str | None) -> None:
    assert out.columns == ["g", "n_rows", *CELLS]
    integers = not weighted and normalize is None
    assert all(out[c].dtype == (pl.Int64 if integers else pl.Float64) for c in CELLS)
    assert out["g"].to_list() == sorted(df["g"].unique().to_list())
    for row in out.iter_rows(named=True):
        part = df.filter(pl.col("g") == row["g"])
        prediction = part[predicted].to_numpy() if predicted == "yhat" else (part["p"].to_numpy() >= 0.5).astype(int)
        want = _reference(part, prediction, weighted, normalize)
        for cell, value in zip(CELLS, want, strict=True):
            got = row[cell]
            assert (got is None and value is None) or math.isclose(got, value, rel_tol=1e-12, abs_tol=1e-12), (
                cell, got, value, normalize,
            )  # fmt: skip


@SETTINGS
@given(segments(), st.sampled_from(ENGINES), st.sampled_from(NORMALIZE), st.booleans())
def test_equal_to_scikit_learn_per_segment(df, engine, normalize, weighted):
    """Labels from y_pred; sklearn's normalized cells where defined, null where it writes 0 for 0 / 0."""
    weight = "w" if weighted else None
    out = fm.confusion_matrix(df, y_true="y", y_pred="yhat", by="g", sample_weight=weight, normalize=normalize,
                              engine=engine)  # fmt: skip
    _check(out, df, "yhat", weighted, normalize)


@SETTINGS
@given(segments(), st.sampled_from(ENGINES), st.sampled_from(NORMALIZE))
def test_scores_are_thresholded_as_evaluate_does(df, engine, normalize):
    out = fm.confusion_matrix(df, y_true="y", y_score="p", by="g", sample_weight="w", normalize=normalize,
                              engine=engine)  # fmt: skip
    _check(out, df, "p", True, normalize)


def test_the_cells_agree_with_the_metrics_of_evaluate():
    """The cells are the statistics the label metrics read: recall is tp / (fn + tp), normalize="true"'s tp."""
    df = pl.DataFrame({"y": [0, 1, 1, 0, 1], "p": [0.1, 0.8, 0.4, 0.6, 0.9], "w": [1.0, 2.0, 0.5, 1.5, 1.0]})
    cells = fm.confusion_matrix(df, y_true="y", y_score="p", sample_weight="w", normalize="true")
    metrics = fm.evaluate(df, y_true="y", y_score="p", sample_weight="w", metrics=["recall_score", "specificity_score"])
    assert cells["tp"].item() == pytest.approx(metrics["recall_score"].item())
    assert cells["tn"].item() == pytest.approx(metrics["specificity_score"].item())


def test_text_labels_and_pos_label():
    df = pl.DataFrame({"y": ["yes", "no", "yes", "no"], "yhat": ["yes", "yes", "no", "no"]})
    out = fm.confusion_matrix(df, y_true="y", y_pred="yhat", pos_label="yes", neg_label="no")
    assert out.select(CELLS).row(0) == tuple(sk_confusion_matrix(df["y"], df["yhat"], labels=["no", "yes"]).ravel())


def test_the_sql_text_gives_the_same_cells():
    df = pl.DataFrame({"g": ["a", "a", "b", "b", "b"], "y": [0, 1, 1, 0, 1], "yhat": [0, 1, 0, 1, 1],
                       "w": [1.0, 0.1, 2.0, 7.7, 1 / 3]})  # fmt: skip
    con = duckdb.connect()
    con.register("preds", df.to_arrow())
    for normalize in NORMALIZE:
        sql = fm.sql.confusion_matrix(table="preds", y_true="y", y_pred="yhat", sample_weight="w", by="g",
                                      normalize=normalize)  # fmt: skip
        want = fm.confusion_matrix(df, y_true="y", y_pred="yhat", sample_weight="w", by="g", normalize=normalize)
        got = con.sql(sql).pl()
        assert got.rows() == want.rows()


def test_bad_arguments_and_rows():
    df = pl.DataFrame({"y": [0, 1, 2], "yhat": [0, 1, 1], "p": [0.1, 0.9, 0.2]})
    with pytest.raises(ArgumentError, match="normalize must be"):
        fm.confusion_matrix(df, y_true="y", y_pred="yhat", normalize="rows")
    with pytest.raises(ArgumentError, match="not both"):
        fm.confusion_matrix(df, y_true="y", y_pred="yhat", y_score="p")
    for engine in ENGINES:
        with pytest.raises(ValueError, match=r"column 'y' \(y_true\).*1 row"):
            fm.confusion_matrix(df, y_true="y", y_pred="yhat", engine=engine)
