"""The registry is the single list of metrics: walking it finds every piece."""

from __future__ import annotations

import inspect
import subprocess
import sys

import duckdb
import pytest
from sklearn_binary import REFERENCES

import framemetrics as fm
from framemetrics.core.checks import DOMAINS
from framemetrics.core.constants import KS_TOLERANCE
from framemetrics.core.registry import FORMULAS, formula_parameters
from framemetrics.core.statistics import STATISTICS, CurvePoints
from framemetrics.readme import README, update_readme
from framemetrics.sql.macros import macros
from framemetrics.sql.user_macros import (
    FORMULA_END,
    FORMULA_MARKER,
    MARKER,
    MULTICLASS_END,
    MULTICLASS_MARKER,
    STATISTIC_END,
    STATISTIC_MARKER,
    generated_section,
    render_formula_macros,
    render_multiclass_macros,
    render_statistic_macros,
    render_user_macros,
)

METRICS = sorted(fm.REGISTRY)
ROLES = {"y_true", "y_pred", "y_score", "sample_weight"}
LITERALS = {"pos_label", "neg_label", "alpha", "max_fpr", "power"}
CURVE_COLUMNS = set(CurvePoints.__dataclass_fields__)  # the points, their totals, gap_max and quantile


@pytest.mark.parametrize("name", METRICS)
def test_metric_has_a_documented_polars_builder(name):
    builder = getattr(fm, name)
    assert name in fm.__all__
    doc = inspect.getdoc(builder)
    for section in ("Parameters", "Returns", "See Also", "Notes", "Examples", ">>> "):
        assert section in doc, f"{name} docstring lacks {section}"
    assert "{" + "labels}" not in doc


@pytest.mark.parametrize("name", METRICS)
def test_formula_reads_the_statistics_and_parameters_of_its_metric(name):
    metric = fm.get_metric(name)
    assert formula_parameters(name) == macros()[metric.sql_formula].params
    assert set(formula_parameters(name)) == {*metric.statistics, "n_invalid", *metric.params}


@pytest.mark.parametrize("name", METRICS)
def test_metric_has_a_user_macro_and_a_reference(name):
    metric = fm.get_metric(name)
    user = macros()[metric.sql_macro]
    assert user.params[:2] == ("y_true", metric.prediction)
    assert ("sample_weight" in user.params) == metric.weighted
    assert REFERENCES[name].__doc__


def test_every_formula_is_a_registered_metric():
    assert set(FORMULAS) == set(fm.REGISTRY)


@pytest.mark.parametrize(
    ("marker", "end", "render"),
    [
        (STATISTIC_MARKER, STATISTIC_END, render_statistic_macros),
        (FORMULA_MARKER, FORMULA_END, render_formula_macros),
        (MULTICLASS_MARKER, MULTICLASS_END, render_multiclass_macros),
    ],
)
def test_statistic_and_formula_macros_are_generated_from_the_core(marker, end, render):
    """Run `python -m framemetrics.sql.user_macros` after changing a statistic, check or formula."""
    text = fm.sql.macro_file().read_text()
    begin, stop = generated_section(text, marker, end)
    assert text[begin:stop] == render()


@pytest.mark.parametrize("name", sorted(STATISTICS))
def test_statistic_has_a_macro_over_canonical_columns(name):
    params = set(macros()[f"fm_stat_{name}"].params)
    if STATISTICS[name].curve:
        assert params <= CURVE_COLUMNS | LITERALS
    else:
        assert params <= ROLES | LITERALS | set(STATISTICS[name].needs)


@pytest.mark.parametrize("domain", sorted(d for d, spec in DOMAINS.items() if not spec.labels_listed))
def test_check_domain_has_a_macro(domain):
    assert f"fm_invalid_{domain}" in macros()


def test_macro_file_loads_in_a_fresh_duckdb():
    con = duckdb.connect()
    con.execute(fm.sql.macro_file().read_text())
    names = con.sql("SELECT function_name FROM duckdb_functions() WHERE function_name LIKE 'fm_%'").fetchall()
    defined = {row[0] for row in names}
    assert set(macros()) <= defined


def test_unknown_metric_suggests_names():
    with pytest.raises(ValueError, match="did you mean recall_score"):
        fm.get_metric("recal_score")


def test_runtime_imports_no_test_dependency():
    """numpy and scikit-learn are test extras: importing framemetrics must not need them."""
    code = "import sys, framemetrics; sys.exit('sklearn' in sys.modules)"
    assert subprocess.run([sys.executable, "-c", code], check=False).returncode == 0


def test_user_macros_are_generated_from_the_registry():
    """Run `python -m framemetrics.sql.user_macros` after changing the registry or a formula."""
    text = fm.sql.macro_file().read_text()
    start = text.index(MARKER)
    assert text[text.rindex("-- ----", 0, start) :] == render_user_macros()


def test_readme_metric_tables_are_generated_from_the_registry():
    """Run `python -m framemetrics.readme` after changing the registry."""
    text = README.read_text(encoding="utf-8")
    assert text == update_readme(text)


def test_ks_tolerance_is_one_constant_in_sql():
    """The KS tie tolerance is one Python constant, which the generated macros read."""
    for name in ("fm_stat_ks_score", "fm_formula_ks_threshold"):
        assert repr(KS_TOLERANCE) in macros()[name].body
