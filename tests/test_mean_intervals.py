"""The normal interval of the metrics that are weighted means of per-row terms, against statsmodels (issue 37).

Each metric's terms are computed here with NumPy from its definition (their
mean is checked against scikit-learn's metric first); statsmodels'
``DescrStatsW(terms, weights=w).zconfint_mean`` and ``std_mean`` are the
reference of ``<metric>_low``, ``_high`` and ``_se``, per group, on both
engines and in the SQL text run by DuckDB.
"""

from __future__ import annotations

import math

import duckdb
import numpy as np
import polars as pl
import pytest
import sklearn.metrics as skm
from hypothesis import given, settings
from hypothesis import strategies as st
from statsmodels.stats.weightstats import DescrStatsW

import framemetrics as fm
from framemetrics.core.means import MEANS

EPS = np.finfo(float).eps
LEVEL = 0.9


def _logloss(y, p):
    q = np.clip(np.where(y == 1, p, 1 - p), EPS, 1 - EPS)
    return -np.log(q)


def _tweedie(y, f, power=1.5):
    return 2 * (np.maximum(y, 0) ** (2 - power) / ((1 - power) * (2 - power)) - y * f ** (1 - power) / (1 - power)
                + f ** (2 - power) / (2 - power))  # fmt: skip


def _poisson(y, f):
    with np.errstate(divide="ignore", invalid="ignore"):
        return 2 * (np.where(y > 0, y * np.log(y / f), 0.0) - y + f)


def _pinball(y, f, alpha=0.3):
    e = y - f
    return np.where(e >= 0, alpha * e, (alpha - 1) * e)


def _smape(y, f):
    scale = np.abs(y) + np.abs(f)
    with np.errstate(divide="ignore", invalid="ignore"):
        return np.where(scale == 0, 0.0, 2 * np.abs(y - f) / scale)


# metric (with its parameters) -> (its per-row terms, scikit-learn's value or None)
BINARY = {
    "log_loss": (_logloss, lambda y, p, sample_weight: skm.log_loss(y, p, sample_weight=sample_weight, labels=[0, 1])),
    "brier_score_loss": (
        lambda y, p: (y - p) ** 2,
        lambda y, p, sample_weight: skm.brier_score_loss(y, p, sample_weight=sample_weight),
    ),
    "hinge_loss": (
        lambda y, p: np.maximum(0, 1 - np.where(y == 1, 1, -1) * p),
        lambda y, p, sample_weight: skm.hinge_loss(y, p, sample_weight=sample_weight),
    ),
}
REGRESSION = {
    "mean_squared_error": (lambda y, f: (y - f) ** 2, skm.mean_squared_error),
    "mean_absolute_error": (lambda y, f: np.abs(y - f), skm.mean_absolute_error),
    "mean_squared_log_error": (lambda y, f: (np.log1p(y) - np.log1p(f)) ** 2, skm.mean_squared_log_error),
    "mean_absolute_percentage_error": (
        lambda y, f: np.abs(y - f) / np.maximum(np.abs(y), EPS),
        skm.mean_absolute_percentage_error,
    ),
    "symmetric_mean_absolute_percentage_error": (_smape, None),
    "mean_error": (lambda y, f: f - y, None),
    "mean_pinball_loss(alpha=0.3)": (
        _pinball,
        lambda y, f, sample_weight: skm.mean_pinball_loss(y, f, alpha=0.3, sample_weight=sample_weight),
    ),
    "mean_poisson_deviance": (_poisson, skm.mean_poisson_deviance),
    "mean_gamma_deviance": (lambda y, f: 2 * (np.log(f / y) + y / f - 1), skm.mean_gamma_deviance),
    "mean_tweedie_deviance(power=1.5)": (
        _tweedie,
        lambda y, f, sample_weight: skm.mean_tweedie_deviance(y, f, power=1.5, sample_weight=sample_weight),
    ),
}


def test_every_mean_metric_is_tested():
    names = {name.split("(")[0] for name in (*BINARY, *REGRESSION)}
    assert names == set(MEANS)


def _binary_frame(seed: int, weights: str) -> pl.DataFrame:
    rng = np.random.default_rng(seed)
    n = 300
    y = rng.integers(0, 2, n)
    w = rng.integers(1, 5, n).astype(float) if weights == "integer" else rng.uniform(0.05, 3.0, n)
    return pl.DataFrame({"g": rng.choice(["a", "b", "c"], n), "y": y, "p": np.clip(0.3 * y + rng.random(n) * 0.7, 0, 1),
                         "w": w})  # fmt: skip


def _regression_frame(seed: int, weights: str) -> pl.DataFrame:
    rng = np.random.default_rng(seed)
    n = 300
    w = rng.integers(1, 5, n).astype(float) if weights == "integer" else rng.uniform(0.05, 3.0, n)
    return pl.DataFrame({"g": rng.choice(["a", "b", "c"], n), "y": rng.gamma(2.0, 1.5, n),
                         "f": rng.gamma(2.0, 1.5, n), "w": w})  # fmt: skip


def _run(engine: str, df: pl.DataFrame, arguments: dict) -> pl.DataFrame:
    if engine == "sql_text":
        con = duckdb.connect()
        con.register("data", df)
        return con.sql(fm.sql.query(table="data", ci=LEVEL, **arguments)).pl().sort("g")
    return fm.evaluate(df, ci=LEVEL, engine=engine, **arguments).sort("g")


