"""Input domains, written once: which rows of an input column are invalid.

A check is named ``invalid_<domain>_<role>`` and counts, per group, the rows
of one input role (``y_true``, ``y_pred``, ``y_score``, ``sample_weight``)
outside its domain. A group with an invalid row gets null metrics;
:func:`framemetrics.evaluate` raises a ``ValueError`` naming the column and
the number of rows instead. The macro file's ``fm_invalid_<domain>`` macros
are generated from :data:`DOMAINS`.

Examples
--------
>>> from framemetrics.compilers.sql import SQL
>>> from framemetrics.compilers.sql.emit import to_sql
>>> to_sql(check("probability", "y_score").count(SQL, SQL.col("x")))
'COUNT(*) FILTER(WHERE x IS NULL OR NOT (NOT ISNAN(CAST(x AS DOUBLE)) AND CAST(x AS DOUBLE) >= 0 AND CAST(x AS DOUBLE) <= 1))'
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from framemetrics.core.namespace import Namespace

__all__ = ["DOMAINS", "SIMPLEX_TOLERANCE", "Check", "Domain", "check", "class_count"]

SIMPLEX_TOLERANCE = 1e-5

Expr = Any


@dataclass(frozen=True)
class Domain:
    """The predicate of a valid value, whether null is invalid, and the words of the error message."""

    valid: Callable[[Namespace, Expr, Expr, Expr], Expr]
    null_is_invalid: bool
    words: str


def _probability(ns: Namespace, x: Expr, *_: Expr) -> Expr:
    v = ns.to_float(x)
    return ns.all(ns.not_(ns.is_nan(v)), v >= 0, v <= 1)


# NaN fails every predicate but log1p's (the finite check counts those rows).
DOMAINS: dict[str, Domain] = {
    "label": Domain(
        lambda ns, x, pos, neg: ns.any(ns.eq(x, pos), ns.eq(x, neg)),
        True,
        "null, NaN or not one of the labels {pos_label!r}, {neg_label!r}",
    ),
    "score": Domain(lambda ns, x, *_: ns.not_(ns.is_nan(ns.to_float(x))), True, "null or NaN"),
    "probability": Domain(_probability, True, "null, NaN or outside [0, 1]"),
    "finite": Domain(lambda ns, x, *_: ns.is_finite(ns.to_float(x)), True, "null, NaN or infinite"),
    "weight": Domain(
        lambda ns, x, *_: ns.all(ns.is_finite(ns.to_float(x)), ns.to_float(x) >= 0),
        True,
        "null, NaN, infinite or negative",
    ),
    "log1p": Domain(lambda ns, x, *_: ns.to_float(x) > -1, False, "<= -1 (log(1 + x) is undefined)"),
    "present": Domain(lambda ns, x, *_: ns.lit(True), True, "null"),
    "simplex": Domain(
        lambda ns, x, *_: ns.abs(ns.to_float(x) - 1) <= SIMPLEX_TOLERANCE,
        False,
        "rows whose class probabilities do not sum to 1 (|sum - 1| > 1e-5)",
    ),
}


def class_count(ns: Namespace, x: Expr, labels: list[Expr]) -> Expr:
    """The number of rows of the group whose class is null or not one of ``labels`` (literals)."""
    return ns.count_where(ns.any(ns.is_null(x), ns.not_(ns.any(*(ns.eq(x, label) for label in labels)))))


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
        """Column name of the count in every engine."""
        return f"invalid_{self.domain}_{self.role}"

    @property
    def sql_macro(self) -> str:
        """Name of the DuckDB macro counting the invalid rows."""
        return f"fm_invalid_{self.domain}"

    def invalid(self, ns: Namespace, x: Expr, pos_label: Expr = None, neg_label: Expr = None) -> Expr:
        """The condition of an invalid row (null never counts as true)."""
        domain = DOMAINS[self.domain]
        outside = ns.not_(domain.valid(ns, x, pos_label, neg_label))
        return ns.any(ns.is_null(x), outside) if domain.null_is_invalid else outside

    def count(self, ns: Namespace, x: Expr, pos_label: Expr = None, neg_label: Expr = None) -> Expr:
        """The number of invalid rows of the group, as an aggregation."""
        return ns.count_where(self.invalid(ns, x, pos_label, neg_label))

    def describe(self, pos_label: object, neg_label: object) -> str:
        """What makes a row invalid, for error messages."""
        return DOMAINS[self.domain].words.format(pos_label=pos_label, neg_label=neg_label)


def check(domain: str, role: str) -> Check:
    """The check of ``role`` against ``domain`` (see :class:`Check`)."""
    if domain not in DOMAINS:
        raise ValueError(f"unknown domain {domain!r}")
    return Check(domain, role)
