"""Which source column plays each input role, and its SQL expression."""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any, Literal

import polars as pl
from sqlglot import exp

from framemetrics.compilers.polars import POLARS
from framemetrics.compilers.sql import SQL
from framemetrics.compilers.sql.query import user_column
from framemetrics.core.checks import invalid_input, rows
from framemetrics.core.defaults import default_metrics
from framemetrics.core.errors import ArgumentError, missing_column
from framemetrics.core.namespace import Namespace
from framemetrics.core.plan import MetricsArg, Plan, make_plan, requested_metrics
from framemetrics.core.registry import get_metric
from framemetrics.sources import open_polars
from framemetrics.spark import is_spark_frame

__all__ = [
    "ENGINES",
    "Engine",
    "Prepared",
    "Resolved",
    "as_tuple",
    "check_engine",
    "check_output_names",
    "check_row_id",
    "check_threshold",
    "input_columns",
    "polars_columns",
    "prepare_metrics",
    "resolve",
    "resolve_curve",
    "resolve_roles",
    "sql_columns",
]


By = str | pl.Expr | Sequence[str | pl.Expr] | Mapping[str, str | pl.Expr] | None


def by_expressions(source: Any, by: By, engine: str, con: Any = None) -> tuple[Any, str | list[str] | None]:
    """The source and the group column names, once Polars expressions in ``by`` are columns of the source.

    ``by`` may hold expressions (named by their output name) or map names to
    expressions: ``{"month": pl.col("date").dt.truncate("1mo")}``. They are
    added to the source read as a Polars LazyFrame, so they need
    ``engine="polars"`` (SQL engines take column names: derive the column in
    the table or view instead).

    Examples
    --------
    >>> frame = pl.DataFrame({"day": [1, 15, 40], "y": [0, 1, 1]})
    >>> source, by = by_expressions(frame, {"week": pl.col("day") // 7}, "polars")
    >>> by, source.collect()["week"].to_list()
    (['week'], [0, 2, 5])
    >>> by_expressions(frame, "day", "duckdb")[1]
    'day'
    """
    if by is None or isinstance(by, str):
        return source, by
    if isinstance(by, pl.Expr):
        by = [by]
    items = list(by.items()) if isinstance(by, Mapping) else [(_output_name(b), b) for b in by]
    derived = {name: value for name, value in items if isinstance(value, pl.Expr) or value != name}
    if not derived:
        return source, [name for name, _ in items]
    if engine != "polars":
        raise ArgumentError(f"by= expressions ({', '.join(map(repr, derived))}) need engine='polars'")
    frame = open_polars(source, con)
    columns = [(pl.col(v) if isinstance(v, str) else v).alias(name) for name, v in derived.items()]
    return frame.with_columns(columns), [name for name, _ in items]


def _output_name(value: str | pl.Expr) -> str:
    if isinstance(value, str):
        return value
    try:
        return value.meta.output_name()
    except pl.exceptions.ComputeError:
        raise ArgumentError(f"name the by= expression {value}: by={{'name': expression}}") from None


def as_tuple(by: str | Sequence[str] | None) -> tuple[str, ...]:
    """``by`` as a tuple of column names; raise on a name given twice or not a valid name.

    Examples
    --------
    >>> as_tuple("g"), as_tuple(None), as_tuple(["a", "b"])
    (('g',), (), ('a', 'b'))
    >>> as_tuple(["h", "h"])
    Traceback (most recent call last):
    ...
    framemetrics.core.errors.ArgumentError: by names column 'h' twice
    """
    if by is None:
        return ()
    names = (by,) if isinstance(by, str) else tuple(by)
    for i, name in enumerate(names):
        check_column_name(name, "by")
        if name in names[:i]:
            raise ArgumentError(f"by names column {name!r} twice")
    return names


