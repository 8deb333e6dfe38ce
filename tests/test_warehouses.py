"""Every metric, curve and calibration curve in the SQL of each warehouse, run on the real engine.

One parametrised fixture (``warehouse``) starts each engine once per
session (:mod:`warehouses`); every case writes its SQL with ``dialect=``,
runs it there and compares every group, every column, with the same SQL run
on DuckDB (which the rest of the suite compares with scikit-learn), to
1e-9. Each frame has a group of invalid rows, whose metrics are null on
every engine, and a null group, sorted last.
"""

from __future__ import annotations

import math
from collections.abc import Callable

import duckdb
import numpy as np
import polars as pl
import pytest
from warehouses import Warehouse

import framemetrics as fm
from framemetrics.core.intervals import PROPORTIONS
from framemetrics.multiclass import MULTICLASS

LABELS = ["ant", "bee", "cat"]


def _groups(rng: np.random.Generator, n: int) -> list[str | None]:
    return [None if v == 3 else "abc"[v] for v in rng.integers(0, 4, n)]


def binary_frame() -> pl.DataFrame:
    """Tied scores, integer weights with zeros, a null group, and group ``bad`` with a NaN score."""
    rng = np.random.default_rng(7)
    n = 60
    frame = pl.DataFrame(
        {
            "g": _groups(rng, n),
            "y": rng.integers(0, 2, n),
            "p": rng.integers(0, 11, n) / 10,
            "w": rng.integers(0, 4, n).astype(float),
            "q": rng.integers(0, 7, n) / 6,
            "id": rng.permutation(n) * 5 - 100,
        }
    )
    bad = pl.DataFrame(
        {
            "g": ["bad"] * 3,
            "y": [0, 1, 1],
            "p": [0.2, float("nan"), 0.7],
            "w": [1.0, 1.0, 1.0],
            "q": [0.1, 0.2, 0.3],
            "id": [1000, 1001, 1002],
        }
    )
    return pl.concat([frame, bad])


def scaled_frame() -> pl.DataFrame:
    """The weights of one group times 0.3 and 1e-300 (a total less a running sum is then not exactly 0: DET's
    ends must not read it), and group ``bad``. (At 1e300 the engines' residues of ``fn, tn`` exceed 1e-9.)"""
    rng = np.random.RandomState(0)
    y, p, w = rng.randint(0, 2, 50), rng.rand(50).round(2), rng.randint(1, 10, 50) * 1.0
    scales = {"w": 1.0, "x0.3": 0.3, "x1e-300": 1e-300}
    parts = [pl.DataFrame({"g": [g] * 50, "y": y, "p": p, "w": w * k}) for g, k in scales.items()]
    bad = binary_frame().filter(pl.col("g") == "bad").select("g", "y", "p", "w")
    return pl.concat([*parts, bad])


def regression_frame() -> pl.DataFrame:
    """Positive targets and predictions (every deviance's domain), weights, group ``bad`` with a NaN target."""
    rng = np.random.default_rng(8)
    n = 60
    frame = pl.DataFrame(
        {
            "g": _groups(rng, n),
            "y": rng.integers(1, 40, n) / 4,
            "f": rng.integers(1, 40, n) / 4,
            "w": rng.integers(0, 4, n).astype(float),
            "id": np.arange(n),
        }
    )
    bad = pl.DataFrame({"g": ["bad"] * 3, "y": [1.0, float("nan"), 2.0], "f": [1.0, 2.0, 3.0], "w": [1.0, 1.0, 1.0],
                        "id": [n, n + 1, n + 2]})  # fmt: skip
    return pl.concat([frame, bad])


