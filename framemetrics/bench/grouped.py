"""Grouped metrics against each engine's own ``GROUP BY`` of the same sums, and the libraries users loop."""

from __future__ import annotations

import multiprocessing
import warnings
from collections.abc import Callable
from functools import partial
from multiprocessing.connection import Connection

import duckdb
import polars as pl

import framemetrics as fm
from framemetrics.bench.common import GENERATE, best_of, installed, peak_rss_mb, result_line

__all__ = ["CASES", "MULTICLASS_LABELS", "MULTICLASS_SCORES", "run_benchmark"]

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


def _reference_lines(
    engines: list[str], con: duckdb.DuckDBPyConnection, frame: pl.DataFrame, repeat: int, ours: dict[str, float]
) -> list[dict[str, object]]:
    """Exact AUC against the libraries users loop or call today, where installed (in memory)."""
    lines = []
    if installed("sklearn"):
        loop = best_of(1, partial(_sklearn_loop, frame))
        for engine in engines:
            lines.append(result_line(engine, "exact AUC", "scikit-learn loop", ours[engine], loop))
    if installed("polars_ds"):
        other = best_of(repeat, partial(_polars_ds, frame))
        for engine in engines:
            data = con.table("bench") if engine == "duckdb" else frame
            run = partial(fm.evaluate, data, y_true="y", y_score="p", by="g", metrics="roc_auc_score", engine=engine)
            lines.append(
                result_line(engine, "exact AUC, unweighted", "polars-ds query_roc_auc", best_of(repeat, run), other)
            )
    return lines


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
    con.execute(GENERATE.format(rows=int(rows), groups=int(groups)))
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
            lines.append(result_line(engine, case, _BASELINES[case][2], ours, base) | peaks)
            if case in multiclass and engine == engines[-1] and installed("sklearn"):
                mc = mc_frame if mc_frame is not None else con.table("bench_mc").pl()
                loop = best_of(1, partial(_sklearn_multiclass, mc, case))
                timed = {line["engine"]: line["framemetrics_s"] for line in lines if line["metrics"] == case}
                lines += [result_line(e, case, "scikit-learn loop", timed[e], loop) for e in engines]
            exact |= {engine: ours} if case == "exact AUC" else {}
    if exact and not parquet:
        frame = frame if frame is not None else con.table("bench").pl()
        lines += _reference_lines(engines, con, frame, repeat, exact)
    return lines
