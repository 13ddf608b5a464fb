"""Flat tag sequences -> spans -> counts -> scores: the ``span_f1`` pipeline.

:func:`score_exact` reads as the pipeline it runs: encode both sides
(:mod:`.encoding`), read the tag vocabulary against the scheme tables
(:mod:`.tags`), decode each side to spans (:mod:`.decoding`), match them
exactly (:mod:`.matching`), count (:mod:`.counts`), summarize (:mod:`.scores`).

``mode=None`` decodes as seqeval's default mode (conlleval-compatible: malformed
chunks are repaired); ``mode="strict"`` as seqeval's strict mode for a scheme
(malformed chunks are dropped). When the scheme is known (passed, or detected by
strict mode as seqeval does) the chunks it rejects are counted as
``invalid_predicted_chunks`` / ``invalid_reference_chunks``, so a user sees how
far the two modes are apart and why.
"""
from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from functools import partial
from typing import Any

import numpy as np

from ..core.counts import Counts, Tally
from ..core.matching import match_exact
from ..core.scores import ZeroDivision, summarize
from ..core.spans import SpanArrays
from ..core.wording import quote
from .decoding import decode
from .encoding import SIDES, Encoded, EncodedPair, LabelList, encode
from .schemes import SEQEVAL_DEFAULT, DefaultRules, Scheme
from .tags import read_vocabulary

MODES = (None, "default", "strict")


@dataclass(frozen=True)
class Decoded:
    """Both sides of a tagged corpus as spans, with token counts and the invalid-chunk notes."""

    predictions: SpanArrays
    references: SpanArrays
    tokens: int
    correct_tokens: int
    """Positions whose predicted tag equals the reference tag (token accuracy's numerator)."""
    notes: dict[str, int]


Decoder = Callable[[Encoded], tuple[SpanArrays, int]]
"""Decodes one side of the pair: its spans, and how many chunks the scheme rejects (see :func:`.decoding.decode`)."""

INVALID_NOTES = ("invalid_predicted_chunks", "invalid_reference_chunks")


def _read(
    predictions: Any, references: Any, *, scheme: str | Scheme | None = None, mode: str | None = None,
    suffix: bool = False, label_list: LabelList | None = None, default_rules: DefaultRules = SEQEVAL_DEFAULT,
    names: tuple[str, str] = SIDES, count_invalid: bool = True,
) -> tuple[EncodedPair, Decoder, tuple[str, ...]]:
    """Encode both sides and read their tags: the pair, a decoder of its sides, and the notes the two sides'
    invalid-chunk counts go under (:data:`INVALID_NOTES`; none when no scheme is known, or not
    ``count_invalid``: there is nothing to count)."""
    if mode not in MODES:
        raise ValueError(f'mode must be None (conlleval-style repair) or "strict", got {quote(mode)}')
    strict = mode == "strict"
    pair = encode(predictions, references, label_list=label_list, names=names)
    parsed, chosen = read_vocabulary(pair, suffix=suffix, scheme=scheme, strict=strict)
    counted = count_invalid and chosen is not None
    decoder = partial(decode, parsed=parsed, scheme=chosen, strict=strict, rules=default_rules, count_invalid=counted)
    return pair, decoder, INVALID_NOTES if counted else ()


def decode_pair(predictions: Any, references: Any, **options: Any) -> Decoded:
    """Decode predicted and reference tag sequences (strings, or ids with ``label_list``) into spans.

    Options: ``scheme``, ``mode``, ``suffix``, ``label_list`` as :func:`score_exact`;
    ``default_rules``: the repairing decoder of default mode (seqeval's, or
    conlleval.pl's for the conlleval command); ``names``: what errors call the sides.

    Raises:
        ValueError: misaligned sides, a malformed tag, a prefix outside the strict
            scheme, an id outside ``label_list``; messages name side, sentence,
            token and value.
        TypeError: a tag that is not a string (integer ids without ``label_list``).
    """
    pair, decoder, note_names = _read(predictions, references, **options)
    (pred, invalid_pred), (ref, invalid_ref) = decoder(pair.predictions), decoder(pair.references)
    correct = int(np.count_nonzero(pair.predictions.codes == pair.references.codes))
    return Decoded(predictions=pred, references=ref, tokens=len(pair.references.codes), correct_tokens=correct,
                   notes=dict(zip(note_names, (invalid_pred, invalid_ref))))


