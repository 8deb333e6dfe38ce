"""Generate plain SQL for a multiclass evaluation: metrics, class report or confusion matrix.

The CTEs are the stages of :mod:`framemetrics.multiclass.polars_query`, with
the same names and columns:

* ``fm_input``: group keys ``fm_g0...``, ``y_true``, ``y_pred``,
  ``sample_weight``, the class scores ``s_0...`` with ``true_index`` and
  ``p_true`` (position and score of the true class);
* ``fm_cells``: per group, true and predicted class: ``n_rows``, ``weight``,
  the check counts and the row sums (``sum_log_loss``, ``sum_brier``, ``sum_top_k``);
* ``fm_groups``: the same summed per group (``total`` is the weight);
* ``fm_classes``: per group and class: ``tp, fp, fn, support, predicted``,
  ``class_index`` and the group's ``total``; ``fm_class_values`` adds the
  binary formulas per class; ``fm_class_summary`` sums and averages them;
* ``fm_kappa``: observed and expected disagreement per kappa weighting;
* ``fm_rank_*``: per class j the curve of score ``s_j`` with class j
  positive, giving ``auc_sum, ap_sum, sum_pos, sum_neg`` per true class;
  ``fm_ovo`` the Hand & Till pairs; ``fm_micro_*`` the pooled curve.

Every expression is a macro of ``sql/framemetrics.sql`` inlined.
"""

from __future__ import annotations

from dataclasses import dataclass

from framemetrics.multiclass.plan import McCheck, McPlan
from framemetrics.multiclass.registry import PER_CLASS, RANK_PER_CLASS, Call, MulticlassMetric
from framemetrics.sql.macros import expand
from framemetrics.sql.query import cte, same_group
from framemetrics.sql.quoting import quote_identifier, sql_literal

__all__ = ["McQueryInputs", "confusion_query", "mc_ctes", "mc_query", "report_query"]


@dataclass(frozen=True)
class McQueryInputs:
    """The FROM clause and the SQL of each input: ``y_true``, ``y_pred``, ``sample_weight`` and the scores."""

    source: str
    y_true: str
    y_pred: str | None = None
    scores: tuple[str, ...] = ()
    sample_weight: str | None = None
    by: tuple[str, ...] = ()
    drop_nulls: bool = False


def _macro(name: str, *arguments: str) -> str:
    """Macro ``fm_<name>`` inlined with positional SQL arguments."""
    from framemetrics.sql.macros import macros

    macro = f"fm_{name}"
    return expand(macro, dict(zip(macros()[macro].params, arguments, strict=True)))


def _argument(argument: str, params: dict, plan: McPlan) -> str:
    """SQL of one argument of a :class:`Call`: a literal, a parameter or a column."""
    if argument == "NULL":
        return "CAST(NULL AS DOUBLE)"
    if argument == "NO_INVALID":
        return "0"
    if argument == "beta":
        return sql_literal(plan.beta)
    if argument == "n_classes":
        return str(plan.n_scores)
    if argument in params:
        return sql_literal(params[argument])
    return argument.format(weights=params.get("weights") or "none")


def _call(call: Call, params: dict, plan: McPlan) -> str:
    return _macro(call.function, *(_argument(a, params, plan) for a in call.arguments))


def _average_column(metric: MulticlassMetric, key: str) -> str:
    """Column of ``fm_*_summary`` holding the average ``key`` of ``metric``."""
    return quote_identifier(f"{key}_{metric.name}")


def _labels_list(plan: McPlan) -> str:
    return "[" + ", ".join(sql_literal(label) for label in plan.labels) + "]"


def _check(check: McCheck, plan: McPlan) -> str:
    if check.domain == "class":
        return _macro("invalid_class", check.role, _labels_list(plan))
    if check.domain == "simplex":
        return _macro("invalid_simplex", " + ".join(f"s_{j}" for j in range(plan.n_scores)))
    column = f"s_{check.index}" if check.index is not None else check.role
    return _macro(f"invalid_{check.domain}", column)


