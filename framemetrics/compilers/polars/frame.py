"""The :class:`~framemetrics.core.frame.Frame` of Polars: a ``LazyFrame`` built step by step."""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import replace
from functools import cached_property
from typing import Any

import polars as pl

from framemetrics.compilers.polars.expressions import curve_statistic
from framemetrics.compilers.polars.namespace import POLARS
from framemetrics.core.frame import Frame, Running
from framemetrics.core.multiclass import RANK_STATISTICS
from framemetrics.core.statistics import STATISTICS, CurvePoints, Rows, negative_weight, positive_weight, roc_gap
from framemetrics.core.turns import turn_done

__all__ = ["PolarsFrame"]


class PolarsFrame(Frame):
    """A Polars ``LazyFrame`` as a :class:`~framemetrics.core.frame.Frame`.

    Examples
    --------
    >>> f = PolarsFrame.values({"x": [1.0, 2.0]})
    >>> f.with_columns(y=f.ns.col("x") * 2).collect()["y"].to_list()
    [2.0, 4.0]
    """

    ns = POLARS

    def __init__(self, lazy: pl.LazyFrame) -> None:
        self.lazy = lazy

    @cached_property
    def columns(self) -> tuple[str, ...]:  # type: ignore[override]
        """The column names, resolved when first read (resolving a plan's schema costs time at every step)."""
        return tuple(self.lazy.collect_schema().names())

    @classmethod
    def values(cls, columns: Mapping[str, Sequence[Any]]) -> PolarsFrame:
        """Constant rows, one list per column (floats as Float64, integers as Int64)."""
        return cls(pl.LazyFrame({name: _series(name, values) for name, values in columns.items()}))

    def constant(self, columns: Mapping[str, Sequence[Any]]) -> PolarsFrame:
        return PolarsFrame.values(columns)

    def collect(self) -> pl.DataFrame:
        """The rows, computed."""
        return self.lazy.collect()

    def select(self, columns: Mapping[str, Any]) -> PolarsFrame:
        return PolarsFrame(self.lazy.select(**columns))

    def with_first(
        self, name: str, partition: Sequence[str], order: Sequence[pl.Expr], eligible: pl.Expr
    ) -> PolarsFrame:
        """One plain window per key of ``order`` (the least value among the rows still running), no sort.

        3-4x faster in Polars than a row number over an ordered window.
        """
        lazy = self.lazy.with_columns(fm_first=eligible.fill_null(False))
        for key in order:
            least = POLARS.window("min", pl.when(pl.col("fm_first")).then(key), partition)
            lazy = lazy.with_columns(fm_first=pl.col("fm_first") & (key == least).fill_null(False))
        return PolarsFrame(lazy.rename({"fm_first": name}))

    def rename(self, names: Mapping[str, str]) -> PolarsFrame:
        return PolarsFrame(self.lazy.rename(dict(names)))

    def filter(self, condition: pl.Expr) -> PolarsFrame:
        return PolarsFrame(self.lazy.filter(condition))

    def with_firsts(self, name: str, partition: Sequence[str], orders: Mapping[str, Sequence[pl.Expr]]) -> PolarsFrame:
        """One plain window per key of each order (the least value among the rows still running), no join:
        a round per key, every order's window of that round in one step.
        """
        lazy = self.lazy
        for depth in range(max(len(order) for order in orders.values())):
            reached = {}
            for flag, order in orders.items():
                if depth < len(order):
                    key = order[depth]
                    least = POLARS.window("min", pl.when(pl.col(flag)).then(key) if depth else key, partition)
                    reached[flag] = (key == least).fill_null(False) & (pl.col(flag) if depth else True)
            lazy = lazy.with_columns(**reached)
        return PolarsFrame(lazy)

    def join(self, other: Frame, on: Sequence[str], how: str = "inner", *, nulls_equal: bool = False) -> PolarsFrame:
        self._check_join(other, on)
        assert isinstance(other, PolarsFrame)
        if how == "cross":
            return PolarsFrame(self.lazy.join(other.lazy, how="cross"))
        joined = self.lazy.join(other.lazy, on=list(on), how=how, coalesce=True, nulls_equal=nulls_equal)
        return PolarsFrame(joined)

    def aggregate(self, keys: Sequence[str], aggregates: Mapping[str, Any]) -> PolarsFrame:
        if not keys:
            return PolarsFrame(self.lazy.select(**aggregates))
        return PolarsFrame(self.lazy.group_by(list(keys)).agg(**aggregates))

    def aggregate_sets(self, sets: Sequence[Sequence[str]], aggregates: Mapping[str, Any]) -> PolarsFrame:
        """Each set's aggregate, the missing keys filled with nulls of their type (a diagonal concatenation); the
        rows computed once for every set (``cache``: the queries run without common-subplan elimination)."""
        keys = list(dict.fromkeys(k for keys in sets for k in keys))
        rows = PolarsFrame(self.lazy.cache())
        parts = [rows.aggregate(keys_, aggregates).lazy for keys_ in sets]
        return PolarsFrame(pl.concat(parts, how="diagonal_relaxed").select(*keys, *aggregates))

    def concat(self, other: Frame) -> PolarsFrame:
        assert isinstance(other, PolarsFrame)
        return PolarsFrame(pl.concat([self.lazy, other.lazy.select(self.columns)], how="vertical_relaxed"))

    def in_turn(self, others: Sequence[Frame]) -> PolarsFrame:
        """Each frame collected before the next is started: the memory of one at a time."""
        parts: list[pl.DataFrame] = []
        frames = [self, *others]
        for frame in frames:
            assert isinstance(frame, PolarsFrame)
            parts.append(frame.lazy.select(self.columns).collect())
            turn_done(len(parts), len(frames))
        return PolarsFrame(pl.concat(parts, how="vertical_relaxed").lazy())

    def fixpoint(self, step: Callable[[PolarsFrame], PolarsFrame]) -> PolarsFrame:
        """Each step computed before the next (a loop over steps, never over groups)."""
        rounds, current = [], self.collect()
        while current.height:
            rounds.append(current)
            current = step(PolarsFrame(current.lazy())).collect()
        return PolarsFrame(pl.concat(rounds, how="vertical_relaxed").lazy() if rounds else current.lazy())

    def with_types_of(self, other: Frame, columns: Mapping[str, str]) -> PolarsFrame:
        """Each column cast to the Polars type of ``other``'s column (Polars joins no Int32 key to an Int64 one)."""
        assert isinstance(other, PolarsFrame)
        schema = other.lazy.collect_schema()
        return PolarsFrame(self.lazy.with_columns(pl.col(n).cast(schema[o]) for n, o in columns.items()))

    def class_ranking_sums(self, keys: Sequence[str], n_scores: int) -> PolarsFrame:
        """Every class's curve stage from one pass over these rows (:func:`_sorted_scores`), no unpivot."""
        previous = any(STATISTICS[s].previous for s in RANK_STATISTICS)
        points = _points()
        per_class = []
        for j, curve in enumerate(_sorted_scores(self.lazy, list(keys), n_scores, previous=previous)):
            sums = [curve_statistic(s, points).alias(s) for s in RANK_STATISTICS]
            per_class.append(_grouped(curve, list(keys), sums).with_columns(column_index=pl.lit(j, dtype=pl.Int64)))
        return PolarsFrame(pl.concat(per_class).select(*keys, "column_index", *RANK_STATISTICS))

    def running(self, partition: Sequence[str], order: str, values: Running) -> PolarsFrame:
        """One sort on ``order`` alone, then plain windows over the partition (which keep each partition's
        rows in frame order): a multi-key sort (partition, order) measured 1.3-1.4x slower for the whole AUC."""
        c = pl.col
        columns = {name: c(column).cum_sum() for name, column in values.sums.items()}
        # The total is the last running sum, so a curve ends exactly at it (a perfect ranking's KS is 1.0).
        columns |= {name: c(column).cum_sum().last() for name, column in values.totals.items()}
        columns |= {name: c(column).cum_sum().shift(1, fill_value=0.0) for name, column in values.before.items()}
        columns |= {name: c(column).shift(-1) for name, column in values.following.items()}
        if values.first is not None:
            columns[values.first] = pl.int_range(pl.len()) == 0
        ordered = self.lazy.sort(order, descending=True, nulls_last=True)
        windows = {name: value.over(list(partition)) if partition else value for name, value in columns.items()}
        return PolarsFrame(ordered.with_columns(**windows))

    def lay_out(
        self, name: str, numbers: Sequence[int], columns: Mapping[str, Sequence[pl.Expr]], keep: Sequence[str]
    ) -> PolarsFrame:
        """Each column's expressions as a list, exploded (no join, no choice by number)."""
        listed = {out: pl.concat_list(values) for out, values in columns.items()}
        number = pl.lit(pl.Series([list(numbers)], dtype=pl.List(pl.Int64))).alias(name)
        return PolarsFrame(self.lazy.select(*keep, number, **listed).explode([name, *columns]))


