"""Issue 36: a metric with parameters other than its defaults is named by them, the same way everywhere.

``fbeta_score(beta=2)`` is accepted wherever a metric name is (Python's
``metrics=``, the command line's ``-m``), is the name of its column on every
engine and in the SQL text, and one call may hold several parameterisations
of one metric; asking twice for the very same one is an error.
"""

from __future__ import annotations

import io
import math
import re

import duckdb
import numpy as np
import polars as pl
import polars.selectors as cs
import pytest
import sklearn.metrics as skm
from click.testing import CliRunner
from hypothesis import given, settings
from hypothesis import strategies as st
from polars.testing import assert_frame_equal

import framemetrics as fm
from framemetrics.cli import cli
from framemetrics.compilers.sql.dialects import DIALECTS
from framemetrics.core.names import output_name, parse_metric
from framemetrics.core.plan import requested_metrics
from framemetrics.core.registry import get_metric

ENGINES = ("polars", "duckdb")
BETAS = (2, 0.5)
MAX_FPRS = (None, 0.1)
SEVERAL = ["fbeta_score(beta=2)", "fbeta_score(beta=0.5)", "roc_auc_score", "roc_auc_score(max_fpr=0.1)"]


def _frame(n: int = 400, seed: int = 3) -> pl.DataFrame:
    rng = np.random.default_rng(seed)
    y = rng.integers(0, 2, n)
    p = np.clip(0.35 * y + rng.random(n) * 0.65, 0, 1).round(2)  # ties
    return pl.DataFrame({"g": rng.choice(["a", "b", "c"], n), "y": y, "p": p, "w": rng.integers(1, 4, n) * 0.5})


FRAME = _frame()
_rng = np.random.default_rng(5)
CLASSES = pl.DataFrame({"y": _rng.integers(0, 3, 200), "yhat": _rng.integers(0, 3, 200)})


def _sklearn(part: pl.DataFrame) -> dict[str, float]:
    """scikit-learn's value of each metric of :data:`SEVERAL` on the rows of one group (threshold 0.5)."""
    y, p, w = (part[c].to_numpy() for c in ("y", "p", "w"))
    pred = (p >= 0.5).astype(int)
    values = {f"fbeta_score(beta={b})": skm.fbeta_score(y, pred, beta=b, sample_weight=w) for b in BETAS}
    for m in MAX_FPRS:
        values["roc_auc_score" if m is None else f"roc_auc_score(max_fpr={m})"] = skm.roc_auc_score(
            y, p, sample_weight=w, max_fpr=m
        )
    return values


def _assert_equals_sklearn(out: pl.DataFrame) -> None:
    assert out.columns == ["g", "n_rows", *SEVERAL]
    for row in out.iter_rows(named=True):
        for name, want in _sklearn(FRAME.filter(pl.col("g") == row["g"])).items():
            assert math.isclose(row[name], want, rel_tol=1e-9, abs_tol=1e-12), (row["g"], name, row[name], want)


@pytest.mark.parametrize("engine", ENGINES)
def test_several_parameterisations_of_one_metric_in_one_call_equal_scikit_learn(engine):
    out = fm.evaluate(FRAME, y_true="y", y_score="p", sample_weight="w", by="g", metrics=SEVERAL, engine=engine)
    _assert_equals_sklearn(out)


def test_the_sql_text_names_and_quotes_the_columns_and_equals_polars():
    text = fm.sql.query(SEVERAL, table="data", y_true="y", y_score="p", sample_weight="w", by="g")
    assert '"fbeta_score(beta=2)"' in text and '"roc_auc_score(max_fpr=0.1)"' in text
    con = duckdb.connect()
    con.register("data", FRAME)
    out = con.sql(text).pl()
    _assert_equals_sklearn(out)
    polars = fm.evaluate(FRAME, y_true="y", y_score="p", sample_weight="w", by="g", metrics=SEVERAL)
    assert_frame_equal(out, polars, check_dtypes=False, rel_tol=1e-12)


@pytest.mark.parametrize("dialect", sorted(DIALECTS))
def test_every_dialect_quotes_the_names_of_metrics_with_parameters(dialect):
    """The parentheses, ``=`` and ``.`` of a name need a quoted identifier in every dialect."""
    text = fm.sql.query(SEVERAL, table="t", y_true="y", y_score="p", dialect=dialect)
    quote = "`" if dialect in ("spark", "bigquery") else '"'
    for name in ("fbeta_score(beta=2)", "fbeta_score(beta=0.5)", "roc_auc_score(max_fpr=0.1)"):
        assert f"AS {quote}{name}{quote}" in text, (dialect, name)