def _input_cte(plan: McPlan, inputs: McQueryInputs, keys: list[str]) -> str:
    columns = [f"{quote_identifier(c)} AS {k}" for c, k in zip(inputs.by, keys, strict=True)]
    columns.append(f"{inputs.y_true} AS y_true")
    if inputs.y_pred is not None:
        columns.append(f"{inputs.y_pred} AS y_pred")
    columns.append(f"CAST({inputs.sample_weight or 1} AS DOUBLE) AS sample_weight")
    columns += [f"CAST({s} AS DOUBLE) AS s_{j}" for j, s in enumerate(inputs.scores)]
    source = inputs.source
    if inputs.drop_nulls:
        used = [inputs.y_true, inputs.y_pred, *inputs.scores, inputs.sample_weight]
        source += "\n    WHERE " + " AND ".join(f"({c}) IS NOT NULL" for c in used if c is not None)
    if not plan.n_scores:
        return cte("fm_input", columns, source, [])
    base = cte("fm_raw", columns, source, [])
    cases = " ".join(f"WHEN {sql_literal(label)} THEN {j}" for j, label in enumerate(plan.labels))
    scores = " ".join(f"WHEN {j} THEN s_{j}" for j in range(plan.n_scores))
    derived = cte("fm_indexed", ["*", f"CASE y_true {cases} END AS true_index"], "fm_raw", [])
    return ",\n".join(
        [base, derived, cte("fm_input", ["*", f"CASE true_index {scores} END AS p_true"], "fm_indexed", [])]
    )


def _row_sums(plan: McPlan) -> list[str]:
    stages = {c.metric.name for c in plan.calls}
    k = plan.n_scores
    sums = []
    if "log_loss" in stages:
        sums.append(f"sum(sample_weight * {_macro('mc_log_loss_row', 'p_true')}) AS sum_log_loss")
    if "brier_score_loss" in stages:
        terms = " + ".join(_macro("mc_brier_term", f"s_{j}", str(j), "true_index") for j in range(k))
        sums.append(f"sum(sample_weight * ({terms})) AS sum_brier")
    if "top_k_accuracy_score" in stages:
        above = " + ".join(_macro("mc_ranks_above", f"s_{j}", str(j), "p_true", "true_index") for j in range(k))
        sums.append(f"sum(sample_weight * CAST(({above}) < {plan.k} AS DOUBLE)) AS sum_top_k")
    return sums


def _cells_ctes(plan: McPlan, keys: list[str]) -> list[str]:
    classes = ["y_true", *(["y_pred"] if plan.has_pred else [])]
    sums = ["count(*) AS n_rows", "sum(sample_weight) AS weight"]
    sums += [f"{_check(c, plan)} AS {c.name}" for c in plan.checks] + _row_sums(plan)
    cells = cte("fm_cells", [*keys, *classes, *sums], "fm_input", [*keys, *classes])
    totals = ["CAST(sum(n_rows) AS BIGINT) AS n_rows", "sum(weight) AS total"]
    totals += [f"sum({s.rsplit(' AS ', 1)[1]}) AS {s.rsplit(' AS ', 1)[1]}" for s in sums[2:]]
    return [cells, cte("fm_groups", [*keys, *totals], "fm_cells", keys)]


