"""Benchmarking prediction sets against one gold: bootstrap intervals, paired tests, reports.

:mod:`.inputs` reads the sides and the resampling units, :mod:`.stats` resamples
per-unit counts, :mod:`.compare` runs it all; :mod:`.report` and :mod:`.plots`
are views of the result.
"""
from .compare import benchmark
from .result import BenchmarkResult

__all__ = ["BenchmarkResult", "benchmark"]
