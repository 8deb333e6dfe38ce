"""The multiclass class stage, written once on a frame: metrics, class report, class table, confusion matrix.

The stages of one evaluation, each a :class:`~framemetrics.core.frame.Frame`
program from the definitions of :mod:`framemetrics.core.multiclass`:

* ``fm_input`` (:func:`input_stage`): the group keys ``fm_g0...``, ``y_true``,
  ``y_pred``, ``sample_weight``, the class scores ``s_0...`` with
  ``true_index`` and ``p_true`` (position and score of the true class);
* ``fm_cells``: per group, true and predicted class: ``n_rows``, ``weight``,
  the check counts and the row sums (``sum_log_loss``, ``sum_brier``,
  ``sum_top_k``); ``fm_groups``: the same summed per group (``total`` is the weight);
* ``fm_classes``: per group and class ``tp, fp, fn, support, predicted``,
  ``class_index`` and the group's ``total``; the class values add the binary
  formulas per class, the class summary sums and averages them;
* the kappa disagreements, observed and expected, per kappa weighting;
* ``fm_rank_input`` (:func:`rank_input`): each row once per class, its score
  for the class and whether it is of it; the one-vs-rest sums per class
  (``auc_sum, ap_sum, sum_pos, sum_neg``), those of each pair of classes
  (Hand & Till) and of all (row, class) pairs pooled (micro).

The ranking sums are read from the curve stage
(:mod:`framemetrics.stages.curve_stage`). :func:`metrics_table`,
:func:`report_table`, :func:`class_rows_table`, :func:`confusion_table` and
:func:`checks_table` are the outputs.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from functools import reduce
from typing import Any

from framemetrics.core import multiclass as mc_core
from framemetrics.core.cells import CLASSES, cell_totals
from framemetrics.core.curves import Curve
from framemetrics.core.frame import Frame, Table
from framemetrics.core.multiclass import RANK_STATISTICS
from framemetrics.core.plan import Plan
from framemetrics.core.registry import PER_CLASS, RANK_PER_CLASS
from framemetrics.core.statistics import STATISTICS, CurvePoints, Rows
from framemetrics.stages import group_keys
from framemetrics.stages.cells import cells as cells_stage
from framemetrics.stages.curve_stage import curve_stage
from framemetrics.stages.curves import curve_points
from framemetrics.stages.parts import by_parts

__all__ = [
    "ClassFrames",
    "Table",
    "cells",
    "checks_table",
    "class_curve_table",
    "class_frames",
    "class_rows_table",
    "confusion_table",
    "group_keys",
    "groups",
    "input_stage",
    "metrics_table",
    "plan_classes",
    "rank_input",
    "report_table",
    "stage_sums",
]

Expr = Any


def _join(left: Frame, right: Frame, keys: Sequence[str], how: str = "left") -> Frame:
    """``left`` joined to ``right`` on the group ``keys`` (null keys match); one row each without keys."""
    return left.join(right, keys, how, nulls_equal=True) if keys else left.join(right, [], "cross")


def _call(ns: Any, call: Any, params: Mapping[str, Any], plan: Plan) -> Expr:
    return mc_core.call_expr(ns, call, params, plan)


def input_stage(raw: Frame, plan: Plan, required: Sequence[str]) -> Frame:
    """``fm_input``: the canonical rows ``raw`` (keys, ``y_true``, ``y_pred``, ``sample_weight``, ``s_j``...)
    without the rows with a null among ``required``, and with ``true_index``, ``p_true`` and the scores'
    argmax ``y_pred`` where the plan predicts from scores.

    Examples
    --------
    >>> from framemetrics.compilers.polars.frame import PolarsFrame
    >>> from framemetrics.core.plan import make_plan
    >>> plan = make_plan(["log_loss"], task="multiclass", labels=["a", "b"], n_scores=2, weighted=False)
    >>> raw = PolarsFrame.values({"y_true": ["b", "a"], "sample_weight": [1.0, 1.0], "s_0": [0.4, 0.9],
    ...                           "s_1": [0.6, 0.1]})
    >>> input_stage(raw, plan, []).collect().select("true_index", "p_true").rows()
    [(1, 0.6), (0, 0.9)]
    """
    ns, c = raw.ns, raw.ns.col
    data = raw.filter(ns.all(*(ns.not_(ns.is_null(c(n))) for n in required))) if required else raw
    if not plan.n_scores:
        return data
    lit = ns.lit
    true_index = ns.case([(ns.eq(c("y_true"), lit(label)), lit(j)) for j, label in enumerate(plan.labels)],
                         ns.null_int())  # fmt: skip
    data = data.with_columns(true_index=ns.to_int(true_index))
    if plan.has_pred and "y_pred" not in raw.columns:  # the predicted classes are the scores' argmax
        scores = [c(f"s_{j}") for j in range(plan.n_scores)]
        predicted = data.with_columns(y_pred=mc_core.argmax_label(ns, scores, plan.labels))
        data = predicted.with_types_of(raw, {"y_pred": "y_true"})
    p_true = ns.case([(ns.eq(c("true_index"), lit(j)), c(f"s_{j}")) for j in range(plan.n_scores)], ns.null())
    return data.with_columns(p_true=p_true)


def plan_classes(plan: Plan) -> tuple[str, ...]:
    """The class columns of ``fm_cells``: ``y_true``, and ``y_pred`` where there are predictions

    Examples
    --------
    >>> from framemetrics.core.plan import make_plan
    >>> plan = make_plan(["log_loss"], task="multiclass", labels=[0, 1], n_scores=2, has_pred=False, weighted=False)
    >>> plan_classes(plan)
    ('y_true',)
    """
    return CLASSES if plan.has_pred else CLASSES[:1]


def stage_sums(ns: Any, plan: Plan) -> dict[str, Expr]:
    """The sums of ``fm_cells`` besides ``n_rows`` and ``weight``: the check counts and the row sums

    Examples
    --------
    >>> from framemetrics.compilers.polars.namespace import POLARS
    >>> from framemetrics.core.plan import make_plan
    >>> list(stage_sums(POLARS, make_plan(["accuracy_score"], task="multiclass", has_pred=True, weighted=False)))
    ['invalid_present_y_true', 'invalid_present_y_pred']
    """
    sums = {c.name: mc_core.check_count(ns, c, plan.labels, plan.n_scores) for c in plan.checks}
    return sums | mc_core.row_sums(ns, {c.metric.name for c in plan.calls}, plan.n_scores, plan.k)


def cells(data: Frame, plan: Plan, keys: Sequence[str]) -> Frame:
    """``fm_cells``: per group, true and predicted class, the counting stage's cells of ``fm_input``.

    Examples
    --------
    >>> from framemetrics.compilers.polars.frame import PolarsFrame
    >>> from framemetrics.core.plan import make_plan
    >>> plan = make_plan(["accuracy_score"], task="multiclass", has_pred=True, weighted=False)
    >>> data = PolarsFrame.values({"y_true": [1, 1, 2], "y_pred": [1, 1, 1], "sample_weight": [1.0, 2.0, 3.0]})
    >>> cells(data, plan, []).collect().sort("y_true").select("y_true", "n_rows", "weight").rows()
    [(1, 2, 3.0), (2, 1, 3.0)]
    """
    counted = cells_stage(data, keys, Rows.named(data.ns), stage_sums(data.ns, plan), plan_classes(plan))
    return counted.named("fm_cells")


def groups(fm_cells: Frame, keys: Sequence[str]) -> Frame:
    """``fm_groups``: the cells summed per group, the weight as ``total``

    Examples
    --------
    >>> from framemetrics.compilers.polars.frame import PolarsFrame
    >>> from framemetrics.core.plan import make_plan
    >>> data = PolarsFrame.values({"fm_g0": ["x", "x", "y"], "y_true": [1, 2, 2], "y_pred": [1, 1, 2],
    ...                            "sample_weight": [1.0, 2.0, 3.0]})
    >>> plan = make_plan(["accuracy_score"], task="multiclass", has_pred=True, weighted=False)
    >>> groups(cells(data, plan, ["fm_g0"]), ["fm_g0"]).collect().sort("fm_g0").select("fm_g0", "n_rows", "total").rows()
    [('x', 2, 3.0), ('y', 1, 3.0)]
    """
    ns = fm_cells.ns
    names = [n for n in fm_cells.columns if n not in (*keys, *CLASSES, "weight")]
    totals = cell_totals(ns, names) | {"total": ns.sum(ns.col("weight"))}
    return fm_cells.aggregate(keys, totals).named("fm_groups")


def _class_counts(fm_cells: Frame, fm_groups: Frame, plan: Plan, keys: Sequence[str]) -> Frame:
    """``fm_classes``: per group and class, ``tp, fp, fn, support, predicted, class_index, total``.

    A class's rows as a true class and as a predicted class, and with
    ``labels`` a row of zeros for every label of every group (a class absent
    from a group still counts); the index is the label's position, else the
    class's rank among the group's classes.
    """
    ns, c = fm_cells.ns, fm_cells.ns.col
    y_true, y_pred, w, zero = c("y_true"), c("y_pred"), c("weight"), ns.lit(0.0)
    hit = ns.any(ns.eq(y_true, y_pred), ns.all(ns.is_null(y_true), ns.is_null(y_pred)))
    counted = ("support", "predicted", "tp", "fp", "fn")
    group = {k: c(k) for k in keys}
    as_true = fm_cells.select(
        {**group, "class": y_true, "support": w, "predicted": zero, "tp": ns.when(hit, w).otherwise(zero),
         "fp": zero, "fn": ns.when(hit, zero).otherwise(w)}
    )  # fmt: skip
    as_pred = fm_cells.select(
        {**group, "class": y_pred, "support": zero, "predicted": w, "tp": zero,
         "fp": ns.when(hit, zero).otherwise(w), "fn": zero}
    )  # fmt: skip
    united = as_true.concat(as_pred)
    if plan.labels is not None:
        labels = fm_cells.constant({"class": list(plan.labels)}).with_columns(**{n: zero for n in counted})
        empty = fm_groups.keep(*keys).join(labels, [], "cross") if keys else labels
        united = united.concat(empty.keep(*united.columns).with_types_of(as_true, {"class": "class"}))
        valid = ns.any(*(ns.eq(c("class"), ns.lit(label)) for label in plan.labels))
    else:
        valid = ns.not_(ns.is_null(c("class")))
    per_class = united.filter(valid).aggregate(
        [*keys, "class"], {n: ns.sum(c(n)) for n in ("tp", "fp", "fn", "support", "predicted")}
    )
    if plan.labels is not None:
        branches = [(ns.eq(c("class"), ns.lit(label)), ns.lit(j)) for j, label in enumerate(plan.labels)]
        index = ns.case(branches, ns.null_int())
    else:
        index = ns.row_number(keys, [c("class")]) - 1
    total = ns.window("sum", c("support"), keys)
    return per_class.with_columns(class_index=ns.to_int(index), total=total).named("fm_classes")


def _averages(ns: Any, plan: Plan, stage: str) -> dict[str, Expr]:
    return {
        mc_core.average_column(call, key): _call(ns, average, call.params, plan)
        for call in plan.calls
        if stage in call.metric.statistics
        for key, average in call.metric.averages.items()
    }


def _kappa(fm_cells: Frame, fm_classes: Frame, plan: Plan, keys: Sequence[str]) -> list[Frame]:
    """The observed (over the cells) and expected (over the pairs of classes) disagreements per kappa weighting."""
    ns, c = fm_cells.ns, fm_cells.ns.col
    group = {k: c(k) for k in keys}
    observed = fm_cells
    for role, index in (("y_true", "t"), ("y_pred", "p")):
        indexed = fm_classes.select({**group, role: c("class"), index: c("class_index")})
        observed = observed.join(indexed, [*keys, role], nulls_equal=True)
    a = fm_classes.select({**group, "i": c("class_index"), "support": c("support"), "total": c("total")})
    b = fm_classes.select({**group, "j": c("class_index"), "predicted": c("predicted")})
    pairs = _join(a, b, keys, "inner")
    columns = {name: c(name) for name in mc_core.KAPPA_COLUMNS}
    sums = {w: mc_core.kappa_sums(ns, w, columns) for w in plan.kappa_weights}
    return [
        observed.aggregate(keys, {f"observed_{w or 'none'}": s[0] for w, s in sums.items()}).named("fm_kappa_observed"),
        pairs.aggregate(keys, {f"expected_{w or 'none'}": s[1] for w, s in sums.items()}).named("fm_kappa_expected"),
    ]


def rank_input(data: Frame, plan: Plan, keys: Sequence[str]) -> Frame:
    """``fm_rank_input``: each row of ``data`` once per class: ``column_index``, ``y_score``, ``is_pos``.

    One selection per score column, concatenated: a portable unpivot
    (side-by-side ``UNNEST``s of lists, which Spark and ClickHouse would
    cross, are not used; a cross join with the class indexes and a ``CASE``
    picking the score measured 17% slower on DuckDB).

    Examples
    --------
    >>> from framemetrics.compilers.polars.frame import PolarsFrame
    >>> from framemetrics.core.plan import make_plan
    >>> plan = make_plan(["roc_auc_ovr"], task="multiclass", labels=[0, 1], n_scores=2, weighted=False)
    >>> data = PolarsFrame.values({"true_index": [1], "sample_weight": [1.0], "s_0": [0.3], "s_1": [0.7]})
    >>> rank_input(data, plan, []).collect().select("column_index", "y_score", "is_pos").rows()
    [(0, 0.3, False), (1, 0.7, True)]
    """
    ns, c = data.ns, data.ns.col
    carried = {name: c(name) for name in [*keys, "true_index", "sample_weight"]}

    def one(j: int) -> Frame:
        index = ns.to_int(ns.lit(j))
        return data.select(
            {**carried, "column_index": index, "y_score": c(f"s_{j}"), "is_pos": ns.eq(c("true_index"), ns.lit(j))}
        )

    return reduce(lambda a, b: a.concat(b), (one(j) for j in range(1, plan.n_scores)), one(0)).named("fm_rank_input")


def _ranking_sums(rows: Frame, keys: Sequence[str], name: str) -> Frame:
    """Per group of ``keys`` of ``rows`` (``is_pos`` positive, ``y_score``, ``sample_weight``), the sums
    :data:`~framemetrics.core.multiclass.RANK_STATISTICS` of the curve stage (its stages named ``name_...``).

    Examples
    --------
    >>> from framemetrics.compilers.polars.frame import PolarsFrame
    >>> rows = PolarsFrame.values({"is_pos": [False, True, True], "y_score": [0.2, 0.2, 0.9],
    ...                            "sample_weight": [1.0, 1.0, 1.0]})
    >>> _ranking_sums(rows, [], "fm").collect().rows()
    [(1.5, 1.6666666666666665, 2.0, 1.0)]
    """
    ns, points = rows.ns, CurvePoints.named(rows.ns)
    stage = curve_stage(rows, keys, _ranked(rows), name=name)
    return stage.aggregate(keys, {s: STATISTICS[s].build(ns, points) for s in RANK_STATISTICS})


def _ranked(rows: Frame) -> Rows:
    """The rows of a ranking as the curve stage reads them: ``is_pos`` positive, ``y_score``, ``sample_weight``."""
    ns, c = rows.ns, rows.ns.col
    return Rows(c("is_pos"), None, c("y_score"), c("sample_weight"), pos_label=ns.lit(True), neg_label=ns.lit(False),
                alpha=None, max_fpr=ns.lit(1.0))  # fmt: skip


def _ranking(data: Frame, rows: Frame, plan: Plan, keys: Sequence[str]) -> tuple[Frame, Frame]:
    """The one-vs-rest values per class (score ``s_j``, class j positive) and their summary per group."""
    ns = data.ns
    sums = data.class_ranking_sums(keys, plan.n_scores) or _ranking_sums(rows, [*keys, "column_index"], "fm_rank")
    values = sums.with_columns(**{name: _call(ns, call, {}, plan) for name, call in RANK_PER_CLASS.items()})
    values = values.named("fm_rank_values")
    summary = values.aggregate(keys, {"n_rank_classes": ns.count_rows(), **_averages(ns, plan, "ranking")})
    summary = summary.named("fm_rank_summary")
    return values, summary


def _ovo(rows: Frame, plan: Plan, keys: Sequence[str]) -> Frame:
    """Hand & Till's pair scores averaged per group.

    Per ordered pair (a, b), the curve of score ``s_a`` over the rows of
    classes a (positive) and b (negative), as scikit-learn subsets the rows
    of each pair: the positives of column a stand once for every other class.
    """
    ns, c = rows.ns, rows.ns.col
    negatives = rows.filter(ns.not_(c("is_pos"))).with_columns(other=c("true_index"))
    others = rows.constant({"other": list(range(plan.n_scores))})
    positives = rows.filter(c("is_pos")).join(others, [], "cross").filter(ns.ne(c("other"), c("column_index")))
    pairs = _ranking_sums(positives.concat(negatives), [*keys, "column_index", "other"], "fm_ovo")
    group = {k: c(k) for k in keys}
    a = pairs.select({**group, "ca": c("column_index"), "cb": c("other"), "auc_sum": c("auc_sum"),
                      "sum_pos": c("sum_pos"), "sum_neg": c("sum_neg")})  # fmt: skip
    b = pairs.select({**group, "cb": c("column_index"), "ca": c("other"), "auc_sum_ba": c("auc_sum")})
    joined = a.filter(c("ca") < c("cb")).join(b, [*keys, "ca", "cb"], nulls_equal=True)
    joined = joined.filter(ns.all(c("sum_pos") > 0, c("sum_neg") > 0))
    sums = mc_core.ovo_sums(ns, c("auc_sum"), c("auc_sum_ba"), c("sum_pos"), c("sum_neg"))
    return joined.aggregate(keys, sums).named("fm_ovo")


@dataclass
class ClassFrames:
    """The stage frames of one evaluation (those its stages need)."""

    keys: list[str]
    input: Frame
    cells: Frame
    groups: Frame
    classes: Frame | None = None
    class_values: Frame | None = None
    rank_values: Frame | None = None
    summaries: tuple[Frame, ...] = ()


def class_frames(
    data: Frame,
    plan: Plan,
    keys: Sequence[str],
    stages: frozenset[str],
    fm_cells: Frame | None = None,
) -> ClassFrames:
    """The stages ``stages`` (``classes``, ``kappa``, ``ranking``, ``ovo``, ``micro``) over ``fm_input``
    (``data``), from its cells or the given ``fm_cells``; the curves read ``data``'s rows

    Examples
    --------
    >>> from framemetrics.compilers.polars.frame import PolarsFrame
    >>> from framemetrics.core.plan import make_plan
    >>> data = PolarsFrame.values({"y_true": ["a", "b", "b"], "y_pred": ["a", "a", "b"], "sample_weight": [1.0] * 3})
    >>> plan = make_plan(["f1_macro"], task="multiclass", has_pred=True, weighted=False)
    >>> frames = class_frames(data, plan, [], plan.stages)
    >>> frames.classes.collect().sort("class").select("class", "tp", "fp", "fn").rows()
    [('a', 1.0, 1.0, 0.0), ('b', 1.0, 0.0, 1.0)]
    """
    keys = list(keys)
    fm_cells = cells(data, plan, keys) if fm_cells is None else fm_cells
    out = ClassFrames(keys, data, fm_cells, groups(fm_cells, keys))
    ns, summaries = data.ns, []
    if "classes" in stages or "kappa" in stages:
        out.classes = _class_counts(fm_cells, out.groups, plan, keys)
        values = {name: _call(ns, call, {}, plan) for name, call in PER_CLASS.items()}
        out.class_values = out.classes.with_columns(**values).named("fm_class_values")
        sums = mc_core.class_sums(ns) | _averages(ns, plan, "classes")
        summaries.append(out.class_values.aggregate(keys, sums).named("fm_class_summary"))
    if "kappa" in stages:
        summaries += _kappa(fm_cells, out.classes, plan, keys)
    if mc_core.CURVE_STAGES & stages:
        rows = rank_input(data, plan, keys)
        if "ranking" in stages:
            out.rank_values, summary = _ranking(data, rows, plan, keys)
            summaries.append(summary)
        if "ovo" in stages:
            summaries.append(_ovo(rows, plan, keys))
        if "micro" in stages:
            micro = _ranking_sums(rows, keys, "fm_micro")
            summaries.append(micro.rename({s: f"micro_{s}" for s in RANK_STATISTICS}).named("fm_micro"))
    out.summaries = tuple(summaries)
    return out


def metrics_frame(frames: ClassFrames, plan: Plan, *, checks: bool = True, internal: bool = False) -> Frame:
    """The metrics per group: the keys (``internal``: with the ``total`` weight), ``n_rows``, one column per
    metric, then (``checks``) the check counts; the formulas over ``fm_groups`` and the stages' summaries

    Examples
    --------
    >>> from framemetrics.compilers.polars.frame import PolarsFrame
    >>> from framemetrics.core.plan import make_plan
    >>> data = PolarsFrame.values({"y_true": ["a", "b", "b"], "y_pred": ["a", "a", "b"], "sample_weight": [1.0] * 3})
    >>> plan = make_plan(["f1_macro", "cohen_kappa_score"], task="multiclass", has_pred=True, weighted=False)
    >>> metrics_frame(class_frames(data, plan, [], plan.stages), plan, checks=False).collect().rows()  # two summaries
    [(3, 0.6666666666666666, 0.3999999999999999)]
    """
    keys = frames.keys
    # Named: each later step reads the join by its name (SQL), not a copy of it.
    table = reduce(lambda left, right: _join(left, right, keys), frames.summaries, frames.groups)
    table = table.named("fm_summaries") if frames.summaries else table
    ns, c = table.ns, table.ns.col
    n_invalid = reduce(lambda a, b: a + b, (c(check.name) for check in plan.checks))
    outputs = {k: c(k) for k in keys} | ({"total": c("total")} if internal else {})
    outputs["n_rows"] = ns.to_int(c("n_rows"))
    for call in plan.calls:
        outputs[call.name] = ns.to_float(mc_core.metric_expr(ns, call, plan, n_invalid))
    outputs |= {check.name: c(check.name) for check in plan.checks} if checks else {}
    return table.select(outputs)


def _named(frame: Frame, by: Sequence[str]) -> Frame:
    """``frame`` with the group keys under the user's names ``by``."""
    return frame.rename(dict(zip(group_keys(by), by, strict=True))) if by else frame