def _classes_ctes(plan: McPlan, keys: list[str]) -> list[str]:
    hit = "y_true IS NOT DISTINCT FROM y_pred"
    parts = (
        f"    SELECT {', '.join(keys + [''])}y_true AS class, weight AS support, 0.0 AS predicted,\n"
        f"        CASE WHEN {hit} THEN weight ELSE 0.0 END AS tp, 0.0 AS fp,\n"
        f"        CASE WHEN {hit} THEN 0.0 ELSE weight END AS fn\n    FROM fm_cells\n    UNION ALL\n"
        f"    SELECT {', '.join(keys + [''])}y_pred, 0.0, weight, 0.0, CASE WHEN {hit} THEN 0.0 ELSE weight END, 0.0\n"
        "    FROM fm_cells"
    )
    if plan.labels is not None:
        every_label = f"unnest({_labels_list(plan)}), 0.0, 0.0, 0.0, 0.0, 0.0"
        parts += f"\n    UNION ALL\n    SELECT {', '.join(keys + [''])}{every_label}\n    FROM fm_groups"
        index = f"list_position({_labels_list(plan)}, class) - 1"
        valid = f"list_contains({_labels_list(plan)}, class)"
    else:
        partition = f"PARTITION BY {', '.join(keys)} " if keys else ""
        index = f"dense_rank() OVER ({partition}ORDER BY class) - 1"
        valid = "class IS NOT NULL"
    sums = [f"sum({c}) AS {c}" for c in ("tp", "fp", "fn", "support", "predicted")]
    total = f"sum(sum(support)) OVER ({'PARTITION BY ' + ', '.join(keys) if keys else ''}) AS total"
    classes = cte(
        "fm_classes",
        [*keys, "class", *sums, f"{index} AS class_index", total],
        f"fm_class_parts\n    WHERE {valid}",
        [*keys, "class"],
    )
    values = ["*"] + [f"{_call(call, {}, plan)} AS {name}" for name, call in PER_CLASS.items()]
    summary = [
        *keys,
        "sum(tp) AS tp",
        "sum(fp) AS fp",
        "sum(fn) AS fn",
        "sum(support * predicted) AS true_dot_pred",
        "sum(support * support) AS true_dot_true",
        "sum(predicted * predicted) AS pred_dot_pred",
        "count(*) FILTER (WHERE support > 0) AS n_true_classes",
        "count(*) FILTER (WHERE predicted > 0) AS n_pred_classes",
        "avg(tp / support) FILTER (WHERE support > 0) AS mean_recall",
        *_averages(plan, "classes"),
    ]
    return [
        f"fm_class_parts AS (\n{parts}\n)",
        classes,
        cte("fm_class_values", values, "fm_classes", []),
        cte("fm_class_summary", summary, "fm_class_values", keys),
    ]


def _averages(plan: McPlan, stage: str) -> list[str]:
    return [
        f"{_call(average, call.params, plan)} AS {_average_column(call.metric, key)}"
        for call in plan.calls
        if call.metric.stage == stage
        for key, average in call.metric.averages.items()
    ]


def _kappa_ctes(plan: McPlan, keys: list[str]) -> list[str]:
    def weight(i: str, j: str, w: str | None) -> str:
        return _macro("mc_kappa_weight", i, j, sql_literal(w))

    on_true = same_group("fm_cells", "t", keys) + " AND t.class = fm_cells.y_true"
    on_pred = same_group("fm_cells", "p", keys) + " AND p.class = fm_cells.y_pred"
    observed = [f"fm_cells.{k} AS {k}" for k in keys] + [
        f"sum(fm_cells.weight * {weight('t.class_index', 'p.class_index', w)}) AS observed_{w or 'none'}"
        for w in plan.kappa_weights
    ]
    expected = [f"a.{k} AS {k}" for k in keys] + [
        f"sum(a.support * b.predicted / a.total * {weight('a.class_index', 'b.class_index', w)})"
        f" AS expected_{w or 'none'}"
        for w in plan.kappa_weights
    ]
    source = f"fm_cells JOIN fm_classes t ON {on_true} JOIN fm_classes p ON {on_pred}"
    pairs = f"fm_classes a JOIN fm_classes b ON {same_group('a', 'b', keys)}"
    return [
        cte("fm_kappa_observed", observed, source, [f"fm_cells.{k}" for k in keys]),
        cte("fm_kappa_expected", expected, pairs, [f"a.{k}" for k in keys]),
    ]


def _curve_ctes(
    prefix: str, partition: list[str], row_class: str, positive: str, source: str = "fm_rank_input"
) -> list[str]:
    """Per ``partition``, score and ``row_class`` of ``source``: the row's positive weight ``rw``, ``nw``;
    the score's ``pw``; ``tp, fp`` over scores at or above it; the binary ranking sums per row class."""
    group = [*partition, "y_score", row_class]
    scores = cte(
        f"{prefix}_scores",
        [
            *group,
            f"sum(CASE WHEN {positive} THEN sample_weight ELSE 0.0 END) AS rw",
            f"sum(CASE WHEN {positive} THEN 0.0 ELSE sample_weight END) AS nw",
        ],
        source,
        group,
    )
    over = f"PARTITION BY {', '.join(partition)}" if partition else ""
    curve = cte(
        f"{prefix}_curve",
        [
            "*",
            f"sum(rw) OVER (PARTITION BY {', '.join([*partition, 'y_score'])}) AS pw",
            f"sum(rw) OVER ({over} ORDER BY y_score DESC) AS tp",
            f"sum(nw) OVER ({over} ORDER BY y_score DESC) AS fp",
        ],
        f"{prefix}_scores",
        [],
    )
    stats = [
        *partition,
        row_class,
        *(f"{expand(f'fm_stat_{s}', {})} AS {s}" for s in ("auc_sum", "ap_sum", "sum_pos", "sum_neg")),
    ]
    return [scores, curve, cte(f"{prefix}_pairs", stats, f"{prefix}_curve", [*partition, row_class])]


