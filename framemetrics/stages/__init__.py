"""The relational stages, each written once on :class:`~framemetrics.core.frame.Frame`.

A stage is a program over a frame and its namespace (joins, windows,
aggregates), run by every engine through the frame it is given: a
:class:`~framemetrics.compilers.polars.frame.PolarsFrame` or a
:class:`~framemetrics.compilers.sql.frame.SqlFrame`. A stage module imports
no backend: no :mod:`framemetrics.compilers`, no ``polars``, no ``sqlglot``.
"""

from __future__ import annotations

from collections.abc import Sequence

__all__ = ["group_keys"]


def group_keys(by: Sequence[str]) -> list[str]:
    """The stages' names of the group columns ``by``.

    Examples
    --------
    >>> group_keys(["country", "month"])
    ['fm_g0', 'fm_g1']
    """
    return [f"fm_g{i}" for i in range(len(by))]
