"""Multiclass: the registry walk, bad input (same errors on both engines), parameters and aliases."""

from __future__ import annotations

import duckdb
import numpy as np
import polars as pl
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from reference import close, output_column
from sklearn import metrics as skm
from sklearn_multiclass import MC_REFERENCES

import framemetrics as fm
from framemetrics.core.plan import make_plan
from framemetrics.multiclass import MULTICLASS

ENGINES = ["polars", "duckdb"]


def test_every_metric_has_a_reference():
    assert set(MC_REFERENCES) == set(MULTICLASS)


def _resolved(name: str, params: dict | None = None) -> str:
    plan = make_plan({name: params or {}}, task="multiclass", weighted=False, labels=(0, 1, 2), n_scores=3)
    return plan.calls[0].name


def test_aliases_in_scikit_learn_spelling():
    assert _resolved("f1_score", {"average": "macro"}) == "f1_macro"
    assert _resolved("roc_auc_score", {"multi_class": "ovo"}) == "roc_auc_ovo"
    assert _resolved("roc_auc_score", {"average": "micro"}) == "roc_auc_ovr_micro"
    assert _resolved("average_precision_score", {"average": "weighted"}) == "average_precision_weighted"
    with pytest.raises(ValueError, match="classification_report"):
        _resolved("f1_score", {"average": None})
    with pytest.raises(ValueError, match="did you mean f1_macro"):
        _resolved("f1_macr")


FRAME = pl.DataFrame(
    {
        "g": ["a", "a", "b", "b"],
        "y": ["cat", "dog", "pig", "cat"],
        "yhat": ["cat", "cow", "pig", None],
        "p0": [0.7, 0.2, 0.1, 0.5],
        "p1": [0.2, 0.7, 0.1, 0.7],
        "p2": [0.1, 0.1, 0.8, -0.1],
        "w": [1.0, -1.0, 1.0, 1.0],
    }
)
LABELS = ["cat", "dog", "pig"]


def errors(**kwargs) -> list[str]:
    messages = []
    for engine in ENGINES:
        with pytest.raises(ValueError) as error:
            fm.evaluate_multiclass(FRAME, y_true="y", engine=engine, **kwargs)
        messages.append(str(error.value))
    assert messages[0] == messages[1]
    return messages[0]


def test_labels_outside_labels_and_nulls_name_the_column_and_count():
    message = errors(y_pred="yhat", labels=LABELS, metrics=["accuracy_score"])
    assert "column 'yhat' (y_pred): 2 rows are null or not one of labels" in message


def test_null_prediction_without_labels():
    message = errors(y_pred="yhat", metrics=["f1_macro"])
    assert "column 'yhat' (y_pred): 1 row is null" in message


def test_probabilities_out_of_range_and_not_summing_to_one():
    message = errors(y_score=["p0", "p1", "p2"], labels=LABELS, metrics=["log_loss"])
    assert "column 'p2' (y_score): 1 row is null, NaN or outside [0, 1]" in message
    assert "columns 'p0', 'p1', 'p2' (y_score): 1 row has class probabilities that do not sum to 1" in message


def test_negative_weights():
    message = errors(y_pred="y", sample_weight="w", metrics=["accuracy_score"])
    assert "column 'w' (sample_weight): 1 row is null, NaN, infinite or negative" in message


@pytest.mark.parametrize(
    ("kwargs", "match"),
    [
        ({"y_pred": "nope"}, "column 'nope' \\(y_pred\\) not found"),
        ({"y_pred": "p0"}, "labels of one type"),
        ({"y_pred": "yhat", "metrics": ["f1_macr"]}, "did you mean"),
        ({"y_score": ["p0", "p1"], "metrics": ["log_loss"]}, "need labels=: the class of each score column"),
        ({"y_score": ["p0", "p1"], "labels": LABELS, "metrics": ["log_loss"]}, "2 score columns but 3 labels"),
        ({"y_pred": "yhat", "metrics": ["log_loss"]}, "needs y_score="),
        (
            {"y_score": ["p0", "p1", "p2"], "labels": LABELS, "sample_weight": "w", "metrics": ["roc_auc_ovo"]},
            "does not support sample_weight",
        ),
        ({"y_pred": "yhat", "labels": [1, 2, 3]}, "do not match the type"),
        ({"y_pred": "yhat", "metrics": {"cohen_kappa_score": {"weights": "cubic"}}}, "weights must be"),
        ({"y_pred": "yhat", "labels": ["cat", "cat"]}, "distinct"),
        ({"y_pred": "yhat", "by": "n_rows"}, "not found"),
    ],
)
def test_request_errors(kwargs, match):
    for engine in ENGINES:
        with pytest.raises(ValueError, match=match):
            fm.evaluate_multiclass(FRAME, y_true="y", engine=engine, **kwargs)