def _rank_input(plan: McPlan, keys: list[str]) -> str:
    k = plan.n_scores
    columns = [
        *keys,
        f"unnest(range({k})) AS column_index",
        f"unnest([{', '.join(f's_{j}' for j in range(k))}]) AS y_score",
    ]
    columns += ["true_index", "sample_weight"]
    return cte("fm_rank_input", columns, "fm_input", [])


def _ranking_ctes(plan: McPlan, keys: list[str]) -> list[str]:
    partition = [*keys, "column_index"]
    ctes = _curve_ctes("fm_rank", partition, "true_index", "true_index = column_index")
    own = "true_index = column_index"
    classes = [
        *partition,
        "sum(auc_sum) AS auc_sum",
        f"coalesce(sum(ap_sum) FILTER (WHERE {own}), 0) AS ap_sum",
        f"coalesce(sum(sum_pos) FILTER (WHERE {own}), 0) AS sum_pos",
        "sum(sum_neg) AS sum_neg",
    ]
    ctes.append(cte("fm_rank_classes", classes, "fm_rank_pairs", partition))
    values = ["*"] + [f"{_call(call, {}, plan)} AS {name}" for name, call in RANK_PER_CLASS.items()]
    ctes.append(cte("fm_rank_values", values, "fm_rank_classes", []))
    ctes.append(
        cte(
            "fm_rank_summary",
            [*keys, "count(*) AS n_rank_classes", *_averages(plan, "ranking")],
            "fm_rank_values",
            keys,
        )
    )
    return ctes


def _ovo_cte(keys: list[str]) -> str:
    join = (
        f"fm_rank_pairs a JOIN fm_rank_pairs b ON {same_group('a', 'b', keys)}"
        " AND a.column_index = b.true_index AND a.true_index = b.column_index"
        f"\n        JOIN fm_rank_classes pa ON {same_group('a', 'pa', keys)} AND pa.column_index = a.column_index"
        f"\n        JOIN fm_rank_classes pb ON {same_group('a', 'pb', keys)} AND pb.column_index = a.true_index"
        "\n    WHERE a.column_index < a.true_index AND pa.sum_pos > 0 AND pb.sum_pos > 0"
    )
    pair = _macro("mc_ovo_pair", "a.auc_sum", "b.auc_sum", "pa.sum_pos", "pb.sum_pos")
    columns = [f"a.{k} AS {k}" for k in keys]
    columns += [
        f"avg({pair}) AS ovo_macro",
        f"sum((pa.sum_pos + pb.sum_pos) * {pair}) / sum(pa.sum_pos + pb.sum_pos) AS ovo_weighted",
    ]
    return cte("fm_ovo", columns, join, [f"a.{k}" for k in keys])


def _micro_ctes(keys: list[str]) -> list[str]:
    pooled = "(SELECT *, true_index = column_index AS is_pos FROM fm_rank_input)"
    ctes = _curve_ctes("fm_micro", keys, "is_pos", "is_pos", pooled)
    sums = [
        *keys,
        "sum(auc_sum) AS micro_auc_sum",
        "coalesce(sum(ap_sum) FILTER (WHERE is_pos), 0) AS micro_ap_sum",
        "coalesce(sum(sum_pos) FILTER (WHERE is_pos), 0) AS micro_sum_pos",
        "sum(sum_neg) AS micro_sum_neg",
    ]
    return [*ctes, cte("fm_micro", sums, "fm_micro_pairs", keys)]


