"""What :mod:`framemetrics.compilers.sql.multiclass_bootstrap` reads of the class stage, as common table expressions.

The stage is :mod:`framemetrics.stages.multiclass`; these functions give
its stages as ``(name, query)`` pairs for the bootstrap's statement, and go
when the bootstrap builds it on a frame. :class:`McQueryInputs` is where a
multiclass evaluation reads its rows (:meth:`McQueryInputs.frame`).
"""

from __future__ import annotations

from dataclasses import dataclass

from sqlglot import exp

from framemetrics.compilers.sql.bootstrap import ROW_KEY
from framemetrics.compilers.sql.frame import SqlFrame, Statement
from framemetrics.compilers.sql.namespace import SQL
from framemetrics.compilers.sql.query import row_key, user_column
from framemetrics.core.cells import CLASSES
from framemetrics.core.plan import Plan
from framemetrics.stages import multiclass as classes
from framemetrics.stages.multiclass import plan_classes

__all__ = [
    "Ctes",
    "McQueryInputs",
    "cell_sums",
    "groups_cte",
    "input_ctes",
    "metrics_select",
    "plan_classes",
    "stage_ctes",
]

Ctes = list[tuple[str, exp.Query]]


@dataclass(frozen=True)
class McQueryInputs:
    """The FROM clause and the expression of each input: ``y_true``, ``y_pred``, ``sample_weight``, the scores.

    ``n_listed`` is the length of the list column holding the scores, if they are one.
    """

    source: exp.Expression
    y_true: exp.Expression
    y_pred: exp.Expression | None = None
    scores: tuple[exp.Expression, ...] = ()
    sample_weight: exp.Expression | None = None
    by: tuple[str, ...] = ()
    drop_nulls: bool = False
    n_listed: exp.Expression | None = None

    def frame(self, plan: Plan, statement: Statement) -> SqlFrame:
        """``fm_input`` (:func:`framemetrics.stages.multiclass.input_stage`), a stage of ``statement``.

        Examples
        --------
        >>> from framemetrics.core.plan import make_plan
        >>> plan = make_plan(["accuracy_score"], task="multiclass", has_pred=True, weighted=False)
        >>> McQueryInputs(exp.to_table("t"), user_column("y"), user_column("p")).frame(plan, Statement()).columns
        ('y_true', 'y_pred', 'sample_weight')
        """
        columns = {f"fm_g{i}": user_column(b) for i, b in enumerate(self.by)} | {"y_true": self.y_true.copy()}
        columns |= {} if self.y_pred is None else {"y_pred": self.y_pred.copy()}
        columns["sample_weight"] = SQL.to_float(SQL.lit(1) if self.sample_weight is None else self.sample_weight.copy())
        columns |= {f"s_{j}": SQL.to_float(s.copy()) for j, s in enumerate(self.scores)}
        columns |= {} if self.n_listed is None else {"n_listed": self.n_listed.copy()}
        columns |= {ROW_KEY: row_key(plan)} if plan.bootstrapped else {}
        select = exp.select(*(exp.alias_(value, name) for name, value in columns.items())).from_(self.source.copy())
        required = ["y_true", *(["y_pred"] if self.y_pred is not None else [])]
        required += [f"s_{j}" for j in range(len(self.scores))] + (
            [] if self.sample_weight is None else ["sample_weight"]
        )
        raw = SqlFrame(statement, select, list(columns))
        return classes.input_stage(raw, plan, required if self.drop_nulls else []).named("fm_input")


def _ctes(statement: Statement, *skipped: str) -> Ctes:
    return [(cte.alias, cte.this) for cte in statement.ctes if cte.alias not in skipped]


def input_ctes(plan: Plan, inputs: McQueryInputs) -> Ctes:
    """``fm_input``: the rows' canonical columns, with the bootstrap's row key

    Examples
    --------
    >>> from framemetrics.core.plan import make_plan
    >>> plan = make_plan(["f1_macro"], task="multiclass", has_pred=True, weighted=False)
    >>> [name for name, _ in input_ctes(plan, McQueryInputs(exp.to_table("t"), user_column("y"), user_column("p")))]
    ['fm_input']
    """
    statement = Statement()
    inputs.frame(plan, statement)
    return _ctes(statement)


def cell_sums(plan: Plan) -> dict[str, exp.Expression]:
    """The sums of ``fm_cells`` besides ``n_rows`` and ``weight``: the check counts and the row sums

    Examples
    --------
    >>> from framemetrics.core.plan import make_plan
    >>> plan = make_plan(["f1_macro"], task="multiclass", has_pred=True, weighted=False)
    >>> list(cell_sums(plan))
    ['invalid_present_y_true', 'invalid_present_y_pred']
    """
    return classes.stage_sums(SQL, plan)


def _cells(statement: Statement, names: list[str], keys: list[str]) -> SqlFrame:
    return SqlFrame(statement, exp.table_("fm_cells"), [*keys, *CLASSES, "n_rows", "weight", *names])


def groups_cte(names: list[str], keys: list[str]) -> tuple[str, exp.Select]:
    """``fm_groups``: the columns ``names`` of ``fm_cells`` summed per group, the weight as ``total``

    Examples
    --------
    >>> groups_cte(["sum_log_loss"], ["fm_g0"])[1].sql()[:40]
    'SELECT fm_g0, CAST(COALESCE(SUM(n_rows),'
    """
    statement = Statement()
    classes.groups(_cells(statement, names, keys), keys)
    return _ctes(statement)[0]


def stage_ctes(plan: Plan, keys: list[str], stages: frozenset[str], rows: str = "fm_input") -> Ctes:
    """The stages after ``fm_cells`` and ``fm_groups`` per group of ``keys``, the curves reading the table
    ``rows``, and ``fm_class_metrics`` (:func:`metrics_select`)

    Examples
    --------
    >>> from framemetrics.core.plan import make_plan
    >>> plan = make_plan(["f1_macro"], task="multiclass", has_pred=True, weighted=False)
    >>> [name for name, _ in stage_ctes(plan, [], plan.stages)]
    ['fm_classes', 'fm_class_values', 'fm_class_summary', 'fm_summaries', 'fm_class_metrics']
    """
    statement = Statement()
    names = [n for n in cell_sums(plan) if n not in ("n_rows", "weight")]
    columns = [*keys, "true_index", "sample_weight", *(f"s_{j}" for j in range(plan.n_scores))]
    data = SqlFrame(statement, exp.table_(rows), columns)
    frames = classes.class_frames(data, plan, keys, stages, _cells(statement, names, keys))
    classes.metrics_frame(frames, plan, internal=True).named("fm_class_metrics")
    return _ctes(statement, "fm_groups")


def metrics_select(plan: Plan, keys: list[str], by: tuple[str, ...], *, checks: bool, internal: bool) -> exp.Select:
    """The metrics per group with the keys and ``total`` (``internal``) and the check counts: ``fm_class_metrics``

    Examples
    --------
    >>> from framemetrics.core.plan import make_plan
    >>> plan = make_plan(["f1_macro"], task="multiclass", has_pred=True, weighted=False)
    >>> metrics_select(plan, [], (), checks=True, internal=True).sql()
    'SELECT * FROM fm_class_metrics'
    """
    assert internal and checks, "the bootstrap reads the internal metrics"
    return exp.select("*").from_("fm_class_metrics")
