"""``confusion_matrix``: the binary confusion matrix per segment, ``tn, fp, fn, tp`` as scikit-learn ravels it.

The four cells are the statistics every binary label metric reads (the
counting stage of :mod:`framemetrics.core.cells`): the plan of
``accuracy_score``, whose checks they share, with its one formula replaced
by four, each a cell or, with ``normalize``, the cell's share of its true
class, its predicted class or the segment. They run in the engine like any
metric (Polars, DuckDB, Spark; :func:`framemetrics.sql.confusion_matrix` writes
the statement).
"""

from __future__ import annotations

import operator
from dataclasses import replace
from functools import reduce
from typing import Any, Literal

import duckdb
import polars as pl

from framemetrics.columns import By, Engine, Prepared, prepare_metrics
from framemetrics.core.errors import ArgumentError
from framemetrics.core.formulas.guards import named_formula, share, valid
from framemetrics.core.namespace import Namespace
from framemetrics.core.plan import MetricCall
from framemetrics.core.registry import Call as FormulaCall
from framemetrics.core.registry import Metric
from framemetrics.request import Call, run, validated
from framemetrics.request.call import metrics as plan_metrics
from framemetrics.sources import Source

__all__ = ["CELLS", "confusion_matrix", "counted", "prepare_confusion"]

# scikit-learn's ``confusion_matrix(...).ravel()`` order for labels [neg_label, pos_label].
CELLS = ("tn", "fp", "fn", "tp")
_STATISTICS = ("tp", "fp", "fn", "tn")
# The cells each cell is normalized by: its true class (a row of the matrix), its predicted class (a column), all.
_WHOLE = {
    "true": {"tn": ("tn", "fp"), "fp": ("tn", "fp"), "fn": ("fn", "tp"), "tp": ("fn", "tp")},
    "pred": {"tn": ("tn", "fn"), "fp": ("fp", "tp"), "fn": ("tn", "fn"), "tp": ("fp", "tp")},
    "all": dict.fromkeys(CELLS, CELLS),
}


def _cell(cell: str, normalize: str | None) -> Metric:
    """The output column ``cell``: a formula over the four cells, the cell or its share of ``_WHOLE[normalize]``."""
    whole = _WHOLE[normalize][cell] if normalize else ()
    doc = f"{cell} / ({' + '.join(whole)}); null if that is 0." if whole else f"{cell}, the weight of the cell."

    def body(ns: Namespace, n_invalid: Any, **cells: Any) -> Any:
        if not whole:
            return valid(ns, n_invalid, cells[cell])
        return share(ns, cells[cell], reduce(operator.add, (cells[c] for c in whole)), n_invalid)

    formula = named_formula(cell, (*_STATISTICS, "n_invalid"), doc, __name__, body)
    call = FormulaCall(formula, (*_STATISTICS, "n_invalid"))
    value_range = (0.0, 1.0) if normalize else None
    return Metric(cell, "binary", "classification", _STATISTICS, (), call, value_range=value_range)


def prepare_confusion(*, normalize: str | None, **request: Any) -> Prepared:
    """The request of a confusion matrix: ``accuracy_score``'s plan (its checks, its cells) computing the cells.

    ``request`` holds the arguments of :func:`~framemetrics.columns.prepare_metrics`
    but ``metrics`` and ``zero_division``.

    Examples
    --------
    >>> prepared = prepare_confusion(normalize="true", y_true="y", y_pred="yhat", y_score=None, threshold=0.5,
    ...                              sample_weight=None, by=None, nulls="error", pos_label=1, neg_label=None)
    >>> prepared.resolved.plan.output_columns
    ('tn', 'fp', 'fn', 'tp')
    """
    if request["y_pred"] is not None and request["y_score"] is not None:
        raise ArgumentError("pass y_pred (labels) or y_score (with threshold), not both")
    prepared = prepare_metrics(["accuracy_score"], zero_division=None, **request)
    plan = prepared.resolved.plan
    checks = plan.calls[0].checks
    calls = tuple(MetricCall(_cell(cell, normalize), {}, checks) for cell in CELLS)
    return replace(prepared, resolved=replace(prepared.resolved, plan=replace(plan, calls=calls)))


