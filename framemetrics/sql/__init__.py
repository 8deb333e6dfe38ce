"""framemetrics as SQL: query text for DuckDB, and the path of the macro file.

``framemetrics.sql.query`` writes the SQL that :func:`framemetrics.evaluate`
runs on DuckDB, for a user to read, paste or schedule.
"""

from __future__ import annotations

import inspect
from collections.abc import Callable, Sequence
from typing import Any

from framemetrics.calibration import calibration_curve as fm_calibration_curve
from framemetrics.calibration import prepare_calibration
from framemetrics.columns import (
    as_tuple,
    check_output_names,
    prepare_metrics,
    sql_columns,
)
from framemetrics.compilers.sql.emit import to_sql
from framemetrics.compilers.sql.namespace import table_name
from framemetrics.compilers.sql.query import QueryInputs, curve_query, plan_query
from framemetrics.confusion import confusion_matrix as fm_confusion_matrix
from framemetrics.confusion import prepare_confusion
from framemetrics.core.errors import ArgumentError
from framemetrics.core.plan import MetricsArg
from framemetrics.curves import curve_table, prepare_curve
from framemetrics.engines.sql import calibration_statement
from framemetrics.evaluation import evaluate_binary_or_regression
from framemetrics.request import document, validate, validated
from framemetrics.sql.detection import coco_query, nms_query, voc_query
from framemetrics.sql.macros import macro_file
from framemetrics.sql.quoting import quote_identifier
from framemetrics.uncertainty import AUC_INTERVAL, paired_tree, prepare_paired
from framemetrics.uncertainty import compare_auc as fm_compare_auc
from framemetrics.uncertainty import roc_auc_ci as fm_roc_auc_ci
from framemetrics.wrapping import bound_function

__all__ = [
    "calibration_curve",
    "coco_query",
    "compare_auc",
    "confusion_matrix",
    "curve",
    "macro_file",
    "multiclass_query",
    "nms_query",
    "query",
    "quote_identifier",
    "roc_auc_ci",
    "voc_query",
]


_TABLE = inspect.Parameter("table", inspect.Parameter.KEYWORD_ONLY, annotation=str)
_CHECKS = inspect.Parameter("checks", inspect.Parameter.KEYWORD_ONLY, default=False, annotation=bool)
_DIALECT = inspect.Parameter("dialect", inspect.Parameter.KEYWORD_ONLY, default="duckdb", annotation=str)


def _text_version(
    function: Callable[..., Any],
    body: Callable[..., str],
    doc: str,
    *,
    name: str,
    first: str | None = None,
    extra: tuple[inspect.Parameter, ...] = (),
) -> Callable[..., str]:
    """The SQL text version of ``function``: its parameters, ``table`` in place of the source and no engine.

    ``first`` is made the leading positional parameter (``metrics``,
    ``curve``); ``extra`` parameters follow the others. Deriving the signature
    keeps the two from drifting apart: the same names, defaults and checks
    (:mod:`framemetrics.request`, entry point ``sql.<name>``).
    """
    signature = inspect.signature(function, eval_str=True)
    leading = [signature.parameters[first].replace(kind=inspect.Parameter.POSITIONAL_OR_KEYWORD)] if first else []
    dropped = {"source", "engine", "con", "spark", first}
    keywords = [p.replace(kind=p.KEYWORD_ONLY) for n, p in signature.parameters.items() if n not in dropped]
    text = signature.replace(parameters=[*leading, _TABLE, *keywords, *extra], return_annotation=str)

    def checked(**arguments: Any) -> str:
        return body(**validate(f"sql.{name}", arguments))

    return bound_function(name, text, checked, document(doc, f"sql.{name}"), module="framemetrics.sql")


