"""ROC, precision-recall and DET curves equal scikit-learn's per group, on every path.

Four paths: ``fm.curve_table`` on Polars and on DuckDB, the SQL text of
``fm.sql.curve`` and the DuckDB table macros ``fm_<curve>``. Thresholds
must be identical, rates and counts equal to 1e-9.
"""

from __future__ import annotations

import math
from collections.abc import Callable

import duckdb
import numpy as np
import polars as pl
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from reference import close, groups
from sklearn import metrics as skm

import framemetrics as fm
from framemetrics.core.curves import CURVES as CURVE_SPECS

CURVES = ("roc_curve", "precision_recall_curve", "det_curve")
GROUPS = st.sampled_from(["a", "b", "c", None])
SCORES = st.one_of(st.sampled_from([0.0, 0.1, 0.25, 0.5, 0.5, 1.0]), st.floats(0, 1, allow_subnormal=False))
EXACT_WEIGHTS = st.sampled_from([0.0, 0.5, 1.0, 2.0, 3.25])  # sums exact: scikit-learn's dropping is then exact too
FLOAT_WEIGHTS = st.floats(1e-3, 1e3, allow_subnormal=False)

CurveRunner = Callable[[pl.DataFrame, str, str | None, bool], pl.DataFrame]


def _curve_table(engine: str) -> CurveRunner:
    def run(df, curve, weight, drop):
        return fm.curve_table(
            curve, df, y_true="y", y_score="p", sample_weight=weight, by="g", drop_intermediate=drop, engine=engine
        )

    return run


def _sql_text(df, curve, weight, drop):
    con = duckdb.connect()
    con.register("data", df)
    sql = fm.sql.curve(curve, table="data", y_true="y", y_score="p", sample_weight=weight, by="g",
                       drop_intermediate=drop)  # fmt: skip
    return con.sql(sql).pl()


def _table_macro(df, curve, weight, drop):
    con = duckdb.connect()
    con.execute(fm.sql.macro_file().read_text())
    con.register("data", df)
    weighted = ", weight := w" if weight else ""
    sql = f"FROM fm_{curve}('data', y, p, segment := g{weighted}, drop_intermediate := {drop})"
    return con.sql(sql).pl().rename({"segment": "g"})


CURVE_RUNNERS: dict[str, CurveRunner] = {
    "polars": _curve_table("polars"),
    "duckdb": _curve_table("duckdb"),
    "sql_text": _sql_text,
    "duckdb_macro": _table_macro,
}


@pytest.fixture(params=list(CURVE_RUNNERS))
def curve_engine(request: pytest.FixtureRequest) -> CurveRunner:
    """A runner ``(frame, curve, weight column or None, drop_intermediate) -> points`` per path."""
    return CURVE_RUNNERS[request.param]


def _none_if_nan(values) -> list[float | None]:
    return [None if math.isnan(v) else float(v) for v in values]


def reference_points(curve: str, y, s, w, drop: bool) -> list[tuple]:
    """scikit-learn's points of one group as (threshold, rate, rate, tp, fp, tn, fn) rows."""
    weight = np.ones(len(y)) if w is None else np.asarray(w)
    if not weight.any():
        return []
    tns, fps, fns, tps, thresholds = skm.confusion_matrix_at_thresholds(y, s, sample_weight=w)
    rows = zip(thresholds, tps, fps, tns, fns, strict=True)
    counts = {float(t): (float(a), float(b), float(c), float(d)) for t, a, b, c, d in rows}
    counts[math.inf] = (0.0, 0.0, float(fps[-1]), float(tps[-1]))
    positives, negatives = tps[-1] > 0, fps[-1] > 0
    if curve == "roc_curve":
        fpr, tpr, thr = skm.roc_curve(y, s, sample_weight=w, drop_intermediate=drop)
        rates = zip(_none_if_nan(fpr), _none_if_nan(tpr), strict=True)
    elif curve == "precision_recall_curve":
        precision, recall, thr = skm.precision_recall_curve(y, s, sample_weight=w, drop_intermediate=drop)
        thr = [*thr, math.inf]
        recall = recall if positives else [None] * len(recall)  # scikit-learn: 1 with a warning
        rates = zip(precision, recall, strict=True)
    else:
        if not (positives and negatives):
            return []  # scikit-learn raises
        fpr, fnr, thr = skm.det_curve(y, s, sample_weight=w, drop_intermediate=drop)
        rates = zip(fpr, fnr, strict=True)
    return [(float(t), *r, *counts[float(t)]) for t, r in zip(thr, rates, strict=True)]


