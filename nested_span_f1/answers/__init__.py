"""Language models' answers and entity lists, scored two ways: the string protocol papers use, and located spans.

A model's answer is read into mentions as real models write it (``parse``, by
``values`` for JSON and Python values, ``markup`` for the sentence with marks in
it, ``lines`` for an entity a line with prose around it; ``mention`` holds what
reading gives; files of answers: ``read``); each mention is compared as a
normalised string with the gold strings of its document and type (``normalize``,
``strings``: UniversalNER's protocol) and placed on the document's text
(``locate``; by its token indices where the answer gives them: ``indices``),
every mention in one category; ``labels`` maps the answers' types to the gold's;
``gold`` reads what the answers are scored against (texts, tokens, or strings
without offsets); ``counts`` holds what both protocols, the reading and the
placement count, as counts that add and serialise; ``score`` pairs a system with
its gold and scores the located spans like any text spans
(:func:`score_answers`); ``tally`` counts one answer against one gold document as
counts that add up to what ``score_answers`` gives (:func:`count_answer`, the
per-sample step of the evaluation harnesses).
"""
from .counts import AnswerCounter, AnswerCounts, PlaceTally
from .gold import StringGold, read_string_gold
from .indices import TRUST
from .labels import parse_label_map
from .locate import CATEGORIES, POLICIES, Placement, locate, occurrences
from .mention import Answer, Mention
from .normalize import STEPS, Normalization
from .parse import SHAPES, parse_answer
from .read import Answers, read_answers
from .score import AnswersRun, count_answers, score_answers, score_run
from .strings import StringCounter, count_strings
from .tally import AnswerTally, count_answer, gold_document, total

__all__ = [
    "CATEGORIES",
    "POLICIES",
    "SHAPES",
    "STEPS",
    "TRUST",
    "Answer",
    "AnswerCounter",
    "AnswerCounts",
    "AnswerTally",
    "Answers",
    "AnswersRun",
    "Mention",
    "Normalization",
    "PlaceTally",
    "Placement",
    "StringCounter",
    "StringGold",
    "count_answer",
    "count_answers",
    "count_strings",
    "gold_document",
    "locate",
    "occurrences",
    "parse_answer",
    "parse_label_map",
    "read_answers",
    "read_string_gold",
    "score_answers",
    "score_run",
    "total",
]
