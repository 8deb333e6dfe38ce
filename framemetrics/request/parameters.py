"""One declaration per parameter of the public entry points: what it accepts, who takes it, what it means.

:data:`PARAMETERS` is the one list: :func:`framemetrics.request.validate.validate`
checks every argument of an entry point against its declaration (the same
:class:`~framemetrics.core.errors.ArgumentError` wherever the parameter
appears), and :func:`framemetrics.request.validate.document` writes the
numpydoc entries of the parameters an entry point shares with others.

A name declared twice is two parameters taken by different entry points
(``method``: DeLong's for ``roc_auc_ci``, the bootstrap's for ``bootstrap``);
``confidence_interval`` builds a Polars expression, so its columns are
expressions too.

Examples
--------
>>> declared("nulls", "evaluate").default
'error'
>>> sorted(ENTRIES["nulls"] & {"evaluate", "sql.query", "confidence_interval"})
['evaluate', 'sql.query']
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from os import PathLike
from typing import Any

from framemetrics.core.curves import CURVES
from framemetrics.core.intervals import CI_METHODS
from framemetrics.core.plan import MAX_BINS
from framemetrics.core.resampling import MAX_RESAMPLES
from framemetrics.request.constraints import (
    Constraint,
    Interval,
    Kind,
    Label,
    Options,
    is_column,
    is_columns,
    is_labels,
    is_metrics,
)

__all__ = ["ENTRIES", "ENTRY_POINTS", "PARAMETERS", "Parameter", "declared"]

_NO_DEFAULT = object()

# The entry points, by family.
EVALUATE = frozenset({"evaluate", "evaluate_binary_or_regression", "bootstrap"})
BINARY = frozenset({"evaluate", "evaluate_binary_or_regression", "bootstrap", "sql.query"})
MULTICLASS = frozenset({"evaluate_multiclass", "sql.multiclass_query"})
TABLES = frozenset({"classification_report", "class_table", "multiclass_confusion_matrix"})
CURVE = frozenset({"curve_table", "roc_curve", "precision_recall_curve", "det_curve", "sql.curve"})
CALIBRATION = frozenset({"calibration_curve", "sql.calibration_curve"})
AUC_CI = frozenset({"roc_auc_ci", "sql.roc_auc_ci"})
COMPARE = frozenset({"compare_auc", "sql.compare_auc"})
REPORT = frozenset({"evaluation_report"})
INTERVAL = frozenset({"confidence_interval"})
CONFUSION = frozenset({"confusion_matrix", "sql.confusion_matrix"})
SQL = frozenset(
    {"sql.query", "sql.multiclass_query", "sql.curve", "sql.calibration_curve", "sql.roc_auc_ci", "sql.compare_auc"}
) | {"sql.confusion_matrix"}
# Every entry point reading a table of rows (not an expression builder).
TABLE = BINARY | MULTICLASS | TABLES | CURVE | CALIBRATION | AUC_CI | COMPARE | REPORT | CONFUSION
# Those that open the source on an engine (the SQL text versions take a table name).
ENGINE = TABLE - SQL
BOOTSTRAPPED = BINARY | MULTICLASS
SCORED_LABELS = BINARY | CURVE | CALIBRATION | AUC_CI | COMPARE | REPORT | INTERVAL | CONFUSION

ENTRY_POINTS = TABLE | INTERVAL


@dataclass(frozen=True)
class Parameter:
    """A parameter: its ``name``, what it ``accepts``, its ``default``, the ``entries`` taking it, its numpydoc.

    ``kind`` is the numpydoc type (``"str, optional"``) and ``doc`` the
    description; ``documented`` names the entry's line when one documents
    several parameters (``"pos_label, neg_label"``), and is ``""`` on the
    ones documented with another.
    """

    name: str
    accepts: Constraint
    entries: frozenset[str]
    kind: str = ""
    doc: str = ""
    default: Any = _NO_DEFAULT
    documented: str | None = field(default=None)

    @property
    def heading(self) -> str:
        """The numpydoc line naming the parameter (and those documented with it)."""
        names = self.name if self.documented is None else self.documented
        return f"{names} : {self.kind}" if self.kind else names


def _anything(value: Any) -> bool:
    return True


def _column_or_none(value: Any) -> bool:
    return value is None or is_column(value)


def _by(value: Any) -> bool:
    import polars as pl

    def one(v: Any) -> bool:
        return isinstance(v, (str, pl.Expr))

    if value is None or one(value):
        return True
    if isinstance(value, Mapping):
        return all(isinstance(k, str) and one(v) for k, v in value.items())
    return isinstance(value, Sequence) and all(one(v) for v in value)


def _connection(value: Any) -> bool:
    if value is None:
        return True
    import duckdb

    return isinstance(value, duckdb.DuckDBPyConnection)


def _column_like(value: Any) -> bool:
    import polars as pl

    return isinstance(value, (str, pl.Expr))


def _dialects() -> tuple[str, ...]:
    from framemetrics.compilers.sql.dialects import DIALECTS

    return tuple(DIALECTS)


COLUMN = Kind(is_column, "a column name (str)")
OPTIONAL_COLUMN = Kind(_column_or_none, "a column name (str) or None")
BOOL = Options(True, False, text="True or False")
LEVEL = Interval(float, 0, 1, closed="neither", none=True, text="a number strictly between 0 and 1 (0.95 for 95 %)")
NULLS_DOC = """"drop" removes rows with a null in any used column first (reflected
        in ``n_rows``); NaN is never dropped."""

PARAMETERS: tuple[Parameter, ...] = (
    Parameter(
        "source",
        Kind(_anything, "a source"),
        ENGINE,
        "path, glob, DataFrame, LazyFrame, pyarrow Table/Dataset, DuckDB relation, Spark DataFrame or table name",
        """The data. Parquet and CSV paths may be globs; a table name needs
        ``con`` (DuckDB) or ``spark`` (Spark).""",
    ),
    Parameter("table", COLUMN, SQL, "str", "Table or view name, ``[catalog.][schema.]table`` (each part quoted)."),
    Parameter("y_true", COLUMN, TABLE, "str", "Column of true labels (classification) or targets (regression)."),
    Parameter(
        "y_pred",
        OPTIONAL_COLUMN,
        BINARY | MULTICLASS | TABLES | REPORT | CONFUSION,
        "str, optional",
        "Column of hard predictions: labels, or regression predictions.",
        None,
    ),
    Parameter(
        "y_score",
        Kind(lambda v: v is None or is_columns(v), "a column name, a list of column names, or None"),
        TABLE,
        "str or list of str, optional",
        """Binary: the column of scores or probabilities of ``pos_label``;
        without ``y_pred`` the label metrics use ``y_score >= threshold``.
        Multiclass: one column per class (in ``labels`` order), or one
        list/array column; without ``y_pred`` the label metrics use the
        scores' argmax.""",
    ),
    Parameter(
        "task",
        Options(None, "binary", "multiclass", "regression", text="one of 'binary', 'multiclass', 'regression'"),
        EVALUATE - {"evaluate_binary_or_regression"} | REPORT,
        '{"binary", "multiclass", "regression"}, optional',
        """Inferred when not given (:func:`framemetrics.tasks.infer_task`):
        several score columns, a list score column or more than two
        ``labels`` mean multiclass; one score column binary; with ``y_pred``
        only, a non-integer value means regression, two classes binary, and
        integers with more than two values are ambiguous (an error asks for
        ``task=``). Multiclass runs :func:`evaluate_multiclass`.""",
        None,
    ),
    Parameter(
        "labels",
        Kind(is_labels, "a list of classes, or None"),
        EVALUATE - {"evaluate_binary_or_regression"} | MULTICLASS | TABLES | CURVE | REPORT,
        "list, optional",
        """Multiclass: the classes, in the order of the score columns (see
        :func:`evaluate_multiclass`). Two labels mean binary, ``labels[1]``
        the positive class unless ``pos_label``/``neg_label`` are given.""",
        None,
    ),
    Parameter(
        "threshold",
        Interval(float),
        BINARY | REPORT | CONFUSION,
        "float, default 0.5",
        """Decision threshold applied to ``y_score`` when ``y_pred`` is None:
        ``y_score >= threshold`` predicts ``pos_label``. Where a label metric
        reads it, ``y_score`` is the probability of ``pos_label`` and the
        threshold must be in [0, 1] (an ``ArgumentError`` otherwise; for other
        scores pass ``y_pred``, a column of predicted labels); ranking metrics
        alone take raw scores and any threshold (unused).""",
        0.5,
    ),
    Parameter("sample_weight", OPTIONAL_COLUMN, TABLE, "str, optional", "Column of non-negative weights.", None),
    Parameter(
        "by",
        Kind(_by, "a column name, a Polars expression, a list of them, a dict of names to them, or None"),
        TABLE,
        "str or list of str, optional",
        "Group columns, of any type; nulls form their own group.",
        None,
    ),
    Parameter(
        "metrics",
        Kind(
            lambda v: v is None or is_metrics(v),
            "a metric name (or NAME(param=value, ...)), a dict of names to their parameters, or a list of either",
        ),
        BINARY | MULTICLASS | REPORT,
        "str, list of str or dict, optional",
        """Registered metric names, each alone or with parameters as
        ``"fbeta_score(beta=2)"``, or names mapped to parameters
        (``{"fbeta_score": {"beta": 2}}``), or a list mixing both. A metric
        with parameters other than its defaults is named by them
        (README, "Metrics with parameters"). Default: those of the task
        (:data:`framemetrics.core.defaults.DEFAULT_METRICS`, as on the command line).""",
    ),
    Parameter(
        "pos_label",
        Label(),
        SCORED_LABELS,
        "Any, default 1 and the other of {0, 1}",
        "The two class labels (binary); any other value is invalid input.",
        1,
        "pos_label, neg_label",
    ),
    Parameter("neg_label", Label(none=True), SCORED_LABELS, default=None, documented=""),
    Parameter(
        "zero_division",
        Options(None, 0, 1),
        BINARY | MULTICLASS | TABLES - {"multiclass_confusion_matrix"},
        "{None, 0, 1}, default None",
        """Value of ratios whose denominator is 0 (e.g. precision with no
        predicted positive). None gives null.""",
        None,
    ),
    Parameter(
        "bins",
        Interval(int, 1, MAX_BINS, none=True),
        BINARY - {"bootstrap"},
        "int, optional",
        """Approximate mode for the ranking metrics: scores are binned to
        ``floor(y_score * bins) / bins`` (bins of width ``1 / bins``), so the
        curve stage has at most ``bins`` rows per group and unit of score and
        costs about one ``GROUP BY``. Each metric is then exact for the binned
        score; ``roc_auc_error_bound`` is added beside a requested AUC or Gini:
        ``|AUC - exact AUC| <= sum_bins pw nw / (2 P N)`` (twice that for the
        Gini; no bound is given for a partial AUC, ``max_fpr < 1``).""",
        None,
    ),
    Parameter(
        "nulls",
        Options("error", "drop"),
        TABLE - {"sql.multiclass_query"},
        '{"error", "drop"}, default "error"',
        NULLS_DOC,
        "error",
    ),
    Parameter(
        "ci",
        LEVEL,
        BINARY - {"bootstrap"} | MULTICLASS,
        "float, optional",
        """A confidence level (0.95): each metric ``m`` gets ``m_low`` and
        ``m_high`` beside it (README, "Uncertainty"), by default DeLong's
        for ROC AUC, Wilson's for proportions, the normal interval of the
        means (log loss, Brier, MSE...), the delta method's for F1, F-beta
        and Jaccard, the logit interval for average precision, the Poisson
        bootstrap for the others (and every multiclass metric).""",
        None,
    ),
    Parameter(
        "ci_method",
        Options(None, *CI_METHODS, "own", text=f"one of {', '.join(map(repr, CI_METHODS))}"),
        BINARY - {"bootstrap"} | MULTICLASS,
        "str, optional",
        "Force an interval method where it applies.",
        None,
    ),
    Parameter(
        "n_resamples",
        Interval(int, 2, MAX_RESAMPLES),
        BOOTSTRAPPED,
        "",
        """The Poisson bootstrap (every metric without an interval of its own,
        or all with ``ci_method="bootstrap"``): its replicates (2 to
        10,000), its seed, and the integer column identifying a row (by
        default its position as read). With ``row_id`` every engine draws
        the same replicates whatever the order of the rows.""",
        1000,
        "n_resamples, seed, row_id",
    ),
    Parameter("seed", Interval(int, text="an integer"), BOOTSTRAPPED, default=0, documented=""),
    Parameter("row_id", OPTIONAL_COLUMN, BOOTSTRAPPED, default=None, documented=""),
    Parameter(
        "engine",
        Options(None, "polars", "duckdb", "spark", text="'polars', 'duckdb' or 'spark'"),
        ENGINE,
        '{"polars", "duckdb", "spark"}, optional',
        """Where to compute: by default Polars, and Spark for a Spark DataFrame
        (which no other engine reads: framemetrics never collects its rows).
        All return the same frame.""",
        None,
    ),
    Parameter(
        "con",
        Kind(_connection, "a DuckDB connection (duckdb.DuckDBPyConnection) or None"),
        ENGINE,
        "duckdb.DuckDBPyConnection, optional",
        "Connection for table names (DuckDB engine) or to run on.",
        None,
    ),
    Parameter(
        "spark",
        Kind(_anything, "a SparkSession"),
        ENGINE - REPORT,
        "pyspark.sql.SparkSession, optional",
        'The session of a table name with ``engine="spark"``.',
        None,
    ),
    Parameter(
        "curve",
        Options(*CURVES),
        frozenset({"curve_table", "sql.curve"}),
        '{"roc_curve", "precision_recall_curve", "det_curve"}',
        "Which curve.",
    ),
    Parameter(
        "drop_intermediate",
        Options(None, True, False, text="True or False"),
        CURVE,
        "bool, optional",
        """Drop the points scikit-learn drops; default scikit-learn's default
        for the curve (True for ROC, False for PR and DET).""",
        None,
    ),
    Parameter(
        "max_points",
        Interval(int, 4, none=True, text="an integer of at least 4"),
        CURVE | REPORT,
        "int, optional",
        """Thin each group's curve to at most this many points (at least 4),
        faithful to a plot (see :func:`framemetrics.curve_table`).""",
        None,
    ),
    Parameter(
        "n_bins",
        Interval(int, 1, MAX_BINS),
        CALIBRATION,
        "int, default 10",
        "Number of equal-width bins of [0, 1].",
        10,
    ),
    Parameter(
        "level",
        LEVEL,
        AUC_CI | COMPARE | INTERVAL | {"bootstrap"},
        "float, default 0.95",
        "The confidence level.",
        0.95,
    ),
    Parameter("method", Options("delong"), AUC_CI, '{"delong"}, default "delong"', "The interval's method.", "delong"),
    Parameter(
        "method",
        Options("percentile", "bca"),
        frozenset({"bootstrap"}),
        '{"percentile", "bca"}, default "percentile"',
        "The bootstrap's interval.",
        "percentile",
    ),
    Parameter(
        "method",
        Options(None, *CI_METHODS, text=f"one of {', '.join(map(repr, CI_METHODS))}"),
        INTERVAL,
        "str, optional",
        "The interval's method, if not the metric's default.",
        None,
    ),
    Parameter(
        "beta",
        Interval(float, 0, text="a number >= 0 (inf included)"),
        frozenset({"class_table"}),
        "float, default 1.0",
        "The F-beta's weight of recall (>= 0: 0 is the precision, ``inf`` the recall).",
        1.0,
    ),
    Parameter(
        "normalize",
        Options(None, "true", "pred", "all"),
        CONFUSION,
        '{None, "true", "pred", "all"}, default None',
        """As scikit-learn's: the cells as fractions of their true class
        (``"true"``: each row of the matrix sums to 1), of their predicted
        class (``"pred"``) or of the segment (``"all"``); None gives the
        weights (counts without ``sample_weight``). A cell whose denominator
        is 0 is null (scikit-learn: 0).""",
        None,
    ),
    Parameter("pivot", BOOL, frozenset({"multiclass_confusion_matrix"}), "bool, default False", "", False),
    Parameter(
        "checks",
        BOOL,
        frozenset({"sql.query", "sql.multiclass_query"}),
        "bool, default False",
        "Also return the ``invalid_*`` row counts per group.",
        False,
    ),
    Parameter("dialect", Options(*_dialects()), SQL, 'str, default "duckdb"', "The SQL dialect.", "duckdb"),
    Parameter(
        "output",
        Kind(lambda v: isinstance(v, (str, PathLike)), "a path (str or os.PathLike)"),
        REPORT,
        'str or Path, default "report.html"',
        "Where to write the HTML file.",
        "report.html",
    ),
    Parameter(
        "title",
        Kind(lambda v: v is None or isinstance(v, str), "a str or None"),
        REPORT,
        "str, optional",
        "The page's title.",
        None,
    ),
    Parameter(
        "max_segments",
        Interval(int, 0, text="a non-negative integer"),
        REPORT,
        "int, default 8",
        "Segments drawn in the plots: the largest by rows (the tables list all).",
        8,
    ),
    Parameter(
        "metric",
        Kind(lambda v: isinstance(v, str), "a metric name (str)"),
        INTERVAL,
        "str",
        "A binary metric with an interval.",
    ),
    *(
        Parameter(
            name,
            Kind(
                _column_like if name != "sample_weight" else lambda v: v is None or _column_like(v),
                "a column name or a Polars expression",
            ),
            INTERVAL,
            kind,
            doc,
        )
        for name, kind, doc in (
            ("y_true", "str or polars.Expr", "The labels."),
            ("prediction", "str or polars.Expr", "The metric's prediction (``y_pred`` labels or ``y_score`` scores)."),
            ("sample_weight", "str or polars.Expr, optional", "The weights."),
        )
    ),
)

# Each parameter name and the entry points taking it.
ENTRIES: dict[str, frozenset[str]] = {}
for _p in PARAMETERS:
    ENTRIES[_p.name] = ENTRIES.get(_p.name, frozenset()) | _p.entries

_DECLARED = {(p.name, entry): p for p in PARAMETERS for entry in p.entries}
if len(_DECLARED) != sum(len(p.entries) for p in PARAMETERS):  # pragma: no cover - a declaration error
    raise RuntimeError("a parameter is declared twice for one entry point")


def declared(name: str, entry: str) -> Parameter:
    """The declaration of parameter ``name`` of ``entry``; ``KeyError`` if it has none."""
    return _DECLARED[(name, entry)]
