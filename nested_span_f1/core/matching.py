"""Exact matching of span sets: a span is a hit iff the other side has the same (sentence, start, end, label).

Matching is on sets per sentence: duplicates on either side are removed first and
counted, and the same boundaries with two labels are two items. Flat scoring is
this matcher applied to decoded chunks; the nested breakdowns read its hits, the
lenient matching starts from its distinct spans.
"""
from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np

from .caller import warn_caller
from .counts import Counts, Tally
from .spans import SpanArrays, shared_labels
from .wording import misaligned, plural, quote


class DuplicateSpanWarning(UserWarning):
    """Spans listed twice in one sentence were scored once; the counts say how many."""


@dataclass(frozen=True)
class ExactMatch:
    """Both sides' distinct spans and which of them the other side holds too.

    ``predictions`` and ``references`` are sorted by (sentence, start, end, label)
    and share one label list; ``predicted_hit[i]`` tells whether prediction ``i``
    is in the references, ``reference_hit[j]`` whether reference ``j`` was predicted.
    """

    predictions: SpanArrays
    references: SpanArrays
    predicted_hit: np.ndarray
    reference_hit: np.ndarray
    untyped: Tally
    """Boundaries (sentence, start, end) matched with labels ignored."""
    notes: dict[str, int]
    """``duplicate_predictions`` and ``duplicate_references``: spans removed as repeats."""

    def counts(self) -> Counts:
        """Per-label tallies, the untyped tally and the duplicate notes."""
        pred, ref = self.predictions, self.references
        n = len(pred.labels)
        tp = np.bincount(pred.label[self.predicted_hit], minlength=n)
        predicted = np.bincount(pred.label, minlength=n)
        gold = np.bincount(ref.label, minlength=n)
        labels = {
            pred.labels[i]: Tally(int(tp[i]), int(predicted[i]), int(gold[i])) for i in np.flatnonzero(predicted + gold)
        }
        return Counts(labels, self.untyped, notes=self.notes)


KEYS = 2**62
"""Keys below this bound: a span's (sentence, start, end, label) packed into an int64, with room to compare."""


def _key_space(*sides: SpanArrays, names: tuple[str, ...] = ()) -> tuple[int, int, list[np.ndarray]]:
    """(width, labels) that pack each span of these sides into one int64 key (sentence, start, end, label), and
    each side's keys, in its rows' order (keys compare as the rows sort).

    Raises ValueError, naming the span with the largest end (on the side ``names`` gives), when the
    offsets or the sentences are too many for that.
    """
    width = max(int(side.end.max(initial=0)) for side in sides) + 1
    n_labels = max(len(sides[0].labels), 1)
    n_sentences = max(max(side.n_sentences for side in sides), 1)
    if n_sentences * width * width * n_labels >= KEYS:
        raise _too_large(sides, names, n_sentences, n_labels)
    keys = [((side.sentence * width + side.start) * width + side.end) * n_labels + side.label for side in sides]
    return width, n_labels, keys


