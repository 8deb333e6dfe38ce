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
import importlib.util
import multiprocessing
import resource
import time
import warnings
from collections.abc import Callable
from functools import partial
from multiprocessing.connection import Connection
from pathlib import Path
from typing import Any

import duckdb
import polars as pl

import framemetrics as fm

CONFUSION = [n for n, m in fm.REGISTRY.items() if m.family == "classification"]
CONFUSION_CASE = f"confusion ({len(CONFUSION)} metrics)"
REGRESSION = [
    "mean_squared_error",
    "root_mean_squared_error",
    "mean_absolute_error",
    "mean_absolute_percentage_error",
    "mean_pinball_loss",
    "max_error",
]

_BOOTSTRAPPED = ["f1_score", "log_loss"]  # the uncertainty benchmark's bootstrapped metrics
_GENERATE = """
CREATE OR REPLACE TABLE bench AS
SELECT
    (i % {groups})::BIGINT AS g,
    (hash(i) % 2)::BIGINT AS y,
    ((hash(i + 1) % 1000000) / 1000000.0)::DOUBLE AS p,
    (1 + hash(i + 2) % 5)::DOUBLE AS w,
    ((hash(i + 3) % 10000) / 100.0)::DOUBLE AS target,
    ((hash(i + 4) % 10000) / 100.0)::DOUBLE AS forecast,
    i AS id
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


def _polars_confusion(df: pl.DataFrame | pl.LazyFrame) -> pl.DataFrame:
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


def _polars_regression(df: pl.DataFrame | pl.LazyFrame) -> pl.DataFrame:
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


_DUCKDB_MEDIAN = "SELECT g, median(abs(target - forecast)) FROM bench GROUP BY g"


def _polars_median(df: pl.DataFrame | pl.LazyFrame) -> pl.DataFrame:
    return df.lazy().group_by("g").agg((pl.col("target") - pl.col("forecast")).abs().median()).collect()


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


_DUCKDB_SCORES = """
SELECT count(*), sum(pw), sum(nw) FROM (
    SELECT g, p, sum(w * CAST(y = 1 AS DOUBLE)) AS pw, sum(w * CAST(y = 0 AS DOUBLE)) AS nw
    FROM bench GROUP BY g, p
)
"""


def _polars_scores(df: pl.DataFrame | pl.LazyFrame) -> pl.DataFrame:
    y, w = pl.col("y"), pl.col("w")
    per_score = (
        df.lazy()
        .group_by("g", "p")
        .agg((w * (y == 1).cast(pl.Float64)).sum().alias("pw"), (w * (y == 0).cast(pl.Float64)).sum().alias("nw"))
    )
    return per_score.select(pl.len(), pl.col("pw").sum(), pl.col("nw").sum()).collect()


_CLASSES = 10
_GENERATE_MULTICLASS = """
CREATE OR REPLACE TABLE bench_mc AS
SELECT g, yc, w, {scores},
    CAST(CASE WHEN hash(i + 7) % 3 = 0 THEN (yc + hash(i + 8) % 3) % {k} ELSE yc END AS BIGINT) AS yc_pred
FROM (SELECT i, (i % {groups})::BIGINT AS g, (hash(i + 5) % {k})::BIGINT AS yc, (1 + hash(i + 2) % 5)::DOUBLE AS w,
             {raw} FROM range({rows}) t(i))
