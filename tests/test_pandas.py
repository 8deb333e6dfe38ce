"""A pandas DataFrame is accepted wherever a Polars one is, with the same results on both engines."""

from __future__ import annotations

import numpy as np
import pandas as pd
import polars as pl
import pytest
from polars.testing import assert_frame_equal

import framemetrics as fm

ENGINES = ["polars", "duckdb"]


def _frames() -> tuple[object, pl.DataFrame]:
    """The same rows as pandas (categorical group, nullable integer label, a float index) and as Polars."""
    rng = np.random.default_rng(3)
    n = 300
    y = rng.integers(0, 2, n)
    p = np.clip(0.3 * y + rng.random(n) * 0.7, 0, 1)
    seg = rng.choice(["north", "south", "east"], n)
    k = rng.integers(0, 3, n)
    probs = rng.dirichlet(np.ones(3), n)
    data = {"seg": seg, "y": y, "p": p, "w": rng.integers(1, 4, n).astype(float), "k": k, "pred": (k + y) % 3}
    data |= {f"s{j}": probs[:, j] for j in range(3)}
    frame = pd.DataFrame(data, index=np.arange(n) * 0.5)
    frame["seg"] = frame["seg"].astype("category")
    frame["y"] = frame["y"].astype("Int64")
    return frame, pl.DataFrame(data).with_columns(pl.col("seg").cast(pl.Categorical))


CALLS = {
    "evaluate": lambda src, e: fm.evaluate(
        src, y_true="y", y_score="p", sample_weight="w", by="seg", metrics=["roc_auc_score", "f1_score"], engine=e
    ),
    "evaluate_multiclass": lambda src, e: fm.evaluate_multiclass(
        src,
        y_true="k",
        y_pred="pred",
        y_score=["s0", "s1", "s2"],
        labels=[0, 1, 2],
        by="seg",
        metrics=["f1_macro", "roc_auc_ovr", "log_loss"],
        engine=e,
    ),
    "roc_curve": lambda src, e: fm.roc_curve(src, y_true="y", y_score="p", by="seg", engine=e),
    "calibration_curve": lambda src, e: fm.calibration_curve(src, y_true="y", y_score="p", by="seg", engine=e),
    "classification_report": lambda src, e: fm.classification_report(
        src, y_true="k", y_pred="pred", labels=[0, 1, 2], by="seg", engine=e
    ),
}


@pytest.mark.parametrize("engine", ENGINES)
@pytest.mark.parametrize("call", list(CALLS))
def test_pandas_input_equals_polars_input(call, engine):
    pandas_frame, polars_frame = _frames()
    got = CALLS[call](pandas_frame, engine)
    expected = CALLS[call](polars_frame, engine)
    assert isinstance(got, pl.DataFrame)
    assert_frame_equal(got, expected)


@pytest.mark.parametrize("engine", ENGINES)
def test_pandas_missing_values_are_counted_as_invalid_rows(engine):
    pandas_frame, _ = _frames()
    pandas_frame.loc[pandas_frame.index[:2], "p"] = np.nan
    pandas_frame.loc[pandas_frame.index[5], "y"] = pd.NA
    with pytest.raises(ValueError, match=r"column 'p' \(y_score\): 2 rows") as raised:
        fm.evaluate(pandas_frame, y_true="y", y_score="p", metrics=["roc_auc_score"], engine=engine)
    assert "column 'y' (y_true): 1 row" in str(raised.value)


def test_the_report_reads_a_pandas_frame(tmp_path):
    pandas_frame, _ = _frames()
    out = fm.evaluation_report(pandas_frame, y_true="y", y_score="p", by="seg", output=tmp_path / "r.html")
    assert "north" in out.read_text()
