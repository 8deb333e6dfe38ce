"""Where a request runs: its source opened once on its engine, the schema and rows checked, its plan computed.

Every entry point goes request -> plan -> run: its arguments validated
(:func:`~framemetrics.request.validate.validated`) and gathered in a
:class:`Call`, its plan made (:func:`~framemetrics.columns.prepare_metrics`
and its siblings), then :func:`run` opens the source on the call's engine
(:func:`~framemetrics.engines.open_engine`, the one dispatch), checks the
columns (:func:`check_schema`), asks the engine's
:class:`~framemetrics.engines.Backend` for the result and raises for invalid
rows (:func:`raise_for_invalid`, every binary and regression entry point's
error).

Examples
--------
>>> import polars as pl
>>> from framemetrics.columns import prepare_metrics
>>> call = Call(pl.DataFrame({"y": [0, 1, 1], "p": [0.2, 0.7, 0.4]}), y_true="y", y_score="p", engine="duckdb")
>>> prepared = prepare_metrics(["roc_auc_score"], threshold=0.5, by=call.by, nulls=call.nulls, y_pred=None,
...                            zero_division=None, **call.columns())
>>> run(call, prepared, metrics).rows()
[(3, 1.0)]
"""

from __future__ import annotations

import inspect
from collections.abc import Callable, Mapping, Sequence
from contextlib import AbstractContextManager
from dataclasses import dataclass, fields
from typing import Any, TypeVar

import duckdb
import polars as pl

from framemetrics.columns import Prepared, as_tuple, check_output_names, check_row_id, input_columns
from framemetrics.core.checks import Check
from framemetrics.core.checks import raise_for_invalid as raise_invalid_rows
from framemetrics.core.errors import missing_column
from framemetrics.core.plan import Plan
from framemetrics.engines import Backend, open_engine
from framemetrics.sources import Source

__all__ = ["Call", "check_schema", "checked_columns", "forward", "metrics", "per_group", "raise_for_invalid", "run"]

T = TypeVar("T")


@dataclass(frozen=True)
class Call:
    """One call's validated arguments that every entry point shares: its columns, groups, labels, and where it runs.

    ``by`` holds the group column names (a tuple); a column the entry point
    does not take is None. :meth:`of` gathers them from the entry point's
    arguments, :meth:`open` opens the source on the call's engine.
    """

    source: Source
    y_true: str
    y_pred: str | None = None
    y_score: str | Sequence[str] | None = None
    labels: Sequence[Any] | None = None
    sample_weight: str | None = None
    by: tuple[str, ...] = ()
    pos_label: Any = 1
    neg_label: Any = None
    nulls: str = "error"
    engine: str = "polars"
    con: duckdb.DuckDBPyConnection | None = None
    spark: Any = None

    @classmethod
    def of(cls, arguments: Mapping[str, Any]) -> Call:
        """The call of an entry point's validated ``arguments`` (its ``locals()``): the fields among them.

        Examples
        --------
        >>> Call.of({"source": "t.parquet", "y_true": "y", "by": "g", "level": 0.9}).by
        ('g',)
        """
        taken = {f.name: arguments[f.name] for f in fields(cls) if f.name in arguments}
        return cls(**taken | {"by": as_tuple(taken.get("by"))})

    @property
    def drop(self) -> bool:
        """Whether rows with a null in a used column are dropped first (``nulls="drop"``)."""
        return self.nulls == "drop"

    def columns(self) -> dict[str, Any]:
        """The columns and labels of a scored binary request, as :func:`~framemetrics.columns.resolve_curve` reads
        them (:func:`~framemetrics.columns.resolve` also reads ``y_pred``)."""
        names = ("y_true", "y_score", "sample_weight", "pos_label", "neg_label")
        return {name: getattr(self, name) for name in names}

    def used(self) -> list[str]:
        """The column names the call reads (the score columns, the group columns)."""
        scores = [self.y_score] if isinstance(self.y_score, str) else list(self.y_score or ())
        return [c for c in (self.y_true, self.y_pred, *scores, self.sample_weight, *self.by) if c is not None]

    def open(self) -> AbstractContextManager[Backend]:
        """The source opened on the call's engine (:func:`~framemetrics.engines.open_engine`)."""
        return open_engine(self.source, self.engine, self.con, self.spark)


def forward(function: Callable[..., T], arguments: Mapping[str, Any], **changed: Any) -> T:
    """``function`` called with those of an entry point's ``arguments`` it takes, and the ``changed`` ones.

    Examples
    --------
    >>> forward(lambda *, a, b=1: (a, b), {"a": 1, "c": 3}, b=2)
    (1, 2)
    """
    taken = inspect.signature(function).parameters
    return function(**{name: value for name, value in arguments.items() if name in taken} | changed)