def _too_large(sides: tuple[SpanArrays, ...], names: tuple[str, ...], n_sentences: int, n_labels: int) -> ValueError:
    """What does not fit the keys, and what to do: offsets beyond what one sentence allows are not token
    positions; offsets that fit one sentence fit a smaller batch of sentences."""
    i = max(range(len(sides)), key=lambda k: int(sides[k].end.max(initial=0)))
    side, row = sides[i], int(np.argmax(sides[i].end))
    end = int(side.end[row])
    where = f"{names[i]}, " if i < len(names) else ""
    span = f"{where}sentence {int(side.sentence[row])}: span ({int(side.start[row])}, {end}, {quote(side.labels[side.label[row]])})"
    sizes = f"{plural(n_sentences, 'sentence')}, {plural(n_labels, 'label')}"
    packed = "each span's sentence, start, end and label are packed into one 64-bit key"
    if (end + 1) ** 2 * n_labels < KEYS:
        batch = (KEYS - 1) // ((end + 1) ** 2 * n_labels)
        return ValueError(f"too many sentences to pack at once ({sizes}, offsets up to {end} in {span}): {packed}; "
                          f"count at most {batch} sentences at a time and add the counts")
    largest = math.isqrt((KEYS - 1) // (n_sentences * n_labels)) - 1
    return ValueError(f"{span} has offsets too large to pack: {packed}, which holds offsets up to {largest} here "
                      f"({sizes}); offsets are token positions counted from 0 in each sentence, so give them that way")


def _distinct_keys(keys: np.ndarray) -> tuple[np.ndarray, int]:
    """A side's keys sorted as its rows (sentence, start, end, label) sort, repeats removed; and how many went."""
    keys = np.sort(keys)
    unique = _drop_repeats(keys)
    return unique, len(keys) - len(unique)


def _drop_repeats(keys: np.ndarray) -> np.ndarray:
    """Sorted keys without repeats (np.unique would hash them first, which costs far more on keys this wide)."""
    return keys[np.concatenate(([True], keys[1:] != keys[:-1]))] if len(keys) else keys


def _member(keys: np.ndarray, sorted_keys: np.ndarray) -> np.ndarray:
    """Bool mask over ``keys``: which occur in ``sorted_keys`` (a binary search each; np.isin sorts both)."""
    if not len(sorted_keys):
        return np.zeros(len(keys), dtype=bool)
    return sorted_keys.take(np.searchsorted(sorted_keys, keys), mode="clip") == keys


def _spans(keys: np.ndarray, width: int, n_labels: int, like: SpanArrays) -> SpanArrays:
    """The spans packed in ``keys``, on ``like``'s labels and sentences."""
    rest, label = np.divmod(keys, n_labels)
    rest, end = np.divmod(rest, width)
    sentence, start = np.divmod(rest, width)
    return SpanArrays(sentence, start, end, label, like.labels, like.n_sentences)


def distinct(spans: SpanArrays) -> tuple[SpanArrays, int]:
    """A side's distinct spans, sorted by (sentence, start, end, label), and how many repeats went."""
    width, n_labels, (keys,) = _key_space(spans)
    unique, removed = _distinct_keys(keys)
    return _spans(unique, width, n_labels, spans), removed


def best_of_repeats(spans: SpanArrays, values: np.ndarray) -> tuple[SpanArrays, np.ndarray, int]:
    """A side's distinct spans, sorted as :func:`distinct` sorts them, each with the largest ``values`` of its
    repeats (a span predicted twice is kept at its higher score), and how many repeats went."""
    width, n_labels, (keys,) = _key_space(spans)
    order = np.lexsort((-values, keys))  # by key, the highest value first among repeats
    keys = keys[order]
    unique = _drop_repeats(keys)
    best = values[order][np.searchsorted(keys, unique)]
    return _spans(unique, width, n_labels, spans), best, len(keys) - len(unique)


def warn_duplicates(predictions: int, references: int) -> None:
    """The :class:`DuplicateSpanWarning` for spans removed as repeats, when there are any (once a call: a
    corpus scored in parts warns once, with the sums)."""
    if predictions or references:
        warn_caller(
            f"removed {predictions} duplicate predicted and {references} duplicate reference spans "
            "(same sentence, start, end and label); they are reported as duplicate_predictions / "
            "duplicate_references",
            DuplicateSpanWarning,
        )


def match_exact(predictions: SpanArrays, references: SpanArrays) -> ExactMatch:
    """Match two sides exactly, as sets per sentence; a warning says how many duplicates went.

    Raises:
        ValueError: the sides have different numbers of sentences, or offsets so
            large that a span's (sentence, start, end, label) does not fit an int64.
    """
    if predictions.n_sentences != references.n_sentences:
        raise ValueError(misaligned(predictions.n_sentences, references.n_sentences))
    pred, ref = predictions, references
    if pred.labels != ref.labels or list(pred.labels) != sorted(pred.labels):
        # one label list, sorted: the rows' order (and the lenient matching's ties) depends on no input order
        pred, ref = shared_labels(pred, ref)
    width, n_labels, (pred_keys, ref_keys) = _key_space(pred, ref, names=("predictions", "references"))
    pred_set, pred_repeats = _distinct_keys(pred_keys)
    ref_set, ref_repeats = _distinct_keys(ref_keys)
    duplicates = pred_repeats, ref_repeats
    if any(duplicates):
        warn_duplicates(*duplicates)
    # keys stay sorted when divided: boundaries with several labels become neighbours
    pred_bounds, ref_bounds = (_drop_repeats(keys // n_labels) for keys in (pred_set, ref_set))
    untyped = Tally(int(np.count_nonzero(_member(pred_bounds, ref_bounds))), len(pred_bounds), len(ref_bounds))
    return ExactMatch(
        predictions=_spans(pred_set, width, n_labels, pred),
        references=_spans(ref_set, width, n_labels, ref),
        predicted_hit=_member(pred_set, ref_set),
        reference_hit=_member(ref_set, pred_set),
        untyped=untyped,
        notes={"duplicate_predictions": duplicates[0], "duplicate_references": duplicates[1]},
    )
