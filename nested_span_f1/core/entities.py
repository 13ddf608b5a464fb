"""Entities of one side, checked once: contiguous spans as arrays, discontinuous ones as fragments.

Readers and metrics both need this step (a file's spans are checked as it is
read; a metric's as it is called), so it lives in the core, below both.

A discontinuous entity is a label over several token fragments, scored by the
one exact matcher. An entity such as W2NER's index list ``[4, 5, 8]`` is the fragments
``((4, 6), (8, 9))``: it is correct only when every fragment matches. To keep
one scorer, each discontinuous entity becomes an ordinary span ``(first start,
last end, label)`` in a *virtual sentence* that stands for the real sentence
plus the inner fragment boundaries. Two entities then share key ``(virtual
sentence, start, end, label)`` exactly when all their fragments and their label
agree, and :func:`nested_span_f1.core.matching.match_exact` counts them, duplicates
included, with per-type and untyped tallies.
"""
from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from itertools import chain
from typing import Any, NamedTuple

import numpy as np

from .sequences import check_each, check_sequence
from .spans import SpanArrays, empty_spans, spans_from_lists
from .wording import quote

Fragments = tuple[tuple[int, int], ...]
"""Sorted, non-touching ``(start, end)`` pieces of one entity, end exclusive."""

Record = tuple[int, Fragments, str]
"""A discontinuous entity located in a sentence: ``(sentence, fragments, label)``."""


def is_fragmented(item: Any) -> bool:
    """True for ``{"fragments": [...], "label": ...}`` or ``((s, e), ...), label)`` items."""
    # tuples first: they are what the readers give, and the Mapping check is an ABC check (slow on millions)
    if isinstance(item, (list, tuple)):
        return len(item) == 2 and isinstance(item[0], (list, tuple))
    return isinstance(item, Mapping) and "fragments" in item


def _is_int(value: Any) -> bool:
    return isinstance(value, (int, np.integer)) and not isinstance(value, bool)


def normalize_fragments(fragments: Iterable[Sequence[int]], length: int | None, where: str) -> Fragments:
    """Validate fragments, sort them and merge touching ones (``(0, 2), (2, 3)`` is ``(0, 3)``).

    >>> normalize_fragments([(8, 9), (4, 6)], 10, "sentence 0")
    ((4, 6), (8, 9))
    >>> normalize_fragments([(0, 2), (2, 3)], None, "sentence 0")
    ((0, 3),)

    Raises:
        TypeError: a fragment that is not a pair of integers.
        ValueError: no fragment, ``start >= end``, a negative start, an end beyond
            ``length``, or overlapping fragments; the message starts with ``where``.
    """
    pieces = []
    for piece in fragments:
        if not isinstance(piece, (list, tuple)) or len(piece) != 2 or not all(map(_is_int, piece)):
            raise TypeError(f"{where}: fragment {quote(piece)} must be a (start, end) pair of integers")
        start, end = int(piece[0]), int(piece[1])
        if start < 0 or start >= end or (length is not None and end > length):
            bound = f" and end <= {length} (the sentence length)" if length is not None else ""
            raise ValueError(f"{where}: fragment {quote(tuple(piece))} is out of range; fragments need 0 <= start < end{bound}")
        pieces.append((start, end))
    if not pieces:
        raise ValueError(f"{where}: an entity needs at least one fragment")
    pieces.sort()
    merged = [pieces[0]]
    for start, end in pieces[1:]:
        if start < merged[-1][1]:
            raise ValueError(f"{where}: fragments {quote(merged[-1])} and {quote((start, end))} overlap")
        if start == merged[-1][1]:
            merged[-1] = (merged[-1][0], end)
        else:
            merged.append((start, end))
    return tuple(merged)


def fragment_parts(item: Any, length: int | None, where: str) -> tuple[Fragments, str]:
    """A fragmented entity's fragments, validated and merged (:func:`normalize_fragments`), and its label; one
    fragment left means the entity is contiguous.

    Raises:
        TypeError, ValueError: as :func:`normalize_fragments`, or a label that is not a non-empty string.
    """
    pieces, label = (item["fragments"], item.get("label")) if isinstance(item, Mapping) else item
    if not isinstance(label, str) or not label:
        raise TypeError(f"{where} needs a non-empty string label")
    return normalize_fragments(pieces, length, where), label


def split_entities(
    sentences: Sequence[Iterable[Any]], lengths: Sequence[int] | None, side: str
) -> tuple[list[list[Any]], list[Record]]:
    """Separate contiguous spans (left as given) from discontinuous entities (validated).

    A fragmented entity whose fragments merge into one piece is contiguous and
    joins the spans as ``(start, end, label)``.
    """
    check_sequence(sentences, side, "sentences (one list of spans per sentence)")
    contiguous: list[list[Any]] = []
    records: list[Record] = []
    check_each(sentences, f"{side}, sentence {{}}", "spans")
    flat = list(chain.from_iterable(sentences))
    if set(map(type, flat)) <= {tuple} and set(map(len, flat)) <= {3}:
        return [list(items) for items in sentences], records  # (start, end, label) tuples: nothing discontinuous
    for s, items in enumerate(sentences):
        kept = []
        for item in items:
            if not is_fragmented(item):
                kept.append(item)
                continue
            length = lengths[s] if lengths is not None and s < len(lengths) else None
            fragments, label = fragment_parts(item, length, f"{side}, sentence {s}: entity {quote(item)}")
            if len(fragments) == 1:
                kept.append((fragments[0][0], fragments[0][1], label))
            else:
                records.append((s, fragments, label))
        contiguous.append(kept)
    return contiguous, records


def fragment_arrays(predictions: list[Record], references: list[Record]) -> tuple[SpanArrays, SpanArrays]:
    """Both sides' discontinuous entities as spans over shared virtual sentences."""
    virtual: dict[tuple[int, ...], int] = {}
    labels: dict[str, int] = {}

    def encode(records: list[Record]) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
        rows = []
        for s, fragments, label in records:
            inner = tuple(b for piece in fragments for b in piece)[1:-1]
            rows.append((
                virtual.setdefault((s, *inner), len(virtual)),
                fragments[0][0],
                fragments[-1][1],
                labels.setdefault(label, len(labels)),
            ))
        table = np.array(rows, dtype=np.int64).reshape(-1, 4)
        return table[:, 0], table[:, 1], table[:, 2], table[:, 3]

    pred, ref = encode(predictions), encode(references)
    names = tuple(labels)
    if not virtual:
        return empty_spans(0, names), empty_spans(0, names)
    return SpanArrays(*pred, names, len(virtual)), SpanArrays(*ref, names, len(virtual))


class Entities(NamedTuple):
    """One side's entities, checked: contiguous spans as arrays, discontinuous entities as located records."""

    spans: SpanArrays
    fragmented: list[Record]


def check_entities(sentences: Sequence[Iterable[Any]], lengths: Sequence[int] | None = None,
                   side: str = "spans") -> Entities:
    """Validate one side's per-sentence entity lists (as :func:`nested_span_f1.nested.score.count_nested` takes them) and split them.

    Raises:
        ValueError, TypeError: a malformed span; the message names ``side``, sentence and span.
    """
    spans, fragmented = split_entities(sentences, lengths, side)
    return Entities(spans_from_lists(spans, lengths, side), fragmented)
