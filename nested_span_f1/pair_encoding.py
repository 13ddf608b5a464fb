"""Both sides of a tagged corpus encoded with one vocabulary; the sentences predicted exactly
right are looked up once, as their reference's.
"""
from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from functools import cached_property
from itertools import compress
from typing import Any

import numpy as np

from .arrow_columns import encode_arrow_tags, is_arrow
from .labels import (
    CHUNK,
    Encoded,
    TagTypeError,
    Vocab,
    check_aligned,
    encode_tags,
    list_lengths,
    place,
    same_lengths,
    tag_codes,
    token_total,
)
from .schemes import OUTSIDE

SIDES = ("predictions", "references")
"""How errors name the two sides of a pair."""


@dataclass(frozen=True)
class Agreement:
    """Both sides, split by agreement: the sentences the predictions got wrong, on each side,
    and the ones they got exactly right, once (they are the same on both sides).

    Scoring needs no more; the sides whole, in corpus order, are assembled on first use
    of :attr:`pair` (spans of each side, and the place of a bad tag in an error message).
    """

    predictions: Encoded
    """The predicted sentences that differ from their reference."""
    references: Encoded
    """Their references."""
    agreed: Encoded
    """The sentences predicted exactly right."""
    differ: np.ndarray
    """Bool per sentence of the corpus: whether the prediction differs from the reference."""

    @property
    def tags(self) -> tuple[str, ...]:
        return self.agreed.tags

    def sides(self) -> tuple[Encoded, Encoded, Encoded]:
        return self.predictions, self.references, self.agreed

    @cached_property
    def pair(self) -> tuple[Encoded, Encoded]:
        """(predictions, references), each whole and in corpus order."""
        differ, wrong, right = self.differ, self.references, self.agreed
        lengths = np.zeros(len(differ), dtype=np.result_type(wrong.lengths, right.lengths))
        lengths[differ] = wrong.lengths
        lengths[~differ] = right.lengths
        tokens = np.repeat(differ, lengths)
        ref = np.zeros(len(tokens), dtype=np.result_type(self.predictions.codes, wrong.codes, right.codes))
        ref[tokens] = wrong.codes
        ref[~tokens] = right.codes
        pred = ref.copy()
        pred[tokens] = self.predictions.codes
        return Encoded(pred, lengths, self.tags, True), Encoded(ref, lengths, self.tags, True)


_FLIP = bytes([1, 0]) + bytes(254)
"""``bytes.translate`` table that turns 0/1 bytes into 1/0."""


def encode_pair(
    predictions: Sequence[Sequence[str]], references: Sequence[Sequence[str]], names: tuple[str, str] = SIDES
) -> tuple[Encoded, Encoded] | Agreement:
    """Encode both sides with one shared vocabulary and check they align.

    ``names``: what error messages call the two sides. Returns the two sides, or, where
    that is cheaper, an :class:`Agreement` (its ``pair`` is the two sides; :func:`whole`
    gives them either way). Comparing a predicted sentence with its reference (two lists
    of strings: one C loop, identity first, then the bytes) costs a fraction of looking
    its tags up, and most sentences of a useful model's output are right (88% of the
    CoNLL-2003 test sentences in the Flair output): those are looked up once, as the
    reference's. Anything but two aligned lists of lists is encoded side by side, and its
    errors are reported from there.

    Raises:
        ValueError: different numbers of sentences, or a sentence whose lengths differ.
        TypeError: a sentence that is not a list, or a tag that is not a string.
    """
    if is_arrow(predictions) and is_arrow(references):
        arrow = encode_arrow_tags(predictions, references)
        if arrow is not None:
            return arrow
    vocab = Vocab(O=OUTSIDE)
    split = _encode_parts(predictions, references, vocab)
    if split is not None:
        parts, differs = split
        tags = tuple(vocab)
        wrong, referenced, right = (Encoded(codes, lengths, tags, True) for codes, lengths in parts)
        agreement = Agreement(wrong, referenced, right, np.frombuffer(differs, dtype=bool))
        if not all(isinstance(tag, str) for tag in tags):
            _refuse_non_strings(*agreement.pair, names)
        return agreement
    vocab = Vocab(O=OUTSIDE)
    pred_codes, pred_lengths = encode_tags(predictions, vocab, names[0])
    ref_codes, ref_lengths = encode_tags(references, vocab, names[1])
    check_aligned(pred_lengths, ref_lengths)
    tags = tuple(vocab)
    pair = Encoded(pred_codes, pred_lengths, tags, True), Encoded(ref_codes, ref_lengths, tags, True)
    _refuse_non_strings(*pair, names)
    return pair