"""
_MC_LABELS = [
    "accuracy_score",
    "balanced_accuracy_score",
    "matthews_corrcoef",
    "cohen_kappa_score",
    "precision_macro",
    "recall_macro",
    "f1_macro",
    "f1_weighted",
]
_MC_SCORES = ["log_loss", "top_k_accuracy_score", "roc_auc_ovr"]
_DUCKDB_CELLS = "SELECT g, yc, yc_pred, count(*), sum(w) FROM bench_mc GROUP BY ALL"
_DUCKDB_CLASS_SCORES = (
    "SELECT g, yc, count(*), sum(w), "
    + ", ".join(f"sum(w * p{j})" for j in range(_CLASSES))
    + " FROM bench_mc GROUP BY ALL"
)


def _polars_cells(df: pl.DataFrame | pl.LazyFrame) -> pl.DataFrame:
    return df.lazy().group_by("g", "yc", "yc_pred").agg(pl.len(), pl.col("w").sum()).collect()


def _polars_class_scores(df: pl.DataFrame | pl.LazyFrame) -> pl.DataFrame:
    sums = [(pl.col("w") * pl.col(f"p{j}")).sum().alias(f"s{j}") for j in range(_CLASSES)]
    return df.lazy().group_by("g", "yc").agg(pl.len(), pl.col("w").sum(), *sums).collect()


def _sklearn_multiclass(frame: pl.DataFrame, case: str) -> list[float]:
    """What framemetrics replaces: scikit-learn's multiclass metrics looped over the groups."""
    from sklearn import metrics as skm

    values = []
    for part in frame.partition_by("g"):
        y, yhat, w = part["yc"].to_numpy(), part["yc_pred"].to_numpy(), part["w"].to_numpy()
        if case == MULTICLASS_LABELS:
            values += [
                skm.accuracy_score(y, yhat, sample_weight=w),
                skm.balanced_accuracy_score(y, yhat, sample_weight=w),
                skm.matthews_corrcoef(y, yhat, sample_weight=w),
                skm.cohen_kappa_score(y, yhat, sample_weight=w),
                *skm.precision_recall_fscore_support(y, yhat, average="macro", sample_weight=w)[:3],
                skm.f1_score(y, yhat, average="weighted", sample_weight=w),
            ]
        else:
            scores = part.select(f"p{j}" for j in range(_CLASSES)).to_numpy()
            labels = list(range(_CLASSES))
            values += [
                skm.log_loss(y, scores, sample_weight=w, labels=labels),
                skm.top_k_accuracy_score(y, scores, k=2, sample_weight=w, labels=labels),
                skm.roc_auc_score(y, scores, multi_class="ovr", sample_weight=w, labels=labels),
            ]
    return values


MULTICLASS_LABELS = f"multiclass labels ({_CLASSES} classes)"
MULTICLASS_SCORES = f"multiclass scores ({_CLASSES} classes)"
_SCORE = {"y_true": "y", "y_score": "p"}
BINS = 1024
CASES = {
    CONFUSION_CASE: (CONFUSION, {"y_true": "y", "y_score": "p"}),
    "regression (6 metrics)": (REGRESSION, {"y_true": "target", "y_pred": "forecast"}),
    "weighted median": (["median_absolute_error"], {"y_true": "target", "y_pred": "forecast"}),
    "exact AUC": (["roc_auc_score"], _SCORE),
    f"AUC bins={BINS}": (["roc_auc_score"], _SCORE | {"bins": BINS}),
    MULTICLASS_LABELS: (_MC_LABELS, {"y_true": "yc", "y_pred": "yc_pred"}),
    MULTICLASS_SCORES: (
        _MC_SCORES,
        {"y_true": "yc", "y_score": [f"p{j}" for j in range(_CLASSES)], "labels": list(range(_CLASSES))},
    ),
}
# The baseline of each case: the engine's own aggregation of the same rows.
_BASELINES = {
    CONFUSION_CASE: (_DUCKDB_CONFUSION, _polars_confusion, "GROUP BY g"),
    "regression (6 metrics)": (_DUCKDB_REGRESSION, _polars_regression, "GROUP BY g"),
    "weighted median": (_DUCKDB_MEDIAN, _polars_median, "unweighted median GROUP BY g"),
    "exact AUC": (_DUCKDB_SCORES, _polars_scores, "GROUP BY g, score"),
    f"AUC bins={BINS}": (_DUCKDB_CONFUSION, _polars_confusion, "GROUP BY g"),
    MULTICLASS_LABELS: (_DUCKDB_CELLS, _polars_cells, "GROUP BY g, y, y_pred"),
    MULTICLASS_SCORES: (_DUCKDB_CLASS_SCORES, _polars_class_scores, "GROUP BY g, y (score sums)"),
}


def _tasks(case: str, engine: str, con: duckdb.DuckDBPyConnection, source: object) -> dict[str, Callable[[], object]]:
    """framemetrics and its baseline for one case on one engine, over ``source``.

    ``source`` is a DuckDB FROM clause (DuckDB) or a Polars frame (Polars).
    """
    metrics, columns = CASES[case]
    duckdb_sql, polars_baseline, _ = _BASELINES[case]
    table = "bench_mc" if case in (MULTICLASS_LABELS, MULTICLASS_SCORES) else "bench"
    if engine == "duckdb":
        data = con.sql(f"SELECT * FROM {source}")
        baseline = partial(con.sql(duckdb_sql.replace(f"FROM {table}", f"FROM {source}")).fetchall)
    else:
        data = source
        baseline = partial(polars_baseline, source)
    evaluate = fm.evaluate_multiclass if table == "bench_mc" else fm.evaluate
    ours = partial(evaluate, data, sample_weight="w", by="g", metrics=metrics, engine=engine, **columns)
    return {"framemetrics": ours, "baseline": baseline}


