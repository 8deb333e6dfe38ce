"""The calibration (reliability) curve per group, on Polars or DuckDB, from any source."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, Literal

import duckdb
import polars as pl

from framemetrics.columns import Resolved, as_tuple, check_nulls, polars_columns, resolve, sql_columns
from framemetrics.evaluate import check_schema, raise_for_invalid
from framemetrics.polars_engine import NO_SHARED_SCANS, aggregate, canonical_frame, plan_inputs
from framemetrics.sources import Source, duckdb_schema, open_duckdb, open_polars, schema
from framemetrics.sql.calibration_query import calibration_query
from framemetrics.sql.query import QueryInputs, checks_query

__all__ = ["calibration_bin", "calibration_curve", "calibration_guess", "calibration_ratio", "resolve_calibration"]

OUTPUTS = ("bin", "bin_lower", "bin_upper", "n_rows", "positive_weight", "negative_weight", "prob_true", "prob_pred")


def calibration_guess(p: pl.Expr, n_bins: int) -> pl.Expr:
    """``ceil(p * n_bins) - 1`` within ``[0, n_bins - 1]`` (``fm_calibration_guess``)."""
    return pl.min_horizontal(pl.max_horizontal((p * n_bins).ceil().cast(pl.Int64) - 1, 0), n_bins - 1)


def calibration_bin(p: pl.Expr, n_bins: int) -> pl.Expr:
    """The bin of score ``p``: how many inner edges ``i * (1 / n_bins)`` are below it (``fm_calibration_bin``).

    Examples
    --------
    >>> pl.select(calibration_bin(pl.lit(0.3), 10)).item()  # 3 * (1 / 10) is 0.30000000000000004
    2
    """
    guess, step = calibration_guess(p, n_bins), 1.0 / n_bins
    return (
        pl.when((guess >= 1) & (p <= guess * step))
        .then(guess - 1)
        .when((guess <= n_bins - 2) & (p > (guess + 1) * step))
        .then(guess + 1)
        .otherwise(guess)
    )


def calibration_ratio(part: pl.Expr, total: pl.Expr) -> pl.Expr:
    """``part / total``, null when ``total`` is 0 (``fm_calibration_ratio``)."""
    return pl.when(total == 0).then(None).otherwise(part / total)


def resolve_calibration(
    n_bins: int, *, y_true: str, y_score: str, sample_weight: str | None, pos_label: Any, neg_label: Any
) -> Resolved:
    """Check ``n_bins``; the checks and labels of a probability metric (scores in [0, 1]).

    Examples
    --------
    >>> resolve_calibration(0, y_true="y", y_score="p", sample_weight=None, pos_label=1, neg_label=None)
    Traceback (most recent call last):
    ...
    ValueError: n_bins must be a positive integer, got 0
    """
    if isinstance(n_bins, bool) or not isinstance(n_bins, int) or n_bins < 1:
        raise ValueError(f"n_bins must be a positive integer, got {n_bins!r}")
    return resolve(
        ["brier_score_loss"],
        y_true=y_true,
        y_pred=None,
        y_score=y_score,
        sample_weight=sample_weight,
        pos_label=pos_label,
        neg_label=neg_label,
        zero_division=None,
    )


def calibration_curve(
    source: Source,
    *,
    y_true: str,
    y_score: str,
    n_bins: int = 10,
    sample_weight: str | None = None,
    by: str | Sequence[str] | None = None,
    pos_label: Any = 1,
    neg_label: Any = None,
    nulls: Literal["error", "drop"] = "error",
    engine: Literal["polars", "duckdb"] = "polars",
    con: duckdb.DuckDBPyConnection | None = None,
) -> pl.DataFrame:
    """Calibration (reliability) curve per group: scikit-learn's ``calibration_curve(strategy="uniform")``.

    Parameters
    ----------
    source, y_true, sample_weight, by, pos_label, neg_label, nulls, engine, con
        As in :func:`framemetrics.evaluate`.
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
        Unknown column, wrong type, ``n_bins`` not a positive integer, or
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
    check_nulls(nulls)
    if engine not in ("polars", "duckdb"):
        raise ValueError(f"engine must be 'polars' or 'duckdb', got {engine!r}")
    by = as_tuple(by)
    resolved = resolve_calibration(
        n_bins, y_true=y_true, y_score=y_score, sample_weight=sample_weight, pos_label=pos_label, neg_label=neg_label
    )
    plan, roles = resolved.plan, resolved.roles
    for name in OUTPUTS:
        if name in by:
            raise ValueError(f"group column {name!r} clashes with an output column of the same name")
    drop = nulls == "drop"
    if engine == "duckdb":
        duck = open_duckdb(source, con)
        try:
            check_schema(plan, roles, by, duckdb_schema(duck), False)
            inputs = QueryInputs(duck.from_sql, sql_columns(plan, roles, False, 0.5), by, drop)
            raise_for_invalid(duck.run(checks_query(plan, inputs)).pl(), plan, roles, nulls)
            return duck.run(calibration_query(plan, inputs, n_bins)).pl()
        finally:
            duck.close()
    frame = open_polars(source, con)
    check_schema(plan, roles, by, schema(frame), False)
    keys = [f"fm_g{i}" for i in range(len(by))]
    data = canonical_frame(frame, plan, polars_columns(plan, roles, False, 0.5), by, drop_nulls=drop)
    raise_for_invalid(aggregate(data, plan, keys, ("n_rows",)).collect(), plan, roles, nulls)
    inputs = plan_inputs(plan)
    binned = data.group_by([*keys, calibration_bin(pl.col("y_score"), n_bins).alias("bin")]).agg(
        n_rows=pl.len().cast(pl.Int64),
        positive_weight=inputs.positive_weight.sum(),
        negative_weight=inputs.negative_weight.sum(),
        score_weight=(pl.col("sample_weight") * pl.col("y_score")).sum(),
    )
    step, total = 1.0 / n_bins, pl.col("positive_weight") + pl.col("negative_weight")
    out = binned.select(
        *(pl.col(k).alias(c) for k, c in zip(keys, by, strict=True)),
        "bin",
        bin_lower=pl.col("bin") * step,
        bin_upper=pl.when(pl.col("bin") == n_bins - 1).then(1.0).otherwise((pl.col("bin") + 1) * step),
        n_rows="n_rows",
        positive_weight="positive_weight",
        negative_weight="negative_weight",
        prob_true=calibration_ratio(pl.col("positive_weight"), total),
        prob_pred=calibration_ratio(pl.col("score_weight"), total),
    )
    return out.sort([*by, "bin"], nulls_last=True).collect(optimizations=NO_SHARED_SCANS)
