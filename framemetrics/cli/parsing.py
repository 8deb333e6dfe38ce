"""Turn command-line text into the library's arguments: metrics, labels, input paths."""

from __future__ import annotations

import glob
from pathlib import Path
from typing import Any

import click

from framemetrics.cli.errors import Unreadable
from framemetrics.core.curves import CURVES
from framemetrics.core.errors import ArgumentError, did_you_mean
from framemetrics.core.names import parse_metric, split_top_level
from framemetrics.core.registry import MULTICLASS, REGISTRY

__all__ = ["CURVE_NAMES", "parse_label", "parse_labels", "parse_metrics", "resolve_path"]

CURVE_NAMES = {"roc": "roc_curve", "pr": "precision_recall_curve", "det": "det_curve"} | {c: c for c in CURVES}


def parse_metrics(values: tuple[str, ...], hint: str = "'--metrics'") -> list[str] | None:
    """Metrics, comma-separated or repeated, each ``NAME`` or ``NAME(param=value, ...)``, as the library reads them
    (:func:`~framemetrics.core.names.parse_metric`).

    Examples
    --------
    >>> parse_metrics(("roc_auc_score,roc_auc_score(max_fpr=0.1)", "fbeta_score(beta=2)"))
    ['roc_auc_score', 'roc_auc_score(max_fpr=0.1)', 'fbeta_score(beta=2)']
    >>> parse_metrics(("f1_scor",))  # doctest: +ELLIPSIS
    Traceback (most recent call last):
    ...
    click.exceptions.BadParameter: unknown metric 'f1_scor'; did you mean f1_score, ...? (...)
    """
    if not values:
        return None
    metrics = [part for value in values for part in split_top_level(value)]
    for item in metrics:
        try:
            name, _ = parse_metric(item)
        except ArgumentError as error:
            raise click.BadParameter(str(error), param_hint=hint) from error
        if name not in REGISTRY and name not in MULTICLASS:
            known = [*REGISTRY, *(m for m in MULTICLASS if m not in REGISTRY)]
            message = f"unknown metric {name!r}{did_you_mean(name, known)} (framemetrics metrics lists them)"
            raise click.BadParameter(message, param_hint=hint)
    return metrics


def parse_labels(text: str | None) -> list[Any] | None:
    """Comma-separated classes, each read as :func:`parse_label` reads one.

    Examples
    --------
    >>> parse_labels("cat,dog,pig"), parse_labels("0, 1, 2"), parse_labels(None)
    (['cat', 'dog', 'pig'], [0, 1, 2], None)
    """
    if text is None:
        return None
    return [parse_label(part.strip()) for part in text.split(",")]


def parse_label(text: str | None) -> Any:
    """A class label as typed: an integer, a number, true/false, or else text.

    Examples
    --------
    >>> parse_label("1"), parse_label("0.5"), parse_label("Yes"), parse_label("true")
    (1, 0.5, 'Yes', True)
    """
    if text is None:
        return None
    if text.lower() in ("true", "false"):
        return text.lower() == "true"
    for kind in (int, float):
        try:
            return kind(text)
        except ValueError:
            pass
    return text


def resolve_path(path: str) -> str:
    """The path or glob to read: a folder means the Parquet files in it; nothing matching is an error.

    Examples
    --------
    >>> resolve_path("no/such/file.parquet")
    Traceback (most recent call last):
    ...
    framemetrics.cli.errors.Unreadable: no file matches 'no/such/file.parquet'
    """
    if Path(path).is_dir():
        path = str(Path(path) / "*.parquet")
    matches = glob.glob(path)
    if not matches:
        raise Unreadable(f"no file matches {path!r}")
    if not path.lower().endswith((".parquet", ".pq", ".csv", ".tsv", ".csv.gz")):
        raise Unreadable(f"cannot read {path!r}: framemetrics reads .parquet, .csv and .tsv files")
    unreadable = [m for m in matches if Path(m).is_file() and not _readable(m)]
    if unreadable:
        raise Unreadable(f"cannot read {unreadable[0]!r}: permission denied")
    return path


def _readable(path: str) -> bool:
    try:
        with open(path, "rb"):
            return True
    except OSError:
        return False
