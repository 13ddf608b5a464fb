"""Flat tag sequences -> spans -> counts -> scores: the ``span_f1`` pipeline.

``mode=None`` decodes as seqeval's default mode (conlleval-compatible: malformed
chunks are repaired); ``mode="strict"`` decodes as seqeval's strict mode for a
scheme (malformed chunks are dropped). When the scheme is known (passed, or
detected by strict mode as seqeval does) the chunks it rejects are counted as
``invalid_predicted_chunks`` / ``invalid_reference_chunks``, so a user sees how
far the two modes are apart and why. Without a scheme there is nothing to
count against: guessing one per call would make the counts of two batches
disagree with the counts of their union.
"""
from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass, replace
from functools import cached_property
from typing import Any

import numpy as np

from .counts import Counts
from .decoding import (
    Layout,
    count_missing,
    default_bounds,
    default_chunk_counts,
    group_sizes,
    layout,
    position_keys_fit,
    side_starts,
    spans_at,
    strict_bounds,
)
from .heap import keep_freed_memory
from .label_ids import encode_ids
from .labels import Encoded
from .matching import match_exact, match_runs
from .pair_encoding import SIDES, Agreement, encode_pair, whole
from .schemes import (
    PREFIXES,
    SEQEVAL_DEFAULT,
    DefaultRules,
    Scheme,
    detect_scheme,
    get_scheme,
    kept_chunks_are_default_chunks,
)
from .scores import ZeroDivision, summarize
from .spans import SpanArrays
from .tag_parsing import ParsedTags, parse_tags

MODES = (None, "default", "strict")


@dataclass(frozen=True)
class Decoded:
    """Both sides of a tagged corpus, decoded, with what the chosen mode repaired or dropped.

    The chunks are padded positions in one layout of both sides (predicted
    sentences first, in corpus order): ``counts()`` matches them as they are, and
    ``predictions`` / ``references`` turn them into spans on first use.

    When counting is all that is wanted, the sentences the predictions got exactly
    right can be left out of both sides and decoded once, after them, as ``agreed``:
    every chunk there is predicted, referenced and matched. ``predictions`` /
    ``references`` then hold the spans of the other sentences only.
    """

    layout: Layout
    begin: np.ndarray
    end: np.ndarray
    type_at: np.ndarray
    """Padded position whose tag names each chunk's type."""
    encoded_predictions: Encoded
    encoded_references: Encoded
    scheme: Scheme | None
    notes: dict[str, int]
    agreed: Encoded | None = None

    @cached_property
    def _sides(self) -> tuple[SpanArrays, SpanArrays]:
        lay, stop = self.layout, self._agreed_from
        spans = spans_at(lay, self.begin[:stop].copy(), self.end[:stop].copy(), self.type_at[:stop], lay.parsed.types)
        return spans.split(len(self.encoded_predictions.lengths), len(self.encoded_references.lengths))

    @cached_property
    def _starts(self) -> list[int]:
        """Padded position where each side after the first begins."""
        return side_starts(self.layout, self._encoded)

    @cached_property
    def _agreed_from(self) -> int:
        """Index of the first chunk of the agreed sentences (the number of chunks when there are none)."""
        if self.agreed is None:
            return len(self.begin)
        return int(np.searchsorted(self.begin, self._starts[1]))

    @property
    def predictions(self) -> SpanArrays:
        return self._sides[0]

    @property
    def references(self) -> SpanArrays:
        return self._sides[1]

    @property
    def _encoded(self) -> tuple[Encoded, ...]:
        """The sides in layout order."""
        pair = (self.encoded_predictions, self.encoded_references)
        return pair if self.agreed is None else (*pair, self.agreed)

    def counts(self) -> Counts:
        """Exact-match counts plus token accuracy and the invalid-chunk notes."""
        matched = self._match()
        tokens = len(self.encoded_references.codes)
        correct = int(np.count_nonzero(self.encoded_predictions.codes == self.encoded_references.codes))
        if self.agreed is not None:
            tokens += len(self.agreed.codes)
            correct += len(self.agreed.codes)
        return Counts(matched.labels, matched.untyped, tokens, correct, self.notes)

    def _match(self) -> Counts:
        """Match on (begin, end) padded positions, the reference side shifted onto the predicted one."""
        lay = self.layout
        size, types = len(lay.padded), lay.parsed.types
        label, stop = lay.type_at(self.type_at), self._agreed_from
        # an agreed chunk is predicted, referenced and matched
        if not position_keys_fit(lay):
            return match_exact(self.predictions, self.references, label[stop:])
        first_reference = self._starts[0]
        cut = int(np.searchsorted(self.begin, first_reference))  # chunks are in corpus order
        bounds = self.begin[:stop] * size
        bounds += self.end[:stop]
        if cut < stop:
            # both sides have the same sentence lengths, so a fixed shift (the distance between
            # their first separators) maps one onto the other
            bounds[cut:] -= (first_reference - 1) * (size + 1)
        return match_runs(bounds, label[:stop], cut, types, label[stop:])


