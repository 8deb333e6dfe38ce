"""The ``framemetrics`` command and its subcommands (click), writing through rich."""

from __future__ import annotations

import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

import click
import duckdb
import polars as pl
from rich.console import Console
from rich.syntax import Syntax

import framemetrics as fm
from framemetrics.cli.detection import detection
from framemetrics.cli.engines import check_memory_limit, engine_connection
from framemetrics.cli.errors import FrameMetricsGroup, reading
from framemetrics.cli.output import FORMATS, choose_format, stdout_console, write_frame
from framemetrics.cli.parsing import CURVE_NAMES, parse_label, parse_labels, parse_metrics, resolve_path
from framemetrics.cli.progress import count_rows, progress
from framemetrics.compilers.sql.dialects import DIALECTS
from framemetrics.core.intervals import CI_METHODS

__all__ = ["cli", "main", "metric_rows"]

EXIT_CODES = """\b
Exit codes: 0 done; 1 the data was rejected (invalid rows, missing or
wrongly typed column, no rows); 2 bad usage (unknown option, metric,
metric parameter or curve); 3 a file could not be found or read."""


def _options(*decorators: Callable[[Any], Any]) -> Callable[[Any], Any]:
    def apply(function: Any) -> Any:
        for decorator in reversed(decorators):
            function = decorator(function)
        return function

    return apply


_COLUMNS = _options(
    click.option("--y-true", required=True, help="Column of true labels."),
    click.option("--weight", "sample_weight", help="Column of non-negative sample weights."),
    click.option("--by", multiple=True, help="Group column; repeat for several (segments are their combinations)."),
    click.option("--pos-label", default="1", show_default=True, help="Label of the positive class."),
    click.option("--neg-label", help="Label of the negative class [default: the other of 0/1]."),
    click.option(
        "--nulls",
        type=click.Choice(["error", "drop"]),
        default="error",
        show_default=True,
        help="Reject rows with nulls, or drop them first.",
    ),
    click.option("--engine", type=click.Choice(["duckdb", "polars"]), default="duckdb", show_default=True),
    click.option("--threads", type=click.IntRange(min=1), help="Threads of the engine [default: one per core]."),
    click.option(
        "--memory-limit",
        callback=lambda _c, _p, v: check_memory_limit(v),
        help="DuckDB's memory limit, e.g. 500MB or 4GB (DuckDB spills to disk beyond it).",
    ),
)
_Y_SCORES = click.option(
    "--y-score",
    multiple=True,
    help="Column of scores of the positive class; multiclass: one per class in --labels order (repeat it), "
    "or one list column.",
)
_LABELS = click.option("--labels", help="Multiclass: the classes, comma-separated, in the order of the score columns.")
_OUTPUT = _options(
    click.option(
        "--format",
        "fmt",
        type=click.Choice(FORMATS),
        help="Output format [default: from --output's suffix; a table on a terminal, else csv].",
    ),
    click.option("--output", "-o", type=click.Path(dir_okay=False), help="Write to this file instead of stdout."),
)


def _consoles() -> tuple[Console, Console]:
    return stdout_console(), Console(stderr=True)


def _common(y_true: str, sample_weight: str | None, by: tuple[str, ...], pos_label: str, neg_label: str | None,
            nulls: str, engine: str, threads: int | None, memory_limit: str | None) -> dict[str, Any]:  # fmt: skip
    """The library's arguments of the shared options; ``_run`` takes the engine settings out."""
    return {
        "y_true": y_true, "sample_weight": sample_weight, "by": list(by) or None,
        "pos_label": parse_label(pos_label), "neg_label": parse_label(neg_label), "nulls": nulls, "engine": engine,
        "threads": threads, "memory_limit": memory_limit,
    }  # fmt: skip


def _score_columns(y_score: tuple[str, ...], labels: str | None, task: str | None) -> str | list[str] | None:
    """One score column as a name; several (one per class) as a list: the multiclass task."""
    if not y_score:
        return None
    if len(y_score) > 1 and task in ("binary", "regression"):
        raise click.UsageError(f"--task {task} reads one --y-score, got {len(y_score)}")
    if len(y_score) > 1 and labels is not None and len(parse_labels(labels) or ()) != len(y_score):
        raise click.UsageError(f"{len(y_score)} --y-score columns but {len(parse_labels(labels) or ())} --labels")
    return y_score[0] if len(y_score) == 1 else list(y_score)


