"""The ``framemetrics`` command: every subcommand on the sample and on a generated Parquet file,
its output formats, and one-line errors with their exit codes for bad input."""

from __future__ import annotations

import io
import json
import os
import re
import shlex
from pathlib import Path

import duckdb
import polars as pl
import pytest
from click.testing import CliRunner
from polars.testing import assert_frame_equal
from predictions import write_predictions
from rich.console import Console

import framemetrics as fm
from framemetrics.cli import cli
from framemetrics.cli.output import write_frame
from framemetrics.cli.progress import progress
from framemetrics.demo import run_demo, sample_path

SAMPLE = str(sample_path("default_predictions.csv"))
CREDIT = ["--y-true", "default", "--y-score", "p_default"]


@pytest.fixture(scope="module")
def parquet(tmp_path_factory: pytest.TempPathFactory) -> str:
    """A generated Parquet file (20 000 rows; the 10**7-row run is in the issue's closing note)."""
    path = str(tmp_path_factory.mktemp("cli") / "predictions.parquet")
    write_predictions(path, 20_000)
    return path


def invoke(*args: str) -> tuple[int, str, str]:
    result = CliRunner().invoke(cli, list(args), catch_exceptions=False)
    return result.exit_code, result.stdout, result.stderr


@pytest.mark.parametrize("engine", ["duckdb", "polars"])
def test_evaluate_writes_csv_in_a_pipe_equal_to_the_library(engine, parquet):
    metrics = "roc_auc_score,fbeta_score(beta=2)"
    code, out, err = invoke("evaluate", parquet, "--y-true", "y", "--y-score", "p", "--weight", "w",
                            "--by", "country", "-m", metrics, "--engine", engine)  # fmt: skip
    assert (code, err) == (0, "")  # quiet in a pipe: no progress, no timing
    got = pl.read_csv(io.StringIO(out))
    want = fm.evaluate(parquet, y_true="y", y_score="p", sample_weight="w", by="country",
                       metrics={"roc_auc_score": {}, "fbeta_score": {"beta": 2}})  # fmt: skip
    assert_frame_equal(got, want, check_dtypes=False, rel_tol=1e-12)


@pytest.mark.parametrize("engine", ["duckdb", "polars"])
def test_evaluate_takes_every_classification_metric_of_the_registry(engine, parquet):
    """A metric's registry entry is all the command needs: every confusion metric, weighted, per segment."""
    names = [name for name, metric in fm.REGISTRY.items() if metric.family == "classification"]
    code, out, err = invoke("evaluate", parquet, "--y-true", "y", "--y-score", "p", "--weight", "w",
                            "--by", "country", "-m", ",".join(names), "--engine", engine)  # fmt: skip
    assert (code, err) == (0, "")
    want = fm.evaluate(parquet, y_true="y", y_score="p", sample_weight="w", by="country", metrics=names)
    assert_frame_equal(pl.read_csv(io.StringIO(out)), want, check_dtypes=False, rel_tol=1e-12)


