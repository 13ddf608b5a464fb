"""Nested span sets: exact F1 plus crossing counts and nested/depth/length breakdowns.

Scoring is :func:`nested_span_f1.core.matching.match_exact` (the one span-set
scorer): duplicates are removed per sentence and counted, the same boundaries
with two labels are two items, crossing spans are scored like any other span and
counted. Breakdowns split recall by the GOLD span's bucket (computed among the
references) and precision by the PREDICTED span's bucket (computed among the
predictions), so a prediction's bucket never depends on the gold it is scored
against. Discontinuous entities go through the same matcher (see
:mod:`nested_span_f1.core.entities`) and get their own ``by_continuity`` breakdown;
nesting breakdowns cover contiguous spans only.
"""
from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field, replace
from typing import Any, ClassVar

import numpy as np

from ..core.counts import Additive, Counts, Mergeable, frozen_mapping
from ..core.entities import Entities, check_entities, fragment_arrays
from ..core.matching import ExactMatch, distinct, match_exact
from ..core.scores import ZeroDivision, check_zero_division, precision_recall_f1, summarize
from ..core.sequences import check_each
from ..core.spans import SpanArrays
from ..flat.encoding import check_sides
from ..flat.pipeline import decode_pair
from .nesting import LENGTH_BINS, length_bucket, length_bucket_names, structure


@dataclass(frozen=True)
class BucketTally(Additive):
    """One breakdown bucket: predictions in it (and how many correct), gold spans in it (and how many found)."""

    predicted: int = 0
    correct_predictions: int = 0
    gold: int = 0
    correct_references: int = 0


Breakdowns = Mapping[str, Mapping[str, BucketTally]]


@dataclass(frozen=True)
class NestedCounts(Mergeable):
    """:class:`Counts` (with crossing and discontinuous notes) plus breakdown tallies; they add and serialise.

    >>> c = count_nested([[(0, 2, "A"), (0, 1, "B")]], [[(0, 2, "A"), (1, 2, "B")]])
    >>> NestedCounts.from_dict(c.to_dict()) == c, (c + c).counts.total
    (True, Tally(tp=2, predicted=4, gold=4))
    """

    LEAVES: ClassVar[Mapping[str, type]] = {"counts": Counts, "breakdowns": BucketTally}

    counts: Counts = field(default_factory=Counts)
    breakdowns: Breakdowns = field(default_factory=dict)

    def __post_init__(self) -> None:
        object.__setattr__(self, "breakdowns", frozen_mapping(self.breakdowns))


CONTINUITY = ("contiguous", "discontinuous")
"""The buckets of the ``by_continuity`` breakdown."""


def bucket_names(max_depth: int, length_bins: Sequence[int] = LENGTH_BINS) -> dict[str, list[str]]:
    """Every breakdown's buckets as counts hold them, the empty ones too (so that counts of any two batches add up):
    ``by_depth`` from 1 down to ``max_depth``, the deepest span's depth (1 when there is none), and every length
    bucket of ``length_bins``.

    >>> bucket_names(2, (1, 2, 5))["by_depth"], bucket_names(2, (1, 2, 5))["by_length"]
    (['1', '2'], ['1', '2-4', '5+'])
    """
    return {"by_nesting": ["flat", "nested"], "by_depth": [str(d) for d in range(1, max_depth + 1)],
            "by_length": length_bucket_names(length_bins), "by_continuity": list(CONTINUITY)}


def _tally_buckets(
    bucket: dict[str, np.ndarray], hit: dict[str, np.ndarray], names: Sequence[str]
) -> dict[str, BucketTally]:
    """Per bucket name: predictions and gold spans in it (``bucket[side]`` per row), and how many hit."""
    n = len(names)
    pred = np.bincount(bucket["p"], minlength=n), np.bincount(bucket["p"][hit["p"]], minlength=n)
    gold = np.bincount(bucket["g"], minlength=n), np.bincount(bucket["g"][hit["g"]], minlength=n)
    return {
        name: BucketTally(int(pred[0][k]), int(pred[1][k]), int(gold[0][k]), int(gold[1][k]))
        for k, name in enumerate(names)
    }