def _run(path: str, kwargs: dict[str, Any], label: str,
         work: Callable[[duckdb.DuckDBPyConnection | None], Any]) -> Any:  # fmt: skip
    """Run ``work`` on ``path`` with the engine's settings, progress on a terminal and one-line errors."""
    _, err = _consoles()
    con = engine_connection(kwargs["engine"], kwargs.pop("threads"), kwargs.pop("memory_limit"), err)
    with reading(path):
        total = count_rows(path)
        with progress(err, label, con=con, total=total):
            return work(con)


@click.group(cls=FrameMetricsGroup, epilog=EXIT_CODES)
@click.version_option(fm.__version__, prog_name="framemetrics")
def cli() -> None:
    """Model-evaluation metrics per segment, computed inside DuckDB or Polars.

    \b
    framemetrics evaluate preds.parquet --y-true y --y-score p --by country
    framemetrics curve roc preds.parquet --y-true y --y-score p -o roc.csv
    framemetrics sql roc_auc_score f1_score --table preds --y-true y --y-score p
    framemetrics report preds.parquet --y-true y --y-score p --by country
    framemetrics demo
    """


@cli.command(epilog=EXIT_CODES)
@click.argument("path")
@_COLUMNS
@_Y_SCORES
@click.option("--y-pred", help="Column of predicted labels (or regression predictions).")
@click.option("--task", type=click.Choice(["binary", "multiclass", "regression"]),
              help="The task [default: inferred from the columns, as fm.evaluate].")  # fmt: skip
@_LABELS
@click.option("--metrics", "-m", multiple=True,
              help="Metrics, comma-separated or repeated; parameters as fbeta_score(beta=2).")  # fmt: skip
@click.option("--threshold", type=float, default=0.5, show_default=True,
              help="Labels are y_score >= threshold when --y-pred is not given.")  # fmt: skip
@click.option("--zero-division", type=click.Choice(["0", "1"]), help="Value of undefined ratios [default: null].")
@click.option("--bins", type=click.IntRange(min=1), help="Approximate ranking metrics on bins of 1/BINS.")
@click.option("--ci", type=click.FloatRange(0, 1, min_open=True, max_open=True), metavar="LEVEL",
              help="Add <metric>_low and <metric>_high at this confidence level, e.g. 0.95 (README: Uncertainty).")  # fmt: skip
@click.option("--ci-method", type=click.Choice(list(CI_METHODS)),
              help="The interval's method where it applies [default: DeLong for ROC AUC, Wilson for proportions, "
                   "normal for the means (log loss, Brier, MSE...), delta for F1/F-beta/Jaccard, logit for average "
                   "precision, the Poisson bootstrap otherwise; bca: its BCa interval, for the metrics of sums].")  # fmt: skip
@click.option("--n-resamples", type=click.IntRange(2, 10_000), default=1000, show_default=True,
              help="The bootstrap's replicates.")  # fmt: skip
@click.option("--seed", type=int, default=0, show_default=True, help="The bootstrap's seed.")
@click.option("--row-id", help="The bootstrap's integer row key column [default: the row's position].")
@_OUTPUT
def evaluate(path: str, y_score: tuple[str, ...], y_pred: str | None, task: str | None, labels: str | None,
             metrics: tuple[str, ...], threshold: float, zero_division: str | None, bins: int | None,
             ci: float | None, ci_method: str | None, n_resamples: int, seed: int, row_id: str | None,
             fmt: str | None, output: str | None, **columns: Any) -> None:  # fmt: skip
    """Metrics per segment of PATH (a Parquet or CSV file, a glob, or a folder of Parquet files).

    \b
    Examples:
      framemetrics evaluate preds.parquet --y-true y --y-score p --by country
      framemetrics evaluate 'exports/*.parquet' --y-true y --y-score p \\
          -m roc_auc_score,log_loss,'fbeta_score(beta=2)' --by country --by month -o metrics.csv
      framemetrics evaluate bikes.csv --y-true n --y-pred pred -m r2_score,mean_absolute_error
      framemetrics evaluate preds.parquet --y-true y --y-score p -m roc_auc_score,recall_score --ci 0.95
      framemetrics evaluate animals.parquet --y-true species --y-score p_cat --y-score p_dog \\
          --y-score p_pig --labels cat,dog,pig -m f1_macro,log_loss,roc_auc_ovr

    The task (binary, multiclass or regression) is inferred as by
    fm.evaluate, or given with --task. Default metrics, per task: binary
    with --y-score, accuracy, precision, recall and F1 at --threshold, ROC
    AUC, average precision, log loss and Brier score; binary with --y-pred
    only, accuracy, precision, recall, F1 and MCC; multiclass, accuracy,
    macro and weighted F1 (with scores also log loss and one-vs-rest ROC
    AUC); regression, RMSE, MAE and R². `framemetrics metrics` lists every
    metric.
    """
    out, _ = _consoles()
    fmt = choose_format(fmt, output, out.is_terminal)
    if not y_score and y_pred is None:
        raise click.UsageError("pass --y-score or --y-pred")
    path = resolve_path(path)
    kwargs = _common(**columns) | {
        "y_score": _score_columns(y_score, labels, task), "y_pred": y_pred, "task": task,
        "labels": parse_labels(labels), "metrics": parse_metrics(metrics), "threshold": threshold, "bins": bins,
        "zero_division": None if zero_division is None else float(zero_division),
    }  # fmt: skip
    if ci is not None:
        kwargs |= {"ci": ci, "ci_method": ci_method, "n_resamples": n_resamples, "seed": seed, "row_id": row_id}
    elif ci_method is not None:
        raise click.UsageError("--ci-method needs --ci")
    result = _run(path, kwargs, "Evaluating", lambda con: fm.evaluate(path, con=con, **kwargs))
    write_frame(result, fmt, output, out)


