"""A multiclass evaluation as one SQL statement, built as a sqlglot tree: metrics, class report or confusion matrix.

The CTEs are the stages of :mod:`framemetrics.compilers.polars.multiclass`,
with the same names and columns, from the same definitions
(:mod:`framemetrics.core.multiclass` and the core's formulas and curve
statistics):

* ``fm_input``: group keys ``fm_g0...``, ``y_true``, ``y_pred``,
  ``sample_weight``, the class scores ``s_0...`` with ``true_index`` and
  ``p_true`` (position and score of the true class);
* ``fm_cells``: per group, true and predicted class: ``n_rows``, ``weight``,
  the check counts and the row sums (``sum_log_loss``, ``sum_brier``, ``sum_top_k``);
* ``fm_groups``: the same summed per group (``total`` is the weight);
* ``fm_classes``: per group and class: ``tp, fp, fn, support, predicted``,
  ``class_index`` and the group's ``total``; ``fm_class_values`` adds the
  binary formulas per class; ``fm_class_summary`` sums and averages them;
* ``fm_kappa_*``: observed and expected disagreement per kappa weighting;
* ``fm_rank_*``: per class j the shared curve stage of score ``s_j`` with
  class j positive (one-vs-rest), giving ``auc_sum, ap_sum, sum_pos,
  sum_neg``; ``fm_ovo_*`` the same per pair of classes over the pair's rows
  (Hand & Till); ``fm_micro_*`` over all (row, class) pairs pooled.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import reduce

from sqlglot import exp

from framemetrics.compilers.sql.namespace import SQL, identifier
from framemetrics.compilers.sql.query import kept_rows, row_key, same_group, user_column
from framemetrics.compilers.sql.stages import cells_stage, curve_statistics, rows_of, select_from
from framemetrics.core import multiclass as mc_core
from framemetrics.core.cells import CLASSES, cell_totals
from framemetrics.core.plan import Plan
from framemetrics.core.registry import PER_CLASS, RANK_PER_CLASS
from framemetrics.core.resampling import ROW_KEY
from framemetrics.core.statistics import Rows

__all__ = [
    "McQueryInputs",
    "cell_sums",
    "checks_query",
    "class_table_query",
    "confusion_query",
    "groups_cte",
    "input_ctes",
    "mc_ctes",
    "mc_query",
    "metrics_select",
    "one_vs_rest_rows",
    "plan_classes",
    "report_query",
    "stage_ctes",
]

Ctes = list[tuple[str, exp.Query]]


@dataclass(frozen=True)
class McQueryInputs:
    """The FROM clause and the expression of each input: ``y_true``, ``y_pred``, ``sample_weight``, the scores.

    ``n_listed`` is the length of the list column holding the scores, if they are one.
    """

    source: exp.Expression
    y_true: exp.Expression
    y_pred: exp.Expression | None = None
    scores: tuple[exp.Expression, ...] = ()
    sample_weight: exp.Expression | None = None
    by: tuple[str, ...] = ()
    drop_nulls: bool = False
    n_listed: exp.Expression | None = None


def _col(name: str, table: str | None = None) -> exp.Column:
    return exp.column(name, table=table)


def _cols(names: list[str], table: str | None = None) -> list[exp.Column]:
    return [exp.column(n, table=table) for n in names]


def _as(value: exp.Expression, name: str | exp.Identifier) -> exp.Alias:
    return exp.alias_(value, name, copy=False)


def _named(columns: dict[str, exp.Expression]) -> list[exp.Alias]:
    return [_as(value, name) for name, value in columns.items()]


def _table(name: str, alias: str) -> exp.Table:
    return exp.Table(this=exp.to_identifier(name), alias=exp.TableAlias(this=exp.to_identifier(alias)))


def _keys(inputs: McQueryInputs) -> list[str]:
    return [f"fm_g{i}" for i in range(len(inputs.by))]


def input_ctes(plan: Plan, inputs: McQueryInputs) -> Ctes:
    """``fm_input`` (and the CTEs it reads): the rows' canonical columns, with the bootstrap's row key."""
    keys = _keys(inputs)
    columns = [_as(user_column(b), k) for b, k in zip(inputs.by, keys, strict=True)]
    columns.append(_as(inputs.y_true.copy(), "y_true"))
    if inputs.y_pred is not None:
        columns.append(_as(inputs.y_pred.copy(), "y_pred"))
    weight = SQL.lit(1) if inputs.sample_weight is None else inputs.sample_weight.copy()
    columns.append(_as(SQL.to_float(weight), "sample_weight"))
    columns += [_as(SQL.to_float(s.copy()), f"s_{j}") for j, s in enumerate(inputs.scores)]
    columns += [] if inputs.n_listed is None else [_as(inputs.n_listed.copy(), "n_listed")]
    if plan.bootstrapped:
        columns.append(_as(row_key(plan), ROW_KEY))
    required = ["y_true", *(["y_pred"] if inputs.y_pred is not None else []), *(f"s_{j}" for j in range(len(inputs.scores)))]
    required += [] if inputs.sample_weight is None else ["sample_weight"]
    raw = kept_rows(columns, inputs.source.copy(), required if inputs.drop_nulls else [])
    if not plan.n_scores:
        return [("fm_input", raw)]
    number = exp.Literal.number
    labels = enumerate(plan.labels)
    true_index = exp.Case(ifs=[exp.If(this=SQL.eq(_col("y_true"), SQL.lit(c)), true=number(j)) for j, c in labels])
    p_true = exp.Case(
        ifs=[exp.If(this=SQL.eq(_col("true_index"), number(j)), true=_col(f"s_{j}")) for j in range(plan.n_scores)]
    )
    indexed: list[exp.Expression] = [exp.Star(), _as(true_index, "true_index")]
    if plan.has_pred and inputs.y_pred is None:  # the predicted classes are the scores' argmax
        scores = [_col(f"s_{j}") for j in range(plan.n_scores)]
        indexed.append(_as(mc_core.argmax_label(SQL, scores, plan.labels), "y_pred"))
    return [
        ("fm_raw", raw),
        ("fm_indexed", select_from(indexed, "fm_raw")),
        ("fm_input", select_from([exp.Star(), _as(p_true, "p_true")], "fm_indexed")),
    ]


def cell_sums(plan: Plan) -> dict[str, exp.Expression]:
    """The sums of ``fm_cells`` besides ``n_rows`` and ``weight``: the check counts and the row sums."""
    sums = {c.name: mc_core.check_count(SQL, c, plan.labels, plan.n_scores) for c in plan.checks}
    return sums | mc_core.row_sums(SQL, {c.name for c in plan.calls}, plan.n_scores, plan.k)


def groups_cte(names: list[str], keys: list[str]) -> tuple[str, exp.Select]:
    """``fm_groups``: the columns ``names`` of ``fm_cells`` summed per group, the weight as ``total``."""
    totals = cell_totals(SQL, ["n_rows", *names]) | {"total": SQL.sum(_col("weight"))}
    return "fm_groups", select_from([*_cols(keys), *_named(totals)], "fm_cells", group_by=_cols(keys))


def _cells_ctes(plan: Plan, keys: list[str]) -> Ctes:
    sums = cell_sums(plan)
    x = rows_of({"pos_label": SQL.null(), "neg_label": SQL.null()})
    return [("fm_cells", cells_stage(x, keys, sums, plan_classes(plan))), groups_cte(list(sums), keys)]


def plan_classes(plan: Plan) -> tuple[str, ...]:
    """The class columns of ``fm_cells``: ``y_true``, and ``y_pred`` where there are predictions."""
    return CLASSES if plan.has_pred else CLASSES[:1]


def _label_index(plan: Plan, keys: list[str]) -> tuple[exp.Expression, exp.Expression]:
    """A class's index and whether it is a class of the evaluation (one of ``labels``, or not null)."""
    column = _col("class")
    if plan.labels is not None:
        index = exp.Case(
            ifs=[exp.If(this=SQL.eq(column, SQL.lit(c)), true=exp.Literal.number(j)) for j, c in enumerate(plan.labels)]
        )
        return index, SQL.any(*(SQL.eq(column.copy(), SQL.lit(c)) for c in plan.labels))
    order = exp.Order(expressions=[exp.Ordered(this=column.copy())])
    rank = exp.Window(this=exp.Anonymous(this="DENSE_RANK"), partition_by=_cols(keys), order=order)
    return rank - 1, SQL.not_(SQL.is_null(column))


