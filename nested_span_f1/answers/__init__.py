"""Score entity lists written by language models: the string protocol papers use, and located spans.

A model's answer is read into mentions (``parse``; files of answers: ``read``),
each mention is compared as a normalised string with the gold strings of its
document and type (``normalize``, ``strings``: UniversalNER's protocol) and
placed on the document's text (``locate``), every mention in one category;
``counts`` holds what both protocols and the placement count, as counts that
add and serialise; ``score`` pairs a system with its gold and scores the located
spans like any text spans (:func:`score_generated`).
"""
from .counts import GeneratedCounter, GeneratedCounts, PlaceTally
from .locate import CATEGORIES, POLICIES, Placement, locate, occurrences
from .normalize import STEPS, Normalization
from .parse import SHAPES, Answer, Mention, parse_answer
from .read import Generated, read_generated
from .score import GeneratedRun, count_generated, score_generated, score_run
from .strings import StringCounter, count_strings

__all__ = [
    "CATEGORIES", "POLICIES", "SHAPES", "STEPS", "Answer", "Generated", "GeneratedCounter", "GeneratedCounts",
    "GeneratedRun", "Mention", "Normalization", "PlaceTally", "Placement", "StringCounter", "count_generated",
    "count_strings", "locate", "occurrences", "parse_answer", "read_generated", "score_generated", "score_run",
]