_QUERY_DOC = """Plain DuckDB SQL computing ``metrics`` per group of ``table``.

    The statement needs no macros: the bodies of ``sql/framemetrics.sql``
    are inlined. Identifiers are quoted and parameters rendered as typed
    literals, so no user text is spliced into the SQL unquoted.

    Parameters
    ----------
    metrics : str, list of str or dict, optional
        As in :func:`framemetrics.evaluate` (the same default).
    table : str
        Table or view name, ``[catalog.][schema.]table`` (each part quoted).
    y_true, y_pred, y_score, sample_weight : str
        Column names, as in :func:`framemetrics.evaluate`.
    threshold : float, default 0.5
        Applied to ``y_score`` when ``y_pred`` is None.
    by : str or list of str, optional
        Group columns.
    pos_label, neg_label, zero_division
        As in :func:`framemetrics.evaluate`.
    bins : int, optional
        As in :func:`framemetrics.evaluate`: the approximate mode of the
        ranking metrics, with ``roc_auc_error_bound`` beside an AUC or Gini.
    nulls : {"error", "drop"}, default "error"
        "drop" adds a ``WHERE`` dropping rows with a null in a used column.
        With "error", a group with invalid rows gets NULL metrics.
    ci, ci_method
        As in :func:`framemetrics.evaluate`: ``<metric>_low`` and
        ``<metric>_high`` beside each metric.
    checks : bool, default False
        Also return the ``invalid_*`` row counts per group.

    Returns
    -------
    str
        One SQL statement returning the group columns, ``n_rows`` and one
        column per metric (each followed by its interval with ``ci``).

    Examples
    --------
    >>> import duckdb, framemetrics as fm
    >>> con = duckdb.connect()
    >>> _ = con.execute("CREATE TABLE preds AS SELECT * FROM (VALUES "
    ...                 "('fr', 1, 0.9), ('fr', 0, 0.2), ('de', 1, 0.3)) t(country, y, p)")
    >>> sql = fm.sql.query(["f1_score", "log_loss"], table="preds", y_true="y",
    ...                    y_score="p", by=["country"], threshold=0.5)
    >>> con.sql(sql).fetchall()
    [('de', 1, 0.0, 1.2039728043259361), ('fr', 2, 1.0, 0.164252033486018)]
    """


def _query(*, metrics: MetricsArg | None, table: str, checks: bool, dialect: str, **request: Any) -> str:
    prepared = prepare_metrics(metrics, **request)
    plan, roles, thresholded = prepared.resolved.plan, prepared.resolved.roles, prepared.resolved.thresholded
    outputs = ["n_rows", *plan.output_columns, *(c.name for c in plan.checks if checks)]
    check_output_names(prepared.by, outputs)
    columns = sql_columns(plan, roles, thresholded, prepared.threshold)
    inputs = QueryInputs(table_name(table), columns, prepared.by, prepared.drop)
    return to_sql(plan_query(plan, inputs, checks=checks), dialect, pretty=True)


query = _text_version(
    evaluate_binary_or_regression, _query, _QUERY_DOC, name="query", first="metrics", extra=(_CHECKS, _DIALECT)
)


_CONFUSION_MATRIX_DOC = """SQL computing the binary confusion matrix per group of ``table``: ``tn, fp, fn, tp``.

    The statement :func:`framemetrics.confusion_matrix` runs on DuckDB, in any
    dialect (DuckDB, Spark, PostgreSQL, ClickHouse, DataFusion, BigQuery,
    Snowflake). The cells are doubles (the Python function casts unweighted
    counts to integers); a group with invalid rows gets NULL cells.

    Parameters
    ----------
    table : str
        Table or view name, ``[catalog.][schema.]table`` (each part quoted).
    y_true, y_pred, y_score, threshold, sample_weight, by, pos_label, neg_label, normalize, nulls
        As in :func:`framemetrics.confusion_matrix`.
    dialect : str, default "duckdb"
        The SQL dialect.

    Returns
    -------
    str
        One statement returning the group columns, ``n_rows`` and ``tn, fp, fn, tp``.

    Examples
    --------
    >>> import duckdb, polars as pl, framemetrics as fm
    >>> preds = pl.DataFrame({"y": [0, 0, 1, 1, 1], "yhat": [0, 1, 1, 1, 0]})
    >>> duckdb.sql(fm.sql.confusion_matrix(table="preds", y_true="y", y_pred="yhat")).fetchall()
    [(5, 1.0, 1.0, 1.0, 2.0)]
    """


