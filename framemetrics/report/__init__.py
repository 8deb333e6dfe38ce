"""The evaluation report: one self-contained HTML file of metrics, segments and curves."""

from framemetrics.report.write import evaluation_report

__all__ = ["evaluation_report"]
