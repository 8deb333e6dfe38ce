"""The engine-neutral core: the namespace formulas are written against, and the formulas.

Nothing here imports Polars, sqlglot or DuckDB. A formula is a Python function
of expressions (its statistics and parameters) and a :class:`Namespace`; given
Polars columns and :class:`framemetrics.compilers.polars.PolarsNamespace` it
returns a ``pl.Expr``, given sqlglot columns and
:class:`framemetrics.compilers.sql.SqlNamespace` a sqlglot tree.
"""