def whole(encoded: tuple[Encoded, Encoded] | Agreement) -> tuple[Encoded, Encoded]:
    """(predictions, references), each whole and in corpus order, however they were encoded."""
    return encoded.pair if isinstance(encoded, Agreement) else encoded


def _refuse_non_strings(pred: Encoded, ref: Encoded, names: tuple[str, str]) -> None:
    """TagTypeError naming the first tag, in corpus order (predictions, then references), that is not a string."""
    not_strings = [code for code, tag in enumerate(pred.tags) if not isinstance(tag, str)]
    if not not_strings:
        return
    side, enc = next((name, enc) for name, enc in zip(names, (pred, ref)) if np.isin(enc.codes, not_strings).any())
    first = int(np.argmax(np.isin(enc.codes, not_strings)))
    tag = enc.tags[int(enc.codes[first])]
    hint = " (integer label ids need label_list)" if isinstance(tag, (int, np.integer)) else ""
    raise TagTypeError(f"{side}, {place(*enc.locate(first))}: tag {tag!r} is not a string{hint}")


def _encode_parts(
    predictions: Any, references: Any, vocab: Vocab
) -> tuple[list[tuple[np.ndarray, np.ndarray]], bytes] | None:
    """(codes, lengths) of the wrong predicted sentences, of their references and of the right
    ones, and a 0/1 byte per sentence (1: the prediction differs); None unless both sides are
    aligned lists of lists of hashable tags (the caller encodes them side by side and says what
    is wrong).

    ``list.__ne__`` compares as lists do and refuses a sentence that is not a list (a string
    would otherwise be read as a sentence of characters). A chunk of sentences is compared,
    looked up and measured while it is in the cache: on a corpus larger than the cache, a
    pass over all of it for each job costs more than the jobs.
    """
    if type(predictions) not in (list, tuple) or type(references) not in (list, tuple):
        return None
    n = len(references)
    if len(predictions) != n:
        return None
    differs = bytearray()
    parts: list[tuple[list[np.ndarray], list[np.ndarray]]] = [([], []), ([], []), ([], [])]
    for start in range(0, n, CHUNK):
        chunk = (predictions, references) if n <= CHUNK else (
            predictions[start : start + CHUNK], references[start : start + CHUNK])
        try:
            differ = bytes(map(list.__ne__, *chunk))
            groups = (list(compress(chunk[0], differ)), list(compress(chunk[1], differ)),
                      list(compress(chunk[1], differ.translate(_FLIP))))
            codes = [tag_codes(group, vocab) for group in groups]
        except (TypeError, ValueError):  # not a list, an unhashable tag, a comparison without a truth value
            return None
        lengths = [m for m in map(list_lengths, groups) if m is not None]
        if len(lengths) < len(groups):
            return None  # a list subclass: measured one sentence at a time, side by side
        if not same_lengths(lengths[0], lengths[1]):
            return None  # misaligned sentences
        for (all_codes, all_lengths), c, m in zip(parts, codes, lengths):
            all_codes.append(c)
            all_lengths.append(m)
        differs += differ
    joined = [(_join(c), _join(m)) for c, m in parts]
    if any(len(c) != token_total(m) for c, m in joined):
        return None  # a len() that disagrees with the items
    return joined, bytes(differs)


def _join(arrays: list[np.ndarray]) -> np.ndarray:
    return arrays[0] if len(arrays) == 1 else np.concatenate(arrays) if arrays else np.zeros(0, dtype=np.uint8)
