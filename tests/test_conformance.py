"""Backend conformance, stage by stage: each stage of the library gives the same table on every backend.

The suite is organised by *stage* (input checks and confusion cells,
probability sums, the curve stage, curve ends and thinning, calibration
bins, regression sums and quantiles, the multiclass class stage, DeLong,
the bootstrap and BCa, Clopper-Pearson's Beta quantiles), not by metric:
each stage runs once per backend on one generated frame whose groups are
the edge cases (:mod:`conformance_data`: ties, zero weights, weights scaled
by 1e-300 ... 1e300 and 0.3, a one-class group, a one-row group, a group
emptied by ``nulls="drop"``, nulls in ``y`` and in the score).

The backends:

* ``polars``: the public entry point with ``engine="polars"``, compared
  with ``engine="duckdb"`` (the reference): same columns, order, dtypes,
  rows, nulls; values to 1e-9 relative, 1e-12 absolute; no NaN, no inf
  (bar the curves' leading ``threshold``);
* ``duckdb``: the SQL text of :mod:`framemetrics.sql` run on DuckDB,
  compared with the entry point's ``engine="duckdb"`` frame (values after
  casting to its dtypes);
* ``spark``, ``postgres``, ``clickhouse``, ``datafusion``: the same SQL
  text in the warehouse's dialect, run there, compared with DuckDB's result
  of the same text (after casting, as ``test_warehouses.py`` does).

``test_warehouses.py`` compares metric by metric on a fixed frame and
``test_engine_agreement.py`` awkward sources and types; this file is the
matrix stage x backend on the edge-case groups.
"""

from __future__ import annotations

import math
from collections.abc import Callable
from dataclasses import dataclass
from functools import cache

import duckdb
import polars as pl
import pytest
from conformance_data import (
    LABELS,
    binary_frame,
    det_frame,
    multiclass_frame,
    nan_frame,
    regression_frame,
)
from hypothesis import given, settings
from hypothesis import strategies as st
from warehouses import WAREHOUSES

import framemetrics as fm
from framemetrics.core.intervals import PROPORTIONS
from framemetrics.multiclass import MULTICLASS

REL, ABS = 1e-9, 1e-12
BACKENDS = ("polars", "duckdb", *WAREHOUSES)


# -- the comparison ---------------------------------------------------------------------------------------------------


def _cast_like(got: pl.DataFrame, want: pl.DataFrame) -> pl.DataFrame:
    """A warehouse's frame in the reference's dtypes (DECIMAL, INTEGER, Nullable(...) and the like)."""
    return got.with_columns(pl.col(c).cast(want.schema[c]) for c in want.columns)


def assert_same_table(got: pl.DataFrame, want: pl.DataFrame, *, cast: bool = False, infinite: tuple[str, ...] = ()):
    """``got`` is ``want``: columns and their order, dtypes (after casting if ``cast``), row count and order,
    nulls in the same places, floats equal to 1e-9 relative / 1e-12 absolute, no NaN and no inf (but in the
    ``infinite`` columns, where an inf must be the same inf)."""
    assert got.columns == want.columns, f"columns: {got.columns} != {want.columns}"
    if cast:
        got = _cast_like(got, want)
    assert got.schema == want.schema, f"dtypes: {got.schema} != {want.schema}"
    assert got.height == want.height, f"rows: {got.height} != {want.height}\n{got}\n{want}"
    for column in want.columns:
        a, b = got[column], want[column]
        nulls = a.is_null().to_list(), b.is_null().to_list()
        assert nulls[0] == nulls[1], f"{column}: nulls at {_rows(a.is_null())} != {_rows(b.is_null())}"
        if not b.dtype.is_float():
            assert a.to_list() == b.to_list(), f"{column}: {a.to_list()} != {b.to_list()}"
            continue
        for side, values in (("got", a), ("want", b)):
            assert not values.is_nan().any(), f"{column}: NaN in {side} at rows {_rows(values.is_nan())}"
            if column not in infinite:
                assert not values.is_infinite().any(), f"{column}: inf in {side} at rows {_rows(values.is_infinite())}"
        bad = [
            (i, x, y)
            for i, (x, y) in enumerate(zip(a.to_list(), b.to_list(), strict=True))
            if x is not None and not (x == y or math.isclose(x, y, rel_tol=REL, abs_tol=ABS))
        ]
        assert not bad, f"{column}: (row, got, want) {bad[:5]}"


