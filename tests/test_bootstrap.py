"""The Poisson bootstrap against NumPy computing the same replicates from the same weights, on both engines.

The weights are the NumPy reference's of :mod:`test_resampling` (the same
seed scheme, its own arithmetic); each replicate's F1 and log loss are
computed here with NumPy and the interval is NumPy's linear percentiles.
"""

from __future__ import annotations

import math

import numpy as np
import polars as pl
import polars.selectors as cs
import pytest
import sklearn.metrics as skm
from hypothesis import given, settings
from hypothesis import strategies as st
from polars.testing import assert_frame_equal
from reference import output_column
from scipy import stats
from sklearn_multiclass import MC_REFERENCES
from test_resampling import numpy_weights

import framemetrics as fm
from framemetrics.multiclass import MULTICLASS

ENGINES = ("polars", "duckdb")
EPS = np.finfo(float).eps


def _frame(seed: int, n: int = 120) -> pl.DataFrame:
    rng = np.random.default_rng(seed)
    return pl.DataFrame(
        {
            "g": rng.integers(0, 3, n),
            "y": rng.integers(0, 2, n),
            "p": rng.integers(1, 20, n) / 20,
            "w": rng.integers(0, 4, n).astype(float),
            "id": rng.permutation(n) * 3 - 50,  # keys of any sign, in no order
        }
    )


def _reference(df: pl.DataFrame, seed: int, replicates: int, level: float, weighted: bool) -> dict:
    """Per group: NumPy's replicate F1 and log loss and their percentile intervals (undefined replicates left out)."""
    k = numpy_weights(df["id"].to_list(), seed, replicates)
    out = {}
    for g in sorted(set(df["g"].to_list())):
        mask = (df["g"] == g).to_numpy()
        y, p = df["y"].to_numpy()[mask], df["p"].to_numpy()[mask]
        w = (df["w"].to_numpy()[mask] if weighted else np.ones(mask.sum()))[:, None] * k[mask]
        pred = p >= 0.5
        tp, fp, fn = (w * ((y == 1) & pred)[:, None]).sum(0), (w * ((y == 0) & pred)[:, None]).sum(0), (
            w * ((y == 1) & ~pred)[:, None]).sum(0)  # fmt: skip
        q = np.clip(np.where(y == 1, p, 1 - p), EPS, 1 - EPS)
        with np.errstate(invalid="ignore", divide="ignore"):
            f1 = np.where(2 * tp + fp + fn > 0, 2 * tp / (2 * tp + fp + fn), np.nan)
            loss = np.where(w.sum(0) > 0, (w * -np.log(q)[:, None]).sum(0) / w.sum(0), np.nan)
        bounds = [100 * (1 - level) / 2, 100 * (1 + level) / 2]
        out[g] = {name: np.percentile(v[~np.isnan(v)], bounds) for name, v in (("f1_score", f1), ("log_loss", loss))}
    return out


@pytest.mark.parametrize("weighted", [False, True])
@pytest.mark.parametrize("engine", ENGINES)
def test_replicates_equal_numpy(engine, weighted):
    df, seed, replicates, level = _frame(3), 11, 60, 0.9
    out = fm.evaluate(df, y_true="y", y_score="p", by="g", metrics=["f1_score", "log_loss"], ci=level,
                      ci_method="bootstrap", n_resamples=replicates, seed=seed, row_id="id", sample_weight="w" if weighted else None,
                      engine=engine)  # fmt: skip
    want = _reference(df, seed, replicates, level, weighted)
    for row in out.iter_rows(named=True):
        for name in ("f1_score", "log_loss"):
            low, high = want[row["g"]][name]
            assert math.isclose(row[f"{name}_low"], low, rel_tol=1e-9), (engine, name, row, low)
            assert math.isclose(row[f"{name}_high"], high, rel_tol=1e-9), (engine, name, row, high)


def test_row_id_gives_the_same_replicates_whatever_the_order_on_both_engines():
    df = _frame(4)
    shuffled = df.sample(fraction=1.0, shuffle=True, seed=1)
    arguments = {"y_true": "y", "y_score": "p", "by": "g", "metrics": ["f1_score", "brier_score_loss"], "ci": 0.95,
                 "n_resamples": 40, "row_id": "id"}  # fmt: skip
    outs = [fm.evaluate(frame, engine=e, **arguments) for frame in (df, shuffled) for e in ENGINES]
    for other in outs[1:]:
        assert other.schema == outs[0].schema
        for a, b in zip(other.drop("g").rows(), outs[0].drop("g").rows(), strict=True):
            assert all(math.isclose(x, y, rel_tol=1e-12) for x, y in zip(a, b, strict=True))


