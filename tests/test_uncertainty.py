"""DeLong's interval of the ROC AUC and DeLong's paired test, against pROC run live, on both engines.

pROC (Debian's ``r-cran-proc``) is the oracle: its ``aSAH`` figures as the
issue pins them, pROC on ``aSAH`` at two levels, and pROC on hypothesis
data with tied scores and integer weights given to pROC as repeated rows
(the definition of weights as frequency weights).
"""

from __future__ import annotations

import math

import polars as pl
import pytest
from hypothesis import HealthCheck, Phase, given, settings
from hypothesis import strategies as st
from proc import asah, proc_delong

import framemetrics as fm

ENGINES = ("polars", "duckdb")
MARKERS = ("wfns", "s100b", "ndka")


def _close(got: float | None, want: float | None, tol: float = 1e-9) -> bool:
    if got is None or want is None or (isinstance(want, float) and math.isnan(want)):
        return got is None and (want is None or math.isnan(want))
    return math.isclose(got, want, rel_tol=tol, abs_tol=tol)


@pytest.fixture(scope="module")
def asah_data() -> pl.DataFrame:
    return asah()


@pytest.fixture(scope="module")
def asah_long(asah_data: pl.DataFrame) -> pl.DataFrame:
    """One group per marker: the three ROC curves of the issue."""
    return pl.concat(
        [asah_data.select(pl.lit(m).alias("g"), "y", pl.col(m).cast(pl.Float64).alias("s")) for m in MARKERS]
    )


@pytest.mark.parametrize("engine", ENGINES)
def test_asah_figures_of_the_issue(asah_data, asah_long, engine):
    ci = fm.roc_auc_ci(asah_long, y_true="y", y_score="s", by="g", engine=engine)
    auc = dict(zip(ci["g"], ci["roc_auc_score"], strict=True))
    assert _close(auc["wfns"], 0.823678861788618, 1e-14)
    assert _close(auc["s100b"], 0.731368563685637, 1e-14)
    assert _close(auc["ndka"], 0.611957994579946, 1e-14)
    ndka = ci.filter(pl.col("g") == "ndka").row(0, named=True)
    assert round(ndka["low"], 6) == 0.501245 and round(ndka["high"], 6) == 0.722671
    for other, z, p in (
        ("s100b", 2.20898359144091, 0.0271757822291882),
        ("ndka", 2.79777591868904, 0.00514557970691098),
    ):
        test = fm.compare_auc(asah_data, y_true="y", y_score=["wfns", other], engine=engine).row(0, named=True)
        assert _close(test["z"], z, 1e-13), (other, test["z"])
        assert _close(test["p_value"], p, 1e-12), (other, test["p_value"])


@pytest.mark.parametrize("level", [0.95, 0.8])
@pytest.mark.parametrize("engine", ENGINES)
def test_asah_against_proc_live(asah_data, asah_long, engine, level):
    want = proc_delong(asah_long, ["s"], level)
    got = fm.roc_auc_ci(asah_long, y_true="y", y_score="s", by="g", level=level, engine=engine).sort("g")
    for g, w in zip(got.iter_rows(named=True), want.iter_rows(named=True), strict=True):
        assert _close(g["roc_auc_score"], w["auc"]) and _close(g["se"] ** 2, w["var"], 1e-12)
        assert _close(g["low"], w["low"]) and _close(g["high"], w["high"]), (g, w)
    pairs = [("wfns", "s100b"), ("wfns", "ndka"), ("s100b", "ndka")]
    both = pl.concat([asah_data.select(pl.lit(f"{a}-{b}").alias("g"), "y", a=pl.col(a).cast(pl.Float64),
                                       b=pl.col(b).cast(pl.Float64)) for a, b in pairs])  # fmt: skip
    want = proc_delong(both, ["a", "b"], level)
    got = fm.compare_auc(both, y_true="y", y_score=["a", "b"], by="g", level=level, engine=engine)
    for g, w in zip(got.iter_rows(named=True), want.iter_rows(named=True), strict=True):
        assert _close(g["z"], w["z"]) and _close(g["p_value"], w["p"], 1e-12), (g, w)
        assert _close(g["low"], w["dlow"]) and _close(g["high"], w["dhigh"]), (g, w)


@st.composite
def scored_groups(draw: st.DrawFn) -> pl.DataFrame:
    """Up to four groups of 2 to 16 rows: two scores on a coarse grid (ties within and across classes),
    integer weights 0 to 3."""
    rows = []
    for g in range(draw(st.integers(1, 4))):
        n = draw(st.integers(2, 16))
        for _ in range(n):
            rows.append(
                {
                    "g": f"g{g}",
                    "y": draw(st.integers(0, 1)),
                    "a": draw(st.integers(0, 5)) / 5,
                    "b": draw(st.integers(0, 8)) / 8,
                    "w": float(draw(st.integers(0, 3))),
                }
            )
    return pl.DataFrame(rows)


