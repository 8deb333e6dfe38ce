"""The delta-method interval of F1, F-beta and Jaccard and the logit interval of average precision (issue 37).

References: statsmodels' ``NonlinearDeltaCov`` (the delta method over the
multinomial confusion matrix, its gradient taken numerically) for the
F-scores without weights, the per-row linearisation in NumPy with weights;
scikit-learn's ``average_precision_score`` through Boyd, Eng and Page's
logit formula (SciPy's ``logit``/``expit``) for average precision. Per group,
on both engines and in the SQL text run by DuckDB.
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
from scipy.special import expit, logit
from scipy.stats import norm
from statsmodels.stats._delta_method import NonlinearDeltaCov

import framemetrics as fm

LEVEL = 0.9
Z = norm.ppf(1 - (1 - LEVEL) / 2)
# metric -> (u, v): F = tp / (tp + u fn + v fp)
RATIOS = {"f1_score": (0.5, 0.5), "fbeta_score(beta=2)": (0.8, 0.2), "jaccard_score": (1.0, 1.0)}
SKLEARN = {
    "f1_score": skm.f1_score,
    "fbeta_score(beta=2)": lambda y, f, sample_weight: skm.fbeta_score(y, f, beta=2, sample_weight=sample_weight),
    "jaccard_score": skm.jaccard_score,
}


def _frame(seed: int, weights: str, n: int = 400) -> pl.DataFrame:
    rng = np.random.default_rng(seed)
    y = rng.integers(0, 2, n)
    w = np.ones(n) if weights == "none" else rng.uniform(0.05, 3.0, n)
    p = np.clip(0.35 * y + rng.random(n) * 0.65, 0, 1).round(2)  # ties
    return pl.DataFrame({"g": rng.choice(["a", "b", "c"], n), "y": y, "p": p, "w": w})


def _run(engine: str, df: pl.DataFrame, metrics: list[str], weighted: bool) -> pl.DataFrame:
    arguments = {"y_true": "y", "y_score": "p", "by": "g", "metrics": metrics, "ci": LEVEL,
                 "interval_outputs": ("se", "low", "high")} if engine != "sql_text" else {}  # fmt: skip
    if weighted:
        arguments["sample_weight"] = "w"
    if engine == "sql_text":
        con = duckdb.connect()
        con.register("data", df)
        query = fm.sql.query(table="data", y_true="y", y_score="p", by="g", metrics=metrics, ci=LEVEL,
                             sample_weight="w" if weighted else None)  # fmt: skip
        return con.sql(query).pl().sort("g")
    arguments.pop("interval_outputs")
    return fm.evaluate(df, engine=engine, **arguments).sort("g")


def _delta_reference(y, pred, w, u, v, weighted):
    """se of F = tp / (tp + u fn + v fp): statsmodels' delta method without weights, the rows' linearisation with."""
    cells = np.stack([(y == 1) & (pred == 1), (y == 1) & (pred == 0), (y == 0) & (pred == 1), (y == 0) & (pred == 0)])
    if not weighted:
        n = len(y)
        p = cells.sum(axis=1) / n

        def f(q):
            return np.array([q[0] / (q[0] + u * q[1] + v * q[2])])

        delta = NonlinearDeltaCov(f, p, (np.diag(p) - np.outer(p, p)) / n)
        return delta.predicted()[0], delta.se_vectorized()[0]
    a = w * cells[0]
    b = w * (cells[0] + u * cells[1] + v * cells[2])
    value = a.sum() / b.sum()
    return value, math.sqrt(np.sum((a - value * b) ** 2)) / b.sum()


@pytest.mark.parametrize("weights", ["none", "fractional"])
@pytest.mark.parametrize("engine", ["polars", "duckdb", "sql_text"])
def test_f_scores_equal_the_delta_method(engine, weights):
    df = _frame(1, weights)
    out = _run(engine, df, list(RATIOS), weights != "none")
    for row in out.iter_rows(named=True):
        part = df.filter(pl.col("g") == row["g"])
        y, pred, w = part["y"].to_numpy(), (part["p"].to_numpy() >= 0.5).astype(int), part["w"].to_numpy()
        for name, (u, v) in RATIOS.items():
            value, se = _delta_reference(y, pred, w, u, v, weights != "none")
            assert math.isclose(value, SKLEARN[name](y, pred, sample_weight=w), rel_tol=1e-12), name
            assert math.isclose(row[name], value, rel_tol=1e-12), name
            assert math.isclose(row[f"{name}_low"], max(0.0, value - Z * se), rel_tol=1e-9), (name, row)
            assert math.isclose(row[f"{name}_high"], min(1.0, value + Z * se), rel_tol=1e-9), (name, row)


def _logit_reference(y, p, w):
    ap = skm.average_precision_score(y, p, sample_weight=w)
    n = w[y == 1].sum() ** 2 / (w[y == 1] ** 2).sum()
    tau = 1 / math.sqrt(n * ap * (1 - ap))
    return ap, expit(logit(ap) - Z * tau), expit(logit(ap) + Z * tau)


@pytest.mark.parametrize("weights", ["none", "fractional"])
@pytest.mark.parametrize("engine", ["polars", "duckdb", "sql_text"])
def test_average_precision_equals_the_logit_interval(engine, weights):
    df = _frame(2, weights)
    out = _run(engine, df, ["average_precision_score"], weights != "none")
    for row in out.iter_rows(named=True):
        part = df.filter(pl.col("g") == row["g"])
        ap, low, high = _logit_reference(*(part[c].to_numpy() for c in ("y", "p", "w")))
        assert math.isclose(row["average_precision_score"], ap, rel_tol=1e-12)
        assert math.isclose(row["average_precision_score_low"], low, rel_tol=1e-9)
        assert math.isclose(row["average_precision_score_high"], high, rel_tol=1e-9)


@settings(max_examples=30, deadline=None)
@given(
    st.lists(st.tuples(st.integers(0, 1), st.sampled_from([0.1, 0.4, 0.5, 0.7, 0.9]), st.sampled_from([0.5, 1.0, 3.0])),
             min_size=1, max_size=30),
    st.sampled_from(["polars", "duckdb"]),
)  # fmt: skip
def test_random_groups_are_the_references_or_null_where_undefined(rows, engine):
    df = pl.DataFrame(rows, schema=["y", "p", "w"], orient="row").with_columns(g=pl.lit("a"))
    out = fm.evaluate(df, y_true="y", y_score="p", sample_weight="w", by="g", ci=LEVEL, engine=engine,
                      metrics=["f1_score", "average_precision_score"])  # fmt: skip
    y, p, w = (df[c].to_numpy() for c in ("y", "p", "w"))
    pred = (p >= 0.5).astype(int)
    if ((y == 1) | (pred == 1)).any():
        value, se = _delta_reference(y, pred, w, 0.5, 0.5, True)
        assert math.isclose(out["f1_score_low"].item(), max(0.0, value - Z * se), rel_tol=1e-9, abs_tol=1e-15)
        assert math.isclose(out["f1_score_high"].item(), min(1.0, value + Z * se), rel_tol=1e-9, abs_tol=1e-15)
    else:  # tp + fp + fn = 0: F1 is zero_division, without an interval
        assert out["f1_score_low"].item() is None and out["f1_score_high"].item() is None
    ap = skm.average_precision_score(y, p, sample_weight=w) if (y == 1).any() else None
    if ap is None or ap == 1.0:  # no positive, or a perfect ranking: the logit is infinite
        assert out["average_precision_score_low"].item() is None
        return
    _, low, high = _logit_reference(y, p, w)
    assert math.isclose(out["average_precision_score_low"].item(), low, rel_tol=1e-9)
    assert math.isclose(out["average_precision_score_high"].item(), high, rel_tol=1e-9)


def test_the_intervals_stay_within_zero_and_one_and_their_method_is_named():
    df = pl.DataFrame({"y": [1, 1, 1, 0], "p": [0.9, 0.8, 0.7, 0.2]})
    out = fm.evaluate(df, y_true="y", y_score="p", metrics=["f1_score", "average_precision_score"], ci=0.95)
    assert out["f1_score"].item() == 1.0 and out["f1_score_low"].item() == out["f1_score_high"].item() == 1.0
    assert out["average_precision_score_low"].item() is None  # AP = 1
    with pytest.raises(fm.ArgumentError, match="ci_method='logit' does not apply to f1_score: it takes 'delta' or"):
        fm.evaluate(df, y_true="y", y_score="p", metrics=["f1_score"], ci=0.95, ci_method="logit")


def test_the_bootstrap_stays_on_request_and_agrees_roughly():
    df = _frame(3, "none", n=3000)
    arguments = {"y_true": "y", "y_score": "p", "metrics": ["f1_score", "average_precision_score"], "ci": LEVEL,
                 "n_resamples": 400, "seed": 1}  # fmt: skip
    analytic = fm.evaluate(df, **arguments)
    boot = fm.evaluate(df, ci_method="bootstrap", **arguments)
    for name in arguments["metrics"]:
        for side in ("low", "high"):
            a, b = analytic[f"{name}_{side}"].item(), boot[f"{name}_{side}"].item()
            assert a != b and abs(a - b) < 0.01, (name, side, a, b)


def test_the_builder_gives_the_interval_of_evaluate():
    df = _frame(4, "fractional").with_columns(pred=(pl.col("p") >= 0.5).cast(pl.Int64))
    for name, prediction in (("f1_score", "pred"), ("average_precision_score", "p")):
        built = df.group_by("g").agg(fm.confidence_interval(name, "y", prediction, "w", level=LEVEL)).sort("g")
        built = built.unnest(f"{name}_interval")
        want = fm.evaluate(df, y_true="y", y_score="p", sample_weight="w", by="g", metrics=[name], ci=LEVEL)
        assert np.allclose(built["low"].to_numpy(), want[f"{name}_low"].to_numpy(), rtol=1e-12)
        assert np.allclose(built["high"].to_numpy(), want[f"{name}_high"].to_numpy(), rtol=1e-12)


@pytest.mark.parametrize("rows", [100, 1000])
def test_the_intervals_cover_the_population_value(rows):
    """Segments drawn with replacement from a population of 2e5 rows (30 % positives, overlapping scores with
    ties): the 95 % intervals contain the population's F1 and average precision (scikit-learn's) in 95 +- 3 % of
    1,000 segments (here: F1 94.5 %, AP 97.1 % at 100 rows; 94.7 %, 94.8 % at 1,000 rows)."""
    rng = np.random.default_rng(0)
    n = 200_000
    y = (rng.random(n) < 0.3).astype(int)
    p = np.clip(rng.normal(0.35 + 0.3 * y, 0.2), 0, 1).round(3)
    truth = {"f1_score": skm.f1_score(y, (p >= 0.5).astype(int)), "average_precision_score":
             skm.average_precision_score(y, p)}  # fmt: skip
    segments = 1000
    drawn = rng.integers(0, n, (segments, rows))
    df = pl.DataFrame({"seg": np.repeat(np.arange(segments), rows), "y": y[drawn].ravel(), "p": p[drawn].ravel()})
    out = fm.evaluate(df, y_true="y", y_score="p", by="seg", metrics=list(truth), ci=0.95)
    for name, value in truth.items():
        assert out[f"{name}_low"].null_count() == 0
        covered = ((out[f"{name}_low"] <= value) & (out[f"{name}_high"] >= value)).mean()
        assert 0.92 <= covered <= 0.98, (name, rows, covered)
