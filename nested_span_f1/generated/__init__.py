"""Score entity lists written by language models: the string protocol papers use, and located spans.

A model's answer is read into mentions (``parse``), each mention is compared as a
normalised string with the gold strings of its document and type (``normalize``,
``strings``: UniversalNER's protocol) and placed on the document's text
(``locate``), every mention in one category; ``counts`` holds what both
protocols and the placement count, as counts that add and serialise.
"""
from .counts import GeneratedCounter, GeneratedCounts, PlaceTally
from .locate import CATEGORIES, POLICIES, Placement, locate, occurrences
from .normalize import STEPS, Normalization
from .parse import SHAPES, Answer, Mention, parse_answer
from .strings import StringCounter, count_strings

__all__ = [
    "CATEGORIES", "POLICIES", "SHAPES", "STEPS", "Answer", "GeneratedCounter", "GeneratedCounts", "Mention",
    "Normalization", "PlaceTally", "Placement", "StringCounter", "count_strings", "locate", "occurrences",
    "parse_answer",
]
