"""One walk over the registry: every metric of every task, on every path, equals its reference per group.

The paths: ``evaluate`` (binary, regression) or ``evaluate_multiclass`` on
Polars and on DuckDB, the SQL text of :mod:`framemetrics.sql` run in a bare
DuckDB, and for binary and regression metrics the Polars builders and the
DuckDB macros. A metric registered without a path, or a path that drifts from
scikit-learn, fails here.
"""

from __future__ import annotations

import inspect
import math

import duckdb
import numpy as np
import polars as pl
import pytest
from conftest import RUNNERS, Columns
from reference import assert_matches_reference, close, expected, groups
from sklearn_multiclass import reference_value

import framemetrics as fm
from framemetrics.core.formulas import multiclass as mc
from framemetrics.core.registry import FORMULAS, METRICS, PER_CLASS, RANK_PER_CLASS

BINARY_PATHS = ("polars", "duckdb", "sql_text", "polars_expr", "duckdb_macro")
MULTICLASS_PATHS = ("polars", "duckdb", "sql_text")
LABELS = ["ant", "bee", "cat"]


def _frame(seed: int = 7, n: int = 240) -> pl.DataFrame:
    """Groups of every size down to one row, tied scores, weights with zeros; every task's columns."""
    rng = np.random.default_rng(seed)
    y = rng.integers(0, 2, n)
    score = np.clip(np.round(0.35 * y + 0.65 * rng.random(n), 1), 0, 1)
    counts = rng.integers(0, 4, size=(n, 3)).astype(float)
    counts[counts.sum(axis=1) == 0, 0] = 1
    proba = counts / counts.sum(axis=1, keepdims=True)
    classes = rng.integers(0, 3, n)
    predicted = np.where(rng.random(n) < 0.6, classes, rng.integers(0, 3, n))
    target = rng.gamma(2.0, 2.0, n)
    group = rng.choice(["a", "b", "c"], n, p=[0.6, 0.39, 0.01])
    # All-zero weights are undefined for scikit-learn: the tiny group keeps unit weights.
    weight = np.where(group == "c", 1.0, rng.choice([0.0, 0.5, 1.0, 2.0], n))
    return pl.DataFrame(
        {
            "g": group,
            "y": y,
            "p": score,
            "yhat": (score >= 0.5).astype(int),
            "w": weight,
            "t": target,
            "t_hat": np.maximum(target + rng.normal(0, 1, n).clip(-1, None), 0.05),  # positive: the deviances
            "c": [LABELS[i] for i in classes],
            "c_hat": [LABELS[i] for i in predicted],
            **{f"p_{label}": proba[:, j] for j, label in enumerate(LABELS)},
        }
    )


FRAME = _frame()


def _binary_columns(metric: fm.Metric) -> Columns:
    if metric.task == "regression":
        return Columns(y_true="t", y_pred="t_hat", sample_weight="w" if metric.weighted else None)
    return Columns(y_pred="yhat" if metric.family == "classification" else None, y_score="p",
                   sample_weight="w" if metric.weighted else None)  # fmt: skip


def _sql_text(df: pl.DataFrame, metrics: dict, cols: Columns) -> pl.DataFrame:
    con = duckdb.connect()
    con.register("data", df)
    text = fm.sql.query(metrics, table="data", y_true=cols.y_true, y_pred=cols.y_pred, y_score=cols.y_score,
                        sample_weight=cols.sample_weight, by="g")  # fmt: skip
    return con.sql(text).pl().drop("n_rows")


def _multiclass(metric: fm.Metric, path: str) -> pl.DataFrame:
    scored = metric.prediction == "y_score"
    kwargs = {
        "y_true": "c",
        "y_pred": None if scored else "c_hat",
        "y_score": [f"p_{label}" for label in LABELS] if scored else None,
        "labels": LABELS,
        "sample_weight": "w" if metric.weighted else None,
        "by": "g",
        "metrics": [metric.name],
    }
    if path != "sql_text":
        return fm.evaluate_multiclass(FRAME, engine=path, **kwargs)
    con = duckdb.connect()
    con.register("data", FRAME)
    return con.sql(fm.sql.multiclass_query(table="data", **kwargs)).pl()


CASES = [
    pytest.param(metric, path, id=f"{metric.task}-{metric.name}-{path}")
    for metric in METRICS
    for path in (MULTICLASS_PATHS if metric.task == "multiclass" else BINARY_PATHS)
]


