"""The Polars builders (``framemetrics.f1_score``...): one function per binary and regression metric of the registry.

:func:`make_builder` gives each metric of :data:`framemetrics.REGISTRY` a
function returning :func:`framemetrics.compose.metric_expr` of its
arguments. Its docstring is its registry entry's :class:`~framemetrics.core.registry.Doc`
(summary, See Also, Notes, Examples) around the parameters' descriptions,
written once below (:data:`PARAMETERS`).
"""

from __future__ import annotations

import inspect
import textwrap
from collections.abc import Callable
from dataclasses import dataclass, field
from functools import partial
from typing import Any

import polars as pl

from framemetrics.compilers.polars.inputs import MetricInputs
from framemetrics.compose import metric_expr
from framemetrics.core.registry import REGISTRY, Metric
from framemetrics.wrapping import bound_function

__all__ = ["BUILDERS", "PARAMETERS", "Parameter", "make_builder"]

# The inputs' annotations and defaults are MetricInputs.of's; the builders return metric_expr's expression.
_INPUTS = inspect.signature(MetricInputs.of, eval_str=True)
_RETURN = inspect.signature(metric_expr, eval_str=True).return_annotation


@dataclass(frozen=True)
class Parameter:
    """A builder parameter's numpydoc type and description; ``family`` overrides it for a metric family.

    ``annotation`` is the type hint of a metric's own parameter (an input's
    comes from ``MetricInputs.of``).
    """

    type: str
    doc: str
    family: dict[str, str] = field(default_factory=dict)
    annotation: Any = None


PARAMETERS: dict[str, Parameter] = {
    "y_true": Parameter("str or polars.Expr", "True class labels.", {"regression": "True values (finite numbers)."}),
    "y_pred": Parameter(
        "str or polars.Expr",
        'Predicted class labels, e.g. ``pl.col("p") >= 0.5``.',
        {"regression": "Predicted values (finite numbers)."},
    ),
    "y_score": Parameter(
        "str or polars.Expr",
        "Scores, higher meaning more likely ``pos_label`` (finite numbers;\n"
        "ties allowed; null, NaN or +-inf make the group's value null).",
        {"probability": "Predicted probability of ``pos_label``, in [0, 1]."},
    ),
    "sample_weight": Parameter(
        "str or polars.Expr, optional",
        "Non-negative weights.",
        {"classification": "Non-negative weights; counts become sums of weights."},
    ),
    "pos_label": Parameter("Any, default 1", "The positive class."),
    "neg_label": Parameter(
        "Any, optional",
        "The negative class; default the other of 0 and 1.",
        {
            "classification": "The negative class; default the other of 0 and 1. Any other label\n"
            "makes the group's value null."
        },
    ),
    "beta": Parameter(
        "float, default 1.0",
        "Weight of recall relative to precision (>= 0: 0 gives the precision, ``inf`` the recall).",
        annotation=float,
    ),
    "zero_division": Parameter(
        "{None, 0, 1}, default None", "Value when the denominator is 0; None gives null.", annotation=float | None
    ),
    "max_fpr": Parameter(
        "float, optional",
        "In (0, 1]: the McClish-standardised partial AUC over FPR <= max_fpr,\nas scikit-learn's ``max_fpr``.",
        annotation=float | None,
    ),
    "alpha": Parameter("float, default 0.5", "The quantile, in [0, 1].", annotation=float),
    "power": Parameter(
        "float, default 0.0",
        "The Tweedie power: 0 normal, 1 Poisson, 2 Gamma, 3 inverse Gaussian; any\n"
        "``p <= 0`` or ``p >= 1`` (``0 < p < 1`` is invalid, as in scikit-learn).",
        annotation=float,
    ),
    "force_finite": Parameter(
        "bool, default True", "Replace the undefined values of a constant ``y_true`` by 1 or 0.", annotation=bool
    ),
}
_RETURNS = Parameter(
    "polars.Expr",
    "A Float64 aggregation named after the metric, for ``select`` or\n"
    "``group_by().agg()``. Null for a group with an invalid input row\n"
    "(null, NaN, infinite, unknown label, out-of-range value) and where\n"
    "the metric is undefined.",
)


def _signature(metric: Metric) -> inspect.Signature:
    """The builder's signature: inputs and labels as in ``MetricInputs.of``, the prediction required like ``y_true``.

    The metric's own parameters take their defaults from the registry and
    their annotations from :data:`PARAMETERS`.
    """
    roles = _INPUTS.parameters
    positional = [roles["y_true"], roles["y_true"].replace(name=metric.prediction)]
    if metric.weighted:
        positional.append(roles["sample_weight"])
    keywords = [roles["pos_label"], roles["neg_label"]] if metric.task == "binary" else []
    keywords += [
        inspect.Parameter(
            name, inspect.Parameter.KEYWORD_ONLY, default=default, annotation=PARAMETERS[name].annotation
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
    doc = metric.doc
    if doc is None:
        raise ValueError(f"{metric.name} has no documentation in its registry entry")
    parameters = []
    for name in _signature(metric).parameters:
        spec = PARAMETERS[name]
        description = doc.inputs.get(name) or spec.family.get(metric.family, spec.doc)
        parameters.append(_entry(f"{name} : {spec.type}", description))
    sections = {
        "Parameters": "\n".join(parameters),
        "Returns": _entry(_RETURNS.type, _RETURNS.doc),
        "See Also": doc.see_also,
        "Notes": doc.notes,
        "Examples": doc.examples,
    }
    return "\n\n".join([doc.summary, *(_section(title, body) for title, body in sections.items())])


def make_builder(metric: Metric) -> Callable[..., pl.Expr]:
    """The public Polars builder of ``metric``, named ``framemetrics.<name>``.

    The signature follows the registry: ``y_true``, the prediction (``y_pred``
    or ``y_score``) and, if the metric is weighted, ``sample_weight`` by
    position or keyword; keyword-only ``pos_label`` and ``neg_label`` (binary
    task), then the metric's parameters with their defaults. The arguments are
    bound to it (so a missing, unknown or extra argument raises ``TypeError``)
    and passed, defaults filled, to :func:`~framemetrics.compose.metric_expr`.
    The docstring is assembled from the metric's entry (:class:`~framemetrics.core.registry.Doc`).

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