# Polars alone: the CLI hands --ci and --engine to the library alike for both engines (--engine duckdb: the tests
# above), and the intervals are the same on DuckDB (test_conformance.py: DeLong, Wilson, Clopper-Pearson, the
# bootstrap, BCa).
@pytest.mark.parametrize("engine", ["polars"])
def test_evaluate_ci_adds_the_intervals_of_the_library(engine):
    metrics = "roc_auc_score,recall_score,precision_score"
    code, out, err = invoke("evaluate", SAMPLE, *CREDIT, "--by", "student", "-m", metrics, "--ci", "0.9",
                            "--engine", engine)  # fmt: skip
    assert (code, err) == (0, "")
    want = fm.evaluate(SAMPLE, y_true="default", y_score="p_default", by="student", ci=0.9,
                       metrics=["roc_auc_score", "recall_score", "precision_score"])  # fmt: skip
    assert want.columns[2:5] == ["roc_auc_score", "roc_auc_score_low", "roc_auc_score_high"]
    assert_frame_equal(pl.read_csv(io.StringIO(out)), want, check_dtypes=False, rel_tol=1e-12)
    code, out, err = invoke("evaluate", SAMPLE, *CREDIT, "--by", "student", "-m", "f1_score,log_loss", "--ci", "0.9",
                            "--n-resamples", "50", "--seed", "3", "--engine", engine)  # fmt: skip
    want = fm.evaluate(SAMPLE, y_true="default", y_score="p_default", by="student", metrics=["f1_score", "log_loss"],
                       ci=0.9, n_resamples=50, seed=3)  # fmt: skip (F1's delta interval, log loss's normal one)
    assert code == 0 and want.columns[2:5] == ["f1_score", "f1_score_low", "f1_score_high"]
    assert_frame_equal(pl.read_csv(io.StringIO(out)), want, check_dtypes=False, rel_tol=1e-12)
    for method, metric in (("delta", "f1_score"), ("logit", "average_precision_score"), ("normal", "log_loss"),
                           ("bootstrap", "f1_score")):  # fmt: skip
        code, out, err = invoke("evaluate", SAMPLE, *CREDIT, "--by", "student", "-m", metric, "--ci", "0.9",
                                "--ci-method", method, "--n-resamples", "50", "--engine", engine)  # fmt: skip
        want = fm.evaluate(SAMPLE, y_true="default", y_score="p_default", by="student", metrics=[metric], ci=0.9,
                           ci_method=method, n_resamples=50)  # fmt: skip
        assert code == 0, err
        assert_frame_equal(pl.read_csv(io.StringIO(out)), want, check_dtypes=False, rel_tol=1e-12)
    code, out, err = invoke("evaluate", SAMPLE, *CREDIT, "--by", "student", "-m", "recall_score", "--ci", "0.9",
                            "--ci-method", "clopper-pearson", "--engine", engine)  # fmt: skip
    want = fm.evaluate(SAMPLE, y_true="default", y_score="p_default", by="student", metrics=["recall_score"], ci=0.9,
                       ci_method="clopper-pearson")  # fmt: skip
    assert code == 0
    assert_frame_equal(pl.read_csv(io.StringIO(out)), want, check_dtypes=False, rel_tol=1e-12)
    code, out, err = invoke("evaluate", SAMPLE, *CREDIT, "--by", "student", "-m", "f1_score,log_loss", "--ci", "0.9",
                            "--ci-method", "bca", "--n-resamples", "50", "--engine", engine)  # fmt: skip
    want = fm.bootstrap(SAMPLE, y_true="default", y_score="p_default", by="student", metrics=["f1_score", "log_loss"],
                        level=0.9, n_resamples=50, method="bca")  # fmt: skip
    assert code == 0
    assert_frame_equal(pl.read_csv(io.StringIO(out)), want, check_dtypes=False, rel_tol=1e-12)
    code, _, err = invoke("evaluate", SAMPLE, *CREDIT, "-m", "recall_score", "--ci-method", "wilson")
    assert code == 2 and "--ci-method needs --ci" in err
    code, _, err = invoke("evaluate", SAMPLE, *CREDIT, "-m", "recall_score", "--ci", "95")
    assert code == 2 and "95" in err


def test_evaluate_ci_of_multiclass_metrics_is_the_bootstrap(tmp_path):
    df = pl.DataFrame({"g": ["a", "b"] * 20, "y": ["cat", "dog", "pig", "dog"] * 10,
                       "yhat": ["cat", "dog", "dog", "pig", "cat"] * 8, "id": list(range(40))})  # fmt: skip
    path = str(tmp_path / "animals.parquet")
    df.write_parquet(path)
    code, out, err = invoke("evaluate", path, "--y-true", "y", "--y-pred", "yhat", "--task", "multiclass", "--by", "g",
                            "-m", "accuracy_score,f1_macro", "--ci", "0.9", "--n-resamples", "40", "--row-id", "id")  # fmt: skip
    assert (code, err) == (0, "")
    want = fm.evaluate_multiclass(df, y_true="y", y_pred="yhat", by="g", metrics=["accuracy_score", "f1_macro"],
                                  ci=0.9, n_resamples=40, row_id="id")  # fmt: skip
    assert want.columns[2:5] == ["accuracy_score", "accuracy_score_low", "accuracy_score_high"]
    assert_frame_equal(pl.read_csv(io.StringIO(out)), want, check_dtypes=False, rel_tol=1e-12)


