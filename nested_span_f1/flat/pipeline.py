"""Flat tag sequences -> spans -> counts -> scores: the ``span_f1`` pipeline.

:func:`score_tags` reads as the pipeline it runs: encode both sides
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


def _read(
    predictions: Any, references: Any, *, scheme: str | Scheme | None = None, mode: str | None = None,
    suffix: bool = False, label_list: LabelList | None = None, default_rules: DefaultRules = SEQEVAL_DEFAULT,
    names: tuple[str, str] = SIDES,
) -> tuple[EncodedPair, Callable[[Encoded], tuple[SpanArrays, int | None]], Scheme | None]:
    """Encode both sides and read their tags: the pair, a decoder of its sides, and the scheme chosen."""
    if mode not in MODES:
        raise ValueError(f'mode must be None (conlleval-style repair) or "strict", got {mode!r}')
    strict = mode == "strict"
    pair = encode(predictions, references, label_list=label_list, names=names)
    parsed, chosen = read_vocabulary(pair, suffix=suffix, scheme=scheme, strict=strict)
    return pair, partial(decode, parsed=parsed, scheme=chosen, strict=strict, rules=default_rules), chosen


def _notes(chosen: Scheme | None, predicted: int | None, reference: int | None) -> dict[str, int]:
    if chosen is None:
        return {}
    return {"invalid_predicted_chunks": int(predicted or 0), "invalid_reference_chunks": int(reference or 0)}


def decode_pair(predictions: Any, references: Any, **options: Any) -> Decoded:
    """Decode predicted and reference tag sequences (strings, or ids with ``label_list``) into spans.

    Options: ``scheme``, ``mode``, ``suffix``, ``label_list`` as :func:`score_tags`;
    ``default_rules``: the repairing decoder of default mode (seqeval's, or
    conlleval.pl's for the conlleval command); ``names``: what errors call the sides.

    Raises:
        ValueError: misaligned sides, a malformed tag, a prefix outside the strict
            scheme, an id outside ``label_list``; messages name side, sentence,
            token and value.
        TypeError: a tag that is not a string (integer ids without ``label_list``).
    """
    pair, decoder, chosen = _read(predictions, references, **options)
    (pred, invalid_pred), (ref, invalid_ref) = decoder(pair.predictions), decoder(pair.references)
    correct = int(np.count_nonzero(pair.predictions.codes == pair.references.codes))
    return Decoded(predictions=pred, references=ref, tokens=len(pair.references.codes), correct_tokens=correct,
                   notes=_notes(chosen, invalid_pred, invalid_ref))


def count_tags(predictions: Any, references: Any, **options: Any) -> Counts:
    """Counts for tagged sentences (exact span matches, tokens, notes); options as :func:`decode_pair`.

    The sentences predicted exactly right are decoded once and counted as matched on
    both sides (most sentences of a useful model's output are right); the others are
    decoded side by side and matched.

    >>> c = count_tags([["B-PER", "I-PER", "O"]], [["B-PER", "I-PER", "B-LOC"]])
    >>> c.labels["PER"], c.labels["LOC"], c.correct_tokens
    (Tally(tp=1, predicted=1, gold=1), Tally(tp=0, predicted=0, gold=1), 2)
    """
    pair, decoder, chosen = _read(predictions, references, **options)
    wrong, agreed = pair.split_agreeing()
    (pred, invalid_pred), (ref, invalid_ref), (right, invalid_right) = map(
        decoder, (wrong.predictions, wrong.references, agreed))
    # decoded chunks never repeat, so the matcher's duplicate notes are left out
    matched = match_exact(pred, ref).counts()
    # in the sentences predicted exactly right, every chunk is predicted, referenced and matched
    n = np.bincount(right.label, minlength=len(right.labels))
    right_labels = {right.labels[i]: Tally(int(k), int(k), int(k)) for i, k in enumerate(n.tolist()) if k}
    n_right = int(n.sum())
    notes = {} if chosen is None else {"invalid_predicted_chunks": (invalid_pred or 0) + (invalid_right or 0),
                                       "invalid_reference_chunks": (invalid_ref or 0) + (invalid_right or 0)}
    tokens = len(agreed.codes) + len(wrong.references.codes)
    correct = len(agreed.codes) + int(np.count_nonzero(wrong.predictions.codes == wrong.references.codes))
    return Counts(matched.labels, matched.untyped) + Counts(right_labels, Tally(n_right, n_right, n_right), tokens,
                                                            correct, notes)


def score_tags(
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
        scheme: IO, IOB1, IOB2, IOE1, IOE2, IOBES, BILOU; needed by ``mode="strict"``
            (detected from the references when omitted, as seqeval does).
        mode: None (seqeval default / conlleval) or ``"strict"``.
        suffix: tags are ``PER-B`` rather than ``B-PER``.
        zero_division: "warn", 0 or 1, as in scikit-learn.
        label_list: tag string of each label id: a list, or a model's ``id2label`` or
            ``label2id`` dict (read in id order, see :func:`nested_span_f1.flat.encoding.read_label_list`).

    >>> r = score_tags([["B-PER", "I-PER", "O"]], [["B-PER", "I-PER", "B-LOC"]])
    >>> r["overall_precision"], r["overall_recall"], r["LOC"]["number"]
    (1.0, 0.5, 1)
    """
    counts = count_tags(predictions, references, scheme=scheme, mode=mode, suffix=suffix, label_list=label_list)
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
    decoded = decode_pair(sentences, sentences, scheme=scheme, mode=mode, suffix=suffix, names=("sentences", "sentences"))
    return decoded.references.to_lists()


__all__ = ["Decoded", "count_tags", "decode_pair", "score_tags", "tags_to_spans"]
