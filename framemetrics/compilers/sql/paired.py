"""DeLong's paired test of two scores per group as one SQL statement, built as a sqlglot tree.

The same stages as :mod:`framemetrics.compilers.polars.paired`: ``fm_input``
with both scores (``y_score``, ``y_score_2``), each score's curve stage and
AUC statistics (``fm_1_...``, ``fm_2_...``), the rows left-joined to the
placements of their two scores and summed per group (``fm_paired``), then
the core's formulas (:func:`~framemetrics.core.intervals.paired_delong`).
"""

from __future__ import annotations

from collections.abc import Mapping

from sqlglot import exp

from framemetrics.compilers.sql.namespace import SQL, identifier
from framemetrics.compilers.sql.query import QueryInputs, group_keys, input_select, same_group
from framemetrics.compilers.sql.stages import curve_statistics, rows_of, select_from
from framemetrics.core.formulas.guards import bounded
from framemetrics.core.intervals import PAIRED_OUTPUTS, PAIRED_STAGES, paired_sums
from framemetrics.core.plan import Plan
from framemetrics.core.statistics import CurvePoints, negatives_above, positives_above

__all__ = ["paired_query"]


def _placements(k: int, keys: list[str]) -> exp.Select:
    """``fm_<k>_placements``: per group and distinct score ``k``, the placements ``a, b`` of its point."""
    points = CurvePoints.named(SQL)
    columns = [
        *(exp.column(key) for key in keys),
        exp.alias_(exp.column("y_score"), "fm_score"),
        exp.alias_(negatives_above(points), "fm_a"),
        exp.alias_(positives_above(points), "fm_b"),
    ]
    return select_from(columns, f"fm_{k}_curve")


def paired_query(
    plan: Plan, inputs: QueryInputs, checks: Mapping[str, exp.Expression], z: float, *, with_checks: bool = False
) -> exp.Select:
    """The paired test per group of ``inputs`` (scores ``y_score`` and ``y_score_2``), as a tree.

    ``plan`` is the plan of ``roc_auc_score`` (labels, weights); ``checks``
    the check counts over ``fm_input``'s columns, by output name; ``z`` the
    normal quantile of the interval. Returns the group columns, ``n_rows``,
    :data:`~framemetrics.core.intervals.PAIRED_OUTPUTS` (and the checks).

    Examples
    --------
    >>> from framemetrics.compilers.sql.emit import to_sql
    >>> from framemetrics.compilers.sql.query import user_column
    >>> from framemetrics.core.plan import make_plan
    >>> columns = {"y_true": user_column("y"), "y_score": user_column("a"), "y_score_2": user_column("b")}
    >>> tree = paired_query(make_plan("roc_auc_score", weighted=False), QueryInputs(exp.to_table("t"), columns), {}, 1.96)
    >>> [c.alias_or_name for c in tree.expressions][:3]
    ['n_rows', 'roc_auc_1', 'roc_auc_2']
    """
    keys = group_keys(inputs)
    x = rows_of({"pos_label": SQL.lit(plan.pos_label), "neg_label": SQL.lit(plan.neg_label)})
    second = inputs.columns["y_score_2"]
    rows = input_select(plan, inputs, keys).select(exp.alias_(second, "y_score_2"), copy=False)
    if inputs.drop_nulls:
        rows = rows.where(SQL.not_(SQL.is_null(second.copy())), copy=False)
    ctes: list[tuple[str, exp.Select]] = [("fm_input", rows)]
    group = [exp.column(key, table="fm_input") for key in keys]
    paired = exp.select(*(exp.alias_(g.copy(), g.name) for g in group)).from_("fm_input")  # named: ClickHouse
    for k, score in ((1, "y_score"), (2, "y_score_2")):
        ctes += curve_statistics(x, keys, ("auc_sum", "sum_pos", "sum_neg"), score=SQL.col(score), prefix=f"fm_{k}")
        ctes.append((f"fm_{k}_placements", _placements(k, keys)))
        placements = f"fm_{k}_placements"
        same_score = SQL.eq(exp.column(score, table="fm_input"), exp.column("fm_score", table=placements))
        paired = paired.join(placements, on=same_group("fm_input", placements, keys, same_score), join_type="left")
    a_1, a_2, b_1, b_2 = (exp.column(f"fm_{v}", table=f"fm_{k}_placements") for v in "ab" for k in (1, 2))
    sums = {"n_rows": SQL.count_rows(), **paired_sums(SQL, x, a_1, a_2, b_1, b_2), **checks}
    paired = paired.select(*(exp.alias_(value, name) for name, value in sums.items()), copy=False)
    ctes.append(("fm_paired", paired.group_by(*group, copy=False) if keys else paired))
    columns = {name: exp.column(name, table="fm_paired") for name in sums}
    columns |= {f"auc_sum_{k}": exp.column("auc_sum", table=f"fm_{k}_ranking") for k in (1, 2)}
    columns |= {name: exp.column(name, table="fm_1_ranking") for name in ("sum_pos", "sum_neg")}
    n_invalid = sum((columns[name] for name in checks), SQL.lit(0))
    carried = [*keys, "n_rows", *(checks if with_checks else ())]
    source = exp.select(*(exp.alias_(exp.column(n, table="fm_paired"), n) for n in carried)).from_("fm_paired")
    for k in (1, 2):
        source = source.join(f"fm_{k}_ranking", on=same_group("fm_paired", f"fm_{k}_ranking", keys))
    for i, stage in enumerate(PAIRED_STAGES):
        values = stage(SQL, columns, SQL.lit(z), n_invalid)
        ctes.append((f"fm_test_{i}", source.select(*(exp.alias_(v, n) for n, v in values.items()), copy=False)))
        carried += list(values)
        source = exp.select(*(exp.column(n) for n in carried)).from_(f"fm_test_{i}")  # named: ClickHouse's * fails
        columns = {name: exp.column(name) for name in carried}
    final = [exp.alias_(exp.column(k), identifier(c)) for k, c in zip(keys, inputs.by, strict=True)]
    final += [exp.column("n_rows"), *(exp.alias_(bounded(SQL, exp.column(n)), n) for n in PAIRED_OUTPUTS)]
    final += [exp.column(name) for name in checks] if with_checks else []
    result = exp.select(*final).from_(ctes[-1][0])
    if keys:
        result = result.order_by(*(exp.Ordered(this=exp.column(k), nulls_first=False) for k in keys))
    for name, cte in ctes:
        result = result.with_(name, as_=cte, copy=False)
    return result