@pytest.mark.parametrize("fmt", ["json", "parquet", "markdown", "table", "csv"])
def test_every_output_format_holds_the_same_numbers(fmt, tmp_path):
    suffix = {"markdown": "md", "table": "txt"}.get(fmt, fmt)
    output = str(tmp_path / f"out.{suffix}")
    code, out, _ = invoke("evaluate", SAMPLE, *CREDIT, "--by", "student", "--format", fmt, "-o", output)
    assert code == 0 and out == ""
    want = fm.evaluate(SAMPLE, y_true="default", y_score="p_default", by="student")  # the same defaults
    text = "" if fmt == "parquet" else Path(output).read_text(encoding="utf-8")
    if fmt == "json":
        assert_frame_equal(pl.DataFrame(json.loads(text)), want, check_dtypes=False)
    elif fmt == "parquet":
        assert_frame_equal(pl.read_parquet(output), want)
    elif fmt == "csv":
        assert_frame_equal(pl.read_csv(output), want, check_dtypes=False)
    else:
        auc = want.filter(pl.col("student") == "Yes")["roc_auc_score"].item()
        shown = f"{auc:.4f}" if fmt == "table" else f"{auc:.6g}"  # the table: four significant digits
        assert shown in text and "roc_auc_score" in text
        assert fmt != "markdown" or text.startswith("| student")


def test_the_format_follows_the_output_suffix(tmp_path):
    code, _, _ = invoke("evaluate", SAMPLE, *CREDIT, "-o", str(tmp_path / "m.parquet"))
    assert code == 0 and pl.read_parquet(tmp_path / "m.parquet").height == 1


@pytest.mark.parametrize("kind", ["roc", "pr", "det"])
def test_curve_prints_the_points_per_segment(kind, parquet):
    code, out, _ = invoke("curve", kind, parquet, "--y-true", "y", "--y-score", "p", "--by", "country",
                          "--max-points", "40")  # fmt: skip
    assert code == 0
    got = pl.read_csv(io.StringIO(out), infer_schema_length=None)
    name = {"roc": "roc_curve", "pr": "precision_recall_curve", "det": "det_curve"}[kind]
    want = fm.curve_table(name, parquet, y_true="y", y_score="p", by="country", max_points=40, engine="duckdb")
    assert_frame_equal(got, want, check_dtypes=False)
    assert got.group_by("country").len()["len"].max() <= 40


@pytest.mark.parametrize("engine", ["duckdb", "polars"])
def test_curve_prints_the_calibration_curve(engine, parquet):
    """`curve calibration` (as `sql calibration`): fm.calibration_curve's rows, its --n-bins, per segment."""
    code, out, err = invoke("curve", "calibration", parquet, "--y-true", "y", "--y-score", "p", "--weight", "w",
                            "--by", "country", "--n-bins", "7", "--engine", engine)  # fmt: skip
    assert (code, err) == (0, "")
    want = fm.calibration_curve(parquet, y_true="y", y_score="p", sample_weight="w", by="country", n_bins=7)
    assert_frame_equal(pl.read_csv(io.StringIO(out)), want, check_dtypes=False, rel_tol=1e-12)
    code, out, _ = invoke("curve", "calibration", SAMPLE, *CREDIT, "--format", "json", "--engine", engine)
    want = fm.calibration_curve(SAMPLE, y_true="default", y_score="p_default")
    assert code == 0
    assert_frame_equal(pl.read_json(io.StringIO(out)), want, check_dtypes=False, rel_tol=1e-12)
    code, _, err = invoke("curve", "calibration", parquet, "--y-true", "y", "--y-score", "p", "--max-points", "9")
    assert code == 2 and "--max-points does not apply to a calibration curve" in err
    code, _, err = invoke("curve", "roc", parquet, "--y-true", "y", "--y-score", "p", "--n-bins", "9")
    assert code == 2 and "--n-bins applies to a calibration curve" in err


def test_sql_prints_a_statement_that_duckdb_runs(parquet):
    code, out, _ = invoke("sql", "roc_auc_score", "log_loss", "--table", "preds", "--y-true", "y", "--y-score", "p",
                          "--by", "country")  # fmt: skip
    assert code == 0 and out.rstrip().endswith(";")
    con = duckdb.connect()
    con.execute(f"CREATE VIEW preds AS FROM read_parquet('{parquet}')")
    got = con.sql(out.rstrip().rstrip(";")).pl()
    want = fm.evaluate(parquet, y_true="y", y_score="p", by="country", metrics=["roc_auc_score", "log_loss"])
    assert_frame_equal(got, want, check_dtypes=False, rel_tol=1e-12)


