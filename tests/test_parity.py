"""Every registered metric, on every engine, equals scikit-learn per group to 1e-9.

Hypothesis draws frames with several groups (a null group among them), tiny
and one-class groups, tied scores and sample weights (zeros included).
"""

from __future__ import annotations

import math

import numpy as np
import polars as pl
from conftest import Columns
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from reference import assert_matches_reference

import framemetrics as fm

GROUPS = st.sampled_from(["a", "b", "c", None])
TIED_SCORES = st.sampled_from([0.0, 0.1, 0.25, 0.5, 0.5, 0.75, 1.0])
SCORES = st.one_of(TIED_SCORES, st.floats(0, 1, allow_subnormal=False))
WEIGHTS = st.one_of(st.sampled_from([0.0, 0.5, 1.0, 2.0, 3.25]), st.floats(1e-3, 1e3, allow_subnormal=False))
VALUES = st.one_of(
    st.sampled_from([0.0, 1.0, 2.5, 10.0]),
    st.floats(-0.99, 1e4, allow_nan=False, allow_subnormal=False),
)
SETTINGS = settings(max_examples=30, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])


_POSITIVE_DOMAINS = {"nonnegative", "positive"}


def _metrics(family: str, weighted: bool, positive: bool = False) -> dict[str, dict]:
    """The metrics of ``family``; ``positive``: only those needing positive inputs (the deviances), else the others."""
    chosen = {
        n: {}
        for n, m in fm.REGISTRY.items()
        if m.family == family
        and (m.weighted or not weighted)
        and positive == any(c.domain in _POSITIVE_DOMAINS for c in m.checks)
    }
    if "fbeta_score" in chosen:
        chosen["fbeta_score"] = {"beta": 2.0}
    for name in ("mean_pinball_loss", "d2_pinball_score"):
        if name in chosen:
            chosen[name] = {"alpha": 0.9}
    return chosen


def _frame(rows, names):
    return pl.DataFrame(rows, schema=names, orient="row")


@st.composite
def classification_frames(draw):
    rows = draw(st.lists(st.tuples(GROUPS, st.sampled_from([0, 1]), SCORES, WEIGHTS), min_size=1, max_size=40))
    return _frame(rows, {"g": pl.String, "y": pl.Int64, "p": pl.Float64, "w": pl.Float64})


@st.composite
def regression_frames(draw):
    rows = draw(st.lists(st.tuples(GROUPS, VALUES, VALUES, WEIGHTS), min_size=1, max_size=40))
    return _frame(rows, {"g": pl.String, "y": pl.Float64, "f": pl.Float64, "w": pl.Float64})


@SETTINGS
@given(df=classification_frames(), weighted=st.booleans())
def test_classification_metrics_match_sklearn(engine, df, weighted):
    cols = Columns(y_score="p", sample_weight="w" if weighted else None)
    metrics = _metrics("classification", weighted)
    assert_matches_reference(engine(df, metrics, cols), df, metrics, cols)


@SETTINGS
@given(df=classification_frames(), weighted=st.booleans(), zero_division=st.sampled_from([0, 1]))
def test_zero_division_matches_sklearn(engine, df, weighted, zero_division):
    cols = Columns(y_score="p", sample_weight="w" if weighted else None, threshold=0.75)
    metrics = {n: {"zero_division": zero_division} for n, m in fm.REGISTRY.items() if "zero_division" in m.params}
    assert_matches_reference(engine(df, metrics, cols), df, metrics, cols)


@SETTINGS
@given(df=classification_frames(), weighted=st.booleans())
def test_probability_metrics_match_sklearn(engine, df, weighted):
    cols = Columns(y_score="p", sample_weight="w" if weighted else None)
    metrics = _metrics("probability", weighted)
    assert_matches_reference(engine(df, metrics, cols), df, metrics, cols)


@SETTINGS
@given(df=classification_frames(), weighted=st.booleans(), max_fpr=st.sampled_from([None, 0.1, 0.25, 0.5, 0.8, 1.0]))
def test_ranking_metrics_match_sklearn(engine, df, weighted, max_fpr):
    """Tied scores (drawn from a small set), weights with zeros, one-class groups, partial AUC."""
    cols = Columns(y_score="p", sample_weight="w" if weighted else None)
    metrics = _metrics("ranking", weighted) | {"roc_auc_score": {"max_fpr": max_fpr}}
    assert_matches_reference(engine(df, metrics, cols), df, metrics, cols)


