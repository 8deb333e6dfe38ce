"""Write a result frame: an aligned table on a terminal, CSV, JSON, Parquet or Markdown elsewhere."""

from __future__ import annotations

import itertools
import math
import sys
from pathlib import Path

import click
import polars as pl
from rich.console import Console, Group
from rich.table import Table

__all__ = ["FORMATS", "choose_format", "column_cells", "render_table", "stdout_console", "write_frame"]

FORMATS = ("table", "csv", "json", "parquet", "markdown")
_SUFFIXES = {".csv": "csv", ".json": "json", ".parquet": "parquet", ".pq": "parquet", ".md": "markdown"}
_SHOWN = 40  # rows shown at each end of a long table on a terminal


def stdout_console() -> Console:
    """A console on standard output: the terminal's width, or 240 columns in a pipe or file.

    Examples
    --------
    >>> stdout_console().width > 0
    True
    """
    console = Console()
    return console if console.is_terminal else Console(width=240)


def choose_format(requested: str | None, output: str | None, terminal: bool) -> str:
    """The format asked for, else the output file's suffix, else a table on a terminal and CSV in a pipe.

    Examples
    --------
    >>> choose_format(None, "out.parquet", True), choose_format(None, None, False), choose_format(None, None, True)
    ('parquet', 'csv', 'table')
    """
    if requested:
        return requested
    if output:
        suffix = Path(output).suffix.lower()
        if suffix not in _SUFFIXES:
            raise click.UsageError(f"cannot tell the format of {output!r}: pass --format ({', '.join(FORMATS[1:])})")
        return _SUFFIXES[suffix]
    return "table" if terminal else "csv"


_DIGITS = 4  # significant digits of a float column's largest value; the column shares its decimals
_CHROME = 3  # characters a rich table adds per column (padding and border)


def column_cells(series: pl.Series) -> list[str]:
    """The text of each cell: one number of decimals per float column, thousands separators for integers.

    A float column shows its largest value to four significant digits and
    every value with the same decimals, so a column reads aligned; if a
    nonzero value would read as 0 at those decimals, or the largest is
    1e9 or more, the whole column is in scientific notation.

    Examples
    --------
    >>> column_cells(pl.Series([0.0333, 0.00159787, None]))
    ['0.03330', '0.00160', 'null']
    >>> column_cells(pl.Series([0.91234, 1e-9])), column_cells(pl.Series([12_345, 7]))
    (['9.123e-01', '1.000e-09'], ['12,345', '7'])
    """
    values = series.to_list()
    if series.dtype.is_float():
        return _float_cells(values)
    if series.dtype.is_integer():
        return ["null" if v is None else f"{v:,}" for v in values]
    return ["null" if v is None else str(v) for v in values]


def _float_cells(values: list[float | None]) -> list[str]:
    sizes = [abs(v) for v in values if v is not None and math.isfinite(v) and v != 0]
    if not sizes:
        return ["null" if v is None else str(v) if not math.isfinite(v) else "0" for v in values]
    decimals = max(0, _DIGITS - 1 - math.floor(math.log10(max(sizes))))
    scientific = max(sizes) >= 1e9 or min(sizes) < 0.5 * 10**-decimals
    pattern = f"{{:.{_DIGITS - 1}e}}" if scientific else f"{{:.{decimals}f}}"
    return ["null" if v is None else str(v) if not math.isfinite(v) else pattern.format(v) for v in values]


def render_table(frame: pl.DataFrame, title: str | None = None, width: int = 240) -> Group:
    """Rich tables of ``frame`` within ``width`` characters: no header or number is ever split.

    Columns keep the width of their header and cells; when they do not all
    fit, the frame is shown as several tables, each repeating the leading
    columns that are not floats (the segments and ``n_rows``), as pandas
    wraps a wide frame. Numbers are right-aligned (see :func:`column_cells`)
    and the middle of a long frame is elided.

    Examples
    --------
    >>> frame = pl.DataFrame({"seg": ["a"], "n_rows": [10], "accuracy_score": [0.91234], "log_loss": [0.25]})
    >>> [[c.header for c in t.columns] for t in render_table(frame, width=40).renderables]
    [['seg', 'n_rows', 'accuracy_score'], ['seg', 'n_rows', 'log_loss']]
    """
    cells = {name: column_cells(frame[name]) for name in frame.columns}
    if frame.height > 2 * _SHOWN:
        hidden = frame.height - 2 * _SHOWN
        for i, name in enumerate(frame.columns):
            column = cells[name]
            cells[name] = [*column[:_SHOWN], f"… {hidden:,} more" if i == 0 else "…", *column[-_SHOWN:]]
    widths = {name: max(len(name), *(len(c) for c in column)) for name, column in cells.items()}
    floats = [name for name, dtype in frame.schema.items() if dtype.is_float()]
    keys = list(itertools.takewhile(lambda name: name not in floats, frame.columns))
    room = width - 1 - sum(widths[k] + _CHROME for k in keys)
    blocks: list[list[str]] = []
    for name in (c for c in frame.columns if c not in keys):
        if blocks and sum(widths[c] + _CHROME for c in blocks[-1]) + widths[name] + _CHROME <= room:
            blocks[-1].append(name)
        else:
            blocks.append([name])
    tables = []
    for i, block in enumerate(blocks or [[]]):
        table = Table(title=title if i == 0 else None, title_justify="left", header_style="bold")
        for name in [*keys, *block]:
            numeric = frame.schema[name].is_numeric()
            table.add_column(name, justify="right" if numeric else "left", min_width=widths[name], overflow="fold")
        for row in zip(*(cells[name] for name in [*keys, *block]), strict=True):
            table.add_row(*row)
        tables.append(table)
    return Group(*tables)


def _markdown(frame: pl.DataFrame) -> str:
    config = pl.Config(
        tbl_formatting="MARKDOWN",
        tbl_hide_column_data_types=True,
        tbl_hide_dataframe_shape=True,
        tbl_rows=-1,
        tbl_cols=-1,
        tbl_width_chars=30_000,
        fmt_str_lengths=1_000,
    )
    with config:
        return str(frame) + "\n"


def write_frame(frame: pl.DataFrame, fmt: str, output: str | None, console: Console, title: str | None = None) -> None:
    """Write ``frame`` as ``fmt`` to the file ``output``, or to standard output.

    Examples
    --------
    >>> import io
    >>> console = Console(file=io.StringIO())
    >>> write_frame(pl.DataFrame({"seg": ["a"], "auc": [0.5]}), "csv", None, console)
    seg,auc
    a,0.5
    """
    if fmt == "table":
        if output:
            with open(output, "w", encoding="utf-8") as file:
                Console(file=file, width=200).print(render_table(frame, title, 200))
        else:
            console.print(render_table(frame, title, console.width))
        return
    if fmt == "parquet":
        if output is None and sys.stdout.isatty():
            raise click.UsageError("Parquet is binary: pass --output FILE.parquet or pipe standard output")
        frame.write_parquet(output or sys.stdout.buffer)
        return
    if fmt == "csv":
        text = frame.write_csv()
    elif fmt == "json":
        text = frame.write_json() + "\n"
    else:
        text = _markdown(frame)
    if output:
        Path(output).write_text(text, encoding="utf-8")
    else:
        click.echo(text, nl=False)
