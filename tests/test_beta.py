"""The Beta quantile written once (core/beta.py) against SciPy's, on Polars and DuckDB, over the shapes'
whole range: what Clopper-Pearson's interval reads."""

from __future__ import annotations

import itertools
import math

import duckdb
import numpy as np
import polars as pl
import pytest
from scipy import stats
from sqlglot import exp

from framemetrics.compilers.polars.beta_quantiles import beta_quantile_frame
from framemetrics.compilers.sql.beta_quantiles import beta_quantile_ctes
from framemetrics.compilers.sql.emit import to_sql
from framemetrics.compilers.sql.namespace import SQL

SHAPES = [0.01, 0.3, 1.0, 2.5, 20.0, 99.0, 100.5, 1e3, 1e5, 1e8, 1e12]
PROBABILITIES = [1e-6, 0.025, 0.5, 0.975]


def _quantiles(engine: str, shapes: list[tuple[float, float]], p: float) -> list[float | None]:
    """Each (a, b)'s quantile at p, one group per pair, through the compiler's stages."""
    frame = pl.DataFrame({"g": list(range(len(shapes))), "a": [a for a, _ in shapes], "b": [b for _, b in shapes]},
                         schema={"g": pl.Int64, "a": pl.Float64, "b": pl.Float64})  # fmt: skip
    if engine == "polars":
        out = beta_quantile_frame(frame.lazy().rename({"g": "fm_g0"}), ["fm_g0"], [(pl.col("a"), pl.col("b"))], p)
        return out.sort("fm_g0").collect()["fm_q0"].to_list()
    select = exp.select("fm_g0", "fm_q0").from_("fm_beta_quantiles").order_by("fm_g0")
    select = select.with_("fm_statistics", as_="SELECT g AS fm_g0, a, b FROM frame")
    for name, cte in beta_quantile_ctes(["fm_g0"], [(SQL.col("a"), SQL.col("b"))], p):
        select = select.with_(name, as_=cte)
    con = duckdb.connect()
    con.register("frame", frame)
    return [row[1] for row in con.sql(to_sql(select)).fetchall()]


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
    out = beta_quantile_frame(frame, ["fm_g0"], [(pl.col("a"), pl.col("b"))], 0.025).collect()
    assert out["fm_q0"].to_list() == [None, None]
