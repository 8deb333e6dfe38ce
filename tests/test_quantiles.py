"""The weighted quantile metrics against scikit-learn, on every path (the ``engine`` fixture).

``median_absolute_error``, ``d2_absolute_error_score`` and
``d2_pinball_score`` read a weighted quantile: scikit-learn's
``_weighted_percentile(average=True)``. Integer weights are frequency
weights: the value equals the unweighted metric of the rows repeated.
"""

from __future__ import annotations

import math
import warnings

import numpy as np
import polars as pl
import pytest
import sklearn.metrics as skm
from conftest import Columns
from hypothesis import HealthCheck, assume, given, settings
from hypothesis import strategies as st
from reference import output_column

QUANTILE_METRICS = ("median_absolute_error", "d2_absolute_error_score", "d2_pinball_score")
SETTINGS = settings(max_examples=15, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])


def _reference(metric: str, y, f, w, alpha: float) -> float | None:
    if len(y) == 0 or not np.sum(w) > 0 or (metric != "median_absolute_error" and len(y) < 2):
        return None
    params = {"alpha": alpha} if metric == "d2_pinball_score" else {}
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        return float(getattr(skm, metric)(y, f, sample_weight=w, **params))


def _close(ours: float | None, expected: float | None) -> bool:
    if ours is None or expected is None:
        return ours is None and expected is None
    return math.isclose(ours, expected, rel_tol=1e-12, abs_tol=1e-12)


@st.composite
def groups(draw: st.DrawFn) -> pl.DataFrame:
    """Two groups of tied values with integer weights, zeros included."""
    n = draw(st.integers(1, 16))
    value = st.lists(st.integers(-4, 4), min_size=n, max_size=n)
    return pl.DataFrame(
        {
            "g": [("a", "b")[i % 2] for i in range(n)],
            "y": [float(v) for v in draw(value)],
            "f": [v / 2 for v in draw(value)],
            "w": [float(v) for v in draw(st.lists(st.integers(0, 3), min_size=n, max_size=n))],
        }
    )


@SETTINGS
@given(df=groups(), alpha=st.sampled_from([0.0, 0.1, 0.5, 0.75, 1.0]))
def test_weighted_quantile_metrics_equal_scikit_learn(engine, df, alpha):
    metrics = {m: ({"alpha": alpha} if m == "d2_pinball_score" else {}) for m in QUANTILE_METRICS}
    out = engine(df, metrics, Columns(y_pred="f", sample_weight="w"))
    for row in out.iter_rows(named=True):
        part = df.filter(pl.col("g") == row["g"])
        y, f, w = (part[c].to_numpy() for c in ("y", "f", "w"))
        for metric in QUANTILE_METRICS:
            expected, column = _reference(metric, y, f, w, alpha), output_column(metric, metrics[metric])
            assert _close(row[column], expected), (metric, row["g"], row[column], expected)


@SETTINGS
@given(df=groups(), alpha=st.sampled_from([0.25, 0.5, 0.9]))
def test_integer_weights_are_repeated_rows(engine, df, alpha):
    metrics = {m: ({"alpha": alpha} if m == "d2_pinball_score" else {}) for m in QUANTILE_METRICS}
    weighted = engine(df, metrics, Columns(y_pred="f", sample_weight="w"))
    repeated = df.select(pl.all().repeat_by(pl.col("w").cast(pl.Int64)).explode()).drop_nulls()
    assume(repeated.height > 0)
    unweighted = engine(repeated, metrics, Columns(y_pred="f"))
    for row in unweighted.iter_rows(named=True):
        mine = weighted.filter(pl.col("g") == row["g"]).row(0, named=True)
        rows = min(df.filter(pl.col("g") == row["g"]).height, repeated.filter(pl.col("g") == row["g"]).height)
        for metric in ("median_absolute_error", "d2_pinball_score"):  # a D^2 of one row is null
            column = output_column(metric, metrics[metric])
            if rows >= 2 or metric == "median_absolute_error":
                assert _close(mine[column], row[column]), (metric, mine[column], row[column])


@pytest.mark.parametrize(
    ("errors", "weights", "expected"),
    [
        ([1, 2, 3, 4], [1, 1, 1, 1], 2.5),  # the usual median: half the weight at 2, mean of 2 and 3
        ([1, 2, 3, 4], [1, 1, 0, 1], 2.0),  # the half (1.5) falls inside 2's weight
        ([1, 2, 3, 4], [1, 1, 0, 2], 3.0),  # half exactly at 2; the next value of positive weight is 4
        ([1, 2, 3, 4], [0, 0, 0, 0], None),  # no weight: null (scikit-learn: NaN)
        ([5, 5, 7], [1, 1, 2], 6.0),  # ties: half at 5, then 7
        (list(range(1, 11)), [0.1] * 10, 5.5),  # 0.1 summed ten times is 0.9999999999999999, half still at 5
    ],
)
def test_weighted_median_edge_cases(engine, errors, weights, expected):
    df = pl.DataFrame({"g": ["a"] * len(errors), "y": [float(e) for e in errors], "f": [0.0] * len(errors),
                       "w": [float(w) for w in weights]})  # fmt: skip
    out = engine(df, {"median_absolute_error": {}}, Columns(y_pred="f", sample_weight="w"))
    assert out["median_absolute_error"][0] == expected
    if expected is not None:
        assert skm.median_absolute_error(errors, [0] * len(errors), sample_weight=weights) == expected


@pytest.mark.parametrize(
    ("metric", "y", "f", "params"),
    [
        ("d2_absolute_error_score", [3, -0.5, 2, 7], [2.5, 0.0, 2, 8], {}),
        ("d2_absolute_error_score", [1, 2, 3], [1, 2, 3], {}),
        ("d2_absolute_error_score", [1, 2, 3], [2, 2, 2], {}),
        ("d2_absolute_error_score", [1, 2, 3], [3, 2, 1], {}),
        ("d2_pinball_score", [1, 2, 3], [1, 3, 3], {}),
        ("d2_pinball_score", [1, 2, 3], [1, 2, 3], {}),
        ("d2_pinball_score", [1, 2, 3], [2, 2, 2], {}),
        ("d2_pinball_score", [1, 2, 3], [2, 2, 2], {"alpha": 0.9}),
        ("d2_pinball_score", [1, 2, 3], [1, 1, 1], {"alpha": 0.1}),
        ("d2_pinball_score", [2, 2, 2], [1, 2, 3], {"alpha": 0.9}),  # constant y: the baseline is 0 -> 0
    ],
)
def test_scikit_learn_docstring_examples(engine, metric, y, f, params):
    """scikit-learn's own examples of the D^2 scores (force_finite rules included)."""
    df = pl.DataFrame({"g": ["a"] * len(y), "y": [float(v) for v in y], "f": [float(v) for v in f]})
    out = engine(df, {metric: params}, Columns(y_pred="f"))
    assert _close(out[output_column(metric, params)][0], getattr(skm, metric)(y, f, **params))
