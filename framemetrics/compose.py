"""Build one metric as a single Polars expression: stage 1 inside stage 2.

The public metric functions (``framemetrics.f1_score`` ...) are made from
the registry over :func:`metric_expr` (:mod:`framemetrics.builders`), usable
inside ``group_by().agg()``.
"""

from __future__ import annotations

from typing import Any

import polars as pl

from framemetrics.compilers.polars.expressions import check_count, statistic_in_group
from framemetrics.compilers.polars.inputs import MetricInputs, rows_of
from framemetrics.compilers.polars.namespace import POLARS
from framemetrics.compilers.polars.query import formula_expr
from framemetrics.core.errors import ArgumentError
from framemetrics.core.plan import Plan, make_plan
from framemetrics.core.statistics import Rows

__all__ = ["INPUT_ROLES", "interval_expr", "metric_expr"]

# The arguments of metric_expr that are inputs, not metric parameters.
INPUT_ROLES = ("y_true", "y_pred", "y_score", "sample_weight", "pos_label", "neg_label")


def _prepared(name: str, arguments: dict[str, Any], **plan_options: Any) -> tuple[Plan, Rows]:
    """The plan of metric ``name`` over the columns among ``arguments`` (the rest its parameters), and its rows."""
    columns = {role: arguments.pop(role) for role in INPUT_ROLES if role in arguments}
    labels = {"pos_label": columns.pop("pos_label", 1), "neg_label": columns.pop("neg_label", None)}
    weighted = columns.get("sample_weight") is not None
    plan = make_plan({name: arguments}, weighted=weighted, **labels, **plan_options)
    labels = {"pos_label": plan.pos_label, "neg_label": plan.neg_label}
    inputs = MetricInputs.of(**columns, **labels, alpha=plan.alpha, max_fpr=plan.max_fpr, power=plan.power)
    return plan, rows_of(inputs)


def interval_expr(name: str, *, level: float = 0.95, method: str | None = None, **arguments: Any) -> pl.Expr:
    """The confidence interval of metric ``name`` as one Polars aggregation: a struct of its outputs.

    The interval of ``framemetrics.evaluate(..., ci=level)``
    (:func:`~framemetrics.core.intervals.metric_interval`): fields ``low``
    and ``high``, and ``se`` first where the method has one (DeLong's).

    Parameters
    ----------
    name : str
        A binary metric with an interval (ROC AUC, Gini, the proportions).
    level : float, default 0.95
        The confidence level.
    method : str, optional
        The interval's method, if not the metric's default.
    **arguments
        As :func:`metric_expr`: the inputs by role, then the metric's parameters.

    Returns
    -------
    polars.Expr

    Examples
    --------
    >>> df = pl.DataFrame({"y": [0, 1, 1, 1], "p": [0, 1, 0, 1]})
    >>> df.select(interval_expr("recall_score", y_true="y", y_pred="p").struct.unnest().round(4)).rows()
    [(0.2077, 0.9385)]
    """
    plan, x = _prepared(name, arguments, ci=level, ci_method=method, interval_outputs=("se", "low", "high"))
    interval = plan.intervals[0]
    if interval.interval.quantiles:
        raise ArgumentError(f"{interval.interval.method}'s interval reads Beta quantiles, computed in stages, not one "
                            "expression: use framemetrics.evaluate(..., ci=level, ci_method=...)")  # fmt: skip
    statistics = {s: statistic_in_group(s, x) for s in dict.fromkeys(plan.statistics)}
    checks = {c.name: check_count(c, x) for c in interval.call.checks}
    values = interval.values(POLARS, statistics | checks)
    fields = [values[column].alias(output) for output, column in interval.columns().items() if column in values]
    return pl.struct(fields).alias(f"{name}_interval")


def metric_expr(name: str, **arguments: Any) -> pl.Expr:
    """The registered metric ``name`` as one Polars aggregation expression.

    Parameters
    ----------
    name : str
        A key of :data:`framemetrics.REGISTRY`.
    **arguments
        The inputs of :meth:`~framemetrics.compilers.polars.inputs.MetricInputs.of` (``y_true``
        and the other columns by role, ``pos_label``, ``neg_label``), then the
        metric's parameters (``zero_division``, ``beta``, ``alpha``...).

    Returns
    -------
    polars.Expr

    Examples
    --------
    >>> df = pl.DataFrame({"y": [0, 1, 1], "p": [0, 1, 0]})
    >>> df.select(metric_expr("recall_score", y_true="y", y_pred="p")).item()
    0.5
    """
    plan, x = _prepared(name, arguments)
    call = plan.calls[0]
    statistics = {s: statistic_in_group(s, x) for s in call.statistics}
    checks = {c.name: check_count(c, x) for c in call.checks}
    return formula_expr(call, statistics, checks)