def test_the_default_1000_replicates_run_on_both_engines_and_agree():
    # Their rows are a chain of 999 UNION ALL in SQL, which a recursive walk of the tree could not emit.
    df = _frame(6, n=40)
    arguments = {"y_true": "y", "y_score": "p", "metrics": ["log_loss"], "ci": 0.9, "ci_method": "bootstrap",
                 "row_id": "id"}  # fmt: skip
    polars, duckdb = (fm.evaluate(df, engine=e, **arguments) for e in ENGINES)
    assert_frame_equal(polars, duckdb, check_exact=False, rtol=1e-12)
    assert duckdb["log_loss_low"].item() < duckdb["log_loss"].item() < duckdb["log_loss_high"].item()


def test_bootstrap_arguments_are_checked():
    df = _frame(5).with_columns(name=pl.lit("a"))
    with pytest.raises(ValueError, match="n_resamples must be an integer from 2"):
        fm.evaluate(df, y_true="y", y_score="p", metrics=["f1_score"], ci=0.9, ci_method="bootstrap", n_resamples=1)
    with pytest.raises(ValueError, match=r"column 'name' \(row_id\) must hold integers"):
        fm.evaluate(df, y_true="y", y_score="p", metrics=["f1_score"], ci=0.9, ci_method="bootstrap", row_id="name")
    with pytest.raises(ValueError, match=r"column 'id' \(row_id\): 1 row is null"):
        fm.evaluate(df.with_columns(id=pl.when(pl.col("id") == pl.col("id").max()).then(None).otherwise(pl.col("id"))),
                    y_true="y", y_score="p", metrics=["f1_score"], ci=0.9, ci_method="bootstrap", row_id="id", engine="duckdb")  # fmt: skip
    for dialect in ("spark", "postgres", "clickhouse", "datafusion", "bigquery", "snowflake"):  # tables: no order
        with pytest.raises(ValueError, match=f"the bootstrap on {dialect} needs row_id="):
            fm.sql.query(["f1_score"], table="t", y_true="y", y_score="p", ci=0.9, ci_method="bootstrap", n_resamples=2,
                         dialect=dialect)


BOUNDS = ("_low", "_high")
RANKING = {
    "average_precision_score": lambda y, p, w: skm.average_precision_score(y, p, sample_weight=w),
    "roc_auc_score": lambda y, p, w: skm.roc_auc_score(y, p, sample_weight=w),
    "gini_score": lambda y, p, w: 2 * skm.roc_auc_score(y, p, sample_weight=w) - 1,
    "ks_statistic": lambda y, p, w: max(np.subtract(*skm.roc_curve(y, p, sample_weight=w)[1::-1])),
    "partial_auc": lambda y, p, w: skm.roc_auc_score(y, p, sample_weight=w, max_fpr=0.5),
}


def _ranking_reference(df: pl.DataFrame, seed: int, replicates: int, level: float) -> dict:
    """Per group: scikit-learn's replicate AP, AUC and Gini (weights w k) and NumPy's percentiles of the defined."""
    k = numpy_weights(df["id"].to_list(), seed, replicates)
    out = {}
    for g in sorted(set(df["g"].to_list())):
        mask = (df["g"] == g).to_numpy()
        y, p = df["y"].to_numpy()[mask], df["p"].to_numpy()[mask]
        w = df["w"].to_numpy()[mask][:, None] * k[mask]
        values = {name: [] for name in RANKING}
        for b in range(replicates):
            positive, negative = w[y == 1, b].sum(), w[y == 0, b].sum()
            for name, metric in RANKING.items():
                defined = positive > 0 and (negative > 0 or name == "average_precision_score")
                values[name].append(metric(y, p, w[:, b]) if defined else np.nan)
        bounds = [100 * (1 - level) / 2, 100 * (1 + level) / 2]
        out[g] = {name: np.percentile(np.array(v)[~np.isnan(v)], bounds) for name, v in values.items()}
    return out


