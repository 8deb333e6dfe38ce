"""The aggregate ranking macros equal fm.sql.query, and scale as O(n log n) in a group's size.

``fm_<ranking metric>(y, p)`` in a ``GROUP BY`` computes its group's curve with
list functions (``fm_list_curve``): sorted rows, per-score sums by a
Hillis-Steele scan within runs of equal scores, running sums by a blocked one.
These tests compare every ranking macro
with the plain query on tied, weighted frames of several groups (invalid rows
too), check the scan across its block boundaries, and run a group of 20,000
rows, which took minutes with the correlated subquery the list functions
replace.
"""

from __future__ import annotations

import math
from dataclasses import fields

import duckdb
import numpy as np
import polars as pl
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import framemetrics as fm
from framemetrics.core.statistics import CurvePoints
from framemetrics.sql.quoting import sql_literal
from framemetrics.sql.user_macros import _POINT_FIELDS

RANKING = [name for name, metric in fm.REGISTRY.items() if metric.family == "ranking"]
TOLERANCE = 1e-12

GROUPS = st.sampled_from(["a", "b", "c", None])
SCORES = st.one_of(st.sampled_from([0.0, -0.0, 0.1, 0.5, 0.5, 0.9, 1.0]), st.floats(-1e3, 1e3, allow_subnormal=False))
WEIGHTS = st.one_of(st.sampled_from([0.0, 0.5, 1.0, 3.25]), st.floats(1e-3, 1e3, allow_subnormal=False))
# One invalid value in about twenty: the macros and the query give its group NULL.
BAD_LABELS = st.sampled_from([0, 1] * 10 + [None, 2])
BAD_SCORES = st.one_of(SCORES, SCORES, SCORES, st.sampled_from([None, math.nan, math.inf]))
BAD_WEIGHTS = st.one_of(WEIGHTS, WEIGHTS, WEIGHTS, st.sampled_from([None, -1.0, math.nan]))
SETTINGS = settings(max_examples=20, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
SCHEMA = {"g": pl.String, "y": pl.Int64, "p": pl.Float64, "w": pl.Float64}


@pytest.fixture(scope="module")
def con() -> duckdb.DuckDBPyConnection:
    connection = duckdb.connect()
    connection.execute(fm.sql.macro_file().read_text())
    return connection


def _close(got: float | None, want: float | None) -> bool:
    if got is None or want is None:
        return got is None and want is None
    if math.isinf(want) or math.isinf(got):
        return got == want
    return math.isclose(got, want, rel_tol=TOLERANCE, abs_tol=TOLERANCE)


def _assert_macros_match_query(con, df: pl.DataFrame, weighted: bool, max_fpr: float | None) -> None:
    """Every ranking macro, per group of ``g``, against ``fm.sql.query`` on the same table."""
    con.register("frame", df)
    weight = ", sample_weight := w" if weighted else ""
    calls = [f"fm_{name}(y, p{weight})" for name in RANKING]
    calls[RANKING.index("roc_auc_score")] = f"fm_roc_auc_score(y, p{weight}, max_fpr := {sql_literal(max_fpr)})"
    got = con.sql(f"SELECT g, {', '.join(calls)} FROM frame GROUP BY g ORDER BY g NULLS LAST").fetchall()
    metrics = {name: {} for name in RANKING} | {"roc_auc_score": {"max_fpr": max_fpr}}
    sql = fm.sql.query(metrics, table="frame", y_true="y", y_score="p", sample_weight="w" if weighted else None, by="g")
    want = con.sql(f"SELECT * EXCLUDE (n_rows) FROM ({sql}) ORDER BY g NULLS LAST").fetchall()
    assert [row[0] for row in got] == [row[0] for row in want]
    for got_row, want_row in zip(got, want, strict=True):
        for name, g, w in zip(RANKING, got_row[1:], want_row[1:], strict=True):
            assert _close(g, w), (got_row[0], name, g, w)


@SETTINGS
@given(
    rows=st.lists(st.tuples(GROUPS, st.sampled_from([0, 1]), SCORES, WEIGHTS), min_size=1, max_size=60),
    weighted=st.booleans(),
    max_fpr=st.sampled_from([None, 0.1, 0.5, 1.0]),
)
def test_aggregate_macros_equal_the_query(con, rows, weighted, max_fpr):
    """Tied scores (signed zeros among them), zero weights, one-class and one-row groups."""
    _assert_macros_match_query(con, pl.DataFrame(rows, schema=SCHEMA, orient="row"), weighted, max_fpr)


@SETTINGS
@given(rows=st.lists(st.tuples(GROUPS, BAD_LABELS, BAD_SCORES, BAD_WEIGHTS), min_size=1, max_size=40))
def test_invalid_rows_give_null_as_the_query(con, rows):
    """A null or unknown label, a null, NaN or infinite score, a null, NaN or negative weight."""
    _assert_macros_match_query(con, pl.DataFrame(rows, schema=SCHEMA, orient="row"), True, None)


def test_a_group_of_20000_rows_equals_the_query(con):
    """Quadratic in the group's size, this group took minutes; ties (runs across blocks) and weights."""
    rng = np.random.default_rng(3)
    n = 20_000
    scores = np.where(rng.random(n) < 0.5, np.round(rng.random(n), 2), rng.random(n))
    df = pl.DataFrame({"g": ["one"] * n, "y": rng.integers(0, 2, n), "p": scores, "w": rng.choice([0.0, 0.5, 2.0], n)})
    _assert_macros_match_query(con, df, True, 0.3)
    _assert_macros_match_query(con, df, False, None)


def test_macros_match_scikit_learn(con):
    from sklearn.metrics import average_precision_score, roc_auc_score

    rng = np.random.default_rng(5)
    y, p, w = rng.integers(0, 2, 500), np.round(rng.random(500), 1), rng.random(500)
    con.register("frame", pl.DataFrame({"y": y, "p": p, "w": w}))
    got = con.sql(
        "SELECT fm_roc_auc_score(y, p, sample_weight := w), fm_roc_auc_score(y, p, max_fpr := 0.2),"
        " fm_average_precision_score(y, p, sample_weight := w) FROM frame"
    ).fetchall()[0]
    want = (
        roc_auc_score(y, p, sample_weight=w),
        roc_auc_score(y, p, max_fpr=0.2),
        average_precision_score(y, p, sample_weight=w),
    )
    assert all(math.isclose(g, v, rel_tol=1e-9) for g, v in zip(got, want, strict=True))


def _run_sums(xs: list[float], keys: list[float] | None) -> list[float]:
    sums: list[float] = []
    for i, x in enumerate(xs):
        same_run = i > 0 and (keys is None or keys[i] == keys[i - 1])
        sums.append(x + (sums[-1] if same_run else 0.0))
    return sums


@pytest.mark.parametrize("n", [1, 31, 32, 33, 64, 1023, 1025, 40_000])
@pytest.mark.parametrize("run", [1, 3, 40, 5000])
def test_running_sums_within_runs_and_blocks(con, n, run):
    """fm_list_run_sums within runs of equal keys; fm_list_cumsum across its blocks of 32."""
    rng = np.random.default_rng(n + run)
    xs = rng.integers(0, 100, n).astype(float).tolist()
    keys = np.sort(rng.integers(0, max(n // run, 1), n))[::-1].astype(float).tolist()
    longest = int(max(np.unique(keys, return_counts=True)[1]))
    sql = "SELECT fm_list_run_sums(x, k, ?), fm_list_cumsum(x) FROM (SELECT ?::DOUBLE[] x, ?::DOUBLE[] k)"
    within_runs, prefix = con.execute(sql, [longest, xs, keys]).fetchall()[0]
    assert within_runs == _run_sums(xs, keys)
    assert prefix == _run_sums(xs, None)


def test_the_curve_has_the_fields_the_generated_statistics_read(con):
    """fm_list_curve is written by hand, the statistics over it generated: their fields must agree."""
    curve = con.sql("SELECT fm_list_curve(fm_ranking_rows(1, 0.5, 1.0, 1, 0))").fetchall()[0][0]
    assert tuple(curve["points"][0]) == _POINT_FIELDS
    group = [name for name in curve if name != "points"]
    assert {*_POINT_FIELDS, *group, "gap_max", "max_fpr", "alpha", "quantile"} == {f.name for f in fields(CurvePoints)}
