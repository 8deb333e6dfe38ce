"""Build one metric as a single Polars expression: stage 1 inside stage 2.

The public metric functions (``framemetrics.f1_score`` ...) are made from
the registry over :func:`metric_expr` (:mod:`framemetrics.builders`), usable
inside ``group_by().agg()``. Given array-likes in place of columns (NumPy
arrays, pandas or Polars Series, lists, pyarrow arrays), the same expression
runs at once over a frame of them (:func:`input_frame`): a scikit-learn-style
call returns the value, and an invalid row raises ``evaluate``'s ``ValueError``.
The expression is one node whose inputs are the columns, made into the
metric's expression when a query plans it (``pl.pipe_with_dtype``), once their
dtypes are known: each input's type is checked then, as ``evaluate`` checks
its columns, so that text labels with the default ``pos_label=1`` fail with
``evaluate``'s short message, not a Polars comparison error with the
expression's dump.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from functools import partial
from typing import Any, Protocol

import polars as pl

from framemetrics.compilers.polars.expressions import check_count, in_group
from framemetrics.compilers.polars.inputs import MetricInputs, rows_of, to_expr
from framemetrics.compilers.polars.namespace import POLARS
from framemetrics.compilers.polars.query import formula_expr
from framemetrics.core.checks import Check, raise_for_invalid
from framemetrics.core.errors import ArgumentError
from framemetrics.core.plan import Plan, make_plan
from framemetrics.core.statistics import Rows
from framemetrics.request.call import check_schema
from framemetrics.sources import schema

__all__ = ["INPUT_ROLES", "ArrayLike", "SupportsArray", "input_frame", "interval_expr", "metric_expr"]

# The arguments of metric_expr that are inputs, not metric parameters.
INPUT_ROLES = ("y_true", "y_pred", "y_score", "sample_weight", "pos_label", "neg_label")
# The inputs that are columns (or array-likes).
_COLUMNS = ("y_true", "y_pred", "y_score", "sample_weight")


class SupportsArray(Protocol):
    """A NumPy array, a pandas or Polars Series, a pyarrow Array or ChunkedArray: what NumPy can read."""

    def __array__(self, *args: Any, **kwargs: Any) -> Any: ...


ArrayLike = SupportsArray | Sequence[Any]

# A metric's expression over its plan's rows, with the checks whose counts make it null.
Build = Callable[[Plan, Rows], tuple[pl.Expr, tuple[Check, ...]]]


def _series(role: str, values: Any) -> pl.Series:
    """``values`` as one Polars column named ``role``; an ``ArgumentError`` if it is not a one-dimensional array-like."""
    if not isinstance(values, pl.Series) and not hasattr(values, "__array__") and not isinstance(values, Sequence):
        raise ArgumentError(
            f"{role} must be a column name, a polars.Expr or an array-like (a NumPy array, a pandas or Polars Series, "
            f"a list, a pyarrow Array), got {type(values).__name__}"
        )
    try:
        series = pl.Series(role, values)
    except (TypeError, ValueError, pl.exceptions.PolarsError) as error:
        raise ArgumentError(f"{role} cannot be read as one column: {str(error).splitlines()[0]}") from None
    if series.dtype.is_nested():
        raise ArgumentError(f"{role} must be one-dimensional, got {series.dtype} values")
    return series


def input_frame(inputs: Mapping[str, Any]) -> pl.DataFrame | None:
    """The array-likes among ``inputs`` (role to value) as one frame with a column per role; None if they are columns.

    Inputs are either all column names or expressions (the metric is an
    expression) or all array-likes of one length (the metric is computed now).

    Examples
    --------
    >>> input_frame({"y_true": [0, 1], "y_score": (0.2, 0.9)}).columns
    ['y_true', 'y_score']
    >>> input_frame({"y_true": "y", "y_score": pl.col("p")}) is None
    True
    >>> input_frame({"y_true": [0, 1], "y_score": "p"})
    Traceback (most recent call last):
    ...
    framemetrics.core.errors.ArgumentError: y_true is an array but y_score is a column name or expression: pass arrays (the metric is computed now) or columns (it is an expression), not both
    >>> input_frame({"y_true": [0, 1, 1], "y_score": [0.2, 0.9]})
    Traceback (most recent call last):
    ...
    framemetrics.core.errors.ArgumentError: the inputs differ in length: y_true has 3 values, y_score 2
    """
    columns = {role: value for role, value in inputs.items() if value is not None}
    arrays = [role for role, value in columns.items() if not isinstance(value, (str, pl.Expr))]
    if not arrays:
        return None
    if len(arrays) < len(columns):
        named = [role for role in columns if role not in arrays]
        raise ArgumentError(
            f"{' and '.join(arrays)} {'is an array' if len(arrays) == 1 else 'are arrays'} but {' and '.join(named)} "
            f"{'is a column name or expression' if len(named) == 1 else 'are column names or expressions'}: pass "
            "arrays (the metric is computed now) or columns (it is an expression), not both"
        )
    series = [_series(role, columns[role]) for role in arrays]
    if len({s.len() for s in series}) > 1:
        lengths = [f"{s.name} {s.len()}" for s in series]
        raise ArgumentError(f"the inputs differ in length: {lengths[0].replace(' ', ' has ', 1)} values, "
                            + ", ".join(lengths[1:]))  # fmt: skip
    return pl.DataFrame(series)


def _kind(dtype: pl.DataType) -> str:
    """The coarse kind of ``dtype`` that :func:`~framemetrics.request.call.check_schema` reads (numeric, bool...)."""
    return schema(pl.LazyFrame(schema={"column": dtype}))["column"]


def _prepared(name: str, arguments: dict[str, Any], **plan_options: Any) -> tuple[Plan, Rows]:
    """The plan of metric ``name`` over the columns among ``arguments`` (the rest its parameters), and its rows."""
    columns = {role: arguments.pop(role) for role in INPUT_ROLES if role in arguments}
    labels = {"pos_label": columns.pop("pos_label", 1), "neg_label": columns.pop("neg_label", None)}
    weighted = columns.get("sample_weight") is not None
    plan = make_plan({name: arguments}, weighted=weighted, **labels, **plan_options)
    labels = {"pos_label": plan.pos_label, "neg_label": plan.neg_label}
    inputs = MetricInputs.of(**columns, **labels, alpha=plan.alpha, max_fpr=plan.max_fpr, power=plan.power)
    return plan, rows_of(inputs)


def _planned(
    name: str,
    roles: tuple[str, ...],
    parameters: dict[str, Any],
    build: Build,
    plan_options: dict[str, Any],
    inputs: list[tuple[pl.Expr, pl.DataType]],
) -> pl.Expr:
    """``build``'s expression of metric ``name`` over ``inputs`` (one per role), once a query knows their dtypes.

    Each input is checked first, as ``evaluate`` checks its columns
    (:func:`~framemetrics.request.call.check_schema`): labels compared with
    ``pos_label`` of its kind (text or not), the other inputs numeric;
    otherwise the query raises its short ``ValueError`` before reading a row.
    """
    columns = {role: column for role, (column, _) in zip(roles, inputs, strict=True)}
    plan, x = _prepared(name, {**parameters, **columns}, **plan_options)
    for role, (column, dtype) in zip(roles, inputs, strict=True):
        named = column.meta.output_name(raise_if_undetermined=False) or role
        check_schema(plan, {role: named}, (), {named: _kind(dtype)}, thresholded=False)
    return build(plan, x)[0]


def _computed(frame: pl.DataFrame, plan: Plan, x: Rows, value: pl.Expr, checks: tuple[Check, ...]) -> Any:
    """``value`` over ``frame``'s rows as a Python value; ``evaluate``'s ``ValueError`` if a row is invalid."""
    checks = tuple(dict.fromkeys(checks))
    counts = [check_count(c, x).alias(c.name) for c in checks]
    result = frame.select(value.alias("fm_value"), *counts, pl.len().alias("n_rows")).row(0, named=True)

    def describe(check: Check, count: int) -> tuple[str, None]:
        return check.role, None

    labels = (plan.pos_label, plan.neg_label)
    raise_for_invalid({c: result[c.name] for c in checks}, describe, lambda _: 0, "error", result["n_rows"], labels)
    return result["fm_value"]


def _lowered(name: str, arguments: dict[str, Any], build: Build, **plan_options: Any) -> Any:
    """``build``'s expression of metric ``name``, planned once its inputs' dtypes are known (:func:`_planned`: one
    node, whose inputs are checked first); with array-likes as inputs, its value over them, computed now."""
    frame = input_frame({role: arguments[role] for role in _COLUMNS if role in arguments})
    if frame is not None:
        arguments |= {role: role for role in frame.columns}
    parameters = {key: value for key, value in arguments.items() if key not in _COLUMNS}
    plan, x = _prepared(name, dict(arguments), **plan_options)  # the arguments are checked now
    value, checks = build(plan, x)
    if frame is not None:
        check_schema(plan, {role: role for role in frame.columns}, (), schema(frame.lazy()), thresholded=False)
        return _computed(frame, plan, x, value, checks)
    columns = {role: to_expr(arguments[role]) for role in _COLUMNS if arguments.get(role) is not None}
    planned = partial(_planned, name, tuple(columns), parameters, build, plan_options)
    return pl.pipe_with_dtype(list(columns.values()), planned).alias(value.meta.output_name())


def _interval(name: str, plan: Plan, x: Rows) -> tuple[pl.Expr, tuple[Check, ...]]:
    interval = plan.intervals[0]
    if interval.interval.quantiles:
        raise ArgumentError(f"{interval.interval.method}'s interval reads Beta quantiles, computed in stages, not one "
                            "expression: use framemetrics.evaluate(..., ci=level, ci_method=...)")  # fmt: skip

    def struct(columns: Mapping[str, pl.Expr]) -> pl.Expr:
        values = interval.values(POLARS, columns)
        return pl.struct(
            [values[column].alias(output) for output, column in interval.columns().items() if column in values]
        )

    value = in_group(x, tuple(dict.fromkeys(plan.statistics)), interval.call.checks, struct)
    return value.alias(f"{name}_interval"), interval.call.checks


def interval_expr(
    name: str, *, level: float = 0.95, method: str | None = None, **arguments: Any
) -> pl.Expr | dict[str, float | None]:
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
    polars.Expr or dict
        The struct; given array-likes, its fields' values (a dict), computed now.

    Examples
    --------
    >>> df = pl.DataFrame({"y": [0, 1, 1, 1], "p": [0, 1, 0, 1]})
    >>> df.select(interval_expr("recall_score", y_true="y", y_pred="p").struct.unnest().round(4)).rows()
    [(0.2077, 0.9385)]
    >>> {k: round(v, 4) for k, v in interval_expr("recall_score", y_true=[0, 1, 1, 1], y_pred=[0, 1, 0, 1]).items()}
    {'low': 0.2077, 'high': 0.9385}
    """
    options = {"ci": level, "ci_method": method, "interval_outputs": ("se", "low", "high")}
    return _lowered(name, arguments, partial(_interval, name), **options)


