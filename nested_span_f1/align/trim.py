"""Whitespace at the edges of character spans: trimmed only when asked, and counted."""
from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from ..core.entities import is_fragmented


def _trim(text: str, start: int, end: int) -> tuple[int, int]:
    """``(start, end)`` without whitespace at either edge; unchanged when the span is whitespace only."""
    first, last = start, end
    while first < last and text[first].isspace():
        first += 1
    while last > first and text[last - 1].isspace():
        last -= 1
    return (first, last) if first < last else (start, end)


def trim_entities(text: str, entities: Sequence[Any]) -> tuple[list[Any], int]:
    """The entities of one text with whitespace trimmed from their edges, and how many changed.

    A discontinuous entity is trimmed at its first fragment's start and its last
    fragment's end (the edges of the entity); a span of whitespace only is left
    as it is.

    >>> trim_entities(" Paris ", [(0, 6, "LOC"), (1, 6, "LOC")])
    ([(1, 6, 'LOC'), (1, 6, 'LOC')], 1)
    """
    out, changed = [], 0
    for entity in entities:
        if is_fragmented(entity):
            pieces = [tuple(piece) for piece in entity[0]]
            pieces[0] = _trim(text, pieces[0][0], pieces[0][1])
            pieces[-1] = _trim(text, pieces[-1][0], pieces[-1][1])
            trimmed: Any = (tuple(pieces), entity[1])
            same = trimmed[0] == tuple(tuple(piece) for piece in entity[0])
        else:
            start, end = _trim(text, entity[0], entity[1])
            trimmed = (start, end, entity[2])
            same = (start, end) == (entity[0], entity[1])
        out.append(entity if same else trimmed)
        changed += not same
    return out, changed
