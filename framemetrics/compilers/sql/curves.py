"""A curve (ROC, precision-recall, DET) per group as one SQL statement, built as a sqlglot tree.

The same stages as :mod:`framemetrics.compilers.polars.curves`: the input
checks and row counts per group (``fm_statistics``), the curve stage's points
(:func:`~framemetrics.compilers.sql.stages.curve_stage`), the kept points
plus the +inf point (``fm_points``), then the rates, as
:mod:`framemetrics.core.curves` defines them; thinning (M4) ranks the points
of each column of the x rate (``fm_thinned``). A group with an invalid row
gets one row, NULL but for its group columns (the points are joined to valid
groups only; engines order NaN scores differently); ``framemetrics.roc_curve``
and its siblings raise instead.
"""

from __future__ import annotations

from functools import reduce

from sqlglot import exp

from framemetrics.compilers.sql.namespace import SQL, identifier
from framemetrics.compilers.sql.query import (
    QueryInputs,
    group_keys,
    input_select,
    plan_literals,
    same_group,
    statistics_select,
)
from framemetrics.compilers.sql.stages import BELOW_COUNTS, curve_stage, group_window, rows_of, select_from
from framemetrics.core.curves import COUNTS, Curve, curve_column
from framemetrics.core.plan import Plan

__all__ = ["curve_query"]

_STAGE = ("pw", "nw", "next_pw", "next_nw", "is_first", "tp", "fp", "tn", "fn", "pos_total", "neg_total")


def _columns(*names: str) -> list[exp.Column]:
    return [exp.column(n) for n in names]


def _points(curve: Curve, keys: list[str], drop: exp.Expression | None) -> exp.Expression:
    """``fm_points``: the kept points of ``fm_curve`` (all if ``drop`` is None), then per group the point at +inf."""
    stage = {name: SQL.col(name) for name in _STAGE}
    totals = _columns("pw", "pos_total", "neg_total")
    kept = exp.select(*_columns(*keys), exp.alias_(exp.column("y_score"), "threshold"), *_columns(*COUNTS), *totals)
    kept = kept.from_("fm_curve", copy=False)
    kept = kept if drop is None else kept.where(curve.keep(SQL, stage, drop), copy=False)
    # The point at +inf: nothing predicted positive (every column named: DataFusion wants distinct names).
    at_inf = {"tp": SQL.lit(0.0), "fp": SQL.lit(0.0), "tn": SQL.col("neg_total"), "fn": SQL.col("pos_total")}
    named = [exp.alias_(at_inf[c], c, copy=False) for c in COUNTS]
    totals[0] = exp.alias_(SQL.lit(0.0), "pw")
    inf = exp.select(*_columns(*keys), exp.alias_(SQL.lit(float("inf")), "threshold"), *named, *totals)
    inf = inf.from_("fm_curve", copy=False).where("is_first", copy=False)
    return exp.union(kept, inf, distinct=False)


def _ends(keys: list[str]) -> exp.Select:
    """``fm_ends``: DET's range per group, from the last point with ``fp = 0`` to the first with ``fn = 0``.

    ``fp``, a running sum of weights >= 0, is 0 exactly until the first negative weight; ``fn = 0`` from the
    group's lowest score of positive weight down (``fn``, a total less a running sum, need not be exactly 0).
    """
    threshold = SQL.col("threshold")
    first = group_window(
        exp.Min(this=SQL.when(SQL.eq(SQL.col("fp"), SQL.lit(0)), threshold).otherwise(SQL.null())), keys
    )
    last = group_window(
        exp.Min(this=SQL.when(SQL.col("pw") > 0, threshold).otherwise(SQL.null())), keys
    )
    return exp.select(exp.Star(), exp.alias_(first, "fm_first"), exp.alias_(last, "fm_last")).from_("fm_points")


def _in_range() -> exp.Expression:
    threshold = SQL.col("threshold")
    return SQL.all(
        threshold <= SQL.col("fm_first"),
        threshold >= SQL.col("fm_last"),
        SQL.col("pos_total") > 0,
        SQL.col("neg_total") > 0,
    )


