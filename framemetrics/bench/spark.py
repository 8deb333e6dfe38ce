"""Grouped metrics on a local Spark, against MLlib's evaluator looped over the groups."""

from __future__ import annotations

import time
from functools import partial
from typing import Any

import duckdb

import framemetrics as fm
from framemetrics.bench.common import GENERATE, best_of, result_line
from framemetrics.bench.grouped import (
    _BASELINES,
    _CLASSES,
    _GENERATE_MULTICLASS,
    CASES,
    MULTICLASS_LABELS,
    MULTICLASS_SCORES,
)

__all__ = ["local_spark", "run_spark_benchmark"]


def _mllib_loop(data: Any, n_groups: int) -> float:
    """Seconds per group of Spark MLlib's exact weighted ROC AUC, one evaluation per group (what framemetrics replaces).

    ``BinaryClassificationEvaluator`` with ``numBins=0`` (exact: its default
    1000 bins is approximate), over the first ``n_groups`` groups.
    """
    from pyspark.ml.evaluation import BinaryClassificationEvaluator
    from pyspark.sql import functions as F

    evaluator = BinaryClassificationEvaluator(
        rawPredictionCol="p", labelCol="label", weightCol="w", metricName="areaUnderROC", numBins=0
    )
    labelled = data.withColumn("label", F.col("y").cast("double"))
    start = time.perf_counter()
    for g in range(n_groups):
        evaluator.evaluate(labelled.where(F.col("g") == g))
    return (time.perf_counter() - start) / n_groups


def local_spark() -> Any:
    """A Spark session for benchmarks: ``local[2]`` on 127.0.0.1, no UI, 8 GiB driver, 8 shuffle partitions.

    Examples
    --------
    From a benchmark (it starts a JVM, about 25 s)::

        spark = local_spark()
    """
    from pyspark.sql import SparkSession

    spark = (
        SparkSession.builder.master("local[2]")
        .config("spark.driver.bindAddress", "127.0.0.1")
        .config("spark.driver.host", "127.0.0.1")
        .config("spark.ui.enabled", "false")
        .config("spark.ui.showConsoleProgress", "false")
        .config("spark.driver.memory", "8g")
        .config("spark.sql.shuffle.partitions", "8")
        .getOrCreate()
    )
    spark.sparkContext.setLogLevel("ERROR")
    return spark


def run_spark_benchmark(
    rows: int, groups: int, repeat: int, cases: list[str] | None = None, mllib_groups: int = 0
) -> list[dict[str, object]]:
    """Time ``engine="spark"`` against Spark's own aggregation of the same Parquet, in one local[2] session.

    Each case's baseline is the DuckDB baseline's SQL run by Spark (``GROUP
    BY g, score`` for the exact AUC); both read the same Parquet file and
    collect their small result. With ``mllib_groups``, the exact AUC is also
    set against MLlib's evaluator looped over the groups: its time for the
    first ``mllib_groups`` groups, scaled to all of them (the whole loop
    takes about 15 minutes at 1e7 rows and 1e3 groups). Needs pyspark and a
    Java runtime.

    Examples
    --------
    From the command line (it starts a Spark session, about 25 s)::

        python -m framemetrics.bench --engines spark --rows 10000000 --groups 1000 --cases "exact AUC"
    """
    import tempfile

    spark = local_spark()
    con = duckdb.connect()
    con.execute("SET enable_progress_bar = false")
    chosen = cases or list(CASES)
    lines = []
    with tempfile.TemporaryDirectory() as folder:
        con.execute(GENERATE.format(rows=int(rows), groups=int(groups)))
        con.execute(f"COPY bench TO '{folder}/bench.parquet' (FORMAT parquet)")
        if {MULTICLASS_LABELS, MULTICLASS_SCORES} & set(chosen):
            raw = ", ".join(f"(1 + hash(i + {10 + j}) % 100)::DOUBLE AS r{j}" for j in range(_CLASSES))
            total = " + ".join(f"r{j}" for j in range(_CLASSES))
            scores = ", ".join(f"r{j} / ({total}) AS p{j}" for j in range(_CLASSES))
            mc = _GENERATE_MULTICLASS.format(rows=int(rows), groups=int(groups), k=_CLASSES, raw=raw, scores=scores)
            con.execute(mc)
            con.execute(f"COPY bench_mc TO '{folder}/bench_mc.parquet' (FORMAT parquet)")
        try:
            for case in chosen:
                metrics, columns = CASES[case]
                table = "bench_mc" if case in (MULTICLASS_LABELS, MULTICLASS_SCORES) else "bench"
                data = spark.read.parquet(f"{folder}/{table}.parquet")
                data.createOrReplaceTempView(table)
                evaluate = fm.evaluate_multiclass if table == "bench_mc" else fm.evaluate
                ours = partial(evaluate, data, sample_weight="w", by="g", metrics=metrics, engine="spark", **columns)
                # A new DataFrame per run: collecting one twice reuses its first result.
                base = partial(lambda sql: spark.sql(sql).collect(), _BASELINES[case][0])
                timed = best_of(repeat, ours)
                lines.append(result_line("spark", case, _BASELINES[case][2], timed, best_of(repeat, base)))
                if case == "exact AUC" and mllib_groups:
                    per_group = _mllib_loop(data, mllib_groups)
                    loop = f"MLlib evaluator loop ({mllib_groups} groups timed, x {groups})"
                    lines.append(result_line("spark", case, loop, timed, per_group * groups))
        finally:
            spark.stop()
    return lines
