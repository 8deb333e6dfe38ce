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
  from the seed (:func:`row_hash`): distinct keys give distinct, scattered
  hashes (the rounds are bijections of the keys below ``p`` but for the
  quadratic ones);
* in replicate ``b``, ``u = (a_b h + c_b) mod p``, one affine round whose
  multiplier ``a_b`` (from 1 to ``p - 1``) and constant ``c_b`` are mixed
  from ``(seed, b)`` in Python (:func:`replicate_constants`,
  :func:`uniform`). The maps ``h -> (a h + c) mod p`` with ``a != 0`` form
  a pairwise-independent family (Carter and Wegman): for two distinct
  hashes, ``(u, u')`` is uniform over pairs for random ``(a, c)``, so the
  replicate sums have exactly the variance of independent Poisson draws;
* the weight is the number of thresholds ``T_j`` at or below ``u``
  (:func:`poisson_weight`), ``T_j = 2^11 floor(F(j) 2^20)``, ``F`` the
  Poisson(1) distribution function: a Poisson(1) draw from the 20 leading
  bits of ``u``, each probability within ``2^-20`` of Poisson(1)'s (weights
  stop at 10, drawn with probability ``2^-20``). Thresholds that are
  multiples of ``2^11`` let Polars look the weight up in a table of
  ``2^20`` entries (:meth:`~framemetrics.core.namespace.Namespace.steps`),
  one operation instead of thirteen comparisons.

One replicate then costs, per row, one product, one sum and one modulo,
the weight, and one product-sum per statistic: the statistics that are sums
over rows are written as their per-row terms
(:func:`row_terms`), computed once per row, so that a replicate's statistic
is ``sum k_b v``.

Tested: the weights' mean and variance are 1, neighbouring keys and
replicates are uncorrelated, and NumPy computing the same integers gives
the same replicates.

Examples
--------
>>> uniform(PYTHON, row_hash(PYTHON, 12, seed=0), replicate_constants(seed=0, replicate=3))
1817598213
>>> poisson_weight(PYTHON, 1817598213)
2
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, replace
from typing import Any

from framemetrics.core.cells import cell_rows
from framemetrics.core.errors import ArgumentError
from framemetrics.core.namespace import Namespace
from framemetrics.core.statistics import STATISTICS, CurvePoints, Rows, error, tweedie_deviance

__all__ = [
    "BATCH",
    "CENTRED",
    "MAX_RESAMPLES",
    "PARTS",
    "POISSON_THRESHOLDS",
    "PRIME",
    "PYTHON",
    "REPLICATE",
    "ROW_KEY",
    "Resampling",
    "about_own_mean",
    "bootstrappable",
    "centred_terms",
    "check_resampling",
    "percentile_position",
    "poisson_weight",
    "replicate_batches",
    "replicate_cell_sums",
    "replicate_cells",
    "replicate_centred",
    "replicate_constants",
    "replicate_from_parts",
    "replicate_parts",
    "replicate_points",
    "replicate_row_statistic",
    "replicate_statistic",
    "replicate_sum",
    "replicate_totals",
    "replicate_tweedie_baseline",
    "replicate_uniforms",
    "row_hash",
    "row_terms",
    "sum_terms",
    "uniform",
]

Expr = Any
PRIME = 2**31 - 1
REPLICATE = "fm_b"  # the column numbering the replicates laid out as rows (-1: the full data, where it is one)
ROW_KEY = "fm_key"  # the input rows' column of row keys: the bootstrap's row_id, or the row's position
MAX_RESAMPLES = 10_000
BATCH = 25  # replicates aggregated together (replicate_batches)
# floor(F(j) 2^20) for j = 0..9, F the Poisson(1) distribution function (computed to 50 digits; from j = 9 on
# it is 2^20 - 1), in units of 2^11: the thresholds of the 20 leading bits of a uniform integer below 2^31.
_POISSON_STEPS = (385749, 771499, 964373, 1028665, 1044738, 1047952, 1048488, 1048565, 1048574, 1048575)
POISSON_THRESHOLDS = tuple(step * 2**11 for step in _POISSON_STEPS)
# (multiplier, constant): a multiplier of 0 makes the round quadratic, x -> x^2 + c.
_ROW_ROUNDS = ((1103515245, 12345), (0, 1013904223), (1664525, 374761393), (0, 668265263), (2147483629, 99012519))
_SEED_MULTIPLIER = 40503