def _child(pipe: Connection, case: str, engine: str, kind: str, path: str, repeat: int, memory_limit: str) -> None:
    """In a fresh process: time one task on a Parquet file, send (seconds, peak RSS in MB)."""
    con = duckdb.connect()
    con.execute("SET enable_progress_bar = false")
    con.execute(f"SET memory_limit = '{memory_limit}'")
    source = f"read_parquet('{path}')" if engine == "duckdb" else pl.scan_parquet(path)
    seconds = best_of(repeat, _tasks(case, engine, con, source)[kind])
    pipe.send((seconds, peak_rss_mb()))


def peak_rss_mb() -> float:
    """Peak resident memory of this process in MiB (Linux: VmHWM, reset by exec).

    Examples
    --------
    >>> peak_rss_mb() > 0
    True
    """
    status = Path("/proc/self/status")
    if status.exists():
        for line in status.read_text().splitlines():
            if line.startswith("VmHWM:"):
                return int(line.split()[1]) / 1024
    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024


def _in_child(case: str, engine: str, kind: str, path: str, repeat: int, memory_limit: str) -> tuple[float, float]:
    context = multiprocessing.get_context("spawn")
    receive, send = context.Pipe(duplex=False)
    process = context.Process(target=_child, args=(send, case, engine, kind, path, repeat, memory_limit))
    process.start()
    result = receive.recv()
    process.join()
    return result


def _sklearn_loop(frame: pl.DataFrame) -> list[float]:
    """What framemetrics replaces: scikit-learn's weighted AUC looped over the groups."""
    from sklearn.metrics import roc_auc_score

    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # one-class groups: NaN with a warning each
        return [
            roc_auc_score(part["y"].to_numpy(), part["p"].to_numpy(), sample_weight=part["w"].to_numpy())
            for part in frame.partition_by("g")
        ]


def _polars_ds(frame: pl.DataFrame) -> pl.DataFrame:
    """polars-ds' grouped AUC (unweighted: it takes no weights)."""
    import polars_ds

    return frame.lazy().group_by("g").agg(polars_ds.query_roc_auc("y", "p")).collect()


def _installed(module: str) -> bool:
    return importlib.util.find_spec(module) is not None


def _reference_lines(
    engines: list[str], con: duckdb.DuckDBPyConnection, frame: pl.DataFrame, repeat: int, ours: dict[str, float]
) -> list[dict[str, object]]:
    """Exact AUC against the libraries users loop or call today, where installed (in memory)."""
    lines = []
    if _installed("sklearn"):
        loop = best_of(1, partial(_sklearn_loop, frame))
        for engine in engines:
            lines.append(_line(engine, "exact AUC", "scikit-learn loop", ours[engine], loop))
    if _installed("polars_ds"):
        other = best_of(repeat, partial(_polars_ds, frame))
        for engine in engines:
            data = con.table("bench") if engine == "duckdb" else frame
            run = partial(fm.evaluate, data, y_true="y", y_score="p", by="g", metrics="roc_auc_score", engine=engine)
            lines.append(_line(engine, "exact AUC, unweighted", "polars-ds query_roc_auc", best_of(repeat, run), other))
    return lines


def _line(engine: str, case: str, baseline: str, ours: float, base: float) -> dict[str, object]:
    return {
        "engine": engine,
        "metrics": case,
        "baseline": baseline,
        "framemetrics_s": ours,
        "baseline_s": base,
        "ratio": ours / base,
        "speedup": base / ours,
    }


