"""Public functions made from a signature: the builders of every metric and the curve functions.

A family of public functions that differ only in a fixed argument (the
metric of ``fm.f1_score``, the curve of ``fm.roc_curve``) is made once here
rather than written out per member: :func:`bound_function` gives each a real
function with its name, signature and docstring, which binds its arguments
as a written-out function would and forwards them.
"""

from __future__ import annotations

import inspect
from collections.abc import Callable
from typing import Any, TypeVar

__all__ = ["bound_function"]

T = TypeVar("T")


def bound_function(
    name: str, signature: inspect.Signature, target: Callable[..., T], doc: str, module: str = "framemetrics"
) -> Callable[..., T]:
    """A function ``name`` with ``signature`` and ``doc`` that calls ``target(**arguments)``.

    The arguments are bound to ``signature`` (a missing, unknown or extra
    argument raises ``TypeError``, naming the function) and passed with the
    defaults filled.

    Parameters
    ----------
    name : str
        The function's ``__name__`` and ``__qualname__``.
    signature : inspect.Signature
        Its parameters and return annotation.
    target : callable
        Called with every parameter by keyword.
    doc : str
        Its docstring.
    module : str, default "framemetrics"
        Its ``__module__`` (where ``help`` and pickling find it).

    Returns
    -------
    callable

    Examples
    --------
    >>> def add(a, b=1):
    ...     return a + b
    >>> inc = bound_function("inc", inspect.signature(add), add, "Add b to a.")
    >>> inc(2), inc(2, b=3), str(inspect.signature(inc))
    (3, 5, '(a, b=1)')
    >>> inc(2, c=3)
    Traceback (most recent call last):
    ...
    TypeError: inc() got an unexpected keyword argument 'c'
    """

    def function(*args: Any, **kwargs: Any) -> T:
        try:
            bound = signature.bind(*args, **kwargs)
        except TypeError as error:
            raise TypeError(f"{name}() {error}") from None
        bound.apply_defaults()
        return target(**bound.arguments)

    function.__name__ = function.__qualname__ = name
    function.__module__ = module
    function.__doc__ = doc
    function.__signature__ = signature
    function.__annotations__ = {p.name: p.annotation for p in signature.parameters.values()}
    function.__annotations__["return"] = signature.return_annotation
    return function
