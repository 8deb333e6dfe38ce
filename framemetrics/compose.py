"""Build one metric as a single Polars expression: stage 1 inside stage 2.

The public metric functions (``framemetrics.f1_score`` ...) are thin
wrappers over :func:`metric_expr`, usable inside ``group_by().agg()``.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, TypeVar

import polars as pl

from framemetrics.compilers.polars.query import formula_expr
from framemetrics.compilers.polars.stages import check_count, rows_of, statistic_in_group
from framemetrics.core.plan import make_plan
from framemetrics.inputs import ColumnLike, MetricInputs

__all__ = ["fill_doc", "metric_expr"]

F = TypeVar("F", bound=Callable[..., Any])

_PARAMETERS = {
    "labels": """y_true : str or polars.Expr
        True class labels.
    y_pred : str or polars.Expr
        Predicted class labels, e.g. ``pl.col("p") >= 0.5``.
    sample_weight : str or polars.Expr, optional
        Non-negative weights; counts become sums of weights.
    pos_label : Any, default 1
        The positive class.
    neg_label : Any, optional
        The negative class; default the other of 0 and 1. Any other label
        makes the group's value null.""",
    "zero_division": """zero_division : {None, 0, 1}, default None
        Value when the denominator is 0; None gives null.""",
    "probabilities": """y_true : str or polars.Expr
        True class labels.
    y_score : str or polars.Expr
        Predicted probability of ``pos_label``, in [0, 1].
    sample_weight : str or polars.Expr, optional
        Non-negative weights.
    pos_label : Any, default 1
        The positive class.
    neg_label : Any, optional
        The negative class; default the other of 0 and 1.""",
    "ranking": """y_true : str or polars.Expr
        True class labels.
    y_score : str or polars.Expr
        Scores, higher meaning more likely ``pos_label`` (finite numbers;
        ties allowed; null, NaN or +-inf make the group's value null).
    sample_weight : str or polars.Expr, optional
        Non-negative weights.
    pos_label : Any, default 1
        The positive class.
    neg_label : Any, optional
        The negative class; default the other of 0 and 1.""",
    "regression": """y_true : str or polars.Expr
        True values (finite numbers).
    y_pred : str or polars.Expr
        Predicted values (finite numbers).
    sample_weight : str or polars.Expr, optional
        Non-negative weights.""",
    "returns": """polars.Expr
        A Float64 aggregation named after the metric, for ``select`` or
        ``group_by().agg()``. Null for a group with an invalid input row
        (null, NaN, infinite, unknown label, out-of-range value) and where
        the metric is undefined.""",
}


def fill_doc(function: F) -> F:
    """Fill ``{labels}``, ``{regression}``... in a docstring with shared text.

    Examples
    --------
    >>> @fill_doc
    ... def f():
    ...     '''{zero_division}'''
    >>> f.__doc__.split()[0]
    'zero_division'
    """
    doc = function.__doc__ or ""
    for key, text in _PARAMETERS.items():
        doc = doc.replace("{" + key + "}", text)
    function.__doc__ = doc
    return function


def metric_expr(
    name: str,
    *,
    y_true: ColumnLike,
    y_pred: ColumnLike | None = None,
    y_score: ColumnLike | None = None,
    sample_weight: ColumnLike | None = None,
    pos_label: Any = 1,
    neg_label: Any = None,
    **params: Any,
) -> pl.Expr:
    """The registered metric ``name`` as one Polars aggregation expression.

    Parameters
    ----------
    name : str
        A key of :data:`framemetrics.REGISTRY`.
    y_true, y_pred, y_score, sample_weight : str or polars.Expr
        Input columns, by role.
    pos_label, neg_label : Any
        Class labels (classification and probability metrics).
    **params
        The metric's parameters (``zero_division``, ``beta``, ``alpha``...).

    Returns
    -------
    polars.Expr

    Examples
    --------
    >>> df = pl.DataFrame({"y": [0, 1, 1], "p": [0, 1, 0]})
    >>> df.select(metric_expr("recall_score", y_true="y", y_pred="p")).item()
    0.5
    """
    plan = make_plan({name: params}, weighted=sample_weight is not None, pos_label=pos_label, neg_label=neg_label)
    inputs = MetricInputs.of(
        y_true=y_true,
        y_pred=y_pred,
        y_score=y_score,
        sample_weight=sample_weight,
        pos_label=plan.pos_label,
        neg_label=plan.neg_label,
        alpha=plan.alpha,
        max_fpr=plan.max_fpr,
    )
    call = plan.calls[0]
    x = rows_of(inputs)
    statistics = {s: statistic_in_group(s, x) for s in call.statistics}
    checks = {c.name: check_count(c, x) for c in call.checks}
    return formula_expr(call, statistics, checks)