def multiclass_frame() -> pl.DataFrame:
    """Three string classes, probabilities of dyadic parts (rows sum to 1 exactly), group ``bad`` with a stray label."""
    rng = np.random.default_rng(9)
    n = 60
    parts = rng.integers(1, 8, (n, 3)).astype(float)
    parts[:, 2] = 8 - parts[:, 0] % 4 - parts[:, 1] % 4
    parts[:, 0], parts[:, 1] = parts[:, 0] % 4, parts[:, 1] % 4
    proba = parts / 8
    frame = pl.DataFrame(
        {
            "g": _groups(rng, n),
            "y": [LABELS[i] for i in rng.integers(0, 3, n)],
            "yhat": [LABELS[i] for i in rng.integers(0, 3, n)],
            "w": rng.integers(0, 4, n).astype(float),
            **{f"p_{c}": proba[:, j] for j, c in enumerate(LABELS)},
            "id": np.arange(n),
        }
    )
    bad = frame.head(3).with_columns(
        g=pl.lit("bad"), y=pl.Series(["ant", "eel", "cat"]), id=pl.Series([n, n + 1, n + 2])
    )
    return pl.concat([frame, bad])


_PARAMS = {
    "fbeta_score": {"beta": 2.0},
    "mean_pinball_loss": {"alpha": 0.9},
    "d2_pinball_score": {"alpha": 0.9},
    "mean_tweedie_deviance": {"power": 1.5},
    "d2_tweedie_score": {"power": 1.5},
}


def _metrics(task: str) -> dict[str, dict]:
    families = ("regression",) if task == "regression" else ("classification", "probability", "ranking")
    return {m: _PARAMS.get(m, {}) for m, info in fm.REGISTRY.items() if info.family in families}


_BINARY = {"table": "binary", "y_true": "y", "y_score": "p", "sample_weight": "w", "by": "g"}
_SCORES = [f"p_{c}" for c in LABELS]
_MULTICLASS = {"table": "multiclass", "y_true": "y", "y_pred": "yhat", "y_score": _SCORES, "labels": LABELS, "by": "g"}

Query = Callable[[str], str]


def _regression_bootstrap(dialect: str, metrics: dict[str, dict], n_resamples: int, method: str = "bootstrap") -> str:
    """The regression SQL with bootstrap intervals (``method``: or BCa's) of ``metrics``, the rows keyed by ``id``."""
    return fm.sql.query(metrics, table="regression", y_true="y", y_pred="f", sample_weight="w", by="g", ci=0.9,
                        ci_method=method, n_resamples=n_resamples, seed=2, row_id="id", dialect=dialect)  # fmt: skip


def _mc_bootstrap(dialect: str, metrics: list[str], **extra: str) -> str:
    """The multiclass SQL with bootstrap intervals of ``metrics`` (8 replicates keyed by ``id``)."""
    return fm.sql.multiclass_query(metrics, ci=0.9, n_resamples=8, seed=5, row_id="id", dialect=dialect,
                                   **_MULTICLASS, **extra)  # fmt: skip