def _confusion_matrix(*, table: str, dialect: str, **request: Any) -> str:
    prepared = prepare_confusion(**request)
    plan, roles, thresholded = prepared.resolved.plan, prepared.resolved.roles, prepared.resolved.thresholded
    check_output_names(prepared.by, ["n_rows", *plan.output_columns])
    columns = sql_columns(plan, roles, thresholded, prepared.threshold)
    inputs = QueryInputs(table_name(table), columns, prepared.by, prepared.drop)
    return to_sql(plan_query(plan, inputs, checks=False), dialect, pretty=True)


confusion_matrix = _text_version(
    fm_confusion_matrix, _confusion_matrix, _CONFUSION_MATRIX_DOC, name="confusion_matrix", extra=(_DIALECT,)
)


_ROC_AUC_CI_DOC = """SQL computing the ROC AUC with DeLong's standard error and interval per group of ``table``.

    The statement :func:`framemetrics.roc_auc_ci` runs on DuckDB, in any
    dialect (DuckDB, Spark, PostgreSQL, ClickHouse, DataFusion, BigQuery,
    Snowflake).

    Parameters
    ----------
    table : str
        Table or view name, ``[catalog.][schema.]table`` (each part quoted).
    y_true, y_score, by, level, method, sample_weight, pos_label, neg_label, nulls
        As in :func:`framemetrics.roc_auc_ci`.
    dialect : str, default "duckdb"
        The SQL dialect.

    Returns
    -------
    str
        One statement returning the group columns, ``n_rows``,
        ``roc_auc_score``, ``se``, ``low`` and ``high``.

    Examples
    --------
    >>> import duckdb, polars as pl, framemetrics as fm
    >>> preds = pl.DataFrame({"y": [0, 0, 1, 1, 0, 1], "p": [0.1, 0.5, 0.4, 0.9, 0.3, 0.8]})
    >>> duckdb.sql(fm.sql.roc_auc_ci(table="preds", y_true="y", y_score="p")).pl().select(pl.all().round(6)).rows()
    [(6, 0.888889, 0.157135, 0.58091, 1.0)]
    """


def _roc_auc_ci(*, table: str, dialect: str, level: float, method: str, **request: Any) -> str:
    prepared = prepare_metrics(["roc_auc_score"], threshold=0.5, y_pred=None, zero_division=None,
                               ci=level, interval_outputs=AUC_INTERVAL, **request)  # fmt: skip
    plan, roles = prepared.resolved.plan, prepared.resolved.roles
    check_output_names(prepared.by, ["n_rows", *plan.output_columns])
    inputs = QueryInputs(table_name(table), sql_columns(plan, roles, False, 0.5), prepared.by, prepared.drop)
    return to_sql(plan_query(plan, inputs), dialect, pretty=True)


roc_auc_ci = _text_version(fm_roc_auc_ci, _roc_auc_ci, _ROC_AUC_CI_DOC, name="roc_auc_ci", extra=(_DIALECT,))

_COMPARE_AUC_DOC = """SQL of DeLong's paired test of two score columns' ROC AUCs per group of ``table``.

    The statement :func:`framemetrics.compare_auc` runs on DuckDB, in any
    dialect.

    Parameters
    ----------
    table : str
        Table or view name, ``[catalog.][schema.]table`` (each part quoted).
    y_true, y_score, by, level, sample_weight, pos_label, neg_label, nulls
        As in :func:`framemetrics.compare_auc`.
    dialect : str, default "duckdb"
        The SQL dialect.

    Returns
    -------
    str
        One statement returning the group columns, ``n_rows``, ``roc_auc_1``,
        ``roc_auc_2``, ``diff``, ``se``, ``z``, ``p_value``, ``low`` and ``high``.

    Examples
    --------
    >>> import duckdb, polars as pl, framemetrics as fm
    >>> preds = pl.DataFrame({"y": [0, 0, 1, 1, 0, 1], "new": [0.1, 0.5, 0.4, 0.9, 0.3, 0.8],
    ...                       "old": [0.2, 0.6, 0.3, 0.5, 0.4, 0.7]})
    >>> text = fm.sql.compare_auc(table="preds", y_true="y", y_score=["new", "old"])
    >>> duckdb.sql(text).pl().select(pl.col("diff", "p_value").round(6)).rows()
    [(0.222222, 0.157299)]
    """