def _classes_ctes(plan: Plan, keys: list[str]) -> Ctes:
    def hit() -> exp.Expression:
        return exp.NullSafeEQ(this=_col("y_true"), expression=_col("y_pred"))

    def w() -> exp.Expression:
        return _col("weight")

    def zero() -> exp.Expression:
        return SQL.lit(0.0)

    as_true = {
        "class": _col("y_true"),
        "support": w(),
        "predicted": zero(),
        "tp": SQL.when(hit(), w()).otherwise(zero()),
    }
    as_true |= {"fp": zero(), "fn": SQL.when(hit(), zero()).otherwise(w())}
    as_pred = {"class": _col("y_pred"), "support": zero(), "predicted": w(), "tp": zero()}
    as_pred |= {"fp": SQL.when(hit(), zero()).otherwise(w()), "fn": zero()}
    parts = [select_from([*_cols(keys), *_named(p)], "fm_cells") for p in (as_true, as_pred)]
    if plan.labels is not None:
        values = exp.values([(SQL.lit(c),) for c in plan.labels], alias="fm_labels", columns=["class"])
        empty = [_col("class", "fm_labels"), *(_as(zero(), n) for n in list(as_true)[1:])]
        parts.append(select_from([*_cols(keys, "fm_groups"), *empty], "fm_groups").join(values, join_type="cross"))
    united = reduce(lambda a, b: exp.union(a, b, distinct=False), parts)
    index, valid = _label_index(plan, keys)
    sums = {n: SQL.sum(_col(n)) for n in ("tp", "fp", "fn", "support", "predicted")}
    total = exp.Window(this=exp.Sum(this=exp.Sum(this=_col("support"))), partition_by=_cols(keys))
    columns = [*_cols(keys), _col("class"), *_named(sums), _as(index, "class_index"), _as(total, "total")]
    classes = select_from(columns, "fm_class_parts", where=valid, group_by=_cols([*keys, "class"]))
    values = [exp.Star(), *(_as(mc_core.call_expr(SQL, call, {}, plan), name) for name, call in PER_CLASS.items())]
    summary = [*_cols(keys), *_named(mc_core.class_sums(SQL)), *_averages(plan, "classes")]
    return [
        ("fm_class_parts", united),
        ("fm_classes", classes),
        ("fm_class_values", select_from(values, "fm_classes")),
        ("fm_class_summary", select_from(summary, "fm_class_values", group_by=_cols(keys))),
    ]


