"""Tag codes -> spans for one corpus side, as seqeval's default and strict decoders do.

``tests/reference.py`` states the same decoders as one loop per sentence
(``default_chunks``, ``strict_chunks``, ``invalid_chunks``); each function here
names the lines of that loop it computes, for every sentence at once.

The loops look a rule up for the step ``(prev, cur)`` onto every token and onto
the ``O`` seqeval appends to each sentence. Only the tagged tokens (every tag but
``O``) are read here: no rule of any table in :mod:`nested_span_f1.flat.schemes`
fires between two ``O`` tags, and no chunk holds an ``O`` but a repaired one
after a bare ``U``/``L`` (which is clamped to its sentence, below), so wherever
two tagged tokens are not neighbours in one sentence the rules see an ``O``
between them, as seqeval does. A rule lookup is a table lookup indexed by
``(previous prefix, current prefix, same type)``, made for all tagged tokens at
once; the chunks are read off the tokens where the rules fire.
"""
from __future__ import annotations

from typing import NamedTuple

import numpy as np

from ..core.spans import SpanArrays
from .encoding import Encoded
from .schemes import PREFIXES, SEQEVAL_DEFAULT, DefaultRules, Scheme
from .tags import ParsedTags


def decode(
    side: Encoded, parsed: ParsedTags, *, scheme: Scheme | None, strict: bool, rules: DefaultRules = SEQEVAL_DEFAULT,
    count_invalid: bool = True,
) -> tuple[SpanArrays, int]:
    """The side's chunks, and (with a scheme and ``count_invalid``) how many chunks the scheme rejects.

    ``strict``: keep only the chunks ``scheme`` allows (seqeval's strict mode);
    otherwise repair as ``rules`` say (seqeval's default mode, or conlleval's). The
    count (0 without a scheme) is what ``invalid_predicted_chunks`` /
    ``invalid_reference_chunks`` report: see :func:`_count_invalid`.
    """
    tagged = _Tagged(side, parsed, parsed.prefix)
    chunks = tagged.strict_chunks(scheme) if strict and scheme is not None else tagged.default_chunks(rules)
    # sentence-local spans; a chunk lies in the sentence of its last token
    offset, sentence = tagged.sentence_start.take(chunks.last), tagged.sentence.take(chunks.last)
    spans = SpanArrays(sentence, chunks.begin - offset, chunks.end - offset, chunks.type_id.astype(np.int64),
                       parsed.types, len(side.lengths))
    if scheme is None or not count_invalid:
        return spans, 0
    return spans, _count_invalid(side, parsed, tagged, chunks, scheme, strict=strict, rules=rules)


class Chunks(NamedTuple):
    """A decoder's chunks in corpus order, one per last token."""

    begin: np.ndarray
    """Position of the first token in the side's codes."""
    end: np.ndarray
    """Position after the last token (end exclusive)."""
    type_id: np.ndarray
    last: np.ndarray
    """The tagged index (see :class:`_Tagged`) of the last token."""


