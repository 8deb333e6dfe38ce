"""The Polars engine: the source as a ``LazyFrame``, each plan lowered by :mod:`framemetrics.compilers.polars`."""

from __future__ import annotations

from collections.abc import Iterator, Mapping, Sequence
from contextlib import contextmanager
from typing import Any

import duckdb
import polars as pl

from framemetrics.compilers.polars import POLARS
from framemetrics.compilers.polars.beta_quantiles import beta_quantile_frame
from framemetrics.compilers.polars.calibration import calibration_bins
from framemetrics.compilers.polars.curves import curve_points, shared_points, stage_points
from framemetrics.compilers.polars.frame import PolarsFrame
from framemetrics.compilers.polars.inputs import MetricInputs
from framemetrics.compilers.polars.multiclass import (
    checks_frame,
    class_table_frame,
    confusion_frame,
    mc_frames,
    metrics_frame,
    rank_input,
    report_frame,
    run_mc_polars,
)
from framemetrics.compilers.polars.paired import paired_result
from framemetrics.compilers.polars.query import NO_SHARED_SCANS, canonical_frame, plan_inputs, row_key
from framemetrics.compilers.polars.stages import rows_of
from framemetrics.core.curves import Curve
from framemetrics.core.frame import Frame
from framemetrics.core.multiclass import CURVE_STAGES
from framemetrics.core.plan import Plan
from framemetrics.core.resampling import REPLICATE, ROW_KEY
from framemetrics.engines.base import Backend, Tables
from framemetrics.sources import Source, open_polars, schema
from framemetrics.stages import statistics as stages
from framemetrics.stages.bootstrap import bootstrap_bounds
from framemetrics.stages.multiclass_bootstrap import interval_bounds, replicated_cells, replicated_rows, weighted_rows

__all__ = ["PolarsBackend", "PolarsTables"]

_CLASS_TABLES = {"report": report_frame, "classes": class_table_frame, "confusion": confusion_frame}


def _keys(by: tuple[str, ...]) -> list[str]:
    return [f"fm_g{i}" for i in range(len(by))]


def _levels(by: tuple[str, ...], level: str | None) -> list[tuple[str, ...]]:
    """The group columns of each level: none (all rows) then ``by`` with ``level``, else ``by`` alone."""
    return [(), by] if level and by else [by]


def _joined(frames: list[pl.DataFrame], by: tuple[str, ...], level: str | None) -> pl.DataFrame:
    """The levels' frames as one, as the SQL gives it: ``level``, the group columns (null at level 0), the rest."""
    if not (level and by):
        return frames[0]
    levelled = [f.with_columns(pl.lit(i, pl.Int32).alias(level)) for i, f in enumerate(frames)]
    both = pl.concat(levelled, how="diagonal")
    return both.select(level, *by, pl.exclude(level, *by))