def _fail(side: str, enc: Encoded, codes: np.ndarray, message: Callable[[int], str]) -> None:
    """Raise for whichever of ``codes`` occurs first in this side (the order of codes is the
    order tags were met in, which is not the order of the corpus)."""
    first = int(np.argmax(np.isin(enc.codes, codes)))
    code = int(enc.codes[first])
    s, p = enc.locate(first)
    raise ValueError(f"{side}, sentence {s}, token {p}: tag {enc.tags[code]!r}: {message(code)}")


def _present(enc: Encoded) -> np.ndarray:
    """Bool mask over tag codes: which codes occur in this side."""
    return np.bincount(enc.codes, minlength=len(enc.tags)) > 0


Sides = Callable[[], dict[str, Encoded]]
"""The sides whole, by name: asked for only where an error must name a bad tag's place."""


def _parse(tags: tuple[str, ...], sides: Sides, suffix: bool) -> ParsedTags:
    """Parse the shared tag vocabulary; fail on the first malformed tag actually used."""
    parsed, problems = parse_tags(tags, suffix)
    if problems:
        bad = np.fromiter(problems, dtype=np.int64, count=len(problems))
        for side, enc in sides().items():
            if _present(enc)[bad].any():
                _fail(side, enc, bad, lambda code: f"malformed: {problems[code]}")
    return parsed


def _check_scheme(sides: Sides, parsed: ParsedTags, scheme: Scheme) -> None:
    if scheme.allowed[parsed.prefix].all():
        return

    def outside(code: int) -> str:
        return (f"prefix {PREFIXES[parsed.prefix[code]]} is not part of scheme {scheme.name} "
                f"(allowed: {', '.join(scheme.letters)}); pick the scheme the tags use, or mode=None")

    for side, enc in sides().items():
        present = np.flatnonzero(_present(enc))
        bad = present[~scheme.allowed[parsed.prefix[present]]]
        if len(bad):
            _fail(side, enc, bad, outside)


@dataclass(frozen=True)
class _Prepared:
    """Both sides encoded and checked, with the shared tag table and the scheme chosen."""

    encoded: tuple[Encoded, Encoded] | Agreement
    parsed: ParsedTags
    scheme: Scheme | None
    strict: bool
    default_rules: DefaultRules
    kept_are_default: bool = False
    """Strict mode keeps a subset of the default decoder's chunks (see ``kept_chunks_are_default_chunks``)."""

    @property
    def agreement(self) -> Agreement | None:
        """The sides split into the sentences the predictions got wrong and those they got right."""
        return self.encoded if isinstance(self.encoded, Agreement) else None

    @property
    def predictions(self) -> Encoded:
        return whole(self.encoded)[0]

    @property
    def references(self) -> Encoded:
        return whole(self.encoded)[1]


def _reference_tags(encoded: tuple[Encoded, Encoded] | Agreement) -> np.ndarray:
    """Bool mask over tag codes: which codes occur in the references."""
    if isinstance(encoded, Agreement):
        return _present(encoded.references) | _present(encoded.agreed)
    return _present(encoded[1])


