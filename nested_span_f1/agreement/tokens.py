"""Token-based agreement: each annotation counted as the whitespace-delimited tokens it overlaps, as a multiset.

The definition of bratiaa's token-based F1 (kldtz/bratiaa, read for its
definitions): a document's tokens are its runs of non-whitespace characters
(the tokens themselves in a corpus of tokens); an annotation becomes one piece
``(document, token, type)`` for every token it overlaps, a partly covered token
whole; a discontinuous annotation, one for every token each fragment overlaps.
One annotator's pieces are a multiset (nested annotations of one type give a
token twice), after the annotator's repeated annotations are removed. A pair
agrees on ``min(n_A, n_B)`` copies of each piece, and
``F1 = 2 * agreed / (|A| + |B|)``. Two annotations of one type that touch become
the same pieces as one annotation over both: a boundary between them is not seen.

:func:`pieces` turns spans into pieces, :func:`count_pieces` counts a pair as the
instance matchings do (``[units, 3, types]``: agreed, B's pieces, A's pieces),
and :func:`token_spans` gives the spans on token positions that kappa and alpha
label in this unit.
"""
from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np

from ..core.matching import distinct
from ..core.spans import SpanArrays

_TOKEN = re.compile(r"\S+")


@dataclass(frozen=True)
class Tokens:
    """The whitespace tokens of every document, numbered across the documents: ``start[t]``, ``end[t]`` (positions
    counted across the documents as well), ``document[t]``; ``offset[d]`` is document ``d``'s first position and
    ``first[d]`` its first token."""

    start: np.ndarray
    end: np.ndarray
    document: np.ndarray
    offset: np.ndarray
    first: np.ndarray

    @property
    def counts(self) -> np.ndarray:
        """Tokens per document."""
        return np.diff(self.first)


def whitespace_tokens(items: Sequence[Any], unit: str) -> Tokens:
    """The tokens of the documents: their runs of non-whitespace characters (``unit`` characters), or the
    documents' own tokens (``unit`` tokens)."""
    lengths = np.array([len(item) for item in items], dtype=np.int64)
    offset = np.concatenate(([0], np.cumsum(lengths)))
    if unit == "tokens":
        start = np.arange(int(offset[-1]), dtype=np.int64)
        counts = lengths
    else:
        found = [[(m.start(), m.end()) for m in _TOKEN.finditer(text)] for text in items]
        counts = np.array([len(runs) for runs in found], dtype=np.int64)
        flat = np.array([run for runs in found for run in runs], dtype=np.int64).reshape(-1, 2)
        shift = np.repeat(offset[:-1], counts)
        start, end = flat[:, 0] + shift, flat[:, 1] + shift
    document = np.repeat(np.arange(len(items), dtype=np.int64), counts)
    first = np.concatenate(([0], np.cumsum(counts)))
    return Tokens(start, start + 1 if unit == "tokens" else end, document, offset, first)


def token_range(spans: SpanArrays, tokens: Tokens) -> tuple[np.ndarray, np.ndarray]:
    """``(first, stop)``: the tokens (numbered across the documents) each span overlaps are ``first..stop-1``;
    ``stop <= first`` where it overlaps none (it covers whitespace only)."""
    base = tokens.offset[spans.sentence]
    first = np.searchsorted(tokens.end, base + spans.start, side="right")
    stop = np.searchsorted(tokens.start, base + spans.end, side="left")
    return first, stop


def pieces(spans: SpanArrays, tokens: Tokens) -> tuple[np.ndarray, np.ndarray]:
    """``(token, label)`` of every piece of the spans (a multiset: one row per span and token it overlaps)."""
    first, stop = token_range(spans, tokens)
    size = np.maximum(stop - first, 0)
    rows = np.repeat(np.arange(len(spans)), size)
    step = np.arange(len(rows)) - np.repeat(np.cumsum(size) - size, size)
    return first[rows] + step, spans.label[rows]


def count_pieces(first: SpanArrays, second: SpanArrays, tokens: Tokens, unit_of: np.ndarray, n_units: int,
                 labels: Sequence[str]) -> np.ndarray:
    """``[units, 3, types]`` counts of ``second``'s pieces against ``first``'s: agreed pieces (the multisets'
    intersection), ``second``'s pieces, ``first``'s, by the unit of their document and type (``labels`` holds
    every type of both)."""
    width = len(labels)
    index = {name: k for k, name in enumerate(labels)}
    keys = []
    for side in (first, second):
        token, label = pieces(side, tokens)
        remap = np.array([index[name] for name in side.labels], dtype=np.int64)
        keys.append(token * width + remap[label] if len(token) else np.zeros(0, dtype=np.int64))
    out = np.zeros((n_units, 3, width), dtype=np.int64)
    found = [np.unique(key, return_counts=True) for key in keys]
    (a_keys, a_counts), (b_keys, b_counts) = found
    common, ia, ib = np.intersect1d(a_keys, b_keys, assume_unique=True, return_indices=True)
    for column, (key, weight) in enumerate(((common, np.minimum(a_counts[ia], b_counts[ib])), (b_keys, b_counts),
                                            (a_keys, a_counts))):
        cells = unit_of[tokens.document[key // width]] * width + key % width
        out[:, column] = np.bincount(cells, weights=weight, minlength=n_units * width).reshape(n_units, width)
    return out


def token_spans(spans: SpanArrays, tokens: Tokens) -> SpanArrays:
    """The spans on token positions (each over the tokens it overlaps, those of no token dropped), each once:
    what kappa and alpha label when their unit is the token."""
    first, stop = token_range(spans, tokens)
    keep = stop > first
    document = spans.sentence[keep]
    start = first[keep] - tokens.first[document]
    moved = SpanArrays(document, start, start + (stop - first)[keep], spans.label[keep], spans.labels,
                       spans.n_sentences)
    return distinct(moved)[0]
