"""What to compute for a set of requested metrics, shared by both engines.

A :class:`Plan` resolves metric names and parameters once: the statistics to
gather (stage 1), the input checks, and the formula calls (stage 2). The
Polars engine and the SQL generator both execute the same plan.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from typing import Any

from framemetrics.core.checks import Check, check
from framemetrics.core.statistics import STATISTICS
from framemetrics.inputs import default_neg_label
from framemetrics.registry import Metric, get_metric

__all__ = ["MetricCall", "MetricsArg", "Plan", "make_plan", "requested_metrics"]

MetricsArg = str | Iterable[str] | Mapping[str, Mapping[str, Any]]


@dataclass(frozen=True)
class MetricCall:
    """One requested metric with its resolved formula parameters and checks."""

    metric: Metric
    params: dict[str, Any]
    checks: tuple[Check, ...]
    skipped: tuple[str, ...] = ()

    @property
    def name(self) -> str:
        """Output column name (the metric's name)."""
        return self.metric.name

    @property
    def statistics(self) -> tuple[str, ...]:
        """The statistics computed for this call (its formula gets NULL for the ``skipped``)."""
        return tuple(s for s in self.metric.statistics if s not in self.skipped)


@dataclass(frozen=True)
class Plan:
    """Statistics, checks and formula calls for one evaluation.

    Examples
    --------
    >>> plan = make_plan(["f1_score", "log_loss"], weighted=False)
    >>> plan.statistics
    ('n_rows', 'tp', 'fp', 'fn', 'sum_log_loss', 'sum_weight')
    """

    calls: tuple[MetricCall, ...]
    statistics: tuple[str, ...]
    checks: tuple[Check, ...]
    pos_label: Any
    neg_label: Any
    alpha: float
    max_fpr: float
    weighted: bool
    bins: int | None = None

    @property
    def first_pass(self) -> tuple[str, ...]:
        """Statistics that others need per group first (group means)."""
        return tuple(dict.fromkeys(n for s in self.statistics for n in STATISTICS[s].needs))

    @property
    def curve_statistics(self) -> tuple[str, ...]:
        """Ranking statistics, computed over the curve stage."""
        return tuple(s for s in self.statistics if STATISTICS[s].curve)

    @property
    def row_statistics(self) -> tuple[str, ...]:
        """Statistics aggregated from the rows in one ``GROUP BY`` (after the first pass)."""
        skip = set(self.first_pass) | set(self.curve_statistics)
        return tuple(s for s in self.statistics if s not in skip)

    @property
    def roles(self) -> tuple[str, ...]:
        """Input roles read by the plan, in a fixed order."""
        used = {c.role for c in self.checks} | {r for c in self.calls for r in ("y_true", c.metric.prediction)}
        return tuple(r for r in ("y_true", "y_pred", "y_score", "sample_weight") if r in used)

    @property
    def families(self) -> frozenset[str]:
        """Families of the requested metrics."""
        return frozenset(c.metric.family for c in self.calls)


def requested_metrics(metrics: MetricsArg) -> dict[str, dict[str, Any]]:
    """Metric names mapped to their given parameters.

    Examples
    --------
    >>> requested_metrics(["f1_score"])
    {'f1_score': {}}
    """
    if isinstance(metrics, str):
        return {metrics: {}}
    if isinstance(metrics, Mapping):
        return {name: dict(params or {}) for name, params in metrics.items()}
    return {name: {} for name in metrics}


def make_plan(
    metrics: MetricsArg,
    *,
    weighted: bool,
    pos_label: Any = 1,
    neg_label: Any = None,
    zero_division: float | None = None,
    thresholded: bool = False,
    bins: int | None = None,
) -> Plan:
    """Resolve metric names and parameters into a :class:`Plan`.

    Parameters
    ----------
    metrics : str, list of str, or dict of str to dict
        Metric names, or names mapped to their parameters, e.g.
        ``{"fbeta_score": {"beta": 2}, "mean_pinball_loss": {"alpha": 0.9}}``.
    weighted : bool
        Whether a sample weight column is given.
    pos_label, neg_label : Any
        Class labels of the classification and probability metrics.
    zero_division : float or None
        Default value of undefined ratios, for the metrics that take it.
    thresholded : bool
        Classification labels come from thresholding ``y_score``, which is
        then checked instead of the labels (no null or NaN score).
    bins : int, optional
        Ranking metrics read the score binned to ``floor(y_score * bins) / bins``.

    Returns
    -------
    Plan

    Examples
    --------
    >>> make_plan({"fbeta_score": {"beta": 2}}, weighted=False).calls[0].params
    {'beta': 2, 'zero_division': None}
    """
    pos_label, neg_label = as_python_scalar(pos_label), as_python_scalar(neg_label)
    if pos_label is None:
        raise ValueError("pos_label must be a label, got None")
    bins, zero_division = as_python_scalar(bins), as_python_scalar(zero_division)
    if bins is not None and not (isinstance(bins, int) and not isinstance(bins, bool) and bins >= 1):
        raise ValueError(f"bins must be None or a positive integer, got {bins!r}")
    requested = requested_metrics(metrics)
    if not requested:
        raise ValueError("no metrics requested")
    calls, inputs = [], {"alpha": set(), "max_fpr": set()}
    for name, given in requested.items():
        given = {k: as_python_scalar(v) for k, v in given.items()}
        metric = get_metric(name)
        allowed = set(metric.params) | set(metric.input_params)
        unknown = set(given) - allowed
        if unknown:
            raise ValueError(f"{name} has no parameter {sorted(unknown)}; it takes {sorted(allowed) or 'none'}")
        if weighted and not metric.weighted:
            raise ValueError(f"{name} does not support sample_weight")
        params = {**metric.params, **{k: v for k, v in given.items() if k in metric.params}}
        if "zero_division" in params and "zero_division" not in given:
            params["zero_division"] = zero_division
        _validate(name, {**params, **given})
        for key, default in metric.input_params.items():
            inputs[key].add(_INPUT_DEFAULTS[key] if given.get(key, default) is None else float(given.get(key, default)))
        checks = metric.checks + ((check("weight", "sample_weight"),) if weighted else ())
        if thresholded and metric.family == "classification":
            # y_score >= threshold is a valid label wherever the score is a number.
            checks = tuple(c for c in checks if c != check("label", "y_pred")) + (check("score", "y_score"),)
        skipped = tuple(s for s, needed in metric.conditional.items() if not needed({**params, **given}))
        calls.append(MetricCall(metric, params, checks, skipped))
    for key, values in inputs.items():
        if len(values) > 1:
            raise ValueError(f"one evaluation takes one {key}, got {sorted(values)}")
    statistics = ["n_rows"]
    for call in calls:
        for stat in call.statistics:
            statistics += [*STATISTICS[stat].needs, stat]
    return Plan(
        calls=tuple(calls),
        statistics=tuple(dict.fromkeys(statistics)),
        checks=tuple(dict.fromkeys(c for call in calls for c in call.checks)),
        pos_label=pos_label,
        neg_label=default_neg_label(pos_label, neg_label),
        alpha=next(iter(inputs["alpha"]), _INPUT_DEFAULTS["alpha"]),
        max_fpr=next(iter(inputs["max_fpr"]), _INPUT_DEFAULTS["max_fpr"]),
        weighted=weighted,
        bins=bins,
    )


_INPUT_DEFAULTS = {"alpha": 0.5, "max_fpr": 1.0}


def _is_number(value: Any) -> bool:
    return isinstance(value, (int, float)) and not isinstance(value, bool)


def _validate(name: str, params: dict[str, Any]) -> None:
    zd = params.get("zero_division")
    if zd is not None and not (_is_number(zd) and zd in (0, 1)):
        raise ValueError(f"{name}: zero_division must be None, 0 or 1, got {zd!r}")
    beta = params.get("beta")
    if beta is not None and not (_is_number(beta) and 0 < beta < float("inf")):
        raise ValueError(f"{name}: beta must be a positive finite number, got {beta!r}")
    alpha = params.get("alpha")
    if alpha is not None and not (_is_number(alpha) and 0 <= alpha <= 1):
        raise ValueError(f"{name}: alpha must be a number in [0, 1], got {alpha!r}")
    max_fpr = params.get("max_fpr")
    if max_fpr is not None and not (_is_number(max_fpr) and 0 < max_fpr <= 1):
        raise ValueError(f"{name}: max_fpr must be None or a number in (0, 1], got {max_fpr!r}")
    if "force_finite" in params and not isinstance(params["force_finite"], bool):
        raise ValueError(f"{name}: force_finite must be True or False, got {params['force_finite']!r}")


def as_python_scalar(value: Any) -> Any:
    """A NumPy scalar as the Python scalar it holds; anything else unchanged.

    Examples
    --------
    >>> import numpy as np
    >>> as_python_scalar(np.int64(1)), as_python_scalar("Yes")
    (1, 'Yes')
    """
    return value.item() if type(value).__module__ == "numpy" and hasattr(value, "item") else value
