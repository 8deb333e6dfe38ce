"""The engine settings of the command line: ``--threads`` for both engines, ``--memory-limit`` for DuckDB.

DuckDB takes both as settings of the connection the command opens. Polars
sizes its thread pool once, from ``POLARS_MAX_THREADS`` when it is first
imported: :func:`framemetrics.cli.main` sets that variable from ``--threads``
before anything imports Polars.
"""

from __future__ import annotations

import os

import click
import duckdb
import polars as pl
from rich.console import Console

from framemetrics.sources import quiet_connection

__all__ = ["check_memory_limit", "engine_connection"]


def check_memory_limit(value: str | None) -> str | None:
    """``value`` if DuckDB reads it as a memory limit (``500MB``, ``4GB``, ``80%``...), else a usage error.

    Examples
    --------
    >>> check_memory_limit("4GB")
    '4GB'
    >>> check_memory_limit("lots")
    Traceback (most recent call last):
    ...
    click.exceptions.BadParameter: DuckDB cannot read 'lots' as a memory limit: write e.g. 500MB or 4GB
    """
    if value is None:
        return None
    try:
        quiet_connection({"memory_limit": value}).close()
    except duckdb.Error:
        raise click.BadParameter(f"DuckDB cannot read {value!r} as a memory limit: write e.g. 500MB or 4GB") from None
    return value


def engine_connection(
    engine: str, threads: int | None, memory_limit: str | None, err: Console
) -> duckdb.DuckDBPyConnection | None:
    """DuckDB: a quiet connection with the settings given. Polars: none (its threads are set at import).

    ``--memory-limit`` with Polars is a usage error: Polars has no memory limit.

    Examples
    --------
    >>> con = engine_connection("duckdb", 1, "1GB", Console())
    >>> con.execute("SELECT current_setting('threads')").fetchone()
    (1,)
    """
    if engine == "duckdb":
        settings = {"threads": threads, "memory_limit": memory_limit}
        return quiet_connection({k: v for k, v in settings.items() if v is not None})
    if memory_limit is not None:
        raise click.UsageError("--memory-limit applies to DuckDB (--engine duckdb): Polars has no memory limit")
    if threads is not None and pl.thread_pool_size() != threads:
        set_by = os.environ.get("POLARS_MAX_THREADS")
        err.print(
            f"[yellow]Polars runs {pl.thread_pool_size()} threads: it was loaded before --threads could apply"
            f"{f' (POLARS_MAX_THREADS={set_by})' if set_by else ''}[/yellow]"
        )
    return None
