"""The class table equals scikit-learn's per-class outputs (average=None), per group, on both engines.

``multilabel_confusion_matrix`` gives the one-vs-rest counts,
``precision_recall_fscore_support(average=None, beta=...)`` and
``jaccard_score(average=None)`` the values, with and without ``labels=``,
weights and ``zero_division``.
"""

from __future__ import annotations

import math
import warnings

import numpy as np
import polars as pl
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from sklearn import metrics as skm

import framemetrics as fm

CLASSES = ["ant", "bee", "cat", "dog"]


@st.composite
def frames(draw: st.DrawFn) -> pl.DataFrame:
    n = draw(st.integers(1, 30))
    labels = st.lists(st.sampled_from(CLASSES[:3]), min_size=n, max_size=n)
    return pl.DataFrame(
        {
            "g": draw(st.lists(st.sampled_from(["a", "b"]), min_size=n, max_size=n)),
            "y": draw(labels),
            "yhat": draw(labels),
            "w": [float(v) for v in draw(st.lists(st.integers(0, 3), min_size=n, max_size=n))],
        }
    )


def _close(got: float | None, want: float) -> bool:
    if math.isnan(want):
        return got is None
    return got is not None and math.isclose(got, want, rel_tol=1e-9, abs_tol=1e-12)


def _expected(rows: pl.DataFrame, labels: list[str], weights: np.ndarray | None, beta: float, zd) -> dict:
    y, yhat = rows["y"].to_list(), rows["yhat"].to_list()
    zero_division = np.nan if zd is None else zd
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        cm = skm.multilabel_confusion_matrix(y, yhat, labels=labels, sample_weight=weights)
        p, r, f, support = skm.precision_recall_fscore_support(
            y, yhat, labels=labels, sample_weight=weights, beta=beta, average=None, zero_division=zero_division
        )
        f1 = skm.f1_score(y, yhat, labels=labels, sample_weight=weights, average=None, zero_division=zero_division)
        jaccard = skm.jaccard_score(y, yhat, labels=labels, sample_weight=weights, average=None, zero_division=zd or 0)
    if zd is None:  # scikit-learn's jaccard takes no NaN: its 0 where tp + fp + fn = 0 is framemetrics' null
        jaccard = np.where(cm[:, 1, 1] + cm[:, 0, 1] + cm[:, 1, 0] == 0, np.nan, jaccard)
    return {
        "tn": cm[:, 0, 0], "fp": cm[:, 0, 1], "fn": cm[:, 1, 0], "tp": cm[:, 1, 1], "support": support,
        "precision": p, "recall": r, "fbeta_score": f, "f1_score": f1, "jaccard_score": jaccard,
    }  # fmt: skip


@pytest.mark.parametrize("engine", ["polars", "duckdb"])
@settings(max_examples=25, deadline=None)
@given(
    df=frames(),
    weighted=st.booleans(),
    listed=st.booleans(),
    beta=st.sampled_from([0.0, 0.5, 1.0, 2.0, math.inf]),
    zero_division=st.sampled_from([None, 0, 1]),
)
def test_class_table_matches_sklearn_per_group(engine, df, weighted, listed, beta, zero_division):
    labels = CLASSES if listed else None
    kwargs = {"y_true": "y", "y_pred": "yhat", "labels": labels, "by": "g", "beta": beta}
    out = fm.class_table(df, sample_weight="w" if weighted else None, zero_division=zero_division, engine=engine,
                         **kwargs)  # fmt: skip
    for group in sorted(set(df["g"])):
        rows = df.filter(pl.col("g") == group)
        present = labels or sorted(set(rows["y"]) | set(rows["yhat"]))
        weights = rows["w"].to_numpy() if weighted else None
        got = out.filter(pl.col("g") == group)
        assert got["class"].to_list() == present
        if weights is not None and weights.sum() == 0:  # scikit-learn refuses; the README's outcome
            assert set(got["tp"]) | set(got["tn"]) == {0.0}
            assert set(got["precision"]) == {None if zero_division is None else float(zero_division)}
            continue
        want = _expected(rows, present, weights, beta, zero_division)
        for column, values in want.items():
            for got_value, want_value in zip(got[column], values, strict=True):
                assert _close(got_value, float(want_value)), (group, column, got_value, want_value)


def test_class_table_on_both_engines_is_one_frame():
    df = pl.DataFrame({"g": [2, 1, 1, 2, None], "y": [1, 2, 3, 1, 2], "yhat": [1, 3, 3, 2, 2]})
    polars, duck = (fm.class_table(df, y_true="y", y_pred="yhat", by="g", engine=e) for e in ("polars", "duckdb"))
    assert duck.equals(polars)
    assert polars.columns == ["g", "class", "tp", "fp", "fn", "tn", "support", "precision", "recall",
                              "f1_score", "fbeta_score", "jaccard_score"]  # fmt: skip
    assert polars["g"].to_list() == [1, 1, 2, 2, None]