@pytest.mark.parametrize("engine", ENGINES)
def test_ranking_replicates_equal_scikit_learn(engine):
    """The curve stage's metrics: every replicate's curve from one sort, equal to scikit-learn on the weights w k."""
    df, seed, replicates, level = _frame(6, n=90), 5, 40, 0.8
    arguments = {"y_true": "y", "y_score": "p", "by": "g", "ci": level, "ci_method": "bootstrap", "engine": engine,
                 "n_resamples": replicates, "seed": seed, "row_id": "id", "sample_weight": "w"}  # fmt: skip
    # McClish's standardized partial AUC below FPR 0.5, as scikit-learn's max_fpr, beside the full AUC.
    metrics = [*(name for name in RANKING if name != "partial_auc"), "roc_auc_score(max_fpr=0.5)"]
    out = fm.evaluate(df, metrics=metrics, **arguments)
    out = out.rename({f"roc_auc_score(max_fpr=0.5){s}": f"partial_auc{s}" for s in BOUNDS})
    want = _ranking_reference(df, seed, replicates, level)
    for row in out.iter_rows(named=True):
        for name in RANKING:
            low, high = want[row["g"]][name]
            assert math.isclose(row[f"{name}_low"], low, rel_tol=1e-9, abs_tol=1e-12), (engine, name, row, low)
            assert math.isclose(row[f"{name}_high"], high, rel_tol=1e-9, abs_tol=1e-12), (engine, name, row, high)


def test_the_95_interval_of_a_known_auc_covers_it_in_95_percent_of_2000_segments():
    """Coverage by simulation: scores of 20 tied levels, binomial per class, so the AUC (ties half) is known exactly.

    2,000 segments of 100 positives and 100 negatives; the bootstrap's 95 %
    interval (200 replicates) must cover the true AUC in 95 % +- 3 % of them,
    and DeLong's on the same segments too.
    """
    levels, segments, per_class = 20, 2000, 100
    negative, positive = (stats.binom.pmf(np.arange(levels), levels - 1, q) for q in (0.45, 0.6))
    below = np.concatenate([[0.0], np.cumsum(negative)[:-1]])  # P(negative score < level)
    true_auc = float((positive * (below + negative / 2)).sum())
    rng = np.random.default_rng(17)
    y = np.tile(np.repeat([1, 0], per_class), segments)
    scores = np.where(y == 1, rng.binomial(levels - 1, 0.6, y.size), rng.binomial(levels - 1, 0.45, y.size))
    df = pl.DataFrame({"g": np.repeat(np.arange(segments), 2 * per_class), "y": y, "p": scores / (levels - 1)})
    boot = fm.evaluate(df, y_true="y", y_score="p", by="g", metrics=["roc_auc_score"], ci=0.95,
                       ci_method="bootstrap", n_resamples=200, seed=3)  # fmt: skip
    delong = fm.roc_auc_ci(df, y_true="y", y_score="p", by="g", level=0.95)
    for low, high in ((boot["roc_auc_score_low"], boot["roc_auc_score_high"]), (delong["low"], delong["high"])):
        covered = ((low <= true_auc) & (true_auc <= high)).mean()
        assert 0.92 <= covered <= 0.98, (covered, true_auc)


@pytest.mark.parametrize("engine", ENGINES)
def test_first_pass_replicates_equal_scikit_learn(engine):
    """R² and explained variance: each replicate's sums of squares about its own weighted mean, from one pass."""
    rng = np.random.default_rng(8)
    n, seed, replicates, level = 150, 9, 40, 0.9
    df = pl.DataFrame({"g": rng.integers(0, 3, n), "y": 1e6 + rng.normal(0, 1, n), "f": 1e6 + rng.normal(0, 1, n),
                       "w": rng.integers(1, 4, n).astype(float), "id": rng.permutation(n)})  # fmt: skip
    metrics = {"r2_score": skm.r2_score, "explained_variance_score": skm.explained_variance_score}
    out = fm.evaluate(df, y_true="y", y_pred="f", by="g", metrics=list(metrics), ci=level, n_resamples=replicates,
                      seed=seed, row_id="id", sample_weight="w", engine=engine)  # fmt: skip
    k = numpy_weights(df["id"].to_list(), seed, replicates)
    for row in out.iter_rows(named=True):
        mask = (df["g"] == row["g"]).to_numpy()
        y, f, w = df["y"].to_numpy()[mask], df["f"].to_numpy()[mask], df["w"].to_numpy()[mask]
        for name, metric in metrics.items():
            values = [metric(y, f, sample_weight=w * k[mask, b]) for b in range(replicates)]
            low, high = np.percentile(values, [100 * (1 - level) / 2, 100 * (1 + level) / 2])
            assert math.isclose(row[f"{name}_low"], low, rel_tol=1e-9), (engine, name, row, low)
            assert math.isclose(row[f"{name}_high"], high, rel_tol=1e-9), (engine, name, row, high)


