"""What a parameter accepts: the constraints of :mod:`framemetrics.request.parameters`.

A constraint says whether a value is accepted and, when it is not, what is:
the text of the one message ``"<name> must be <accepted>, got <value>"``
(scikit-learn's ``Interval`` and ``StrOptions`` in
``sklearn/utils/_param_validation.py`` have the same shape). It may also
convert an accepted value (a NumPy scalar to the Python scalar it holds).

Examples
--------
>>> Interval(int, 1, 10).problem(0), Interval(int, 1, 10).problem(3)
('an integer from 1 to 10', None)
>>> Options("error", "drop").problem("keep")
"'error' or 'drop'"
"""

from __future__ import annotations

import math
import sys
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from numbers import Real
from typing import Any

from framemetrics.core.plan import as_python_scalar

__all__ = ["Constraint", "Interval", "Kind", "Label", "Options", "choices_text"]


class Constraint:
    """What a parameter accepts: :meth:`problem` is None for an accepted value, else what is accepted."""

    def problem(self, value: Any) -> str | None:  # pragma: no cover - every constraint defines it
        raise NotImplementedError

    def convert(self, value: Any) -> Any:
        """The accepted ``value`` as the computation reads it (unchanged by default)."""
        return value


def choices_text(choices: Sequence[Any]) -> str:
    """``'a', 'b' or 'c'``: the accepted choices as a message lists them.

    Examples
    --------
    >>> choices_text(["polars", "duckdb", "spark"]), choices_text([None, 0, 1])
    ("'polars', 'duckdb' or 'spark'", 'None, 0 or 1')
    """
    shown = [repr(c) for c in choices]
    return shown[0] if len(shown) == 1 else f"{', '.join(shown[:-1])} or {shown[-1]}"


def _same(value: Any, choice: Any) -> bool:
    """``value`` is ``choice``, of its kind: ``True`` is not the option 1, ``1.0`` is."""
    if choice is None or isinstance(choice, bool) or isinstance(value, bool):
        return value is choice
    numbers = isinstance(value, (int, float)) and isinstance(choice, (int, float))
    return (type(value) is type(choice) or numbers) and value == choice


@dataclass(frozen=True)
class Options(Constraint):
    """One of ``choices`` (compared by kind: ``True`` is not the option 1).

    ``text`` replaces the list of choices in the message.
    """

    choices: tuple[Any, ...]
    text: str | None = None

    def __init__(self, *choices: Any, text: str | None = None) -> None:
        object.__setattr__(self, "choices", choices)
        object.__setattr__(self, "text", text)

    def problem(self, value: Any) -> str | None:
        value = as_python_scalar(value)
        if any(_same(value, c) for c in self.choices):
            return None
        return self.text or choices_text(self.choices)

    def convert(self, value: Any) -> Any:
        return as_python_scalar(value)


@dataclass(frozen=True)
class Interval(Constraint):
    """A number of ``kind`` (``int`` or ``float``; ``float`` takes integers) between ``low`` and ``high``.

    ``closed`` says which bounds are included (``"both"``, ``"left"``,
    ``"right"``, ``"neither"``); a None bound is no bound, and a ``float``
    without bounds must be finite. NumPy scalars are read as the Python
    scalars they hold; booleans are never numbers. ``none`` accepts None.
    """

    kind: type
    low: float | None = None
    high: float | None = None
    closed: str = "both"
    none: bool = False
    text: str | None = None

    def problem(self, value: Any) -> str | None:
        value = as_python_scalar(value)
        if value is None and self.none:
            return None
        kinds = (int,) if self.kind is int else (int, float)
        if not isinstance(value, bool) and isinstance(value, kinds) and self._within(value):
            return None
        return self.text or self._describe()

    def convert(self, value: Any) -> Any:
        value = as_python_scalar(value)
        return float(value) if self.kind is float and value is not None else value

    def _within(self, value: float) -> bool:
        if isinstance(value, float) and math.isnan(value):
            return False
        if self.low is None and self.high is None:  # no bound: a finite number (and an integer within the doubles)
            return self.kind is int or abs(value) <= sys.float_info.max
        low_ok = self.low is None or (value >= self.low if self.closed in ("both", "left") else value > self.low)
        high_ok = self.high is None or (value <= self.high if self.closed in ("both", "right") else value < self.high)
        return low_ok and high_ok

    def _describe(self) -> str:
        noun = "an integer" if self.kind is int else "a number"
        text = noun
        if self.low is not None and self.high is not None:
            left = "[" if self.closed in ("both", "left") else "("
            right = "]" if self.closed in ("both", "right") else ")"
            both = self.closed == "both"
            text = (
                f"{noun} from {self.low} to {self.high}" if both else f"{noun} in {left}{self.low}, {self.high}{right}"
            )
        elif self.low is not None:
            text = f"{noun} {'>=' if self.closed in ('both', 'left') else '>'} {self.low}"
        elif self.high is not None:
            text = f"{noun} {'<=' if self.closed in ('both', 'right') else '<'} {self.high}"
        elif self.kind is float:
            text = "a finite number"
        return text


@dataclass(frozen=True)
class Kind(Constraint):
    """A value ``test`` accepts, described by ``text`` (a column name, a list of them, a bool...)."""

    test: Callable[[Any], bool]
    text: str

    def problem(self, value: Any) -> str | None:
        return None if self.test(value) else self.text


@dataclass(frozen=True)
class Label(Constraint):
    """A class label: one finite number, string or boolean (``none``: or None, the default's other class)."""

    none: bool = False

    def problem(self, value: Any) -> str | None:
        value = as_python_scalar(value)
        if value is None:
            return None if self.none else "a label"
        if not isinstance(value, (str, Real)):
            return "a single value (a number, string or boolean)"
        if isinstance(value, float) and not abs(value) <= sys.float_info.max:
            return "a finite label"
        return None

    def convert(self, value: Any) -> Any:
        return as_python_scalar(value)


def is_column(value: Any) -> bool:
    """A column name: a string (an empty one or one with NUL is refused with the column's error)."""
    return isinstance(value, str)


def is_columns(value: Any) -> bool:
    """A column name, or a sequence of them."""
    return is_column(value) or (isinstance(value, Sequence) and all(is_column(v) for v in value))


def is_labels(value: Any) -> bool:
    """None, or a sequence of classes (a string is not one)."""
    return value is None or (isinstance(value, Sequence) and not isinstance(value, str)) or _is_array(value)


def _is_array(value: Any) -> bool:
    return type(value).__module__.split(".")[0] in ("numpy", "polars", "pyarrow", "pandas") and hasattr(
        value, "__len__"
    )


def is_metrics(value: Any) -> bool:
    """A metric name (or ``name(param=value, ...)``), a mapping of names to parameters (a dict or None each), or a
    sequence of either."""
    if isinstance(value, str):
        return True
    if isinstance(value, Mapping):
        return all(isinstance(k, str) and (v is None or isinstance(v, Mapping)) for k, v in value.items())
    return isinstance(value, Sequence) and all(isinstance(v, (str, Mapping)) and is_metrics(v) for v in value)