def _averages(plan: Plan, stage: str) -> list[exp.Alias]:
    return [
        _as(mc_core.call_expr(SQL, average, call.params, plan), mc_core.average_column(call.metric, key))
        for call in plan.calls
        if stage in call.metric.statistics
        for key, average in call.metric.averages.items()
    ]


def _on(left: str, right: str, keys: list[str], *pairs: tuple[exp.Expression, exp.Expression]) -> exp.Expression:
    """Same group, and each pair of columns equal."""
    return same_group(left, right, keys, *(SQL.eq(a, b) for a, b in pairs))


def _kappa_ctes(plan: Plan, keys: list[str]) -> Ctes:
    columns = {
        "weight": _col("weight", "fm_cells"),
        "t": _col("class_index", "t"),
        "p": _col("class_index", "p"),
        "support": _col("support", "a"),
        "predicted": _col("predicted", "b"),
        "total": _col("total", "a"),
        "i": _col("class_index", "a"),
        "j": _col("class_index", "b"),
    }
    observed, expected = [], []
    for w in plan.kappa_weights:
        sums = mc_core.kappa_sums(SQL, w, {n: c.copy() for n, c in columns.items()})
        observed.append(_as(sums[0], f"observed_{w or 'none'}"))
        expected.append(_as(sums[1], f"expected_{w or 'none'}"))
    cells = select_from([*(_as(_col(k, "fm_cells"), k) for k in keys), *observed], "fm_cells")
    cells = cells.join(
        _table("fm_classes", "t"), on=_on("fm_cells", "t", keys, (_col("class", "t"), _col("y_true", "fm_cells")))
    )
    cells = cells.join(
        _table("fm_classes", "p"), on=_on("fm_cells", "p", keys, (_col("class", "p"), _col("y_pred", "fm_cells")))
    )
    pairs = select_from([*(_as(_col(k, "a"), k) for k in keys), *expected], _table("fm_classes", "a"))
    pairs = pairs.join(_table("fm_classes", "b"), on=same_group("a", "b", keys))
    return [
        ("fm_kappa_observed", cells.group_by(*_cols(keys, "fm_cells")) if keys else cells),
        ("fm_kappa_expected", pairs.group_by(*_cols(keys, "a")) if keys else pairs),
    ]


