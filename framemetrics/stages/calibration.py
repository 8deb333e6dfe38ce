"""The calibration curve's bins per group, written once on a frame.

The input is the checked rows of a probability metric (group columns,
``y_true, y_score, sample_weight``); one aggregate per group and bin
(:func:`~framemetrics.core.calibration.calibration_bin`) gathers
:data:`~framemetrics.core.calibration.BIN_SUMS`, then each bin gets its
edges and ratios (:func:`~framemetrics.core.calibration.bin_columns`).
:func:`stage_bins` gathers the same sums from a shared curve stage of those
rows (:data:`~framemetrics.core.calibration.SCORE_BIN_SUMS`): no second read of the rows.
"""

from __future__ import annotations

from collections.abc import Sequence

from framemetrics.core.calibration import BIN_SUMS, SCORE_BIN_SUMS, bin_columns, calibration_bin
from framemetrics.core.frame import Frame
from framemetrics.core.statistics import Rows

__all__ = ["calibration_bins", "stage_bins"]


def calibration_bins(rows: Frame, x: Rows, keys: Sequence[str], by: Sequence[str], n_bins: int) -> Frame:
    """The bins of :func:`framemetrics.calibration_curve` per group of ``rows``.

    Parameters
    ----------
    rows : Frame
        The checked rows: the group columns ``keys`` and the columns ``x`` reads.
    x : Rows
        The rows' inputs (``y_true, y_score, sample_weight``, the labels).
    keys : sequence of str
        Group columns of ``rows``.
    by : sequence of str
        The group columns' output names, one per key.
    n_bins : int
        Number of equal-width bins of [0, 1].

    Returns
    -------
    Frame
        The group columns ``by`` then :data:`~framemetrics.core.calibration.OUTPUTS`,
        one row per group and bin holding rows, in no order: the caller sorts
        by group (nulls last), then bin.

    Examples
    --------
    >>> from framemetrics.compilers.polars.frame import PolarsFrame
    >>> from dataclasses import replace
    >>> rows = PolarsFrame.values({"y_true": [0, 1], "y_score": [0.2, 0.9], "sample_weight": [1.0, 1.0]})
    >>> x = replace(Rows.named(rows.ns), pos_label=1, neg_label=0)
    >>> calibration_bins(rows, x, [], [], 2).collect().sort("bin")["prob_true"].to_list()
    [0.0, 1.0]
    """
    ns = rows.ns
    binned = rows.with_columns(bin=calibration_bin(ns, x.y_score, ns.lit(int(n_bins))))
    return _bins(binned, {name: build(ns, x) for name, build in BIN_SUMS.items()}, keys, by, n_bins)


def stage_bins(stage: Frame, keys: Sequence[str], by: Sequence[str], n_bins: int) -> Frame:
    """The bins of :func:`calibration_bins` from a shared curve stage of the same rows and groups
    (:func:`framemetrics.stages.statistics.shared_stage`: one row per group and score, with ``n_rows``).

    Examples
    --------
    >>> from framemetrics.compilers.polars.frame import PolarsFrame
    >>> stage = PolarsFrame.values({"y_score": [0.2, 0.9], "pw": [0.0, 2.0], "nw": [1.0, 0.0], "n_rows": [1, 2]})
    >>> stage_bins(stage, [], [], 2).collect().sort("bin").select("n_rows", "prob_true", "prob_pred").rows()
    [(1, 0.0, 0.2), (2, 1.0, 0.9)]
    """
    ns = stage.ns
    binned = stage.with_columns(bin=calibration_bin(ns, ns.col("y_score"), ns.lit(int(n_bins))))
    return _bins(binned, {name: build(ns, ns.col) for name, build in SCORE_BIN_SUMS.items()}, keys, by, n_bins)


def _bins(binned: Frame, sums: dict, keys: Sequence[str], by: Sequence[str], n_bins: int) -> Frame:
    """Per group and ``bin`` of ``binned``, the ``sums``, then each bin's edges and ratios, the groups named ``by``."""
    ns = binned.ns
    gathered = binned.aggregate([*keys, "bin"], sums)
    out = gathered.select({**{k: ns.col(k) for k in keys}, **bin_columns(ns, ns.lit(int(n_bins)))})
    return out.rename(dict(zip(keys, by, strict=True))) if keys else out