SPELLINGS = {
    "list": ["fbeta_score(beta=2)", "roc_auc_score(max_fpr=0.2)"],
    "dict": {"fbeta_score": {"beta": 2}, "roc_auc_score": {"max_fpr": 0.2}},
    "mixed": ["fbeta_score(beta=2.0)", {"roc_auc_score": {"max_fpr": 0.2}}],
    "spelling keys": {"fbeta_score(beta=2)": None, "roc_auc_score(max_fpr=0.2)": {}},
}


@pytest.mark.parametrize("engine", ENGINES)
@pytest.mark.parametrize("spelling", SPELLINGS, ids=list(SPELLINGS))
def test_every_spelling_names_the_columns_alike(engine, spelling):
    out = fm.evaluate(FRAME, y_true="y", y_score="p", metrics=SPELLINGS[spelling], engine=engine)
    assert out.columns == ["n_rows", "fbeta_score(beta=2)", "roc_auc_score(max_fpr=0.2)"]
    y, p = FRAME["y"].to_numpy(), FRAME["p"].to_numpy()
    assert math.isclose(out["fbeta_score(beta=2)"].item(), skm.fbeta_score(y, p >= 0.5, beta=2), rel_tol=1e-12)
    assert math.isclose(out["roc_auc_score(max_fpr=0.2)"].item(), skm.roc_auc_score(y, p, max_fpr=0.2), rel_tol=1e-12)


def test_requested_metrics_reads_each_spelling_in_order():
    mixed = ["roc_auc_score", "roc_auc_score(max_fpr=0.1)", {"fbeta_score": {"beta": 2}, "cohen_kappa_score": None}]
    assert requested_metrics(mixed) == [
        ("roc_auc_score", {}),
        ("roc_auc_score", {"max_fpr": 0.1}),
        ("fbeta_score", {"beta": 2}),
        ("cohen_kappa_score", {}),
    ]
    assert requested_metrics("cohen_kappa_score(weights=quadratic)") == [
        ("cohen_kappa_score", {"weights": "quadratic"})
    ]


@pytest.mark.parametrize(
    ("metrics", "name"),
    [
        (["fbeta_score(beta=1)"], "fbeta_score"),  # given but equal to the default: the bare name
        ({"fbeta_score": {"beta": 1.0}}, "fbeta_score"),
        (["roc_auc_score(max_fpr=None)"], "roc_auc_score"),
        (["roc_auc_score(max_fpr=1)"], "roc_auc_score"),  # max_fpr=1 is the whole curve, as None
        (["fbeta_score(beta=2.0)"], "fbeta_score(beta=2)"),
        (["fbeta_score(zero_division=1, beta=0.5)"], "fbeta_score(beta=0.5, zero_division=1)"),  # declared order
        ({"precision_score": {"zero_division": 0}}, "precision_score(zero_division=0)"),
        (["fbeta_score(beta=inf)"], "fbeta_score(beta=inf)"),
    ],
)
def test_the_column_is_the_canonical_spelling(metrics, name):
    out = fm.evaluate(FRAME, y_true="y", y_score="p", metrics=metrics)
    assert out.columns == ["n_rows", name]


def test_zero_division_of_the_call_is_the_default_a_metric_is_compared_with():
    out = fm.evaluate(FRAME, y_true="y", y_score="p", zero_division=1, metrics=["precision_score(zero_division=1)"])
    assert out.columns == ["n_rows", "precision_score"]


def test_other_parameters_are_named_canonically():
    """Strings are quoted, booleans and integers as Python writes them, on the regression and multiclass tables."""
    regression = fm.evaluate(FRAME, y_true="p", y_pred="w", metrics=["r2_score(force_finite=False)"], task="regression")
    assert regression.columns == ["n_rows", "r2_score(force_finite=False)"]
    kappa = {"cohen_kappa_score": {"weights": "quadratic"}}
    out = fm.evaluate(CLASSES, y_true="y", y_pred="yhat", task="multiclass", metrics=kappa)
    assert out.columns == ["n_rows", "cohen_kappa_score(weights='quadratic')"]
    want = skm.cohen_kappa_score(CLASSES["y"], CLASSES["yhat"], weights="quadratic")
    assert math.isclose(out.item(0, 1), want, rel_tol=1e-12)


