"""Every statistic, check and formula, written once, computes the same on both compilers.

Each formula of :mod:`framemetrics.core.formulas` is applied to Polars
columns and to sqlglot columns (emitted for DuckDB) over the same random
statistics, zeros, nulls, tiny and huge values included, with random
parameters; each statistic and check of :mod:`framemetrics.core` over the
same random rows (NaN, infinities, nulls) or curve points. The two results
must be identical: same nulls, same NaN and infinities, the same doubles to
a few ulps.
"""

from __future__ import annotations

import inspect
import math
from dataclasses import replace

import duckdb
import polars as pl
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from framemetrics.compilers.polars import POLARS
from framemetrics.compilers.sql import SQL
from framemetrics.compilers.sql.emit import to_sql
from framemetrics.core.checks import DOMAINS, check
from framemetrics.core.formulas import apply_formula, parameter_literal
from framemetrics.core.registry import FORMULAS, formula_parameters
from framemetrics.core.formulas import multiclass as mc
from framemetrics.core.registry import REGISTRY
from framemetrics.core.statistics import STATISTICS, CurvePoints, Rows, roc_gap, weighted_quantile

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


def _same(a: float | None, b: float | None, abs_tol: float = 0.0) -> bool:
    if a is None or b is None:
        return a is b
    if math.isnan(a) or math.isnan(b):
        return math.isnan(a) and math.isnan(b)
    return a == b or math.isclose(a, b, rel_tol=1e-14, abs_tol=abs_tol)


@pytest.mark.parametrize("name", sorted(FORMULAS))
@settings(max_examples=40, deadline=None)
@given(data=st.data())
def test_formula_is_identical_on_polars_and_duckdb(name, data):
    rows = data.draw(_rows(name))
    params = {p: data.draw(PARAMETERS[p]) for p in REGISTRY[name].params}
    frame = pl.DataFrame(rows, schema={k: pl.Int64 if k in ("n_invalid", "n_rows") else pl.Float64 for k in rows[0]})
    columns = {s: s for s in frame.columns if s != "n_invalid"}
    polars = frame.select(
        apply_formula(POLARS, FORMULAS[name], {s: pl.col(c) for s, c in columns.items()}, pl.col("n_invalid"), params)
    ).to_series()
    sql_tree = apply_formula(SQL, FORMULAS[name], {s: SQL.col(c) for s, c in columns.items()}, SQL.col("n_invalid"), params)
    con = duckdb.connect()
    con.register("stats", frame.to_arrow())
    duck = [r[0] for r in con.execute(f"SELECT {to_sql(sql_tree)} FROM stats").fetchall()]
    for row, a, b in zip(rows, polars.to_list(), duck, strict=True):
        assert _same(a, b), (name, params, row, a, b)


ROW_VALUES = st.one_of(
    st.none(),
    st.sampled_from([0.0, -0.5, -1.0, -3.0, 1e-300, 1e-20, 0.5, 1.0, 2.0, 1e20, 1e300, -1e300]),
    st.sampled_from([float("nan"), float("inf"), float("-inf")]),
    st.floats(-1e6, 1e6, allow_nan=False),
)
ROW = st.fixed_dictionaries(
    {
        "y_true": st.one_of(st.sampled_from([0.0, 1.0, 2.0]), ROW_VALUES),
        "y_pred": st.one_of(st.sampled_from([0.0, 1.0]), ROW_VALUES),
        "y_score": st.one_of(st.floats(0, 1), ROW_VALUES),
        "sample_weight": st.one_of(st.sampled_from([0.0, 1.0, 2.5, 1e-300, 1e300]), ROW_VALUES),
    }
)


def _row_frame(rows: list[dict]) -> pl.DataFrame:
    frame = pl.DataFrame(rows, schema=dict.fromkeys(rows[0], pl.Float64))
    return frame.with_columns(
        mean_y_true=pl.col("y_true").mean(), mean_error=(pl.col("y_true") - pl.col("y_pred")).mean()
    )