def run_benchmark(
    rows: int,
    groups: int,
    repeat: int,
    engines: list[str],
    parquet: str | None = None,
    memory_limit: str = "1GB",
    cases: list[str] | None = None,
) -> list[dict[str, object]]:
    """Time framemetrics against the baselines; one dict per line of the report.

    In memory by default. With ``parquet``, the data are written to that file
    and every measurement reads it in a fresh process (DuckDB limited to
    ``memory_limit``, Polars streaming), which also reports its peak RSS.

    Examples
    --------
    ``cases`` picks among :data:`CASES` (default all). In memory, the exact
    AUC is also timed against a scikit-learn loop over the groups and
    polars-ds' ``query_roc_auc``, where installed.

    Examples
    --------
    >>> lines = run_benchmark(10_000, 10, 1, ["duckdb"], cases=["exact AUC"])
    >>> sorted(lines[0])
    ['baseline', 'baseline_s', 'engine', 'framemetrics_s', 'metrics', 'ratio', 'speedup']
    """
    con = duckdb.connect()
    con.execute("SET enable_progress_bar = false")
    con.execute(_GENERATE.format(rows=int(rows), groups=int(groups)))
    multiclass = [c for c in cases or list(CASES) if c in (MULTICLASS_LABELS, MULTICLASS_SCORES)]
    if multiclass:
        raw = ", ".join(f"(1 + hash(i + {10 + j}) % 100)::DOUBLE AS r{j}" for j in range(_CLASSES))
        total = " + ".join(f"r{j}" for j in range(_CLASSES))
        scores = ", ".join(f"r{j} / ({total}) AS p{j}" for j in range(_CLASSES))
        con.execute(_GENERATE_MULTICLASS.format(rows=int(rows), groups=int(groups), k=_CLASSES, raw=raw, scores=scores))
    if parquet:
        con.execute(f"COPY bench TO '{parquet}' (FORMAT parquet)")
        con.execute("DROP TABLE bench")
    frame = con.table("bench").pl() if "polars" in engines and not parquet else None
    if multiclass and parquet:
        raise ValueError("the multiclass cases run in memory only")
    lines, exact = [], {}
    mc_frame = con.table("bench_mc").pl() if multiclass and "polars" in engines else None
    for case in cases or list(CASES):
        for engine in engines:
            peaks: dict[str, object] = {}
            if parquet:
                ours, ours_rss = _in_child(case, engine, "framemetrics", parquet, repeat, memory_limit)
                base, base_rss = _in_child(case, engine, "baseline", parquet, repeat, memory_limit)
                peaks = {"framemetrics_peak_mb": ours_rss, "baseline_peak_mb": base_rss}
            else:
                table, in_polars = ("bench_mc", mc_frame) if case in multiclass else ("bench", frame)
                tasks = _tasks(case, engine, con, table if engine == "duckdb" else in_polars)
                ours, base = best_of(repeat, tasks["framemetrics"]), best_of(repeat, tasks["baseline"])
            lines.append(_line(engine, case, _BASELINES[case][2], ours, base) | peaks)
            if case in multiclass and engine == engines[-1] and _installed("sklearn"):
                mc = mc_frame if mc_frame is not None else con.table("bench_mc").pl()
                loop = best_of(1, partial(_sklearn_multiclass, mc, case))
                timed = {line["engine"]: line["framemetrics_s"] for line in lines if line["metrics"] == case}
                lines += [_line(e, case, "scikit-learn loop", timed[e], loop) for e in engines]
            exact |= {engine: ours} if case == "exact AUC" else {}
    if exact and not parquet:
        frame = frame if frame is not None else con.table("bench").pl()
        lines += _reference_lines(engines, con, frame, repeat, exact)
    return lines


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
        con.execute(_GENERATE.format(rows=int(rows), groups=int(groups)))
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
                lines.append(_line("spark", case, _BASELINES[case][2], timed, best_of(repeat, base)))
                if case == "exact AUC" and mllib_groups:
                    per_group = _mllib_loop(data, mllib_groups)
                    loop = f"MLlib evaluator loop ({mllib_groups} groups timed, x {groups})"
                    lines.append(_line("spark", case, loop, timed, per_group * groups))
        finally:
            spark.stop()
    return lines


MACROS = ["roc_auc_score", "average_precision_score", "ks_statistic"]
MACRO_ROWS = [200_000, 1_000_000]


