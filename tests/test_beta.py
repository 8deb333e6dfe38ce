"""The Beta quantile written once (core/beta.py) against SciPy's, on Polars and DuckDB, over the shapes'
whole range: what Clopper-Pearson's interval reads.

Through the stage written once (:func:`~framemetrics.stages.beta_quantiles.beta_quantiles`) to 1e-9, and stage by stage: the stages of
:func:`~framemetrics.core.beta.beta_quantile_stages` as successive ``with_columns`` on Polars and nested ``SELECT``s
on DuckDB give the same doubles, within ``1e-12 q (1 - q)`` or 1e-13 of SciPy. SciPy's ``beta.ppf`` (Boost's
``ibeta_inv``) is itself off where the shapes are far apart (a shape near 1e3 against one beyond 1e6: up to 1e-1
relative at 1e3 and 1e12): there mpmath decides.
"""

from __future__ import annotations

import itertools
import math
from collections.abc import Sequence
from functools import cache

import duckdb
import mpmath
import numpy as np
import polars as pl
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from scipy import stats
from sqlglot import exp

from framemetrics.compilers.polars.frame import PolarsFrame
from framemetrics.compilers.polars.namespace import POLARS
from framemetrics.compilers.sql.emit import to_sql
from framemetrics.compilers.sql.frame import SqlFrame, Statement
from framemetrics.compilers.sql.namespace import SQL
from framemetrics.core.beta import BETA_INPUTS, BETA_QUANTILE, beta_quantile_stages
from framemetrics.stages.beta_quantiles import beta_quantiles

SHAPES = [0.01, 0.3, 1.0, 2.5, 20.0, 99.0, 100.5, 1e3, 1e5, 1e8, 1e12]
PROBABILITIES = [1e-6, 0.025, 0.5, 0.975]


def _quantiles(engine: str, shapes: list[tuple[float, float]], p: float) -> list[float | None]:
    """Each (a, b)'s quantile at p, one group per pair, through the compiler's stages."""
    frame = pl.DataFrame({"g": list(range(len(shapes))), "a": [a for a, _ in shapes], "b": [b for _, b in shapes]},
                         schema={"g": pl.Int64, "a": pl.Float64, "b": pl.Float64})  # fmt: skip
    if engine == "polars":
        stats = PolarsFrame(frame.lazy().rename({"g": "fm_g0"}))
        out = beta_quantiles(stats, ["fm_g0"], [(pl.col("a"), pl.col("b"))], p)
        return out.collect().sort("fm_g0")["fm_q0"].to_list()
    statement = Statement()
    stats = SqlFrame.table(statement, "frame", {"fm_g0": "g", "a": "a", "b": "b"})
    out = beta_quantiles(stats, ["fm_g0"], [(SQL.col("a"), SQL.col("b"))], p)
    con = duckdb.connect()
    con.register("frame", frame)
    return [row[1] for row in con.sql(to_sql(statement.query(out.keep("fm_g0", "fm_q0"), ["fm_g0"]))).fetchall()]


def _check(got: list[float | None], shapes: list[tuple[float, float]], p: float) -> None:
    for (a, b), q in zip(shapes, got, strict=True):
        want = float(stats.beta.ppf(p, a, b))
        assert q is not None and math.isfinite(q), (a, b, p, q)
        if want < 1e-300:  # underflows: 0 or the least doubles
            assert q < 1e-290, (a, b, p, q, want)
            continue
        if not math.isclose(q, want, rel_tol=1e-9, abs_tol=1e-12):  # SciPy fails at far-apart shapes: mpmath
            assert _mpmath_probability(q, a, b, p), (a, b, p, q, want)


def _mpmath_probability(q: float, a: float, b: float, p: float) -> bool:
    """Whether the root of ``I_x(a, b) = p`` at 30 digits lies within ``delta`` of ``q``: 1e-9 of ``min(q, 1 - q)``,
    or four units in the last place of ``q``. SciPy's quantile misses where the shapes are far apart
    (``beta.ppf(0.975, 1e3, 1e8)`` is off by 1e-4 relative; ``(1e3, 1e12)`` gives 2^-26)."""
    import mpmath

    mpmath.mp.dps = 30
    delta = mpmath.mpf(max(1e-9 * min(q, 1 - q), 4 * math.ulp(q)))
    x = mpmath.mpf(q)

    def below(point: mpmath.mpf) -> mpmath.mpf:  # I_point(a, b) - p, the smaller tail computed directly
        if p <= 0.5:
            return mpmath.betainc(a, b, 0, point, regularized=True) - p
        return (1 - p) - mpmath.betainc(a, b, point, 1, regularized=True)

    return below(x - delta) <= 0 <= below(x + delta)


