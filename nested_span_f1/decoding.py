"""Tag codes -> spans, for a whole corpus at once.

The corpus is laid out as one array with an ``O`` before the first sentence and
after every sentence, exactly the padding the reference decoders use, so chunks
never cross sentences. Every rule lookup is a vectorised table lookup indexed by
``(previous prefix, current prefix, same type)``; no Python loop runs per token.

Only the transitions that touch a non-``O`` tag can start, continue or end a
chunk (the tables never fire on ``O`` -> ``O``), so the rules are looked up at
those positions alone: about a quarter of the tokens in NER data. A rule table
that breaks this property is decoded densely, at every position.
"""
from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from .labels import Encoded, ParsedTags
from .schemes import PREFIXES, DefaultRules, Scheme
from .spans import SpanArrays

_NP = len(PREFIXES)
_PAIR_TABLE_LIMIT = 256
"""Largest tag vocabulary for which a rule is expanded to a (code, code) table."""


@dataclass(frozen=True)
class Layout:
    """A corpus side padded with ``O`` separators, as tag codes.

    ``padded[k]`` is the tag code at padded position ``k`` (0, ``O``, at the
    separators). ``active`` lists the positions ``k >= 1`` where ``padded[k - 1]``
    or ``padded[k]`` is not ``O``, the only places a rule can fire.
    """

    padded: np.ndarray
    sentence_start: np.ndarray
    """Padded position of each sentence's first token."""
    parsed: ParsedTags
    active: np.ndarray

    @property
    def prefix(self) -> np.ndarray:
        """Prefix code at every padded position."""
        return self.parsed.prefix[self.padded]

    @property
    def type_id(self) -> np.ndarray:
        """Type id at every padded position."""
        return self.parsed.type_id[self.padded]

    @property
    def transition(self) -> np.ndarray:
        """Flat table index of (prefix[k-1], prefix[k], same type) for k >= 1."""
        prefix, type_id = self.prefix, self.type_id
        return (prefix[:-1] * _NP + prefix[1:]) * 2 + (type_id[:-1] == type_id[1:])


def _code_dtype(n_codes: int) -> type:
    if n_codes <= 1 << 8:
        return np.uint8
    if n_codes <= 1 << 16:
        return np.uint16
    return np.int64


def layout(encoded: Encoded, parsed: ParsedTags) -> Layout:
    """Pad a corpus side with separators and find the positions next to a non-``O`` tag."""
    n_sent = len(encoded.lengths)
    offsets = encoded.offsets
    sentence_start = offsets[:-1] + np.arange(1, n_sent + 1, dtype=np.int64)
    size = len(encoded.codes) + n_sent + 1
    padded = np.zeros(size, dtype=_code_dtype(len(parsed.prefix)))
    if len(encoded.codes):
        token = np.ones(size, dtype=bool)
        token[offsets + np.arange(n_sent + 1, dtype=np.int64)] = False
        padded[token] = encoded.codes
    tagged = padded != 0
    active = np.flatnonzero(tagged[1:] | tagged[:-1]) + 1
    return Layout(padded, sentence_start, parsed, active)


def _sparse_ok(table: np.ndarray) -> bool:
    """True when a rule never fires on an ``O`` -> ``O`` transition."""
    return not table[0, 0].any()


class _View:
    """The positions a set of rules is evaluated at, with previous and current tag codes."""

    def __init__(self, lay: Layout, dense: bool):
        self.lay = lay
        self.positions = np.arange(1, len(lay.padded), dtype=np.int64) if dense else lay.active
        self.prev = lay.padded[self.positions - 1]
        self.cur = lay.padded[self.positions]
        n = len(lay.parsed.prefix)
        self.pair = self.prev.astype(np.int64) * n + self.cur if n <= _PAIR_TABLE_LIMIT else None

    def flags(self, table: np.ndarray) -> np.ndarray:
        """The rule flag at each position of the view."""
        parsed = self.lay.parsed
        if self.pair is not None:
            prefix, type_id = parsed.prefix, parsed.type_id
            same = (type_id[:, None] == type_id[None, :]).astype(np.int64)
            by_codes = table[prefix[:, None], prefix[None, :], same]
            return by_codes.reshape(-1)[self.pair]
        prev, cur = self.prev, self.cur
        index = (parsed.prefix[prev] * _NP + parsed.prefix[cur]) * 2 + (parsed.type_id[prev] == parsed.type_id[cur])
        return table.reshape(-1)[index]


