"""The calibration bins per group in Polars, as :func:`framemetrics.compilers.sql.calibration.calibration_query`."""

from __future__ import annotations

import polars as pl

from framemetrics.compilers.polars import POLARS
from framemetrics.compilers.polars.query import plan_inputs
from framemetrics.compilers.polars.stages import rows_of
from framemetrics.core.calibration import BIN_SUMS, bin_columns, calibration_bin
from framemetrics.core.plan import Plan

__all__ = ["calibration_bins"]


def calibration_bins(data: pl.LazyFrame, plan: Plan, by: tuple[str, ...], n_bins: int) -> pl.LazyFrame:
    """The bins of :func:`framemetrics.calibration_curve` per group of checked rows ``data`` (``canonical_frame``).

    Examples
    --------
    >>> from framemetrics.core.plan import make_plan
    >>> rows = pl.LazyFrame({"y_true": [0, 1], "y_score": [0.2, 0.9], "sample_weight": [1.0, 1.0]})
    >>> calibration_bins(rows, make_plan("brier_score_loss", weighted=False), (), 2).collect()["prob_true"].to_list()
    [0.0, 1.0]
    """
    keys = [f"fm_g{i}" for i in range(len(by))]
    x, n = rows_of(plan_inputs(plan)), pl.lit(int(n_bins))
    binned = data.group_by([*keys, calibration_bin(POLARS, x.y_score, n).alias("bin")])
    sums = binned.agg(**{name: build(POLARS, x) for name, build in BIN_SUMS.items()})
    out = sums.select(
        *(pl.col(k).alias(c) for k, c in zip(keys, by, strict=True)),
        **{name: value.alias(name) for name, value in bin_columns(POLARS, n).items()},
    )
    return out.sort([*by, "bin"], nulls_last=True)
