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

import itertools
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
    "column_problems",
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
    known when the query is built, so no macro has these domains). ``parts``
    name what makes a value invalid, each after "3 rows are" (or "3 rows have"
    with ``verb="have"``); ``covers`` names the domains whose invalid values
    are all invalid here too (``probability`` covers ``finite``: a null, NaN or
    infinite value is outside [0, 1]), so that one message names each problem
    of a column once (:func:`column_problems`).
    """

    valid: Callable[..., Expr]
    null_is_invalid: bool
    parts: tuple[str, ...]
    labels_listed: bool = False
    verb: str = "be"
    covers: frozenset[str] = frozenset()

    @property
    def words(self) -> str:
        """The parts as one phrase: ``"null, NaN or infinite"``."""
        return _listed(self.parts)


def _listed(parts: Sequence[str]) -> str:
    return parts[0] if len(parts) == 1 else f"{', '.join(parts[:-1])} or {parts[-1]}"


def _probability(ns: Namespace, x: Expr, *_: Expr) -> Expr:
    v = ns.to_float(x)
    return ns.all(ns.not_(ns.is_nan(v)), v >= 0, v <= 1)


def _nonnegative(ns: Namespace, x: Expr, *_: Expr) -> Expr:
    return ns.all(ns.is_finite(ns.to_float(x)), ns.to_float(x) >= 0)


def _one_of(ns: Namespace, x: Expr, *labels: Expr) -> Expr:
    return ns.any(*(ns.eq(x, label) for label in labels))


_FINITE = frozenset({"present", "score", "finite"})
# NaN fails every predicate but log1p's (the finite check counts those rows).
DOMAINS: dict[str, Domain] = {
    "label": Domain(
        _one_of,
        True,
        ("null", "NaN", "not one of the labels {pos_label!r}, {neg_label!r}"),
        covers=frozenset({"present"}),
    ),
    "class": Domain(_one_of, True, ("null", "not one of labels"), labels_listed=True, covers=frozenset({"present"})),
    "length": Domain(lambda ns, x, n: ns.eq(x, n), False, ("not lists of one score per label",), labels_listed=True),
    "score": Domain(
        lambda ns, x, *_: ns.not_(ns.is_nan(ns.to_float(x))), True, ("null", "NaN"), covers=frozenset({"present"})
    ),
    "probability": Domain(_probability, True, ("null", "NaN", "outside [0, 1]"), covers=_FINITE | {"log1p"}),
    "finite": Domain(
        lambda ns, x, *_: ns.is_finite(ns.to_float(x)),
        True,
        ("null", "NaN", "infinite"),
        covers=frozenset({"present", "score"}),
    ),
    "weight": Domain(
        _nonnegative, True, ("null", "NaN", "infinite", "negative"), covers=_FINITE | {"log1p", "nonnegative"}
    ),
    "nonnegative": Domain(
        _nonnegative, True, ("null", "NaN", "infinite", "negative"), covers=_FINITE | {"log1p", "weight"}
    ),
    "positive": Domain(
        lambda ns, x, *_: ns.all(ns.is_finite(ns.to_float(x)), ns.to_float(x) > 0),
        True,
        ("null", "NaN", "infinite", "zero", "negative"),
        covers=_FINITE | {"log1p", "weight", "nonnegative"},
    ),
    "log1p": Domain(lambda ns, x, *_: ns.to_float(x) > -1, False, ("<= -1 (log(1 + x) is undefined)",)),
    "present": Domain(lambda ns, x, *_: ns.lit(True), True, ("null",)),
    "simplex": Domain(
        lambda ns, x, *_: ns.abs(ns.to_float(x) - 1) <= SIMPLEX_TOLERANCE,
        False,
        ("class probabilities that do not sum to 1 (|sum - 1| > 1e-5)",),
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
    return f"{count} {'row' if count == 1 else 'rows'} {_verb(count, verb)}"


def _verb(count: int, verb: str) -> str:
    """``verb`` ("be" or "have") agreeing with ``count``: "is", "are", "has", "have"."""
    singular, plural = {"be": ("is", "are"), "have": ("has", "have")}[verb]
    return singular if count == 1 else plural


def invalid_input(problems: Sequence[str], null_rows: int, nan_kept: bool = False) -> ValueError:
    """The error for invalid rows: each problem, then how many rows ``nulls="drop"`` would drop, if any;
    ``nan_kept``: the rows were read with ``nulls="drop"`` and a problem may be NaN, which it keeps.

    Examples
    --------
    >>> str(invalid_input(["column 'p' (y_score): 2 rows are null, NaN or outside [0, 1]"], 1))
    "invalid input: column 'p' (y_score): 2 rows are null, NaN or outside [0, 1] (1 row has a null: nulls='drop' drops such rows)"
    >>> str(invalid_input(["column 'p' (y_score): 2 rows are NaN"], 0, nan_kept=True))
    "invalid input: column 'p' (y_score): 2 rows are NaN (nulls='drop' drops nulls, not NaN)"
    """
    hint = f" ({rows(null_rows, 'have')} a null: nulls='drop' drops such rows)" if null_rows else ""
    hint = hint or (" (nulls='drop' drops nulls, not NaN)" if nan_kept else "")
    return ValueError("invalid input: " + "; ".join(problems) + hint)


def _covered(a: Check, b: Check) -> bool:
    """Whether the invalid values of ``a`` are invalid values of ``b`` or the other way round."""
    return a.domain in DOMAINS[b.domain].covers or b.domain in DOMAINS[a.domain].covers


def column_problems(
    counts: Sequence[tuple[Check, int]], labels: tuple[Any, Any] = (None, None), dropped: bool = False
) -> list[tuple[int, str, str]]:
    """Each distinct problem of one column's invalid rows, once, with its row count: ``(count, verb, words)``.

    ``counts`` are the column's checks and their counts of invalid rows (0
    included: a check that finds nothing rules its problems out). The rows of
    a check that the checks it covers (:attr:`Domain.covers`) count already
    are not counted again: with 5 NaN scores the ``score``, ``finite`` and
    ``probability`` checks each count 5, which are 5 rows null or NaN and
    nothing more. Where the covered checks are not nested (``finite`` and
    ``log1p`` under ``positive``) their union is unknown, and the covering
    check's count is told "in all". ``dropped``: rows with a null were
    dropped (``nulls="drop"``), so no problem is a null. ``labels`` are
    ``pos_label, neg_label``, as the label check names them.

    Examples
    --------
    >>> nan = [(check("score", "p"), 5), (check("finite", "p"), 5), (check("probability", "p"), 5)]
    >>> column_problems(nan)
    [(5, 'be', 'null or NaN')]
    >>> column_problems([(check("finite", "p"), 2), (check("probability", "p"), 3)], dropped=True)
    [(2, 'be', 'NaN or infinite'), (1, 'be', 'outside [0, 1]')]
    """
    seen: list[tuple[Check, int]] = []
    problems = []
    for invalid, count in sorted(counts, key=lambda item: len(DOMAINS[item[0].domain].covers)):
        domain = DOMAINS[invalid.domain]
        inner = [(c, n) for c, n in seen if c.domain in domain.covers]
        seen.append((invalid, count))
        found = [c for c, n in inner if n]  # a check that finds nothing is nested with any other
        nested = all(_covered(a, b) for a, b in itertools.combinations(found, 2))
        excluded = {p for c, n in inner if nested or not n for p in DOMAINS[c.domain].parts}
        extra = count - max((n for _, n in inner), default=0) if nested else count
        parts = [p for p in domain.parts if p not in excluded and not (dropped and p == "null")]
        if extra > 0:
            words = _listed(parts or domain.parts).format(pos_label=labels[0], neg_label=labels[1])
            problems.append((extra, domain.verb, words if nested else f"{words} (in all)"))
    return problems


def _sentence(problems: Sequence[tuple[int, str, str]]) -> str:
    """``"5 rows are NaN, 1 is infinite"``: the first count with "rows", the others alone."""
    (count, verb, words), *rest = problems
    said = [f"{rows(count, verb)} {words}"]
    said += [f"{n} {_verb(n, v)} {w}" for n, v, w in rest]
    return ", ".join(said)


def raise_for_invalid(
    counts: Mapping[Check, int],
    describe: Callable[[Check, int], tuple[str, str | None]],
    null_rows: Callable[[list[str]], int],
    nulls: str,
    n_rows: int | None = None,
    labels: tuple[Any, Any] = (None, None),
) -> None:
    """Raise the one error for invalid rows, every task's: one sentence per column naming each of its problems
    once with its row count (:func:`column_problems`), then the rows with a null; or, given the number of rows
    used (``n_rows``), that no row is left.

    ``counts`` holds each check's number of invalid rows; the checks of one
    column (one role and index) are told together. ``describe(check,
    count)`` says where (``"column 'p' (y_score)"``) and names the column
    whose nulls count as invalid (None if none does); ``null_rows(columns)``
    counts the source's rows with a null in any of them, told where
    ``nulls="error"``: those ``nulls="drop"`` would drop. With
    ``nulls="drop"`` the message says that NaN is kept where a problem may
    be one. ``labels`` are ``pos_label, neg_label``, as the label check names them.

    Examples
    --------
    >>> score, probability = check("score", "y_score"), check("probability", "y_score")
    >>> where = lambda c, n: ("column 'p' (y_score)", "p")
    >>> raise_for_invalid({score: 0, probability: 2}, where, lambda cs: 1, "error")
    Traceback (most recent call last):
    ...
    ValueError: invalid input: column 'p' (y_score): 2 rows are outside [0, 1] (1 row has a null: \
nulls='drop' drops such rows)
    >>> raise_for_invalid({score: 5, probability: 5}, where, lambda cs: 0, "drop")
    Traceback (most recent call last):
    ...
    ValueError: invalid input: column 'p' (y_score): 5 rows are NaN (nulls='drop' drops nulls, not NaN)
    """
    columns: dict[tuple[str, int | None], list[tuple[Check, int]]] = {}
    for invalid, count in counts.items():
        columns.setdefault((invalid.role, invalid.index), []).append((invalid, count))
    problems, nullable, nan_kept = [], [], False
    for checked in columns.values():
        found = [(c, n) for c, n in checked if n]
        if not found:
            continue
        where, column = describe(*found[0])
        told = column_problems(checked, labels, dropped=nulls == "drop")
        problems.append(f"{where}: {_sentence(told)}")
        nan_kept |= nulls == "drop" and any("NaN" in words for _, _, words in told)
        if column is not None and column not in nullable and any(c.counts_nulls for c, _ in found):
            nullable.append(column)
    if problems:
        raise invalid_input(problems, null_rows(nullable) if nulls == "error" and nullable else 0, nan_kept)
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