@pytest.mark.parametrize("dialect", ["spark", "postgres", "clickhouse", "datafusion", "bigquery", "snowflake"])
def test_sql_writes_each_dialect(dialect):
    """The text of fm.sql with dialect= (tests/test_warehouses.py runs it on the engines)."""
    code, out, _ = invoke("sql", "roc_auc_score", "f1_score", "--dialect", dialect, "--table", "analytics.preds",
                          "--y-true", "y", "--y-score", "p", "--by", "country")  # fmt: skip
    want = fm.sql.query(["roc_auc_score", "f1_score"], table="analytics.preds", y_true="y", y_score="p",
                        by="country", dialect=dialect)  # fmt: skip
    assert code == 0 and out == want.rstrip() + ";\n"


@pytest.mark.parametrize("curve", ["roc", "pr", "calibration"])
def test_sql_prints_a_curve(curve, parquet):
    code, out, _ = invoke("sql", curve, "--table", "preds", "--y-true", "y", "--y-score", "p")
    assert code == 0
    con = duckdb.connect()
    con.execute(f"CREATE VIEW preds AS FROM read_parquet('{parquet}')")
    assert con.sql(out.rstrip().rstrip(";")).pl().height > 1


def test_report_writes_a_small_self_contained_file(parquet, tmp_path):
    output = tmp_path / "report.html"
    code, _, err = invoke("report", parquet, "--y-true", "y", "--y-score", "p", "--by", "country", "--threshold", "0.3",
                          "-o", str(output))  # fmt: skip
    assert code == 0 and f"wrote {output}" in err
    page = output.read_text()
    assert "Decision threshold:</span> y_score ≥ 0.3" in page  # the header states it
    bars = page.count('<svg class="bar"')  # the intervals' error bars in the tables
    assert page.count("<svg") - bars == 4 and bars > 20 and "country_19" in page
    assert not re.search(r"""(src|href)=["']?(https?:)?//""", page)  # nothing fetched from a network
    assert output.stat().st_size < 600_000


def test_demo_prints_every_segment_and_writes_the_report(tmp_path):
    code, out, _ = invoke("demo", "-o", str(tmp_path / "demo.html"))
    assert code == 0
    for text in ("per student status", "1500+", "light rain/snow", "Polars agrees", "matthews_corrcoef", "Report:"):
        assert text in out
    assert (tmp_path / "demo.html").exists()


def test_metrics_lists_every_task_and_what_each_reads():
    """Binary and regression (fm.REGISTRY) and multiclass (fm.MULTICLASS) metrics, each with its task."""
    code, out, _ = invoke("metrics", "--format", "csv")
    listed = pl.read_csv(io.StringIO(out))
    assert code == 0 and listed.height == len(fm.REGISTRY) + len(fm.MULTICLASS) > 80
    assert listed.select("metric", "task").rows() == [
        *((name, metric.task) for name, metric in fm.REGISTRY.items()),
        *((name, "multiclass") for name in fm.MULTICLASS),
    ]
    reads = dict(zip(listed["metric"] + "/" + listed["task"], listed["reads"], strict=True))
    assert reads["f1_score/binary"] == "y_pred, or y_score >= --threshold"
    assert reads["f1_macro/multiclass"] == "y_pred, or the argmax of y_score (a column per class)"
    assert reads["log_loss/multiclass"] == "y_score: a probability column per class"
    assert reads["r2_score/regression"] == "y_pred (a value)"
    assert listed.filter(pl.col("metric") == "fbeta_score")["parameters"].to_list() == ["beta=1.0, zero_division=None"]
    code, out, _ = invoke("metrics", "--task", "multiclass", "--format", "csv")
    assert code == 0 and pl.read_csv(io.StringIO(out))["metric"].to_list() == list(fm.MULTICLASS)


