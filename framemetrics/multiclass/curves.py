"""One-vs-rest curves of a multiclass evaluation: per group and class, the binary curve of that class.

The curve of class ``c`` is the binary curve (:func:`framemetrics.roc_curve`
and its siblings) of "is ``c``" against the score column of ``c``: each row
once per class (the unpivot of the one-vs-rest ranking metrics), then the
binary curve stage grouped by segment and class, on every engine. Equal to
scikit-learn's ``roc_curve(y_true == c, scores[:, j])`` per class. Scores
are any finite numbers (the checks of ``average_precision_macro``), not
necessarily probabilities.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import polars as pl
from sqlglot import exp

from framemetrics.compilers.polars.curves import curve_points
from framemetrics.compilers.polars.multiclass import rank_input
from framemetrics.compilers.polars.namespace import POLARS
from framemetrics.compilers.sql.curves import curve_query
from framemetrics.compilers.sql.multiclass import checks_query, one_vs_rest_rows
from framemetrics.compilers.sql.query import QueryInputs
from framemetrics.core import multiclass as mc_core
from framemetrics.core.curves import CURVES, curve_outputs
from framemetrics.core.plan import make_plan
from framemetrics.compilers.polars.inputs import MetricInputs
from framemetrics.multiclass.api import _dtypes, _raise_for_checks, _resolve, _used

__all__ = ["one_vs_rest_curve"]


def one_vs_rest_curve(
    curve: str,
    source: Any,
    *,
    y_true: str,
    y_score: str | Sequence[str],
    labels: Sequence[Any] | None,
    sample_weight: str | None,
    by: tuple[str, ...],
    drop_intermediate: bool,
    max_points: int | None,
    nulls: str,
    engine: str,
    con: Any = None,
    spark: Any = None,
) -> pl.DataFrame:
    """The points of ``curve`` per group and class: the group columns, ``class``, then the binary curve's columns.

    Arguments as :func:`framemetrics.curve_table` (which calls this when
    ``y_score`` names one column per class, or ``labels`` are given);
    ``labels`` as in :func:`framemetrics.evaluate_multiclass`.

    Examples
    --------
    >>> frame = pl.DataFrame({"y": ["a", "b", "c", "a"], "a": [0.6, 0.2, 0.1, 0.3],
    ...                       "b": [0.3, 0.5, 0.3, 0.3], "c": [0.1, 0.3, 0.6, 0.4]})
    >>> out = one_vs_rest_curve("roc_curve", frame, y_true="y", y_score=["a", "b", "c"], labels=None,
    ...                         sample_weight=None, by=(), drop_intermediate=False, max_points=None,
    ...                         nulls="error", engine="duckdb")
    >>> out.filter(pl.col("class") == "a")["tpr"].to_list()
    [0.0, 0.5, 1.0, 1.0, 1.0]
    """
    spec = CURVES[curve]
    columns = {"y_true": y_true, "y_score": y_score, "sample_weight": sample_weight, "by": by}
    opened, dtypes = _dtypes(source, engine, con, spark, _used(columns))
    try:
        request = _resolve(
            dtypes, ["average_precision_macro"], y_true=y_true, y_pred=None, y_score=y_score, labels=labels,
            sample_weight=sample_weight, by=by, zero_division=None, nulls=nulls, outputs=("class", *curve_outputs(spec)),
        )  # fmt: skip
        plan, keys = request.plan, [f"fm_g{i}" for i in range(len(by))]
        groups = [*keys, "column_index"]
        if engine == "polars":
            data = request.polars_input(opened)
            sums = {c.name: mc_core.check_count(POLARS, c, plan.labels, plan.n_scores) for c in plan.checks}
            counts = (data.group_by(keys).agg(**sums) if keys else data.select(**sums)).collect()
            _raise_for_checks(counts, request, nulls, opened)
            rows = rank_input(data, plan, keys).with_columns(n_invalid=pl.lit(0))
            x = MetricInputs.of(y_true="is_pos", y_score="y_score", sample_weight="sample_weight",
                                pos_label=True, neg_label=False)  # fmt: skip
            points = curve_points(rows, groups, x, spec, drop_intermediate, max_points).collect()
        else:
            inputs = request.sql_inputs(opened.table)
            _raise_for_checks(opened.fetch(checks_query(plan, inputs)), request, nulls, opened)
            binary = make_plan("roc_auc_score", weighted=True, pos_label=True, neg_label=False)
            roles = {"y_true": "is_pos", "y_score": "y_score", "sample_weight": "sample_weight"}
            segments = tuple(f"fm_segment_{i}" for i in range(len(by)))
            source_rows = QueryInputs(one_vs_rest_rows(plan, inputs), {r: exp.column(c) for r, c in roles.items()},
                                      (*segments, "column_index"))  # fmt: skip
            query = curve_query(spec, binary, source_rows, drop_intermediate=drop_intermediate, max_points=max_points)
            points = opened.fetch(query).rename(dict(zip(segments, keys, strict=True)))
    finally:
        if engine != "polars":
            opened.close()
    classes = pl.col("column_index").replace_strict(list(range(plan.n_scores)), list(plan.labels)).alias("class")
    named = points.with_columns(classes).drop("column_index")
    restored = named.rename(dict(zip(keys, by, strict=True)))
    return restored.select(*by, "class", pl.exclude(*by, "class"))
