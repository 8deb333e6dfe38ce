"""The calibration (reliability) curve, written once: scikit-learn's ``calibration_curve(strategy="uniform")``.

The edges are ``numpy.linspace(0, 1, n_bins + 1)``, i.e. ``e_i = i * (1 / n_bins)``,
and a score ``p`` falls in bin ``#{i in 1..n_bins-1 : e_i < p}`` (``numpy.searchsorted``,
side "left"). ``ceil(p * n_bins) - 1`` is that count up to one unit of
rounding, corrected against the edges themselves (:func:`calibration_bin`).
Per group and bin, :data:`BIN_SUMS` are gathered (from the rows, or :data:`SCORE_BIN_SUMS` from a curve stage
of the same rows), then :func:`bin_columns`.

Examples
--------
>>> from framemetrics.compilers.sql import SQL
>>> from framemetrics.compilers.sql.emit import to_sql
>>> to_sql(calibration_guess(SQL, SQL.col("p"), SQL.lit(10)))
'LEAST(GREATEST(CAST(CEIL(p * 10) AS BIGINT) - 1, 0), 10 - 1)'
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from framemetrics.core.namespace import Namespace
from framemetrics.core.statistics import Rows, negative_weight, positive_weight

__all__ = ["BIN_SUMS", "OUTPUTS", "SCORE_BIN_SUMS", "bin_columns", "calibration_bin", "calibration_guess"]

Expr = Any

OUTPUTS = ("bin", "bin_lower", "bin_upper", "n_rows", "positive_weight", "negative_weight", "prob_true", "prob_pred")


def calibration_guess(ns: Namespace, p: Expr, n_bins: Expr) -> Expr:
    """``ceil(p * n_bins) - 1`` within ``[0, n_bins - 1]``."""
    return ns.least(ns.greatest(ns.to_int(ns.ceil(p * n_bins)) - 1, 0), n_bins - 1)


def calibration_bin(ns: Namespace, p: Expr, n_bins: Expr) -> Expr:
    """The bin of score ``p``: how many inner edges ``i * (1 / n_bins)`` lie below it."""
    guess, step = calibration_guess(ns, p, n_bins), ns.lit(1.0) / n_bins
    return (
        ns.when(ns.all(guess >= 1, p <= guess * step), guess - 1)
        .when(ns.all(guess <= n_bins - 2, p > (guess + 1) * step), guess + 1)
        .otherwise(guess)
    )


# Per group and bin: the rows, the positive and negative weight, the weighted score.
BIN_SUMS: dict[str, Callable[[Namespace, Rows], Expr]] = {
    "n_rows": lambda ns, x: ns.count_rows(),
    "positive_weight": lambda ns, x: ns.sum(positive_weight(ns, x)),
    "negative_weight": lambda ns, x: ns.sum(negative_weight(ns, x)),
    "score_weight": lambda ns, x: ns.sum(x.sample_weight * x.y_score),
}

# The same sums from a curve stage (one row per score with its rows ``n_rows`` and the weights ``pw, nw`` of its
# positive and negative rows): each is a sum over rows, so it is the sum over scores of the score's sums
# (every checked row is positive or negative: its weight is in ``pw + nw``).
SCORE_BIN_SUMS: dict[str, Callable[[Namespace, Callable[[str], Expr]], Expr]] = {
    "n_rows": lambda ns, c: ns.to_int(ns.sum(c("n_rows"))),  # a count, as BIN_SUMS' (not SQL's HUGEINT sum)
    "positive_weight": lambda ns, c: ns.sum(c("pw")),
    "negative_weight": lambda ns, c: ns.sum(c("nw")),
    "score_weight": lambda ns, c: ns.sum(c("y_score") * (c("pw") + c("nw"))),
}


def bin_columns(ns: Namespace, n_bins: Expr) -> dict[str, Expr]:
    """The output columns of a bin from the columns of :data:`BIN_SUMS` and ``bin``: edges and the two ratios."""
    b, step = ns.col("bin"), ns.lit(1.0) / n_bins
    total = ns.col("positive_weight") + ns.col("negative_weight")
    return {
        "bin": b,
        "bin_lower": b * step,
        "bin_upper": ns.when(ns.eq(b, n_bins - 1), ns.lit(1.0)).otherwise((b + 1) * step),
        "n_rows": ns.col("n_rows"),
        "positive_weight": ns.col("positive_weight"),
        "negative_weight": ns.col("negative_weight"),
        "prob_true": ns.ratio(ns.col("positive_weight"), total),
        "prob_pred": ns.ratio(ns.col("score_weight"), total),
    }
