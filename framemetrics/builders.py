"""The Polars builders (``framemetrics.f1_score``...): one function per binary and regression metric of the registry.

:func:`make_builder` gives each metric of :data:`framemetrics.REGISTRY` a
function returning :func:`framemetrics.compose.metric_expr` of its
arguments. The docstrings are data, in ``builders.toml``: each parameter's
description once, and each metric's summary, See Also, Notes and Examples.
"""

from __future__ import annotations

import inspect
import operator
import textwrap
import tomllib
from collections.abc import Callable
from functools import partial, reduce
from pathlib import Path
from typing import Any

import polars as pl

from framemetrics.compose import metric_expr
from framemetrics.core.registry import REGISTRY, Metric
from framemetrics.compilers.polars.inputs import MetricInputs
from framemetrics.wrapping import bound_function

__all__ = ["BUILDERS", "make_builder"]

_DOCS: dict[str, Any] = tomllib.loads(Path(__file__).with_name("builders.toml").read_text(encoding="utf-8"))

# The inputs' annotations and defaults are MetricInputs.of's; the builders return metric_expr's expression.
_INPUTS = inspect.signature(MetricInputs.of, eval_str=True)
_RETURN = inspect.signature(metric_expr, eval_str=True).return_annotation
# The types a metric parameter's annotation in builders.toml may name ("float | None").
_TYPES = {"float": float, "bool": bool, "None": None}


def _annotation(text: str) -> Any:
    return reduce(operator.or_, (_TYPES[name.strip()] for name in text.split("|")))


def _signature(metric: Metric) -> inspect.Signature:
    """The builder's signature: inputs and labels as in ``MetricInputs.of``, the prediction required like ``y_true``.

    The metric's own parameters take their defaults from the registry and
    their annotations from ``builders.toml``.
    """
    roles = _INPUTS.parameters
    positional = [roles["y_true"], roles["y_true"].replace(name=metric.prediction)]
    if metric.weighted:
        positional.append(roles["sample_weight"])
    keywords = [roles["pos_label"], roles["neg_label"]] if metric.task == "binary" else []
    keywords += [
        inspect.Parameter(
            name,
            inspect.Parameter.KEYWORD_ONLY,
            default=default,
            annotation=_annotation(_DOCS["parameters"][name]["annotation"]),
        )
        for name, default in metric.parameters.items()
    ]
    parameters = [p.replace(kind=inspect.Parameter.POSITIONAL_OR_KEYWORD) for p in positional] + keywords
    return inspect.Signature(parameters, return_annotation=_RETURN)


def _entry(kind: str, description: str) -> str:
    return f"{kind}\n{textwrap.indent(description, '    ')}"


def _section(title: str, body: str) -> str:
    return f"{title}\n{'-' * len(title)}\n{body}"


def _docstring(metric: Metric) -> str:
    """The summary, then Parameters (in signature order), Returns, See Also, Notes and Examples."""
    text = _DOCS["metrics"][metric.name]
    parameters = []
    for name in _signature(metric).parameters:
        spec = _DOCS["parameters"][name]
        description = spec.get("metric", {}).get(metric.name) or spec.get("family", {}).get(metric.family, spec["doc"])
        parameters.append(_entry(f"{name} : {spec['type']}", description))
    returns = _DOCS["returns"]
    sections = {
        "Parameters": "\n".join(parameters),
        "Returns": _entry(returns["type"], returns["doc"]),
        "See Also": text["see_also"],
        "Notes": text["notes"],
        "Examples": text["examples"],
    }
    return "\n\n".join([text["summary"], *(_section(title, body) for title, body in sections.items())])


def make_builder(metric: Metric) -> Callable[..., pl.Expr]:
    """The public Polars builder of ``metric``, named ``framemetrics.<name>``.

    The signature follows the registry: ``y_true``, the prediction (``y_pred``
    or ``y_score``) and, if the metric is weighted, ``sample_weight`` by
    position or keyword; keyword-only ``pos_label`` and ``neg_label`` (binary
    task), then the metric's parameters with their defaults. The arguments are
    bound to it (so a missing, unknown or extra argument raises ``TypeError``)
    and passed, defaults filled, to :func:`~framemetrics.compose.metric_expr`.
    The docstring is assembled from ``builders.toml``.

    Parameters
    ----------
    metric : Metric
        A binary or regression metric of :data:`framemetrics.REGISTRY`.

    Returns
    -------
    callable
        A function returning a ``polars.Expr``, with the metric's name,
        signature and docstring.

    Examples
    --------
    >>> from framemetrics.core.registry import get_metric
    >>> recall = make_builder(get_metric("recall_score"))
    >>> list(inspect.signature(recall).parameters)
    ['y_true', 'y_pred', 'sample_weight', 'pos_label', 'neg_label', 'zero_division']
    >>> recall.__doc__.splitlines()[0]
    'Recall (sensitivity, true positive rate).'
    >>> df = pl.DataFrame({"y": [0, 1, 1], "p": [0, 1, 0]})
    >>> df.select(recall("y", "p")).item()
    0.5
    >>> recall("y", "p", beta=2)
    Traceback (most recent call last):
    ...
    TypeError: recall_score() got an unexpected keyword argument 'beta'
    """
    return bound_function(metric.name, _signature(metric), partial(metric_expr, metric.name), _docstring(metric))


BUILDERS: dict[str, Callable[..., pl.Expr]] = {name: make_builder(metric) for name, metric in REGISTRY.items()}

# Module attributes too, for ``from framemetrics.builders import f1_score`` (as framemetrics/__init__.py does).
globals().update(BUILDERS)
