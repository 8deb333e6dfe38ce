"""framemetrics as SQL: query text for DuckDB, and the path of the macro file.

``framemetrics.sql.query`` writes the SQL that :func:`framemetrics.evaluate`
runs on DuckDB, for a user to read, paste or schedule.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from sqlglot import exp

from framemetrics.calibration import OUTPUTS as CALIBRATION_OUTPUTS
from framemetrics.calibration import resolve_calibration
from framemetrics.columns import (
    as_tuple,
    check_nulls,
    check_output_names,
    check_threshold,
    resolve,
    resolve_curve,
    sql_columns,
)
from framemetrics.compilers.sql.calibration import calibration_query
from framemetrics.compilers.sql.curves import curve_query
from framemetrics.compilers.sql.emit import to_sql
from framemetrics.compilers.sql.namespace import identifier
from framemetrics.compilers.sql.query import QueryInputs, plan_query
from framemetrics.core.curves import CURVES, curve_outputs
from framemetrics.core.plan import MetricsArg
from framemetrics.curves import check_max_points
from framemetrics.sql.macros import macro_file
from framemetrics.sql.quoting import quote_identifier

__all__ = ["calibration_curve", "curve", "macro_file", "multiclass_query", "query", "quote_identifier"]


def _table(name: str) -> exp.Table:
    """A table or view name as one quoted identifier."""
    return exp.Table(this=identifier(name))


def query(
    metrics: MetricsArg,
    *,
    table: str,
    y_true: str,
    y_pred: str | None = None,
    y_score: str | None = None,
    threshold: float = 0.5,
    sample_weight: str | None = None,
    by: str | Sequence[str] | None = None,
    pos_label: Any = 1,
    neg_label: Any = None,
    zero_division: float | None = None,
    bins: int | None = None,
    nulls: str = "error",
    checks: bool = False,
) -> str:
    """Plain DuckDB SQL computing ``metrics`` per group of ``table``.

    The statement needs no macros: the bodies of ``sql/framemetrics.sql``
    are inlined. Identifiers are quoted and parameters rendered as typed
    literals, so no user text is spliced into the SQL unquoted.

    Parameters
    ----------
    metrics : str, list of str or dict
        As in :func:`framemetrics.evaluate`.
    table : str
        Table or view name (quoted as one identifier).
    y_true, y_pred, y_score, sample_weight : str
        Column names, as in :func:`framemetrics.evaluate`.
    threshold : float, default 0.5
        Applied to ``y_score`` when ``y_pred`` is None.
    by : str or list of str, optional
        Group columns.
    pos_label, neg_label, zero_division
        As in :func:`framemetrics.evaluate`.
    bins : int, optional
        Approximate mode for the ranking metrics: scores are binned to
        ``floor(y_score * bins) / bins`` (bins of width ``1 / bins``), so the
        curve stage has at most ``bins`` rows per group and unit of score and
        costs about one ``GROUP BY``. Each metric is then exact for the binned
        score; ``roc_auc_error_bound`` is added beside a requested AUC or Gini:
        ``|AUC - exact AUC| <= sum_bins pw nw / (2 P N)`` (twice that for the
        Gini; no bound is given for a partial AUC, ``max_fpr < 1``).
    nulls : {"error", "drop"}, default "error"
        "drop" adds a ``WHERE`` dropping rows with a null in a used column.
        With "error", a group with invalid rows gets NULL metrics.
    checks : bool, default False
        Also return the ``invalid_*`` row counts per group.

    Returns
    -------
    str
        One SQL statement returning the group columns, ``n_rows`` and one
        column per metric.

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
    check_nulls(nulls)
    threshold = check_threshold(threshold)
    resolved = resolve(
        metrics,
        y_true=y_true,
        y_pred=y_pred,
        y_score=y_score,
        sample_weight=sample_weight,
        pos_label=pos_label,
        neg_label=neg_label,
        zero_division=zero_division,
        bins=bins,
    )
    plan, roles, thresholded = resolved.plan, resolved.roles, resolved.thresholded
    by = as_tuple(by)
    outputs = ["n_rows", *(c.name for c in plan.calls), *(c.name for c in plan.checks if checks)]
    check_output_names(by, outputs)
    inputs = QueryInputs(_table(table), sql_columns(plan, roles, thresholded, threshold), by, nulls == "drop")
    return to_sql(plan_query(plan, inputs, checks=checks), pretty=True)