def _thinned(curve: Curve, keys: list[str], max_points: int) -> list[tuple[str, exp.Select]]:
    """The CTEs that find the M4 points of ``fm_curve_points`` per group and column of the x rate.

    ``fm_columns`` gives each point its column; ``fm_cells`` the first and
    last thresholds of each (group, column) in the curve's order and its
    lowest and highest y rate; ``fm_extremes`` adds the first threshold at
    each of those two rates (ties go to the first point, as Polars'
    ``arg_min``). Thresholds are distinct within a group, so a threshold
    names a point. Two ``GROUP BY`` and a join: no window, whose sort per
    column cost 4x more.
    """
    cell = [*keys, "fm_column"]
    threshold, y = exp.column("threshold"), exp.column(curve.y)
    first, last = (exp.Max, exp.Min) if curve.descending else (exp.Min, exp.Max)
    column = curve_column(SQL, SQL.col(curve.x), SQL.lit(max_points // 4))
    columned = exp.select(exp.Star(), exp.alias_(column, "fm_column")).from_("fm_curve_points")
    ends = {"fm_first": first(this=threshold), "fm_last": last(this=threshold.copy())}
    ends |= {"fm_low": exp.Min(this=y), "fm_high": exp.Max(this=y.copy())}
    named = [exp.alias_(value, name) for name, value in ends.items()]
    cells = select_from([*_columns(*cell), *named], "fm_columns", group_by=_columns(*cell))

    def first_at(rate: str) -> exp.Expression:
        reached = SQL.eq(exp.column(curve.y, table="fm_columns"), exp.column(rate, table="fm_cells"))
        return first(this=SQL.when(reached, exp.column("threshold", table="fm_columns")).otherwise(SQL.null()))

    extremes = [exp.alias_(exp.column(c, table="fm_columns"), c) for c in cell]
    extremes += [exp.alias_(exp.Max(this=exp.column(n, table="fm_cells")), n) for n in ("fm_first", "fm_last")]
    extremes += [exp.alias_(first_at("fm_low"), "fm_lowest"), exp.alias_(first_at("fm_high"), "fm_highest")]
    joined = exp.select(*extremes).from_("fm_columns").join("fm_cells", on=same_group("fm_columns", "fm_cells", cell))
    extreme = joined.group_by(*(exp.column(c, table="fm_columns") for c in cell))
    return [("fm_columns", columned), ("fm_cells", cells), ("fm_extremes", extreme)]


def _kept(keys: list[str], names: list[exp.Expression]) -> exp.Select:
    """The ``names`` of the points :func:`_thinned` keeps, and a group's null row (invalid input)."""
    cell = [*keys, "fm_column"]
    chosen = [exp.column(n, table="fm_extremes") for n in ("fm_first", "fm_last", "fm_lowest", "fm_highest")]
    threshold = exp.column("threshold", table="fm_columns")
    kept = SQL.any(SQL.is_null(threshold), exp.In(this=threshold.copy(), expressions=chosen))
    select = exp.select(*(exp.column(n, table="fm_columns") for n in names)).from_("fm_columns")
    return select.join("fm_extremes", on=same_group("fm_columns", "fm_extremes", cell)).where(kept)


def _shared_points(stage: str, keys: list[str]) -> exp.Select:
    """The points of a shared curve stage (``query.shared_stage``): its scores of positive weight, with
    ``fn, tn`` and ``is_first`` as the curve stage's ``points`` (the group's highest such score)."""
    columns = [exp.alias_(exp.column(total) - exp.column(count), name) for name, total, count in BELOW_COUNTS]
    first = SQL.eq(exp.column("y_score"), group_window(exp.Max(this=exp.column("y_score")), keys))
    select = exp.select(exp.Star(), *columns, exp.alias_(first, "is_first")).from_(stage)
    return select.where(exp.column("pw") + exp.column("nw") > 0)


def curve_query(
    curve: Curve,
    plan: Plan,
    inputs: QueryInputs,
    *,
    drop_intermediate: bool | None = None,
    max_points: int | None = None,
    stage: str | None = None,
) -> exp.Select:
    """The points of ``curve`` per group of ``inputs``, as a tree.

    Parameters
    ----------
    curve : Curve
        Which curve (:data:`framemetrics.core.curves.CURVES`).
    plan : Plan
        The plan of a ranking metric: its checks and labels.
    inputs : QueryInputs
        The source and the expressions of ``y_true``, ``y_score``,
        ``sample_weight``. With ``inputs.literals``, ``pos_label``,
        ``neg_label`` and ``drop_intermediate`` are a table macro's parameters.
    drop_intermediate : bool, optional
        Default: the curve's (scikit-learn's) default.
    max_points : int, optional
        Thin each group's curve to at most this many points, as
        :func:`framemetrics.compilers.polars.curves.thin`.
    stage : str, optional
        A table holding the scores' curve stage of the same rows and groups
        (:func:`framemetrics.compilers.sql.query.shared_stage`), read in
        place of sorting the scores again; every point is kept
        (``drop_intermediate`` must be False).

    Returns
    -------
    sqlglot.exp.Select
        The group columns, ``threshold``, the rates and ``tp, fp, tn, fn``,
        ordered by group and threshold.

    Examples
    --------
    >>> from framemetrics.compilers.sql.emit import to_sql
    >>> from framemetrics.compilers.sql.query import user_column
    >>> from framemetrics.core.curves import CURVES
    >>> from framemetrics.core.plan import make_plan
    >>> q = curve_query(CURVES["roc_curve"], make_plan("roc_auc_score", weighted=False),
    ...                 QueryInputs(exp.to_table("t"), {"y_true": user_column("y"), "y_score": user_column("s")}))
    >>> to_sql(q).endswith("ORDER BY threshold DESC")
    True
    """
    keys = group_keys(inputs)
    literals = plan_literals(plan, inputs)
    drop = curve.drop_intermediate if drop_intermediate is None else drop_intermediate
    drop_flag = (inputs.literals or {}).get("drop_intermediate", SQL.lit(bool(drop)))
    x = rows_of(literals)
    ctes = [
        ("fm_input", input_select(plan, inputs, keys)),
        ("fm_statistics", statistics_select(plan, literals, keys, ("n_rows",))),
    ]
    if stage is None:
        ctes += [*curve_stage(x, keys, x.y_score, points=True), ("fm_points", _points(curve, keys, drop_flag))]
    elif drop:
        raise ValueError("the points of a shared curve stage are all kept: drop_intermediate must be False")
    else:
        ctes += [("fm_curve", _shared_points(stage, keys)), ("fm_points", _points(curve, keys, None))]
    source = "fm_points"
    if curve.sliced:
        ctes.append(("fm_ends", _ends(keys)))
        source = "fm_ends"
    stage = {name: SQL.col(name) for name in _STAGE}
    n_invalid = reduce(lambda a, b: a + b, (SQL.col(c.name) for c in plan.checks))
    stage["n_invalid"] = n_invalid
    group_columns = [exp.column(k, table="fm_statistics") for k in keys]
    by = [identifier(c) for c in inputs.by]
    outputs = [exp.alias_(g.copy(), b) for g, b in zip(group_columns, by, strict=True)]
    outputs.append(exp.column("threshold"))
    outputs += [exp.alias_(build(SQL, stage), name) for name, build in curve.rates.items()]
    outputs += [exp.alias_(exp.column(c, table=source), c) for c in COUNTS]
    # A group with an invalid row gets one row, nulls but its group (no engine orders NaN scores alike):
    # the points join only valid groups, and every group is kept.
    valid = SQL.eq(n_invalid.copy(), SQL.lit(0))
    joined = same_group("fm_statistics", source, keys, valid.copy())
    select = exp.select(*outputs).from_("fm_statistics").join(source, on=joined, join_type="left")
    point = SQL.not_(SQL.is_null(exp.column("threshold", table=source)))
    select = select.where(SQL.any(SQL.not_(valid), SQL.all(point, _in_range()) if curve.sliced else point))
    if max_points is not None:
        ctes.append(("fm_curve_points", select.select(*(exp.alias_(g, k) for g, k in zip(group_columns, keys)))))
        ctes += _thinned(curve, keys, max_points)
        select = _kept(keys, [*by, "threshold", *curve.rates, *COUNTS])
        group_columns = [exp.column(k, table="fm_columns") for k in keys]
    threshold = exp.Ordered(this=exp.column("threshold"), desc=curve.descending)
    select = select.order_by(*(exp.Ordered(this=g.copy(), nulls_first=False) for g in group_columns), threshold)
    for name, cte in ctes:
        select = select.with_(name, as_=cte, copy=False)
    return select
