"""Every formula, written once, computes the same on both compilers.

Each formula of :mod:`framemetrics.core.formulas` is applied to Polars
columns and to sqlglot columns (emitted for DuckDB) over the same random
statistics, zeros, nulls, tiny and huge values included, with random
parameters; the two results must be identical (same nulls, same NaN and
infinities, the same doubles to a few ulps).
"""

from __future__ import annotations

import math

import duckdb
import polars as pl
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from framemetrics.compilers.polars import POLARS
from framemetrics.compilers.sql import SQL
from framemetrics.compilers.sql.emit import to_sql
from framemetrics.core.formulas import FORMULAS, apply_formula, formula_parameters
from framemetrics.registry import REGISTRY

MAGNITUDES = st.sampled_from([0.0, 0.0, 1e-300, 1e-150, 1e-20, 0.5, 1.0, 3.0, 1e20, 1e150, 1e300])
STATISTIC = st.one_of(
    st.none(),
    MAGNITUDES,
    st.floats(0, 1e6, allow_nan=False, allow_infinity=False),
    st.builds(lambda m, f: m * f, MAGNITUDES, st.floats(0.5, 2)),
)
PARAMETERS = {
    "zero_division": st.sampled_from([None, 0, 1]),
    "beta": st.sampled_from([0.5, 1.0, 2, 1e-3, 1e3]),
    "max_fpr": st.one_of(st.none(), st.sampled_from([1.0, 0.5, 1e-3]), st.floats(1e-6, 1.0)),
    "force_finite": st.booleans(),
}


def _rows(name: str) -> st.SearchStrategy:
    statistics = [p for p in formula_parameters(name) if p not in PARAMETERS and p not in ("n_invalid", "n_rows")]
    row = {s: STATISTIC for s in statistics} | {"n_invalid": st.sampled_from([0, 0, 0, 1, 5])}
    if "n_rows" in formula_parameters(name):
        row["n_rows"] = st.sampled_from([0, 1, 2, 10])
    return st.lists(st.fixed_dictionaries(row), min_size=1, max_size=20)


def _same(a: float | None, b: float | None) -> bool:
    if a is None or b is None:
        return a is b
    if math.isnan(a) or math.isnan(b):
        return math.isnan(a) and math.isnan(b)
    return a == b or math.isclose(a, b, rel_tol=1e-14, abs_tol=0.0)


@pytest.mark.parametrize("name", sorted(FORMULAS))
@settings(max_examples=40, deadline=None)
@given(data=st.data())
def test_formula_is_identical_on_polars_and_duckdb(name, data):
    rows = data.draw(_rows(name))
    params = {p: data.draw(PARAMETERS[p]) for p in REGISTRY[name].params}
    frame = pl.DataFrame(rows, schema={k: pl.Int64 if k in ("n_invalid", "n_rows") else pl.Float64 for k in rows[0]})
    columns = {s: s for s in frame.columns if s != "n_invalid"}
    polars = frame.select(
        apply_formula(POLARS, name, {s: pl.col(c) for s, c in columns.items()}, pl.col("n_invalid"), params)
    ).to_series()
    sql_tree = apply_formula(SQL, name, {s: SQL.col(c) for s, c in columns.items()}, SQL.col("n_invalid"), params)
    con = duckdb.connect()
    con.register("stats", frame.to_arrow())
    duck = [r[0] for r in con.execute(f"SELECT {to_sql(sql_tree)} FROM stats").fetchall()]
    for row, a, b in zip(rows, polars.to_list(), duck, strict=True):
        assert _same(a, b), (name, params, row, a, b)