CASES: dict[str, Query] = {
    "binary metrics": lambda d: fm.sql.query(_metrics("binary"), threshold=0.5, dialect=d, **_BINARY),
    "binary metrics, bins": lambda d: fm.sql.query(
        ["roc_auc_score", "roc_auc_error_bound", "average_precision_score"], bins=4, dialect=d, **_BINARY
    ),
    "binary metrics with intervals": lambda d: fm.sql.query(
        ["roc_auc_score", "gini_score", *sorted(PROPORTIONS)], threshold=0.5, ci=0.9, dialect=d, **_BINARY
    ),
    "Clopper-Pearson intervals": lambda d: fm.sql.query(
        sorted(PROPORTIONS), threshold=0.5, ci=0.9, ci_method="clopper-pearson", dialect=d, **_BINARY
    ),
    "roc_auc_ci": lambda d: fm.sql.roc_auc_ci(level=0.9, dialect=d, **_BINARY),
    "bootstrap, BCa regression": lambda d: _regression_bootstrap(
        d, {"r2_score": {}, "explained_variance_score": {}, "mean_absolute_error": {}}, 10, "bca"
    ),
    "bootstrap, BCa": lambda d: fm.sql.query(
        ["f1_score", "log_loss", "matthews_corrcoef"],
        threshold=0.5,
        ci=0.9,
        ci_method="bca",
        n_resamples=12,
        seed=3,
        row_id="id",
        dialect=d,
        **_BINARY,
    ),
    "bootstrap": lambda d: fm.sql.query(
        ["f1_score", "log_loss", "brier_score_loss", "average_precision_score", "ks_statistic"],
        threshold=0.5,
        ci=0.9,
        n_resamples=30,
        seed=4,
        row_id="id",
        dialect=d,
        **_BINARY,
    ),
    "bootstrap, regression": lambda d: _regression_bootstrap(
        d,
        {"r2_score": {}, "explained_variance_score": {}, "mean_absolute_error": {}, "d2_tweedie_score": {"power": 1.5}},
        20,
    ),
    # The quantiles' stages (one per value sorted) beside the row sums, few replicates: PostgreSQL took 66 s at 20.
    "bootstrap, quantiles": lambda d: _regression_bootstrap(
        d,
        {
            "mean_absolute_error": {},
            "median_absolute_error": {},
            "d2_absolute_error_score": {},
            "d2_pinball_score": {"alpha": 0.3},
        },
        6,
    ),
    "compare_auc": lambda d: fm.sql.compare_auc(**(_BINARY | {"y_score": ["p", "q"]}), dialect=d),
    "regression metrics": lambda d: fm.sql.query(
        _metrics("regression"), table="regression", y_true="y", y_pred="f", sample_weight="w", by="g", dialect=d
    ),
    **{
        f"{curve}{'' if points is None else f', {points} points'}": (
            lambda d, curve=curve, points=points: fm.sql.curve(curve, max_points=points, dialect=d, **_BINARY)
        )
        for curve in ("roc_curve", "precision_recall_curve", "det_curve")
        for points in (None, 4)
    },
    "det_curve, scaled weights": lambda d: fm.sql.curve("det_curve", dialect=d, **(_BINARY | {"table": "scaled"})),
    # The calibration SQL does not check its input (fm.calibration_curve does): the valid rows alone.
    "calibration curve": lambda d: fm.sql.calibration_curve(n_bins=4, dialect=d, **(_BINARY | {"table": "valid"})),
    "multiclass metrics, weighted": lambda d: fm.sql.multiclass_query(
        [m for m, info in MULTICLASS.items() if info.weighted], sample_weight="w", dialect=d, **_MULTICLASS
    ),
    "multiclass metrics, unweighted": lambda d: fm.sql.multiclass_query(list(MULTICLASS), dialect=d, **_MULTICLASS),
    "multiclass bootstrap": lambda d: _mc_bootstrap(
        d,
        [
            "accuracy_score",
            "f1_macro",
            "precision_weighted",
            "recall_micro",
            "jaccard_weighted",
            "matthews_corrcoef",
            "cohen_kappa_score",
            "balanced_accuracy_score",
            "log_loss",
            "brier_score_loss",
            "top_k_accuracy_score",
        ],
        sample_weight="w",
    ),
    "multiclass bootstrap, curves": lambda d: _mc_bootstrap(
        d,
        ["roc_auc_ovr", "roc_auc_ovr_micro", "average_precision_weighted", "average_precision_micro"],
        sample_weight="w",
    ),
    "multiclass bootstrap, one-vs-one": lambda d: _mc_bootstrap(d, ["roc_auc_ovo", "roc_auc_ovo_weighted"]),
    "multiclass metrics, classes found per group": lambda d: fm.sql.multiclass_query(
        [m for m, info in MULTICLASS.items() if info.prediction == "y_pred"],
        table="multiclass",
        y_true="y",
        y_pred="yhat",
        by="g",
        dialect=d,
    ),
}
TABLES = {
    "binary": binary_frame,
    "valid": lambda: binary_frame().filter(pl.col("g").ne_missing("bad")),
    "scaled": scaled_frame,
    "regression": regression_frame,
    "multiclass": multiclass_frame,
}


@pytest.fixture(scope="module")
def reference_engine() -> duckdb.DuckDBPyConnection:
    con = duckdb.connect()
    for name, make in TABLES.items():
        con.register(name, make())
    return con


@pytest.fixture(scope="module")
def loaded(warehouse: Warehouse) -> Warehouse:
    for name, make in TABLES.items():
        warehouse.load(name, make())
    return warehouse


def _same(a: object, b: object) -> bool:
    if a is None or b is None:
        return a is None and b is None
    if isinstance(a, float) or isinstance(b, float):
        both_nan = math.isnan(a) and math.isnan(b)  # the threshold of an invalid group's NaN score
        return both_nan or math.isclose(float(a), float(b), rel_tol=1e-9, abs_tol=1e-9)
    return a == b


