"""The Polars compiler: the core's formulas and statistics as ``pl.Expr``."""

from framemetrics.compilers.polars.namespace import POLARS, PolarsNamespace

__all__ = ["POLARS", "PolarsNamespace"]
