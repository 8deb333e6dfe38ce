"""A registered metric: its task, the statistics it needs and its formula as a call of the core."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from framemetrics.core.checks import Check

__all__ = ["TASKS", "Call", "Metric"]

TASKS = ("binary", "regression", "multiclass")


@dataclass(frozen=True)
class Call:
    """A core function applied to arguments named after columns, parameters or ``NULL``, in parameter order.

    Examples
    --------
    >>> from framemetrics.core.formulas import FORMULAS
    >>> Call(FORMULAS["recall_score"], ("tp", "fn", "n_invalid", "zero_division")).arguments[0]
    'tp'
    """

    function: Callable[..., Any]
    arguments: tuple[str, ...]


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
        Parameters of the statistics, one value per evaluation (``alpha`` of
        the pinball loss, ``max_fpr`` of the partial AUC, the multiclass ``k``
        and ``beta``); a formula may read them too.
    weighted : bool
        Whether ``sample_weight`` is supported.
    power_checks : tuple of (float, tuple of Check)
        A Tweedie deviance's checks, which depend on its ``power``: for a power
        below each bound, in order, the checks then (``checks`` is the first).
    conditional : dict
        Statistics computed only when the predicate of the parameters holds
        (the partial AUC only with ``max_fpr < 1``); else the formula reads NULL.
    averages : dict of str to Call
        Multiclass stage 2b: aggregates over a group's per-class rows, each an
        argument of the formula by its key.
    reference : str
        The reference function it equals, where the name does not say it.
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
