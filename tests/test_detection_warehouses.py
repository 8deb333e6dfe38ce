"""Detection SQL run on the warehouse engines equals the same SQL run on DuckDB (which equals pycocotools).

A slice of the COCO fixture (its first images) keeps the precision table and
Spark's planning small; the engines start once per session (``conftest``).
Spark runs the fixpoints as scripts, also through ``engine="spark"``, whose
results (values and types) equal ``engine="duckdb"``'s. Spark plans each
script for tens of seconds, so it runs each statement once: the statements
that ``engine="spark"`` runs (:data:`SPARK_CALLS`) are not run again as text,
and the recall table (the precision table's stages, one column fewer) is
left to PostgreSQL and DataFusion.
"""

from __future__ import annotations

import math

import duckdb
import polars as pl
import pytest
from coco_reference import coco_files
from warehouses import WAREHOUSES

import framemetrics as fm
from framemetrics.core.errors import ArgumentError


@pytest.fixture(scope="module")
def tables() -> dict[str, pl.DataFrame]:
    gt, dt, images = fm.read_coco(*coco_files())
    chosen = images["image_id"].sort().head(6)  # 16 categories, 37 ground truths, 34 detections, up to 6 per group
    images = images.filter(pl.col("image_id").is_in(chosen.implode())).select(
        "image_id",
        camera=pl.when(pl.col("image_id") % 3 == 0).then(None).otherwise((pl.col("image_id") % 2).cast(pl.String)),
    )
    gt = gt.filter(pl.col("image_id").is_in(chosen.implode()))
    dt = dt.filter(pl.col("image_id").is_in(chosen.implode()))
    return {"gt": gt, "dt": dt, "images": images, "voc_gt": gt.rename({"iscrowd": "difficult"})}


FIXPOINT_CASES = {
    "coco stats by camera": lambda d: fm.sql.coco_query(gt_table="gt", dt_table="dt", images_table="images",
                                                         by="camera", dialect=d),
    "coco per category": lambda d: fm.sql.coco_query(gt_table="gt", dt_table="dt", per_category=True, dialect=d),
    "coco recall table": lambda d: fm.sql.coco_query(gt_table="gt", dt_table="dt", output="recall", dialect=d),
    "coco precision table": lambda d: fm.sql.coco_query(gt_table="gt", dt_table="dt", output="precision", dialect=d),
    "nms": lambda d: fm.sql.nms_query(table="dt", iou_threshold=0.3, dialect=d),
}  # fmt: skip
VOC_CASES = {
    "voc all-point": lambda d: fm.sql.voc_query(gt_table="voc_gt", dt_table="dt", images_table="images", by="camera",
                                                dialect=d),
    "voc 11-point": lambda d: fm.sql.voc_query(gt_table="voc_gt", dt_table="dt", use_07_metric=True, dialect=d),
}  # fmt: skip


@pytest.fixture(scope="module")
def reference_engine(tables) -> duckdb.DuckDBPyConnection:
    con = duckdb.connect()
    for name, frame in tables.items():
        con.register(name, frame)
    return con


@pytest.fixture(scope="module")
def loaded(warehouse, tables):
    for name, frame in tables.items():
        warehouse.load(name, frame)
    return warehouse


def _same(a: object, b: object) -> bool:
    if a is None or b is None:
        return a is None and b is None
    if isinstance(a, float) or isinstance(b, float):
        return math.isclose(float(a), float(b), rel_tol=1e-12, abs_tol=1e-12)
    return a == b


def _compare(got: pl.DataFrame, expected: pl.DataFrame) -> None:
    assert got.columns == expected.columns
    assert got.height == expected.height
    keys = [
        c for c in expected.columns if expected.schema[c] != pl.Float64 or c in ("iou_threshold", "recall_threshold")
    ]
    got, expected = got.sort(keys, nulls_last=True), expected.sort(keys, nulls_last=True)
    for column in expected.columns:
        pairs = zip(got[column].to_list(), expected[column].to_list(), strict=True)
        assert all(_same(a, b) for a, b in pairs), column


