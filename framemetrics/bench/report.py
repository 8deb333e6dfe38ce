"""The evaluation report against ``fm.evaluate`` of its metrics."""

from __future__ import annotations

from pathlib import Path

import duckdb

import framemetrics as fm
from framemetrics.bench.common import GENERATE, best_of, result_line

__all__ = ["run_report_benchmark"]


def run_report_benchmark(rows: int, groups: int, repeat: int, engines: list[str]) -> list[dict[str, object]]:
    """Time ``fm.evaluation_report`` against ``fm.evaluate`` of the same metrics, overall and per segment.

    Both read the same Parquet file (scores of 6 decimals, weighted) on the
    same engine, imports warm; the report's time includes its figures and page.

    Examples
    --------
    >>> [line["metrics"] for line in run_report_benchmark(2_000, 4, 1, ["polars"])]
    ['report, 2,000 rows x 4 segments']
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
    for engine in engines:

        def evaluate(engine: str = engine) -> None:
            fm.evaluate(path, metrics=list(REPORT_METRICS), engine=engine, **columns)
            fm.evaluate(path, metrics=list(REPORT_METRICS), by="g", engine=engine, **columns)

        def report(engine: str = engine) -> None:
            fm.evaluation_report(path, by="g", engine=engine, output=output, **columns)

        report()  # warm: imports and file cache
        case = f"report, {rows:,} rows x {groups:,} segments"
        lines.append(
            result_line(
                engine, case, "evaluate, overall + per segment", best_of(repeat, report), best_of(repeat, evaluate)
            )
        )
    return lines