def _ranked(y_true: pl.Expr, y_score: str) -> Rows:
    """The curve stage's rows of one ranking: ``y_true`` (a predicate) positive, scored by ``y_score``."""
    return Rows(y_true=y_true, y_pred=None, y_score=pl.col(y_score), sample_weight=pl.col("sample_weight"),
                pos_label=pl.lit(True), neg_label=pl.lit(False), alpha=None, max_fpr=1.0)  # fmt: skip


def _grouped(frame: pl.LazyFrame, keys: list[str], aggregations: list[pl.Expr]) -> pl.LazyFrame:
    """``aggregations`` per group of ``keys`` (the whole frame without keys)."""
    return frame.group_by(keys).agg(aggregations) if keys else frame.select(aggregations)


def _sorted_scores(rows: pl.LazyFrame, keys: list[str], n_scores: int, *, previous: bool) -> list[pl.LazyFrame]:
    """The curve stage of each score ``s_j`` (class ``j`` positive: ``true_index = j``) over the same rows,
    sorted in one pass: per score, one row per group and distinct score.

    Each group's rows are sorted by every score inside one ``group_by`` (a
    list of ``(y_score, pw, nw)`` per group and score, then exploded) and the
    running sums taken over the sorted rows (:func:`_running`): one pass over
    the input, no unpivot, no hash of (group, score). Ten classes at 1e7 rows
    and 1e2 groups: 14 s, against 50 s for the unpivoted rows through the
    stage's own curve stage.
    """
    structs = []
    for j in range(n_scores):
        x = _ranked(pl.col("true_index") == j, f"s_{j}")
        score = x.y_score.cast(pl.Float64)
        weights = {"pw": positive_weight(POLARS, x), "nw": negative_weight(POLARS, x)}
        fields = pl.struct(score.alias("y_score"), *(w.alias(n) for n, w in weights.items()))
        structs.append(fields.sort_by(score, descending=True, nulls_last=True).alias(f"fm_curve_{j}"))
    lists = _grouped(rows, keys, structs)
    if keys:
        lists = lists.with_columns(fm_group=pl.int_range(pl.len()))
    # Every curve reads the sorted lists: computed once (the engine's subplan sharing may be off).
    lists = lists.cache() if n_scores > 1 else lists
    stages = []
    for j in range(n_scores):
        scored = lists.select(*keys, *(["fm_group"] if keys else []), f"fm_curve_{j}")
        scored = scored.explode(f"fm_curve_{j}") if keys else scored
        stages.append(_running(scored.unnest(f"fm_curve_{j}"), keys, previous=previous))
    return stages


