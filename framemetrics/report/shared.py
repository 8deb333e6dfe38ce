"""The binary report's metrics and curves from one curve stage, shared by both levels and every output.

The report shows the metrics over all rows and per segment, and the ROC and
precision-recall curves of each. Computed one by one, that sorts the scores
six times. Here each level (0: all rows, 1: per segment) sorts its scores
once into a curve stage held by the engine (a Polars frame in memory; on
DuckDB one temporary table of both levels, every row read twice, the
group columns null at level 0), and the metrics
(:func:`~framemetrics.compilers.polars.query.run_polars`,
:func:`~framemetrics.compilers.sql.query.plan_query`) and both curves,
thinned, read it. The metrics are those of :func:`framemetrics.evaluate`, the
curves those of :func:`framemetrics.roc_curve` and its sibling with
``drop_intermediate=False`` and ``max_points``: the same stages, the same
formulas, the same rows.
"""

from __future__ import annotations

import itertools
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, replace
from functools import partial
from typing import Any

import duckdb
import polars as pl
from sqlglot import exp

from framemetrics.calibration import prepare_calibration
from framemetrics.columns import Prepared, polars_columns, prepare_metrics, sql_columns
from framemetrics.compilers.polars.calibration import calibration_bins as calibration_rows
from framemetrics.compilers.polars.curves import shared_points, stage_points
from framemetrics.compilers.polars.query import NO_SHARED_SCANS, canonical_frame, run_polars, shared_stage
from framemetrics.compilers.sql.calibration import calibration_query
from framemetrics.compilers.sql.curves import curve_query
from framemetrics.compilers.sql.emit import to_sql
from framemetrics.compilers.sql.namespace import SQL
from framemetrics.compilers.sql.query import QueryInputs, plan_query, user_column
from framemetrics.compilers.sql.query import shared_stage as shared_stage_sql
from framemetrics.core.curves import CURVES
from framemetrics.core.plan import Plan
from framemetrics.evaluation import check_schema, raise_for_invalid
from framemetrics.sources import Source, null_rows, open_polars, open_sql, schema, sql_schema

__all__ = ["POSITIVES_SQUARED", "REPORT_LEVEL", "Shared", "level_name", "shared_results"]
CURVE_NAMES = ("roc_curve", "precision_recall_curve")
REPORT_LEVEL = 0.95  # the level of the report's intervals
POSITIVES_SQUARED = "sum_pos_sq"  # exposed beside the metrics as fm_sum_pos_sq: Kish's n of the ROC band
_STAGE_ANCHOR = "roc_auc_score"  # puts y_score, its checks and the curve stage in any plan
_tables = itertools.count()


@dataclass(frozen=True)
class Shared:
    """The metrics, curves and calibration bins of every (level, segment): the group columns after the level's.

    Without segments there is one level, all rows, and no group column.
    ``curves`` maps ``roc_curve`` and ``precision_recall_curve`` to their
    points, ``calibration`` a number of bins to :func:`framemetrics.calibration_curve`'s rows (all rows
    alone unless asked per segment: no ``level_column``).
    """

    metrics: pl.DataFrame
    curves: dict[str, pl.DataFrame]
    calibration: dict[int, pl.DataFrame]
    by: tuple[str, ...]
    level_column: str

    def level(self, frame: pl.DataFrame, level: int) -> pl.DataFrame:
        """The rows of ``frame`` at ``level``: all rows (0, group columns dropped) or per segment (1)."""
        if self.level_column not in frame.columns:  # all rows alone
            return frame
        rows = frame.filter(pl.col(self.level_column) == level).drop(self.level_column)
        return rows.drop(list(self.by)) if level == 0 else rows


