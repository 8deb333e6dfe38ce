"""The Poisson bootstrap of multiclass metrics in Polars: the multiclass stages keyed by replicate.

A replicate reweights every row by its Poisson weight
(:mod:`framemetrics.core.resampling`), so its confusion cells are the
cells' sums with the weights ``k_b w``: one aggregation per group and cell
gives every replicate's weight and row sums (``weight__<b>``,
``<s>__<b>``) beside the full data's, and laid out as rows (the column
:data:`~framemetrics.core.resampling.REPLICATE`: -1 for the full data, then 0, 1...) they are the
``fm_cells`` of the groups ``(keys, replicate)``. The multiclass stages run
on them unchanged (:func:`~framemetrics.compilers.polars.multiclass.mc_frames`),
each metric's formula written once: the full data's row is the estimate,
the replicates' percentiles (NumPy's linear interpolation, undefined
replicates left out) its interval. A group with invalid rows has null
metrics in every replicate, so null bounds. The curves (one-vs-rest,
one-vs-one, micro) read rows rather than cells: their stages run on the
rows laid out the same way (:func:`replicated_rows`). The SQL is
:func:`framemetrics.compilers.sql.multiclass_bootstrap.bootstrap_mc_query`.
"""

from __future__ import annotations

import polars as pl

from framemetrics.compilers.polars.bootstrap import ROW_KEY, poisson_weights
from framemetrics.compilers.polars.multiclass import mc_frames, metrics_frame
from framemetrics.compilers.polars.namespace import POLARS
from framemetrics.compilers.polars.stages import grouped
from framemetrics.core import multiclass as mc_core
from framemetrics.core.cells import CLASSES
from framemetrics.core.plan import Plan
from framemetrics.core.resampling import (
    REPLICATE,
    replicate_cell_sums,
    row_hash,
    sum_terms,
)

__all__ = ["bootstrap_mc_polars", "replicated_cells", "replicated_rows"]


def replicated_cells(data: pl.LazyFrame, plan: Plan, keys: list[str]) -> pl.LazyFrame:
    """``fm_cells`` of the full data and every replicate, per group, :data:`~framemetrics.core.resampling.REPLICATE` and cell.

    ``data`` is an ``fm_input`` frame with the row keys (:data:`ROW_KEY`).
    The rows and check counts of a cell are the same in every replicate.

    Examples
    --------
    >>> from framemetrics.core.plan import make_plan
    >>> plan = make_plan("accuracy_score", task="multiclass", weighted=False, has_pred=True, ci=0.9, n_resamples=2)
    >>> lf = pl.LazyFrame({"y_true": [1, 2], "y_pred": [1, 1], "sample_weight": 1.0, "fm_key": [0, 1]})
    >>> replicated_cells(lf, plan, []).collect().height  # two cells, three replicates (the full data's first)
    6
    """
    replicates = range(plan.resampling.n_resamples)
    names = {c.name for c in plan.calls}
    terms = sum_terms(POLARS, lambda ns: mc_core.row_sums(ns, names, plan.n_scores, plan.k))
    weighted = _weighted(data.with_columns(**{f"fm_v_{s}": term.cast(pl.Float64) for s, term in terms.items()}), plan)
    sums = replicate_cell_sums(POLARS, terms, pl.lit(1.0), "")
    for b in replicates:
        sums |= replicate_cell_sums(POLARS, terms, pl.col(f"fm_k{b}"), f"__{b}")
    checks = {c.name: mc_core.check_count(POLARS, c, plan.labels, plan.n_scores) for c in plan.checks}
    classes = list(CLASSES if plan.has_pred else CLASSES[:1])
    cells = weighted.group_by([*keys, *classes]).agg(
        POLARS.count_rows().alias("n_rows"), *(e.alias(n) for n, e in (checks | sums).items())
    )
    laid_out = {n: pl.concat_list(n, *(f"{n}__{b}" for b in replicates)) for n in ["weight", *terms]}
    replicate = pl.int_ranges(-1, plan.resampling.n_resamples, dtype=pl.Int64).alias(REPLICATE)
    cells = cells.select(*keys, *classes, "n_rows", *checks, replicate, **laid_out)
    return cells.explode([REPLICATE, "weight", *terms])


