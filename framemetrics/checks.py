"""Input domains: which rows of a column are invalid, in both engines.

A check is named ``invalid_<domain>_<role>`` and counts the invalid rows of
one input role (``y_true``, ``y_pred``, ``y_score``, ``sample_weight``) per
group. Its SQL is the macro ``fm_invalid_<domain>`` of ``sql/framemetrics.sql``.
A group with an invalid row gets NULL metrics; :func:`framemetrics.evaluate`
raises a ``ValueError`` naming the column and the number of rows instead.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

import polars as pl

from framemetrics.inputs import MetricInputs

__all__ = ["Check", "check"]


def _float(x: pl.Expr) -> pl.Expr:
    return x.cast(pl.Float64)


def _label(x: pl.Expr, inputs: MetricInputs) -> pl.Expr:
    return (x == inputs.pos_label) | (x == inputs.neg_label)


# Each domain: the predicate of a *valid* row, whether a null row is invalid,
# and the words of the error message. NaN fails every predicate but log1p's
# (the finite check counts those rows).
_DOMAINS: dict[str, tuple[Callable[[pl.Expr, MetricInputs], pl.Expr], bool, str]] = {
    "label": (_label, True, "null, NaN or not one of the labels {pos_label!r}, {neg_label!r}"),
    "score": (lambda x, _: ~_float(x).is_nan(), True, "null or NaN"),
    "probability": (
        lambda x, _: ~_float(x).is_nan() & (_float(x) >= 0) & (_float(x) <= 1),
        True,
        "null, NaN or outside [0, 1]",
    ),
    "finite": (lambda x, _: _float(x).is_finite(), True, "null, NaN or infinite"),
    "weight": (lambda x, _: _float(x).is_finite() & (_float(x) >= 0), True, "null, NaN, infinite or negative"),
    "log1p": (lambda x, _: _float(x) > -1, False, "<= -1 (log(1 + x) is undefined)"),
}


@dataclass(frozen=True)
class Check:
    """Count of the rows of input ``role`` outside ``domain``.

    Examples
    --------
    >>> check("probability", "y_score").name
    'invalid_probability_y_score'
    """

    domain: str
    role: str

    @property
    def name(self) -> str:
        """Column name of the count in both engines."""
        return f"invalid_{self.domain}_{self.role}"

    @property
    def sql_macro(self) -> str:
        """Name of the DuckDB macro counting the invalid rows."""
        return f"fm_invalid_{self.domain}"

    def polars(self, inputs: MetricInputs) -> pl.Expr:
        """The count as a Polars aggregation."""
        valid, null_is_invalid, _ = _DOMAINS[self.domain]
        invalid = ~valid(getattr(inputs, self.role), inputs).fill_null(not null_is_invalid)
        return invalid.cast(pl.Int64).sum()

    def describe(self, pos_label: object, neg_label: object) -> str:
        """What makes a row invalid, for error messages."""
        return _DOMAINS[self.domain][2].format(pos_label=pos_label, neg_label=neg_label)


def check(domain: str, role: str) -> Check:
    """The check of ``role`` against ``domain`` (see :class:`Check`)."""
    if domain not in _DOMAINS:
        raise ValueError(f"unknown domain {domain!r}")
    return Check(domain, role)