class _Python:
    """The arithmetic of the hash on Python integers (the constants, the tests' reference)."""

    def when(self, condition: bool, value: int) -> Any:
        return _PythonCase(condition, value)

    def steps(self, x: int, thresholds: Sequence[int]) -> int:
        return sum(1 for t in thresholds if t <= x)


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


def replicate_constants(seed: int, replicate: int) -> tuple[int, int]:
    """The multiplier ``a_b`` (1 to ``p - 1``) and constant ``c_b`` of replicate ``b`` (from 0) under ``seed``.

    Examples
    --------
    >>> replicate_constants(seed=0, replicate=0) != replicate_constants(seed=0, replicate=1)
    True
    """
    seeded = _seed_term(seed)
    multiplier = _mix((seeded + 2 * replicate + 1) % PRIME, _ROW_ROUNDS) % (PRIME - 1) + 1
    return multiplier, _mix((seeded + 2 * replicate + 2) % PRIME, _ROW_ROUNDS)


def uniform(ns: Namespace | Any, hashed: Expr, constants: tuple[int, int]) -> Expr:
    """The row's uniform integer in ``[0, p)`` in one replicate: ``(a_b h + c_b) mod p`` of its ``hashed`` value."""
    multiplier, constant = constants
    return (hashed * multiplier + constant) % PRIME


def poisson_weight(ns: Namespace | Any, u: Expr) -> Expr:
    """The Poisson(1) weight of the uniform integer ``u``: how many thresholds ``T_j`` are at or below it.

    Examples
    --------
    >>> [poisson_weight(PYTHON, u) for u in (0, 790013951, 790013952, PRIME - 1)]
    [0, 0, 1, 10]
    """
    return ns.steps(u, POISSON_THRESHOLDS)


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


def replicate_batches(resampling: Resampling) -> list[range]:
    """The replicates' numbers in the batches that are aggregated together: :data:`BATCH` at most in each.

    One aggregation per batch, and the batches computed in turn
    (:meth:`~framemetrics.core.frame.Frame.in_turn`): the memory of one
    batch, whatever the number of replicates (1,000 replicates of average
    precision at 2e5 rows: 8 GB at once, 1.2 GB in turns on Polars). An
    aggregation holding every replicate's sums also keeps per group a row of
    state too wide for the processor's caches (a DuckDB trial, F1 and log
    loss, 10^7 rows, 200 replicates: 45 s in one aggregation, 22 s in eight
    batches).

    Examples
    --------
    >>> replicate_batches(Resampling(60, seed=0, row_id="id"))
    [range(0, 25), range(25, 50), range(50, 60)]
    >>> replicate_batches(Resampling(60, seed=0))
    [range(0, 25), range(25, 50), range(50, 60)]
    """
    n = resampling.n_resamples
    return [range(start, min(start + BATCH, n)) for start in range(0, n, BATCH)]


def replicate_uniforms(
    ns: Namespace | Any, hashed: Expr, resampling: Resampling, replicates: Iterable[int] | None = None
) -> dict[str, Expr]:
    """Each replicate's uniform integer of a row whose hash is ``hashed``, named ``fm_u<b>``: those of
    ``replicates`` (default: all).

    A compiler makes them columns before :func:`poisson_weight` compares each
    with the thresholds (as SQL text, an expression repeated in every
    comparison would be computed in each).
    """
    numbers = range(resampling.n_resamples) if replicates is None else replicates
    return {f"fm_u{b}": uniform(ns, hashed, replicate_constants(resampling.seed, b)) for b in numbers}


class _NotASum(Exception):
    """Raised by :class:`_RowTerms` when a statistic aggregates otherwise than by one sum."""


class _RowTerms:
    """A namespace whose ``sum`` and ``count_rows`` give back the per-row term they would aggregate."""

    def __init__(self, ns: Namespace) -> None:
        self._ns = ns
        self.terms: list[Expr] = []

    def __getattr__(self, name: str) -> Any:
        if name in ("max", "min", "median", "count_where", "window", "row_number"):
            raise _NotASum(name)
        return getattr(self._ns, name)

    def sum(self, x: Expr) -> Expr:
        self.terms.append(x)
        return x

    def count_rows(self) -> Expr:
        self.terms.append(self._ns.lit(1.0))
        return self.terms[-1]


