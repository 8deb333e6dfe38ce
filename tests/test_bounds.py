"""Bounded metrics stay in their range on every path, and a perfect ranking gives exactly 1.0 (issue 36).

Perfectly separated groups with weights such as 0.1, 1/3 and 7.7 gave AUC, Gini and one-vs-one
AUC values of ``1.0000000000000002`` (and ``0.9999999999999996``), where scikit-learn gives exactly
1.0: the AUC is now ``1 - D / 2`` (the discordant sum ``D`` is exactly 0 then) and every
metric with a declared ``Metric.value_range`` is kept in it by ``guards.bounded``.
"""

from __future__ import annotations

import math

import numpy as np
import polars as pl
import pytest
from conftest import RUNNERS, Columns
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from sklearn.metrics import average_precision_score, roc_auc_score, roc_curve

import framemetrics as fm
from framemetrics.core.registry import METRICS

ENGINES = ("polars", "duckdb")
WEIGHTS = st.sampled_from([0.1, 1 / 3, 7.7, 0.7, 1.3, 2.9, 1e-3, 123.456])
SETTINGS = settings(max_examples=15, deadline=None, suppress_health_check=[HealthCheck.too_slow])
RANKING = ("roc_auc_score", "gini_score", "average_precision_score", "ks_statistic", "pr_auc_score",
           "break_even_point")  # fmt: skip


@st.composite
def separated(draw: st.DrawFn) -> pl.DataFrame:
    """1 to 6 groups, each of 1 to 12 positives scored above 1 to 12 negatives, positive weights."""
    rows = []
    for g in range(draw(st.integers(1, 6))):
        n_pos, n_neg = draw(st.integers(1, 12)), draw(st.integers(1, 12))
        for label, n, low in ((1, n_pos, 0.6), (0, n_neg, 0.0)):
            for _ in range(n):
                score = low + draw(st.integers(0, 40)) / 100  # ties within a class
                rows.append((f"g{g}", label, score, draw(WEIGHTS)))
    return pl.DataFrame(rows, schema=["g", "y", "s", "w"], orient="row")


def _sklearn_binary(group: pl.DataFrame) -> dict[str, float]:
    y, s, w = group["y"].to_numpy(), group["s"].to_numpy(), group["w"].to_numpy()
    fpr, tpr, _ = roc_curve(y, s, sample_weight=w)
    auc = roc_auc_score(y, s, sample_weight=w)
    return {"roc_auc_score": auc, "gini_score": 2 * auc - 1, "ks_statistic": float(np.max(tpr - fpr)),
            "average_precision_score": average_precision_score(y, s, sample_weight=w)}  # fmt: skip


@SETTINGS
@given(separated())
def test_a_perfect_weighted_ranking_gives_exactly_one_on_every_path(df):
    """AUC, Gini, AP, KS (and the PR area and break-even point) are exactly 1.0 on both engines, per group."""
    metrics = {name: {} for name in RANKING}
    want = {g: _sklearn_binary(part) for (g,), part in df.partition_by("g", as_dict=True).items()}
    for path in RUNNERS:
        out = RUNNERS[path](df, metrics, Columns(y_pred=None, y_score="s", sample_weight="w"))
        for row in out.iter_rows(named=True):
            for name in RANKING:
                assert row[name] == 1.0, (path, name, row)
            for name, value in want[row["g"]].items():
                # scikit-learn's own sums round too (its AP or AUC is 1 - 1e-16 on some tied, weighted groups).
                assert math.isclose(row[name], value, rel_tol=0, abs_tol=1e-15), (path, name, row[name], value)


def test_the_sql_text_gives_exactly_one_for_a_perfect_weighted_ranking():
    """The SQL of fm.sql.query, run by DuckDB, on the issue's kind of segment."""
    import duckdb

    preds = pl.DataFrame({"y": [1, 1, 1, 0, 0, 0, 0], "s": [0.9, 0.8, 0.7, 0.3, 0.2, 0.2, 0.1],
                          "w": [0.1, 1 / 3, 7.7, 1 / 3, 0.1, 7.7, 1.3]})  # fmt: skip
    sql = fm.sql.query(list(RANKING), table="preds", y_true="y", y_score="s", sample_weight="w")
    con = duckdb.connect()
    con.register("preds", preds.to_arrow())
    values = con.execute(sql).fetchone()
    assert [v for v, d in zip(values, con.description, strict=True) if d[0] in RANKING] == [1.0] * len(RANKING)


@st.composite
def separated_classes(draw: st.DrawFn) -> pl.DataFrame:
    """Groups of three classes, each row's own class scored above 0.5 and every other class below 0.5."""
    rows = []
    for g in range(draw(st.integers(1, 4))):
        for k in range(3):
            for _ in range(draw(st.integers(1, 6))):
                own = 0.55 + draw(st.integers(0, 40)) / 100
                split = draw(st.integers(0, 10)) / 10
                probs = [0.0] * 3
                probs[k], probs[(k + 1) % 3], probs[(k + 2) % 3] = own, (1 - own) * split, (1 - own) * (1 - split)
                rows.append((f"g{g}", "abc"[k], *probs, draw(WEIGHTS)))
    return pl.DataFrame(rows, schema=["g", "c", "p_a", "p_b", "p_c", "w"], orient="row")


MULTICLASS_RANKING = ("roc_auc_ovr", "roc_auc_ovr_weighted", "roc_auc_ovr_micro", "average_precision_macro",
                      "average_precision_weighted", "average_precision_micro")  # fmt: skip


