"""Exact matching of span sets: a span is correct iff gold has the same (start, end, label).

Matching is on sets per sentence: duplicates on either side are removed first
and counted, and the same boundaries with two labels are two items. Flat
scoring is this same matcher applied to decoded chunks.
"""
from __future__ import annotations

import numpy as np

from .caller import warn_caller
from .counts import Counts, Tally, tallies
from .spans import SpanArrays, shared_labels


def span_keys(spans: SpanArrays, max_end: int, n_labels: int, typed: bool = True) -> np.ndarray:
    """One int64 key per span: (sentence, start, end[, label]) packed into a number."""
    width = max_end + 1
    key = (spans.sentence * width + spans.start) * width + spans.end
    if typed:
        key = key * n_labels + spans.label
    return key


def sorted_unique(keys: np.ndarray) -> np.ndarray:
    """``np.unique(keys)`` for 1-D int keys, skipping the work when they already strictly increase.

    Decoded flat chunks come out in corpus order, so their keys usually do.
    """
    if len(keys) < 2 or (keys[1:] > keys[:-1]).all():
        return keys
    keys = np.sort(keys)
    return keys.compress(np.concatenate(([True], keys[1:] != keys[:-1])))


def intersect_sorted(a: np.ndarray, b: np.ndarray) -> np.ndarray:
    """``np.intersect1d(a, b, assume_unique=True)`` for sorted unique int keys.

    A stable sort of two sorted runs is a single merge, cheaper than a full sort.
    """
    merged = np.concatenate((a, b))
    merged.sort(kind="stable")
    return merged[1:].compress(merged[1:] == merged[:-1])


def _key_room(n_sentences: int, max_end: int, n_labels: int) -> bool:
    return n_sentences * (max_end + 1) ** 2 * max(n_labels, 1) < 2**62


