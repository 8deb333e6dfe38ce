"""One fixture runs metrics on every engine: the four ways framemetrics computes.

* ``polars``: :func:`framemetrics.evaluate` with ``engine="polars"``;
* ``duckdb``: :func:`framemetrics.evaluate` with ``engine="duckdb"``;
* ``polars_expr``: the public builders inside ``group_by().agg()``;
* ``duckdb_macro``: the macros of ``sql/framemetrics.sql`` in a ``GROUP BY``.

Each returns one row per group of ``g`` (sorted, nulls last) and one column
per metric, so a test is written once for all of them.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator, Mapping
from contextlib import ExitStack
from dataclasses import dataclass
from functools import cache
from typing import Any

import duckdb
import polars as pl
import pytest
from hypothesis import settings
from reference import output_column
from warehouses import STARTERS, WAREHOUSES, Warehouse

import framemetrics as fm
from framemetrics.core.plan import default_neg_label
from framemetrics.sql.quoting import quote_identifier, sql_literal

ENGINES = ("polars", "duckdb", "polars_expr", "duckdb_macro")


@dataclass(frozen=True)
class Columns:
    """Column names of a test frame: y, the prediction or score, the weight."""

    y_true: str = "y"
    y_pred: str | None = None
    y_score: str | None = None
    sample_weight: str | None = None
    threshold: float = 0.5
    pos_label: Any = 1
    neg_label: Any = None


Runner = Callable[[pl.DataFrame, Mapping[str, Mapping[str, Any]], Columns], pl.DataFrame]


def _prediction(metric: fm.Metric, cols: Columns) -> tuple[str, bool]:
    if metric.family in ("probability", "ranking"):
        return cols.y_score, False
    if cols.y_pred is not None:
        return cols.y_pred, False
    return cols.y_score, True


def _run_evaluate(engine: str) -> Runner:
    def run(df, metrics, cols):
        out = fm.evaluate(
            df,
            y_true=cols.y_true,
            y_pred=cols.y_pred,
            y_score=cols.y_score,
            threshold=cols.threshold,
            sample_weight=cols.sample_weight,
            by="g",
            metrics=metrics,
            pos_label=cols.pos_label,
            neg_label=cols.neg_label,
            engine=engine,
        )
        return out.drop("n_rows")

    return run


def _run_polars_expr(df, metrics, cols):
    exprs = []
    for name, params in metrics.items():
        metric = fm.get_metric(name)
        column, thresholded = _prediction(metric, cols)
        prediction = pl.col(column)
        if thresholded:
            neg_label = default_neg_label(cols.pos_label, cols.neg_label)
            prediction = pl.when(prediction >= cols.threshold).then(pl.lit(cols.pos_label)).otherwise(pl.lit(neg_label))
        builder = getattr(fm, name)
        labels = {} if metric.family == "regression" else {"pos_label": cols.pos_label, "neg_label": cols.neg_label}
        weight = () if cols.sample_weight is None else (cols.sample_weight,)
        exprs.append(builder(cols.y_true, prediction, *weight, **labels, **params))
    return df.group_by("g").agg(exprs).sort("g", nulls_last=True)


def _run_duckdb_macro(df, metrics, cols):
    calls = []
    for name, params in metrics.items():
        metric = fm.get_metric(name)
        column, thresholded = _prediction(metric, cols)
        prediction = quote_identifier(column)
        neg_label = default_neg_label(cols.pos_label, cols.neg_label)
        if thresholded:
            labels = f"THEN {sql_literal(cols.pos_label)} ELSE {sql_literal(neg_label)} END"
            prediction = f"CASE WHEN {prediction} >= {sql_literal(cols.threshold)} {labels}"
        named = [f"{k} := {sql_literal(v)}" for k, v in params.items()]
        if cols.sample_weight is not None:
            named.append(f"sample_weight := {quote_identifier(cols.sample_weight)}")
        if metric.family != "regression":
            named += [f"pos_label := {sql_literal(cols.pos_label)}", f"neg_label := {sql_literal(neg_label)}"]
        arguments = ", ".join([quote_identifier(cols.y_true), prediction, *named])
        calls.append(f"{metric.sql_macro}({arguments}) AS {quote_identifier(output_column(name, params))}")
    con = _macro_connection()
    con.register("data", df)
    sql = f"SELECT g, {', '.join(calls)} FROM data GROUP BY g ORDER BY g NULLS LAST"
    try:
        return con.sql(sql).pl()
    finally:
        con.unregister("data")


@cache
def _macro_connection() -> duckdb.DuckDBPyConnection:
    """One connection with the macros loaded, for the session (loading them takes half a second)."""
    con = duckdb.connect()
    con.execute(fm.sql.macro_file().read_text())
    return con


RUNNERS: dict[str, Runner] = {
    "polars": _run_evaluate("polars"),
    "duckdb": _run_evaluate("duckdb"),
    "polars_expr": _run_polars_expr,
    "duckdb_macro": _run_duckdb_macro,
}


@pytest.fixture(params=ENGINES)
def engine(request: pytest.FixtureRequest) -> Runner:
    """A runner ``(frame, {metric: params}, Columns) -> per-group frame`` per engine."""
    return RUNNERS[request.param]


def _warehouses_of(item: pytest.Item) -> set[str]:
    """The warehouse engines a test starts: its ``warehouse`` or ``backend`` parameter, or Spark's session."""
    callspec = getattr(item, "callspec", None)
    params = callspec.params if callspec is not None else {}
    names = {params.get("warehouse"), params.get("backend")} & set(WAREHOUSES)
    if "spark_session" in getattr(item, "fixturenames", ()):
        names.add("spark")
    return names


