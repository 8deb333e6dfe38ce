"""The stages of the core in SQL: the canonical rows of ``fm_input``, the curve stage as CTEs and its statistics.

The curve stage is :func:`framemetrics.stages.curve_stage.curve_stage`
written as the CTEs ``<prefix>_scores`` and ``<prefix>_curve`` over a named
table (:func:`curve_stage`), for the SQL stages still built by name (paired,
multiclass, bootstrap); :func:`curve_statistics` adds the largest gap where
``ks_threshold`` needs it (``fm_gaps``), the group's weighted quantile where
a statistic reads it (``_quantiles``), and the curve statistics per group
(``fm_ranking``). The metrics' own statement is
:mod:`framemetrics.stages.statistics` (:mod:`.query`).
"""

from __future__ import annotations

from sqlglot import exp

from framemetrics.compilers.sql.frame import SqlFrame, Statement
from framemetrics.compilers.sql.namespace import SQL, SqlNamespace
from framemetrics.core import cells as counting
from framemetrics.core.statistics import (
    STATISTICS,
    CurvePoints,
    Rows,
    quantile_level,
    roc_gap,
    weighted_quantile,
)
from framemetrics.stages import curve_stage as stage

__all__ = [
    "GroupWindows",
    "cells_stage",
    "curve_stage",
    "curve_statistics",
    "group_window",
    "rows_of",
    "same_group",
    "select_from",
]

# The frames of the curve stage's windows, in decreasing score order.


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
        power=literals.get("power", SQL.lit(0.0)),
    )


def select_from(
    columns: list[exp.Expression],
    source: str | exp.Expression,
    *,
    where: exp.Expression | None = None,
    group_by: list[exp.Expression] | None = None,
) -> exp.Select:
    """``SELECT columns FROM source [WHERE where] [GROUP BY group_by]``, as a tree.

    Examples
    --------
    >>> select_from([exp.column("g")], "t", group_by=[exp.column("g")]).sql()
    'SELECT g FROM t GROUP BY g'
    """
    select = exp.select(*columns, copy=False).from_(source, copy=False)
    if where is not None:
        select = select.where(where, copy=False)
    return select.group_by(*group_by, copy=False) if group_by else select


def _grouped(columns: dict[str, exp.Expression], source: str, keys: list[str], by: tuple[str, ...]) -> exp.Select:
    """``columns`` per group of ``keys`` and ``by`` of ``source``."""
    group = [exp.column(k, table=source) for k in [*keys, *by]]
    named = [exp.alias_(expr, name, copy=False) for name, expr in columns.items()]
    return select_from([*(g.copy() for g in group), *named], source, group_by=group)


def cells_stage(
    x: Rows, keys: list[str], sums: dict[str, exp.Expression], classes: tuple[str, ...] = counting.CLASSES
) -> exp.Select:
    """Level 1 of the counting stage (:mod:`framemetrics.core.cells`) over ``fm_input``: ``fm_cells``.

    Examples
    --------
    >>> x = rows_of({"pos_label": SQL.lit(1), "neg_label": SQL.lit(0)})
    >>> [column.alias_or_name for column in cells_stage(x, ["fm_g0"], {}).expressions]
    ['fm_g0', 'y_true', 'y_pred', 'n_rows', 'weight']
    """
    return _grouped(counting.cell_sums(SQL, x, sums), "fm_input", keys, classes)


def group_window(aggregate: exp.Expression, keys: list[str]) -> exp.Window:
    """``aggregate OVER (PARTITION BY keys)``: a group's total on each of its rows."""
    return exp.Window(this=aggregate, partition_by=[exp.column(k) for k in keys])


class GroupWindows(SqlNamespace):
    """The SQL namespace whose aggregates are windows over the group: a group's value on each of its rows."""

    def __init__(self, keys: list[str]) -> None:
        self.keys = keys

    def sum(self, x: exp.Expression) -> exp.Expression:
        return group_window(exp.Sum(this=x), self.keys)

    def max(self, x: exp.Expression) -> exp.Expression:
        return group_window(exp.Max(this=x), self.keys)

    def min(self, x: exp.Expression) -> exp.Expression:
        return group_window(exp.Min(this=x), self.keys)