def _rows(mask: pl.Series) -> list[int]:
    return mask.fill_null(False).arg_true().to_list()


def _check_dtypes(frame: pl.DataFrame, groups: tuple[str, ...]) -> None:
    """Counts are Int64, every other number Float64."""
    for column, dtype in frame.schema.items():
        if column in groups or not dtype.is_numeric():
            continue
        wanted = pl.Int64 if column == "n_rows" else dtype
        assert dtype in (pl.Int64, pl.Float64) and dtype == wanted, f"{column}: {dtype}"


# -- the data ---------------------------------------------------------------------------------------------------------

TABLES: dict[str, Callable[[], pl.DataFrame]] = {
    "conf_binary": binary_frame,
    "conf_nan": nan_frame,
    "conf_regression": regression_frame,
    "conf_multiclass": multiclass_frame,
    # The multiclass SQL text has no nulls= option: it reads the rows nulls="drop" keeps.
    "conf_multiclass_valid": lambda: multiclass_frame().drop_nulls(),
    # The bootstrap, BCa's jackknife and the Beta quantiles cost most on the warehouses: the same groups, 8 base rows.
    "conf_small": lambda: binary_frame(n=8),
    "conf_regression_small": lambda: regression_frame(n=8),
    "conf_det": det_frame,
    "conf_ungrouped": lambda: binary_frame().filter(pl.col("g") == "base").drop("g"),
}


@cache
def table(name: str) -> pl.DataFrame:
    return TABLES[name]()


@cache
def _duckdb() -> duckdb.DuckDBPyConnection:
    con = duckdb.connect()
    for name in TABLES:
        con.register(name, table(name))
    return con


# -- the stages -------------------------------------------------------------------------------------------------------


def _family(*families: str) -> list[str]:
    return [name for name, metric in fm.REGISTRY.items() if metric.family in families]


_PARAMS = {
    "fbeta_score": {"beta": 2.0},
    "mean_pinball_loss": {"alpha": 0.9},
    "d2_pinball_score": {"alpha": 0.9},
    "mean_tweedie_deviance": {"power": 1.5},
    "d2_tweedie_score": {"power": 1.5},
}


def _with_params(names: list[str]) -> dict[str, dict]:
    return {name: _PARAMS.get(name, {}) for name in names}


LABEL_METRICS = _with_params(_family("classification"))
PROBABILITY_METRICS = _family("probability")
RANKING_METRICS = _family("ranking")
REGRESSION_METRICS = _with_params(_family("regression"))

BINARY = {"y_true": "y", "y_score": "p", "sample_weight": "w", "by": "g", "nulls": "drop"}
HARD = {"y_true": "y", "y_pred": "yhat", "sample_weight": "w", "by": "g", "nulls": "drop"}
UNGROUPED = {"y_true": "y", "y_score": "p", "sample_weight": "w", "nulls": "drop"}
REGRESSION = {"y_true": "y", "y_pred": "f", "sample_weight": "w", "by": "g", "nulls": "drop"}
SCORES = [f"p_{c}" for c in LABELS]
MULTICLASS_ARGS = {"y_true": "y", "y_pred": "yhat", "y_score": SCORES, "labels": LABELS, "by": "g"}
BOOTSTRAP = {"ci": 0.95, "n_resamples": 20, "seed": 1, "row_id": "id"}


@dataclass(frozen=True)
class Stage:
    """One stage: the entry point by engine, and the SQL text of :mod:`framemetrics.sql` by dialect."""

    run: Callable[[str], pl.DataFrame]
    sql: Callable[[str], str] | None = None
    table: str = "conf_binary"
    warehouses: tuple[str, ...] = WAREHOUSES
    infinite: tuple[str, ...] = ()


