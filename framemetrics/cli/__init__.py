"""The ``framemetrics`` command: evaluate files per segment, print curves and SQL, write the report."""

from framemetrics.cli.app import cli, main

__all__ = ["cli", "main"]
