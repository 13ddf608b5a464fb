"""Tag codes -> spans for one corpus side, as seqeval's default and strict decoders do.

Only the tagged tokens (every tag but ``O``) are read. No rule of any table in
:mod:`nested_span_f1.flat.schemes` fires between two ``O`` tags, and no chunk holds an
``O`` but a repaired one after a bare ``U``/``L`` (which is clamped to its
sentence, below), so wherever two tagged tokens are not neighbours in one
sentence the rules see an ``O`` between them, as seqeval sees the ``O`` it appends
to every sentence. Each rule is a table lookup indexed by ``(previous prefix,
current prefix, same type)``, made for all tagged tokens at once; the chunks are
read off the tokens where the rules fire. ``tests/reference.py`` states the same
decoders as one loop per sentence.
"""
from __future__ import annotations

import numpy as np

from ..core.spans import SpanArrays
from .encoding import Encoded
from .schemes import PREFIXES, SEQEVAL_DEFAULT, DefaultRules, Scheme
from .tags import ParsedTags


def decode(
    side: Encoded, parsed: ParsedTags, *, scheme: Scheme | None, strict: bool, rules: DefaultRules = SEQEVAL_DEFAULT
) -> tuple[SpanArrays, int | None]:
    """The side's chunks, and (with a scheme) how many of its repaired chunks the scheme rejects.

    ``strict``: keep only the chunks ``scheme`` allows (seqeval's strict mode);
    otherwise repair as ``rules`` say (seqeval's default mode, or conlleval's).
    A rejected chunk is one the default decoder makes (reading the scheme's own
    prefixes as seqeval's default mode knows them) that strict mode drops; the
    count is what ``invalid_predicted_chunks`` / ``invalid_reference_chunks`` report.
    """
    tags = _Tagged(side, parsed, parsed.prefix)
    chunks = tags.strict_chunks(scheme) if strict and scheme is not None else tags.default_chunks(rules)
    # sentence-local spans; a chunk lies in the sentence of its last token
    begin, end, type_id, last = chunks
    offset, sentence = tags.sentence_start.take(last), tags.sentence.take(last)
    spans = SpanArrays(sentence, begin - offset, end - offset, type_id.astype(np.int64), parsed.types, len(side.lengths))
    if scheme is None:
        return spans, None
    kept = chunks if strict else tags.strict_chunks(scheme)
    if scheme.read_as:
        repaired = _Tagged(side, parsed, scheme.repair_prefix[parsed.prefix]).default_chunks(SEQEVAL_DEFAULT)
    else:
        repaired = tags.default_chunks(rules) if strict else chunks
    return spans, _count_missing(repaired, kept, len(side.codes) + 1)


Chunks = tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]
"""(begin, end, type id, last): token positions (end exclusive), and the tagged index of each chunk's last token."""