def _prepare(
    predictions: Any,
    references: Any,
    *,
    scheme: str | Scheme | None = None,
    mode: str | None = None,
    suffix: bool = False,
    label_list: Sequence[str] | None = None,
    default_rules: DefaultRules = SEQEVAL_DEFAULT,
    names: tuple[str, str] = SIDES,
) -> _Prepared:
    if mode not in MODES:
        raise ValueError(f'mode must be None (conlleval-style repair) or "strict", got {mode!r}')
    strict = mode == "strict"
    encoded: tuple[Encoded, Encoded] | Agreement
    if label_list is not None:
        encoded = encode_ids(predictions, references, label_list)
    else:
        encoded = encode_pair(predictions, references, names)

    def sides() -> dict[str, Encoded]:
        return dict(zip(names, whole(encoded)))  # one entry when both names are the same

    tags = encoded.tags if isinstance(encoded, Agreement) else encoded[0].tags
    parsed = _parse(tags, sides, suffix)
    chosen = get_scheme(scheme) if scheme is not None else None
    if strict:
        if chosen is None:
            # seqeval detects the strict scheme from the references
            present = parsed.prefix[_reference_tags(encoded)]
            chosen = detect_scheme(np.flatnonzero(np.bincount(present, minlength=len(PREFIXES))))
            if chosen is None:
                raise ValueError("mode='strict' needs a scheme: pass scheme='IOB2' (or IOB1, IOE1, IOE2, IOBES, BILOU, IO)")
        _check_scheme(sides, parsed, chosen)
    elif chosen is not None:
        # every tag of a string vocabulary occurs somewhere (O aside, which no scheme lacks)
        used = parsed.prefix if _complete(encoded) else parsed.prefix[_used(sides())]
        present = np.flatnonzero(np.bincount(used, minlength=len(PREFIXES)))
        if not chosen.allowed[present].all():
            # default mode ignores a scheme the tags do not follow, as seqeval does
            chosen = None
    kept_are_default = chosen is not None and kept_chunks_are_default_chunks(
        chosen, SEQEVAL_DEFAULT if chosen.read_as else default_rules
    )
    return _Prepared(encoded, parsed, chosen, strict, default_rules, kept_are_default)


def _complete(encoded: tuple[Encoded, Encoded] | Agreement) -> bool:
    """True when every tag of the vocabulary occurs on one side or the other (string input)."""
    return isinstance(encoded, Agreement) or encoded[0].complete


def _used(sides: dict[str, Encoded]) -> np.ndarray:
    """Bool mask over tag codes: which codes occur on either side."""
    return np.logical_or.reduce([_present(enc) for enc in sides.values()])


def _decode(prep: _Prepared, pred: Encoded, ref: Encoded, agreed: Encoded | None = None) -> Decoded:
    # both sides in one layout (predicted sentences, then reference sentences, then any agreed
    # ones): decoding all at once saves array operations, most of the cost on eval-sized inputs
    sides = (pred, ref) if agreed is None else (pred, ref, agreed)
    lay = layout(sides, prep.parsed)
    if prep.scheme is None:
        begin, end = default_bounds(lay, prep.default_rules)
        return Decoded(lay, begin, end, end - 1, pred, ref, None, {}, agreed)
    kept = strict_bounds(lay, prep.scheme)
    default = None if prep.strict else default_bounds(lay, prep.default_rules)
    invalid = _invalid_chunks(prep, prep.scheme, lay, kept, default, side_starts(lay, sides))
    both = sum(invalid[2:])  # an agreed sentence's dropped chunks are dropped on both sides
    notes = {"invalid_predicted_chunks": invalid[0] + both, "invalid_reference_chunks": invalid[1] + both}
    if default is None:
        return Decoded(lay, kept[0], kept[1], kept[0], pred, ref, prep.scheme, notes, agreed)
    return Decoded(lay, default[0], default[1], default[1] - 1, pred, ref, prep.scheme, notes, agreed)