def row_terms(ns: Namespace, statistics: Sequence[str], x: Rows) -> dict[str, Expr]:
    """The per-row terms ``v`` of the ``statistics`` that are one sum over rows (``sum v``), by name.

    A replicate's value of such a statistic is ``sum k_b v``
    (:func:`replicate_sum`), ``k_b`` the row's Poisson weight; the others
    (a maximum) are left out and built whole per replicate
    (:func:`replicate_statistic`).

    Examples
    --------
    >>> from framemetrics.compilers.sql import SQL
    >>> from framemetrics.compilers.sql.emit import to_sql
    >>> terms = row_terms(SQL, ["sum_weight", "n_rows", "max_abs_error"], Rows.named(SQL))
    >>> {name: to_sql(v) for name, v in terms.items()}
    {'sum_weight': 'sample_weight', 'n_rows': 'CAST(1.0 AS DOUBLE)'}
    """
    terms = {}
    for name in (s for s in statistics if not STATISTICS[s].curve and not STATISTICS[s].needs):
        collector = _RowTerms(ns)
        try:
            built = STATISTICS[name].build(collector, x)
        except _NotASum:
            continue
        if len(collector.terms) == 1 and built is collector.terms[0]:
            terms[name] = built
    return terms


def replicate_statistic(ns: Namespace, name: str, x: Rows, weight: Expr) -> Expr:
    """A statistic that is not one sum (:func:`row_terms`) in one replicate: built with every row's weight
    multiplied by its Poisson ``weight``.

    Examples
    --------
    >>> from framemetrics.compilers.sql import SQL
    >>> from framemetrics.compilers.sql.emit import to_sql
    >>> maximum = replicate_statistic(SQL, "max_abs_error", Rows.named(SQL), SQL.col("fm_k0"))
    >>> to_sql(maximum).startswith("MAX(CASE WHEN sample_weight * fm_k0 ")
    True
    """
    return STATISTICS[name].build(ns, replace(x, sample_weight=x.sample_weight * weight))


def replicate_row_statistic(ns: Namespace, name: str, x: Rows, weight: Expr, terms: Iterable[str]) -> Expr:
    """A row statistic in one replicate whose Poisson weight is ``weight``: ``sum k_b v`` over its column
    ``fm_v_<name>`` where it is among ``terms`` (:func:`row_terms`), a first pass's centred sum
    (:func:`replicate_centred`), or else built whole with the weights multiplied (:func:`replicate_statistic`).

    Examples
    --------
    >>> from framemetrics.compilers.sql import SQL
    >>> from framemetrics.compilers.sql.emit import to_sql
    >>> to_sql(replicate_row_statistic(SQL, "tp", Rows.named(SQL), SQL.col("fm_k0"), ["tp"]))
    'COALESCE(SUM(fm_k0 * fm_v_tp), 0)'
    """
    if name in terms:
        return replicate_sum(ns, name, weight * ns.col(f"fm_v_{name}"))
    if name in CENTRED:
        return replicate_centred(ns, name, x, weight)
    if name == _DEVIANCE_OF_MEAN:
        return replicate_tweedie_baseline(ns, x, weight)
    return replicate_statistic(ns, name, x, weight)


def replicate_sum(ns: Namespace, name: str, products: Expr) -> Expr:
    """A statistic that is one sum in one replicate: the sum of its ``products`` ``k_b v`` (Poisson weight times
    the row's term); ``n_rows`` (whose term is 1) as an integer, the rows drawn.

    Examples
    --------
    >>> from framemetrics.compilers.sql import SQL
    >>> from framemetrics.compilers.sql.emit import to_sql
    >>> to_sql(replicate_sum(SQL, "tp", SQL.col("fm_k0") * SQL.col("fm_v_tp")))
    'COALESCE(SUM(fm_k0 * fm_v_tp), 0)'
    """
    total = ns.sum(products)
    return ns.to_int(total) if name == "n_rows" else total


