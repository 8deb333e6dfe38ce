"""A metric's spelling ``name(param=value, ...)``: read from text, and written as the name of its output column.

Every entry point reads a requested metric through :func:`parse_metric`
(Python's ``metrics=`` and the command line's ``-m``), and names the column
of a metric with parameters other than its defaults by :func:`output_name`,
the same spelling written canonically: ``fbeta_score(beta=2)``,
``roc_auc_score(max_fpr=0.1)``. Reading that name back gives the same metric.

Examples
--------
>>> parse_metric("fbeta_score(beta=2.0)")
('fbeta_score', {'beta': 2.0})
>>> output_name("fbeta_score", {"beta": 2.0}, {"beta": 1.0, "zero_division": None})
'fbeta_score(beta=2)'
"""

from __future__ import annotations

import ast
import re
from collections.abc import Mapping
from typing import Any

from framemetrics.core.errors import ArgumentError

__all__ = ["canonical_value", "output_name", "parse_metric", "split_top_level"]

_CALL = re.compile(r"^\s*([A-Za-z_]\w*)\s*(?:\((.*)\))?\s*$", re.DOTALL)
# Values equal to another in effect: max_fpr=1 is the whole ROC curve, as max_fpr=None.
_EQUIVALENT = {"max_fpr": {1: None}}


def split_top_level(text: str) -> list[str]:
    """Split on commas outside parentheses and brackets, dropping empty parts.

    Examples
    --------
    >>> split_top_level("a, b(x=1, y=[2, 3]),")
    ['a', 'b(x=1, y=[2, 3])']
    """
    parts, depth, current = [], 0, ""
    for char in text:
        depth += char in "([{"
        depth -= char in ")]}"
        if char == "," and depth == 0:
            parts.append(current)
            current = ""
        else:
            current += char
    return [p.strip() for p in [*parts, current] if p.strip()]


def _value(text: str) -> Any:
    """A parameter's value as written: a Python literal, ``inf``/``nan``, or else the text itself."""
    text = text.strip()
    try:
        return ast.literal_eval(text)
    except (ValueError, SyntaxError):
        pass
    try:
        return float(text)  # inf, -inf, nan: the repr of those floats
    except ValueError:
        return text


def parse_metric(text: str) -> tuple[str, dict[str, Any]]:
    """The metric name and parameters of the spelling ``name`` or ``name(param=value, ...)``.

    Values are read as Python literals (``2``, ``0.5``, ``None``, ``True``,
    ``'quadratic'``), ``inf``, ``-inf`` and ``nan`` as floats, and any other
    text as a string (``weights=quadratic``).

    Parameters
    ----------
    text : str
        One metric, e.g. ``"roc_auc_score(max_fpr=0.1)"``.

    Returns
    -------
    tuple of (str, dict)
        The name and the parameters given, in the order written.

    Raises
    ------
    ArgumentError
        If the text is not of that form, or gives a parameter twice.

    Examples
    --------
    >>> parse_metric("roc_auc_score"), parse_metric("cohen_kappa_score(weights='quadratic')")
    (('roc_auc_score', {}), ('cohen_kappa_score', {'weights': 'quadratic'}))
    >>> parse_metric("fbeta_score(beta=inf, zero_division=None)")
    ('fbeta_score', {'beta': inf, 'zero_division': None})
    >>> parse_metric("fbeta_score(2)")
    Traceback (most recent call last):
    ...
    framemetrics.core.errors.ArgumentError: cannot read '2' in 'fbeta_score(2)': write param=value
    """
    match = _CALL.match(text)
    if not match:
        raise ArgumentError(f"cannot read metric {text!r}: write NAME or NAME(param=value, ...)")
    name, arguments = match.group(1), match.group(2)
    params: dict[str, Any] = {}
    for argument in split_top_level(arguments or ""):
        key, sep, value = argument.partition("=")
        key = key.strip()
        if not sep or not key.isidentifier():
            raise ArgumentError(f"cannot read {argument!r} in {text!r}: write param=value")
        if key in params:
            raise ArgumentError(f"{text!r} gives {key} twice")
        params[key] = _value(value)
    return name, params


def canonical_value(key: str, value: Any) -> Any:
    """A parameter's value as its column name writes it: a whole float below 10**16 as an integer (``2.0`` as
    ``2``, ``-0.0`` as ``0``; ``1e+200`` stays), and a value equal in effect to another as that one (``max_fpr=1``
    as ``None``).

    Examples
    --------
    >>> canonical_value("beta", 2.0), canonical_value("beta", 1e200), canonical_value("max_fpr", 1.0)
    (2, 1e+200, None)
    """
    if isinstance(value, float) and value.is_integer() and abs(value) < 1e16:  # where repr writes every digit
        value = int(value)
    equivalent = _EQUIVALENT.get(key, {})
    if isinstance(value, int) and not isinstance(value, bool) and value in equivalent:
        return equivalent[value]
    return value


def _same(a: Any, b: Any) -> bool:
    """Equal values, a boolean never equal to a number (``True`` is not ``1`` here)."""
    if isinstance(a, bool) or isinstance(b, bool):
        return a is b
    return bool(a == b)


def output_name(name: str, given: Mapping[str, Any], defaults: Mapping[str, Any]) -> str:
    """The output column of metric ``name`` with the parameters ``given``: its name alone when each given value is
    its default, else ``name(param=value, ...)`` with the parameters that differ.

    The parameters are written in the metric's order (that of ``defaults``),
    each as ``param=repr(value)`` of its :func:`canonical_value`, separated by
    ``", "``: ``fbeta_score(beta=0.5, zero_division=1)``,
    ``cohen_kappa_score(weights='quadratic')``. :func:`parse_metric` reads it
    back.

    Parameters
    ----------
    name : str
        The metric's name.
    given : mapping of str to Any
        The parameters the request gives.
    defaults : mapping of str to Any
        Every parameter of the metric and the value it takes when not given.

    Returns
    -------
    str

    Examples
    --------
    >>> output_name("roc_auc_score", {"max_fpr": 0.1}, {"max_fpr": None})
    'roc_auc_score(max_fpr=0.1)'
    >>> output_name("roc_auc_score", {"max_fpr": 1}, {"max_fpr": None})
    'roc_auc_score'
    >>> output_name("cohen_kappa_score", {"weights": "quadratic"}, {"weights": None})
    "cohen_kappa_score(weights='quadratic')"
    """
    changed = []
    for key, default in defaults.items():
        if key in given:
            value = canonical_value(key, given[key])
            if not _same(value, canonical_value(key, default)):
                changed.append(f"{key}={value!r}")
    return f"{name}({', '.join(changed)})" if changed else name
