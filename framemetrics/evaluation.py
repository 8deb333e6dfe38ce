"""``evaluate``: many metrics per group, on Polars or DuckDB, from any source."""

from __future__ import annotations

import inspect
from collections.abc import Sequence
from typing import Any, Literal

import duckdb
import polars as pl

from framemetrics.columns import By, Engine, prepare_metrics
from framemetrics.core.defaults import default_metrics
from framemetrics.core.errors import ArgumentError
from framemetrics.core.plan import MetricsArg
from framemetrics.multiclass.api import evaluate_multiclass
from framemetrics.request import Call, run, validated
from framemetrics.request.call import forward
from framemetrics.request.call import metrics as plan_metrics
from framemetrics.sources import Source
from framemetrics.tasks import check_metrics_of_task, infer_task
from framemetrics.wrapping import bound_function

__all__ = ["evaluate", "evaluate_binary_or_regression"]


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
        ``m_high`` beside it. Binary and regression metrics: DeLong's
        interval for ``roc_auc_score`` and ``gini_score``, Wilson's for the
        proportions (accuracy, error rate, precision, recall, specificity,
        the false positive and negative rates, NPV, prevalence), the normal
        interval of a mean for the means of per-row terms (log loss, Brier,
        hinge, MSE, MAE...), the delta method's for F1, F-beta and Jaccard,
        the logit interval for ``average_precision_score``
        (:mod:`framemetrics.core.intervals`; README, "Uncertainty"). Every
        other metric, and every multiclass metric: the Poisson bootstrap's
        percentile interval, its batches of replicates computed in turn.
    ci_method : {"delong", "wilson", "clopper-pearson", "normal", "delta", "logit", "bootstrap", "bca", "own"}, optional
        Force a method where it applies (``"clopper-pearson"``: the
        proportions' "exact" interval, Beta quantiles computed in the
        engine; ``"bootstrap"``: every metric; ``"bca"``: the bootstrap's
        bias-corrected and accelerated interval, for the metrics whose
        statistics are sums over rows: :mod:`framemetrics.core.bca`);
        ``"own"`` gives intervals only to the metrics with one of their own
        (all but the bootstrap), as the evaluation report does, and none to
        the others.
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
    arguments = dict(locals())
    explicit = task is not None
    if task is None:
        task = infer_task(Call.of(arguments), metrics)
    chosen = default_metrics(task, y_score is not None) if metrics is None else metrics
    if task == "multiclass":
        given = {"threshold": threshold != 0.5, "pos_label": pos_label != 1, "neg_label": neg_label is not None}
        given["bins"] = bins is not None
        if any(given.values()):
            raise ArgumentError(f"{', '.join(k for k, v in given.items() if v)}: binary only, not for multiclass")
        return forward(evaluate_multiclass, arguments, metrics=chosen)
    if y_score is not None and not isinstance(y_score, str):
        raise ArgumentError(f"task={task!r} reads one score column, got y_score={list(y_score)!r}")
    if labels is not None:
        if len(labels) != 2:
            raise ArgumentError(f"task={task!r} takes two labels (negative, positive), got {list(labels)!r}")
        if pos_label == 1 and neg_label is None:
            neg_label, pos_label = labels
    if explicit:  # inferred, binary and regression metrics may mix in one call (one engine path)
        check_metrics_of_task(chosen, task)
    del arguments["task"], arguments["labels"]
    return _binary_or_regression(**arguments | {"metrics": chosen, "pos_label": pos_label, "neg_label": neg_label})


def _binary_or_regression(**arguments: Any) -> pl.DataFrame:
    """Binary and regression metrics per group: the validated ``arguments`` of
    :func:`evaluate_binary_or_regression` prepared (:func:`~framemetrics.columns.prepare_metrics`), then run."""
    request = {k: v for k, v in arguments.items() if k not in ("source", "engine", "con", "spark")}
    return run(Call.of(arguments), prepare_metrics(**request), plan_metrics)


def _binary_or_regression_signature() -> inspect.Signature:
    """:func:`evaluate`'s signature without ``task`` and ``labels``, ``y_score`` one column and ``by`` column names
    (as :func:`framemetrics.sql.query`, whose signature it is too, reads them)."""
    signature = inspect.signature(evaluate, eval_str=True)
    narrowed = {"y_score": str | None, "by": str | Sequence[str] | None}
    parameters = [
        p.replace(annotation=narrowed[name]) if name in narrowed else p
        for name, p in signature.parameters.items()
        if name not in ("task", "labels")
    ]
    return signature.replace(parameters=parameters)


_BINARY_OR_REGRESSION_DOC = """Binary and regression metrics per group: :func:`evaluate` once the task is known.

    The parameters are :func:`evaluate`'s but ``task`` and ``labels`` (one
    prediction column); its signature is also that of :func:`framemetrics.sql.query`.

    Examples
    --------
    >>> import polars as pl
    >>> frame = pl.DataFrame({"y": [1.0, 2.0], "f": [1.5, 2.0]})
    >>> evaluate_binary_or_regression(frame, y_true="y", y_pred="f", metrics=["max_error"]).rows()
    [(2, 0.5)]
    """

evaluate_binary_or_regression = validated("evaluate_binary_or_regression")(
    bound_function(
        "evaluate_binary_or_regression",
        _binary_or_regression_signature(),
        _binary_or_regression,
        _BINARY_OR_REGRESSION_DOC,
        module=__name__,
    )
)
