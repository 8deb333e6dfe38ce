"""framemetrics as SQL: query text for DuckDB, and the path of the macro file.

``framemetrics.sql.query`` writes the SQL that :func:`framemetrics.evaluate`
runs on DuckDB, for a user to read, paste or schedule.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from framemetrics.columns import as_tuple, check_nulls, resolve, sql_columns
from framemetrics.plan import MetricsArg
from framemetrics.sql.macros import macro_file
from framemetrics.sql.query import QueryInputs, plan_query
from framemetrics.sql.quoting import quote_identifier

__all__ = ["macro_file", "query", "quote_identifier"]


def query(
    metrics: MetricsArg,
    *,
    table: str,
    y_true: str,
    y_pred: str | None = None,
    y_score: str | None = None,
    threshold: float = 0.5,
    sample_weight: str | None = None,
    by: str | Sequence[str] | None = None,
    pos_label: Any = 1,
    neg_label: Any = None,
    zero_division: float | None = None,
    nulls: str = "error",
    checks: bool = False,
) -> str:
    """Plain DuckDB SQL computing ``metrics`` per group of ``table``.

    The statement needs no macros: the bodies of ``sql/framemetrics.sql``
    are inlined. Identifiers are quoted and parameters rendered as typed
    literals, so no user text is spliced into the SQL unquoted.

    Parameters
    ----------
    metrics : str, list of str or dict
        As in :func:`framemetrics.evaluate`.
    table : str
        Table or view name (quoted as one identifier).
    y_true, y_pred, y_score, sample_weight : str
        Column names, as in :func:`framemetrics.evaluate`.
    threshold : float, default 0.5
        Applied to ``y_score`` when ``y_pred`` is None.
    by : str or list of str, optional
        Group columns.
    pos_label, neg_label, zero_division
        As in :func:`framemetrics.evaluate`.
    nulls : {"error", "drop"}, default "error"
        "drop" adds a ``WHERE`` dropping rows with a null in a used column.
        With "error", a group with invalid rows gets NULL metrics.
    checks : bool, default False
        Also return the ``invalid_*`` row counts per group.

    Returns
    -------
    str
        One SQL statement returning the group columns, ``n_rows`` and one
        column per metric.

    Examples
    --------
    >>> import duckdb, framemetrics as fm
    >>> con = duckdb.connect()
    >>> _ = con.execute("CREATE TABLE preds AS SELECT * FROM (VALUES "
    ...                 "('fr', 1, 0.9), ('fr', 0, 0.2), ('de', 1, 0.3)) t(country, y, p)")
    >>> sql = fm.sql.query(["f1_score", "log_loss"], table="preds", y_true="y",
    ...                    y_score="p", by=["country"], threshold=0.5)
    >>> con.sql(sql).fetchall()
    [('de', 1, 0.0, 1.2039728043259361), ('fr', 2, 1.0, 0.164252033486018)]
    """
    check_nulls(nulls)
    resolved = resolve(
        metrics,
        y_true=y_true,
        y_pred=y_pred,
        y_score=y_score,
        sample_weight=sample_weight,
        pos_label=pos_label,
        neg_label=neg_label,
        zero_division=zero_division,
    )
    plan, roles, thresholded = resolved.plan, resolved.roles, resolved.thresholded
    inputs = QueryInputs(
        quote_identifier(table), sql_columns(plan, roles, thresholded, threshold), as_tuple(by), nulls == "drop"
    )
    return plan_query(plan, inputs, checks=checks)
