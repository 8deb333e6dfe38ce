"""Uncertainty per group: DeLong's interval of the ROC AUC and DeLong's paired test of two scores.

:func:`roc_auc_ci` is :func:`framemetrics.evaluate` of ``roc_auc_score``
with its interval (``ci=``) and standard error; :func:`compare_auc` runs the
paired stage (:mod:`framemetrics.compilers.polars.paired`,
:mod:`framemetrics.compilers.sql.paired`). The formulas are those of
:mod:`framemetrics.core.intervals`; the README's "Uncertainty" section
says when each interval is used.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import replace
from typing import Any, Literal

import duckdb
import polars as pl

from framemetrics.columns import (
    By,
    Engine,
    by_expressions,
    check_engine,
    check_output_names,
    polars_columns,
    prepare_metrics,
    sql_columns,
)
from framemetrics.compilers.polars.namespace import POLARS
from framemetrics.compilers.polars.paired import paired_statistics
from framemetrics.compilers.polars.query import canonical_frame, plan_inputs
from framemetrics.compilers.polars.stages import rows_of
from framemetrics.compilers.sql.paired import paired_query
from framemetrics.compilers.sql.query import QueryInputs, user_column
from framemetrics.core.checks import check
from framemetrics.core.errors import ArgumentError
from framemetrics.core.formulas.guards import bounded
from framemetrics.core.intervals import PAIRED_OUTPUTS, PAIRED_STAGES, check_level, interval_z
from framemetrics.core.plan import Plan
from framemetrics.evaluation import check_schema, raise_for_invalid, run_prepared
from framemetrics.sources import Source, open_polars, open_sql, schema, sql_schema

__all__ = ["compare_auc", "roc_auc_ci"]


def roc_auc_ci(
    source: Source,
    *,
    y_true: str,
    y_score: str,
    by: By = None,
    level: float = 0.95,
    method: Literal["delong"] = "delong",
    sample_weight: str | None = None,
    pos_label: Any = 1,
    neg_label: Any = None,
    nulls: Literal["error", "drop"] = "error",
    engine: Engine | None = None,
    con: duckdb.DuckDBPyConnection | None = None,
    spark: Any = None,
) -> pl.DataFrame:
    """The ROC AUC per group with DeLong's standard error and confidence interval.

    DeLong, DeLong and Clarke-Pearson (1988), per distinct score (Sun and Xu
    2014): ``Var(AUC) = S10 / P + S01 / N`` over the placements of the
    positives and negatives; the interval ``AUC -+ z se`` is clipped to
    [0, 1], as pROC's ``ci.auc(method="delong")``. Weights are frequency
    weights: an integer weight equals that many repeated rows
    (:mod:`framemetrics.core.intervals` has the formulas).

    Parameters
    ----------
    source, y_true, y_score, by, sample_weight, pos_label, neg_label, nulls, engine, con, spark
        As in :func:`framemetrics.evaluate`.
    level : float, default 0.95
        The confidence level.
    method : {"delong"}, default "delong"
        The interval's method.

    Returns
    -------
    polars.DataFrame
        The group columns, ``n_rows``, ``roc_auc_score``, ``se``, ``low`` and
        ``high``. ``se``, ``low`` and ``high`` are null with fewer than 2
        positives or 2 negatives (a class weight at most 1), as pROC's NA.

    Examples
    --------
    >>> import polars as pl, framemetrics as fm
    >>> df = pl.DataFrame({"y": [0, 0, 1, 1, 0, 1], "p": [0.1, 0.5, 0.4, 0.9, 0.3, 0.8]})
    >>> fm.roc_auc_ci(df, y_true="y", y_score="p").select(pl.all().round(6)).rows()  # pROC: 0.580910 - 1
    [(6, 0.888889, 0.157135, 0.58091, 1.0)]
    """
    if method != "delong":
        raise ArgumentError(f"method must be 'delong', got {method!r}")
    engine = check_engine(engine, source)
    source, by = by_expressions(source, by, engine, con)
    prepared = prepare_metrics(
        ["roc_auc_score"], threshold=0.5, by=by, nulls=nulls, y_true=y_true, y_pred=None, y_score=y_score,
        sample_weight=sample_weight, pos_label=pos_label, neg_label=neg_label, zero_division=None,
        ci=check_level(level), interval_outputs=("se", "low", "high"),
    )  # fmt: skip
    result = run_prepared(source, prepared, nulls, engine, con, spark)
    return result.rename({f"roc_auc_score_{name}": name for name in ("se", "low", "high")})


def compare_auc(
    source: Source,
    *,
    y_true: str,
    y_score: Sequence[str],
    by: By = None,
    level: float = 0.95,
    sample_weight: str | None = None,
    pos_label: Any = 1,
    neg_label: Any = None,
    nulls: Literal["error", "drop"] = "error",
    engine: Engine | None = None,
    con: duckdb.DuckDBPyConnection | None = None,
    spark: Any = None,
) -> pl.DataFrame:
    """DeLong's paired test of the ROC AUCs of two score columns on the same rows, per group.

    With ``V10`` and ``V01`` the placements of the positives and negatives
    under each score, the variance of ``AUC1 - AUC2`` is DeLong's variance
    of the placements' differences (pROC's ``L S L'``, ``L = (1, -1)``);
    ``z = diff / se`` and ``p_value = 2 Phi(-|z|)``, with the normal
    distribution function to double precision
    (:func:`~framemetrics.core.normal.normal_cdf`), as pROC's
    ``roc.test(method="delong", paired=TRUE)``.

    Parameters
    ----------
    source, y_true, by, sample_weight, pos_label, neg_label, nulls, engine, con, spark
        As in :func:`framemetrics.evaluate`.
    y_score : sequence of two str
        The two score columns: model 1, then model 2.
    level : float, default 0.95
        The level of the interval of the difference.

    Returns
    -------
    polars.DataFrame
        The group columns, ``n_rows``, ``roc_auc_1``, ``roc_auc_2``, ``diff``
        (``roc_auc_1 - roc_auc_2``), ``se``, ``z``, ``p_value``, ``low`` and
        ``high`` (``diff -+ z se``, not clipped). Null with fewer than 2
        positives or 2 negatives; ``z`` and ``p_value`` null where
        ``se = 0`` (two scores ranking the rows alike).

    Examples
    --------
    >>> import polars as pl, framemetrics as fm
    >>> df = pl.DataFrame({"y": [0, 0, 1, 1, 0, 1], "new": [0.1, 0.5, 0.4, 0.9, 0.3, 0.8],
    ...                    "old": [0.2, 0.6, 0.3, 0.5, 0.4, 0.7]})
    >>> out = fm.compare_auc(df, y_true="y", y_score=["new", "old"])
    >>> out.select(pl.col("roc_auc_1", "roc_auc_2", "diff", "p_value").round(4)).rows()
    [(0.8889, 0.6667, 0.2222, 0.1573)]
    """
    if isinstance(y_score, str) or len(y_score) != 2 or y_score[0] == y_score[1]:
        raise ArgumentError(f"y_score must be two distinct score columns, got {y_score!r}")
    z = interval_z(check_level(level))
    engine = check_engine(engine, source)
    source, by = by_expressions(source, by, engine, con)
    prepared = prepare_metrics(
        ["roc_auc_score"], threshold=0.5, by=by, nulls=nulls, y_true=y_true, y_pred=None, y_score=y_score[0],
        sample_weight=sample_weight, pos_label=pos_label, neg_label=neg_label, zero_division=None,
    )  # fmt: skip
    plan = prepared.resolved.plan
    plan = replace(plan, checks=(*plan.checks, check("finite", "y_score_2")))
    roles = prepared.resolved.roles | {"y_score_2": y_score[1]}
    by = prepared.by
    check_output_names(by, ["n_rows", *PAIRED_OUTPUTS])
    if engine == "polars":
        frame = open_polars(source, con)
        check_schema(plan, roles, by, schema(frame), False)
        result = _paired_polars(frame, plan, roles, by, prepared.drop, z)
        raise_for_invalid(result, plan, roles, nulls, frame)
    else:
        opened = open_sql(source, engine, con, spark)
        try:
            check_schema(plan, roles, by, sql_schema(opened), False)
            columns = sql_columns(plan, roles, False, 0.5) | {"y_score_2": user_column(roles["y_score_2"])}
            inputs = QueryInputs(opened.table, columns, by, prepared.drop)
            result = opened.fetch(paired_query(plan, inputs, _check_counts(plan, "sql"), z, with_checks=True), by)
            raise_for_invalid(result, plan, roles, nulls, opened)
        finally:
            opened.close()
    result = result.drop([c.name for c in plan.checks])
    return result.sort(list(by), nulls_last=True) if by else result


def _check_counts(plan: Plan, engine: str) -> dict[str, Any]:
    """Each check's count over the canonical columns (``y_score_2`` the second score's)."""
    if engine == "sql":
        from framemetrics.compilers.sql.namespace import SQL as ns
    else:
        ns = POLARS
    labels = (ns.lit(plan.pos_label), ns.lit(plan.neg_label))
    return {c.name: c.count(ns, ns.col(c.role), *labels) for c in plan.checks}


def _paired_polars(
    frame: pl.LazyFrame, plan: Plan, roles: dict[str, str], by: tuple[str, ...], drop: bool, z: float
) -> pl.DataFrame:
    keys = [f"fm_g{i}" for i in range(len(by))]
    columns = polars_columns(plan, roles, False, 0.5)
    data = canonical_frame(frame, plan, columns, by, drop_nulls=drop, extra={"y_score_2": pl.col(roles["y_score_2"])})
    x = rows_of(plan_inputs(plan))
    counts = _check_counts(plan, "polars") | {"n_rows": POLARS.count_rows()}
    stats = paired_statistics(data, keys, x, (pl.col("y_score"), pl.col("y_score_2")), counts)
    n_invalid = sum((pl.col(c.name) for c in plan.checks), pl.lit(0))
    columns = {name: pl.col(name) for name in stats.collect_schema().names()}
    for stage in PAIRED_STAGES:
        values = stage(POLARS, columns, pl.lit(z), n_invalid)
        stats = stats.with_columns(**values)
        columns |= {name: pl.col(name) for name in values}
    outputs = [pl.col(k).alias(c) for k, c in zip(keys, by, strict=True)]
    outputs += [pl.col("n_rows"), *(bounded(POLARS, pl.col(n)).alias(n) for n in PAIRED_OUTPUTS)]
    return stats.select(*outputs, *(pl.col(c.name) for c in plan.checks)).collect()
