"""Generate plain SQL for a plan: one ``GROUP BY`` of statistics, then formulas.

The text inlines the macro bodies of ``sql/framemetrics.sql``, so it runs in
any DuckDB session without loading the macros.
"""

from __future__ import annotations

from dataclasses import dataclass

from framemetrics.checks import Check
from framemetrics.plan import MetricCall, Plan
from framemetrics.sql.macros import expand, macros
from framemetrics.sql.quoting import quote_identifier, sql_literal
from framemetrics.statistics import STATISTICS

__all__ = ["QueryInputs", "plan_query"]

_INDENT = ",\n        "


@dataclass(frozen=True)
class QueryInputs:
    """Where the data comes from: the FROM clause and SQL for each role.

    Attributes
    ----------
    source : str
        SQL of the FROM clause (a quoted table name or a table function).
    columns : dict of str to str
        SQL expression of each input role (``y_true``, ``y_pred``,
        ``y_score``, ``sample_weight``), built from quoted identifiers.
    by : tuple of str
        Group column names (quoted in the query).
    drop_nulls : bool
        Drop rows with a null in any used column before aggregating.
    """

    source: str
    columns: dict[str, str]
    by: tuple[str, ...] = ()
    drop_nulls: bool = False


def _literals(plan: Plan) -> dict[str, str]:
    return {
        "pos_label": sql_literal(plan.pos_label),
        "neg_label": sql_literal(plan.neg_label),
        "alpha": sql_literal(plan.alpha),
    }


def _inline(macro: str, arguments: dict[str, str]) -> str:
    params = macros()[macro].params
    return expand(macro, {k: v for k, v in arguments.items() if k in params})


def _statistic(name: str, plan: Plan) -> str:
    return f"{_inline(STATISTICS[name].sql_macro, _literals(plan))} AS {name}"


def _check(check: Check, plan: Plan) -> str:
    return f"{_inline(check.sql_macro, {'x': check.role, **_literals(plan)})} AS {check.name}"


def _formula(call: MetricCall) -> str:
    n_invalid = " + ".join(c.name for c in call.checks)
    arguments = {"n_invalid": n_invalid, **{k: sql_literal(v) for k, v in call.params.items()}}
    return f"{expand(call.metric.sql_formula, arguments)} AS {quote_identifier(call.name)}"


def plan_query(plan: Plan, inputs: QueryInputs, *, checks: bool = False) -> str:
    """SQL text computing ``plan`` per group of ``inputs``.

    Parameters
    ----------
    plan : Plan
        The metrics to compute (:func:`framemetrics.plan.make_plan`).
    inputs : QueryInputs
        The source and the SQL of each input role.
    checks : bool, default False
        Also return the ``invalid_*`` counts per group.

    Returns
    -------
    str
        One SQL statement: group columns, ``n_rows``, one column per metric.

    Examples
    --------
    >>> from framemetrics.plan import make_plan
    >>> q = plan_query(make_plan("accuracy_score", weighted=False),
    ...                QueryInputs('"t"', {"y_true": '"y"', "y_pred": '"p"'}))
    >>> q.splitlines()[0]
    'WITH fm_input AS ('
    """
    keys = [f"fm_g{i}" for i in range(len(inputs.by))]
    columns = [f"{quote_identifier(c)} AS {k}" for c, k in zip(inputs.by, keys, strict=True)]
    columns += [f"{inputs.columns[role]} AS {role}" for role in plan.roles]
    if not plan.weighted:
        columns.append("CAST(1 AS DOUBLE) AS sample_weight")
    where = ""
    if inputs.drop_nulls:
        used = [inputs.columns[role] for role in plan.roles]
        where = "\n    WHERE " + " AND ".join(f"({c}) IS NOT NULL" for c in used)
    ctes = [f"fm_input AS (\n    SELECT\n        {_INDENT.join(columns)}\n    FROM {inputs.source}{where}\n)"]
    group_by = f"\n    GROUP BY {', '.join(keys)}" if keys else ""
    source = "fm_input"
    if plan.first_pass:
        means = [*keys, *(_statistic(s, plan) for s in plan.first_pass)]
        ctes.append(f"fm_means AS (\n    SELECT\n        {_INDENT.join(means)}\n    FROM fm_input{group_by}\n)")
        on = " AND ".join(f"fm_input.{k} IS NOT DISTINCT FROM fm_means.{k}" for k in keys) or "TRUE"
        source = f"fm_input JOIN fm_means ON {on}"
    stats = [f"fm_input.{k} AS {k}" for k in keys]
    stats += [_statistic(s, plan) for s in plan.statistics if s not in plan.first_pass]
    stats += [_check(c, plan) for c in plan.checks]
    stats_group_by = f"\n    GROUP BY {', '.join(f'fm_input.{k}' for k in keys)}" if keys else ""
    ctes.append(f"fm_statistics AS (\n    SELECT\n        {_INDENT.join(stats)}\n    FROM {source}{stats_group_by}\n)")
    outputs = [f"{k} AS {quote_identifier(c)}" for k, c in zip(keys, inputs.by, strict=True)]
    outputs += ["n_rows", *(_formula(call) for call in plan.calls)]
    if checks:
        outputs += [c.name for c in plan.checks]
    order = f"\nORDER BY {', '.join(f'{k} NULLS LAST' for k in keys)}" if keys else ""
    select = ",\n    ".join(outputs)
    return "WITH " + ",\n".join(ctes) + f"\nSELECT\n    {select}\nFROM fm_statistics{order}"