def sum_terms(ns: Namespace, build: Callable[[Any], Mapping[str, Expr]]) -> dict[str, Expr]:
    """The per-row terms ``v`` of the sums that ``build(ns)`` returns, each ``ns.sum(v)``, by name.

    Examples
    --------
    >>> from framemetrics.compilers.sql import SQL
    >>> sum_terms(SQL, lambda ns: {"total": ns.sum(ns.col("w") * 2)})["total"].sql()
    'w * 2'
    """
    return dict(build(_RowTerms(ns)))


def replicate_cell_sums(ns: Namespace, sums: Iterable[str], weight: Expr, suffix: str) -> dict[str, Expr]:
    """One replicate's level 1 per group and confusion cell, over rows with the columns ``sample_weight`` and
    ``fm_v_<s>`` (the row terms of the ``sums``): ``weight<suffix> = sum k w`` and ``<s><suffix> = sum k v``,
    ``k`` the replicate's Poisson ``weight``.

    Examples
    --------
    >>> from framemetrics.compilers.sql import SQL
    >>> {n: v.sql() for n, v in replicate_cell_sums(SQL, ["sum_log_loss"], SQL.col("fm_k0"), "__0").items()}
    {'weight__0': 'COALESCE(SUM(fm_k0 * sample_weight), 0)', 'sum_log_loss__0': 'COALESCE(SUM(fm_k0 * fm_v_sum_log_loss), 0)'}
    """
    cells = {f"weight{suffix}": replicate_sum(ns, "weight", weight * ns.col("sample_weight"))}
    return cells | {f"{s}{suffix}": replicate_sum(ns, s, weight * ns.col(f"fm_v_{s}")) for s in sums}


def replicate_cells(ns: Namespace, statistics: Sequence[str], x: Rows, weight: Expr, b: int) -> dict[str, Expr]:
    """Level 1 of replicate ``b`` through the confusion cells (:mod:`framemetrics.core.cells`), per group and cell.

    For ``statistics`` that :func:`~framemetrics.core.cells.counts_cells`:
    ``weight__<b>``, the cell's weight times the Poisson ``weight``
    (:func:`replicate_sum`), from which level 2 reads every confusion
    statistic and ``sum_weight``; ``<s>__<b>`` for each other sum ``s`` over
    its column ``fm_v_<s>`` (:func:`row_terms`), and ``n_rows__<b>``: two
    sums a replicate for F1 and log loss, against five over the rows.

    Examples
    --------
    >>> from framemetrics.compilers.sql import SQL
    >>> sorted(replicate_cells(SQL, ["tp", "fp", "sum_weight", "sum_log_loss"], Rows.named(SQL), SQL.col("k"), 0))
    ['sum_log_loss__0', 'weight__0']
    """
    cells = {f"weight__{b}": replicate_sum(ns, "weight", weight * x.sample_weight)}
    for name in statistics:
        if name == "n_rows":
            cells[f"n_rows__{b}"] = ns.sum(weight)
        elif STATISTICS[name].counted == "sum" and name != "sum_weight":
            cells[f"{name}__{b}"] = replicate_sum(ns, name, weight * ns.col(f"fm_v_{name}"))
    return cells


def replicate_totals(ns: Namespace, statistics: Sequence[str], x: Rows, b: int) -> dict[str, Expr]:
    """Level 2 of replicate ``b``, per group over the columns of :func:`replicate_cells`: ``<s>__<b>`` of each
    statistic (a confusion statistic is the core's definition over the cells, weighted by replicate ``b``;
    ``sum_weight`` the total of their weights).

    Examples
    --------
    >>> from framemetrics.compilers.sql import SQL
    >>> from framemetrics.compilers.sql.emit import to_sql
    >>> to_sql(replicate_totals(SQL, ["sum_weight"], Rows.named(SQL), 3)["sum_weight__3"])
    'COALESCE(SUM(weight__3), 0)'
    """
    weighted = replace(cell_rows(ns, x), sample_weight=ns.col(f"weight__{b}"))
    totals = {}
    for name in statistics:
        if STATISTICS[name].counted == "cell":
            totals[f"{name}__{b}"] = STATISTICS[name].build(ns, weighted)
        else:
            column = ns.col(f"{'weight' if name == 'sum_weight' else name}__{b}")
            totals[f"{name}__{b}"] = ns.to_int(ns.sum(column)) if name == "n_rows" else ns.sum(column)
    return totals