@pytest.mark.parametrize("engine", ENGINES)
def test_nulls_drop_and_list_column_scores(engine):
    df = FRAME.with_columns(scores=pl.concat_list("p0", "p1", "p2")).filter(pl.col("p2") >= 0)
    listed = fm.evaluate_multiclass(
        df,
        y_true="y",
        y_score="scores",
        labels=LABELS,
        by="g",
        metrics=["log_loss", "roc_auc_ovr_micro"],
        engine=engine,
    )
    columns = fm.evaluate_multiclass(
        df,
        y_true="y",
        y_score=["p0", "p1", "p2"],
        labels=LABELS,
        by="g",
        metrics=["log_loss", "roc_auc_ovr_micro"],
        engine=engine,
    )
    assert listed.equals(columns)
    dropped = fm.evaluate_multiclass(FRAME, y_true="y", y_pred="yhat", by="g", nulls="drop", engine=engine)
    assert dropped["n_rows"].to_list() == [2, 1]


def test_categorical_labels_and_engines_agree():
    df = FRAME.with_columns(
        pl.col("y").cast(pl.Categorical), pl.col("y").alias("yhat").cast(pl.Enum(["cat", "dog", "pig"]))
    )
    frames = [fm.evaluate_multiclass(df, y_true="y", y_pred="yhat", by="g", engine=e) for e in ENGINES]
    assert frames[0].equals(frames[1])
    assert frames[0]["accuracy_score"].to_list() == [1.0, 1.0]


def test_sql_text_gives_null_for_invalid_groups_and_counts_with_checks():
    import duckdb

    con = duckdb.connect()
    con.register("preds", FRAME)
    sql = fm.sql.multiclass_query(
        ["accuracy_score"], table="preds", y_true="y", y_pred="yhat", labels=LABELS, by="g", checks=True
    )
    rows = con.sql(sql).fetchall()
    assert rows == [("a", 2, None, 0, 1), ("b", 2, None, 0, 1)]


@pytest.mark.parametrize("engine", ENGINES)
def test_report_and_confusion_matrix_name_invalid_columns(engine):
    for build in (fm.classification_report, fm.multiclass_confusion_matrix):
        with pytest.raises(ValueError, match="column 'yhat' \\(y_pred\\): 2 rows are null or not one of labels"):
            build(FRAME, y_true="y", y_pred="yhat", labels=LABELS, by="g", engine=engine)


@pytest.mark.parametrize("engine", ENGINES)
@pytest.mark.parametrize("zero_division", [0, 1])
def test_report_class_rows_apply_zero_division(engine, zero_division):
    """Issue 13, item 4: a class without support or prediction gets ``zero_division``, as scikit-learn."""
    y, yp, labels = [1, 3, 3, 2], [1, 1, 3, 2], [0, 1, 2, 3, 4]
    frame = pl.DataFrame({"y": y, "yp": yp})
    report = fm.classification_report(
        frame, y_true="y", y_pred="yp", labels=labels, zero_division=zero_division, engine=engine
    )
    want = skm.precision_recall_fscore_support(y, yp, labels=labels, zero_division=zero_division, average=None)
    for column, expected in zip(("precision", "recall", "f1_score"), want[:3], strict=False):
        assert report[column].head(len(labels)).to_list() == pytest.approx(list(expected), rel=1e-12), column


@pytest.mark.parametrize("engine", ENGINES)
def test_report_on_empty_input_is_an_error(engine):
    """Issue 13, item 6: no rows is an error, not three average rows."""
    empty = pl.DataFrame({"y": [1], "yp": [1]}).clear()
    with pytest.raises(ValueError, match="no rows to evaluate"):
        fm.classification_report(empty, y_true="y", y_pred="yp", engine=engine)


@pytest.mark.parametrize("engine", ENGINES)
@pytest.mark.parametrize("dtype", [pl.List(pl.Float64), pl.Array(pl.Float64, 4)])
def test_a_score_list_longer_than_labels_is_invalid(engine, dtype):
    """Issue 13, item 2: the unlabelled fourth score is not silently cut (scikit-learn raises)."""
    frame = pl.DataFrame(
        {"y": ["a", "b"], "p": [[0.1, 0.1, 0.1, 0.7], [0.2, 0.6, 0.1, 0.1]]}, schema_overrides={"p": dtype}
    )
    with pytest.raises(ValueError, match=r"column 'p' \(y_score\): 2 rows are not lists of one score per label"):
        fm.evaluate_multiclass(frame, y_true="y", y_score="p", labels=["a", "b", "c"], metrics=["top_k_accuracy_score"],
                               engine=engine)  # fmt: skip


@pytest.mark.parametrize("engine", ENGINES)
@pytest.mark.parametrize("label", [float("inf"), float("-inf")])
def test_an_infinite_float_label_is_invalid(engine, label):
    """Issue 13, item 3: without labels=, an infinite float label is not a class."""
    frame = pl.DataFrame({"y": [1.0, 2.0], "yp": [label, 1.0]})
    with pytest.raises(ValueError, match=r"column 'yp' \(y_pred\): 1 row is null, NaN or infinite"):
        fm.evaluate_multiclass(frame, y_true="y", y_pred="yp", engine=engine)


