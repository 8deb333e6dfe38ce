"""The calibration (reliability) curve per group as one SQL statement (a sqlglot tree).

The same stages as :func:`framemetrics.calibration.calibration_curve` on
Polars, from the same definitions (:mod:`framemetrics.core.calibration`): the
canonical input (``fm_input``), one ``GROUP BY`` of group and bin
(``fm_bins``) summing the positive and negative weights and the weighted
score, then the edges and ratios of each bin.
"""

from __future__ import annotations

from sqlglot import exp

from framemetrics.compilers.sql.namespace import SQL, identifier
from framemetrics.compilers.sql.query import QueryInputs, group_keys, input_select, plan_literals
from framemetrics.compilers.sql.stages import rows_of
from framemetrics.core.calibration import BIN_SUMS, bin_columns, calibration_bin
from framemetrics.core.plan import Plan

__all__ = ["calibration_query"]


def calibration_query(plan: Plan, inputs: QueryInputs, n_bins: int) -> exp.Select:
    """The calibration curve's bins per group of ``inputs``, as a tree.

    Parameters
    ----------
    plan : Plan
        The plan of a probability metric: its checks and labels.
    inputs : QueryInputs
        The source and the expressions of ``y_true``, ``y_score``, ``sample_weight``.
    n_bins : int
        Number of equal-width bins of [0, 1].

    Returns
    -------
    sqlglot.exp.Select
        The group columns, ``bin``, ``bin_lower``, ``bin_upper``, ``n_rows``,
        ``positive_weight``, ``negative_weight``, ``prob_true``,
        ``prob_pred``; only bins with rows, ordered by group and bin.

    Examples
    --------
    >>> from framemetrics.compilers.sql.emit import to_sql
    >>> from framemetrics.compilers.sql.query import user_column
    >>> from framemetrics.core.plan import make_plan
    >>> q = calibration_query(make_plan("brier_score_loss", weighted=False),
    ...                       QueryInputs(exp.to_table("t"), {"y_true": user_column("y"), "y_score": user_column("s")}), 10)
    >>> to_sql(q).endswith("FROM fm_bins ORDER BY bin")
    True
    """
    keys = group_keys(inputs)
    x, n = rows_of(plan_literals(plan, inputs)), SQL.lit(int(n_bins))
    groups = [exp.column(k) for k in keys]
    binned = calibration_bin(SQL, x.y_score, n)
    sums = [exp.alias_(build(SQL, x), name, copy=False) for name, build in BIN_SUMS.items()]
    bins = (
        exp.select(*groups, exp.alias_(binned, "bin", copy=False), *sums)
        .from_("fm_input", copy=False)
        .group_by(*groups, binned, copy=False)
    )
    outputs = [exp.alias_(exp.column(k), identifier(c), copy=False) for k, c in zip(keys, inputs.by, strict=True)]
    outputs += [exp.alias_(value, name, copy=False) for name, value in bin_columns(SQL, n).items()]
    ordering = [*(exp.Ordered(this=exp.column(k), nulls_first=False) for k in keys), exp.column("bin")]
    select = exp.select(*outputs, copy=False).from_("fm_bins", copy=False).order_by(*ordering, copy=False)
    return select.with_("fm_input", as_=input_select(plan, inputs, keys), copy=False).with_(
        "fm_bins", as_=bins, copy=False
    )