def _compare_auc(*, table: str, dialect: str, **request: Any) -> str:
    paired = prepare_paired(**request)
    return to_sql(paired_tree(paired, table_name(table)), dialect, pretty=True)


compare_auc = _text_version(fm_compare_auc, _compare_auc, _COMPARE_AUC_DOC, name="compare_auc", extra=(_DIALECT,))


_CURVE_DOC = """Plain DuckDB SQL of a curve's points per group of ``table``.

    Parameters
    ----------
    curve : {"roc_curve", "precision_recall_curve", "det_curve"}
        Which curve (:func:`framemetrics.roc_curve` and its siblings).
    table : str
        Table or view name, ``[catalog.][schema.]table`` (each part quoted).
    y_true, y_score, sample_weight, by, pos_label, neg_label
        As in :func:`framemetrics.roc_curve`.
    drop_intermediate : bool, optional
        Default scikit-learn's: True for ROC, False for PR and DET.
    max_points : int, optional
        Thin each group's curve to at most this many points, faithful to a
        plot (see :func:`framemetrics.curve_table`).
    nulls : {"error", "drop"}, default "error"
        "drop" adds a ``WHERE`` dropping rows with a null in a used column.
        With "error", a group with invalid rows gets one row, NULL but for
        its group columns.

    Returns
    -------
    str
        One statement returning the group columns, ``threshold``, the two
        rates and ``tp, fp, tn, fn``, ordered by group and threshold.

    Examples
    --------
    >>> import duckdb, polars as pl, framemetrics as fm
    >>> preds = pl.DataFrame({"y": [0, 0, 1, 1], "p": [0.1, 0.4, 0.35, 0.8]})  # DuckDB reads the frame by its name
    >>> duckdb.sql(fm.sql.curve("roc_curve", table="preds", y_true="y", y_score="p")).fetchall()[:2]
    [(inf, 0.0, 0.0, 0.0, 0.0, 2.0, 2.0), (0.8, 0.0, 0.5, 1.0, 0.0, 2.0, 1.0)]
    """


def _curve(*, curve: str, table: str, dialect: str, labels: Any, **request: Any) -> str:
    if labels is not None or not isinstance(request["y_score"], str):
        raise ArgumentError("one-vs-rest (multiclass) curves run through fm.curve_table; their SQL text is not written")
    prepared = prepare_curve(curve, **request)
    columns = sql_columns(prepared.plan, prepared.roles, False, 0.5)
    inputs = QueryInputs(table_name(table), columns, prepared.by, prepared.drop_nulls)
    drop, max_points = prepared.drop_intermediate, prepared.max_points
    tree = curve_query(prepared.spec, prepared.plan, inputs, drop_intermediate=drop, max_points=max_points)
    return to_sql(tree, dialect, pretty=True)


curve = _text_version(curve_table, _curve, _CURVE_DOC, name="curve", first="curve", extra=(_DIALECT,))


_CALIBRATION_DOC = """Plain DuckDB SQL of the calibration curve's bins per group of ``table``.

    Parameters
    ----------
    table : str
        Table or view name, ``[catalog.][schema.]table`` (each part quoted).
    y_true, y_score, n_bins, sample_weight, by, pos_label, neg_label
        As in :func:`framemetrics.calibration_curve`.
    nulls : {"error", "drop"}, default "error"
        "drop" adds a ``WHERE`` dropping rows with a null in a used column.
        The SQL does not check the input: :func:`framemetrics.calibration_curve` does.

    Returns
    -------
    str
        One statement with the columns of :func:`framemetrics.calibration_curve`.

    Examples
    --------
    >>> import duckdb, polars as pl, framemetrics as fm
    >>> scored = pl.DataFrame({"label": [0, 0, 1, 1], "proba": [0.1, 0.4, 0.35, 0.8]})
    >>> text = fm.sql.calibration_curve(table="scored", y_true="label", y_score="proba", n_bins=2)
    >>> duckdb.sql(text).select("bin", "prob_true", "prob_pred").fetchall()
    [(0, 0.3333333333333333, 0.2833333333333333), (1, 1.0, 0.8)]
    """