# The first-pass statistics sum w (v - mean v)^2 (the group mean of a first pass): the value v each centres.
CENTRED: dict[str, Callable[[Namespace, Rows], Expr]] = {
    "ss_total": lambda ns, x: ns.to_float(x.y_true) - x.mean_y_true,
    "ss_error_deviation": lambda ns, x: error(ns, x) - x.mean_error,
}


def centred_terms(ns: Namespace, statistics: Sequence[str], x: Rows) -> dict[str, Expr]:
    """The per-row terms ``w d`` and ``w d^2`` (``<s>_1``, ``<s>_2``) of each statistic ``sum w (v - m)^2`` among
    ``statistics``, ``d = v - m`` its deviation from the first pass's group mean ``m`` (:func:`replicate_centred`);
    ``w d_p(y, m)`` and ``w (y - m)`` for the Tweedie deviance of the mean (:func:`replicate_tweedie_baseline`).

    Examples
    --------
    >>> from framemetrics.compilers.sql import SQL
    >>> sorted(centred_terms(SQL, ["ss_total", "sum_weight"], Rows.named(SQL)))
    ['ss_total_1', 'ss_total_2']
    """
    terms = {}
    for name in (s for s in statistics if s in CENTRED):
        deviation = CENTRED[name](ns, x)
        terms |= {f"{name}_1": x.sample_weight * deviation, f"{name}_2": x.sample_weight * deviation * deviation}
    if _DEVIANCE_OF_MEAN in statistics:  # T and S1 of replicate_tweedie_baseline
        y = ns.to_float(x.y_true)
        terms[f"{_DEVIANCE_OF_MEAN}_0"] = x.sample_weight * tweedie_deviance(ns, y, x.mean_y_true, x.power)
        terms[f"{_DEVIANCE_OF_MEAN}_1"] = x.sample_weight * (y - x.mean_y_true)
    return terms


def replicate_centred(ns: Namespace, name: str, x: Rows, weight: Expr) -> Expr:
    """A statistic ``sum w (v - m_b)^2`` in one replicate, ``m_b`` the replicate's own weighted mean of ``v``.

    With ``d = v - m`` (``m`` the first pass's mean on all rows, computed once)
    and the replicate's sums ``S0 = sum k w``, ``S1 = sum k w d``, ``S2 = sum k w d^2``:
    ``sum k w (v - m_b)^2 = S2 - S1^2 / S0`` exactly; ``d`` is centred, so the
    difference loses no digit. 0 for a replicate without weight.

    Examples
    --------
    >>> from framemetrics.compilers.sql import SQL
    >>> from framemetrics.compilers.sql.emit import to_sql
    >>> to_sql(replicate_centred(SQL, "ss_total", Rows.named(SQL), SQL.col("fm_k0")))[:58]
    'CASE WHEN COALESCE(SUM(fm_k0 * sample_weight), 0) > 0 THEN'
    """
    s0 = ns.sum(weight * x.sample_weight)
    s1, s2 = (ns.sum(weight * ns.col(f"fm_v_{name}_{power}")) for power in (1, 2))
    return about_own_mean(ns, s0, s1, s2)


def about_own_mean(ns: Namespace, s0: Expr, s1: Expr, s2: Expr) -> Expr:
    """``sum k w (v - m_b)^2 = S2 - S1^2 / S0`` from the replicate's sums about another centre ``m``; 0 without
    weight (also the jackknife's, :mod:`framemetrics.core.bca`, without a row).

    Examples
    --------
    >>> from framemetrics.compilers.sql import SQL
    >>> about_own_mean(SQL, SQL.col("s0"), SQL.col("s1"), SQL.col("s2")).sql()[:26]
    'CASE WHEN s0 > 0 THEN GREA'
    """
    return ns.when(s0 > 0, ns.greatest(s2 - s1 * (s1 / s0), ns.lit(0.0))).otherwise(ns.lit(0.0))


