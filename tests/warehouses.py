"""The SQL engines beside DuckDB, started by the tests themselves: Spark, PostgreSQL, ClickHouse, DataFusion.

Each is a :class:`Warehouse`: ``load(name, frame)`` makes a Polars frame a
table of the engine, ``run(sql)`` runs a statement and returns its result
as a Polars frame. PostgreSQL is a throw-away cluster (``initdb``,
``pg_ctl``) listening on 127.0.0.1 only; Spark a ``local[2]`` session bound
to 127.0.0.1 with its UI off; ClickHouse (chdb) and DataFusion run in the
process. Each starts once per test session and stops at its end.
"""

from __future__ import annotations

import os
import shutil
import socket
import subprocess
import tempfile
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import polars as pl

WAREHOUSES = ("spark", "postgres", "clickhouse", "datafusion")


@dataclass
class Warehouse:
    """An engine under test: its dialect's name, how to load a table and how to run SQL."""

    dialect: str
    load: Callable[[str, pl.DataFrame], None]
    run: Callable[[str], pl.DataFrame]
    session: Any = None


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def _postgres_bin() -> Path:
    for root in sorted(Path("/usr/lib/postgresql").glob("*/bin"), reverse=True):
        if (root / "initdb").exists():
            return root
    raise RuntimeError("PostgreSQL's server is not installed (Debian: apt-get install postgresql)")


_PG_TYPES = {pl.Int64: "BIGINT", pl.Int32: "INTEGER", pl.Float64: "DOUBLE PRECISION", pl.String: "TEXT"}


@contextmanager
def postgres() -> Iterator[Warehouse]:
    """A throw-away PostgreSQL cluster on 127.0.0.1 (run as ``postgres`` when the tests run as root)."""
    import psycopg

    bin_dir = _postgres_bin()
    home = Path(tempfile.mkdtemp(prefix="fm-postgres-"))
    as_user = ["runuser", "-u", "postgres", "--"] if os.geteuid() == 0 else []
    if as_user:
        shutil.chown(home, "postgres")
    data, port = home / "data", _free_port()
    subprocess.run([*as_user, bin_dir / "initdb", "-D", data, "-A", "trust", "-U", "postgres"], check=True,
                   capture_output=True)  # fmt: skip
    options = f"-c listen_addresses=127.0.0.1 -p {port} -k {home} -c fsync=off"
    subprocess.run([*as_user, bin_dir / "pg_ctl", "-D", data, "-o", options, "-l", home / "log", "-w", "start"],
                   check=True, capture_output=True)  # fmt: skip
    con = psycopg.connect(host="127.0.0.1", port=port, user="postgres", dbname="postgres", autocommit=True)

    def load(name: str, frame: pl.DataFrame) -> None:
        columns = ", ".join(f'"{c}" {_PG_TYPES[t]}' for c, t in frame.schema.items())
        con.execute(f'DROP TABLE IF EXISTS "{name}"')
        con.execute(f'CREATE TABLE "{name}" ({columns})')
        with con.cursor().copy(f'COPY "{name}" FROM STDIN') as copy:
            for row in frame.iter_rows():
                copy.write_row(row)

    def run(sql: str) -> pl.DataFrame:
        cursor = con.execute(sql)
        names = [d.name for d in cursor.description]
        return pl.DataFrame(cursor.fetchall(), schema=names, orient="row", infer_schema_length=None)

    try:
        yield Warehouse("postgres", load, run)
    finally:
        con.close()
        subprocess.run(
            [*as_user, bin_dir / "pg_ctl", "-D", data, "-m", "immediate", "stop"], capture_output=True, check=False
        )
        shutil.rmtree(home, ignore_errors=True)


@contextmanager
def clickhouse() -> Iterator[Warehouse]:
    """chdb, ClickHouse in the process: one session, Memory tables."""
    from chdb import session

    db = session.Session()

    def load(name: str, frame: pl.DataFrame) -> None:
        arrow = frame.to_arrow()  # noqa: F841 (chdb's Python() table function reads it by name)
        db.query(f"DROP TABLE IF EXISTS `{name}`")
        db.query(f"CREATE TABLE `{name}` ENGINE = Memory AS SELECT * FROM Python(arrow)")

    try:
        yield Warehouse("clickhouse", load, lambda sql: pl.from_arrow(db.query(sql, "ArrowTable")))
    finally:
        db.close()


@contextmanager
def datafusion() -> Iterator[Warehouse]:
    """DataFusion in the process: one session context, its parser's recursion limit raised as the README says
    (Clopper-Pearson's Beta quantile nests deeper than the default 50)."""
    import datafusion as df

    ctx = df.SessionContext(df.SessionConfig().set("datafusion.sql_parser.recursion_limit", "256"))

    def load(name: str, frame: pl.DataFrame) -> None:
        if ctx.table_exist(name):
            ctx.deregister_table(name)
        ctx.from_arrow(frame.to_arrow(), name)

    yield Warehouse("datafusion", load, lambda sql: pl.from_arrow(ctx.sql(sql).to_arrow_table()))


@contextmanager
def spark() -> Iterator[Warehouse]:
    """A Spark session, local[2], bound to 127.0.0.1, its UI off, a driver of 4 GB."""
    from pyspark.sql import SparkSession

    session = (
        SparkSession.builder.master("local[2]")
        .appName("framemetrics-tests")
        .config("spark.driver.bindAddress", "127.0.0.1")
        .config("spark.driver.host", "127.0.0.1")
        .config("spark.ui.enabled", "false")
        .config("spark.sql.shuffle.partitions", "2")
        .config("spark.driver.memory", "4g")  # Clopper-Pearson's and the bootstrap's plans outgrow the default 1g
        .getOrCreate()
    )

    def load(name: str, frame: pl.DataFrame) -> None:
        session.createDataFrame(frame.to_arrow()).createOrReplaceTempView(name)

    try:
        yield Warehouse("spark", load, lambda sql: pl.from_arrow(session.sql(sql).toArrow()), session)
    finally:
        session.stop()


STARTERS = {"spark": spark, "postgres": postgres, "clickhouse": clickhouse, "datafusion": datafusion}
