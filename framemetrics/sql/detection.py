"""Object detection as SQL text: :func:`coco_query`, :func:`voc_query`, :func:`nms_query`.

The statements are the ones ``engine="duckdb"`` runs, for any dialect: one
statement. COCO's matching and NMS are fixpoints, written as recursive common
table expressions whose recursive term reads the previous round once,
through window functions only: DuckDB, PostgreSQL, ClickHouse and DataFusion
accept them (the tests run them there). Spark forbids window functions over
a recursive reference: for Spark :func:`coco_query` and :func:`nms_query`
return a SQL script (``BEGIN ... END``, Spark 4) that caches each round as a
temporary view (:mod:`framemetrics.compilers.sql.script`), the statements
``engine="spark"`` runs. BigQuery and Snowflake forbid them too and are
refused (no engine of the tests runs their scripting). VOC needs no
fixpoint: :func:`voc_query` writes every dialect.
"""

from __future__ import annotations

from collections.abc import Sequence

from sqlglot import exp

from framemetrics.columns import as_tuple
from framemetrics.compilers.sql.namespace import table_name
from framemetrics.compilers.sql.script import statement_sql
from framemetrics.core.errors import ArgumentError
from framemetrics.detection.boxes import BOX_COLUMNS, check_box_format
from framemetrics.detection.coco import coco_build
from framemetrics.detection.engines import TextEngine
from framemetrics.detection.nms import nms_boxes
from framemetrics.detection.tables import detection_sql
from framemetrics.detection.voc import voc_build

__all__ = ["coco_query", "nms_query", "voc_query"]

_RECURSIVE_WINDOWS_FORBIDDEN = {"bigquery", "snowflake"}


def _check_recursive(dialect: str) -> None:
    if dialect in _RECURSIVE_WINDOWS_FORBIDDEN:
        raise ArgumentError(
            f"this query is a fixpoint: a recursive common table expression with window functions, "
            f"which {dialect} forbids (duckdb, postgres, clickhouse and datafusion run it; spark runs it as a script)"
        )


def _tables(
    gt_table: str, dt_table: str, images_table: str | None, by: tuple[str, ...], box_format: str, gt_extra: list[str]
) -> dict[str, list[str]]:
    """The columns each table is read for."""
    box = list(BOX_COLUMNS[check_box_format(box_format)])
    on_boxes = [] if images_table else list(by)
    tables = {
        gt_table: ["image_id", "category_id", "id", *box, *gt_extra, *on_boxes],
        dt_table: ["image_id", "category_id", "id", *box, "score", *on_boxes],
    }
    if images_table:
        tables[images_table] = ["image_id", *by]
    return tables


def coco_query(
    *,
    gt_table: str,
    dt_table: str,
    images_table: str | None = None,
    by: str | Sequence[str] | None = None,
    per_category: bool = False,
    output: str = "stats",
    area: bool = True,
    iscrowd: bool = True,
    box_format: str = "xywh",
    dialect: str = "duckdb",
) -> str:
    """The SQL of :func:`framemetrics.coco_evaluate` (or its precision or recall table) over named tables.

    Parameters
    ----------
    gt_table, dt_table, images_table : str
        Table names, ``[catalog.][schema.]table``; the columns are those of
        :func:`framemetrics.coco_evaluate`.
    by, per_category, box_format
        As :func:`framemetrics.coco_evaluate`.
    output : {"stats", "precision", "recall"}
        The 12 stats, or the table of :func:`framemetrics.coco_precision_table`
        or :func:`framemetrics.coco_recall_table`.
    area, iscrowd : bool
        Whether the ground truth has the ``area`` and ``iscrowd`` columns
        (without them: ``w * h`` and 0).
    dialect : str
        duckdb, postgres, clickhouse, datafusion or spark.

    Returns
    -------
    str
        One statement; for Spark a script whose last statement gives the rows.

    Examples
    --------
    >>> text = coco_query(gt_table="gt", dt_table="dt", images_table="images", by="camera", dialect="postgres")
    >>> text.startswith("WITH RECURSIVE"), '"camera"' in text
    (True, True)
    """
    _check_recursive(dialect)
    if output not in ("stats", "precision", "recall"):
        raise ArgumentError(f"output must be 'stats', 'precision' or 'recall', got {output!r}")
    by = as_tuple(by)
    extra = [*(["area"] if area else []), *(["iscrowd"] if iscrowd else [])]
    tables = _tables(gt_table, dt_table, images_table, by, box_format, extra)
    build = coco_build(gt_table, dt_table, images_table, by, box_format, output, per_category)
    return detection_sql(tables, build, dialect)


def voc_query(
    *,
    gt_table: str,
    dt_table: str,
    images_table: str | None = None,
    by: str | Sequence[str] | None = None,
    iou_threshold: float = 0.5,
    use_07_metric: bool = False,
    difficult: bool = True,
    box_format: str = "xywh",
    dialect: str = "duckdb",
) -> str:
    """The SQL of :func:`framemetrics.voc_evaluate` over named tables (``difficult``: the column exists).

    Examples
    --------
    >>> "ROW_NUMBER()" in voc_query(gt_table="gt", dt_table="dt", box_format="xyxy")
    True
    """
    by = as_tuple(by)
    tables = _tables(gt_table, dt_table, images_table, by, box_format, ["difficult"] if difficult else [])
    build = voc_build(gt_table, dt_table, images_table, by, box_format, iou_threshold, use_07_metric)
    return detection_sql(tables, build, dialect)


def nms_query(
    *,
    table: str,
    iou_threshold: float = 0.5,
    by: str | Sequence[str] | None = ("image_id", "category_id"),
    score_threshold: float | None = None,
    box_format: str = "xywh",
    dialect: str = "duckdb",
) -> str:
    """The SQL of :func:`framemetrics.nms`: the kept rows of ``table``, every column (``SELECT t.*``).

    Examples
    --------
    >>> nms_query(table="detections", dialect="postgres").splitlines()[-3:]
    ['FROM "detections" AS "t"', 'JOIN fm_kept AS "k"', '  ON "t"."id" = "k".did']
    """
    _check_recursive(dialect)
    by = as_tuple(by)
    columns = ["id", "score", *BOX_COLUMNS[check_box_format(box_format)], *by]
    text = TextEngine({table: columns})
    kept, _ = nms_boxes(text, table, iou_threshold, by, score_threshold, box_format)
    source = exp.alias_(table_name(table), exp.to_identifier("t", quoted=True), table=True)
    kept_table = exp.alias_(exp.to_table("fm_kept"), exp.to_identifier("k", quoted=True), table=True)
    condition = exp.column(exp.to_identifier("id", quoted=True), table=exp.to_identifier("t", quoted=True)).eq(
        exp.column("did", table=exp.to_identifier("k", quoted=True))
    )
    select = exp.select(exp.Column(this=exp.Star(), table=exp.to_identifier("t", quoted=True))).from_(source)
    select = select.join(kept_table, on=condition)
    select.set("with_", text.statement.query(kept).args["with_"])
    return statement_sql(select, dialect)