@pytest.mark.parametrize("engine", ENGINES)
def test_tweedie_d2_replicates_equal_scikit_learn(engine):
    """D^2 of the Tweedie deviance at every kind of power: each replicate's deviance of the targets' mean about
    the replicate's own mean, from the first pass's mean (targets near 1e6, where the shift is tiny, and skewed
    targets in small groups, where it is large), equals scikit-learn on the weights w k. Near 1e6 only at power
    0: a row's deviance at other powers, as scikit-learn writes it, loses digits there (at power 1, y ln(y / m)
    and y - m are about 1 for a deviance of 5e-7), in scikit-learn as in the point estimate."""
    rng = np.random.default_rng(21)
    n, seed, replicates, level = 120, 5, 30, 0.9
    near = 1e6 + rng.normal(0, 1, n)
    skewed = rng.exponential(2.0, n) + 0.01
    frames = {
        "near 1e6": pl.DataFrame({"g": rng.integers(0, 2, n), "y": near, "f": near + rng.normal(0, 1, n)}),
        "skewed": pl.DataFrame({"g": rng.integers(0, 6, n), "y": skewed, "f": rng.exponential(2.0, n) + 0.01}),
    }
    for label, frame in frames.items():
        df = frame.with_columns(w=pl.Series(rng.integers(1, 4, n).astype(float)), id=pl.Series(rng.permutation(n)))
        k = numpy_weights(df["id"].to_list(), seed, replicates)
        for power in (0.0,) if label == "near 1e6" else (0.0, -1.0, 1.0, 1.5, 2.0, 3.0):
            out = fm.evaluate(df, y_true="y", y_pred="f", by="g", metrics={"d2_tweedie_score": {"power": power}},
                              ci=level, n_resamples=replicates, seed=seed, row_id="id", sample_weight="w",
                              engine=engine)  # fmt: skip
            for row in out.iter_rows(named=True):
                mask = (df["g"] == row["g"]).to_numpy()
                y, f, w = df["y"].to_numpy()[mask], df["f"].to_numpy()[mask], df["w"].to_numpy()[mask]
                values = [skm.d2_tweedie_score(y, f, sample_weight=w * k[mask, b], power=power)
                          for b in range(replicates) if (k[mask, b] > 0).sum() > 1]  # fmt: skip
                low, high = np.percentile(values, [100 * (1 - level) / 2, 100 * (1 + level) / 2])
                for bound, want in (("_low", low), ("_high", high)):
                    got = row[output_column("d2_tweedie_score", {"power": power}) + bound]
                    assert math.isclose(got, want, rel_tol=1e-9, abs_tol=1e-12), (
                        engine,
                        label,
                        power,
                        bound,
                        got,
                        want,
                    )


QUANTILES = {
    "median_absolute_error": lambda y, f, w, alpha: skm.median_absolute_error(y, f, sample_weight=w),
    "d2_absolute_error_score": lambda y, f, w, alpha: skm.d2_absolute_error_score(y, f, sample_weight=w),
    "d2_pinball_score": lambda y, f, w, alpha: skm.d2_pinball_score(y, f, sample_weight=w, alpha=alpha),
    "mean_absolute_error": lambda y, f, w, alpha: skm.mean_absolute_error(y, f, sample_weight=w),
}


