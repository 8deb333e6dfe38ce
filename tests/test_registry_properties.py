"""Properties of every metric of the registry, on random valid inputs, on both engines.

Each metric is a number or null (never NaN or infinite), within its
declared range (``Metric.value_range``), has the same dtype and value on
Polars and DuckDB, and is unchanged (to 1e-9) when every weight
is multiplied by 10^k, k in [-300, 300]: the metrics are invariant to the
scale of the weights, so products of weight sums must neither under- nor
overflow. One evaluation per task and engine computes all of its metrics.
"""

from __future__ import annotations

import math

import polars as pl
import pytest
from conftest import RUNNERS, Columns
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import framemetrics as fm
from framemetrics.core.registry import METRICS

LABELS = ["ant", "bee", "cat"]
ENGINES = ("polars", "duckdb")


def _names(task: str, *, weighted: bool) -> list[str]:
    """Every metric of ``task``; with weights, those that take them."""
    return [m.name for m in METRICS if m.task == task and (m.weighted or not weighted)]


@st.composite
def frames(draw: st.DrawFn) -> pl.DataFrame:
    """Two groups of 1 to 12 rows: tied scores, integer weights with zeros, every task's columns."""
    n = draw(st.integers(2, 24))
    ints = st.lists(st.integers(0, 4), min_size=n, max_size=n)
    tenths = st.lists(st.integers(0, 10), min_size=n, max_size=n)
    classes = st.lists(st.integers(0, 2), min_size=n, max_size=n)
    y, weight, score = draw(st.lists(st.integers(0, 1), min_size=n, max_size=n)), draw(ints), draw(tenths)
    true_class, predicted_class = draw(classes), draw(classes)
    proba = [draw(st.lists(st.integers(1, 9), min_size=3, max_size=3)) for _ in range(n)]
    target = draw(st.lists(st.integers(1, 50), min_size=n, max_size=n))
    noise = draw(st.lists(st.integers(-9, 9), min_size=n, max_size=n))
    return pl.DataFrame(
        {
            "g": ["a" if i < max(1, n // 2) else "b" for i in range(n)],
            "y": y,
            "p": [s / 10 for s in score],
            "yhat": [int(s >= 5) for s in score],
            "w": [float(v) for v in weight],
            "t": [float(v) for v in target],
            "t_hat": [max(0.5, v + e / 3) for v, e in zip(target, noise, strict=True)],  # positive: the deviances
            "c": [LABELS[i] for i in true_class],
            "c_hat": [LABELS[i] for i in predicted_class],
            **{f"p_{label}": [row[j] / sum(row) for row in proba] for j, label in enumerate(LABELS)},
        }
    )


def _evaluate(df: pl.DataFrame, task: str, engine: str, weighted: bool) -> pl.DataFrame:
    weight = "w" if weighted else None
    names = _names(task, weighted=weighted)
    if task == "multiclass":
        scores = [f"p_{label}" for label in LABELS]
        return fm.evaluate_multiclass(df, y_true="c", y_pred="c_hat", y_score=scores, labels=LABELS,
                                      sample_weight=weight, by="g", metrics=names, engine=engine)  # fmt: skip
    if task == "regression":
        return fm.evaluate(df, y_true="t", y_pred="t_hat", sample_weight=weight, by="g", metrics=names, engine=engine)
    return fm.evaluate(df, y_true="y", y_pred="yhat", y_score="p", sample_weight=weight, by="g", metrics=names,
                       engine=engine)  # fmt: skip


def _same(a: float | None, b: float | None) -> bool:
    return (a is None and b is None) or (
        a is not None and b is not None and math.isclose(a, b, rel_tol=1e-9, abs_tol=1e-9)
    )


def _assert_properties(df: pl.DataFrame, task: str, weighted: bool, scale: float) -> None:
    base = _evaluate(df, task, "polars", weighted)
    scaled = df.with_columns(pl.col("w") * scale)
    for engine in ENGINES:
        out = _evaluate(scaled, task, engine, weighted)
        assert out.schema == base.schema, (engine, out.schema, base.schema)
        for name in _names(task, weighted=weighted):
            low, high = fm.get_metric(name, task).value_range or (-math.inf, math.inf)
            for got, want in zip(out[name], base[name], strict=True):
                assert got is None or math.isfinite(got), (engine, name, got)
                assert got is None or low - 1e-12 <= got <= high + 1e-12, (engine, name, got)
                assert _same(got, want), (engine, name, scale, got, want)


SETTINGS = settings(max_examples=15, deadline=None, suppress_health_check=[HealthCheck.too_slow])


@SETTINGS
@given(frames(), st.sampled_from(["binary", "regression", "multiclass"]), st.integers(-300, 300))
def test_every_weighted_metric_is_finite_or_null_the_same_on_both_engines_at_any_weight_scale(df, task, k):
    _assert_properties(df, task, weighted=True, scale=10.0**k)


@SETTINGS
@given(frames(), st.sampled_from(["binary", "regression", "multiclass"]))
def test_every_metric_without_weights_is_finite_or_null_and_the_same_on_both_engines(df, task):
    _assert_properties(df, task, weighted=False, scale=1.0)


EXTREME_SCALES = (1e-300, 1e-150, 1e150, 1e200, 1e300)
SMALL = pl.DataFrame(
    {
        "g": ["a"] * 8,
        "y": [0, 0, 1, 1, 0, 1, 1, 0],
        "p": [0.1, 0.4, 0.35, 0.8, 0.4, 0.9, 0.35, 0.2],
        "yhat": [0, 0, 0, 1, 0, 1, 0, 0],
        "w": [1.0] * 8,
        "t": [3.0, 5.0, 2.5, 7.0, 4.0, 1.0, 6.0, 2.0],
        "t_hat": [2.5, 5.0, 3.0, 8.0, 4.5, 1.5, 5.0, 2.0],
        "c": ["ant", "bee", "cat", "ant", "bee", "cat", "cat", "ant"],
        "c_hat": ["ant", "bee", "bee", "ant", "cat", "cat", "cat", "bee"],
        "p_ant": [0.6, 0.2, 0.1, 0.5, 0.3, 0.1, 0.2, 0.4],
        "p_bee": [0.2, 0.5, 0.5, 0.3, 0.3, 0.2, 0.2, 0.4],
        "p_cat": [0.2, 0.3, 0.4, 0.2, 0.4, 0.7, 0.6, 0.2],
    }
)


@pytest.mark.parametrize("task", ["binary", "regression", "multiclass"])
def test_extreme_weight_scales_keep_every_weighted_metric(task):
    """The issue's cases, deterministic: every weight 1e-300, 1e-150, 1e150, 1e200, 1e300."""
    for scale in EXTREME_SCALES:
        _assert_properties(SMALL, task, weighted=True, scale=scale)


@pytest.mark.parametrize("path", sorted(RUNNERS))
def test_extreme_weight_scales_on_every_binary_and_regression_path(path):
    """The builders and the macros too: the formulas and statistics are the same code on every path."""
    for task, cols in (
        ("binary", Columns(y_pred="yhat", y_score="p", sample_weight="w")),
        ("regression", Columns(y_true="t", y_pred="t_hat", sample_weight="w")),
    ):
        metrics = {name: {} for name in _names(task, weighted=True)}
        want = RUNNERS[path](SMALL, metrics, cols)
        for scale in EXTREME_SCALES:
            got = RUNNERS[path](SMALL.with_columns(pl.col("w") * scale), metrics, cols)
            for name in metrics:
                pairs = zip(got[name], want[name], strict=True)
                assert all(_same(a, b) for a, b in pairs), (path, name, scale, got[name], want[name])
