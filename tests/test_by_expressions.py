"""``by=`` takes Polars expressions on the Polars engine: the same result as grouping by the derived column."""

from __future__ import annotations

import datetime as dt

import numpy as np
import polars as pl
import pytest
from polars.testing import assert_frame_equal

import framemetrics as fm

RNG = np.random.default_rng(3)
N = 200
FRAME = pl.DataFrame(
    {
        "date": [dt.date(2024, 1, 1) + dt.timedelta(days=int(d)) for d in RNG.integers(0, 90, N)],
        "country": RNG.choice(["fr", "de"], N),
        "y": RNG.integers(0, 2, N),
        "p": RNG.random(N),
        "species": RNG.choice(["cat", "dog", "pig"], N),
        "guess": RNG.choice(["cat", "dog", "pig"], N),
    }
)
MONTH = pl.col("date").dt.truncate("1mo")
DERIVED = FRAME.with_columns(month=MONTH)


def test_a_mapping_names_the_expressions():
    got = fm.evaluate(FRAME, y_true="y", y_score="p", by={"month": MONTH})
    assert_frame_equal(got, fm.evaluate(DERIVED, y_true="y", y_score="p", by="month"))
    assert got["month"].to_list() == [dt.date(2024, m, 1) for m in (1, 2, 3)]


def test_a_list_mixes_names_and_expressions_named_by_their_output():
    got = fm.evaluate(FRAME, y_true="y", y_score="p", by=["country", pl.col("date").dt.month()])
    want = fm.evaluate(FRAME.with_columns(pl.col("date").dt.month()), y_true="y", y_score="p", by=["country", "date"])
    assert_frame_equal(got, want)


def test_every_entry_point_takes_them():
    multiclass = fm.evaluate(FRAME, y_true="species", y_pred="guess", by={"month": MONTH})
    assert_frame_equal(multiclass, fm.evaluate(DERIVED, y_true="species", y_pred="guess", by="month"))
    curve = fm.roc_curve(FRAME, y_true="y", y_score="p", by={"month": MONTH})
    assert_frame_equal(curve, fm.roc_curve(DERIVED, y_true="y", y_score="p", by="month"))
    bins = fm.calibration_curve(FRAME, y_true="y", y_score="p", by={"month": MONTH}, n_bins=4)
    assert_frame_equal(bins, fm.calibration_curve(DERIVED, y_true="y", y_score="p", by="month", n_bins=4))
    report = fm.classification_report(FRAME, y_true="species", y_pred="guess", by={"month": MONTH})
    assert_frame_equal(report, fm.classification_report(DERIVED, y_true="species", y_pred="guess", by="month"))


def test_sql_engines_need_names():
    with pytest.raises(fm.ArgumentError, match=r"by= expressions \('month'\) need engine='polars'"):
        fm.evaluate(FRAME, y_true="y", y_score="p", by={"month": MONTH}, engine="duckdb")
    with pytest.raises(fm.ArgumentError, match="name the by= expression"):
        fm.evaluate(FRAME, y_true="y", y_score="p", by=[pl.all()])