def shared_results(
    source: Source,
    *,
    y_true: str,
    y_score: str,
    by: tuple[str, ...],
    sample_weight: str | None,
    metrics: Sequence[str] | dict[str, dict[str, Any]],
    threshold: float,
    pos_label: Any,
    neg_label: Any,
    nulls: str,
    engine: str,
    con: duckdb.DuckDBPyConnection | None,
    max_points: int,
    calibration_bins: Mapping[int, bool] | None = None,
) -> Shared:
    """Metrics over all rows and per segment of ``by`` and both curves, from one curve stage.

    Each metric with an interval of its own (DeLong's for the ROC AUC,
    Wilson's for the proportions) has ``<metric>_low`` and ``<metric>_high``
    at :data:`REPORT_LEVEL` beside it; ``fm_sum_pos_sq``, the squared weight
    of the positives (:data:`POSITIVES_SQUARED`), follows the metrics.

    The parameters are those of :func:`framemetrics.evaluate` (``metrics``
    a list or dict) and ``max_points`` of :func:`framemetrics.roc_curve`;
    ``engine`` is ``"polars"`` or ``"duckdb"``. Invalid rows raise as in
    :func:`framemetrics.evaluate`, before any curve is computed.
    ``calibration_bins`` maps numbers of bins to whether the calibration
    curve is wanted per segment too (else over all rows alone): one query
    each (the scores must be probabilities, checked by the caller).

    Examples
    --------
    >>> df = pl.DataFrame({"g": ["a", "a", "b", "b"], "y": [0, 1, 1, 0], "p": [0.2, 0.9, 0.1, 0.3]})
    >>> out = shared_results(df, y_true="y", y_score="p", by=("g",), sample_weight=None, metrics=["roc_auc_score"],
    ...                      threshold=0.5, pos_label=1, neg_label=None, nulls="error", engine="duckdb", con=None,
    ...                      max_points=100)
    >>> out.level(out.metrics, 1)["roc_auc_score"].to_list(), out.level(out.metrics, 0)["roc_auc_score"].item()
    ([1.0, 0.0], 0.5)
    """
    scored = {"y_true": y_true, "y_score": y_score, "sample_weight": sample_weight, "pos_label": pos_label}
    scored["neg_label"] = neg_label
    requested = list(metrics)
    anchored = metrics if _STAGE_ANCHOR in requested else _with_anchor(metrics)
    prepared = prepare_metrics(
        anchored, threshold=threshold, by=by, nulls=nulls, y_true=y_true, y_pred=None, y_score=y_score,
        sample_weight=sample_weight, pos_label=pos_label, neg_label=neg_label, zero_division=None, bins=None,
        ci=REPORT_LEVEL, ci_method="own",
    )  # fmt: skip
    banded = replace(prepared.resolved, plan=prepared.resolved.plan.exposing([POSITIVES_SQUARED]))
    prepared = replace(prepared, resolved=banded)
    per_segment = calibration_bins or {}
    bins = _calibration_plans(per_segment, **scored)
    request = _Request(source, con, prepared, by, nulls, max_points, per_segment, bins)
    result, curves, calibration, level = (_on_polars if engine == "polars" else _on_duckdb)(request)
    hidden = [] if _STAGE_ANCHOR in requested else [_STAGE_ANCHOR, f"{_STAGE_ANCHOR}_low", f"{_STAGE_ANCHOR}_high"]
    checks = [c.name for c in prepared.resolved.plan.checks]
    return Shared(result.drop(checks, *hidden), curves, calibration, by, level)


_Results = tuple[pl.DataFrame, dict[str, pl.DataFrame], dict[int, pl.DataFrame], str]


@dataclass(frozen=True)
class _Request:
    """What :func:`shared_results` computes, checked: the metrics' plan, and the calibration plans by bin count."""

    source: Source
    con: duckdb.DuckDBPyConnection | None
    prepared: Prepared
    by: tuple[str, ...]
    nulls: str
    max_points: int
    per_segment: Mapping[int, bool]
    bins: dict[int, tuple[Plan, dict[str, str]]]


