"""ROC, precision-recall and DET curves per group, on Polars or DuckDB, from any source."""

from __future__ import annotations

import inspect
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from functools import partial
from typing import Any, Literal

import duckdb
import polars as pl

from framemetrics.columns import (
    By,
    Engine,
    Prepared,
    Resolved,
    as_tuple,
    check_output_names,
    resolve_curve,
)
from framemetrics.core.curves import CURVES, Curve, curve_outputs
from framemetrics.core.errors import ArgumentError
from framemetrics.core.plan import Plan
from framemetrics.engines import Backend
from framemetrics.multiclass.curves import one_vs_rest_curve
from framemetrics.request import Call, document, run, validated
from framemetrics.sources import Source
from framemetrics.wrapping import bound_function

__all__ = [
    "PreparedCurve",
    "curve_table",
    "det_curve",
    "precision_recall_curve",
    "prepare_curve",
    "roc_curve",
]


@dataclass(frozen=True)
class PreparedCurve:
    """A curve request checked and resolved, shared by :func:`curve_table` and ``fm.sql.curve``."""

    spec: Curve
    plan: Plan
    roles: dict[str, str]
    by: tuple[str, ...]
    drop_intermediate: bool
    max_points: int | None
    drop_nulls: bool

    @property
    def prepared(self) -> Prepared:
        """The request as :func:`framemetrics.request.run` checks and runs it."""
        return Prepared(Resolved(self.plan, self.roles, False), self.by, self.drop_nulls)


def prepare_curve(
    curve: str,
    *,
    drop_intermediate: bool | None,
    max_points: int | None,
    by: str | Sequence[str] | None,
    nulls: str,
    **columns: Any,
) -> PreparedCurve:
    """Resolve a curve's validated arguments and its columns (``columns``: those of :func:`resolve_curve`).

    Examples
    --------
    >>> columns = dict(y_true="y", y_score="s", sample_weight=None, pos_label=1, neg_label=None)
    >>> prepare_curve("roc_curve", drop_intermediate=None, max_points=None, by="g", nulls="error",
    ...               **columns).drop_intermediate
    True
    """
    spec, drop = check_curve_arguments(curve, drop_intermediate)
    by = as_tuple(by)
    resolved = resolve_curve(**columns)
    check_output_names(by, curve_outputs(spec))
    return PreparedCurve(spec, resolved.plan, resolved.roles, by, drop, max_points, nulls == "drop")


def check_curve_arguments(curve: str, drop_intermediate: bool | None) -> tuple[Curve, bool]:
    """The curve and its ``drop_intermediate`` (the curve's default if None).

    Examples
    --------
    >>> spec, drop = check_curve_arguments("precision_recall_curve", None)
    >>> spec.x, drop
    ('recall', False)
    """
    spec = CURVES[curve]
    return spec, spec.drop_intermediate if drop_intermediate is None else drop_intermediate


@validated("curve_table")
def curve_table(
    curve: str,
    source: Source,
    *,
    y_true: str,
    y_score: str | Sequence[str],
    sample_weight: str | None = None,
    by: By = None,
    pos_label: Any = 1,
    neg_label: Any = None,
    labels: Sequence[Any] | None = None,
    drop_intermediate: bool | None = None,
    max_points: int | None = None,
    nulls: Literal["error", "drop"] = "error",
    engine: Engine | None = None,
    con: duckdb.DuckDBPyConnection | None = None,
    spark: Any = None,
) -> pl.DataFrame:
    """The points of ``curve`` per group (see :func:`roc_curve`).

    Parameters
    ----------
    curve : {"roc_curve", "precision_recall_curve", "det_curve"}
        Which curve.
    source, y_true, y_score, sample_weight, by, pos_label, neg_label, nulls, engine, con, spark
        As in :func:`framemetrics.evaluate`.
    labels : list, optional
        Multiclass: with ``y_score`` one column per class (or a list
        column), the one-vs-rest curve of each class, as
        :func:`framemetrics.evaluate_multiclass` reads them (columns named
        after the classes need no ``labels``). The result then has a
        ``class`` column after the group columns; each class's curve equals
        scikit-learn's curve of ``y_true == class`` against its score.
    drop_intermediate : bool, optional
        Drop the points scikit-learn drops; default scikit-learn's default
        for the curve (True for ROC, False for PR and DET).
    max_points : int, optional
        Thin each group's curve to at most ``max_points`` points (at least 4),
        chosen so that a plot of up to ``max_points // 4`` pixels wide is
        drawn as from all points: in each of ``max_points // 4`` equal-width
        columns of the x rate (``fpr`` for ROC and DET, ``recall`` for PR),
        the first and last points and the lowest and highest by the y rate
        are kept (the M4 method of Jugel et al., VLDB 2014). Computed in the
        engine, so a curve of millions of points never leaves it.

    Returns
    -------
    polars.DataFrame

    Examples
    --------
    >>> import polars as pl, framemetrics as fm
    >>> df = pl.DataFrame({"y": [0, 0, 1, 1], "s": [0.1, 0.4, 0.35, 0.8]})
    >>> fm.curve_table("det_curve", df, y_true="y", y_score="s", engine="duckdb")["fnr"].to_list()
    [0.0, 0.5, 0.5]
    """
    call = Call.of(locals())
    spec, drop = check_curve_arguments(curve, drop_intermediate)
    if labels is not None or not isinstance(y_score, str):
        if pos_label != 1 or neg_label is not None:
            raise ArgumentError("pos_label and neg_label are binary only: one-vs-rest curves take labels=")
        return one_vs_rest_curve(spec, call, drop_intermediate=drop, max_points=max_points)
    prepared = prepare_curve(
        curve, drop_intermediate=drop, max_points=max_points, by=call.by, nulls=nulls, **call.columns()
    )

    def points(opened: Backend, checked: Prepared, columns: dict[str, Any]) -> pl.DataFrame:
        return opened.curve(spec, checked.resolved.plan, columns, checked.by, checked.drop, drop, max_points)

    return run(call, prepared.prepared, points, counted=False)