def _weighted(data: pl.LazyFrame, plan: Plan) -> pl.LazyFrame:
    """``data`` with each row's Poisson weight in every replicate, ``fm_k0, fm_k1...``."""
    resampling = plan.resampling
    hashed = data.with_columns(fm_hash=row_hash(POLARS, pl.col(ROW_KEY), resampling.seed))
    return hashed.with_columns(**poisson_weights(resampling, range(resampling.n_resamples)))


def replicated_rows(data: pl.LazyFrame, plan: Plan) -> pl.LazyFrame:
    """The rows of ``data`` once for the full data and once per replicate (:data:`~framemetrics.core.resampling.REPLICATE`
    -1, then 0, 1...), each replicate's weight ``sample_weight`` times the row's Poisson weight in it.

    The rows of the stages that read rows rather than cells (the one-vs-rest
    and one-vs-one curves, the micro curve): ``n_resamples + 1`` times the
    rows. A row a replicate does not draw stays, of weight 0, as in scikit-learn
    on the weights ``w k``.

    Examples
    --------
    >>> from framemetrics.core.plan import make_plan
    >>> plan = make_plan("accuracy_score", task="multiclass", weighted=False, has_pred=True, ci=0.9, n_resamples=2)
    >>> lf = pl.LazyFrame({"y_true": [1, 2], "sample_weight": 2.0, "fm_key": [0, 1]})
    >>> replicated_rows(lf, plan).collect().rows()
    [(1, 2.0, 0, -1), (1, 4.0, 0, 0), (1, 6.0, 0, 1), (2, 2.0, 1, -1), (2, 0.0, 1, 0), (2, 0.0, 1, 1)]
    """
    n = plan.resampling.n_resamples
    weights = pl.concat_list(pl.lit(1.0), *(pl.col(f"fm_k{b}").cast(pl.Float64) for b in range(n))).alias("fm_k")
    laid_out = _weighted(data, plan).with_columns(weights, pl.int_ranges(-1, n, dtype=pl.Int64).alias(REPLICATE))
    columns = data.collect_schema().names()
    exploded = laid_out.select(*columns, REPLICATE, "fm_k").explode([REPLICATE, "fm_k"])
    return exploded.with_columns(sample_weight=pl.col("sample_weight") * pl.col("fm_k")).drop("fm_k")


def bootstrap_mc_polars(data: pl.LazyFrame, plan: Plan, keys: list[str], by: tuple[str, ...]) -> pl.LazyFrame:
    """The metrics per group of ``data`` and their bootstrap intervals, sorted by group.

    Examples
    --------
    >>> from framemetrics.core.plan import make_plan
    >>> plan = make_plan("accuracy_score", task="multiclass", weighted=False, has_pred=True, ci=0.9, n_resamples=20)
    >>> lf = pl.LazyFrame({"y_true": [1, 2, 2, 3], "y_pred": [1, 1, 2, 3], "sample_weight": 1.0,
    ...                    "fm_key": [0, 1, 2, 3]})
    >>> bootstrap_mc_polars(lf, plan, [], ()).collect().columns
    ['n_rows', 'accuracy_score', 'accuracy_score_low', 'accuracy_score_high', 'invalid_present_y_true', 'invalid_present_y_pred']
    """
    rows = replicated_rows(data, plan) if plan.stages & mc_core.CURVE_STAGES else data
    stages = mc_frames(rows, plan, [*keys, REPLICATE], plan.stages, replicated_cells(data, plan, keys))
    values = metrics_frame(stages, plan, by, internal=True)
    drawn = pl.col(REPLICATE) >= 0
    bounds = [
        pl.col(interval.call.name).filter(drawn).quantile(interval.quantiles()[output], "linear").alias(name)
        for interval in plan.bootstrapped
        for output, name in interval.columns().items()
    ]
    estimates = values.filter(pl.col(REPLICATE) == -1)
    percentiles = grouped(values, keys, bounds)
    table = estimates.join(percentiles, on=keys, nulls_equal=True) if keys else estimates.join(percentiles, how="cross")
    outputs = [pl.col(k).alias(c) for k, c in zip(keys, by, strict=True)]
    result = table.select(*outputs, "n_rows", *plan.output_columns, *(c.name for c in plan.checks))
    return result.sort(list(by), nulls_last=True) if by else result
