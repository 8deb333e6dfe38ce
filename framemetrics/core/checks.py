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

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from framemetrics.core.namespace import Namespace

__all__ = [
    "DOMAINS",
    "SIMPLEX_TOLERANCE",
    "Check",
    "Domain",
    "check",
    "check_counts",
    "invalid_input",
    "raise_for_invalid",
    "rows",
]

SIMPLEX_TOLERANCE = 1e-5

Expr = Any


@dataclass(frozen=True)
class Domain:
    """The predicate of a valid value, whether null is invalid, and the words of the error message.

    ``valid(ns, x, *labels)`` reads the labels of the evaluation: ``pos_label,
    neg_label`` for ``label``, the class list of a multiclass evaluation for
    ``class``, the number of classes for ``length`` (``labels_listed``: values
    known when the query is built, so no macro has these domains). ``words``
    follow "3 rows are" (or "3 rows have" with ``verb="have"``).
    """

    valid: Callable[..., Expr]
    null_is_invalid: bool
    words: str
    labels_listed: bool = False
    verb: str = "be"


def _probability(ns: Namespace, x: Expr, *_: Expr) -> Expr:
    v = ns.to_float(x)
    return ns.all(ns.not_(ns.is_nan(v)), v >= 0, v <= 1)


def _nonnegative(ns: Namespace, x: Expr, *_: Expr) -> Expr:
    return ns.all(ns.is_finite(ns.to_float(x)), ns.to_float(x) >= 0)


def _one_of(ns: Namespace, x: Expr, *labels: Expr) -> Expr:
    return ns.any(*(ns.eq(x, label) for label in labels))


# NaN fails every predicate but log1p's (the finite check counts those rows).
DOMAINS: dict[str, Domain] = {
    "label": Domain(_one_of, True, "null, NaN or not one of the labels {pos_label!r}, {neg_label!r}"),
    "class": Domain(_one_of, True, "null or not one of labels", labels_listed=True),
    "length": Domain(lambda ns, x, n: ns.eq(x, n), False, "not lists of one score per label", labels_listed=True),
    "score": Domain(lambda ns, x, *_: ns.not_(ns.is_nan(ns.to_float(x))), True, "null or NaN"),
    "probability": Domain(_probability, True, "null, NaN or outside [0, 1]"),
    "finite": Domain(lambda ns, x, *_: ns.is_finite(ns.to_float(x)), True, "null, NaN or infinite"),
    "weight": Domain(_nonnegative, True, "null, NaN, infinite or negative"),
    "nonnegative": Domain(_nonnegative, True, "null, NaN, infinite or negative"),
    "positive": Domain(
        lambda ns, x, *_: ns.all(ns.is_finite(ns.to_float(x)), ns.to_float(x) > 0),
        True,
        "null, NaN, infinite, zero or negative",
    ),
    "log1p": Domain(lambda ns, x, *_: ns.to_float(x) > -1, False, "<= -1 (log(1 + x) is undefined)"),
    "present": Domain(lambda ns, x, *_: ns.lit(True), True, "null"),
    "simplex": Domain(
        lambda ns, x, *_: ns.abs(ns.to_float(x) - 1) <= SIMPLEX_TOLERANCE,
        False,
        "class probabilities that do not sum to 1 (|sum - 1| > 1e-5)",
        verb="have",
    ),
}


@dataclass(frozen=True)
class Check:
    """Count of the rows of input ``role`` outside ``domain``.

    ``index`` numbers the score columns of a multiclass evaluation (``y_score_0``...).

    Examples
    --------
    >>> check("probability", "y_score").name, check("finite", "y_score", 2).name
    ('invalid_probability_y_score', 'invalid_finite_y_score_2')
    """

    domain: str
    role: str
    index: int | None = None

    @property
    def name(self) -> str:
        """Column name of the count in every engine."""
        return f"invalid_{self.domain}_{self.role}" + ("" if self.index is None else f"_{self.index}")

    @property
    def sql_macro(self) -> str:
        """Name of the DuckDB macro counting the invalid rows."""
        return f"fm_invalid_{self.domain}"

    def invalid(self, ns: Namespace, x: Expr, *labels: Expr) -> Expr:
        """The condition of an invalid row (null never counts as true); ``labels`` as :class:`Domain` reads them."""
        domain = DOMAINS[self.domain]
        outside = ns.not_(domain.valid(ns, x, *labels))
        return ns.any(ns.is_null(x), outside) if domain.null_is_invalid else outside

    def count(self, ns: Namespace, x: Expr, *labels: Expr) -> Expr:
        """The number of invalid rows of the group, as an aggregation."""
        return ns.count_where(self.invalid(ns, x, *labels))

    def describe(self, count: int, pos_label: object = None, neg_label: object = None) -> str:
        """``count`` invalid rows and what makes them invalid, for error messages.

        Examples
        --------
        >>> check("probability", "y_score").describe(1)
        '1 row is null, NaN or outside [0, 1]'
        >>> check("simplex", "y_score").describe(2)
        '2 rows have class probabilities that do not sum to 1 (|sum - 1| > 1e-5)'
        """
        domain = DOMAINS[self.domain]
        return f"{rows(count, domain.verb)} {domain.words.format(pos_label=pos_label, neg_label=neg_label)}"

    @property
    def counts_nulls(self) -> bool:
        """Whether a null counts as invalid (``nulls="drop"`` drops those rows before the checks)."""
        return DOMAINS[self.domain].null_is_invalid