def metrics_table(data: Frame, plan: Plan, by: Sequence[str], *, checks: bool = True) -> Table:
    """The plan's metrics per group of ``fm_input`` (``data``), sorted by group: the group columns, ``n_rows``,
    one column per metric, and (``checks``) the ``invalid_*`` counts.

    Examples
    --------
    >>> from framemetrics.compilers.polars.frame import PolarsFrame
    >>> from framemetrics.core.plan import make_plan
    >>> plan = make_plan(["accuracy_score"], task="multiclass", has_pred=True, weighted=False)
    >>> data = PolarsFrame.values({"y_true": [1, 2], "y_pred": [1, 1], "sample_weight": [1.0, 1.0]})
    >>> metrics_table(data, plan, (), checks=False).frame.collect().rows()
    [(2, 0.5)]
    """
    keys = group_keys(by)
    counts = [check.name for check in plan.checks] if checks else []

    def part_table(part: Plan) -> Frame:  # several values of k or beta: each part's metrics, joined by group
        return metrics_frame(class_frames(data, part, keys, part.stages), part, checks=checks)

    table = by_parts(plan, part_table, keys, ["n_rows", *(call.name for call in plan.calls), *counts])
    return Table(_named(table.named("fm_metrics"), by), tuple(by))


def _class_rows(metrics: Frame, per_class: Frame, plan: Plan, keys: Sequence[str], names: Sequence[str]) -> Frame:
    """One row per group and class: ``class`` as text, ``names`` (class columns, or columns of ``per_class``),
    the group's check counts and ``fm_order``."""
    ns, c = metrics.ns, metrics.ns.col
    known = mc_core.class_columns(ns, plan, c, [n for n in names if n in mc_core.CLASS_TABLE])
    columns = {k: c(k) for k in keys} | {"class": ns.to_text(c("class"))}
    columns |= {n: known.get(n, c(n)) for n in names} | {check.name: c(check.name) for check in plan.checks}
    return _join(metrics.drop("total"), per_class, keys, "inner").select(
        columns | {"fm_order": ns.to_int(c("class_index"))}
    )