def _on_polars(request: _Request) -> _Results:
    """:func:`shared_results` on Polars: each level's stage on its own, the levels' frames joined after."""
    prepared, by, bins = request.prepared, request.by, request.bins
    plan, roles, thresholded = prepared.resolved.plan, prepared.resolved.roles, prepared.resolved.thresholded
    frame = open_polars(request.source, request.con)
    check_schema(plan, roles, by, schema(frame), thresholded)
    level = level_name(by)
    columns = polars_columns(plan, roles, thresholded, prepared.threshold)
    parts = [_level_polars(frame, plan, columns, g, prepared.drop, request.max_points) for g in _split(by)]
    raise_for_invalid(parts[0][0], plan, roles, request.nulls, partial(null_rows, frame))
    result = _joined([part[0] for part in parts], by, level)
    curves = {name: _joined([part[1][name] for part in parts], by, level) for name in CURVE_NAMES}
    calibration = {}
    for n_bins, (binned, binned_roles) in bins.items():
        binned_columns = polars_columns(binned, binned_roles, False, 0.5)
        split = _split(by if request.per_segment[n_bins] else ())
        rows = [canonical_frame(frame, binned, binned_columns, g, drop_nulls=prepared.drop) for g in split]
        lazy = [calibration_rows(r, binned, g, n_bins) for r, g in zip(rows, split, strict=True)]
        calibration[n_bins] = _joined(pl.collect_all(lazy, optimizations=NO_SHARED_SCANS), split[-1], level)
    return result, curves, calibration, level


def _on_duckdb(request: _Request) -> _Results:
    """:func:`shared_results` on DuckDB: both levels' stage in one temporary table, dropped after."""
    prepared, by, bins = request.prepared, request.by, request.bins
    plan, roles, thresholded = prepared.resolved.plan, prepared.resolved.roles, prepared.resolved.thresholded
    opened = open_sql(request.source, "duckdb", request.con)
    table = f"fm_report_stage_{next(_tables)}"
    try:
        kinds = sql_schema(opened)
        check_schema(plan, roles, by, kinds, thresholded)
        level = level_name(kinds)
        levels = (level, *by) if by else ()
        inputs = _levels_sql(opened.table, sql_columns(plan, roles, thresholded, prepared.threshold), by,
                             prepared.drop, level)  # fmt: skip
        opened.run(to_sql(_create_temporary(table, shared_stage_sql(plan, inputs))))
        result = opened.fetch(plan_query(plan, inputs, checks=True, stage=table), levels)
        raise_for_invalid(_level_zero(result, by, level), plan, roles, request.nulls, partial(null_rows, opened))
        curves = {}
        for name in CURVE_NAMES:
            points = request.max_points
            query = curve_query(CURVES[name], plan, inputs, drop_intermediate=False, max_points=points, stage=table)
            curves[name] = opened.fetch(query, levels)
        calibration = {}
        for n_bins, (binned, binned_roles) in bins.items():
            binned_columns = sql_columns(binned, binned_roles, False, 0.5)
            segmented = by if request.per_segment[n_bins] else ()
            rows = _levels_sql(opened.table, binned_columns, segmented, prepared.drop, level)
            calibration[n_bins] = opened.fetch(calibration_query(binned, rows, n_bins), rows.by)
    finally:
        opened.run(to_sql(exp.Drop(tables=[exp.to_table(table)], kind="TABLE", exists=True)))
        opened.close()
    return result, curves, calibration, level


def _calibration_plans(bins: Mapping[int, bool], **columns: Any) -> dict[int, tuple[Plan, dict[str, str]]]:
    """Per number of bins, the plan and column roles of :func:`framemetrics.calibration_curve`."""
    plans = {}
    for n_bins in bins:
        resolved = prepare_calibration(n_bins, by=None, nulls="error", **columns).resolved
        plans[n_bins] = (resolved.plan, resolved.roles)
    return plans


def _split(by: tuple[str, ...]) -> list[tuple[str, ...]]:
    """The group columns of each level: none (all rows), then ``by`` (per segment) if any."""
    return [(), by] if by else [()]