_RANK_STATISTICS = ("auc_sum", "ap_sum", "sum_pos", "sum_neg")


def _ranked(prefix: str, keys: list[str], source: str) -> Ctes:
    """``<prefix>_ranking``: ``auc_sum, ap_sum, sum_pos, sum_neg`` per group of ``keys``, ``is_pos`` positive."""
    x = Rows(
        y_true=_col("is_pos"),
        y_pred=None,
        y_score=_col("y_score"),
        sample_weight=_col("sample_weight"),
        pos_label=SQL.lit(True),
        neg_label=SQL.lit(False),
        alpha=None,
        max_fpr=SQL.lit(1.0),
    )
    return curve_statistics(x, keys, _RANK_STATISTICS, source=source, prefix=prefix)


def _rank_input(plan: Plan, keys: list[str], source: str) -> Ctes:
    """``fm_rank_input``: each row of ``source`` once per class, its score for the class and whether it is of it.

    A portable unpivot: one ``SELECT`` per score column, ``UNION ALL``
    (side-by-side ``UNNEST``s of lists, which Spark and ClickHouse would
    cross, are not used; a ``CROSS JOIN`` with the class indexes and a
    ``CASE`` picking the score measured 17% slower on DuckDB).
    """
    columns = [*keys, "true_index", "sample_weight"]
    parts = [
        select_from(
            [
                *_cols(columns),
                _as(exp.Literal.number(j), "column_index"),
                _as(_col(f"s_{j}"), "y_score"),
                _as(SQL.eq(_col("true_index"), exp.Literal.number(j)), "is_pos"),
            ],
            source,
        )
        for j in range(plan.n_scores)
    ]
    return [("fm_rank_input", reduce(lambda a, b: exp.union(a, b, distinct=False), parts))]


def _ranking_ctes(plan: Plan, keys: list[str]) -> Ctes:
    """One-vs-rest per class (score ``s_j``, class j positive): ``fm_rank_values`` and ``fm_rank_summary``."""
    ctes = _ranked("fm_rank", [*keys, "column_index"], "fm_rank_input")
    values = [exp.Star(), *(_as(mc_core.call_expr(SQL, call, {}, plan), name) for name, call in RANK_PER_CLASS.items())]
    summary = [*_cols(keys), _as(SQL.count_rows(), "n_rank_classes"), *_averages(plan, "ranking")]
    return [
        *ctes,
        ("fm_rank_values", select_from(values, "fm_rank_ranking")),
        ("fm_rank_summary", select_from(summary, "fm_rank_values", group_by=_cols(keys))),
    ]


def _ovo_ctes(plan: Plan, keys: list[str]) -> Ctes:
    """Hand & Till: per ordered pair (a, b), the curve of ``s_a`` over the rows of classes a and b
    (``fm_ovo_input``: the positives of column a once for every other class, as scikit-learn subsets
    each pair's rows), then ``fm_ovo``: the pair scores averaged per group."""
    rank_columns = [*keys, "column_index", "y_score", "true_index", "sample_weight", "is_pos"]
    others = exp.values([(exp.Literal.number(j),) for j in range(plan.n_scores)], alias="fm_others", columns=["other"])
    positives = select_from([*_cols(rank_columns, "fm_rank_input"), _col("other", "fm_others")], "fm_rank_input")
    positives = positives.join(others, join_type="cross")
    positives = positives.where(SQL.all(_col("is_pos"), SQL.ne(_col("other", "fm_others"), _col("column_index"))))
    negatives = [*_cols(rank_columns), _as(_col("true_index"), "other")]
    negatives = select_from(negatives, "fm_rank_input", where=SQL.not_(_col("is_pos")))
    ctes = [("fm_ovo_input", exp.union(positives, negatives, distinct=False))]
    ctes += _ranked("fm_ovo", [*keys, "column_index", "other"], "fm_ovo_input")
    sums = mc_core.ovo_sums(SQL, _col("auc_sum", "a"), _col("auc_sum", "b"), _col("sum_pos", "a"), _col("sum_neg", "a"))
    select = select_from([*(_as(_col(k, "a"), k) for k in keys), *_named(sums)], _table("fm_ovo_ranking", "a"))
    pair = ((_col("column_index", "a"), _col("other", "b")), (_col("other", "a"), _col("column_index", "b")))
    select = select.join(_table("fm_ovo_ranking", "b"), on=_on("a", "b", keys, *pair))
    kept = SQL.all(_col("column_index", "a") < _col("other", "a"), _col("sum_pos", "a") > 0, _col("sum_neg", "a") > 0)
    select = select.where(kept)
    return [*ctes, ("fm_ovo", select.group_by(*_cols(keys, "a")) if keys else select)]


