"""The two engines agree on awkward sources and types: same result, same dtypes, same order, same error.

A column a call does not use never matters (DuckDB's schema probe used to
convert every column, and Polars panics on an INTERVAL); a DuckDB relation
or table can be read by the Polars engine; a call leaves the user's
connection as it found it; Float16, Int128, Enum, Categorical and time-zoned
group columns come back as the Polars engine gives them.
"""

from __future__ import annotations

import datetime as dt
import threading

import duckdb
import polars as pl
import pytest
from click.testing import CliRunner

import framemetrics as fm
from framemetrics.cli import cli

ENGINES = ("polars", "duckdb")
FRAME = pl.DataFrame(
    {
        "y": [0, 1, 0, 1, 1, 0],
        "p": [0.1, 0.8, 0.3, 0.6, 0.4, 0.5],
        "yhat": [0, 1, 1, 1, 0, 0],
        "g": ["b", "a", "b", "a", "c", "c"],
        "d": [dt.timedelta(seconds=i) for i in range(6)],
    }
)
AUC_F1 = {
    "y_true": "y",
    "y_pred": "yhat",
    "y_score": "p",
    "metrics": ["roc_auc_score", "f1_score", "r2_score"],
    "by": "g",
}


def _expected() -> pl.DataFrame:
    return fm.evaluate(FRAME.drop("d"), **AUC_F1)


def _views(con: duckdb.DuckDBPyConnection) -> list:
    return con.sql("SELECT view_name FROM duckdb_views() WHERE NOT internal").fetchall()


@pytest.mark.parametrize("engine", ENGINES)
@pytest.mark.parametrize("kind", ["frame", "parquet", "table", "relation"])
def test_an_unused_interval_column_is_never_read(engine, kind, tmp_path):
    """Item 7: an unused Duration/INTERVAL column used to panic in DuckDB's schema probe."""
    con = duckdb.connect()
    path = tmp_path / "d.parquet"
    FRAME.write_parquet(path)
    con.execute(f"CREATE TABLE t AS SELECT * FROM read_parquet('{path}')")
    source = {"frame": FRAME, "parquet": str(path), "table": "t", "relation": con.sql("SELECT * FROM t")}[kind]
    out = fm.evaluate(source, con=con if kind == "table" else None, engine=engine, **AUC_F1)
    assert out.equals(_expected())


def test_a_duration_group_column_is_the_same_on_both_engines():
    outs = [fm.evaluate(FRAME, y_true="y", y_score="p", by="d", metrics=["log_loss"], engine=e) for e in ENGINES]
    assert outs[1].equals(outs[0])
    assert outs[1]["d"].dtype == pl.Duration("us")


def test_a_duration_group_column_of_a_parquet_file_is_the_same_on_both_engines(tmp_path):
    """DuckDB reads a Parquet Duration as BIGINT; the group column gets Polars' type back."""
    path = tmp_path / "d.parquet"
    FRAME.write_parquet(path)
    kwargs = {"y_true": "y", "y_score": "p", "by": "d", "metrics": ["log_loss"]}
    outs = [fm.evaluate(str(path), engine=e, **kwargs) for e in ENGINES]
    assert outs[1].equals(outs[0])
    assert outs[1]["d"].dtype == pl.Duration("us")


def test_an_interval_group_column_of_a_duckdb_table_is_text_on_both_engines():
    """Polars cannot import DuckDB's INTERVAL (it panicked): such a column reads as text."""
    con = duckdb.connect()
    con.execute(
        "CREATE TABLE t AS SELECT * FROM (VALUES (0, 0.2, INTERVAL 1 MONTH), (1, 0.7, INTERVAL 30 DAY)) v(y, p, d)"
    )
    outs = [fm.evaluate("t", con=con, y_true="y", y_score="p", by="d", metrics=["log_loss"], engine=e) for e in ENGINES]
    assert outs[1].equals(outs[0])
    assert outs[0]["d"].to_list() == ["1 month", "30 days"]