@SETTINGS
@given(separated_classes(), st.sampled_from(ENGINES))
def test_a_perfect_multiclass_ranking_gives_exactly_one(df, engine):
    """One-vs-rest (weighted) and one-vs-one AUC and average precision are exactly 1.0, as scikit-learn's."""
    scores, labels = ["p_a", "p_b", "p_c"], ["a", "b", "c"]
    common = {"y_true": "c", "y_score": scores, "labels": labels, "by": "g", "engine": engine}
    weighted = fm.evaluate_multiclass(df, sample_weight="w", metrics=list(MULTICLASS_RANKING), **common)
    ovo = fm.evaluate_multiclass(df, metrics=["roc_auc_ovo", "roc_auc_ovo_weighted"], **common)
    for (g,), part in df.partition_by("g", as_dict=True).items():
        y, p, w = part["c"].to_numpy(), part.select(scores).to_numpy(), part["w"].to_numpy()
        want = {
            "roc_auc_ovr": roc_auc_score(y, p, multi_class="ovr", sample_weight=w),
            "roc_auc_ovr_weighted": roc_auc_score(y, p, multi_class="ovr", average="weighted", sample_weight=w),
            "roc_auc_ovo": roc_auc_score(y, p, multi_class="ovo"),
            "roc_auc_ovo_weighted": roc_auc_score(y, p, multi_class="ovo", average="weighted"),
        }
        got = weighted.filter(pl.col("g") == g).join(ovo.filter(pl.col("g") == g), on="g").row(0, named=True)
        for name in [*MULTICLASS_RANKING, "roc_auc_ovo", "roc_auc_ovo_weighted"]:
            assert got[name] == 1.0, (engine, name, got[name])
        for name, value in want.items():
            assert math.isclose(got[name], value, rel_tol=0, abs_tol=1e-15), (engine, name, got[name], value)


@st.composite
def noisy(draw: st.DrawFn) -> pl.DataFrame:
    """Two groups of random rows of every task's columns, with weights that round (0.1, 1/3, 7.7...)."""
    n = draw(st.integers(2, 30))
    real = st.floats(0.01, 0.99)
    rows = []
    for i in range(n):
        proba = [draw(st.integers(1, 9)) for _ in range(3)]
        target = draw(st.floats(0.5, 50.0))
        rows.append({
            "g": "a" if i < n // 2 else "b", "y": draw(st.integers(0, 1)), "p": draw(real), "yhat": draw(st.integers(0, 1)),
            "w": draw(WEIGHTS), "t": target, "t_hat": max(0.5, target + draw(st.floats(-5, 5))),
            "c": "abc"[draw(st.integers(0, 2))], "c_hat": "abc"[draw(st.integers(0, 2))],
            **{f"p_{k}": v / sum(proba) for k, v in zip("abc", proba, strict=True)},
        })  # fmt: skip
    return pl.DataFrame(rows)


def _bounded(task: str) -> list[str]:
    return [m.name for m in METRICS if m.task == task and m.value_range is not None and m.weighted]


@SETTINGS
@given(noisy(), st.sampled_from(["binary", "regression", "multiclass"]), st.sampled_from(ENGINES))
def test_every_bounded_metric_stays_within_its_declared_range(df, task, engine):
    """No tolerance: a metric with a declared range never leaves it, whatever rounding does."""
    names = _bounded(task)
    if task == "multiclass":
        out = fm.evaluate_multiclass(df, y_true="c", y_pred="c_hat", y_score=["p_a", "p_b", "p_c"], labels=list("abc"),
                                     sample_weight="w", by="g", metrics=names, engine=engine)  # fmt: skip
    elif task == "regression":
        out = fm.evaluate(df, y_true="t", y_pred="t_hat", sample_weight="w", by="g", metrics=names, engine=engine)
    else:
        out = fm.evaluate(df, y_true="y", y_pred="yhat", y_score="p", sample_weight="w", by="g", metrics=names,
                          engine=engine)  # fmt: skip
    for name in names:
        low, high = fm.get_metric(name, task).value_range
        for value in out[name]:
            assert value is None or (math.isfinite(value) and low <= value <= high), (engine, name, value)


@pytest.mark.parametrize(("name", "value_range"), [("roc_auc_score", (0.0, 1.0)), ("gini_score", (-1.0, 1.0)),
                         ("matthews_corrcoef", (-1.0, 1.0)), ("brier_score_loss", (0.0, 1.0))])  # fmt: skip
def test_the_ranges_are_declared_on_the_registry(name, value_range):
    assert fm.get_metric(name).value_range == value_range


def test_a_value_rounded_past_its_range_is_clamped_by_the_one_guard():
    """``bounded`` keeps a formula's value within the declared range on both compilers (the clamp's own test)."""
    import duckdb

    from framemetrics.compilers.polars import POLARS
    from framemetrics.compilers.sql import SQL
    from framemetrics.compilers.sql.emit import to_sql
    from framemetrics.core.formulas.guards import bounded

    values = [1.0000000000000002, -2.0e-16, 0.5, None, math.inf]
    want = [1.0, 0.0, 0.5, None, None]
    got = pl.DataFrame({"v": values}).select(bounded(POLARS, pl.col("v"), (0.0, 1.0)))["v"].to_list()
    assert got == want
    sql = to_sql(bounded(SQL, SQL.col("v"), (0.0, 1.0)))
    rows = duckdb.connect().execute(f"SELECT {sql} FROM (SELECT unnest(?::DOUBLE[]) AS v)", [values]).fetchall()
    assert [r[0] for r in rows] == want
