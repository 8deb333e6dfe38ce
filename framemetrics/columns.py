"""Which source column plays each input role, and its SQL expression."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

import polars as pl

from framemetrics.plan import MetricsArg, Plan, make_plan, requested_metrics
from framemetrics.registry import get_metric
from framemetrics.sql.quoting import quote_identifier, sql_literal

__all__ = [
    "Resolved",
    "as_tuple",
    "check_nulls",
    "polars_columns",
    "resolve",
    "resolve_curve",
    "resolve_roles",
    "sql_columns",
]


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


def check_nulls(nulls: str) -> None:
    """Raise unless ``nulls`` is "error" or "drop"."""
    if nulls not in ("error", "drop"):
        raise ValueError(f"nulls must be 'error' or 'drop', got {nulls!r}")


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
    bins: int | None = None,
) -> Resolved:
    """Resolve the arguments shared by ``evaluate`` and ``sql.query``.

    With ``bins``, a requested ROC AUC (without ``max_fpr``) or Gini gets
    ``roc_auc_error_bound`` beside it: the bound on the AUC's binning error
    (twice it for the Gini). ``bins`` without a ranking metric is an error.

    Examples
    --------
    >>> r = resolve(["f1_score"], y_true="y", y_pred=None, y_score="p", sample_weight=None,
    ...             pos_label=1, neg_label=None, zero_division=None)
    >>> r.thresholded, r.roles
    (True, {'y_true': 'y', 'y_pred': 'p', 'y_score': 'p'})
    """
    requested = requested_metrics(metrics)
    if bins is not None:
        if not any(get_metric(name).family == "ranking" for name in requested):
            raise ValueError("bins= bins the score of ranking metrics, and none is requested")
        full_auc = (requested.get("roc_auc_score") or {}).get("max_fpr") in (None, 1)
        if ("roc_auc_score" in requested and full_auc) or "gini_score" in requested:
            requested.setdefault("roc_auc_error_bound", {})
    metrics = requested
    families = {get_metric(name).family for name in requested}
    thresholded = y_pred is None and y_score is not None and "regression" not in families
    plan = make_plan(
        metrics,
        weighted=sample_weight is not None,
        pos_label=pos_label,
        neg_label=neg_label,
        zero_division=zero_division,
        thresholded=thresholded,
        bins=bins,
    )
    columns = {"y_true": y_true, "y_pred": y_pred, "y_score": y_score, "sample_weight": sample_weight}
    return Resolved(plan, resolve_roles(plan, columns, thresholded), thresholded)


def resolve_curve(*, y_true: str, y_score: str, sample_weight: str | None, pos_label: Any, neg_label: Any) -> Resolved:
    """Resolve the arguments of a curve: the checks and labels of the ranking metrics.

    Examples
    --------
    >>> resolve_curve(y_true="y", y_score="s", sample_weight=None, pos_label=1, neg_label=None).roles
    {'y_true': 'y', 'y_score': 's'}
    """
    return resolve(
        ["roc_auc_score"],
        y_true=y_true,
        y_pred=None,
        y_score=y_score,
        sample_weight=sample_weight,
        pos_label=pos_label,
        neg_label=neg_label,
        zero_division=None,
    )


def _numeric_roles(plan: Plan) -> set[str]:
    return {"sample_weight", "y_score"} | ({"y_true", "y_pred"} if "regression" in plan.families else set())


def sql_columns(plan: Plan, roles: dict[str, str], thresholded: bool, threshold: float) -> dict[str, str]:
    """SQL expression of each input role: quoted columns, numbers cast to DOUBLE.

    A thresholded prediction is ``pos_label`` where ``y_score >= threshold``,
    else ``neg_label`` (the score is the probability of ``pos_label``).

    Examples
    --------
    >>> from framemetrics.plan import make_plan
    >>> plan = make_plan("f1_score", weighted=False, pos_label="Yes", neg_label="No", thresholded=True)
    >>> print(sql_columns(plan, {"y_true": "y", "y_pred": "p", "y_score": "p"}, True, 0.5)["y_pred"])
    CASE WHEN CAST("p" AS DOUBLE) >= CAST(0.5 AS DOUBLE) THEN 'Yes' ELSE 'No' END
    """
    exprs = {role: quote_identifier(column) for role, column in roles.items()}
    for role in _numeric_roles(plan) & set(exprs):
        exprs[role] = f"CAST({exprs[role]} AS DOUBLE)"
    if thresholded and "y_pred" in roles:
        score = f"CAST({quote_identifier(roles['y_pred'])} AS DOUBLE)"
        exprs["y_pred"] = (
            f"CASE WHEN {score} >= {sql_literal(float(threshold))} "
            f"THEN {sql_literal(plan.pos_label)} ELSE {sql_literal(plan.neg_label)} END"
        )
    return exprs


def polars_columns(plan: Plan, roles: dict[str, str], thresholded: bool, threshold: float) -> dict[str, pl.Expr]:
    """Polars expression of each input role, as :func:`sql_columns`.

    Examples
    --------
    >>> from framemetrics.plan import make_plan
    >>> plan = make_plan("f1_score", weighted=False, pos_label=0, thresholded=True)
    >>> df = pl.DataFrame({"p": [0.2, 0.9]})
    >>> df.select(polars_columns(plan, {"y_pred": "p"}, True, 0.5)["y_pred"]).rows()
    [(1,), (0,)]
    """
    exprs = {role: pl.col(column) for role, column in roles.items()}
    for role in _numeric_roles(plan) & set(exprs):
        exprs[role] = exprs[role].cast(pl.Float64)
    if thresholded and "y_pred" in roles:
        score = pl.col(roles["y_pred"]).cast(pl.Float64)
        exprs["y_pred"] = pl.when(score >= threshold).then(pl.lit(plan.pos_label)).otherwise(pl.lit(plan.neg_label))
    return exprs