@pytest.mark.parametrize("engine", ENGINES)
def test_quantile_replicates_equal_scikit_learn(engine):
    """The metrics of a weighted quantile: each replicate's own quantile (of |y - f|, of y) from its running
    weights down one sort, equal to scikit-learn on the resample (each row repeated k times); tied values
    (halves and thirds), groups of 3 to 45 rows (replicates of the smallest draw 0 to 3 rows); the pinball loss at two
    levels."""
    rng = np.random.default_rng(12)
    n, seed, replicates, level = 160, 7, 40, 0.8
    df = pl.DataFrame({"g": np.where(np.arange(n) < 3, -1, np.minimum(rng.integers(0, 6, n), rng.integers(2, 6, n))),
                       "y": rng.integers(0, 12, n) / 2, "f": rng.integers(0, 12, n) / 3,
                       "w": rng.integers(1, 4, n).astype(float), "id": rng.permutation(n) * 5 - 7})  # fmt: skip
    k = numpy_weights(df["id"].to_list(), seed, replicates)
    for alpha in (0.5, 0.2):
        metrics = {name: {"alpha": alpha} if name == "d2_pinball_score" else {} for name in QUANTILES}
        out = fm.evaluate(df, y_true="y", y_pred="f", by="g", metrics=metrics, ci=level, ci_method="bootstrap",
                          n_resamples=replicates, seed=seed, row_id="id", sample_weight="w", engine=engine)  # fmt: skip
        assert out.height == df["g"].n_unique()
        for row in out.iter_rows(named=True):
            mask = (df["g"] == row["g"]).to_numpy()
            y, f, w = df["y"].to_numpy()[mask], df["f"].to_numpy()[mask], df["w"].to_numpy()[mask]
            for name, metric in QUANTILES.items():
                # The resample itself: each row repeated k times (a D^2 of one drawn row is undefined, NaN).
                resamples = [np.repeat(np.arange(mask.sum()), k[mask, b]) for b in range(replicates)]
                values = [metric(y[r], f[r], w[r], alpha) for r in resamples if r.size]
                values = [v for v in values if not np.isnan(v)]
                bounds = [100 * (1 - level) / 2, 100 * (1 + level) / 2]
                low, high = np.percentile(values, bounds) if values else [None, None]
                for bound, want in (("_low", low), ("_high", high)):
                    got = row[output_column(name, metrics[name]) + bound]
                    same = got is want is None or math.isclose(got, want, rel_tol=1e-9, abs_tol=1e-12)
                    assert same, (engine, alpha, name, row, want)


def _multiclass_frame(seed: int, n: int = 90) -> tuple[pl.DataFrame, list[str]]:
    """Four classes, one of them rare; hard predictions agreeing half the time; probability scores with ties."""
    rng = np.random.default_rng(seed)
    labels = ["ant", "bee", "cat", "dog"]
    y = rng.choice(4, n, p=[0.4, 0.3, 0.25, 0.05])
    yhat = np.where(rng.random(n) < 0.5, y, rng.integers(0, 4, n))
    counts = rng.integers(0, 4, size=(n, 4)).astype(float)
    counts[counts.sum(axis=1) == 0, 0] = 1
    proba = counts / counts.sum(axis=1, keepdims=True)
    frame = {"g": rng.integers(0, 3, n), "y": [labels[i] for i in y], "yhat": [labels[i] for i in yhat],
             "w": rng.integers(0, 4, n).astype(float), "id": rng.permutation(n) * 7 - 100,
             **{f"p_{c}": proba[:, j] for j, c in enumerate(labels)}}  # fmt: skip
    return pl.DataFrame(frame), labels


# Every multiclass metric: those of the confusion cells, and the one-vs-rest, one-vs-one and micro curves'.
MC_RESAMPLED = {
    name: {"beta": 2.0} if name.startswith("fbeta") else {"weights": "quadratic"} if name == "cohen_kappa_score" else {}
    for name in MULTICLASS
}


