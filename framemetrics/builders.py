"""The Polars builders (``framemetrics.f1_score``...): one function per binary and regression metric of the registry.

:func:`make_builder` gives each metric of :data:`framemetrics.REGISTRY` a
function returning :func:`framemetrics.compose.metric_expr` of its
arguments: an expression of column names or expressions, or the value over
array-likes (a scikit-learn-style call), computed now. Its docstring is its registry entry's :class:`~framemetrics.core.registry.Doc`
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
from framemetrics.compose import ArrayLike, metric_expr
from framemetrics.core.registry import REGISTRY, Metric
from framemetrics.wrapping import bound_function

__all__ = ["BUILDERS", "PARAMETERS", "Parameter", "make_builder"]

# The inputs' defaults are MetricInputs.of's (their annotations add array-likes); the builders return metric_expr's.
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


_INPUT = "str, polars.Expr or array-like"
PARAMETERS: dict[str, Parameter] = {
    "y_true": Parameter(_INPUT, "True class labels.", {"regression": "True values (finite numbers)."}),
    "y_pred": Parameter(
        _INPUT,
        'Predicted class labels, e.g. ``pl.col("p") >= 0.5``.',
        {"regression": "Predicted values (finite numbers)."},
    ),
    "y_score": Parameter(
        _INPUT,
        "Scores, higher meaning more likely ``pos_label`` (finite numbers;\n"
        "ties allowed; null, NaN or +-inf make the group's value null).",
        {"probability": "Predicted probability of ``pos_label``, in [0, 1]."},
    ),
    "sample_weight": Parameter(
        f"{_INPUT}, optional",
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
    "polars.Expr, float or None",
    "Of column names or expressions: a Float64 aggregation named after the\n"
    "metric, for ``select`` or ``group_by().agg()``, null for a group with an\n"
    "invalid input row (null, NaN, infinite, unknown label, out-of-range\n"
    "value) and where the metric is undefined. Of array-likes (NumPy arrays,\n"
    "pandas or Polars Series, lists, pyarrow arrays, all of one length, as\n"
    "scikit-learn takes them): the value, computed now, as a float (None\n"
    "where undefined); an invalid row raises ``ValueError``.",
)


# The common builders' docstrings end with a scikit-learn-style call: its arrays, and the value scikit-learn gives
# rounded to 4 digits.
_LABELS = "np.array([0, 1, 1, 0, 1]), np.array([0, 1, 0, 0, 1])"
_SCORES = "np.array([0, 0, 1, 1]), np.array([0.1, 0.4, 0.35, 0.8])"
_VALUES = "np.array([3.0, -0.5, 2.0, 7.0]), np.array([2.5, 0.0, 2.0, 8.0])"
ARRAY_EXAMPLES: dict[str, tuple[str, str]] = {
    "accuracy_score": (_LABELS, "0.8"),
    "precision_score": (_LABELS, "1.0"),
    "recall_score": (_LABELS, "0.6667"),
    "f1_score": (_LABELS, "0.8"),
    "roc_auc_score": (_SCORES, "0.75"),
    "average_precision_score": (_SCORES, "0.8333"),
    "log_loss": (_SCORES, "0.4723"),
    "brier_score_loss": (_SCORES, "0.1581"),
    "mean_squared_error": (_VALUES, "0.375"),
    "mean_absolute_error": (_VALUES, "0.5"),
    "r2_score": (_VALUES, "0.9486"),
}


def _array_example(name: str) -> str:
    """The scikit-learn-style call of builder ``name`` (:data:`ARRAY_EXAMPLES`), or nothing."""
    if name not in ARRAY_EXAMPLES:
        return ""
    arrays, value = ARRAY_EXAMPLES[name]
    call = f"round(fm.{name}({arrays}), 4)"
    return f"\n\nGiven arrays, as scikit-learn takes them, the value is computed now:\n\n>>> import numpy as np\n>>> {call}\n{value}"


def _signature(metric: Metric) -> inspect.Signature:
    """The builder's signature: inputs and labels as in ``MetricInputs.of`` (the inputs also array-likes), the
    prediction required like ``y_true``.

    The metric's own parameters take their defaults from the registry and
    their annotations from :data:`PARAMETERS`.
    """
    roles = _INPUTS.parameters
    y_true = roles["y_true"].replace(annotation=roles["y_true"].annotation | ArrayLike)
    positional = [y_true, y_true.replace(name=metric.prediction)]
    if metric.weighted:
        positional.append(roles["sample_weight"].replace(annotation=roles["sample_weight"].annotation | ArrayLike))
    keywords = [roles["pos_label"], roles["neg_label"]] if metric.task == "binary" else []
    keywords += [
        inspect.Parameter(name, inspect.Parameter.KEYWORD_ONLY, default=default, annotation=PARAMETERS[name].annotation)
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
        "Examples": doc.examples + _array_example(metric.name),
    }
    return "\n\n".join([doc.summary, *(_section(title, body) for title, body in sections.items())])


def make_builder(metric: Metric) -> Callable[..., pl.Expr | float | None]:
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
        A function returning a ``polars.Expr`` (given columns) or the value
        (given array-likes), with the metric's name, signature and docstring.

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
    >>> recall(df["y"], df["p"])
    0.5
    >>> recall("y", "p", beta=2)
    Traceback (most recent call last):
    ...
    TypeError: recall_score() got an unexpected keyword argument 'beta'
    """
    return bound_function(metric.name, _signature(metric), partial(metric_expr, metric.name), _docstring(metric))


BUILDERS: dict[str, Callable[..., pl.Expr | float | None]] = {
    name: make_builder(metric) for name, metric in REGISTRY.items()
}

# Module attributes too, for ``from framemetrics.builders import f1_score`` (as framemetrics/__init__.py does).
globals().update(BUILDERS)
