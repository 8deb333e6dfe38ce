"""Quoting of identifiers and literals: the only way user text enters SQL."""

from __future__ import annotations

import math
from typing import Any

__all__ = ["quote_identifier", "sql_literal"]


def quote_identifier(name: str) -> str:
    """Quote a column or table name for DuckDB (and any ANSI SQL engine).

    Parameters
    ----------
    name : str
        Any identifier, including spaces, quotes, unicode or SQL fragments.

    Returns
    -------
    str
        The name in double quotes, inner double quotes doubled.

    Examples
    --------
    >>> quote_identifier('my "col"; DROP TABLE t')
    '"my ""col""; DROP TABLE t"'
    """
    if not isinstance(name, str) or not name or "\x00" in name:
        raise ValueError(f"invalid SQL identifier: {name!r}")
    return '"' + name.replace('"', '""') + '"'


def sql_literal(value: Any) -> str:
    """Render a Python scalar as a typed SQL literal.

    Parameters
    ----------
    value : None, bool, int, float or str
        The value. Floats must be finite; they are cast to DOUBLE so that
        DuckDB never falls back to DECIMAL arithmetic.

    Returns
    -------
    str
        SQL text for the value.

    Examples
    --------
    >>> sql_literal(0.5), sql_literal("it's"), sql_literal(None), sql_literal(True)
    ('CAST(0.5 AS DOUBLE)', "'it''s'", 'CAST(NULL AS DOUBLE)', 'TRUE')
    """
    if value is None:
        return "CAST(NULL AS DOUBLE)"
    if isinstance(value, bool):
        return "TRUE" if value else "FALSE"
    if isinstance(value, int):
        return str(value)
    if isinstance(value, float):
        if not math.isfinite(value):
            raise ValueError(f"parameter must be finite, got {value!r}")
        return f"CAST({value!r} AS DOUBLE)"
    if isinstance(value, str):
        if "\x00" in value:
            raise ValueError("string parameters cannot contain NUL characters")
        return "'" + value.replace("'", "''") + "'"
    raise TypeError(f"cannot use {type(value).__name__} {value!r} as a SQL parameter")
