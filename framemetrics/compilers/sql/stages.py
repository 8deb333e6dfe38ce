"""The stages of the core in SQL: the canonical rows of ``fm_input`` and the curve stage.

The curve stage is the sqlglot form of
:func:`framemetrics.compilers.polars.stages.curve_stage`: per group and
distinct score the weights ``pw, nw`` (``fm_scores``), their running sums
``tp, fp`` and totals (one window, ``fm_curve``), the largest gap where
``ks_threshold`` needs it (``fm_gaps``), and the curve statistics per group
(``fm_ranking``).
"""

from __future__ import annotations

from sqlglot import exp

from framemetrics.compilers.sql.namespace import SQL
from framemetrics.core.statistics import (
    STATISTICS,
    CurvePoints,
    Rows,
    bin_score,
    negative_weight,
    positive_weight,
    roc_gap,
)
from framemetrics.plan import Plan

__all__ = ["curve_ctes", "rows_of", "running_sum"]


def rows_of(literals: dict[str, exp.Expression]) -> Rows:
    """The columns of ``fm_input`` (and ``fm_means``) with the plan's labels and parameters.

    Examples
    --------
    >>> rows_of({"pos_label": SQL.lit(1), "neg_label": SQL.lit(0)}).pos_label.sql()
    '1'
    """
    names = ("y_true", "y_pred", "y_score", "sample_weight", "mean_y_true", "mean_error")
    return Rows(
        **{n: SQL.col(n) for n in names},
        pos_label=literals["pos_label"],
        neg_label=literals["neg_label"],
        alpha=literals.get("alpha", SQL.lit(0.5)),
        max_fpr=literals.get("max_fpr", SQL.lit(1.0)),
    )


def running_sum(column: str, keys: list[str], *, end: str = "CURRENT ROW") -> exp.Window:
    """``SUM(column) OVER (PARTITION BY keys ORDER BY y_score DESC ROWS ...)``: through this score, or before it.

    ``end`` is ``"CURRENT ROW"`` or ``"1 PRECEDING"``; the order is carried
    by the window's own frame, never by a subquery's ORDER BY.
    """
    spec = exp.WindowSpec(kind="ROWS", start="UNBOUNDED", start_side="PRECEDING")
    if end == "1 PRECEDING":
        spec = exp.WindowSpec(
            kind="ROWS", start="UNBOUNDED", start_side="PRECEDING", end=exp.Literal.number(1), end_side="PRECEDING"
        )
    order = exp.Order(expressions=[exp.Ordered(this=exp.column("y_score"), desc=True)])
    return exp.Window(
        this=exp.Sum(this=exp.column(column)), partition_by=[exp.column(k) for k in keys], order=order, spec=spec
    )


def _group_window(aggregate: exp.Expression, keys: list[str]) -> exp.Window:
    return exp.Window(this=aggregate, partition_by=[exp.column(k) for k in keys])


def curve_ctes(plan: Plan, literals: dict[str, exp.Expression], keys: list[str]) -> list[tuple[str, exp.Select]]:
    """The curve stage and the plan's curve statistics per group: ``fm_scores`` ... ``fm_ranking``.

    Examples
    --------
    >>> from framemetrics.plan import make_plan
    >>> plan = make_plan("roc_auc_score", weighted=False)
    >>> [name for name, _ in curve_ctes(plan, {"pos_label": SQL.lit(1), "neg_label": SQL.lit(0)}, [])]
    ['fm_scores', 'fm_curve', 'fm_ranking']
    """
    x = rows_of(literals)
    score = x.y_score if plan.bins is None else bin_score(SQL, x.y_score, SQL.lit(float(plan.bins)))
    groups = [exp.column(k) for k in keys]
    scores = (
        exp.select(
            *groups,
            exp.alias_(score, "y_score", copy=False),
            exp.alias_(SQL.sum(positive_weight(SQL, x)), "pw", copy=False),
            exp.alias_(SQL.sum(negative_weight(SQL, x)), "nw", copy=False),
        )
        .from_("fm_input", copy=False)
        .group_by(*groups, score, copy=False)
    )
    columns = [*groups, exp.column("y_score"), exp.column("pw"), exp.column("nw")]
    columns += [
        exp.alias_(running_sum("pw", keys), "tp", copy=False),
        exp.alias_(running_sum("nw", keys), "fp", copy=False),
    ]
    columns += [
        exp.alias_(_group_window(exp.Sum(this=exp.column("pw")), keys), "pos_total"),
        exp.alias_(_group_window(exp.Sum(this=exp.column("nw")), keys), "neg_total"),
    ]
    if any(STATISTICS[s].previous for s in plan.curve_statistics):
        columns += [
            exp.alias_(SQL.coalesce(running_sum(c, keys, end="1 PRECEDING"), SQL.lit(0.0)), f"{name}_prev", copy=False)
            for c, name in (("pw", "tp"), ("nw", "fp"))
        ]
    ctes = [("fm_scores", scores), ("fm_curve", exp.select(*columns, copy=False).from_("fm_scores", copy=False))]
    points = CurvePoints(
        **{f: SQL.col(f) for f in CurvePoints.__dataclass_fields__ if f != "max_fpr"}, max_fpr=x.max_fpr
    )
    source = "fm_curve"
    if any(STATISTICS[s].gap_max for s in plan.curve_statistics):
        gap_max = _group_window(exp.Max(this=roc_gap(SQL, points)), keys)
        ctes.append(
            (
                "fm_gaps",
                exp.select(exp.Star(), exp.alias_(gap_max, "gap_max", copy=False)).from_("fm_curve", copy=False),
            )
        )
        source = "fm_gaps"
    ranking = exp.select(
        *groups, *(exp.alias_(STATISTICS[s].build(SQL, points), s, copy=False) for s in plan.curve_statistics)
    )
    ranking = ranking.from_(source, copy=False)
    return [*ctes, ("fm_ranking", ranking.group_by(*groups, copy=False) if keys else ranking)]
