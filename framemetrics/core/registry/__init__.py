"""The registry: every metric of every task, with its statistics and its formula, in one list.

``evaluate``, ``evaluate_multiclass``, :mod:`framemetrics.sql`, the macro file
and the tests all walk :data:`METRICS`; a metric missing from an engine fails
them. The registry knows no engine: a formula is a :class:`Call` of the core.

* ``binary`` and ``regression`` metrics read one prediction column and share
  one table of names (:data:`REGISTRY`): one evaluation may mix them. Each
  is one entry (formula, statistics, checks, parameters, interval,
  documentation) of ``classification.py``, ``scores.py`` or
  ``regression.py``; their formulas are :data:`FORMULAS`;
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

import inspect
from collections.abc import Callable
from typing import Any

from framemetrics.core.errors import ArgumentError, did_you_mean
from framemetrics.core.registry.classification import CLASSIFICATION
from framemetrics.core.registry.metric import TASKS, Call, Doc, Metric
from framemetrics.core.registry.multiclass import MULTICLASS as _MULTICLASS
from framemetrics.core.registry.multiclass import PER_CLASS, RANK_PER_CLASS
from framemetrics.core.registry.regression import REGRESSION
from framemetrics.core.registry.scores import SCORES

__all__ = [
    "FORMULAS",
    "METRICS",
    "MULTICLASS",
    "PER_CLASS",
    "RANK_PER_CLASS",
    "REGISTRY",
    "TASKS",
    "Call",
    "Doc",
    "Metric",
    "formula_parameters",
    "get_metric",
    "metrics_of",
    "resolve_alias",
]

METRICS: tuple[Metric, ...] = CLASSIFICATION + SCORES + REGRESSION + _MULTICLASS


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

# Stage 2 of each binary and regression metric, by name: its entry's formula.
FORMULAS: dict[str, Callable[..., Any]] = {name: m.formula.function for name, m in REGISTRY.items()}


def formula_parameters(name: str) -> tuple[str, ...]:
    """The argument names of the formula of binary or regression metric ``name``, after the namespace, in order.

    Examples
    --------
    >>> formula_parameters("f1_score")
    ('tp', 'fp', 'fn', 'n_invalid', 'zero_division')
    """
    return tuple(inspect.signature(FORMULAS[name]).parameters)[1:]


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
    >>> get_metric("f1_macro")
    Traceback (most recent call last):
    ...
    framemetrics.core.errors.ArgumentError: f1_macro is a multiclass metric, and this evaluation is binary: ask for a multiclass evaluation with task="multiclass", or labels= (the classes), or one y_score column per class
    """
    table = metrics_of(task)
    if name in table:
        return table[name]
    if task != "multiclass" and name in MULTICLASS:
        raise ArgumentError(
            f"{name} is a multiclass metric, and this evaluation is {task}: ask for a multiclass evaluation with "
            'task="multiclass", or labels= (the classes), or one y_score column per class'
        )
    if task == "multiclass" and name in REGISTRY:
        raise ArgumentError(
            f"{name} is a {REGISTRY[name].task} metric, not one of a multiclass evaluation{did_you_mean(name, table)}"
        )
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