# Spark runs each statement once: those of SPARK_CALLS in test_spark_engine_equals_duckdb (the same scripts from the
# same stages). The recall table is the precision table's stages, one column fewer: Spark and ClickHouse, which plan
# a COCO statement for 10 s and more, leave it to PostgreSQL and DataFusion.
_LEFT_OUT = {
    "spark": {"coco stats by camera", "nms", "voc 11-point", "coco recall table"},
    "clickhouse": {"coco recall table"},
}
_WAREHOUSE_CASES = [
    pytest.param(name, case, id=f"{name}-{case}")
    for name in WAREHOUSES
    for case in [*FIXPOINT_CASES, *VOC_CASES]
    if case not in _LEFT_OUT.get(name, ())
]


@pytest.mark.parametrize(("warehouse", "case"), _WAREHOUSE_CASES, indirect=["warehouse"])
def test_detection_sql_equals_duckdb(loaded, reference_engine, case):
    write = {**FIXPOINT_CASES, **VOC_CASES}[case]
    if loaded.dialect == "spark" and case in FIXPOINT_CASES:
        assert write("spark").startswith("BEGIN")  # a script: Spark refuses windows over a recursive reference
    _compare(loaded.run(write(loaded.dialect)), reference_engine.sql(write("duckdb")).pl())


def test_duckdb_sql_equals_the_duckdb_engine(reference_engine, tables):
    stats = fm.coco_evaluate(tables["gt"], tables["dt"], images=tables["images"], by="camera", engine="duckdb")
    _compare(reference_engine.sql(FIXPOINT_CASES["coco stats by camera"]("duckdb")).pl(), stats)
    for dialect in ("bigquery", "snowflake"):
        with pytest.raises(ArgumentError, match="forbids"):
            FIXPOINT_CASES["nms"](dialect)
        assert "WITH" in VOC_CASES["voc 11-point"](dialect)


# The entry points on engine="spark": how each passes Spark DataFrames, and Spark's run of their statements (the
# others, per category and the precision table, run on Spark in test_detection_sql_equals_duckdb).
SPARK_CALLS = {
    "coco by camera": lambda e, t, **k: fm.coco_evaluate(t["gt"], t["dt"], images=t["images"], by="camera",
                                                         engine=e, **k),
    "voc 11-point": lambda e, t, **k: fm.voc_evaluate(t["voc_gt"], t["dt"], use_07_metric=True, engine=e, **k),
    "nms": lambda e, t, **k: fm.nms(t["dt"], iou_threshold=0.3, engine=e, **k),
}  # fmt: skip


@pytest.fixture(scope="module")
def spark_tables(spark_session, tables) -> dict[str, object]:
    return {name: spark_session.createDataFrame(frame.to_arrow()) for name, frame in tables.items()}


@pytest.mark.parametrize("case", SPARK_CALLS)
def test_spark_engine_equals_duckdb(spark_session, spark_tables, tables, case):
    before = {v["viewName"] for v in spark_session.sql("SHOW VIEWS").collect()}
    got = SPARK_CALLS[case]("spark", spark_tables)
    expected = SPARK_CALLS[case]("duckdb", tables)
    assert got.schema == expected.schema
    _compare(got, expected)
    after = {v["viewName"] for v in spark_session.sql("SHOW VIEWS").collect()}
    assert after <= before  # the views of the sources and of the rounds are dropped


def test_spark_engine_reads_table_names(spark_session, spark_tables, tables):
    for name, frame in spark_tables.items():
        frame.createOrReplaceTempView(f"user_{name}")
    names = {name: f"user_{name}" for name in spark_tables}
    got = SPARK_CALLS["voc 11-point"]("spark", names, spark=spark_session)  # the cheapest statement of SPARK_CALLS
    _compare(got, SPARK_CALLS["voc 11-point"]("duckdb", tables))


def test_spark_engine_reports_bad_input_as_duckdb(spark_tables, tables):
    bad = tables["dt"].with_columns(score=pl.when(pl.col("id") <= 2).then(None).otherwise(pl.col("score")))
    messages = []
    for engine, dt in (("spark", spark_tables["dt"].sparkSession.createDataFrame(bad.to_arrow())), ("duckdb", bad)):
        with pytest.raises(ValueError) as raised:
            fm.coco_evaluate(tables["gt"] if engine == "duckdb" else spark_tables["gt"], dt, engine=engine)
        messages.append(str(raised.value))
    assert messages[0] == messages[1]
    assert "2 rows are null" in messages[0]