# Each example runs R once (about a second): no shrinking, which would run it hundreds of times.
@settings(max_examples=12, deadline=None, phases=[Phase.explicit, Phase.reuse, Phase.generate],
          suppress_health_check=[HealthCheck.too_slow])  # fmt: skip
@given(scored_groups(), st.booleans(), st.sampled_from([0.95, 0.9]))
def test_hypothesis_against_proc(df, weighted, level):
    """Weights as frequency weights: pROC runs on the rows repeated; groups pROC cannot test are null."""
    weight = "w" if weighted else None
    if weighted:
        counts = df.group_by("g").agg(
            pos=(pl.col("w") * pl.col("y")).sum(), neg=(pl.col("w") * (1 - pl.col("y"))).sum()
        )
    else:
        counts = df.group_by("g").agg(pos=pl.col("y").sum(), neg=(1 - pl.col("y")).sum())
    testable = counts.filter((pl.col("pos") >= 2) & (pl.col("neg") >= 2))["g"].to_list()
    want = proc_delong(df.filter(pl.col("g").is_in(testable)), ["a", "b"], level, weight) if testable else None
    for engine in ENGINES:
        ci = fm.roc_auc_ci(df, y_true="y", y_score="a", by="g", level=level, sample_weight=weight, engine=engine)
        paired = fm.compare_auc(df, y_true="y", y_score=["a", "b"], by="g", level=level, sample_weight=weight,
                                engine=engine)  # fmt: skip
        for row, test in zip(ci.iter_rows(named=True), paired.iter_rows(named=True), strict=True):
            if row["g"] not in testable:
                assert row["se"] is None and row["low"] is None, (engine, row, df.filter(pl.col("g") == row["g"]))
                assert test["se"] is None and test["p_value"] is None, (engine, test)
                continue
            w = want.filter(pl.col("g") == row["g"]).row(0, named=True)
            assert _close(row["roc_auc_score"], w["auc"]) and _close(row["se"] ** 2, w["var"], 1e-12), (row, w)
            assert _close(row["low"], w["low"]) and _close(row["high"], w["high"]), (engine, row, w)
            assert _close(test["roc_auc_1"], w["auc"]), (test, w)
            if test["se"] == 0:  # the issue pins z and p null; pROC's z is 0 (equal AUCs) or infinite
                assert test["z"] is None and test["p_value"] is None, (test, w)
                assert w["z"] == 0 or math.isinf(w["z"]), (test, w)
            else:
                assert _close(test["z"], w["z"]) and _close(test["p_value"], w["p"], 1e-12), (engine, test, w)
            assert _close(test["low"], w["dlow"]) and _close(test["high"], w["dhigh"]), (engine, test, w)


def test_integer_weights_equal_repeated_rows():
    df = pl.DataFrame({"y": [0, 1, 1, 0, 1, 0], "a": [0.2, 0.7, 0.2, 0.5, 0.9, 0.9], "b": [0.1, 0.3, 0.8, 0.8, 0.6, 0.2],
                       "w": [2, 1, 3, 1, 2, 4]})  # fmt: skip
    repeated = df.select(pl.all().repeat_by(pl.col("w")).explode())
    for engine in ENGINES:
        weighted = fm.compare_auc(df, y_true="y", y_score=["a", "b"], sample_weight="w", engine=engine)
        plain = fm.compare_auc(repeated, y_true="y", y_score=["a", "b"], engine=engine)
        for name in ("roc_auc_1", "roc_auc_2", "se", "z", "p_value", "low", "high"):
            assert _close(weighted[name].item(), plain[name].item(), 1e-14), name


@pytest.mark.parametrize("engine", ENGINES)
def test_degenerate_groups(engine):
    """One positive: null se and bounds (pROC's NA); one class: everything null; separation: se 0, CI [1, 1];
    equal scores: se 0, no z or p-value."""
    df = pl.DataFrame(
        {
            "g": ["one"] * 4 + ["class"] * 3 + ["sep"] * 4 + ["same"] * 4,
            "y": [1, 0, 0, 0] + [1, 1, 1] + [0, 0, 1, 1] + [0, 1, 0, 1],
            "a": [0.9, 0.1, 0.2, 0.3] + [0.1, 0.2, 0.3] + [0.1, 0.2, 0.8, 0.9] + [0.3, 0.6, 0.4, 0.5],
        }
    ).with_columns(b=pl.col("a"))
    ci = {r["g"]: r for r in fm.roc_auc_ci(df, y_true="y", y_score="a", by="g", engine=engine).iter_rows(named=True)}
    assert ci["one"]["roc_auc_score"] == 1.0 and ci["one"]["se"] is None and ci["one"]["low"] is None
    assert ci["class"]["roc_auc_score"] is None and ci["class"]["se"] is None and ci["class"]["high"] is None
    assert (ci["sep"]["se"], ci["sep"]["low"], ci["sep"]["high"]) == (0.0, 1.0, 1.0)
    same = fm.compare_auc(df, y_true="y", y_score=["a", "b"], by="g", engine=engine).filter(pl.col("g") == "same")
    row = same.row(0, named=True)
    assert (row["diff"], row["se"], row["z"], row["p_value"], row["low"], row["high"]) == (
        0.0,
        0.0,
        None,
        None,
        0.0,
        0.0,
    )


