"""The request layer: every declared parameter refused alike on every entry point and engine, none undeclared."""

from __future__ import annotations

import inspect
from typing import Any

import polars as pl
import pytest

import framemetrics as fm
from framemetrics.core.errors import ArgumentError
from framemetrics.request import ENTRIES, ENTRY_POINTS, PARAMETERS, declared

FRAME = pl.DataFrame({"y": [0, 1, 1, 0], "p": [0.2, 0.9, 0.4, 0.3], "q": [0.1, 0.8, 0.6, 0.2], "g": list("aabb")})
ENGINES = ("polars", "duckdb")

# Each entry point and the valid arguments it is called with (then one of them made invalid).
CALLS: dict[str, tuple[Any, dict[str, Any]]] = {
    "evaluate": (fm.evaluate, {"y_true": "y", "y_score": "p"}),
    "evaluate_binary_or_regression": (fm.evaluation.evaluate_binary_or_regression, {"y_true": "y", "y_score": "p"}),
    "bootstrap": (fm.bootstrap, {"y_true": "y", "y_score": "p", "n_resamples": 10}),
    "evaluate_multiclass": (fm.evaluate_multiclass, {"y_true": "y", "y_pred": "y"}),
    "classification_report": (fm.classification_report, {"y_true": "y", "y_pred": "y"}),
    "class_table": (fm.class_table, {"y_true": "y", "y_pred": "y"}),
    "multiclass_confusion_matrix": (fm.multiclass_confusion_matrix, {"y_true": "y", "y_pred": "y"}),
    "confusion_matrix": (fm.confusion_matrix, {"y_true": "y", "y_score": "p"}),
    "curve_table": (fm.curve_table, {"curve": "roc_curve", "y_true": "y", "y_score": "p"}),
    "roc_curve": (fm.roc_curve, {"y_true": "y", "y_score": "p"}),
    "precision_recall_curve": (fm.precision_recall_curve, {"y_true": "y", "y_score": "p"}),
    "det_curve": (fm.det_curve, {"y_true": "y", "y_score": "p"}),
    "calibration_curve": (fm.calibration_curve, {"y_true": "y", "y_score": "p"}),
    "roc_auc_ci": (fm.roc_auc_ci, {"y_true": "y", "y_score": "p"}),
    "compare_auc": (fm.compare_auc, {"y_true": "y", "y_score": ["p", "q"]}),
    "evaluation_report": (fm.evaluation_report, {"y_true": "y", "y_score": "p", "output": "/dev/null"}),
    "confidence_interval": (fm.confidence_interval, {"metric": "roc_auc_score", "y_true": "y", "prediction": "p"}),
    "sql.query": (fm.sql.query, {"metrics": ["f1_score"], "table": "t", "y_true": "y", "y_score": "p"}),
    "sql.multiclass_query": (
        fm.sql.multiclass_query,
        {"metrics": ["accuracy_score"], "table": "t", "y_true": "y", "y_pred": "y"},
    ),
    "sql.curve": (fm.sql.curve, {"curve": "roc_curve", "table": "t", "y_true": "y", "y_score": "p"}),
    "sql.calibration_curve": (fm.sql.calibration_curve, {"table": "t", "y_true": "y", "y_score": "p"}),
    "sql.roc_auc_ci": (fm.sql.roc_auc_ci, {"table": "t", "y_true": "y", "y_score": "p"}),
    "sql.compare_auc": (fm.sql.compare_auc, {"table": "t", "y_true": "y", "y_score": ["p", "q"]}),
    "sql.confusion_matrix": (fm.sql.confusion_matrix, {"table": "t", "y_true": "y", "y_score": "p"}),
}

# Invalid values of each parameter: a wrong type, out of range, an unknown choice.
INVALID: dict[str, list[Any]] = {
    "table": [1],
    "y_true": [1],
    "y_pred": [1],
    "y_score": [1],
    "task": ["ternary"],
    "labels": ["ab"],
    "threshold": ["0.5", float("nan"), 10**400],
    "sample_weight": [1],
    "by": [1],
    "metrics": [3],
    "pos_label": [[1], None, float("inf")],
    "neg_label": [[0]],
    "zero_division": [2, True],
    "bins": [0, 1.5],
    "nulls": ["keep"],
    "ci": [95, 0],
    "ci_method": ["exact"],
    "n_resamples": [1, 10**5],
    "seed": [1.5],
    "row_id": [1],
    "engine": ["pandas"],
    "con": ["connection"],
    "curve": ["roc"],
    "drop_intermediate": ["yes"],
    "max_points": [3],
    "n_bins": [0, 10**30],
    "level": [95, 1],
    "method": ["exact"],
    "beta": [-1],
    "pivot": ["yes"],
    "normalize": ["rows", True],
    "checks": [1],
    "dialect": ["oracle"],
    "output": [1],
    "title": [1],
    "max_segments": [-1],
    "metric": [1],
    "prediction": [1],
}
# Parameters that take any value: the data source, and the Spark session.
ANYTHING = {"source", "spark"}


def _cases() -> list[Any]:
    return [pytest.param(name, value, id=f"{name}={value!r}"[:40]) for name in INVALID for value in INVALID[name]]


def _call(entry: str, engine: str, name: str, value: Any) -> str:
    function, arguments = CALLS[entry]
    arguments = arguments | {name: value}
    takes_engine = "engine" in inspect.signature(function).parameters
    if takes_engine and name != "engine":
        arguments["engine"] = engine
    if "source" in inspect.signature(function).parameters:
        arguments["source"] = FRAME
    with pytest.raises(ArgumentError) as caught:
        function(**arguments)
    return str(caught.value)


@pytest.mark.parametrize(("name", "value"), _cases())
def test_an_invalid_value_is_the_same_argument_error_on_every_entry_point_and_engine(name, value):
    messages = {}
    for entry in sorted(ENTRIES[name]):
        engines = ENGINES if "engine" in inspect.signature(CALLS[entry][0]).parameters else ENGINES[:1]
        for engine in engines:
            messages[entry, engine] = _call(entry, engine, name, value)
    for (entry, _), message in messages.items():
        assert message.startswith(f"{name} must be "), (entry, message)
        assert message.endswith(f", got {fm.core.plan.short_repr(value)}"), (entry, message)
    # One declaration, one message: the same wherever the parameter has one declaration.
    by_declaration: dict[int, set[str]] = {}
    for (entry, _), message in messages.items():
        by_declaration.setdefault(id(declared(name, entry)), set()).add(message)
    assert all(len(shown) == 1 for shown in by_declaration.values()), by_declaration


def test_every_declared_parameter_has_invalid_values_tested():
    assert {p.name for p in PARAMETERS} - ANYTHING == set(INVALID)


def test_every_entry_point_is_called():
    assert set(CALLS) == ENTRY_POINTS


@pytest.mark.parametrize("entry", sorted(ENTRY_POINTS))
def test_every_parameter_of_an_entry_point_is_declared(entry):
    """A new parameter cannot skip validation: its entry point's signature names only declared parameters."""
    signature = inspect.signature(CALLS[entry][0])
    for parameter in signature.parameters.values():
        if parameter.kind is not inspect.Parameter.VAR_KEYWORD:
            assert declared(parameter.name, entry).name == parameter.name