def mc_ctes(plan: McPlan, inputs: McQueryInputs, stages: frozenset[str]) -> list[str]:
    """The CTEs of the stages ``stages`` (``classes``, ``kappa``, ``ranking``, ``ovo``, ``micro``)."""
    keys = [f"fm_g{i}" for i in range(len(inputs.by))]
    ctes = [_input_cte(plan, inputs, keys), *_cells_ctes(plan, keys)]
    if "classes" in stages or "kappa" in stages:
        ctes += _classes_ctes(plan, keys)
    if "kappa" in stages:
        ctes += _kappa_ctes(plan, keys)
    if {"ranking", "ovo", "micro"} & stages:
        ctes.append(_rank_input(plan, keys))
    if "ranking" in stages or "ovo" in stages:
        ctes += _ranking_ctes(plan, keys)
    if "ovo" in stages:
        ctes.append(_ovo_cte(keys))
    if "micro" in stages:
        ctes += _micro_ctes(keys)
    return ctes


_JOINED = {
    "classes": "fm_class_summary",
    "kappa": ("fm_kappa_observed", "fm_kappa_expected"),
    "ranking": "fm_rank_summary",
    "ovo": "fm_ovo",
    "micro": "fm_micro",
}


def _metrics_select(plan: McPlan, keys: list[str], by: tuple[str, ...], *, checks: bool, internal: bool) -> str:
    """The final SELECT: formulas over ``fm_groups`` joined to the summaries of the plan's stages."""
    joins = "fm_groups"
    for stage in sorted(plan.stages & set(_JOINED)):
        for table in (_JOINED[stage],) if isinstance(_JOINED[stage], str) else _JOINED[stage]:
            joins += f"\n    LEFT JOIN {table} ON {same_group('fm_groups', table, keys)}"
    n_invalid = " + ".join(f"fm_groups.{c.name}" for c in plan.checks)
    if internal:
        outputs = [f"fm_groups.{k} AS {k}" for k in keys] + ["fm_groups.total AS total"]
    else:
        outputs = [f"fm_groups.{k} AS {quote_identifier(c)}" for k, c in zip(keys, by, strict=True)]
    outputs.append("fm_groups.n_rows AS n_rows")
    for call in plan.calls:
        formula = call.metric.formula
        arguments = [
            _average_column(call.metric, a)
            if a in call.metric.averages
            else f"({n_invalid})"
            if a == "n_invalid"
            else _argument(a, call.params, plan)
            for a in formula.arguments
        ]
        outputs.append(f"{_macro(formula.function, *arguments)} AS {quote_identifier(call.name)}")
    if checks:
        outputs += [f"fm_groups.{c.name} AS {c.name}" for c in plan.checks]
    return "SELECT\n    " + ",\n    ".join(outputs) + f"\nFROM {joins}"


def mc_query(plan: McPlan, inputs: McQueryInputs, *, checks: bool = False) -> str:
    """SQL text of the plan's metrics per group: group columns, ``n_rows``, one column per metric.

    Parameters
    ----------
    plan : McPlan
        What to compute.
    inputs : McQueryInputs
        The source and the SQL of each input.
    checks : bool, default False
        Also return the ``invalid_*`` counts per group.

    Returns
    -------
    str

    Examples
    --------
    >>> from framemetrics.multiclass.plan import make_mc_plan
    >>> plan = make_mc_plan(["accuracy_score"], labels=None, n_scores=0, has_pred=True,
    ...                     weighted=False, float_labels=False)
    >>> q = mc_query(plan, McQueryInputs('"t"', '"y"', '"p"'))
    >>> import duckdb
    >>> con = duckdb.connect()
    >>> _ = con.execute("CREATE TABLE t AS SELECT * FROM (VALUES (1, 1), (2, 1)) v(y, p)")
    >>> con.sql(q).fetchall()
    [(2, 0.5)]
    """
    keys = [f"fm_g{i}" for i in range(len(inputs.by))]
    ctes = mc_ctes(plan, inputs, plan.stages)
    order = ", ".join(f"fm_groups.{k} NULLS LAST" for k in keys)
    select = _metrics_select(plan, keys, inputs.by, checks=checks, internal=False)
    return "WITH " + ",\n".join(ctes) + "\n" + select + (f"\nORDER BY {order}" if keys else "")


