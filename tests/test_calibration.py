"""The calibration curve equals scikit-learn's ``calibration_curve(strategy="uniform")`` per group.

Three paths: ``fm.calibration_curve`` on Polars and on DuckDB, and the SQL
text of ``fm.sql.calibration_curve``. Scores are drawn on and beside the bin
edges, where the bin of a score depends on the last bit.
"""

from __future__ import annotations

import duckdb
import numpy as np
import polars as pl
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from polars.testing import assert_frame_equal
from reference import close, groups
from sklearn.calibration import calibration_curve as sk_calibration_curve

import framemetrics as fm
from framemetrics.demo import sample_path

PATHS = ("polars", "duckdb", "sql_text")


def run(path: str, df: pl.DataFrame, n_bins: int, weight: str | None = None) -> pl.DataFrame:
    kwargs = dict(y_true="y", y_score="p", n_bins=n_bins, sample_weight=weight, by="g")
    if path == "sql_text":
        con = duckdb.connect()
        con.register("data", df)
        return con.sql(fm.sql.calibration_curve(table="data", **kwargs)).pl()
    return fm.calibration_curve(df, engine=path, **kwargs)


@st.composite
def scores(draw, n_bins: int) -> float:
    i = draw(st.integers(0, n_bins))
    edge = draw(st.sampled_from([i / n_bins, i * (1.0 / n_bins), float(np.linspace(0, 1, n_bins + 1)[i])]))
    near = draw(st.sampled_from([edge, np.nextafter(edge, 0.0), np.nextafter(edge, 1.0)]))
    return draw(st.one_of(st.just(float(min(max(near, 0.0), 1.0))), st.floats(0, 1, allow_subnormal=False)))


@st.composite
def frames(draw) -> tuple[pl.DataFrame, int]:
    n_bins = draw(st.integers(1, 25))
    row = st.tuples(st.sampled_from(["a", "b", None]), st.sampled_from([0, 1]), scores(n_bins), st.integers(1, 3))
    rows = draw(st.lists(row, min_size=1, max_size=60))
    schema = {"g": pl.String, "y": pl.Int64, "p": pl.Float64, "w": pl.Int64}
    return pl.DataFrame(rows, schema=schema, orient="row"), n_bins


def reference(part: pl.DataFrame, n_bins: int, weight: str | None) -> tuple[list[float], list[float]]:
    """scikit-learn's curve; integer weights as repeated rows (it takes no weights)."""
    repeats = np.ones(part.height, dtype=int) if weight is None else part[weight].to_numpy()
    y, p = np.repeat(part["y"].to_numpy(), repeats), np.repeat(part["p"].to_numpy(), repeats)
    prob_true, prob_pred = sk_calibration_curve(y, p, n_bins=n_bins, pos_label=1)
    return prob_true.tolist(), prob_pred.tolist()


@pytest.mark.parametrize("path", PATHS)
@pytest.mark.parametrize("weight", [None, "w"])
@settings(max_examples=40, deadline=None)
@given(data=frames())
def test_calibration_curve_matches_scikit_learn_per_group(path, weight, data):
    df, n_bins = data
    out = run(path, df, n_bins, weight)
    assert out.columns == ["g", "bin", "bin_lower", "bin_upper", "n_rows", "positive_weight", "negative_weight",
                           "prob_true", "prob_pred"]  # fmt: skip
    for part in groups(df):
        key = part["g"][0]
        got = out.filter(pl.col("g").is_null() if key is None else pl.col("g") == key)
        prob_true, prob_pred = reference(part, n_bins, weight)
        assert len(got) == len(prob_true)
        assert all(close(a, b) for a, b in zip(got["prob_true"], prob_true, strict=True)), (key, got, prob_true)
        assert all(close(a, b) for a, b in zip(got["prob_pred"], prob_pred, strict=True)), (key, got, prob_pred)
        assert got["n_rows"].sum() == part.height
        edges = np.linspace(0, 1, n_bins + 1)
        assert got["bin_lower"].to_list() == [float(edges[b]) for b in got["bin"]]
        assert got["bin_upper"].to_list() == [float(edges[b + 1]) for b in got["bin"]]


@pytest.mark.parametrize("path", PATHS)
def test_every_path_matches_scikit_learn_and_the_other_engine_on_the_sample(path):
    sample = pl.read_csv(sample_path("default_predictions.csv")).rename({"student": "g"})
    df = sample.rename({"default": "y", "p_default": "p"})
    out = run(path, df, 10)
    for part in groups(df):
        got = out.filter(pl.col("g") == part["g"][0])
        prob_true, prob_pred = reference(part, 10, None)
        assert got["prob_true"].to_list() == pytest.approx(prob_true, rel=1e-12)
        assert got["prob_pred"].to_list() == pytest.approx(prob_pred, rel=1e-12)
    other = "duckdb" if path == "polars" else "polars"
    assert_frame_equal(out, run(other, df, 10), rel_tol=1e-12)  # sums in another order


@pytest.mark.parametrize("engine", ["polars", "duckdb"])
@pytest.mark.parametrize(
    ("rows", "message"),
    [
        ([(1, 1.5)], r"column 'p' \(y_score\): 1 row is"),
        ([(1, float("nan")), (0, 0.2)], r"column 'p' \(y_score\): 1 row is"),
        ([(2, 0.5)], r"column 'y' \(y_true\): 1 row is"),
    ],
)
def test_bad_scores_and_labels_raise_the_same_error(engine, rows, message):
    df = pl.DataFrame(rows, schema={"y": pl.Int64, "p": pl.Float64}, orient="row")
    with pytest.raises(ValueError, match=message):
        fm.calibration_curve(df, y_true="y", y_score="p", engine=engine)


@pytest.mark.parametrize("n_bins", [0, -1, 2.5, True])
def test_n_bins_must_be_a_positive_integer(n_bins):
    with pytest.raises(ValueError, match="n_bins must be an integer from 1 to 2147483647"):
        fm.calibration_curve(pl.DataFrame({"y": [1], "p": [0.5]}), y_true="y", y_score="p", n_bins=n_bins)