def report_table(data: Frame, plan: Plan, by: Sequence[str]) -> Table:
    """The class report: per group, one row per class, then ``micro avg``, ``macro avg`` and ``weighted avg``;
    ``plan`` holds the averaged metrics (see :func:`framemetrics.classification_report`)

    Examples
    --------
    >>> from framemetrics.compilers.polars.frame import PolarsFrame
    >>> from framemetrics.core.plan import make_plan
    >>> data = PolarsFrame.values({"y_true": ["a", "b", "b"], "y_pred": ["a", "a", "b"], "sample_weight": [1.0] * 3})
    >>> averaged = [f"{m}_{a}" for a in ("micro", "macro", "weighted") for m in ("precision", "recall", "f1")]
    >>> table = report_table(data, make_plan(averaged, task="multiclass", has_pred=True, weighted=False), ())
    >>> table.frame.collect().sort(table.order)["class"].to_list()
    ['a', 'b', 'micro avg', 'macro avg', 'weighted avg']
    """
    keys, ranked = group_keys(by), plan.n_scores > 0
    frames = class_frames(data, plan, keys, plan.stages | {"classes"} | ({"ranking"} if ranked else set()))
    metrics = metrics_frame(frames, plan, internal=True).named("fm_metrics")
    ns, c = metrics.ns, metrics.ns.col
    per_class = frames.class_values
    if ranked:
        ranks = frames.rank_values.select(
            {**{k: c(k) for k in keys}, "class_index": c("column_index"), "roc_auc": c("roc_auc_score"),
             "average_precision": c("average_precision_score")}
        )  # fmt: skip
        per_class = per_class.join(ranks, [*keys, "class_index"], "left", nulls_equal=True)
    names = ["precision", "recall", "f1_score", "support", *(["roc_auc", "average_precision"] if ranked else [])]
    rows = _class_rows(metrics, per_class, plan, keys, names)
    for position, average in enumerate(("micro", "macro", "weighted")):
        auc = "roc_auc_ovr" + ("" if average == "macro" else f"_{average}")
        values = [f"precision_{average}", f"recall_{average}", f"f1_{average}", "total"]
        values += [auc, f"average_precision_{average}"] if ranked else []
        row = {k: c(k) for k in keys} | {"class": ns.lit(f"{average} avg")}
        row |= {n: c(v) for v, n in zip(values, names, strict=True)} | {
            check.name: c(check.name) for check in plan.checks
        }
        rows = rows.concat(metrics.select(row | {"fm_order": ns.to_int(ns.lit(mc_core.AVERAGE_ROWS + position))}))
    return Table(_named(rows, by), (*by, "fm_order"))


