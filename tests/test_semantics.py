"""Grouping, large counts, scikit-learn's own examples and engine agreement."""

from __future__ import annotations

import datetime as dt
import math

import numpy as np
import polars as pl
import pytest
from conftest import Columns
from polars.testing import assert_frame_equal
from reference import close
from sklearn import metrics as skm

import framemetrics as fm

ALL_CLASSIFICATION = [n for n, m in fm.REGISTRY.items() if m.family != "regression"]
ALL_REGRESSION = [n for n, m in fm.REGISTRY.items() if m.family == "regression"]


def test_engines_return_identical_frames_on_the_sample():
    df = pl.read_csv("data/default_predictions.csv")
    args = dict(y_true="default", y_score="p_default", by=["student", "income_band", "fold"])
    polars_out = fm.evaluate(df, metrics=ALL_CLASSIFICATION, **args)
    duckdb_out = fm.evaluate(df, metrics=ALL_CLASSIFICATION, engine="duckdb", **args)
    assert polars_out.height == 2 * 3 * 5 - 5  # five (student, income) pairs are empty
    assert_frame_equal(polars_out, duckdb_out, rel_tol=1e-12, abs_tol=1e-15)
    bikes = pl.read_csv("data/bikeshare_predictions.csv")
    args = dict(y_true="bikers", y_pred="predicted_bikers", by=["season", "weathersit"], metrics=ALL_REGRESSION)
    assert_frame_equal(fm.evaluate(bikes, **args), fm.evaluate(bikes, engine="duckdb", **args), rel_tol=1e-12)


@pytest.mark.parametrize("engine", ["polars", "duckdb"])
def test_group_columns_of_any_type_with_null_groups(engine):
    df = pl.DataFrame(
        {
            "day": [dt.date(2024, 1, 1), dt.date(2024, 1, 1), None, dt.date(2024, 1, 2)],
            "flag": [True, True, None, False],
            "k": [1, 1, 2, None],
            "y": [0, 1, 1, 0],
            "p": [0, 1, 0, 0],
        }
    )
    out = fm.evaluate(df, y_true="y", y_pred="p", by=["day", "flag", "k"], metrics="accuracy_score", engine=engine)
    assert out.columns == ["day", "flag", "k", "n_rows", "accuracy_score"]
    assert out.schema["day"] == pl.Date and out.schema["flag"] == pl.Boolean
    assert out.rows() == [
        (dt.date(2024, 1, 1), True, 1, 2, 1.0),
        (dt.date(2024, 1, 2), False, None, 1, 1.0),
        (None, None, 2, 1, 0.0),
    ]


def test_no_integer_overflow_at_a_billion_weighted_rows(engine):
    """polars-ds' MCC overflows on large counts; framemetrics sums in floating point."""
    y = np.array([1, 1, 0, 0, 1, 0])
    pred = np.array([1, 0, 1, 0, 1, 0])
    w = np.array([3.5e8, 1e8, 1.5e8, 4e8, 7e8, 3e8])  # 2e9 weighted rows
    df = pl.DataFrame({"g": ["a"] * 6, "y": y, "p": pred, "w": w})
    metrics = {"matthews_corrcoef": {}, "cohen_kappa_score": {}, "accuracy_score": {}}
    out = engine(df, metrics, Columns(y_pred="p", sample_weight="w"))
    assert close(out["matthews_corrcoef"][0], skm.matthews_corrcoef(y, pred, sample_weight=w))
    assert close(out["cohen_kappa_score"][0], skm.cohen_kappa_score(y, pred, sample_weight=w))
    assert close(out["accuracy_score"][0], skm.accuracy_score(y, pred, sample_weight=w))


def test_matthews_with_many_unweighted_rows():
    n = 200_000
    rng = np.random.default_rng(0)
    y = rng.integers(0, 2, n)
    pred = np.where(rng.random(n) < 0.8, y, 1 - y)
    df = pl.DataFrame({"y": y, "p": pred})
    for engine in ("polars", "duckdb"):
        out = fm.evaluate(df, y_true="y", y_pred="p", metrics="matthews_corrcoef", engine=engine)
        assert close(out["matthews_corrcoef"][0], skm.matthews_corrcoef(y, pred))