def _to_spans(
    lay: Layout, begin: np.ndarray, end: np.ndarray, sentence: np.ndarray, type_pos: np.ndarray, types: tuple[str, ...]
) -> SpanArrays:
    base = lay.sentence_start[sentence]
    return SpanArrays(
        sentence.astype(np.int64),
        (begin - base).astype(np.int64),
        (end - base).astype(np.int64),
        lay.parsed.type_id[lay.padded[type_pos]],
        types,
        len(lay.sentence_start),
    )


def _sentence_of(lay: Layout, positions: np.ndarray) -> np.ndarray:
    return np.searchsorted(lay.sentence_start, positions, side="right") - 1


def decode_default(lay: Layout, rules: DefaultRules, types: tuple[str, ...]) -> SpanArrays:
    """Decode as conlleval / seqeval's default mode do: repair, never drop.

    A chunk closes at every end flag; it began at the latest start flag before
    that point. When no start flag lies in the same sentence (only possible with
    U-/L- tags outside their scheme, where seqeval reuses a stale offset from an
    earlier sentence) the chunk is clamped to the sentence's first token.
    """
    view = _View(lay, dense=not (_sparse_ok(rules.ends) and _sparse_ok(rules.starts)))
    ends = view.positions[view.flags(rules.ends)]
    starts = view.positions[view.flags(rules.starts)]
    last = np.searchsorted(starts, ends, side="left") - 1
    begin = starts[np.maximum(last, 0)] if len(starts) else np.zeros(len(ends), dtype=np.int64)
    begin = np.where(last >= 0, begin, 0)
    sentence = _sentence_of(lay, ends - 1)
    begin = np.maximum(begin, lay.sentence_start[sentence])
    return _to_spans(lay, begin, ends, sentence, ends - 1, types)


def decode_strict(lay: Layout, scheme: Scheme, types: tuple[str, ...]) -> SpanArrays:
    """Decode as seqeval's strict mode does: keep only chunks the scheme allows.

    A chunk starts at a start flag that is not already inside a running chunk,
    runs while the inside rule holds, and is kept only if the end rule holds at
    the first token past it. (Start and inside rules overlap only in IOB1's
    ``B-X I-X``, where the token continues the chunk begun before it.)
    """
    # Sparse positions are exact when no rule fires on O -> O, nothing is inside
    # next to an O, and no chunk starts on an O: then every token of a chunk and
    # the first token past it are active positions, consecutive ones.
    sparse = (
        _sparse_ok(scheme.starts) and _sparse_ok(scheme.ends)
        and not scheme.inside[0].any() and not scheme.inside[:, 0].any() and not scheme.starts[:, 0].any()
    )
    view = _View(lay, dense=not sparse)
    start = view.flags(scheme.starts)
    inside = view.flags(scheme.inside)
    end_ok = view.flags(scheme.ends)
    index = np.arange(len(start), dtype=np.int64)
    # run_head[j]: the last view index <= j that is not inside a chunk.
    run_head = np.maximum.accumulate(np.where(inside, 0, index))
    seen = np.concatenate(([0], np.cumsum(start)))
    starts_since_head = seen[index] - seen[run_head]
    first = np.flatnonzero(start & (starts_since_head == 0))
    breaks = np.flatnonzero(~inside)
    after = breaks[np.searchsorted(breaks, first, side="right")]
    keep = end_ok[after]
    begin, end = view.positions[first[keep]], view.positions[after[keep]]
    return _to_spans(lay, begin, end, _sentence_of(lay, begin), begin, types)
