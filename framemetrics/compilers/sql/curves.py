"""A curve (ROC, precision-recall, DET) per group as one SQL statement: the stage of
:mod:`framemetrics.stages.curves` over the SQL curve stage.

The statement checks the input and counts rows per group
(``fm_statistics``), builds the curve stage's points
(:func:`~framemetrics.stages.curve_stage.curve_stage`, or the points of a
shared stage) and runs the points' stage on a
:class:`~framemetrics.compilers.sql.frame.SqlFrame` (``fm_points``). A group
with an invalid row gets one row, NULL but for its group columns (the
points are joined to valid groups only; engines order NaN scores
differently); ``framemetrics.roc_curve`` and its siblings raise instead.
"""

from __future__ import annotations

from functools import reduce

from sqlglot import exp

from framemetrics.compilers.sql.frame import SqlFrame, Statement
from framemetrics.compilers.sql.namespace import SQL, identifier
from framemetrics.compilers.sql.query import (
    QueryInputs,
    group_keys,
    input_frame,
    plan_literals,
    same_group,
)
from framemetrics.compilers.sql.stages import rows_of
from framemetrics.core.curves import Curve, curve_outputs
from framemetrics.core.plan import Plan
from framemetrics.stages import curves as stages
from framemetrics.stages.curve_stage import curve_stage
from framemetrics.stages.statistics import checks_table

__all__ = ["curve_query"]

_STAGE = ("y_score", "pw", "nw", "tp", "fp", "pos_total", "neg_total")


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
        :func:`framemetrics.stages.curves.thin`.
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
    statement = Statement()
    rows = input_frame(statement, plan, inputs, keys)
    checks_table(rows, plan, keys, rows_of(literals))  # fm_statistics
    if stage is None:
        points = curve_stage(rows, keys, rows_of(literals), points=True)
        drop_flag = (inputs.literals or {}).get("drop_intermediate", drop)
    elif drop:
        raise ValueError("the points of a shared curve stage are all kept: drop_intermediate must be False")
    else:
        points = stages.shared_points(SqlFrame(statement, exp.to_table(stage), [*keys, *_STAGE]), keys)
        drop_flag = False
    stages.curve_points(points, keys, curve, drop_flag, max_points).named("fm_points")
    # A group with an invalid row gets one row, nulls but its group (no engine orders NaN scores alike):
    # the points join only valid groups, and every group is kept.
    valid = SQL.eq(reduce(lambda a, b: a + b, (SQL.col(c.name) for c in plan.checks)), SQL.lit(0))
    groups = [exp.column(k, table="fm_statistics") for k in keys]
    outputs = [exp.alias_(g, identifier(b)) for g, b in zip(groups, inputs.by, strict=True)]
    outputs += [exp.alias_(exp.column(c, table="fm_points"), c) for c in curve_outputs(curve)]
    joined = same_group("fm_statistics", "fm_points", keys, valid.copy())
    select = exp.select(*outputs).from_("fm_statistics").join("fm_points", on=joined, join_type="left")
    select = select.where(SQL.any(SQL.not_(valid), SQL.not_(SQL.is_null(exp.column("threshold", table="fm_points")))))
    threshold = exp.Ordered(this=exp.column("threshold"), desc=curve.descending)
    select = select.order_by(*(exp.Ordered(this=g.copy(), nulls_first=False) for g in groups), threshold)
    return statement.with_stages(select, copy=False)