@pytest.mark.parametrize(("engine", "p"), [*(("polars", p) for p in PROBABILITIES), ("duckdb", 0.025)])
def test_the_quantile_equals_scipy_over_the_grid_of_shapes(engine, p):
    shapes = list(itertools.product(SHAPES, SHAPES))
    _check(_quantiles(engine, shapes, p), shapes, p)


@pytest.mark.parametrize("engine", ["polars", "duckdb"])
def test_clopper_pearson_shapes_up_to_a_billion_trials_and_fractional_kish_counts(engine):
    rng = np.random.default_rng(4)
    shapes = []
    for n in (2, 7, 30, 1_000, 10**5, 10**7, 10**9):
        for x in sorted({1, n // 2, n - 1, int(rng.integers(1, n))}):
            shapes += [(float(x), float(n - x + 1)), (float(n - x), float(x + 1))]
    shapes += [(0.37, 2.9 - 0.37 + 1), (12.4, 1e5 + 0.3 - 12.4 + 1), (1e5 + 0.3 - 12.4, 13.4)]
    _check(_quantiles(engine, shapes, 0.005), shapes, 0.005)


def test_a_null_shape_gives_a_null_quantile_on_both_engines():
    frame = pl.LazyFrame({"fm_g0": [0, 1], "a": [None, 2.0], "b": [3.0, None]}, schema={"fm_g0": pl.Int64,
                         "a": pl.Float64, "b": pl.Float64})  # fmt: skip
    out = beta_quantiles(PolarsFrame(frame), ["fm_g0"], [(pl.col("a"), pl.col("b"))], 0.025).collect().sort("fm_g0")
    assert out["fm_q0"].to_list() == [None, None]


# The stages themselves, engine by engine.

GRID_SHAPES = (0.01, 0.1, 0.3, 0.5, 1.0, 1.5, 2.0, 3.0, 7.5, 20.0, 99.0, 100.5, 1e3, 1e4, 1e5, 1e6, 1e8, 1e10, 1e12)
LEVELS = (1e-6, 0.005, 0.025, 0.05, 0.5, 0.95, 0.975, 0.995)
SQL_LEVEL = 0.025  # DuckDB runs one level: building a level's SQL takes seconds (the swap of p > 1/2 is on Polars)
GRID = [(a, b) for a in GRID_SHAPES for b in GRID_SHAPES]
# Clopper-Pearson's bounds of x successes in n trials, Beta(x, n - x + 1) at 0.025 and Beta(x + 1, n - x) at 0.975,
# for integer counts up to 1e9 and Kish's effective (fractional) counts.
TRIALS = (2, 3, 10, 100, 1e3, 1e5, 1e7, 1e9)
COUNTS = [(x, n) for n in TRIALS for x in sorted({1, 2, n // 3, n // 2, n - 1}) if 1 <= x < n]
COUNTS += [(0.37, 2.9), (1.2, 1.9), (12.4, 1e5 + 0.3), (0.5, 1e9 + 0.25), (2.5e8 + 0.7, 1e9 + 0.1)]
EDGES = [(None, 2.0), (2.0, None), (None, None), (0.0, 1.0), (-1.0, 2.0), (math.nan, 2.0), (math.inf, 2.0),
         (2.0, -math.inf), (1e-300, 1e-300), (1e300, 1e300), (1e-300, 1e300), (5e-324, 1.0), (1e-8, 1e15),
         (1e15, 1e-8), (1e-3, 1e-3), (0.0123, 1e12)]  # fmt: skip
SHAPE = st.floats(-2.0, 12.0).map(lambda e: 10.0**e)  # log-uniform over [0.01, 1e12]
Pairs = Sequence[tuple[float | None, float | None]]


def _frame(pairs: Pairs) -> pl.DataFrame:
    a, b = zip(*pairs, strict=True)
    schema = {"i": pl.Int64, BETA_INPUTS[0]: pl.Float64, BETA_INPUTS[1]: pl.Float64}
    return pl.DataFrame({"i": range(len(a)), BETA_INPUTS[0]: a, BETA_INPUTS[1]: b}, schema=schema)


def _polars(pairs: Pairs, p: float) -> list[float | None]:
    """The quantiles by the stages as successive ``with_columns``."""
    frame = _frame(pairs).lazy()
    columns = {n: pl.col(n) for n in BETA_INPUTS}
    for stage in beta_quantile_stages(p):
        values = stage(POLARS, columns)
        frame = frame.with_columns(**values)
        columns |= {n: pl.col(n) for n in values}
    return frame.collect()[BETA_QUANTILE].to_list()


@cache
def _stages_sql(p: float) -> tuple[tuple[dict[str, exp.Expression], ...], str]:
    """The stages' SQL trees, and the stages as nested ``SELECT``s over the table ``t`` in DuckDB's SQL, each
    subquery fenced by ``OFFSET 0`` (PostgreSQL would otherwise pull the expressions of every subquery into the
    outer query, a copy per reference)."""
    names, stages = ["i", *BETA_INPUTS], []
    query = exp.select(*names).from_("t")
    for k, stage in enumerate(beta_quantile_stages(p)):
        values = stage(SQL, {n: exp.column(n) for n in names})
        stages.append(values)
        carried = [exp.column(n) for n in names]
        aliased = [exp.alias_(v.copy(), n, copy=False) for n, v in values.items()]
        fenced = query.offset(0, copy=False).subquery(f"s{k}", copy=False)
        query = exp.select(*carried, *aliased, copy=False).from_(fenced, copy=False)
        names += list(values)
    last = exp.select("i", BETA_QUANTILE).from_(query.subquery("q", copy=False), copy=False).order_by("i")
    return tuple(stages), to_sql(last)


def _duckdb(pairs: Pairs, p: float) -> list[float | None]:
    """The quantiles by the stages as nested ``SELECT``s on DuckDB."""
    t = _frame(pairs)  # noqa: F841 (DuckDB reads the frame by its name)
    return duckdb.sql(_stages_sql(p)[1]).pl()[BETA_QUANTILE].to_list()


def _assert_same(got: Sequence[float | None], want: Sequence[float | None]) -> None:
    """Polars and DuckDB agree to 1e-13 of ``min(q, 1 - q)``, nulls included."""
    for g, w in zip(got, want, strict=True):
        assert (g is None and w is None) or abs(g - w) <= 1e-13 * max(min(w, 1 - w), 1e-300), (g, w)


@cache
def _exact_error(a: float, b: float, p: float, q: float) -> float:
    """``|q - x|``, ``I_x(a, b) = p``: one Newton step in ``w = ln(x / (1 - x))`` on ``ln I_x``, ``I_x`` the
    quadrature of the density of ``w`` in 40 digits."""
    with mpmath.workdps(40):
        a_, b_, x = mpmath.mpf(a), mpmath.mpf(b), mpmath.mpf(q)
        w, y = mpmath.log(x / (1 - x)), 1 - x
        ln_beta = mpmath.loggamma(a_) + mpmath.loggamma(b_) - mpmath.loggamma(a_ + b_)

        def density(t: mpmath.mpf) -> mpmath.mpf:  # x^a y^b / B at x = 1 / (1 + e^-t), without overflow
            linear = a_ * t if t < 0 else -b_ * t
            return mpmath.exp(linear - (a_ + b_) * mpmath.log1p(mpmath.exp(-abs(t))) - ln_beta)

        mode, spread = mpmath.log(a_ / b_), mpmath.sqrt(1 / a_ + 1 / b_)
        reach = max(200 * spread, 200 / min(a_, b_))
        if w <= mode:
            ln_f = mpmath.log(mpmath.quad(density, [-mpmath.inf, w - reach, w - 10 * spread, w - spread, w]))
        else:
            ln_f = mpmath.log1p(-mpmath.quad(density, [w, w + spread, w + 10 * spread, w + reach, mpmath.inf]))
        rho = mpmath.exp(a_ * mpmath.log(x) + b_ * mpmath.log(y) - ln_beta - ln_f)
        return float(abs(x * y * (mpmath.log(p) - ln_f) / rho))


def _tolerance(q: float) -> float:
    return max(1e-12 * q * (1 - q), 1e-13)


def _assert_within(pairs: Sequence[tuple[float, float]], p: float, got: Sequence[float | None]) -> None:
    """Each ``q`` within ``1e-12 q (1 - q)`` or 1e-13 of SciPy's, or (where SciPy is off) of the exact quantile."""
    for (a, b), q in zip(pairs, got, strict=True):
        assert q is not None and math.isfinite(q) and 0 <= q <= 1, (a, b, p, q)
        want = float(stats.beta.ppf(p, a, b))
        if abs(q - want) > _tolerance(want):
            assert _exact_error(a, b, p, q) <= _tolerance(q), (a, b, p, q, want)


def _clopper_pearson(p: float) -> list[tuple[float, float]]:
    return [(x, n - x + 1) if p < 0.5 else (x + 1, n - x) for x, n in COUNTS]


@pytest.mark.parametrize("p", LEVELS)
def test_grid_equals_scipy_on_polars(p):
    _assert_within(GRID, p, _polars(GRID, p))


@pytest.mark.parametrize("p", [0.025, 0.975])
def test_clopper_pearson_bounds_on_polars(p):
    pairs = _clopper_pearson(p)
    _assert_within(pairs, p, _polars(pairs, p))


def test_duckdb_equals_polars_and_scipy():
    """The grid, both Clopper-Pearson bounds (the upper one as ``1 - q`` of the swapped shapes) and the edges."""
    pairs = GRID + _clopper_pearson(SQL_LEVEL) + [(b, a) for a, b in _clopper_pearson(1 - SQL_LEVEL)]
    got = _duckdb(pairs + EDGES, SQL_LEVEL)
    _assert_same(got, _polars(pairs + EDGES, SQL_LEVEL))
    _assert_within(pairs, SQL_LEVEL, got[: len(pairs)])


@settings(max_examples=1, deadline=None)
@given(pairs=st.lists(st.tuples(SHAPE, SHAPE), min_size=40, max_size=80))
def test_generated_quantiles_equal_scipy_on_duckdb(pairs):
    got = _duckdb(pairs, SQL_LEVEL)
    _assert_same(got, _polars(pairs, SQL_LEVEL))
    _assert_within(pairs, SQL_LEVEL, got)


@settings(max_examples=8, deadline=None)
@given(
    p=st.one_of(st.sampled_from([0.025, 0.975]), st.floats(1e-6, 1 - 1e-6)),
    pairs=st.lists(st.tuples(SHAPE, SHAPE), min_size=1, max_size=30),
)
def test_generated_quantiles_equal_scipy_on_polars(p, pairs):
    _assert_within(pairs, p, _polars(pairs, p))


def test_invalid_shapes_give_null_and_extreme_ones_a_probability():
    for (a, b), q in zip(EDGES, _polars(EDGES, 0.975), strict=True):
        if a is None or b is None or not (0 < a < math.inf and 0 < b < math.inf):
            assert q is None, (a, b, q)
        else:
            assert q is not None and math.isfinite(q) and 0 <= q <= 1, (a, b, q)


def test_the_two_tails_are_one_quantile():
    pairs = GRID[::5]
    lower = _polars(pairs, 0.025)
    upper = _polars([(b, a) for a, b in pairs], 0.975)
    for low, up in zip(lower, upper, strict=True):
        assert abs(low - (1 - up)) <= _tolerance(low) + 2**-53, (low, up)


def test_stages_are_small_guarded_and_common_sql():
    """Each stage below 60 KB of SQL; only functions every dialect has; every EXP argument clamped (but those of
    the normal distribution function, guarded by its branches), every LN argument at least 1e-300, every SQRT
    argument at least 0."""
    allowed = {exp.Exp, exp.Ln, exp.Sqrt, exp.Abs, exp.Floor, exp.Least, exp.Greatest, exp.Case, exp.If, exp.Cast,
               exp.And, exp.Or, exp.Not}  # fmt: skip
    stages, _ = _stages_sql(SQL_LEVEL)
    sizes = [sum(len(to_sql(v)) for v in values.values()) for values in stages]
    assert max(sizes) < 60_000 and sum(sizes) < 250_000, sizes
    for values in stages:
        for name, tree in values.items():
            assert name.startswith("fm_beta_")
            assert {type(f) for f in tree.find_all(exp.Func)} <= allowed, name
            for e in tree.find_all(exp.Exp):
                argument = e.this.this if isinstance(e.this, exp.Neg) else e.this
                assert isinstance(argument, (exp.Least, exp.Mul)), name
            assert all(isinstance(e.this, exp.Greatest) for e in tree.find_all(exp.Ln, exp.Sqrt)), name


def test_level_must_be_a_probability():
    for p in (0.0, 1.0, -0.1, math.nan):
        with pytest.raises(ValueError):
            beta_quantile_stages(p)
