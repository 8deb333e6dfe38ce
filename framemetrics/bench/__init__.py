"""Benchmarks: each path of framemetrics against a baseline measured in the same run (``python -m framemetrics.bench``).

One module per benchmark: :mod:`~framemetrics.bench.grouped` (grouped metrics
against each engine's own ``GROUP BY``), :mod:`~framemetrics.bench.spark`,
:mod:`~framemetrics.bench.macros`, :mod:`~framemetrics.bench.expressions`,
:mod:`~framemetrics.bench.report`, :mod:`~framemetrics.bench.uncertainty`
and :mod:`~framemetrics.bench.targets` (issue 37's targets in one run);
:mod:`~framemetrics.bench.common` holds what they share.
"""
