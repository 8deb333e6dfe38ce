"""Synthetic prediction files for the command-line tests (and, at 10**7 rows, its timing)."""

from __future__ import annotations

import sys

import duckdb


def write_predictions(path: str, n_rows: int, seed: float = 0.42) -> None:
    """Write ``n_rows`` scored rows to a Parquet file: country (20), month (12), y, p (a probability), w.

    The label is drawn from the score, so the model is calibrated and its ROC AUC is about 0.8.
    """
    con = duckdb.connect()
    con.execute(f"SELECT setseed({seed})")
    con.execute(f"""
        COPY (
            SELECT
                'country_' || lpad(CAST(i % 20 AS VARCHAR), 2, '0') AS country,
                1 + (i // 20) % 12 AS month,
                round(p, 6) AS p,
                CAST(random() < p AS INTEGER) AS y,
                1 + (i % 3) AS w
            FROM (
                SELECT i, 1 / (1 + exp(-(2.2 * (random() + random() + random() - 1.5) - 1.2 + (i % 20) / 20))) AS p
                FROM range({int(n_rows)}) t(i)
            )
        ) TO '{path}' (FORMAT parquet)
    """)


if __name__ == "__main__":
    write_predictions(sys.argv[1], int(sys.argv[2]))
