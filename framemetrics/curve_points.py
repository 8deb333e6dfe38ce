"""The curves (ROC, precision-recall, DET) as points per group, in Polars.

Stage 1 is the curve stage of the ranking metrics (:mod:`framemetrics.curve`)
restricted to scores of positive weight, plus per score ``fn, tn`` (the
weights strictly below it, summed), ``next_pw, next_nw`` (the next lower
score's) and ``is_first``. Stage 2 keeps the points scikit-learn keeps
(``drop_intermediate``), adds the point at threshold +inf where nothing is
predicted positive, and computes rates. Each function below mirrors the
DuckDB macro ``fm_curve_<name>`` of ``sql/framemetrics.sql`` with the same
parameter names (a test checks this); the SQL of a whole curve is
:func:`framemetrics.sql.curve_query.curve_query`.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

import polars as pl

from framemetrics.inputs import MetricInputs

__all__ = [
    "CURVES",
    "Curve",
    "curve_column",
    "curve_points",
    "keep_det",
    "keep_pr",
    "keep_roc",
    "precision",
    "rate",
    "thin",
]

INF = float("inf")


def keep_roc(
    pw: pl.Expr, nw: pl.Expr, next_pw: pl.Expr, next_nw: pl.Expr, is_first: pl.Expr, drop_intermediate: bool
) -> pl.Expr:
    """Keep a ROC point unless it is collinear with its neighbours (``fm_curve_keep_roc``)."""
    return pl.lit(not drop_intermediate) | is_first | next_pw.is_null() | (next_pw != pw) | (next_nw != nw)


def keep_pr(pw: pl.Expr, next_pw: pl.Expr, is_first: pl.Expr, drop_intermediate: bool) -> pl.Expr:
    """Keep a PR point unless its tp equals its neighbours' (``fm_curve_keep_pr``)."""
    return pl.lit(not drop_intermediate) | is_first | next_pw.is_null() | (pw > 0) | (next_pw > 0)


def keep_det(pw: pl.Expr, next_pw: pl.Expr, drop_intermediate: bool) -> pl.Expr:
    """Keep a DET point unless its tp equals its neighbours' (``fm_curve_keep_det``)."""
    return pl.lit(not drop_intermediate) | next_pw.is_null() | (pw > 0) | (next_pw > 0)


def rate(count: pl.Expr, total: pl.Expr, n_invalid: pl.Expr) -> pl.Expr:
    """``count / total``; null without a total or with invalid input (``fm_curve_rate``)."""
    return pl.when((n_invalid > 0) | (total == 0)).then(None).otherwise(count / total)


def precision(tp: pl.Expr, fp: pl.Expr, n_invalid: pl.Expr) -> pl.Expr:
    """``tp / (tp + fp)``, 1 at the +inf point (``fm_curve_precision``)."""
    return pl.when(n_invalid > 0).then(None).when(tp + fp == 0).then(1.0).otherwise(tp / (tp + fp))


def curve_column(x: pl.Expr, columns: int) -> pl.Expr:
    """The column of a point when thinning: ``floor(x * columns)``, at most ``columns - 1``,
    -1 for a null rate (``fm_curve_column``)."""
    column = pl.min_horizontal((x * columns).floor().cast(pl.Int64), pl.lit(columns - 1, dtype=pl.Int64))
    return pl.when(x.is_null()).then(pl.lit(-1, dtype=pl.Int64)).otherwise(column)


_N = pl.col("n_invalid")
_TP, _FP, _TN, _FN = pl.col("tp"), pl.col("fp"), pl.col("tn"), pl.col("fn")
_POS, _NEG = pl.col("pos_total"), pl.col("neg_total")


@dataclass(frozen=True)
class Curve:
    """One curve: its rate columns, which points it keeps and its order.

    ``rates`` maps each rate column to its SQL (macro and arguments) and its
    Polars expression over the points; ``keep_sql`` and ``keep`` (given
    ``drop_intermediate``) are the same for the points kept. ``descending`` orders thresholds
    from +inf down (ROC), else up (PR, DET). ``sliced``: DET's points run
    from the last with ``fp = 0`` to the first with ``fn = 0``, and a group
    with one class has none.
    """

    name: str
    rates: dict[str, tuple[str, pl.Expr]]
    keep_sql: str
    keep: Callable[[bool], pl.Expr]
    descending: bool
    drop_intermediate: bool
    x: str
    y: str
    sliced: bool = False