def test_multiclass_aliases_resolve_before_naming():
    df = CLASSES
    metrics = [
        {"f1_score": {"average": "macro"}},
        {"fbeta_score": {"average": "macro", "beta": 2}},
        "fbeta_weighted(beta=2)",
    ]
    out = fm.evaluate(df, y_true="y", y_pred="yhat", task="multiclass", metrics=metrics)
    assert out.columns == ["n_rows", "f1_macro", "fbeta_macro(beta=2)", "fbeta_weighted(beta=2)"]
    y, yhat = df["y"].to_numpy(), df["yhat"].to_numpy()
    assert math.isclose(out["fbeta_macro(beta=2)"].item(), skm.fbeta_score(y, yhat, beta=2, average="macro"))
    spelled = fm.evaluate(df, y_true="y", y_pred="yhat", task="multiclass", metrics=["f1_score(average='macro')"])
    assert spelled.columns == ["n_rows", "f1_macro"]


@pytest.mark.parametrize(
    ("metrics", "name"),
    [
        (["fbeta_score(beta=2)", {"fbeta_score": {"beta": 2.0}}], "fbeta_score(beta=2)"),
        (["roc_auc_score", "roc_auc_score"], "roc_auc_score"),
        (["roc_auc_score", "roc_auc_score(max_fpr=1.0)"], "roc_auc_score"),
        (["fbeta_score", "fbeta_score(beta=1)"], "fbeta_score"),
        (["f1_score(zero_division=1)", "f1_score(zero_division=1.0)"], "f1_score(zero_division=1)"),
    ],
)
def test_the_same_metric_twice_is_an_argument_error(metrics, name):
    with pytest.raises(fm.ArgumentError, match=f"^{re.escape(name)} is requested twice"):
        fm.evaluate(FRAME, y_true="y", y_score="p", metrics=metrics)


def test_a_parameter_given_twice_is_an_argument_error():
    with pytest.raises(fm.ArgumentError, match="is given beta twice: in its name and in its dict"):
        fm.evaluate(FRAME, y_true="y", y_score="p", metrics={"fbeta_score(beta=2)": {"beta": 3}})
    with pytest.raises(fm.ArgumentError, match="'fbeta_score\\(beta=2, beta=3\\)' gives beta twice"):
        fm.evaluate(FRAME, y_true="y", y_score="p", metrics=["fbeta_score(beta=2, beta=3)"])


@pytest.mark.parametrize("engine", [*ENGINES, "sql_text"])
def test_several_parameterisations_of_a_multiclass_average_equal_scikit_learn(engine):
    """Each parameterisation averages its own per-class values (class 2 is never predicted: its precision is
    undefined, and zero_division decides)."""
    df = pl.DataFrame({"y": [0, 1, 2, 2, 1, 0, 1], "yhat": [0, 0, 0, 1, 1, 0, 1]})
    metrics = ["precision_macro", "precision_macro(zero_division=1)", "precision_macro(zero_division=0)"]
    arguments = {"y_true": "y", "y_pred": "yhat", "metrics": metrics}
    if engine == "sql_text":
        con = duckdb.connect()
        con.register("data", df)
        out = con.sql(fm.sql.multiclass_query(table="data", labels=[0, 1, 2], **arguments)).pl()
    else:
        out = fm.evaluate(df, task="multiclass", engine=engine, **arguments)
    assert out.columns == ["n_rows", *metrics]
    y, yhat = df["y"].to_numpy(), df["yhat"].to_numpy()
    want = [np.nanmean(skm.precision_score(y, yhat, average=None, zero_division=np.nan))]
    want += [skm.precision_score(y, yhat, average="macro", zero_division=z) for z in (1, 0)]
    assert all(math.isclose(a, b, rel_tol=1e-12) for a, b in zip(out.row(0)[1:], want, strict=True)), out.row(0)


PARTS = ["roc_auc_score(max_fpr=0.1)", "roc_auc_score", "roc_auc_score(max_fpr=0.5)", "log_loss", "f1_score"]


