"""The counting stage of confusion cells (:mod:`framemetrics.core.cells`), written once on a frame.

Level 1, :func:`cells`: per group and cell (``y_true``, ``y_pred``), the
rows, the weight and the sums the request needs. Level 2,
:func:`cell_statistics`: per group, the cells' totals and the confusion
statistics read from them.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from framemetrics.core import cells as counting
from framemetrics.core.frame import Frame
from framemetrics.core.statistics import STATISTICS, Rows

__all__ = ["cell_statistics", "cells", "with_all_rows"]

Expr = Any


def cells(
    rows: Frame, keys: Sequence[str], x: Rows, sums: Mapping[str, Expr], classes: Sequence[str] = counting.CLASSES
) -> Frame:
    """Level 1: per group and cell of ``classes``, ``n_rows``, ``weight`` and the aggregates ``sums``.

    Examples
    --------
    >>> from framemetrics.compilers.polars.frame import PolarsFrame
    >>> f = PolarsFrame.values({"y_true": [0, 1, 1], "y_pred": [1, 1, 1], "w": [1.0, 2.0, 3.0]})
    >>> c = f.ns.col
    >>> x = Rows(c("y_true"), c("y_pred"), None, c("w"), pos_label=1, neg_label=0, alpha=0.5, max_fpr=1.0)
    >>> cells(f, [], x, {}).collect().sort("y_true").rows()
    [(0, 1, 1, 1.0), (1, 1, 2, 5.0)]
    """
    return rows.aggregate([*keys, *classes], counting.cell_sums(rows.ns, x, sums))


def with_all_rows(cells: Frame, keys: Sequence[str], classes: Sequence[str] = counting.CLASSES) -> Frame:
    """The ``cells`` of the groups of ``keys[1:]``, every one at the level ``keys[0]`` = 1, and the cells of all
    rows at ``keys[0]`` = 0 (the other keys null), summed from the groups' in the same aggregate: every column of
    a cell (rows, weight, sums, check counts) is a sum over its rows, so all rows' cells need no second read.

    Examples
    --------
    >>> from framemetrics.compilers.polars.frame import PolarsFrame
    >>> f = PolarsFrame.values({"fm_g0": [1, 1], "fm_g1": ["a", "b"], "y_true": [1, 1], "y_pred": [1, 1],
    ...                         "n_rows": [2, 3], "weight": [2.0, 4.0]})
    >>> with_all_rows(f, ["fm_g0", "fm_g1"]).collect().sort("fm_g0", "fm_g1").rows()
    [(0, None, 1, 1, 5, 6.0), (1, 'a', 1, 1, 2, 2.0), (1, 'b', 1, 1, 3, 4.0)]
    """
    ns = cells.ns
    values = [c for c in cells.columns if c not in (*keys, *classes)]
    sets = [[*keys, *classes], list(classes)]
    summed = cells.aggregate_sets(sets, {c: ns.sum(ns.col(c)) for c in values})
    level = {keys[0]: ns.coalesce(ns.col(keys[0]), ns.lit(0))}  # the level is never null in a group's row
    return summed.select(level | {c: ns.col(c) for c in [*keys[1:], *classes, *values]})


def cell_statistics(cells: Frame, keys: Sequence[str], x: Rows, statistics: Sequence[str]) -> Frame:
    """Level 2 for a binary plan: per group, the totals of the cells' columns and the confusion ``statistics``.

    Examples
    --------
    >>> from framemetrics.compilers.polars.frame import PolarsFrame
    >>> f = PolarsFrame.values({"g": ["a", "a", "b"], "y_true": [0, 1, 1], "y_pred": [1, 1, 1], "w": [1.0, 2.0, 3.0]})
    >>> c = f.ns.col
    >>> x = Rows(c("y_true"), c("y_pred"), None, c("w"), pos_label=1, neg_label=0, alpha=0.5, max_fpr=1.0)
    >>> cell_statistics(cells(f, ["g"], x, {}), ["g"], x, ("n_rows", "tp", "fp")).collect().sort("g").rows()
    [('a', 2, 2.0, 1.0), ('b', 1, 3.0, 0.0)]
    """
    ns = cells.ns
    names = [n for n in cells.columns if n not in (*keys, *counting.CLASSES, "weight")]
    totals = counting.cell_totals(ns, names)
    counted = counting.cell_rows(ns, x)
    totals |= {s: STATISTICS[s].build(ns, counted) for s in statistics if STATISTICS[s].counted == "cell"}
    return cells.aggregate(keys, totals)
