"""A registered metric: its task, the statistics it needs, its formula as a call of the core, its documentation."""

from __future__ import annotations

import inspect
from collections.abc import Callable
from dataclasses import dataclass, field, replace
from typing import Any

from framemetrics.core.checks import Check, check

__all__ = ["LABELS", "TASKS", "Call", "Doc", "Example", "Metric", "entry"]

TASKS = ("binary", "regression", "multiclass")
LABELS = (check("label", "y_true"),)  # the true labels of every binary metric
Cells = tuple[str, ...]


@dataclass(frozen=True)
class Call:
    """A core function applied to arguments named after columns, parameters or ``NULL``, in parameter order.

    Examples
    --------
    >>> from framemetrics.core.formulas.ranking import average_precision_score
    >>> Call(average_precision_score, ("ap_sum", "sum_pos", "n_invalid")).arguments[0]
    'ap_sum'
    """

    function: Callable[..., Any]
    arguments: tuple[str, ...]


@dataclass(frozen=True)
class Doc:
    """A binary or regression metric's documentation: its Polars builder's docstring and its README row.

    Attributes
    ----------
    summary : str
        The builder's first line.
    readme : str
        The formula cell of the metric's row in the README's tables (plain
        text: the generator escapes Markdown).
    notes, see_also, examples : str
        The builder's Notes, See Also and Examples (doctests) sections.
    inputs : dict of str to str
        The metric's own description of an input role (``y_score``...),
        in place of the builders' shared one.
    """

    summary: str
    readme: str
    notes: str
    see_also: str
    examples: str
    inputs: dict[str, str] = field(default_factory=dict)


@dataclass(frozen=True)
class Metric:
    """One metric of one task: what it reads, what it needs per group, and its formula.

    Attributes
    ----------
    name : str
        Public name within its task; the output column. Binary and regression
        metrics are also the Polars builder ``framemetrics.<name>`` and the
        DuckDB macro ``fm_<name>``.
    task : {"binary", "regression", "multiclass"}
        The task it evaluates.
    family : {"classification", "probability", "ranking", "regression"}
        Which inputs it reads: hard labels, probabilities, scores or real values.
    statistics : tuple of str
        Stage 1, what its formula reads per group: statistics of
        :data:`framemetrics.core.statistics.STATISTICS` (binary, regression),
        or the multiclass stage giving its columns (``classes``, ``kappa``,
        ``rows``, ``ranking``, ``ovo``, ``micro``).
    checks : tuple of Check
        Input domains of the metric's own inputs; an invalid row makes the
        group's value NULL (multiclass: the class checks come from ``labels``).
    formula : Call
        Stage 2: a formula of the core over the per-group columns.
    params : dict
        Formula parameters and their defaults (``zero_division``, ``beta``...).
    input_params : dict
        Parameters of the statistics (``alpha`` of the pinball loss,
        ``max_fpr`` of the partial AUC, the multiclass ``k`` and ``beta``),
        one value per part of a plan (:attr:`framemetrics.core.plan.Plan.parts`);
        a formula may read them too.
    weighted : bool
        Whether ``sample_weight`` is supported.
    power_checks : tuple of (float, tuple of Check)
        A Tweedie deviance's checks, which depend on its ``power``: for a power
        below each bound, in order, the checks then (``checks`` is the first).
    conditional : dict
        Statistics computed only when the predicate of the parameters holds
        (the partial AUC only with ``max_fpr < 1``); else the formula reads NULL.
        A metric with conditional statistics reads its ``input_params``
        through them alone: without them (the full AUC) it takes any value of
        the evaluation's.
    averages : dict of str to Call
        Multiclass stage 2b: aggregates over a group's per-class rows, each an
        argument of the formula by its key.
    reference : str
        The reference function it equals, where the name does not say it
        (binary, regression: the reference cell of its README row).
    doc : Doc or None
        Its builder's docstring and README row (binary, regression).
    proportion : tuple of (tuple of str, tuple of str), optional
        A proportion ``successes / trials`` of confusion cells: the metric has
        Wilson's and Clopper-Pearson's intervals
        (:mod:`framemetrics.core.proportions`).
    mean : str, optional
        The statistic ``sum w t`` whose weighted mean ``sum w t / sum w`` the
        metric is (log loss, Brier, MSE...): the metric has the normal
        interval of a mean (:mod:`framemetrics.core.means`).
    value_range : tuple of (float, float), optional
        The least and greatest values it takes, where bounded (an end may be
        infinite): every path keeps its value there
        (:func:`~framemetrics.core.formulas.guards.bounded`).
    """

    name: str
    task: str
    family: str
    statistics: tuple[str, ...]
    checks: tuple[Check, ...]
    formula: Call
    params: dict[str, Any] = field(default_factory=dict)
    input_params: dict[str, Any] = field(default_factory=dict)
    weighted: bool = True
    power_checks: tuple[tuple[float, tuple[Check, ...]], ...] = ()
    conditional: dict[str, Callable[[dict[str, Any]], bool]] = field(default_factory=dict)
    averages: dict[str, Call] = field(default_factory=dict)
    reference: str = ""
    doc: Doc | None = None
    proportion: tuple[Cells, Cells] | None = None
    mean: str | None = None
    value_range: tuple[float, float] | None = None

    @property
    def prediction(self) -> str:
        """The input role of the prediction: ``y_pred`` or ``y_score``."""
        return "y_score" if self.family in ("probability", "ranking") else "y_pred"

    @property
    def parameters(self) -> dict[str, Any]:
        """Every parameter the metric takes, with its default."""
        return {**self.params, **self.input_params}

    @property
    def sql_formula(self) -> str:
        """Stage 2 in the macro file: ``fm_formula_<name>`` (binary, regression)."""
        return f"fm_formula_{self.name}"

    @property
    def sql_macro(self) -> str:
        """The user-facing DuckDB aggregate macro (binary, regression)."""
        return f"fm_{self.name}"