@pytest.mark.parametrize("engine", [*ENGINES, "sql_text"])
def test_several_values_of_a_parameter_of_the_statistics_equal_scikit_learn(engine):
    """Two partial AUCs need two curve statistics: the plan is split into parts, one per max_fpr, joined by group
    (null group keys too); every column equals scikit-learn's on the group's rows."""
    df = FRAME.with_columns(g=pl.when(pl.col("g") == "c").then(None).otherwise(pl.col("g")))
    arguments = {"y_true": "y", "y_score": "p", "sample_weight": "w", "by": "g", "metrics": PARTS}
    if engine == "sql_text":
        con = duckdb.connect()
        con.register("data", df)
        out = con.sql(fm.sql.query(table="data", **arguments)).pl()
    else:
        out = fm.evaluate(df, engine=engine, **arguments)
    assert out.columns == ["g", "n_rows", *PARTS]
    assert out["g"].to_list() == ["a", "b", None]
    for row in out.iter_rows(named=True):
        part = df.filter(pl.col("g").eq_missing(row["g"]))
        y, p, w = (part[c].to_numpy() for c in ("y", "p", "w"))
        want = {m: skm.roc_auc_score(y, p, sample_weight=w, max_fpr=f) for m, f in zip(PARTS, (0.1, None, 0.5))}
        want |= {
            "log_loss": skm.log_loss(y, p, sample_weight=w),
            "f1_score": skm.f1_score(y, p >= 0.5, sample_weight=w),
        }
        assert all(math.isclose(row[m], want[m], rel_tol=1e-12) for m in PARTS), (row, want)


@pytest.mark.parametrize("engine", ENGINES)
def test_several_quantiles_and_powers_in_one_regression_call_equal_scikit_learn(engine):
    rng = np.random.default_rng(11)
    df = pl.DataFrame(
        {"y": rng.gamma(2.0, 1.0, 300), "f": rng.gamma(2.0, 1.0, 300), "w": rng.integers(1, 4, 300) * 1.0}
    )
    y, f, w = (df[c].to_numpy() for c in ("y", "f", "w"))
    want = {
        "mean_pinball_loss(alpha=0.1)": skm.mean_pinball_loss(y, f, alpha=0.1, sample_weight=w),
        "mean_pinball_loss": skm.mean_pinball_loss(y, f, sample_weight=w),
        "d2_pinball_score(alpha=0.9)": skm.d2_pinball_score(y, f, alpha=0.9, sample_weight=w),
        "mean_tweedie_deviance(power=1.5)": skm.mean_tweedie_deviance(y, f, power=1.5, sample_weight=w),
        "mean_tweedie_deviance(power=2)": skm.mean_tweedie_deviance(y, f, power=2, sample_weight=w),
        "d2_tweedie_score(power=1)": skm.d2_tweedie_score(y, f, power=1, sample_weight=w),
    }
    out = fm.evaluate(
        df, y_true="y", y_pred="f", sample_weight="w", task="regression", metrics=list(want), engine=engine
    )
    assert out.columns == ["n_rows", *want]
    assert all(math.isclose(out[m].item(), v, rel_tol=1e-12) for m, v in want.items()), (out.row(0), want)


@pytest.mark.parametrize("engine", [*ENGINES, "sql_text"])
def test_several_k_and_beta_in_one_multiclass_call_equal_scikit_learn(engine):
    rng = np.random.default_rng(12)
    scores = rng.dirichlet([1.0] * 4, 300)
    y = rng.integers(0, 4, 300)
    df = pl.DataFrame({"y": y, **{f"s{j}": scores[:, j] for j in range(4)}})
    metrics = ["top_k_accuracy_score(k=1)", "top_k_accuracy_score", "top_k_accuracy_score(k=3)",
               "fbeta_macro(beta=2)", "fbeta_macro(beta=0.5)", "log_loss"]  # fmt: skip
    arguments = {"y_true": "y", "y_score": [f"s{j}" for j in range(4)], "labels": [0, 1, 2, 3], "metrics": metrics}
    if engine == "sql_text":
        con = duckdb.connect()
        con.register("data", df)
        out = con.sql(fm.sql.multiclass_query(table="data", **arguments)).pl()
    else:
        out = fm.evaluate(df, engine=engine, **arguments)
    assert out.columns == ["n_rows", *metrics]
    want = [skm.top_k_accuracy_score(y, scores, k=k) for k in (1, 2, 3)]
    want += [skm.fbeta_score(y, scores.argmax(1), beta=b, average="macro") for b in (2, 0.5)]
    want += [skm.log_loss(y, scores)]
    assert all(math.isclose(a, b, rel_tol=1e-12) for a, b in zip(out.row(0)[1:], want, strict=True)), out.row(0)


