"""The binary report's metrics and curves from one curve stage, shared by both levels and every output.

The report shows the metrics over all rows and per segment, and the ROC and
precision-recall curves of each. Computed one by one, that sorts the scores
six times. Here each level (0: all rows, 1: per segment) sorts its scores
once into a curve stage held by the engine (``Backend.shared_stage`` with
``level``: a Polars frame per level in memory; one temporary table of both
levels in DuckDB, every row read twice, the group columns null at level 0),
and the metrics, both curves (thinned, of the largest segments alone) and the
calibration bins read it (``Backend.metrics``, ``Backend.curve``,
``Backend.calibration``). The metrics are those of :func:`framemetrics.evaluate`,
the curves those of :func:`framemetrics.roc_curve` and its sibling with
``drop_intermediate=False`` and ``max_points``, the bins those of
:func:`framemetrics.calibration_curve`: the same stages, the same formulas,
the same rows.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, replace
from typing import Any

import polars as pl

from framemetrics.columns import Prepared, prepare_metrics
from framemetrics.core.curves import CURVES
from framemetrics.engines import Backend
from framemetrics.request import Call
from framemetrics.request.call import checked_columns, raise_for_invalid
from framemetrics.stages.statistics import rolls_up

__all__ = ["POSITIVES_SQUARED", "REPORT_LEVEL", "Shared", "level_name", "shared_results"]
CURVE_NAMES = ("roc_curve", "precision_recall_curve")
REPORT_LEVEL = 0.95  # the level of the report's intervals
POSITIVES_SQUARED = "sum_pos_sq"  # exposed beside the metrics as fm_sum_pos_sq: Kish's n of the ROC band
_STAGE_ANCHOR = "roc_auc_score"  # puts y_score, its checks and the curve stage in any plan


@dataclass(frozen=True)
class Shared:
    """The metrics, curves and calibration bins of every (level, segment): the group columns after the level's.

    Without segments there is one level, all rows, and no group column.
    ``curves`` maps ``roc_curve`` and ``precision_recall_curve`` to their
    points, ``calibration`` a number of bins to :func:`framemetrics.calibration_curve`'s rows (all rows
    alone unless asked per segment: no ``level_column``).
    """

    metrics: pl.DataFrame
    curves: dict[str, pl.DataFrame]
    calibration: dict[int, pl.DataFrame]
    by: tuple[str, ...]
    level_column: str

    def level(self, frame: pl.DataFrame, level: int) -> pl.DataFrame:
        """The rows of ``frame`` at ``level``: all rows (0, group columns dropped) or per segment (1)."""
        if self.level_column not in frame.columns:  # all rows alone
            return frame
        rows = frame.filter(pl.col(self.level_column) == level).drop(self.level_column)
        return rows.drop(list(self.by)) if level == 0 else rows


def shared_results(
    call: Call,
    opened: Backend,
    *,
    metrics: Sequence[str] | dict[str, dict[str, Any]],
    threshold: float,
    max_points: int,
    calibration_bins: Mapping[int, bool] | None = None,
    max_segments: int | None = None,
) -> Shared:
    """Metrics over all rows and per segment of ``by`` and both curves, from one curve stage.

    Each metric with an interval of its own (DeLong's for the ROC AUC,
    Wilson's for the proportions) has ``<metric>_low`` and ``<metric>_high``
    at :data:`REPORT_LEVEL` beside it; ``fm_sum_pos_sq``, the squared weight
    of the positives (:data:`POSITIVES_SQUARED`), follows the metrics.

    ``call`` holds the columns and groups, ``opened`` its source on its
    engine (``"polars"`` or ``"duckdb"``: ``call.open()``); ``metrics`` and ``threshold`` are those of
    :func:`framemetrics.evaluate` (``metrics`` a list or dict), ``max_points``
    that of :func:`framemetrics.roc_curve`. Invalid rows raise as in
    :func:`framemetrics.evaluate`, before any curve is computed.
    ``calibration_bins`` maps numbers of bins to whether the calibration
    curve is wanted per segment too (else over all rows alone): one query
    each, reading the curve stage (the scores must be probabilities, checked
    by the caller).
    ``max_segments``: the curves of the segments at least as large (in rows)
    as the ``max_segments``-th largest alone (ties kept), and of all rows.

    Examples
    --------
    >>> df = pl.DataFrame({"g": ["a", "a", "b", "b"], "y": [0, 1, 1, 0], "p": [0.2, 0.9, 0.1, 0.3]})
    >>> call = Call(df, y_true="y", y_score="p", by=("g",), engine="duckdb")
    >>> with call.open() as opened:
    ...     out = shared_results(call, opened, metrics=["roc_auc_score"], threshold=0.5, max_points=100)
    >>> out.level(out.metrics, 1)["roc_auc_score"].to_list(), out.level(out.metrics, 0)["roc_auc_score"].item()
    ([1.0, 0.0], 0.5)
    """
    requested = list(metrics)
    anchored = metrics if _STAGE_ANCHOR in requested else _with_anchor(metrics)
    prepared = prepare_metrics(anchored, threshold=threshold, by=call.by, nulls=call.nulls, y_pred=None,
                               zero_division=None, ci=REPORT_LEVEL, ci_method="own", **call.columns())  # fmt: skip
    banded = replace(prepared.resolved, plan=prepared.resolved.plan.exposing([POSITIVES_SQUARED]))
    prepared = replace(prepared, resolved=banded)
    result, curves, calibration, level = _levels(
        opened, prepared, call.nulls, max_points, calibration_bins or {}, max_segments
    )
    hidden = [] if _STAGE_ANCHOR in requested else [_STAGE_ANCHOR, f"{_STAGE_ANCHOR}_low", f"{_STAGE_ANCHOR}_high"]
    checks = [c.name for c in prepared.resolved.plan.checks]
    return Shared(result.drop(checks, *hidden), curves, calibration, call.by, level)


_Results = tuple[pl.DataFrame, dict[str, pl.DataFrame], dict[int, pl.DataFrame], str]


def _levels(
    opened: Backend,
    prepared: Prepared,
    nulls: str,
    max_points: int,
    per_segment: Mapping[int, bool],
    max_segments: int | None,
) -> _Results:
    """:func:`shared_results` on one engine: both levels' curve stage computed once (held in memory by Polars,
    one temporary table of DuckDB) and read by the metrics, both curves and the calibration bins.

    Invalid rows raise from the all-rows level, before any curve is computed.
    """
    plan, roles, by = prepared.resolved.plan, prepared.resolved.roles, prepared.by
    columns = checked_columns(opened, prepared)
    level = level_name(opened.kinds())
    with opened.shared_stage(plan, columns, by, prepared.drop, level) as stage:
        all_rows = bool(by) and rolls_up(plan)  # the rows read once: all rows' statistics summed from the segments'
        result = opened.metrics(plan, columns, by, prepared.drop, stage, level, all_rows)
        raise_for_invalid(result.filter(pl.col(level) == 0) if by else result, plan, roles, nulls, opened)
        least = _least_shown(result.filter(pl.col(level) == 1) if by else None, max_segments)
        curves = {
            name: opened.curve(CURVES[name], plan, columns, by, prepared.drop, False, max_points, stage, level, least)
            for name in CURVE_NAMES
        }
        calibration = {}
        for n_bins, segmented in per_segment.items():
            levels = opened.stage_calibration(stage, by, level, n_bins)
            calibration[n_bins] = levels if segmented or not by else levels.filter(pl.col(level) == 0).drop(level, *by)
    return result, curves, calibration, level


def _least_shown(segments: pl.DataFrame | None, max_segments: int | None) -> int | None:
    """The rows of the ``max_segments``-th largest segment; None where every segment is at least that large.

    At least the largest: no segment is larger than all rows, so the level of
    all rows always passes (in SQL its group is filtered with the segments').

    Examples
    --------
    >>> _least_shown(pl.DataFrame({"n_rows": [5, 9, 7, 7]}), 2), _least_shown(pl.DataFrame({"n_rows": [7, 7, 7]}), 2)
    (7, None)
    """
    if segments is None or max_segments is None or segments.height <= max_segments:
        return None
    sizes = segments["n_rows"].sort(descending=True)
    least = int(sizes[max(max_segments, 1) - 1])
    return least if sizes[-1] < least else None


def level_name(taken: Iterable[str]) -> str:
    """The name of the level column: ``fm_level``, with underscores added until no column is named so.

    Compared without case, as DuckDB compares names.

    Examples
    --------
    >>> level_name(["g"]), level_name(["FM_LEVEL", "fm_level_"])
    ('fm_level', 'fm_level__')
    """
    names, level = {name.lower() for name in taken}, "fm_level"
    while level in names:
        level += "_"
    return level


def _with_anchor(metrics: Sequence[str] | dict[str, dict[str, Any]]) -> Sequence[str] | dict[str, dict[str, Any]]:
    """``metrics`` and ROC AUC, whose plan reads the scores, checks them and sorts them into the curve stage."""
    if isinstance(metrics, dict):
        return {**metrics, _STAGE_ANCHOR: {}}
    return [*metrics, _STAGE_ANCHOR]
