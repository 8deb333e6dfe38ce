"""What to compute for a multiclass evaluation, shared by both engines."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from framemetrics.multiclass.registry import MulticlassMetric, get_multiclass_metric
from framemetrics.plan import MetricsArg, as_python_scalar, requested_metrics

__all__ = ["McCall", "McCheck", "McPlan", "make_mc_plan"]

KAPPA_WEIGHTS = (None, "linear", "quadratic")


@dataclass(frozen=True)
class McCall:
    """A requested metric with its parameters."""

    metric: MulticlassMetric
    params: dict[str, Any]

    @property
    def name(self) -> str:
        return self.metric.name


@dataclass(frozen=True)
class McCheck:
    """Count of the invalid rows of one input column: ``invalid_<domain>_<role>``.

    ``index`` numbers the score columns (``y_score_0``...).
    """

    domain: str
    role: str
    index: int | None = None

    @property
    def name(self) -> str:
        suffix = "" if self.index is None else f"_{self.index}"
        return f"invalid_{self.domain}_{self.role}{suffix}"

    def describe(self) -> str:
        return _DESCRIPTIONS[self.domain]


_DESCRIPTIONS = {
    "class": "null or not one of labels",
    "present": "null",
    "score": "null or NaN",
    "finite": "null, NaN or infinite",
    "probability": "null, NaN or outside [0, 1]",
    "simplex": "rows whose class probabilities do not sum to 1 (|sum - 1| > 1e-5)",
    "weight": "null, NaN, infinite or negative",
}


@dataclass(frozen=True)
class McPlan:
    """Calls, checks and the stages they need.

    Examples
    --------
    >>> plan = make_mc_plan(["f1_macro", "cohen_kappa_score"], labels=None, n_scores=0, has_pred=True,
    ...                     weighted=False, float_labels=False)
    >>> sorted(plan.stages)
    ['classes', 'kappa']
    """

    calls: tuple[McCall, ...]
    checks: tuple[McCheck, ...]
    labels: tuple[Any, ...] | None
    n_scores: int
    has_pred: bool
    weighted: bool
    k: int
    beta: float
    kappa_weights: tuple[str | None, ...]

    @property
    def stages(self) -> frozenset[str]:
        stages = {c.metric.stage for c in self.calls}
        if "kappa" in stages:
            stages.add("classes")
        return frozenset(stages)


def make_mc_plan(
    metrics: MetricsArg,
    *,
    labels: Sequence[Any] | None,
    n_scores: int,
    has_pred: bool,
    weighted: bool,
    float_labels: bool,
    zero_division: float | None = None,
) -> McPlan:
    """Resolve metric names and parameters (see :func:`framemetrics.evaluate_multiclass`)."""
    labels = None if labels is None else tuple(as_python_scalar(label) for label in labels)
    if labels is not None and (len(set(labels)) != len(labels) or len(labels) < 2):
        raise ValueError(f"labels must be at least two distinct classes, got {list(labels)!r}")
    requested = requested_metrics(metrics)
    if not requested:
        raise ValueError("no metrics requested")
    calls: list[McCall] = []
    for name, given in requested.items():
        metric, given = get_multiclass_metric(name, given)
        unknown = set(given) - set(metric.params)
        if unknown:
            raise ValueError(
                f"{metric.name} has no parameter {sorted(unknown)}; it takes {sorted(metric.params) or 'none'}"
            )
        params = {**metric.params, **given}
        if "zero_division" in params and "zero_division" not in given:
            params["zero_division"] = zero_division
        _validate(metric.name, params)
        if weighted and not metric.weighted:
            raise ValueError(f"{metric.name} does not support sample_weight (as scikit-learn)")
        if metric.reads == "y_pred" and not has_pred:
            raise ValueError(f"{metric.name} needs y_pred=")
        if metric.reads == "y_score" and not n_scores:
            raise ValueError(f"{metric.name} needs y_score= (one column per class, or a list column)")
        if metric.name in [c.name for c in calls]:
            raise ValueError(f"{metric.name} is requested twice")
        calls.append(McCall(metric, params))
    if n_scores and labels is None:
        raise ValueError("scores need labels=: the class of each score column, in order")
    if n_scores and len(labels) != n_scores:
        raise ValueError(f"{n_scores} score columns but {len(labels)} labels")
    ks = {c.params["k"] for c in calls if "k" in c.params}
    betas = {float(c.params["beta"]) for c in calls if "beta" in c.params}
    for key, values in (("k", ks), ("beta", betas)):
        if len(values) > 1:
            raise ValueError(f"one evaluation takes one {key}, got {sorted(values)}")
    kappa = tuple(dict.fromkeys(c.params["weights"] for c in calls if c.metric.stage == "kappa"))
    return McPlan(
        calls=tuple(calls),
        checks=_checks(calls, labels, n_scores, has_pred, weighted, float_labels),
        labels=labels,
        n_scores=n_scores,
        has_pred=has_pred,
        weighted=weighted,
        k=next(iter(ks), 2),
        beta=next(iter(betas), 1.0),
        kappa_weights=kappa,
    )


def _checks(
    calls: list[McCall], labels: tuple | None, n_scores: int, has_pred: bool, weighted: bool, float_labels: bool
) -> tuple[McCheck, ...]:
    roles = ["y_true"] + (["y_pred"] if has_pred and any(c.metric.reads == "y_pred" for c in calls) else [])
    domain = "class" if labels is not None else ("score" if float_labels else "present")
    checks = [McCheck(domain, role) for role in roles]
    domains = {c.metric.scores for c in calls if c.metric.scores}
    if domains:
        score_domain = "probability" if "probability" in domains else "finite"
        checks += [McCheck(score_domain, "y_score", j) for j in range(n_scores)]
        if score_domain == "probability":
            checks.append(McCheck("simplex", "y_score"))
    if weighted:
        checks.append(McCheck("weight", "sample_weight"))
    return tuple(checks)


def _validate(name: str, params: dict[str, Any]) -> None:
    zd = params.get("zero_division")
    if zd is not None and (isinstance(zd, bool) or zd not in (0, 1)):
        raise ValueError(f"{name}: zero_division must be None, 0 or 1, got {zd!r}")
    beta = params.get("beta")
    if beta is not None and (
        isinstance(beta, bool) or not isinstance(beta, (int, float)) or not 0 < beta < float("inf")
    ):
        raise ValueError(f"{name}: beta must be a positive finite number, got {beta!r}")
    k = params.get("k")
    if k is not None and (isinstance(k, bool) or not isinstance(k, int) or k < 1):
        raise ValueError(f"{name}: k must be a positive integer, got {k!r}")
    if params.get("weights") not in KAPPA_WEIGHTS:
        raise ValueError(f"{name}: weights must be None, 'linear' or 'quadratic', got {params['weights']!r}")
    if not isinstance(params.get("adjusted", False), bool):
        raise ValueError(f"{name}: adjusted must be True or False, got {params['adjusted']!r}")
