"""The Polars builders are made from the registry: their signatures follow it and their examples run."""

from __future__ import annotations

import doctest
import inspect
import pickle
import typing

import polars as pl
import pytest

import framemetrics as fm

METRICS = sorted(fm.REGISTRY)


@pytest.mark.parametrize("name", METRICS)
def test_builder_signature_follows_the_registry(name):
    metric = fm.get_metric(name)
    builder = getattr(fm, name)
    positional = ["y_true", metric.prediction] + (["sample_weight"] if metric.weighted else [])
    keywords = {**({"pos_label": 1, "neg_label": None} if metric.task == "binary" else {}), **metric.parameters}
    parameters = list(inspect.signature(builder).parameters.values())
    assert [p.name for p in parameters] == positional + list(keywords)
    assert all(p.kind is p.POSITIONAL_OR_KEYWORD for p in parameters[: len(positional)])
    assert all(p.kind is p.KEYWORD_ONLY for p in parameters[len(positional) :])
    required = [inspect.Parameter.empty] * 2
    assert [p.default for p in parameters] == required + [None] * metric.weighted + list(keywords.values())
    assert all(p.annotation is not p.empty for p in parameters)
    assert inspect.signature(builder).return_annotation == pl.Expr | float | None


def test_every_builder_example_is_collected_as_a_doctest():
    """The registry entries' examples run with the package's doctests (the builders' module is ``framemetrics``)."""
    tests = doctest.DocTestFinder().find(fm)
    assert {t.name.rsplit(".", 1)[-1] for t in tests if t.examples} >= {*METRICS, "roc_curve", "det_curve"}


@pytest.mark.parametrize("name", METRICS)
def test_builder_is_a_public_function(name):
    builder = getattr(fm, name)
    assert inspect.isfunction(builder)
    assert (builder.__module__, builder.__name__, builder.__qualname__) == ("framemetrics", name, name)
    assert pickle.loads(pickle.dumps(builder)) is builder
    assert typing.get_type_hints(builder)["return"] == pl.Expr | float | None


def test_every_metric_is_documented_in_its_entry():
    for metric in fm.REGISTRY.values():
        assert metric.doc is not None and metric.doc.summary and metric.doc.readme and metric.reference, metric.name
    assert all(set(m.parameters) <= set(fm.builders.PARAMETERS) for m in fm.REGISTRY.values())


def test_builder_binds_its_arguments_like_a_function():
    df = pl.DataFrame({"y": [0, 1, 1, 0], "p": [0, 1, 0, 0], "w": [1.0, 2.0, 1.0, 1.0]})
    by_position = df.select(fm.fbeta_score("y", "p", "w", beta=2.0)).item()
    by_keyword = df.select(fm.fbeta_score(y_pred="p", sample_weight="w", y_true="y", beta=2.0)).item()
    assert by_position == by_keyword == pytest.approx(5 / 7)
    with pytest.raises(TypeError, match="y_pred"):
        fm.f1_score("y")
    with pytest.raises(TypeError, match="unexpected keyword argument 'y_score'"):
        fm.f1_score("y", "p", y_score="p")
    with pytest.raises(TypeError, match="too many positional arguments"):
        fm.f1_score("y", "p", "w", 1)
    with pytest.raises(TypeError, match="too many positional arguments"):
        fm.median_absolute_error("y", "p", "w", 1)
    with pytest.raises(TypeError, match="unexpected keyword argument 'pos_label'"):
        fm.mean_squared_error("y", "p", pos_label=1)