def class_rows_table(data: Frame, plan: Plan, by: Sequence[str]) -> Table:
    """The class table: per group and class, the one-vs-rest counts and values (:data:`~framemetrics.core.multiclass.CLASS_TABLE`)

    Examples
    --------
    >>> from framemetrics.compilers.polars.frame import PolarsFrame
    >>> from framemetrics.core.plan import make_plan
    >>> data = PolarsFrame.values({"y_true": ["a", "b", "b"], "y_pred": ["a", "a", "b"], "sample_weight": [1.0] * 3})
    >>> plan = make_plan({"fbeta_macro": {"beta": 2.0}}, task="multiclass", has_pred=True, weighted=False)
    >>> table = class_rows_table(data, plan, ())
    >>> table.frame.collect().sort(table.order).select("class", "tp", "tn", "recall").rows()
    [('a', 1.0, 1.0, 1.0), ('b', 1.0, 1.0, 0.5)]
    """
    keys = group_keys(by)
    frames = class_frames(data, plan, keys, plan.stages | {"classes"})
    metrics = metrics_frame(frames, plan, internal=True).named("fm_metrics")
    rows = _class_rows(metrics, frames.class_values, plan, keys, list(mc_core.CLASS_TABLE))
    return Table(_named(rows, by), (*by, "fm_order"))


