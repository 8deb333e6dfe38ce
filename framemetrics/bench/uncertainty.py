"""The intervals against the point estimates they come with: DeLong's, the bootstrap, ``ci=`` on the defaults."""

from __future__ import annotations

import multiprocessing
from functools import partial
from multiprocessing.connection import Connection
from typing import Any

import duckdb

import framemetrics as fm
from framemetrics.bench.common import GENERATE, best_of, peak_rss_mb, result_line

__all__ = ["run_interval_benchmark", "run_uncertainty_benchmark"]

_BOOTSTRAPPED = ["f1_score", "log_loss"]  # the uncertainty benchmark's bootstrapped metrics


def run_uncertainty_benchmark(
    rows: int, groups: int, repeat: int, engines: list[str], n_resamples: int = 200
) -> list[dict[str, object]]:
    """Time the intervals against the point estimates they come with, on each engine, weighted.

    DeLong's interval (``fm.roc_auc_ci``) against the ROC AUC alone
    (``fm.evaluate(metrics=["roc_auc_score"])``), and the Poisson bootstrap
    of F1 and log loss (``fm.bootstrap``, ``n_resamples`` replicates, timed
    once, the rows keyed by their position and by an ``id`` column) against
    the two metrics alone, all computed by framemetrics in the
    same run: the ratio is what the interval costs (a loop resampling and
    recomputing would cost ``n_resamples`` times the metrics alone).

    Examples
    --------
    >>> [line["metrics"] for line in run_uncertainty_benchmark(2_000, 4, 1, ["polars"], n_resamples=5)][1:]
    ['bootstrap, 5 replicates (F1, log loss), key: row position', 'bootstrap, 5 replicates (F1, log loss), key: row_id']
    """
    con = duckdb.connect()
    con.execute("SET enable_progress_bar = false")
    con.execute(GENERATE.format(rows=int(rows), groups=int(groups)))
    frame = con.table("bench").pl() if "polars" in engines else None
    columns = {"y_true": "y", "y_score": "p", "sample_weight": "w", "by": "g"}
    lines = []
    for engine in engines:
        source = con.table("bench") if engine == "duckdb" else frame

        def auc(source: Any = source, engine: str = engine) -> None:
            fm.evaluate(source, metrics=["roc_auc_score"], engine=engine, **columns)

        def delong(source: Any = source, engine: str = engine) -> None:
            fm.roc_auc_ci(source, engine=engine, **columns)

        case, baseline = "DeLong interval (roc_auc_ci)", "ROC AUC alone (framemetrics)"
        lines.append(result_line(engine, case, baseline, best_of(repeat, delong), best_of(repeat, auc)))

        def point(source: Any = source, engine: str = engine) -> None:
            fm.evaluate(source, metrics=_BOOTSTRAPPED, threshold=0.5, engine=engine, **columns)

        point_s = best_of(repeat, point)
        for row_id, key in ((None, "row position"), ("id", "row_id")):

            def resampled(source: Any = source, engine: str = engine, row_id: str | None = row_id) -> None:
                fm.bootstrap(source, metrics=_BOOTSTRAPPED, threshold=0.5, n_resamples=n_resamples, row_id=row_id,
                             engine=engine, **columns)  # fmt: skip

            case = f"bootstrap, {n_resamples} replicates (F1, log loss), key: {key}"
            lines.append(result_line(engine, case, "F1, log loss alone (framemetrics)", best_of(1, resampled), point_s))
    return lines


INTERVAL_ROWS, INTERVAL_GROUPS = 200_000, 20


INTERVAL_TARGET, INTERVAL_MEMORY_MB = 10.0, 1024.0  # ci=0.95 within 10x the call without, 1 GB more at most


def _interval_child(pipe: Connection, engine: str, ci: float | None) -> None:
    """In a fresh process: the default metrics of a binary evaluation, with or without ``ci``: (seconds, MB more)."""
    con = duckdb.connect()
    con.execute("SET enable_progress_bar = false")
    con.execute(GENERATE.format(rows=INTERVAL_ROWS, groups=INTERVAL_GROUPS))
    source = con.table("bench") if engine == "duckdb" else con.table("bench").pl()
    before = peak_rss_mb()
    run = partial(fm.evaluate, source, y_true="y", y_score="p", by="g", ci=ci, engine=engine)
    run()  # warm: imports, the interval's statement
    pipe.send((best_of(3, run), peak_rss_mb() - before))


def run_interval_benchmark(engines: list[str]) -> list[dict[str, object]]:
    """Time ``fm.evaluate(..., ci=0.95)`` of the default binary metrics against the same call without ``ci``, at
    2e5 rows x 20 groups, each in a fresh process; ``mb_more`` is the peak memory ``ci`` adds (issue 37's targets:
    ``target`` for the ratio, ``mb_target`` for the memory).

    Examples
    --------
    >>> [(line["target"], line["mb_target"]) for line in run_interval_benchmark(["polars"])]
    [(10.0, 1024.0)]
    """
    context = multiprocessing.get_context("spawn")
    lines = []
    for engine in engines:
        measured = []
        for ci in (None, 0.95):
            receive, send = context.Pipe(duplex=False)
            process = context.Process(target=_interval_child, args=(send, engine, ci))
            process.start()
            measured.append(receive.recv())
            process.join()
        (plain, plain_mb), (with_ci, ci_mb) = measured
        case = f"ci=0.95, default metrics, {INTERVAL_ROWS:,} rows x {INTERVAL_GROUPS} groups"
        line = result_line(engine, case, "the same call without ci", with_ci, plain)
        lines.append(line | {"target": INTERVAL_TARGET, "mb_more": ci_mb - plain_mb, "mb_target": INTERVAL_MEMORY_MB})
    return lines