@pytest.mark.parametrize("given_labels", [False, True])
@pytest.mark.parametrize("engine", ENGINES)
def test_multiclass_replicates_equal_scikit_learn(engine, given_labels):
    """Every replicate's multiclass metric is scikit-learn's on the weights w k (the classes of the group's rows,
    or labels=), the interval NumPy's percentiles of the defined replicates; the estimate is the plain one.
    Through evaluate_multiclass(ci=) and fm.bootstrap(task="multiclass"). The one-vs-one AUCs take no weights
    (as scikit-learn): their replicates are scikit-learn's on the resample, each row repeated k times."""
    df, labels = _multiclass_frame(7)
    seed, replicates, level = 13, 30, 0.9
    scores = [f"p_{c}" for c in labels]
    hard = {n: p for n, p in MC_RESAMPLED.items() if MULTICLASS[n].prediction == "y_pred"}
    requests = [(hard, "w")]
    if given_labels:  # the scores' metrics need labels=
        scored = {n: p for n, p in MC_RESAMPLED.items() if MULTICLASS[n].prediction == "y_score"}
        requests += [({n: p for n, p in scored.items() if MULTICLASS[n].weighted is weighted}, "w" if weighted else None)
                     for weighted in (True, False)]  # fmt: skip
    k = numpy_weights(df["id"].to_list(), seed, replicates)
    for metrics, weight in requests:
        scored_request = any(MULTICLASS[n].prediction == "y_score" for n in metrics)
        arguments = {"y_true": "y", "by": "g", "sample_weight": weight, "labels": labels if given_labels else None,
                     "engine": engine, "y_pred": None if scored_request else "yhat",
                     "y_score": scores if scored_request else None}  # fmt: skip
        plain = fm.evaluate_multiclass(df, metrics=metrics, **arguments)
        if given_labels:
            out = fm.evaluate_multiclass(df, metrics=metrics, ci=level, n_resamples=replicates, seed=seed,
                                         row_id="id", **arguments)  # fmt: skip
        else:  # the same through fm.bootstrap, the task given
            out = fm.bootstrap(df, metrics=metrics, task="multiclass", level=level, n_resamples=replicates, seed=seed,
                               row_id="id", **arguments)  # fmt: skip
        for row, estimate in zip(out.iter_rows(named=True), plain.iter_rows(named=True), strict=True):
            mask = (df["g"] == row["g"]).to_numpy()
            y, yhat, w = df["y"].to_numpy()[mask], df["yhat"].to_numpy()[mask], df["w"].to_numpy()[mask]
            proba = df.select(scores).to_numpy()[mask]
            for name, params in metrics.items():
                reference = MC_REFERENCES[name]
                full = {**MULTICLASS[name].parameters, **params}
                column = output_column(name, params, "multiclass")
                assert _same(row[column], estimate[column], 1e-12), (engine, name, row[column], estimate[column])
                given = labels if given_labels else None
                if weight is None:  # the resample: each row repeated k times, no weights
                    resamples = [np.repeat(np.arange(mask.sum()), k[mask, b]) for b in range(replicates)]
                    values = [reference(y[r], yhat[r], proba[r], None, given, full) for r in resamples if r.size]
                else:
                    values = [reference(y, yhat, proba, w * k[mask, b], given, full) for b in range(replicates)]
                defined = [v for v in values if v is not None]
                want = np.percentile(defined, [100 * (1 - level) / 2, 100 * (1 + level) / 2]) if defined else [None] * 2
                for bound, value in zip(BOUNDS, want, strict=True):
                    assert _same(row[column + bound], value, 1e-9), (engine, name, bound, row[column + bound], value)


def _same(got: float | None, want: float | None, tolerance: float) -> bool:
    if got is None or want is None:
        return got is None and want is None
    return math.isclose(got, want, rel_tol=tolerance, abs_tol=tolerance)


def test_multiclass_intervals_refuse_other_methods():
    df, _ = _multiclass_frame(8, n=20)
    with pytest.raises(ValueError, match="ci_method='wilson' does not apply to multiclass accuracy_score"):
        fm.evaluate_multiclass(df, y_true="y", y_pred="yhat", metrics=["accuracy_score"], ci=0.9, ci_method="wilson")
    with pytest.raises(ValueError, match=r"column 'g' \(row_id\) must hold integers|column 'y' \(row_id\)"):
        fm.evaluate_multiclass(df, y_true="y", y_pred="yhat", metrics=["accuracy_score"], ci=0.9, row_id="y")


def test_the_row_position_counts_the_rows_as_read_before_nulls_are_dropped_on_both_engines():
    """Without row_id the key is the row's position in the source: the same rows draw the same weights on both
    engines whether nulls="drop" removes rows or not (a position counted after the drop would shift every key)."""
    df = _frame(9, n=60).with_columns(p=pl.when(pl.col("id") % 5 == 0).then(None).otherwise(pl.col("p")))
    binary = {"y_true": "y", "y_score": "p", "by": "g", "metrics": ["f1_score", "log_loss"], "ci": 0.9,
              "n_resamples": 30, "nulls": "drop"}  # fmt: skip
    mc, _ = _multiclass_frame(10, n=60)
    mc = mc.with_columns(yhat=pl.when(pl.col("id") % 3 == 0).then(None).otherwise(pl.col("yhat")))
    multiclass = {"y_true": "y", "y_pred": "yhat", "by": "g", "metrics": ["accuracy_score", "f1_macro"], "ci": 0.9,
                  "n_resamples": 30, "nulls": "drop"}  # fmt: skip
    for run in (
        lambda e: fm.evaluate(df, engine=e, **binary),
        lambda e: fm.evaluate_multiclass(mc, engine=e, **multiclass),
    ):
        polars, duckdb = run("polars"), run("duckdb")
        assert polars.columns == duckdb.columns
        for a, b in zip(polars.rows(), duckdb.rows(), strict=True):
            assert all(_same(x, y, 1e-12) for x, y in zip(a, b, strict=True)), (a, b)