def assert_curve_matches(out: pl.DataFrame, df: pl.DataFrame, curve: str, weight: str | None, drop: bool) -> None:
    """Per group, the same thresholds as scikit-learn, rates and counts to 1e-9."""
    for part in groups(df):
        key = part["g"][0]
        got = out.filter(pl.col("g").is_null() if key is None else pl.col("g") == key).drop("g").rows()
        y = part["y"].to_numpy()
        w = None if weight is None else part[weight].to_numpy()
        want = reference_points(curve, y, part["p"].to_numpy(), w, drop)
        assert [r[0] for r in got] == [r[0] for r in want], (key, got, want)
        for a, b in zip(got, want, strict=True):
            assert all(close(x, v) for x, v in zip(a[1:], b[1:], strict=True)), (key, a, b)


@st.composite
def frames(draw, weights):
    rows = draw(st.lists(st.tuples(GROUPS, st.sampled_from([0, 1]), SCORES, weights), min_size=1, max_size=30))
    return pl.DataFrame(rows, schema={"g": pl.String, "y": pl.Int64, "p": pl.Float64, "w": pl.Float64}, orient="row")


SETTINGS = settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])


@pytest.mark.examples(duckdb=15, sql_text=15, duckdb_macro=20)
@SETTINGS
@given(df=frames(EXACT_WEIGHTS), weighted=st.booleans(), drop=st.booleans(), curve=st.sampled_from(CURVES))
def test_curves_match_sklearn(curve_engine, df, weighted, drop, curve):
    """Ties, zero weights (dropped, as scikit-learn), one-class and tiny groups, both drop_intermediate."""
    weight = "w" if weighted else None
    assert_curve_matches(curve_engine(df, curve, weight, drop), df, curve, weight, drop)


@pytest.mark.examples(duckdb=15, sql_text=15, duckdb_macro=20)
@SETTINGS
@given(df=frames(FLOAT_WEIGHTS), curve=st.sampled_from(CURVES))
def test_curves_with_float_weights_match_sklearn(curve_engine, df, curve):
    """Every point: which points drop_intermediate keeps depends on rounding when weights are not exact."""
    assert_curve_matches(curve_engine(df, curve, "w", False), df, curve, "w", False)


@pytest.mark.parametrize("scale", [0.3, *(10.0**k for k in (-300, -30, -7, 7, 30, 300))])
def test_det_curve_ends_are_exact_under_scaled_weights(curve_engine, scale):
    """DET ends where fn = 0 although a total less a running sum, summed in other orders, is not exactly 0."""
    rng = np.random.RandomState(0)
    y, s, w = rng.randint(0, 2, 50), rng.rand(50).round(2), rng.randint(1, 10, 50)
    df = pl.DataFrame(
        {"g": [g for g in "ab" for _ in y], "y": [*y, *y], "p": [*s, *s], "w": [*(w * 1.0), *(w * scale)]}
    )
    out = curve_engine(df, "det_curve", "w", False)
    assert out.group_by("g").len().sort("g").rows() == [("a", 31), ("b", 31)]
    for part in groups(df):
        got = out.filter(pl.col("g") == part["g"][0]).drop("g").rows()
        want = reference_points("det_curve", part["y"].to_numpy(), part["p"].to_numpy(), part["w"].to_numpy(), False)
        assert [r[0] for r in got] == [r[0] for r in want]
        total = part["w"].sum()  # counts to 1e-9 of the total: a total less a running sum is not exactly 0
        for a, b in zip(got, want, strict=True):
            assert all(close(x, v) for x, v in zip(a[1:3], b[1:3], strict=True)), (a, b)
            assert all(close(x / total, v / total) for x, v in zip(a[3:], b[3:], strict=True)), (a, b)


