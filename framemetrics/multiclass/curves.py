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

import polars as pl

from framemetrics.core.curves import Curve, curve_outputs
from framemetrics.multiclass.api import _opened, _raise_for_invalid
from framemetrics.request import Call

__all__ = ["one_vs_rest_curve"]


def one_vs_rest_curve(spec: Curve, call: Call, *, drop_intermediate: bool, max_points: int | None) -> pl.DataFrame:
    """The points of curve ``spec`` per group and class: the group columns, ``class``, then the binary curve's columns.

    ``call`` as :func:`framemetrics.curve_table`'s (which calls this when
    ``y_score`` names one column per class, or ``labels`` are given);
    ``labels`` as in :func:`framemetrics.evaluate_multiclass`.

    Examples
    --------
    >>> frame = pl.DataFrame({"y": ["a", "b", "c", "a"], "a": [0.6, 0.2, 0.1, 0.3],
    ...                       "b": [0.3, 0.5, 0.3, 0.3], "c": [0.1, 0.3, 0.6, 0.4]})
    >>> from framemetrics.core.curves import CURVES
    >>> call = Call(frame, y_true="y", y_score=["a", "b", "c"], engine="duckdb")
    >>> out = one_vs_rest_curve(CURVES["roc_curve"], call, drop_intermediate=False, max_points=None)
    >>> out.filter(pl.col("class") == "a")["tpr"].to_list()
    [0.0, 0.5, 1.0, 1.0, 1.0]
    """
    outputs = ("class", *curve_outputs(spec))
    with _opened(call, ["average_precision_macro"], outputs=outputs) as (opened, request):
        _raise_for_invalid(opened.class_checks(request), request, call.nulls, opened, rows_used=False)
        points = opened.class_curve(spec, request, drop_intermediate, max_points)
    plan, by = request.plan, call.by
    keys = [f"fm_g{i}" for i in range(len(by))]
    classes = pl.col("column_index").replace_strict(list(range(plan.n_scores)), list(plan.labels)).alias("class")
    named = points.with_columns(classes).drop("column_index")
    restored = named.rename(dict(zip(keys, by, strict=True)))
    return restored.select(*by, "class", pl.exclude(*by, "class"))
