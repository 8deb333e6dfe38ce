"""The generated data of the backend conformance suite (``test_conformance.py``): small, deterministic, awkward.

Each frame has one row per prediction and a group column ``g`` whose groups
are the edge cases, so one run of a stage per backend covers them all:

* ``base``: tied scores (tenths), integer weights with zeros, nulls in
  ``y`` and in the score (dropped by ``nulls="drop"``);
* ``w1e-300``, ``w1e-10``, ``w1e+10``, ``w1e+300``, ``w0.3``: the rows of
  ``base`` (without its nulls) with their weights scaled by ``10**k`` and by
  0.3 (``base`` itself is ``k = 0``);
* ``one-class``: positives only; ``one-row``: a single row;
* ``all-null``: rows whose ``y`` is null, an empty group once dropped.

:func:`nan_frame` adds a group with a NaN score, which no ``nulls=`` option
drops: every engine must raise the same error. :func:`det_frame` is the DET
regression: the same 50 rows twice, weighted by ``w`` and by ``0.3 * w``.
"""

from __future__ import annotations

import numpy as np
import polars as pl

SCALES = {"w1e-300": 1e-300, "w1e-10": 1e-10, "w1e+10": 1e10, "w1e+300": 1e300, "w0.3": 0.3}
LABELS = ["ant", "bee", "cat"]


def _scaled(base: pl.DataFrame, start: int) -> pl.DataFrame:
    """``base`` once per scale of :data:`SCALES`, each its own group, ``id`` unique from ``start``."""
    copies = [base.with_columns(g=pl.lit(name), w=pl.col("w") * scale) for name, scale in SCALES.items()]
    out = pl.concat(copies)
    return out.with_columns(id=pl.int_range(start, start + out.height, dtype=pl.Int64))


def binary_frame(n: int = 24, seed: int = 11) -> pl.DataFrame:
    """Columns ``g, y, p, q, w, id, yhat`` (``y``, ``id``, ``yhat`` Int64; the scores ``p``, ``q`` and ``w`` Float64)."""
    rng = np.random.default_rng(seed)
    schema = {"g": pl.String, "y": pl.Int64, "p": pl.Float64, "q": pl.Float64, "w": pl.Float64, "id": pl.Int64}
    base = pl.DataFrame(
        {
            "g": ["base"] * n,
            "y": rng.integers(0, 2, n),
            "p": rng.integers(0, 11, n) / 10,  # ties
            "q": rng.integers(0, 21, n) / 20,
            "w": rng.integers(0, 4, n).astype(float),  # zeros
            "id": np.arange(n),
        },
        schema=schema,
    )
    base = base.with_columns(y=pl.when(pl.col("y").sum() == 0).then(pl.lit(1)).otherwise(pl.col("y")))  # both classes
    with_nulls = pl.DataFrame(
        {
            "g": ["base"] * 3,
            "y": [None, 1, 0],
            "p": [0.4, None, 0.6],
            "q": [0.5, 0.5, None],
            "w": [1.0, 2.0, 1.0],
            "id": [n, n + 1, n + 2],
        },
        schema=schema,
    )
    scaled = _scaled(base, 1000)
    odd = pl.DataFrame(
        {
            "g": ["one-class"] * 4 + ["one-row"] + ["all-null"] * 3,
            "y": [1, 1, 1, 1, 0, None, None, None],
            "p": [0.9, 0.3, 0.3, 0.7, 0.2, 0.1, 0.5, 0.9],
            "q": [0.2, 0.3, 0.8, 0.8, 0.6, 0.4, 0.5, 0.6],
            "w": [1.0, 2.0, 0.0, 1.0, 3.0, 1.0, 1.0, 1.0],
            "id": [2000 + i for i in range(8)],
        },
        schema=schema,
    )
    frame = pl.concat([base, with_nulls, scaled, odd])
    # hard labels: the scores cut at 0.4 (not the 0.5 of the thresholded stage), null where the score is
    return frame.with_columns(yhat=(pl.col("p") >= 0.4).cast(pl.Int64))


def nan_frame() -> pl.DataFrame:
    """:func:`binary_frame` with a group ``nan`` holding a NaN score: invalid whatever ``nulls=`` says."""
    frame = binary_frame()
    nan = pl.DataFrame(
        {"g": ["nan"] * 3, "y": [0, 1, 1], "p": [0.2, float("nan"), 0.7], "q": [0.1, 0.2, 0.3],
         "w": [1.0, 1.0, 1.0], "id": [3000, 3001, 3002], "yhat": [0, 1, 1]},
        schema=frame.schema,
    )  # fmt: skip
    return pl.concat([frame, nan])