# The Tweedie deviance of the targets' mean, each replicate about its own mean (replicate_tweedie_baseline).
_DEVIANCE_OF_MEAN = "tweedie_baseline"
# The statistics computed from parts after the aggregation, and their parts (replicate_parts).
PARTS = {_DEVIANCE_OF_MEAN: ("s0", "t", "s1", "m")}
_SERIES_BELOW = 0.1  # |eps| below which the shift of the mean is summed as its series (its terms to eps^18)
_SERIES_TERMS = 18


def _mean_shift(ns: Namespace, eps: Expr, p: Expr) -> Expr:
    """``g(eps) = ((1 + eps)^(2-p) - 1) / (2-p) - (1 + eps) ((1 + eps)^(1-p) - 1) / (1-p)`` (at ``p = 1``,
    ``eps - (1 + eps) ln(1 + eps)``; at ``p = 2``, ``ln(1 + eps) - eps``): the change of ``d_p(y, m) / (2 m^(2-p))``
    summed over the rows, per unit of weight, when the mean ``m`` moves to ``m (1 + eps)``.

    ``g`` is ``-eps^2/2 + ...``: below :data:`_SERIES_BELOW` it is its series ``sum c_k eps^k`` from ``k = 2``,
    ``c_2 = -1/2``, ``c_(k+1) = c_k (2 - p - k) / (k + 1)`` (a binomial series; no cancellation), else the
    closed form, written without a negative power of ``1 + eps`` (0 where no row of positive target is
    drawn). Null where ``1 + eps < 0``, or ``1 + eps = 0`` with ``p >= 2`` (outside the power's domain).
    """
    r = 1 + eps
    nested = ns.lit(1.0)  # c_k / c_2 nested: 1 + q_2 eps (1 + q_3 eps (1 + ...)), q_k = c_(k+1) / c_k
    for k in reversed(range(2, _SERIES_TERMS)):
        nested = 1 + (2 - p - k) / (k + 1) * eps * nested
    series = -0.5 * eps * eps * nested
    logged = ns.when(r > 0, r * ns.ln(ns.greatest(r, ns.lit(1e-300)))).otherwise(ns.lit(0.0))
    closed = (
        ns.when(ns.eq(p, 1), eps - logged)
        .when(ns.eq(p, 2), ns.ln(ns.greatest(r, ns.lit(1e-300))) - eps)
        .otherwise(
            (ns.greatest(r, ns.lit(0.0)) ** (2 - p) - 1) / (2 - p)
            - (ns.greatest(r, ns.lit(0.0)) ** (2 - p) - r) / (1 - p)
        )
    )
    return (
        ns.when(ns.abs(eps) < _SERIES_BELOW, series)
        .when(ns.any(r < 0, ns.all(ns.eq(r, 0), p >= 2)), ns.null())
        .otherwise(closed)
    )


def replicate_tweedie_baseline(ns: Namespace, x: Rows, weight: Expr) -> Expr:
    """``sum k w d_p(y, m_b)`` in one replicate, ``m_b`` the replicate's own weighted mean of the targets.

    With ``m`` the first pass's mean on all rows and the replicate's sums
    ``S0 = sum k w``, ``T = sum k w d_p(y, m)`` and ``S1 = sum k w (y - m)``,
    ``eps = S1 / (m S0)`` (so ``m_b = m (1 + eps)``):
    ``sum k w d_p(y, m_b) = T + 2 m^(2-p) S0 g(eps)`` (:func:`_mean_shift`),
    exact for every power (the terms in ``y`` alone cancel); at ``p = 0``
    (``m`` may be 0 or negative) ``T - S1^2 / S0``. ``T`` is a sum of
    deviances about ``m`` and ``S1`` a centred sum, so nothing cancels but
    the mean's own shift. 0 for a replicate without weight; null where the
    mean leaves the power's domain (``m <= 0`` for ``p != 0``).

    Examples
    --------
    >>> from framemetrics.compilers.sql import SQL
    >>> from framemetrics.compilers.sql.emit import to_sql
    >>> to_sql(replicate_tweedie_baseline(SQL, Rows.named(SQL), SQL.col("fm_k0")))[:58]
    'CASE WHEN power = 0 THEN CASE WHEN COALESCE(SUM(fm_k0 * sa'
    """
    return replicate_from_parts(ns, _DEVIANCE_OF_MEAN, replicate_parts(ns, _DEVIANCE_OF_MEAN, x, weight), x)


