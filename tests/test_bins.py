"""The approximate mode ``bins=``: exact metrics of the binned score, and a true error bound."""

from __future__ import annotations

import duckdb
import numpy as np
import polars as pl
import pytest
from hypothesis import given
from hypothesis import strategies as st
from reference import close, groups
from sklearn import metrics as skm
from sklearn_binary import REFERENCES
from test_parity import SETTINGS, classification_frames

import framemetrics as fm

RANKING = ["roc_auc_score", "gini_score", "average_precision_score", "ks_statistic"]


def _evaluate(engine: str):
    def run(df, bins, weight):
        return fm.evaluate(df, y_true="y", y_score="p", sample_weight=weight, by="g", metrics=RANKING, bins=bins,
                           engine=engine)  # fmt: skip

    return run


def _sql_text(df, bins, weight):
    con = duckdb.connect()
    con.register("data", df)
    sql = fm.sql.query(RANKING, table="data", y_true="y", y_score="p", sample_weight=weight, by="g", bins=bins)
    return con.sql(sql).pl()


RUNNERS = {"polars": _evaluate("polars"), "duckdb": _evaluate("duckdb"), "sql_text": _sql_text}


@pytest.mark.parametrize("runner", list(RUNNERS))
@SETTINGS
@given(df=classification_frames(), bins=st.sampled_from([1, 3, 10, 100]), weighted=st.booleans())
def test_binned_metrics_are_exact_for_the_binned_score_and_the_bound_holds(runner, df, bins, weighted):
    weight = "w" if weighted else None
    out = RUNNERS[runner](df, bins, weight)
    assert out.columns[-1] == "roc_auc_error_bound"
    for part, row in zip(groups(df), out.iter_rows(named=True), strict=True):
        y, s = part["y"].to_numpy(), part["p"].to_numpy()
        w = None if weight is None else part[weight].to_numpy()
        if w is not None and not w.any():
            continue
        binned = np.floor(s * bins) / bins
        for metric in RANKING:
            assert close(row[metric], REFERENCES[metric](y, binned, w)), (metric, row)
        assert close(row["roc_auc_error_bound"], REFERENCES["roc_auc_error_bound"](y, binned, w))
        exact = REFERENCES["roc_auc_score"](y, s, w)
        if exact is not None:
            assert abs(row["roc_auc_score"] - exact) <= row["roc_auc_error_bound"] + 1e-12


def test_binning_a_sample_moves_the_auc_less_than_its_bound():
    df = pl.read_csv("data/default_predictions.csv")
    exact = skm.roc_auc_score(df["default"], df["p_default"])
    for bins in (10, 100, 1000):
        out = fm.evaluate(df, y_true="default", y_score="p_default", metrics="roc_auc_score", bins=bins)
        assert abs(out["roc_auc_score"][0] - exact) <= out["roc_auc_error_bound"][0]


@pytest.mark.parametrize("bins", [0, -3, 2.5, True, "10"])
def test_bins_must_be_a_positive_integer(bins):
    df = pl.DataFrame({"y": [0, 1], "p": [0.2, 0.7]})
    with pytest.raises(ValueError, match="bins must be an integer from 1 to 2147483647"):
        fm.evaluate(df, y_true="y", y_score="p", metrics="roc_auc_score", bins=bins)


def test_no_bound_for_partial_auc_and_bins_needs_a_ranking_metric():
    df = pl.DataFrame({"y": [1, 0, 1, 0], "p": [0.55, 0.51, 0.3, 0.2]})
    out = fm.evaluate(df, y_true="y", y_score="p", metrics={"roc_auc_score": {"max_fpr": 0.5}}, bins=10)
    assert "roc_auc_error_bound" not in out.columns
    gini = fm.evaluate(df, y_true="y", y_score="p", metrics="gini_score", bins=10)
    exact = 2 * skm.roc_auc_score(df["y"], df["p"]) - 1
    assert abs(gini["gini_score"][0] - exact) <= 2 * gini["roc_auc_error_bound"][0]
    with pytest.raises(ValueError, match="bins= bins the score of ranking metrics"):
        fm.evaluate(df, y_true="y", y_score="p", metrics="f1_score", bins=10)


@pytest.mark.parametrize("runner", list(RUNNERS))
def test_tied_scores_stay_tied_once_binned(runner):
    """Found by hypothesis: Polars' streaming engine divided the two 0.75 scores to bins one ulp apart,
    splitting the tie (AUC 0 instead of 0.5); the bin edge is now a product."""
    df = pl.DataFrame({"g": ["a", "b", "b"], "y": [0, 0, 1], "p": [0.0, 0.75, 0.75]})
    out = RUNNERS[runner](df, 10, None)
    assert out["roc_auc_score"].to_list() == [None, 0.5]
    assert out["roc_auc_error_bound"].to_list() == [None, 0.5]