def unique_spans(spans: SpanArrays) -> tuple[SpanArrays, int]:
    """Remove duplicate (sentence, start, end, label) rows; return them and how many went."""
    if not len(spans):
        return spans, 0
    max_end, n_labels = int(max(spans.end.max(), spans.start.max())), max(len(spans.labels), int(spans.label.max()) + 1)
    if spans.start.min() >= 0 and _key_room(spans.n_sentences, max_end, n_labels) and spans.sentence.min() >= 0:
        keys = span_keys(spans, max_end, n_labels)
        uniq_keys = sorted_unique(keys)
        if uniq_keys is keys:
            return spans, 0
        # packed keys sort as the rows (sentence, start, end, label) do
        label = uniq_keys % n_labels
        rest = uniq_keys // n_labels
        end = rest % (max_end + 1)
        rest //= max_end + 1
        out = SpanArrays(rest // (max_end + 1), rest % (max_end + 1), end, label, spans.labels, spans.n_sentences)
        return out, len(spans) - len(uniq_keys)
    rows = np.stack([spans.sentence, spans.start, spans.end, spans.label], axis=1)
    uniq = np.unique(rows, axis=0)
    out = SpanArrays(uniq[:, 0], uniq[:, 1], uniq[:, 2], uniq[:, 3], spans.labels, spans.n_sentences)
    return out, len(spans) - len(uniq)


class DuplicateSpanWarning(UserWarning):
    """Spans listed twice in one sentence were scored once; the counts say how many."""


def duplicate_notes(predictions: int, references: int) -> dict[str, int]:
    """The duplicate counts as notes, with a warning when there are any (scoring is on sets)."""
    if predictions or references:
        warn_caller(
            f"removed {predictions} duplicate predicted and {references} duplicate reference spans "
            "(same sentence, start, end and label); they are reported as duplicate_predictions / "
            "duplicate_references",
            DuplicateSpanWarning,
        )
    return {"duplicate_predictions": predictions, "duplicate_references": references}


def aligned(predictions: SpanArrays, references: SpanArrays) -> tuple[SpanArrays, SpanArrays]:
    """Both sides on one label list; ValueError when they do not have the same number of sentences."""
    if predictions.n_sentences != references.n_sentences:
        raise ValueError(
            f"{predictions.n_sentences} predicted sentences but {references.n_sentences} reference "
            "sentences; they must align sentence by sentence"
        )
    pred, ref = shared_labels(predictions, references)
    return pred, ref


def match_exact(predictions: SpanArrays, references: SpanArrays, agreed: np.ndarray | None = None) -> Counts:
    """Count exact matches per label, untyped matches, and duplicates on each side.

    Returns :class:`Counts` without token statistics; ``notes`` carries
    ``duplicate_predictions`` and ``duplicate_references``. ``agreed``: label ids
    (into the predictions' labels) of spans on both sides, left out of them.
    """
    original = predictions.labels
    predictions, references = aligned(predictions, references)
    if agreed is not None and predictions.labels != original:
        index = {name: i for i, name in enumerate(predictions.labels)}
        agreed = np.array([index[name] for name in original], dtype=np.int64)[agreed]
    n_labels = len(predictions.labels)
    max_end = int(max(predictions.end.max(initial=0), references.end.max(initial=0)))
    if not _key_room(predictions.n_sentences, max_end, n_labels):
        raise ValueError(
            f"corpus too large to pack span keys ({predictions.n_sentences} sentences, "
            f"offsets up to {max_end}); score it in batches and add the counts"
        )
    bounds = np.concatenate((span_keys(predictions, max_end, n_labels, typed=False),
                             span_keys(references, max_end, n_labels, typed=False)))
    return match_runs(bounds, np.concatenate((predictions.label, references.label)), len(predictions), predictions.labels,
                      agreed)


def match_runs(
    bounds: np.ndarray, label: np.ndarray, n_pred: int, labels: tuple[str, ...], agreed: np.ndarray | None = None
) -> Counts:
    """:func:`match_exact` on packed keys: the predicted spans, then the reference spans.

    ``bounds`` packs each span's (sentence, start, end) into one int, ``label`` holds
    its label id; the caller packs them so that ``bounds * len(labels) + label``
    still fits in an int64. ``bounds`` is consumed (reused as working memory).
    ``agreed``: label ids of spans known to be on both sides (counted as matched).

    When each side's bounds strictly increase, as decoded flat chunks do, every
    span has bounds of its own: there are no duplicates, and in the merged, sorted
    typed keys a span's counterpart with the same bounds sits next to it, so one
    merge finds both the typed and the untyped matches. Otherwise the spans are
    matched as sets, duplicates removed and counted.
    """
    n_labels = len(labels)
    width = max(n_labels, 1)
    pred_label, ref_label = label[:n_pred], label[n_pred:]
    if agreed is None:
        agreed = label[:0]
    if not (strictly_increasing(bounds[:n_pred]) and strictly_increasing(bounds[n_pred:])):
        return _match_sets(bounds[:n_pred], pred_label, bounds[n_pred:], ref_label, labels, agreed)
    keys = bounds
    keys *= width
    keys += label
    keys.sort(kind="stable")  # two sorted runs: a single merge
    hit = keys[1:].compress(keys[1:] == keys[:-1])
    both = np.bincount(agreed, minlength=n_labels)
    per_label = tallies(
        np.bincount(hit % width, minlength=n_labels) + both,
        np.bincount(pred_label, minlength=n_labels) + both,
        np.bincount(ref_label, minlength=n_labels) + both,
        labels,
    )
    np.floor_divide(keys, width, out=keys)  # back to bounds, still sorted
    n = len(agreed)
    untyped = Tally(int(np.count_nonzero(keys[1:] == keys[:-1])) + n, n_pred + n, len(keys) - n_pred + n)
    return Counts(per_label, untyped, notes=duplicate_notes(0, 0))


def strictly_increasing(keys: np.ndarray) -> bool:
    """True when each key is larger than the one before it."""
    return len(keys) < 2 or bool((keys[1:] > keys[:-1]).all())


def _match_sets(
    pred_bounds: np.ndarray, pred_label: np.ndarray, ref_bounds: np.ndarray, ref_label: np.ndarray,
    labels: tuple[str, ...], agreed: np.ndarray,
) -> Counts:
    """:func:`match_runs` for spans in any order, duplicates included."""
    n_labels = len(labels)
    width = max(n_labels, 1)
    # the typed key as span_keys(typed=True) packs it, without recomputing the bounds
    pred_keys = pred_bounds * n_labels + pred_label
    ref_keys = ref_bounds * n_labels + ref_label
    pred_u, ref_u = sorted_unique(pred_keys), sorted_unique(ref_keys)
    hit = intersect_sorted(pred_u, ref_u)
    both = np.bincount(agreed, minlength=n_labels)
    per_label = tallies(
        np.bincount(hit % width, minlength=n_labels) + both,
        np.bincount(pred_label if pred_u is pred_keys else pred_u % width, minlength=n_labels) + both,
        np.bincount(ref_label if ref_u is ref_keys else ref_u % width, minlength=n_labels) + both,
        labels,
    )
    pred_b, ref_b = sorted_unique(pred_bounds), sorted_unique(ref_bounds)
    n = len(agreed)
    untyped = Tally(len(intersect_sorted(pred_b, ref_b)) + n, len(pred_b) + n, len(ref_b) + n)
    notes = duplicate_notes(len(pred_keys) - len(pred_u), len(ref_keys) - len(ref_u))
    return Counts(per_label, untyped, notes=notes)