class PolarsBackend(Backend):
    """``source`` read as a Polars ``LazyFrame`` (a DuckDB table name through ``con``).

    Examples
    --------
    >>> engine = PolarsBackend(pl.DataFrame({"y": [0, 1], "p": [1, 1]}))
    >>> from framemetrics.core.plan import make_plan
    >>> plan = make_plan("accuracy_score", weighted=False)
    >>> engine.metrics(plan, {"y_true": pl.col("y"), "y_pred": pl.col("p")}, (), False)["accuracy_score"].item()
    0.5
    """

    name = "polars"
    ns = POLARS

    def __init__(self, source: Source, con: duckdb.DuckDBPyConnection | None = None) -> None:
        self.opened = open_polars(source, con)

    def kinds(self) -> dict[str, str]:
        return schema(self.opened)

    def dtypes(self, used: Sequence[str]) -> dict[str, pl.DataType]:
        return dict(self.opened.collect_schema())

    def null_rows(self, columns: Sequence[str]) -> int:
        nulls = pl.any_horizontal(pl.col(c).is_null() for c in columns).sum()
        return int(self.opened.select(nulls).collect().item())

    def column(self, name: str) -> pl.Expr:
        return pl.col(name)

    def frame(self, columns: Mapping[str, str]) -> PolarsFrame:
        return PolarsFrame(self.opened.select(pl.col(c).alias(n) for n, c in columns.items()))

    def run(self, frame: Frame) -> pl.DataFrame:
        assert isinstance(frame, PolarsFrame)
        return frame.collect()

    @contextmanager
    def shared_stage(
        self, plan: Plan, columns: Mapping[str, pl.Expr], by: tuple[str, ...], drop: bool, level: str | None = None
    ) -> Iterator[list[pl.LazyFrame]]:
        """Each level's stage held in memory, collected once."""
        shared = []
        for groups in _levels(by, level):
            rows = PolarsFrame(canonical_frame(self.opened, plan, columns, groups, drop_nulls=drop))
            stage = stages.shared_stage(rows, plan, _keys(groups), rows_of(plan_inputs(plan)))
            shared.append(stage.lazy.collect(optimizations=NO_SHARED_SCANS).lazy())
        yield shared

    def metrics(
        self,
        plan: Plan,
        columns: Mapping[str, pl.Expr],
        by: tuple[str, ...],
        drop: bool,
        stage: list[pl.LazyFrame] | None = None,
        level: str | None = None,
    ) -> pl.DataFrame:
        levels = _levels(by, level)
        shared = stage or [None] * len(levels)
        frames = [self._metrics(plan, columns, g, drop, s) for g, s in zip(levels, shared, strict=True)]
        return _joined(frames, by, level)

    def _metrics(
        self, plan: Plan, columns: Mapping[str, pl.Expr], by: tuple[str, ...], drop: bool, stage: pl.LazyFrame | None
    ) -> pl.DataFrame:
        """The stage :func:`framemetrics.stages.statistics.metrics_table` of one level, sorted by group."""
        keys = _keys(by)
        extra = {ROW_KEY: row_key(plan)} if plan.bootstrapped else None
        rows = PolarsFrame(canonical_frame(self.opened, plan, columns, by, drop_nulls=drop, extra=extra))
        # The bootstrap's rows read the group means as columns where there are some, else as aggregates.
        resampled = rows_of(plan_inputs(plan, group_means=bool(plan.first_pass)))

        def bootstrap(measured: Frame) -> list[Frame]:
            return [bootstrap_bounds(measured, keys, plan, resampled)]

        def beta(stats: Frame, keys: Sequence[str], pairs: list[tuple[Any, Any]], p: float) -> PolarsFrame:
            assert isinstance(stats, PolarsFrame)
            return PolarsFrame(beta_quantile_frame(stats.lazy, list(keys), pairs, p))

        x = rows_of(plan_inputs(plan, group_means=True))
        shared = None if stage is None else PolarsFrame(stage)
        table = stages.metrics_table(rows, plan, keys, x, by, stage=shared, beta=beta, bootstrap=bootstrap).lazy
        table = table.sort(list(by), nulls_last=True) if by else table
        # The bootstrap's replicate columns must be streamed in batches: in memory they would be rows x replicates.
        return table.collect(optimizations=NO_SHARED_SCANS, engine="streaming" if plan.bootstrapped else "auto")

    def checks(self, plan: Plan, columns: Mapping[str, pl.Expr], by: tuple[str, ...], drop: bool) -> pl.DataFrame:
        rows = PolarsFrame(canonical_frame(self.opened, plan, columns, by, drop_nulls=drop))
        return stages.checks_table(rows, plan, _keys(by), rows_of(plan_inputs(plan, group_means=True))).collect()

    def curve(
        self,
        curve: Curve,
        plan: Plan,
        columns: Mapping[str, pl.Expr],
        by: tuple[str, ...],
        drop: bool,
        drop_intermediate: bool,
        max_points: int | None,
        stage: list[pl.LazyFrame] | None = None,
        level: str | None = None,
    ) -> pl.DataFrame:
        frames = []
        for i, groups in enumerate(_levels(by, level)):
            keys = _keys(groups)
            if stage is not None:
                points = stage_points(shared_points(stage[i], keys), keys, curve, False, max_points)
            else:
                data = canonical_frame(self.opened, plan, columns, groups, drop_nulls=drop)
                rows = data.with_columns(n_invalid=pl.lit(0))
                points = curve_points(rows, keys, plan_inputs(plan), curve, drop_intermediate, max_points)
            frames.append(points.rename(dict(zip(keys, groups, strict=True))))
        return _joined(pl.collect_all(frames, optimizations=NO_SHARED_SCANS), by, level)

    def calibration(
        self,
        plan: Plan,
        columns: Mapping[str, pl.Expr],
        by: tuple[str, ...],
        drop: bool,
        n_bins: int,
        level: str | None = None,
    ) -> pl.DataFrame:
        levels = _levels(by, level)
        rows = [canonical_frame(self.opened, plan, columns, g, drop_nulls=drop) for g in levels]
        bins = [calibration_bins(r, plan, g, n_bins) for r, g in zip(rows, levels, strict=True)]
        return _joined(pl.collect_all(bins, optimizations=NO_SHARED_SCANS), by, level)

    def paired(
        self, plan: Plan, columns: Mapping[str, pl.Expr], by: tuple[str, ...], drop: bool, z: float
    ) -> pl.DataFrame:
        scored = {role: value for role, value in columns.items() if role != "y_score_2"}
        second = {"y_score_2": columns["y_score_2"]}
        data = canonical_frame(self.opened, plan, scored, by, drop_nulls=drop, extra=second)
        return paired_result(data, plan, by, z).collect()

    def multiclass(self, request: Any) -> pl.DataFrame:
        plan, by = request.plan, request.by
        data = request.polars_input(self.opened)
        if plan.bootstrapped:  # the replicates' cells are streamed, a batch of rows at a time
            return _bootstrap_multiclass(data, plan, _keys(by), by).collect(engine="streaming")
        # Without the ranking stages the shared subplans are small (the confusion cells): cache them.
        flags = NO_SHARED_SCANS if CURVE_STAGES & plan.stages else pl.QueryOptFlags()
        return run_mc_polars(data, plan, _keys(by), by).collect(optimizations=flags)

    def class_checks(self, request: Any) -> pl.DataFrame:
        return checks_frame(request.polars_input(self.opened), request.plan, _keys(request.by)).collect()

    def class_curve(self, curve: Curve, request: Any, drop_intermediate: bool, max_points: int | None) -> pl.DataFrame:
        keys = _keys(request.by)
        rows = rank_input(request.polars_input(self.opened), request.plan, keys).with_columns(n_invalid=pl.lit(0))
        x = MetricInputs.of(y_true="is_pos", y_score="y_score", sample_weight="sample_weight",
                            pos_label=True, neg_label=False)  # fmt: skip
        return curve_points(rows, [*keys, "column_index"], x, curve, drop_intermediate, max_points).collect()

    def class_table(self, kind: str, request: Any) -> pl.DataFrame:
        build = _CLASS_TABLES[kind]
        return build(request.polars_input(self.opened), request.plan, _keys(request.by), request.by).collect()