@SETTINGS
@given(df=regression_frames(), weighted=st.booleans(), force_finite=st.booleans())
def test_regression_metrics_match_sklearn(engine, df, weighted, force_finite):
    cols = Columns(y_pred="f", sample_weight="w" if weighted else None)
    metrics = _metrics("regression", weighted)
    for name in ("r2_score", "explained_variance_score"):
        metrics[name] = {"force_finite": force_finite}
    assert_matches_reference(engine(df, metrics, cols), df, metrics, cols)


@SETTINGS
@given(df=classification_frames(), weighted=st.booleans(), beta=st.sampled_from([0.0, 0.5, 3.0, math.inf]))
def test_fbeta_at_zero_and_infinite_beta_matches_sklearn(engine, df, weighted, beta):
    """beta = 0 is the precision, beta = inf the recall, as scikit-learn."""
    cols = Columns(y_score="p", sample_weight="w" if weighted else None)
    metrics = {"fbeta_score": {"beta": beta}}
    assert_matches_reference(engine(df, metrics, cols), df, metrics, cols)


@SETTINGS
@given(df=regression_frames(), weighted=st.booleans())
def test_deviances_match_sklearn(engine, df, weighted):
    """Poisson and Gamma deviances on positive targets and predictions (zero targets for Poisson)."""
    positive = df.with_columns(pl.col("y").abs().round(0), pl.col("f").abs() + 0.25)
    cols = Columns(y_pred="f", sample_weight="w" if weighted else None)
    metrics = _metrics("regression", weighted, positive=True)
    poisson = {"mean_poisson_deviance": metrics.pop("mean_poisson_deviance")}
    assert_matches_reference(engine(positive, poisson, cols), positive, poisson, cols)
    gamma = positive.with_columns(pl.col("y") + 0.5)
    assert_matches_reference(engine(gamma, metrics, cols), gamma, metrics, cols)


@SETTINGS
@given(df=classification_frames())
def test_string_labels_and_pos_label(engine, df):
    labelled = df.with_columns(
        pl.when(pl.col("y") == 1).then(pl.lit("Yes")).otherwise(pl.lit("No")).alias("label"),
        pl.when(pl.col("p") >= 0.5).then(pl.lit("Yes")).otherwise(pl.lit("No")).alias("pred"),
    )
    cols = Columns(y_true="label", y_pred="pred", pos_label="Yes", neg_label="No")
    metrics = {"f1_score": {}, "matthews_corrcoef": {}, "specificity_score": {}}
    assert_matches_reference(engine(labelled, metrics, cols), labelled, metrics, cols)


@SETTINGS
@given(df=classification_frames(), labels=st.sampled_from([(0, 1), ("Yes", "No"), (2, 1), (True, False)]))
def test_thresholded_scores_with_any_labels(engine, df, labels):
    """y_score is the probability of pos_label: y_score >= threshold predicts pos_label."""
    pos, neg = labels
    dtype = pl.String if isinstance(pos, str) else (pl.Boolean if isinstance(pos, bool) else pl.Int64)
    labelled = df.with_columns(
        pl.when(pl.col("y") == 1).then(pl.lit(pos, dtype)).otherwise(pl.lit(neg, dtype)).alias("label")
    )
    cols = Columns(y_true="label", y_score="p", pos_label=pos, neg_label=neg)
    metrics = {"recall_score": {}, "specificity_score": {}, "log_loss": {}, "accuracy_score": {}, "roc_auc_score": {}}
    assert_matches_reference(engine(labelled, metrics, cols), labelled, metrics, cols)


def test_many_groups_match_sklearn(engine):
    """150 groups of 1 to 30 rows, every classification, probability and regression metric."""
    rng = np.random.default_rng(7)
    sizes = rng.integers(1, 31, 150)
    groups = np.repeat([f"segment {i:03d}" for i in range(150)], sizes)
    n = len(groups)
    df = pl.DataFrame(
        {
            "g": groups,
            "y": rng.integers(0, 2, n),
            "p": rng.choice([0.1, 0.5, 0.9, *rng.random(5)], n),
            "t": rng.normal(10, 3, n),
            "f": rng.normal(10, 3, n),
            "w": rng.choice([0.5, 1.0, 2.0], n),
        }
    )
    classification = _metrics("classification", True) | _metrics("probability", True) | _metrics("ranking", True)
    cols = Columns(y_score="p", sample_weight="w")
    assert_matches_reference(engine(df, classification, cols), df, classification, cols)
    regression = _metrics("regression", True)
    cols = Columns(y_true="t", y_pred="f", sample_weight="w")
    assert_matches_reference(engine(df, regression, cols), df, regression, cols)
