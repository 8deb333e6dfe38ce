"""Generate plain SQL for the calibration (reliability) curve per group.

The same stages as :func:`framemetrics.calibration.calibration_curve` on
Polars: the canonical input (``fm_input``), then one ``GROUP BY`` of group
and bin (``fm_bins``, macro ``fm_calibration_bin``) summing the positive and
negative weights and the weighted score, then the ratios.
"""

from __future__ import annotations

from framemetrics.plan import Plan
from framemetrics.sql.macros import expand
from framemetrics.sql.query import QueryInputs, _literals, cte, group_keys, inline, input_cte
from framemetrics.sql.quoting import quote_identifier, sql_literal

__all__ = ["calibration_query"]


def calibration_query(plan: Plan, inputs: QueryInputs, n_bins: int) -> str:
    """SQL text of the calibration curve's bins per group of ``inputs``.

    Parameters
    ----------
    plan : Plan
        The plan of a probability metric: its checks and labels.
    inputs : QueryInputs
        The source and the SQL of ``y_true``, ``y_score``, ``sample_weight``.
    n_bins : int
        Number of equal-width bins of [0, 1].

    Returns
    -------
    str
        One statement: the group columns, ``bin``, ``bin_lower``,
        ``bin_upper``, ``n_rows``, ``positive_weight``, ``negative_weight``,
        ``prob_true``, ``prob_pred``; only bins with rows, ordered by group and bin.

    Examples
    --------
    >>> from framemetrics.plan import make_plan
    >>> q = calibration_query(make_plan("brier_score_loss", weighted=False),
    ...                       QueryInputs('"t"', {"y_true": '"y"', "y_score": '"s"'}), 10)
    >>> q.splitlines()[-1]
    'ORDER BY bin'
    """
    keys = group_keys(inputs)
    literals = _literals(plan, inputs)
    n = sql_literal(int(n_bins))
    step = f"(CAST(1 AS DOUBLE) / {n})"
    binned = [
        *keys,
        f"{expand('fm_calibration_bin', {'p': 'y_score', 'n_bins': n})} AS bin",
        "count(*) AS n_rows",
        f"{inline('fm_score_pw', literals)} AS positive_weight",
        f"{inline('fm_score_nw', literals)} AS negative_weight",
        "sum(sample_weight * y_score) AS score_weight",
    ]
    total = "(positive_weight + negative_weight)"
    outputs = [f"{k} AS {quote_identifier(c)}" for k, c in zip(keys, inputs.by, strict=True)]
    outputs += [
        "bin",
        f"bin * {step} AS bin_lower",
        f"CASE WHEN bin = {n} - 1 THEN CAST(1 AS DOUBLE) ELSE (bin + 1) * {step} END AS bin_upper",
        "n_rows",
        "positive_weight",
        "negative_weight",
        f"{expand('fm_calibration_ratio', {'part': 'positive_weight', 'total': total})} AS prob_true",
        f"{expand('fm_calibration_ratio', {'part': 'score_weight', 'total': total})} AS prob_pred",
    ]
    ctes = [input_cte(plan, inputs, keys), cte("fm_bins", binned, "fm_input", [*keys, "bin"])]
    ordering = ", ".join([*(f"{k} NULLS LAST" for k in keys), "bin"])
    select = ",\n    ".join(outputs)
    return "WITH " + ",\n".join(ctes) + f"\nSELECT\n    {select}\nFROM fm_bins\nORDER BY {ordering}"
