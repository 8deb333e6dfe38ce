"""Uncertainty per group: DeLong's interval of the ROC AUC and DeLong's paired test of two scores.

:func:`roc_auc_ci` is :func:`framemetrics.evaluate` of ``roc_auc_score``
with its interval (``ci=``) and standard error; :func:`compare_auc` runs the
paired stage (:mod:`framemetrics.stages.paired`). The formulas are those of
:mod:`framemetrics.core.intervals`; the README's "Uncertainty" section
says when each interval is used.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, replace
from typing import Any, Literal

import duckdb
import polars as pl

from framemetrics.columns import (
    By,
    Engine,
    Prepared,
    Resolved,
    check_output_names,
    prepare_metrics,
    sql_columns,
)
from framemetrics.compilers.sql.query import QueryInputs
from framemetrics.compose import interval_expr
from framemetrics.core.checks import check
from framemetrics.core.errors import ArgumentError
from framemetrics.core.intervals import PAIRED_OUTPUTS, interval_z
from framemetrics.core.plan import MetricsArg
from framemetrics.core.registry import get_metric
from framemetrics.engines import Backend
from framemetrics.engines.sql import paired_statement
from framemetrics.evaluation import evaluate
from framemetrics.request import Call, run, validated
from framemetrics.request.call import forward, metrics
from framemetrics.sources import Source

__all__ = [
    "Paired",
    "bootstrap",
    "compare_auc",
    "confidence_interval",
    "paired_tree",
    "prepare_paired",
    "roc_auc_ci",
    "roc_auc_se",
]

ColumnLike = str | pl.Expr
# roc_auc_ci's interval columns.
AUC_INTERVAL = {"se": "se", "low": "low", "high": "high"}


@validated("confidence_interval")
def confidence_interval(
    metric: str,
    y_true: ColumnLike,
    prediction: ColumnLike,
    sample_weight: ColumnLike | None = None,
    *,
    level: float = 0.95,
    method: str | None = None,
    pos_label: Any = 1,
    neg_label: Any = None,
    **params: Any,
) -> pl.Expr:
    """A metric's confidence interval as one Polars aggregation: a struct ``{low, high}`` (``se`` first for DeLong).

    The interval :func:`framemetrics.evaluate` gives with ``ci=level``, for
    use inside ``group_by().agg()``: DeLong's for ``roc_auc_score`` and
    ``gini_score``, Wilson's for the proportions.

    Parameters
    ----------
    metric : str
        A binary metric with an interval.
    y_true, prediction, sample_weight : str or polars.Expr
        The labels, the metric's prediction (``y_pred`` labels or ``y_score``
        scores, as the metric reads) and the weights.
    level : float, default 0.95
        The confidence level.
    method : str, optional
        The interval's method, if not the metric's default.
    pos_label, neg_label, **params
        As the metric's builder (``framemetrics.<metric>``).

    Returns
    -------
    polars.Expr
        A struct named ``<metric>_interval``.

    Examples
    --------
    >>> import polars as pl, framemetrics as fm
    >>> df = pl.DataFrame({"g": ["a", "a", "a", "b", "b"], "y": [0, 1, 1, 1, 0], "p": [0, 1, 0, 1, 1]})
    >>> out = df.group_by("g", maintain_order=True).agg(fm.precision_score("y", "p"),
    ...                                                 fm.confidence_interval("precision_score", "y", "p"))
    >>> out.unnest("precision_score_interval").select(pl.col("low", "high").round(4)).rows()
    [(0.2065, 1.0), (0.0945, 0.9055)]
    """
    role = get_metric(metric).prediction
    arguments = {"y_true": y_true, role: prediction, "sample_weight": sample_weight}
    return interval_expr(metric, level=level, method=method, pos_label=pos_label, neg_label=neg_label,
                         **arguments, **params)  # fmt: skip


def roc_auc_se(
    y_true: ColumnLike, y_score: ColumnLike, sample_weight: ColumnLike | None = None, *, pos_label: Any = 1,
    neg_label: Any = None,
) -> pl.Expr:  # fmt: skip
    """DeLong's standard error of the ROC AUC as one Polars aggregation.

    ``sqrt(S10 / P + S01 / N)`` (:func:`roc_auc_ci` has the definition);
    weights are frequency weights. Null with fewer than 2 positives or 2
    negatives (a class weight at most 1).

    Examples
    --------
    >>> import polars as pl, framemetrics as fm
    >>> df = pl.DataFrame({"y": [0, 0, 1, 1, 0, 1], "p": [0.1, 0.5, 0.4, 0.9, 0.3, 0.8]})
    >>> round(df.select(fm.roc_auc_se("y", "p")).item(), 6)
    0.157135
    """
    interval = confidence_interval("roc_auc_score", y_true, y_score, sample_weight, pos_label=pos_label,
                                   neg_label=neg_label)  # fmt: skip
    return interval.struct.field("se").alias("roc_auc_se")


@validated("roc_auc_ci")
def roc_auc_ci(
    source: Source,
    *,
    y_true: str,
    y_score: str,
    by: By = None,
    level: float = 0.95,
    method: Literal["delong"] = "delong",
    sample_weight: str | None = None,
    pos_label: Any = 1,
    neg_label: Any = None,
    nulls: Literal["error", "drop"] = "error",
    engine: Engine | None = None,
    con: duckdb.DuckDBPyConnection | None = None,
    spark: Any = None,
) -> pl.DataFrame:
    """The ROC AUC per group with DeLong's standard error and confidence interval.

    DeLong, DeLong and Clarke-Pearson (1988), per distinct score (Sun and Xu
    2014): ``Var(AUC) = S10 / P + S01 / N`` over the placements of the
    positives and negatives; the interval ``AUC -+ z se`` is clipped to
    [0, 1], as pROC's ``ci.auc(method="delong")``. Weights are frequency
    weights: an integer weight equals that many repeated rows
    (:mod:`framemetrics.core.intervals` has the formulas).

    Parameters
    ----------
    y_score : str
        Column of scores, higher meaning more likely ``pos_label``.
    .. parameters:: source, y_true, by, sample_weight, pos_label, nulls, engine, con, spark, level, method

    Returns
    -------
    polars.DataFrame
        The group columns, ``n_rows``, ``roc_auc_score``, ``se``, ``low`` and
        ``high``. ``se``, ``low`` and ``high`` are null with fewer than 2
        positives or 2 negatives (a class weight at most 1), as pROC's NA.

    Examples
    --------
    >>> import polars as pl, framemetrics as fm
    >>> df = pl.DataFrame({"y": [0, 0, 1, 1, 0, 1], "p": [0.1, 0.5, 0.4, 0.9, 0.3, 0.8]})
    >>> fm.roc_auc_ci(df, y_true="y", y_score="p").select(pl.all().round(6)).rows()  # pROC: 0.580910 - 1
    [(6, 0.888889, 0.157135, 0.58091, 1.0)]
    """
    call = Call.of(locals())
    prepared = prepare_metrics(["roc_auc_score"], threshold=0.5, by=call.by, nulls=nulls, y_pred=None,
                               zero_division=None, ci=level, interval_outputs=AUC_INTERVAL, **call.columns())  # fmt: skip
    return run(call, prepared, metrics)


_BOOTSTRAP_METHODS = {"percentile": "bootstrap", "bca": "bca"}  # fm.bootstrap's method= to evaluate's ci_method=


@validated("bootstrap")
def bootstrap(
    source: Source,
    *,
    y_true: str,
    y_pred: str | None = None,
    y_score: str | Sequence[str] | None = None,
    task: Literal["binary", "multiclass", "regression"] | None = None,
    labels: Sequence[Any] | None = None,
    metrics: MetricsArg | None = None,
    by: By = None,
    n_resamples: int = 1000,
    level: float = 0.95,
    seed: int = 0,
    row_id: str | None = None,
    method: Literal["percentile", "bca"] = "percentile",
    threshold: float = 0.5,
    sample_weight: str | None = None,
    pos_label: Any = 1,
    neg_label: Any = None,
    zero_division: float | None = None,
    nulls: Literal["error", "drop"] = "error",
    engine: Engine | None = None,
    con: duckdb.DuckDBPyConnection | None = None,
    spark: Any = None,
) -> pl.DataFrame:
    """Percentile intervals of any metric by the Poisson bootstrap, every replicate in one pass per group.

    Each row gets, in replicate ``b``, a Poisson(1) weight that is a function
    of ``(seed, b, row key)`` (:mod:`framemetrics.core.resampling`): the
    replicates' statistics are sums weighted by it, all computed in one
    aggregation (the ranking metrics' from one curve stage: the scores are
    sorted once, each replicate's running sums taken down that order), and
    each metric's interval is the percentiles of its
    replicate values at ``(1 -+ level) / 2``, NumPy's linear interpolation
    (replicates where the metric is undefined are left out). It is
    :func:`framemetrics.evaluate` with ``ci=level, ci_method="bootstrap"``.

    Parameters
    ----------
    source, y_true, y_pred, y_score, task, labels, metrics, by, threshold, sample_weight, pos_label, neg_label
        As in :func:`framemetrics.evaluate`: every binary, regression and
        multiclass metric (the sums over rows; R², explained variance and the
        Tweedie D² about each replicate's own mean; the ranking metrics and
        the weighted quantiles, the median errors and the D² of the absolute
        and pinball errors, from one sorted stage; the multiclass metrics
        through their confusion cells, and their one-vs-rest, one-vs-one and
        micro curves on the rows laid out once per replicate).
    zero_division
        As in :func:`framemetrics.evaluate`.
    n_resamples : int, default 1000
        The replicates, 2 to 10,000.
    level : float, default 0.95
        The confidence level.
    seed : int, default 0
        The replicates' seed.
    row_id : str, optional
        An integer column identifying each row: the same key gives the same
        weights on every engine, whatever the order of the rows. By default
        the row's position as read (Polars, DuckDB); required on Spark and
        in the SQL of the warehouses, whose tables have no row order.
    method : {"percentile", "bca"}, default "percentile"
        ``"bca"``: the bias-corrected and accelerated interval (Efron 1987,
        SciPy's ``method="BCa"``) of the binary and regression metrics whose
        statistics are sums over rows, whose jackknife is then exact
        (:mod:`framemetrics.core.bca`); the others refuse it.
    nulls, engine, con, spark
        As in :func:`framemetrics.evaluate`.

    Returns
    -------
    polars.DataFrame
        The group columns, ``n_rows``, then per metric ``<metric>``
        (the estimate on all rows), ``<metric>_low`` and ``<metric>_high``.

    Examples
    --------
    >>> import polars as pl, framemetrics as fm
    >>> df = pl.DataFrame({"y": [0, 1, 1, 0, 1, 0, 1, 1], "p": [0.2, 0.9, 0.4, 0.6, 0.8, 0.1, 0.7, 0.3]})
    >>> out = fm.bootstrap(df, y_true="y", y_score="p", metrics=["f1_score"], n_resamples=200, level=0.9)
    >>> out.columns
    ['n_rows', 'f1_score', 'f1_score_low', 'f1_score_high']
    >>> out["f1_score_low"].item() <= out["f1_score"].item() <= out["f1_score_high"].item()
    True
    >>> bca = fm.bootstrap(df, y_true="y", y_score="p", metrics=["f1_score"], n_resamples=200, level=0.9, method="bca")
    >>> bca.columns == out.columns and bca["f1_score"].item() == out["f1_score"].item()
    True
    >>> animals = pl.DataFrame({"y": ["cat", "dog", "dog", "cat", "dog"], "yhat": ["cat", "dog", "cat", "cat", "dog"]})
    >>> fm.bootstrap(animals, y_true="y", y_pred="yhat", task="multiclass", metrics=["f1_macro"],
    ...              n_resamples=50).columns
    ['n_rows', 'f1_macro', 'f1_macro_low', 'f1_macro_high']
    """
    return forward(evaluate, locals(), ci=level, ci_method=_BOOTSTRAP_METHODS[method])


@validated("compare_auc")
def compare_auc(
    source: Source,
    *,
    y_true: str,
    y_score: Sequence[str],
    by: By = None,
    level: float = 0.95,
    sample_weight: str | None = None,
    pos_label: Any = 1,
    neg_label: Any = None,
    nulls: Literal["error", "drop"] = "error",
    engine: Engine | None = None,
    con: duckdb.DuckDBPyConnection | None = None,
    spark: Any = None,
) -> pl.DataFrame:
    """DeLong's paired test of the ROC AUCs of two score columns on the same rows, per group.

    With ``V10`` and ``V01`` the placements of the positives and negatives
    under each score, the variance of ``AUC1 - AUC2`` is DeLong's variance
    of the placements' differences (pROC's ``L S L'``, ``L = (1, -1)``);
    ``z = diff / se`` and ``p_value = 2 Phi(-|z|)``, with the normal
    distribution function to double precision
    (:func:`~framemetrics.core.normal.normal_cdf`), as pROC's
    ``roc.test(method="delong", paired=TRUE)``.

    Parameters
    ----------
    .. parameters:: source, y_true, by, sample_weight, pos_label, nulls, engine, con, spark
    y_score : sequence of two str
        The two score columns: model 1, then model 2.
    level : float, default 0.95
        The level of the interval of the difference.

    Returns
    -------
    polars.DataFrame
        The group columns, ``n_rows``, ``roc_auc_1``, ``roc_auc_2``, ``diff``
        (``roc_auc_1 - roc_auc_2``), ``se``, ``z``, ``p_value``, ``low`` and
        ``high`` (``diff -+ z se``, not clipped). Null with fewer than 2
        positives or 2 negatives; ``z`` and ``p_value`` null where
        ``se = 0`` (two scores ranking the rows alike).

    Examples
    --------
    >>> import polars as pl, framemetrics as fm
    >>> df = pl.DataFrame({"y": [0, 0, 1, 1, 0, 1], "new": [0.1, 0.5, 0.4, 0.9, 0.3, 0.8],
    ...                    "old": [0.2, 0.6, 0.3, 0.5, 0.4, 0.7]})
    >>> out = fm.compare_auc(df, y_true="y", y_score=["new", "old"])
    >>> out.select(pl.col("roc_auc_1", "roc_auc_2", "diff", "p_value").round(4)).rows()
    [(0.8889, 0.6667, 0.2222, 0.1573)]
    """
    call = Call.of(locals())
    paired = prepare_paired(by=call.by, level=level, nulls=nulls, **call.columns())

    def test(opened: Backend, prepared: Prepared, columns: dict[str, Any]) -> pl.DataFrame:
        return opened.paired(prepared.resolved.plan, columns, prepared.by, prepared.drop, paired.z)

    return run(call, paired.prepared, test)


@dataclass(frozen=True)
class Paired:
    """A paired test's request checked: the plan of ``roc_auc_score`` with the second score's check, each role's
    column (``y_score_2`` the second score), the group columns and whether nulls are dropped (``prepared``); ``z``."""

    prepared: Prepared
    z: float


def prepare_paired(*, y_true: str, y_score: Sequence[str], by: Any, level: float, **request: Any) -> Paired:
    """Check the arguments of :func:`compare_auc` (and ``fm.sql.compare_auc``) and resolve them.

    Examples
    --------
    >>> paired = prepare_paired(y_true="y", y_score=["a", "b"], by="g", level=0.95, sample_weight=None, pos_label=1,
    ...                         neg_label=None, nulls="error")
    >>> paired.prepared.resolved.roles
    {'y_true': 'y', 'y_score': 'a', 'y_score_2': 'b'}
    """
    if isinstance(y_score, str) or len(y_score) != 2 or y_score[0] == y_score[1]:
        raise ArgumentError(f"y_score must be two distinct score columns, got {y_score!r}")
    z = interval_z(level)
    prepared = prepare_metrics(["roc_auc_score"], threshold=0.5, by=by, y_true=y_true, y_pred=None,
                               y_score=y_score[0], zero_division=None, **request)  # fmt: skip
    plan = prepared.resolved.plan
    plan = replace(plan, checks=(*plan.checks, check("finite", "y_score_2")))
    check_output_names(prepared.by, ["n_rows", *PAIRED_OUTPUTS])
    roles = prepared.resolved.roles | {"y_score_2": y_score[1]}
    return Paired(replace(prepared, resolved=Resolved(plan, roles, False)), z)


def paired_tree(paired: Paired, table: Any) -> Any:
    """The paired test's statement over ``table`` (a sqlglot FROM clause), as a tree."""
    prepared = paired.prepared
    plan, roles = prepared.resolved.plan, prepared.resolved.roles
    inputs = QueryInputs(table, sql_columns(plan, roles, False, 0.5), prepared.by, prepared.drop)
    return paired_statement(plan, inputs, paired.z)
