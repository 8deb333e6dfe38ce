"""Build one metric as a single Polars expression: stage 1 inside stage 2.

The public metric functions (``framemetrics.f1_score`` ...) are made from
the registry over :func:`metric_expr` (:mod:`framemetrics.builders`), usable
inside ``group_by().agg()``.
"""

from __future__ import annotations

from typing import Any

import polars as pl

from framemetrics.compilers.polars.query import formula_expr
from framemetrics.compilers.polars.stages import check_count, rows_of, statistic_in_group
from framemetrics.core.plan import make_plan
from framemetrics.inputs import MetricInputs

__all__ = ["INPUT_ROLES", "metric_expr"]

# The arguments of metric_expr that are inputs, not metric parameters.
INPUT_ROLES = ("y_true", "y_pred", "y_score", "sample_weight", "pos_label", "neg_label")


def metric_expr(name: str, **arguments: Any) -> pl.Expr:
    """The registered metric ``name`` as one Polars aggregation expression.

    Parameters
    ----------
    name : str
        A key of :data:`framemetrics.REGISTRY`.
    **arguments
        The inputs of :meth:`~framemetrics.inputs.MetricInputs.of` (``y_true``
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
    columns = {role: arguments.pop(role) for role in INPUT_ROLES if role in arguments}
    labels = {"pos_label": columns.pop("pos_label", 1), "neg_label": columns.pop("neg_label", None)}
    plan = make_plan({name: arguments}, weighted=columns.get("sample_weight") is not None, **labels)
    labels = {"pos_label": plan.pos_label, "neg_label": plan.neg_label}
    inputs = MetricInputs.of(**columns, **labels, alpha=plan.alpha, max_fpr=plan.max_fpr, power=plan.power)
    call = plan.calls[0]
    x = rows_of(inputs)
    statistics = {s: statistic_in_group(s, x) for s in call.statistics}
    checks = {c.name: check_count(c, x) for c in call.checks}
    return formula_expr(call, statistics, checks)
