"""The main job: evaluate the shipped sample predictions per segment on both engines, and write a report.

Run ``framemetrics demo`` (or ``python -m framemetrics demo``). The samples
are described in ``data/README.md`` and ship inside the package.
"""

from __future__ import annotations

import time
from pathlib import Path

import polars as pl
from polars.testing import assert_frame_equal
from rich.console import Console

import framemetrics as fm
from framemetrics.cli.output import render_table

__all__ = ["evaluate_both", "run_demo", "sample_frame", "sample_path"]

THRESHOLDED = ["prevalence", "accuracy_score", "precision_score", "recall_score", "f1_score", "matthews_corrcoef"]
SCORED = ["log_loss", "brier_score_loss", "roc_auc_score", "average_precision_score"]
PER_SEGMENT = ["prevalence", "precision_score", "recall_score", "f1_score", "roc_auc_score", "log_loss"]
REGRESSION = ["root_mean_squared_error", "mean_absolute_error", "r2_score", "mean_absolute_percentage_error"]
# The ordered segments of the samples (data/README.md), so tables list them in order rather than as text sorts.
ORDERED = {
    "balance_band": ["0-499", "500-999", "1000-1499", "1500+"],
    "income_band": ["low", "middle", "high"],
    "weathersit": ["clear", "cloudy/misty", "light rain/snow", "heavy rain/snow"],
}


def sample_path(name: str) -> Path:
    """A shipped sample file: inside the installed package, or in the repository's ``data/``.

    Examples
    --------
    >>> sample_path("default_predictions.csv").name
    'default_predictions.csv'
    """
    here = Path(__file__).resolve().parent
    for folder in (here / "sample_data", here.parent / "data"):
        if (folder / name).exists():
            return folder / name
    raise FileNotFoundError(f"sample {name!r} is neither in {here / 'sample_data'} nor in {here.parent / 'data'}")


def sample_frame(name: str) -> pl.DataFrame:
    """A shipped sample read as a frame, its ordered segment columns as Polars Enums (so results sort in order).

    Examples
    --------
    >>> sample_frame("default_predictions.csv").schema["balance_band"]
    Enum(categories=['0-499', '500-999', '1000-1499', '1500+'])
    """
    frame = pl.read_csv(sample_path(name))
    return frame.with_columns(pl.col(c).cast(pl.Enum(v)) for c, v in ORDERED.items() if c in frame.columns)


def evaluate_both(source: pl.DataFrame, **kwargs: object) -> tuple[pl.DataFrame, float]:
    """Evaluate on DuckDB and Polars, check they agree, return DuckDB's frame and its time.

    Examples
    --------
    >>> out, seconds = evaluate_both(sample_frame("default_predictions.csv"), y_true="default",
    ...                              y_score="p_default", by="balance_band", metrics=["f1_score"])
    >>> out["balance_band"].to_list()
    ['0-499', '500-999', '1000-1499', '1500+']
    """
    start = time.perf_counter()
    duck = fm.evaluate(source, engine="duckdb", **kwargs)
    seconds = time.perf_counter() - start
    assert_frame_equal(duck, fm.evaluate(source, engine="polars", **kwargs), rel_tol=1e-12)
    return duck, seconds


def run_demo(output: str | Path, console: Console) -> Path:
    """Print per-segment metrics of the credit-default and bike-rental models; write the credit report.

    Examples
    --------
    >>> import io, tempfile
    >>> path = run_demo(Path(tempfile.mkdtemp()) / "demo.html", Console(file=io.StringIO()))
    >>> path.exists()
    True
    """
    credit, bikes = sample_frame("default_predictions.csv"), sample_frame("bikeshare_predictions.csv")
    credit_args = {"y_true": "default", "y_score": "p_default"}
    bike_args = {"y_true": "bikers", "y_pred": "predicted_bikers", "metrics": REGRESSION}
    sections = [
        ("Credit default (ISLP Default, logistic regression): labels at threshold 0.5", credit,
         dict(credit_args, metrics=THRESHOLDED)),
        ("... the probabilities", credit, dict(credit_args, metrics=SCORED)),
        ("... per student status", credit, dict(credit_args, by="student", metrics=PER_SEGMENT)),
        ("... per balance band", credit, dict(credit_args, by="balance_band", metrics=PER_SEGMENT)),
        ("Bike rentals (ISLP Bikeshare, Poisson gradient boosting): per season", bikes, dict(bike_args, by="season")),
        ("... per weather", bikes, dict(bike_args, by="weathersit")),
    ]  # fmt: skip
    for title, path, kwargs in sections:
        table, seconds = evaluate_both(path, **kwargs)
        heading = f"{title}  [{seconds * 1000:.0f} ms on DuckDB; Polars agrees]"
        console.print(render_table(table, heading, console.width))
    console.print("Null means undefined (e.g. precision with no predicted positive); see README.md.")
    written = fm.evaluation_report(
        credit, **credit_args, by="balance_band", output=output, title="Credit default per balance band"
    )
    console.print(f"Report: {written.resolve()} (open it in a browser; it works offline)")
    return written
