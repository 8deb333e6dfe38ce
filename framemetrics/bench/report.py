"""The evaluation report against ``fm.evaluate`` of its metrics."""

from __future__ import annotations

from pathlib import Path

import duckdb

import framemetrics as fm
from framemetrics.bench.common import GENERATE, best_of, result_line

__all__ = ["run_report_benchmark"]

_REPORT_INTERVALS = {"ci": 0.95, "ci_method": "own"}  # the intervals of the report's tables


def run_report_benchmark(rows: int, groups: int, repeat: int, engines: list[str]) -> list[dict[str, object]]:
    """Time ``fm.evaluation_report`` against ``fm.evaluate`` of the same metrics, overall and per segment.

    Two baselines per engine: the metrics alone (issue 37's target), and the
    metrics with the intervals the report's tables show (``ci=0.95,
    ci_method="own"``: DeLong's, Wilson's, the normal interval of a mean).
    All read the same Parquet file (scores of 6 decimals, weighted) on the
    same engine, imports warm; the report's time includes its figures and page.

    Examples
    --------
    >>> [line["baseline"] for line in run_report_benchmark(2_000, 4, 1, ["polars"])]
    ['evaluate, overall + per segment', 'evaluate with the same intervals']
    """
    import tempfile

    from framemetrics.report.collect import REPORT_METRICS

    folder = Path(tempfile.mkdtemp())
    path, output = str(folder / "bench.parquet"), folder / "report.html"
    con = duckdb.connect()
    con.execute(GENERATE.format(rows=int(rows), groups=int(groups)))
    con.execute(f"COPY bench TO '{path}' (FORMAT parquet)")
    columns = {"y_true": "y", "y_score": "p", "sample_weight": "w"}
    lines = []
    baselines = {"evaluate, overall + per segment": {}, "evaluate with the same intervals": _REPORT_INTERVALS}
    for engine in engines:

        def report(engine: str = engine) -> None:
            fm.evaluation_report(path, by="g", engine=engine, output=output, **columns)

        report()  # warm: imports and file cache
        reported = best_of(repeat, report)
        case = f"report, {rows:,} rows x {groups:,} segments"
        for baseline, intervals in baselines.items():

            def evaluate(engine: str = engine, intervals: dict = intervals) -> None:
                for by in (None, "g"):
                    fm.evaluate(path, metrics=list(REPORT_METRICS), by=by, engine=engine, **columns, **intervals)

            lines.append(result_line(engine, case, baseline, reported, best_of(repeat, evaluate)))
    return lines