def _evaluate(frame: str, metrics, args: dict = BINARY, **extra) -> Stage:
    """A stage of :func:`fm.evaluate` and its text :func:`fm.sql.query` on table ``frame``."""
    return Stage(
        run=lambda engine: fm.evaluate(table(frame), metrics=metrics, engine=engine, **args, **extra),
        sql=lambda dialect: fm.sql.query(metrics, table=frame, dialect=dialect, **args, **extra),
        table=frame,
    )


def _curve(curve: str, **options) -> Stage:
    return Stage(
        run=lambda engine: fm.curve_table(curve, table("conf_binary"), engine=engine, **BINARY, **options),
        sql=lambda dialect: fm.sql.curve(curve, table="conf_binary", dialect=dialect, **BINARY, **options),
        infinite=("threshold",),
    )


def _multiclass(metrics: list[str], **extra) -> Stage:
    return Stage(
        run=lambda engine: fm.evaluate_multiclass(
            table("conf_multiclass"), metrics=metrics, nulls="drop", engine=engine, **MULTICLASS_ARGS, **extra
        ),
        sql=lambda dialect: fm.sql.multiclass_query(
            metrics, table="conf_multiclass_valid", dialect=dialect, **MULTICLASS_ARGS, **extra
        ),
        table="conf_multiclass_valid",
    )


_WEIGHTED = [m for m, info in MULTICLASS.items() if info.weighted]
_CURVE_OPTIONS = {
    "exact": {"drop_intermediate": False},
    "dropped": {"drop_intermediate": True},
    "8 points": {"max_points": 8},
}