@pytest.mark.parametrize(
    ("curve", "y", "s", "drop", "thresholds"),
    [  # scikit-learn's test_ranking.py
        ("roc_curve", [0, 0, 0, 0, 1, 1], [0.0, 0.2, 0.5, 0.6, 0.7, 1.0], True, [math.inf, 1.0, 0.7, 0.0]),
        (
            "roc_curve",
            [0, 0, 0, 0, 0, 0, 0, 1, 1, 1, 1, 1, 1],
            [0.0, 0.1, 0.6, 0.6, 0.7, 0.8, 0.9, 0.6, 0.7, 0.8, 0.9, 0.9, 1.0],
            True,
            [math.inf, 1.0, 0.9, 0.7, 0.6, 0.0],
        ),
        ("precision_recall_curve", [0, 0, 0, 0, 1, 1], [0.0, 0.2, 0.5, 0.6, 0.7, 1.0], True, [0.0, 0.7, 1.0]),
        (
            "precision_recall_curve",
            [0, 0, 0, 0, 0, 0, 0, 1, 1, 1, 1, 1, 1],
            [0.0, 0.1, 0.6, 0.6, 0.7, 0.8, 0.9, 0.6, 0.7, 0.8, 0.9, 0.9, 1.0],
            True,
            [0.0, 0.6, 0.7, 0.8, 0.9, 1.0],
        ),
        ("precision_recall_curve", [0, 0, 0, 0], [0.0, 0.1, 0.2, 0.3], True, [0.0, 0.3]),
        ("precision_recall_curve", [1, 1, 1, 1], [0.0, 0.1, 0.2, 0.3], True, [0.0, 0.1, 0.2, 0.3]),
        ("det_curve", [1, 0, 0], [0, 0.5, 1], False, [0.0, 0.5, 1.0, math.inf]),
        ("det_curve", [1, 0, 0], [0, 0.5, 1], True, [0.0, 0.5, math.inf]),
        ("det_curve", [1, 0, 1], [0, 0.25, 0.5], True, [0.0, 0.25, 0.5]),
        ("det_curve", [0, 1, 0, 1, 0, 1], [0.5] * 6, False, [0.5, math.inf]),
    ],
)
def test_scikit_learn_drop_intermediate_cases(curve_engine, curve, y, s, drop, thresholds):
    df = pl.DataFrame({"g": ["a"] * len(y), "y": y, "p": s}, schema_overrides={"p": pl.Float64})
    out = curve_engine(df, curve, None, drop)
    points = [t for t in out["threshold"].to_list() if curve != "precision_recall_curve" or t != math.inf]
    assert points == thresholds
    assert_curve_matches(out, df, curve, None, drop)


def test_curve_columns_and_order():
    df = pl.DataFrame({"seg": ["x", "x", "x", "x"], "y": [0, 0, 1, 1], "s": [0.1, 0.4, 0.35, 0.8]})
    roc = fm.roc_curve(df, y_true="y", y_score="s", by="seg")
    assert roc.columns == ["seg", "threshold", "fpr", "tpr", "tp", "fp", "tn", "fn"]
    assert roc["threshold"].to_list() == sorted(roc["threshold"].to_list(), reverse=True)
    pr = fm.precision_recall_curve(df, y_true="y", y_score="s", by="seg", engine="duckdb")
    assert pr.columns == ["seg", "threshold", "precision", "recall", "tp", "fp", "tn", "fn"]
    assert pr.row(-1) == ("x", math.inf, 1.0, 0.0, 0.0, 0.0, 2.0, 2.0)
    assert fm.det_curve(df, y_true="y", y_score="s").columns == ["threshold", "fpr", "fnr", "tp", "fp", "tn", "fn"]


@pytest.mark.parametrize("engine", ["polars", "duckdb"])
def test_curves_reject_bad_input(engine):
    df = pl.DataFrame({"y": [0, 1, 2, None], "s": [0.1, float("nan"), 0.3, 0.4]})
    with pytest.raises(ValueError, match=r"'y' \(y_true\): 2 rows .*'s' \(y_score\): 1 row is"):
        fm.roc_curve(df, y_true="y", y_score="s", engine=engine)
    with pytest.raises(ValueError, match="column 'nope' .* not found"):
        fm.det_curve(df, y_true="y", y_score="nope", engine=engine)
    with pytest.raises(ValueError, match="curve must be .roc_curve., .precision_recall_curve. or .det_curve."):
        fm.curve_table("lift_curve", df, y_true="y", y_score="s", engine=engine)
    with pytest.raises(ValueError, match="clashes"):
        fm.roc_curve(df.with_columns(tpr=1), y_true="y", y_score="s", by="tpr", engine=engine)


def test_sql_text_gives_null_rates_for_groups_with_invalid_rows():
    con = duckdb.connect()
    rows = "('a', 0, 0.1), ('a', 1, 0.9), ('b', 1, NULL), ('b', 0, 0.2)"
    con.execute(f"CREATE TABLE t AS SELECT * FROM (VALUES {rows}) v(g, y, p)")
    out = con.sql(fm.sql.curve("roc_curve", table="t", y_true="y", y_score="p", by="g")).pl()
    assert out.filter(pl.col("g") == "a")["tpr"].null_count() == 0
    assert out.filter(pl.col("g") == "b")["tpr"].is_null().all()


