"""The curves (ROC, precision-recall, DET) as points per group, in Polars: the stage of
:mod:`framemetrics.stages.curves` over Polars' curve stage.

The curves' stage is the curve stage of the ranking metrics
(:func:`framemetrics.stages.curve_stage.curve_stage`, one sort) with
its ``points`` columns, or the points of a shared stage; the points are
then sorted by group and threshold. The SQL of a whole curve is
:func:`framemetrics.compilers.sql.curves.curve_query`.
"""

from __future__ import annotations

import polars as pl

from framemetrics.compilers.polars.frame import PolarsFrame
from framemetrics.compilers.polars.inputs import MetricInputs
from framemetrics.compilers.polars.stages import rows_of
from framemetrics.core.curves import Curve
from framemetrics.stages import curves as stage
from framemetrics.stages.curve_stage import curve_stage

__all__ = ["curve_points", "shared_points", "stage_points"]


def curve_points(
    data: pl.LazyFrame,
    keys: list[str],
    inputs: MetricInputs,
    curve: Curve,
    drop_intermediate: bool,
    max_points: int | None = None,
) -> pl.LazyFrame:
    """The points of ``curve`` per group: keys, ``threshold``, the rates, ``tp, fp, tn, fn``.

    Parameters
    ----------
    data : polars.LazyFrame
        Rows with the group columns ``keys`` and the inputs' columns.
    keys : list of str
        Group columns.
    inputs : MetricInputs
        Expressions of ``y_true``, ``y_score`` and ``sample_weight``, and the labels.
    curve : Curve
        Which curve (:data:`framemetrics.core.curves.CURVES`).
    drop_intermediate : bool
        Drop the points scikit-learn drops.
    max_points : int, optional
        Thin each group's curve to at most this many points (:func:`framemetrics.stages.curves.thin`).

    Returns
    -------
    polars.LazyFrame
        Sorted by group, then threshold (down for ROC, up for PR and DET).

    Examples
    --------
    >>> from framemetrics.core.curves import CURVES
    >>> lf = pl.LazyFrame({"y": [0, 0, 1, 1], "s": [0.1, 0.4, 0.35, 0.8]})
    >>> x = MetricInputs.of(y_true="y", y_score="s")
    >>> out = curve_points(lf, [], x, CURVES["roc_curve"], drop_intermediate=False).collect()
    >>> out["threshold"].to_list(), out["tpr"].to_list()
    ([inf, 0.8, 0.4, 0.35, 0.1], [0.0, 0.5, 0.5, 1.0, 1.0])
    """
    points = curve_stage(PolarsFrame(data), keys, rows_of(inputs), points=True)
    return stage_points(points.lazy, keys, curve, drop_intermediate, max_points)


def shared_points(stage_frame: pl.LazyFrame, keys: list[str]) -> pl.LazyFrame:
    """The curves' stage of a shared curve stage (:func:`curve_stage` of every score, valid rows), for
    :func:`stage_points` with ``drop_intermediate=False`` (:func:`framemetrics.stages.curves.shared_points`).

    Examples
    --------
    >>> from framemetrics.core.curves import CURVES
    >>> lf = pl.LazyFrame({"y": [0, 1, 1], "s": [0.2, 0.2, 0.9]})
    >>> shared = curve_stage(PolarsFrame(lf), [], rows_of(MetricInputs.of(y_true="y", y_score="s")))
    >>> stage_points(shared_points(shared.lazy, []), [], CURVES["roc_curve"], False).collect()["tpr"].to_list()
    [0.0, 0.5, 1.0]
    """
    return stage.shared_points(PolarsFrame(stage_frame), keys).lazy


def stage_points(
    points: pl.LazyFrame, keys: list[str], curve: Curve, drop_intermediate: bool, max_points: int | None = None
) -> pl.LazyFrame:
    """The points of ``curve`` from the curves' stage (:func:`curve_stage` with ``points``, or
    :func:`shared_points`), sorted as :func:`curve_points` returns them.

    Examples
    --------
    >>> from framemetrics.core.curves import CURVES
    >>> lf = pl.LazyFrame({"y": [0, 1, 1], "s": [0.2, 0.2, 0.9]})
    >>> points = curve_stage(PolarsFrame(lf), [], rows_of(MetricInputs.of(y_true="y", y_score="s")), points=True)
    >>> stage_points(points.lazy, [], CURVES["precision_recall_curve"], False).collect()["threshold"].to_list()
    [0.2, 0.9, inf]
    """
    frame = stage.curve_points(PolarsFrame(points), keys, curve, drop_intermediate, max_points)
    descending = [False] * len(keys) + [curve.descending]
    return frame.lazy.sort([*keys, "threshold"], descending=descending, nulls_last=True)