STAGES: dict[str, Stage] = {
    # input checks + confusion cells
    "cells, thresholded": _evaluate("conf_binary", LABEL_METRICS, threshold=0.5),
    "cells, hard labels": _evaluate("conf_binary", LABEL_METRICS, HARD),
    # probability sums
    "probability sums": _evaluate("conf_binary", PROBABILITY_METRICS),
    # the curve stage
    "curve stage, exact": _evaluate("conf_binary", RANKING_METRICS),
    "curve stage, partial AUC": _evaluate("conf_binary", {"roc_auc_score": {"max_fpr": 0.3}}),
    # several parameterisations of a metric, each a column named by its parameters
    "parameterised names": _evaluate(
        "conf_binary", ["roc_auc_score", "roc_auc_score(max_fpr=0.3)", "fbeta_score(beta=2)", "fbeta_score(beta=0.5)"]
    ),
    # several values of a parameter of the statistics: the plan's parts, each computed and joined by group
    "parts, two partial AUCs": _evaluate("conf_binary", ["roc_auc_score(max_fpr=0.3)", "roc_auc_score(max_fpr=0.6)"]),
    "parts, regression": _evaluate(
        "conf_regression",
        ["mean_pinball_loss(alpha=0.1)", "mean_pinball_loss(alpha=0.9)", "d2_pinball_score(alpha=0.9)",
         "mean_tweedie_deviance(power=1.5)", "mean_tweedie_deviance", "mean_absolute_error"],
        REGRESSION,
    ),  # fmt: skip
    "parts, multiclass": _multiclass(
        ["top_k_accuracy_score(k=1)", "top_k_accuracy_score", "fbeta_macro(beta=2)", "fbeta_macro(beta=0.5)"]
    ),
    "curve stage, bins=4": _evaluate("conf_binary", RANKING_METRICS, bins=4),
    # curve ends and thinning
    **{
        f"{curve}, {label}": _curve(curve, **options)
        for curve in ("roc_curve", "precision_recall_curve", "det_curve")
        for label, options in _CURVE_OPTIONS.items()
    },
    # calibration bins
    "calibration bins": Stage(
        run=lambda engine: fm.calibration_curve(table("conf_binary"), n_bins=5, engine=engine, **BINARY),
        sql=lambda dialect: fm.sql.calibration_curve(table="conf_binary", n_bins=5, dialect=dialect, **BINARY),
    ),
    # regression sums and quantiles
    "regression": _evaluate("conf_regression", REGRESSION_METRICS, REGRESSION),
    # the multiclass class stage
    "multiclass, weighted": _multiclass(_WEIGHTED, sample_weight="w"),
    "multiclass, unweighted (one-vs-one)": _multiclass(list(MULTICLASS)),
    "classification_report": Stage(
        run=lambda engine: fm.classification_report(
            table("conf_multiclass"),
            y_true="y",
            y_pred="yhat",
            labels=LABELS,
            sample_weight="w",
            by="g",
            nulls="drop",
            engine=engine,
        ),
        warehouses=(),
    ),
    "confusion matrix": Stage(
        run=lambda engine: fm.multiclass_confusion_matrix(
            table("conf_multiclass"),
            y_true="y",
            y_pred="yhat",
            labels=LABELS,
            sample_weight="w",
            by="g",
            nulls="drop",
            engine=engine,
        ),
        warehouses=(),
    ),
    # DeLong
    "roc_auc_ci": Stage(
        run=lambda engine: fm.roc_auc_ci(table("conf_binary"), level=0.95, engine=engine, **BINARY),
        sql=lambda dialect: fm.sql.roc_auc_ci(table="conf_binary", level=0.95, dialect=dialect, **BINARY),
    ),
    "compare_auc": Stage(
        run=lambda engine: fm.compare_auc(table("conf_binary"), y_score=["p", "q"], engine=engine, **_no_score(BINARY)),
        sql=lambda dialect: fm.sql.compare_auc(
            table="conf_binary", y_score=["p", "q"], dialect=dialect, **_no_score(BINARY)
        ),
    ),
    # the bootstrap's replicates, the jackknife and BCa
    "bootstrap": _evaluate(
        "conf_small",
        ["f1_score", "log_loss", "brier_score_loss", "roc_auc_score", "average_precision_score"],
        ci_method="bootstrap",
        **BOOTSTRAP,
    ),
    "bootstrap, BCa": _evaluate(
        "conf_small", ["f1_score", "accuracy_score", "log_loss", "brier_score_loss"], ci_method="bca", **BOOTSTRAP
    ),
    "bootstrap, parts": _evaluate(
        "conf_small", ["roc_auc_score(max_fpr=0.3)", "roc_auc_score(max_fpr=0.6)", "log_loss"], **BOOTSTRAP
    ),
    "bootstrap, regression": _evaluate(
        "conf_regression_small",
        ["r2_score", "mean_absolute_error", "median_absolute_error"],
        REGRESSION,
        ci_method="bootstrap",
        **BOOTSTRAP,
    ),
    # without by=: one row (one curve) for the whole table
    "ungrouped, metrics": _evaluate(
        "conf_ungrouped", ["f1_score", "log_loss", "roc_auc_score", "average_precision_score"], UNGROUPED
    ),
    **{
        f"ungrouped, {curve}": Stage(
            run=lambda engine, curve=curve: fm.curve_table(curve, table("conf_ungrouped"), engine=engine, **UNGROUPED),
            sql=lambda dialect, curve=curve: fm.sql.curve(curve, table="conf_ungrouped", dialect=dialect, **UNGROUPED),
            infinite=("threshold",),
        )
        for curve in ("roc_curve", "det_curve")
    },
    "ungrouped, calibration bins": Stage(
        run=lambda engine: fm.calibration_curve(table("conf_ungrouped"), n_bins=5, engine=engine, **UNGROUPED),
        sql=lambda dialect: fm.sql.calibration_curve(table="conf_ungrouped", n_bins=5, dialect=dialect, **UNGROUPED),
    ),
    # the normal interval of the means of per-row terms
    "normal intervals": _evaluate("conf_binary", ["log_loss", "brier_score_loss", "hinge_loss"], ci=0.95),
    "normal intervals, regression": _evaluate(
        "conf_regression", ["mean_squared_error", "mean_absolute_error", "mean_error"], REGRESSION, ci=0.95
    ),
    # the delta method's interval of the F-scores, the logit interval of average precision
    "delta and logit intervals": _evaluate(
        "conf_binary", ["f1_score", "fbeta_score(beta=2)", "jaccard_score", "average_precision_score"], ci=0.95
    ),
    # Clopper-Pearson's Beta quantiles
    "Clopper-Pearson": _evaluate(
        "conf_small", sorted(PROPORTIONS), threshold=0.5, ci=0.95, ci_method="clopper-pearson"
    ),
}


def _no_score(args: dict) -> dict:
    return {k: v for k, v in args.items() if k != "y_score"}


