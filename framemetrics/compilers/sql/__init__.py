"""The SQL compiler: the core's formulas and statistics as sqlglot trees, emitted per dialect."""

from framemetrics.compilers.sql.namespace import SQL, SqlNamespace

__all__ = ["SQL", "SqlNamespace"]