class _Tagged:
    """A side's tagged tokens and the steps the rules look at around each.

    ``position[k]``: where tagged token ``k`` lies in the side's codes. ``into[k]``
    indexes the rule tables for the step onto token ``k`` (from the token before
    it, or an ``O`` when that is not tagged or in another sentence); ``onward[k]``
    for the step from token ``k`` to the token after it (or an ``O``).
    """

    def __init__(self, side: Encoded, parsed: ParsedTags, prefix_of: np.ndarray):
        self.position = np.flatnonzero(side.codes != 0)  # code 0 is O
        self.sentence = np.repeat(np.arange(len(side.lengths)), side.lengths).take(self.position)
        self.sentence_start = (np.cumsum(side.lengths) - side.lengths).take(self.sentence)
        codes = side.codes.take(self.position)
        # one byte a prefix and the narrowest type ids: these arrays are as long as the tagged tokens
        prefix = prefix_of.astype(np.int8).take(codes)
        self.type_id = parsed.type_id.astype(np.min_scalar_type(len(parsed.types))).take(codes)
        # whether tagged token k + 1 follows tagged token k directly, in the same sentence
        follows = (self.position[1:] == self.position[:-1] + 1) & (self.position[1:] != self.sentence_start[1:])
        outside_type = parsed.type_id[0]
        previous, following = np.zeros_like(prefix), np.zeros_like(prefix)  # O where nothing tagged is next to it
        np.copyto(previous[1:], prefix[:-1], where=follows)
        np.copyto(following[:-1], prefix[1:], where=follows)
        previous_type = np.full_like(self.type_id, outside_type)
        following_type = np.full_like(self.type_id, outside_type)
        np.copyto(previous_type[1:], self.type_id[:-1], where=follows)
        np.copyto(following_type[:-1], self.type_id[1:], where=follows)
        self.into = (previous * np.int8(len(PREFIXES)) + prefix) * np.int8(2) + (previous_type == self.type_id)
        self.onward = (prefix * np.int8(len(PREFIXES)) + following) * np.int8(2) + (self.type_id == following_type)

    def default_chunks(self, rules: DefaultRules) -> Chunks:
        """The chunks of a repairing decoder.

        A chunk ends after each tagged token whose onward step fires an end rule, and
        began at the latest token whose step onto it fires a start rule; when no such
        token lies in its sentence (only after a bare ``U``/``L``, where seqeval would
        reuse a stale offset) it began at the sentence's first token.
        """
        last = np.flatnonzero(rules.ends.reshape(-1).take(self.onward))
        first = np.flatnonzero(rules.starts.reshape(-1).take(self.into))
        latest = np.searchsorted(first, last, side="right") - 1
        sentence_start = self.sentence_start.take(last)
        begin = np.where(latest >= 0, self.position.take(first.take(latest, mode="clip")) if len(first) else 0, 0)
        return np.maximum(begin, sentence_start), self.position.take(last) + 1, self.type_id.take(last), last

    def strict_chunks(self, scheme: Scheme) -> Chunks:
        """The chunks seqeval's strict mode keeps.

        seqeval's loop begins a chunk at a start that no running chunk covers, runs
        it while the inside rule holds, and keeps it when the end rule holds on the
        step past it. So a start is covered exactly when the previous start's run
        reaches past it (IOB1's ``B-X I-X`` is both a start and an inside step: the
        token continues the run). No rule takes an ``O`` inside a chunk.
        """
        inside = np.append(scheme.inside.reshape(-1).take(self.into), False)
        first = np.flatnonzero(scheme.starts.reshape(-1).take(self.into))
        # past[i]: the first tagged token after start i that the inside rule does not take
        inside_at = np.flatnonzero(inside)
        run_last = inside_at[np.append(inside_at[1:] != inside_at[:-1] + 1, True)] if len(inside_at) else inside_at
        past = first + 1
        running = inside.take(past)
        past[running] = run_last.take(np.searchsorted(run_last, past[running])) + 1
        leads = np.ones(len(first), dtype=bool)
        leads[1:] = past[:-1] <= first[1:]
        first, last = first[leads], past[leads] - 1
        keep = scheme.ends.reshape(-1).take(self.onward.take(last))
        first, last = first[keep], last[keep]
        return self.position.take(first), self.position.take(last) + 1, self.type_id.take(first), last


def _count_missing(chunks: Chunks, kept: Chunks, size: int) -> int:
    """How many of ``chunks`` (begin, end, type) are not among ``kept``.

    Each decode's chunks come in corpus order, one per end, so their keys are sorted and distinct.
    """
    if not len(kept[0]):
        return len(chunks[0])
    width = int(max(chunks[2].max(initial=0), kept[2].max(initial=0))) + 1
    keys, kept_keys = ((c[0] * size + c[1]) * width + c[2] for c in (chunks, kept))
    found = kept_keys.take(np.searchsorted(kept_keys, keys), mode="clip") == keys
    return len(keys) - int(np.count_nonzero(found))
