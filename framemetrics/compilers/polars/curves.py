"""The curves (ROC, precision-recall, DET) as points per group, in Polars.

Stage 1 is the curve stage of the ranking metrics (:mod:`framemetrics.compilers.polars.stages`)
restricted to scores of positive weight, plus per score ``fn, tn`` (the
weights strictly below it: total less running sum), ``next_pw, next_nw`` (the next lower
score's) and ``is_first``. Stage 2 keeps the points scikit-learn keeps
(``drop_intermediate``), adds the point at threshold +inf where nothing is
predicted positive, and computes rates, all as :mod:`framemetrics.core.curves`
defines them; the SQL of a whole curve is
:func:`framemetrics.sql.curve_query.curve_query`.
"""

from __future__ import annotations

import polars as pl

from framemetrics.compilers.polars import POLARS
from framemetrics.compilers.polars.stages import curve_stage, rows_of
from framemetrics.core.curves import COUNTS, CURVES, Curve, curve_column, curve_outputs
from framemetrics.inputs import MetricInputs

__all__ = ["COUNTS", "CURVES", "Curve", "curve_outputs", "curve_points", "shared_points", "stage_points", "thin"]

INF = float("inf")
_NEG, _POS, _FP = pl.col("neg_total"), pl.col("pos_total"), pl.col("fp")
_COLUMNS = {
    name: pl.col(name)
    for name in (
        "pw",
        "nw",
        "next_pw",
        "next_nw",
        "is_first",
        "tp",
        "fp",
        "tn",
        "fn",
        "pos_total",
        "neg_total",
        "n_invalid",
    )
}


