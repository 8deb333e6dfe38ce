"""A multiclass evaluation in Polars: the stages of :mod:`framemetrics.compilers.sql.multiclass`.

Each function builds the LazyFrame of the CTE of the same name (``fm_cells``
is :func:`cells`, ``fm_classes`` is :func:`classes`...), with the same
columns, from the same definitions: :mod:`framemetrics.core.multiclass`,
the multiclass and binary formulas and the curve statistics of the core.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import reduce

import polars as pl

from framemetrics.compilers.polars import POLARS
from framemetrics.compilers.polars.inputs import MetricInputs
from framemetrics.compilers.polars.query import row_key
from framemetrics.compilers.polars.stages import (
    cells_stage,
    curve_statistics,
    grouped,
    many_curve_statistics,
    rows_of,
)
from framemetrics.core import multiclass as mc_core
from framemetrics.core.cells import CLASSES, cell_totals
from framemetrics.core.plan import Plan
from framemetrics.core.registry import PER_CLASS, RANK_PER_CLASS, Call
from framemetrics.core.resampling import ROW_KEY
from framemetrics.core.statistics import Rows

__all__ = ["McFrames", "mc_frames", "run_mc_polars"]


def _call(call: Call, params: dict, plan: Plan) -> pl.Expr:
    return mc_core.call_expr(POLARS, call, params, plan)


def input_frame(
    frame: pl.LazyFrame,
    plan: Plan,
    columns: dict[str, pl.Expr],
    scores: list[pl.Expr],
    by: tuple[str, ...],
    drop_nulls: bool,
) -> pl.LazyFrame:
    """``fm_input``: group keys, ``y_true``, ``y_pred``, ``sample_weight``, ``s_j``, ``true_index``, ``p_true``
    (and the bootstrap's row key)."""
    keys = [f"fm_g{i}" for i in range(len(by))]
    selected = [pl.col(c).alias(k) for c, k in zip(by, keys, strict=True)]
    selected += [expr.alias(role) for role, expr in columns.items() if role != "sample_weight"]
    selected.append(columns.get("sample_weight", pl.lit(1.0)).cast(pl.Float64).alias("sample_weight"))
    selected += [s.cast(pl.Float64).alias(f"s_{j}") for j, s in enumerate(scores)]
    if plan.bootstrapped:  # the row's key, before any row is dropped: its position as read, or row_id
        selected.append(row_key(plan).alias(ROW_KEY))
    data = frame.select(selected)
    if drop_nulls:
        data = data.drop_nulls([c for c in data.collect_schema().names() if c not in keys])
    if not plan.n_scores:
        return data
    index = pl.col("y_true").replace_strict(list(plan.labels), list(range(len(plan.labels))), default=None)
    data = data.with_columns(true_index=index.cast(pl.Int64))
    if plan.has_pred and "y_pred" not in columns:  # the predicted classes are the scores' argmax
        scores = [pl.col(f"s_{j}") for j in range(plan.n_scores)]
        predicted = mc_core.argmax_label(POLARS, scores, plan.labels)
        data = data.with_columns(y_pred=predicted.cast(data.collect_schema()["y_true"]))
    p_true = reduce(
        lambda acc, j: acc.when(pl.col("true_index") == j).then(pl.col(f"s_{j}")),
        range(1, plan.n_scores),
        pl.when(pl.col("true_index") == 0).then(pl.col("s_0")),
    )
    return data.with_columns(p_true=p_true.otherwise(None))


def _joined(left: pl.LazyFrame, right: pl.LazyFrame, keys: list[str], how: str = "left") -> pl.LazyFrame:
    return left.join(right, on=keys, how=how, nulls_equal=True) if keys else left.join(right, how="cross")


def cells(data: pl.LazyFrame, plan: Plan, keys: list[str]) -> pl.LazyFrame:
    """``fm_cells``: the counting stage's cells, per group, true and predicted class."""
    sums = {c.name: mc_core.check_count(POLARS, c, plan.labels, plan.n_scores) for c in plan.checks}
    sums |= mc_core.row_sums(POLARS, {c.name for c in plan.calls}, plan.n_scores, plan.k)
    classes = CLASSES if plan.has_pred else CLASSES[:1]
    return cells_stage(
        data, keys, rows_of(MetricInputs.of(y_true="y_true", sample_weight="sample_weight")), sums, classes
    )


def groups(fm_cells: pl.LazyFrame, plan: Plan, keys: list[str]) -> pl.LazyFrame:
    """``fm_groups``: the cells summed per group, the weight as ``total``."""
    names = [n for n in fm_cells.collect_schema().names() if n not in (*keys, *CLASSES, "weight")]
    totals = cell_totals(POLARS, names) | {"total": pl.col("weight").sum()}
    return grouped(fm_cells, keys, [expr.alias(name) for name, expr in totals.items()])


def checks_frame(data: pl.LazyFrame, plan: Plan, keys: list[str]) -> pl.LazyFrame:
    """The check counts per group (``fm_groups``), as SQL's ``checks_query``: what the curves raise on first."""
    return groups(cells(data, plan, keys), plan, keys).select(*keys, *(c.name for c in plan.checks))


def classes(fm_cells: pl.LazyFrame, fm_groups: pl.LazyFrame, plan: Plan, keys: list[str]) -> pl.LazyFrame:
    """``fm_classes``: per group and class, ``tp, fp, fn, support, predicted, class_index, total``."""
    hit = pl.col("y_true").eq_missing(pl.col("y_pred"))
    w, zero = pl.col("weight"), pl.lit(0.0)
    names = ["support", "predicted", "tp", "fp", "fn"]
    as_true = fm_cells.select(
        *keys,
        pl.col("y_true").alias("class"),
        w.alias("support"),
        zero.alias("predicted"),
        pl.when(hit).then(w).otherwise(0.0).alias("tp"),
        zero.alias("fp"),
        pl.when(hit).then(0.0).otherwise(w).alias("fn"),
    )
    as_pred = fm_cells.select(
        *keys,
        pl.col("y_pred").alias("class"),
        zero.alias("support"),
        w.alias("predicted"),
        zero.alias("tp"),
        pl.when(hit).then(0.0).otherwise(w).alias("fp"),
        zero.alias("fn"),
    )
    parts = [as_true, as_pred]
    if plan.labels is not None:
        dtype = as_true.collect_schema()["class"]
        labels = pl.LazyFrame({"class": list(plan.labels)}).with_columns(pl.col("class").cast(dtype))
        empty = labels.with_columns(*(zero.alias(n) for n in names))
        parts.append(fm_groups.select(keys).join(empty, how="cross") if keys else empty)
    united = pl.concat(parts, how="vertical_relaxed")
    if plan.labels is not None:
        united = united.filter(pl.col("class").is_in(list(plan.labels)).fill_null(False))
        position = {label: i for i, label in enumerate(plan.labels)}
        index = pl.col("class").replace_strict(list(position), list(position.values()), return_dtype=pl.Int64)
    else:
        united = united.filter(pl.col("class").is_not_null())
        index = pl.col("class").rank("dense").over(keys) - 1 if keys else pl.col("class").rank("dense") - 1
    per_class = united.group_by([*keys, "class"]).agg(
        pl.col(n).sum() for n in ("tp", "fp", "fn", "support", "predicted")
    )
    total = pl.col("support").sum().over(keys) if keys else pl.col("support").sum()
    return per_class.with_columns(class_index=index.cast(pl.Int64), total=total)


def class_values(fm_classes: pl.LazyFrame, plan: Plan) -> pl.LazyFrame:
    """``fm_class_values``: the binary formulas per class."""
    values = [_call(call, {}, plan).alias(name) for name, call in PER_CLASS.items()]
    return fm_classes.with_columns(values)


def _averages(plan: Plan, stage: str) -> list[pl.Expr]:
    return [
        _call(average, call.params, plan).alias(mc_core.average_column(call.metric, key))
        for call in plan.calls
        if stage in call.metric.statistics
        for key, average in call.metric.averages.items()
    ]


def class_summary(fm_class_values: pl.LazyFrame, plan: Plan, keys: list[str]) -> pl.LazyFrame:
    """``fm_class_summary``: per group, class sums and averages."""
    sums = [expr.alias(name) for name, expr in mc_core.class_sums(POLARS).items()] + _averages(plan, "classes")
    return grouped(fm_class_values, keys, sums)


def kappa(fm_cells: pl.LazyFrame, fm_classes: pl.LazyFrame, plan: Plan, keys: list[str]) -> list[pl.LazyFrame]:
    """``fm_kappa_observed`` and ``fm_kappa_expected``."""
    index = fm_classes.select(*keys, "class", "class_index")
    observed = fm_cells.join(
        index.rename({"class": "y_true", "class_index": "t"}), on=[*keys, "y_true"], nulls_equal=True
    )
    observed = observed.join(
        index.rename({"class": "y_pred", "class_index": "p"}), on=[*keys, "y_pred"], nulls_equal=True
    )
    a = fm_classes.select(*keys, pl.col("class_index").alias("i"), "support", "total")
    b = fm_classes.select(*keys, pl.col("class_index").alias("j"), "predicted")
    pairs = a.join(b, on=keys, nulls_equal=True) if keys else a.join(b, how="cross")
    observed_sums, expected_sums = [], []
    for w in plan.kappa_weights:
        columns = {name: pl.col(name) for name in mc_core.KAPPA_COLUMNS}
        observed_sum, expected_sum = mc_core.kappa_sums(POLARS, w, columns)
        observed_sums.append(observed_sum.alias(f"observed_{w or 'none'}"))
        expected_sums.append(expected_sum.alias(f"expected_{w or 'none'}"))
    return [grouped(observed, keys, observed_sums), grouped(pairs, keys, expected_sums)]


RANK_STATISTICS = ("auc_sum", "ap_sum", "sum_pos", "sum_neg")


def rank_input(data: pl.LazyFrame, plan: Plan, keys: list[str]) -> pl.LazyFrame:
    """``fm_rank_input``: one row per input row and score column: ``column_index``, ``y_score``, ``is_pos``.

    The rows once per score column, concatenated (exploding a list of the
    scores costs ten times more).
    """
    columns = [*keys, "true_index", "sample_weight"]
    rows = [
        data.select(*columns, pl.lit(j, dtype=pl.Int64).alias("column_index"), pl.col(f"s_{j}").alias("y_score"))
        for j in range(plan.n_scores)
    ]
    return pl.concat(rows).with_columns(is_pos=pl.col("true_index") == pl.col("column_index"))


def _rows(y_true: pl.Expr, y_score: pl.Expr) -> Rows:
    """The curve stage's rows of one ranking: ``y_true`` (a predicate) positive, scored by ``y_score``."""
    return Rows(
        y_true=y_true,
        y_pred=None,
        y_score=y_score,
        sample_weight=pl.col("sample_weight"),
        pos_label=pl.lit(True),
        neg_label=pl.lit(False),
        alpha=None,
        max_fpr=1.0,
    )


def ranked(rows: pl.LazyFrame, keys: list[str]) -> pl.LazyFrame:
    """``auc_sum, ap_sum, sum_pos, sum_neg`` per group of ``keys``, rows with ``is_pos`` positive: the curve stage."""
    return curve_statistics(rows, keys, _rows(pl.col("is_pos"), pl.col("y_score")), RANK_STATISTICS)


def ranking(data: pl.LazyFrame, plan: Plan, keys: list[str]) -> tuple[pl.LazyFrame, pl.LazyFrame]:
    """``fm_rank_values`` (one-vs-rest per class: score ``s_j``, class j positive) and ``fm_rank_summary``.

    The classes' curve stages come from one pass over ``data`` (``fm_input``),
    each group's rows sorted by every score column (:func:`many_curve_statistics`).
    """
    xs = [_rows(pl.col("true_index") == j, pl.col(f"s_{j}")) for j in range(plan.n_scores)]
    per_class = pl.concat(
        sums.with_columns(column_index=pl.lit(j, dtype=pl.Int64))
        for j, sums in enumerate(many_curve_statistics(data, keys, xs, RANK_STATISTICS))
    )
    per_class = per_class.select(*keys, "column_index", *RANK_STATISTICS)
    values = per_class.with_columns(_call(call, {}, plan).alias(name) for name, call in RANK_PER_CLASS.items())
    summary = grouped(values, keys, [pl.len().alias("n_rank_classes"), *_averages(plan, "ranking")])
    return values, summary


def ovo(fm_rank_input: pl.LazyFrame, plan: Plan, keys: list[str]) -> pl.LazyFrame:
    """``fm_ovo``: Hand & Till's pair scores averaged per group.

    Per ordered pair (a, b), the curve of score ``s_a`` over the rows of
    classes a (positive) and b (negative), as scikit-learn subsets the rows
    of each pair: the positives of column a stand once for every other class.
    """
    is_pos = pl.col("is_pos")
    negatives = fm_rank_input.filter(~is_pos).with_columns(other=pl.col("true_index"))
    others = pl.LazyFrame({"other": list(range(plan.n_scores))}, schema={"other": pl.Int64})
    positives = fm_rank_input.filter(is_pos).join(others, how="cross").filter(pl.col("other") != pl.col("column_index"))
    pairs = ranked(pl.concat([positives, negatives], how="diagonal_relaxed"), [*keys, "column_index", "other"])
    a = pairs.select(
        *keys, pl.col("column_index").alias("ca"), pl.col("other").alias("cb"), "auc_sum", "sum_pos", "sum_neg"
    )
    b = pairs.select(
        *keys, pl.col("column_index").alias("cb"), pl.col("other").alias("ca"), pl.col("auc_sum").alias("auc_sum_ba")
    )
    joined = a.filter(pl.col("ca") < pl.col("cb")).join(b, on=[*keys, "ca", "cb"], nulls_equal=True)
    joined = joined.filter((pl.col("sum_pos") > 0) & (pl.col("sum_neg") > 0))
    sums = mc_core.ovo_sums(POLARS, pl.col("auc_sum"), pl.col("auc_sum_ba"), pl.col("sum_pos"), pl.col("sum_neg"))
    return grouped(joined, keys, [expr.alias(name) for name, expr in sums.items()])


def micro(fm_rank_input: pl.LazyFrame, keys: list[str]) -> pl.LazyFrame:
    """``fm_micro``: the ranking sums of all (row, class) pairs pooled."""
    return ranked(fm_rank_input, keys).rename({s: f"micro_{s}" for s in RANK_STATISTICS})


@dataclass
class McFrames:
    """The stage frames of one evaluation (those its stages need)."""

    keys: list[str]
    input: pl.LazyFrame
    cells: pl.LazyFrame
    groups: pl.LazyFrame
    classes: pl.LazyFrame | None = None
    class_values: pl.LazyFrame | None = None
    rank_values: pl.LazyFrame | None = None
    summaries: tuple[pl.LazyFrame, ...] = ()


def mc_frames(
    data: pl.LazyFrame, plan: Plan, keys: list[str], stages: frozenset[str], fm_cells: pl.LazyFrame | None = None
) -> McFrames:
    """Build the stages ``stages`` over ``data`` (an ``fm_input`` frame), from its cells or the given ``fm_cells``."""
    fm_cells = cells(data, plan, keys) if fm_cells is None else fm_cells
    out = McFrames(keys, data, fm_cells, groups(fm_cells, plan, keys))
    summaries = []
    if "classes" in stages or "kappa" in stages:
        out.classes = classes(fm_cells, out.groups, plan, keys)
        out.class_values = class_values(out.classes, plan)
        summaries.append(class_summary(out.class_values, plan, keys))
    if "kappa" in stages:
        summaries += kappa(fm_cells, out.classes, plan, keys)
    if "ranking" in stages:
        out.rank_values, summary = ranking(data, plan, keys)
        summaries.append(summary)
    if {"ovo", "micro"} & stages:
        fm_rank_input = rank_input(data, plan, keys)
        if "ovo" in stages:
            summaries.append(ovo(fm_rank_input, plan, keys))
        if "micro" in stages:
            summaries.append(micro(fm_rank_input, keys))
    out.summaries = tuple(summaries)
    return out


def metrics_frame(frames: McFrames, plan: Plan, by: tuple[str, ...], *, internal: bool = False) -> pl.LazyFrame:
    """The metrics per group: group columns, ``n_rows``, one column per metric, then the check counts.

    ``internal`` keeps the keys ``fm_g0...`` and the ``total`` weight instead of the group names.
    """
    keys = frames.keys
    table = reduce(lambda left, right: _joined(left, right, keys), frames.summaries, frames.groups)
    n_invalid = reduce(lambda a, b: a + b, (pl.col(c.name) for c in plan.checks))
    if internal:
        outputs = [*(pl.col(k) for k in keys), pl.col("total")]
    else:
        outputs = [pl.col(k).alias(c) for k, c in zip(keys, by, strict=True)]
    outputs.append(pl.col("n_rows").cast(pl.Int64))
    for call in plan.calls:
        outputs.append(mc_core.metric_expr(POLARS, call, plan, n_invalid).cast(pl.Float64).alias(call.name))
    outputs += [pl.col(c.name) for c in plan.checks]
    return table.select(outputs)


def run_mc_polars(data: pl.LazyFrame, plan: Plan, keys: list[str], by: tuple[str, ...]) -> pl.LazyFrame:
    """The metrics per group of ``data`` (an ``fm_input`` frame), sorted by group."""
    result = metrics_frame(mc_frames(data, plan, keys, plan.stages), plan, by)
    return result.sort(list(by), nulls_last=True) if by else result


def report_frame(data: pl.LazyFrame, plan: Plan, keys: list[str], by: tuple[str, ...]) -> pl.LazyFrame:
    """The class report (SQL: ``report_query``): per group, the classes then the three averages."""
    ranked = plan.n_scores > 0
    frames = mc_frames(data, plan, keys, plan.stages | {"classes"} | ({"ranking"} if ranked else set()))
    metrics = metrics_frame(frames, plan, by, internal=True)
    counts = [c.name for c in plan.checks]
    per_class = frames.class_values
    if ranked:
        ranks = frames.rank_values.select(
            *keys,
            pl.col("column_index").alias("class_index"),
            pl.col("roc_auc_score").alias("roc_auc"),
            pl.col("average_precision_score").alias("average_precision"),
        )
        per_class = _joined(per_class, ranks, [*keys, "class_index"])
    names = ["precision", "recall", "f1_score", "support", *(["roc_auc", "average_precision"] if ranked else [])]
    rows = [_class_rows(metrics, per_class, plan, keys, names)]
    for position, average in enumerate(("micro", "macro", "weighted")):
        auc = "roc_auc_ovr" + ("" if average == "macro" else f"_{average}")
        values = [f"precision_{average}", f"recall_{average}", f"f1_{average}", "total"]
        values += [auc, f"average_precision_{average}"] if ranked else []
        rows.append(
            metrics.select(
                *keys,
                pl.lit(f"{average} avg").alias("class"),
                *(pl.col(v).alias(n) for v, n in zip(values, names, strict=True)),
                *counts,
                pl.lit(mc_core.AVERAGE_ROWS + position, dtype=pl.Int64).alias("fm_order"),
            )
        )
    report = pl.concat(rows, how="vertical_relaxed").sort([*keys, "fm_order"], nulls_last=True)
    return report.rename(dict(zip(keys, by, strict=True)))


def _class_rows(
    metrics: pl.LazyFrame, per_class: pl.LazyFrame, plan: Plan, keys: list[str], names: list[str]
) -> pl.LazyFrame:
    """One row per group and class: ``class`` as text, ``names`` (class columns, or columns of ``per_class``),
    the group's check counts and ``fm_order``."""
    known = mc_core.class_columns(POLARS, plan, pl.col, [n for n in names if n in mc_core.CLASS_TABLE])
    return _joined(metrics, per_class, keys, how="inner").select(
        *keys,
        pl.col("class").cast(pl.String),
        *(known[n].alias(n) if n in known else pl.col(n) for n in names),
        *(c.name for c in plan.checks),
        pl.col("class_index").cast(pl.Int64).alias("fm_order"),
    )


def class_table_frame(data: pl.LazyFrame, plan: Plan, keys: list[str], by: tuple[str, ...]) -> pl.LazyFrame:
    """The class table (SQL: ``class_table_query``): per group and class, the one-vs-rest counts and values."""
    frames = mc_frames(data, plan, keys, plan.stages | {"classes"})
    metrics = metrics_frame(frames, plan, by, internal=True)
    rows = _class_rows(metrics, frames.class_values, plan, keys, list(mc_core.CLASS_TABLE))
    return rows.sort([*keys, "fm_order"], nulls_last=True).rename(dict(zip(keys, by, strict=True)))


def confusion_frame(data: pl.LazyFrame, plan: Plan, keys: list[str], by: tuple[str, ...]) -> pl.LazyFrame:
    """The dense confusion matrix per group (SQL: ``confusion_query``)."""
    frames = mc_frames(data, plan, keys, frozenset({"classes"}))
    t = frames.classes.select(*keys, pl.col("class").alias("y_true"), pl.col("class_index").alias("true_index"))
    p = frames.classes.select(*keys, pl.col("class").alias("y_pred"), pl.col("class_index").alias("pred_index"))
    pairs = t.join(p, on=keys, nulls_equal=True) if keys else t.join(p, how="cross")
    cells = frames.cells.select(*keys, "y_true", "y_pred", "n_rows", "weight")
    pairs = pairs.join(cells, on=[*keys, "y_true", "y_pred"], how="left", nulls_equal=True).with_columns(
        pl.col("n_rows").fill_null(0).cast(pl.Int64), pl.col("weight").fill_null(0.0)
    )
    counts = [c.name for c in plan.checks]
    checked = frames.groups.select(*keys, *counts)
    table = _joined(checked, pairs, keys) if keys else checked.join(pairs, how="cross")
    table = table.sort([*keys, "true_index", "pred_index"], nulls_last=True)
    outputs = [*(pl.col(k).alias(c) for k, c in zip(keys, by, strict=True)), "y_true", "y_pred", "n_rows", "weight"]
    return table.select(*outputs, *counts)