def run_macro_benchmark(sizes: list[int], repeat: int) -> list[dict[str, object]]:
    """Time the aggregate macros of :data:`MACROS` on one group of each size against ``fm.sql.query``.

    The ratio is macro / query time: the macros sort each group's rows in a
    list and scan it (O(n log n)), where the query sorts and scans them with
    window functions.

    Examples
    --------
    >>> lines = run_macro_benchmark([1_000], 1)
    >>> [line["metrics"] for line in lines][0]
    'fm_roc_auc_score, 1,000 rows'
    """
    con = duckdb.connect()
    con.execute("SET enable_progress_bar = false")
    con.execute(fm.sql.macro_file().read_text())
    lines = []
    for rows in sizes:
        con.execute(_GENERATE.format(rows=int(rows), groups=1))
        for name in MACROS:
            macro = partial(con.sql(f"SELECT g, fm_{name}(y, p, sample_weight := w) FROM bench GROUP BY g").fetchall)
            sql = fm.sql.query([name], table="bench", y_true="y", y_score="p", sample_weight="w", by="g")
            query = partial(con.sql(sql).fetchall)
            case = f"fm_{name}, {rows:,} rows"
            lines.append(_line("duckdb", case, "fm.sql.query", best_of(repeat, macro), best_of(repeat, query)))
    return lines


EXPRESSION_METRICS = ("roc_auc_score", "average_precision_score", "ks_statistic", "log_loss", "f1_score")
EXPRESSION_GROUPS = (1, 100, 20_000)
EXPRESSION_TARGET = 1.5  # a builder within 1.5x of evaluate (issue 37); on one group, not slower than scikit-learn


def run_expression_benchmark(rows: int, group_counts: tuple[int, ...], repeat: int) -> list[dict[str, object]]:
    """Time each builder of :data:`EXPRESSION_METRICS` (``df.group_by("g").agg(fm.<metric>("y", "p"))``, on one
    group ``df.select(...)``) against ``fm.evaluate`` of the same metric on Polars, at each group count; and on
    one group the ROC AUC and average precision builders against scikit-learn on the NumPy arrays.

    Unweighted, scores rounded to 1e-6 (ties), F1 at the threshold 0.5.
    Each line's ``target`` is the ratio to reach (issue 37).

    Examples
    --------
    >>> lines = run_expression_benchmark(2_000, (1, 10), 1)
    >>> lines[0]["metrics"], lines[0]["target"]
    ('fm.roc_auc_score, 2,000 rows x 1 group', 1.5)
    """
    from sklearn import metrics as skm

    lines = []
    con = duckdb.connect()
    con.execute("SET enable_progress_bar = false")
    for groups in group_counts:
        con.execute(_GENERATE.format(rows=int(rows), groups=int(groups)))
        df = con.table("bench").pl().select("g", "y", "p")
        for name in EXPRESSION_METRICS:
            builder = getattr(fm, name)("y", pl.col("p") >= 0.5 if name == "f1_score" else "p")
            if groups == 1:
                expression = partial(df.select, builder)
            else:
                expression = partial(df.group_by("g").agg, builder)
            arguments = {"y_true": "y", "y_score": "p", "metrics": [name], "engine": "polars"}
            evaluate = partial(fm.evaluate, df, by=None if groups == 1 else "g", **arguments)
            expression()  # warm
            case = f"fm.{name}, {rows:,} rows x {groups:,} group{'s' if groups > 1 else ''}"
            line = _line("polars", case, "fm.evaluate", best_of(repeat, expression), best_of(repeat, evaluate))
            lines.append(line | {"target": EXPRESSION_TARGET})
        if groups == 1:
            y, p = df["y"].to_numpy(), df["p"].to_numpy()
            for name, reference in (
                ("roc_auc_score", skm.roc_auc_score),
                ("average_precision_score", skm.average_precision_score),
            ):
                expression = partial(df.select, getattr(fm, name)("y", "p"))
                case = f"fm.{name}, {rows:,} rows x 1 group"
                ours, theirs = best_of(repeat, expression), best_of(repeat, partial(reference, y, p))
                lines.append(_line("polars", case, "scikit-learn, NumPy arrays", ours, theirs) | {"target": 1.0})
    return lines


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
    con.execute(_GENERATE.format(rows=int(rows), groups=int(groups)))
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
            _line(engine, case, "evaluate, overall + per segment", best_of(repeat, report), best_of(repeat, evaluate))
        )
    return lines


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
    con.execute(_GENERATE.format(rows=int(rows), groups=int(groups)))
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
        lines.append(_line(engine, case, baseline, best_of(repeat, delong), best_of(repeat, auc)))

        def point(source: Any = source, engine: str = engine) -> None:
            fm.evaluate(source, metrics=_BOOTSTRAPPED, threshold=0.5, engine=engine, **columns)

        point_s = best_of(repeat, point)
        for row_id, key in ((None, "row position"), ("id", "row_id")):

            def resampled(source: Any = source, engine: str = engine, row_id: str | None = row_id) -> None:
                fm.bootstrap(source, metrics=_BOOTSTRAPPED, threshold=0.5, n_resamples=n_resamples, row_id=row_id,
                             engine=engine, **columns)  # fmt: skip

            case = f"bootstrap, {n_resamples} replicates (F1, log loss), key: {key}"
            lines.append(_line(engine, case, "F1, log loss alone (framemetrics)", best_of(1, resampled), point_s))
    return lines