@pytest.mark.parametrize("command", ["evaluate", "curve", "sql", "report", "demo", "metrics"])
def test_every_command_has_help_with_examples(command):
    code, out, _ = invoke(command, "--help")
    assert code == 0 and "Usage: " in out
    assert command in ("demo", "metrics") or "Examples:" in out


def _examples(help_text: str) -> list[str]:
    """The commands of a help text's examples: each line of a block, joined on its backslash continuations.

    Every line of an example is a command or the continuation of one; a run of spaces inside a line is a
    lost continuation (click rewrapped the paragraph).
    """
    commands, lines = [], help_text.splitlines()
    for i, line in enumerate(lines):
        text = line.strip()
        continued = i > 0 and lines[i - 1].rstrip().endswith("\\")
        if continued:
            commands[-1] = commands[-1].rstrip("\\ ") + " " + text
        elif text.startswith("framemetrics ") and not line.startswith("Usage"):
            commands.append(text)
    for command in commands:
        assert not re.search(r"\S {3,}\S", command.split("  #")[0]), f"a lost continuation: {command}"
    return commands


def _example_files() -> None:
    """The files the help's examples read, in the working folder."""
    frame = pl.DataFrame({"y": [0, 1] * 50, "p": [(i % 10) / 10 + 0.05 for i in range(100)],
                          "country": ["fr", "de", "it", "es"] * 25, "month": [1, 2, 3, 4, 5] * 20})  # fmt: skip
    frame.write_parquet("preds.parquet")
    Path("exports").mkdir()
    frame.head(50).write_parquet("exports/a.parquet")
    frame.tail(50).write_parquet("exports/b.parquet")
    pl.DataFrame({"n": [3.0, 5.0, 8.0, 2.0], "pred": [2.5, 5.5, 7.0, 2.0]}).write_csv("bikes.csv")
    animals = pl.DataFrame({"species": ["cat", "dog", "pig"] * 20, "zoo": ["north", "south"] * 30,
                            "p_cat": [0.6, 0.2, 0.1] * 20, "p_dog": [0.3, 0.5, 0.3] * 20})  # fmt: skip
    animals.with_columns(p_pig=1 - pl.col("p_cat") - pl.col("p_dog")).write_parquet("animals.parquet")


@pytest.mark.parametrize("command", [[], ["evaluate"], ["curve"], ["sql"], ["report"], ["metrics"]])
def test_the_help_examples_paste_and_run(command, tmp_path, monkeypatch):
    """Each example of the help, its continuation lines joined as a shell would, runs (exit code 0) on small
    files of the columns it names; a shell's `> file` is left to the shell."""
    code, out, _ = invoke(*command, "--help")
    commands = _examples(out)
    assert code == 0 and commands
    monkeypatch.chdir(tmp_path)
    _example_files()
    for example in commands:
        arguments = shlex.split(example, comments=True)[1:]
        if ">" in arguments:
            arguments = arguments[: arguments.index(">")]
        result = CliRunner().invoke(cli, arguments, catch_exceptions=False)
        assert result.exit_code == 0, f"{example}: {result.stderr}"
    if command in (["evaluate"], ["report"], ["curve"]):
        assert any("--y-score p_pig --labels cat,dog,pig" in example for example in commands)


def _corrupt(tmp_path) -> str:
    path = tmp_path / "broken.parquet"
    path.write_bytes(b"PAR1 this is not a parquet file")
    return str(path)


