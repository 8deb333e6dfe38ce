"""Generate plain SQL for a curve (ROC, precision-recall, DET) per group.

The same stages as :mod:`framemetrics.compilers.polars.curves`: the input checks and
row counts per group (``fm_statistics``), the weights per distinct score
(``fm_scores``), the cumulative sums and neighbours (``fm_curve``, one
window), the kept points plus the +inf point (``fm_points``), then the
rates, as :mod:`framemetrics.core.curves` defines them. A group with an invalid row gets NULL
rates; ``framemetrics.roc_curve`` and its siblings raise instead.
"""

from __future__ import annotations

from functools import reduce

from framemetrics.compilers.sql.emit import to_sql
from framemetrics.compilers.sql.namespace import SQL
from framemetrics.core.curves import COUNTS, Curve, curve_column
from framemetrics.plan import Plan
from framemetrics.sql.query import (
    QueryInputs,
    cte,
    group_keys,
    input_cte,
    same_group,
    score_weights,
    statistics_cte,
)
from framemetrics.sql.quoting import quote_identifier

__all__ = ["curve_query"]


_COLUMNS = ("pw", "nw", "next_pw", "next_nw", "is_first", "tp", "fp", "tn", "fn", "pos_total", "neg_total")


def curve_query(
    curve: Curve,
    plan: Plan,
    inputs: QueryInputs,
    *,
    drop_intermediate: bool | None = None,
    max_points: int | None = None,
) -> str:
    """SQL text of ``curve``'s points per group of ``inputs``.

    Parameters
    ----------
    curve : Curve
        Which curve (:data:`framemetrics.compilers.polars.curves.CURVES`).
    plan : Plan
        The plan of a ranking metric: its checks and labels.
    inputs : QueryInputs
        The source and the SQL of ``y_true``, ``y_score``, ``sample_weight``.
        With ``inputs.literals``, ``pos_label``, ``neg_label`` and
        ``drop_intermediate`` are SQL text (a table macro's parameters).
    drop_intermediate : bool, optional
        Default: the curve's (scikit-learn's) default.
    max_points : int, optional
        Thin each group's curve to at most this many points: the CTEs
        ``fm_curve_points`` and ``fm_thinned`` (the core's ``curve_column``), as
        :func:`framemetrics.compilers.polars.curves.thin`.

    Returns
    -------
    str
        One statement: the group columns, ``threshold``, the rates and
        ``tp, fp, tn, fn``, ordered by group and threshold.

    Examples
    --------
    >>> from framemetrics.core.curves import CURVES
    >>> from sqlglot import exp
    >>> from framemetrics.compilers.sql.query import user_column
    >>> from framemetrics.plan import make_plan
    >>> q = curve_query(CURVES["roc_curve"], make_plan("roc_auc_score", weighted=False),
    ...                 QueryInputs(exp.to_table("t"), {"y_true": user_column("y"), "y_score": user_column("s")}))
    >>> q.splitlines()[-1]
    'ORDER BY threshold DESC'
    """
    keys = group_keys(inputs)
    drop = curve.drop_intermediate if drop_intermediate is None else drop_intermediate
    partition = f"PARTITION BY {', '.join(keys)} " if keys else ""
    order = "ORDER BY y_score DESC"
    window = f"OVER ({partition}{order} ROWS UNBOUNDED PRECEDING)"
    below = f"OVER ({partition}{order} ROWS BETWEEN 1 FOLLOWING AND UNBOUNDED FOLLOWING)"
    totals = f"OVER ({partition.strip()})"
    curve_columns = [
        *keys,
        "y_score",
        "pw",
        "nw",
        f"sum(pw) {window} AS tp",
        f"sum(nw) {window} AS fp",
        f"coalesce(sum(pw) {below}, 0) AS fn",
        f"coalesce(sum(nw) {below}, 0) AS tn",
        f"sum(pw) {totals} AS pos_total",
        f"sum(nw) {totals} AS neg_total",
        f"lead(pw) OVER ({partition}{order}) AS next_pw",
        f"lead(nw) OVER ({partition}{order}) AS next_nw",
        f"row_number() OVER ({partition}{order}) = 1 AS is_first",
    ]
    kept = [*keys, "y_score AS threshold", *COUNTS, "pos_total", "neg_total"]
    at_inf = [*keys, "CAST('inf' AS DOUBLE) AS threshold", "0", "0", "neg_total", "pos_total", "pos_total", "neg_total"]
    columns = {name: SQL.col(name) for name in _COLUMNS}
    drop_flag = (inputs.literals or {}).get("drop_intermediate", SQL.lit(bool(drop)))
    keep = to_sql(curve.keep(SQL, columns, drop_flag))
    points = (
        f"fm_points AS (\n    SELECT {', '.join(kept)} FROM fm_curve WHERE {keep}\n"
        f"    UNION ALL\n    SELECT {', '.join(at_inf)} FROM fm_curve WHERE is_first\n)"
    )
    ctes = [
        input_cte(plan, inputs, keys),
        statistics_cte(plan, inputs, keys, ("n_rows",)),
        cte("fm_scores", score_weights(plan, inputs, keys), "fm_input", [*keys, "y_score"]),
        cte("fm_curve", curve_columns, "fm_scores WHERE pw + nw > 0", []),
        points,
    ]
    source, where = "fm_points", ""
    if curve.sliced:
        ends = [
            "*",
            f"min(threshold) FILTER (WHERE fp = 0) {totals} AS fm_first",
            f"max(threshold) FILTER (WHERE fn = 0) {totals} AS fm_last",
        ]
        ctes.append(cte("fm_ends", ends, "fm_points", []))
        source = "fm_ends"
        where = "\nWHERE threshold <= fm_first AND threshold >= fm_last AND pos_total > 0 AND neg_total > 0"
    columns["n_invalid"] = reduce(lambda a, b: a + b, (SQL.col(c.name) for c in plan.checks))
    outputs = [f"fm_statistics.{k} AS {quote_identifier(c)}" for k, c in zip(keys, inputs.by, strict=True)]
    outputs.append("threshold")
    outputs += [f"{to_sql(build(SQL, columns))} AS {name}" for name, build in curve.rates.items()]
    outputs += [f"{source}.{c} AS {c}" for c in COUNTS]
    direction = "DESC" if curve.descending else "ASC"
    ordering = ", ".join([*(f"fm_statistics.{k} NULLS LAST" for k in keys), f"threshold {direction}"])
    join = f"{source} JOIN fm_statistics ON {same_group(source, 'fm_statistics', keys)}"
    if max_points is None:
        select = ",\n    ".join(outputs)
        return "WITH " + ",\n".join(ctes) + f"\nSELECT\n    {select}\nFROM {join}{where}\nORDER BY {ordering}"
    ctes.append(cte("fm_curve_points", [*(f"fm_statistics.{k} AS {k}" for k in keys), *outputs], join + where, []))
    ctes.append(_thinned_cte(curve, keys, max_points))
    names = [quote_identifier(c) for c in inputs.by] + ["threshold", *curve.rates, *COUNTS]
    ordering = ", ".join([*(f"{k} NULLS LAST" for k in keys), f"threshold {direction}"])
    kept = "1 IN (fm_first, fm_last, fm_lowest, fm_highest)"
    select = ",\n    ".join(names)
    return "WITH " + ",\n".join(ctes) + f"\nSELECT\n    {select}\nFROM fm_thinned\nWHERE {kept}\nORDER BY {ordering}"


def _thinned_cte(curve: Curve, keys: list[str], max_points: int) -> str:
    """Per group and column of the x rate, the rank of each point from both ends and by the y rate."""
    cell = f"PARTITION BY {', '.join([*keys, 'fm_column'])}"
    direction, reverse = ("DESC", "ASC") if curve.descending else ("ASC", "DESC")
    column = to_sql(curve_column(SQL, SQL.col(curve.x), SQL.lit(max_points // 4)))
    ranks = [
        f"row_number() OVER ({cell} ORDER BY threshold {direction}) AS fm_first",
        f"row_number() OVER ({cell} ORDER BY threshold {reverse}) AS fm_last",
        f"row_number() OVER ({cell} ORDER BY {curve.y} ASC NULLS LAST, threshold {direction}) AS fm_lowest",
        f"row_number() OVER ({cell} ORDER BY {curve.y} DESC NULLS LAST, threshold {direction}) AS fm_highest",
    ]
    columned = f"(SELECT *, {column} AS fm_column FROM fm_curve_points) AS fm_columns"
    return cte("fm_thinned", ["*", *ranks], columned, [])
