"""The one validation of an entry point's arguments, and the docs of its shared parameters.

Every public entry point checks its arguments here, against the declarations
of :mod:`framemetrics.request.parameters`: a bad value is one
:class:`~framemetrics.core.errors.ArgumentError`,
``"<name> must be <what it accepts>, got <value>"``, the same on every entry
point and engine. The checks that relate several arguments (a ``neg_label``
equal to ``pos_label``, a metric of another task, ``bins`` without a ranking
metric...) come after, where the request is resolved.

Examples
--------
>>> validate("evaluate", {"nulls": "keep"})
Traceback (most recent call last):
...
framemetrics.core.errors.ArgumentError: nulls must be 'error' or 'drop', got 'keep'
>>> validate("evaluate", {"threshold": 1})
{'threshold': 1.0}
"""

from __future__ import annotations

import functools
import inspect
import re
import textwrap
from collections.abc import Callable, Iterable, Mapping
from typing import Any, TypeVar

from framemetrics.columns import by_expressions, check_engine
from framemetrics.core.errors import ArgumentError, index_column
from framemetrics.core.plan import short_repr
from framemetrics.request.parameters import declared
from framemetrics.sources import index_levels

__all__ = ["check", "document", "validate", "validated"]

F = TypeVar("F", bound=Callable[..., Any])


def check(name: str, value: Any, entry: str) -> Any:
    """``value`` of parameter ``name`` of ``entry`` as the computation reads it; raise if it is not accepted.

    Examples
    --------
    >>> check("max_points", 3, "roc_curve")
    Traceback (most recent call last):
    ...
    framemetrics.core.errors.ArgumentError: max_points must be an integer of at least 4, got 3
    """
    accepts = declared(name, entry).accepts
    problem = accepts.problem(value)
    if problem is not None:
        raise ArgumentError(f"{name} must be {problem}, got {short_repr(value)}")
    return accepts.convert(value)


def validate(entry: str, arguments: Mapping[str, Any]) -> dict[str, Any]:
    """Each of ``arguments`` of ``entry`` checked (:func:`check`), in order: the values the computation reads."""
    return {name: check(name, value, entry) for name, value in arguments.items()}


def validated(entry: str) -> Callable[[F], F]:
    """Decorate the entry point ``entry``: its arguments validated before it runs (and its engine
    chosen, ``by``'s expressions made columns), its docstring's ``.. parameters::`` lines written from the
    declarations (:func:`document`)."""

    def decorate(function: F) -> F:
        signature = inspect.signature(function)

        @functools.wraps(function)
        def checked(*args: Any, **kwargs: Any) -> Any:
            bound = signature.bind(*args, **kwargs)
            bound.apply_defaults()
            named = {k: v for k, v in bound.arguments.items() if signature.parameters[k].kind != _VAR_KEYWORD}
            bound.arguments.update(_on_engine(validate(entry, named)))
            return function(*bound.args, **bound.kwargs)

        checked.__doc__ = document(function.__doc__ or "", entry)
        checked.entry = entry  # type: ignore[attr-defined]
        return checked  # type: ignore[return-value]

    return decorate


_VAR_KEYWORD = inspect.Parameter.VAR_KEYWORD


def _on_engine(arguments: dict[str, Any]) -> dict[str, Any]:
    """The validated ``arguments`` with the engine chosen for the source
    (:func:`~framemetrics.columns.check_engine`) and the Polars expressions of
    ``by`` made columns of it (:func:`~framemetrics.columns.by_expressions`)."""
    if "source" in arguments:
        _check_index(arguments)
    if "source" in arguments and "engine" in arguments:
        arguments["engine"] = check_engine(arguments["engine"], arguments["source"])
        if "by" in arguments:
            on = arguments["source"], arguments["by"], arguments["engine"], arguments.get("con")
            arguments["source"], arguments["by"] = by_expressions(*on)
    return arguments


_COLUMN_ROLES = ("y_true", "y_pred", "y_score", "sample_weight", "by", "row_id")


def _check_index(arguments: Mapping[str, Any]) -> None:
    """Raise if a column argument names an index level of a pandas DataFrame source, which is not read
    (:func:`~framemetrics.core.errors.index_column`, not "not found").

    Examples
    --------
    >>> import pandas as pd
    >>> frame = pd.DataFrame({"y": [1], "p": [0.5]}, index=pd.Index(["a"], name="seg"))
    >>> _check_index({"source": frame, "y_true": "y", "by": ["seg"]})
    Traceback (most recent call last):
    ...
    ValueError: column 'seg' (by) is the index of the pandas DataFrame, not a column: pass df.reset_index()
    """
    levels = index_levels(arguments["source"])
    for role in (r for r in _COLUMN_ROLES if levels and arguments.get(r) is not None):
        value = arguments[role]
        names = [value] if isinstance(value, str) else value.values() if isinstance(value, Mapping) else value
        for name in names if isinstance(names, Iterable) else ():  # a Polars expression is no column name
            if isinstance(name, str) and name in levels:
                raise index_column(name, role)


_MARKER = re.compile(r"^( *)\.\. parameters:: (.+)$", re.MULTILINE)


def document(doc: str, entry: str) -> str:
    """``doc`` with each line ``.. parameters:: a, b`` replaced by the numpydoc entries of ``a`` and ``b``.

    Examples
    --------
    >>> print(document('''Parameters
    ...     ----------
    ...     .. parameters:: nulls, pos_label''', "roc_curve"))
    Parameters
        ----------
        nulls : {"error", "drop"}, default "error"
            "drop" removes rows with a null in any used column first (reflected
            in ``n_rows``); NaN is never dropped.
        pos_label, neg_label : Any, default 1 and the other of {0, 1}
            The two class labels (binary); any other value is invalid input.
    """

    def entries(match: re.Match[str]) -> str:
        indent = match.group(1)
        lines = []
        for name in (n.strip() for n in match.group(2).split(",")):
            parameter = declared(name, entry)
            lines.append(indent + parameter.heading)
            lines.append(textwrap.indent(textwrap.dedent("        " + parameter.doc), indent + "    "))
        return "\n".join(lines)

    return _MARKER.sub(entries, doc)
