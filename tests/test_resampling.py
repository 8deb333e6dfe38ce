"""The Poisson bootstrap's weights: the same integers on every engine and in NumPy, and Poisson(1) weights.

The NumPy reference below is written from the scheme's description
(:mod:`framemetrics.core.resampling`), with its own arithmetic: unsigned
64-bit arrays and thresholds from SciPy's Poisson distribution function.
"""

from __future__ import annotations

import duckdb
import numpy as np
import polars as pl
import pytest
from scipy import stats
from sqlglot import exp

from framemetrics.compilers.polars import POLARS
from framemetrics.compilers.sql import SQL
from framemetrics.compilers.sql.emit import to_sql
from framemetrics.core import resampling
from framemetrics.core.resampling import PRIME, poisson_weight, replicate_constant, row_hash, uniform

KEYS = [*range(-5, 300), 2**31 - 2, 2**31 - 1, 2**31, 2**62, -(2**62), 2**63 - 1, -(2**63)]
SEEDS = (0, 1, 2**40 + 3)


def _rounds(x: np.ndarray, rounds: tuple[tuple[int, int], ...]) -> np.ndarray:
    for a, c in rounds:
        x = (
            (x * x + np.uint64(c)) % np.uint64(PRIME)
            if a == 0
            else (x * np.uint64(a) + np.uint64(c)) % np.uint64(PRIME)
        )
    return x


def numpy_weights(keys: list[int], seed: int, replicates: int) -> np.ndarray:
    """The weights by NumPy: rows x replicates."""
    rows, replicate = resampling._ROW_ROUNDS, resampling._REPLICATE_ROUNDS
    seed_term = _rounds(np.array([(seed * resampling._SEED_MULTIPLIER + 1) % PRIME], dtype=np.uint64), rows)
    reduced = np.array([k % PRIME for k in keys], dtype=np.uint64)  # Python's % is non-negative
    hashed = _rounds((reduced + seed_term) % np.uint64(PRIME), rows)
    thresholds = np.floor(stats.poisson.cdf(np.arange(13), 1) * PRIME)
    out = []
    for b in range(replicates):
        t = _rounds((seed_term + np.uint64(b + 1)) % np.uint64(PRIME), rows)
        u = _rounds((hashed + t) % np.uint64(PRIME), replicate)
        out.append(np.searchsorted(thresholds, u.astype(float), side="right"))
    return np.stack(out, axis=1)


def test_thresholds_are_the_poisson_distribution_function():
    exact = np.floor(stats.poisson.cdf(np.arange(13), 1) * PRIME)
    assert np.abs(np.array(resampling.POISSON_THRESHOLDS) - exact).max() <= 1
    assert np.all(np.diff(resampling.POISSON_THRESHOLDS) > 0) and resampling.POISSON_THRESHOLDS[-1] < PRIME


def _polars(keys: list[int], seed: int, replicates: int) -> np.ndarray:
    frame = pl.DataFrame({"k": keys}, schema={"k": pl.Int64}).with_columns(h=row_hash(POLARS, pl.col("k"), seed))
    weights = [
        poisson_weight(POLARS, uniform(POLARS, pl.col("h"), replicate_constant(seed, b))) for b in range(replicates)
    ]
    return frame.select(*(w.alias(f"w{b}") for b, w in enumerate(weights))).to_numpy()


def weights_tree(seed: int, replicates: int) -> exp.Select:
    """The weights of the table ``keys``' column ``k``, ordered by ``k``: the hash, then each replicate's weight."""
    hashed = exp.select(exp.column("k"), exp.alias_(row_hash(SQL, SQL.col("k"), seed), "h")).from_("keys")
    weights = [poisson_weight(SQL, uniform(SQL, SQL.col("h"), replicate_constant(seed, b))) for b in range(replicates)]
    columns = [exp.alias_(w, f"w{b}") for b, w in enumerate(weights)]
    return exp.select(*columns).from_(hashed.subquery("hashed")).order_by("k")


@pytest.mark.parametrize("seed", SEEDS)
def test_polars_duckdb_and_python_equal_numpy(seed):
    want = numpy_weights(KEYS, seed, 5)
    assert np.array_equal(_polars(KEYS, seed, 5), want)
    keys = pl.DataFrame({"k": KEYS}, schema={"k": pl.Int64})  # noqa: F841 (read by DuckDB)
    order = np.argsort(KEYS, kind="stable")
    assert np.array_equal(np.array(duckdb.sql(to_sql(weights_tree(seed, 5))).fetchall()), want[order])
    python = [[poisson_weight(resampling.PYTHON, uniform(resampling.PYTHON, row_hash(resampling.PYTHON, k, seed),
                                                         replicate_constant(seed, b))) for b in range(5)] for k in KEYS]  # fmt: skip
    assert np.array_equal(np.array(python), want)


def test_weights_are_poisson_and_independent():
    """10^5 keys x 20 replicates: Poisson(1) frequencies, no correlation between replicates or neighbouring keys."""
    n, b = 100_000, 20
    w = numpy_weights(list(range(n)), 0, b)
    counts = np.bincount(w.ravel(), minlength=14)[:6].astype(float)
    expected = stats.poisson.pmf(np.arange(6), 1) * w.size
    chi2 = ((counts - expected) ** 2 / expected).sum()
    assert chi2 < stats.chi2.ppf(0.999, 5), (counts, expected)
    assert abs(w.mean() - 1) < 4 / np.sqrt(w.size) and abs(w.var() - 1) < 8 / np.sqrt(w.size)
    bound = 4.5 / np.sqrt(n)  # about 4.5 standard errors over 190 + 20 pairs
    replicates = np.corrcoef(w.T) - np.eye(b)
    assert np.abs(replicates).max() < bound
    neighbours = [np.corrcoef(w[:-1, j], w[1:, j])[0, 1] for j in range(b)]
    assert max(map(abs, neighbours)) < bound


def test_weights_on_every_warehouse(warehouse):
    """PostgreSQL, ClickHouse, DataFusion and Spark compute the same integers."""
    warehouse.load("keys", pl.DataFrame({"k": KEYS}, schema={"k": pl.Int64}))
    order = np.argsort(KEYS, kind="stable")
    for seed in SEEDS[1:]:  # the largest seed and one other: each engine's run costs seconds on Spark
        got = warehouse.run(to_sql(weights_tree(seed, 3), warehouse.dialect))
        assert np.array_equal(got.to_numpy(), numpy_weights(KEYS, seed, 3)[order]), (warehouse.dialect, seed)