def _engine_in_id(nodeid: str) -> str | None:
    """The warehouse engine a test id names, which :func:`pytest_collection_modifyitems` checks it is the one the test
    starts."""
    return next((name for name in WAREHOUSES if name in nodeid.lower()), None)


def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    """A test that starts a warehouse engine names it in its id, so that the scheduler below can keep it on the
    worker that already runs the engine."""
    for item in items:
        started = _warehouses_of(item)
        if started and started != {_engine_in_id(item.nodeid)}:
            raise pytest.UsageError(f"{item.nodeid} starts {sorted(started)}: name the engine in the test's id")


# Modules whose tests share a costly module-scoped fixture (a browser and its page), kept on one worker.
_WHOLE_MODULES = ("tests/test_report_browser.py",)


@pytest.hookimpl(optionalhook=True)
def pytest_xdist_make_scheduler(config: pytest.Config, log: Any) -> object:
    """Under pytest-xdist (``-n``, ``addopts`` in ``pyproject.toml``) the tests of one warehouse engine run on one
    worker, so each engine starts once per run (Spark's JVM, the PostgreSQL cluster), as without xdist; so do the
    tests of :data:`_WHOLE_MODULES`; every other test is scheduled alone. (``--dist loadgroup`` does this from marks, but pytest 9.2 broke it: pytest-xdist#1386.)
    """
    from xdist.scheduler import LoadScopeScheduling

    class EngineScheduling(LoadScopeScheduling):
        def _split_scope(self, nodeid: str) -> str:
            module = nodeid.split("::", 1)[0]
            return _engine_in_id(nodeid) or (module if module in _WHOLE_MODULES else nodeid)

    return EngineScheduling(config, log) if config.getvalue("dist") == "load" else None


def pytest_configure(config: pytest.Config) -> None:
    config.addinivalue_line(
        "markers",
        "examples(**engines): hypothesis's max_examples for the test's engine (or path) parameter, e.g. examples(duckdb=10)"
        " where that engine runs the same stage as a faster one at many times its cost per call",
    )


@pytest.hookimpl(wrapper=True)
def pytest_runtest_call(item: pytest.Item) -> Iterator[None]:
    """A test marked ``examples(engine=n)`` runs n of hypothesis's examples when its engine (its ``engine``,
    ``curve_engine`` or ``path`` parameter) is that engine (hypothesis reads a test's settings when it is called)."""
    mark = item.get_closest_marker("examples")
    callspec = getattr(item, "callspec", None)
    params = callspec.params if callspec is not None else {}
    engine = next((params[k] for k in ("engine", "curve_engine", "path") if k in params), None)
    if mark is None or engine not in mark.kwargs:
        return (yield)
    test = item.obj
    kept = test._hypothesis_internal_use_settings
    test._hypothesis_internal_use_settings = settings(kept, max_examples=mark.kwargs[engine])
    try:
        return (yield)
    finally:
        test._hypothesis_internal_use_settings = kept


@pytest.fixture(scope="session")
def engines() -> Iterator[Callable[[str], Warehouse]]:
    """The engines by name, each started when first asked for and stopped at the end of the session."""
    with ExitStack() as stack:
        started: dict[str, Warehouse] = {}

        def get(name: str) -> Warehouse:
            if name not in started:
                started[name] = stack.enter_context(STARTERS[name]())
            return started[name]

        yield get


@pytest.fixture(scope="session", params=WAREHOUSES)
def warehouse(request: pytest.FixtureRequest, engines: Callable[[str], Warehouse]) -> Warehouse:
    """Each engine in turn."""
    return engines(request.param)


@pytest.fixture(scope="session")
def spark_session(engines: Callable[[str], Warehouse]) -> object:
    """The SparkSession of the Spark engine, for ``engine="spark"``."""
    return engines("spark").session
