"""What to compute for a set of requested metrics of one task, shared by every compiler.

A :class:`Plan` resolves metric names and parameters once: the statistics to
gather (stage 1), the input checks, the formula calls (stage 2) and the
parameters of the statistics. The Polars compiler and the SQL compiler both
execute the same plan, for binary, regression and multiclass evaluations.
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, replace
from functools import reduce
from numbers import Real
from typing import Any

from framemetrics.core.checks import Check, check
from framemetrics.core.errors import ArgumentError, did_you_mean
from framemetrics.core.formulas import apply_formula
from framemetrics.core.formulas.guards import bounded
from framemetrics.core.intervals import (
    RESAMPLED,
    Interval,
    check_level,
    has_own_interval,
    interval_z,
    metric_interval,
    multiclass_interval,
)
from framemetrics.core.names import output_name, parse_metric
from framemetrics.core.registry import Metric, get_metric, resolve_alias
from framemetrics.core.resampling import Resampling, check_resampling
from framemetrics.core.statistics import STATISTICS

__all__ = [
    "KAPPA_WEIGHTS",
    "IntervalCall",
    "MetricCall",
    "MetricsArg",
    "Plan",
    "as_python_scalar",
    "check_labels",
    "default_neg_label",
    "make_plan",
    "requested_metrics",
]

MetricsArg = str | Mapping[str, Mapping[str, Any] | None] | Iterable[str | Mapping[str, Mapping[str, Any] | None]]
KAPPA_WEIGHTS = (None, "linear", "quadratic")


@dataclass(frozen=True)
class MetricCall:
    """One requested metric with its resolved formula parameters and checks."""

    metric: Metric
    params: dict[str, Any]
    checks: tuple[Check, ...] = ()
    skipped: tuple[str, ...] = ()
    output: str = ""

    @property
    def name(self) -> str:
        """Output column name: the metric's name, or its spelling with the parameters that differ from their
        defaults (:func:`~framemetrics.core.names.output_name`).

        Examples
        --------
        >>> make_plan({"fbeta_score": {"beta": 0.5}}, weighted=False).calls[0].name
        'fbeta_score(beta=0.5)'
        """
        return self.output or self.metric.name

    @property
    def statistics(self) -> tuple[str, ...]:
        """The statistics computed for this call (its formula gets NULL for the ``skipped``)."""
        return tuple(s for s in self.metric.statistics if s not in self.skipped)

    def value(self, ns: Any, statistics: Mapping[str, Any], n_invalid: Any = None, *, guarded: bool = True) -> Any:
        """The metric's formula over its ``statistics`` (expressions by name; null for the skipped ones) and the
        group's count of invalid rows (``n_invalid``; 0 if None): the point estimate's, a replicate's, a jackknife
        value's.

        Examples
        --------
        >>> from framemetrics.compilers.sql import SQL
        >>> call = make_plan("precision_score", weighted=False).calls[0]
        >>> "tp / (tp + fp)" in call.value(SQL, {n: SQL.col(n) for n in ("tp", "fp")}).sql()
        True
        """
        arguments = {s: statistics[s] for s in self.statistics} | {s: ns.null() for s in self.skipped}
        invalid = ns.lit(0) if n_invalid is None else n_invalid
        formula, value_range = self.metric.formula.function, self.metric.value_range
        return apply_formula(ns, formula, arguments, invalid, self.params, guarded=guarded, value_range=value_range)


@dataclass(frozen=True)
class IntervalCall:
    """A requested interval: the metric's call, its method, the normal quantile ``z`` of the level, the outputs.

    Each output (``se``, ``low``, ``high``) is the column ``<metric>_<output>``,
    or the name ``outputs`` maps it to.
    """

    call: MetricCall
    interval: Interval
    z: float
    outputs: tuple[str, ...] | Mapping[str, str] = ("low", "high")
    level: float = 0.95

    def values(
        self, ns: Any, columns: Mapping[str, Any], *, guarded: bool = True, stepped: bool = False
    ) -> dict[str, Any]:
        """Each output column's expression over the statistics and check counts named in ``columns``.

        ``guarded`` passes each through :func:`~framemetrics.core.formulas.guards.bounded`,
        as :func:`~framemetrics.core.formulas.apply_formula` does. ``stepped``:
        ``columns`` hold the outputs of the interval's :meth:`step` already
        (computed in stages before), else they are substituted here.

        Examples
        --------
        >>> import polars as pl
        >>> from framemetrics.compilers.polars import POLARS
        >>> ic = make_plan("recall_score", weighted=False, ci=0.95).intervals[0]
        >>> stats = {"tp": pl.lit(3.0), "fn": pl.lit(7.0), "tp_sq": pl.lit(3.0), "fn_sq": pl.lit(7.0)}
        >>> values = ic.values(POLARS, stats | {c.name: pl.lit(0) for c in ic.call.checks})
        >>> round(pl.select(values["recall_score_low"]).item(), 6)
        0.107791
        """
        if not stepped:
            columns = dict(columns)
            for k in range(len(self.interval.steps)):
                columns |= self.step(ns, columns, k)
        bounds = self.interval.bounds(ns, columns, ns.lit(self.z), self._n_invalid(columns))
        return {name: bounded(ns, bounds[o]) if guarded else bounds[o] for o, name in self.columns().items()}

    def step(self, ns: Any, columns: Mapping[str, Any], k: int) -> dict[str, Any]:
        """The outputs of the interval's step ``k`` (:attr:`~framemetrics.core.intervals.Interval.steps`) over
        ``columns``: the statistics, check counts and earlier steps' outputs by name.

        Examples
        --------
        >>> import polars as pl
        >>> from framemetrics.compilers.polars import POLARS
        >>> (ic,) = make_plan("f1_score", weighted=False, ci=0.9).intervals
        >>> cells = {c: pl.lit(4.0) for c in ("tp", "fn", "fp", "tp_sq", "fn_sq", "fp_sq")}
        >>> step = ic.step(POLARS, cells | {c.name: pl.lit(0) for c in ic.call.checks}, 0)
        >>> pl.select(step["f"]).item(), pl.select(step["denominator"]).item()
        (0.5, 8.0)
        """
        return self.interval.steps[k](ns, columns, ns.lit(self.z), self._n_invalid(columns))

    def beta_parameters(self, ns: Any, columns: Mapping[str, Any]) -> list[tuple[Any, Any]]:
        """The parameters ``(a, b)`` of the Beta quantiles at ``(1 - level) / 2`` the bounds read (Clopper-Pearson's),
        over the statistics named in ``columns``; none for the other methods.

        A compiler computes them (:func:`~framemetrics.core.beta.beta_quantile_stages`)
        and gives :meth:`values` quantile ``k`` as the column ``q<k>``.

        Examples
        --------
        >>> from framemetrics.compilers.sql import SQL
        >>> ic = make_plan("recall_score", weighted=False, ci=0.9, ci_method="clopper-pearson").intervals[0]
        >>> len(ic.beta_parameters(SQL, {n: SQL.col(n) for n in ic.interval.statistics}))
        2
        """
        return self.interval.quantiles(ns, columns) if self.interval.quantiles else []

    def _n_invalid(self, columns: Mapping[str, Any]) -> Any:
        return reduce(lambda a, b: a + b, (columns[c.name] for c in self.call.checks))

    def resampled(self, ns: Any, columns: Mapping[str, Any]) -> dict[str, Any]:
        """A bootstrap interval's output columns (read from ``columns``), null where the group has invalid input.

        Examples
        --------
        >>> from framemetrics.compilers.sql import SQL
        >>> ic = make_plan("f1_score", weighted=False, ci=0.9).intervals[0]
        >>> names = [*ic.columns().values(), *(c.name for c in ic.call.checks)]
        >>> ic.resampled(SQL, {n: SQL.col(n) for n in names})["f1_score_low"].sql()
        'CASE WHEN (invalid_label_y_true + invalid_label_y_pred) > 0 THEN CAST(NULL AS DOUBLE) ELSE f1_score_low END'
        """
        invalid = self._n_invalid(columns) > 0
        return {name: ns.when(invalid, ns.null()).otherwise(columns[name]) for name in self.columns().values()}

    def quantiles(self) -> dict[str, float]:
        """The percentile each output of a bootstrap interval reads: ``(1 -+ level) / 2``.

        Examples
        --------
        >>> make_plan("f1_score", weighted=False, ci=0.5).intervals[0].quantiles()
        {'low': 0.25, 'high': 0.75}
        """
        bounds = {"low": (1 - self.level) / 2, "high": (1 + self.level) / 2}
        return {output: bounds[output] for output in self.columns()}

    def columns(self) -> dict[str, str]:
        """Each output the method has (Wilson's has no ``se``) mapped to its column name.

        Examples
        --------
        >>> make_plan("recall_score", weighted=False, ci=0.9).intervals[0].columns()
        {'low': 'recall_score_low', 'high': 'recall_score_high'}
        """
        names = (
            self.outputs if isinstance(self.outputs, Mapping) else {o: f"{self.call.name}_{o}" for o in self.outputs}
        )
        return {output: name for output, name in names.items() if output in self.interval.outputs}


@dataclass(frozen=True)
class Plan:
    """Statistics, checks, formula calls and statistics parameters of one evaluation.

    ``statistics`` are :data:`~framemetrics.core.statistics.STATISTICS` names
    for a binary or regression plan, and the stages giving the columns of the
    formulas for a multiclass plan (:attr:`stages`).

    Calls that need different values of a parameter of the statistics
    (``max_fpr``, ``alpha``, ``power``, the multiclass ``k`` and ``beta``)
    make a plan of :attr:`parts`: one plan per set of values, each computed
    on its own and joined by group (:func:`framemetrics.stages.parts.joined_parts`);
    the plan itself lists every call, statistic and check, and the first
    part's values.

    Examples
    --------
    >>> plan = make_plan(["f1_score", "log_loss"], weighted=False)
    >>> plan.statistics
    ('n_rows', 'tp', 'fp', 'fn', 'sum_log_loss', 'sum_weight')
    >>> plan = make_plan(["f1_macro", "cohen_kappa_score"], task="multiclass", weighted=False)
    >>> sorted(plan.stages)
    ['classes', 'kappa']
    >>> plan = make_plan(["roc_auc_score(max_fpr=0.1)", "roc_auc_score(max_fpr=0.2)", "log_loss"], weighted=False)
    >>> [(part.max_fpr, [c.name for c in part.calls]) for part in plan.parts]
    [(0.1, ['roc_auc_score(max_fpr=0.1)', 'log_loss']), (0.2, ['roc_auc_score(max_fpr=0.2)'])]
    """

    task: str
    calls: tuple[MetricCall, ...]
    statistics: tuple[str, ...]
    checks: tuple[Check, ...]
    weighted: bool
    pos_label: Any = None
    neg_label: Any = None
    alpha: float = 0.5
    max_fpr: float = 1.0
    power: float = 0.0
    bins: int | None = None
    labels: tuple[Any, ...] | None = None
    n_scores: int = 0
    has_pred: bool = False
    k: int = 2
    beta: float = 1.0
    kappa_weights: tuple[str | None, ...] = ()
    intervals: tuple[IntervalCall, ...] = ()
    resampling: Resampling | None = None
    exposed: tuple[str, ...] = ()
    parts: tuple[Plan, ...] = ()

    def exposing(self, statistics: Sequence[str]) -> Plan:
        """This plan also returning the ``statistics`` as columns ``fm_<name>`` after the metrics (the report's
        ROC band reads ``sum_pos_sq``, the positives' squared weight).

        Examples
        --------
        >>> plan = make_plan("accuracy_score", weighted=True).exposing(["tp", "tp_sq"])
        >>> plan.exposed, "tp_sq" in plan.statistics
        (('tp', 'tp_sq'), True)
        """
        added = tuple(dict.fromkeys((*self.statistics, *statistics)))
        parts = (self.parts[0].exposing(statistics), *self.parts[1:]) if self.parts else ()
        exposed = tuple(dict.fromkeys((*self.exposed, *statistics)))
        return replace(self, statistics=added, exposed=exposed, parts=parts)

    @property
    def exposed_columns(self) -> dict[str, str]:
        """The columns of the :attr:`exposed` statistics, ``fm_<name>``, to the statistics' names."""
        return {f"fm_{name}": name for name in self.exposed}

    @property
    def bootstrapped(self) -> tuple[IntervalCall, ...]:
        """The intervals by the Poisson bootstrap, computed from replicates (:attr:`resampling`): percentile and BCa."""
        return tuple(i for i in self.intervals if i.interval.method in RESAMPLED)

    @property
    def formula_intervals(self) -> tuple[IntervalCall, ...]:
        """The intervals that are formulas of the statistics (DeLong's, Wilson's)."""
        return tuple(i for i in self.intervals if i.interval.method not in RESAMPLED)

    def beta_quantiles(self, ns: Any, columns: Mapping[str, Any]) -> tuple[list[tuple[Any, Any]], list[dict[str, str]]]:
        """The Beta quantiles every formula interval reads (:meth:`IntervalCall.beta_parameters`), numbered through
        the plan, and per formula interval its names ``q<k>`` mapped to the plan's columns ``fm_q<j>``.

        Examples
        --------
        >>> from framemetrics.compilers.sql import SQL
        >>> plan = make_plan(["recall_score", "precision_score"], weighted=False, ci=0.9, ci_method="clopper-pearson")
        >>> pairs, names = plan.beta_quantiles(SQL, {n: SQL.col(n) for n in plan.statistics})
        >>> len(pairs), names
        (4, [{'q0': 'fm_q0', 'q1': 'fm_q1'}, {'q0': 'fm_q2', 'q1': 'fm_q3'}])
        """
        pairs: list[tuple[Any, Any]] = []
        names = []
        for interval in self.formula_intervals:
            own = interval.beta_parameters(ns, columns)
            names.append({f"q{k}": f"fm_q{len(pairs) + k}" for k in range(len(own))})
            pairs += own
        return pairs, names

    @property
    def beta_probability(self) -> float:
        """The probability of every Beta quantile of :meth:`beta_quantiles`, ``(1 - level) / 2`` (a request has one
        level).

        Examples
        --------
        >>> make_plan("recall_score", weighted=False, ci=0.9, ci_method="clopper-pearson").beta_probability
        0.04999999999999999
        """
        return (1 - self.intervals[0].level) / 2

    @property
    def output_columns(self) -> tuple[str, ...]:
        """The metric columns in order, each followed by its interval's columns.

        Examples
        --------
        >>> make_plan(["roc_auc_score", "log_loss"], weighted=False).output_columns
        ('roc_auc_score', 'log_loss')
        """
        intervals = {i.call.name: tuple(i.columns().values()) for i in self.intervals}
        return tuple(name for c in self.calls for name in (c.name, *intervals.get(c.name, ())))

    @property
    def first_pass(self) -> tuple[str, ...]:
        """Statistics that others need per group first (group means)."""
        return tuple(dict.fromkeys(n for s in self.statistics for n in STATISTICS[s].needs))

    @property
    def curve_statistics(self) -> tuple[str, ...]:
        """Ranking statistics, computed over the curve stage."""
        return tuple(s for s in self.statistics if STATISTICS[s].curve)

    @property
    def curve_stages(self) -> dict[tuple[str, str], tuple[str, ...]]:
        """The curve statistics by the stage they read: ``(score, quantile)`` of :class:`Statistic` to names.

        Examples
        --------
        >>> make_plan(["roc_auc_score", "median_absolute_error"], weighted=False).curve_stages
        {('y_score', ''): ('auc_sum', 'sum_pos', 'sum_neg'), ('abs_error', ''): ('median_abs_error',)}
        """
        stages: dict[tuple[str, str], tuple[str, ...]] = {}
        for s in self.curve_statistics:
            key = (STATISTICS[s].score, STATISTICS[s].quantile)
            stages[key] = (*stages.get(key, ()), s)
        return stages

    @property
    def scores_read_previous(self) -> bool:
        """Whether a curve statistic of the scores' stage reads ``tp_prev, fp_prev`` (the stage then adds them).

        Examples
        --------
        >>> make_plan("average_precision_score", weighted=False).scores_read_previous
        False
        """
        return any(STATISTICS[s].previous for s in self.curve_stages.get(("y_score", ""), ()))

    @property
    def row_statistics(self) -> tuple[str, ...]:
        """Statistics aggregated from the rows in one ``GROUP BY`` (after the first pass)."""
        skip = set(self.first_pass) | set(self.curve_statistics)
        return tuple(s for s in self.statistics if s not in skip)

    @property
    def stages(self) -> frozenset[str]:
        """The multiclass stages the calls read (``classes``, ``kappa``, ``rows``, ``ranking``, ``ovo``, ``micro``)."""
        return frozenset(self.statistics)

    @property
    def roles(self) -> tuple[str, ...]:
        """Input roles read by the plan, in a fixed order."""
        used = {c.role for c in self.checks} | {r for c in self.calls for r in ("y_true", c.metric.prediction)}
        return tuple(r for r in ("y_true", "y_pred", "y_score", "sample_weight") if r in used)

    @property
    def families(self) -> frozenset[str]:
        """Families of the requested metrics."""
        return frozenset(c.metric.family for c in self.calls)


def needs_predictions(metrics: MetricsArg) -> bool:
    """Whether a requested multiclass metric reads predicted classes (``y_pred``, or the scores' argmax).

    Examples
    --------
    >>> needs_predictions(["log_loss", "roc_auc_ovr"]), needs_predictions({"f1_score": {"average": "macro"}})
    (False, True)
    """
    resolved = (resolve_alias(name, params) for name, params in requested_metrics(metrics))
    return any(get_metric(name, "multiclass").prediction == "y_pred" for name, _ in resolved)


def requested_metrics(metrics: MetricsArg) -> list[tuple[str, dict[str, Any]]]:
    """Each requested metric's name and given parameters, in order.

    A metric is its spelling ``name`` or ``name(param=value, ...)``
    (:func:`~framemetrics.core.names.parse_metric`), or a mapping of spellings
    to parameters (``{"roc_auc_score": {"max_fpr": 0.2}}``); ``metrics`` is
    one metric or a list of them. A parameter given both in the spelling and
    in the mapping is an error.

    Examples
    --------
    >>> requested_metrics(["roc_auc_score", "roc_auc_score(max_fpr=0.1)", {"fbeta_score": {"beta": 2}}])
    [('roc_auc_score', {}), ('roc_auc_score', {'max_fpr': 0.1}), ('fbeta_score', {'beta': 2})]
    """
    if isinstance(metrics, str):
        return [parse_metric(metrics)]
    if isinstance(metrics, Mapping):
        requested = []
        for spelling, extra in metrics.items():
            if not isinstance(spelling, str):
                raise ArgumentError(f"a metric is a name or NAME(param=value, ...), got {spelling!r}")
            if extra is not None and not isinstance(extra, Mapping):
                raise ArgumentError(f"the parameters of {spelling} must be a dict, got {extra!r}")
            name, params = parse_metric(spelling)
            twice = sorted(set(params) & set(extra or {}))
            if twice:
                raise ArgumentError(f"{spelling} is given {', '.join(twice)} twice: in its name and in its dict")
            requested.append((name, {**params, **(extra or {})}))
        return requested
    if not isinstance(metrics, Iterable):
        raise ArgumentError(f"metrics must be a name, a list of names or a dict, got {metrics!r}")
    return [item for metric in metrics for item in requested_metrics(metric)]


MAX_BINS = 2**31 - 1


def check_bin_count(value: Any, name: str) -> int:
    """``value`` as a number of bins: an integer from 1 to :data:`MAX_BINS` (NumPy integers included).

    Examples
    --------
    >>> check_bin_count(10**400, "n_bins")
    Traceback (most recent call last):
    ...
    framemetrics.core.errors.ArgumentError: n_bins must be an integer from 1 to 2147483647, got 10000000000000000000... (401 characters)
    """
    value = as_python_scalar(value)
    if isinstance(value, bool) or not isinstance(value, int) or not 1 <= value <= MAX_BINS:
        raise ArgumentError(f"{name} must be an integer from 1 to {MAX_BINS}, got {short_repr(value)}")
    return value


def short_repr(value: object) -> str:
    """``repr(value)``, cut for a value of hundreds of digits.

    Examples
    --------
    >>> short_repr(0.5), short_repr(10**50)
    ('0.5', '10000000000000000000... (51 characters)')
    """
    text = repr(value)
    return text if len(text) <= 40 else f"{text[:20]}... ({len(text)} characters)"


def make_plan(
    metrics: MetricsArg,
    *,
    weighted: bool,
    task: str = "binary",
    zero_division: float | None = None,
    pos_label: Any = 1,
    neg_label: Any = None,
    thresholded: bool = False,
    bins: int | None = None,
    labels: Sequence[Any] | None = None,
    n_scores: int = 0,
    has_pred: bool = True,
    float_labels: bool = False,
    listed_scores: bool = False,
    argmax_pred: bool = False,
    ci: float | None = None,
    ci_method: str | None = None,
    interval_outputs: tuple[str, ...] | Mapping[str, str] = ("low", "high"),
    n_resamples: int = 1000,
    seed: int = 0,
    row_id: str | None = None,
) -> Plan:
    """Resolve metric names and parameters of one task into a :class:`Plan`.

    Parameters
    ----------
    metrics : str, list of str, or dict of str to dict
        Metrics, each its name or its spelling ``name(param=value, ...)``
        (``"fbeta_score(beta=2)"``), or names mapped to their parameters
        (``{"fbeta_score": {"beta": 2}, "mean_pinball_loss": {"alpha": 0.9}}``),
        or a list mixing both (:func:`requested_metrics`). A metric's output
        column is its name when every parameter given equals its default
        (``zero_division``'s default: the ``zero_division`` argument), else
        its canonical spelling with the parameters that differ, in the
        metric's parameter order, each ``param=repr(value)`` with a whole
        float written as an integer (``fbeta_score(beta=2)``,
        ``roc_auc_score(max_fpr=0.1)``; ``max_fpr=1`` is the default);
        multiclass aliases resolve first (``{"fbeta_score": {"average":
        "macro", "beta": 2}}`` is ``fbeta_macro(beta=2)``). Two requests of
        one output column are an error; the parameters of the statistics
        (the metric's ``input_params``: ``max_fpr``, ``alpha``, ``power``,
        the multiclass ``k`` and ``beta``) may take several values: the calls
        are then split into :attr:`Plan.parts`, one per set of values (the
        full ROC AUC reads none).
    weighted : bool
        Whether a sample weight column is given.
    task : {"binary", "regression", "multiclass"}, default "binary"
        Which metrics the names refer to (binary and regression share names).
    zero_division : float or None
        Default value of undefined ratios, for the metrics that take it.
    pos_label, neg_label : Any
        Binary: the class labels of the classification and probability metrics.
    thresholded : bool
        Binary: classification labels come from thresholding ``y_score``,
        which is then checked instead of the labels (no null or NaN score).
    bins : int, optional
        Binary: ranking metrics read the score binned to ``floor(y_score * bins) / bins``.
    labels : sequence, optional
        Multiclass: the classes, in the order of the score columns.
    n_scores : int
        Multiclass: the number of score columns.
    has_pred : bool
        Multiclass: whether a column of predicted classes is given.
    float_labels : bool
        Multiclass: the class columns are floats (NaN and infinities are then invalid).
    listed_scores : bool
        Multiclass: the scores are one list column, whose length is checked.
    argmax_pred : bool
        Multiclass: the predicted classes are the argmax of the scores
        (:func:`~framemetrics.core.multiclass.argmax_label`), not a column:
        the label metrics are served and nothing of ``y_pred`` is checked.
    ci : float, optional
        Binary: a confidence level; each metric gets an interval
        (:func:`~framemetrics.core.intervals.metric_interval`).
    ci_method : str, optional
        The interval method instead of each metric's default; ``"own"``
        (the report's) gives an interval only to the metrics with one of
        their own (DeLong's, Wilson's) and none to the others.
    interval_outputs : tuple of str or dict of str to str, default ("low", "high")
        The interval columns of each metric (``se`` where the method has one),
        named ``<metric>_<output>``, or as a mapping of output to name says.
    n_resamples, seed, row_id
        The Poisson bootstrap's replicates, seed and row key column
        (:func:`~framemetrics.core.resampling.check_resampling`).

    Returns
    -------
    Plan

    Examples
    --------
    >>> make_plan({"fbeta_score": {"beta": 2}}, weighted=False).calls[0].params
    {'beta': 2, 'zero_division': None}
    >>> make_plan({"f1_score": {"average": "macro"}}, task="multiclass", weighted=False).calls[0].name
    'f1_macro'
    >>> make_plan(["roc_auc_score", "roc_auc_score(max_fpr=0.1)", "fbeta_score(beta=1.0)"], weighted=False).output_columns
    ('roc_auc_score', 'roc_auc_score(max_fpr=0.1)', 'fbeta_score')
    >>> make_plan(["fbeta_score(beta=2)", {"fbeta_score": {"beta": 2.0}}], weighted=False)
    Traceback (most recent call last):
    ...
    framemetrics.core.errors.ArgumentError: fbeta_score(beta=2) is requested twice
    """
    requested = requested_metrics(metrics)
    if not requested:
        raise ArgumentError("no metrics requested")
    calls: list[MetricCall] = []
    inputs: list[dict[str, Any]] = []
    for name, given in requested:
        given = {k: as_python_scalar(v) for k, v in given.items()}
        if task == "multiclass":
            name, given = resolve_alias(name, given)
        metric = get_metric(name, task)
        unknown = set(given) - set(metric.parameters)
        if unknown:
            hint = did_you_mean(min(unknown), metric.parameters)
            raise ArgumentError(
                f"{name} has no parameter {sorted(unknown)}{hint or ';'} it takes {sorted(metric.parameters) or 'none'}"
            )
        if weighted and not metric.weighted:
            raise ArgumentError(f"{name} does not support sample_weight (as scikit-learn)")
        defaults = dict(metric.parameters)
        if "zero_division" in defaults:
            defaults["zero_division"] = as_python_scalar(zero_division)
        params = {k: given.get(k, default) for k, default in defaults.items() if k in metric.params}
        _validate(name, {**params, **given})
        output = output_name(name, given, defaults)
        if output in (c.name for c in calls):
            raise ArgumentError(f"{output} is requested twice")
        skipped = tuple(s for s, needed in metric.conditional.items() if not needed({**params, **given}))
        read = {}
        if not metric.conditional or len(skipped) < len(metric.conditional):
            # A metric with conditional statistics reads its inputs through them alone.
            read = {key: _input_value(key, given.get(key, default)) for key, default in metric.input_params.items()}
        calls.append(MetricCall(metric, params, _checks(metric, given), skipped, output))
        inputs.append(read)

    def build(chosen: dict[str, Any], indices: Sequence[int]) -> Plan:
        own = [calls[i] for i in indices]
        if task == "multiclass":
            checks = _multiclass_checks(
                own, labels, n_scores, has_pred, weighted, float_labels, listed_scores, argmax_pred
            )
            plan = _multiclass_plan(own, chosen, weighted, labels, n_scores, has_pred or argmax_pred, checks)
        else:
            plan = _binary_plan(own, chosen, weighted, pos_label, neg_label, thresholded, bins)
        if ci is None:
            return plan
        plan = _with_intervals(plan, check_level(ci, "ci"), ci_method, interval_outputs)
        resampling = check_resampling(as_python_scalar(n_resamples), as_python_scalar(seed), row_id)
        return replace(plan, resampling=resampling) if plan.bootstrapped else plan

    groups = _input_groups(inputs)
    whole = build(groups[0][0], range(len(calls)))
    if len(groups) == 1:
        return whole
    return replace(whole, parts=tuple(build(chosen, indices) for chosen, indices in groups))


def _input_groups(inputs: Sequence[dict[str, Any]]) -> list[tuple[dict[str, Any], list[int]]]:
    """The calls (by index) grouped by the values of the statistics' parameters they read, in order of first
    request: a call joins the first group whose values agree with its own; a call reading none joins the first.

    Examples
    --------
    >>> _input_groups([{"max_fpr": 0.1}, {}, {"max_fpr": 0.2}, {"alpha": 0.9}])
    [({'max_fpr': 0.1, 'alpha': 0.9}, [0, 1, 3]), ({'max_fpr': 0.2}, [2])]
    """
    groups: list[tuple[dict[str, Any], list[int]]] = []
    for i, read in enumerate(inputs):
        for chosen, indices in groups:
            if all(chosen.get(key, value) == value for key, value in read.items()):
                chosen.update(read)
                indices.append(i)
                break
        else:
            groups.append((dict(read), [i]))
    return groups or [({}, [])]


def _with_intervals(plan: Plan, level: float, method: str | None, outputs: tuple[str, ...] | Mapping[str, str]) -> Plan:
    """``plan`` with an interval of every call (``method="own"``: of those with their own) at ``level``, and the
    statistics the intervals read."""
    z = interval_z(level)
    if plan.task == "multiclass":
        intervals = tuple(
            IntervalCall(call, multiclass_interval(call.name, method, call.statistics), z, outputs, level)
            for call in plan.calls
        )
        return replace(plan, intervals=intervals)
    calls = [c for c in plan.calls if method != "own" or has_own_interval(c.metric.name, c.params)]
    own = None if method == "own" else method
    intervals = tuple(
        IntervalCall(call, metric_interval(call.metric.name, call.params, own, call.statistics), z, outputs, level)
        for call in calls
    )
    statistics = dict.fromkeys([*plan.statistics, *(s for i in intervals for s in i.interval.statistics)])
    return replace(plan, intervals=intervals, statistics=tuple(statistics))


_INPUT_DEFAULTS = {"alpha": 0.5, "max_fpr": 1.0, "power": 0.0}


def _checks(metric: Metric, given: dict[str, Any]) -> tuple[Check, ...]:
    """The metric's input checks; a Tweedie deviance's, those of its power (the first bound above it)."""
    if not metric.power_checks:
        return metric.checks
    power = _input_value("power", given.get("power", metric.input_params["power"]))
    return next(checks for bound, checks in metric.power_checks if power < bound)


def _input_value(key: str, value: Any) -> Any:
    if key == "k":
        return value
    return _INPUT_DEFAULTS[key] if value is None else float(value)


def _binary_plan(
    calls: list[MetricCall],
    inputs: dict[str, Any],
    weighted: bool,
    pos_label: Any,
    neg_label: Any,
    thresholded: bool,
    bins: Any,
) -> Plan:
    (pos_label, neg_label), bins = check_labels(pos_label, neg_label), as_python_scalar(bins)
    if bins is not None:
        check_bin_count(bins, "bins")
    for i, call in enumerate(calls):
        checks = call.checks + ((check("weight", "sample_weight"),) if weighted else ())
        if thresholded and call.metric.family == "classification":
            # y_score >= threshold is a valid label wherever the score is a number.
            checks = tuple(c for c in checks if c != check("label", "y_pred")) + (check("score", "y_score"),)
        calls[i] = replace(call, checks=checks)
    statistics = ["n_rows"]
    for call in calls:
        for stat in call.statistics:
            statistics += [*STATISTICS[stat].needs, stat]
    return Plan(
        task="binary",
        calls=tuple(calls),
        statistics=tuple(dict.fromkeys(statistics)),
        checks=tuple(dict.fromkeys(c for call in calls for c in call.checks)),
        weighted=weighted,
        pos_label=pos_label,
        neg_label=default_neg_label(pos_label, neg_label),
        alpha=inputs.get("alpha", _INPUT_DEFAULTS["alpha"]),
        max_fpr=inputs.get("max_fpr", _INPUT_DEFAULTS["max_fpr"]),
        power=inputs.get("power", _INPUT_DEFAULTS["power"]),
        bins=bins,
    )


def _multiclass_plan(
    calls: list[MetricCall],
    inputs: dict[str, Any],
    weighted: bool,
    labels: Sequence[Any] | None,
    n_scores: int,
    has_pred: bool,
    checks: tuple[Check, ...],
) -> Plan:
    labels = None if labels is None else tuple(as_python_scalar(label) for label in labels)
    if labels is not None and (len(set(labels)) != len(labels) or len(labels) < 2):
        raise ArgumentError(f"labels must be at least two distinct classes, got {list(labels)!r}")
    if labels is not None and any(isinstance(v, float) and not math.isfinite(v) for v in labels):
        raise ArgumentError(f"labels must be finite: NaN and infinite labels are invalid input, got {list(labels)!r}")
    for call in calls:
        if call.metric.prediction == "y_pred" and not has_pred:
            raise ArgumentError(f"{call.name} needs y_pred=")
        if call.metric.prediction == "y_score" and not n_scores:
            raise ArgumentError(f"{call.name} needs y_score= (one column per class, or a list column)")
    if n_scores and labels is None:
        raise ArgumentError("scores need labels=: the class of each score column, in order")
    if n_scores and len(labels) != n_scores:
        raise ArgumentError(f"{n_scores} score columns but {len(labels)} labels")
    stages = {s for c in calls for s in c.statistics}
    if "kappa" in stages:
        stages.add("classes")
    return Plan(
        task="multiclass",
        calls=tuple(calls),
        statistics=tuple(s for s in ("classes", "kappa", "rows", "ranking", "ovo", "micro") if s in stages),
        checks=checks,
        weighted=weighted,
        labels=labels,
        n_scores=n_scores,
        has_pred=has_pred,
        k=inputs.get("k", 2),
        beta=inputs.get("beta", 1.0),
        kappa_weights=tuple(dict.fromkeys(c.params["weights"] for c in calls if "weights" in c.params)),
    )


def _multiclass_checks(
    calls: list[MetricCall],
    labels: Sequence[Any] | None,
    n_scores: int,
    has_pred: bool,
    weighted: bool,
    float_labels: bool,
    listed_scores: bool,
    argmax_pred: bool = False,
) -> tuple[Check, ...]:
    """The class checks of the label columns, then each score column's (probability wins over finite).

    Scores read for their argmax (``argmax_pred``) are checked finite at least: a NaN would never be the largest.
    """
    roles = ["y_true"] + (["y_pred"] if has_pred and any(c.metric.prediction == "y_pred" for c in calls) else [])
    domain = "class" if labels is not None else ("finite" if float_labels else "present")
    checks = [check(domain, role) for role in roles]
    domains = {c.domain for call in calls for c in call.checks} | ({"finite"} if argmax_pred else set())
    if domains:
        score_domain = "probability" if "probability" in domains else "finite"
        checks += [check(score_domain, "y_score", j) for j in range(n_scores)]
        checks += [c for c in (check("simplex", "y_score"),) if c.domain in domains]
        checks += [check("length", "y_score")] if listed_scores else []
    if weighted:
        checks.append(check("weight", "sample_weight"))
    return tuple(checks)


def _is_number(value: Any) -> bool:
    return isinstance(value, (int, float)) and not isinstance(value, bool)


def _validate(name: str, params: dict[str, Any]) -> None:
    zd = params.get("zero_division")
    if zd is not None and not (_is_number(zd) and zd in (0, 1)):
        raise ArgumentError(f"{name}: zero_division must be None, 0 or 1, got {zd!r}")
    beta = params.get("beta")
    if beta is not None and not (_is_number(beta) and beta >= 0):
        raise ArgumentError(f"{name}: beta must be a number >= 0 (inf included), got {beta!r}")
    alpha = params.get("alpha")
    if alpha is not None and not (_is_number(alpha) and 0 <= alpha <= 1):
        raise ArgumentError(f"{name}: alpha must be a number in [0, 1], got {alpha!r}")
    power = params.get("power")
    if power is not None and not (_is_number(power) and math.isfinite(power) and not 0 < power < 1):
        raise ArgumentError(f"{name}: power must be a finite number <= 0 or >= 1 (scikit-learn's), got {power!r}")
    max_fpr = params.get("max_fpr")
    if max_fpr is not None and not (_is_number(max_fpr) and 0 < max_fpr <= 1):
        raise ArgumentError(f"{name}: max_fpr must be None or a number in (0, 1], got {max_fpr!r}")
    k = params.get("k")
    if k is not None and not (isinstance(k, int) and not isinstance(k, bool) and k >= 1):
        raise ArgumentError(f"{name}: k must be a positive integer, got {k!r}")
    if params.get("weights") not in KAPPA_WEIGHTS:
        raise ArgumentError(f"{name}: weights must be None, 'linear' or 'quadratic', got {params['weights']!r}")
    for flag in ("force_finite", "adjusted"):
        if flag in params and not isinstance(params[flag], bool):
            raise ArgumentError(f"{name}: {flag} must be True or False, got {params[flag]!r}")


def as_python_scalar(value: Any) -> Any:
    """A NumPy scalar (or 0-d array) as the Python scalar it holds; anything else, arrays too, unchanged.

    Examples
    --------
    >>> import numpy as np
    >>> as_python_scalar(np.int64(1)), as_python_scalar("Yes"), as_python_scalar(np.array([1]))
    (1, 'Yes', array([1]))
    """
    return value.item() if type(value).__module__ == "numpy" and getattr(value, "ndim", None) == 0 else value


def check_labels(pos_label: Any, neg_label: Any = None) -> tuple[Any, Any]:
    """The binary class labels as Python scalars, checked where a request enters (before any engine sees them).

    Parameters
    ----------
    pos_label : Any
        The positive class: a single finite number, string or boolean.
    neg_label : Any, optional
        The negative class, the same kind of value, or None (then the other of 0 and 1).

    Returns
    -------
    tuple
        ``(pos_label, neg_label)``, NumPy scalars as Python scalars.

    Raises
    ------
    ArgumentError
        If ``pos_label`` is None, or a label is not a single value (a list,
        a set, an array...) or is NaN or infinite.

    Examples
    --------
    >>> import numpy as np
    >>> check_labels(np.int64(1)), check_labels("Yes", "No")
    ((1, None), ('Yes', 'No'))
    >>> check_labels([1])
    Traceback (most recent call last):
    ...
    framemetrics.core.errors.ArgumentError: pos_label must be a single value (a number, string or boolean), got [1]
    """
    pos_label, neg_label = as_python_scalar(pos_label), as_python_scalar(neg_label)
    if pos_label is None:
        raise ArgumentError("pos_label must be a label, got None")
    for name, label in (("pos_label", pos_label), ("neg_label", neg_label)):
        if label is not None and not isinstance(label, (str, Real)):
            raise ArgumentError(f"{name} must be a single value (a number, string or boolean), got {label!r}")
        if isinstance(label, float) and not math.isfinite(label):
            raise ArgumentError(f"{name} must be a finite label, got {label!r}")
    return pos_label, neg_label


def default_neg_label(pos_label: Any, neg_label: Any = None) -> Any:
    """The negative class: ``neg_label`` if given, else the other of 0 and 1.

    Parameters
    ----------
    pos_label : Any
        The positive class.
    neg_label : Any, optional
        The negative class; required unless ``pos_label`` is 0 or 1.

    Returns
    -------
    Any
        The negative class label.

    Examples
    --------
    >>> default_neg_label(1), default_neg_label(0), default_neg_label("Yes", "No")
    (0, 1, 'No')
    """
    if neg_label is not None:
        if neg_label == pos_label:
            raise ArgumentError(f"neg_label and pos_label are both {pos_label!r}")
        return neg_label
    if isinstance(pos_label, (bool, int)) and pos_label in (0, 1):
        return 1 - int(pos_label)
    raise ArgumentError(f"pos_label={pos_label!r} is not 0 or 1: pass neg_label too")