BAD_INPUTS = [
    # (arguments, exit code, text the one-line message must hold)
    (["evaluate", "missing.parquet", *CREDIT], 3, "no file matches 'missing.parquet'"),
    (["evaluate", "{corrupt}", "--y-true", "y", "--y-score", "p"], 3, "cannot read {corrupt}"),
    (["evaluate", SAMPLE, "--y-true", "defualt", "--y-score", "p_default"], 1, "column 'defualt' (y_true) not found"),
    (["evaluate", SAMPLE, *CREDIT, "--by", "segment"], 1, "column 'segment' (by) not found"),
    (["evaluate", SAMPLE, *CREDIT, "-m", "roc_auc"], 2, "did you mean roc_auc_ovr, roc_auc_ovo, roc_auc_score?"),
    (["evaluate", SAMPLE, *CREDIT, "-m", "f1_score(beta)"], 2, "write param=value"),
    (["evaluate", SAMPLE, *CREDIT, "-m", "fbeta_score(bta=2)"], 2, "has no parameter ['bta']; did you mean beta?"),
    (["evaluate", SAMPLE, *CREDIT, "-m", "fbeta_score(beta=-1)"], 2, "beta must be a number >= 0"),
    (["evaluate", SAMPLE, "--y-true", "Default", "--y-score", "p_default"], 1, "did you mean 'default'?"),
    (["evaluate", SAMPLE, "--y-true", "default", "--y-score", "balance_band"], 1, "must be numeric"),
    (
        ["evaluate", SAMPLE, "--y-true", "student", "--y-score", "p_default"],
        1,
        "column 'student' (y_true) holds string",
    ),
    (["evaluate", SAMPLE, "--y-true", "fold", "--y-score", "p_default"], 1, "column 'fold' (y_true):"),
    (["evaluate", SAMPLE, "--y-true", "default", "--y-score", "fold", "-m", "log_loss"], 1, "outside [0, 1]"),
    (["evaluate", SAMPLE, "--y-true", "default"], 2, "pass --y-score or --y-pred"),
    (["evaluate", SAMPLE, *CREDIT, "--engine", "spark"], 2, "'spark' is not one of"),
    (["evaluate", "data/README.md", *CREDIT], 3, "framemetrics reads .parquet, .csv and .tsv files"),
    (["curve", "lift", SAMPLE, *CREDIT], 2, "'lift' is not one of"),
    (["curve", "roc", SAMPLE, *CREDIT, "--max-points", "2"], 2, "2 is not in the range x>=4"),
    (["sql", "roc_auc_scor", "--table", "t", "--y-true", "y", "--y-score", "p"], 2, "did you mean roc_auc_score"),
    (["sql", "roc", "f1_score", "--table", "t", "--y-true", "y", "--y-score", "p"], 2, "a curve is printed alone"),
    (
        ["sql", "roc", "--table", "t", "--y-true", "y", "--y-score", "p", "--by", "threshold"],
        2,
        "clashes with an output",
    ),
    (["report", SAMPLE, "--y-true", "default", "--y-score", "nope"], 1, "column 'nope' (y_score) not found"),
    (["report", SAMPLE, *CREDIT, "-m", "fbeta_score(bta=2)"], 2, "did you mean beta?"),
    (["evaluate", SAMPLE, *CREDIT, "--memory-limit", "lots"], 2, "DuckDB cannot read 'lots' as a memory limit"),
    (["evaluate", SAMPLE, *CREDIT, "--threads", "0"], 2, "0 is not in the range x>=1"),
    (["curve", "roc", SAMPLE, *CREDIT, "--engine", "polars", "--memory-limit", "1GB"], 2, "Polars has no memory"),
]


@pytest.mark.parametrize(("arguments", "code", "message"), BAD_INPUTS, ids=[" ".join(a[:3]) for a, _, _ in BAD_INPUTS])
@pytest.mark.parametrize("engine", ["duckdb", "polars"])
def test_bad_input_gives_one_line_and_its_exit_code(arguments, code, message, engine, tmp_path):
    corrupt = _corrupt(tmp_path)
    arguments = [a.replace("{corrupt}", corrupt) for a in arguments]
    if arguments[0] in ("evaluate", "curve", "report") and "--engine" not in arguments:
        arguments += ["--engine", engine]
    got, out, err = invoke(*arguments)
    assert got == code, (out, err)
    assert message.replace("{corrupt}", corrupt) in err
    assert "Traceback" not in err + out and out == ""
    lines = [line for line in err.splitlines() if line.startswith("Error")]
    assert len(lines) == 1


def test_progress_shows_on_a_terminal_only():
    terminal = Console(file=io.StringIO(), force_terminal=True, width=100)
    con = duckdb.connect()
    with progress(terminal, "Evaluating", con=con, total=10**6):
        con.sql("SELECT count(*) FROM range(1000)").fetchall()
    assert "Evaluating" in terminal.file.getvalue()
    pipe = Console(file=io.StringIO(), force_terminal=False)
    with progress(pipe, "Evaluating", con=con):
        pass
    assert pipe.file.getvalue() == ""