class _Tagged:
    """A side's tagged tokens and the two rule steps around each: what the reference loops look up.

    Tagged token ``k`` lies at ``position[k]`` in the side's codes. ``step_onto[k]``
    is the step ``(prev, cur)`` the loops look up when they reach it: from the token
    before it (an ``O`` when that one is untagged or in another sentence) onto it.
    ``step_from[k]`` is the step they look up next: from it onto the token after it
    (likewise an ``O`` when that is untagged or in another sentence). A step is an
    index into a rule table flattened from ``[previous prefix, current prefix, same
    type]``, so ``table.reshape(-1).take(step_onto)`` is the reference's
    ``_rule(table, prev, cur)`` for every tagged token at once.
    """

    def __init__(self, side: Encoded, parsed: ParsedTags, prefix_of: np.ndarray):
        self.position = np.flatnonzero(side.codes != 0)  # code 0 is O
        self.sentence = np.repeat(np.arange(len(side.lengths)), side.lengths).take(self.position)
        self.sentence_start = (np.cumsum(side.lengths) - side.lengths).take(self.sentence)
        codes = side.codes.take(self.position)
        # one byte a prefix and the narrowest type ids: these arrays are as long as the tagged tokens
        prefix = prefix_of.astype(np.int8).take(codes)
        self.type_id = parsed.type_id.astype(np.min_scalar_type(len(parsed.types))).take(codes)
        # adjacent[k]: tagged token k + 1 is the very next token after tagged token k, in the same sentence
        adjacent = (self.position[1:] == self.position[:-1] + 1) & (self.position[1:] != self.sentence_start[1:])
        # the other end of each step: the tagged neighbour, or an O ("O", "_") where none is adjacent
        prefix_before, prefix_after = np.zeros_like(prefix), np.zeros_like(prefix)  # prefix code 0 is O
        np.copyto(prefix_before[1:], prefix[:-1], where=adjacent)
        np.copyto(prefix_after[:-1], prefix[1:], where=adjacent)
        outside_type = parsed.type_id[0]
        type_before, type_after = np.full_like(self.type_id, outside_type), np.full_like(self.type_id, outside_type)
        np.copyto(type_before[1:], self.type_id[:-1], where=adjacent)
        np.copyto(type_after[:-1], self.type_id[1:], where=adjacent)
        n = np.int8(len(PREFIXES))
        self.step_onto = (prefix_before * n + prefix) * np.int8(2) + (type_before == self.type_id)
        self.step_from = (prefix * n + prefix_after) * np.int8(2) + (self.type_id == type_after)

    def default_chunks(self, rules: DefaultRules) -> Chunks:
        """The chunks of a repairing decoder: ``reference.default_chunks`` for every sentence at once.

        ``if _rule(rules.ends, prev, cur): chunks.append((begin, i, prev[1]))``: a chunk
        ends at each tagged token whose ``step_from`` fires an end rule (``ends_at``),
        with that token's type. ``if _rule(rules.starts, prev, cur): begin = i``: it
        began at the latest token at or before its last whose ``step_onto`` fires a
        start rule (``starts_at``, searched). ``begin = 0`` before each sentence: where
        no start lies in the chunk's sentence (only after a bare ``U``/``L``; seqeval
        would reuse a stale offset) it began at the sentence's first token.
        """
        ends_at = np.flatnonzero(rules.ends.reshape(-1).take(self.step_from))
        starts_at = np.flatnonzero(rules.starts.reshape(-1).take(self.step_onto))
        latest_start = np.searchsorted(starts_at, ends_at, side="right") - 1  # -1: no start before it
        start_position = self.position.take(starts_at.take(latest_start, mode="clip")) if len(starts_at) else 0
        begin = np.maximum(np.where(latest_start >= 0, start_position, 0), self.sentence_start.take(ends_at))
        return Chunks(begin, self.position.take(ends_at) + 1, self.type_id.take(ends_at), ends_at)

    def strict_chunks(self, scheme: Scheme) -> Chunks:
        """The chunks seqeval's strict mode keeps: ``reference.strict_chunks`` for every sentence at once.

        ``if _rule(scheme.starts, prev, tokens[i])``: a chunk may start at each tagged
        token whose ``step_onto`` fires a start rule (``starts_at``). ``while
        _rule(scheme.inside, ...): end += 1``: its run goes on over the tokens whose
        ``step_onto`` is an inside step (``continues``) and stops before ``stop``, the
        first tagged token after the start that does not continue it (no rule takes an
        ``O`` inside a chunk, so a run never crosses an untagged token). ``i = end``:
        the starts inside a run are skipped, so a start leads only where the previous
        start's run stopped at or before it (IOB1's ``B-X I-X`` is a start and an
        inside step: the run takes it; two starts in one run stop at the same token).
        ``if _rule(scheme.ends, ...)``: a run is kept when the ``step_from`` of its last
        token fires an end rule; its type is its first token's.
        """
        # False past the last tagged token: every run stops there
        continues = np.append(scheme.inside.reshape(-1).take(self.step_onto), False)
        starts_at = np.flatnonzero(scheme.starts.reshape(-1).take(self.step_onto))
        stops = np.flatnonzero(~continues)
        stop = stops.take(np.searchsorted(stops, starts_at, side="right"))
        leads = np.ones(len(starts_at), dtype=bool)
        leads[1:] = stop[:-1] <= starts_at[1:]
        first, last = starts_at[leads], stop[leads] - 1
        kept = scheme.ends.reshape(-1).take(self.step_from.take(last))
        first, last = first[kept], last[kept]
        return Chunks(self.position.take(first), self.position.take(last) + 1, self.type_id.take(first), last)


def _count_invalid(
    side: Encoded, parsed: ParsedTags, tagged: _Tagged, decoded: Chunks, scheme: Scheme, *, strict: bool,
    rules: DefaultRules,
) -> int:
    """How many chunks the scheme rejects: ``reference.invalid_chunks`` for every sentence at once.

    ``repaired``: the chunks the repairing decoder makes, reading the scheme's own
    prefixes as seqeval's default mode knows them (``read_as``: BILOU's ``U`` as
    ``S`` and ``L`` as ``E``, under seqeval's rules); ``kept``: the chunks strict mode
    keeps. The count is of the repaired chunks not kept, compared by (begin, end,
    type). ``tagged`` and ``decoded`` are what :func:`decode` already made: one of
    the two decodes, in the mode it decoded.
    """
    kept = decoded if strict else tagged.strict_chunks(scheme)
    if scheme.read_as:
        repaired = _Tagged(side, parsed, scheme.repair_prefix[parsed.prefix]).default_chunks(SEQEVAL_DEFAULT)
    else:
        repaired = tagged.default_chunks(rules) if strict else decoded
    if not len(kept.begin):
        return len(repaired.begin)
    # one int key a chunk; a decoder's chunks come in corpus order, one per last token, so the keys are sorted
    size, width = len(side.codes) + 1, int(max(repaired.type_id.max(initial=0), kept.type_id.max(initial=0))) + 1
    repaired_keys, kept_keys = ((chunks.begin * size + chunks.end) * width + chunks.type_id for chunks in (repaired, kept))
    found = kept_keys.take(np.searchsorted(kept_keys, repaired_keys), mode="clip") == repaired_keys
    return len(repaired_keys) - int(np.count_nonzero(found))
