"""Every ratio of issue 37 next to its target, in one run."""

from __future__ import annotations

from framemetrics.bench.expressions import EXPRESSION_GROUPS, run_expression_benchmark
from framemetrics.bench.grouped import MULTICLASS_SCORES, run_benchmark
from framemetrics.bench.report import run_report_benchmark
from framemetrics.bench.uncertainty import run_interval_benchmark

__all__ = ["run_targets"]

MULTICLASS_ROWS = (2_000_000, 10_000_000)


MULTICLASS_TARGET = 1 / 3  # one-vs-rest AUC with log loss at least 3x faster than the scikit-learn loop


REPORT_TARGET = 2.0  # the report within 2x evaluate of its metrics


def run_targets(repeat: int, engines: list[str], multiclass_rows: tuple[int, ...] = MULTICLASS_ROWS) -> list[dict]:
    """Every ratio of issue 37 next to its target, in one run: the Polars builders, ``ci=0.95``, the multiclass
    one-vs-rest AUC against scikit-learn, and the report (against ``evaluate``, the target, and against
    ``evaluate`` with the report's intervals, context without a target); ``met`` says whether each holds.

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
    for line in run_report_benchmark(1_000_000, 20, repeat, engines):  # the second baseline is context
        lines.append(line | ({"target": REPORT_TARGET} if line["baseline"].endswith("per segment") else {}))
    return [line | _met(line) for line in lines]


def _met(line: dict) -> dict:
    """Whether the line holds its target (ratios at most the target; the interval's memory at most that many MB
    more); a line of context has no target and no ``met``."""
    if "target" not in line:
        return {"target": None, "met": None}
    return {"met": line["ratio"] <= line["target"] and line.get("mb_more", 0) <= line.get("mb_target", 0)}