@pytest.mark.parametrize("case", list(CASES))
def test_warehouse_sql_equals_duckdb_per_group(loaded, reference_engine, case):
    expected = reference_engine.sql(CASES[case]("duckdb")).pl()
    got = loaded.run(CASES[case](loaded.dialect))
    assert got.columns == expected.columns
    assert got.height == expected.height, (got, expected)
    for column in expected.columns:
        pairs = zip(got[column].to_list(), expected[column].to_list(), strict=True)
        bad = [(i, a, b) for i, (a, b) in enumerate(pairs) if not _same(a, b)]
        assert not bad, f"{loaded.dialect} {case} {column}: (row, engine, duckdb) {bad[:5]}"
    if "calibration" not in case and "found" not in case:  # without labels=, group bad's label is a class
        invalid = got.filter(pl.col("g") == "bad").drop("g", "n_rows", strict=False)
        assert invalid.height == 1 and all(v is None for v in invalid.row(0)), invalid


_WEIGHTED_MULTICLASS = {
    "y_true": "y",
    "y_pred": "yhat",
    "y_score": _SCORES,
    "labels": LABELS,
    "sample_weight": "w",
    "by": "g",
    "metrics": [m for m, info in MULTICLASS.items() if info.weighted],
}
_ENTRY_POINTS = {
    "evaluate": lambda source, **kw: fm.evaluate(
        source, y_true="y", y_score="p", sample_weight="w", by="g", metrics=list(_metrics("binary")), **kw
    ),
    "evaluate, regression": lambda source, **kw: fm.evaluate(
        source, y_true="y", y_pred="f", sample_weight="w", by="g", metrics=_metrics("regression"), **kw
    ),
    "bootstrap": lambda source, **kw: fm.bootstrap(
        source,
        y_true="y",
        y_score="p",
        sample_weight="w",
        by="g",
        metrics=["f1_score", "log_loss", "average_precision_score"],
        n_resamples=30,
        row_id="id",
        **kw,
    ),
    "compare_auc": lambda source, **kw: fm.compare_auc(
        source, y_true="y", y_score=["p", "q"], sample_weight="w", by="g", **kw
    ),
    "roc_curve": lambda source, **kw: fm.roc_curve(source, y_true="y", y_score="p", sample_weight="w", by="g", **kw),
    "calibration_curve": lambda source, **kw: fm.calibration_curve(source, y_true="y", y_score="p", by="g", **kw),
    "evaluate_multiclass": lambda source, **kw: fm.evaluate_multiclass(source, **_WEIGHTED_MULTICLASS, **kw),
    "evaluate_multiclass, a list column": lambda source, **kw: fm.evaluate_multiclass(
        source, **(_WEIGHTED_MULTICLASS | {"y_score": "p"}), **kw
    ),
    "classification_report": lambda source, **kw: fm.classification_report(
        source, y_true="y", y_pred="yhat", labels=LABELS, by="g", **kw
    ),
    "confusion_matrix": lambda source, **kw: fm.confusion_matrix(source, y_true="y", y_score="p", by="g", **kw),
    "confusion_matrix, weighted and normalized": lambda source, **kw: fm.confusion_matrix(
        source, y_true="y", y_score="p", sample_weight="w", by="g", normalize="true", **kw
    ),
}
_VALID = {  # the table of each entry point, its invalid group left out
    "evaluate": "binary",
    "evaluate, regression": "regression",
    "bootstrap": "binary",
    "compare_auc": "binary",
    "roc_curve": "binary",
    "calibration_curve": "binary",
    "evaluate_multiclass": "multiclass",
    "evaluate_multiclass, a list column": "multiclass",
    "classification_report": "multiclass",
    "confusion_matrix": "binary",
    "confusion_matrix, weighted and normalized": "binary",
}


_SPARK_AQE_UNION = pytest.mark.xfail(
    strict=True,
    reason="Spark 4's adaptive execution fails to deserialize a UnionExec of the class report's plan "
    "(ClassCastException: DefaultSerializationProxy to UnionExec.children); it passes with "
    "spark.sql.adaptive.enabled=false (measured); a Spark bug met since the report is built on Frame",
)