def count_exact(predictions: Any, references: Any, **options: Any) -> Counts:
    """Counts for tagged sentences (exact span matches, tokens, notes); options as :func:`decode_pair`.

    ``reference.count`` for every sentence at once: encode and read the tags; set
    aside the sentences predicted exactly right (:func:`_count_agreeing`); decode
    the others side by side, match and count.

    >>> c = count_exact([["B-PER", "I-PER", "O"]], [["B-PER", "I-PER", "B-LOC"]])
    >>> c.labels["PER"], c.labels["LOC"], c.correct_tokens
    (Tally(tp=1, predicted=1, gold=1), Tally(tp=0, predicted=0, gold=1), 2)
    """
    pair, decoder, note_names = _read(predictions, references, **options)
    differing, agreeing = _count_agreeing(pair, decoder, note_names)
    (pred, invalid_pred), (ref, invalid_ref) = decoder(differing.predictions), decoder(differing.references)
    # decoded chunks never repeat, so the matcher's duplicate notes are left out
    matched = match_exact(pred, ref).counts()
    correct = int(np.count_nonzero(differing.predictions.codes == differing.references.codes))
    return agreeing + Counts(matched.labels, matched.untyped, len(differing.references.codes), correct,
                             dict(zip(note_names, (invalid_pred, invalid_ref))))


def _count_agreeing(
    pair: EncodedPair, decoder: Decoder, note_names: tuple[str, ...]
) -> tuple[EncodedPair, Counts]:
    """The pair cut in two: the sentences whose prediction differs from the reference (both sides, to
    decode and match), and the counts of those predicted exactly right.

    In ``reference.count``, a sentence whose ``pred`` equals its ``ref`` decodes to
    one set of chunks ``p == r``: each chunk adds to ``tp``, ``predicted`` and
    ``gold`` of its label, each boundary (one a chunk: a decoder ends one chunk at a
    token) to all three untyped counts, its invalid chunks to both notes, each token
    to ``correct``. So it is decoded once, and not matched. Most sentences of a
    useful model's output are right.
    """
    lengths = pair.references.lengths
    token_differs = np.append(pair.predictions.codes != pair.references.codes, False)
    # a sentence differs when any of its tokens does (an empty one never does)
    differs = np.logical_or.reduceat(token_differs, np.cumsum(lengths) - lengths) & (lengths > 0)
    in_differing = np.repeat(differs, lengths)
    pred, ref = (Encoded(side.codes[in_differing], lengths[differs]) for side in (pair.predictions, pair.references))
    agreeing = Encoded(pair.references.codes[~in_differing], lengths[~differs])
    spans, invalid = decoder(agreeing)
    per_label = np.bincount(spans.label, minlength=len(spans.labels))
    labels = {spans.labels[i]: Tally(n, n, n) for i, n in enumerate(per_label.tolist()) if n}
    chunks, tokens = int(per_label.sum()), len(agreeing.codes)
    counts = Counts(labels, Tally(chunks, chunks, chunks), tokens, tokens, dict(zip(note_names, (invalid, invalid))))
    return EncodedPair(pred, ref, pair.tags, pair.names), counts


def score_exact(
    predictions: Any,
    references: Any,
    *,
    scheme: str | Scheme | None = None,
    mode: str | None = None,
    suffix: bool = False,
    zero_division: ZeroDivision = "warn",
    label_list: LabelList | None = None,
) -> dict[str, Any]:
    """Entity-level scores of tagged sentences, as :func:`nested_span_f1.core.scores.summarize` returns them.

    Args:
        predictions, references: lists of tag lists (``"B-PER"``...), or integer label
            ids (lists or 2-D arrays, -100 in references ignored) with ``label_list``.
        scheme: IO, IOB1, IOB2, IOE1, IOE2, IOBES, BILOU, BMES; needed by ``mode="strict"``
            (detected from the references when omitted, as seqeval does).
        mode: None (seqeval default / conlleval) or ``"strict"``.
        suffix: tags are ``PER-B`` rather than ``B-PER``.
        zero_division: "warn", 0 or 1, as in scikit-learn.
        label_list: tag string of each label id: a list, or a model's ``id2label`` or
            ``label2id`` dict (read in id order, see :func:`nested_span_f1.flat.encoding.read_label_list`).

    >>> r = score_exact([["B-PER", "I-PER", "O"]], [["B-PER", "I-PER", "B-LOC"]])
    >>> r["overall_precision"], r["overall_recall"], r["LOC"]["number"]
    (1.0, 0.5, 1)
    """
    counts = count_exact(predictions, references, scheme=scheme, mode=mode, suffix=suffix, label_list=label_list)
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
    # the sentences are both sides of the pair (the second takes the first's codes); one side is decoded
    pair, decoder, _ = _read(sentences, sentences, scheme=scheme, mode=mode, suffix=suffix,
                             names=("sentences", "sentences"), count_invalid=False)
    spans, _ = decoder(pair.references)
    return spans.to_lists()


__all__ = ["Decoded", "count_exact", "decode_pair", "score_exact", "tags_to_spans"]