@dataclass(frozen=True)
class Example:
    """A builder's example: ``fm.<metric>(<inputs>, <args>)`` on ``df = pl.DataFrame(<frame>)`` and its value.

    The value is rounded to 4 digits unless ``exact``; ``more`` holds further
    doctest lines. A registry file keeps one example of its frame and inputs
    and calls it with each metric's value (and arguments).

    Examples
    --------
    >>> rows = Example('{"y": [1.0], "f": [2.0]}', '"y", "f"')
    >>> rows("1.0").doctest("max_error").splitlines()[2:]
    ['>>> round(df.select(fm.max_error("y", "f")).item(), 4)', '1.0']
    """

    frame: str
    inputs: str
    value: str = ""
    args: str = ""
    more: str = ""
    exact: bool = False

    def __call__(self, value: str, args: str = "", **changes: Any) -> Example:
        """This example with the value ``value`` of a call with the arguments ``args``."""
        return replace(self, value=value, args=args, **changes)

    def doctest(self, name: str) -> str:
        """The Examples section of builder ``name``."""
        call = f"df.select(fm.{name}({', '.join(filter(None, (self.inputs, self.args)))})).item()"
        shown = call if self.exact else f"round({call}, 4)"
        return (
            f">>> import polars as pl, framemetrics as fm\n>>> df = pl.DataFrame({self.frame})\n"
            f">>> {shown}\n{self.value}{self.more}"
        )


def entry(
    formula: Callable[..., Any],
    task: str,
    family: str,
    checks: tuple[Check, ...],
    summary: str,
    readme: str,
    notes: str,
    example: Example,
    *,
    reference: str = "",
    see_also: str = "",
    inputs: dict[str, str] | None = None,
    **kwargs: Any,
) -> Metric:
    """The binary or regression metric named after ``formula``, reading the statistics its signature names.

    The statistics are the formula's arguments after the namespace, but for
    ``n_invalid`` and the metric's ``params``; ``summary``, ``readme`` and
    ``notes`` are its :class:`Doc`'s. The reference is
    scikit-learn's function of the metric's name unless ``reference`` says
    otherwise; See Also names that function where the reference starts with
    it, else is ``see_also``.

    Examples
    --------
    >>> from framemetrics.core.formulas.ranking import gini_score
    >>> text = ("Gini.", "2 AUC - 1", "``2 AUC - 1``.", Example('{"y": [0, 1], "s": [0.1, 0.9]}', '"y", "s"')("1.0"))
    >>> metric = entry(gini_score, "binary", "ranking", LABELS, *text)
    >>> metric.statistics, metric.doc.see_also
    (('auc_sum', 'sum_pos', 'sum_neg'), 'sklearn.metrics.gini_score : the reference it matches.')
    >>> entry(gini_score, "binary", "ranking", LABELS, *text, reference="2 AUC - 1")
    Traceback (most recent call last):
    ...
    ValueError: gini_score: a See Also is needed where the reference is not `gini_score`
    """
    name = formula.__name__
    reference = reference or f"`{name}`"
    if not see_also:
        if not reference.startswith(f"`{name}`"):
            raise ValueError(f"{name}: a See Also is needed where the reference is not `{name}`")
        see_also = f"sklearn.metrics.{name} : the reference it matches."
    doc = Doc(summary, readme, notes, see_also, example.doctest(name), inputs or {})
    arguments = tuple(inspect.signature(formula).parameters)[1:]
    statistics = tuple(a for a in arguments if a != "n_invalid" and a not in kwargs.get("params", {}))
    return Metric(
        name, task, family, statistics, checks, Call(formula, arguments), reference=reference, doc=doc, **kwargs
    )
