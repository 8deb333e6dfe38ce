"""The Polars engine: the source as a ``LazyFrame``, each plan lowered by :mod:`framemetrics.compilers.polars`."""

from __future__ import annotations

from collections.abc import Iterator, Mapping, Sequence
from contextlib import contextmanager
from typing import Any

import duckdb
import polars as pl

from framemetrics.compilers.polars import POLARS
from framemetrics.compilers.polars.frame import PolarsFrame
from framemetrics.compilers.polars.query import NO_SHARED_SCANS, canonical_frame, plan_rows, row_key
from framemetrics.core.checks import check_counts
from framemetrics.core.curves import Curve
from framemetrics.core.frame import Frame, Table
from framemetrics.core.multiclass import CURVE_STAGES
from framemetrics.core.plan import Plan
from framemetrics.core.resampling import ROW_KEY
from framemetrics.engines.base import Backend, Tables
from framemetrics.sources import Source, open_polars, schema
from framemetrics.stages import group_keys
from framemetrics.stages import multiclass as classes
from framemetrics.stages import statistics as stages
from framemetrics.stages.beta_quantiles import beta_quantiles
from framemetrics.stages.bootstrap import bootstrap_bounds
from framemetrics.stages.calibration import calibration_bins, stage_bins
from framemetrics.stages.curves import curve_table
from framemetrics.stages.multiclass_bootstrap import bootstrap_table
from framemetrics.stages.paired import paired_test

__all__ = ["PolarsBackend", "PolarsTables"]