CALIBRATION = ("calibration", "calibration_curve")  # the kinds of curve of fm.calibration_curve


@cli.command(epilog=EXIT_CODES)
@click.argument("kind", metavar="{roc|pr|det|calibration}", type=click.Choice([*sorted(CURVE_NAMES), *CALIBRATION]))
@click.argument("path")
@_COLUMNS
@click.option("--y-score", required=True, multiple=True,
              help="Column of scores, higher meaning more likely positive; multiclass: one per class in --labels "
                   "order (repeat it), or one list column: a one-vs-rest curve per class.")  # fmt: skip
@_LABELS
@click.option("--max-points", type=click.IntRange(min=4),
              help="Thin each curve to at most this many points, faithful to a plot [default: all].")  # fmt: skip
@click.option("--drop-intermediate/--keep-intermediate", default=None,
              help="Drop collinear points as scikit-learn [default: its default for the curve].")  # fmt: skip
@click.option("--n-bins", type=click.IntRange(min=1), help="Calibration: equal-width bins of [0, 1] [default: 10].")
@_OUTPUT
def curve(kind: str, path: str, y_score: tuple[str, ...], labels: str | None, max_points: int | None,
          drop_intermediate: bool | None, n_bins: int | None, fmt: str | None, output: str | None,
          **columns: Any) -> None:  # fmt: skip
    """The points of a ROC, precision-recall, DET or calibration curve per segment (and class) of PATH.

    A calibration curve (fm.calibration_curve) has a row per segment and bin
    holding rows: its bounds, rows, weights of positives and negatives, the
    fraction of positives (prob_true) and the mean probability (prob_pred).

    \b
    Examples:
      framemetrics curve roc preds.parquet --y-true y --y-score p --by country -o roc.csv
      framemetrics curve pr preds.parquet --y-true y --y-score p --max-points 400 --format json
      framemetrics curve calibration preds.parquet --y-true y --y-score p --n-bins 20 --by country
      framemetrics curve roc animals.parquet --y-true species --y-score p_cat --y-score p_dog \\
          --y-score p_pig --labels cat,dog,pig    # one-vs-rest: a curve per class
    """
    out, _ = _consoles()
    fmt = choose_format(fmt, output, out.is_terminal)
    path = resolve_path(path)
    kwargs = _common(**columns)
    if kind in CALIBRATION:
        for option, value in (("--max-points", max_points), ("--drop-intermediate", drop_intermediate),
                              ("--labels", labels)):  # fmt: skip
            if value is not None:
                raise click.UsageError(f"{option} does not apply to a calibration curve")
        kwargs |= {"y_score": _score_columns(y_score, None, "binary"), "n_bins": 10 if n_bins is None else n_bins}
        result = _run(path, kwargs, "Computing the curve", lambda con: fm.calibration_curve(path, con=con, **kwargs))
    else:
        if n_bins is not None:
            raise click.UsageError("--n-bins applies to a calibration curve")
        kwargs |= {
            "y_score": _score_columns(y_score, labels, None), "labels": parse_labels(labels), "max_points": max_points,
            "drop_intermediate": drop_intermediate,
        }  # fmt: skip
        name = CURVE_NAMES[kind]
        result = _run(path, kwargs, "Computing the curve",
                      lambda con: fm.curve_table(name, path, con=con, **kwargs))  # fmt: skip
    write_frame(result, fmt, output, out)