# -- the matrix: stage x backend, its known disagreements and its cost -----------------------------------------------

# Every stage runs on every backend (Spark's share of the matrix, about a minute, on the worker that holds Spark).

_TOTALS = (
    "DataFusion: at weights ~1e300 (group w1e+300) the curve's last cells tn (and fn) are 2.4e285 and -2.4e285 "
    "instead of 0: its running SUM and the group's total are summed in different orders (DuckDB, Polars: 0 exactly)"
)
_DELONG = (
    "DeLong at weights ~1e300 (group w1e+300): the squared placements overflow; DuckDB, Polars and ClickHouse give"
    " se, the bounds, z and the p-value null; DataFusion gives se = 0 (and bounds equal to the AUC); PostgreSQL"
    " raises 'value out of range: overflow'"
)
XFAIL: dict[tuple[str, str], str] = {
    **{(f"{c}, {o}", "datafusion"): _TOTALS for c in ("roc_curve", "precision_recall_curve", "det_curve") for o in _CURVE_OPTIONS},
    **{(s, w): _DELONG for s in ("roc_auc_ci", "compare_auc") for w in ("postgres", "datafusion")},
    ("normal intervals", "postgres"): (
        "PostgreSQL raises 'value out of range: underflow' summing w t^2 in the group of weights ~1e-300 (a clipped"
        " log loss term of 2.2e-16, squared, times the weight is below the double range; the other engines round"
        " to 0, and the interval is null there: its weights sum to at most 1)"
    ),
    ("delta and logit intervals", "postgres"): (
        "PostgreSQL raises 'value out of range: underflow' summing the squared weights w^2 of the cells and of the"
        " positives in the group of weights ~1e-300 (w^2 is below the double range; the other engines round it to"
        " 0, and the interval is null there)"
    ),
    ("Clopper-Pearson", "postgres"): (
        "PostgreSQL raises 'value out of range: underflow' in the Beta quantiles of the tiny-weight groups"
        " (the other engines round to 0)"
    ),
}


def _case(name: str, backend: str) -> object:
    marks = []
    if (name, backend) in XFAIL:
        marks.append(pytest.mark.xfail(strict=True, reason=XFAIL[name, backend]))
    return pytest.param(name, backend, id=f"{name}-{backend}", marks=marks)


def _matrix() -> list:
    return [
        _case(name, backend)
        for name, stage in STAGES.items()
        for backend in BACKENDS
        if backend in ("polars", "duckdb") or (stage.sql is not None and backend in stage.warehouses)
    ]


@cache
def _reference(name: str) -> pl.DataFrame:
    """The stage's frame on ``engine="duckdb"``."""
    return STAGES[name].run("duckdb")


_LOADED: dict[str, set[str]] = {}


def _warehouse(engines, name: str):
    """The warehouse ``name``, started once per session, the tables of :data:`TABLES` loaded once."""
    warehouse = engines(name)
    loaded = _LOADED.setdefault(name, set())
    for table_name in TABLES:
        if table_name not in loaded:
            warehouse.load(table_name, table(table_name))
            loaded.add(table_name)
    return warehouse


@pytest.mark.parametrize(("stage", "backend"), _matrix())
def test_stage_gives_the_same_table_on_every_backend(stage, backend, request):
    """polars: the entry point's frame equals engine="duckdb"'s; duckdb: that frame is well typed, finite, and (when
    the stage has SQL text) the text run on DuckDB gives it; a warehouse: the text in its dialect gives it."""
    spec = STAGES[stage]
    want = _reference(stage)
    if backend == "polars":
        assert_same_table(spec.run("polars"), want, infinite=spec.infinite)
    elif backend == "duckdb":
        _check_dtypes(want, ("g",))
        assert_same_table(want, want, infinite=spec.infinite)  # no NaN, no inf
        if spec.sql is not None:
            assert_same_table(_duckdb().sql(spec.sql("duckdb")).pl(), want, cast=True, infinite=spec.infinite)
    else:
        warehouse = _warehouse(request.getfixturevalue("engines"), backend)
        assert_same_table(warehouse.run(spec.sql(warehouse.dialect)), want, cast=True, infinite=spec.infinite)


