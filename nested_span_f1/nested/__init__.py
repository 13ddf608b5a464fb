"""Nested span F1 (``nested_span_f1``): exact matching of overlapping spans, with nesting breakdowns.

:mod:`.nesting` reads how the spans of a side nest (crossing pairs, depth,
length buckets); :mod:`.score` counts matches per bucket and summarizes.
"""
from .score import NestedCounts, count_nested, describe_spans, score_nested, summarize_nested

__all__ = ["NestedCounts", "count_nested", "describe_spans", "score_nested", "summarize_nested"]
