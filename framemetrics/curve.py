"""The curve stage shared by every ranking metric, in Polars.

Per group and distinct score: ``pw`` and ``nw``, the positive and negative
weight at that score; ``tp`` and ``fp``, their cumulative sums over the
scores at or above it (scikit-learn's ``_binary_clf_curve``); ``tp_prev`` and
``fp_prev``, the same over strictly higher scores (the previous curve point,
summed rather than subtracted so that no cancellation creeps in);
``pos_total`` and ``neg_total``, the group's totals. Ranking
statistics are aggregations over these rows. SQL: the ``fm_score_*`` macros
and the window of :func:`framemetrics.sql.query.plan_query`.
"""

from __future__ import annotations

import polars as pl

from framemetrics.inputs import MetricInputs

__all__ = ["bin_score", "curve_stage"]


def bin_score(y_score: pl.Expr, bins: int) -> pl.Expr:
    """The lower edge of the score's bin of width ``1 / bins`` (SQL ``fm_bin_score``).

    Examples
    --------
    >>> pl.select(bin_score(pl.lit(0.4567), 100)).item()
    0.45
    """
    return (y_score * bins).floor() / bins


def curve_stage(data: pl.LazyFrame, keys: list[str], inputs: MetricInputs) -> pl.LazyFrame:
    """One row per group and distinct ``y_score``, with ``pw, nw, tp, fp, tp_prev, fp_prev, pos_total, neg_total``.

    Parameters
    ----------
    data : polars.LazyFrame
        Rows with the group columns ``keys`` and the inputs' columns.
    keys : list of str
        Group columns.
    inputs : MetricInputs
        Expressions of ``y_true``, ``y_score`` and ``sample_weight``, and the labels.

    Returns
    -------
    polars.LazyFrame

    Examples
    --------
    >>> lf = pl.LazyFrame({"y": [0, 1, 1], "s": [0.2, 0.2, 0.9]})
    >>> x = MetricInputs.of(y_true="y", y_score="s")
    >>> curve_stage(lf, [], x).collect().rows()
    [(0.9, 1.0, 0.0, 1.0, 0.0, 0.0, 0.0, 2.0, 1.0), (0.2, 1.0, 1.0, 2.0, 1.0, 1.0, 0.0, 2.0, 1.0)]
    """
    per_score = data.group_by([*keys, inputs.y_score.cast(pl.Float64).alias("y_score")]).agg(
        pw=inputs.positive_weight.sum(),
        nw=inputs.negative_weight.sum(),
    )
    # One sort on the score alone: a window keeps each group's rows in frame order, and a
    # multi-key sort (group, score) measured 1.3-1.4x slower for the whole AUC.
    ordered = per_score.sort("y_score", descending=True, nulls_last=True)
    sums = {"tp": pl.col("pw").cum_sum(), "fp": pl.col("nw").cum_sum()}
    sums |= {"tp_prev": pl.col("pw").cum_sum().shift(1, fill_value=0.0)}
    sums |= {"fp_prev": pl.col("nw").cum_sum().shift(1, fill_value=0.0)}
    sums |= {"pos_total": pl.col("pw").sum(), "neg_total": pl.col("nw").sum()}
    return ordered.with_columns(**{name: expr.over(keys) if keys else expr for name, expr in sums.items()})