def _by_columns(keys: list[str], by: tuple[str, ...], table: str) -> list[str]:
    return [f"{table}.{k} AS {quote_identifier(c)}" for k, c in zip(keys, by, strict=True)]


def report_query(plan: McPlan, inputs: McQueryInputs) -> str:
    """SQL text of the class report: per group, one row per class, then ``micro avg``, ``macro avg``
    and ``weighted avg``; ``plan`` holds the averaged metrics (see :func:`framemetrics.classification_report`)."""
    keys = [f"fm_g{i}" for i in range(len(inputs.by))]
    ranked = plan.n_scores > 0
    ctes = mc_ctes(plan, inputs, plan.stages | {"classes"} | ({"ranking"} if ranked else set()))
    ctes.append(f"fm_metrics AS (\n{_metrics_select(plan, keys, inputs.by, checks=True, internal=True)}\n)")
    counts = [f"m.{c.name} AS {c.name}" for c in plan.checks]
    by = _by_columns(keys, inputs.by, "m")
    per_class = [
        *by,
        "CAST(c.class AS VARCHAR) AS class",
        "c.precision_score AS precision",
        "c.recall_score AS recall",
        "c.f1_score AS f1_score",
        "c.support AS support",
    ]
    source = f"fm_metrics m JOIN fm_class_values c ON {same_group('m', 'c', keys)}"
    if ranked:
        per_class += ["r.roc_auc_score AS roc_auc", "r.average_precision_score AS average_precision"]
        source += f"\n    LEFT JOIN fm_rank_values r ON {same_group('c', 'r', keys)} AND r.column_index = c.class_index"
    per_class += [*counts, "c.class_index AS fm_order"]
    selects = [f"SELECT {', '.join(per_class)}\nFROM {source}"]
    for position, average in enumerate(("micro", "macro", "weighted")):
        auc = "roc_auc_ovr" + ("" if average == "macro" else f"_{average}")
        row = [*by, f"'{average} avg'", f"precision_{average}", f"recall_{average}", f"f1_{average}", "total"]
        row += [auc, f"average_precision_{average}"] if ranked else []
        row += [*counts, f"{len(plan.labels or ()) + 1_000_000 + position}"]
        selects.append(f"SELECT {', '.join(row)}\nFROM fm_metrics m")
    order = ", ".join([*(f"{quote_identifier(c)} NULLS LAST" for c in inputs.by), "fm_order"])
    return "WITH " + ",\n".join(ctes) + "\n" + "\nUNION ALL\n".join(selects) + f"\nORDER BY {order}"


def confusion_query(plan: McPlan, inputs: McQueryInputs) -> str:
    """SQL text of the dense confusion matrix per group: every (true, predicted) pair of the
    group's classes with ``n_rows`` and ``weight`` (0 where no row), and the group's check counts."""
    keys = [f"fm_g{i}" for i in range(len(inputs.by))]
    ctes = mc_ctes(plan, inputs, frozenset({"classes"}))
    pairs = (
        f"SELECT {', '.join([*(f't.{k} AS {k}' for k in keys), ''])}t.class AS y_true, p.class AS y_pred,"
        " t.class_index AS true_index, p.class_index AS pred_index,"
        " coalesce(c.n_rows, 0) AS n_rows, coalesce(c.weight, 0.0) AS weight"
        f"\n    FROM fm_classes t JOIN fm_classes p ON {same_group('t', 'p', keys)}"
        f"\n    LEFT JOIN fm_cells c ON {same_group('t', 'c', keys)} AND c.y_true = t.class AND c.y_pred = p.class"
    )
    ctes.append(f"fm_pairs AS (\n    {pairs}\n)")
    outputs = [
        *_by_columns(keys, inputs.by, "g"),
        "x.y_true",
        "x.y_pred",
        "x.n_rows",
        "x.weight",
        *(f"g.{c.name} AS {c.name}" for c in plan.checks),
    ]
    order = ", ".join([*(f"g.{k} NULLS LAST" for k in keys), "x.true_index", "x.pred_index"])
    return (
        "WITH " + ",\n".join(ctes) + f"\nSELECT {', '.join(outputs)}\nFROM fm_groups g"
        f"\n    LEFT JOIN fm_pairs x ON {same_group('g', 'x', keys)}\nORDER BY {order}"
    )