def _metric(plan: Plan, x: Rows) -> tuple[pl.Expr, tuple[Check, ...]]:
    call = plan.calls[0]
    value = in_group(x, call.statistics, call.checks, lambda columns: formula_expr(call, columns, columns))
    return value.alias(call.name), call.checks


def metric_expr(name: str, **arguments: Any) -> pl.Expr | float | None:
    """The registered metric ``name`` as one Polars aggregation expression, or its value over array-likes.

    Parameters
    ----------
    name : str
        A key of :data:`framemetrics.REGISTRY`.
    **arguments
        The inputs of :meth:`~framemetrics.compilers.polars.inputs.MetricInputs.of` (``y_true``
        and the other columns by role, ``pos_label``, ``neg_label``), then the
        metric's parameters (``zero_division``, ``beta``, ``alpha``...). The
        inputs are all column names or expressions, or all array-likes of one
        length (:func:`input_frame`).

    Returns
    -------
    polars.Expr, float or None
        The expression; given array-likes, its value over them (None where
        the metric is null), computed now.

    Raises
    ------
    ValueError
        Given array-likes, if a row is invalid (a label that is neither
        ``pos_label`` nor ``neg_label``, a null, NaN or out-of-range value),
        as :func:`framemetrics.evaluate`.

    Examples
    --------
    >>> df = pl.DataFrame({"y": [0, 1, 1], "p": [0, 1, 0]})
    >>> df.select(metric_expr("recall_score", y_true="y", y_pred="p")).item()
    0.5
    >>> metric_expr("recall_score", y_true=[0, 1, 1], y_pred=[0, 1, 0])
    0.5
    >>> metric_expr("recall_score", y_true=[0, 1, 2], y_pred=[0, 1, 0])
    Traceback (most recent call last):
    ...
    ValueError: invalid input: y_true: 1 row is null, NaN or not one of the labels 1, 0
    """
    return _lowered(name, arguments, _metric)
