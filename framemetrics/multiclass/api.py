"""Multiclass evaluation per group on Polars or DuckDB: metrics, class report, confusion matrix."""

from __future__ import annotations

from collections.abc import Iterator, Mapping, Sequence
from contextlib import contextmanager
from dataclasses import dataclass
from typing import Any, Literal

import duckdb
import polars as pl
from sqlglot import exp

from framemetrics.columns import (
    By,
    Engine,
    as_tuple,
    check_column_name,
    check_output_names,
    check_row_id,
)
from framemetrics.compilers.polars.query import row_key
from framemetrics.compilers.sql.query import McQueryInputs, user_column
from framemetrics.core.checks import Check, rows
from framemetrics.core.checks import raise_for_invalid as raise_invalid_rows
from framemetrics.core.errors import ArgumentError, missing_column
from framemetrics.core.multiclass import AVERAGE_ROWS, CLASS_TABLE
from framemetrics.core.plan import MetricsArg, Plan, make_plan, needs_predictions
from framemetrics.core.resampling import ROW_KEY
from framemetrics.engines import Backend
from framemetrics.request import Call, validated
from framemetrics.request.call import per_group
from framemetrics.sources import Source

__all__ = ["classification_report", "evaluate_multiclass", "multiclass_confusion_matrix"]


@dataclass(frozen=True)
class _Request:
    """The resolved inputs of one call: plan, columns and where to run."""

    plan: Plan
    y_true: str
    y_pred: str | None
    scores: tuple[str, ...]
    score_list: str | None
    sample_weight: str | None
    by: tuple[str, ...]
    dtypes: dict[str, pl.DataType]
    drop_nulls: bool
    labels_named: bool = False  # the labels are the score columns' names (no labels= given)

    def polars_input(self, frame: pl.LazyFrame) -> pl.LazyFrame:
        """The rows of ``frame`` as the class stage reads them: keys ``fm_g<i>``, ``y_true``, ``y_pred``,
        ``n_listed``, ``sample_weight``, the scores ``s_<j>`` (and the bootstrap's row key)."""
        columns = {"y_true": _label(pl.col(self.y_true), self.dtypes[self.y_true])}
        if self.y_pred is not None:
            columns["y_pred"] = _label(pl.col(self.y_pred), self.dtypes[self.y_pred])
            true, pred = self.dtypes[self.y_true], self.dtypes[self.y_pred]
            if true != pred and true.is_numeric() and pred.is_numeric():
                # One class type for both columns (DuckDB compares across numeric types).
                common = pl.Int64 if true.is_integer() and pred.is_integer() else pl.Float64
                if common == pl.Int64 and pl.UInt64 in (true, pred):
                    common = pl.Int128  # UInt64 labels of 2^63 and more against signed ones, as DuckDB's HUGEINT
                columns = {role: expr.cast(common) for role, expr in columns.items()}
        if self.sample_weight is not None:
            columns["sample_weight"] = pl.col(self.sample_weight)
        if self.score_list is not None:
            listed = pl.col(self.score_list)
            length = listed.arr.len() if isinstance(self.dtypes[self.score_list], pl.Array) else listed.list.len()
            columns["n_listed"] = length.cast(pl.Int64)
        keys = [pl.col(c).alias(f"fm_g{i}") for i, c in enumerate(self.by)]
        selected = [*keys, *(expr.alias(role) for role, expr in columns.items() if role != "sample_weight")]
        selected.append(columns.get("sample_weight", pl.lit(1.0)).cast(pl.Float64).alias("sample_weight"))
        selected += [s.cast(pl.Float64).alias(f"s_{j}") for j, s in enumerate(self._polars_scores())]
        if self.plan.bootstrapped:  # the row's key, before any row is dropped: its position as read, or row_id
            selected.append(row_key(self.plan).alias(ROW_KEY))
        return frame.select(selected)

    def _polars_scores(self) -> list[pl.Expr]:
        if self.score_list is None:
            return [pl.col(s) for s in self.scores]
        listed = pl.col(self.score_list)
        get = listed.arr.get if isinstance(self.dtypes[self.score_list], pl.Array) else listed.list.get
        return [get(j, null_on_oob=True) for j in range(self.plan.n_scores)]

    def sql_inputs(self, source: exp.Expression) -> McQueryInputs:
        def label(column: str) -> exp.Expression:
            selected = user_column(column)
            return exp.cast(selected, "VARCHAR") if _is_text(self.dtypes[column]) else selected

        if self.score_list is not None:
            scores = tuple(
                exp.Bracket(this=user_column(self.score_list), expressions=[exp.Literal.number(j)], offset=0)
                for j in range(self.plan.n_scores)
            )
            n_listed = exp.ArraySize(this=user_column(self.score_list))
        else:
            scores, n_listed = tuple(user_column(s) for s in self.scores), None
        return McQueryInputs(
            source=source,
            y_true=label(self.y_true),
            y_pred=None if self.y_pred is None else label(self.y_pred),
            scores=scores,
            sample_weight=None if self.sample_weight is None else user_column(self.sample_weight),
            by=self.by,
            drop_nulls=self.drop_nulls,
            n_listed=n_listed,
        )


