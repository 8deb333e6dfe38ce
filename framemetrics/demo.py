"""The main job: evaluate the shipped sample predictions per segment, on both engines.

Run from the repository root: ``python -m framemetrics.demo`` (or
``framemetrics-demo``). ``--data DIR`` points at another copy of ``data/``.
"""

from __future__ import annotations

import argparse
import time
from pathlib import Path

import polars as pl
from polars.testing import assert_frame_equal

import framemetrics as fm

THRESHOLDED = ["prevalence", "accuracy_score", "precision_score", "recall_score", "f1_score", "matthews_corrcoef"]
SCORED = ["log_loss", "brier_score_loss", "roc_auc_score", "average_precision_score"]
PER_SEGMENT = ["prevalence", "precision_score", "recall_score", "f1_score", "roc_auc_score", "log_loss"]
REGRESSION = ["root_mean_squared_error", "mean_absolute_error", "r2_score", "mean_absolute_percentage_error"]


def find_data(data: str | None) -> Path:
    """The folder holding the sample CSVs: ``data`` if given, else ``./data``.

    Examples
    --------
    >>> find_data(None).name
    'data'
    """
    candidates = [Path(data)] if data else [Path("data"), Path(__file__).resolve().parents[1] / "data"]
    for folder in candidates:
        if (folder / "default_predictions.csv").exists():
            return folder
    raise SystemExit(f"no sample data in {', '.join(map(str, candidates))}: run from the repository root")


def evaluate_both(path: Path, **kwargs: object) -> tuple[pl.DataFrame, float]:
    """Evaluate on DuckDB and Polars, check they agree, return DuckDB's frame and its time.

    Examples
    --------
    >>> out, seconds = evaluate_both(find_data(None) / "default_predictions.csv", y_true="default",
    ...                              y_score="p_default", by="student", metrics=["f1_score"])
    >>> out.columns
    ['student', 'n_rows', 'f1_score']
    """
    start = time.perf_counter()
    duck = fm.evaluate(str(path), engine="duckdb", **kwargs)
    seconds = time.perf_counter() - start
    assert_frame_equal(duck, fm.evaluate(str(path), engine="polars", **kwargs), rel_tol=1e-12)
    return duck, seconds


def main(argv: list[str] | None = None) -> None:
    """Print per-segment metrics of the credit-default and bike-rental models."""
    parser = argparse.ArgumentParser(description="Evaluate the sample predictions in data/ per segment.")
    parser.add_argument("--data", help="folder holding default_predictions.csv (default: ./data)")
    args = parser.parse_args(argv)
    folder = find_data(args.data)
    credit = folder / "default_predictions.csv"
    bikes = folder / "bikeshare_predictions.csv"
    credit_args = dict(y_true="default", y_score="p_default")
    bike_args = dict(y_true="bikers", y_pred="predicted_bikers", metrics=REGRESSION)
    sections = [
        (
            "Credit default (ISLP Default, logistic regression): labels at threshold 0.5",
            credit,
            dict(credit_args, metrics=THRESHOLDED),
        ),
        ("... the probabilities", credit, dict(credit_args, metrics=SCORED)),
        ("... per student status", credit, dict(credit_args, by="student", metrics=PER_SEGMENT)),
        ("... per balance band", credit, dict(credit_args, by="balance_band", metrics=PER_SEGMENT)),
        ("Bike rentals (ISLP Bikeshare, Poisson gradient boosting): per season", bikes, dict(bike_args, by="season")),
        ("... per weather", bikes, dict(bike_args, by="weathersit")),
    ]
    config = pl.Config(
        tbl_hide_dataframe_shape=True,
        tbl_hide_column_data_types=True,
        float_precision=4,
        tbl_width_chars=160,
        tbl_cols=-1,
        tbl_rows=-1,
    )
    with config:
        for title, path, kwargs in sections:
            table, seconds = evaluate_both(path, **kwargs)
            print(f"\n{title}  [{seconds * 1000:.0f} ms on DuckDB; Polars agrees]")
            print(table)
    print("\nNull means undefined (e.g. precision with no predicted positive); see README.md.")


if __name__ == "__main__":
    main()