def curve(
    name: str,
    *,
    table: str,
    y_true: str,
    y_score: str,
    sample_weight: str | None = None,
    by: str | Sequence[str] | None = None,
    pos_label: Any = 1,
    neg_label: Any = None,
    drop_intermediate: bool | None = None,
    max_points: int | None = None,
    nulls: str = "error",
) -> str:
    """Plain DuckDB SQL of a curve's points per group of ``table``.

    Parameters
    ----------
    name : {"roc_curve", "precision_recall_curve", "det_curve"}
        Which curve (:func:`framemetrics.roc_curve` and its siblings).
    table : str
        Table or view name (quoted as one identifier).
    y_true, y_score, sample_weight, by, pos_label, neg_label
        As in :func:`framemetrics.roc_curve`.
    drop_intermediate : bool, optional
        Default scikit-learn's: True for ROC, False for PR and DET.
    max_points : int, optional
        Thin each group's curve to at most this many points, faithful to a
        plot (see :func:`framemetrics.curve_table`).
    nulls : {"error", "drop"}, default "error"
        "drop" adds a ``WHERE`` dropping rows with a null in a used column.
        With "error", a group with invalid rows gets NULL rates.

    Returns
    -------
    str
        One statement returning the group columns, ``threshold``, the two
        rates and ``tp, fp, tn, fn``, ordered by group and threshold.

    Examples
    --------
    >>> import duckdb, framemetrics as fm
    >>> con = duckdb.connect()
    >>> _ = con.execute("CREATE TABLE preds AS SELECT * FROM (VALUES "
    ...                 "(0, 0.1), (0, 0.4), (1, 0.35), (1, 0.8)) t(y, p)")
    >>> sql = fm.sql.curve("roc_curve", table="preds", y_true="y", y_score="p")
    >>> con.sql(sql).fetchall()[:2]
    [(inf, 0.0, 0.0, 0.0, 0.0, 2.0, 2.0), (0.8, 0.0, 0.5, 1.0, 0.0, 2.0, 1.0)]
    """
    check_nulls(nulls)
    if drop_intermediate is not None and not isinstance(drop_intermediate, bool):
        raise ValueError(f"drop_intermediate must be True or False, got {drop_intermediate!r}")
    if name not in CURVES:
        raise ValueError(f"unknown curve {name!r}; one of {', '.join(CURVES)}")
    check_max_points(max_points)
    resolved = resolve_curve(
        y_true=y_true, y_score=y_score, sample_weight=sample_weight, pos_label=pos_label, neg_label=neg_label
    )
    check_output_names(as_tuple(by), curve_outputs(CURVES[name]))
    columns = sql_columns(resolved.plan, resolved.roles, False, 0.5)
    inputs = QueryInputs(_table(table), columns, as_tuple(by), nulls == "drop")
    tree = curve_query(CURVES[name], resolved.plan, inputs, drop_intermediate=drop_intermediate, max_points=max_points)
    return to_sql(tree, pretty=True)


def calibration_curve(
    *,
    table: str,
    y_true: str,
    y_score: str,
    n_bins: int = 10,
    sample_weight: str | None = None,
    by: str | Sequence[str] | None = None,
    pos_label: Any = 1,
    neg_label: Any = None,
    nulls: str = "error",
) -> str:
    """Plain DuckDB SQL of the calibration curve's bins per group of ``table``.

    Parameters
    ----------
    table : str
        Table or view name (quoted as one identifier).
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
    >>> import duckdb, framemetrics as fm
    >>> con = duckdb.connect()
    >>> _ = con.execute("CREATE TABLE preds AS SELECT * FROM (VALUES "
    ...                 "(0, 0.1), (0, 0.4), (1, 0.35), (1, 0.8)) t(y, p)")
    >>> sql = fm.sql.calibration_curve(table="preds", y_true="y", y_score="p", n_bins=2)
    >>> con.sql(sql).select("bin", "prob_true", "prob_pred").fetchall()
    [(0, 0.3333333333333333, 0.2833333333333333), (1, 1.0, 0.8)]
    """
    check_nulls(nulls)
    resolved = resolve_calibration(
        n_bins, y_true=y_true, y_score=y_score, sample_weight=sample_weight, pos_label=pos_label, neg_label=neg_label
    )
    check_output_names(as_tuple(by), CALIBRATION_OUTPUTS)
    columns = sql_columns(resolved.plan, resolved.roles, False, 0.5)
    inputs = QueryInputs(_table(table), columns, as_tuple(by), nulls == "drop")
    return to_sql(calibration_query(resolved.plan, inputs, n_bins), pretty=True)


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
) -> str:
    """Plain DuckDB SQL computing multiclass ``metrics`` per group of ``table``.

    The SQL that :func:`framemetrics.evaluate_multiclass` runs on DuckDB
    (parameters as there; ``y_score`` is one column per class, in the order of
    ``labels``). A group with an invalid row (a null label, a label outside
    ``labels``, a score outside [0, 1] or rows not summing to 1 where a metric
    needs probabilities, a bad weight) gets null metrics; ``checks=True`` adds
    the ``invalid_*`` counts. Labels are compared as stored: cast
    categorical columns to VARCHAR in ``table`` first.

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
    from framemetrics.compilers.sql.multiclass import McQueryInputs, mc_query
    from framemetrics.compilers.sql.query import user_column
    from framemetrics.core.plan import make_plan

    scores = tuple(y_score or ())
    plan = make_plan(
        metrics,
        task="multiclass",
        labels=labels,
        n_scores=len(scores),
        has_pred=y_pred is not None,
        weighted=sample_weight is not None,
        float_labels=False,
        zero_division=zero_division,
    )
    outputs = ["n_rows", *(c.name for c in plan.calls), *(c.name for c in plan.checks if checks)]
    check_output_names(as_tuple(by), outputs)
    inputs = McQueryInputs(
        source=_table(table),
        y_true=user_column(y_true),
        y_pred=None if y_pred is None else user_column(y_pred),
        scores=tuple(user_column(s) for s in scores),
        sample_weight=None if sample_weight is None else user_column(sample_weight),
        by=as_tuple(by),
    )
    return to_sql(mc_query(plan, inputs, checks=checks), pretty=True)
