"""The places annotators disagree on, one row each, for an adjudicator: every annotator's spans there.

A place is a run of overlapping annotations in a document, whoever made them:
the annotations of every annotator, ordered by start, joined while each starts
before the furthest end so far (a discontinuous entity counts from its first
fragment's start to its last fragment's end). A place is disputed unless every
annotator holds the same annotations there (the same boundaries, fragments and
types); an annotator with nothing there is one who disagrees. Each disputed
place is one row, however many annotators and pairs disagree on it, with every
annotator's spans, their ``T`` id and line when they come from brat, ordered by
document and offset.
"""
from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np

from ..core.entities import Record
from ..core.spans import SpanArrays
from .disagreements import covered

Origins = Mapping[tuple[str, Any], tuple[str, int]]
"""``(document id, entity) -> (T id, line)`` of an annotator read from brat."""


@dataclass(frozen=True)
class Entry:
    """One annotation of one annotator: its document, first start and last end, type, and fragments (None for a
    contiguous span)."""

    annotator: int
    document: int
    start: int
    end: int
    label: str
    fragments: tuple[tuple[int, int], ...] | None


def entries(sides: Sequence[SpanArrays], fragmented: Sequence[Sequence[Record]]) -> list[Entry]:
    """Every annotation of every annotator (distinct spans, distinct discontinuous entities)."""
    out = []
    for k, (side, records) in enumerate(zip(sides, fragmented)):
        names = side.labels
        out += [Entry(k, d, a, b, names[lab], None) for d, a, b, lab in
                zip(side.sentence.tolist(), side.start.tolist(), side.end.tolist(), side.label.tolist())]
        out += [Entry(k, d, pieces[0][0], pieces[-1][1], label, tuple(pieces)) for d, pieces, label in records]
    return out


def places(found: Sequence[Entry], n_annotators: int) -> tuple[list[list[Entry]], int]:
    """The disputed places (each its annotations, by annotator, start, end, type), by document and offset; and
    how many places every annotator agrees on."""
    if not found:
        return [], 0
    document = np.array([e.document for e in found], dtype=np.int64)
    start = np.array([e.start for e in found], dtype=np.int64)
    end = np.array([e.end for e in found], dtype=np.int64)
    order = np.lexsort((-end, start, document))
    width = int(end.max()) + 1
    low, high = document[order] * width + start[order], document[order] * width + end[order]
    furthest = np.maximum.accumulate(high)
    begins = np.concatenate(([True], low[1:] >= furthest[:-1]))
    place = np.cumsum(begins) - 1
    signature: dict[tuple[Any, ...], int] = {}
    holders = np.zeros(len(found), dtype=np.int64)
    keys = []
    for row in order.tolist():
        e = found[row]
        key = (e.document, e.start, e.end, e.label, e.fragments)
        keys.append(key)
        signature[key] = signature.get(key, 0) + 1
    holders[:] = [signature[key] for key in keys]
    agreed = np.ones(int(place[-1]) + 1, dtype=bool)
    np.logical_and.at(agreed, place, holders == n_annotators)
    disputed: list[list[Entry]] = [[] for _ in range(len(agreed))]
    for p, row in zip(place.tolist(), order.tolist()):
        if not agreed[p]:
            disputed[p].append(found[row])
    rows = [sorted(members, key=lambda e: (e.annotator, e.start, e.end, e.label)) for members in disputed if members]
    return rows, int(agreed.sum())


def _span(e: Entry, item: Any, unit: str, ident: str, origins: Origins | None) -> dict[str, Any]:
    """An annotation as a row shows it: type, start, end (and fragments), the text it covers, its T id and line."""
    pieces = e.fragments or ((e.start, e.end),)
    out: dict[str, Any] = {"label": e.label, "start": e.start, "end": e.end}
    if e.fragments is not None:
        out["fragments"] = [list(piece) for piece in e.fragments]
    out["text"] = " ".join(covered(item, a, b, unit) for a, b in pieces)
    entity = (pieces, e.label) if e.fragments is not None else (e.start, e.end, e.label)
    known = origins.get((ident, entity)) if origins is not None else None
    out["id"], out["line"] = known if known is not None else (None, None)
    return out


def rows(disputed: Sequence[Sequence[Entry]], names: Sequence[str], ids: Sequence[str], items: Sequence[Any],
         unit: str, places_of: Sequence[Sequence[str | None]], origins: Sequence[Origins | None]) -> list[dict[str, Any]]:
    """The disputed places as JSON-safe rows: the document, the place's start and end and text, and for every
    annotator where it holds the document (``places_of``) and its spans there (none: an empty list)."""
    out = []
    for members in disputed:
        d = members[0].document
        start, end = min(e.start for e in members), max(e.end for e in members)
        annotators: dict[str, Any] = {}
        for k, name in enumerate(names):
            spans = [_span(e, items[d], unit, ids[d], origins[k]) for e in members if e.annotator == k]
            annotators[name] = {"where": places_of[k][d], "spans": spans}
        out.append({"document": ids[d], "start": start, "end": end, "text": covered(items[d], start, end, unit),
                    "annotators": annotators})
    return out