def _scipy_bca(statistic, n: int, replicates: np.ndarray, level: float) -> list[float]:
    """SciPy's BCa levels (``scipy.stats._resampling._bca_interval``: its jackknife of ``statistic`` over the row
    indices) for our replicates, and SciPy's quantiles of the defined replicates at them."""
    from scipy.stats._resampling import _bca_interval

    def over_indices(idx: np.ndarray, axis: int = -1) -> np.ndarray:
        return np.array(statistic(idx)) if idx.ndim == 1 else np.array([statistic(row) for row in idx])

    defined = replicates[~np.isnan(replicates)]
    alpha_1, alpha_2, _ = _bca_interval((np.arange(n),), over_indices, axis=-1, alpha=(1 - level) / 2,
                                        theta_hat_b=defined, batch=None, xp=np)  # fmt: skip
    return [float(stats.quantile(defined, float(alpha_1))), float(stats.quantile(defined, float(alpha_2)))]


BCA_METRICS = {
    "f1_score": lambda y, p, w: skm.f1_score(y, p >= 0.5, sample_weight=w),
    "log_loss": lambda y, p, w: skm.log_loss(y, p, sample_weight=w, labels=[0, 1]),
    "brier_score_loss": lambda y, p, w: skm.brier_score_loss(y, p, sample_weight=w),
    "matthews_corrcoef": lambda y, p, w: skm.matthews_corrcoef(y, p >= 0.5, sample_weight=w),
}


@pytest.mark.parametrize("weighted", [False, True])
@pytest.mark.parametrize("engine", ENGINES)
def test_bca_equals_scipy_on_the_same_replicates(engine, weighted):
    """ci_method="bca": SciPy's BCa (its bias correction, its jackknife of the scikit-learn metric over the rows,
    its quantiles) on the replicates NumPy draws with the same seed scheme, per group, weighted or not."""
    rng = np.random.default_rng(8)
    n, seed, replicates, level = 150, 4, 80, 0.9
    df = pl.DataFrame({"g": rng.integers(0, 2, n), "y": rng.integers(0, 2, n), "p": rng.random(n).round(2),
                       "w": rng.integers(1, 4, n).astype(float), "id": rng.permutation(n)})  # fmt: skip
    out = fm.evaluate(df, y_true="y", y_score="p", by="g", metrics=list(BCA_METRICS), ci=level, ci_method="bca",
                      n_resamples=replicates, seed=seed, row_id="id", sample_weight="w" if weighted else None,
                      engine=engine)  # fmt: skip
    k = numpy_weights(df["id"].to_list(), seed, replicates)
    for row in out.iter_rows(named=True):
        mask = (df["g"] == row["g"]).to_numpy()
        y, p = df["y"].to_numpy()[mask], df["p"].to_numpy()[mask]
        w = df["w"].to_numpy()[mask] if weighted else np.ones(mask.sum())
        for name, metric in BCA_METRICS.items():
            drawn = np.array([metric(y, p, w * k[mask, b]) for b in range(replicates)])
            low, high = _scipy_bca(lambda i, f=metric, y=y, p=p, w=w: f(y[i], p[i], w[i]), len(y), drawn, level)
            assert math.isclose(row[f"{name}_low"], low, rel_tol=1e-9), (engine, name, row, low)
            assert math.isclose(row[f"{name}_high"], high, rel_tol=1e-9), (engine, name, row, high)


def test_bca_refuses_the_metrics_without_an_exact_jackknife():
    df = _frame(1)
    for metric in ("roc_auc_score", "average_precision_score"):
        with pytest.raises(ValueError, match=f"ci_method='bca' does not apply to {metric}: it reads"):
            fm.evaluate(df, y_true="y", y_score="p", metrics=[metric], ci=0.9, ci_method="bca", n_resamples=10)
    with pytest.raises(ValueError, match="ci_method='bca' does not apply to multiclass"):
        fm.evaluate(df, y_true="y", y_pred="g", task="multiclass", metrics=["f1_macro"], ci=0.9, ci_method="bca")