def _micro_ctes(keys: list[str]) -> Ctes:
    ctes = _ranked("fm_micro", keys, "fm_rank_input")
    sums = [_as(_col(s), f"micro_{s}") for s in _RANK_STATISTICS]
    return [*ctes, ("fm_micro", select_from([*_cols(keys), *sums], "fm_micro_ranking"))]


def mc_ctes(plan: Plan, inputs: McQueryInputs, stages: frozenset[str]) -> Ctes:
    """The CTEs of the stages ``stages`` (``classes``, ``kappa``, ``ranking``, ``ovo``, ``micro``)."""
    keys = _keys(inputs)
    return [*input_ctes(plan, inputs), *_cells_ctes(plan, keys), *stage_ctes(plan, keys, stages)]


def stage_ctes(plan: Plan, keys: list[str], stages: frozenset[str], rows: str = "fm_input") -> Ctes:
    """The CTEs of the ``stages`` after ``fm_cells`` and ``fm_groups``, per group of ``keys``; the curves read the
    table ``rows``."""
    ctes: Ctes = []
    if "classes" in stages or "kappa" in stages:
        ctes += _classes_ctes(plan, keys)
    if "kappa" in stages:
        ctes += _kappa_ctes(plan, keys)
    if mc_core.CURVE_STAGES & stages:
        ctes += _rank_input(plan, keys, rows)
    if "ranking" in stages:
        ctes += _ranking_ctes(plan, keys)
    if "ovo" in stages:
        ctes += _ovo_ctes(plan, keys)
    if "micro" in stages:
        ctes += _micro_ctes(keys)
    return ctes


_JOINED = {
    "classes": ("fm_class_summary",),
    "kappa": ("fm_kappa_observed", "fm_kappa_expected"),
    "ranking": ("fm_rank_summary",),
    "ovo": ("fm_ovo",),
    "micro": ("fm_micro",),
}


def metrics_select(plan: Plan, keys: list[str], by: tuple[str, ...], *, checks: bool, internal: bool) -> exp.Select:
    """The metrics: formulas over ``fm_groups`` joined to the summaries of the plan's stages."""
    n_invalid = reduce(lambda a, b: a + b, (_col(c.name, "fm_groups") for c in plan.checks))
    if internal:
        outputs = [*(_as(_col(k, "fm_groups"), k) for k in keys), _as(_col("total", "fm_groups"), "total")]
    else:
        outputs = [_as(_col(k, "fm_groups"), identifier(c)) for k, c in zip(keys, by, strict=True)]
    outputs.append(_as(_col("n_rows", "fm_groups"), "n_rows"))
    outputs += [
        _as(mc_core.metric_expr(SQL, call, plan, n_invalid.copy()), identifier(call.name)) for call in plan.calls
    ]
    if checks:
        outputs += [_as(_col(c.name, "fm_groups"), c.name) for c in plan.checks]
    select = select_from(outputs, "fm_groups")
    for stage in sorted(plan.stages & set(_JOINED)):
        for table in _JOINED[stage]:
            select = select.join(table, on=same_group("fm_groups", table, keys), join_type="left")
    return select


def _with(query: exp.Query, ctes: Ctes) -> exp.Query:
    for name, cte in ctes:
        query = query.with_(name, as_=cte, copy=False)
    return query


def _last(column: exp.Expression) -> exp.Ordered:
    return exp.Ordered(this=column, nulls_first=False)


