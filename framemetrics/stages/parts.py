"""The tables of a plan's parts joined into one: a row per group, each column from the part that computes it.

A plan whose calls need several values of a parameter of the statistics
(``roc_auc_score(max_fpr=0.1)`` and ``roc_auc_score(max_fpr=0.2)``) is split
into parts (:attr:`framemetrics.core.plan.Plan.parts`), one per set of values;
each part's table is computed by the plan's own stage, and this stage joins
them by group (null keys match), so that every engine gives one table.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

from framemetrics.core.frame import Frame
from framemetrics.core.plan import Plan

__all__ = ["by_parts", "joined_parts"]


def by_parts(plan: Plan, table: Callable[[Plan], Frame], keys: Sequence[str], columns: Sequence[str]) -> Frame:
    """``table`` of ``plan`` (one row per group of ``keys``); for a plan of parts, each part's table joined by group
    (:func:`joined_parts`), holding the keys and ``columns``.

    Examples
    --------
    >>> from framemetrics.compilers.polars.frame import PolarsFrame
    >>> from framemetrics.core.plan import make_plan
    >>> plan = make_plan(["mean_pinball_loss(alpha=0.1)", "mean_pinball_loss(alpha=0.9)"], task="regression",
    ...                  weighted=False)
    >>> def alphas(part): return PolarsFrame.values({"n_rows": [4], part.calls[0].name: [part.alpha]})
    >>> by_parts(plan, alphas, [], ["n_rows", *plan.output_columns]).collect().rows()
    [(4, 0.1, 0.9)]
    """
    if not plan.parts:
        return table(plan)
    return joined_parts([table(part) for part in plan.parts], keys, columns)


def joined_parts(tables: Sequence[Frame], keys: Sequence[str], columns: Sequence[str]) -> Frame:
    """One row per group of the ``tables`` (each one row per group, the group columns ``keys``): the keys, then
    ``columns`` in order, each read from the first table holding it.

    Examples
    --------
    >>> from framemetrics.compilers.polars.frame import PolarsFrame
    >>> a = PolarsFrame.values({"g": [1, None], "n_rows": [2, 3], "x": [0.5, 0.25]})
    >>> b = PolarsFrame.values({"g": [None, 1], "n_rows": [3, 2], "y": [1.0, 0.0]})
    >>> joined_parts([a, b], ["g"], ["n_rows", "x", "y"]).collect().sort("g").rows()
    [(None, 3, 0.25, 1.0), (1, 2, 0.5, 0.0)]
    """
    ns = tables[0].ns
    source = {}
    joined = None
    for i, table in enumerate(tables):
        own = [c for c in table.columns if c not in keys and c in columns and c not in source]
        source |= {c: f"fm_part{i}_{c}" for c in own}
        table = table.select({k: ns.col(k) for k in keys} | {source[c]: ns.col(c) for c in own})
        if joined is None:
            joined = table
        else:
            joined = joined.join(table, keys, nulls_equal=True) if keys else joined.join(table, [], "cross")
    assert joined is not None and set(columns) <= set(source), "every column comes from a part"
    return joined.select({k: ns.col(k) for k in keys} | {c: ns.col(source[c]) for c in columns}).named("fm_parts")