def _row_inputs(ns, column, alpha: float) -> Rows:
    return Rows(
        **{f: column(f) for f in ("y_true", "y_pred", "y_score", "sample_weight", "mean_y_true", "mean_error")},
        pos_label=ns.lit(1.0),
        neg_label=ns.lit(0.0),
        alpha=ns.lit(alpha),
        max_fpr=ns.lit(1.0),
    )


def _duckdb_values(frame: pl.DataFrame, trees: list) -> list:
    con = duckdb.connect()
    con.register("fm_rows", frame.to_arrow())
    columns = ", ".join(to_sql(t) for t in trees)
    return list(con.execute(f"SELECT {columns} FROM fm_rows").fetchall()[0])


def _domain_arguments(c, x) -> tuple:
    """The labels a domain reads: two for label and class, the expected list length (here 1) for length."""
    return (x.pos_label,) if c.domain == "length" else (x.pos_label, x.neg_label)


@settings(max_examples=80, deadline=None)
@given(rows=st.lists(ROW, min_size=1, max_size=12), alpha=st.sampled_from([0.1, 0.5, 0.9]))
def test_row_statistics_and_checks_are_identical_on_polars_and_duckdb(rows, alpha):
    """Stage 1 over rows: every row statistic and check count, NaN, infinities and nulls included."""
    frame = _row_frame(rows)
    names = [s.name for s in STATISTICS.values() if not s.curve]
    checks = [check(d, role) for d in DOMAINS for role in ("y_true", "y_pred", "y_score", "sample_weight")]
    x_pl, x_sql = _row_inputs(POLARS, pl.col, alpha), _row_inputs(SQL, SQL.col, alpha)
    polars = frame.select(
        *(STATISTICS[n].build(POLARS, x_pl).alias(n) for n in names),
        *(c.count(POLARS, getattr(x_pl, c.role), *_domain_arguments(c, x_pl)).alias(c.name) for c in checks),
    ).row(0)
    trees = [STATISTICS[n].build(SQL, x_sql) for n in names]
    trees += [c.count(SQL, getattr(x_sql, c.role), *_domain_arguments(c, x_sql)) for c in checks]
    duck = _duckdb_values(frame, trees)
    labels = names + [c.name for c in checks]
    for label, a, b in zip(labels, polars, duck, strict=True):
        assert _same(a, b), (label, rows, a, b)


WEIGHT_SUM = st.one_of(
    MAGNITUDES,
    st.floats(0, 1e6, allow_nan=False, allow_infinity=False),
    st.builds(lambda m, f: m * f, MAGNITUDES, st.floats(0.5, 2)),
)
POINT = st.fixed_dictionaries({"pw": WEIGHT_SUM, "nw": WEIGHT_SUM})
RATE_STATISTICS = {"ks_max", "partial_auc", "auc_sum"}  # O(1) values: 2 - D for the AUC