@pytest.fixture
def interval_parquet(tmp_path) -> str:
    """A Parquet file of DuckDB's with an INTERVAL column ``d`` (Polars panicked reading its schema)."""
    path = str(tmp_path / "interval.parquet")
    rows = "(0, 0.1, INTERVAL 1 DAY), (1, 0.8, INTERVAL 2 DAY), (0, 0.3, INTERVAL 3 HOUR), (1, 0.6, INTERVAL 1 DAY)"
    duckdb.sql(f"COPY (SELECT * FROM (VALUES {rows}) v(y, p, d)) TO '{path}'")
    return path


def _without_interval(path: str) -> pl.DataFrame:
    return duckdb.sql(f"SELECT y, p FROM read_parquet('{path}')").pl()


@pytest.mark.parametrize("engine", ENGINES)
def test_an_unused_interval_column_of_a_parquet_file_is_never_read(engine, interval_parquet):
    kwargs = {"y_true": "y", "y_score": "p", "engine": engine}
    expected = fm.evaluate(_without_interval(interval_parquet), **kwargs)
    assert fm.evaluate(interval_parquet, **kwargs).equals(expected)
    curve = fm.roc_curve(interval_parquet, **kwargs)
    assert curve.equals(fm.roc_curve(_without_interval(interval_parquet), **kwargs))


def test_the_polars_scan_of_a_parquet_file_with_an_interval_filters_slices_and_counts_as_polars(interval_parquet):
    """The scan read through DuckDB gets Polars' projections, predicates and slices right."""
    scan, frame = fm.sources.open_polars(interval_parquet), _without_interval(interval_parquet)
    frame = frame.with_columns(d=pl.Series(["1 day", "2 days", "03:00:00", "1 day"]))
    for query in (
        lambda f: f.select(pl.len()),
        lambda f: f.filter(pl.col("y") == 1).select("p", "d"),
        lambda f: f.head(3).filter(pl.col("d") == "1 day").select("y"),
        lambda f: f.filter(pl.col("p") > 0.2).head(1),
    ):
        assert query(scan).collect().equals(query(frame.lazy()).collect())


@pytest.mark.parametrize("engine", ENGINES)
def test_the_cli_reads_a_parquet_file_with_an_unused_interval_column(engine, interval_parquet):
    args = ["evaluate", interval_parquet, "--y-true", "y", "--y-score", "p", "-m", "roc_auc_score", "--engine", engine]
    result = CliRunner().invoke(cli, args)
    assert (result.exit_code, result.output) == (0, "n_rows,roc_auc_score\n4,1.0\n")


def test_an_interval_group_column_of_a_parquet_file_is_text_on_both_engines(interval_parquet):
    kwargs = {"y_true": "y", "y_score": "p", "by": "d", "metrics": ["log_loss"]}
    outs = [fm.evaluate(interval_parquet, engine=e, **kwargs) for e in ENGINES]
    assert outs[1].equals(outs[0])
    assert outs[0]["d"].to_list() == ["03:00:00", "1 day", "2 days"]


@pytest.mark.parametrize("kind", ["table", "relation"])
def test_polars_engine_reads_a_duckdb_source_read_twice_by_the_plan(kind):
    """Item 8: AUC and R^2 read the source twice; a lazy DuckDB scan made the connection busy."""
    con = duckdb.connect()
    con.register("frame", FRAME.drop("d"))
    con.execute("CREATE TABLE t AS SELECT * FROM frame")
    source = "t" if kind == "table" else con.sql("SELECT * FROM t")
    out = fm.evaluate(source, con=con if kind == "table" else None, engine="polars", **AUC_F1)
    assert out.equals(_expected())


