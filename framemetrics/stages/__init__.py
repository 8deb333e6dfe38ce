"""The relational stages, each written once on :class:`~framemetrics.core.frame.Frame`.

A stage is a program over a frame and its namespace (joins, windows,
aggregates), run by every engine through the frame it is given: a
:class:`~framemetrics.compilers.polars.frame.PolarsFrame` or a
:class:`~framemetrics.compilers.sql.frame.SqlFrame`. A stage module imports
no backend: no :mod:`framemetrics.compilers`, no ``polars``, no ``sqlglot``.
"""
