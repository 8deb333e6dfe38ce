"""The registry: every metric of every task, with its statistics and its formula, in one list.

``evaluate``, ``evaluate_multiclass``, :mod:`framemetrics.sql`, the macro file
and the tests all walk :data:`METRICS`; a metric missing from an engine fails
them. The registry knows no engine: a formula is a :class:`Call` of the core.

* ``binary`` and ``regression`` metrics read one prediction column and share
  one table of names (:data:`REGISTRY`): one evaluation may mix them;
* ``multiclass`` metrics read class labels or one score per class
  (:data:`MULTICLASS`); scikit-learn's ``average=`` and ``multi_class=``
  spellings are aliases of their names (:func:`resolve_alias`).

Examples
--------
>>> sorted({m.task for m in METRICS})
['binary', 'multiclass', 'regression']
>>> get_metric("f1_macro", "multiclass").averages["value"].arguments
('f1_score', 'zero_division')
"""

from __future__ import annotations

from typing import Any

from framemetrics.core.errors import ArgumentError, did_you_mean
from framemetrics.core.registry.binary import BINARY
from framemetrics.core.registry.metric import TASKS, Call, Metric
from framemetrics.core.registry.multiclass import MULTICLASS as _MULTICLASS
from framemetrics.core.registry.multiclass import PER_CLASS, RANK_PER_CLASS

__all__ = [
    "METRICS",
    "MULTICLASS",
    "PER_CLASS",
    "RANK_PER_CLASS",
    "REGISTRY",
    "TASKS",
    "Call",
    "Metric",
    "get_metric",
    "metrics_of",
    "resolve_alias",
]

METRICS: tuple[Metric, ...] = BINARY + _MULTICLASS


def metrics_of(task: str) -> dict[str, Metric]:
    """The metrics one evaluation of ``task`` may request, by name (binary and regression share one table).

    Examples
    --------
    >>> "mean_squared_error" in metrics_of("binary"), "f1_macro" in metrics_of("binary")
    (True, False)
    """
    if task not in TASKS:
        raise ArgumentError(f"unknown task {task!r}; expected one of {', '.join(TASKS)}")
    tasks = ("multiclass",) if task == "multiclass" else ("binary", "regression")
    return {m.name: m for m in METRICS if m.task in tasks}


REGISTRY: dict[str, Metric] = metrics_of("binary")
MULTICLASS: dict[str, Metric] = metrics_of("multiclass")


def get_metric(name: str, task: str = "binary") -> Metric:
    """Look a metric of ``task`` up by name, suggesting the closest names on a typo.

    Parameters
    ----------
    name : str
        A metric name (see :func:`metrics_of`).
    task : {"binary", "regression", "multiclass"}, default "binary"

    Returns
    -------
    Metric

    Examples
    --------
    >>> get_metric("f1_score").statistics
    ('tp', 'fp', 'fn')
    >>> get_metric("f1_scor")
    Traceback (most recent call last):
    ...
    framemetrics.core.errors.ArgumentError: unknown metric 'f1_scor'; did you mean f1_score, r2_score, fbeta_score?
    """
    table = metrics_of(task)
    if name in table:
        return table[name]
    kind = "multiclass metric" if task == "multiclass" else "metric"
    raise ArgumentError(f"unknown {kind} {name!r}{did_you_mean(name, table)}")


def resolve_alias(name: str, params: dict[str, Any]) -> tuple[str, dict[str, Any]]:
    """A multiclass metric's registry name and its remaining parameters, from scikit-learn's spelling.

    ``("f1_score", {"average": "macro"})`` is ``f1_macro``; ``("roc_auc_score",
    {"multi_class": "ovo", "average": "weighted"})`` is ``roc_auc_ovo_weighted``.

    Examples
    --------
    >>> resolve_alias("fbeta_score", {"average": "weighted", "beta": 2})
    ('fbeta_weighted', {'beta': 2})
    """
    params = dict(params)
    if "average" not in params and "multi_class" not in params:
        return name, params
    average = params.pop("average", "macro")
    if average is None:
        raise ArgumentError(f"{name} with average=None gives one value per class: use classification_report")
    if name == "roc_auc_score":
        multi_class = params.pop("multi_class", "ovr")
        return f"roc_auc_{multi_class}" + ("" if average == "macro" else f"_{average}"), params
    if name == "average_precision_score":
        return f"average_precision_{average}", params
    return f"{name.removesuffix('_score')}_{average}", params