def test_threads_sharing_a_connection_leave_no_view_behind():
    """Item 8: a frame is registered on a cursor of its own, never on the user's connection."""
    con = duckdb.connect()
    errors: list[BaseException] = []

    def curve() -> None:
        try:
            fm.roc_curve(FRAME, y_true="y", y_score="p", by="g", engine="duckdb", con=con)
        except BaseException as error:  # noqa: BLE001 - reported below
            errors.append(error)

    threads = [threading.Thread(target=curve) for _ in range(4)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert errors == []
    assert _views(con) == []


@pytest.mark.parametrize("engine", ENGINES)
@pytest.mark.parametrize("dtype", [pl.Float16, pl.Float32, pl.Int128])
def test_narrow_and_wide_number_types(engine, dtype):
    """Item 9: Float16 scores and Int128 labels used to crash the DuckDB engine."""
    column = "y" if dtype == pl.Int128 else "p"
    df = FRAME.drop("d").with_columns(pl.col(column).cast(dtype))
    out = fm.evaluate(df, y_true="y", y_score="p", by="g", metrics=["roc_auc_score", "log_loss"], engine=engine)
    want = fm.evaluate(FRAME.drop("d"), y_true="y", y_score="p", by="g", metrics=["roc_auc_score", "log_loss"])
    assert out["roc_auc_score"].to_list() == want["roc_auc_score"].to_list()


@pytest.mark.parametrize("engine", ENGINES)
@pytest.mark.parametrize(
    ("kwargs", "message"),
    [
        ({"threshold": 10**400, "metrics": ["f1_score"]}, "threshold must be a finite number, got 1000000"),
        ({"bins": 10**400, "metrics": ["roc_auc_score"]}, "bins must be an integer from 1 to 2147483647"),
        ({"by": ["g", "g"], "metrics": ["f1_score"]}, "by names column 'g' twice"),
        ({"by": "", "metrics": ["f1_score"]}, "column '' (by): a column name must be a non-empty string"),
        ({"y_score": "p\0q", "metrics": ["f1_score"]}, "column 'p\\x00q' (y_score): a column name must be"),
    ],
    ids=["threshold-10**400", "bins-10**400", "by-twice", "empty-name", "nul-in-name"],
)
def test_unusable_arguments_raise_the_same_error(engine, kwargs, message):
    arguments = {"y_true": "y", "y_score": "p"} | kwargs
    with pytest.raises(ValueError) as caught:
        fm.evaluate(FRAME.rename({"g": ""}) if kwargs.get("by") == "" else FRAME, engine=engine, **arguments)
    assert message in str(caught.value)


@pytest.mark.parametrize("engine", ENGINES)
def test_calibration_n_bins_beyond_int32_is_an_error(engine):
    with pytest.raises(ValueError, match="n_bins must be an integer from 1 to 2147483647"):
        fm.calibration_curve(FRAME, y_true="y", y_score="p", n_bins=10**30, engine=engine)


def test_nul_in_an_unused_column_name_is_ignored_on_both_engines():
    df = FRAME.drop("d").with_columns(pl.lit(1).alias("odd\0name"))
    outs = [fm.evaluate(df, engine=engine, **AUC_F1) for engine in ENGINES]
    assert outs[0].equals(outs[1])


GROUP_TYPES = {
    "categorical": pl.col("g").cast(pl.Categorical),
    "enum": pl.col("g").cast(pl.Enum(["c", "b", "a"])),
    "int128": pl.col("g").replace_strict({"a": 3, "b": 1, "c": 2}).cast(pl.Int128),
    "tz-datetime": pl.col("g")
    .replace_strict({"a": dt.datetime(2024, 3, 1), "b": dt.datetime(2024, 1, 1), "c": dt.datetime(2024, 2, 1)})
    .dt.replace_time_zone("Europe/Paris"),
}


@pytest.mark.parametrize("group", list(GROUP_TYPES))
@pytest.mark.parametrize("entry", ["evaluate", "roc_curve", "calibration_curve", "evaluate_multiclass"])
def test_group_columns_keep_their_type_and_order_on_both_engines(group, entry):
    """Item 10: DuckDB returned Categorical and Enum groups as String (Enum in text order), tz datetimes in UTC."""
    df = FRAME.drop("d").with_columns(GROUP_TYPES[group].alias("h"))
    call = {
        "evaluate": lambda e: fm.evaluate(df, y_true="y", y_score="p", by="h", metrics=["f1_score"], engine=e),
        "roc_curve": lambda e: fm.roc_curve(df, y_true="y", y_score="p", by="h", engine=e),
        "calibration_curve": lambda e: fm.calibration_curve(df, y_true="y", y_score="p", by="h", engine=e),
        "evaluate_multiclass": lambda e: fm.evaluate_multiclass(
            df, y_true="y", y_pred="yhat", by="h", metrics=["accuracy_score"], engine=e
        ),
    }[entry]
    polars, duck = call("polars"), call("duckdb")
    assert duck.schema == polars.schema
    assert duck["h"].to_list() == polars["h"].to_list()
    assert polars["h"].dtype == df["h"].dtype


@pytest.mark.parametrize("engine", ENGINES)
def test_uint64_labels_beyond_int64_against_int64_predictions(engine):
    """Item 10: UInt64 labels >= 2^63 against Int64 predictions failed on Polars only."""
    big = 2**63 + 5
    df = pl.DataFrame({"y": pl.Series([big, 1, big, 1], dtype=pl.UInt64), "yhat": pl.Series([1, 1, 1, 1])})
    out = fm.evaluate_multiclass(df, y_true="y", y_pred="yhat", metrics=["accuracy_score"], engine=engine)
    assert out["accuracy_score"].to_list() == [0.5]
    binary = fm.evaluate(df, y_true="y", y_pred="yhat", pos_label=big, neg_label=1, metrics=["recall_score"],
                         engine=engine)  # fmt: skip
    assert binary["recall_score"].to_list() == [0.0]


@pytest.mark.parametrize("engine", ENGINES)
@pytest.mark.parametrize(
    ("call", "message"),
    [
        (
            lambda e: fm.evaluate_multiclass(
                FRAME.with_columns(pl.col("y", "yhat").cast(pl.Float64)),
                y_true="y",
                y_pred="yhat",
                labels=[0.0, 1.0, float("nan")],
                engine=e,
            ),
            "labels must be finite",
        ),
        (
            lambda e: fm.evaluate(
                FRAME, y_true="y", y_pred="yhat", pos_label=float("nan"), neg_label=0.0, metrics=["f1_score"], engine=e
            ),
            "pos_label",
        ),
        (
            lambda e: fm.evaluate(FRAME, y_true="y", y_pred="yhat", pos_label=[1], metrics=["f1_score"], engine=e),
            "pos_label",
        ),
    ],
    ids=["nan-in-labels", "nan-pos-label", "list-pos-label"],
)
def test_unusable_labels_raise_on_both_engines(engine, call, message):
    with pytest.raises(ValueError, match=message):
        call(engine)


def test_repeated_runs_and_engines_agree_to_a_documented_tolerance():
    """Item 11: sums are not bit-identical across engines or DuckDB's parallel runs; they agree to 1e-12."""
    df = pl.DataFrame({"g": [i % 7 for i in range(50_000)], "y": [i % 2 for i in range(50_000)]})
    df = df.with_columns(p=((pl.col("g") * 7919 + pl.int_range(50_000)) % 1000) / 1000, w=pl.int_range(50_000) % 13 / 7)
    kwargs = {"y_true": "y", "y_score": "p", "sample_weight": "w", "by": "g"}
    metrics = ["roc_auc_score", "log_loss", "brier_score_loss", "average_precision_score"]
    runs = [fm.evaluate(df, metrics=metrics, engine=e, **kwargs) for e in ("duckdb", "duckdb", "polars")]
    for run in runs[1:]:
        for name in metrics:
            for a, b in zip(run[name], runs[0][name], strict=True):
                assert abs(a - b) <= 1e-12 * max(1.0, abs(b)), (name, a, b)
