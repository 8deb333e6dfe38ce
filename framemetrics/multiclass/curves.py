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

from framemetrics.core.curves import CURVES, curve_outputs
from framemetrics.engines import open_engine
from framemetrics.multiclass.api import _raise_for_invalid, _resolve, _used

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
    with open_engine(source, engine, con, spark) as opened:
        dtypes = opened.dtypes([c for c in _used(columns) if c is not None])
        request = _resolve(
            dtypes, ["average_precision_macro"], y_true=y_true, y_pred=None, y_score=y_score, labels=labels,
            sample_weight=sample_weight, by=by, zero_division=None, nulls=nulls, outputs=("class", *curve_outputs(spec)),
        )  # fmt: skip
        _raise_for_invalid(opened.class_checks(request), request, nulls, opened, rows_used=False)
        points = opened.class_curve(spec, request, drop_intermediate, max_points)
    plan, keys = request.plan, [f"fm_g{i}" for i in range(len(by))]
    classes = pl.col("column_index").replace_strict(list(range(plan.n_scores)), list(plan.labels)).alias("class")
    named = points.with_columns(classes).drop("column_index")
    restored = named.rename(dict(zip(keys, by, strict=True)))
    return restored.select(*by, "class", pl.exclude(*by, "class"))
