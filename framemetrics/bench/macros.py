"""The DuckDB aggregate ranking macros against ``fm.sql.query`` on one group."""

from __future__ import annotations

from functools import partial

import duckdb

import framemetrics as fm
from framemetrics.bench.common import GENERATE, best_of, result_line

__all__ = ["MACRO_ROWS", "run_macro_benchmark"]

MACROS = ["roc_auc_score", "average_precision_score", "ks_statistic"]


MACRO_ROWS = [200_000, 1_000_000]


def run_macro_benchmark(sizes: list[int], repeat: int) -> list[dict[str, object]]:
    """Time the aggregate macros of :data:`MACROS` on one group of each size against ``fm.sql.query``.

    The ratio is macro / query time: the macros sort each group's rows in a
    list and scan it (O(n log n)), where the query sorts and scans them with
    window functions.

    Examples
    --------
    >>> lines = run_macro_benchmark([1_000], 1)
    >>> [line["metrics"] for line in lines][0]
    'fm_roc_auc_score, 1,000 rows'
    """
    con = duckdb.connect()
    con.execute("SET enable_progress_bar = false")
    con.execute(fm.sql.macro_file().read_text())
    lines = []
    for rows in sizes:
        con.execute(GENERATE.format(rows=int(rows), groups=1))
        for name in MACROS:
            macro = partial(con.sql(f"SELECT g, fm_{name}(y, p, sample_weight := w) FROM bench GROUP BY g").fetchall)
            sql = fm.sql.query([name], table="bench", y_true="y", y_score="p", sample_weight="w", by="g")
            query = partial(con.sql(sql).fetchall)
            case = f"fm_{name}, {rows:,} rows"
            lines.append(result_line("duckdb", case, "fm.sql.query", best_of(repeat, macro), best_of(repeat, query)))
    return lines
