"""The ``framemetrics`` command: evaluate files per segment, print curves and SQL, write the report."""

from __future__ import annotations

import os
import sys
from collections.abc import Sequence
from typing import Any

__all__ = ["cli", "main", "threads_from_arguments"]


def threads_from_arguments(arguments: Sequence[str]) -> str | None:
    """The value of ``--threads`` among command-line ``arguments`` (``--threads N`` or ``--threads=N``), if any.

    Examples
    --------
    >>> threads_from_arguments(["evaluate", "p.parquet", "--threads", "2"]), threads_from_arguments(["--threads=1"])
    ('2', '1')
    >>> threads_from_arguments(["evaluate"]) is None
    True
    """
    for i, argument in enumerate(arguments):
        if argument == "--threads" and i + 1 < len(arguments):
            return arguments[i + 1]
        if argument.startswith("--threads="):
            return argument.split("=", 1)[1]
    return None


def main() -> None:
    """Entry point of the ``framemetrics`` console script.

    ``--threads`` reaches Polars through ``POLARS_MAX_THREADS``, set here
    before the command imports Polars (its pool is sized once, at import).
    """
    threads = threads_from_arguments(sys.argv[1:])
    if threads is not None and threads.isdigit() and "polars" not in sys.modules:
        os.environ["POLARS_MAX_THREADS"] = threads
    from framemetrics.cli.app import main as run

    run()


def __getattr__(name: str) -> Any:
    if name == "cli":
        from framemetrics.cli.app import cli

        return cli
    raise AttributeError(f"module 'framemetrics.cli' has no attribute {name!r}")
