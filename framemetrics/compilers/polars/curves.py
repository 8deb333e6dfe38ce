"""The curves (ROC, precision-recall, DET) as points per group, in Polars.

Stage 1 is the curve stage of the ranking metrics (:mod:`framemetrics.compilers.polars.stages`)
restricted to scores of positive weight, plus per score ``fn, tn`` (the
weights strictly below it, summed), ``next_pw, next_nw`` (the next lower
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

__all__ = ["COUNTS", "CURVES", "Curve", "curve_outputs", "curve_points", "thin"]

INF = float("inf")
_NEG, _POS, _FP, _FN = pl.col("neg_total"), pl.col("pos_total"), pl.col("fp"), pl.col("fn")
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
    and column the first and last points (in the frame's threshold order) and
    the lowest and highest by the y rate are kept, ties going to the first.
    As the SQL of :func:`framemetrics.sql.curve_query.curve_query`.

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
    stage = stage.rename({"y_score": "threshold"})
    at_inf = stage.filter(pl.col("is_first")).with_columns(
        threshold=pl.lit(INF), tp=pl.lit(0.0), fp=pl.lit(0.0), tn=_NEG, fn=_POS
    )
    columns = [*keys, "threshold", *COUNTS, "pos_total", "neg_total", "n_invalid"]
    kept = stage.filter(curve.keep(POLARS, _COLUMNS, pl.lit(bool(drop_intermediate))))
    points = pl.concat([kept.select(columns), at_inf.select(columns)])
    if curve.sliced:
        first, last = pl.col("threshold").filter(_FP == 0).min(), pl.col("threshold").filter(_FN == 0).max()
        if keys:
            first, last = first.over(keys), last.over(keys)
        in_range = (pl.col("threshold") <= first) & (pl.col("threshold") >= last) & (_POS > 0) & (_NEG > 0)
        points = points.filter(in_range)
    rates = [build(POLARS, _COLUMNS).alias(name) for name, build in curve.rates.items()]
    out = points.select(*keys, "threshold", *rates, *COUNTS)
    out = out.sort([*keys, "threshold"], descending=[False] * len(keys) + [curve.descending], nulls_last=True)
    return out if max_points is None else thin(out, keys, curve, max_points)
