"""Which task a call evaluates (binary, multiclass or regression), for every entry point.

:func:`framemetrics.evaluate` and the command line both call
:func:`infer_task`. The task comes from the
arguments and the column types; only where those cannot tell (numeric
``y_true`` and ``y_pred`` without scores) from one aggregate over the two
columns in the engine: their smallest and largest values and their count of
non-integer values.

The default metrics of each task are :data:`framemetrics.core.defaults.DEFAULT_METRICS`.

Examples
--------
>>> import polars as pl
>>> from framemetrics.request import Call
>>> infer_task(Call(pl.DataFrame({"y": [0, 1, 2], "p": [0.5, 1.5, 2.0]}), y_true="y", y_pred="p", engine="duckdb"))
'regression'
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import polars as pl

from framemetrics.core.errors import ArgumentError
from framemetrics.core.namespace import Namespace
from framemetrics.core.plan import requested_metrics
from framemetrics.core.registry import MULTICLASS, REGISTRY
from framemetrics.engines import Backend
from framemetrics.request import Call

__all__ = ["TASKS", "check_metrics_of_task", "infer_task", "task_from_arguments"]

TASKS = ("binary", "multiclass", "regression")


def _is_text(dtype: pl.DataType) -> bool:
    return dtype in (pl.String, pl.Categorical) or isinstance(dtype, pl.Enum)


def _task_of_metrics(metrics: Any) -> str | None:
    """The task the metric names alone imply: regression, multiclass-only or binary-only names; None if shared."""
    names = {name for name, _ in requested_metrics(metrics)} if metrics is not None else set()
    families = {REGISTRY[n].family for n in names if n in REGISTRY}
    if "regression" in families:
        return "regression"
    if names and names <= set(MULTICLASS) - set(REGISTRY):
        return "multiclass"
    if any(n in REGISTRY and n not in MULTICLASS for n in names):
        return "binary"
    return None


def _extremes(ns: Namespace, column: Any) -> dict[str, Any]:
    """The probe of one numeric column: smallest and largest value, number of non-integer values."""
    value = ns.to_float(column)
    return {"low": ns.min(value), "high": ns.max(value), "fractional": ns.count_where(ns.ne(value, ns.floor(value)))}


def _probe(opened: Backend, columns: Sequence[str]) -> list[dict[str, Any]]:
    """:func:`_extremes` of each column, in one aggregate in the engine."""
    frame = opened.frame({f"fm_c{i}": c for i, c in enumerate(columns)})
    ns = frame.ns
    named = {f"{key}_{i}": expr for i in range(len(columns)) for key, expr in _extremes(ns, ns.col(f"fm_c{i}")).items()}
    row = opened.run(frame.aggregate([], named)).row(0, named=True)
    return [{key: row[f"{key}_{i}"] for key in ("low", "high", "fractional")} for i in range(len(columns))]


def _text_classes(opened: Backend, columns: Sequence[str]) -> tuple[int, str | None, str | None]:
    """The number of classes (non-null values, as text) of the label ``columns`` together, the first and
    the last: one query in the engine."""
    frame = opened.frame({f"fm_c{i}": c for i, c in enumerate(columns)})
    ns = frame.ns
    values = [frame.select({"fm_v": ns.to_text(ns.col(f"fm_c{i}"))}) for i in range(len(columns))]
    union = values[0].concat(values[1]) if len(values) == 2 else values[0]
    distinct = union.filter(ns.not_(ns.is_null(ns.col("fm_v")))).aggregate(["fm_v"], {})
    shown = {"n": ns.count_rows(), "low": ns.min(ns.col("fm_v")), "high": ns.max(ns.col("fm_v"))}
    row = opened.run(distinct.aggregate([], shown)).row(0, named=True)
    return row["n"], row["low"], row["high"]


def task_from_arguments(y_score: str | Sequence[str] | None, labels: Sequence[Any] | None, metrics: Any) -> str | None:
    """The task the arguments alone tell, without reading data; None if they do not.

    Several score columns or more than two ``labels`` mean multiclass;
    otherwise metric names of one task only (``r2_score``: regression,
    ``f1_macro``: multiclass, ``roc_auc_score``: binary) mean that task.

    Examples
    --------
    >>> task_from_arguments(["p_a", "p_b", "p_c"], None, None), task_from_arguments(None, None, ["r2_score"])
    ('multiclass', 'regression')
    >>> task_from_arguments("p", None, ["accuracy_score"]) is None  # a name of several tasks
    True
    """
    if y_score is not None and not isinstance(y_score, str):
        return "multiclass"
    if labels is not None and len(labels) > 2:
        return "multiclass"
    return _task_of_metrics(metrics)


def check_metrics_of_task(metrics: Any, task: str) -> None:
    """Raise unless every requested metric exists for ``task`` (binary and regression names are one table).

    Examples
    --------
    >>> check_metrics_of_task(["f1_score"], "regression")
    Traceback (most recent call last):
    ...
    framemetrics.core.errors.ArgumentError: f1_score is not a regression metric (task='regression')
    """
    for name, _ in requested_metrics(metrics):
        family = REGISTRY[name].family if name in REGISTRY else None
        if family is not None and (family == "regression") != (task == "regression"):
            raise ArgumentError(f"{name} is not a {task} metric (task={task!r})")


def infer_task(call: Call, metrics: Any = None) -> str:
    """The task of a call: binary, multiclass or regression.

    In order: several score columns, a list or array score column, or more
    than two ``labels`` mean multiclass; metric names of one task only mean
    that task; one numeric score column means binary. With ``y_pred`` only:
    text classes are binary when ``pos_label`` is text or ``labels`` are given,
    multiclass when there are more than two; two raise (which is positive?),
    asking for ``pos_label=`` or ``task="multiclass"``, as scikit-learn asks for
    ``pos_label`` on string labels;
    booleans are binary; numbers go to one aggregate (:func:`_probe`): a
    non-integer value means regression, values within ``{pos_label,
    neg_label}`` binary; more than two distinct values are ambiguous (labels
    or counts?) and raise, asking for ``task=``. The source is opened on the
    call's engine only where the arguments do not tell (:func:`task_from_arguments`).

    Examples
    --------
    >>> import polars as pl
    >>> frame = pl.DataFrame({"y": [0, 1, 2, 1], "yhat": [0, 2, 2, 1], "p": [[0.1, 0.9, 0.0]] * 4})
    >>> infer_task(Call(frame, y_true="y", y_score="p"))
    'multiclass'
    >>> infer_task(Call(frame, y_true="y", y_pred="yhat"))
    Traceback (most recent call last):
    ...
    framemetrics.core.errors.ArgumentError: y_true and y_pred hold integers from 0 to 2: classes or counts? \
