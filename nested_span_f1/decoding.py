"""Tag codes -> spans, for a whole corpus at once.

The corpus is laid out as one array with an ``O`` before the first sentence and
after every sentence, exactly the padding the reference decoders use, so chunks
never cross sentences. Every rule lookup is a vectorised table lookup indexed by
``(previous prefix, current prefix, same type)``; no Python loop runs per token.
"""
from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from .labels import Encoded, ParsedTags
from .schemes import PREFIXES, DefaultRules, Scheme
from .spans import SpanArrays

_NP = len(PREFIXES)


@dataclass(frozen=True)
class Layout:
    """A corpus side padded with ``O`` separators, as prefix and type arrays."""

    prefix: np.ndarray
    type_id: np.ndarray
    sentence_start: np.ndarray
    """Padded position of each sentence's first token."""
    transition: np.ndarray
    """Flat table index of (prefix[k-1], prefix[k], same type) for k >= 1."""


def layout(encoded: Encoded, parsed: ParsedTags) -> Layout:
    """Pad a corpus side with separators and look up prefixes and types once."""
    n_sent = len(encoded.lengths)
    sentence_start = encoded.offsets[:-1] + np.arange(n_sent, dtype=np.int64) + 1
    padded = np.zeros(len(encoded.codes) + n_sent + 1, dtype=np.int64)
    if len(encoded.codes):
        token_pos = np.arange(len(encoded.codes), dtype=np.int64) + np.repeat(
            np.arange(1, n_sent + 1, dtype=np.int64), encoded.lengths
        )
        padded[token_pos] = encoded.codes
    prefix = parsed.prefix[padded]
    type_id = parsed.type_id[padded]
    transition = (prefix[:-1] * _NP + prefix[1:]) * 2 + (type_id[:-1] == type_id[1:])
    return Layout(prefix, type_id, sentence_start, transition)


def _flags(table: np.ndarray, lay: Layout) -> np.ndarray:
    """Rule flag at every padded position (position 0, the leading pad, is False)."""
    out = np.zeros(len(lay.prefix), dtype=bool)
    out[1:] = table.reshape(-1)[lay.transition]
    return out


def _to_spans(lay: Layout, begin: np.ndarray, end: np.ndarray, type_pos: np.ndarray, types: tuple[str, ...]) -> SpanArrays:
    sentence = np.searchsorted(lay.sentence_start, end - 1, side="right") - 1
    base = lay.sentence_start[sentence]
    return SpanArrays(
        sentence.astype(np.int64),
        (begin - base).astype(np.int64),
        (end - base).astype(np.int64),
        lay.type_id[type_pos],
        types,
        len(lay.sentence_start),
    )


def decode_default(lay: Layout, rules: DefaultRules, types: tuple[str, ...]) -> SpanArrays:
    """Decode as conlleval / seqeval's default mode do: repair, never drop.

    A chunk closes at every end flag; it began at the latest start flag before
    that point. When no start flag lies in the same sentence (only possible with
    U-/L- tags outside their scheme, where seqeval reuses a stale offset from an
    earlier sentence) the chunk is clamped to the sentence's first token.
    """
    ends = np.flatnonzero(_flags(rules.ends, lay))
    starts = np.flatnonzero(_flags(rules.starts, lay))
    last = np.searchsorted(starts, ends, side="left") - 1
    begin = np.where(last >= 0, starts[np.maximum(last, 0)], 0)
    sentence_first = lay.sentence_start[np.searchsorted(lay.sentence_start, ends - 1, side="right") - 1]
    begin = np.maximum(begin, sentence_first)
    return _to_spans(lay, begin, ends, ends - 1, types)


def decode_strict(lay: Layout, scheme: Scheme, types: tuple[str, ...]) -> SpanArrays:
    """Decode as seqeval's strict mode does: keep only chunks the scheme allows.

    A chunk starts at a start flag that is not already inside a running chunk,
    runs while the inside rule holds, and is kept only if the end rule holds at
    the first token past it. (Start and inside rules overlap only in IOB1's
    ``B-X I-X``, where the token continues the chunk begun before it.)
    """
    start = _flags(scheme.starts, lay)
    inside = _flags(scheme.inside, lay)
    end_ok = _flags(scheme.ends, lay)
    positions = np.arange(len(start), dtype=np.int64)
    # run_head[k]: the last position <= k that is not inside a chunk.
    run_head = np.maximum.accumulate(np.where(inside, 0, positions))
    seen = np.concatenate(([0], np.cumsum(start)))
    starts_since_head = seen[positions] - seen[run_head]
    begin = np.flatnonzero(start & (starts_since_head == 0))
    breaks = np.flatnonzero(~inside)
    end = breaks[np.searchsorted(breaks, begin, side="right")]
    keep = end_ok[end]
    return _to_spans(lay, begin[keep], end[keep], begin[keep], types)
