"""What :mod:`framemetrics.compilers.polars.multiclass_bootstrap` reads of the class stage, over LazyFrames.

The stage is :mod:`framemetrics.stages.multiclass`; these two functions wrap
it for the bootstrap, and go when the bootstrap reads it itself.
"""

from __future__ import annotations

import polars as pl

from framemetrics.compilers.polars.frame import PolarsFrame
from framemetrics.core.plan import Plan
from framemetrics.stages import multiclass as classes

__all__ = ["mc_frames", "metrics_frame"]


def mc_frames(
    data: pl.LazyFrame, plan: Plan, keys: list[str], stages: frozenset[str], fm_cells: pl.LazyFrame | None = None
) -> classes.ClassFrames:
    """The stages ``stages`` over ``data`` (an ``fm_input`` frame), from its cells or the given ``fm_cells``.

    Examples
    --------
    >>> from framemetrics.core.plan import make_plan
    >>> plan = make_plan(["accuracy_score"], task="multiclass", has_pred=True, weighted=False)
    >>> data = pl.LazyFrame({"y_true": [1, 2], "y_pred": [1, 1], "sample_weight": [1.0, 1.0]})
    >>> metrics_frame(mc_frames(data, plan, [], plan.stages), plan, ()).collect()["accuracy_score"].item()
    0.5
    """
    cells = None if fm_cells is None else PolarsFrame(fm_cells)
    return classes.class_frames(PolarsFrame(data), plan, keys, stages, cells)


def metrics_frame(
    frames: classes.ClassFrames, plan: Plan, by: tuple[str, ...], *, internal: bool = False
) -> pl.LazyFrame:
    """The metrics per group (:func:`framemetrics.stages.multiclass.metrics_frame`), keys as ``by`` unless ``internal``.

    Examples
    --------
    >>> from framemetrics.core.plan import make_plan
    >>> plan = make_plan(["accuracy_score"], task="multiclass", has_pred=True, weighted=False)
    >>> data = pl.LazyFrame({"g": [1, 1], "y_true": [1, 2], "y_pred": [1, 1], "sample_weight": [1.0, 1.0]})
    >>> metrics_frame(mc_frames(data.rename({"g": "fm_g0"}), plan, ["fm_g0"], plan.stages), plan, ("g",)).collect()
    shape: (1, 5)
    ┌─────┬────────┬────────────────┬────────────────────────┬────────────────────────┐
    │ g   ┆ n_rows ┆ accuracy_score ┆ invalid_present_y_true ┆ invalid_present_y_pred │
    │ --- ┆ ---    ┆ ---            ┆ ---                    ┆ ---                    │
    │ i64 ┆ i64    ┆ f64            ┆ i64                    ┆ i64                    │
    ╞═════╪════════╪════════════════╪════════════════════════╪════════════════════════╡
    │ 1   ┆ 2      ┆ 0.5            ┆ 0                      ┆ 0                      │
    └─────┴────────┴────────────────┴────────────────────────┴────────────────────────┘
    """
    table = classes.metrics_frame(frames, plan, internal=internal)
    return table.lazy if internal else table.lazy.rename(dict(zip(frames.keys, by, strict=True)))
