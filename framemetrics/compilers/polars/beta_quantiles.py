"""The Beta quantiles of a plan's intervals in Polars: every group's quantiles in one set of stages, over rows.

The parameters of every quantile (:meth:`~framemetrics.core.plan.Plan.beta_quantiles`:
both bounds of each Clopper-Pearson interval) are laid out as rows, one per
group and quantile (``fm_j``), so that the stages of
:func:`~framemetrics.core.beta.beta_quantile_stages` are written once
whatever the number of quantiles; each stage is one ``with_columns``, and
the quantiles come back as the columns ``fm_q<j>`` per group. The SQL is
:mod:`framemetrics.compilers.sql.beta_quantiles`.
"""

from __future__ import annotations

from typing import Any

import polars as pl

from framemetrics.compilers.polars.namespace import POLARS
from framemetrics.compilers.polars.stages import grouped
from framemetrics.core.beta import BETA_INPUTS, BETA_QUANTILE, beta_quantile_stages

__all__ = ["beta_quantile_frame"]


def beta_quantile_frame(stats: pl.LazyFrame, keys: list[str], pairs: list[tuple[Any, Any]], p: float) -> pl.LazyFrame:
    """Per group of ``stats``, the quantile at ``p`` of each Beta ``(a, b)`` of ``pairs``: the columns ``fm_q<j>``.

    Examples
    --------
    >>> stats = pl.LazyFrame({"fm_g0": ["x", "y"], "k": [3.0, 1.0]})
    >>> out = beta_quantile_frame(stats, ["fm_g0"], [(pl.col("k"), pl.lit(2.0))], 0.5).sort("fm_g0").collect()
    >>> [round(q, 6) for q in out["fm_q0"]]
    [0.614272, 0.292893]
    """
    a, b = BETA_INPUTS
    parts = [
        stats.select(*keys, pl.lit(j, dtype=pl.Int64).alias("fm_j"), shape_a.alias(a), shape_b.alias(b))
        for j, (shape_a, shape_b) in enumerate(pairs)
    ]
    rows = pl.concat(parts)
    columns = {name: pl.col(name) for name in BETA_INPUTS}
    for stage in beta_quantile_stages(p):
        new = stage(POLARS, columns)
        rows = rows.with_columns(value.alias(name) for name, value in new.items())
        columns |= {name: pl.col(name) for name in new}
    quantile = pl.col(BETA_QUANTILE)
    return grouped(rows, keys, [quantile.filter(pl.col("fm_j") == j).first().alias(f"fm_q{j}") for j in range(len(pairs))])
