"""Generate plain SQL for a plan: one ``GROUP BY`` of statistics, then formulas.

The text inlines the macro bodies of ``sql/framemetrics.sql``, so it runs in
any DuckDB session without loading the macros.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import reduce

from framemetrics.checks import Check
from framemetrics.compilers.sql import SQL
from framemetrics.compilers.sql.emit import to_sql
from framemetrics.core.formulas import apply_formula
from framemetrics.plan import MetricCall, Plan
from framemetrics.sql.macros import expand, macros
from framemetrics.sql.quoting import quote_identifier, sql_literal
from framemetrics.statistics import STATISTICS

__all__ = [
    "QueryInputs",
    "checks_query",
    "cte",
    "group_keys",
    "inline",
    "input_cte",
    "plan_query",
    "same_group",
    "score_weights",
    "statistics_cte",
]

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
    literals : dict of str to str, optional
        SQL of the parameters (``pos_label``...) in place of the plan's
        values as literals: the parameter names of a table macro.
    """

    source: str
    columns: dict[str, str]
    by: tuple[str, ...] = ()
    drop_nulls: bool = False
    literals: dict[str, str] | None = None


def _literals(plan: Plan, inputs: QueryInputs | None = None) -> dict[str, str]:
    if inputs is not None and inputs.literals is not None:
        return inputs.literals
    return {
        "pos_label": sql_literal(plan.pos_label),
        "neg_label": sql_literal(plan.neg_label),
        "alpha": sql_literal(plan.alpha),
        "max_fpr": sql_literal(plan.max_fpr),
    }


def inline(macro: str, arguments: dict[str, str]) -> str:
    """Macro `macro` inlined with the given arguments (those it takes)."""
    params = macros()[macro].params
    return expand(macro, {k: v for k, v in arguments.items() if k in params})


def _statistic(name: str, literals: dict[str, str]) -> str:
    return f"{inline(STATISTICS[name].sql_macro, literals)} AS {name}"


def _check(check: Check, literals: dict[str, str]) -> str:
    return f"{inline(check.sql_macro, {'x': check.role, **literals})} AS {check.name}"


def _formula(call: MetricCall) -> str:
    n_invalid = reduce(lambda a, b: a + b, (SQL.col(c.name) for c in call.checks))
    arguments = {s: SQL.col(s) for s in call.statistics} | {s: SQL.null() for s in call.skipped}
    formula = apply_formula(SQL, call.name, arguments, n_invalid, call.params)
    return f"{to_sql(formula)} AS {quote_identifier(call.name)}"


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
    keys = group_keys(inputs)
    literals = _literals(plan, inputs)
    ctes = [input_cte(plan, inputs, keys)]
    source = "fm_input"
    if plan.first_pass:
        means = [*keys, *(_statistic(s, literals) for s in plan.first_pass)]
        ctes.append(cte("fm_means", means, "fm_input", keys))
        source = f"fm_input JOIN fm_means ON {same_group('fm_input', 'fm_means', keys)}"
    ctes.append(statistics_cte(plan, literals, keys, plan.row_statistics, source))
    final = "fm_statistics"
    if plan.curve_statistics:
        ctes += _curve_ctes(plan, literals, keys)
        final = f"fm_statistics JOIN fm_ranking ON {same_group('fm_statistics', 'fm_ranking', keys)}"
    outputs = [f"fm_statistics.{k} AS {quote_identifier(c)}" for k, c in zip(keys, inputs.by, strict=True)]
    outputs += ["n_rows", *(_formula(call) for call in plan.calls)]
    if checks:
        outputs += [c.name for c in plan.checks]
    order = f"\nORDER BY {', '.join(f'fm_statistics.{k} NULLS LAST' for k in keys)}" if keys else ""
    select = ",\n    ".join(outputs)
    return "WITH " + ",\n".join(ctes) + f"\nSELECT\n    {select}\nFROM {final}{order}"


def checks_query(plan: Plan, inputs: QueryInputs) -> str:
    """SQL of the row counts and check counts per group alone (``fm_statistics``).

    Examples
    --------
    >>> from framemetrics.plan import make_plan
    >>> inputs = QueryInputs('"t"', {"y_true": '"y"', "y_score": '"s"'})
    >>> q = checks_query(make_plan("roc_auc_score", weighted=False), inputs)
    >>> q.splitlines()[-1]
    'SELECT * FROM fm_statistics'
    """
    keys = group_keys(inputs)
    statistics = statistics_cte(plan, _literals(plan, inputs), keys, ("n_rows",))
    return f"WITH {input_cte(plan, inputs, keys)},\n{statistics}\nSELECT * FROM fm_statistics"