def mc_query(plan: Plan, inputs: McQueryInputs, *, checks: bool = False) -> exp.Query:
    """The plan's metrics per group, as a tree: group columns, ``n_rows``, one column per metric.

    Parameters
    ----------
    plan : Plan
        What to compute.
    inputs : McQueryInputs
        The source and the expression of each input.
    checks : bool, default False
        Also return the ``invalid_*`` counts per group.

    Returns
    -------
    sqlglot.exp.Query

    Examples
    --------
    >>> import duckdb
    >>> from framemetrics.compilers.sql.emit import to_sql
    >>> from framemetrics.core.plan import make_plan
    >>> plan = make_plan(["accuracy_score"], task="multiclass", weighted=False)
    >>> q = mc_query(plan, McQueryInputs(exp.to_table("t"), user_column("y"), user_column("p")))
    >>> con = duckdb.connect()
    >>> _ = con.execute("CREATE TABLE t AS SELECT * FROM (VALUES (1, 1), (2, 1)) v(y, p)")
    >>> con.sql(to_sql(q)).fetchall()
    [(2, 0.5)]
    """
    keys = _keys(inputs)
    select = metrics_select(plan, keys, inputs.by, checks=checks, internal=False)
    if keys:
        select = select.order_by(*(_last(c) for c in _cols(keys, "fm_groups")))
    return _with(select, mc_ctes(plan, inputs, plan.stages))


def report_query(plan: Plan, inputs: McQueryInputs) -> exp.Query:
    """The class report, as a tree: per group, one row per class, then ``micro avg``, ``macro avg`` and
    ``weighted avg``; ``plan`` holds the averaged metrics (see :func:`framemetrics.classification_report`)."""
    keys = _keys(inputs)
    ranked = plan.n_scores > 0
    ctes = mc_ctes(plan, inputs, plan.stages | {"classes"} | ({"ranking"} if ranked else set()))
    ctes.append(("fm_metrics", metrics_select(plan, keys, inputs.by, checks=True, internal=True)))
    counts = [_as(_col(c.name, "m"), c.name) for c in plan.checks]
    by = [_as(_col(k, "m"), identifier(c)) for k, c in zip(keys, inputs.by, strict=True)]
    source, per_class = _class_rows(plan, keys, inputs.by, ["precision", "recall", "f1_score", "support"])
    if ranked:
        per_class[-1 - len(counts) : -1 - len(counts)] = [
            _as(_col("roc_auc_score", "r"), "roc_auc"),
            _as(_col("average_precision_score", "r"), "average_precision"),
        ]
        on = _on("c", "r", keys, (_col("column_index", "r"), _col("class_index", "c")))
        source = source.join(_table("fm_rank_values", "r"), on=on, join_type="left")
    selects = [source.select(*per_class)]
    for position, average in enumerate(("micro", "macro", "weighted")):
        auc = "roc_auc_ovr" + ("" if average == "macro" else f"_{average}")
        row = [*(b.copy() for b in by), SQL.lit(f"{average} avg")]
        row += _cols([f"precision_{average}", f"recall_{average}", f"f1_{average}", "total"])
        row += _cols([auc, f"average_precision_{average}"]) if ranked else []
        row += [*(c.copy() for c in counts), exp.Literal.number(mc_core.AVERAGE_ROWS + position)]
        selects.append(select_from(row, _table("fm_metrics", "m")))
    union = reduce(lambda a, b: exp.union(a, b, distinct=False), selects)
    order = [*(_last(exp.column(identifier(c))) for c in inputs.by), exp.Ordered(this=_col("fm_order"))]
    return _with(union.order_by(*order), ctes)


def _class_rows(
    plan: Plan, keys: list[str], by: tuple[str, ...], names: list[str]
) -> tuple[exp.Select, list[exp.Expression]]:
    """The join of ``fm_metrics`` (m) and ``fm_class_values`` (c), and a class row's columns: the group,
    ``class`` as text, ``names`` (class columns), the group's check counts and ``fm_order``."""
    source = select_from([], _table("fm_metrics", "m")).join(
        _table("fm_class_values", "c"), on=same_group("m", "c", keys)
    )
    values = mc_core.class_columns(SQL, plan, lambda name: _col(name, "c"), names)
    columns = [_as(_col(k, "m"), identifier(c)) for k, c in zip(keys, by, strict=True)]
    columns += [_as(exp.cast(_col("class", "c"), "VARCHAR"), "class"), *(_as(v, n) for n, v in values.items())]
    columns += [_as(_col(c.name, "m"), c.name) for c in plan.checks]
    return source, [*columns, _as(_col("class_index", "c"), "fm_order")]