@pytest.mark.parametrize(
    ("metric", "y", "pred", "kwargs"),
    [
        ("brier_score_loss", [0, 1, 1, 0], [0.1, 0.9, 0.8, 0.3], {}),
        ("roc_auc_score", [0, 0, 1, 1], [0.1, 0.4, 0.35, 0.8], {}),
        ("average_precision_score", [0, 0, 1, 1], [0.1, 0.4, 0.35, 0.8], {}),
        ("log_loss", [0, 1, 1, 0], [0.1, 0.9, 0.8, 0.35], {}),
        ("matthews_corrcoef", [1, 1, 1, -1], [1, -1, 1, 1], {"neg_label": -1}),
        ("f1_score", [0, 1, 1, 0, 1, 1], [0, 1, 0, 0, 1, 1], {}),
        ("balanced_accuracy_score", [0, 1, 0, 0, 1, 0], [0, 1, 0, 0, 0, 1], {}),
        ("r2_score", [3, -0.5, 2, 7], [2.5, 0.0, 2, 8], {}),
        ("explained_variance_score", [3, -0.5, 2, 7], [2.5, 0.0, 2, 8], {}),
        ("mean_absolute_percentage_error", [1.0, 0.0, 2.4, 7.0], [1.2, 0.1, 2.4, 8.0], {}),
        ("root_mean_squared_log_error", [3, 5, 2.5, 7], [2.5, 5, 4, 8], {}),
        ("mean_pinball_loss", [1, 2, 3], [0, 3, 5], {}),
        ("median_absolute_error", [3, -0.5, 2, 7], [2.5, 0.0, 2, 8], {}),
        ("max_error", [3, 2, 7, 1], [9, 2, 7, 1], {}),
    ],
)
def test_scikit_learn_docstring_examples(metric, y, pred, kwargs):
    """The examples of scikit-learn's own docstrings, on both engines."""
    info = fm.get_metric(metric)
    reference = getattr(skm, metric)(y, pred)
    prediction = "y_score" if info.family in ("probability", "ranking") else "y_pred"
    df = pl.DataFrame({"y": y, "p": pred}, strict=False)
    for engine in ("polars", "duckdb"):
        out = fm.evaluate(df, y_true="y", metrics=metric, engine=engine, **{prediction: "p"}, **kwargs)
        assert close(out[metric][0], reference), (engine, out[metric][0], reference)


def test_one_class_and_single_row_groups(engine):
    df = pl.DataFrame({"g": ["a", "a", "b"], "y": [1.0, 1.0, 2.0], "f": [1.0, 2.0, 2.0]})
    out = engine(df, {"r2_score": {}, "explained_variance_score": {}}, Columns(y_pred="f"))
    assert out["r2_score"].to_list() == [skm.r2_score([1, 1], [1, 2]), None]  # scikit-learn: NaN for one row
    assert out["explained_variance_score"].to_list() == [
        skm.explained_variance_score([1, 1], [1, 2]),
        skm.explained_variance_score([2], [2]),
    ]


@pytest.mark.parametrize("n", [10, 37, 1000])
def test_constant_y_true_has_no_rounding_residue(engine, n):
    """0.1 averaged 37 times is not 0.1: scikit-learn's R^2 then explodes (-1.4e30);
    framemetrics centres a constant exactly, as scikit-learn does for exact means."""
    df = pl.DataFrame({"g": ["a"] * n, "y": [0.1] * n, "f": [0.1] * (n - 1) + [0.2]})
    out = engine(df, {"r2_score": {}, "explained_variance_score": {}}, Columns(y_pred="f"))
    exact_y, exact_f = [1] * n, [1] * (n - 1) + [2]
    assert out["r2_score"][0] == skm.r2_score(exact_y, exact_f)
    assert out["explained_variance_score"][0] == skm.explained_variance_score(exact_y, exact_f)


@pytest.mark.parametrize(
    ("y", "s", "w"),
    [
        ([0, 0, 0, 1], [0.0, 1.0, 0.0, 1.0], [0.2, 0.1, 0.3, 0.1]),
        ([1, 0, 1], [3.0, 2.0, 1.0], [1.0, 1.0, 1e17]),
        ([0, 1, 0], [3.0, 2.0, 1.0], [1.0, 1.0, 1e17]),
    ],
)
def test_precision_curves_have_no_cancellation(engine, y, s, w):
    """The previous PR point is summed over higher scores, never subtracted (found by review)."""
    df = pl.DataFrame({"g": ["a"] * len(y), "y": y, "p": s, "w": w})
    out = engine(df, {"pr_auc_score": {}, "average_precision_score": {}}, Columns(y_score="p", sample_weight="w"))
    precision, recall, _ = skm.precision_recall_curve(y, s, sample_weight=w)
    assert close(out["pr_auc_score"][0], skm.auc(recall, precision))
    assert close(out["average_precision_score"][0], skm.average_precision_score(y, s, sample_weight=w))


# The README's example of pr_auc_score against Spark's areaUnderPR: a tie at the top score.
SPARK_PR = pl.DataFrame({"y": [1, 0, 1], "p": [0.9, 0.9, 0.1]})


