"""Lenient span F1 (``lenient_span_f1``): MUC / SemEval-2013 schemes over an optimal one-to-one matching.

:mod:`.matching` pairs overlapping spans optimally, :mod:`.counts` holds the
outcomes per scheme and label, :mod:`.score` reads both sides and summarizes.
"""
from .counts import BREAKDOWN, LENIENT_SCHEMES, LenientCounts
from .score import count_lenient, score_lenient, summarize_lenient

__all__ = ["BREAKDOWN", "LENIENT_SCHEMES", "LenientCounts", "count_lenient", "score_lenient", "summarize_lenient"]
