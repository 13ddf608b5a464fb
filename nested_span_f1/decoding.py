"""Tag codes -> spans, for a whole corpus at once.

The corpus is laid out as one array with an ``O`` before the first sentence and
after every sentence, exactly the padding the reference decoders use, so chunks
never cross sentences. Every rule lookup is a vectorised table lookup indexed by
``(previous prefix, current prefix, same type)``; no Python loop runs per token.

Only the transitions that touch a non-``O`` tag can start, continue or end a
chunk (the tables never fire on ``O`` -> ``O``), so the rules are looked up at
those positions alone: about a quarter of the tokens in NER data. A rule table
that breaks this property is decoded densely, at every position. Arrays are
kept small (one byte a tag code) because fresh memory is a large part of the
cost at this speed, and masks select with ``compress`` (several times faster
than boolean indexing in numpy 2.4).
"""
from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from functools import cached_property
from itertools import accumulate

import numpy as np

from .labels import Encoded
from .matching import strictly_increasing
from .schemes import PREFIXES, DefaultRules, Scheme
from .spans import SpanArrays
from .tag_parsing import ParsedTags

_NP = len(PREFIXES)
_PAIR_TABLE_LIMIT = 256
"""Largest tag vocabulary for which a rule is expanded to a (code, code) table."""


@dataclass(frozen=True)
class Layout:
    """Corpus sides padded with ``O`` separators, one after another, as tag codes.

    ``padded[k]`` is the tag code at padded position ``k`` (0, ``O``, at the
    separators). ``before_active`` lists ``k - 1`` for the positions ``k >= 1``
    where ``padded[k - 1]`` or ``padded[k]`` is not ``O``, the only places a rule
    can fire (kept as ``k - 1``: both tags are then read without a shifted copy).
    """

    padded: np.ndarray
    separators: np.ndarray
    """Padded position of the separator before each sentence, and of the last one."""
    parsed: ParsedTags
    before_active: np.ndarray

    @cached_property
    def sentence_start(self) -> np.ndarray:
        """Padded position of each sentence's first token."""
        return self.separators[:-1] + 1

    @cached_property
    def sparse_view(self) -> _View:
        """The active positions with their tag codes, shared by every rule table."""
        return _View(self, self.before_active)

    def type_at(self, positions: np.ndarray) -> np.ndarray:
        """Type id of the tags at the padded ``positions``, in the narrowest unsigned type that holds them.

        Narrow ids and indexing with the narrow codes (not take(), which would first copy
        them to intp) keep the fresh memory small; widen before arithmetic that could overflow.
        """
        type_id: np.ndarray = self.parsed.type_id.astype(code_dtype(len(self.parsed.types)))
        return type_id[self.padded.take(positions)]


def code_dtype(n_codes: int) -> type:
    """The smallest unsigned integer type that holds ``n_codes`` tag codes."""
    if n_codes <= 1 << 8:
        return np.uint8
    if n_codes <= 1 << 16:
        return np.uint16
    return np.int64


def layout(sides: Sequence[Encoded], parsed: ParsedTags) -> Layout:
    """Pad the sides' sentences with separators, in order, and find the positions next to a non-``O`` tag.

    The sides are written straight into place and every working array is reused:
    on eval-sized inputs fresh memory (a page fault, some 3 us, per 4 KiB touched)
    is a large part of the cost.
    """
    edges = [0, *accumulate(len(side.lengths) for side in sides)]  # each side's first sentence, and the end
    spans = list(zip(sides, edges, edges[1:]))
    separators = np.zeros(edges[-1] + 1, dtype=np.int64)
    for side, first, end in spans:
        # the int64 loop: a length of 255 held in a byte would wrap to 0
        np.add(side.lengths, 1, out=separators[first + 1 : end + 1], dtype=np.int64)
    np.cumsum(separators, out=separators)
    size = int(separators[-1]) + 1
    padded: np.ndarray = np.zeros(size, dtype=code_dtype(len(parsed.prefix)))
    work = np.ones(size, dtype=bool)
    work[separators] = False
    for side, first, end in spans:
        start, stop = int(separators[first]), int(separators[end])
        padded[start:stop][work[start:stop]] = side.codes
    # a logical ufunc reads the codes as truth values: no array of "tagged" flags is needed
    near_tag = np.logical_or(padded[1:], padded[:-1], out=work[1:])
    return Layout(padded, separators, parsed, np.flatnonzero(near_tag))


def side_starts(lay: Layout, sides: Sequence[Encoded]) -> list[int]:
    """Padded position where each side after the first begins (past the end when it is empty and last)."""
    return [int(lay.separators[first]) + 1 for first in accumulate(len(side.lengths) for side in sides[:-1])]


def _sparse_ok(table: np.ndarray) -> bool:
    """True when a rule never fires on an ``O`` -> ``O`` transition."""
    return not table[0, 0].any()