@pytest.mark.parametrize(
    "entry",
    [pytest.param(e, marks=_SPARK_AQE_UNION) if e == "classification_report" else e for e in _ENTRY_POINTS],
)
def test_engine_spark_returns_the_duckdb_frame(spark_session, entry):
    """A Spark DataFrame (and a table name with spark=) gives the frame of engine="duckdb": columns, types, order."""
    session = spark_session
    frame = TABLES[_VALID[entry]]().filter(pl.col("g").ne_missing("bad"))
    if "list column" in entry:
        frame = frame.with_columns(p=pl.concat_list(_SCORES))
    expected = _ENTRY_POINTS[entry](frame, engine="duckdb")
    spark_frame = session.createDataFrame(frame.to_arrow())
    got = _ENTRY_POINTS[entry](spark_frame)
    _assert_same_frame(got, expected)
    views = {t.name for t in session.catalog.listTables()}
    spark_frame.createOrReplaceTempView("fm_test_table")
    try:
        by_name = _ENTRY_POINTS[entry]("fm_test_table", engine="spark", spark=session)
    finally:
        session.catalog.dropTempView("fm_test_table")
    # Spark merges partial sums in the order its tasks finish: two runs may differ in the last bits.
    _assert_same_frame(by_name, got)
    assert {t.name for t in session.catalog.listTables()} == views  # framemetrics dropped its own views


def _assert_same_frame(got: pl.DataFrame, expected: pl.DataFrame) -> None:
    """The same columns, types and rows, values equal to 1e-9 (:func:`_same`)."""
    assert got.schema == expected.schema
    assert got.height == expected.height
    for column in expected.columns:
        pairs = zip(got[column].to_list(), expected[column].to_list(), strict=True)
        assert all(_same(a, b) for a, b in pairs), column


def test_engine_spark_raises_as_duckdb(spark_session):
    """Invalid rows are counted in Spark and reported with the other engines' message."""
    session = spark_session
    frame = binary_frame()
    messages = []
    for source, engine in ((frame, "duckdb"), (session.createDataFrame(frame.to_arrow()), "spark")):
        with pytest.raises(ValueError, match="invalid input") as raised:
            fm.evaluate(source, y_true="y", y_score="p", by="g", metrics=["roc_auc_score"], engine=engine)
        messages.append(str(raised.value))
    assert messages[0] == messages[1]
    spark_frame = session.createDataFrame(frame.to_arrow())
    with pytest.raises(ValueError, match="a Spark DataFrame is evaluated on Spark"):
        fm.evaluate(spark_frame, y_true="y", y_score="p", engine="polars")
    with pytest.raises(ValueError, match="needs|spark="):
        fm.evaluate("binary", y_true="y", y_score="p", engine="spark")


def test_one_vs_rest_curves_and_task_inference_on_spark(spark_session):
    """The front door's task inference (one aggregate on Spark) and the one-vs-rest curves, equal to DuckDB's."""
    rng = np.random.default_rng(4)
    proba = rng.dirichlet([1, 1, 1], 400).round(2)
    frame = pl.DataFrame(
        {"g": rng.choice(["a", "b"], 400), "y": rng.choice(["cat", "dog", "pig"], 400),
         "cat": proba[:, 0], "dog": proba[:, 1], "pig": proba[:, 2], "n": rng.integers(0, 5, 400),
         "m": rng.integers(0, 5, 400)}
    )  # fmt: skip
    spark_frame = spark_session.createDataFrame(frame.to_arrow())
    kwargs = {"y_true": "y", "y_score": ["cat", "dog", "pig"], "by": "g", "max_points": 40}
    got = fm.roc_curve(spark_frame, engine="spark", **kwargs)
    want = fm.roc_curve(frame, engine="duckdb", **kwargs)
    assert got.columns == want.columns and got.height == want.height
    assert all(_same(a, b) for x, y in zip(got.rows(), want.rows(), strict=True) for a, b in zip(x, y, strict=True))
    with pytest.raises(fm.ArgumentError, match="classes or counts"):
        fm.evaluate(spark_frame, y_true="n", y_pred="m", engine="spark")