@pytest.mark.parametrize(("metric", "path"), CASES)
def test_every_metric_of_every_task_matches_its_reference_on_every_path(metric, path):
    if metric.task != "multiclass":
        cols = _binary_columns(metric)
        run = _sql_text if path == "sql_text" else RUNNERS[path]
        out = run(FRAME, {metric.name: {}}, cols)
        assert out["g"].to_list() == ["a", "b", "c"]
        assert_matches_reference(out, FRAME, {metric.name: {}}, cols)
        return
    out = _multiclass(metric, path)
    assert out["g"].to_list() == ["a", "b", "c"]
    for group, got in zip(out["g"], out[metric.name], strict=True):
        rows = FRAME.filter(pl.col("g") == group)
        data = {
            "y": rows["c"].to_numpy(),
            "yhat": rows["c_hat"].to_numpy(),
            "proba": rows.select(f"p_{label}" for label in LABELS).to_numpy(),
            "w": rows["w"].to_numpy() if metric.weighted else None,
        }
        want = reference_value(metric.name, data, LABELS, metric.parameters)
        assert (got is None and want is None) or math.isclose(got, want, rel_tol=1e-9, abs_tol=1e-9), (group, got, want)


@pytest.mark.parametrize("metric", METRICS, ids=lambda m: f"{m.task}-{m.name}")
def test_every_formula_is_a_core_function_called_with_its_arity(metric):
    core = [*(f for f in vars(mc).values() if inspect.isfunction(f)), *FORMULAS.values()]
    per_class = [*PER_CLASS.values(), *RANK_PER_CLASS.values()] if metric.task == "multiclass" else []
    for call in (metric.formula, *metric.averages.values(), *per_class):
        assert call.function in core, call
        assert len(inspect.signature(call.function).parameters) == len(call.arguments) + 1, call


BOOTSTRAP_PATHS = ("polars", "duckdb", "sql_text")
_REPLICATES, _SEED, _LEVEL = 12, 3, 0.8


def _bootstrap(metric: fm.Metric, path: str, cols: Columns) -> pl.DataFrame:
    """``metric`` with its bootstrap interval per group on ``path``, rows keyed by ``id``."""
    request = {"y_true": cols.y_true, "y_pred": cols.y_pred, "y_score": cols.y_score, "by": "g",
               "sample_weight": cols.sample_weight, "metrics": [metric.name], "ci": _LEVEL, "ci_method": "bootstrap",
               "n_resamples": _REPLICATES, "seed": _SEED, "row_id": "id"}  # fmt: skip
    if metric.family == "classification" and cols.y_pred is None:
        request["threshold"] = cols.threshold
    frame = FRAME.with_row_index("id").with_columns(pl.col("id").cast(pl.Int64))
    if path != "sql_text":
        return fm.evaluate(frame, engine=path, **request)
    con = duckdb.connect()
    con.register("data", frame)
    return con.sql(fm.sql.query(table="data", **request)).pl()


def _replicate_bounds(metric: fm.Metric, cols: Columns) -> list[list[float | None]]:
    """Per group: scikit-learn on each replicate's resample (each row repeated k times, k its Poisson weight
    from the NumPy reference of the seed scheme), and NumPy's percentiles of the defined values."""
    from test_resampling import numpy_weights

    frame = FRAME.with_row_index("id")
    k = numpy_weights(frame["id"].to_list(), _SEED, _REPLICATES)
    bounds = []
    for part in groups(frame):
        drawn = k[part["id"].to_numpy()]
        values = []
        for b in range(_REPLICATES):
            resample = part[np.repeat(np.arange(part.height), drawn[:, b])]
            value = expected([resample], metric.name, {}, cols)[0] if resample.height else None
            if resample.height and value is not None and not math.isnan(value):
                values.append(value)
        quantiles = [100 * (1 - _LEVEL) / 2, 100 * (1 + _LEVEL) / 2]
        bounds.append(list(np.percentile(values, quantiles)) if values else [None, None])
    return bounds


BOOTSTRAP_CASES = [
    pytest.param(metric, path, id=f"{metric.task}-{metric.name}-{path}")
    for metric in METRICS
    if metric.task != "multiclass"
    for path in BOOTSTRAP_PATHS
]


@pytest.mark.parametrize(("metric", "path"), BOOTSTRAP_CASES)
def test_every_binary_and_regression_metric_bootstraps_as_scikit_learn_on_every_path(metric, path):
    """Every metric's bootstrap interval (``ci_method="bootstrap"``) equals scikit-learn's values on each
    replicate's resample, percentiles as NumPy; a replicate without rows, or where the metric is undefined,
    left out."""
    cols = _binary_columns(metric)
    out = _bootstrap(metric, path, cols)
    assert out["g"].to_list() == ["a", "b", "c"]
    want = _replicate_bounds(metric, cols)
    got = out.select(f"{metric.name}_low", f"{metric.name}_high").rows()
    bad = [(g, a, b) for g, a, b in zip(out["g"], got, want, strict=True) if not all(map(close, a, b))]
    assert not bad, bad