_ARGUMENTS = """source : path, glob, DataFrame, LazyFrame, pyarrow Table/Dataset, DuckDB relation or table name
        The data, as in :func:`framemetrics.evaluate`.
    y_true : str
        Column of true labels.
    y_score : str or list of str
        Column of scores, higher meaning more likely ``pos_label``; or one
        column per class (or a list column): the one-vs-rest curve of each
        class (see ``labels``).
    labels : list, optional
        Multiclass: the class of each score column (columns named after the
        classes need none); the result gets a ``class`` column.
    sample_weight : str, optional
        Column of non-negative weights; rows of weight 0 are ignored (as scikit-learn).
    by : str or list of str, optional
        Group columns; each group gets its own curve.
    .. parameters:: pos_label, nulls, engine, con, spark, max_points"""

_RAISES = """ValueError
        Unknown column, wrongly typed column, or invalid rows (null label,
        label outside ``{pos_label, neg_label}``, null or NaN score, invalid
        weight): the message names the column and the row count."""


_DROP = {
    True: """Drop points collinear with their neighbours, as scikit-learn: a point
        is kept when the steps of ``tp`` or ``fp`` before and after it differ.""",
    False: "Drop points whose ``tp`` equals both neighbours', as scikit-learn.",
}

# Per curve: the summary, what the returned frame holds, and the example.
_DOCS = {
    "roc_curve": (
        "ROC curve per group: scikit-learn's points with the confusion counts at each.",
        """Per group (sorted, nulls last), by decreasing threshold: the group
        columns, ``threshold`` (first ``+inf``, where nothing is predicted
        positive), ``fpr = fp / N``, ``tpr = tp / P`` (null when ``N`` or ``P``
        is 0; scikit-learn: NaN with a warning), and the weighted counts
        ``tp, fp, tn, fn`` of predicting ``y_score >= threshold``.""",
        """>>> fm.roc_curve(df, y_true="y", y_score="s").select("threshold", "fpr", "tpr").rows()
    [(inf, 0.0, 0.0), (0.8, 0.0, 0.5), (0.4, 0.5, 0.5), (0.35, 0.5, 1.0), (0.1, 1.0, 1.0)]""",
    ),
    "precision_recall_curve": (
        "Precision-recall curve per group: scikit-learn's points with the confusion counts at each.",
        """Per group, by increasing threshold: the group columns, ``threshold``,
        ``precision = tp / (tp + fp)``, ``recall = tp / P``, and ``tp, fp, tn, fn``.
        The last row is scikit-learn's final point (recall 0, precision 1),
        which has no threshold there: here ``+inf`` (nothing predicted
        positive). Recall is null when ``P`` is 0 (scikit-learn: 1 with a warning).""",
        """>>> out = fm.precision_recall_curve(df, y_true="y", y_score="s")
    >>> out["recall"].to_list(), out["threshold"].to_list()
    ([1.0, 1.0, 0.5, 0.5, 0.0], [0.1, 0.35, 0.4, 0.8, inf])""",
    ),
    "det_curve": (
        "Detection error tradeoff curve per group: scikit-learn's points with the confusion counts.",
        """Per group, by increasing threshold: the group columns, ``threshold``,
        ``fpr = fp / N``, ``fnr = fn / P`` and ``tp, fp, tn, fn``, from the
        highest threshold with ``fn = 0`` up to the lowest with ``fp = 0``
        (which may be ``+inf``), as scikit-learn. A group with one class has
        no rows (scikit-learn raises).""",
        """>>> fm.det_curve(df, y_true="y", y_score="s").select("threshold", "fpr", "fnr").rows()
    [(0.35, 0.5, 0.0), (0.4, 0.5, 0.5), (0.8, 0.0, 0.5)]""",
    ),
}


def _curve_doc(curve: str) -> str:
    summary, returns, example = _DOCS[curve]
    drop = CURVES[curve].drop_intermediate
    return f"""{summary}

    Parameters
    ----------
    {_ARGUMENTS}
    drop_intermediate : bool, default {drop}
        {_DROP[drop]}

    Returns
    -------
    polars.DataFrame
        {returns}

    Raises
    ------
    {_RAISES}

    See Also
    --------
    sklearn.metrics.{curve} : the reference it matches per group.
    framemetrics.sql.curve : the same as SQL text; DuckDB: the table macro ``fm_{curve}``.

    Examples
    --------
    >>> import polars as pl, framemetrics as fm
    >>> df = pl.DataFrame({{"y": [0, 0, 1, 1], "s": [0.1, 0.4, 0.35, 0.8]}})
    {example}
    """


def _curve_function(curve: str) -> Callable[..., pl.DataFrame]:
    """:func:`curve_table` of one curve, its ``drop_intermediate`` defaulting to the curve's (scikit-learn's)."""
    signature = inspect.signature(curve_table, eval_str=True)
    default = CURVES[curve].drop_intermediate
    parameters = [
        p.replace(default=default, annotation=bool) if p.name == "drop_intermediate" else p
        for name, p in signature.parameters.items()
        if name != "curve"
    ]
    doc = document(_curve_doc(curve), curve)
    return bound_function(curve, signature.replace(parameters=parameters), partial(curve_table, curve), doc)


roc_curve = _curve_function("roc_curve")
precision_recall_curve = _curve_function("precision_recall_curve")
det_curve = _curve_function("det_curve")
