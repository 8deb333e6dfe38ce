"""framemetrics: model-evaluation metrics computed inside Polars and DuckDB."""

from framemetrics import sql
from framemetrics.evaluate import evaluate
from framemetrics.registry import REGISTRY, get_metric

__all__ = ["REGISTRY", "evaluate", "get_metric", "sql"]
__version__ = "0.1.0"
