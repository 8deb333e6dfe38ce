"""What every engine does, by the same names: :class:`Backend`.

An entry point opens its source once (:func:`framemetrics.engines.open_engine`)
and asks the engine for the source's column kinds, the rows holding a null,
each input role's expression, and the results of a plan: its metrics with
the input checks' counts, the checks alone, calibration bins, the paired
test, the multiclass tables. Each engine lowers these its own way
(:mod:`framemetrics.engines.polars`, :mod:`framemetrics.engines.sql`); no
entry point asks which engine it holds.
"""

from __future__ import annotations

from abc import ABC, abstractmethod
from collections.abc import Mapping, Sequence
from contextlib import AbstractContextManager
from typing import Any

import polars as pl

from framemetrics.core.curves import Curve
from framemetrics.core.frame import Frame
from framemetrics.core.namespace import Namespace
from framemetrics.core.plan import Plan

__all__ = ["Backend", "Tables"]

Expr = Any


class Backend(ABC):
    """A source opened on one engine, and what a plan computes there.

    Every method returning rows returns a Polars frame: one row per group
    (the group columns under the user's names), unsorted unless it says so.
    ``columns`` maps each input role to its expression over the source
    (:meth:`column` and :attr:`ns`), ``by`` names the group columns and
    ``drop`` drops the rows with a null in a used column first. With
    ``level`` (a column name), :meth:`shared_stage`, :meth:`metrics`,
    :meth:`curve` and :meth:`calibration` give two levels at once, SQL's
    grouping sets: all rows (``level`` 0, the group columns null) and per
    group (1), the ``level`` column first.

    Examples
    --------
    >>> import polars as pl
    >>> from framemetrics.engines import open_engine
    >>> with open_engine(pl.DataFrame({"y": [1, None]}), "duckdb") as engine:
    ...     engine.kinds(), engine.null_rows(["y"])
    ({'y': 'numeric'}, 1)
    """

    name: str
    ns: Namespace
    opened: Any  # the source as the engine reads it (a LazyFrame, a DuckDB or Spark source)

    @abstractmethod
    def kinds(self) -> dict[str, str]:
        """Each column's coarse kind: numeric, bool, string, null (all null) or other."""

    @abstractmethod
    def dtypes(self, used: Sequence[str]) -> dict[str, pl.DataType]:
        """Each column's Polars type; where the engine would have to read data for it, only the ``used``
        columns' (the others ``Unknown``)."""

    @abstractmethod
    def null_rows(self, columns: Sequence[str]) -> int:
        """The number of rows with a null in any of ``columns``."""

    @abstractmethod
    def column(self, name: str) -> Expr:
        """The user's column ``name`` as an expression of :attr:`ns`."""

    @abstractmethod
    def frame(self, columns: Mapping[str, str]) -> Frame:
        """The source's ``columns`` (``{stage name: user's column}``) as a :class:`~framemetrics.core.frame.Frame`."""

    @abstractmethod
    def run(self, frame: Frame) -> pl.DataFrame:
        """The rows of ``frame`` (built from :meth:`frame`), computed."""

    @abstractmethod
    def shared_stage(
        self, plan: Plan, columns: Mapping[str, Expr], by: tuple[str, ...], drop: bool, level: str | None = None
    ) -> AbstractContextManager[Any]:
        """The scores' curve stage per group, computed once while in the context, for :meth:`metrics` and
        :meth:`curve` (``stage=``) to read in place of sorting the scores again."""

    @abstractmethod
    def metrics(
        self,
        plan: Plan,
        columns: Mapping[str, Expr],
        by: tuple[str, ...],
        drop: bool,
        stage: Any = None,
        level: str | None = None,
        all_rows: bool = False,
    ) -> pl.DataFrame:
        """``n_rows``, the plan's outputs and its check counts per group (from a :meth:`shared_stage`); with
        ``all_rows`` (a plan that :func:`~framemetrics.stages.statistics.rolls_up`, with ``level``), the rows read
        once, at the segments' level, and all rows' statistics summed from theirs."""

    @abstractmethod
    def checks(self, plan: Plan, columns: Mapping[str, Expr], by: tuple[str, ...], drop: bool) -> pl.DataFrame:
        """``n_rows`` and the plan's check counts per group."""

    @abstractmethod
    def curve(
        self,
        curve: Curve,
        plan: Plan,
        columns: Mapping[str, Expr],
        by: tuple[str, ...],
        drop: bool,
        drop_intermediate: bool,
        max_points: int | None,
        stage: Any = None,
        level: str | None = None,
        min_rows: int | None = None,
    ) -> pl.DataFrame:
        """The points of ``curve`` per group of valid rows (:mod:`framemetrics.core.curves`), sorted by group
        and threshold; from a :meth:`shared_stage`, every point (``drop_intermediate`` False), with ``min_rows``
        of the groups of at least that many rows alone."""

    @abstractmethod
    def calibration(
        self,
        plan: Plan,
        columns: Mapping[str, Expr],
        by: tuple[str, ...],
        drop: bool,
        n_bins: int,
        level: str | None = None,
    ) -> pl.DataFrame:
        """The calibration bins per group (:mod:`framemetrics.core.calibration`), sorted by group and bin."""

    @abstractmethod
    def stage_calibration(self, stage: Any, by: tuple[str, ...], level: str, n_bins: int) -> pl.DataFrame:
        """The calibration bins of :meth:`calibration` from a :meth:`shared_stage` made with the same ``by`` and
        ``level``, every level of it, without reading the rows again (:func:`~framemetrics.stages.calibration.stage_bins`)."""

    @abstractmethod
    def paired(
        self, plan: Plan, columns: Mapping[str, Expr], by: tuple[str, ...], drop: bool, z: float
    ) -> pl.DataFrame:
        """DeLong's paired test of ``y_score`` against ``y_score_2`` per group, with the check counts."""

    @abstractmethod
    def multiclass(self, request: Any) -> pl.DataFrame:
        """The multiclass metrics of ``request`` (:mod:`framemetrics.multiclass.api`) with the check counts."""

    @abstractmethod
    def class_checks(self, request: Any) -> pl.DataFrame:
        """The check counts per group of a multiclass ``request``."""

    @abstractmethod
    def class_curve(self, curve: Curve, request: Any, drop_intermediate: bool, max_points: int | None) -> pl.DataFrame:
        """The one-vs-rest points of ``curve`` per group (``fm_g0``...) and ``column_index`` of ``request``."""

    @abstractmethod
    def class_table(self, kind: str, request: Any) -> pl.DataFrame:
        """The class report, class table or confusion matrix (``kind``) of ``request``, with check counts."""

    def close(self) -> None:
        """Release what opening the source took (a registered table, a connection)."""


class Tables(ABC):
    """Several sources read on one engine as frames, one program over them run there (object detection).

    :meth:`open` reads a source's column names, :meth:`frame` gives the
    source opened last as a :class:`~framemetrics.core.frame.Frame`; the
    frames of one engine combine (joins), and :meth:`run` computes one.

    Examples
    --------
    >>> from framemetrics.engines import open_tables
    >>> import polars as pl
    >>> tables = open_tables("duckdb")
    >>> tables.open(pl.DataFrame({"Id": [2, 1]}))
    ['Id']
    >>> f = tables.frame({"id": "Id"})
    >>> tables.run(f.aggregate([], {"n": f.ns.count_rows()})).item()
    2
    >>> tables.close()
    """

    @abstractmethod
    def open(self, source: Any) -> list[str]:
        """Open ``source``; its column names."""

    @abstractmethod
    def frame(self, columns: Mapping[str, str]) -> Frame:
        """The source opened last, its ``columns`` (``{stage name: user's column}``) renamed."""

    @abstractmethod
    def run(self, frame: Frame) -> pl.DataFrame:
        """The rows of ``frame``."""

    def close(self) -> None:
        """Drop what was registered."""
