"""Benchmark: grouped metrics against each engine's own GROUP BY of the same sums.

Run ``python -m framemetrics.bench --rows 100_000_000 --groups 1000``. Data
are generated inside DuckDB (integers hashed into labels, scores and
weights), then handed to Polars through Arrow. Each line prints the time of
framemetrics next to a baseline measured in the same run: a hand-written
aggregation computing the same sums, without input checks or formulas
(``GROUP BY g``; for the exact AUC, ``GROUP BY g, score``). In memory, the
exact AUC is also timed against scikit-learn looped over the groups and
polars-ds' ``query_roc_auc`` where installed (``pip install '.[bench]'``);
``speedup`` is then how many times faster framemetrics is. The ratio is what
matters; absolute times depend on the machine. ``--cases`` picks cases,
``--parquet FILE`` reads from a Parquet file in fresh processes and reports
peak memory. ``--macros`` times instead the aggregate ranking macros of
``sql/framemetrics.sql`` (``fm_roc_auc_score(y, p)`` in a ``GROUP BY``) on one
group of 2e5 and of 1e6 rows against ``fm.sql.query`` on the same table.
``--expressions`` times the Polars builders (``df.group_by("g").agg(fm.roc_auc_score("y", "p"))``)
against ``fm.evaluate`` at 1, 100 and 20,000 groups, and on one group
against scikit-learn, each line with its target ratio.
``--report`` times the evaluation report against ``fm.evaluate`` of the
same metrics, overall and per segment, on each engine. ``--uncertainty``
times the intervals against the point estimates they come with (DeLong's
interval against the ROC AUC alone). ``--targets`` prints every ratio of
issue 37 next to its target in one run: the builders, ``ci=0.95`` on the
default metrics (time and memory), multiclass one-vs-rest against
scikit-learn, the report.
"""

from __future__ import annotations

import argparse

import polars as pl

from framemetrics.bench.expressions import EXPRESSION_GROUPS, run_expression_benchmark
from framemetrics.bench.grouped import CASES, run_benchmark
from framemetrics.bench.macros import MACRO_ROWS, run_macro_benchmark
from framemetrics.bench.report import run_report_benchmark
from framemetrics.bench.spark import run_spark_benchmark
from framemetrics.bench.targets import run_targets
from framemetrics.bench.uncertainty import run_uncertainty_benchmark


def main(argv: list[str] | None = None) -> None:
    """Command line entry point: parse arguments, run, print the report."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rows", type=int, default=10_000_000)
    parser.add_argument("--groups", type=int, default=1000)
    parser.add_argument("--repeat", type=int, default=3)
    parser.add_argument("--engines", nargs="+", default=["duckdb", "polars"], choices=["duckdb", "polars", "spark"],
                        help="spark: a local[2] session over a Parquet copy (needs pyspark and Java)")  # fmt: skip
    parser.add_argument("--parquet", help="write the data to this Parquet file and read it from there")
    parser.add_argument("--memory-limit", default="1GB", help="DuckDB memory_limit with --parquet")
    parser.add_argument("--cases", nargs="+", choices=list(CASES), help="default: all")
    parser.add_argument("--macros", action="store_true", help="time the aggregate ranking macros instead")
    parser.add_argument("--report", action="store_true", help="time the evaluation report against evaluate instead")
    parser.add_argument("--expressions", action="store_true",
                        help="time the Polars builders against evaluate and scikit-learn instead")  # fmt: skip
    parser.add_argument("--uncertainty", action="store_true",
                        help="time the intervals against the point estimates instead")  # fmt: skip
    parser.add_argument("--n-resamples", type=int, default=200, help="--uncertainty: the bootstrap's replicates")
    parser.add_argument("--mllib-groups", type=int, default=0,
                        help="spark: also time MLlib's evaluator on this many groups (scaled to all)")  # fmt: skip
    parser.add_argument("--targets", action="store_true",
                        help="print every ratio of issue 37 next to its target, in one run")  # fmt: skip
    args = parser.parse_args(argv)
    local = [e for e in args.engines if e != "spark"]
    if args.targets:
        print(f"issue 37's targets, 2 cores, best of {args.repeat}")
        lines = run_targets(args.repeat, local)
    elif args.expressions:
        print(f"Polars builders against evaluate, {args.rows:,} rows, best of {args.repeat}")
        lines = run_expression_benchmark(args.rows, EXPRESSION_GROUPS, args.repeat)
    elif args.uncertainty:
        print(f"intervals against point estimates, {args.rows:,} rows x {args.groups:,} groups, best of {args.repeat}")
        lines = run_uncertainty_benchmark(
            args.rows, args.groups, args.repeat, [e for e in args.engines if e != "spark"], args.n_resamples
        )
    elif args.report:
        print(
            f"evaluation report against evaluate, {args.rows:,} rows x {args.groups:,} segments, best of {args.repeat}"
        )
        lines = run_report_benchmark(args.rows, args.groups, args.repeat, [e for e in args.engines if e != "spark"])
    elif args.macros:
        print(f"aggregate ranking macros against fm.sql.query, weighted, one group, best of {args.repeat}")
        lines = run_macro_benchmark(MACRO_ROWS, args.repeat)
    else:
        where = f"from {args.parquet}" if args.parquet else "in memory"
        print(f"{args.rows:,} rows x {args.groups:,} groups, weighted, {where}, best of {args.repeat}")
        local = [e for e in args.engines if e != "spark"]
        lines = []
        if local:
            lines += run_benchmark(
                args.rows, args.groups, args.repeat, local, args.parquet, args.memory_limit, args.cases
            )
        if "spark" in args.engines:
            lines += run_spark_benchmark(args.rows, args.groups, args.repeat, args.cases, args.mllib_groups)
    with pl.Config(
        tbl_hide_dataframe_shape=True,
        tbl_hide_column_data_types=True,
        float_precision=2,
        tbl_cols=-1,
        tbl_rows=-1,
        fmt_str_lengths=80,
        tbl_width_chars=200,
    ):
        print(pl.DataFrame(lines))


if __name__ == "__main__":
    main()