def class_table_query(plan: Plan, inputs: McQueryInputs) -> exp.Query:
    """The class table, as a tree: per group and class, the one-vs-rest counts and per-class values."""
    keys = _keys(inputs)
    ctes = mc_ctes(plan, inputs, plan.stages | {"classes"})
    ctes.append(("fm_metrics", metrics_select(plan, keys, inputs.by, checks=True, internal=True)))
    source, columns = _class_rows(plan, keys, inputs.by, list(mc_core.CLASS_TABLE))
    order = [*(_last(exp.column(identifier(c))) for c in inputs.by), exp.Ordered(this=_col("fm_order"))]
    return _with(source.select(*columns).order_by(*order), ctes)


def confusion_query(plan: Plan, inputs: McQueryInputs) -> exp.Query:
    """The dense confusion matrix per group, as a tree: every (true, predicted) pair of the group's classes
    with ``n_rows`` and ``weight`` (0 where no row), and the group's check counts."""
    keys = _keys(inputs)
    ctes = mc_ctes(plan, inputs, frozenset({"classes"}))
    pairs = [
        *(_as(_col(k, "t"), k) for k in keys),
        _as(_col("class", "t"), "y_true"),
        _as(_col("class", "p"), "y_pred"),
        _as(_col("class_index", "t"), "true_index"),
        _as(_col("class_index", "p"), "pred_index"),
        _as(SQL.coalesce(_col("n_rows", "c"), SQL.lit(0)), "n_rows"),
        _as(SQL.coalesce(_col("weight", "c"), SQL.lit(0.0)), "weight"),
    ]
    cell = ((_col("y_true", "c"), _col("class", "t")), (_col("y_pred", "c"), _col("class", "p")))
    matrix = select_from(pairs, _table("fm_classes", "t")).join(
        _table("fm_classes", "p"), on=same_group("t", "p", keys)
    )
    ctes.append(("fm_pairs", matrix.join(_table("fm_cells", "c"), on=_on("t", "c", keys, *cell), join_type="left")))
    outputs = [_as(_col(k, "g"), identifier(c)) for k, c in zip(keys, inputs.by, strict=True)]
    outputs += _cols(["y_true", "y_pred", "n_rows", "weight"], "x") + [
        _as(_col(c.name, "g"), c.name) for c in plan.checks
    ]
    select = select_from(outputs, _table("fm_groups", "g")).join(
        _table("fm_pairs", "x"), on=same_group("g", "x", keys), join_type="left"
    )
    order = [
        *(_last(c) for c in _cols(keys, "g")),
        *(exp.Ordered(this=c) for c in _cols(["true_index", "pred_index"], "x")),
    ]
    return _with(select.order_by(*order), ctes)


def checks_query(plan: Plan, inputs: McQueryInputs) -> exp.Query:
    """The check counts per group (``fm_groups``), as a tree: what the curves raise on before running."""
    keys = _keys(inputs)
    ctes = [*input_ctes(plan, inputs), *_cells_ctes(plan, keys)]
    return _with(select_from([*_cols(keys), *_cols([c.name for c in plan.checks])], "fm_groups"), ctes)


def one_vs_rest_rows(plan: Plan, inputs: McQueryInputs) -> exp.Subquery:
    """Each row once per class (``fm_segment_<i>``, ``column_index``, ``y_score``, ``is_pos``), as a table.

    The input of the one-vs-rest curves: the binary curve of class j is that
    of the rows with ``column_index = j``, ``is_pos`` positive.
    """
    keys = _keys(inputs)
    ctes = _prefixed([*input_ctes(plan, inputs), *_rank_input(plan, keys, "fm_input")], "fm_ovr_")
    # The segments renamed: the curve query's own group keys are named fm_g0... (Spark rejects the clash).
    columns = [_as(_col(k), f"fm_segment_{i}") for i, k in enumerate(keys)]
    columns += _cols(["column_index", "y_score", "is_pos", "sample_weight"])
    return _with(select_from(columns, "fm_ovr_fm_rank_input"), ctes).subquery("fm_one_vs_rest")


def _prefixed(ctes: Ctes, prefix: str) -> Ctes:
    """``ctes`` with ``prefix`` before their names and the references to them: a query that embeds them (Spark
    lifts nested CTEs to the top, where two of one name clash) keeps its own names."""
    names = {name for name, _ in ctes}
    renamed = []
    for name, cte in ctes:
        tree = cte.copy()
        for table in tree.find_all(exp.Table):
            if table.name in names and not table.args.get("db"):
                table.set("this", exp.to_identifier(prefix + table.name))
        renamed.append((prefix + name, tree))
    return renamed