def regression_frame(n: int = 24, seed: int = 12) -> pl.DataFrame:
    """Columns ``g, y, f, w, id``: positive targets and predictions (every deviance's domain), ties, nulls."""
    rng = np.random.default_rng(seed)
    schema = {"g": pl.String, "y": pl.Float64, "f": pl.Float64, "w": pl.Float64, "id": pl.Int64}
    base = pl.DataFrame(
        {
            "g": ["base"] * n,
            "y": rng.integers(1, 13, n) / 4,
            "f": rng.integers(1, 13, n) / 4,
            "w": rng.integers(0, 4, n).astype(float),
            "id": np.arange(n),
        },
        schema=schema,
    )
    with_nulls = pl.DataFrame(
        {"g": ["base"] * 2, "y": [None, 2.0], "f": [1.0, None], "w": [1.0, 2.0], "id": [n, n + 1]}, schema=schema
    )
    odd = pl.DataFrame(
        {
            "g": ["constant-y"] * 4 + ["one-row"] + ["all-null"] * 2,
            "y": [2.0, 2.0, 2.0, 2.0, 1.5, None, None],
            "f": [1.5, 2.0, 2.5, 3.0, 2.5, 1.0, 2.0],
            "w": [1.0, 2.0, 0.0, 1.0, 2.0, 1.0, 1.0],
            "id": [2000 + i for i in range(7)],
        },
        schema=schema,
    )
    return pl.concat([base, with_nulls, _scaled(base, 1000), odd])


def multiclass_frame(n: int = 30, seed: int = 13) -> pl.DataFrame:
    """Columns ``g, y, yhat, w, p_ant, p_bee, p_cat, id``: string classes, dyadic probabilities summing to 1 exactly
    (with ties), weights with zeros, nulls, a group missing a class, a one-row group, an empty group once dropped."""
    rng = np.random.default_rng(seed)
    parts = rng.integers(0, 4, (n, 2)).astype(float)
    proba = np.column_stack([parts[:, 0], parts[:, 1], 8 - parts.sum(axis=1)]) / 8
    base = pl.DataFrame(
        {
            "g": ["base"] * n,
            "y": [LABELS[i] for i in rng.integers(0, 3, n)],
            "yhat": [LABELS[i] for i in rng.integers(0, 3, n)],
            "w": rng.integers(0, 4, n).astype(float),
            **{f"p_{c}": proba[:, j] for j, c in enumerate(LABELS)},
            "id": np.arange(n),
        }
    )
    scaled = pl.concat([base.with_columns(g=pl.lit(name), w=pl.col("w") * scale) for name, scale in SCALES.items()])
    scaled = scaled.with_columns(id=pl.int_range(1000, 1000 + scaled.height, dtype=pl.Int64))
    two = base.head(6).with_columns(g=pl.lit("two-classes"), y=pl.Series(["ant", "bee"] * 3),
                                    id=pl.int_range(2000, 2006, dtype=pl.Int64))  # fmt: skip
    one = base.head(1).with_columns(g=pl.lit("one-row"), id=pl.lit(2100, dtype=pl.Int64))
    empty = base.head(2).with_columns(g=pl.lit("all-null"), y=pl.lit(None, dtype=pl.String),
                                      id=pl.int_range(2200, 2202, dtype=pl.Int64))  # fmt: skip
    nulls = base.head(2).with_columns(  # a null prediction in the first row, a null score in the second
        yhat=pl.when(pl.int_range(pl.len()) == 0).then(None).otherwise(pl.col("yhat")),
        p_ant=pl.when(pl.int_range(pl.len()) == 1).then(None).otherwise(pl.col("p_ant")),
        id=pl.int_range(2300, 2302, dtype=pl.Int64),
    )
    return pl.concat([base, scaled, two, one, empty, nulls])


def det_frame() -> pl.DataFrame:
    """The DET regression: the same 50 rows as group ``x1`` (weights ``w``) and ``x0.3`` (weights ``0.3 * w``)."""
    rng = np.random.RandomState(0)
    y, s, w = rng.randint(0, 2, 50), rng.rand(50).round(2), rng.randint(1, 10, 50)
    return pl.concat(
        [
            pl.DataFrame({"g": "x1", "y": y, "s": s, "w": w.astype(float)}),
            pl.DataFrame({"g": "x0.3", "y": y, "s": s, "w": w * 0.3}),
        ]
    )
