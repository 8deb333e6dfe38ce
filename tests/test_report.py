"""The report's numbers are the library's (binary from one shared curve stage, multiclass), and the tint's scale."""

from __future__ import annotations

import re

import numpy as np
import polars as pl
import pytest
from hypothesis import HealthCheck, assume, given, settings
from hypothesis import strategies as st
from polars.testing import assert_frame_equal

import framemetrics as fm
from framemetrics.core.intervals import has_own_interval
from framemetrics.core.plan import make_plan
from framemetrics.report.collect import HISTOGRAM_BINS, collect, stack
from framemetrics.report.multiclass import MULTICLASS_REPORT_METRICS, collect_multiclass
from framemetrics.report.page import FULL_RED_GAP, badness
from framemetrics.report.shared import shared_results
from framemetrics.request import Call
from framemetrics.stages.statistics import rolls_up

RNG = np.random.default_rng(11)
N = 600
PROBA = RNG.dirichlet([2, 2, 1], N)
LABELS = ["cat", "dog", "pig"]
FRAME = pl.DataFrame(
    {
        "zoo": RNG.choice(["north", "south", "east", "west", "far"], N),
        "species": [LABELS[RNG.choice(3, p=p)] for p in PROBA],
        "cat": PROBA[:, 0],
        "dog": PROBA[:, 1],
        "pig": PROBA[:, 2],
    }
)


@pytest.mark.parametrize("engine", ["polars", "duckdb"])
def test_the_multiclass_report_holds_the_library_numbers(engine):
    data = collect_multiclass(Call(FRAME, y_true="species", y_score=LABELS, by=("zoo",), engine=engine), max_segments=2)
    metrics = [*MULTICLASS_REPORT_METRICS, "log_loss", "roc_auc_ovr", "average_precision_macro"]
    assert_frame_equal(data.overall, fm.evaluate(FRAME, y_true="species", y_score=LABELS, metrics=metrics))
    want = fm.evaluate(FRAME, y_true="species", y_score=LABELS, metrics=metrics, by="zoo")
    assert_frame_equal(data.segments, want, rel_tol=1e-12)
    assert_frame_equal(data.classes, fm.class_table(FRAME, y_true="species", y_score=LABELS), rel_tol=1e-12)
    assert data.confusion["segment"].unique(maintain_order=True).to_list() == ["all", *data.shown[:2]]
    whole = data.confusion.filter(pl.col("segment") == "all")
    matrix = fm.multiclass_confusion_matrix(FRAME, y_true="species", y_score=LABELS)
    assert whole["weight"].to_list() == matrix["weight"].to_list()
    roc = fm.roc_curve(FRAME, y_true="species", y_score=LABELS, max_points=1000)
    assert (
        data.roc.filter(pl.col("segment") == "cat")["tpr"].to_list()
        == roc.filter(pl.col("class") == "cat")["tpr"].to_list()
    )
    assert data.classes_shown == tuple(LABELS)  # every class, whatever max_segments


def test_a_multiclass_report_is_written_with_its_figures(tmp_path):
    page = fm.evaluation_report(FRAME, y_true="species", y_score=LABELS, by="zoo", output=tmp_path / "r.html")
    text = page.read_text()
    for part in ('id="figure-confusion"', 'id="figure-roc"', 'id="figure-pr"', "Per class (all rows)", "f1_macro"):
        assert part in text
    labels_only = FRAME.with_columns(guess=pl.col("species").shuffle(seed=1))
    page = fm.evaluation_report(labels_only, y_true="species", y_pred="guess", output=tmp_path / "l.html")
    assert 'id="figure-confusion"' in page.read_text() and 'id="figure-roc"' not in page.read_text()


def test_the_tint_has_a_fixed_scale():
    assert badness("roc_auc_score", 0.90 - FULL_RED_GAP, 0.90) == 1.0
    assert badness("f1_macro", 0.85, 0.90) == pytest.approx(0.5)
    assert badness("log_loss", 0.25, 0.2) == pytest.approx(0.5)
    assert badness("roc_auc_score", 0.95, 0.90) == 0.0


BINARY_ROWS = st.lists(
    st.tuples(
        st.sampled_from(["a", "b", "c", None]),
        st.integers(0, 1),
        st.sampled_from([0.0, 0.1, 0.25, 0.5, 0.5000001, 0.9, 1.0]),
        st.sampled_from([0.0, 0.5, 1.0, 3.0]),
    ),
    min_size=1,
    max_size=60,
)


