"""The Tweedie deviances against scikit-learn at every power, on every path (the ``engine`` fixture).

The valid inputs depend on the power, as in scikit-learn: each power's
domain is checked on both engines (an error naming the column and the rows)
and in the macros (null).
"""

from __future__ import annotations

import math
import warnings

import duckdb
import polars as pl
import pytest
import sklearn.metrics as skm
from conftest import Columns
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from reference import output_column

import framemetrics as fm

POWERS = (-1.0, 0.0, 1.0, 1.5, 2.0, 3.0)
METRICS = ("mean_tweedie_deviance", "d2_tweedie_score")


def _reference(metric: str, y, f, w, power: float) -> float | None:
    if not sum(w) > 0 or (metric == "d2_tweedie_score" and len(y) < 2):
        return None
    if metric == "d2_tweedie_score" and len(set(y[w > 0])) == 1:
        return None  # a constant y: the exact mean's baseline is 0 (null); scikit-learn's may keep a residue
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        try:
            value = float(getattr(skm, metric)(y, f, sample_weight=w, power=power))
        except ZeroDivisionError:  # scikit-learn's D^2 of a constant y (a zero baseline): null here
            return None
    return value if math.isfinite(value) else None


@st.composite
def groups(draw: st.DrawFn) -> pl.DataFrame:
    """Two groups of positive targets and predictions (every power's domain), integer weights with zeros."""
    n = draw(st.integers(1, 14))
    positive = st.lists(st.sampled_from([0.25, 0.5, 1.0, 2.0, 3.5, 10.0]), min_size=n, max_size=n)
    return pl.DataFrame(
        {
            "g": [("a", "b")[i % 2] for i in range(n)],
            "y": draw(positive),
            "f": draw(positive),
            "w": [float(v) for v in draw(st.lists(st.integers(0, 3), min_size=n, max_size=n))],
        }
    )


@settings(max_examples=15, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(df=groups(), power=st.sampled_from(POWERS))
def test_tweedie_deviances_equal_scikit_learn(engine, df, power):
    out = engine(df, {m: {"power": power} for m in METRICS}, Columns(y_pred="f", sample_weight="w"))
    for row in out.iter_rows(named=True):
        part = df.filter(pl.col("g") == row["g"])
        y, f, w = (part[c].to_numpy() for c in ("y", "f", "w"))
        for metric in METRICS:
            expected, got = _reference(metric, y, f, w, power), row[output_column(metric, {"power": power})]
            same = (got is None and expected is None) or math.isclose(got, expected, rel_tol=1e-10, abs_tol=1e-12)
            assert same, (metric, power, got, expected)


@pytest.mark.parametrize(
    ("metric", "power", "expected"),
    [  # scikit-learn's docstring examples
        ("mean_tweedie_deviance", 1, skm.mean_tweedie_deviance([2, 0, 1, 4], [0.5, 0.5, 2.0, 2.0], power=1)),
        ("d2_tweedie_score", 0, skm.d2_tweedie_score([0.5, 1, 2.5, 7], [1, 1, 5, 3.5])),
        ("d2_tweedie_score", 1, skm.d2_tweedie_score([0.5, 1, 2.5, 7], [1, 1, 5, 3.5], power=1)),
        ("d2_tweedie_score", 2, skm.d2_tweedie_score([0.5, 1, 2.5, 7], [1, 1, 5, 3.5], power=2)),
    ],
)
def test_scikit_learn_docstring_examples(engine, metric, power, expected):
    y, f = (
        ([2.0, 0, 1, 4], [0.5, 0.5, 2.0, 2.0])
        if metric == "mean_tweedie_deviance"
        else ([0.5, 1, 2.5, 7], [1.0, 1, 5, 3.5])
    )
    df = pl.DataFrame({"g": ["a"] * 4, "y": y, "f": f})
    out = engine(df, {metric: {"power": power}}, Columns(y_pred="f"))
    assert math.isclose(out[output_column(metric, {"power": power})][0], expected, rel_tol=1e-12)


@pytest.mark.parametrize(
    ("power", "y", "f", "column", "words"),
    [
        (-1.0, 0.0, 0.0, "f", "zero or negative"),  # p < 0: y_pred > 0
        (0.0, -3.0, -2.0, None, None),  # p = 0: any finite values
        (1.5, -1.0, 1.0, "y", "negative"),  # 1 <= p < 2: y >= 0
        (1.0, 0.0, 1.0, None, None),  # Poisson: y = 0 is fine
        (3.0, 0.0, 1.0, "y", "zero or negative"),  # p >= 2: y > 0
    ],
)
@pytest.mark.parametrize("backend", ["polars", "duckdb"])
def test_each_power_checks_its_domain(backend, power, y, f, column, words):
    df = pl.DataFrame({"y": [y, 1.0, 2.0], "f": [f, 1.0, 2.0]})
    run = lambda: fm.evaluate(df, y_true="y", y_pred="f", metrics={"mean_tweedie_deviance": {"power": power}}, 
                              engine=backend)  # fmt: skip
    if column is None:
        assert run()[output_column("mean_tweedie_deviance", {"power": power})][0] is not None
        return
    with pytest.raises(ValueError, match=rf"column '{column}' .*1 row.*{words}"):
        run()
    con = duckdb.connect()
    con.execute(fm.sql.macro_file().read_text())
    con.register("t", df)
    assert con.sql(f"SELECT fm_mean_tweedie_deviance(y, f, power := {power}) FROM t").fetchall() == [(None,)]


@pytest.mark.parametrize("power", [0.5, float("nan"), float("inf"), "2"])
def test_an_invalid_power_is_rejected(power):
    df = pl.DataFrame({"y": [1.0, 2.0], "f": [1.0, 2.0]})
    with pytest.raises(ValueError, match="power must be a finite number <= 0 or >= 1"):
        fm.evaluate(df, y_true="y", y_pred="f", metrics={"d2_tweedie_score": {"power": power}})
    con = duckdb.connect()
    con.execute(fm.sql.macro_file().read_text())
    con.register("t", df)
    if power == 0.5:  # the macros give null between 0 and 1, where scikit-learn raises
        assert con.sql("SELECT fm_mean_tweedie_deviance(y, f, power := 0.5) FROM t").fetchall() == [(None,)]