def _check(out: pl.DataFrame, df: pl.DataFrame, prediction: str, references: dict) -> None:
    for row in out.iter_rows(named=True):
        part = df.filter(pl.col("g") == row["g"])
        y, f, w = (part[c].to_numpy() for c in ("y", prediction, "w"))
        for name, (terms, sklearn) in references.items():
            t = terms(y, f)
            stats = DescrStatsW(t, weights=w)
            if sklearn is not None:
                assert math.isclose(stats.mean, sklearn(y, f, sample_weight=w), rel_tol=1e-9), name
            low, high = stats.zconfint_mean(alpha=1 - LEVEL)
            assert math.isclose(row[name], stats.mean, rel_tol=1e-10), (name, row[name], stats.mean)
            assert math.isclose(row[f"{name}_low"], low, rel_tol=1e-9, abs_tol=1e-12), (name, row[f"{name}_low"], low)
            assert math.isclose(row[f"{name}_high"], high, rel_tol=1e-9, abs_tol=1e-12), name


@pytest.mark.parametrize("weights", ["integer", "fractional"])
@pytest.mark.parametrize("engine", ["polars", "duckdb", "sql_text"])
def test_binary_means_equal_statsmodels(engine, weights):
    df = _binary_frame(1, weights)
    arguments = {"y_true": "y", "y_score": "p", "sample_weight": "w", "by": "g", "metrics": list(BINARY)}
    _check(_run(engine, df, arguments), df, "p", BINARY)


@pytest.mark.parametrize("weights", ["integer", "fractional"])
@pytest.mark.parametrize("engine", ["polars", "duckdb", "sql_text"])
def test_regression_means_equal_statsmodels(engine, weights):
    df = _regression_frame(2, weights)
    arguments = {"y_true": "y", "y_pred": "f", "sample_weight": "w", "by": "g", "metrics": list(REGRESSION),
                 "task": "regression"}  # fmt: skip
    if engine == "sql_text":
        arguments.pop("task")
    _check(_run(engine, df, arguments), df, "f", REGRESSION)


@settings(max_examples=25, deadline=None)
@given(
    st.lists(st.tuples(st.integers(0, 1), st.floats(0, 1), st.sampled_from([0.5, 1.0, 2.0, 3.0])), min_size=2,
             max_size=40),
    st.sampled_from(["polars", "duckdb"]),
)  # fmt: skip
def test_random_groups_equal_statsmodels_and_need_more_than_one_unit_of_weight(rows, engine):
    df = pl.DataFrame(rows, schema=["y", "p", "w"], orient="row").with_columns(g=pl.lit("a"))
    out = fm.evaluate(df, y_true="y", y_score="p", sample_weight="w", by="g", metrics=["brier_score_loss"],
                      ci=LEVEL, engine=engine)  # fmt: skip
    w = df["w"].to_numpy()
    if w.sum() <= 1:
        assert out["brier_score_loss_low"].item() is None
        return
    stats = DescrStatsW((df["y"].to_numpy() - df["p"].to_numpy()) ** 2, weights=w)
    low, high = stats.zconfint_mean(alpha=1 - LEVEL)
    assert math.isclose(out["brier_score_loss_low"].item(), low, rel_tol=1e-9, abs_tol=1e-12)
    assert math.isclose(out["brier_score_loss_high"].item(), high, rel_tol=1e-9, abs_tol=1e-12)


def test_the_bootstrap_stays_on_request_and_the_normal_interval_is_for_means_only():
    df = _binary_frame(3, "integer")
    arguments = {"y_true": "y", "y_score": "p", "metrics": ["log_loss"], "ci": LEVEL, "n_resamples": 50}
    normal = fm.evaluate(df, **arguments)
    boot = fm.evaluate(df, ci_method="bootstrap", **arguments)
    assert normal["log_loss_low"].item() != boot["log_loss_low"].item()
    assert abs(normal["log_loss_low"].item() - boot["log_loss_low"].item()) < 0.05
    with pytest.raises(fm.ArgumentError, match="ci_method='normal' does not apply to f1_score"):
        fm.evaluate(df, y_true="y", y_score="p", metrics=["f1_score"], ci=LEVEL, ci_method="normal")


def test_a_weight_total_of_at_most_one_gives_a_null_interval():
    df = pl.DataFrame({"y": [0, 1, 1], "p": [0.2, 0.7, 0.9], "w": [0.2, 0.3, 0.4]})
    out = fm.evaluate(df, y_true="y", y_score="p", sample_weight="w", metrics=["log_loss"], ci=LEVEL)
    assert out["log_loss"].item() is not None and out["log_loss_low"].item() is None


def test_the_builder_gives_the_interval_of_evaluate():
    df = _binary_frame(4, "fractional")
    built = df.group_by("g").agg(fm.confidence_interval("log_loss", "y", "p", "w", level=LEVEL)).sort("g")
    built = built.unnest("log_loss_interval")
    want = fm.evaluate(df, y_true="y", y_score="p", sample_weight="w", by="g", metrics=["log_loss"], ci=LEVEL)
    assert np.allclose(built["low"].to_numpy(), want["log_loss_low"].to_numpy(), rtol=1e-12)
    assert np.allclose(built["high"].to_numpy(), want["log_loss_high"].to_numpy(), rtol=1e-12)