def rows(count: int, verb: str = "be") -> str:
    """``count`` rows with the verb agreeing: "1 row is", "3 rows are", "1 row has".

    Examples
    --------
    >>> rows(1), rows(12), rows(1, "have"), rows(0, "have")
    ('1 row is', '12 rows are', '1 row has', '0 rows have')
    """
    forms = {"be": ("is", "are"), "have": ("has", "have")}[verb]
    return f"{count} row {forms[0]}" if count == 1 else f"{count} rows {forms[1]}"


def invalid_input(problems: Sequence[str], null_rows: int) -> ValueError:
    """The error for invalid rows: each problem, then how many rows ``nulls="drop"`` would drop, if any.

    Examples
    --------
    >>> str(invalid_input(["column 'p' (y_score): 2 rows are null, NaN or outside [0, 1]"], 1))
    "invalid input: column 'p' (y_score): 2 rows are null, NaN or outside [0, 1] (1 row has a null: nulls='drop' drops such rows)"
    """
    hint = f" ({rows(null_rows, 'have')} a null: nulls='drop' drops such rows)" if null_rows else ""
    return ValueError("invalid input: " + "; ".join(problems) + hint)


def raise_for_invalid(
    counts: Mapping[Check, int],
    describe: Callable[[Check, int], tuple[str, str | None]],
    null_rows: Callable[[list[str]], int],
    nulls: str,
    n_rows: int | None = None,
) -> None:
    """Raise the one error for invalid rows, every task's: each check's problem, then the rows with a null;
    or, given the number of rows used (``n_rows``), that no row is left.

    ``counts`` holds each check's number of invalid rows; ``describe(check,
    count)`` says where and what (``"column 'p' (y_score): 2 rows are..."``)
    and names the column whose nulls count as invalid (None if none does);
    ``null_rows(columns)`` counts the source's rows with a null in any of
    them, told where ``nulls="error"``: those ``nulls="drop"`` would drop.

    Examples
    --------
    >>> probability = check("probability", "y_score")
    >>> raise_for_invalid({probability: 2}, lambda c, n: (f"column 'p': {c.describe(n)}", "p"), lambda cs: 1, "error")
    Traceback (most recent call last):
    ...
    ValueError: invalid input: column 'p': 2 rows are null, NaN or outside [0, 1] (1 row has a null: \
nulls='drop' drops such rows)
    """
    problems, nullable = [], []
    for invalid, count in counts.items():
        if count:
            problem, column = describe(invalid, count)
            problems.append(problem)
            nullable += [column] if column is not None and invalid.counts_nulls else []
    if problems:
        raise invalid_input(problems, null_rows(nullable) if nulls == "error" and nullable else 0)
    if n_rows == 0:
        raise ValueError("no rows to evaluate" + (" after dropping rows with nulls" if nulls == "drop" else ""))


def check_counts(checks: Sequence[Check], ns: Namespace, pos_label: Any, neg_label: Any) -> dict[str, Expr]:
    """Each check's count of invalid rows over the canonical columns (named by role), as aggregations of ``ns``.

    Examples
    --------
    >>> from framemetrics.compilers.sql import SQL
    >>> counts = check_counts([check("finite", "y_score")], SQL, 1, 0)
    >>> list(counts)
    ['invalid_finite_y_score']
    """
    labels = (ns.lit(pos_label), ns.lit(neg_label))
    return {c.name: c.count(ns, ns.col(c.role), *labels) for c in checks}


def check(domain: str, role: str, index: int | None = None) -> Check:
    """The check of ``role`` (score column ``index``) against ``domain`` (see :class:`Check`)."""
    if domain not in DOMAINS:
        raise ValueError(f"unknown domain {domain!r}")
    return Check(domain, role, index)