def same_group(left: str, right: str, keys: list[str], *also: exp.Expression) -> exp.Expression:
    """Join condition of two CTEs on the group keys (NULL keys match) and the conditions ``also``; TRUE if none."""
    pairs = [exp.NullSafeEQ(this=exp.column(k, table=left), expression=exp.column(k, table=right)) for k in keys]
    return exp.and_(*pairs, *also) if pairs or also else exp.true()


def curve_stage(
    x: Rows,
    keys: list[str],
    score: exp.Expression,
    *,
    previous: bool = False,
    labelled: bool = True,
    source: str = "fm_input",
    prefix: str = "fm",
) -> list[tuple[str, exp.Select]]:
    """The curve stage of :mod:`framemetrics.stages.curve_stage` over the table ``source``, as the CTEs
    ``<prefix>_scores`` (per group and score ``pw, nw``) and ``<prefix>_curve`` (keys, ``y_score, pw, nw, tp, fp,
    pos_total, neg_total``, and ``tp_prev, fp_prev`` with ``previous``).

    Examples
    --------
    >>> from framemetrics.compilers.sql.emit import to_sql
    >>> x = rows_of({"pos_label": SQL.lit(1), "neg_label": SQL.lit(0)})
    >>> [name for name, _ in curve_stage(x, [], x.y_score)]
    ['fm_scores', 'fm_curve']
    """
    statement = Statement()
    rows = SqlFrame(statement, exp.table_(source), [*keys, "y_true", "y_score", "sample_weight"])
    stage.curve_stage(rows, keys, x, score=score, previous=previous, labelled=labelled, name=prefix)
    return [(cte.alias, cte.this) for cte in statement.ctes]


def curve_statistics(
    x: Rows,
    keys: list[str],
    statistics: tuple[str, ...],
    *,
    score: exp.Expression | None = None,
    quantile: str = "",
    labelled: bool = True,
    source: str = "fm_input",
    prefix: str = "fm",
    stage: str | None = None,
) -> list[tuple[str, exp.Select]]:
    """The curve stage over ``source`` and the curve ``statistics`` per group (``<prefix>_ranking``).

    ``quantile`` (``median``, ``alpha``) adds the group's weighted quantile
    at that level to every point (``<prefix>_quantiles``), for the statistics
    that read it; ``labelled`` as :func:`curve_stage`. ``stage`` names a
    table holding the curve stage already
    (:func:`framemetrics.compilers.sql.query.shared_stage`): it is read
    in place of sorting ``source``.

    Examples
    --------
    >>> x = rows_of({"pos_label": SQL.lit(1), "neg_label": SQL.lit(0)})
    >>> [name for name, _ in curve_statistics(x, [], ("auc_sum", "ks_score"))]
    ['fm_scores', 'fm_curve', 'fm_gaps', 'fm_ranking']
    """
    previous = any(STATISTICS[s].previous for s in statistics)
    score = x.y_score if score is None else score
    if stage is None:
        ctes = curve_stage(x, keys, score, previous=previous, labelled=labelled, source=source, prefix=prefix)
        stage = f"{prefix}_curve"
    else:
        ctes = []
    columns = {f: SQL.col(f) for f in CurvePoints.__dataclass_fields__}
    points = CurvePoints(**columns | {"max_fpr": x.max_fpr, "alpha": x.alpha})
    extra = {}
    if any(STATISTICS[s].gap_max for s in statistics):
        extra["gap_max"] = group_window(exp.Max(this=roc_gap(SQL, points)), keys)
    if quantile:
        extra["quantile"] = weighted_quantile(GroupWindows(keys), points, quantile_level(SQL, quantile, x.alpha))
    if extra:
        named = [exp.alias_(value, name, copy=False) for name, value in extra.items()]
        suffix = "gaps" if "gap_max" in extra else "quantiles"
        ctes.append((f"{prefix}_{suffix}", exp.select(exp.Star(), *named).from_(stage, copy=False)))
        stage = f"{prefix}_{suffix}"
    groups = [exp.column(k) for k in keys]
    ranking = exp.select(*groups, *(exp.alias_(STATISTICS[s].build(SQL, points), s, copy=False) for s in statistics))
    ranking = ranking.from_(stage, copy=False)
    return [*ctes, (f"{prefix}_ranking", ranking.group_by(*groups, copy=False) if keys else ranking)]