def replicate_parts(ns: Namespace, name: str, x: Rows, weight: Expr) -> dict[str, Expr]:
    """The aggregates of one replicate that statistic ``name`` is computed from after the aggregation
    (:func:`replicate_from_parts`), by part name; none for a statistic computed in the aggregation.

    A compiler writing SQL text aggregates the parts and applies the formula
    once over the replicates laid out as rows, rather than writing the
    formula, which repeats its parts, into the aggregation of every replicate.

    Examples
    --------
    >>> from framemetrics.compilers.sql import SQL
    >>> sorted(replicate_parts(SQL, "tweedie_baseline", Rows.named(SQL), SQL.col("fm_k0")))
    ['m', 's0', 's1', 't']
    >>> replicate_parts(SQL, "tp", Rows.named(SQL), SQL.col("fm_k0"))
    {}
    """
    if name not in PARTS:
        return {}
    t, s1 = (ns.sum(weight * ns.col(f"fm_v_{name}_{j}")) for j in (0, 1))
    return {"s0": ns.sum(weight * x.sample_weight), "t": t, "s1": s1, "m": ns.max(x.mean_y_true)}


def replicate_from_parts(ns: Namespace, name: str, parts: Mapping[str, Expr], x: Rows) -> Expr:
    """Statistic ``name`` of a replicate from its :func:`replicate_parts` (the group's mean ``m`` the same on
    every row): :func:`replicate_tweedie_baseline`'s formula."""
    s0, t, s1, m, p = parts["s0"], parts["t"], parts["s1"], parts["m"], x.power
    shifted = t + 2 * m ** (2 - p) * s0 * _mean_shift(ns, s1 / (m * s0), p)
    return (
        ns.when(ns.eq(p, 0), about_own_mean(ns, s0, s1, t))  # d_0(y, m) = (y - m)^2: T is S2
        .when(ns.not_(s0 > 0), ns.lit(0.0))
        .when(ns.not_(m > 0), ns.null())
        .otherwise(ns.greatest(shifted, ns.lit(0.0)))
    )


def bootstrappable(statistic: str) -> bool:
    """Whether a replicate reweights a statistic: a sum over rows, a first pass's centred sum of squares
    (:func:`replicate_centred`) or Tweedie deviance of the mean (:func:`replicate_tweedie_baseline`), or one of
    a curve stage (the scores', or a quantile's: each replicate's running weights give its own quantile).

    Examples
    --------
    >>> [bootstrappable(s) for s in ("tp", "ap_sum", "median_abs_error", "ss_total", "tweedie_baseline")]
    [True, True, True, True, True]
    """
    return not STATISTICS[statistic].needs or statistic in CENTRED or statistic == _DEVIANCE_OF_MEAN


def replicate_points(ns: Namespace, b: int, max_fpr: Expr, alpha: Expr) -> CurvePoints:
    """Replicate ``b``'s curve stage as its columns: ``pw__<b>, nw__<b>`` (the score's weights times the Poisson
    weights), their running sums ``tp__<b>, fp__<b>`` down the scores, ``tp_prev__<b>, fp_prev__<b>`` and the
    group's totals ``pos_total__<b>, neg_total__<b>``; ``gap_max__<b>`` where a compiler adds it.

    The scores' order is the same in every replicate: one sort serves them
    all. A score no row of a replicate draws keeps its point, of weight 0,
    as a score of zero weight does in the curve stage.

    Examples
    --------
    >>> from framemetrics.compilers.sql import SQL
    >>> replicate_points(SQL, 4, SQL.lit(1.0), SQL.lit(0.5)).tp.sql()
    'tp__4'
    """
    names = ("pw", "nw", "tp", "fp", "tp_prev", "fp_prev", "pos_total", "neg_total", "gap_max")
    columns = {name: ns.col(f"{name}__{b}") for name in names}
    return CurvePoints(y_score=ns.col("y_score"), **columns, max_fpr=max_fpr, alpha=alpha)


def percentile_position(n: Expr, q: float | Expr) -> Expr:
    """NumPy's linear percentile of ``n`` sorted values at ``q`` (a level, or a column of them): the 0-based
    position ``(n - 1) q``."""
    return (n - 1) * q