_PW, _NW, _NEXT_PW, _NEXT_NW, _IS_FIRST = (pl.col(c) for c in ("pw", "nw", "next_pw", "next_nw", "is_first"))


CURVES: dict[str, Curve] = {
    c.name: c
    for c in (
        Curve(
            "roc_curve",
            {
                "fpr": ("fm_curve_rate(fp, neg_total, n_invalid)", rate(_FP, _NEG, _N)),
                "tpr": ("fm_curve_rate(tp, pos_total, n_invalid)", rate(_TP, _POS, _N)),
            },
            "fm_curve_keep_roc(pw, nw, next_pw, next_nw, is_first, drop_intermediate)",
            lambda drop: keep_roc(_PW, _NW, _NEXT_PW, _NEXT_NW, _IS_FIRST, drop),
            descending=True,
            drop_intermediate=True,
            x="fpr",
            y="tpr",
        ),
        Curve(
            "precision_recall_curve",
            {
                "precision": ("fm_curve_precision(tp, fp, n_invalid)", precision(_TP, _FP, _N)),
                "recall": ("fm_curve_rate(tp, pos_total, n_invalid)", rate(_TP, _POS, _N)),
            },
            "fm_curve_keep_pr(pw, next_pw, is_first, drop_intermediate)",
            lambda drop: keep_pr(_PW, _NEXT_PW, _IS_FIRST, drop),
            descending=False,
            drop_intermediate=False,
            x="recall",
            y="precision",
        ),
        Curve(
            "det_curve",
            {
                "fpr": ("fm_curve_rate(fp, neg_total, n_invalid)", rate(_FP, _NEG, _N)),
                "fnr": ("fm_curve_rate(fn, pos_total, n_invalid)", rate(_FN, _POS, _N)),
            },
            "fm_curve_keep_det(pw, next_pw, drop_intermediate)",
            lambda drop: keep_det(_PW, _NEXT_PW, drop),
            descending=False,
            drop_intermediate=False,
            x="fpr",
            y="fnr",
            sliced=True,
        ),
    )
}

COUNTS = ("tp", "fp", "tn", "fn")


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
    columned = points.with_columns(fm_column=curve_column(pl.col(curve.x), max_points // 4))
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

    def over(expr: pl.Expr) -> pl.Expr:
        return expr.over(keys) if keys else expr

    per_score = data.group_by([*keys, inputs.y_score.cast(pl.Float64).alias("threshold")]).agg(
        pw=inputs.positive_weight.sum(),
        nw=inputs.negative_weight.sum(),
        n_invalid=pl.col("n_invalid").first(),
    )
    ordered = per_score.filter(pl.col("pw") + pl.col("nw") > 0).sort(
        [*keys, "threshold"], descending=[False] * len(keys) + [True], nulls_last=True
    )
    pw, nw = pl.col("pw"), pl.col("nw")
    stage = ordered.with_columns(
        tp=over(pw.cum_sum()),
        fp=over(nw.cum_sum()),
        fn=over(pw.cum_sum(reverse=True).shift(-1, fill_value=0.0)),
        tn=over(nw.cum_sum(reverse=True).shift(-1, fill_value=0.0)),
        pos_total=over(pw.sum()),
        neg_total=over(nw.sum()),
        next_pw=over(pw.shift(-1)),
        next_nw=over(nw.shift(-1)),
        is_first=over(pl.int_range(pl.len()) == 0),
    )
    at_inf = stage.filter(pl.col("is_first")).with_columns(
        threshold=pl.lit(INF), tp=pl.lit(0.0), fp=pl.lit(0.0), tn=_NEG, fn=_POS
    )
    columns = [*keys, "threshold", *COUNTS, "pos_total", "neg_total", "n_invalid"]
    points = pl.concat([stage.filter(curve.keep(drop_intermediate)).select(columns), at_inf.select(columns)])
    if curve.sliced:
        first = over(pl.col("threshold").filter(_FP == 0).min())
        last = over(pl.col("threshold").filter(_FN == 0).max())
        in_range = (pl.col("threshold") <= first) & (pl.col("threshold") >= last) & (_POS > 0) & (_NEG > 0)
        points = points.filter(in_range)
    rates = [expr.alias(name) for name, (_, expr) in curve.rates.items()]
    out = points.select(*keys, "threshold", *rates, *COUNTS)
    out = out.sort([*keys, "threshold"], descending=[False] * len(keys) + [curve.descending], nulls_last=True)
    return out if max_points is None else thin(out, keys, curve, max_points)