def test_python_dash_m_runs_the_command():
    import subprocess
    import sys

    done = subprocess.run([sys.executable, "-m", "framemetrics", "--version"], capture_output=True, check=False, text=True,
                          env={**os.environ, "PYTHONPATH": os.getcwd()})  # fmt: skip
    assert done.returncode == 0 and fm.__version__ in done.stdout


def test_threads_and_memory_limit_reach_duckdb(monkeypatch):
    """The command's DuckDB connection gets the settings: a limit too small to run the query fails in DuckDB."""
    seen = []
    real = fm.evaluate
    monkeypatch.setattr(fm, "evaluate", lambda *a, con, **k: seen.append(con) or real(*a, con=con, **k))
    code, out, _ = invoke("evaluate", SAMPLE, *CREDIT, "--threads", "1", "--memory-limit", "300MB")
    assert code == 0 and out.startswith("n_rows")
    settings = "SELECT current_setting('threads'), current_setting('memory_limit')"
    assert seen[0].execute(settings).fetchone() == (1, "286.1 MiB")
    assert seen[0].execute("SELECT current_setting('enable_progress_bar_print')").fetchone() == (False,)


def test_threads_reach_polars_before_it_loads(tmp_path):
    """Polars sizes its pool once, at import: the command sets POLARS_MAX_THREADS from --threads first."""
    import subprocess
    import sys

    script = tmp_path / "threads.py"
    script.write_text(
        "import os, sys\n"
        "os.environ.pop('POLARS_MAX_THREADS', None)\n"
        f"sys.argv = ['framemetrics', 'evaluate', {SAMPLE!r}, *{CREDIT!r}, '--engine', 'polars', '--threads', '1']\n"
        "from framemetrics.cli import main\n"
        "try:\n    main()\nexcept SystemExit:\n    pass\n"
        "import polars\n"
        "print('pool', polars.thread_pool_size())\n"
    )
    done = subprocess.run([sys.executable, str(script)], capture_output=True, check=False, text=True,
                          env={**os.environ, "PYTHONPATH": os.getcwd()})  # fmt: skip
    assert done.stdout.startswith("n_rows") and "pool 1" in done.stdout, done.stderr


def test_library_connections_never_print_duckdb_progress():
    """framemetrics' own DuckDB connections (and its cursors on a user's) keep DuckDB's progress bar quiet."""
    from framemetrics.sources import open_duckdb

    frame = pl.DataFrame({"y": [1]})
    setting = "SELECT current_setting('enable_progress_bar_print')"
    assert open_duckdb(frame).run(setting).fetchall()[0] == (False,)
    assert open_duckdb(frame, duckdb.connect()).run(setting).fetchall()[0] == (False,)
    assert open_duckdb(SAMPLE).run(setting).fetchall()[0] == (False,)


def test_terminal_tables_never_split_a_header_and_share_decimals_per_column():
    frame = pl.DataFrame(
        {
            "balance_band": ["0-499", "1500+"],
            "n_rows": [2613, 911],
            "accuracy_score": [0.0333, 0.00159787],
            "mean_absolute_percentage_error": [0.4893, 12.5],
        }
    )
    console = Console(file=io.StringIO(), width=60, force_terminal=False)
    write_frame(frame, "table", None, console)
    text = console.file.getvalue()
    for header in frame.columns:
        assert header in text  # whole, on one line
    assert "0.03330" in text and "0.00160" in text  # one number of decimals for the column
    assert " 0.49 " in text and "12.50" in text
    assert text.count("balance_band") == 2  # too wide for 60 columns: two tables, each with the segments
    assert max(len(line) for line in text.splitlines()) <= 60


def test_demo_lists_ordered_segments_in_order(tmp_path):
    console = Console(file=io.StringIO(), width=200, force_terminal=False)
    run_demo(tmp_path / "demo.html", console)
    text = console.file.getvalue()
    assert text.index("0-499") < text.index("500-999") < text.index("1000-1499") < text.index("1500+")
    assert text.index("clear") < text.index("cloudy/misty") < text.index("light rain/snow")