class _View:
    """The positions a set of rules is evaluated at, with previous and current tag codes.

    With a small vocabulary the two codes are kept as one index into the code-pair
    table (``pair``), and not on their own: less memory stays alive through a decode.
    """

    def __init__(self, lay: Layout, before: np.ndarray):
        # the parsed table, not the layout: a layout caches its view, and a cycle would keep
        # both alive until the garbage collector runs (a block's arrays past its block)
        self.parsed = lay.parsed
        self.before = before
        """``k - 1`` for each position ``k`` of the view."""
        parsed, n = lay.parsed, len(lay.parsed.prefix)
        prev: np.ndarray = lay.padded.take(before)
        if n <= _PAIR_TABLE_LIMIT:
            # with up to 16 codes (CoNLL-2003 has 9) a pair index fits the codes' own byte: no copy
            pair: np.ndarray = prev.astype(code_dtype(n * n), copy=False)
            del prev
            pair *= n
            pair += lay.padded[1:].take(before)
            self.pair: np.ndarray | None = pair
            # whether two codes share a type: the third index of a rule expanded to code pairs
            self.same = (parsed.type_id[:, None] == parsed.type_id[None, :]).astype(np.int64)
        else:
            self.pair = None
            self.prev, self.cur = prev, lay.padded[1:].take(before)

    def positions(self, index: np.ndarray) -> np.ndarray:
        """Padded positions of the view entries ``index`` (a mask or indices)."""
        out = self.before.compress(index) if index.dtype == bool else self.before.take(index)
        out += 1
        return out

    def flags(self, *tables: np.ndarray) -> list[np.ndarray]:
        """Each rule table's flag at every position of the view.

        The tables are packed into the bits of one table, so the positions are
        looked up once however many rules are asked for.
        """
        packed = tables[0].astype(np.uint8)
        for bit, table in enumerate(tables[1:], 1):
            packed |= table.astype(np.uint8) << bit
        parsed = self.parsed
        if self.pair is not None:
            prefix = parsed.prefix
            by_codes = packed[prefix[:, None], prefix[None, :], self.same].reshape(-1)
            # indexing with the narrow pairs, not take(), which would first copy them to intp
            bits = by_codes[self.pair]
        else:
            prev, cur = self.prev, self.cur
            index = (parsed.prefix[prev] * _NP + parsed.prefix[cur]) * 2 + (parsed.type_id[prev] == parsed.type_id[cur])
            bits = packed.reshape(-1)[index]
        # 0/1 bytes read as bools: one new array a flag past the first, which takes the bits' place
        later = []
        for bit in range(1, len(tables)):
            flag = bits >> bit
            flag &= 1
            later.append(flag)
        bits &= 1
        return [flag.view(bool) for flag in (bits, *later)]


def _dense_view(lay: Layout) -> _View:
    return _View(lay, np.arange(len(lay.padded) - 1, dtype=np.int64))


def spans_at(lay: Layout, begin: np.ndarray, end: np.ndarray, type_pos: np.ndarray, types: tuple[str, ...]) -> SpanArrays:
    """Spans from padded positions; ``begin`` and ``end`` are consumed (reused as outputs)."""
    sentence = np.searchsorted(lay.sentence_start, begin, side="right")
    sentence -= 1
    base = lay.sentence_start[sentence]
    label = lay.type_at(type_pos).astype(np.int64)
    begin -= base
    end -= base
    return SpanArrays(sentence, begin, end, label, types, len(lay.sentence_start))


def default_bounds(lay: Layout, rules: DefaultRules) -> tuple[np.ndarray, np.ndarray]:
    """Padded (begin, end) of every chunk, decoded as conlleval / seqeval's default mode do.

    Default mode repairs and never drops: a chunk closes at every end flag and
    began at the latest start flag before that point. When no start flag lies in
    the same sentence (only possible with U-/L- tags outside their scheme, where
    seqeval reuses a stale offset from an earlier sentence) the chunk is clamped
    to the sentence's first token. In corpus order.
    """
    view = lay.sparse_view if _sparse_ok(rules.ends) and _sparse_ok(rules.starts) else _dense_view(lay)
    end_flags, start_flags = view.flags(rules.ends, rules.starts)
    ends, starts = view.positions(end_flags), view.positions(start_flags)
    if len(starts) == len(ends) and (starts < ends).all() and (starts[1:] >= ends[:-1]).all():
        # the usual case: every chunk has its own start flag, so no search is needed
        begin = starts
    else:
        last = np.searchsorted(starts, ends, side="left") - 1
        begin = starts[np.maximum(last, 0)] if len(starts) else np.zeros(len(ends), dtype=np.int64)
        begin = np.where(last >= 0, begin, 0)
    if not _ends_at_every_o(lay, rules):
        # a chunk may run over an O and past its sentence: keep it in the sentence it ends in
        sentence = np.searchsorted(lay.sentence_start, ends - 1, side="right") - 1
        np.maximum(begin, lay.sentence_start[sentence], out=begin)
    return begin, ends


def _ends_at_every_o(lay: Layout, rules: DefaultRules) -> bool:
    """True when every tag of the vocabulary ends its chunk before an ``O``.

    Chunks then never contain an ``O``, so none crosses a sentence separator.
    (seqeval's rules end them everywhere except after bare ``U``/``L`` tags.)
    """
    parsed = lay.parsed
    tagged = parsed.prefix != 0
    same_as_o = (parsed.type_id == parsed.type_id[0]).astype(np.int64)
    return bool(rules.ends[parsed.prefix[tagged], 0, same_as_o[tagged]].all())