def _is_text(dtype: pl.DataType) -> bool:
    return dtype in (pl.String, pl.Categorical) or isinstance(dtype, pl.Enum)


def _label(expr: pl.Expr, dtype: pl.DataType) -> pl.Expr:
    return expr.cast(pl.String) if _is_text(dtype) else expr


def _kind(dtype: pl.DataType) -> str:
    if _is_text(dtype):
        return "string"
    if dtype == pl.Boolean:
        return "bool"
    return "numeric" if dtype.is_numeric() else "other"


def _resolve(
    dtypes: dict[str, pl.DataType],
    metrics: MetricsArg,
    call: Call,
    outputs: Sequence[str],
    zero_division: float | None,
    intervals: Mapping[str, Any] | None,
) -> _Request:
    """The request of ``call`` for ``metrics``, its columns checked against the source's ``dtypes``."""
    y_true, y_pred, y_score, labels, by = call.y_true, call.y_pred, call.y_score, call.labels, call.by
    sample_weight = call.sample_weight
    score_list = y_score if isinstance(y_score, str) else None
    scores = () if y_score is None or score_list else tuple(y_score)
    roles = [(y_true, "y_true"), (y_pred, "y_pred"), (score_list, "y_score"), (sample_weight, "sample_weight")]
    roles += [(s, "y_score") for s in scores] + [(b, "by") for b in by]
    for column, role in roles:
        if column is None:
            continue
        check_column_name(column, role)
        if column not in dtypes:
            raise missing_column(column, role, dtypes)
    kinds = {_kind(dtypes[c]) for c in (y_true, y_pred) if c is not None}
    if len(kinds) > 1 or "other" in kinds:
        raise ValueError(f"y_true and y_pred must hold labels of one type (numbers, strings or booleans), got {kinds}")
    if labels is not None:
        text = "string" in kinds
        if any(isinstance(label, str) != text for label in labels):
            raise ValueError(f"labels {list(labels)!r} do not match the type of column {y_true!r}")
    for column, role in [(sample_weight, "sample_weight"), *((s, "y_score") for s in scores)]:
        if column is not None and not dtypes[column].is_numeric():
            raise ValueError(f"column {column!r} ({role}) must be numeric, got {dtypes[column]}")
    n_scores = len(scores)
    labels_named = bool(scores) and labels is None
    if labels_named:
        labels = _labels_named_by(scores, dtypes[y_true])
    if score_list is not None:
        dtype = dtypes[score_list]
        if dtype.is_numeric():  # one score per row: a binary model's, asked for multiclass metrics
            raise ValueError(
                f"column {score_list!r} (y_score) holds one score per row ({dtype}), and a multiclass evaluation "
                "needs one score column per class (y_score=[...]) or a list column; for a binary evaluation ask "
                "for binary metrics (f1_score, roc_auc_score...; framemetrics metrics --task binary lists them)"
            )
        if not isinstance(dtype, (pl.List, pl.Array)) or not dtype.inner.is_numeric():
            raise ValueError(f"column {score_list!r} (y_score) must be a list or array of numbers, got {dtype}")
        if labels is None:
            raise ValueError("a list column of scores needs labels=: the class of each position")
        n_scores = len(labels)
    argmax_pred = y_pred is None and n_scores > 0 and needs_predictions(metrics)
    plan = make_plan(
        metrics,
        task="multiclass",
        labels=labels,
        n_scores=n_scores,
        has_pred=y_pred is not None,
        argmax_pred=argmax_pred,
        weighted=sample_weight is not None,
        float_labels=dtypes[y_true].is_float() or (y_pred is not None and dtypes[y_pred].is_float()),
        listed_scores=score_list is not None,
        zero_division=zero_division,
        **(intervals or {}),
    )
    check_output_names(by, ["n_rows", *outputs, *plan.output_columns, *(c.name for c in plan.checks)])
    row_id = plan.resampling.row_id if plan.resampling else None
    if row_id is not None:
        check_column_name(row_id, "row_id")
    return _Request(plan, y_true, y_pred, scores, score_list, sample_weight, by, dtypes, call.drop, labels_named)