def group_keys(inputs: QueryInputs) -> list[str]:
    """Internal names of the group columns: ``fm_g0, fm_g1...``."""
    return [f"fm_g{i}" for i in range(len(inputs.by))]


def statistics_cte(
    plan: Plan, literals: dict[str, str], keys: list[str], statistics: tuple[str, ...], source: str = "fm_input"
) -> str:
    """The CTE ``fm_statistics``: one ``GROUP BY`` of ``statistics`` and the plan's checks."""
    columns = [f"fm_input.{k} AS {k}" for k in keys]
    columns += [_statistic(s, literals) for s in statistics]
    columns += [_check(c, literals) for c in plan.checks]
    return cte("fm_statistics", columns, source, [f"fm_input.{k}" for k in keys])


def cte(name: str, columns: list[str], source: str, group_by: list[str]) -> str:
    """``name AS (SELECT columns FROM source GROUP BY group_by)``, indented."""
    grouped = f"\n    GROUP BY {', '.join(group_by)}" if group_by else ""
    return f"{name} AS (\n    SELECT\n        {_INDENT.join(columns)}\n    FROM {source}{grouped}\n)"


def same_group(left: str, right: str, keys: list[str]) -> str:
    """Join condition of two CTEs on the group keys (NULL keys match)."""
    return " AND ".join(f"{left}.{k} IS NOT DISTINCT FROM {right}.{k}" for k in keys) or "TRUE"


def input_cte(plan: Plan, inputs: QueryInputs, keys: list[str]) -> str:
    columns = [f"{quote_identifier(c)} AS {k}" for c, k in zip(inputs.by, keys, strict=True)]
    columns += [f"{inputs.columns[role]} AS {role}" for role in plan.roles]
    if not plan.weighted:
        columns.append("CAST(1 AS DOUBLE) AS sample_weight")
    source = inputs.source
    if inputs.drop_nulls:
        used = [inputs.columns[role] for role in plan.roles]
        source += "\n    WHERE " + " AND ".join(f"({c}) IS NOT NULL" for c in used)
    return cte("fm_input", columns, source, [])


def score_weights(literals: dict[str, str], keys: list[str], score: str = "y_score") -> list[str]:
    """Columns of the curve stage's ``GROUP BY keys, score``: the score as ``y_score``, the weights ``pw, nw``."""
    return [
        *keys,
        f"{score} AS y_score" if score != "y_score" else score,
        f"{inline('fm_score_pw', literals)} AS pw",
        f"{inline('fm_score_nw', literals)} AS nw",
    ]


def _curve_ctes(plan: Plan, literals: dict[str, str], keys: list[str]) -> list[str]:
    """The curve stage: weights per distinct score, cumulative sums and totals, ranking statistics."""
    score = "y_score" if plan.bins is None else inline("fm_bin_score", {"bins": sql_literal(float(plan.bins))})
    per_score = score_weights(literals, keys, score)
    partition = f"PARTITION BY {', '.join(keys)} " if keys else ""
    window = f"OVER ({partition}ORDER BY y_score DESC ROWS UNBOUNDED PRECEDING)"
    totals = f"OVER ({partition.strip()})" if keys else "OVER ()"
    cumulative = [
        *keys,
        "y_score",
        "pw",
        "nw",
        f"sum(pw) {window} AS tp",
        f"sum(nw) {window} AS fp",
        f"sum(pw) {totals} AS pos_total",
        f"sum(nw) {totals} AS neg_total",
    ]
    if any(STATISTICS[s].previous for s in plan.curve_statistics):
        above = f"OVER ({partition}ORDER BY y_score DESC ROWS BETWEEN UNBOUNDED PRECEDING AND 1 PRECEDING)"
        cumulative += [f"coalesce(sum(pw) {above}, 0) AS tp_prev", f"coalesce(sum(nw) {above}, 0) AS fp_prev"]
    ranking = [*keys, *(_statistic(s, literals) for s in plan.curve_statistics)]
    ctes = [cte("fm_scores", per_score, "fm_input", [*keys, score]), cte("fm_curve", cumulative, "fm_scores", [])]
    curve = "fm_curve"
    if any(STATISTICS[s].gap_max for s in plan.curve_statistics):
        gap = f"max({inline('fm_ks_gap', {})}) {totals} AS gap_max"
        ctes.append(cte("fm_gaps", ["*", gap], "fm_curve", []))
        curve = "fm_gaps"
    return [*ctes, cte("fm_ranking", ranking, curve, keys)]