INTERVAL_ROWS, INTERVAL_GROUPS = 200_000, 20
INTERVAL_TARGET, INTERVAL_MEMORY_MB = 10.0, 1024.0  # ci=0.95 within 10x the call without, 1 GB more at most


def _interval_child(pipe: Connection, engine: str, ci: float | None) -> None:
    """In a fresh process: the default metrics of a binary evaluation, with or without ``ci``: (seconds, MB more)."""
    con = duckdb.connect()
    con.execute("SET enable_progress_bar = false")
    con.execute(_GENERATE.format(rows=INTERVAL_ROWS, groups=INTERVAL_GROUPS))
    source = con.table("bench") if engine == "duckdb" else con.table("bench").pl()
    before = peak_rss_mb()
    run = partial(fm.evaluate, source, y_true="y", y_score="p", by="g", ci=ci, engine=engine)
    run()  # warm: imports, the interval's statement
    pipe.send((best_of(3, run), peak_rss_mb() - before))


def run_interval_benchmark(engines: list[str]) -> list[dict[str, object]]:
    """Time ``fm.evaluate(..., ci=0.95)`` of the default binary metrics against the same call without ``ci``, at
    2e5 rows x 20 groups, each in a fresh process, with the peak memory each adds (issue 37's targets).

    Examples
    --------
    >>> [line["target"] for line in run_interval_benchmark(["polars"])]
    [10.0, 1024.0]
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
        lines.append(_line(engine, case, "the same call without ci", with_ci, plain) | {"target": INTERVAL_TARGET})
        memory = {"framemetrics_s": ci_mb, "baseline_s": plain_mb, "ratio": ci_mb - plain_mb, "speedup": None}
        lines.append(_line(engine, f"{case}: peak MB more", "the same call without ci", 1.0, 1.0) | memory
                     | {"target": INTERVAL_MEMORY_MB})  # fmt: skip
    return lines


MULTICLASS_ROWS = (2_000_000, 10_000_000)
MULTICLASS_TARGET = 1 / 3  # one-vs-rest AUC with log loss at least 3x faster than the scikit-learn loop
REPORT_TARGET = 2.0  # the report within 2x evaluate of its metrics


def run_targets(repeat: int, engines: list[str], multiclass_rows: tuple[int, ...] = MULTICLASS_ROWS) -> list[dict]:
    """Every ratio of issue 37 next to its target, in one run: the Polars builders, ``ci=0.95``, the multiclass
    one-vs-rest AUC against scikit-learn, and the report; ``met`` says whether each holds (ratios: at most the
    target; the interval's memory: at most that many MB more).

    Examples
    --------
    ``python -m framemetrics.bench --targets`` (about 10 minutes on 2 cores).
    """
    lines = run_expression_benchmark(200_000, EXPRESSION_GROUPS, repeat)
    lines += run_interval_benchmark(engines)
    for rows in multiclass_rows:
        measured = run_benchmark(rows, 100, repeat, engines, cases=[MULTICLASS_SCORES])
        for line in measured:
            if line["baseline"] == "scikit-learn loop":
                case = f"multiclass one-vs-rest AUC, log loss, top-2, {rows:,} rows x 10 classes x 100 groups"
                lines.append(line | {"metrics": case, "target": MULTICLASS_TARGET})
    lines += [line | {"target": REPORT_TARGET} for line in run_report_benchmark(1_000_000, 20, repeat, engines)]
    return [line | {"met": line["ratio"] <= line["target"]} for line in lines]


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