_TOTALS = ("pos_total", "neg_total")


def _running(rows: pl.LazyFrame, keys: list[str], *, previous: bool) -> pl.LazyFrame:
    """The curve stage's points from each group's rows by decreasing score (``y_score, pw, nw``, totals).

    The running sums of the weights at the last row of each run of equal
    scores are ``tp, fp``; the points are those rows, their weights the
    differences of consecutive running sums (``pw = tp - tp_prev``, as
    scikit-learn's ``_binary_clf_curve`` takes them; exactly 0 where a score
    has no positive weight). A group is a run of ``fm_group`` (no keys: one).
    """
    group = pl.col("fm_group")
    sums = {"pw": "tp", "nw": "fp"}

    def changes(column: pl.Expr, step: int) -> pl.Expr:
        return column.ne_missing(column.shift(step)).fill_null(True)

    running = {name: pl.col(w).cum_sum() for w, name in sums.items()}
    totals = {total: s.last() for total, s in zip(_TOTALS, running.values(), strict=True)}  # where the curve ends
    windows = running | totals
    rows = rows.with_columns(**{name: s.over("fm_group") if keys else s for name, s in windows.items()})
    last_of_run = changes(pl.col("y_score"), -1)
    rows = rows.filter(last_of_run | changes(group, -1) if keys else last_of_run)
    first = changes(group, 1) if keys else pl.int_range(pl.len()) == 0
    before = {f"{name}_prev": pl.when(first).then(0.0).otherwise(pl.col(name).shift(1)) for name in sums.values()}
    rows = rows.with_columns(**before).with_columns(**{w: pl.col(t) - pl.col(f"{t}_prev") for w, t in sums.items()})
    columns = [*keys, "y_score", *sums, *sums.values(), *_TOTALS]
    return rows.select(*columns, *([f"{name}_prev" for name in sums.values()] if previous else []))


def _points() -> CurvePoints:
    """The points of a curve stage's frame as its columns, ``gap_max`` read within the group."""
    columns = {name: pl.col(name) for name in ("y_score", "pw", "nw", "tp", "fp", "tp_prev", "fp_prev", *_TOTALS)}
    points = CurvePoints(**columns, gap_max=None, max_fpr=1.0, alpha=0.5)
    return replace(points, gap_max=roc_gap(POLARS, points).max())


def _series(name: str, values: Sequence[Any]) -> pl.Series:
    kinds = {type(v) for v in values}
    dtype = pl.Float64 if float in kinds else pl.Int64 if kinds <= {int} else None
    return pl.Series(name, list(values), dtype=dtype)