def _library(frame: pl.DataFrame, metrics: list[str], **columns: object) -> pl.DataFrame:
    """fm.evaluate's frame of ``metrics``, each with its 95 % interval where it has one of its own (as the report)."""
    plain = fm.evaluate(frame, metrics=metrics, **columns)
    own = [m for m in metrics if has_own_interval(m, {})]
    with_ci = fm.evaluate(frame, metrics=own, ci=0.95, **columns)
    order = [
        c
        for m in ["n_rows", *metrics]
        for c in (m, f"{m}_low", f"{m}_high")
        if c in plain.columns or c in with_ci.columns
    ]
    keys = [c for c in plain.columns if c not in ("n_rows", *metrics)]
    return pl.concat([plain, with_ci.drop(*keys, "n_rows", *own)], how="horizontal").select(*keys, *order)


@pytest.mark.parametrize("engine", ["polars", "duckdb"])
@pytest.mark.examples(duckdb=3)
@settings(max_examples=6, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(rows=BINARY_ROWS)
def test_the_binary_report_holds_the_library_numbers(engine, rows):
    """Metrics and curves come from one shared curve stage, calibration from one query per bin count: all
    equal evaluate and the curve functions, per segment and over all rows (weights of 0, ties, a null segment)."""
    frame = pl.DataFrame(rows, schema=["g", "y", "p", "w"], orient="row")
    assume(frame["w"].sum() > 0)
    columns = {"y_true": "y", "y_score": "p", "sample_weight": "w", "engine": engine}
    data = collect(Call(frame, by=("g",), **columns), max_points=8, max_segments=3)
    metrics = list(data.metrics)
    assert_frame_equal(data.overall, _library(frame, metrics, **columns), rel_tol=1e-12, abs_tol=1e-12)
    want = _library(frame, metrics, by="g", **columns)
    assert_frame_equal(data.segments, want, rel_tol=1e-12, abs_tol=1e-12)
    for name, got in (("roc_curve", data.roc), ("precision_recall_curve", data.pr)):
        whole = fm.curve_table(name, frame, drop_intermediate=False, max_points=8, **columns)
        per_segment = fm.curve_table(name, frame, by="g", drop_intermediate=False, max_points=8, **columns)
        assert_frame_equal(got, stack(whole, per_segment, ("g",), data.shown), rel_tol=1e-12, abs_tol=1e-12)
    whole, per_segment = (fm.calibration_curve(frame, by=by, **columns) for by in (None, "g"))
    assert_frame_equal(data.calibration, stack(whole, per_segment, ("g",), data.shown), rel_tol=1e-12, abs_tol=1e-12)
    assert_frame_equal(data.distribution, fm.calibration_curve(frame, n_bins=HISTOGRAM_BINS, **columns))


@pytest.mark.parametrize("metrics", [["roc_auc_score", "f1_score", "log_loss"], ["roc_auc_score", "log_loss"]])
@pytest.mark.parametrize("engine", ["polars", "duckdb"])
def test_all_rows_summed_from_the_segments_equal_a_second_read(engine, metrics):
    """A plan whose statistics roll up (confusion cells: the rows read once, all rows' cells summed from the
    segments') and one that does not (read at both levels) give evaluate's numbers, null segment included."""
    assert rolls_up(make_plan(metrics, weighted=True)) == ("f1_score" in metrics)
    rng = np.random.default_rng(8)
    frame = pl.DataFrame({"g": [("a", "b", None)[i] for i in rng.integers(0, 3, 400)], "y": rng.integers(0, 2, 400),
                          "p": rng.random(400).round(2), "w": rng.integers(0, 4, 400) / 2})  # fmt: skip
    call = Call(frame, y_true="y", y_score="p", sample_weight="w", by=("g",), engine=engine)
    with call.open() as opened:
        shared = shared_results(call, opened, metrics=metrics, threshold=0.5, max_points=100)
    columns = {"y_true": "y", "y_score": "p", "sample_weight": "w", "engine": engine}
    got = shared.metrics.drop("fm_sum_pos_sq")
    assert_frame_equal(shared.level(got, 0), _library(frame, metrics, **columns), rel_tol=1e-12, abs_tol=1e-12)
    assert_frame_equal(shared.level(got, 1), _library(frame, metrics, by="g", **columns), rel_tol=1e-12, abs_tol=1e-12)


@pytest.mark.parametrize("engine", ["polars", "duckdb"])
def test_curves_are_computed_for_the_largest_segments_alone_ties_kept(engine):
    """With ``max_segments=2``, the curves are those of all rows and of every segment at least as large as the second
    largest (b and its tie c, not d), the calibration bins those of every segment, read from the same stage."""
    sizes = {"a": 6, "b": 4, "c": 4, "d": 2}
    groups = [g for g, n in sizes.items() for _ in range(n)]
    frame = pl.DataFrame({"g": groups, "y": [i % 2 for i in range(16)], "p": [(i * 7 % 16) / 16 for i in range(16)]})
    call = Call(frame, y_true="y", y_score="p", by=("g",), engine=engine)
    with call.open() as opened:
        shared = shared_results(call, opened, metrics=["roc_auc_score"], threshold=0.5, max_points=100,
                                calibration_bins={10: True}, max_segments=2)  # fmt: skip
    for curve in shared.curves.values():
        assert set(shared.level(curve, 1)["g"]) == {"a", "b", "c"}
        assert shared.level(curve, 0).height > 0
        want = fm.curve_table("roc_curve", frame.filter(pl.col("g") == "c"), y_true="y", y_score="p",
                              drop_intermediate=False, max_points=100)  # fmt: skip
        if "fpr" in curve.columns:
            assert_frame_equal(shared.level(curve, 1).filter(pl.col("g") == "c").drop("g"), want)
    assert set(shared.level(shared.calibration[10], 1)["g"]) == set(sizes)
    per_segment = fm.calibration_curve(frame, y_true="y", y_score="p", by="g")
    assert_frame_equal(shared.level(shared.calibration[10], 1), per_segment)


@pytest.mark.parametrize("engine", ["polars", "duckdb"])
def test_a_column_named_like_the_report_level_changes_nothing(engine):
    frame = pl.DataFrame(
        {
            "fm_level": [5, 5, 6, 6, 6],
            "FM_LEVEL_": [1, 1, 1, 1, 1],
            "y": [0, 1, 1, 0, 1],
            "p": [0.2, 0.9, 0.1, 0.3, 0.8],
        }
    )
    columns = {"y_true": "y", "y_score": "p", "engine": engine}
    data = collect(Call(frame, by=("fm_level",), **columns))
    assert_frame_equal(data.segments, _library(frame, list(data.metrics), by="fm_level", **columns))
    assert_frame_equal(data.overall, _library(frame, list(data.metrics), **columns))


def test_a_cell_with_an_interval_is_tinted_only_where_the_interval_excludes_the_overall_value():
    from framemetrics.report.page import _table

    overall = pl.DataFrame({"roc_auc_score": [0.90], "roc_auc_score_low": [0.88], "roc_auc_score_high": [0.92]})
    segments = pl.DataFrame(
        {
            "g": ["wide", "worse"],
            "roc_auc_score": [0.85, 0.70],
            "roc_auc_score_low": [0.70, 0.60],
            "roc_auc_score_high": [0.95, 0.80],
        }
    )
    page = _table(segments, "t", None, overall, ("g",))
    header, body = page.split("<tbody>")
    rows = body.split("<tr>")[1:]
    assert "roc_auc_score_low" not in header and "roc_auc_score" in header
    assert "background" not in rows[0] and "background" in rows[1]  # 0.85 within [0.70, 0.95] of 0.90: no tint
    assert all(r.count('<svg class="bar"') == 1 and "[0." in r for r in rows)


@pytest.mark.parametrize("weighted", [False, True])
@pytest.mark.parametrize("engine", ["polars", "duckdb"])
def test_the_roc_band_is_wilsons_interval_of_the_tpr_at_each_point(engine, weighted):
    """Each ROC point's band is statsmodels' Wilson interval of the TPR with Kish's n of the segment's positives,
    (sum w)^2 / sum w^2 (their count without weights), drawn under every curve of the figure."""
    from statsmodels.stats.proportion import proportion_confint

    from framemetrics.report.plots import roc_svg, tpr_band

    rng = np.random.default_rng(4)
    frame = pl.DataFrame({"g": rng.choice(["a", "b"], 300), "y": rng.integers(0, 2, 300), "p": rng.random(300).round(2),
                          "w": rng.integers(1, 4, 300) / 2})  # fmt: skip
    data = collect(Call(frame, y_true="y", y_score="p", by=("g",), sample_weight="w" if weighted else None, engine=engine),
                   max_points=20)  # fmt: skip
    positives = frame.filter(pl.col("y") == 1).with_columns(w=pl.col("w") if weighted else pl.lit(1.0))
    squares = {"all": (positives["w"] ** 2).sum()} | {
        g: (part["w"] ** 2).sum() for (g,), part in positives.group_by("g")
    }
    for (segment,), points in data.roc.group_by("segment"):
        band = tpr_band(points, squares[segment])
        total = (points["tp"] + points["fn"]).to_numpy()
        n = total**2 / squares[segment]  # Kish's effective count of the positives
        low, high = proportion_confint(points["tp"].to_numpy() / total * n, n, alpha=0.05, method="wilson")
        np.testing.assert_allclose(band["low"].to_numpy(), low, rtol=1e-9, atol=1e-12, err_msg=segment)
        np.testing.assert_allclose(band["high"].to_numpy(), high, rtol=1e-9, atol=1e-12, err_msg=segment)
        got = data.positives_squared.filter(pl.col("segment") == segment)["positives_squared"].item()
        assert got == pytest.approx(squares[segment], rel=1e-12)
    assert roc_svg(data).count('class="band"') == data.roc["segment"].n_unique() == 3


@pytest.mark.parametrize("engine", ["polars", "duckdb"])
def test_the_header_states_every_input_that_changes_a_number(engine, tmp_path):
    """Threshold, labels, weights and nulls (binary); the classes and the predicted class (multiclass)."""
    frame = pl.DataFrame({"y": ["yes", "no", "yes", "no", None], "p": [0.9, 0.2, 0.4, 0.35, 0.5],
                          "w": [1.0, 2.0, 1.0, 1.0, 1.0], "g": ["a", "a", "b", "b", "b"]})  # fmt: skip
    page = fm.evaluation_report(frame, y_true="y", y_score="p", sample_weight="w", by="g", threshold=0.3,
                                pos_label="yes", neg_label="no", nulls="drop", engine=engine,
                                output=tmp_path / "b.html").read_text()  # fmt: skip
    header = page[page.index('<p class="inputs"') : page.index("<h2>")]
    for stated in ("Decision threshold", "y_score ≥ 0.3", "pos_label=&#x27;yes&#x27;, neg_label=&#x27;no&#x27;",
                   "Weights:</span> column &#x27;w&#x27;", "nulls=&#x27;drop&#x27;", "y_true=&#x27;y&#x27;"):  # fmt: skip
        assert stated in header, stated
    default = fm.evaluation_report(frame.drop_nulls(), y_true="y", y_score="p", pos_label="yes", neg_label="no",
                                   engine=engine, output=tmp_path / "d.html").read_text()  # fmt: skip
    assert "y_score ≥ 0.5" in default and "none (each row counts 1)" in default and "nulls=&#x27;error&#x27;" in default
    page = fm.evaluation_report(FRAME, y_true="species", y_score=LABELS, labels=LABELS, engine=engine,
                                output=tmp_path / "m.html").read_text()  # fmt: skip
    header = page[page.index('<p class="inputs"') : page.index("<h2>")]
    assert "cat, dog, pig (labels=)" in header and "the argmax of the scores" in header
    assert "threshold" not in header  # no threshold in a multiclass evaluation


def _classes(n_classes: int, worst: int) -> tuple[pl.DataFrame, list[str]]:
    """Scores of ``n_classes`` where class ``worst`` is the hardest to recall; the largest classes come first."""
    rng = np.random.default_rng(5)
    sizes = [60 - 2 * k for k in range(n_classes)]
    y = np.repeat(np.arange(n_classes), sizes)
    noise = rng.random((y.size, n_classes))
    noise[np.arange(y.size), y] += np.where(y == worst, 0.05, 0.6 + 0.02 * y)
    noise /= noise.sum(axis=1, keepdims=True)  # probabilities: the log loss of the report's defaults
    names = [f"c{k}" for k in range(n_classes)]
    frame = pl.DataFrame({"y": [names[k] for k in y], **{name: noise[:, k] for k, name in enumerate(names)}})
    return frame, names


@pytest.mark.parametrize("engine", ["polars", "duckdb"])
def test_every_class_is_plotted_up_to_12_else_those_of_lowest_recall(engine):
    """Ten classes: all ten curves (the worst, among the smallest, too). Fourteen: the twelve of lowest recall by
    scikit-learn, named in a note."""
    from sklearn.metrics import recall_score

    frame, names = _classes(10, worst=8)
    data = collect_multiclass(Call(frame, y_true="y", y_score=names, engine=engine), max_segments=3)
    assert data.classes_shown == tuple(names) and sorted(set(data.roc["segment"])) == sorted(names)
    assert not any("curves show" in note for note in data.notes)
    frame, names = _classes(14, worst=13)
    data = collect_multiclass(Call(frame, y_true="y", y_score=names, engine=engine))
    predicted = [names[k] for k in frame.select(names).to_numpy().argmax(axis=1)]
    recall = recall_score(frame["y"].to_list(), predicted, labels=names, average=None)
    lowest = sorted(np.argsort(recall, kind="stable")[:12])
    assert data.classes_shown == tuple(names[k] for k in lowest) and "c13" in data.classes_shown
    assert set(data.roc["segment"]) == set(data.classes_shown)
    assert f"The curves show the 12 classes of lowest recall of 14: {', '.join(data.classes_shown)}." in data.notes


@pytest.mark.parametrize("weighted", [False, True])
def test_confusion_counts_and_class_counts_read_as_counts(weighted, tmp_path):
    """The heatmaps hold scikit-learn's confusion matrix, integers without weights (never 177.0000), with the
    fewest decimals with weights; the class table's counts likewise."""
    from sklearn.metrics import confusion_matrix

    from framemetrics.report.plots import confusion_svg

    rows = FRAME.with_columns(w=pl.Series([0.5, 1.0, 1.25, 2.0] * (N // 4)))
    weights = rows["w"].to_numpy() if weighted else None
    data = collect_multiclass(Call(rows, y_true="species", y_score=LABELS, sample_weight="w" if weighted else None))
    predicted = [LABELS[k] for k in rows.select(LABELS).to_numpy().argmax(axis=1)]
    matrix = confusion_matrix(rows["species"].to_list(), predicted, labels=LABELS, sample_weight=weights)
    svg = confusion_svg(data).split("</svg>")[0]  # all rows
    cells = re.findall(r'<text class="count"[^>]*>([^<]+)</text>', svg)
    assert cells == [f"{v:,.4f}".rstrip("0").rstrip(".") for v in matrix.ravel()]
    if not weighted:
        assert cells == [f"{v:,}" for v in matrix.ravel().astype(int)]
    page = fm.evaluation_report(rows, y_true="species", y_score=LABELS, sample_weight="w" if weighted else None,
                                output=tmp_path / "m.html").read_text()  # fmt: skip
    table = page[page.index('id="classes"') :]
    support = matrix.sum(axis=1)
    for value in support:
        text = f"{value:,.4f}".rstrip("0").rstrip(".")
        assert f">{text}</td>" in table
    assert ".0000</td>" not in table


@pytest.mark.parametrize("weighted", [False, True])
@pytest.mark.parametrize("engine", ["polars", "duckdb"])
def test_the_calibration_plot_shows_the_size_of_each_bin(engine, weighted):
    """Beneath the reliability diagram, each bin's rows (its weight with weights), as scikit-learn bins them."""
    from framemetrics.report.plots import calibration_svg

    rng = np.random.default_rng(8)
    frame = pl.DataFrame({"y": rng.integers(0, 2, 500), "p": rng.beta(1, 3, 500), "w": rng.integers(1, 5, 500) / 4})
    data = collect(Call(frame, y_true="y", y_score="p", sample_weight="w" if weighted else None, engine=engine))
    binids = np.searchsorted(np.linspace(0, 1, 11)[1:-1], frame["p"].to_numpy())  # scikit-learn's bins
    sizes = np.bincount(binids, weights=frame["w"].to_numpy() if weighted else None, minlength=10)
    svg = calibration_svg(data)
    histogram = svg[svg.rindex('<g transform="translate(0 ') :]
    shown = [f"{v:,.4f}".rstrip("0").rstrip(".") for v in sizes if v > 0]
    assert re.findall(r'<text class="count"[^>]*>([^<]+)</text>', histogram) == shown
    assert histogram.count("<rect") == len(shown) and ("Weight" if weighted else "Rows") in histogram
