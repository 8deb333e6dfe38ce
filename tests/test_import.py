"""Importing framemetrics stays light: the engines load with the first call; the report needs no plotting library."""

from __future__ import annotations

import statistics
import subprocess
import sys
import time

import framemetrics as fm


def _run(code: str) -> str:
    return subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout.strip()


def test_import_loads_no_engine():
    code = "import sys, framemetrics; print(sorted(m for m in ('polars', 'duckdb', 'sqlglot') if m in sys.modules))"
    assert _run(code) == "[]"


def test_first_use_loads_the_engines():
    code = "import sys, framemetrics as fm; fm.evaluate; print('polars' in sys.modules)"
    assert _run(code) == "True"


def test_a_report_is_drawn_without_a_plotting_library(tmp_path):
    code = (
        "import sys, polars as pl, framemetrics as fm; "
        "df = pl.DataFrame({'y': [0, 1, 1, 0], 'p': [0.1, 0.8, 0.6, 0.3]}); "
        f"fm.evaluation_report(df, y_true='y', y_score='p', output={str(tmp_path / 'r.html')!r}); "
        "print(sorted(m for m in ('matplotlib', 'plotly', 'altair') if m in sys.modules))"
    )
    assert _run(code) == "[]"


def test_import_time_is_well_under_the_bound():
    """The issue's bound is 0.4 s (median of five, bytecode cached); 1 s here leaves room for a loaded CI machine."""
    _run("import framemetrics")  # bytecode cached
    times = []
    for _ in range(5):
        started = time.perf_counter()
        _run("import framemetrics")
        times.append(time.perf_counter() - started)
    assert statistics.median(times) < 1.0


def test_every_public_name_resolves():
    assert set(fm.__all__) <= set(dir(fm))
    for name in fm.__all__:
        assert getattr(fm, name) is not None
    assert callable(fm.evaluate) and fm.sql.query is not None
