"""Tag codes -> spans for one corpus side, as seqeval's default and strict decoders do.

Each sentence is read with an ``O`` before it and an ``O`` after it (seqeval
appends one ``O`` to every sentence), so chunks never cross sentences. Each
rule of a table in :mod:`nested_span_f1.schemes` is looked up at every
transition (previous tag, current tag) of the side at once; the chunks are
then read off the positions where the rules fire. ``tests/reference.py``
states the same decoders as one loop per sentence.
"""
from __future__ import annotations

import numpy as np

from .encoding import EncodedPair
from .schemes import PREFIXES, SEQEVAL_DEFAULT, DefaultRules, Scheme
from .spans import SpanArrays
from .tag_parsing import ParsedTags


def decode(
    pair: EncodedPair, parsed: ParsedTags, *, scheme: Scheme | None, strict: bool, rules: DefaultRules = SEQEVAL_DEFAULT
) -> tuple[SpanArrays, SpanArrays, dict[str, int]]:
    """Both sides' chunks, and (with a scheme) how many of each side's repaired chunks the scheme rejects.

    ``strict``: keep only the chunks ``scheme`` allows (seqeval's strict mode);
    otherwise repair as ``rules`` say (seqeval's default mode, or conlleval's).
    A rejected chunk is one the default decoder makes (reading the scheme's own
    prefixes as seqeval's default mode knows them) that strict mode drops; the
    counts are the notes ``invalid_predicted_chunks`` / ``invalid_reference_chunks``.
    """
    layout = _Layout(pair.references.lengths)
    sides, notes = [], {}
    for name, side in zip(("predicted", "reference"), (pair.predictions, pair.references)):
        tags = _Tags(layout, side.codes, parsed.prefix, parsed)
        chunks = tags.strict_chunks(scheme) if strict and scheme is not None else tags.default_chunks(rules)
        sides.append(layout.spans(*chunks, parsed.types))
        if scheme is not None:
            kept = chunks if strict else tags.strict_chunks(scheme)
            if scheme.read_as:
                repaired = _Tags(layout, side.codes, scheme.repair_prefix[parsed.prefix], parsed).default_chunks(SEQEVAL_DEFAULT)
            else:
                repaired = tags.default_chunks(rules) if strict else chunks
            notes[f"invalid_{name}_chunks"] = _count_missing(repaired, kept, layout.size)
    return sides[0], sides[1], notes


class _Layout:
    """Where a pair's sentences lie once each gets an ``O`` before it and the last one an ``O`` after it.

    Both sides have the same sentence lengths, so they share one layout.
    """

    def __init__(self, lengths: np.ndarray):
        n = len(lengths)
        separators = np.zeros(n + 1, dtype=np.int64)
        np.cumsum(lengths + 1, out=separators[1:])
        self.n_sentences, self.size = n, int(separators[-1]) + 1
        self.sentence_start = separators[:-1] + 1
        self.is_token = np.ones(self.size, dtype=bool)
        self.is_token[separators] = False
        self.sentence_of = np.repeat(np.arange(n, dtype=np.int64), lengths + 1)
        """Sentence of each padded position but the last (a separator counts with the sentence after it)."""

    def spans(self, begin: np.ndarray, end: np.ndarray, type_id: np.ndarray, types: tuple[str, ...]) -> SpanArrays:
        """Chunks at padded positions as sentence-local spans."""
        sentence = self.sentence_of.take(begin)
        offset = self.sentence_start.take(sentence)
        return SpanArrays(sentence, begin - offset, end - offset, type_id.astype(np.int64), types, self.n_sentences)


class _Tags:
    """One side's tags at the padded positions of a layout, ready for rule lookups.

    ``transition[k - 1]`` indexes the rule tables for the step from position
    ``k - 1`` to position ``k``: ``(previous prefix, current prefix, same type)``.
    """

    def __init__(self, layout: _Layout, codes: np.ndarray, prefix_of: np.ndarray, parsed: ParsedTags):
        self.layout = layout
        padded = np.zeros(layout.size, dtype=codes.dtype)
        padded[layout.is_token] = codes
        # one byte a prefix, the narrowest type ids, and take() rather than indexing: these
        # arrays are as long as the corpus, so their memory is most of the cost
        self.type_id = parsed.type_id.astype(np.min_scalar_type(len(parsed.types))).take(padded)
        prefix = prefix_of.astype(np.int8).take(padded)
        transition = prefix[:-1] * np.int8(len(PREFIXES))
        transition += prefix[1:]
        transition *= 2
        transition += self.type_id[:-1] == self.type_id[1:]
        self.transition = transition

    def fires(self, table: np.ndarray) -> np.ndarray:
        """Bool per step: whether the rule ``table`` holds from position ``k - 1`` to ``k`` (index ``k - 1``)."""
        return table.reshape(-1).take(self.transition)

    def default_chunks(self, rules: DefaultRules) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        """(begin, end, type id) of the chunks of a repairing decoder, padded positions, end exclusive.

        A chunk ends wherever an end rule fires and began at the latest start before
        that, or at its sentence's first token when no start lies in the sentence
        (seqeval would reuse a stale offset there, which only bare U-/L- tags reach).
        """
        end = np.flatnonzero(self.fires(rules.ends)) + 1
        start = np.flatnonzero(self.fires(rules.starts)) + 1
        latest = np.searchsorted(start, end, side="left") - 1
        begin = start.take(latest, mode="clip") if len(start) else np.zeros_like(end)
        first_token = self.layout.sentence_start.take(self.layout.sentence_of.take(end - 1))
        begin = np.where(latest >= 0, np.maximum(begin, first_token), first_token)
        return begin, end, self.type_id.take(end - 1)

    def strict_chunks(self, scheme: Scheme) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        """(begin, end, type id) of the chunks seqeval's strict mode keeps, padded positions, end exclusive.

        seqeval's loop begins a chunk at a start that no running chunk covers, runs
        it while the inside rule holds, and keeps it when the end rule holds at the
        first step past it. So a start is covered exactly when the previous start's
        run reaches past it (IOB1's ``B-X I-X`` is both a start and an inside step:
        the token continues the run). No rule reaches or starts at an ``O``, so runs
        and chunks stay in their sentence.
        """
        start, inside, end = self.fires(scheme.starts), self.fires(scheme.inside), self.fires(scheme.ends)
        first = np.flatnonzero(start)
        # after[i]: the first step past start i that the inside rule does not take
        inside_at = np.flatnonzero(inside)
        run_last = inside_at[np.append(inside_at[1:] != inside_at[:-1] + 1, True)] if len(inside_at) else inside_at
        after = first + 1
        running = inside.take(after)
        after[running] = run_last.take(np.searchsorted(run_last, after[running])) + 1
        leads = np.ones(len(first), dtype=bool)
        leads[1:] = after[:-1] <= first[1:]
        first, after = first[leads], after[leads]
        keep = end.take(after)
        begin = first[keep] + 1
        return begin, after[keep] + 1, self.type_id.take(begin)


def _count_missing(chunks: tuple[np.ndarray, ...], kept: tuple[np.ndarray, ...], size: int) -> int:
    """How many of ``chunks`` (begin, end, type) are not among ``kept`` (the chunks of one decode are distinct)."""
    width = int(max(chunks[2].max(initial=0), kept[2].max(initial=0))) + 1
    keys, kept_keys = ((c[0] * size + c[1]) * width + c[2] for c in (chunks, kept))
    return int(len(chunks[0]) - np.isin(keys, kept_keys, assume_unique=True, kind="sort").sum())
