"""The Poisson bootstrap's weights, written once: a row's Poisson(1) weight in a replicate, from a hash.

Each row gets, in replicate ``b``, a weight drawn from Poisson(1) as a
function of ``(seed, b, row key)`` alone (Chamandy et al., "Estimating
uncertainty for massive data streams", 2012): every replicate is computed in
the same pass over the rows, on any engine, and the same key gives the same
weights on every engine and in NumPy.

The hash uses integer arithmetic modulo the prime ``p = 2^31 - 1`` only:
``+``, ``*`` and ``%`` on values below ``p``, so that every product stays
below 2^62 and no engine overflows, wraps or needs bitwise operators. A
round is affine, ``x -> (a x + c) mod p``, or quadratic, ``x -> (x^2 + c)
mod p``, the non-linear step:

* the row's hash ``h = mix(key mod p + s)``, five rounds, ``s`` derived
  from the seed (:func:`row_hash`);
* in replicate ``b``, ``u = mix((h + t_b) mod p)``, three rounds, ``t_b``
  a constant of ``(seed, b)`` computed in Python by the same rounds
  (:func:`replicate_constant`, :func:`uniform`);
* the weight is the number of thresholds ``T_j = floor(F(j) p)`` at or
  below ``u``, ``F`` the Poisson(1) distribution function
  (:func:`poisson_weight`): Poisson(1) to within ``1/p`` per value.

Tested: the weights' mean and variance are 1, neighbouring keys and
replicates are uncorrelated, and NumPy computing the same integers gives
the same replicates.

Examples
--------
>>> uniform(PYTHON, row_hash(PYTHON, 12, seed=0), replicate_constant(seed=0, replicate=3))
1990829131
>>> poisson_weight(PYTHON, 1990829131)
3
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from typing import Any

from framemetrics.core.errors import ArgumentError
from framemetrics.core.namespace import Namespace
from framemetrics.core.statistics import STATISTICS, Rows

__all__ = [
    "MAX_RESAMPLES",
    "POISSON_THRESHOLDS",
    "PRIME",
    "PYTHON",
    "Resampling",
    "bootstrappable",
    "check_resampling",
    "percentile_position",
    "poisson_weight",
    "replicate_constant",
    "replicate_statistic",
    "replicate_uniforms",
    "row_hash",
    "uniform",
]

Expr = Any
PRIME = 2**31 - 1
MAX_RESAMPLES = 10_000
# floor(F(j) p) for j = 0..12, F the Poisson(1) distribution function (computed to 50 digits).
POISSON_THRESHOLDS = (
    790015083,
    1580030167,
    1975037709,
    2106706890,
    2139624185,
    2146207644,
    2147304887,
    2147461637,
    2147481230,
    2147483407,
    2147483625,
    2147483645,
    2147483646,
)
# (multiplier, constant): a multiplier of 0 makes the round quadratic, x -> x^2 + c.
_ROW_ROUNDS = ((1103515245, 12345), (0, 1013904223), (1664525, 374761393), (0, 668265263), (2147483629, 99012519))
_REPLICATE_ROUNDS = ((0, 1013904223), (1664525, 374761393), (0, 668265263))
_SEED_MULTIPLIER = 40503


class _Python:
    """The arithmetic of the hash on Python integers (the constants, the tests' reference)."""

    def when(self, condition: bool, value: int) -> Any:
        return _PythonCase(condition, value)


class _PythonCase:
    def __init__(self, condition: bool, value: int) -> None:
        self._value = value if condition else None

    def when(self, condition: bool, value: int) -> _PythonCase:
        if self._value is None and condition:
            self._value = value
        return self

    def otherwise(self, value: int) -> int:
        return value if self._value is None else self._value


PYTHON: Any = _Python()


def _mix(x: Expr, rounds: tuple[tuple[int, int], ...]) -> Expr:
    for multiplier, constant in rounds:
        x = (x * x + constant) % PRIME if multiplier == 0 else (x * multiplier + constant) % PRIME
    return x


def _seed_term(seed: int) -> int:
    return _mix((seed * _SEED_MULTIPLIER + 1) % PRIME, _ROW_ROUNDS)


def row_hash(ns: Namespace | Any, key: Expr, seed: int) -> Expr:
    """A row's hash from its integer ``key`` (any sign; taken modulo ``p``) and the ``seed``.

    Examples
    --------
    >>> row_hash(PYTHON, 12, seed=0) == row_hash(PYTHON, 12 + PRIME, seed=0)
    True
    """
    reduced = (key % PRIME + PRIME) % PRIME  # non-negative whether % truncates or floors
    return _mix((reduced + _seed_term(seed)) % PRIME, _ROW_ROUNDS)


def replicate_constant(seed: int, replicate: int) -> int:
    """The constant ``t_b`` of replicate ``b`` (from 0) under ``seed``, a Python integer below ``p``.

    Examples
    --------
    >>> replicate_constant(seed=0, replicate=0) != replicate_constant(seed=0, replicate=1)
    True
    """
    return _mix((_seed_term(seed) + replicate + 1) % PRIME, _ROW_ROUNDS)


def uniform(ns: Namespace | Any, hashed: Expr, constant: int) -> Expr:
    """The row's uniform integer in ``[0, p)`` in one replicate: its ``hashed`` value mixed with ``t_b``."""
    return _mix((hashed + constant) % PRIME, _REPLICATE_ROUNDS)


def poisson_weight(ns: Namespace | Any, u: Expr) -> Expr:
    """The Poisson(1) weight of the uniform integer ``u``: how many thresholds ``T_j`` are at or below it.

    Examples
    --------
    >>> [poisson_weight(PYTHON, u) for u in (0, 790015082, 790015083, PRIME - 1)]
    [0, 0, 1, 13]
    """
    case = ns.when(u < POISSON_THRESHOLDS[0], 0)
    for j, threshold in enumerate(POISSON_THRESHOLDS[1:], start=1):
        case = case.when(u < threshold, j)
    return case.otherwise(len(POISSON_THRESHOLDS))


@dataclass(frozen=True)
class Resampling:
    """The Poisson bootstrap of a request: its replicates, seed and row key (a column, or the row's position)."""

    n_resamples: int
    seed: int
    row_id: str | None = None


def check_resampling(n_resamples: Any, seed: Any, row_id: Any = None) -> Resampling:
    """The bootstrap's arguments checked: ``n_resamples`` from 2 to 10,000, an integer ``seed``, a column name.

    Examples
    --------
    >>> check_resampling(200, 0)
    Resampling(n_resamples=200, seed=0, row_id=None)
    >>> check_resampling(1, 0)
    Traceback (most recent call last):
    ...
    framemetrics.core.errors.ArgumentError: n_resamples must be an integer from 2 to 10000, got 1
    """
    if isinstance(n_resamples, bool) or not isinstance(n_resamples, int) or not 2 <= n_resamples <= MAX_RESAMPLES:
        raise ArgumentError(f"n_resamples must be an integer from 2 to {MAX_RESAMPLES}, got {n_resamples!r}")
    if isinstance(seed, bool) or not isinstance(seed, int):
        raise ArgumentError(f"seed must be an integer, got {seed!r}")
    if row_id is not None and not isinstance(row_id, str):
        raise ArgumentError(f"row_id must be a column name, got {row_id!r}")
    return Resampling(n_resamples, seed, row_id)


def replicate_uniforms(ns: Namespace | Any, hashed: Expr, resampling: Resampling) -> dict[str, Expr]:
    """Each replicate's uniform integer of a row whose hash is ``hashed``, named ``fm_u<b>``.

    A compiler makes them columns before :func:`poisson_weight` compares each
    with the thirteen thresholds (as SQL text, an expression repeated thirteen
    times would be planned thirteen times).
    """
    return {
        f"fm_u{b}": uniform(ns, hashed, replicate_constant(resampling.seed, b)) for b in range(resampling.n_resamples)
    }


def replicate_statistic(ns: Namespace, name: str, x: Rows, weight: Expr) -> Expr:
    """The row statistic ``name`` of one replicate: every row's weight times its Poisson ``weight``.

    ``n_rows`` becomes the rows drawn, ``sum weight``.

    Examples
    --------
    >>> from framemetrics.compilers.sql import SQL
    >>> from framemetrics.compilers.sql.emit import to_sql
    >>> to_sql(replicate_statistic(SQL, "sum_weight", Rows.named(SQL), SQL.col("fm_k0")))
    'COALESCE(SUM(sample_weight * fm_k0), 0)'
    """
    if name == "n_rows":
        return ns.to_int(ns.sum(weight))
    return STATISTICS[name].build(ns, replace(x, sample_weight=x.sample_weight * weight))


def bootstrappable(statistic: str) -> bool:
    """Whether a statistic is a sum over rows that a replicate reweights (no curve stage, no first pass)."""
    s = STATISTICS[statistic]
    return not s.curve and not s.needs


def percentile_position(n: Expr, q: float) -> Expr:
    """NumPy's linear percentile of ``n`` sorted values at ``q``: the 0-based position ``(n - 1) q``."""
    return (n - 1) * q