def _invalid_chunks(
    prep: _Prepared, scheme: Scheme, lay: Layout, kept: tuple[np.ndarray, np.ndarray],
    default: tuple[np.ndarray, np.ndarray] | None, cuts: Sequence[int],
) -> tuple[int, ...]:
    """How many chunks strict mode drops on each side: the repaired default chunks it does not keep.

    ``kept``: strict mode's chunks; ``default``: the default decoder's, when they were decoded;
    ``cuts``: where each side after the first begins. One count per side.
    """
    repaired_lay, rules = lay, prep.default_rules
    if scheme.read_as:
        # the default decoder reads the scheme's own prefixes as seqeval's default mode knows them
        parsed = lay.parsed
        repaired_lay = replace(lay, parsed=ParsedTags(scheme.repair_prefix[parsed.prefix], parsed.type_id, parsed.types))
        rules, default = SEQEVAL_DEFAULT, None
    if prep.kept_are_default:
        # strict mode keeps a subset of the repaired chunks: what it drops is a difference in number
        if default is None:
            repaired = default_chunk_counts(repaired_lay, rules, cuts)
        else:
            repaired = group_sizes(default[1], cuts)  # chunks are in corpus order of their ends
        held = group_sizes(kept[0], cuts)
        return tuple(r - h for r, h in zip(repaired, held))
    bounds = default if default is not None else default_bounds(repaired_lay, rules)
    return count_missing(lay, bounds, bounds[1] - 1, kept, kept[0], cuts)


def decode_pair(
    predictions: Any,
    references: Any,
    *,
    scheme: str | Scheme | None = None,
    mode: str | None = None,
    suffix: bool = False,
    label_list: Sequence[str] | None = None,
    default_rules: DefaultRules = SEQEVAL_DEFAULT,
) -> Decoded:
    """Decode predicted and reference tag sequences (strings, or ids with ``label_list``).

    Raises:
        ValueError: misaligned sides, a malformed tag, a prefix outside the strict
            scheme, an id outside ``label_list``; messages name side, sentence,
            token and value.
        TypeError: a tag that is not a string (integer ids without ``label_list``).
    """
    prep = _prepare(
        predictions, references, scheme=scheme, mode=mode, suffix=suffix, label_list=label_list,
        default_rules=default_rules,
    )
    return _decode(prep, prep.predictions, prep.references)


BLOCK_TOKENS = 1 << 15
"""Fewest tokens a side decoded at a time by :func:`count_tags`: blocks of whole sentences keep
every working array small (in cache, and clear of the cost of fresh memory: each block
reuses the memory the one before it freed, see :mod:`nested_span_f1.heap`), and counts
add. First calls measured faster than with blocks four times larger at 35k and 350k
sentences."""


def _blocks(offsets: np.ndarray, n_blocks: int) -> list[tuple[int, int, int, int]]:
    """(first sentence, end sentence, first token, end token) of ``n_blocks`` consecutive blocks
    of about the same number of tokens (a block may be empty).

    ``offsets``: where each sentence starts, and the total (:attr:`Encoded.offsets`).
    """
    n_sentences, total = len(offsets) - 1, int(offsets[-1])
    targets = np.arange(1, n_blocks, dtype=np.int64) * total // n_blocks
    bounds = [0, *np.searchsorted(offsets, targets, side="left").tolist(), n_sentences]
    return [(a, b, int(offsets[a]), int(offsets[b])) for a, b in zip(bounds[:-1], bounds[1:])]


def _block_sides(sides: tuple[Encoded, ...], n_blocks: int) -> list[list[Encoded]]:
    """The sides cut into ``n_blocks`` blocks: a pair of sides cut alike, an agreed side on its own."""
    pair_blocks = _blocks(sides[1].offsets, n_blocks)
    cuts = [pair_blocks] * 2 + [_blocks(side.offsets, n_blocks) for side in sides[2:]]
    return [
        [Encoded(side.codes[start:stop], side.lengths[first:end], side.tags, side.complete)
         for side, (first, end, start, stop) in zip(sides, per_side)]
        for per_side in zip(*cuts)
    ]