# -- grouping sets (the report's cells of all rows, summed from the segments') ----------------------------------------


@pytest.mark.parametrize("backend", BACKENDS)
def test_grouping_sets_give_every_set_with_the_absent_keys_null(backend, request):
    """``Frame.aggregate_sets`` per (g, y) and per y (the absent g null, typed), null keys of the data kept as groups:
    the same rows on every engine as Polars' group-bys of each set."""
    from framemetrics.compilers.polars.frame import PolarsFrame
    from framemetrics.compilers.sql.emit import to_sql
    from framemetrics.compilers.sql.frame import SqlFrame, Statement

    def program(frame):
        ns = frame.ns
        sums = {"rows": ns.count_rows(), "weight": ns.sum(ns.col("w"))}
        return frame.aggregate_sets([["g", "y"], ["y"]], sums)

    data = table("conf_binary")
    want = pl.concat(
        [data.group_by("g", "y").agg(rows=pl.len().cast(pl.Int64), weight=pl.col("w").sum()),
         data.group_by("y").agg(rows=pl.len().cast(pl.Int64), weight=pl.col("w").sum())],
        how="diagonal_relaxed",
    ).select("g", "y", "rows", "weight")  # fmt: skip
    order = ["g", "y"]
    if backend == "polars":
        got = program(PolarsFrame(data.lazy())).collect()
    else:
        statement = Statement()
        frame = SqlFrame.table(statement, "conf_binary", {"g": "g", "y": "y", "w": "w"})
        query = statement.query(program(frame), [])
        if backend == "duckdb":
            got = _duckdb().sql(to_sql(query)).pl()
        else:
            warehouse = _warehouse(request.getfixturevalue("engines"), backend)
            got = warehouse.run(to_sql(query, warehouse.dialect))
    got = got.with_columns(pl.col("rows").cast(pl.Int64), pl.col("y").cast(pl.Int64))
    assert_same_table(got.sort(order, nulls_last=True), want.sort(order, nulls_last=True), cast=True)


# -- the DET regression -----------------------------------------------------------------------------------------------


@pytest.mark.parametrize("backend", BACKENDS)
def test_det_curve_keeps_both_groups_of_the_same_rows(backend, request):
    """Two groups of the same 50 rows, weights w and 0.3*w: 31 points each on every engine, the same rates."""
    args = {"y_true": "y", "y_score": "s", "sample_weight": "w", "by": "g"}
    if backend in ("polars", "duckdb"):
        got = fm.det_curve(table("conf_det"), engine=backend, **args)
    else:
        warehouse = _warehouse(request.getfixturevalue("engines"), backend)
        got = warehouse.run(fm.sql.curve("det_curve", table="conf_det", dialect=warehouse.dialect, **args))
    assert got.group_by("g").len().sort("g").rows() == [("x0.3", 31), ("x1", 31)]
    x1, x03 = (got.filter(pl.col("g") == g).drop("g", "tp", "fp", "tn", "fn") for g in ("x1", "x0.3"))
    assert_same_table(x03.cast({c: pl.Float64 for c in x03.columns}), x1.cast({c: pl.Float64 for c in x1.columns}))


# -- invalid input: the same error everywhere -------------------------------------------------------------------------

_INVALID = {"y_true": "y", "y_score": "p", "sample_weight": "w", "by": "g"}
_INVALID_METRICS = ["accuracy_score", "log_loss", "roc_auc_score"]


@pytest.mark.parametrize("nulls", ["error", "drop"])
def test_a_nan_score_raises_the_same_error_on_both_engines(nulls):
    """A NaN score is invalid whatever nulls= says: the same ValueError, word for word (with "error" the nulls are
    counted too)."""
    messages = []
    for engine in ("polars", "duckdb"):
        with pytest.raises(ValueError, match="invalid input") as raised:
            fm.evaluate(table("conf_nan"), metrics=_INVALID_METRICS, nulls=nulls, engine=engine, **_INVALID)
        messages.append(str(raised.value))
    assert messages[0] == messages[1]
    assert "column 'p' (y_score): " + ("2 rows are" if nulls == "error" else "1 row is") in messages[0]
    assert ("nulls='drop' drops such rows" in messages[0]) == (nulls == "error")