@cli.command(epilog=EXIT_CODES)
@click.argument("metrics", nargs=-1, required=True)
@click.option("--table", required=True, help="Table or view the SQL reads: [catalog.][schema.]table, each part quoted.")
@click.option("--y-true", required=True, help="Column of true labels.")
@click.option("--y-score", help="Column of scores or probabilities.")
@click.option("--y-pred", help="Column of predicted labels.")
@click.option("--weight", "sample_weight", help="Column of sample weights.")
@click.option("--by", multiple=True, help="Group column; repeat for several.")
@click.option("--threshold", type=float, default=0.5, show_default=True)
@click.option("--pos-label", default="1", show_default=True)
@click.option("--neg-label")
@click.option("--nulls", type=click.Choice(["error", "drop"]), default="error", show_default=True)
@click.option("--dialect", type=click.Choice(list(DIALECTS)), default="duckdb", show_default=True,
              help="SQL dialect of the engine that runs it.")  # fmt: skip
@click.option("--output", "-o", type=click.Path(dir_okay=False), help="Write to this file instead of stdout.")
def sql(metrics: tuple[str, ...], table: str, y_true: str, y_score: str | None, y_pred: str | None,
        sample_weight: str | None, by: tuple[str, ...], threshold: float, pos_label: str, neg_label: str | None,
        nulls: str, dialect: str, output: str | None) -> None:  # fmt: skip
    """Print the SQL computing METRICS per segment, to run in DuckDB or a warehouse (--dialect).

    METRICS are metric names (with parameters as fbeta_score(beta=2)), or
    one curve: roc, pr, det or calibration.

    \b
    Examples:
      framemetrics sql roc_auc_score log_loss --table preds --y-true y --y-score p --by country
      framemetrics sql roc --table preds --y-true y --y-score p > roc.sql
      framemetrics sql roc_auc_score --dialect spark --table analytics.preds --y-true y --y-score p
    """
    labels = {"pos_label": parse_label(pos_label), "neg_label": parse_label(neg_label)}
    columns = {"table": table, "y_true": y_true, "sample_weight": sample_weight, "by": list(by) or None, "nulls": nulls,
                   "dialect": dialect}  # fmt: skip
    curves = [m for m in metrics if m in CURVE_NAMES or m == "calibration"]
    if curves and len(metrics) > 1:
        raise click.UsageError("a curve is printed alone: pass one curve, or metrics only")
    if curves and y_score is None:
        raise click.UsageError(f"{curves[0]} needs --y-score")
    try:
        if metrics[0] == "calibration":
            text = fm.sql.calibration_curve(y_score=y_score, **columns, **labels)
        elif curves:
            text = fm.sql.curve(CURVE_NAMES[metrics[0]], y_score=y_score, **columns, **labels)
        else:
            chosen = parse_metrics(metrics, hint="'METRICS'")
            text = fm.sql.query(chosen, y_score=y_score, y_pred=y_pred, threshold=threshold, **columns, **labels)
    except ValueError as error:
        raise click.UsageError(str(error)) from error
    text = text.rstrip() + ";\n"
    out, _ = _consoles()
    if output:
        Path(output).write_text(text, encoding="utf-8")
    elif out.is_terminal:
        out.print(Syntax(text, "sql", theme="ansi_dark", word_wrap=True))
    else:
        click.echo(text, nl=False)


@cli.command(epilog=EXIT_CODES)
@click.argument("path")
@_COLUMNS
@_Y_SCORES
@click.option("--y-pred", help="Multiclass: column of predicted classes [default: the scores' argmax].")
@_LABELS
@click.option("--task", type=click.Choice(["binary", "multiclass"]), help="[default: inferred, as evaluate]")
@click.option("--metrics", "-m", multiple=True, help="Metrics of the tables [default: the report's set].")
@click.option("--threshold", type=float, default=0.5, show_default=True)
@click.option("--output", "-o", type=click.Path(dir_okay=False), default="report.html", show_default=True)
@click.option("--title", help="Heading of the report.")
@click.option("--max-points", type=click.IntRange(min=4), default=1000, show_default=True,
              help="Points per curve at most.")  # fmt: skip
@click.option("--max-segments", type=click.IntRange(min=0), default=8, show_default=True,
              help="Segments drawn in the plots (the largest).")  # fmt: skip
