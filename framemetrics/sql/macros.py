"""Read the DuckDB macros of ``sql/framemetrics.sql`` and inline them as SQL text.

The ``.sql`` file is the only SQL definition of every statistic and formula.
:func:`expand` turns a macro call into plain SQL (no macros needed at run
time), so a query can be pasted into any DuckDB session or ported to another
engine.
"""

from __future__ import annotations

import functools
import re
from dataclasses import dataclass
from pathlib import Path

__all__ = ["Macro", "expand", "macro_file", "macros"]

_DEFINITION = re.compile(r"CREATE OR REPLACE MACRO (\w+)\(([^)]*)\) AS\s+(.*?);\s*$", re.DOTALL | re.MULTILINE)
_CALL = re.compile(r"\b(fm_\w+)\(")


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


def _split_arguments(text: str, start: int) -> tuple[list[str], int]:
    """Split the arguments of a call whose '(' is at ``start - 1``."""
    depth, args, current, i = 0, [], start, start
    while True:
        char = text[i]
        if char == "(":
            depth += 1
        elif char == ")" and depth > 0:
            depth -= 1
        elif char == ")":
            args.append(text[current:i].strip())
            return [a for a in args if a], i + 1
        elif char == "," and depth == 0:
            args.append(text[current:i].strip())
            current = i + 1
        elif char == "'":
            i = text.index("'", i + 1)
        i += 1


def _substitute(body: str, mapping: dict[str, str]) -> str:
    if not mapping:
        return body
    pattern = re.compile(r"(?<![\w.\"])(" + "|".join(map(re.escape, mapping)) + r")\b(?!\s*\()")
    return pattern.sub(lambda m: mapping[m.group(1)], body)


def _expand_nested(text: str) -> str:
    """Inline every ``fm_*`` macro call in ``text``, innermost first."""
    while match := _CALL.search(text):
        macro = macros()[match.group(1)]
        args, end = _split_arguments(text, match.end())
        if len(args) != len(macro.params):
            raise ValueError(f"{macro.name} takes {len(macro.params)} arguments, got {len(args)}")
        inlined = _substitute(macro.body, {p: f"({a})" for p, a in zip(macro.params, args, strict=True)})
        text = text[: match.start()] + f"({inlined})" + text[end:]
    return text


def expand(name: str, arguments: dict[str, str]) -> str:
    """Inline macro ``name`` with its parameters replaced by SQL text.

    Parameters
    ----------
    name : str
        A macro of the macro file, e.g. ``"fm_formula_f1_score"``.
    arguments : dict of str to str
        SQL text for some parameters (already quoted or rendered as
        literals), substituted after the nested macros are inlined, so it is
        never read as macro calls. Parameters not given keep their own name,
        which is the name of a column of the surrounding query.

    Returns
    -------
    str
        Plain SQL: no macro calls remain.

    Examples
    --------
    >>> expand("fm_formula_recall_score", {"n_invalid": "0", "zero_division": "NULL"})
    'CASE WHEN 0 > 0 THEN CAST(NULL AS DOUBLE) WHEN tp + fn = 0 THEN NULL ELSE tp / (tp + fn) END'
    """
    macro = macros()[name]
    unknown = set(arguments) - set(macro.params)
    if unknown:
        raise ValueError(f"{name} has no parameters {sorted(unknown)}")
    return _substitute(_expand_nested(macro.body), arguments)
