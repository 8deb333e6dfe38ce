"""How the command line reports failures: one line on stderr and an exit code, never a traceback.

Exit codes: 0 success, 1 the input was rejected (invalid rows, missing or
wrongly typed column, no rows), 2 the command was misused (unknown option,
metric, metric parameter or curve, bad value: the library's
:class:`~framemetrics.core.errors.ArgumentError`), 3 a file could not be read (no file matches,
unreadable or corrupt file), 130 interrupted. ``FRAMEMETRICS_DEBUG=1``
shows the traceback instead.
"""

from __future__ import annotations

import os
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

import click
import duckdb
import polars as pl

from framemetrics.core.errors import ArgumentError

__all__ = ["INPUT_REJECTED", "UNREADABLE", "FrameMetricsGroup", "InputRejected", "Unreadable", "reading"]

INPUT_REJECTED = 1
UNREADABLE = 3


class InputRejected(click.ClickException):
    """The data was read but framemetrics rejects it (exit code 1)."""

    exit_code = INPUT_REJECTED


class Unreadable(click.ClickException):
    """A file could not be found or read (exit code 3)."""

    exit_code = UNREADABLE


def _first_line(error: BaseException) -> str:
    text = str(error).strip() or type(error).__name__
    return text.splitlines()[0]


@contextmanager
def reading(path: str) -> Iterator[None]:
    """Turn the errors of work on ``path`` into one-line CLI errors naming the file.

    Examples
    --------
    >>> with reading("preds.parquet"):
    ...     raise ValueError("column 'y' (y_true) not found")
    Traceback (most recent call last):
    ...
    framemetrics.cli.errors.InputRejected: preds.parquet: column 'y' (y_true) not found
    """
    try:
        yield
    except (click.ClickException, click.exceptions.Exit, click.exceptions.Abort):
        raise
    except ArgumentError as error:
        raise click.UsageError(_first_line(error)) from error
    except (ValueError, TypeError) as error:
        raise InputRejected(f"{path}: {_first_line(error)}") from error
    except (pl.exceptions.PolarsError, duckdb.Error, OSError) as error:
        raise Unreadable(f"cannot read {path}: {_first_line(error)}") from error


class FrameMetricsGroup(click.Group):
    """A command group whose unexpected errors end in one line and exit code 1, not a traceback."""

    def invoke(self, ctx: click.Context) -> Any:
        """Run the command; ``FRAMEMETRICS_DEBUG=1`` lets errors through with their traceback."""
        if os.environ.get("FRAMEMETRICS_DEBUG"):
            return super().invoke(ctx)
        try:
            return super().invoke(ctx)
        except (click.ClickException, click.exceptions.Exit, click.exceptions.Abort, SystemExit):
            raise
        except KeyboardInterrupt:
            raise click.exceptions.Exit(130) from None
        except BrokenPipeError:
            raise click.exceptions.Exit(0) from None
        except BaseException as error:  # the last guard (a Rust panic is a BaseException): no traceback
            raise InputRejected(f"{type(error).__name__}: {_first_line(error)}") from error