def counted(result: pl.DataFrame, weighted: bool, normalize: str | None) -> pl.DataFrame:
    """The cells as integers where they count rows (no weights, no ``normalize``), as scikit-learn's.

    Examples
    --------
    >>> counted(pl.DataFrame({"tn": [2.0], "fp": [1.0]}), False, None).dtypes
    [Int64, Int64]
    """
    if weighted or normalize:
        return result
    return result.with_columns(pl.col(c).cast(pl.Int64) for c in CELLS if c in result.columns)


@validated("confusion_matrix")
def confusion_matrix(
    source: Source,
    *,
    y_true: str,
    y_pred: str | None = None,
    y_score: str | None = None,
    threshold: float = 0.5,
    sample_weight: str | None = None,
    by: By = None,
    pos_label: Any = 1,
    neg_label: Any = None,
    normalize: Literal["true", "pred", "all"] | None = None,
    nulls: Literal["error", "drop"] = "error",
    engine: Engine | None = None,
    con: duckdb.DuckDBPyConnection | None = None,
    spark: Any = None,
) -> pl.DataFrame:
    """The binary confusion matrix per segment: ``tn, fp, fn, tp``, inside Polars, DuckDB or Spark.

    Parameters
    ----------
    .. parameters:: source, y_true, y_pred, y_score, threshold, sample_weight, by, pos_label, normalize, nulls
    .. parameters:: engine, con, spark

    Returns
    -------
    polars.DataFrame
        One row per segment (sorted, nulls last): the group columns,
        ``n_rows`` (rows used) and ``tn, fp, fn, tp``, scikit-learn's
        ``confusion_matrix(..., labels=[neg_label, pos_label]).ravel()``
        order. Int64 counts without ``sample_weight`` and ``normalize``
        (scikit-learn's integers), else Float64 weights or fractions.

    Raises
    ------
    ArgumentError
        A bad argument, or both ``y_pred`` and ``y_score``.
    ValueError
        Unknown or wrongly typed column, invalid rows (a label outside
        ``{pos_label, neg_label}``, a null, a score outside [0, 1]...), as in
        :func:`framemetrics.evaluate`.

    See Also
    --------
    sklearn.metrics.confusion_matrix : the reference it matches (``normalize`` gives 0 where this gives null).
    framemetrics.multiclass_confusion_matrix : more than two classes, as a long table.
    framemetrics.sql.confusion_matrix : the same computation as SQL text.

    Notes
    -----
    ``normalize="true"`` divides each cell by its true class's weight
    (``tn / (tn + fp)``, ``tp / (fn + tp)``...), ``"pred"`` by its
    predicted class's (``tn / (tn + fn)``...), ``"all"`` by the segment's.
    A cell whose denominator is 0 (a class absent from the segment) is
    null, as every undefined value of framemetrics, where scikit-learn
    writes 0: a 0 there would read as "never", which nothing measured.

    Examples
    --------
    >>> import polars as pl, framemetrics as fm
    >>> df = pl.DataFrame({"seg": ["a", "a", "a", "b", "b"], "y": [0, 1, 1, 0, 1],
    ...                    "p": [0.2, 0.9, 0.4, 0.7, 0.8]})
    >>> fm.confusion_matrix(df, y_true="y", y_score="p", by="seg")
    shape: (2, 6)
    ┌─────┬────────┬─────┬─────┬─────┬─────┐
    │ seg ┆ n_rows ┆ tn  ┆ fp  ┆ fn  ┆ tp  │
    │ --- ┆ ---    ┆ --- ┆ --- ┆ --- ┆ --- │
    │ str ┆ i64    ┆ i64 ┆ i64 ┆ i64 ┆ i64 │
    ╞═════╪════════╪═════╪═════╪═════╪═════╡
    │ a   ┆ 3      ┆ 1   ┆ 0   ┆ 1   ┆ 1   │
    │ b   ┆ 2      ┆ 0   ┆ 1   ┆ 0   ┆ 1   │
    └─────┴────────┴─────┴─────┴─────┴─────┘
    >>> fm.confusion_matrix(df, y_true="y", y_score="p", by="seg", normalize="true", engine="duckdb").rows()
    [('a', 3, 1.0, 0.0, 0.5, 0.5), ('b', 2, 0.0, 1.0, 0.0, 1.0)]
    """
    arguments = dict(locals())
    request = {k: v for k, v in arguments.items() if k not in ("source", "engine", "con", "spark")}
    result = run(Call.of(arguments), prepare_confusion(**request), plan_metrics)
    return counted(result, sample_weight is not None, normalize)
