"""The two kinds of error a call can raise, and the "did you mean" of a misspelled name.

A :class:`ArgumentError` says an argument of the call is wrong (an unknown
metric or parameter, a parameter value out of range, an unknown option); any
other ``ValueError`` says the data is (a missing or wrongly typed column,
invalid rows, no rows). Both are ``ValueError``; the command line exits with
code 2 for the first and 1 for the second.

Examples
--------
>>> missing_column("pp", "y_score", ["y", "p", "group"])
ValueError("column 'pp' (y_score) not found; did you mean 'p'? The input has columns 'y', 'p', 'group'")
"""

from __future__ import annotations

import difflib
from collections.abc import Iterable

__all__ = ["ArgumentError", "close_names", "did_you_mean", "index_column", "missing_column"]

_SHOWN_COLUMNS = 20


class ArgumentError(ValueError):
    """An argument of the call is wrong, not the data (exit code 2 on the command line).

    Examples
    --------
    >>> isinstance(ArgumentError("beta must be a number >= 0"), ValueError)
    True
    """


def close_names(name: object, choices: Iterable[str], n: int = 3) -> list[str]:
    """Up to ``n`` of ``choices`` close to ``name``: equal but for case (then only those), similar, or containing it.

    Examples
    --------
    >>> close_names("f1_scor", ["f1_score", "r2_score", "log_loss"])
    ['f1_score', 'r2_score']
    >>> close_names("Proba", ["p", "proba_1", "y"])
    ['proba_1']
    >>> close_names("Default", ["default", "p_default"])
    ['default']
    """
    choices = list(choices)
    text = str(name)
    same_case = [c for c in choices if c.lower() == text.lower()]
    if same_case:
        return same_case[:n]
    similar = difflib.get_close_matches(text, choices, n=n)
    folded = difflib.get_close_matches(text.lower(), [c.lower() for c in choices], n=n)
    by_lower = {c.lower(): c for c in choices}
    containing = [c for c in choices if text.lower() in c.lower()]
    return list(dict.fromkeys([*similar, *(by_lower[f] for f in folded), *containing]))[:n]


def did_you_mean(name: object, choices: Iterable[str], quote: bool = False) -> str:
    """``"; did you mean a, b?"`` naming the choices close to ``name``, or ``""`` if none is.

    Examples
    --------
    >>> did_you_mean("betta", ["beta", "zero_division"])
    '; did you mean beta?'
    >>> did_you_mean("xyz", ["beta"])
    ''
    """
    close = close_names(name, choices)
    shown = ", ".join(repr(c) if quote else c for c in close)
    return f"; did you mean {shown}?" if close else ""


def missing_column(column: str, role: str, columns: Iterable[str]) -> ValueError:
    """The error of a column the input lacks: the close names, then the input's first columns.

    The command line counts it as rejected input (exit code 1), as every
    other mismatch between the call and the data.

    Examples
    --------
    >>> str(missing_column("y", "y_true", ["label", "p"]))
    "column 'y' (y_true) not found; the input has columns 'label', 'p'"
    """
    columns = list(columns)
    shown = ", ".join(repr(c) for c in columns[:_SHOWN_COLUMNS]) + (", ..." if len(columns) > _SHOWN_COLUMNS else "")
    close = ", ".join(repr(c) for c in close_names(column, columns))
    hint = f"; did you mean {close}? The input" if close else "; the input"
    return ValueError(f"column {column!r} ({role}) not found{hint} has columns {shown}")


def index_column(column: str, role: str) -> ValueError:
    """The error of a column that is the index of a pandas DataFrame, which is not read as a column.

    Examples
    --------
    >>> str(index_column("segment", "by"))
    "column 'segment' (by) is the index of the pandas DataFrame, not a column: pass df.reset_index()"
    """
    return ValueError(
        f"column {column!r} ({role}) is the index of the pandas DataFrame, not a column: pass df.reset_index()"
    )