def thin(points: pl.LazyFrame, keys: list[str], curve: Curve, max_points: int) -> pl.LazyFrame:
    """At most ``max_points`` points per group, drawn as the full curve is (M4).

    The x rate is cut into ``max_points // 4`` equal-width columns; per group
    and column the first and last points and the lowest and highest by the
    y rate are kept, ties going to the first. ``points`` must hold each
    group's points in the curve's threshold order (groups may interleave):
    no sort is needed. The SQL of
    :func:`framemetrics.compilers.sql.curves.curve_query` keeps the same
    points by aggregates.

    Examples
    --------
    >>> pts = pl.LazyFrame({"threshold": [4.0, 3.0, 2.0, 1.0], "fpr": [0.0, 0.1, 0.2, 0.9],
    ...                     "tpr": [0.0, 0.5, 0.6, 1.0]})
    >>> thin(pts, [], CURVES["roc_curve"], 8).collect()["threshold"].to_list()
    [4.0, 2.0, 1.0]
    """
    cell = [*keys, "fm_column"]
    y, index = pl.col(curve.y), pl.int_range(pl.len())
    keep = (index == 0) | (index == pl.len() - 1) | (index == y.arg_min()) | (index == y.arg_max())
    columned = points.with_columns(fm_column=curve_column(POLARS, pl.col(curve.x), pl.lit(max_points // 4)))
    return columned.filter(keep.over(cell)).drop("fm_column")


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
        Rows with the group columns ``keys``, the inputs' columns and
        ``n_invalid``, the group's count of invalid rows.
    keys : list of str
        Group columns.
    inputs : MetricInputs
        Expressions of ``y_true``, ``y_score`` and ``sample_weight``, and the labels.
    curve : Curve
        Which curve (:data:`CURVES`).
    drop_intermediate : bool
        Drop the points scikit-learn drops.
    max_points : int, optional
        Thin each group's curve to at most this many points (:func:`thin`).

    Returns
    -------
    polars.LazyFrame
        Sorted by group, then threshold (down for ROC, up for PR and DET).

    Examples
    --------
    >>> lf = pl.LazyFrame({"y": [0, 0, 1, 1], "s": [0.1, 0.4, 0.35, 0.8], "n_invalid": 0})
    >>> x = MetricInputs.of(y_true="y", y_score="s")
    >>> out = curve_points(lf, [], x, CURVES["roc_curve"], drop_intermediate=False).collect()
    >>> out["threshold"].to_list(), out["tpr"].to_list()
    ([inf, 0.8, 0.4, 0.35, 0.1], [0.0, 0.5, 0.5, 1.0, 1.0])
    """
    stage = curve_stage(data, keys, rows_of(inputs), previous=False, points=True, carry=("n_invalid",))
    return stage_points(stage, keys, curve, drop_intermediate, max_points)


def shared_points(stage: pl.LazyFrame, keys: list[str]) -> pl.LazyFrame:
    """The points of a shared curve stage (:func:`curve_stage` of every score, valid rows).

    Its scores of positive weight with ``fn, tn`` and ``is_first`` as
    :func:`curve_stage` computes them with ``points`` (the group's highest
    such score), ``n_invalid`` 0; :func:`stage_points` then keeps every
    point (``drop_intermediate=False``).

    Examples
    --------
    >>> lf = pl.LazyFrame({"y": [0, 1, 1], "s": [0.2, 0.2, 0.9]})
    >>> stage = curve_stage(lf, [], rows_of(MetricInputs.of(y_true="y", y_score="s")))
    >>> stage_points(shared_points(stage, []), [], CURVES["roc_curve"], False).collect()["tpr"].to_list()
    [0.0, 0.5, 1.0]
    """
    highest = pl.col("y_score").max()
    is_first = pl.col("y_score") == (highest.over(keys) if keys else highest)
    points = stage.filter(pl.col("pw") + pl.col("nw") > 0)
    return points.with_columns(fn=_POS - pl.col("tp"), tn=_NEG - _FP, is_first=is_first, n_invalid=0)


def stage_points(
    stage: pl.LazyFrame, keys: list[str], curve: Curve, drop_intermediate: bool, max_points: int | None = None
) -> pl.LazyFrame:
    """The points of ``curve`` from a curve stage with the ``points`` columns (see :func:`curve_points`).

    The stage's rows run down the scores (groups may interleave), as
    :func:`curve_stage` sorts them: each group's points are then in the
    curve's order for :func:`thin`, and only the kept points are sorted.
    """
    stage = stage.rename({"y_score": "threshold"})
    at_inf = stage.filter(pl.col("is_first")).with_columns(
        threshold=pl.lit(INF), tp=pl.lit(0.0), fp=pl.lit(0.0), tn=_NEG, fn=_POS, pw=pl.lit(0.0)
    )
    columns = [*keys, "threshold", *COUNTS, "pw", "pos_total", "neg_total", "n_invalid"]
    kept = stage.filter(curve.keep(POLARS, _COLUMNS, pl.lit(True))) if drop_intermediate else stage
    # The stage runs down the scores: each group's points stay in the curve's order, +inf first or last.
    if curve.descending:
        points = pl.concat([at_inf.select(columns), kept.select(columns)])
    else:
        points = pl.concat([kept.select(columns).reverse(), at_inf.select(columns)])
    if curve.sliced:
        # fp = 0 on the points down to the highest negative score (a running sum of weights >= 0 is 0 exactly
        # until the first negative weight); fn = 0 from the lowest score of positive weight down.
        first, last = pl.col("threshold").filter(_FP == 0).min(), pl.col("threshold").filter(pl.col("pw") > 0).min()
        if keys:
            first, last = first.over(keys), last.over(keys)
        in_range = (pl.col("threshold") <= first) & (pl.col("threshold") >= last) & (_POS > 0) & (_NEG > 0)
        points = points.filter(in_range)
    rates = [build(POLARS, _COLUMNS).alias(name) for name, build in curve.rates.items()]
    out = points.select(*keys, "threshold", *rates, *COUNTS)
    out = out if max_points is None else thin(out, keys, curve, max_points)
    return out.sort([*keys, "threshold"], descending=[False] * len(keys) + [curve.descending], nulls_last=True)