def check_column_name(name: object, role: str) -> None:
    """Raise unless ``name`` is a column name every engine reads: a non-empty string without NUL.

    Examples
    --------
    >>> check_column_name("", "y_true")
    Traceback (most recent call last):
    ...
    ValueError: column '' (y_true): a column name must be a non-empty string without NUL characters
    """
    if not isinstance(name, str):
        raise TypeError(f"{role} must be a column name (str), got {type(name).__name__}")
    if not name or "\0" in name:
        raise ValueError(f"column {name!r} ({role}): a column name must be a non-empty string without NUL characters")


ENGINES = ("polars", "duckdb", "spark")
Engine = Literal["polars", "duckdb", "spark"]


def check_engine(engine: str | None, source: object = None) -> str:
    """The engine that computes on ``source``: ``engine``, or by default Polars, Spark for a Spark DataFrame.

    A Spark DataFrame is evaluated on Spark only: its rows are never
    collected to the driver for another engine. ``engine`` is one of
    :data:`ENGINES` (:mod:`framemetrics.request` validated it).

    Examples
    --------
    >>> check_engine(None), check_engine("duckdb")
    ('polars', 'duckdb')
    """
    spark_frame = is_spark_frame(source)
    if engine is None:
        return "spark" if spark_frame else "polars"
    if spark_frame and engine != "spark":
        raise ValueError(
            f"a Spark DataFrame is evaluated on Spark (engine='spark', or no engine), not {engine!r}: "
            "framemetrics does not collect its rows"
        )
    return engine


def check_output_names(by: tuple[str, ...], outputs: Sequence[str]) -> None:
    """Raise if a group column is named like an output column (the result would hold two of that name).

    Examples
    --------
    >>> check_output_names(("n_rows",), ["n_rows", "f1_score"])
    Traceback (most recent call last):
    ...
    ValueError: group column 'n_rows' clashes with an output column of the same name
    """
    for name in outputs:
        if name in by:
            raise ValueError(f"group column {name!r} clashes with an output column of the same name")


def resolve_roles(plan: Plan, columns: dict[str, str | None], thresholded: bool) -> dict[str, str]:
    """The source column of each role the plan reads (y_pred may come from y_score)."""
    found = {}
    for role in plan.roles:
        source = "y_score" if role == "y_pred" and thresholded else role
        if columns[source] is None:
            users = [c.name for c in plan.calls if any(k.role == role for k in c.checks)]
            raise ArgumentError(f"{', '.join(users)} need{'s' if len(users) == 1 else ''} {source}=")
        check_column_name(columns[source], source)
        found[role] = columns[source]
    return found


@dataclass(frozen=True)
class Resolved:
    """A request resolved: the plan, each role's source column, and whether
    classification labels come from ``y_score >= threshold``."""

    plan: Plan
    roles: dict[str, str]
    thresholded: bool


def resolve(
    metrics: MetricsArg,
    *,
    y_true: str,
    y_pred: str | None,
    y_score: str | None,
    sample_weight: str | None,
    pos_label: Any,
    neg_label: Any,
    zero_division: float | None,
    bins: int | None = None,
    **intervals: Any,
) -> Resolved:
    """Resolve the arguments shared by ``evaluate`` and ``sql.query``.

    ``intervals`` are the interval arguments of :func:`~framemetrics.core.plan.make_plan`
    (``ci``, ``ci_method``, ``interval_outputs``, ``n_resamples``, ``seed``, ``row_id``).

    With ``bins``, a requested ROC AUC (without ``max_fpr``) or Gini gets
    ``roc_auc_error_bound`` beside it: the bound on the AUC's binning error
    (twice it for the Gini). ``bins`` without a ranking metric is an error.

    Examples
    --------
    >>> r = resolve(["f1_score"], y_true="y", y_pred=None, y_score="p", sample_weight=None,
    ...             pos_label=1, neg_label=None, zero_division=None)
    >>> r.thresholded, r.roles
    (True, {'y_true': 'y', 'y_pred': 'p', 'y_score': 'p'})
    """
    requested = requested_metrics(metrics)
    names = [name for name, _ in requested]
    if bins is not None:
        if not any(get_metric(name).family == "ranking" for name in names):
            raise ArgumentError("bins= bins the score of ranking metrics, and none is requested")
        full_auc = any(n == "roc_auc_score" and p.get("max_fpr") in (None, 1) for n, p in requested)
        if (full_auc or "gini_score" in names) and "roc_auc_error_bound" not in names:
            requested.append(("roc_auc_error_bound", {}))
    metrics = [{name: params} for name, params in requested]
    families = {get_metric(name).family for name, _ in requested}
    thresholded = y_pred is None and y_score is not None and "regression" not in families
    plan = make_plan(
        metrics,
        weighted=sample_weight is not None,
        pos_label=pos_label,
        neg_label=neg_label,
        zero_division=zero_division,
        thresholded=thresholded,
        bins=bins,
        **intervals,
    )
    columns = {"y_true": y_true, "y_pred": y_pred, "y_score": y_score, "sample_weight": sample_weight}
    return Resolved(plan, resolve_roles(plan, columns, thresholded), thresholded)


