"""TEMPORARY copy of the new matcher of issue 16 (lands as nested_span_f1.matching; imports are renamed at merge).

Exact matching of span sets: a span is a hit iff the other side has the same (sentence, start, end, label).

Matching is on sets per sentence: duplicates on either side are removed first and
counted, and the same boundaries with two labels are two items. Flat scoring is
this matcher applied to decoded chunks; the nested breakdowns read its hits, the
lenient matching starts from its distinct spans.
"""
from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from .caller import warn_caller
from .counts import Counts, Tally
from .matching import DuplicateSpanWarning
from .spans import SpanArrays, shared_labels


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


def _keys(spans: SpanArrays, width: int, n_labels: int) -> np.ndarray:
    """One int64 key per span, ordered as the rows (sentence, start, end, label) are."""
    return ((spans.sentence * width + spans.start) * width + spans.end) * n_labels + spans.label


def _from_keys(keys: np.ndarray, width: int, n_labels: int, like: SpanArrays) -> SpanArrays:
    rest, label = np.divmod(keys, n_labels)
    rest, end = np.divmod(rest, width)
    sentence, start = np.divmod(rest, width)
    return SpanArrays(sentence, start, end, label, like.labels, like.n_sentences)


def match_exact(predictions: SpanArrays, references: SpanArrays) -> ExactMatch:
    """Match two sides exactly, as sets per sentence; a warning says how many duplicates went.

    Raises:
        ValueError: the sides have different numbers of sentences, or offsets so
            large that a span's (sentence, start, end, label) does not fit an int64.
    """
    if predictions.n_sentences != references.n_sentences:
        raise ValueError(
            f"{predictions.n_sentences} predicted sentences but {references.n_sentences} reference "
            "sentences; they must align sentence by sentence"
        )
    pred, ref = shared_labels(predictions, references)
    width = int(max(pred.end.max(initial=0), ref.end.max(initial=0))) + 1
    n_labels = max(len(pred.labels), 1)
    if max(pred.n_sentences, 1) * width * width * n_labels >= 2**62:
        raise ValueError(
            f"spans too large to match ({pred.n_sentences} sentences, offsets up to {width - 1}); "
            "score the corpus in batches and add the counts"
        )
    pred_keys, ref_keys = _keys(pred, width, n_labels), _keys(ref, width, n_labels)
    pred_set, ref_set = np.unique(pred_keys), np.unique(ref_keys)
    duplicates = len(pred_keys) - len(pred_set), len(ref_keys) - len(ref_set)
    if any(duplicates):
        warn_caller(
            f"removed {duplicates[0]} duplicate predicted and {duplicates[1]} duplicate reference spans "
            "(same sentence, start, end and label); they are reported as duplicate_predictions / "
            "duplicate_references",
            DuplicateSpanWarning,
        )
    pred_bounds, ref_bounds = np.unique(pred_set // n_labels), np.unique(ref_set // n_labels)
    untyped = Tally(int(np.isin(pred_bounds, ref_bounds, assume_unique=True).sum()), len(pred_bounds), len(ref_bounds))
    return ExactMatch(
        _from_keys(pred_set, width, n_labels, pred),
        _from_keys(ref_set, width, n_labels, ref),
        np.isin(pred_set, ref_set, assume_unique=True),
        np.isin(ref_set, pred_set, assume_unique=True),
        untyped,
        {"duplicate_predictions": duplicates[0], "duplicate_references": duplicates[1]},
    )
