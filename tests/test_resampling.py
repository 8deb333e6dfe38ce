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
from framemetrics.core.resampling import PRIME, poisson_weight, replicate_constants, row_hash, uniform

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
    rows = resampling._ROW_ROUNDS
    seed_term = _rounds(np.array([(seed * resampling._SEED_MULTIPLIER + 1) % PRIME], dtype=np.uint64), rows)
    reduced = np.array([k % PRIME for k in keys], dtype=np.uint64)  # Python's % is non-negative
    hashed = _rounds((reduced + seed_term) % np.uint64(PRIME), rows)
    thresholds = np.floor(stats.poisson.cdf(np.arange(10), 1) * 2**20) * 2**11
    out = []
    for b in range(replicates):
        a = _rounds((seed_term + np.uint64(2 * b + 1)) % np.uint64(PRIME), rows) % np.uint64(PRIME - 1) + np.uint64(1)
        c = _rounds((seed_term + np.uint64(2 * b + 2)) % np.uint64(PRIME), rows)
        u = (hashed * a + c) % np.uint64(PRIME)
        out.append(np.searchsorted(thresholds, u.astype(float), side="right"))
    return np.stack(out, axis=1)


def test_thresholds_are_the_poisson_distribution_function():
    """The 20 leading bits of the uniform: each threshold floor(F(j) 2^20) 2^11, F the Poisson(1) distribution."""
    exact = np.floor(stats.poisson.cdf(np.arange(10), 1) * 2**20) * 2**11
    assert np.array_equal(np.array(resampling.POISSON_THRESHOLDS, dtype=float), exact)
    assert np.all(np.diff(resampling.POISSON_THRESHOLDS) > 0) and resampling.POISSON_THRESHOLDS[-1] < PRIME


def _polars(keys: list[int], seed: int, replicates: int) -> np.ndarray:
    frame = pl.DataFrame({"k": keys}, schema={"k": pl.Int64}).with_columns(h=row_hash(POLARS, pl.col("k"), seed))
    weights = [
        poisson_weight(POLARS, uniform(POLARS, pl.col("h"), replicate_constants(seed, b))) for b in range(replicates)
    ]
    return frame.select(*(w.alias(f"w{b}") for b, w in enumerate(weights))).to_numpy()


def weights_tree(seed: int, replicates: int) -> exp.Select:
    """The weights of the table ``keys``' column ``k``, ordered by ``k``: the hash, then each replicate's weight."""
    hashed = exp.select(exp.column("k"), exp.alias_(row_hash(SQL, SQL.col("k"), seed), "h")).from_("keys")
    weights = [poisson_weight(SQL, uniform(SQL, SQL.col("h"), replicate_constants(seed, b))) for b in range(replicates)]
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
                                                         replicate_constants(seed, b))) for b in range(5)] for k in KEYS]  # fmt: skip
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


def test_weights_at_every_threshold_on_both_engines():
    """Polars looks the weight up in a table, SQL compares: the same step at each threshold and just below it."""
    u = [0, *(t + d for t in resampling.POISSON_THRESHOLDS for d in (-1, 0, 1)), PRIME - 1]
    want = [sum(t <= v for t in resampling.POISSON_THRESHOLDS) for v in u]
    frame = pl.DataFrame({"u": u}, schema={"u": pl.Int64})
    assert frame.select(poisson_weight(POLARS, pl.col("u"))).to_series().to_list() == want
    query = exp.select(exp.alias_(poisson_weight(SQL, SQL.col("u")), "k")).from_("frame").order_by("u")
    assert [k for (k,) in duckdb.sql(to_sql(query)).fetchall()] == want
    assert [poisson_weight(resampling.PYTHON, v) for v in u] == want


def test_row_terms_sum_to_their_statistics():
    """Every statistic a replicate sums as sum k v (its row term v) equals the sum of its terms with k = 1."""
    from framemetrics.compilers.polars.expressions import row_statistic
    from framemetrics.core.statistics import STATISTICS, Rows

    rng = np.random.default_rng(3)
    frame = pl.DataFrame({"y_true": rng.integers(0, 2, 50), "y_pred": rng.uniform(0.05, 0.95, 50),
                          "y_score": rng.uniform(0, 1, 50), "sample_weight": rng.uniform(0.5, 2, 50)})  # fmt: skip
    x = Rows(*(pl.col(c) for c in ("y_true", "y_pred", "y_score", "sample_weight")), pos_label=pl.lit(1),
             neg_label=pl.lit(0), alpha=pl.lit(0.3), max_fpr=pl.lit(1.0), power=pl.lit(1.5))  # fmt: skip
    names = [s for s in STATISTICS if resampling.bootstrappable(s) and not STATISTICS[s].curve]
    terms = resampling.row_terms(POLARS, names, x)
    assert "max_abs_error" not in terms and {"tp", "n_rows", "sum_log_loss", "sum_weight"} <= set(terms)
    for name, term in terms.items():
        per_row = term + 0 * pl.col("y_score")  # a literal term (n_rows: 1) on every row
        got, want = frame.select(
            per_row.cast(pl.Float64).sum().alias("a"), row_statistic(name, x).cast(pl.Float64).alias("b")
        ).row(0)
        assert got == pytest.approx(want, rel=1e-12, abs=1e-12), name
