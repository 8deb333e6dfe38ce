"""Write a result frame: an aligned table on a terminal, CSV, JSON, Parquet or Markdown elsewhere."""

from __future__ import annotations

import sys
from pathlib import Path

import click
import polars as pl
from rich.console import Console
from rich.table import Table

__all__ = ["FORMATS", "choose_format", "render_table", "stdout_console", "write_frame"]

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


def _cell(value: object) -> str:
    if value is None:
        return "null"
    if isinstance(value, float):
        return f"{value:.6g}"
    if isinstance(value, int) and not isinstance(value, bool):
        return f"{value:,}"
    return str(value)


def render_table(frame: pl.DataFrame, title: str | None = None) -> Table:
    """A rich table of ``frame``: numbers right-aligned to 6 significant digits, the middle of long frames elided.

    Examples
    --------
    >>> table = render_table(pl.DataFrame({"seg": ["a"], "auc": [0.91234]}))
    >>> [c.header for c in table.columns]
    ['seg', 'auc']
    """
    table = Table(title=title, title_justify="left", header_style="bold")
    for name, dtype in frame.schema.items():
        table.add_column(name, justify="right" if dtype.is_numeric() else "left", overflow="fold")
    rows = frame.rows()
    if len(rows) > 2 * _SHOWN:
        hidden = len(rows) - 2 * _SHOWN
        head, tail = rows[:_SHOWN], rows[-_SHOWN:]
        rows = [*head, tuple(f"… {hidden:,} more" if i == 0 else "…" for i in range(frame.width)), *tail]
    for row in rows:
        table.add_row(*(_cell(v) for v in row))
    return table


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
                Console(file=file, width=200).print(render_table(frame, title))
        else:
            console.print(render_table(frame, title))
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
