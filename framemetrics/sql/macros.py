"""Where the DuckDB macro file ``sql/framemetrics.sql`` lives, and its macros' names and parameters.

The file is generated from the core (:mod:`framemetrics.sql.user_macros`)
for DuckDB users to ``.read``; the queries never read it, they are built
from the core's trees.
"""

from __future__ import annotations

import functools
import re
from dataclasses import dataclass
from pathlib import Path

__all__ = ["Macro", "macro_file", "macros"]

_DEFINITION = re.compile(r"CREATE OR REPLACE MACRO (\w+)\(([^)]*)\) AS\s+(.*?);\s*$", re.DOTALL | re.MULTILINE)


@dataclass(frozen=True)
class Macro:
    """One ``CREATE MACRO``: its name, parameter names and body text."""

    name: str
    params: tuple[str, ...]
    body: str


def macro_file() -> Path:
    """Path of ``framemetrics.sql``, the DuckDB macro file.

    Returns
    -------
    pathlib.Path
        Inside the installed package, or ``sql/`` of a source checkout.

    Examples
    --------
    >>> macro_file().name
    'framemetrics.sql'
    """
    packaged = Path(__file__).with_name("framemetrics.sql")
    if packaged.exists():
        return packaged
    return Path(__file__).resolve().parents[2] / "sql" / "framemetrics.sql"


def _strip_comments(text: str) -> str:
    return "\n".join(line.split("--", 1)[0].rstrip() for line in text.splitlines())


@functools.cache
def macros() -> dict[str, Macro]:
    """Every macro of the macro file, by name.

    Returns
    -------
    dict of str to Macro

    Examples
    --------
    >>> macros()["fm_stat_tp"].params
    ('y_true', 'y_pred', 'sample_weight', 'pos_label')
    """
    text = _strip_comments(macro_file().read_text(encoding="utf-8"))
    found = {}
    for name, params, body in _DEFINITION.findall(text):
        names = tuple(p.split(":=")[0].strip() for p in params.split(",") if p.strip())
        found[name] = Macro(name, names, " ".join(body.split()))
    return found