@pytest.mark.parametrize("engine", ["polars", "duckdb"])
def test_pr_auc_is_scikit_learns_and_not_sparks_area_under_pr(engine):
    """scikit-learn's PR curve starts at (recall 0, precision 1), Spark's at (0, the top score's precision)."""
    ours = fm.evaluate(SPARK_PR, y_true="y", y_score="p", metrics=["pr_auc_score"], engine=engine)["pr_auc_score"]
    precision, recall, _ = skm.precision_recall_curve(SPARK_PR["y"], SPARK_PR["p"])
    assert round(skm.auc(recall, precision), 4) == round(ours.item(), 4) == 0.6667
    assert round(_spark_area_under_pr(engine), 4) == 0.5417


def _spark_area_under_pr(engine: str) -> float:
    """Spark's trapezoid by hand: from (0, precision at the top score) through the curve's points."""
    curve = fm.precision_recall_curve(SPARK_PR, y_true="y", y_score="p", engine=engine)
    curve = curve.filter(pl.col("threshold").is_finite()).sort("threshold", descending=True)
    return float(np.trapezoid([curve["precision"][0], *curve["precision"]], [0.0, *curve["recall"]]))


def test_spark_area_under_pr_is_the_documented_number(spark_session):
    """Spark MLlib's own areaUnderPR (exact: no bins) gives the README's 0.5417, where pr_auc_score gives 0.6667."""
    from pyspark.ml.evaluation import BinaryClassificationEvaluator

    rows = spark_session.createDataFrame(SPARK_PR.select(label=pl.col("y").cast(pl.Float64), score="p").to_arrow())
    evaluator = BinaryClassificationEvaluator(rawPredictionCol="score", metricName="areaUnderPR", numBins=0)
    spark = evaluator.evaluate(rows)
    assert math.isclose(spark, _spark_area_under_pr("duckdb"), rel_tol=1e-12)
    assert round(spark, 4) == 0.5417


def test_ks_threshold_ties_gaps_equal_in_exact_arithmetic(engine):
    """TPR - FPR is 1/3 at scores 7 and 3, but 2/6 - 0 and 6/6 - 2/3 round apart: scikit-learn's
    argmax picks 3; framemetrics documents that such gaps tie and the highest score wins."""
    y = [1, 1, 0, 1, 1, 1, 0, 1]
    df = pl.DataFrame({"g": ["a"] * 8, "y": y, "p": [8.0, 7.0, 6.0, 5.0, 4.0, 3.0, 2.0, 1.0]})
    out = engine(df, {"ks_threshold": {}, "ks_statistic": {}}, Columns(y_score="p"))
    assert out["ks_threshold"][0] == 7.0
    assert close(out["ks_statistic"][0], 1 / 3)
    fpr, tpr, thresholds = skm.roc_curve(df["y"], df["p"], drop_intermediate=False)
    assert thresholds[np.argmax(tpr - fpr)] == 3.0


@pytest.mark.parametrize(
    ("y", "s", "w", "want"),
    [
        ([0, 0, 1, 1], [0.1, 0.4, 0.35, 0.8], [1, 1, 1, 1], 0.5),  # R-precision: 1 positive in the top 2
        ([1, 0, 1, 0], [0.9, 0.5, 0.5, 0.1], [1, 1, 1, 1], 0.75),  # the tied pair straddles rank 2: half of it
        ([1, 0, 1, 0], [0.9, 0.5, 0.5, 0.1], [1, 2, 2, 1], 2 / 3),  # P = 3: 1 + 2 * (3 - 1) / 4 positive in the top 3
        ([0, 0, 0, 1], [0.9, 0.8, 0.7, 0.1], [1, 1, 1, 1], 0.0),
        ([1, 1], [0.3, 0.2], [1, 1], 1.0),
    ],
)
def test_break_even_point_worked_examples(engine, y, s, w, want):
    df = pl.DataFrame({"g": ["a"] * len(y), "y": y, "p": s, "w": w}, schema_overrides={"w": pl.Float64})
    out = engine(df, {"break_even_point": {}}, Columns(y_score="p", sample_weight="w"))
    assert close(out["break_even_point"][0], want)


@pytest.mark.parametrize(("beta", "limit"), [(1e-200, skm.precision_score), (1e155, skm.recall_score),
                                             (1e200, skm.recall_score)])  # fmt: skip
def test_fbeta_with_extreme_beta_is_its_limit_not_nan(engine, beta, limit):
    """Issue 13, item 5: beta^2 under- or overflows; F-beta tends to precision (beta -> 0) or recall (beta -> inf).

    scikit-learn itself raises OverflowError from beta ~ 1e155, so its limits are the reference.
    """
    y, p = [0, 1, 1, 0, 1, 1], [1, 1, 0, 0, 1, 0]
    df = pl.DataFrame({"g": ["a"] * 6, "y": y, "p": p})
    out = engine(df, {"fbeta_score": {"beta": beta}}, Columns(y_pred="p"))
    column = f"fbeta_score(beta={beta!r})"
    assert close(out[column][0], limit(y, p)), (beta, out[column][0])
