"""``evaluate``: many metrics per group, on Polars or DuckDB, from any source."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any, Literal

import duckdb
import polars as pl

from framemetrics.columns import (
    By,
    Engine,
    Prepared,
    check_output_names,
    check_row_id,
    input_columns,
    prepare_metrics,
)
from framemetrics.core.checks import Check
from framemetrics.core.checks import raise_for_invalid as raise_invalid_rows
from framemetrics.core.defaults import default_metrics
from framemetrics.core.errors import ArgumentError, missing_column
from framemetrics.core.plan import MetricsArg, Plan
from framemetrics.engines import Backend, open_engine
from framemetrics.multiclass.api import evaluate_multiclass
from framemetrics.request import validated
from framemetrics.sources import Source
from framemetrics.tasks import check_metrics_of_task, infer_task, task_from_arguments

__all__ = [
    "check_schema",
    "evaluate",
    "evaluate_binary_or_regression",
    "per_group",
    "raise_for_invalid",
    "run_checked",
    "run_prepared",
]


def check_schema(
    plan: Plan, roles: dict[str, str], by: tuple[str, ...], kinds: dict[str, str], thresholded: bool
) -> None:
    """Raise if a column is missing, of the wrong kind, or named like an output column."""
    labels = {c.role for c in plan.checks if c.domain == "label"}  # compared to pos_label, not numbers
    named = {("y_score" if r == "y_pred" and thresholded else r): c for r, c in roles.items()}
    for column, role in [*((b, "by") for b in by), *((c, r) for r, c in named.items())]:
        if column not in kinds:
            raise missing_column(column, role, kinds)
        kind = kinds[column]
        if kind == "null":
            continue
        if role in labels and (kind == "other" or (kind == "string") != isinstance(plan.pos_label, str)):
            raise ValueError(
                f"column {column!r} ({role}) holds {kind} values but pos_label={plan.pos_label!r}: "
                "pass pos_label and neg_label of the column's type"
            )
        numeric = role not in labels or (role in ("y_true", "y_pred") and "regression" in plan.families)
        if numeric and role != "by" and kind != "numeric":
            raise ValueError(f"column {column!r} ({role}) must be numeric, got {kind} values")
    check_output_names(by, ["n_rows", *plan.output_columns, *(c.name for c in plan.checks)])


def raise_for_invalid(
    result: pl.DataFrame, plan: Plan, roles: dict[str, str], nulls: str, opened: Backend
) -> None:
    """Raise naming each column with invalid rows (the check counts of ``result``), or if no rows are left.

    The error is :func:`framemetrics.core.checks.raise_for_invalid`'s, every
    task's; where a null counts as invalid, it says how many rows of the
    source (``opened``) hold one.
    """

    def describe(check: Check, count: int) -> tuple[str, str]:
        shown = check.describe(count, plan.pos_label, plan.neg_label)
        return f"column {roles[check.role]!r} ({check.role}): {shown}", roles[check.role]

    counts = {check: int(result[check.name].fill_null(0).sum()) for check in plan.checks}
    raise_invalid_rows(counts, describe, opened.null_rows, nulls, int(result["n_rows"].sum()))


@validated("evaluate")
def evaluate(
    source: Source,
    *,
    y_true: str,
    y_pred: str | None = None,
    y_score: str | Sequence[str] | None = None,
    task: Literal["binary", "multiclass", "regression"] | None = None,
    labels: Sequence[Any] | None = None,
    threshold: float = 0.5,
    sample_weight: str | None = None,
    by: By = None,
    metrics: MetricsArg | None = None,
    pos_label: Any = 1,
    neg_label: Any = None,
    zero_division: float | None = None,
    bins: int | None = None,
    nulls: Literal["error", "drop"] = "error",
    ci: float | None = None,
    ci_method: str | None = None,
    n_resamples: int = 1000,
    seed: int = 0,
    row_id: str | None = None,
    engine: Engine | None = None,
    con: duckdb.DuckDBPyConnection | None = None,
    spark: Any = None,
) -> pl.DataFrame:
    """Compute metrics per group, inside Polars, DuckDB or Spark.

    Parameters
    ----------
    .. parameters:: source, y_true, y_pred, y_score, task, labels, threshold, sample_weight, by, metrics, pos_label
    .. parameters:: zero_division, bins, nulls
    ci : float, optional
        A confidence level (0.95): each metric ``m`` gets ``m_low`` and
        ``m_high`` beside it. Binary metrics: DeLong's interval for
        ``roc_auc_score`` and ``gini_score``, Wilson's for the proportions
        (accuracy, error rate, precision, recall, specificity, the false
        positive and negative rates, NPV, prevalence); weights are frequency
        weights for DeLong and give Kish's effective size to Wilson
        (:mod:`framemetrics.core.intervals`; README, "Uncertainty").
        Every other metric, and every multiclass metric: the Poisson
        bootstrap's percentile interval.
    ci_method : {"delong", "wilson", "clopper-pearson", "bootstrap", "bca", "own"}, optional
        Force a method where it applies (``"clopper-pearson"``: the
        proportions' "exact" interval, Beta quantiles computed in the
        engine; ``"bca"``: the bootstrap's bias-corrected and accelerated
        interval, for the metrics whose statistics are sums over rows:
        :mod:`framemetrics.core.bca`); ``"own"`` gives intervals only to
        the metrics with one of their own (DeLong's, Wilson's), as the
        evaluation report does, and none to the others.
    .. parameters:: n_resamples
    engine : {"polars", "duckdb", "spark"}, optional
        Where to compute: by default Polars, and Spark for a Spark DataFrame
        (which no other engine reads: framemetrics never collects its rows).
        All return the same frame; Spark runs the query of
        :func:`framemetrics.sql.query` in its dialect and collects only the
        per-group result.
    .. parameters:: con, spark

    Returns
    -------
    polars.DataFrame
        One row per group (sorted, nulls last): the group columns, ``n_rows``
        (rows used) and one Float64 column per metric, null where undefined.
        A Polars frame whatever the input; pandas users call ``.to_pandas()``.

    Raises
    ------
    ArgumentError
        Unknown metric or parameter, a parameter out of range, an
        ambiguous task (a ``ValueError``).
    ValueError
        Unknown column, wrongly typed column, invalid rows (null,
        NaN, infinite, label outside ``{pos_label, neg_label}``, probability
        outside [0, 1]...: the message names the column and the row count),
        or no rows.

    See Also
    --------
    framemetrics.sql.query : the same computation as SQL text.

    Examples
    --------
    >>> import polars as pl, framemetrics as fm
    >>> df = pl.DataFrame({"seg": ["a", "a", "b", "b"], "y": [0, 1, 1, 0],
    ...                    "p": [0.2, 0.9, 0.4, 0.3]})
    >>> fm.evaluate(df, y_true="y", y_score="p", by="seg",
    ...             metrics=["accuracy_score", "log_loss"], engine="duckdb")
    shape: (2, 4)
    ┌─────┬────────┬────────────────┬──────────┐
    │ seg ┆ n_rows ┆ accuracy_score ┆ log_loss │
    │ --- ┆ ---    ┆ ---            ┆ ---      │
    │ str ┆ i64    ┆ f64            ┆ f64      │
    ╞═════╪════════╪════════════════╪══════════╡
    │ a   ┆ 2      ┆ 1.0            ┆ 0.164252 │
    │ b   ┆ 2      ┆ 0.5            ┆ 0.636483 │
    └─────┴────────┴────────────────┴──────────┘
    >>> animals = pl.DataFrame({"y": ["cat", "dog", "dog"], "cat": [0.7, 0.4, 0.1], "dog": [0.3, 0.6, 0.9]})
    >>> fm.evaluate(animals, y_true="y", y_score=["cat", "dog"]).columns  # multiclass: the columns name the classes
    ['n_rows', 'accuracy_score', 'f1_macro', 'f1_weighted', 'log_loss', 'roc_auc_ovr']
    """
    explicit = task is not None
    if task is None:
        task = task_from_arguments(y_score=y_score, labels=labels, metrics=metrics)
    if task is None:
        with open_engine(source, engine, con, spark) as opened:
            task = infer_task(opened, y_true=y_true, y_pred=y_pred, y_score=y_score, labels=labels,
                              pos_label=pos_label, neg_label=neg_label)  # fmt: skip
    scored = y_score is not None
    if task == "multiclass":
        given = {"threshold": threshold != 0.5, "pos_label": pos_label != 1, "neg_label": neg_label is not None}
        given["bins"] = bins is not None
        if any(given.values()):
            raise ArgumentError(f"{', '.join(k for k, v in given.items() if v)}: binary only, not for multiclass")
        return evaluate_multiclass(
            source, y_true=y_true, y_pred=y_pred, y_score=y_score, labels=labels, sample_weight=sample_weight, by=by,
            metrics=default_metrics(task, scored) if metrics is None else metrics, zero_division=zero_division,
            nulls=nulls, ci=ci, ci_method=ci_method, n_resamples=n_resamples, seed=seed, row_id=row_id,
            engine=engine, con=con, spark=spark,
        )  # fmt: skip
    if y_score is not None and not isinstance(y_score, str):
        raise ArgumentError(f"task={task!r} reads one score column, got y_score={list(y_score)!r}")
    if labels is not None:
        if len(labels) != 2:
            raise ArgumentError(f"task={task!r} takes two labels (negative, positive), got {list(labels)!r}")
        if pos_label == 1 and neg_label is None:
            neg_label, pos_label = labels
    chosen = default_metrics(task, scored) if metrics is None else metrics
    if explicit:  # inferred, binary and regression metrics may mix in one call (one engine path)
        check_metrics_of_task(chosen, task)
    return evaluate_binary_or_regression(
        source, y_true=y_true, y_pred=y_pred, y_score=y_score, threshold=threshold, sample_weight=sample_weight,
        by=by, metrics=chosen, pos_label=pos_label, neg_label=neg_label, zero_division=zero_division, bins=bins,
        nulls=nulls, ci=ci, ci_method=ci_method, n_resamples=n_resamples, seed=seed, row_id=row_id, engine=engine,
        con=con, spark=spark,
    )  # fmt: skip


@validated("evaluate_binary_or_regression")
def evaluate_binary_or_regression(
    source: Source,
    *,
    y_true: str,
    y_pred: str | None = None,
    y_score: str | None = None,
    threshold: float = 0.5,
    sample_weight: str | None = None,
    by: str | Sequence[str] | None = None,
    metrics: MetricsArg | None = None,
    pos_label: Any = 1,
    neg_label: Any = None,
    zero_division: float | None = None,
    bins: int | None = None,
    nulls: Literal["error", "drop"] = "error",
    ci: float | None = None,
    ci_method: str | None = None,
    n_resamples: int = 1000,
    seed: int = 0,
    row_id: str | None = None,
    engine: Engine | None = None,
    con: duckdb.DuckDBPyConnection | None = None,
    spark: Any = None,
) -> pl.DataFrame:
    """Binary and regression metrics per group: :func:`evaluate` once the task is known.

    The parameters are :func:`evaluate`'s (one prediction column); its
    signature is also that of :func:`framemetrics.sql.query`.

    Examples
    --------
    >>> import polars as pl
    >>> frame = pl.DataFrame({"y": [1.0, 2.0], "f": [1.5, 2.0]})
    >>> evaluate_binary_or_regression(frame, y_true="y", y_pred="f", metrics=["max_error"]).rows()
    [(2, 0.5)]
    """
    prepared = prepare_metrics(
        metrics,
        threshold=threshold,
        by=by,
        nulls=nulls,
        y_true=y_true,
        y_pred=y_pred,
        y_score=y_score,
        sample_weight=sample_weight,
        pos_label=pos_label,
        neg_label=neg_label,
        zero_division=zero_division,
        bins=bins,
        ci=ci,
        ci_method=ci_method,
        n_resamples=n_resamples,
        seed=seed,
        row_id=row_id,
    )
    return run_prepared(source, prepared, nulls, engine, con, spark)


def run_prepared(
    source: Source,
    prepared: Prepared,
    nulls: str,
    engine: Engine,
    con: duckdb.DuckDBPyConnection | None,
    spark: Any,
) -> pl.DataFrame:
    """Run a binary or regression request (:func:`~framemetrics.columns.prepare_metrics`) on ``engine``.

    The body of :func:`evaluate_binary_or_regression`, shared by the
    functions of :mod:`framemetrics.uncertainty`: the schema checked, the
    plan run, invalid rows raised, the check counts dropped.
    """
    plan, roles, thresholded = prepared.resolved.plan, prepared.resolved.roles, prepared.resolved.thresholded
    by, drop = prepared.by, prepared.drop
    with open_engine(source, engine, con, spark) as opened:
        kinds = opened.kinds()
        check_schema(plan, roles, by, kinds, thresholded)
        check_row_id(plan, kinds, opened.null_rows)
        columns = input_columns(opened.ns, opened.column, plan, roles, thresholded, prepared.threshold)
        result = opened.metrics(plan, columns, by, drop)
        raise_for_invalid(result, plan, roles, nulls, opened)
    return per_group(result, plan, by)


def per_group(result: pl.DataFrame, plan: Plan, by: Sequence[str]) -> pl.DataFrame:
    """A per-group ``result`` as returned: without the check counts, sorted by group (nulls last)."""
    result = result.drop([c.name for c in plan.checks])
    return result.sort(list(by), nulls_last=True) if by else result


def run_checked(
    source: Source,
    request: tuple[Plan, dict[str, str], tuple[str, ...], str],
    engine: Engine,
    con: duckdb.DuckDBPyConnection | None,
    spark: Any,
    compute: Callable[[Backend, dict[str, Any], bool], pl.DataFrame],
) -> pl.DataFrame:
    """``compute(opened, columns, drop)`` on ``engine`` once the source's schema and rows are checked.

    ``request`` is the plan, each role's column, the group columns and
    ``nulls``: the stage of a curve or the calibration curve reads the
    checked rows (a score with no threshold, ``drop`` whether nulls are dropped).
    """
    plan, roles, by, nulls = request
    drop = nulls == "drop"
    with open_engine(source, engine, con, spark) as opened:
        check_schema(plan, roles, by, opened.kinds(), False)
        columns = input_columns(opened.ns, opened.column, plan, roles, False, 0.5)
        raise_for_invalid(opened.checks(plan, columns, by, drop), plan, roles, nulls, opened)
        return compute(opened, columns, drop)
