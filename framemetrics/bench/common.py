"""What every benchmark shares: the generated data, the timer, peak memory and a result's line."""

from __future__ import annotations

import importlib.util
import resource
import time
from collections.abc import Callable
from pathlib import Path

__all__ = ["GENERATE", "best_of", "installed", "peak_rss_mb", "result_line"]

GENERATE = """
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


def installed(module: str) -> bool:
    """Whether ``module`` can be imported (a baseline library, installed with ``pip install '.[bench]'``).

    Examples
    --------
    >>> installed("polars"), installed("no_such_module_here")
    (True, False)
    """
    return importlib.util.find_spec(module) is not None


def result_line(engine: str, case: str, baseline: str, ours: float, base: float) -> dict[str, object]:
    """One line of a benchmark's table: framemetrics' time, the baseline's, their ratio and the speedup.

    Examples
    --------
    >>> result_line("polars", "exact AUC", "GROUP BY g", 2.0, 1.0)["ratio"]
    2.0
    """
    return {
        "engine": engine,
        "metrics": case,
        "baseline": baseline,
        "framemetrics_s": ours,
        "baseline_s": base,
        "ratio": ours / base,
        "speedup": base / ours,
    }
