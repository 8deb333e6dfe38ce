"""The Beta quantiles of a plan's intervals in SQL: the stages of :mod:`framemetrics.compilers.polars.beta_quantiles`.

``fm_beta_input`` lays the parameters of every quantile out as rows, one per
group and quantile (``fm_j``), crossing ``fm_statistics`` with the
quantiles' numbers; ``fm_beta_<k>`` is stage ``k`` of
:func:`~framemetrics.core.beta.beta_quantile_stages`, one ``SELECT`` each;
``fm_beta_quantiles`` sets each group's quantiles side by side as
``fm_q<j>``. The stages are written once whatever the number of quantiles,
and built once per probability (building the trees takes seconds; a
statement gets copies).
"""

from __future__ import annotations

from functools import cache

from sqlglot import exp

from framemetrics.compilers.sql.dialects import DEEP, MATERIALIZE
from framemetrics.compilers.sql.namespace import SQL
from framemetrics.compilers.sql.stages import select_from
from framemetrics.core.beta import BETA_INPUTS, BETA_QUANTILE, beta_quantile_stages

__all__ = ["beta_quantile_ctes"]


@cache
def _stages(p: float) -> tuple[tuple[exp.Alias, ...], ...]:
    """The stages' columns at ``p`` as aliased trees, built once (callers copy them)."""
    columns = {name: SQL.col(name) for name in BETA_INPUTS}
    stages = []
    for stage in beta_quantile_stages(p):
        new = stage(SQL, columns)
        stages.append(tuple(exp.alias_(value, name) for name, value in new.items()))
        columns |= {name: SQL.col(name) for name in new}
    return tuple(stages)


def beta_quantile_ctes(keys: list[str], pairs: list[tuple[exp.Expression, exp.Expression]], p: float
                       ) -> list[tuple[str, exp.Select]]:  # fmt: skip
    """The CTEs of the quantiles at ``p`` of the Beta ``(a, b)`` of ``pairs`` over ``fm_statistics``, the last,
    ``fm_beta_quantiles``, holding the group keys and ``fm_q<j>``.

    Examples
    --------
    >>> import duckdb
    >>> from framemetrics.compilers.sql.emit import to_sql
    >>> ctes = beta_quantile_ctes([], [(SQL.col("k"), SQL.lit(2.0))], 0.5)
    >>> select = exp.select("fm_q0").from_("fm_beta_quantiles").with_("fm_statistics", as_="SELECT 3.0 AS k")
    >>> for name, cte in ctes:
    ...     select = select.with_(name, as_=cte)
    >>> round(duckdb.sql(to_sql(select)).fetchall()[0][0], 6)
    0.614272
    """
    group = [exp.column(k) for k in keys]
    number = exp.column("fm_j")

    def picked(k: int) -> exp.Expression:
        return exp.Case(this=number.copy(), ifs=[exp.If(this=SQL.lit(j), true=pair[k]) for j, pair in enumerate(pairs)])

    ids = exp.values([exp.tuple_(SQL.lit(j)) for j in range(len(pairs))], alias="fm_js", columns=["fm_j"])
    columns = [*group, number.copy(), *(exp.alias_(picked(k), name) for k, name in enumerate(BETA_INPUTS))]
    ctes = [("fm_beta_input", select_from(columns, "fm_statistics").join(ids, join_type="cross"))]
    for k, stage in enumerate(_stages(p)):
        select = select_from([exp.Star(), *(alias.copy() for alias in stage)], ctes[-1][0])
        select.meta[DEEP] = True  # too deep for some engines' parsers (Dialect.deep_expressions)
        select.meta[MATERIALIZE] = True  # PostgreSQL, inlining the stages into one expression, runs out of memory
        ctes.append((f"fm_beta_{k}", select))
    quantile = exp.column(BETA_QUANTILE)
    pivoted = [
        exp.alias_(exp.Max(this=SQL.when(SQL.eq(number.copy(), j), quantile.copy()).otherwise(SQL.null())), f"fm_q{j}")
        for j in range(len(pairs))
    ]
    grouped = select_from([*(g.copy() for g in group), *pivoted], ctes[-1][0], group_by=[g.copy() for g in group] or None)
    return [*ctes, ("fm_beta_quantiles", grouped)]
