"""The points of a curve (ROC, precision-recall, DET) per group, written once on a frame.

The input is the curves' stage: one row per group and distinct score of
positive weight, with the group columns, ``y_score, pw, nw``, ``tp, fp``
(the weights at or above the score), ``fn, tn`` (below it: the total less
the running sum, as scikit-learn's ``tps[-1] - tps``), ``pos_total,
neg_total``, ``next_pw, next_nw`` (the next lower score's, read to drop
points), ``is_first`` (the group's highest score) and, if it has it,
``n_invalid`` (a group's invalid rows: null rates). :func:`curve_points`
keeps the points scikit-learn keeps, adds the point at threshold +inf,
slices DET, computes the rates (all as :mod:`framemetrics.core.curves`
defines them) and thins (:func:`thin`). :func:`curve_table` is the whole
curve from the rows (or from a shared curve stage), as every engine runs it.
"""

from __future__ import annotations

from collections.abc import Sequence
from functools import reduce
from typing import Any

from framemetrics.core.curves import COUNTS, Curve, curve_column, curve_outputs
from framemetrics.core.frame import Frame, Table
from framemetrics.core.plan import Plan
from framemetrics.core.statistics import Rows
from framemetrics.stages import group_keys
from framemetrics.stages.curve_stage import curve_stage
from framemetrics.stages.statistics import checks_table

__all__ = ["curve_points", "curve_table", "shared_points", "thin"]

Expr = Any
_STAGE = ("y_score", "pw", "nw", "next_pw", "next_nw", "is_first", "tp", "fp", "tn", "fn", "pos_total", "neg_total")


def shared_points(stage: Frame, min_rows: int | None = None) -> Frame:
    """The curves' stage from a shared curve stage (every score of the valid rows, as the metrics read it).

    Its scores of positive weight with ``fn, tn``; no ``next_pw, next_nw``
    or ``is_first``: every point is then kept (``drop=False``). With
    ``min_rows``, only the groups of at least that many rows (the stage's
    ``group_rows``): the report's curves of its largest segments.

    Examples
    --------
    >>> from framemetrics.compilers.polars.frame import PolarsFrame
    >>> from framemetrics.core.curves import CURVES
    >>> stage = PolarsFrame.values({"y_score": [0.9, 0.5, 0.2], "pw": [1.0, 0.0, 1.0], "nw": [0.0, 0.0, 1.0],
    ...                             "tp": [1.0, 1.0, 2.0], "fp": [0.0, 0.0, 1.0], "pos_total": [2.0] * 3,
    ...                             "neg_total": [1.0] * 3})
    >>> points = curve_points(shared_points(stage), [], CURVES["roc_curve"], False)
    >>> points.collect().sort("threshold", descending=True)["tpr"].to_list()
    [0.0, 0.5, 1.0]
    """
    ns, c = stage.ns, stage.ns.col
    kept = c("pw") + c("nw") > 0
    points = stage.filter(kept if min_rows is None else ns.all(kept, c("group_rows") >= ns.lit(int(min_rows))))
    return points.with_columns(fn=c("pos_total") - c("tp"), tn=c("neg_total") - c("fp"))