@pytest.mark.parametrize("scale", [1e-300, 1e-150, 1e-20, 1e20, 1e150, 1e300])
def test_any_weight_scale_gives_a_number_or_null_the_same_on_both_engines(scale):
    df = pl.DataFrame({"y": [0, 1, 1, 0, 1, 0], "a": [0.2, 0.7, 0.2, 0.5, 0.9, 0.9], "b": [0.1, 0.3, 0.8, 0.8, 0.6, 0.2],
                       "w": [2.0, 1.0, 3.0, 1.0, 2.0, 4.0]}).with_columns(pl.col("w") * scale)  # fmt: skip
    outs = [fm.compare_auc(df, y_true="y", y_score=["a", "b"], sample_weight="w", engine=e) for e in ENGINES]
    outs += [fm.roc_auc_ci(df, y_true="y", y_score="a", sample_weight="w", engine=e) for e in ENGINES]
    for out in outs:
        assert all(v is None or math.isfinite(v) for v in out.drop("n_rows").row(0)), out
    assert outs[0].schema == outs[1].schema and outs[2].schema == outs[3].schema
    for a, b in ((outs[0], outs[1]), (outs[2], outs[3])):
        assert all(_close(x, y, 1e-12) for x, y in zip(a.row(0), b.row(0), strict=True)), (a, b)
    if scale < 1:  # frequency weights: a class weight at most 1 has no variance
        assert outs[2]["se"].item() is None
    elif scale < 1e100:
        assert outs[2]["se"].item() is not None
    for out in outs:  # no interval without its standard error (at 1e300 the squared placements overflow: null)
        if out["se"].item() is None:
            derived = [c for c in ("z", "p_value", "low", "high") if c in out.columns]
            assert all(out[c].item() is None for c in derived), out


@pytest.mark.parametrize("engine", ENGINES)
def test_bad_input_names_the_column(engine):
    df = pl.DataFrame({"y": [0, 1, 1, 0], "a": [0.2, 0.7, 0.4, 0.1], "b": [0.1, None, float("nan"), 0.3]})
    with pytest.raises(ValueError, match=r"column 'b' \(y_score_2\): 2 rows are null, NaN or infinite"):
        fm.compare_auc(df, y_true="y", y_score=["a", "b"], engine=engine)
    with pytest.raises(ValueError, match=r"column 'b' \(y_score_2\): 1 row is NaN or infinite \(nulls='drop' drops"):
        fm.compare_auc(df, y_true="y", y_score=["a", "b"], nulls="drop", engine=engine)  # NaN is never dropped
    out = fm.compare_auc(df.fill_nan(0.5), y_true="y", y_score=["a", "b"], nulls="drop", engine=engine)
    assert out["n_rows"].item() == 3
    with pytest.raises(ValueError, match="y_score must be two distinct score columns"):
        fm.compare_auc(df, y_true="y", y_score=["a", "a"], engine=engine)
    with pytest.raises(ValueError, match="level must be a number strictly between 0 and 1"):
        fm.roc_auc_ci(df, y_true="y", y_score="a", level=95, engine=engine)
    with pytest.raises(ValueError, match="column 'missing'"):
        fm.compare_auc(df, y_true="y", y_score=["a", "missing"], engine=engine)


PROPORTIONS = sorted(fm.core.intervals.PROPORTIONS)


@st.composite
def labelled_groups(draw: st.DrawFn) -> pl.DataFrame:
    """Up to three groups of 1 to 20 rows: labels, hard predictions, weights 0 to 3 in quarters."""
    rows = []
    for g in range(draw(st.integers(1, 3))):
        for _ in range(draw(st.integers(1, 20))):
            rows.append({"g": f"g{g}", "y": draw(st.integers(0, 1)), "yhat": draw(st.integers(0, 1)),
                         "w": draw(st.integers(0, 12)) / 4})  # fmt: skip
    return pl.DataFrame(rows)