def count_arrays(
    predictions: SpanArrays, references: SpanArrays, *, length_bins: Sequence[int] = LENGTH_BINS
) -> NestedCounts:
    """Exact-match counts, crossing pairs and breakdown tallies of two contiguous span sides."""
    return count_match(match_exact(predictions, references), length_bins=length_bins)


def count_match(match: ExactMatch, *, length_bins: Sequence[int] = LENGTH_BINS) -> NestedCounts:
    """:func:`count_arrays` of sides already matched: the breakdowns read the matcher's hits.

    Recall is split by the reference span's bucket, precision by the predicted
    span's bucket (each side's buckets computed among its own distinct spans).
    """
    sides = {"p": match.predictions, "g": match.references}
    hit = {"p": match.predicted_hit, "g": match.reference_hit}
    shape = {k: structure(side) for k, side in sides.items()}
    names = bucket_names(max(int(s.depth.max(initial=1)) for s in shape.values()), length_bins)
    breakdowns = {
        "by_nesting": _tally_buckets({k: s.nested.astype(np.int64) for k, s in shape.items()}, hit, names["by_nesting"]),
        "by_depth": _tally_buckets({k: s.depth - 1 for k, s in shape.items()}, hit, names["by_depth"]),
        "by_length": _tally_buckets({k: length_bucket(side, length_bins) for k, side in sides.items()}, hit,
                                    names["by_length"]),
    }
    counts = match.counts()
    notes = {**counts.notes, "crossing_predictions": shape["p"].crossing_pairs,
             "crossing_references": shape["g"].crossing_pairs}
    return NestedCounts(replace(counts, notes=notes), breakdowns)


def _continuity(counts: Counts) -> BucketTally:
    total = counts.total
    return BucketTally(total.predicted, total.tp, total.gold, total.tp)


def count_entities(
    predictions: Entities, references: Entities, *, length_bins: Sequence[int] = LENGTH_BINS
) -> NestedCounts:
    """:func:`count_nested` of two sides already checked by :func:`check_entities`."""
    result = count_arrays(predictions.spans, references.spans, length_bins=length_bins)
    fragmented = match_exact(*fragment_arrays(predictions.fragmented, references.fragmented)).counts()
    notes = {
        "discontinuous_predictions": fragmented.total.predicted,
        "discontinuous_references": fragmented.total.gold,
    }
    # by_continuity is kept even when empty so that counts of any two batches add up
    extra = NestedCounts(
        Counts(fragmented.labels, fragmented.untyped, notes={**fragmented.notes, **notes}),
        {"by_continuity": dict(zip(CONTINUITY, (_continuity(result.counts), _continuity(fragmented))))},
    )
    return result + extra


def count_nested(
    predictions: Sequence[Iterable[Any]],
    references: Sequence[Iterable[Any]],
    *,
    lengths: Sequence[int] | None = None,
    length_bins: Sequence[int] = LENGTH_BINS,
) -> NestedCounts:
    """Counts for per-sentence entity lists, contiguous or discontinuous.

    Args:
        predictions, references: one list per sentence of ``{"start", "end", "label"}``
            dicts or ``(start, end, label)`` tuples (end exclusive), or discontinuous
            entities as ``{"fragments": [[s, e], ...], "label": ...}`` or
            ``(((s, e), ...), label)``.
        lengths: tokens per sentence, to reject spans that end beyond it.
        length_bins: lower edges of the span-length buckets.

    Raises:
        ValueError, TypeError: a malformed span; the message names side, sentence and span.
    """
    check_sides(predictions, references)
    return count_entities(check_entities(predictions, lengths, "predictions"),
                          check_entities(references, lengths, "references"), length_bins=length_bins)