Pass task="multiclass" (with labels= to fix the classes), task="regression", or pos_label= and neg_label= if they \
are two classes
    """
    known = task_from_arguments(y_score=call.y_score, labels=call.labels, metrics=metrics)
    if known is not None:
        return known
    with call.open() as opened:
        return _task_of_columns(opened, call)


def _task_of_columns(opened: Backend, call: Call) -> str:
    """:func:`infer_task` from the columns' types (and values) of the source ``opened``."""
    y_true, y_pred, y_score = call.y_true, call.y_pred, call.y_score
    pos_label, neg_label = call.pos_label, call.neg_label
    used = [c for c in (y_true, y_pred, y_score) if isinstance(c, str)]
    dtypes = opened.dtypes(used)
    if y_score is not None:
        kind = dtypes.get(y_score)
        return "multiclass" if isinstance(kind, (pl.List, pl.Array)) else "binary"
    if y_pred is None:
        raise ArgumentError("pass y_score= (scores or probabilities) or y_pred= (predicted labels or values)")
    kinds = [dtypes.get(y_true), dtypes.get(y_pred)]
    if any(k is not None and _is_text(k) for k in kinds):
        if isinstance(pos_label, str) or call.labels is not None:
            return "binary"
        count, negative, positive = _text_classes(opened, [y_true, y_pred])
        if count == 2:
            raise ArgumentError(
                f"y_true and y_pred hold two classes, {negative!r} and {positive!r}: which is positive? Pass "
                f"pos_label= and neg_label= (e.g. pos_label={positive!r}, neg_label={negative!r}) or "
                f'labels=[{negative!r}, {positive!r}] for a binary evaluation, or task="multiclass"'
            )
        return "multiclass"
    if all(k == pl.Boolean for k in kinds) or call.labels is not None:
        return "binary"
    true, pred = _probe(opened, [y_true, y_pred])
    if true["fractional"] or pred["fractional"]:
        return "regression"
    values = {v for side in (true, pred) for v in (side["low"], side["high"]) if v is not None}
    binary = {pos_label, neg_label} if neg_label is not None or pos_label not in (0, 1) else {0, 1}
    if values <= binary:
        return "binary"
    shown = f"from {min(values):g} to {max(values):g}" if values else "only nulls"
    raise ArgumentError(
        f"y_true and y_pred hold integers {shown}: classes or counts? "
        'Pass task="multiclass" (with labels= to fix the classes), task="regression", '
        "or pos_label= and neg_label= if they are two classes"
    )
