"""The README's metric tables, generated from the registry between marker comments.

Each table (:data:`TABLES`) lists the binary or regression metrics of some
families, one row per metric from its registry entry: name, formula (its
``Doc.readme``) and reference. ``python -m framemetrics.readme [README.md]``
rewrites the tables in place; a test fails when the README is stale.

Examples
--------
>>> print(render_table("regression").splitlines()[2])
| `mean_squared_error` | Σ w e² / Σ w | `mean_squared_error` |
"""

from __future__ import annotations

import sys
from pathlib import Path

from framemetrics.core.registry import REGISTRY

__all__ = ["README", "TABLES", "marker", "render_table", "update_readme"]

README = Path(__file__).resolve().parents[1] / "README.md"
# Each table's name and the metric families it lists.
TABLES = {"binary": ("classification", "probability"), "ranking": ("ranking",), "regression": ("regression",)}


def marker(table: str, end: bool = False) -> str:
    """The comment opening (or closing) ``table`` in the README.

    Examples
    --------
    >>> marker("binary"), marker("binary", end=True)
    ('<!-- metrics:binary:start -->', '<!-- metrics:binary:end -->')
    """
    return f"<!-- metrics:{table}:{'end' if end else 'start'} -->"


def _cell(text: str) -> str:
    return text.replace("|", "\\|").replace("*", "\\*")


def render_table(table: str) -> str:
    """The Markdown table of ``table``'s metrics, in registry order."""
    rows = ["| metric | formula | reference |", "|---|---|---|"]
    for name, metric in REGISTRY.items():
        if metric.family in TABLES[table] and metric.doc is not None:
            rows.append(f"| `{name}` | {_cell(metric.doc.readme)} | {_cell(metric.reference)} |")
    return "\n".join(rows) + "\n"


def update_readme(text: str) -> str:
    """``text`` with every table between its markers regenerated."""
    for table in TABLES:
        start, end = marker(table), marker(table, end=True)
        head, rest = text.split(start + "\n", 1)
        _, tail = rest.split(end, 1)
        text = f"{head}{start}\n{render_table(table)}{end}{tail}"
    return text


if __name__ == "__main__":
    path = Path(sys.argv[1]) if len(sys.argv) > 1 else README
    path.write_text(update_readme(path.read_text(encoding="utf-8")), encoding="utf-8")