def count_tags(predictions: Any, references: Any, **options: Any) -> Counts:
    """Counts for tagged sentences; takes the options of :func:`decode_pair`.

    Equal to ``decode_pair(...).counts()``. The sentences predicted exactly right are
    decoded once, not on both sides; large inputs are decoded a block of sentences at a
    time and the blocks' counts added.

    >>> c = count_tags([["B-PER", "I-PER", "O"]], [["B-PER", "I-PER", "B-LOC"]])
    >>> c.labels["PER"], c.labels["LOC"], c.correct_tokens
    (Tally(tp=1, predicted=1, gold=1), Tally(tp=0, predicted=0, gold=1), 2)
    """
    prep = _prepare(predictions, references, **options)
    sides: tuple[Encoded, ...] = prep.agreement.sides() if prep.agreement else (prep.predictions, prep.references)
    # a block holds about 2 * BLOCK_TOKENS padded positions or more; an input under two blocks'
    # worth is decoded whole: every block pays some 50 small array operations, which on
    # eval-sized inputs cost more than a larger block's memory (CoNLL-2003's 46k tokens a
    # side: 4.92 ms in two blocks, 4.77 ms in one)
    positions = sum(len(side.codes) for side in sides)
    n_blocks = positions // (2 * BLOCK_TOKENS)
    if n_blocks < 2:
        return _decode(prep, *sides).counts()
    # a block's working memory peaks at about 22 bytes a token of a side (tracemalloc: 0.74 MB for
    # 35k tokens), and blocks hold under twice BLOCK_TOKENS: keep that much freed memory for the
    # next block (first call at 35k sentences: 2449 -> 545 page faults, 40.8 -> 36.0 ms)
    keep_freed_memory(32 * BLOCK_TOKENS)
    total = Counts()
    for block in _block_sides(sides, n_blocks):
        total = total + _decode(prep, *block).counts()
    return total


def score_tags(
    predictions: Any,
    references: Any,
    *,
    scheme: str | Scheme | None = None,
    mode: str | None = None,
    suffix: bool = False,
    zero_division: ZeroDivision = "warn",
    label_list: Sequence[str] | None = None,
) -> dict[str, Any]:
    """Entity-level scores of tagged sentences, as :func:`nested_span_f1.scores.summarize` returns them.

    Args:
        predictions, references: lists of tag lists (``"B-PER"``...), or integer label
            ids (lists or 2-D arrays, -100 in references ignored) with ``label_list``.
        scheme: IO, IOB1, IOB2, IOE1, IOE2, IOBES, BILOU; needed by ``mode="strict"``
            (detected from the references when omitted, as seqeval does).
        mode: None (seqeval default / conlleval) or ``"strict"``.
        suffix: tags are ``PER-B`` rather than ``B-PER``.
        zero_division: "warn", 0 or 1, as in scikit-learn.
        label_list: tag string of each label id.

    >>> r = score_tags([["B-PER", "I-PER", "O"]], [["B-PER", "I-PER", "B-LOC"]])
    >>> r["overall_precision"], r["overall_recall"], r["LOC"]["number"]
    (1.0, 0.5, 1)
    """
    counts = count_tags(
        predictions, references, scheme=scheme, mode=mode, suffix=suffix, label_list=label_list
    )
    return summarize(counts, zero_division)


def tags_to_spans(
    sentences: Sequence[Sequence[str]],
    *,
    scheme: str | Scheme | None = None,
    mode: str | None = None,
    suffix: bool = False,
) -> list[list[tuple[int, int, str]]]:
    """Decode one side's tag sequences into per-sentence ``(start, end, label)`` lists.

    >>> tags_to_spans([["B-PER", "I-PER", "O", "I-LOC"]])
    [[(0, 2, 'PER'), (3, 4, 'LOC')]]
    """
    prep = _prepare(sentences, sentences, scheme=scheme, mode=mode, suffix=suffix, names=("sentences", "sentences"))
    return _decode(prep, prep.predictions, prep.references).references.to_lists()


__all__ = ["Decoded", "count_tags", "decode_pair", "score_tags", "tags_to_spans"]