def _calibration(*, table: str, n_bins: int, dialect: str, **request: Any) -> str:
    prepared = prepare_calibration(n_bins, **request)
    plan, roles = prepared.resolved.plan, prepared.resolved.roles
    inputs = QueryInputs(table_name(table), sql_columns(plan, roles, False, 0.5), prepared.by, prepared.drop)
    return to_sql(calibration_statement(plan, inputs, n_bins), dialect, pretty=True)


calibration_curve = _text_version(
    fm_calibration_curve, _calibration, _CALIBRATION_DOC, name="calibration_curve", extra=(_DIALECT,)
)


@validated("sql.multiclass_query")
def multiclass_query(
    metrics: MetricsArg,
    *,
    table: str,
    y_true: str,
    y_pred: str | None = None,
    y_score: Sequence[str] | None = None,
    labels: Sequence[Any] | None = None,
    sample_weight: str | None = None,
    by: str | Sequence[str] | None = None,
    zero_division: float | None = None,
    checks: bool = False,
    ci: float | None = None,
    ci_method: str | None = None,
    n_resamples: int = 1000,
    seed: int = 0,
    row_id: str | None = None,
    dialect: str = "duckdb",
) -> str:
    """Plain DuckDB SQL computing multiclass ``metrics`` per group of ``table``.

    The SQL that :func:`framemetrics.evaluate_multiclass` runs on DuckDB
    (parameters as there; ``y_score`` is one column per class, in the order of
    ``labels``). A group with an invalid row (a null label, a label outside
    ``labels``, a score outside [0, 1] or rows not summing to 1 where a metric
    needs probabilities, a bad weight) gets null metrics; ``checks=True`` adds
    the ``invalid_*`` counts. Labels are compared as stored: cast
    categorical columns to VARCHAR in ``table`` first. ``ci``, ``ci_method``,
    ``n_resamples``, ``seed`` and ``row_id`` add the bootstrap intervals, as
    :func:`framemetrics.evaluate_multiclass` does (on a warehouse ``row_id``
    is needed: a table has no row order).

    Returns
    -------
    str

    Examples
    --------
    >>> import duckdb, framemetrics as fm
    >>> con = duckdb.connect()
    >>> _ = con.execute("CREATE TABLE preds AS SELECT * FROM (VALUES ('a', 'b'), ('b', 'b')) v(y, yhat)")
    >>> con.sql(fm.sql.multiclass_query(["accuracy_score", "recall_macro"], table="preds",
    ...                                 y_true="y", y_pred="yhat")).fetchall()
    [(2, 0.5, 0.5)]
    """
    from framemetrics.compilers.sql.query import McQueryInputs, user_column
    from framemetrics.core.plan import make_plan, needs_predictions
    from framemetrics.engines.sql import bootstrap_mc_query

    scores = tuple(y_score or ())
    argmax_pred = y_pred is None and bool(scores) and labels is not None and needs_predictions(metrics)
    plan = make_plan(
        metrics,
        task="multiclass",
        labels=labels,
        n_scores=len(scores),
        has_pred=y_pred is not None,
        argmax_pred=argmax_pred,
        weighted=sample_weight is not None,
        float_labels=False,
        zero_division=zero_division,
        **({} if ci is None else {"ci": ci, "ci_method": ci_method, "n_resamples": n_resamples, "seed": seed,
                                  "row_id": row_id}),
    )  # fmt: skip
    outputs = ["n_rows", *plan.output_columns, *(c.name for c in plan.checks if checks)]
    check_output_names(as_tuple(by), outputs)
    inputs = McQueryInputs(
        source=table_name(table),
        y_true=user_column(y_true),
        y_pred=None if y_pred is None else user_column(y_pred),
        scores=tuple(user_column(s) for s in scores),
        sample_weight=None if sample_weight is None else user_column(sample_weight),
        by=as_tuple(by),
    )
    from framemetrics.engines.sql import class_query

    query = (
        bootstrap_mc_query(plan, inputs, checks=checks)
        if plan.bootstrapped
        else class_query(plan, inputs, checks=checks)
    )
    return to_sql(query, dialect, pretty=True)
