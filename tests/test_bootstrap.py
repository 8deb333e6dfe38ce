"""The Poisson bootstrap against NumPy computing the same replicates from the same weights, on both engines.

The weights are the NumPy reference's of :mod:`test_resampling` (the same
seed scheme, its own arithmetic); each replicate's F1 and log loss are
computed here with NumPy and the interval is NumPy's linear percentiles.
"""

from __future__ import annotations

import math

import numpy as np
import polars as pl
import pytest
from test_resampling import numpy_weights

import framemetrics as fm

ENGINES = ("polars", "duckdb")
EPS = np.finfo(float).eps


def _frame(seed: int, n: int = 120) -> pl.DataFrame:
    rng = np.random.default_rng(seed)
    return pl.DataFrame(
        {
            "g": rng.integers(0, 3, n),
            "y": rng.integers(0, 2, n),
            "p": rng.integers(1, 20, n) / 20,
            "w": rng.integers(0, 4, n).astype(float),
            "id": rng.permutation(n) * 3 - 50,  # keys of any sign, in no order
        }
    )


def _reference(df: pl.DataFrame, seed: int, replicates: int, level: float, weighted: bool) -> dict:
    """Per group: NumPy's replicate F1 and log loss and their percentile intervals (undefined replicates left out)."""
    k = numpy_weights(df["id"].to_list(), seed, replicates)
    out = {}
    for g in sorted(set(df["g"].to_list())):
        mask = (df["g"] == g).to_numpy()
        y, p = df["y"].to_numpy()[mask], df["p"].to_numpy()[mask]
        w = (df["w"].to_numpy()[mask] if weighted else np.ones(mask.sum()))[:, None] * k[mask]
        pred = p >= 0.5
        tp, fp, fn = (w * ((y == 1) & pred)[:, None]).sum(0), (w * ((y == 0) & pred)[:, None]).sum(0), (
            w * ((y == 1) & ~pred)[:, None]).sum(0)  # fmt: skip
        q = np.clip(np.where(y == 1, p, 1 - p), EPS, 1 - EPS)
        with np.errstate(invalid="ignore", divide="ignore"):
            f1 = np.where(2 * tp + fp + fn > 0, 2 * tp / (2 * tp + fp + fn), np.nan)
            loss = np.where(w.sum(0) > 0, (w * -np.log(q)[:, None]).sum(0) / w.sum(0), np.nan)
        bounds = [100 * (1 - level) / 2, 100 * (1 + level) / 2]
        out[g] = {name: np.percentile(v[~np.isnan(v)], bounds) for name, v in (("f1_score", f1), ("log_loss", loss))}
    return out


@pytest.mark.parametrize("weighted", [False, True])
@pytest.mark.parametrize("engine", ENGINES)
def test_replicates_equal_numpy(engine, weighted):
    df, seed, replicates, level = _frame(3), 11, 60, 0.9
    out = fm.evaluate(df, y_true="y", y_score="p", by="g", metrics=["f1_score", "log_loss"], ci=level,
                      n_resamples=replicates, seed=seed, row_id="id", sample_weight="w" if weighted else None,
                      engine=engine)  # fmt: skip
    want = _reference(df, seed, replicates, level, weighted)
    for row in out.iter_rows(named=True):
        for name in ("f1_score", "log_loss"):
            low, high = want[row["g"]][name]
            assert math.isclose(row[f"{name}_low"], low, rel_tol=1e-9), (engine, name, row, low)
            assert math.isclose(row[f"{name}_high"], high, rel_tol=1e-9), (engine, name, row, high)


def test_row_id_gives_the_same_replicates_whatever_the_order_on_both_engines():
    df = _frame(4)
    shuffled = df.sample(fraction=1.0, shuffle=True, seed=1)
    arguments = {"y_true": "y", "y_score": "p", "by": "g", "metrics": ["f1_score", "brier_score_loss"], "ci": 0.95,
                 "n_resamples": 40, "row_id": "id"}  # fmt: skip
    outs = [fm.evaluate(frame, engine=e, **arguments) for frame in (df, shuffled) for e in ENGINES]
    for other in outs[1:]:
        assert other.schema == outs[0].schema
        for a, b in zip(other.drop("g").rows(), outs[0].drop("g").rows(), strict=True):
            assert all(math.isclose(x, y, rel_tol=1e-12) for x, y in zip(a, b, strict=True))


def test_bootstrap_arguments_are_checked():
    df = _frame(5).with_columns(name=pl.lit("a"))
    with pytest.raises(ValueError, match="n_resamples must be an integer from 2"):
        fm.evaluate(df, y_true="y", y_score="p", metrics=["f1_score"], ci=0.9, n_resamples=1)
    with pytest.raises(ValueError, match=r"column 'name' \(row_id\) must hold integers"):
        fm.evaluate(df, y_true="y", y_score="p", metrics=["f1_score"], ci=0.9, row_id="name")
    with pytest.raises(ValueError, match=r"column 'id' \(row_id\): 1 row is null"):
        fm.evaluate(df.with_columns(id=pl.when(pl.col("id") == pl.col("id").max()).then(None).otherwise(pl.col("id"))),
                    y_true="y", y_score="p", metrics=["f1_score"], ci=0.9, row_id="id", engine="duckdb")  # fmt: skip
    with pytest.raises(ValueError, match="average_precision_score: its bootstrap interval is not available yet"):
        fm.evaluate(df, y_true="y", y_score="p", metrics=["average_precision_score"], ci=0.9)
