"""sMAPE, WAPE and the mean error (bias), per group, against utilsforecast (issue 36).

utilsforecast's ``smape`` is half of framemetrics' (its terms are ``|y - f| / (|y| + |f|)``);
``wape`` and ``bias`` are the same definitions. utilsforecast takes no weights: weighted groups
are compared with the same sums in NumPy.
"""

from __future__ import annotations

import math

import numpy as np
import polars as pl
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from utilsforecast import losses

import framemetrics as fm

ENGINES = ("polars", "duckdb")
NAMES = {
    "symmetric_mean_absolute_percentage_error": ("smape", 2.0),
    "weighted_absolute_percentage_error": ("wape", 1.0),
    "mean_error": ("bias", 1.0),
}
SETTINGS = settings(max_examples=20, deadline=None, suppress_health_check=[HealthCheck.too_slow])
VALUES = st.one_of(st.just(0.0), st.floats(-100, 100, allow_nan=False), st.integers(-5, 5).map(float))


@st.composite
def forecasts(draw: st.DrawFn) -> pl.DataFrame:
    """1 to 4 series of 1 to 10 rows, with zeros (both 0: sMAPE's 0 / 0), negatives and weights."""
    rows = []
    for g in range(draw(st.integers(1, 4))):
        for _ in range(draw(st.integers(1, 10))):
            rows.append((g, draw(VALUES), draw(VALUES), draw(st.sampled_from([0.0, 0.1, 1 / 3, 1.0, 7.7]))))
    return pl.DataFrame(rows, schema=["unique_id", "y", "f", "w"], orient="row")


def _same(got: float | None, want: float | None) -> bool:
    if want is None or not math.isfinite(want):
        return got is None
    return got is not None and math.isclose(got, want, rel_tol=1e-9, abs_tol=1e-12)


@SETTINGS
@given(forecasts(), st.sampled_from(ENGINES))
def test_equal_to_utilsforecast_per_series(df, engine):
    out = fm.evaluate(df, y_true="y", y_pred="f", by="unique_id", metrics=list(NAMES), engine=engine)
    for name, (loss, scale) in NAMES.items():
        want = getattr(losses, loss)(df, models=["f"]).sort("unique_id")
        for g, value in zip(want["unique_id"], want["f"], strict=True):
            got = out.filter(pl.col("unique_id") == g)[name].item()
            assert _same(got, None if value is None else scale * value), (engine, name, g, got, value)


def _numpy(name: str, y: np.ndarray, f: np.ndarray, w: np.ndarray) -> float | None:
    if name == "symmetric_mean_absolute_percentage_error":
        scale = np.abs(y) + np.abs(f)
        terms = np.where(scale == 0, 0.0, 2 * np.abs(y - f) / np.where(scale == 0, 1.0, scale))
        return float(np.sum(w * terms) / np.sum(w)) if w.sum() > 0 else None
    if name == "weighted_absolute_percentage_error":
        total = np.sum(w * np.abs(y))
        return float(np.sum(w * np.abs(y - f)) / total) if total > 0 else None
    return float(np.sum(w * (f - y)) / np.sum(w)) if w.sum() > 0 else None


@SETTINGS
@given(forecasts(), st.sampled_from(ENGINES))
def test_weighted_equal_to_the_weighted_sums_in_numpy(df, engine):
    """utilsforecast has no weights: the same definitions with weights, in NumPy."""
    out = fm.evaluate(df, y_true="y", y_pred="f", sample_weight="w", by="unique_id", metrics=list(NAMES),
                      engine=engine)  # fmt: skip
    for (g,), part in df.partition_by("unique_id", as_dict=True).items():
        row = out.filter(pl.col("unique_id") == g).row(0, named=True)
        y, f, w = (part[c].to_numpy() for c in ("y", "f", "w"))
        for name in NAMES:
            assert _same(row[name], _numpy(name, y, f, w)), (engine, name, g, row[name])


@pytest.mark.parametrize("engine", ENGINES)
def test_the_edge_cases_of_the_definitions(engine):
    """A row with y = f = 0 adds 0 to sMAPE; WAPE is null where every y is 0; the bias keeps its sign."""
    df = pl.DataFrame({"g": ["zero_row", "zero_row", "no_scale", "under"], "y": [0.0, 2.0, 0.0, 4.0],
                       "f": [0.0, 1.0, 1.0, 3.0]})  # fmt: skip
    out = fm.evaluate(df, y_true="y", y_pred="f", by="g", metrics=list(NAMES), engine=engine).sort("g")
    rows = {r["g"]: r for r in out.iter_rows(named=True)}
    assert rows["zero_row"]["symmetric_mean_absolute_percentage_error"] == pytest.approx((0 + 2 * 1 / 3) / 2)
    assert rows["no_scale"]["weighted_absolute_percentage_error"] is None
    assert rows["no_scale"]["symmetric_mean_absolute_percentage_error"] == 2.0  # the range's top: y = 0 != f
    assert rows["under"]["mean_error"] == -1.0


@pytest.mark.parametrize("name", list(NAMES))
def test_the_builders_the_sql_and_the_macros_give_the_same(name):
    """Each is a registry entry: a Polars builder, fm.sql.query and the DuckDB macro fm_<name>."""
    import duckdb

    df = pl.DataFrame({"y": [3.0, 5.0, 0.0, 7.0], "f": [2.5, 5.0, 0.0, 8.0], "w": [1.0, 0.1, 2.0, 7.7]})
    want = fm.evaluate(df, y_true="y", y_pred="f", sample_weight="w", metrics=[name])[name].item()
    assert df.select(getattr(fm, name)("y", "f", "w")).item() == pytest.approx(want, rel=1e-12)
    con = duckdb.connect()
    con.register("preds", df.to_arrow())
    sql = fm.sql.query([name], table="preds", y_true="y", y_pred="f", sample_weight="w")
    assert con.sql(sql).pl()[name].item() == pytest.approx(want, rel=1e-12)
    con.execute(fm.sql.macro_file().read_text())
    macro = con.execute(f"SELECT fm_{name}(y, f, sample_weight := w) FROM preds").fetchone()[0]
    assert macro == pytest.approx(want, rel=1e-12)