def _labels_named_by(scores: Sequence[str], true_dtype: pl.DataType) -> tuple[Any, ...]:
    """The classes of score columns named after them (text labels; integers for integer labels), else raise."""
    if _is_text(true_dtype):
        return tuple(scores)
    if true_dtype.is_integer() and all(s.lstrip("-").isdigit() for s in scores):
        return tuple(int(s) for s in scores)
    raise ArgumentError(
        f"scores {list(scores)!r} need labels=: the class of each score column, in order "
        "(without it, the columns must be named after the classes)"
    )


@contextmanager
def _opened(
    call: Call,
    metrics: MetricsArg,
    *,
    outputs: Sequence[str] = (),
    zero_division: float | None = None,
    intervals: Mapping[str, Any] | None = None,
) -> Iterator[tuple[Backend, _Request]]:
    """The call's source opened on its engine and its request for ``metrics`` resolved against the source's types
    (``outputs``: the columns named beside the plan's; ``intervals``: :func:`make_plan`'s interval arguments)."""
    row_id = (intervals or {}).get("row_id")
    with call.open() as opened:
        dtypes = opened.dtypes([*call.used(), *([row_id] if row_id is not None else [])])
        request = _resolve(dtypes, metrics, call, outputs, zero_division, intervals)
        check_row_id(request.plan, {name: _kind(dtype) for name, dtype in dtypes.items()}, opened.null_rows)
        yield opened, request


def _raise_for_invalid(result: pl.DataFrame, request: _Request, nulls: str, opened: Backend, rows_used: bool) -> None:
    """Raise naming each column with invalid rows (the check counts per group of ``result``), and if
    ``rows_used``, when no row is left (:func:`framemetrics.core.checks.raise_for_invalid`)."""

    def describe(check: Check, count: int) -> tuple[str, str | None]:
        if request.labels_named and check.domain == "class":
            raise ArgumentError(
                f"scores {list(request.scores)!r} need labels=: the class of each score column, in order "
                f"(in column {request.y_true!r}, {rows(count)} null or not one of the columns' names)"
            )
        if check.domain == "simplex":
            shown = ", ".join(repr(s) for s in list(request.scores) or [request.score_list])
            return f"columns {shown} (y_score)", None
        columns = {"y_true": request.y_true, "y_pred": request.y_pred, "sample_weight": request.sample_weight}
        column = shown = columns.get(check.role, request.score_list)
        if check.role == "y_score" and check.index is not None:
            column = request.scores[check.index] if request.scores else request.score_list
            shown = column if request.scores else f"{request.score_list}[{check.index}]"
        return f"column {shown!r} ({check.role})", column

    counts = {check: int(result[check.name].fill_null(0).sum()) for check in request.plan.checks}
    n_rows = int(result["n_rows"].sum()) if rows_used else None
    raise_invalid_rows(counts, describe, opened.null_rows, nulls, n_rows)


