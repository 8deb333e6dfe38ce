"""The multiclass stages' sums and calls, written once over a namespace.

The class stage (:mod:`framemetrics.stages.multiclass`, written once on a
frame) is built from these definitions: the check counts and row sums per group and cell of the
confusion matrix, the sums over a group's class rows, the kappa
disagreements, Hand & Till's pair averages, and the application of a
registry :class:`~framemetrics.core.registry.Call`.

Examples
--------
>>> from framemetrics.compilers.sql import SQL
>>> from framemetrics.compilers.sql.emit import to_sql
>>> to_sql(class_sums(SQL)["n_true_classes"])
'COUNT(*) FILTER(WHERE support > 0)'
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from functools import reduce
from typing import Any

from framemetrics.core.checks import Check
from framemetrics.core.formulas import multiclass as mc
from framemetrics.core.formulas import parameter_literal
from framemetrics.core.formulas.guards import bounded
from framemetrics.core.namespace import Namespace

__all__ = [
    "AVERAGE_ROWS",
    "CLASS_TABLE",
    "CLASS_VALUES",
    "CURVE_STAGES",
    "KAPPA_COLUMNS",
    "RANK_STATISTICS",
    "argmax_label",
    "average_column",
    "call_expr",
    "check_count",
    "class_columns",
    "class_sums",
    "kappa_sums",
    "metric_expr",
    "ovo_sums",
    "report_value",
    "row_sums",
]

Expr = Any

# The report's order column: classes by their index, then the average rows from here on.
AVERAGE_ROWS = 1_000_000
# The stages that read rows rather than the confusion cells: the one-vs-rest, one-vs-one and micro curves.
CURVE_STAGES = frozenset({"ranking", "ovo", "micro"})
# The sums of a ranking's curve stage those stages read, per group (one-vs-rest, one-vs-one or micro).
RANK_STATISTICS = ("auc_sum", "ap_sum", "sum_pos", "sum_neg")


def _total(values: list[Expr]) -> Expr:
    return reduce(lambda a, b: a + b, values)


def argmax_label(ns: Namespace, scores: Sequence[Expr], labels: Sequence[Any]) -> Expr:
    """The label of the highest score (the first such label on ties, as NumPy's argmax): predicted classes.

    Examples
    --------
    >>> from framemetrics.compilers.sql import SQL
    >>> from framemetrics.compilers.sql.emit import to_sql
    >>> to_sql(argmax_label(SQL, [SQL.col("a"), SQL.col("b")], ["cat", "dog"]))
    "CASE WHEN a = GREATEST(a, b) THEN 'cat' ELSE 'dog' END"
    """
    top = ns.greatest(*scores)
    branches = [(ns.eq(score, top), ns.lit(label)) for score, label in zip(scores[:-1], labels, strict=False)]
    return ns.case(branches, ns.lit(labels[len(scores) - 1]))


def check_count(ns: Namespace, check: Check, labels: Sequence[Any] | None, n_scores: int) -> Expr:
    """The number of invalid rows of one input over the columns of ``fm_input``.

    Scores are ``s_<index>``; ``n_listed`` is the length of a list column of scores.
    """
    if check.domain == "simplex":
        x = _total([ns.col(f"s_{j}") for j in range(n_scores)])
    elif check.domain == "length":
        return check.count(ns, ns.col("n_listed"), ns.lit(n_scores))
    else:
        x = ns.col(f"s_{check.index}" if check.index is not None else check.role)
    listed = [ns.lit(label) for label in labels] if check.domain == "class" else []
    return check.count(ns, x, *listed)


def row_sums(ns: Namespace, names: set[str], n_scores: int, k: int) -> dict[str, Expr]:
    """The weighted row sums of the metrics ``names`` reads: ``sum_log_loss``, ``sum_brier``, ``sum_top_k``."""
    w, true_index, p_true = ns.col("sample_weight"), ns.col("true_index"), ns.col("p_true")
    scores = [ns.col(f"s_{j}") for j in range(n_scores)]
    sums = {}
    if "log_loss" in names:
        sums["sum_log_loss"] = ns.sum(w * mc.log_loss_row(ns, p_true))
    if "brier_score_loss" in names:
        terms = [mc.brier_term(ns, s, ns.lit(j), true_index) for j, s in enumerate(scores)]
        sums["sum_brier"] = ns.sum(w * _total(terms))
    if "top_k_accuracy_score" in names:
        above = _total([mc.ranks_above(ns, s, ns.lit(j), p_true, true_index) for j, s in enumerate(scores)])
        sums["sum_top_k"] = ns.sum(w * ns.indicator(above < k))
    return sums


def class_sums(ns: Namespace) -> dict[str, Expr]:
    """Per group, over its class rows (``tp, fp, fn, support, predicted, total``): the sums the formulas read."""
    tp, support, predicted = ns.col("tp"), ns.col("support"), ns.col("predicted")
    recall = ns.when(support > 0, tp / support).otherwise(ns.null())
    # The class marginals as fractions of the group's weight: their products neither under- nor overflow.
    true_share, pred_share = ns.ratio(support, ns.col("total")), ns.ratio(predicted, ns.col("total"))
    return {
        "tp": ns.sum(tp),
        "fp": ns.sum(ns.col("fp")),
        "fn": ns.sum(ns.col("fn")),
        "true_dot_pred": ns.sum(true_share * pred_share),
        "true_dot_true": ns.sum(true_share * true_share),
        "pred_dot_pred": ns.sum(pred_share * pred_share),
        "n_true_classes": ns.count_where(support > 0),
        "n_pred_classes": ns.count_where(predicted > 0),
        "mean_recall": mc.mean(ns, recall),
    }


KAPPA_COLUMNS = ("weight", "t", "p", "support", "predicted", "total", "i", "j")


def kappa_sums(ns: Namespace, weights: str | None, c: Mapping[str, Expr]) -> tuple[Expr, Expr]:
    """Observed and expected disagreement for kappa ``weights``.

    Observed over the confusion cells (``weight``, true and predicted class
    index ``t, p``); expected over the pairs of classes ``i, j`` of a group
    (``support * predicted / total``). ``c`` maps :data:`KAPPA_COLUMNS` to expressions.
    """
    observed = ns.sum(c["weight"] * mc.kappa_weight(ns, c["t"], c["p"], weights))
    chance = c["support"] * ns.ratio(c["predicted"], c["total"])  # null, not NaN, when the group weighs 0
    expected = ns.sum(chance * mc.kappa_weight(ns, c["i"], c["j"], weights))
    return observed, expected


def ovo_sums(ns: Namespace, auc_sum_ab: Expr, auc_sum_ba: Expr, pos_a: Expr, pos_b: Expr) -> dict[str, Expr]:
    """Hand & Till's average over the class pairs of a group, unweighted and prevalence-weighted."""
    pair = mc.ovo_pair(ns, auc_sum_ab, auc_sum_ba)
    prevalence = pos_a + pos_b
    return {"ovo_macro": mc.mean(ns, pair), "ovo_weighted": ns.sum(prevalence * pair) / ns.sum(prevalence)}


def call_expr(
    ns: Namespace,
    call: Any,
    params: Mapping[str, Any],
    plan: Any,
    column: Callable[[str], Expr] | None = None,
) -> Expr:
    """A registry ``Call`` in namespace ``ns``: each argument a column, a parameter or a literal.

    ``NULL`` is a double null, ``NO_INVALID`` 0, ``beta`` and ``n_classes`` the
    plan's, a parameter its typed literal; any other name a column (through
    ``column``, default ``ns.col``), ``{weights}`` filled with the kappa weighting.
    """
    column = column or ns.col

    def argument(name: str) -> Expr:
        if name == "NULL":
            return ns.null()
        if name == "NO_INVALID":
            return ns.lit(0)
        if name == "beta":
            return parameter_literal(ns, plan.beta)
        if name == "n_classes":
            return ns.lit(plan.n_scores)
        if name in params:
            return parameter_literal(ns, params[name])
        return column(name.format(weights=params.get("weights") or "none"))

    return call.function(ns, *(argument(a) for a in call.arguments))


def average_column(requested: Any, key: str) -> str:
    """The column holding the average ``key`` of a requested metric (a ``MetricCall``) in the class summaries,
    named after its output: two parameterisations of one metric average apart."""
    return f"{key}_{requested.name}"


def metric_expr(
    ns: Namespace, requested: Any, plan: Any, n_invalid: Expr, column: Callable[[str], Expr] | None = None
) -> Expr:
    """The formula of a requested metric (a ``MetricCall``) over a group's columns, its averages and ``n_invalid``."""
    column = column or ns.col
    metric = requested.metric

    def resolve(name: str) -> Expr:
        if name in metric.averages:
            return column(average_column(requested, name))
        return n_invalid if name == "n_invalid" else column(name)

    return bounded(ns, call_expr(ns, metric.formula, requested.params, plan, resolve), metric.value_range)


def report_value(ns: Namespace, column: Expr, plan: Any) -> Expr:
    """A class row of the report: the class's value, undefined set to the report's ``zero_division``."""
    return mc.class_value(ns, column, parameter_literal(ns, plan.calls[0].params["zero_division"]))


# The columns of the class table (fm.class_table), in order.
CLASS_TABLE = ("tp", "fp", "fn", "tn", "support", "precision", "recall", "f1_score", "fbeta_score", "jaccard_score")
# The per-class values of the class table and of the report's class rows: output name -> class value column.
CLASS_VALUES = {
    "precision": "precision_score",
    "recall": "recall_score",
    "f1_score": "f1_score",
    "fbeta_score": "fbeta_score",
    "jaccard_score": "jaccard_score",
}


def class_columns(ns: Namespace, plan: Any, column: Callable[[str], Expr], values: Sequence[str]) -> dict[str, Expr]:
    """A class row's ``values`` (names of :data:`CLASS_VALUES` or the counts ``tp, fp, fn, tn, support``).

    ``column`` reads a column of the class values stage; ``tn`` is the
    group's weight less the class's ``tp + fp + fn`` (scikit-learn's
    ``multilabel_confusion_matrix``), a ratio undefined where its
    denominator is 0 is the plan's ``zero_division``.
    """
    tp, fp, fn = column("tp"), column("fp"), column("fn")
    counts = {"tp": tp, "fp": fp, "fn": fn, "tn": column("total") - tp - fp - fn, "support": column("support")}
    return {v: counts[v] if v in counts else report_value(ns, column(CLASS_VALUES[v]), plan) for v in values}
