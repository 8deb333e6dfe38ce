"""Show that long work is going on: rows read and time elapsed on a terminal, nothing in a pipe."""

from __future__ import annotations

import glob
import threading
import time
from collections.abc import Iterator
from contextlib import contextmanager

import duckdb
import pyarrow as pa
import pyarrow.parquet as pq
from rich.console import Console
from rich.progress import Progress, SpinnerColumn, TextColumn, TimeElapsedColumn

from framemetrics.core.turns import listening

__all__ = ["count_rows", "progress"]


def count_rows(path: str) -> int | None:
    """The number of rows of Parquet files, read from their footers (no column's type is read); None for other files.

    None too when a footer cannot be read: the evaluation's own reading then says why.

    Examples
    --------
    >>> count_rows("data.csv") is None
    True
    """
    if not path.lower().endswith((".parquet", ".pq")):
        return None
    try:
        return sum(pq.read_metadata(file).num_rows for file in glob.glob(path))
    except (pa.ArrowException, OSError):
        return None


def _describe(label: str, total: int | None, done: float | None, turns: tuple[int, int] = (0, 0)) -> str:
    """The line shown: ``label``, the rows read where known, the bootstrap's batches done where it runs in turns.

    Examples
    --------
    >>> _describe("Evaluating", 1000, 50.0, (3, 40))
    'Evaluating · ~500 of 1,000 rows read · bootstrap: 3 of 40 batches of replicates'
    """
    batches = f" · bootstrap: {turns[0]} of {turns[1]} batches of replicates" if turns[1] else ""
    if total is None:
        return label + batches
    if done is None or done < 0:
        return f"{label} · {total:,} rows{batches}"
    return f"{label} · ~{int(total * min(done, 100) / 100):,} of {total:,} rows read{batches}"


@contextmanager
def progress(
    console: Console, label: str, *, con: duckdb.DuckDBPyConnection | None = None, total: int | None = None
) -> Iterator[None]:
    """While the body runs, show ``label``, the rows read (DuckDB's query progress), the bootstrap's batches of
    replicates done (:mod:`framemetrics.core.turns`) and the time.

    Shown only when ``console`` is a terminal; DuckDB's own progress bar stays off.

    Examples
    --------
    >>> import io
    >>> with progress(Console(file=io.StringIO()), "Evaluating"):
    ...     pass
    """
    if con is not None:
        con.execute("SET enable_progress_bar = true; SET enable_progress_bar_print = false")
    if not console.is_terminal:
        yield
        return
    columns = (SpinnerColumn(), TextColumn("{task.description}"), TimeElapsedColumn())
    with Progress(*columns, console=console, transient=True) as bar:
        task = bar.add_task(_describe(label, total, None))
        done = threading.Event()
        turns = [0, 0]

        def heard(finished: int, of: int) -> None:
            turns[:] = [finished, of]

        def poll() -> None:
            while not done.wait(0.2):
                percent = con.query_progress() if con is not None else None
                bar.update(task, description=_describe(label, total, percent, (turns[0], turns[1])))

        watcher = threading.Thread(target=poll, daemon=True)
        watcher.start()
        started = time.perf_counter()
        try:
            with listening(heard):
                yield
        finally:
            done.set()
            watcher.join()
    console.print(f"[dim]{label}: {time.perf_counter() - started:.1f} s[/dim]")
