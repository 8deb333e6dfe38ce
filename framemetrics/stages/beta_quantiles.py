"""The Beta quantiles of a plan's intervals, written once on a frame: every group's quantiles in one set of stages.

The parameters of every quantile (:meth:`~framemetrics.core.plan.Plan.beta_quantiles`:
both bounds of each Clopper-Pearson interval) are laid out as rows, one per
group and quantile (``fm_j``: the groups crossed with the quantiles'
numbers), so that the stages of :func:`~framemetrics.core.beta.beta_quantile_stages`
are written once whatever the number of quantiles; each stage is one step
kept apart (:meth:`~framemetrics.core.frame.Frame.named_deep`), and the
quantiles come back side by side as the columns ``fm_q<j>`` per group.
"""

from __future__ import annotations

from collections.abc import Sequence
from functools import cache
from typing import Any

from framemetrics.core.beta import BETA_INPUTS, BETA_QUANTILE, beta_quantile_stages
from framemetrics.core.frame import Frame
from framemetrics.core.namespace import Namespace

__all__ = ["beta_quantiles"]

Expr = Any


@cache
def _stages(ns: Namespace, p: float) -> tuple[dict[str, Expr], ...]:
    """The stages' new columns at ``p``, built once per namespace (building SQL's trees takes seconds; a frame's
    step copies them)."""
    columns = {name: ns.col(name) for name in BETA_INPUTS}
    stages = []
    for stage in beta_quantile_stages(p):
        new = stage(ns, columns)
        stages.append(new)
        columns |= {name: ns.col(name) for name in new}
    return tuple(stages)


def beta_quantiles(stats: Frame, keys: Sequence[str], pairs: Sequence[tuple[Expr, Expr]], p: float) -> Frame:
    """Per group of ``stats``, the quantile at ``p`` of each Beta ``(a, b)`` of ``pairs``: the columns ``fm_q<j>``.

    Parameters
    ----------
    stats : Frame
        One row per group: the group columns ``keys`` and the columns ``pairs`` read.
    keys : sequence of str
        Group columns.
    pairs : sequence of (expression, expression)
        The shapes ``(a, b)`` of each quantile, over the columns of ``stats``.
    p : float
        The probability of every quantile.

    Returns
    -------
    Frame
        The group columns and ``fm_q0, fm_q1...``, one row per group, in no order.

    Examples
    --------
    >>> from framemetrics.compilers.polars.frame import PolarsFrame
    >>> stats = PolarsFrame.values({"g": [1, 2], "k": [3.0, 1.0]})
    >>> out = beta_quantiles(stats, ["g"], [(stats.ns.col("k"), stats.ns.lit(2.0))], 0.5).collect().sort("g")
    >>> [round(q, 6) for q in out["fm_q0"]]
    [0.614272, 0.292893]
    """
    ns, number = stats.ns, stats.ns.col("fm_j")
    shapes = {f"fm_shape_{k}_{j}": pair[k] for j, pair in enumerate(pairs) for k in (0, 1)}
    laid = stats.select({**{key: ns.col(key) for key in keys}, **shapes})
    ids = stats.constant({"fm_j": list(range(len(pairs)))})

    def of(j: int) -> Expr:  # the row holds quantile j
        return ns.eq(number, ns.lit(j))

    def picked(k: int) -> Expr:
        return ns.case([(of(j), ns.col(f"fm_shape_{k}_{j}")) for j in range(len(pairs))], ns.null())

    inputs = {**{key: ns.col(key) for key in keys}, "fm_j": number}
    rows = laid.join(ids, [], "cross").select(inputs | {name: picked(k) for k, name in enumerate(BETA_INPUTS)})
    rows, carried = rows.named("fm_beta_input"), [*inputs, *BETA_INPUTS]
    for k, new in enumerate(_stages(ns, p)):  # the columns carried by name: no engine resolves a deep schema
        kept = {name: ns.col(name) for name in carried if name not in new}
        rows, carried = rows.select(kept | new).named_deep(f"fm_beta_{k}"), [*kept, *new]
    quantile = ns.col(BETA_QUANTILE)
    pivoted = {f"fm_q{j}": ns.max(ns.when(of(j), quantile).otherwise(ns.null())) for j in range(len(pairs))}
    return rows.aggregate(keys, pivoted)