@dataclass(frozen=True)
class Prepared:
    """A request checked and resolved, shared by an entry point and its ``fm.sql`` version.

    ``resolved`` holds the plan and roles, ``by`` the group columns, ``drop``
    whether rows with nulls are dropped and ``threshold`` the validated
    threshold of ``y_score`` (0.5 where no metric thresholds it).
    """

    resolved: Resolved
    by: tuple[str, ...]
    drop: bool
    threshold: float = 0.5


def prepare_metrics(
    metrics: MetricsArg | None, *, threshold: float, by: str | Sequence[str] | None, nulls: str, **columns: Any
) -> Prepared:
    """Resolve ``metrics`` (default: the binary task's, as ``evaluate``), the arguments validated
    (:mod:`framemetrics.request`).

    ``columns`` are the arguments of :func:`resolve` after ``metrics``.

    Examples
    --------
    >>> columns = dict(y_true="y", y_pred=None, y_score="p", sample_weight=None, pos_label=1, neg_label=None,
    ...                zero_division=None)
    >>> prepare_metrics(None, threshold=0.5, by="seg", nulls="drop", **columns).by
    ('seg',)
    """
    if metrics is None:
        metrics = default_metrics("binary", scored=columns.get("y_score") is not None)
    resolved = resolve(metrics, **columns)
    check_threshold(threshold, resolved)
    return Prepared(resolved, as_tuple(by), nulls == "drop", threshold)


def check_threshold(threshold: float, resolved: Resolved) -> None:
    """Raise unless ``threshold`` is in [0, 1] where label metrics read ``y_score >= threshold``.

    ``y_score`` is then the probability of ``pos_label`` (as for
    ``log_loss``): a threshold of 50 would predict no positive at all. A
    call whose metrics do not threshold the score (ranking metrics on raw
    scores, a ``y_pred`` column) takes any finite threshold, unused.

    Examples
    --------
    >>> f1 = resolve(["f1_score"], y_true="y", y_pred=None, y_score="p", sample_weight=None, pos_label=1,
    ...              neg_label=None, zero_division=None)
    >>> check_threshold(50.0, f1)
    Traceback (most recent call last):
    ...
    framemetrics.core.errors.ArgumentError: threshold must be in [0, 1] (y_score >= threshold predicts pos_label, \
y_score the probability of pos_label), got 50.0; for other scores pass y_pred= (a column of predicted labels)
    """
    if resolved.thresholded and "y_pred" in resolved.roles and not 0 <= threshold <= 1:
        raise ArgumentError(
            "threshold must be in [0, 1] (y_score >= threshold predicts pos_label, y_score the probability of "
            f"pos_label), got {threshold!r}; for other scores pass y_pred= (a column of predicted labels)"
        )