@pytest.mark.parametrize("engine", ENGINES)
def test_the_parts_bootstrap_the_same_replicates_as_a_call_of_their_own(engine):
    """Each part's intervals are those of its metrics evaluated alone (the same seed draws the same replicates)."""
    arguments = {"y_true": "y", "y_score": "p", "by": "g", "ci": 0.9, "n_resamples": 30, "engine": engine}
    metrics = ["roc_auc_score(max_fpr=0.2)", "roc_auc_score(max_fpr=0.4)", "top_k_accuracy_score"]
    binary = metrics[:2]
    together = fm.evaluate(FRAME, metrics=binary, **arguments)
    for metric in binary:
        alone = fm.evaluate(FRAME, metrics=[metric], **arguments)
        assert_frame_equal(together.select("g", "n_rows", cs.starts_with(metric)), alone, check_exact=False, rtol=1e-12)
    classes = {"y_true": "y", "y_score": ["s0", "s1", "s2"], "labels": [0, 1, 2], "ci": 0.9, "n_resamples": 30}
    rng = np.random.default_rng(13)
    df = pl.DataFrame({"y": rng.integers(0, 3, 120), **{f"s{j}": rng.random(120) for j in range(3)}})
    together = fm.evaluate(df, metrics=["top_k_accuracy_score(k=1)", metrics[2]], engine=engine, **classes)
    alone = fm.evaluate(df, metrics=["top_k_accuracy_score(k=1)"], engine=engine, **classes)
    assert_frame_equal(together.select(alone.columns), alone, check_exact=False, rtol=1e-12)


@pytest.mark.parametrize("engine", ENGINES)
def test_interval_columns_follow_the_output_name(engine):
    out = fm.evaluate(FRAME, y_true="y", y_score="p", metrics=SEVERAL, ci=0.95, n_resamples=20, engine=engine)
    assert out.columns == ["n_rows", *(f"{m}{s}" for m in SEVERAL for s in ("", "_low", "_high"))]
    assert out.select(pl.all().is_null().any()).row(0) == (False,) * out.width


def test_the_polars_builders_are_named_alike_and_combine():
    out = FRAME.select(fm.fbeta_score("y", pl.col("p") >= 0.5, beta=2), fm.fbeta_score("y", pl.col("p") >= 0.5))
    assert out.columns == ["fbeta_score(beta=2)", "fbeta_score"]


def test_a_multiclass_metric_in_a_binary_call_says_how_to_ask_for_multiclass():
    message = 'f1_macro is a multiclass metric, and this evaluation is binary: ask for a multiclass evaluation with task="multiclass", or labels='
    with pytest.raises(fm.ArgumentError, match=message):
        fm.evaluate(FRAME, y_true="y", y_score="p", metrics=["f1_score", "f1_macro"])
    with pytest.raises(fm.ArgumentError, match="f1_macro is a multiclass metric"):
        fm.evaluate(FRAME, y_true="y", y_pred="y", task="binary", metrics=["f1_macro"])


def test_a_binary_metric_in_a_multiclass_call_says_it_is_binary():
    with pytest.raises(fm.ArgumentError, match="gini_score is a binary metric, not one of a multiclass evaluation"):
        fm.evaluate(CLASSES, y_true="y", y_pred="yhat", task="multiclass", metrics=["gini_score"])
    with pytest.raises(
        fm.ArgumentError, match="f1_score is a binary metric, not one of a multiclass evaluation; did you mean f1_"
    ):
        fm.evaluate(CLASSES, y_true="y", y_pred="yhat", task="multiclass", metrics=["f1_score"])


def test_a_misspelled_parameter_in_the_spelling_says_which_it_takes():
    with pytest.raises(fm.ArgumentError, match=r"fbeta_score has no parameter \['betta'\]; did you mean beta\?"):
        fm.evaluate(FRAME, y_true="y", y_score="p", metrics=["fbeta_score(betta=2)"])
    with pytest.raises(fm.ArgumentError, match=r"cannot read '2' in 'fbeta_score\(2\)': write param=value"):
        fm.evaluate(FRAME, y_true="y", y_score="p", metrics=["fbeta_score(2)"])