def report(path: str, y_score: tuple[str, ...], y_pred: str | None, labels: str | None, task: str | None,
           metrics: tuple[str, ...], threshold: float, output: str, title: str | None, max_points: int,
           max_segments: int, **columns: Any) -> None:  # fmt: skip
    """Write the evaluation report of PATH: one self-contained HTML file.

    Binary: overall and per-segment metrics (sortable, worse segments
    tinted), ROC and precision-recall curves per segment, calibration and
    score distributions. Multiclass: the metrics, the class table,
    confusion matrices and one-vs-rest curves per class. With the data
    size, time taken and version.

    \b
    Examples:
      framemetrics report preds.parquet --y-true y --y-score p --by country -o report.html
      framemetrics report animals.parquet --y-true species --y-score p_cat --y-score p_dog \\
          --y-score p_pig --labels cat,dog,pig --by zoo
    """
    if not y_score and y_pred is None:
        raise click.UsageError("pass --y-score (or, multiclass, --y-pred)")
    path = resolve_path(path)
    kwargs = _common(**columns) | {
        "y_score": _score_columns(y_score, labels, task), "y_pred": y_pred, "labels": parse_labels(labels),
        "task": task, "metrics": parse_metrics(metrics), "threshold": threshold, "output": output, "title": title,
        "max_points": max_points, "max_segments": max_segments,
    }  # fmt: skip
    started = time.perf_counter()
    written = _run(path, kwargs, "Writing the report",
                   lambda con: fm.evaluation_report(path, con=con, **kwargs))  # fmt: skip
    size = written.stat().st_size / 1024
    click.echo(f"wrote {written} ({size:.0f} KB) in {time.perf_counter() - started:.1f} s", err=True)


cli.add_command(detection)


_READS = {
    ("binary", "classification"): "y_pred, or y_score >= --threshold",
    ("binary", "probability"): "y_score (a probability)",
    ("binary", "ranking"): "y_score",
    ("regression", "regression"): "y_pred (a value)",
    ("multiclass", "classification"): "y_pred, or the argmax of y_score (a column per class)",
    ("multiclass", "probability"): "y_score: a probability column per class",
    ("multiclass", "ranking"): "y_score: a column per class",
}


def metric_rows(task: str | None = None) -> pl.DataFrame:
    """Every metric of every task (or of ``task``): name, task, family, what it reads, weights, parameters.

    A name may be that of a binary and of a multiclass metric (``accuracy_score``): one row each.

    Examples
    --------
    >>> rows = metric_rows()
    >>> rows.columns
    ['metric', 'task', 'family', 'reads', 'weights', 'parameters']
    >>> rows.filter(pl.col("metric") == "roc_auc_ovr").row(0)[1:4]
    ('multiclass', 'ranking', 'y_score: a column per class')
    """
    metrics = [*fm.REGISTRY.values(), *fm.MULTICLASS.values()]
    rows = [
        (m.name, m.task, m.family, _READS[m.task, m.family], m.weighted,
         ", ".join(f"{name}={value!r}" for name, value in m.parameters.items()))
        for m in metrics
        if task is None or m.task == task
    ]  # fmt: skip
    return pl.DataFrame(rows, schema=["metric", "task", "family", "reads", "weights", "parameters"], orient="row")


@cli.command(name="metrics")
@click.option("--task", type=click.Choice(["binary", "multiclass", "regression"]), help="Only this task's metrics.")
@_OUTPUT
def list_metrics(task: str | None, fmt: str | None, output: str | None) -> None:
    """List every metric of every task: its name, task, family, what it reads, weights, parameters.

    Pass a metric's parameters as -m 'fbeta_score(beta=2)' (evaluate).

    \b
    Examples:
      framemetrics metrics
      framemetrics metrics --task multiclass --format markdown
    """
    out, _ = _consoles()
    write_frame(metric_rows(task), choose_format(fmt, output, out.is_terminal), output, out)


@cli.command()
@click.option("--output", "-o", type=click.Path(dir_okay=False), default="framemetrics-demo.html", show_default=True,
              help="Where to write the demo's report.")  # fmt: skip
def demo(output: str) -> None:
    """Evaluate the shipped sample predictions per segment on both engines, and write a report."""
    from framemetrics.demo import run_demo

    run_demo(output, stdout_console())


def main() -> None:
    """Entry point of the ``framemetrics`` console script."""
    cli(prog_name="framemetrics")