BCA_REGRESSION = {
    "r2_score": skm.r2_score,
    "explained_variance_score": skm.explained_variance_score,
    "mean_squared_error": skm.mean_squared_error,
    "mean_absolute_error": skm.mean_absolute_error,
}


@pytest.mark.parametrize("engine", ENGINES)
def test_bca_of_regression_metrics_equals_scipy(engine):
    """R² and explained variance (their centred sums left out a row exactly) and the mean errors, weighted."""
    rng = np.random.default_rng(21)
    n, seed, replicates, level = 120, 6, 60, 0.95
    y = rng.normal(10, 3, n)
    df = pl.DataFrame({"g": rng.integers(0, 2, n), "y": y, "f": y + rng.normal(0.5, 2, n), "w": rng.random(n) + 0.2,
                       "id": rng.permutation(n)})  # fmt: skip
    out = fm.bootstrap(df, y_true="y", y_pred="f", by="g", sample_weight="w", metrics=list(BCA_REGRESSION),
                       n_resamples=replicates, level=level, seed=seed, row_id="id", method="bca", engine=engine)  # fmt: skip
    k = numpy_weights(df["id"].to_list(), seed, replicates)
    for row in out.iter_rows(named=True):
        mask = (df["g"] == row["g"]).to_numpy()
        t, f, w = (df[c].to_numpy()[mask] for c in ("y", "f", "w"))
        for name, metric in BCA_REGRESSION.items():
            drawn = np.array([metric(t, f, sample_weight=w * k[mask, b]) for b in range(replicates)])
            statistic = lambda i, m=metric, t=t, f=f, w=w: m(t[i], f[i], sample_weight=w[i])
            low, high = _scipy_bca(statistic, len(t), drawn, level)
            assert math.isclose(row[f"{name}_low"], low, rel_tol=1e-9), (engine, name, row, low)
            assert math.isclose(row[f"{name}_high"], high, rel_tol=1e-9), (engine, name, row, high)


def test_bca_is_null_where_documented_and_the_engines_agree():
    """A one-row group (its jackknife value undefined) and a group of identical rows (every jackknife value equal,
    a = 0/0) get null BCa bounds on both engines, as SciPy's NaN; a group with a proper spread gets bounds."""
    rng = np.random.default_rng(2)
    df = pl.DataFrame({
        "g": ["one"] + ["same"] * 30 + ["spread"] * 60,
        "y": [1] + [1] * 30 + rng.integers(0, 2, 60).tolist(),
        "p": [0.9] + [0.8] * 30 + rng.random(60).round(2).tolist(),
        "id": list(range(91)),
    })  # fmt: skip
    got = {engine: fm.bootstrap(df, y_true="y", y_score="p", by="g", metrics=["log_loss", "f1_score"], n_resamples=40,
                                row_id="id", method="bca", engine=engine).sort("g") for engine in ENGINES}  # fmt: skip
    assert_frame_equal(got["polars"], got["duckdb"], rel_tol=1e-12)
    bounds = cs.ends_with("_low", "_high").is_null()
    nulls = got["polars"].select("g", pl.all_horizontal(bounds).alias("all"), pl.any_horizontal(bounds).alias("any"))
    assert nulls.rows() == [("one", True, True), ("same", True, True), ("spread", False, False)]


@settings(max_examples=8, deadline=None)
@given(seed=st.integers(0, 2**32 - 1), n=st.integers(2, 40), weighted=st.booleans())
def test_bca_engines_agree_on_generated_data(seed, n, weighted):
    """Polars and DuckDB give the same BCa bounds (and the same nulls) on generated groups, ties and zero weights
    included."""
    rng = np.random.default_rng(seed)
    df = pl.DataFrame({"g": rng.integers(0, 2, n), "y": rng.integers(0, 2, n), "p": rng.integers(0, 5, n) / 4,
                       "w": rng.integers(0, 3, n).astype(float), "id": rng.permutation(n)})  # fmt: skip
    got = [
        fm.bootstrap(df, y_true="y", y_score="p", by="g", sample_weight="w" if weighted else None, n_resamples=30,
                     metrics=["f1_score", "log_loss", "brier_score_loss"], row_id="id", method="bca", seed=seed % 7,
                     engine=engine).sort("g")
        for engine in ENGINES
    ]  # fmt: skip
    assert_frame_equal(got[0], got[1], rel_tol=1e-9, abs_tol=1e-12)