class PolarsTables(Tables):
    """Each source a Polars ``LazyFrame`` (a DuckDB table name through ``con``).

    Examples
    --------
    >>> tables = PolarsTables()
    >>> tables.open(pl.DataFrame({"x": [1.0]}))
    ['x']
    >>> tables.run(tables.frame({"y": "x"})).rows()
    [(1.0,)]
    """

    def __init__(self, con: duckdb.DuckDBPyConnection | None = None) -> None:
        self.con = con

    def open(self, source: Source) -> list[str]:
        self.lazy = open_polars(source, self.con)
        return self.lazy.collect_schema().names()

    def frame(self, columns: Mapping[str, str]) -> PolarsFrame:
        return PolarsFrame(self.lazy.select(**{name: pl.col(column) for name, column in columns.items()}))

    def run(self, frame: Frame) -> pl.DataFrame:
        assert isinstance(frame, PolarsFrame)
        return frame.collect()


def _bootstrap_multiclass(data: pl.LazyFrame, plan: Plan, keys: list[str], by: tuple[str, ...]) -> pl.LazyFrame:
    """The multiclass metrics per group of ``data`` (with the row keys) and their bootstrap intervals, sorted by
    group: the multiclass stages over the replicates laid out as groups (:mod:`framemetrics.stages.multiclass_bootstrap`).

    Examples
    --------
    >>> from framemetrics.core.plan import make_plan
    >>> plan = make_plan("accuracy_score", task="multiclass", weighted=False, has_pred=True, ci=0.9, n_resamples=20)
    >>> lf = pl.LazyFrame({"y_true": [1, 2, 2, 3], "y_pred": [1, 1, 2, 3], "sample_weight": 1.0,
    ...                    "fm_key": [0, 1, 2, 3]})
    >>> _bootstrap_multiclass(lf, plan, [], ()).collect().columns[:4]
    ['n_rows', 'accuracy_score', 'accuracy_score_low', 'accuracy_score_high']
    """
    drawn = weighted_rows(PolarsFrame(data), plan)
    cells = replicated_cells(drawn, plan, keys).lazy
    rows = data
    if plan.stages & CURVE_STAGES:
        rows = replicated_rows(drawn, plan, data.collect_schema().names()).lazy
    values = metrics_frame(mc_frames(rows, plan, [*keys, REPLICATE], plan.stages, cells), plan, by, internal=True)
    bounds = interval_bounds(PolarsFrame(values), plan, keys).lazy
    estimates = values.filter(pl.col(REPLICATE) == -1)
    table = estimates.join(bounds, on=keys, nulls_equal=True) if keys else estimates.join(bounds, how="cross")
    outputs = [pl.col(k).alias(c) for k, c in zip(keys, by, strict=True)]
    result = table.select(*outputs, "n_rows", *plan.output_columns, *(c.name for c in plan.checks))
    return result.sort(list(by), nulls_last=True) if by else result