_CLASS_TABLES = {
    "report": classes.report_table,
    "classes": classes.class_rows_table,
    "confusion": classes.confusion_table,
}


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
            stage = stages.shared_stage(rows, plan, group_keys(groups), plan_rows(plan))
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
        all_rows: bool = False,
    ) -> pl.DataFrame:
        if all_rows:
            assert stage is not None and level is not None
            return self._all_rows_metrics(plan, columns, by, drop, stage, level)
        levels = _levels(by, level)
        shared = stage or [None] * len(levels)
        frames = [self._metrics(plan, columns, g, drop, s) for g, s in zip(levels, shared, strict=True)]
        return _joined(frames, by, level)

    def _all_rows_metrics(
        self,
        plan: Plan,
        columns: Mapping[str, pl.Expr],
        by: tuple[str, ...],
        drop: bool,
        stage: list[pl.LazyFrame],
        level: str,
    ) -> pl.DataFrame:
        """Both levels from one read of the rows (at level 1), all rows' statistics summed from the segments'
        (:func:`~framemetrics.stages.statistics.metrics_table` ``all_rows``): the level key first, as the SQL's."""
        groups = (level, *by)
        keys = group_keys(groups)
        shifted = {old: new for old, new in zip(group_keys(by), keys[1:], strict=True)}
        rows = canonical_frame(self.opened, plan, columns, by, drop_nulls=drop).rename(shifted)

        def at(value: int) -> pl.Expr:
            return pl.lit(value, pl.Int32).alias(keys[0])

        rows = rows.with_columns(at(1))
        both = pl.concat([stage[0].with_columns(at(0)), stage[1].rename(shifted).with_columns(at(1))], how="diagonal")
        x = plan_rows(plan, group_means=True)
        table = stages.metrics_table(PolarsFrame(rows), plan, keys, x, groups, stage=PolarsFrame(both), all_rows=True)
        return table.lazy.sort(list(groups), nulls_last=True).collect(optimizations=NO_SHARED_SCANS)

    def _metrics(
        self, plan: Plan, columns: Mapping[str, pl.Expr], by: tuple[str, ...], drop: bool, stage: pl.LazyFrame | None
    ) -> pl.DataFrame:
        """The stage :func:`framemetrics.stages.statistics.metrics_table` of one level, sorted by group."""
        keys = group_keys(by)
        extra = {ROW_KEY: row_key(plan)} if plan.bootstrapped else None
        rows = PolarsFrame(canonical_frame(self.opened, plan, columns, by, drop_nulls=drop, extra=extra))

        def bootstrap(measured: Frame, part: Plan) -> list[Frame]:
            # The bootstrap's rows read the group means as columns where there are some, else as aggregates.
            return [bootstrap_bounds(measured, keys, part, plan_rows(part, group_means=bool(part.first_pass)))]

        x = plan_rows(plan, group_means=True)
        shared = None if stage is None else PolarsFrame(stage)
        beta = beta_quantiles
        table = stages.metrics_table(rows, plan, keys, x, by, stage=shared, beta=beta, bootstrap=bootstrap).lazy
        table = table.sort(list(by), nulls_last=True) if by else table
        # The bootstrap's replicate columns must be streamed in batches: in memory they would be rows x replicates.
        return table.collect(optimizations=NO_SHARED_SCANS, engine="streaming" if plan.bootstrapped else "auto")

    def checks(self, plan: Plan, columns: Mapping[str, pl.Expr], by: tuple[str, ...], drop: bool) -> pl.DataFrame:
        rows = PolarsFrame(canonical_frame(self.opened, plan, columns, by, drop_nulls=drop))
        return stages.checks_table(rows, plan, group_keys(by), plan_rows(plan, group_means=True)).collect()

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
        min_rows: int | None = None,
    ) -> pl.DataFrame:
        frames = []
        for i, groups in enumerate(_levels(by, level)):
            rows = PolarsFrame(canonical_frame(self.opened, plan, columns, groups, drop_nulls=drop))
            shared = None if stage is None else PolarsFrame(stage[i])
            drops = drop_intermediate and stage is None
            x = plan_rows(plan)
            table = curve_table(rows, plan, groups, x, curve, drops, max_points, stage=shared, min_rows=min_rows)
            frames.append(_ordered(table))
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
        x, bins = plan_rows(plan), []
        for groups in _levels(by, level):
            rows = PolarsFrame(canonical_frame(self.opened, plan, columns, groups, drop_nulls=drop))
            binned = calibration_bins(rows, x, group_keys(groups), groups, n_bins)
            bins.append(binned.lazy.sort([*groups, "bin"], nulls_last=True))
        return _joined(pl.collect_all(bins, optimizations=NO_SHARED_SCANS), by, level)

    def stage_calibration(
        self, stage: list[pl.LazyFrame], by: tuple[str, ...], level: str, n_bins: int
    ) -> pl.DataFrame:
        bins = []
        for frame, groups in zip(stage, _levels(by, level), strict=True):  # all rows, then per group
            binned = stage_bins(PolarsFrame(frame), group_keys(groups), groups, n_bins)
            bins.append(binned.lazy.sort([*groups, "bin"], nulls_last=True))
        return _joined(pl.collect_all(bins, optimizations=NO_SHARED_SCANS), by, level)

    def paired(
        self, plan: Plan, columns: Mapping[str, pl.Expr], by: tuple[str, ...], drop: bool, z: float
    ) -> pl.DataFrame:
        scored = {role: value for role, value in columns.items() if role != "y_score_2"}
        second = {"y_score_2": columns["y_score_2"]}
        data = PolarsFrame(canonical_frame(self.opened, plan, scored, by, drop_nulls=drop, extra=second))
        counts = check_counts(plan.checks, POLARS, plan.pos_label, plan.neg_label)
        return paired_test(data, group_keys(by), by, plan_rows(plan), counts, z).collect()

    def multiclass(self, request: Any) -> pl.DataFrame:
        plan, by = request.plan, request.by
        data = self._class_input(request)
        if plan.bootstrapped:  # the replicates' cells are streamed, a batch of rows at a time
            return _sorted(bootstrap_table(data, plan, by), streaming=True)
        # Without the ranking stages the shared subplans are small (the confusion cells): cache them.
        flags = NO_SHARED_SCANS if CURVE_STAGES & plan.stages else pl.QueryOptFlags()
        return _sorted(classes.metrics_table(data, plan, by), flags)

    def class_checks(self, request: Any) -> pl.DataFrame:
        return _sorted(classes.checks_table(self._class_input(request), request.plan, request.by))

    def class_curve(self, curve: Curve, request: Any, drop_intermediate: bool, max_points: int | None) -> pl.DataFrame:
        data = self._class_input(request)
        return _sorted(classes.class_curve_table(data, request.plan, request.by, curve, drop_intermediate, max_points))

    def class_table(self, kind: str, request: Any) -> pl.DataFrame:
        return _sorted(_CLASS_TABLES[kind](self._class_input(request), request.plan, request.by))

    def _class_input(self, request: Any) -> PolarsFrame:
        """``fm_input`` of a multiclass ``request``: its rows without those holding a null where it drops them."""
        raw = PolarsFrame(request.polars_input(self.opened))
        keys = group_keys(request.by)
        required = [c for c in raw.columns if c not in keys] if request.drop_nulls else []
        return classes.input_stage(raw, request.plan, required)


def _sorted(table: Table, flags: pl.QueryOptFlags | None = None, *, streaming: bool = False) -> pl.DataFrame:
    """The rows of ``table``, computed (``streaming``: a batch at a time)."""
    if streaming:
        return _ordered(table).collect(engine="streaming")
    return _ordered(table).collect(optimizations=flags or pl.QueryOptFlags())


def _ordered(table: Table) -> pl.LazyFrame:
    """The rows of ``table`` in its order (nulls last), without its hidden columns."""
    lazy = table.frame.lazy
    if table.order:
        descending = [name in table.descending for name in table.order]
        lazy = lazy.sort(list(table.order), descending=descending, nulls_last=True)
    return lazy.drop(table.hidden).rename(dict(table.names))


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
