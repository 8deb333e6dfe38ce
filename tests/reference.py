"""Compare an engine's per-group output with the scikit-learn references."""

from __future__ import annotations

import math
from collections.abc import Mapping
from typing import Any

import polars as pl
from sklearn_binary import REFERENCES

import framemetrics as fm
from framemetrics.core.names import output_name
from framemetrics.core.registry import get_metric

TOLERANCE = 1e-9


def zero_weight_outcome(metric: fm.Metric, params: Mapping[str, Any]) -> float | None:
    """A group whose weights are all 0 (scikit-learn raises): the README's outcome, the formulas' undefined
    values: ``zero_division`` for the ratios that take it (``2 z - 1`` for informedness and markedness, two
    ratios minus 1), 0 for MCC, null for every other metric."""
    if metric.name == "matthews_corrcoef":
        return 0.0
    zero_division = {**metric.params, **params}.get("zero_division")
    if metric.name in ("informedness", "markedness") and zero_division is not None:
        return 2 * zero_division - 1
    return zero_division


def close(got: float | None, want: float | None) -> bool:
    """Equal to 1e-9 (relative, or absolute near 0); None (null / NaN) equals None."""
    if got is None or want is None:
        return got is None and want is None
    if math.isinf(want) or math.isinf(got):
        return got == want
    return math.isclose(got, want, rel_tol=TOLERANCE, abs_tol=TOLERANCE)


def groups(df: pl.DataFrame) -> list[pl.DataFrame]:
    """The rows of each group of ``g``, sorted by group, nulls last (the reference runs per group)."""
    parts = df.partition_by("g", as_dict=True, maintain_order=False)
    keys = sorted(parts, key=lambda k: (k[0] is None, k[0] if k[0] is not None else ""))
    return [parts[k] for k in keys]


def expected(parts: list[pl.DataFrame], metric: str, params: Mapping[str, Any], cols) -> list[float | None]:
    """The reference value of ``metric`` for each group (as returned by :func:`groups`)."""
    info = fm.get_metric(metric)
    values = []
    for part in parts:
        y = part[cols.y_true].to_numpy()
        if info.family != "regression":
            y = (y == cols.pos_label).astype(int)
        if info.family in ("probability", "ranking"):
            pred = part[cols.y_score].to_numpy()
        elif info.family == "classification" and cols.y_pred is None:
            pred = (part[cols.y_score].to_numpy() >= cols.threshold).astype(int)
        elif info.family == "classification":
            pred = (part[cols.y_pred].to_numpy() == cols.pos_label).astype(int)
        else:
            pred = part[cols.y_pred].to_numpy()
        weight = None if cols.sample_weight is None else part[cols.sample_weight].to_numpy()
        if weight is not None and not weight.any():
            values.append(zero_weight_outcome(info, params))
            continue
        values.append(REFERENCES[info.name](y, pred, weight, **{**info.params, **info.input_params, **params}))
    return values


def output_column(metric: str, params: Mapping[str, Any], task: str = "binary") -> str:
    """The column of ``metric`` with ``params``: its name, or ``name(param=value, ...)`` with the parameters that
    differ from their defaults."""
    return output_name(metric, params, get_metric(metric, task).parameters)


def assert_matches_reference(out: pl.DataFrame, df: pl.DataFrame, metrics: Mapping[str, Mapping], cols) -> None:
    """Every metric column of ``out`` equals its reference in every group."""
    parts = groups(df)
    for metric, params in metrics.items():
        want = expected(parts, metric, params, cols)
        got = out[output_column(metric, params)].to_list()
        bad = [(g, a, b) for g, a, b in zip(out["g"].to_list(), got, want, strict=True) if not close(a, b)]
        rows = df.filter(pl.col("g").is_in([b[0] for b in bad]) | pl.col("g").is_null()).rows() if bad else []
        assert not bad, f"{metric}{dict(params)}: (group, framemetrics, reference) {bad[:5]}; rows {rows[:20]}"