def curve_points(
    stage: Frame, keys: Sequence[str], curve: Curve, drop: Expr | bool, max_points: int | None = None
) -> Frame:
    """The points of ``curve`` per group: the group columns ``keys``, ``threshold``, the rates, ``tp, fp, tn, fn``.

    Parameters
    ----------
    stage : Frame
        The curves' stage (see the module's description).
    keys : sequence of str
        Group columns.
    curve : Curve
        Which curve (:data:`framemetrics.core.curves.CURVES`).
    drop : bool or expression
        Drop the points scikit-learn drops (``drop_intermediate``); an
        expression decides in the engine (a table macro's parameter).
    max_points : int, optional
        Thin each group's curve to at most this many points (:func:`thin`).

    Returns
    -------
    Frame
        In no order: the caller sorts by group, then threshold (down for
        ROC, up for PR and DET).

    Examples
    --------
    >>> from framemetrics.compilers.polars.frame import PolarsFrame
    >>> from framemetrics.core.curves import CURVES
    >>> stage = PolarsFrame.values({"y_score": [0.8, 0.4, 0.35, 0.1], "pw": [1.0, 0.0, 1.0, 0.0],
    ...     "nw": [0.0, 1.0, 0.0, 1.0], "next_pw": [0.0, 1.0, 0.0, None], "next_nw": [1.0, 0.0, 1.0, None],
    ...     "is_first": [True, False, False, False], "tp": [1.0, 1.0, 2.0, 2.0], "fp": [0.0, 1.0, 1.0, 2.0],
    ...     "tn": [2.0, 1.0, 1.0, 0.0], "fn": [1.0, 1.0, 0.0, 0.0], "pos_total": [2.0] * 4, "neg_total": [2.0] * 4})
    >>> det = curve_points(stage, [], CURVES["det_curve"], False).collect().sort("threshold")
    >>> det["threshold"].to_list(), det["fnr"].to_list()
    ([0.35, 0.4, 0.8], [0.0, 0.5, 0.5])
    """
    ns = stage.ns
    c = {name: ns.col(name) for name in _STAGE}
    c["n_invalid"] = ns.col("n_invalid") if "n_invalid" in stage.columns else ns.lit(0)
    carried = [*keys, "pos_total", "neg_total", *(["n_invalid"] if "n_invalid" in stage.columns else [])]
    if curve.sliced:
        stage = _with_ends(stage, keys).named("fm_curve_ends")
        carried += ["fm_negative", "fm_positive"]
    kept = stage if drop is False else stage.filter(curve.keep(ns, c, ns.lit(True) if drop is True else drop))
    columns = {name: ns.col(name) for name in carried}
    counts = {count: c[count] for count in COUNTS}
    points = kept.select({**columns, "threshold": c["y_score"], **counts})
    # The point at +inf: nothing predicted positive. One per group of the stage, from an aggregate of the
    # group's constants (a hash aggregate; no window of the highest score).
    constants = stage.aggregate(keys, {name: ns.max(ns.col(name)) for name in carried if name not in keys})
    at_inf = {"threshold": ns.lit(float("inf")), "tp": ns.lit(0.0), "fp": ns.lit(0.0)}
    at_inf |= {"tn": c["neg_total"], "fn": c["pos_total"]}
    groups = constants.filter(ns.not_(ns.is_null(c["pos_total"])))  # without groups, no row if the stage has none
    points = points.concat(groups.select({**columns, **at_inf}))
    if curve.sliced:
        points = _sliced(points, keys)
    rates = {name: build(ns, c) for name, build in curve.rates.items()}
    rated = points.select({**{k: ns.col(k) for k in keys}, "threshold": ns.col("threshold"), **rates, **counts})
    return rated if max_points is None else thin(rated, keys, curve, max_points)


def curve_table(
    rows: Frame,
    plan: Plan,
    by: Sequence[str],
    x: Rows,
    curve: Curve,
    drop: Expr | bool,
    max_points: int | None = None,
    *,
    stage: Frame | None = None,
    checked: bool = False,
    min_rows: int | None = None,
) -> Table:
    """The points of ``curve`` per group of ``rows`` (group columns ``fm_g0, fm_g1...``), named by ``by``.

    Parameters
    ----------
    rows : Frame
        The input rows: the group columns and those ``x`` reads.
    plan : Plan
        The plan of a ranking metric: its labels and checks.
    by : sequence of str
        The output's names of the group columns.
    x : Rows
        Expressions of ``y_true``, ``y_score`` and ``sample_weight``, and the labels.
    curve : Curve
        Which curve (:data:`framemetrics.core.curves.CURVES`).
    drop : bool or expression
        Drop the points scikit-learn drops (an expression: a table macro's parameter).
    max_points : int, optional
        Thin each group's curve to at most this many points (:func:`thin`).
    stage : Frame, optional
        The scores' shared curve stage of the same rows and groups
        (:func:`framemetrics.stages.statistics.shared_stage`), read in place
        of sorting the scores again; every point is kept (``drop`` must be False).
    checked : bool, default False
        Count each group's invalid rows: a group with one gets one row, null
        but its group columns (engines order NaN scores differently), where
        an entry point that raises on invalid rows leaves them out.
    min_rows : int, optional
        With ``stage``, the curves of the groups of at least that many rows alone.

    Returns
    -------
    Table
        The group columns, ``threshold``, the rates, ``tp, fp, tn, fn``;
        ordered by group, then threshold (down for ROC, up for PR and DET).

    Examples
    --------
    >>> from framemetrics.compilers.polars.frame import PolarsFrame
    >>> from framemetrics.compilers.polars.query import plan_rows
    >>> from framemetrics.core.curves import CURVES
    >>> from framemetrics.core.plan import make_plan
    >>> plan = make_plan("roc_auc_score", weighted=False)
    >>> rows = PolarsFrame.values({"y_true": [0, 0, 1, 1], "y_score": [0.1, 0.4, 0.35, 0.8],
    ...                            "sample_weight": [1.0] * 4})
    >>> table = curve_table(rows, plan, [], plan_rows(plan), CURVES["roc_curve"], False)
    >>> table.frame.collect().sort(list(table.order), descending=True)["tpr"].to_list()
    [0.0, 0.5, 0.5, 1.0, 1.0]
    """
    keys = group_keys(by)
    if stage is None:
        points = curve_stage(rows, keys, x, points=True)
    elif drop is not False:
        raise ValueError("the points of a shared curve stage are all kept: drop_intermediate must be False")
    else:
        points = shared_points(stage, min_rows)
    table = curve_points(points, keys, curve, drop, max_points).named("fm_points")
    if checked:
        table = _with_invalid_groups(table, checks_table(rows, plan, keys, x), plan, keys)
    descending = ("threshold",) if curve.descending else ()
    table = table.keep(*keys, *curve_outputs(curve))
    return Table(table, (*keys, "threshold"), descending=descending, names=dict(zip(keys, by, strict=True)))


