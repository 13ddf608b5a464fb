"""Scored predictions: one confidence a predicted entity, beside the spans (docs/DESIGN.md, 'Scores beside the spans').

Spans stay ``(start, end, label)`` tuples; a side's scores are a parallel
structure, one list of floats a sentence aligned with its entities, checked once
here (by :class:`~nested_span_f1.formats.Corpus` when a reader fills them, by the
threshold curve when a caller gives them). A score is any finite real number:
probabilities in [0, 1] and logits outside it alike. NaN, infinities, strings,
booleans and missing scores are refused, naming the sentence, the entity and its
position, never dropped or cast.
"""
from __future__ import annotations

import math
from collections.abc import Iterable, Mapping, Sequence
from itertools import chain
from numbers import Real
from operator import itemgetter
from typing import Any

import numpy as np

from .sequences import check_each, check_sequence
from .wording import quote

SCORE_KEYS = ("score", "prob")
"""The keys a file's entity may carry its score under (GLiNER and the pipeline write ``score``)."""


def _where(side: str, s: int, entity: Any) -> str:
    return f"{side}, sentence {s}: entity {quote(entity)}"


def check_score(value: Any, where: str, position: str) -> float:
    """One score as a float: TypeError for anything but a real number (a string, a bool, None), ValueError for NaN
    or an infinity; the message starts with ``where`` and ends with ``position``."""
    if value is None:
        raise ValueError(f"{where} has no score, but other entities have one; give every predicted entity a score"
                         f"{position}")
    if isinstance(value, (bool, np.bool_)) or not isinstance(value, (Real, np.integer, np.floating)):
        raise TypeError(f"{where} has score {quote(value)}, which is not a number{position}")
    number = float(value)
    if not math.isfinite(number):
        raise ValueError(f"{where} has score {value!r}; a score must be a finite number (scores outside [0, 1], such "
                         f"as logits, are allowed){position}")
    return number


def check_scores(scores: Sequence[Any], entities: Sequence[Sequence[Any]], side: str = "predictions") -> list[
        list[float]]:
    """Scores one list a sentence, each as long as the sentence's entities, as floats (see the module docstring).

    Raises:
        TypeError: scores that are not lists, a score that is not a number; naming side, sentence, entity, position.
        ValueError: a sentence whose scores and entities differ in number, a missing score (None), NaN or an
            infinity.
    """
    check_sequence(scores, f"{side}, scores", "sentences (one list of scores per sentence)")
    if len(scores) != len(entities):
        raise ValueError(f"{side}: {len(scores)} sentences of scores but {len(entities)} of entities")
    check_each(scores, f"{side}, sentence {{}}", "scores (one per entity)")
    if list(map(len, scores)) != list(map(len, entities)):
        s = next(s for s, (row, ents) in enumerate(zip(scores, entities)) if len(row) != len(ents))
        raise ValueError(f"{side}, sentence {s}: {len(scores[s])} scores for {len(entities[s])} entities; give one "
                         "score an entity")
    flat = list(chain.from_iterable(scores))
    if set(map(type, flat)) <= {float} and np.isfinite(np.array(flat, dtype=np.float64)).all():
        return [list(row) for row in scores]  # the common case at once: Python floats, all finite
    return [[check_score(x, _where(side, s, e), f" (position {j} in the sentence)")
             for j, (x, e) in enumerate(zip(row, ents))] for s, (row, ents) in enumerate(zip(scores, entities))]


def scored_item(item: Any) -> tuple[Any, Any, bool]:
    """``(entity, score, has_score)`` of one scored prediction: a ``(start, end, label, score)`` tuple, a mapping
    with a ``score`` key beside the span's or fragments' keys, or a plain entity (no score)."""
    if isinstance(item, Mapping):
        if "score" not in item:
            return item, None, False
        return {key: value for key, value in item.items() if key != "score"}, item["score"], True
    if isinstance(item, (list, tuple)) and len(item) == 4:
        return tuple(item[:3]), item[3], True
    return item, None, False


def split_scored(sentences: Sequence[Iterable[Any]], side: str = "predictions") -> tuple[list[list[Any]],
                                                                                        list[list[Any]] | None]:
    """Entities and scores of per-sentence scored predictions (:func:`scored_item`): the scores are None when items
    are given and none carries one, else one an item (None where an item has none, which :func:`check_scores`
    refuses)."""
    check_sequence(sentences, side, "sentences (one list of spans per sentence)")
    check_each(sentences, f"{side}, sentence {{}}", "spans")
    flat = list(chain.from_iterable(sentences))
    if flat and set(map(type, flat)) == {tuple} and set(map(len, flat)) == {4}:
        # the common case at once: (start, end, label, score) tuples
        span, score = itemgetter(0, 1, 2), itemgetter(3)
        return [list(map(span, items)) for items in sentences], [list(map(score, items)) for items in sentences]
    entities, scores, any_score = [], [], False
    for items in sentences:
        row_entities, row_scores = [], []
        for item in items:
            entity, score, has = scored_item(item)
            row_entities.append(entity)
            row_scores.append(score)
            any_score = any_score or has
        entities.append(row_entities)
        scores.append(row_scores)
    return entities, scores if any_score or not any(entities) else None


def file_scores(found: list[list[Any]]) -> list[list[Any]] | None:
    """A reader's scores (None where an entity has none): None when no entity of the file has one."""
    return found if any(x is not None for row in found for x in row) else None


def entity_scores(rows: Iterable[Iterable[Any]]) -> tuple[list[list[Any]] | None, dict[str, int]]:
    """The scores a file's entities carry, one list a sentence (:func:`file_scores`: None when no entity has one),
    and which key was read: an entity's ``score``, else its ``prob`` (:data:`SCORE_KEYS`); None for an entity
    with neither. The notes count, when any, ``score_and_prob`` (entities holding both: ``score`` read, ``prob``
    not) and ``scores_from_prob`` (entities holding ``prob`` alone), so that a report can say which was read."""
    both = from_prob = 0
    found: list[list[Any]] = []
    for row in rows:
        out: list[Any] = []
        for item in row:
            if not isinstance(item, Mapping):
                out.append(None)
            elif "score" in item:
                out.append(item["score"])
                both += "prob" in item
            else:
                out.append(item.get("prob"))
                from_prob += "prob" in item
        found.append(out)
    scores = file_scores(found)
    notes = {"score_and_prob": both, "scores_from_prob": from_prob} if scores is not None else {}
    return scores, {key: n for key, n in notes.items() if n}


def mean_score(values: Sequence[float]) -> float:
    """The mean of the scores of an entity's pieces (its tokens, its sub-tokens): the value itself when they all
    hold one (a tagger writing its span's score on every token), else ``math.fsum`` over their number."""
    first = values[0]
    if all(value == first for value in values):
        return first
    return math.fsum(values) / len(values)