@settings(max_examples=80, deadline=None)
@given(
    points=st.lists(POINT, min_size=1, max_size=12),
    max_fpr=st.floats(1e-3, 1.0),
    alpha=st.sampled_from([0.0, 0.3, 0.5, 1.0]),
)
def test_curve_statistics_are_identical_on_polars_and_duckdb(points, max_fpr, alpha):
    """Stage 1 over a curve: every curve statistic from the same points (running sums made once, in Polars)."""
    frame = (
        pl.DataFrame(points, schema={"pw": pl.Float64, "nw": pl.Float64})
        .with_row_index("y_score")
        .with_columns(
            y_score=-pl.col("y_score").cast(pl.Float64),
            tp=pl.col("pw").cum_sum(),
            fp=pl.col("nw").cum_sum(),
            tp_prev=pl.col("pw").cum_sum().shift(1, fill_value=0.0),
            fp_prev=pl.col("nw").cum_sum().shift(1, fill_value=0.0),
            pos_total=pl.col("pw").sum(),
            neg_total=pl.col("nw").sum(),
        )
    )
    fields = [f for f in CurvePoints.__dataclass_fields__ if f not in ("gap_max", "max_fpr", "alpha", "quantile")]
    c_pl = CurvePoints(**{f: pl.col(f) for f in fields}, gap_max=None, max_fpr=max_fpr, alpha=alpha)
    c_pl = replace(c_pl, gap_max=roc_gap(POLARS, c_pl).max(), quantile=weighted_quantile(POLARS, c_pl, pl.lit(alpha)))
    frame = frame.with_columns(gap_max=c_pl.gap_max, quantile=c_pl.quantile)
    given_columns = {f: SQL.col(f) for f in [*fields, "gap_max", "quantile"]}
    c_sql = CurvePoints(**given_columns, max_fpr=SQL.lit(max_fpr), alpha=SQL.lit(alpha))
    names = [s.name for s in STATISTICS.values() if s.curve]
    polars = frame.select(STATISTICS[n].build(POLARS, c_pl).alias(n) for n in names).row(0)
    duck = _duckdb_values(frame, [STATISTICS[n].build(SQL, c_sql) for n in names])
    for label, a, b in zip(names, polars, duck, strict=True):
        # Rates are O(1); Polars divides by a group total as a product with its reciprocal (an ulp apart).
        assert _same(a, b, abs_tol=1e-15 if label in RATE_STATISTICS else 0.0), (label, points, a, b)


MC_GROUP_FORMULAS = [mc.share, mc.value, mc.balanced_accuracy, mc.matthews, mc.kappa, mc.harmonic_f1, mc.brier]
MC_AVERAGES = [mc.macro, mc.weighted, mc.macro_strict, mc.weighted_strict]
COUNTS = ("n_invalid", "n_true_classes", "n_pred_classes")


def _mc_argument(name: str) -> st.SearchStrategy:
    if name in COUNTS:
        return st.sampled_from([0, 0, 1, 2, 3])
    if name == "adjusted":
        return st.booleans()
    if name == "zero_division":
        return st.sampled_from([None, 0, 1])
    if name == "n_classes":
        return st.sampled_from([2, 3, 5])
    return STATISTIC


def _parameters(function) -> list[str]:
    return list(inspect.signature(function).parameters)[1:]


def _compile(ns, function, columns: dict, literal) -> object:
    arguments = [columns[n] if n in columns else literal(n) for n in _parameters(function)]
    return function(ns, *arguments)


@pytest.mark.parametrize("function", MC_GROUP_FORMULAS + MC_AVERAGES, ids=lambda f: f.__name__)
@settings(max_examples=40, deadline=None)
@given(data=st.data())
def test_multiclass_formula_is_identical_on_polars_and_duckdb(function, data):
    """Per-group formulas row by row; averages over the rows (the classes of one group)."""
    names = _parameters(function)
    fixed = {n: data.draw(_mc_argument(n)) for n in names if n in ("adjusted", "zero_division", "n_classes")}
    varying = [n for n in names if n not in fixed]
    rows = data.draw(st.lists(st.fixed_dictionaries({n: _mc_argument(n) for n in varying}), min_size=1, max_size=12))
    frame = pl.DataFrame(rows, schema={n: pl.Int64 if n in COUNTS else pl.Float64 for n in varying})

    def literal(ns):
        return lambda n: ns.lit(fixed[n]) if n == "n_classes" else parameter_literal(ns, fixed[n])

    polars = frame.select(_compile(POLARS, function, {n: pl.col(n) for n in varying}, literal(POLARS)))
    tree = _compile(SQL, function, {n: SQL.col(n) for n in varying}, literal(SQL))
    con = duckdb.connect()
    con.register("stats", frame.to_arrow())
    duck = [r[0] for r in con.execute(f"SELECT {to_sql(tree)} FROM stats").fetchall()]
    for a, b in zip(polars.to_series().to_list(), duck, strict=True):
        assert _same(a, b, abs_tol=1e-300), (function.__name__, fixed, rows, a, b)
