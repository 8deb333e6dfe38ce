"""The calibration (reliability) curve per group, on Polars or DuckDB, from any source."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, Literal

import duckdb
import polars as pl

from framemetrics.columns import (
    By,
    Engine,
    Prepared,
    as_tuple,
    check_output_names,
    resolve_curve,
)
from framemetrics.core.calibration import OUTPUTS
from framemetrics.engines import Backend
from framemetrics.request import Call, run, validated
from framemetrics.sources import Source

__all__ = ["OUTPUTS", "calibration_curve", "prepare_calibration"]


def prepare_calibration(n_bins: int, *, by: str | Sequence[str] | None, nulls: str, **columns: Any) -> Prepared:
    """Resolve the validated arguments of a calibration curve, shared by :func:`calibration_curve` and ``fm.sql``'s.

    The columns (those of :func:`~framemetrics.columns.resolve_curve`) get
    the checks and labels of a probability metric (scores in [0, 1]).

    Examples
    --------
    >>> columns = dict(y_true="y", y_score="p", sample_weight=None, pos_label=1, neg_label=None)
    >>> prepare_calibration(10, by="g", nulls="error", **columns).by
    ('g',)
    """
    resolved = resolve_curve(**columns, metric="brier_score_loss")
    check_output_names(as_tuple(by), OUTPUTS)
    return Prepared(resolved, as_tuple(by), nulls == "drop")


@validated("calibration_curve")
def calibration_curve(
    source: Source,
    *,
    y_true: str,
    y_score: str,
    n_bins: int = 10,
    sample_weight: str | None = None,
    by: By = None,
    pos_label: Any = 1,
    neg_label: Any = None,
    nulls: Literal["error", "drop"] = "error",
    engine: Engine | None = None,
    con: duckdb.DuckDBPyConnection | None = None,
    spark: Any = None,
) -> pl.DataFrame:
    """Calibration (reliability) curve per group: scikit-learn's ``calibration_curve(strategy="uniform")``.

    Parameters
    ----------
    .. parameters:: source, y_true, sample_weight, by, pos_label, nulls, engine, con, spark
    y_score : str
        Column of predicted probabilities of ``pos_label``, in [0, 1].
    n_bins : int, default 10
        Number of equal-width bins of [0, 1].

    Returns
    -------
    polars.DataFrame
        Per group (sorted, nulls last) and bin holding rows (empty bins are
        left out, as scikit-learn): the group columns, ``bin`` (0-based),
        ``bin_lower``, ``bin_upper``, ``n_rows``, the weights of positives and
        negatives ``positive_weight``, ``negative_weight``, then
        ``prob_true`` and ``prob_pred`` (scikit-learn's two arrays), null
        where the bin's weight is 0.

    Raises
    ------
    ValueError
        Unknown column, wrong type, ``n_bins`` not an integer from 1 to 2**31 - 1, or
        invalid rows (null label, label outside ``{pos_label, neg_label}``,
        score null, NaN or outside [0, 1], invalid weight), naming the column
        and the row count.

    See Also
    --------
    sklearn.calibration.calibration_curve : the reference, per group.

    Notes
    -----
    The edges are ``numpy.linspace(0, 1, n_bins + 1)``; a score ``p`` falls in
    bin ``#{i in 1..n_bins-1 : e_i < p}`` (so 0.3 is in bin 2 of 10, as in
    scikit-learn, since ``linspace`` makes the edge 0.30000000000000004).
    With weights ``w``: ``prob_true = sum(w [y = pos]) / sum(w)`` and
    ``prob_pred = sum(w p) / sum(w)`` over the bin's rows.

    Examples
    --------
    >>> import polars as pl, framemetrics as fm
    >>> df = pl.DataFrame({"y": [0, 0, 0, 0, 1, 1, 1, 1, 1],
    ...                    "p": [0.1, 0.2, 0.3, 0.4, 0.65, 0.7, 0.8, 0.9, 1.0]})
    >>> out = fm.calibration_curve(df, y_true="y", y_score="p", n_bins=3, engine="duckdb")
    >>> out["prob_true"].to_list(), out["prob_pred"].round(4).to_list()
    ([0.0, 0.5, 1.0], [0.2, 0.525, 0.85])
    """
    call = Call.of(locals())
    prepared = prepare_calibration(n_bins, by=call.by, nulls=nulls, **call.columns())

    def bins(opened: Backend, prepared: Prepared, columns: dict[str, Any]) -> pl.DataFrame:
        return opened.calibration(prepared.resolved.plan, columns, prepared.by, prepared.drop, n_bins)

    return run(call, prepared, bins, counted=False)
