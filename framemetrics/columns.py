"""Which source column plays each input role, and its SQL expression."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from framemetrics.plan import MetricsArg, Plan, make_plan, requested_metrics
from framemetrics.registry import get_metric
from framemetrics.sql.quoting import quote_identifier, sql_literal

__all__ = ["Resolved", "as_tuple", "resolve", "resolve_roles", "sql_columns"]


def as_tuple(by: str | Sequence[str] | None) -> tuple[str, ...]:
    """``by`` as a tuple of column names.

    Examples
    --------
    >>> as_tuple("g"), as_tuple(None), as_tuple(["a", "b"])
    (('g',), (), ('a', 'b'))
    """
    if by is None:
        return ()
    return (by,) if isinstance(by, str) else tuple(by)


def resolve_roles(plan: Plan, columns: dict[str, str | None], thresholded: bool) -> dict[str, str]:
    """The source column of each role the plan reads (y_pred may come from y_score)."""
    found = {}
    for role in plan.roles:
        source = "y_score" if role == "y_pred" and thresholded else role
        if columns[source] is None:
            users = [c.name for c in plan.calls if any(k.role == role for k in c.checks)]
            raise ValueError(f"{', '.join(users)} need{'s' if len(users) == 1 else ''} {source}=")
        found[role] = columns[source]
    return found


@dataclass(frozen=True)
class Resolved:
    """A request resolved: the plan, each role's source column, and whether
    classification labels come from ``y_score >= threshold``."""

    plan: Plan
    roles: dict[str, str]
    thresholded: bool


def resolve(
    metrics: MetricsArg,
    *,
    y_true: str,
    y_pred: str | None,
    y_score: str | None,
    sample_weight: str | None,
    pos_label: Any,
    neg_label: Any,
    zero_division: float | None,
) -> Resolved:
    """Resolve the arguments shared by ``evaluate`` and ``sql.query``.

    Examples
    --------
    >>> r = resolve(["f1_score"], y_true="y", y_pred=None, y_score="p", sample_weight=None,
    ...             pos_label=1, neg_label=None, zero_division=None)
    >>> r.thresholded, r.roles
    (True, {'y_true': 'y', 'y_pred': 'p', 'y_score': 'p'})
    """
    families = {get_metric(name).family for name in requested_metrics(metrics)}
    thresholded = y_pred is None and y_score is not None and "regression" not in families
    plan = make_plan(
        metrics,
        weighted=sample_weight is not None,
        pos_label=pos_label,
        neg_label=neg_label,
        zero_division=zero_division,
        thresholded=thresholded,
    )
    columns = {"y_true": y_true, "y_pred": y_pred, "y_score": y_score, "sample_weight": sample_weight}
    return Resolved(plan, resolve_roles(plan, columns, thresholded), thresholded)


def sql_columns(plan: Plan, roles: dict[str, str], thresholded: bool, threshold: float) -> dict[str, str]:
    """SQL expression of each input role: quoted columns, cast where needed."""
    exprs = {role: quote_identifier(column) for role, column in roles.items()}
    numeric = {"sample_weight"} | ({"y_true", "y_pred"} if "regression" in plan.families else set())
    for role in numeric & set(exprs):
        exprs[role] = f"CAST({exprs[role]} AS DOUBLE)"
    if thresholded and "y_pred" in roles:
        exprs["y_pred"] = f"({quote_identifier(roles['y_pred'])} >= {sql_literal(float(threshold))})"
    return exprs