def confusion_table(data: Frame, plan: Plan, by: Sequence[str]) -> Table:
    """The dense confusion matrix per group: every (true, predicted) pair of the group's classes with
    ``n_rows`` and ``weight`` (0 where no row), and the group's check counts

    Examples
    --------
    >>> from framemetrics.compilers.polars.frame import PolarsFrame
    >>> from framemetrics.core.plan import make_plan
    >>> data = PolarsFrame.values({"y_true": ["a", "b", "b"], "y_pred": ["a", "a", "b"], "sample_weight": [1.0] * 3})
    >>> table = confusion_table(data, make_plan(["accuracy_score"], task="multiclass", has_pred=True, weighted=False), ())
    >>> table.frame.collect().sort(table.order).select("y_true", "y_pred", "n_rows").rows()
    [('a', 'a', 1), ('a', 'b', 0), ('b', 'a', 1), ('b', 'b', 1)]
    """
    keys = group_keys(by)
    frames = class_frames(data, plan, keys, frozenset({"classes"}))
    ns, c = data.ns, data.ns.col
    group = {k: c(k) for k in keys}
    t = frames.classes.select({**group, "y_true": c("class"), "true_index": c("class_index")})
    p = frames.classes.select({**group, "y_pred": c("class"), "pred_index": c("class_index")})
    counts = frames.cells.select({**group, **{n: c(n) for n in ("y_true", "y_pred", "n_rows", "weight")}})
    pairs = _join(t, p, keys, "inner").join(counts, [*keys, "y_true", "y_pred"], "left", nulls_equal=True)
    pairs = pairs.with_columns(n_rows=ns.to_int(ns.coalesce(c("n_rows"), ns.lit(0))),
                               weight=ns.coalesce(c("weight"), ns.lit(0.0)))  # fmt: skip
    checked = frames.groups.keep(*keys, *(check.name for check in plan.checks))
    table = _join(checked, pairs, keys)
    columns = [*keys, "y_true", "y_pred", "n_rows", "weight", *(check.name for check in plan.checks)]
    table = table.keep(*columns, "true_index", "pred_index")
    return Table(_named(table, by), (*by, "true_index", "pred_index"), ("true_index", "pred_index"))


