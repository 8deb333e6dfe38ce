"""A plan's inputs in Polars: the canonical rows, their expressions, the bootstrap's row key, a formula.

The stages run over them are written once (:mod:`framemetrics.stages.statistics`).
"""

from __future__ import annotations

from collections.abc import Mapping
from functools import reduce

import polars as pl

from framemetrics.compilers.polars import POLARS
from framemetrics.compilers.polars.inputs import MetricInputs, rows_of
from framemetrics.core.plan import MetricCall, Plan
from framemetrics.core.statistics import Rows

__all__ = ["NO_SHARED_SCANS", "canonical_frame", "formula_expr", "plan_inputs", "plan_rows", "row_key"]

# The row statistics and the curve stage both read the input; with the default
# common-subplan elimination Polars caches the whole scan in memory to share it
# (5.3 GB for a binned AUC over 2e7 Parquet rows, 1.3 GB without, and faster).
NO_SHARED_SCANS = pl.QueryOptFlags(comm_subplan_elim=False)


def formula_expr(call: MetricCall, statistics: Mapping[str, pl.Expr], checks: Mapping[str, pl.Expr]) -> pl.Expr:
    """Stage 2 of ``call`` over statistics and check counts given as expressions.

    Examples
    --------
    >>> from framemetrics.core.plan import make_plan
    >>> call = make_plan("recall_score", weighted=False).calls[0]
    >>> stats = {"tp": pl.lit(3.0), "fn": pl.lit(1.0)}
    >>> checks = {c.name: pl.lit(0) for c in call.checks}
    >>> pl.select(formula_expr(call, stats, checks)).item()
    0.75
    """
    n_invalid = reduce(lambda a, b: a + b, (checks[c.name] for c in call.checks))
    return call.value(POLARS, statistics, n_invalid).alias(call.name)


def row_key(plan: Plan) -> pl.Expr:
    """The bootstrap's row key: the ``row_id`` column, or the row's position as read."""
    row_id = plan.resampling.row_id
    return pl.int_range(pl.len(), dtype=pl.Int64) if row_id is None else pl.col(row_id)


def plan_inputs(plan: Plan, group_means: bool = False) -> MetricInputs:
    """Inputs reading the canonical columns ``y_true``, ``y_pred``, ... of a frame."""
    return MetricInputs(
        y_true=pl.col("y_true"),
        y_pred=pl.col("y_pred"),
        y_score=pl.col("y_score"),
        sample_weight=pl.col("sample_weight"),
        pos_label=plan.pos_label,
        neg_label=plan.neg_label,
        alpha=plan.alpha,
        max_fpr=plan.max_fpr,
        power=plan.power,
        group_means=group_means,
    )


def plan_rows(plan: Plan, group_means: bool = False) -> Rows:
    """The core's rows of :func:`plan_inputs`: what the stages read of the canonical columns.

    Examples
    --------
    >>> from framemetrics.core.plan import make_plan
    >>> plan_rows(make_plan("roc_auc_score", weighted=False)).y_score.meta.output_name()
    'y_score'
    """
    return rows_of(plan_inputs(plan, group_means))


def canonical_frame(
    frame: pl.LazyFrame,
    plan: Plan,
    columns: Mapping[str, pl.Expr],
    by: tuple[str, ...],
    *,
    drop_nulls: bool,
    extra: Mapping[str, pl.Expr] | None = None,
) -> pl.LazyFrame:
    """As SQL's ``fm_input``: group keys ``fm_g0...`` and the canonical input columns.

    ``extra`` adds columns beyond the plan's roles (a second score), dropped
    at a null too with ``drop_nulls``.

    Examples
    --------
    >>> from framemetrics.core.plan import make_plan
    >>> lf = pl.LazyFrame({"seg": ["a"], "y": [1], "p": [1]})
    >>> plan = make_plan("accuracy_score", weighted=False)
    >>> frame = canonical_frame(lf, plan, {"y_true": pl.col("y"), "y_pred": pl.col("p")}, ("seg",), drop_nulls=False)
    >>> frame.collect_schema().names()
    ['fm_g0', 'y_true', 'y_pred', 'sample_weight']
    """
    keys = [f"fm_g{i}" for i in range(len(by))]
    extra = dict(extra or {})
    data = frame.select(
        *(pl.col(c).alias(k) for c, k in zip(by, keys, strict=True)),
        *(columns[role].alias(role) for role in plan.roles),
        *(value.alias(name) for name, value in extra.items()),
        *(() if plan.weighted else (pl.lit(1.0).alias("sample_weight"),)),
    )
    return data.drop_nulls([*plan.roles, *extra]) if drop_nulls else data