def group_sizes(positions: np.ndarray, cuts: Sequence[int]) -> tuple[int, ...]:
    """How many of the sorted ``positions`` lie before ``cuts[0]``, between each cut and the next, and from the last on."""
    edges = [0, *np.searchsorted(positions, cuts).tolist(), len(positions)]
    return tuple(b - a for a, b in zip(edges, edges[1:]))


def default_chunk_counts(lay: Layout, rules: DefaultRules, cuts: Sequence[int]) -> tuple[int, ...]:
    """How many chunks the default decoder closes in each group of sides (see :func:`group_sizes`).

    ``cuts``: the padded position where each side after the first begins. Every end
    flag closes one chunk, so the flags are counted and no chunk is built.
    """
    view = lay.sparse_view if _sparse_ok(rules.ends) else _dense_view(lay)
    (ends,) = view.flags(rules.ends)
    # the flag at view entry i closes a chunk just before position before[i] + 1; a
    # side's last chunk closes at the separator just before the next side begins
    edges = [0, *np.searchsorted(view.before, [c - 1 for c in cuts]).tolist(), len(ends)]
    return tuple(int(np.count_nonzero(ends[a:b])) for a, b in zip(edges, edges[1:]))


def strict_bounds(lay: Layout, scheme: Scheme) -> tuple[np.ndarray, np.ndarray]:
    """Padded (begin, end) of every chunk seqeval's strict mode keeps, in corpus order.

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
    view = lay.sparse_view if sparse else _dense_view(lay)
    start, inside, end = view.flags(scheme.starts, scheme.inside, scheme.ends)
    first = np.flatnonzero(start)
    continuing = inside.take(first)
    if continuing.any():
        # A start flag inside a running chunk begins a chunk only when no start flag
        # lies between the run's head (the last index not inside a chunk) and it.
        breaks = np.flatnonzero(~inside)
        rank = np.flatnonzero(continuing)
        last = np.searchsorted(breaks, first[rank], side="right") - 1
        head = np.where(last >= 0, breaks[np.maximum(last, 0)] if len(breaks) else 0, 0)
        begins = np.ones(len(first), dtype=bool)
        begins[rank] = rank == np.searchsorted(first, head, side="left")
        first = first.compress(begins)
    # after[i]: the first view index past chunk i that is not inside it
    if sparse:
        # the view ends with a position outside every chunk (the trailing separator or an O)
        after = first + 1
        running = np.flatnonzero(inside.take(after))
        if len(running):
            run_end = np.flatnonzero(inside[:-1] > inside[1:])  # inside, then not
            run_end += 1
            after[running] = run_end[np.searchsorted(run_end, after.take(running), side="right")]
    else:
        breaks = np.flatnonzero(~inside)
        after = breaks[np.searchsorted(breaks, first, side="right")]
    keep = end.take(after)
    return view.positions(first.compress(keep)), view.positions(after.compress(keep))


def position_keys_fit(lay: Layout) -> bool:
    """True when a chunk's (begin, end, type) packed from padded positions fits an int64 key."""
    return len(lay.padded) ** 2 * max(len(lay.parsed.types), 1) < 2**62


def count_missing(lay: Layout, kept: tuple[np.ndarray, ...], label_at: np.ndarray,
                  other: tuple[np.ndarray, ...], other_label_at: np.ndarray, cuts: Sequence[int]) -> tuple[int, ...]:
    """How many (begin, end, label) chunks of ``kept`` are not in ``other``, per group of sides.

    ``kept`` and ``other``: (begin, end) padded positions in corpus order;
    ``label_at``: the padded position whose type labels each chunk. ``cuts``: the
    padded position where each side after the first begins; the counts are per
    group, as :func:`group_sizes` cuts them.
    """
    kept_type, other_type = lay.type_at(label_at), lay.type_at(other_label_at)
    if strictly_increasing(kept[0]) and strictly_increasing(other[0]):
        # a begin names at most one chunk on either side: find it, then compare end and type
        found = np.zeros(len(kept[0]), dtype=bool)
        if len(other[0]):
            at = np.searchsorted(other[0], kept[0])
            np.minimum(at, len(other[0]) - 1, out=at)
            np.equal(other[0].take(at), kept[0], out=found)
            found &= other[1].take(at) == kept[1]
            found &= other_type.take(at) == kept_type
        edges = [0, *np.searchsorted(kept[0], cuts).tolist(), len(found)]
        return tuple(b - a - int(np.count_nonzero(found[a:b])) for a, b in zip(edges, edges[1:]))
    rows = [set(zip(b[0].tolist(), b[1].tolist(), types.tolist())) for b, types in ((kept, kept_type), (other, other_type))]
    missing = np.array(sorted(begin for begin, _, _ in rows[0] - rows[1]), dtype=np.int64)
    return group_sizes(missing, cuts)