def _with_invalid_groups(points: Frame, checks: Frame, plan: Plan, keys: Sequence[str]) -> Frame:
    """The points of the valid groups of ``checks`` (no invalid row), and one row of nulls but its group
    columns for each other group."""
    ns, c = points.ns, points.ns.col
    valid = ns.eq(reduce(lambda a, b: a + b, (c(check.name) for check in plan.checks)), ns.lit(0))
    groups = checks.select({**{k: c(k) for k in keys}, "fm_valid": valid})
    joined = groups.join(points.with_columns(fm_valid=ns.lit(True)), [*keys, "fm_valid"], "left", nulls_equal=True)
    return joined.filter(ns.any(ns.not_(c("fm_valid")), ns.not_(ns.is_null(c("threshold"))))).drop("fm_valid")


def _with_ends(stage: Frame, keys: Sequence[str]) -> Frame:
    """The stage with DET's ends per group: ``fm_negative``, the highest score of negative weight (``fp = 0``
    exactly above it), and ``fm_positive``, the lowest of positive weight (``fn = 0`` exactly at and below it).

    Weights are not negative: a sum is 0 if and only if all its terms are, whatever the order of summing.
    """
    ns, c = stage.ns, stage.ns.col
    negative = ns.window("max", ns.when(c("nw") > 0, c("y_score")).otherwise(ns.null()), keys)
    positive = ns.window("min", ns.when(c("pw") > 0, c("y_score")).otherwise(ns.null()), keys)
    return stage.with_columns(fm_negative=negative, fm_positive=positive)


def _sliced(points: Frame, keys: Sequence[str]) -> Frame:
    """DET's points: from the last with ``fp = 0`` (the lowest threshold above ``fm_negative``) to the first with
    ``fn = 0`` (``fm_positive``), as scikit-learn's ``det_curve``; none for a group with one class."""
    ns, threshold = points.ns, points.ns.col("threshold")
    above = ns.when(threshold > ns.col("fm_negative"), threshold).otherwise(ns.null())
    in_range = ns.all(threshold <= ns.window("min", above, keys), threshold >= ns.col("fm_positive"))
    return points.filter(in_range)


def thin(points: Frame, keys: Sequence[str], curve: Curve, max_points: int) -> Frame:
    """At most ``max_points`` points per group, drawn as the full curve is (M4).

    The x rate is cut into ``max_points // 4`` equal-width columns; per group
    and column the first and last points in the curve's threshold order
    and the lowest and highest by the y rate are kept, ties going to the
    first (:meth:`~framemetrics.core.frame.Frame.with_firsts`).

    Examples
    --------
    >>> from framemetrics.compilers.polars.frame import PolarsFrame
    >>> from framemetrics.core.curves import CURVES
    >>> pts = PolarsFrame.values({"threshold": [4.0, 3.0, 2.0, 1.0], "fpr": [0.0, 0.1, 0.2, 0.9],
    ...                           "tpr": [0.0, 0.5, 0.6, 1.0]})
    >>> thin(pts, [], CURVES["roc_curve"], 8).collect().sort("threshold")["threshold"].to_list()
    [1.0, 2.0, 4.0]
    """
    ns, threshold, y = points.ns, points.ns.col("threshold"), points.ns.col(curve.y)
    along, against = (-threshold, threshold) if curve.descending else (threshold, -threshold)
    columned = points.with_columns(fm_column=curve_column(ns, ns.col(curve.x), ns.lit(max_points // 4)))
    orders = {"fm_first": [along], "fm_last": [against], "fm_lowest": [y, along], "fm_highest": [-y, along]}
    flagged = columned.with_firsts("fm_thinned", [*keys, "fm_column"], orders)
    kept = flagged.filter(ns.any(*(ns.col(flag) for flag in orders)))
    return kept.drop("fm_column", *orders)
