"""framemetrics: model-evaluation metrics computed inside Polars and DuckDB.

Every metric is a Polars expression (usable in ``group_by().agg()``) and
DuckDB SQL (``sql/framemetrics.sql``); :func:`evaluate` runs many metrics per
group on either engine and :func:`framemetrics.sql.query` writes the SQL.

The names below load on first use (PEP 562): ``import framemetrics`` reads
no engine, so it costs milliseconds; the first ``fm.evaluate`` imports
Polars, DuckDB and sqlglot. The ``TYPE_CHECKING`` imports are the one list of
what each name is: type checkers read them, and :data:`_LAZY` is parsed from
them. The Polars builders (``fm.f1_score``...), one per binary and regression
metric, are the registry's names (:data:`framemetrics.core.registry.REGISTRY`,
which loads no engine): a metric's entry is all it takes to export it.
"""

from __future__ import annotations

import ast
import importlib
import importlib.util
from pathlib import Path
from typing import TYPE_CHECKING, Any

from framemetrics.core.registry import REGISTRY as _REGISTRY

if TYPE_CHECKING:
    from framemetrics import sql
    from framemetrics.calibration import calibration_curve
    from framemetrics.confusion import confusion_matrix
    from framemetrics.core.errors import ArgumentError
    from framemetrics.core.registry import REGISTRY, Metric, get_metric
    from framemetrics.curves import curve_table, det_curve, precision_recall_curve, roc_curve
    from framemetrics.detection import (
        box_iou,
        coco_evaluate,
        coco_precision_table,
        coco_recall_table,
        nms,
        read_coco,
        voc_evaluate,
    )
    from framemetrics.evaluation import evaluate
    from framemetrics.multiclass import (
        MULTICLASS,
        class_table,
        classification_report,
        evaluate_multiclass,
        multiclass_confusion_matrix,
    )
    from framemetrics.report import evaluation_report
    from framemetrics.uncertainty import bootstrap, compare_auc, confidence_interval, roc_auc_ci, roc_auc_se


def _lazy_names() -> dict[str, str]:
    """Each public name and the module it comes from, read from this file's ``TYPE_CHECKING`` imports."""
    tree = ast.parse(Path(__file__).read_text(encoding="utf-8"))
    block = next(node for node in tree.body if isinstance(node, ast.If) and ast.unparse(node.test) == "TYPE_CHECKING")
    names = {}
    for node in block.body:
        if isinstance(node, ast.ImportFrom) and node.module:
            names |= {alias.name: node.module for alias in node.names}
    return names


_LAZY = _lazy_names() | dict.fromkeys(_REGISTRY, "framemetrics.builders")


def __getattr__(name: str) -> Any:
    """Import the module of ``name`` on first use and keep the value (PEP 562); ``fm.<submodule>`` too.

    ``__test__`` is the functions made for this module (the builders, the
    curves), so that doctest finds their examples before their first use.
    """
    if name == "__test__":
        values = {lazy: __getattr__(lazy) for lazy in _LAZY}
        return {lazy: value for lazy, value in values.items() if getattr(value, "__module__", None) == __name__}
    module = _LAZY.get(name, "framemetrics")
    if module == "framemetrics":  # a submodule: ``fm.sql``, ``fm.tasks``...
        if importlib.util.find_spec(f"framemetrics.{name}") is None:
            raise AttributeError(f"module 'framemetrics' has no attribute {name!r}")
        value = importlib.import_module(f"framemetrics.{name}")
    else:
        value = getattr(importlib.import_module(module), name)
    globals()[name] = value
    return value


def __dir__() -> list[str]:
    return sorted({*globals(), *_LAZY})


__version__ = "0.1.0"

# The public names but the builders, and the builders: every binary and regression metric of the registry.
__all__ = [
    "MULTICLASS",
    "REGISTRY",
    "ArgumentError",
    "Metric",
    "bootstrap",
    "box_iou",
    "calibration_curve",
    "class_table",
    "classification_report",
    "coco_evaluate",
    "coco_precision_table",
    "coco_recall_table",
    "compare_auc",
    "confidence_interval",
    "confusion_matrix",
    "curve_table",
    "det_curve",
    "evaluate",
    "evaluate_multiclass",
    "evaluation_report",
    "get_metric",
    "multiclass_confusion_matrix",
    "nms",
    "precision_recall_curve",
    "read_coco",
    "roc_auc_ci",
    "roc_auc_se",
    "roc_curve",
    "sql",
    "voc_evaluate",
    *_REGISTRY,
]