def checks_table(data: Frame, plan: Plan, by: Sequence[str]) -> Table:
    """The check counts per group (``fm_groups``): what the one-vs-rest curves raise on before running

    Examples
    --------
    >>> from framemetrics.compilers.polars.frame import PolarsFrame
    >>> from framemetrics.core.plan import make_plan
    >>> data = PolarsFrame.values({"y_true": ["a", "c", "b"], "y_pred": ["a", "a", "b"], "sample_weight": [1.0] * 3})
    >>> plan = make_plan(["accuracy_score"], task="multiclass", labels=["a", "b"], has_pred=True, weighted=False)
    >>> checks_table(data, plan, ()).frame.collect().rows()  # invalid_class_y_true, invalid_class_y_pred
    [(1, 0)]
    """
    keys = group_keys(by)
    return Table(groups(cells(data, plan, keys), keys).keep(*keys, *(check.name for check in plan.checks)))


def class_curve_table(
    data: Frame, plan: Plan, by: Sequence[str], curve: Curve, drop_intermediate: bool, max_points: int | None
) -> Table:
    """The one-vs-rest points of ``curve`` per group (``fm_g0``...) and ``column_index`` j: the binary curve
    (:func:`framemetrics.stages.curves.curve_points`) of "is class j" scored by ``s_j``, sorted by group, class
    and threshold (down for ROC, up for PR and DET).

    Examples
    --------
    >>> from framemetrics.compilers.polars.frame import PolarsFrame
    >>> from framemetrics.core.curves import CURVES
    >>> from framemetrics.core.plan import make_plan
    >>> plan = make_plan(["average_precision_macro"], task="multiclass", labels=[0, 1], n_scores=2, weighted=False)
    >>> data = PolarsFrame.values({"true_index": [0, 1], "sample_weight": [1.0, 1.0], "s_0": [0.8, 0.3],
    ...                            "s_1": [0.2, 0.7]})
    >>> table = class_curve_table(data, plan, (), CURVES["roc_curve"], False, None)
    >>> table.frame.collect().sort(table.order).filter(column_index=0)["tpr"].to_list()
    [0.0, 1.0, 1.0]
    """
    keys = [*group_keys(by), "column_index"]
    rows = rank_input(data, plan, group_keys(by))
    stage = curve_stage(rows, keys, _ranked(rows), points=True, name="fm_ovr")
    points = curve_points(stage, keys, curve, drop_intermediate, max_points)
    threshold = points.ns.col("threshold")
    ordered = points.with_columns(fm_order=-threshold if curve.descending else threshold)
    return Table(ordered, (*keys, "fm_order"), ("fm_order",))