def resolve_curve(
    *,
    y_true: str,
    y_score: str,
    sample_weight: str | None,
    pos_label: Any,
    neg_label: Any,
    metric: str = "roc_auc_score",
) -> Resolved:
    """Resolve the arguments of a curve: the checks and labels of a score ``metric`` (a ranking one by default).

    Examples
    --------
    >>> resolve_curve(y_true="y", y_score="s", sample_weight=None, pos_label=1, neg_label=None).roles
    {'y_true': 'y', 'y_score': 's'}
    """
    return resolve(
        [metric],
        y_true=y_true,
        y_pred=None,
        y_score=y_score,
        sample_weight=sample_weight,
        pos_label=pos_label,
        neg_label=neg_label,
        zero_division=None,
    )


def _numeric_roles(plan: Plan) -> set[str]:
    return {"sample_weight", "y_score"} | ({"y_true", "y_pred"} if "regression" in plan.families else set())


def input_columns(
    ns: Namespace, column: Callable[[str], Any], plan: Plan, roles: dict[str, str], thresholded: bool, threshold: float
) -> dict[str, Any]:
    """The expression of each input role in namespace ``ns``: the columns, numbers cast to double.

    A thresholded prediction is ``pos_label`` where ``y_score >= threshold``,
    else ``neg_label`` (the score is the probability of ``pos_label``).
    ``column`` makes the expression of a source column.
    """
    exprs = {role: column(name) for role, name in roles.items()}
    for role in _numeric_roles(plan) & set(exprs):
        exprs[role] = ns.to_float(exprs[role])
    if thresholded and "y_pred" in roles:
        score = ns.to_float(column(roles["y_pred"]))
        chosen = ns.when(score >= ns.lit(float(threshold)), ns.lit(plan.pos_label))
        exprs["y_pred"] = chosen.otherwise(ns.lit(plan.neg_label))
    return exprs


def sql_columns(plan: Plan, roles: dict[str, str], thresholded: bool, threshold: float) -> dict[str, exp.Expression]:
    """SQL tree of each input role (:func:`input_columns` over :func:`user_column`).

    Examples
    --------
    >>> from framemetrics.compilers.sql.emit import to_sql
    >>> from framemetrics.core.plan import make_plan
    >>> plan = make_plan("f1_score", weighted=False, pos_label="Yes", neg_label="No", thresholded=True)
    >>> print(to_sql(sql_columns(plan, {"y_true": "y", "y_pred": "p", "y_score": "p"}, True, 0.5)["y_pred"]))
    CASE WHEN CAST(COLUMNS(LAMBDA fm_name : fm_name = 'p') AS DOUBLE) >= CAST(0.5 AS DOUBLE) THEN 'Yes' ELSE 'No' END
    """
    return input_columns(SQL, user_column, plan, roles, thresholded, threshold)


def polars_columns(plan: Plan, roles: dict[str, str], thresholded: bool, threshold: float) -> dict[str, pl.Expr]:
    """Polars expression of each input role (:func:`input_columns` over ``pl.col``).

    Examples
    --------
    >>> from framemetrics.core.plan import make_plan
    >>> plan = make_plan("f1_score", weighted=False, pos_label=0, thresholded=True)
    >>> df = pl.DataFrame({"p": [0.2, 0.9]})
    >>> df.select(polars_columns(plan, {"y_pred": "p"}, True, 0.5)["y_pred"]).rows()
    [(1,), (0,)]
    """
    return input_columns(POLARS, pl.col, plan, roles, thresholded, threshold)


def check_row_id(plan: Plan, kinds: dict[str, str], null_rows: Callable[[list[str]], int]) -> None:
    """Raise if the bootstrap's ``row_id`` column is missing, not numeric or has nulls (a row without a key
    would silently leave every replicate); ``null_rows`` counts the source's rows with a null in columns."""
    row_id = plan.resampling.row_id if plan.resampling else None
    if row_id is None:
        return
    if row_id not in kinds:
        raise missing_column(row_id, "row_id", kinds)
    if kinds[row_id] != "numeric":
        raise ValueError(f"column {row_id!r} (row_id) must hold integers, got {kinds[row_id]} values")
    if count := null_rows([row_id]):
        raise invalid_input([f"column {row_id!r} (row_id): {rows(count)} null"], 0)
