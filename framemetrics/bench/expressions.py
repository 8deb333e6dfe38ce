"""The Polars builders against ``fm.evaluate`` and scikit-learn."""

from __future__ import annotations

from functools import partial

import duckdb
import polars as pl

import framemetrics as fm
from framemetrics.bench.common import GENERATE, best_of, result_line

__all__ = ["EXPRESSION_GROUPS", "run_expression_benchmark"]

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
        con.execute(GENERATE.format(rows=int(rows), groups=int(groups)))
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
            line = result_line("polars", case, "fm.evaluate", best_of(repeat, expression), best_of(repeat, evaluate))
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
                lines.append(result_line("polars", case, "scikit-learn, NumPy arrays", ours, theirs) | {"target": 1.0})
    return lines