@pytest.mark.parametrize("engine", ENGINES)
@pytest.mark.parametrize("weights", [None, "linear", "quadratic"])
def test_kappa_of_a_group_weighing_zero_is_null(engine, weights):
    """Issue 13, item 5: null as for binary kappa, never NaN (the chance agreement divided 0 by 0)."""
    frame = pl.DataFrame({"y": [1, 2, 3], "yp": [1, 2, 2], "w": [0.0, 0.0, 0.0]})
    out = fm.evaluate_multiclass(frame, y_true="y", y_pred="yp", sample_weight="w",
                                 metrics={"cohen_kappa_score": {"weights": weights}}, engine=engine)  # fmt: skip
    assert out[output_column("cohen_kappa_score", {"weights": weights}, "multiclass")].to_list() == [None]


LABEL_METRICS = ["accuracy_score", "f1_macro", "precision_weighted", "matthews_corrcoef", "cohen_kappa_score"]


@settings(max_examples=25, deadline=None)
@given(
    data=st.lists(
        st.tuples(st.sampled_from(["cat", "dog", "pig"]), *(st.integers(0, 3) for _ in range(3)), st.integers(1, 3)),
        min_size=1,
        max_size=30,
    )
)
@pytest.mark.parametrize("engine", ENGINES)
def test_scores_without_y_pred_predict_their_argmax(engine, data):
    """Label metrics read the argmax of the scores in labels order (ties: the first label, as NumPy's argmax)."""
    labels = ["cat", "dog", "pig"]
    frame = pl.DataFrame(data, schema=["y", "cat", "dog", "pig", "w"], orient="row")
    frame = frame.with_columns(pl.col(labels).cast(pl.Float64) / 4)  # small integers over 4: many ties
    got = fm.evaluate_multiclass(
        frame, y_true="y", y_score=labels, sample_weight="w", metrics=LABEL_METRICS, engine=engine
    )
    scores = frame.select(labels).to_numpy()
    predicted = [labels[i] for i in scores.argmax(axis=1)]
    y, w = frame["y"].to_list(), frame["w"].to_numpy()
    want = {
        "accuracy_score": skm.accuracy_score(y, predicted, sample_weight=w),
        "f1_macro": skm.f1_score(y, predicted, average="macro", labels=labels, sample_weight=w, zero_division=np.nan),
        "precision_weighted": skm.precision_score(
            y, predicted, average="weighted", labels=labels, sample_weight=w, zero_division=np.nan
        ),
        "matthews_corrcoef": skm.matthews_corrcoef(y, predicted, sample_weight=w),
        "cohen_kappa_score": skm.cohen_kappa_score(y, predicted, labels=labels, sample_weight=w),
    }
    for name, value in want.items():
        assert close(got[name].item(), None if np.isnan(value) else float(value)), (name, got[name].item(), value)
    sql = fm.sql.multiclass_query(
        LABEL_METRICS, table="frame", y_true="y", y_score=labels, labels=labels, sample_weight="w"
    )
    texts = duckdb.sql(sql).pl().drop("n_rows").row(0)
    assert all(close(a, b) for a, b in zip(texts, got.drop("n_rows").row(0), strict=True))


def test_score_columns_named_after_the_classes_give_the_labels():
    frame = pl.DataFrame(
        {"y": [0, 1, 2, 1], "0": [0.6, 0.1, 0.2, 0.3], "1": [0.2, 0.8, 0.2, 0.3], "2": [0.2, 0.1, 0.6, 0.4]}
    )
    got = fm.evaluate_multiclass(frame, y_true="y", y_score=["0", "1", "2"], metrics=["accuracy_score"])
    assert got["accuracy_score"].item() == 0.75
    with pytest.raises(fm.ArgumentError, match="need labels=: the class of each score column"):
        fm.evaluate_multiclass(frame.rename({"0": "p0"}), y_true="y", y_score=["p0", "1", "2"], metrics=["log_loss"])


@pytest.mark.parametrize("engine", ENGINES)
def test_argmax_scores_are_checked_finite_even_for_label_metrics_only(engine):
    frame = pl.DataFrame({"y": ["a", "b", "a"], "a": [0.6, 0.2, float("nan")], "b": [0.4, 0.8, 0.3]})
    with pytest.raises(ValueError, match=r"column 'a' \(y_score\): 1 row is null, NaN or infinite"):
        fm.evaluate(frame, y_true="y", y_score=["a", "b"], metrics=["accuracy_score"], engine=engine)
    table = fm.class_table(frame.head(2), y_true="y", y_score=["a", "b"], engine=engine)
    assert table["tp"].to_list() == [1.0, 1.0]
    matrix = fm.multiclass_confusion_matrix(frame.head(2), y_true="y", y_score=["a", "b"], engine=engine)
    assert matrix["weight"].to_list() == [1.0, 0.0, 0.0, 1.0]