def decode_layers(
    predictions: Sequence[Sequence[Sequence[str]]],
    references: Sequence[Sequence[Sequence[str]]],
    **options: Any,
) -> tuple[SpanArrays, SpanArrays, dict[str, int]]:
    """Decode layered tags (per sentence, one tag sequence per nesting level) into nested spans.

    Each layer is decoded by :func:`nested_span_f1.flat.pipeline.decode_pair` with ``options``
    (``scheme``, ``mode``, ``suffix``); a sentence's spans are the union of its
    layers' spans. A side with fewer layers in a sentence is padded with ``O``
    layers. The same span in two layers stays a duplicate, counted by the matcher.
    """
    check_sides(predictions, references)
    for name, side in (("predictions", predictions), ("references", references)):
        check_each(side, f"{name}, sentence {{}}", "tag layers (one list of tags per layer)")
        for s, layers in enumerate(side):
            check_each(layers, f"{name}, sentence {s}, layer {{}}", "tags")
    pred_layers: list[Sequence[str]] = []
    ref_layers: list[Sequence[str]] = []
    owner: list[int] = []
    for s, (pred, ref) in enumerate(zip(predictions, references)):
        n_tokens = len((list(pred) + list(ref) or [[]])[0])
        depth = max(len(pred), len(ref))
        pad = ["O"] * n_tokens
        pred_layers += [*pred, *[pad] * (depth - len(pred))]
        ref_layers += [*ref, *[pad] * (depth - len(ref))]
        owner += [s] * depth
    decoded = decode_pair(pred_layers, ref_layers, **options)
    sentence_of = np.array(owner, dtype=np.int64)

    def lift(side: SpanArrays) -> SpanArrays:
        return SpanArrays(sentence_of[side.sentence], side.start, side.end, side.label, side.labels, len(predictions))

    return lift(decoded.predictions), lift(decoded.references), dict(decoded.notes)


def count_layered(
    predictions: Sequence[Sequence[Sequence[str]]],
    references: Sequence[Sequence[Sequence[str]]],
    *,
    length_bins: Sequence[int] = LENGTH_BINS,
    **options: Any,
) -> NestedCounts:
    """Counts for layered tag sequences (see :func:`decode_layers` for ``options``)."""
    pred, ref, notes = decode_layers(predictions, references, **options)
    return count_arrays(pred, ref, length_bins=length_bins) + NestedCounts(Counts(notes=notes))


def count_nested_tags(
    predictions: Any, references: Any, *, length_bins: Sequence[int] = LENGTH_BINS, **options: Any
) -> NestedCounts:
    """Counts for flat tag sequences (token accuracy included); ``options`` as :func:`decode_pair`."""
    decoded = decode_pair(predictions, references, **options)
    tokens = Counts(tokens=decoded.tokens, correct_tokens=decoded.correct_tokens, notes=decoded.notes)
    return count_arrays(decoded.predictions, decoded.references, length_bins=length_bins) + NestedCounts(tokens)


def _bucket_order(name: str) -> tuple[int, str]:
    digits = name.split("-")[0].rstrip("+")
    return (int(digits), name) if digits.isdigit() else (0, name)


def _has_items(tally: BucketTally) -> bool:
    return bool(tally.predicted or tally.gold)


def bucket_scores(tally: BucketTally, zero_division: ZeroDivision = 0) -> dict[str, Any]:
    """Precision among the bucket's predictions, recall among its gold spans, and their F1.

    >>> bucket_scores(BucketTally(predicted=4, correct_predictions=2, gold=2, correct_references=2))
    {'precision': 0.5, 'recall': 1.0, 'f1': 0.6666666666666666, 'number': 2, 'predicted': 4}
    """
    # empty buckets are common (no depth-3 predictions): they take the value silently
    quiet = int(check_zero_division(zero_division))
    (precision,), (recall,), (f1,) = precision_recall_f1(
        [tally.correct_predictions], [tally.predicted], [tally.correct_references], [tally.gold], quiet
    )
    return {"precision": float(precision), "recall": float(recall), "f1": float(f1),
            "number": tally.gold, "predicted": tally.predicted}