@validated("evaluate_multiclass")
def evaluate_multiclass(
    source: Source,
    *,
    y_true: str,
    y_pred: str | None = None,
    y_score: str | Sequence[str] | None = None,
    labels: Sequence[Any] | None = None,
    sample_weight: str | None = None,
    by: By = None,
    metrics: MetricsArg = ("accuracy_score", "f1_macro", "f1_weighted"),
    zero_division: float | None = None,
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
    """Multiclass metrics per group, inside Polars, DuckDB or Spark.

    Parameters
    ----------
    .. parameters:: source
    y_true : str
        Column of true classes (numbers, strings, categoricals or booleans).
    y_pred : str, optional
        Column of predicted classes, of the same type; needed by the
        metrics of hard predictions.
    y_score : list of str, or str, optional
        One score column per class, in the order of ``labels``, or one
        list/array column holding them; needed by ``log_loss``,
        ``brier_score_loss``, ``top_k_accuracy_score`` and the ranking metrics.
    labels : list, optional
        The classes, in order: the class of each score column, the class
        positions of weighted kappa, and the classes of every group (a class
        absent from a group still counts, e.g. in macro averages). A label
        outside the list is invalid input. Default: per group, the classes
        present in ``y_true`` or ``y_pred``, sorted (as scikit-learn on that
        group's rows). Required with ``y_score``.
    .. parameters:: sample_weight, by
    metrics : list of str or dict, default accuracy, macro and weighted F1
        Names of :data:`framemetrics.multiclass.MULTICLASS` (scikit-learn's
        scorer names: ``f1_macro``, ``precision_weighted``, ``roc_auc_ovo``...),
        or names mapped to parameters: ``{"fbeta_weighted": {"beta": 2},
        "cohen_kappa_score": {"weights": "quadratic"}}``. The scikit-learn
        spelling ``{"f1_score": {"average": "macro"}}`` means ``f1_macro``.
    zero_division : {None, 0, 1}, default None
        Value of a per-class ratio whose denominator is 0, for the metrics
        that take it; None leaves the class out of macro and weighted
        averages (scikit-learn's ``zero_division=np.nan``).
    .. parameters:: nulls
    ci : float, optional
        A confidence level (0.95): each metric ``m`` gets ``m_low`` and
        ``m_high`` beside it, the Poisson bootstrap's percentile interval
        (README, "Uncertainty"). Every metric: those of hard predictions, log
        loss, Brier and top-k accuracy through the confusion cells, the
        one-vs-rest, one-vs-one and micro curves on the rows laid out once per
        replicate (``n_resamples + 1`` times the rows).
    ci_method : {"bootstrap"}, optional
        The only method of multiclass intervals.
    .. parameters:: n_resamples, engine, con, spark

    Returns
    -------
    polars.DataFrame
        One row per group (sorted, nulls last): the group columns,
        ``n_rows`` and one Float64 column per metric, null where undefined.

    Raises
    ------
    ValueError
        Unknown metric or column, labels of the wrong type, invalid rows
        (null label, label not in ``labels``, score outside [0, 1] or rows
        not summing to 1 where a metric needs probabilities, invalid
        weight): the message names the column and the row count.

    See Also
    --------
    classification_report : per-class values and their averages.
    framemetrics.sql.multiclass_query : the same as SQL text.

    Examples
    --------
    >>> import polars as pl, framemetrics as fm
    >>> df = pl.DataFrame({"y": ["cat", "dog", "dog", "pig"], "yhat": ["cat", "dog", "cat", "dog"]})
    >>> fm.evaluate_multiclass(df, y_true="y", y_pred="yhat", metrics=["accuracy_score", "recall_macro"],
    ...                        engine="duckdb").rows()
    [(4, 0.5, 0.5)]
    """
    call = Call.of(locals())
    intervals = None if ci is None else {"ci": ci, "ci_method": ci_method, "n_resamples": n_resamples, "seed": seed,
                                         "row_id": row_id}  # fmt: skip
    with _opened(call, metrics, zero_division=zero_division, intervals=intervals) as (opened, request):
        result = opened.multiclass(request)
        _raise_for_invalid(result, request, nulls, opened, rows_used=True)
    return per_group(result, request.plan, request.by)


_REPORT_METRICS = [f"{m}_{a}" for a in ("micro", "macro", "weighted") for m in ("precision", "recall", "f1")]
_RANKING_METRICS = ["roc_auc_ovr", "roc_auc_ovr_weighted", "roc_auc_ovr_micro"]
_RANKING_METRICS += [f"average_precision_{a}" for a in ("macro", "weighted", "micro")]


def _table(kind: str, metrics: MetricsArg, arguments: dict[str, Any]) -> pl.DataFrame:
    """The class report, the class table or the confusion matrix of a call's validated ``arguments``, after
    raising for invalid rows."""
    call = Call.of(arguments)
    outputs = {
        "report": ("class", "precision", "recall", "f1_score", "support", "roc_auc", "average_precision"),
        "classes": ("class", *CLASS_TABLE),
        "confusion": ("y_true", "y_pred", "weight"),
    }[kind]
    with _opened(call, metrics, outputs=outputs, zero_division=arguments.get("zero_division")) as (opened, request):
        result = opened.class_table(kind, request)
        checks = [c.name for c in request.plan.checks]
        # Each row repeats its group's check counts: one row per group.
        once = result.select(*call.by, *checks).unique(subset=list(call.by) or None)
        _raise_for_invalid(once, request, call.nulls, opened, rows_used=False)
    no_class = kind != "confusion" and not (result["fm_order"] < AVERAGE_ROWS).any()
    if result.height == 0 or no_class or (kind == "confusion" and result["y_true"].is_null().all()):
        raise ValueError("no rows to evaluate")
    return result.drop([*checks, *(["fm_order"] if "fm_order" in result.columns else [])])


@validated("classification_report")
def classification_report(
    source: Source,
    *,
    y_true: str,
    y_pred: str,
    y_score: str | Sequence[str] | None = None,
    labels: Sequence[Any] | None = None,
    sample_weight: str | None = None,
    by: By = None,
    zero_division: float | None = None,
    nulls: Literal["error", "drop"] = "error",
    engine: Engine | None = None,
    con: duckdb.DuckDBPyConnection | None = None,
    spark: Any = None,
) -> pl.DataFrame:
    """Per-class precision, recall, F1 and support per group, and their averages (scikit-learn's report).

    Parameters
    ----------
    source, y_true, y_pred, labels, sample_weight, by, zero_division, nulls, engine, con, spark
        As in :func:`evaluate_multiclass`.
    y_score : list of str, or str, optional
        Class scores (with ``labels``): adds each class's one-vs-rest
        ``roc_auc`` and ``average_precision`` and their averages.

    Returns
    -------
    polars.DataFrame
        Per group (sorted, nulls last): one row per class (``average=None``
        in scikit-learn; ``class`` as text, in the order of ``labels`` or
        sorted), then the rows ``micro avg``, ``macro avg`` and ``weighted
        avg`` (``average=...``); columns ``precision, recall, f1_score,
        support`` (weighted count of the true class; the total in the
        average rows). A ratio with a zero denominator is null (or
        ``zero_division``). For single-label data the micro averages all
        equal the accuracy.

    Examples
    --------
    The worked example of the README: 260 animals.

    >>> import polars as pl, framemetrics as fm
    >>> cells = {("cat", "cat"): 40, ("cat", "dog"): 20, ("cat", "pig"): 10,
    ...          ("dog", "cat"): 35, ("dog", "dog"): 85, ("dog", "pig"): 40,
    ...          ("pig", "cat"): 0, ("pig", "dog"): 10, ("pig", "pig"): 20}
    >>> rows = [pair for pair, count in cells.items() for _ in range(count)]
    >>> animals = pl.DataFrame(rows, schema=["y_true", "y_pred"], orient="row")
    >>> report = fm.classification_report(animals, y_true="y_true", y_pred="y_pred")
    >>> with pl.Config(float_precision=4, tbl_hide_dataframe_shape=True, tbl_hide_column_data_types=True,
    ...                tbl_width_chars=100):
    ...     print(report)
    ┌──────────────┬───────────┬────────┬──────────┬──────────┐
    │ class        ┆ precision ┆ recall ┆ f1_score ┆ support  │
    ╞══════════════╪═══════════╪════════╪══════════╪══════════╡
    │ cat          ┆ 0.5333    ┆ 0.5714 ┆ 0.5517   ┆ 70.0000  │
    │ dog          ┆ 0.7391    ┆ 0.5312 ┆ 0.6182   ┆ 160.0000 │
    │ pig          ┆ 0.2857    ┆ 0.6667 ┆ 0.4000   ┆ 30.0000  │
    │ micro avg    ┆ 0.5577    ┆ 0.5577 ┆ 0.5577   ┆ 260.0000 │
    │ macro avg    ┆ 0.5194    ┆ 0.5898 ┆ 0.5233   ┆ 260.0000 │
    │ weighted avg ┆ 0.6314    ┆ 0.5577 ┆ 0.5751   ┆ 260.0000 │
    └──────────────┴───────────┴────────┴──────────┴──────────┘
    """
    return _table("report", _REPORT_METRICS + (_RANKING_METRICS if y_score is not None else []), locals())


@validated("class_table")
def class_table(
    source: Source,
    *,
    y_true: str,
    y_pred: str | None = None,
    y_score: str | Sequence[str] | None = None,
    labels: Sequence[Any] | None = None,
    sample_weight: str | None = None,
    by: By = None,
    beta: float = 1.0,
    zero_division: float | None = None,
    nulls: Literal["error", "drop"] = "error",
    engine: Engine | None = None,
    con: duckdb.DuckDBPyConnection | None = None,
    spark: Any = None,
) -> pl.DataFrame:
    """Per group and class: the one-vs-rest confusion counts and every per-class value (``average=None``).

    scikit-learn's ``multilabel_confusion_matrix`` as a long table, beside
    ``precision_recall_fscore_support(average=None, beta=beta)`` and
    ``jaccard_score(average=None)``.

    Parameters
    ----------
    source, y_true, y_pred, labels, sample_weight, by, zero_division, nulls, engine, con, spark
        As in :func:`evaluate_multiclass`.
    y_score : list of str, or str, optional
        Without ``y_pred``: the scores whose argmax are the predicted classes.
    beta : float, default 1.0
        The F-beta's weight of recall (>= 0: 0 is the precision, ``inf`` the recall).

    Returns
    -------
    polars.DataFrame
        Per group (sorted, nulls last) and class (``class`` as text, in the
        order of ``labels`` or sorted): ``tp, fp, fn, tn`` (weights; ``tn`` is
        the group's weight less ``tp + fp + fn``), ``support`` (``tp + fn``),
        then ``precision, recall, f1_score, fbeta_score, jaccard_score`` of the
        class against the rest, ``zero_division`` (null by default) where a
        denominator is 0.

    Examples
    --------
    >>> import polars as pl, framemetrics as fm
    >>> df = pl.DataFrame({"y": ["cat", "dog", "dog", "pig", "cat", "dog"],
    ...                    "yhat": ["cat", "dog", "cat", "dog", "cat", "pig"]})
    >>> table = fm.class_table(df, y_true="y", y_pred="yhat", beta=2.0, zero_division=0)
    >>> table.select("class", "tp", "fp", "fn", "tn", "jaccard_score").rows()
    [('cat', 2.0, 1.0, 0.0, 3.0, 0.6666666666666666), ('dog', 1.0, 1.0, 2.0, 2.0, 0.25), ('pig', 0.0, 1.0, 1.0, 4.0, 0.0)]
    >>> [round(v, 4) for v in table["fbeta_score"]]
    [0.9091, 0.3571, 0.0]
    """
    return _table("classes", {"fbeta_macro": {"beta": beta}}, locals())


@validated("multiclass_confusion_matrix")
def multiclass_confusion_matrix(
    source: Source,
    *,
    y_true: str,
    y_pred: str | None = None,
    y_score: str | Sequence[str] | None = None,
    labels: Sequence[Any] | None = None,
    sample_weight: str | None = None,
    by: By = None,
    pivot: bool = False,
    nulls: Literal["error", "drop"] = "error",
    engine: Engine | None = None,
    con: duckdb.DuckDBPyConnection | None = None,
    spark: Any = None,
) -> pl.DataFrame:
    """The confusion matrix per group, as a long table or pivoted (scikit-learn's ``confusion_matrix``).

    Parameters
    ----------
    source, y_true, y_pred, labels, sample_weight, by, nulls, engine, con, spark
        As in :func:`evaluate_multiclass`.
    y_score : list of str, or str, optional
        Without ``y_pred``: the scores whose argmax are the predicted classes.
    pivot : bool, default False
        One row per true class and one column per predicted class (named
        by the class as text) holding the weight, instead of the long table.

    Returns
    -------
    polars.DataFrame
        Long: per group (sorted, nulls last), every pair of the group's
        classes (``labels``, or those present, sorted) in order: the group
        columns, ``y_true``, ``y_pred``, ``n_rows`` (rows) and ``weight``
        (their weight; the count without ``sample_weight``), 0 for absent pairs.

    Examples
    --------
    >>> import polars as pl, framemetrics as fm
    >>> df = pl.DataFrame({"y": [1, 1, 2, 3], "yhat": [1, 2, 2, 2]})
    >>> fm.multiclass_confusion_matrix(df, y_true="y", y_pred="yhat", pivot=True).rows()
    [(1, 1.0, 1.0, 0.0), (2, 0.0, 1.0, 0.0), (3, 0.0, 1.0, 0.0)]
    """
    long = _table("confusion", ["accuracy_score"], locals())
    if not pivot:
        return long
    index = [*as_tuple(by), "y_true"]
    wide = long.with_columns(pl.col("y_pred").cast(pl.String)).pivot(
        on="y_pred", index=index, values="weight", sort_columns=False, maintain_order=True
    )
    return wide
