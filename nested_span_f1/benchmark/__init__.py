"""Benchmarking prediction sets against one gold: bootstrap intervals, paired tests, reports.

:mod:`.inputs` reads the sides and the resampling units, :mod:`.stats` resamples
per-unit counts, :mod:`.compare` runs it all; :mod:`.report`, :mod:`.table` and
:mod:`.html` are views of the result, whose figures :mod:`nested_span_f1.render`
draws. :mod:`.intervals` gives a scored system's figures at a threshold their
intervals, for the ``thresholds`` command.
"""
from .compare import benchmark
from .intervals import threshold_intervals
from .result import BenchmarkResult

__all__ = ["BenchmarkResult", "benchmark", "threshold_intervals"]