def test_a_nan_score_raises_the_same_error_on_spark(request):
    """engine="spark" reports the invalid rows with the message of the other engines."""
    session = _warehouse(request.getfixturevalue("engines"), "spark").session
    messages = []
    for source, engine in (
        (table("conf_nan"), "duckdb"),
        (session.createDataFrame(table("conf_nan").to_arrow()), "spark"),
    ):
        with pytest.raises(ValueError, match="invalid input") as raised:
            fm.evaluate(source, metrics=_INVALID_METRICS, nulls="drop", engine=engine, **_INVALID)
        messages.append(str(raised.value))
    assert messages[0] == messages[1]


def _checks_sql(dialect: str) -> str:
    return fm.sql.query(_INVALID_METRICS, table="conf_nan", checks=True, dialect=dialect, nulls="drop", **_INVALID)


@pytest.mark.parametrize("backend", [b for b in BACKENDS if b != "polars"])
def test_the_sql_checks_count_the_same_invalid_rows(backend, request):
    """The SQL text cannot raise: with checks=True it counts the invalid rows of each group (the nan group's NaN) and
    nulls that group's metrics, the same on every warehouse as on DuckDB."""
    want = _duckdb().sql(_checks_sql("duckdb")).pl()
    invalid = [c for c in want.columns if c.startswith("invalid")]
    assert invalid, want.columns
    nan_group = want.filter(pl.col("g") == "nan")
    assert nan_group.select(invalid).sum_horizontal().item() > 0
    assert all(nan_group[m].item() is None for m in _INVALID_METRICS)
    assert want.filter(pl.col("g") != "nan").select(pl.sum_horizontal(invalid).sum()).item() == 0
    if backend == "duckdb":
        return
    warehouse = _warehouse(request.getfixturevalue("engines"), backend)
    assert_same_table(warehouse.run(_checks_sql(warehouse.dialect)), want, cast=True)


# -- hypothesis: the binary metrics on random small frames, Polars against DuckDB -------------------------------------

_ROWS = st.tuples(
    st.sampled_from(["a", "b"]),
    st.sampled_from([0, 1, None]),
    st.sampled_from([0.0, 0.1, 0.5, 0.5, 0.9, 1.0, None]),
    st.sampled_from([0.0, 0.3, 1.0, 3.0, 1e-300, 1e300]),
)
_BINARY_METRICS = {**LABEL_METRICS, **{name: {} for name in PROBABILITY_METRICS + RANKING_METRICS}}


@settings(max_examples=6, deadline=None)
@given(rows=st.lists(_ROWS, min_size=1, max_size=25))
def test_binary_metrics_agree_on_random_frames(rows):
    frame = pl.DataFrame(rows, schema={"g": pl.String, "y": pl.Int64, "p": pl.Float64, "w": pl.Float64}, orient="row")
    args = {"y_true": "y", "y_score": "p", "sample_weight": "w", "by": "g", "nulls": "drop", "threshold": 0.5}
    got, want = (_evaluate_or_error(frame, engine, args) for engine in ("polars", "duckdb"))
    if isinstance(want, str) or isinstance(got, str):  # every row dropped: the same error
        assert got == want
        return
    assert got.schema == want.schema and got.height == want.height
    for column in want.columns:  # a mix of weights 1e-300 and 1e300 may overflow: NaN is then the same NaN
        pairs = zip(got[column].to_list(), want[column].to_list(), strict=True)
        assert all(_same_or_both_nan(a, b) for a, b in pairs), (column, got[column].to_list(), want[column].to_list())


def _evaluate_or_error(frame: pl.DataFrame, engine: str, args: dict) -> pl.DataFrame | str:
    try:
        return fm.evaluate(frame, metrics=_BINARY_METRICS, engine=engine, **args)
    except ValueError as error:
        return str(error)


def _same_or_both_nan(a: object, b: object) -> bool:
    if a is None or b is None:
        return a is None and b is None
    if isinstance(a, float) and math.isnan(a):
        return isinstance(b, float) and math.isnan(b)
    return a == b or math.isclose(a, b, rel_tol=REL, abs_tol=ABS)