@pytest.mark.parametrize("engine", ["polars", "duckdb"])
def test_infinite_scores_are_invalid_as_in_sklearn(engine):
    """An infinite score would tie with the +inf point; scikit-learn raises on it."""
    df = pl.DataFrame({"y": [1, 0, 1], "s": [float("inf"), 0.5, 0.2]})
    with pytest.raises(ValueError, match=r"'s' \(y_score\): 1 row is null, NaN or infinite"):
        fm.roc_curve(df, y_true="y", y_score="s", engine=engine)
    with pytest.raises(ValueError, match=r"'s' \(y_score\): 1 row is null, NaN or infinite"):
        fm.evaluate(df, y_true="y", y_score="s", metrics="ks_threshold", engine=engine)


def test_sql_curve_validates_drop_intermediate():
    with pytest.raises(ValueError, match="drop_intermediate must be True or False"):
        fm.sql.curve("roc_curve", table="t", y_true="y", y_score="p", drop_intermediate="no")


def reference_thinned(points: list[tuple], x: int, y: int, max_points: int) -> list[tuple]:
    """M4 in plain Python over one group's points (in threshold order): per column of the x rate,
    the first, last, lowest-y and highest-y points (ties to the first)."""
    columns = max_points // 4
    cells: dict[int, list[int]] = {}
    for i, p in enumerate(points):
        cell = -1 if p[x] is None else min(math.floor(p[x] * columns), columns - 1)
        cells.setdefault(cell, []).append(i)
    kept = set()
    for rows in cells.values():
        ys = [(points[i][y], n) for n, i in enumerate(rows) if points[i][y] is not None]
        kept |= {rows[0], rows[-1]}
        if ys:
            kept |= {rows[min(ys)[1]], rows[min((-v, n) for v, n in ys)[1]]}
    return [points[i] for i in sorted(kept)]


@pytest.mark.parametrize("engine", ["polars", "duckdb", "sql_text"])
@pytest.mark.parametrize("curve", CURVES)
@pytest.mark.examples(duckdb=10, sql_text=10)
@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(
    rows=st.lists(
        st.tuples(GROUPS, st.sampled_from([0, 1]), st.floats(0, 1, allow_subnormal=False), EXACT_WEIGHTS),
        min_size=1,
        max_size=300,
    ),
    max_points=st.sampled_from([4, 5, 8, 12, 40, 1000]),
)
def test_thinned_curve_keeps_the_m4_points_of_the_full_curve(engine, curve, rows, max_points):
    df = pl.DataFrame(rows, schema={"g": pl.String, "y": pl.Int64, "p": pl.Float64, "w": pl.Float64}, orient="row")
    kwargs = dict(y_true="y", y_score="p", sample_weight="w", by="g")
    full = fm.curve_table(curve, df, **kwargs)
    if engine == "sql_text":
        con = duckdb.connect()
        con.register("data", df)
        thinned = con.sql(fm.sql.curve(curve, table="data", max_points=max_points, **kwargs)).pl()
    else:
        thinned = fm.curve_table(curve, df, max_points=max_points, engine=engine, **kwargs)
    assert thinned.columns == full.columns
    spec = CURVE_SPECS[curve]
    x, y = (thinned.columns.index(name) for name in (spec.x, spec.y))
    for key in full["g"].unique(maintain_order=True).to_list():
        mine = pl.col("g").is_null() if key is None else pl.col("g") == key
        points = full.filter(mine).rows()
        got = thinned.filter(mine).rows()
        assert got == reference_thinned(points, x, y, max_points), key
        assert len(got) <= max_points or any(p[x] is None for p in points)


def test_max_points_must_be_an_integer_of_at_least_4():
    df = pl.DataFrame({"y": [0, 1], "p": [0.2, 0.7]})
    for bad in (3, 2.5, True, "10"):
        with pytest.raises(ValueError, match="max_points must be an integer of at least 4"):
            fm.roc_curve(df, y_true="y", y_score="p", max_points=bad)
        with pytest.raises(ValueError, match="max_points must be an integer of at least 4"):
            fm.sql.curve("roc_curve", table="t", y_true="y", y_score="p", max_points=bad)