def test_the_command_line_prints_both_parameterisations(tmp_path):
    path = str(tmp_path / "preds.parquet")
    FRAME.write_parquet(path)
    result = CliRunner().invoke(cli, ["evaluate", path, "--y-true", "y", "--y-score", "p", "--weight", "w", "--by", "g",
                                      "-m", "roc_auc_score,roc_auc_score(max_fpr=0.1)", "-m", "fbeta_score(beta=2)",
                                      "-m", "fbeta_score(beta=0.5)"], catch_exceptions=False)  # fmt: skip
    assert (result.exit_code, result.stderr) == (0, "")
    got = pl.read_csv(io.StringIO(result.stdout))
    order = ["roc_auc_score", "roc_auc_score(max_fpr=0.1)", "fbeta_score(beta=2)", "fbeta_score(beta=0.5)"]
    assert got.columns == ["g", "n_rows", *order]
    _assert_equals_sklearn(got.select("g", "n_rows", *SEVERAL))


def test_the_command_line_refuses_an_unreadable_spelling_and_the_same_metric_twice(tmp_path):
    path = str(tmp_path / "preds.parquet")
    FRAME.write_parquet(path)
    for metrics, message in [("f1_score(beta=2", "cannot read metric 'f1_score(beta=2'"),
                             ("roc_auc_score,roc_auc_score(max_fpr=1)", "roc_auc_score is requested twice")]:  # fmt: skip
        result = CliRunner().invoke(cli, ["evaluate", path, "--y-true", "y", "--y-score", "p", "-m", metrics])
        assert result.exit_code == 2 and message in result.stderr, (result.exit_code, result.stderr)


def test_the_report_shows_metrics_with_parameters(tmp_path):
    page = fm.evaluation_report(FRAME, y_true="y", y_score="p", by="g", output=tmp_path / "r.html",
                                metrics=["fbeta_score(beta=2)", "roc_auc_score(max_fpr=0.1)", "roc_auc_score"])  # fmt: skip
    text = page.read_text(encoding="utf-8")
    assert "fbeta_score(beta=2)" in text and "roc_auc_score(max_fpr=0.1)" in text


BETA = st.one_of(
    st.floats(0, 1e300, allow_nan=False), st.integers(0, 10**6), st.just(math.inf), st.sampled_from([0.5, 2.0, 1.0])
)


@settings(max_examples=200, deadline=None)
@given(beta=BETA, zero_division=st.sampled_from([None, 0, 1]))
def test_a_name_reads_back_as_its_metric(beta, zero_division):
    """output_name, then parse_metric, gives values equal to those given (whole floats come back as integers)."""
    given_ = {"beta": beta, "zero_division": zero_division}
    name = output_name("fbeta_score", given_, get_metric("fbeta_score").parameters)
    metric, params = parse_metric(name)
    assert metric == "fbeta_score"
    assert params == {k: v for k, v in given_.items() if v != get_metric("fbeta_score").parameters[k]}


@settings(max_examples=25, deadline=None)
@given(betas=st.lists(st.floats(0, 1e3, allow_nan=False), min_size=1, max_size=4, unique_by=lambda b: repr(float(b))))
def test_random_betas_in_one_call_equal_scikit_learn(betas):
    names = [output_name("fbeta_score", {"beta": b}, {"beta": 1.0}) for b in betas]
    if len(set(names)) < len(names):  # 2 and 2.0 are one metric
        return
    out = fm.evaluate(
        FRAME, y_true="y", y_score="p", sample_weight="w", metrics=[f"fbeta_score(beta={b!r})" for b in betas]
    )
    assert out.columns == ["n_rows", *names]
    y, pred, w = FRAME["y"].to_numpy(), FRAME["p"].to_numpy() >= 0.5, FRAME["w"].to_numpy()
    for b, name in zip(betas, names, strict=True):
        assert math.isclose(out[name].item(), skm.fbeta_score(y, pred, beta=b, sample_weight=w), rel_tol=1e-9)


@pytest.mark.parametrize("engine", ["polars", "duckdb"])
def test_a_multiclass_metric_with_one_score_column_says_what_each_task_needs(engine):
    """``metrics=["f1_macro"]`` with one binary score column: the task is multiclass by the metric, and the
    error says that it needs a column per class, or binary metrics (not a bare "must be a list")."""
    frame = pl.DataFrame({"y": [0, 1, 1, 0], "p": [0.2, 0.7, 0.4, 0.1]})
    with pytest.raises(ValueError, match=r"'p' \(y_score\) holds one score per row .*one score column per class"):
        fm.evaluate(frame, y_true="y", y_score="p", metrics=["f1_macro"], engine=engine)