def _level_polars(
    frame: pl.LazyFrame, plan: Plan, columns: dict[str, pl.Expr], by: tuple[str, ...], drop: bool, max_points: int
) -> tuple[pl.DataFrame, dict[str, pl.DataFrame]]:
    """One level on Polars: its curve stage, sorted once, then the metrics and both curves from it."""
    keys = [f"fm_g{i}" for i in range(len(by))]
    stage = shared_stage(canonical_frame(frame, plan, columns, by, drop_nulls=drop), plan, keys)
    stage = stage.collect(optimizations=NO_SHARED_SCANS).lazy()
    result = run_polars(frame, plan, columns, by, drop_nulls=drop, stage=stage)
    points = shared_points(stage, keys).collect().lazy()  # both curves read them
    named = dict(zip(keys, by, strict=True))
    curves = [stage_points(points, keys, CURVES[name], False, max_points).rename(named) for name in CURVE_NAMES]
    return result, dict(zip(CURVE_NAMES, pl.collect_all(curves), strict=True))


def level_name(taken: Iterable[str]) -> str:
    """The name of the level column: ``fm_level``, with underscores added until no column is named so.

    Compared without case, as DuckDB compares names.

    Examples
    --------
    >>> level_name(["g"]), level_name(["FM_LEVEL", "fm_level_"])
    ('fm_level', 'fm_level__')
    """
    names, level = {name.lower() for name in taken}, "fm_level"
    while level in names:
        level += "_"
    return level


def _joined(frames: list[pl.DataFrame], by: tuple[str, ...], level: str) -> pl.DataFrame:
    """The levels' frames as one, as the SQL gives it: ``level``, the group columns (null at level 0), the rest."""
    if not by:
        return frames[0]
    levelled = [f.with_columns(pl.lit(i, pl.Int32).alias(level)) for i, f in enumerate(frames)]
    both = pl.concat(levelled, how="diagonal")
    return both.select(level, *by, pl.exclude(level, *by))


def _with_anchor(metrics: Sequence[str] | dict[str, dict[str, Any]]) -> Sequence[str] | dict[str, dict[str, Any]]:
    """``metrics`` and ROC AUC, whose plan reads the scores, checks them and sorts them into the curve stage."""
    if isinstance(metrics, dict):
        return {**metrics, _STAGE_ANCHOR: {}}
    return [*metrics, _STAGE_ANCHOR]


def _level_zero(result: pl.DataFrame, by: tuple[str, ...], level: str) -> pl.DataFrame:
    """The all-rows level alone: every row counted once by the input checks."""
    return result.filter(pl.col(level) == 0) if by else result


def _levels_sql(
    table: exp.Expression, columns: dict[str, exp.Expression], by: tuple[str, ...], drop: bool, level: str
) -> QueryInputs:
    """:class:`QueryInputs` reading every row twice: level 0 with null group columns (all rows), level 1 in its segment."""
    if not by:
        return QueryInputs(table, columns, by, drop)

    def at(value: int) -> exp.Select:
        return exp.select(exp.Star(), exp.alias_(SQL.lit(value), level)).from_(table.copy())

    both = exp.union(at(0), at(1), distinct=False).subquery("fm_levels")
    at_level_1 = SQL.eq(exp.column(level), SQL.lit(1))
    # No ELSE: the null keeps the column's type.
    groups = (exp.column(level), *(exp.Case().when(at_level_1.copy(), user_column(b)) for b in by))
    return QueryInputs(both, columns, (level, *by), drop, group_columns=groups)


def _create_temporary(name: str, query: exp.Select) -> exp.Create:
    """``CREATE TEMPORARY TABLE name AS query``."""
    properties = exp.Properties(expressions=[exp.TemporaryProperty()])
    return exp.Create(this=exp.to_table(name), kind="TABLE", expression=query, properties=properties)
