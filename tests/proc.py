"""pROC (R, Debian's ``r-cran-proc``) as the oracle of DeLong's intervals and paired test, run live.

:func:`proc_delong` writes the groups to a CSV, runs ``proc_oracle.R``
through ``Rscript`` once for all of them and reads pROC's figures back:
the AUC, DeLong's variance and interval, and for two score columns the
paired test's z, p-value and interval of the difference. Integer weights
are given to pROC as repeated rows.
"""

from __future__ import annotations

import shutil
import subprocess
import tempfile
from pathlib import Path

import polars as pl
import pytest

SCRIPT = Path(__file__).with_name("proc_oracle.R")


def rscript() -> str:
    """The path of ``Rscript``; the test fails where R and pROC are missing (``.ci/run`` installs them)."""
    path = shutil.which("Rscript")
    if path is None:
        pytest.fail("Rscript is missing: install Debian's r-cran-proc (as .ci/run does)")
    return path


def asah() -> pl.DataFrame:
    """pROC's ``aSAH`` data (113 patients), read from pROC itself: ``y`` is 1 for a poor outcome."""
    with tempfile.TemporaryDirectory() as tmp:
        path = Path(tmp) / "asah.csv"
        code = f'library(pROC); data(aSAH); write.csv(aSAH, "{path}", row.names = FALSE)'
        subprocess.run([rscript(), "-e", code], check=True, capture_output=True)
        frame = pl.read_csv(path)
    return frame.with_columns(y=(pl.col("outcome") == "Poor").cast(pl.Int64), wfns=pl.col("wfns").cast(pl.Float64))


def proc_delong(df: pl.DataFrame, scores: list[str], level: float = 0.95, weight: str | None = None) -> pl.DataFrame:
    """pROC's figures per group ``g`` of ``df`` (``y`` in {0, 1}; integer ``weight`` as repeated rows).

    Returns ``g, auc, var, low, high`` and, for two scores, ``z, p, dlow, dhigh`` (nulls where pROC has NA).
    """
    rows = df.select("g", "y", *(pl.col(s).alias(f"s{i + 1}") for i, s in enumerate(scores)))
    if weight is not None:
        rows = rows.with_columns(df[weight].cast(pl.Int64).alias("n")).filter(pl.col("n") > 0)
        rows = rows.select(pl.all().exclude("n").repeat_by(pl.col("n")).explode())
    with tempfile.TemporaryDirectory() as tmp:
        given, got = Path(tmp) / "in.csv", Path(tmp) / "out.csv"
        rows.write_csv(given)
        subprocess.run([rscript(), str(SCRIPT), str(given), str(got), repr(level)], check=True, capture_output=True)
        out = pl.read_csv(got, null_values="NA", infer_schema_length=None, schema_overrides={"g": pl.String})
    return out.with_columns(pl.exclude("g").cast(pl.Float64)).sort("g")
