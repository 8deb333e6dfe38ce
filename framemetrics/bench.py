"""Benchmark: grouped metrics against each engine's own GROUP BY of the same sums.

Run ``python -m framemetrics.bench --rows 100_000_000 --groups 1000``. Data
are generated inside DuckDB (integers hashed into labels, scores and
weights), then handed to Polars through Arrow. Each line prints the time of
framemetrics next to a baseline measured in the same run: a hand-written
aggregation computing the same sums, without input checks or formulas. The
ratio is what matters; absolute times depend on the machine.
"""

from __future__ import annotations

import argparse
import time
from collections.abc import Callable
from functools import partial

import duckdb
import polars as pl

import framemetrics as fm

CONFUSION = [n for n, m in fm.REGISTRY.items() if m.family == "classification"]
REGRESSION = [
    "mean_squared_error",
    "root_mean_squared_error",
    "mean_absolute_error",
    "mean_absolute_percentage_error",
    "mean_pinball_loss",
    "max_error",
]

_GENERATE = """
CREATE OR REPLACE TABLE bench AS
SELECT
    (i % {groups})::BIGINT AS g,
    (hash(i) % 2)::BIGINT AS y,
    ((hash(i + 1) % 1000000) / 1000000.0)::DOUBLE AS p,
    (1 + hash(i + 2) % 5)::DOUBLE AS w,
    ((hash(i + 3) % 10000) / 100.0)::DOUBLE AS target,
    ((hash(i + 4) % 10000) / 100.0)::DOUBLE AS forecast
FROM range({rows}) t(i)
"""

_DUCKDB_CONFUSION = """
SELECT g,
    count(*) AS n,
    sum(w * CAST(y = 1 AND p >= 0.5 AS DOUBLE)) AS tp,
    sum(w * CAST(y = 0 AND p >= 0.5 AS DOUBLE)) AS fp,
    sum(w * CAST(y = 1 AND p < 0.5 AS DOUBLE)) AS fn,
    sum(w * CAST(y = 0 AND p < 0.5 AS DOUBLE)) AS tn
FROM bench GROUP BY g
"""

_DUCKDB_REGRESSION = """
SELECT g,
    count(*) AS n,
    sum(w) AS sw,
    sum(w * pow(target - forecast, 2)) AS se,
    sum(w * abs(target - forecast)) AS ae,
    sum(w * abs(forecast - target) / greatest(abs(target), 2.220446049250313e-16)) AS ape,
    sum(w * CASE WHEN target >= forecast THEN 0.5 * (target - forecast) ELSE 0.5 * (forecast - target) END) AS pin,
    max(abs(target - forecast)) AS mx
FROM bench GROUP BY g
"""


def _polars_confusion(df: pl.DataFrame) -> pl.DataFrame:
    y, p, w = pl.col("y"), pl.col("p") >= 0.5, pl.col("w")
    return (
        df.lazy()
        .group_by("g")
        .agg(
            pl.len(),
            (w * ((y == 1) & p).cast(pl.Float64)).sum().alias("tp"),
            (w * ((y == 0) & p).cast(pl.Float64)).sum().alias("fp"),
            (w * ((y == 1) & ~p).cast(pl.Float64)).sum().alias("fn"),
            (w * ((y == 0) & ~p).cast(pl.Float64)).sum().alias("tn"),
        )
        .collect()
    )


def _polars_regression(df: pl.DataFrame) -> pl.DataFrame:
    e, w = pl.col("target") - pl.col("forecast"), pl.col("w")
    return (
        df.lazy()
        .group_by("g")
        .agg(
            pl.len(),
            w.sum().alias("sw"),
            (w * e.pow(2)).sum().alias("se"),
            (w * e.abs()).sum().alias("ae"),
            (w * e.abs() / pl.col("target").abs().clip(lower_bound=2.220446049250313e-16)).sum().alias("ape"),
            (w * pl.when(e >= 0).then(0.5 * e).otherwise(-0.5 * e)).sum().alias("pin"),
            e.abs().max().alias("mx"),
        )
        .collect()
    )


def best_of(repeat: int, run: Callable[[], object]) -> float:
    """Fastest of ``repeat`` timed runs, in seconds.

    Examples
    --------
    >>> best_of(2, lambda: None) >= 0
    True
    """
    times = []
    for _ in range(repeat):
        start = time.perf_counter()
        run()
        times.append(time.perf_counter() - start)
    return min(times)


def run_benchmark(rows: int, groups: int, repeat: int, engines: list[str]) -> list[dict[str, object]]:
    """Time framemetrics against the baselines; one dict per line of the report.

    Examples
    --------
    >>> lines = run_benchmark(10_000, 10, 1, ["duckdb"])
    >>> sorted(lines[0])
    ['baseline_s', 'engine', 'framemetrics_s', 'metrics', 'ratio']
    """
    con = duckdb.connect()
    con.execute("SET enable_progress_bar = false")
    con.execute(_GENERATE.format(rows=int(rows), groups=int(groups)))
    frame = con.table("bench").pl() if "polars" in engines else None
    cases = {
        "confusion (15 metrics)": (CONFUSION, dict(y_score="p"), _DUCKDB_CONFUSION, _polars_confusion),
        "regression (6 metrics)": (REGRESSION, dict(y_pred="forecast"), _DUCKDB_REGRESSION, _polars_regression),
    }
    lines = []
    for label, (metrics, prediction, baseline_sql, baseline_polars) in cases.items():
        y_true = "y" if "y_score" in prediction else "target"
        for engine in engines:
            source = con.table("bench") if engine == "duckdb" else frame
            ours = partial(
                fm.evaluate,
                source,
                y_true=y_true,
                sample_weight="w",
                by="g",
                metrics=metrics,
                engine=engine,
                **prediction,
            )
            baseline = (
                partial(con.sql(baseline_sql).fetchall) if engine == "duckdb" else partial(baseline_polars, frame)
            )
            ours_s, base_s = best_of(repeat, ours), best_of(repeat, baseline)
            lines.append(
                {
                    "engine": engine,
                    "metrics": label,
                    "framemetrics_s": ours_s,
                    "baseline_s": base_s,
                    "ratio": ours_s / base_s,
                }
            )
    return lines


def main(argv: list[str] | None = None) -> None:
    """Command line entry point: parse arguments, run, print the report."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rows", type=int, default=10_000_000)
    parser.add_argument("--groups", type=int, default=1000)
    parser.add_argument("--repeat", type=int, default=3)
    parser.add_argument("--engines", nargs="+", default=["duckdb", "polars"], choices=["duckdb", "polars"])
    args = parser.parse_args(argv)
    print(f"{args.rows:,} rows x {args.groups:,} groups, weighted, best of {args.repeat}")
    report = pl.DataFrame(run_benchmark(args.rows, args.groups, args.repeat, args.engines))
    with pl.Config(tbl_hide_dataframe_shape=True, tbl_hide_column_data_types=True, float_precision=2):
        print(report)


if __name__ == "__main__":
    main()