def _animals(tmp_path) -> tuple[str, pl.DataFrame]:
    rows = 300
    frame = pl.DataFrame(
        {
            "zoo": [("north", "south")[i % 2] for i in range(rows)],
            "species": [("cat", "dog", "pig")[(i * 7) % 3] for i in range(rows)],
            "p_cat": [((i * 13) % 10) / 20 for i in range(rows)],
            "p_dog": [((i * 17) % 10) / 20 for i in range(rows)],
        }
    ).with_columns(p_pig=1 - pl.col("p_cat") - pl.col("p_dog"))
    path = str(tmp_path / "animals.parquet")
    frame.write_parquet(path)
    return path, frame


@pytest.mark.parametrize("engine", ["duckdb", "polars"])
def test_evaluate_multiclass_on_the_command_line(engine, tmp_path):
    """Repeated --y-score (one per class, in --labels order): the library's multiclass task, same defaults."""
    path, frame = _animals(tmp_path)
    scores = ["--y-score", "p_cat", "--y-score", "p_dog", "--y-score", "p_pig"]
    arguments = ["evaluate", path, "--y-true", "species", *scores, "--labels", "cat,dog,pig", "--by", "zoo"]
    code, out, err = invoke(*arguments, "--engine", engine, "--format", "csv")
    assert code == 0, err
    want = fm.evaluate(frame, y_true="species", y_score=["p_cat", "p_dog", "p_pig"], labels=["cat", "dog", "pig"],
                       by="zoo")  # fmt: skip
    assert_frame_equal(pl.read_csv(io.StringIO(out)), want, check_dtypes=False, rel_tol=1e-12)
    code, out, _ = invoke(*arguments, "-m", "f1_macro,roc_auc_ovo", "--format", "csv")
    assert code == 0 and pl.read_csv(io.StringIO(out)).columns == ["zoo", "n_rows", "f1_macro", "roc_auc_ovo"]


def test_task_options_on_the_command_line(tmp_path):
    path, _ = _animals(tmp_path)
    code, _, err = invoke("evaluate", path, "--y-true", "species", "--y-score", "p_cat", "--y-score", "p_dog",
                          "--labels", "cat,dog,pig")  # fmt: skip
    assert code == 2 and "2 --y-score columns but 3 --labels" in err
    regression = pl.DataFrame({"n": [1, 2, 3, 4], "guess": [1, 3, 3, 5]})
    csv = str(tmp_path / "counts.csv")
    regression.write_csv(csv)
    code, _, err = invoke("evaluate", csv, "--y-true", "n", "--y-pred", "guess")
    assert code == 2 and 'classes or counts? Pass task="multiclass"' in err
    code, out, _ = invoke(
        "evaluate", csv, "--y-true", "n", "--y-pred", "guess", "--task", "regression", "--format", "csv"
    )
    assert code == 0 and pl.read_csv(io.StringIO(out)).columns == [
        "n_rows",
        *fm.core.defaults.DEFAULT_METRICS["regression", "y_pred"],
    ]


@pytest.mark.parametrize("engine", ["duckdb", "polars"])
def test_one_vs_rest_curves_on_the_command_line(engine, tmp_path):
    path, frame = _animals(tmp_path)
    scores = ["--y-score", "p_cat", "--y-score", "p_dog", "--y-score", "p_pig"]
    code, out, err = invoke("curve", "roc", path, "--y-true", "species", *scores, "--labels", "cat,dog,pig",
                            "--by", "zoo", "--engine", engine, "--format", "csv")  # fmt: skip
    assert code == 0, err
    want = fm.roc_curve(frame, y_true="species", y_score=["p_cat", "p_dog", "p_pig"], labels=["cat", "dog", "pig"],
                        by="zoo")  # fmt: skip
    assert_frame_equal(pl.read_csv(io.StringIO(out)), want, check_dtypes=False, rel_tol=1e-12)


def test_report_of_a_multiclass_model_on_the_command_line(tmp_path):
    path, _ = _animals(tmp_path)
    output = tmp_path / "animals.html"
    scores = ["--y-score", "p_cat", "--y-score", "p_dog", "--y-score", "p_pig"]
    code, _, err = invoke("report", path, "--y-true", "species", *scores, "--labels", "cat,dog,pig", "--by", "zoo",
                          "-o", str(output))  # fmt: skip
    assert code == 0, err
    assert 'id="figure-confusion"' in output.read_text() and "roc_auc_ovr" in output.read_text()