def _proportion_reference(part: pl.DataFrame, name: str, level: float, weight: str | None, method: str) -> tuple:
    """statsmodels' interval (``wilson`` or ``beta``) of the metric's proportion: Kish's n with weights."""
    from statsmodels.stats.proportion import proportion_confint

    successes, trials = fm.core.intervals.PROPORTIONS[name]
    cell = {"tp": (1, 1), "fp": (0, 1), "fn": (1, 0), "tn": (0, 0)}
    w = part[weight] if weight else pl.Series([1.0] * part.height)

    def mask(cells: tuple[str, ...]) -> pl.Series:
        hits = [(part["y"] == cell[c][0]) & (part["yhat"] == cell[c][1]) for c in cells]
        out = hits[0]
        for h in hits[1:]:
            out = out | h
        return out

    total = float((w * mask(trials)).sum())
    squares = float((w * w * mask(trials)).sum())
    if total == 0:
        return None, None
    n = total * total / squares
    p = float((w * mask(successes)).sum()) / total
    return proportion_confint(p * n, n, alpha=1 - level, method=method)


# statsmodels' name of each method, and the agreement asked of it.
_PROPORTION_METHODS = {None: ("wilson", 1e-12), "clopper-pearson": ("beta", 1e-11)}


@pytest.mark.parametrize("ci_method", list(_PROPORTION_METHODS))
@settings(max_examples=8, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(labelled_groups(), st.booleans(), st.sampled_from([0.95, 0.8, 0.99]))
def test_proportions_against_statsmodels(ci_method, df, weighted, level):
    weight = "w" if weighted else None
    method, tolerance = _PROPORTION_METHODS[ci_method]
    for engine in ENGINES:
        out = fm.evaluate(df, y_true="y", y_pred="yhat", by="g", sample_weight=weight, metrics=PROPORTIONS,
                          ci=level, ci_method=ci_method, engine=engine)  # fmt: skip
        for row in out.iter_rows(named=True):
            part = df.filter(pl.col("g") == row["g"])
            for name in PROPORTIONS:
                low, high = _proportion_reference(part, name, level, weight, method)
                assert _close(row[f"{name}_low"], low, tolerance), (engine, name, row, low)
                assert _close(row[f"{name}_high"], high, tolerance), (engine, name, row, high)


@settings(max_examples=5, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(scored_groups(), st.booleans())
def test_expression_builders_equal_evaluate(df, weighted):
    """fm.roc_auc_se and fm.confidence_interval inside group_by().agg() give evaluate's values."""
    weight = "w" if weighted else None
    df = df.with_columns(yhat=(pl.col("b") >= 0.5).cast(pl.Int64))
    names = ["roc_auc_score", "gini_score", "precision_score", "accuracy_score"]
    want = fm.evaluate(df, y_true="y", y_score="a", y_pred="yhat", by="g", sample_weight=weight, metrics=names,
                       ci=0.9)  # fmt: skip

    def prediction(name: str) -> str:
        return "a" if fm.get_metric(name).family == "ranking" else "yhat"

    intervals = [fm.confidence_interval(n, "y", prediction(n), weight, level=0.9).alias(n) for n in names]
    got = df.group_by("g").agg(fm.roc_auc_se("y", "a", weight), *intervals).sort("g")
    se = fm.roc_auc_ci(df, y_true="y", y_score="a", by="g", sample_weight=weight)["se"]
    assert all(_close(a, b, 1e-12) for a, b in zip(got["roc_auc_se"], se, strict=True))
    for name in names:
        for bound in ("low", "high"):
            pairs = zip(got[name].struct.field(bound), want[f"{name}_{bound}"], strict=True)
            assert all(_close(a, b, 1e-12) for a, b in pairs), (name, bound)


def test_clopper_pearson_is_not_one_expression_and_applies_to_proportions_only():
    with pytest.raises(ValueError, match="clopper-pearson's interval reads Beta quantiles"):
        fm.confidence_interval("recall_score", "y", "p", method="clopper-pearson")
    df = pl.DataFrame({"y": [0, 1, 1], "p": [0.2, 0.7, 0.4]})
    with pytest.raises(ValueError, match="ci_method='clopper-pearson' does not apply to roc_auc_score"):
        fm.evaluate(df, y_true="y", y_score="p", metrics=["roc_auc_score"], ci=0.9, ci_method="clopper-pearson")
    with pytest.raises(
        ValueError, match="ci_method='clopper-pearson' does not apply to f1_score: it takes 'delta' or 'bootstrap'"
    ):
        fm.evaluate(df, y_true="y", y_score="p", metrics=["f1_score"], ci=0.9, ci_method="clopper-pearson")
