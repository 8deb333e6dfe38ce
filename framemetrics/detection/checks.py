"""What detection inputs must satisfy, counted in the engine before anything is computed.

Every check counts its offending rows in one aggregate; all of a call's
counts are one row of one query, run before the evaluation. A count above 0
raises a ``ValueError`` naming the column, its table and the count, as
``evaluate`` does: null ids, null/NaN/infinite coordinates or scores,
negative sizes, ``iscrowd``/``difficult`` other than 0 or 1, repeated ids,
images listed twice, boxes on images that ``images`` does not list, and
images whose segment differs between ground truth and detections.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from framemetrics.core.checks import DOMAINS, check, invalid_input, rows
from framemetrics.core.frame import Frame

__all__ = ["Checks"]

Expr = Any


@dataclass
class Checks:
    """The counts of one call: one-row frames of named counts, and what each count means."""

    counts: list[Frame] = field(default_factory=list)
    words: dict[str, str] = field(default_factory=dict)

    def _add(self, frame: Frame, counts: Mapping[str, tuple[str, Expr]]) -> None:
        first = len(self.words)
        names = {f"fm_check_{first + i}": value for i, value in enumerate(counts.values())}
        self.words |= {name: text for name, (text, _) in zip(names, counts.values(), strict=True)}
        self.counts.append(frame.aggregate([], {name: condition for name, (_, condition) in names.items()}))

    def rows_where(self, frame: Frame, table: str, conditions: Mapping[str, tuple[str, Expr]]) -> None:
        """Count the rows of ``frame`` where each condition holds: ``{column: (what they are, condition)}``."""
        ns = frame.ns
        self._add(frame, {
            column: (f"column {column!r} ({table}): {{rows}} {text}", ns.count_where(condition))
            for column, (text, condition) in conditions.items()
        })  # fmt: skip

    def domains(self, frame: Frame, table: str, values: Mapping[str, tuple[Expr, str]]) -> None:
        """Count the rows outside a domain of :mod:`framemetrics.core.checks`: ``{column: (value, domain)}``.

        The domains and their words are the metrics' own (``present``: null;
        ``finite``: null, NaN or infinite; ``nonnegative``: also negative).
        """
        ns = frame.ns
        self._add(frame, {
            column: (f"column {column!r} ({table}): {{rows}} {DOMAINS[domain].words}", check(domain, column).count(ns, value))
            for column, (value, domain) in values.items()
        })  # fmt: skip

    def flags(self, frame: Frame, table: str, values: Mapping[str, Expr]) -> None:
        """Count the rows whose flag (``iscrowd``, ``difficult``) is null or not 0 or 1: ``{column: value}``."""
        ns = frame.ns
        self.rows_where(frame, table, {
            column: ("null or not 0 or 1", ns.not_(ns.coalesce(ns.any(ns.eq(v, 0), ns.eq(v, 1)), ns.lit(False))))
            for column, v in values.items()
        })  # fmt: skip

    def repeated(self, frame: Frame, key: str, table: str, column: str) -> None:
        """Count the rows whose ``key`` another row of ``frame`` has too."""
        ns = frame.ns
        c = ns.col
        groups = frame.filter(ns.not_(ns.is_null(c(key)))).aggregate([key], {"fm_rows": ns.count_rows()})
        count = ns.sum(ns.when(c("fm_rows") > 1, c("fm_rows")).otherwise(ns.lit(0)))
        self._add(groups, {"repeated": (f"column {column!r} ({table}): {{rows}} not unique", count)})

    def segments_agree(self, image_rows: Frame, by: Sequence[str]) -> None:
        """Count the images that have more than one segment (``image_rows``: distinct image and segment)."""
        ns = image_rows.ns
        c = ns.col
        groups = image_rows.aggregate(["image_id"], {"fm_rows": ns.count_rows()})
        columns = ", ".join(repr(b) for b in by)
        words = f"{{count}} images have different values of {columns} in ground truth and detections (pass images=)"
        self._add(groups, {"segments": (words, ns.count_where(c("fm_rows") > 1))})

    def unlisted(self, frame: Frame, listed: Frame, table: str) -> None:
        """Count the rows of ``frame`` whose ``image_id`` is not in ``listed``."""
        ns = frame.ns
        c = ns.col
        known = listed.aggregate(["image_id"], {}).with_columns(fm_listed=ns.lit(1))
        joined = frame.keep("image_id").join(known, ["image_id"], "left")
        words = f"column 'image_id' ({table}): {{rows}} on an image that images does not list"
        self._add(joined, {"unlisted": (words, ns.count_where(ns.is_null(c("fm_listed"))))})

    def frame(self) -> Frame:
        """All the counts as one row."""
        first, *rest = self.counts
        for other in rest:
            first = first.join(other, [], "cross")
        return first

    def raise_for(self, counts: Mapping[str, int]) -> None:
        """Raise the ``ValueError`` of every count above 0."""
        problems = [
            words.format(rows=rows(int(counts[n])), count=int(counts[n]))
            for n, words in self.words.items()
            if counts[n]
        ]
        if problems:
            raise invalid_input(problems, 0)
