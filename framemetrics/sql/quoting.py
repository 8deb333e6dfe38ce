"""Quoting of identifiers and literals as text, for the queries still assembled as text.

Both are the SQL namespace's own rules (:func:`framemetrics.compilers.sql.namespace.identifier`,
:meth:`~framemetrics.compilers.sql.namespace.SqlNamespace.lit`), emitted for DuckDB.
"""

from __future__ import annotations

import math
from typing import Any

from framemetrics.compilers.sql.emit import to_sql
from framemetrics.compilers.sql.namespace import SQL, identifier

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
    return to_sql(identifier(name))


def sql_literal(value: Any) -> str:
    """Render a Python scalar as a typed SQL literal.

    Parameters
    ----------
    value : None, bool, int, float or str
        The value. Floats may not be NaN (``inf`` is ``CAST('inf' AS DOUBLE)``);
        they are cast to DOUBLE so that DuckDB never falls back to DECIMAL arithmetic.

    Returns
    -------
    str
        SQL text for the value.

    Examples
    --------
    >>> sql_literal(0.5), sql_literal("it's"), sql_literal(None), sql_literal(True)
    ('CAST(0.5 AS DOUBLE)', "'it''s'", 'CAST(NULL AS DOUBLE)', 'TRUE')
    """
    if isinstance(value, float) and math.isnan(value):
        raise ValueError(f"parameter must be a number, got {value!r}")
    return to_sql(SQL.lit(value))