def summarize_nested(counts: NestedCounts, zero_division: ZeroDivision = "warn") -> dict[str, Any]:
    """The result dict: :func:`nested_span_f1.core.scores.summarize` plus the breakdowns.

    Keys beyond ``summarize``'s: ``crossing_predictions``, ``crossing_references``,
    ``discontinuous_predictions``, ``discontinuous_references`` and
    ``by_nesting`` (``flat``/``nested``), ``by_depth`` (``"1"`` = outermost),
    ``by_length`` (token-length buckets), ``by_continuity`` (only when
    discontinuous entities occur), each ``{bucket: {precision, recall, f1,
    number, predicted}}``. ``overall_accuracy`` is present only for tag input.
    """
    result = summarize(counts.counts, zero_division)
    if not counts.counts.tokens:
        del result["overall_accuracy"]
    for name, buckets in counts.breakdowns.items():
        if name == "by_continuity" and not _has_items(buckets.get("discontinuous", BucketTally())):
            continue
        result[name] = {b: bucket_scores(buckets[b], zero_division) for b in sorted(buckets, key=_bucket_order)}
    return result


def score_nested(
    predictions: Sequence[Iterable[Any]],
    references: Sequence[Iterable[Any]],
    *,
    lengths: Sequence[int] | None = None,
    zero_division: ZeroDivision = "warn",
    length_bins: Sequence[int] = LENGTH_BINS,
) -> dict[str, Any]:
    """Exact span F1 of nested (or any) span sets, with crossing counts and breakdowns.

    Arguments as :func:`count_nested`; ``zero_division`` is "warn", 0 or 1.

    >>> r = score_nested([[(0, 2, "A"), (0, 1, "B")]], [[(0, 2, "A"), (1, 2, "B")]])
    >>> r["overall_f1"], r["by_nesting"]["nested"]["recall"], r["crossing_references"]
    (0.5, 0.5, 0)
    """
    counts = count_nested(predictions, references, lengths=lengths, length_bins=length_bins)
    return summarize_nested(counts, zero_division)


def describe_spans(spans: SpanArrays, lengths: Sequence[int] | None = None) -> dict[str, Any]:
    """Size and shape of one corpus side: what to print beside a score.

    Keys: ``sentences``, ``tokens`` (when ``lengths`` is given), ``entities``
    (distinct items), ``duplicates``, ``nested``, ``nested_share``, ``max_depth``,
    ``crossing_pairs``, ``multi_label_spans`` (boundaries carrying several labels).
    """
    unique, duplicates = distinct(spans)
    shape = structure(unique)
    _, labels_per_bound = np.unique(
        np.stack([unique.sentence, unique.start, unique.end], axis=1), axis=0, return_counts=True
    )
    n = len(unique)
    out: dict[str, Any] = {"sentences": spans.n_sentences}
    if lengths is not None:
        out["tokens"] = int(sum(lengths))
    out.update(
        entities=n,
        duplicates=duplicates,
        nested=int(shape.nested.sum()),
        nested_share=float(shape.nested.sum() / n) if n else 0.0,
        max_depth=int(shape.depth.max(initial=0)),
        crossing_pairs=shape.crossing_pairs,
        multi_label_spans=int(np.count_nonzero(labels_per_bound > 1)),
    )
    return out


__all__ = [
    "BucketTally",
    "Entities",
    "NestedCounts",
    "bucket_scores",
    "check_entities",
    "count_arrays",
    "count_entities",
    "count_layered",
    "count_match",
    "count_nested",
    "count_nested_tags",
    "decode_layers",
    "describe_spans",
    "score_nested",
    "summarize_nested",
]