def check_schema(
    plan: Plan, roles: dict[str, str], by: tuple[str, ...], kinds: dict[str, str], thresholded: bool
) -> None:
    """Raise if a column is missing, of the wrong kind, or named like an output column."""
    labels = {c.role for c in plan.checks if c.domain == "label"}  # compared to pos_label, not numbers
    named = {("y_score" if r == "y_pred" and thresholded else r): c for r, c in roles.items()}
    for column, role in [*((b, "by") for b in by), *((c, r) for r, c in named.items())]:
        if column not in kinds:
            raise missing_column(column, role, kinds)
        kind = kinds[column]
        if kind == "null":
            continue
        if role in labels and (kind == "other" or (kind == "string") != isinstance(plan.pos_label, str)):
            raise ValueError(
                f"column {column!r} ({role}) holds {kind} values but pos_label={plan.pos_label!r}: "
                "pass pos_label and neg_label of the column's type"
            )
        numeric = role not in labels or (role in ("y_true", "y_pred") and "regression" in plan.families)
        if numeric and role != "by" and kind != "numeric":
            raise ValueError(f"column {column!r} ({role}) must be numeric, got {kind} values")
    check_output_names(by, ["n_rows", *plan.output_columns, *(c.name for c in plan.checks)])


def raise_for_invalid(result: pl.DataFrame, plan: Plan, roles: dict[str, str], nulls: str, opened: Backend) -> None:
    """Raise naming each column with invalid rows (the check counts of ``result``), or if no rows are left.

    The error is :func:`framemetrics.core.checks.raise_for_invalid`'s, every
    task's; where a null counts as invalid, it says how many rows of the
    source (``opened``) hold one.
    """

    def describe(check: Check, count: int) -> tuple[str, str]:
        return f"column {roles[check.role]!r} ({check.role})", roles[check.role]

    counts = {check: int(result[check.name].fill_null(0).sum()) for check in plan.checks}
    labels = (plan.pos_label, plan.neg_label)
    raise_invalid_rows(counts, describe, opened.null_rows, nulls, int(result["n_rows"].sum()), labels)


def per_group(result: pl.DataFrame, plan: Plan, by: Sequence[str]) -> pl.DataFrame:
    """A per-group ``result`` as returned: without the check counts, sorted by group (nulls last)."""
    result = result.drop([c.name for c in plan.checks])
    return result.sort(list(by), nulls_last=True) if by else result


def checked_columns(opened: Backend, prepared: Prepared) -> dict[str, Any]:
    """Each input role's expression on ``opened`` once the source's columns are checked for ``prepared``."""
    plan, roles, thresholded = prepared.resolved.plan, prepared.resolved.roles, prepared.resolved.thresholded
    kinds = opened.kinds()
    check_schema(plan, roles, prepared.by, kinds, thresholded)
    check_row_id(plan, kinds, opened.null_rows)
    return input_columns(opened.ns, opened.column, plan, roles, thresholded, prepared.threshold)


def metrics(opened: Backend, prepared: Prepared, columns: dict[str, Any]) -> pl.DataFrame:
    """The plan's metrics per group, with its check counts (:meth:`~framemetrics.engines.Backend.metrics`)."""
    return opened.metrics(prepared.resolved.plan, columns, prepared.by, prepared.drop)


def run(
    call: Call,
    prepared: Prepared,
    compute: Callable[[Backend, Prepared, dict[str, Any]], pl.DataFrame],
    *,
    counted: bool = True,
) -> pl.DataFrame:
    """``compute(opened, prepared, columns)`` on the call's engine, once the source's columns are checked.

    ``counted``: the computed rows carry the plan's check counts per group
    (:func:`metrics`, the paired test), read to raise for invalid rows, then
    dropped and the groups sorted (:func:`per_group`); otherwise (a curve,
    the calibration bins) the counts are computed first
    (:meth:`~framemetrics.engines.Backend.checks`) and the rows returned as computed.
    """
    plan, roles = prepared.resolved.plan, prepared.resolved.roles
    with call.open() as opened:
        columns = checked_columns(opened, prepared)
        if not counted:
            raise_for_invalid(opened.checks(plan, columns, prepared.by, prepared.drop), plan, roles, call.nulls, opened)
        result = compute(opened, prepared, columns)
        if counted:
            raise_for_invalid(result, plan, roles, call.nulls, opened)
    return per_group(result, plan, prepared.by) if counted else result
