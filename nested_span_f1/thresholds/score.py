"""Scored predictions against a gold: the curve at every threshold, and the scores at chosen thresholds.

:func:`threshold_curve` reads as the steps it runs:

1. pair the sides (:func:`scored_pair`): per-sentence lists, or corpora paired by
   id as every command pairs them (texts by :func:`nested_span_f1.align.pair_texts`,
   the scores following their spans); every score checked once;
2. keep each predicted span once, at its highest score (a span predicted twice
   is kept at a threshold when either copy is), and with ``decode="flat"``
   decode the predictions once (:mod:`.decode`);
3. give each prediction its gain: 1 when the gold holds it (``exact`` and
   ``nested``: the one exact matcher), or what the optimal lenient matching gains
   when it is added (``lenient``, :mod:`.lenient`);
4. sort once by score and read running counts at every distinct score (:mod:`.curve`),
   overall and per label.

:func:`apply_thresholds` keeps the spans at or above chosen thresholds (one, or
one a label), decodes them when asked, and scores them with the metric's own
scorer: what the dev-then-test report gives for a threshold.
"""
from __future__ import annotations

import os
import warnings
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, replace
from itertools import chain
from typing import Any, Union

import numpy as np

from ..align.score import TextPair, pair_texts
from ..core.caller import warn_caller
from ..core.entities import Entities, check_entities, fragment_arrays, fragment_parts, is_fragmented
from ..core.matching import DuplicateSpanWarning, best_of_repeats, distinct, match_exact, warn_duplicates
from ..core.scored import check_scores, split_scored
from ..core.scores import UndefinedMetricWarning, ZeroDivision, check_zero_division, summarize
from ..core.sequences import check_sequence
from ..core.spans import SpanArrays, spans_from_lists
from ..core.wording import misaligned, plural
from ..formats.corpus import Corpus, align, paired_order
from ..lenient.score import check_options, score_lenient
from ..nested.score import count_entities
from .curve import ThresholdCurve, build_curve, labelled_curves
from .decode import flat_decode
from .lenient import lenient_gains

METRICS = ("exact", "nested", "lenient")
"""``exact`` and ``nested`` match (start, end, label) exactly; ``lenient`` is the ``type`` scheme of the lenient
metric: a prediction is correct when matched one to one with an overlapping gold span of its label."""

DECODINGS = ("nested", "flat")
"""``nested`` keeps every span at or above the threshold; ``flat`` the highest-scoring ones that do not overlap."""

Side = Union[Corpus, Sequence[Any], str, "os.PathLike[str]"]


@dataclass(frozen=True)
class ScoredPair:
    """Both sides sentence by sentence (documents by id when read from files), the predictions' scores beside
    their entities; ``texts``: the pairing of a side of texts, with its alignment report; ``doc_ids``: the
    document of each sentence when the gold names them (the units a bootstrap resamples)."""

    predictions: Sequence[Sequence[Any]]
    scores: Sequence[Sequence[float]]
    references: Sequence[Sequence[Any]]
    lengths: Sequence[int] | None = None
    texts: TextPair | None = None
    doc_ids: Sequence[str] | None = None

    @property
    def labels(self) -> set[str]:
        """The labels of both sides' entities."""
        return {_label(e) for side in (self.predictions, self.references) for ents in side for e in ents}


def _label(entity: Any) -> str:
    if isinstance(entity, Mapping):
        return str(entity["label"])
    return str(entity[-1])


def _corpus(side: Side) -> Corpus | Sequence[Any]:
    """A file read as a corpus; a corpus or lists as they are."""
    if isinstance(side, (str, os.PathLike)):
        from ..formats import read_corpus

        return read_corpus(side)
    return side


def scored_pair(references: Side, predictions: Side, *, scores: Sequence[Sequence[Any]] | None = None,
                lengths: Sequence[int] | None = None, trim: bool = False, snap: str | None = None) -> ScoredPair:
    """Pair a gold with scored predictions (see :func:`threshold_curve` for what each side may be).

    Raises:
        ValueError: no scores, scores given twice, sides that do not pair, a bad score (naming its place).
        TypeError: a side of another type, a score that is not a number.
    """
    references, predictions = _corpus(references), _corpus(predictions)
    entities: Sequence[Sequence[Any]]
    found: Sequence[Sequence[Any]] | None
    if isinstance(predictions, Corpus):
        if scores is not None and predictions.scores is not None:
            raise ValueError(f"{predictions.source} carries scores, and scores= gives them again; give them once")
        if scores is not None:
            predictions = replace(predictions, scores=scores)
        if predictions.scores is None:
            raise ValueError(f"{predictions.source}: the predictions carry no scores (a 'score' on each entity), so "
                             "there is no threshold to vary")
        entities, found = predictions.entities, predictions.scores
    else:
        check_sequence(predictions, "predictions", "sentences (one list of scored spans per sentence)")
        entities, found = split_scored(predictions) if scores is None else (predictions, scores)
        if found is None:
            raise ValueError("predictions: no span has a score; give (start, end, label, score) tuples, "
                             "{'start', 'end', 'label', 'score'} dicts, or scores= (one list of scores a sentence)")
        found = check_scores(found, entities, "predictions")
    if isinstance(references, Corpus) and isinstance(predictions, Corpus):
        return _paired_corpora(references, predictions, trim, snap)
    if trim or snap:
        raise ValueError("trim and snap apply to texts: give both sides as corpora (or files), one of texts")
    doc_ids = None
    if isinstance(references, Corpus):
        gold, lengths = list(references.entities), lengths if lengths is not None else references.lengths
        doc_ids = references.doc_ids
    else:
        check_sequence(references, "references", "sentences (one list of spans per sentence)")
        gold = list(references)
    if len(entities) != len(gold):
        raise ValueError(misaligned(len(entities), len(gold)))
    return ScoredPair(list(entities), list(found), gold, lengths, doc_ids=doc_ids)


def _paired_corpora(references: Corpus, predictions: Corpus, trim: bool, snap: str | None) -> ScoredPair:
    """Two corpora paired by id (else order): tokens against tokens aligned token by token, texts through
    :func:`~nested_span_f1.align.pair_texts` (which keeps each document's entities in their order)."""
    if references.unit == predictions.unit == "tokens" and not trim and not snap:
        aligned = align(references, predictions)
        return ScoredPair(list(aligned.entities), list(aligned.scores or []), list(references.entities),
                          references.lengths, doc_ids=references.doc_ids)
    pair = pair_texts(predictions, references, trim=trim, snap=snap)
    scores = predictions.scores or []
    return ScoredPair(pair.predictions, [scores[p] for p in paired_order(references, predictions)], pair.references,
                      pair.lengths, pair, references.doc_ids)


def check_settings(metric: str, decode: str, min_iou: float | None) -> None:
    """ValueError for a metric or decoding not known, or ``min_iou`` out of range or given to another metric."""
    if metric not in METRICS:
        raise ValueError(f"metric must be one of {', '.join(METRICS)}, got {metric!r}")
    if decode not in DECODINGS:
        raise ValueError(f"decode must be one of {', '.join(DECODINGS)}, got {decode!r}")
    if min_iou is not None and metric != "lenient":
        raise ValueError(f"min_iou applies to the lenient metric, but the metric is {metric!r}")
    check_options(0.5, min_iou)


def _contiguous_only(side: Entities, name: str, why: str) -> None:
    if side.fragmented:
        s, fragments, label = side.fragmented[0]
        raise ValueError(f"{name}, sentence {s}: entity {(fragments, label)!r} is discontinuous; {why} take "
                         "contiguous spans")


def _split_scores(entities: Sequence[Sequence[Any]], scores: Sequence[Sequence[float]], any_fragmented: bool) -> tuple[
        np.ndarray, np.ndarray]:
    """The scores of the contiguous entities and of the discontinuous ones, each in the order
    :func:`~nested_span_f1.core.entities.check_entities` lists them (a fragmented entity whose fragments merge
    into one is contiguous); ``any_fragmented``: whether there is a discontinuous entity at all."""
    if not any_fragmented:
        return np.fromiter(chain.from_iterable(scores), dtype=np.float64), np.zeros(0)
    contiguous: list[float] = []
    fragmented: list[float] = []
    for items, row in zip(entities, scores):
        for item, score in zip(items, row):
            apart = is_fragmented(item) and len(fragment_parts(item, None, "")[0]) > 1
            (fragmented if apart else contiguous).append(score)
    return np.array(contiguous, dtype=np.float64), np.array(fragmented, dtype=np.float64)


@dataclass(frozen=True)
class Gains:
    """Every distinct prediction kept by the decoding: its score, label (an index into ``names``), gain and
    sentence; the distinct gold spans per label, and each one's sentence and label; what was removed. The
    predictions are in the order ``(sentence, start, end, label)`` (the discontinuous ones after the contiguous
    ones)."""

    score: np.ndarray
    label: np.ndarray
    gain: np.ndarray
    sentence: np.ndarray
    names: tuple[str, ...]
    gold: dict[int, int]
    gold_sentence: np.ndarray
    gold_label: np.ndarray
    notes: dict[str, int]


def _rows(spans: SpanArrays, keep: np.ndarray) -> SpanArrays:
    return SpanArrays(spans.sentence[keep], spans.start[keep], spans.end[keep], spans.label[keep], spans.labels,
                      spans.n_sentences)


def gains(pair: ScoredPair, metric: str = "nested", decode: str = "nested", min_iou: float | None = None) -> Gains:
    """Steps 2 and 3 of :func:`threshold_curve` (see the module docstring)."""
    pred = check_entities(pair.predictions, pair.lengths, "predictions")
    ref = check_entities(pair.references, pair.lengths, "references")
    if metric == "lenient" or decode == "flat":
        why = "the lenient metric and flat decoding" if metric == "lenient" and decode == "flat" else (
            "the lenient metric" if metric == "lenient" else "flat decoding")
        _contiguous_only(pred, "predictions", why)
        if metric == "lenient":
            _contiguous_only(ref, "references", why)
    contiguous, fragmented = _split_scores(pair.predictions, pair.scores, bool(pred.fragmented))
    names = tuple(sorted(set(pred.spans.labels) | set(ref.spans.labels)
                         | {label for _, _, label in pred.fragmented + ref.fragmented}))
    predicted, scores, repeats = best_of_repeats(pred.spans.relabel(names), contiguous)
    references, ref_repeats = distinct(ref.spans.relabel(names))
    notes = {"duplicate_predictions": repeats, "duplicate_references": ref_repeats}
    if decode == "flat":
        kept = flat_decode(predicted, scores)
        notes["flat_decoding_left_out"] = int((~kept).sum())
        predicted, scores = _rows(predicted, kept), scores[kept]
    if metric == "lenient":
        gain = lenient_gains(predicted, scores, references, min_iou)
    else:
        gain = match_exact(predicted, references).predicted_hit.astype(np.int64)
    parts = [(scores, predicted.label, gain, predicted.sentence)]
    gold_parts = [(references.sentence, references.label)]
    if pred.fragmented or ref.fragmented:
        fragments = [side.relabel(names) for side in fragment_arrays(pred.fragmented, ref.fragmented)]
        found, fragment_scores, more = best_of_repeats(fragments[0], fragmented)
        gold_fragments, more_gold = distinct(fragments[1])
        hit = match_exact(found, gold_fragments).predicted_hit.astype(np.int64)
        parts.append((fragment_scores, found.label, hit, found.sentence))
        gold_parts.append((gold_fragments.sentence, gold_fragments.label))
        notes["duplicate_predictions"] += more
        notes["duplicate_references"] += more_gold
    score, label, gain, sentence = (np.concatenate(column) for column in zip(*parts))
    gold_sentence, gold_label = (np.concatenate(column) for column in zip(*gold_parts))
    gold = np.bincount(gold_label, minlength=len(names))
    return Gains(score, label, gain, sentence, names, {k: int(n) for k, n in enumerate(gold.tolist()) if n},
                 gold_sentence, gold_label, notes)


def curve_of(pair: ScoredPair, metric: str = "nested", decode: str = "nested", min_iou: float | None = None,
             zero_division: ZeroDivision = "warn") -> ThresholdCurve:
    """The curve of a pair already made (:func:`scored_pair`): :func:`threshold_curve` without its step 1."""
    check_settings(metric, decode, min_iou)
    check_zero_division(zero_division)
    return curve_of_gains(gains(pair, metric, decode, min_iou), metric, decode, min_iou, zero_division)


def curve_of_gains(found: Gains, metric: str = "nested", decode: str = "nested", min_iou: float | None = None,
                   zero_division: ZeroDivision = "warn") -> ThresholdCurve:
    """Step 4 of :func:`threshold_curve`, from the gains of steps 2 and 3 (made with these settings), with the
    call's warnings (duplicates removed, no gold)."""
    warn_duplicates(found.notes["duplicate_predictions"], found.notes["duplicate_references"])
    total = sum(found.gold.values())
    overall = build_curve(found.score, found.gain, total, zero_division)
    per_type = labelled_curves(found.score, found.gain, found.label, found.gold, found.names, zero_division)
    if zero_division == "warn":
        undefined = [name for name, curve in per_type.items() if not curve.gold]
        if undefined or not total:
            without = "the gold has none" if not total else (
                f"the gold has none of {plural(len(undefined), 'predicted label')}: {', '.join(map(repr, undefined))}")
            warn_caller(f"recall and average precision are ill-defined and set to 0.0 where there is no gold span "
                        f"({without}); use the zero_division parameter (0 or 1) to control this",
                        UndefinedMetricWarning)
    settings = {"metric": metric, "decode": decode, **({"min_iou": min_iou} if min_iou is not None else {})}
    return replace(overall, per_type=per_type, settings=settings, notes=found.notes)


def threshold_curve(references: Side, predictions: Side, *, scores: Sequence[Sequence[Any]] | None = None,
                    metric: str = "nested", decode: str = "nested", lengths: Sequence[int] | None = None,
                    min_iou: float | None = None, trim: bool = False, snap: str | None = None,
                    zero_division: ZeroDivision = "warn") -> ThresholdCurve:
    """Precision, recall, F1, tp, fp and fn at every distinct score of the predictions, average precision and the
    best-F1 threshold, overall and per type; a span is kept when its score is at least the threshold.

    Args:
        references: the gold: one list of entities a sentence (``(start, end, label)`` tuples, span dicts,
            discontinuous entities), a :class:`~nested_span_f1.formats.Corpus`, or a file the readers take.
        predictions: one list a sentence of scored spans (``(start, end, label, score)`` tuples or
            ``{"start", "end", "label", "score"}`` dicts), of plain entities with ``scores``, a corpus with
            scores, or a file whose entities carry them. Two corpora (or files) pair by id, texts with tokens too.
        scores: one list of scores a sentence, aligned with plain predictions (any finite number: logits too).
        metric: ``"exact"`` or ``"nested"`` (exact (start, end, label) matching: the same curve), or
            ``"lenient"`` (the ``type`` scheme: overlap with the same label, optimal one-to-one matching).
        decode: ``"nested"`` (every span at or above the threshold) or ``"flat"`` (the highest-scoring spans that
            do not overlap, as GLiNER's flat mode: :mod:`.decode`).
        lengths: tokens per sentence, bounding the spans of lists.
        min_iou: the lenient metric's least intersection over union of a pair.
        trim, snap: for texts, as :func:`nested_span_f1.align.score_text` takes them.
        zero_division: "warn", 0 or 1: recall (and average precision) without gold.

    Returns:
        A :class:`~nested_span_f1.thresholds.curve.ThresholdCurve`: its arrays, ``best``,
        ``average_precision``, ``per_type``, and ``to_dict()`` (the JSON of the ``thresholds`` command).

    >>> gold = [[(0, 2, "PER"), (3, 4, "LOC")]]
    >>> curve = threshold_curve(gold, [[(0, 2, "PER", 0.9), (3, 4, "ORG", 0.8), (3, 4, "LOC", 0.4)]], zero_division=0)
    >>> curve.thresholds.tolist(), curve.tp.tolist(), curve.best["threshold"], curve.average_precision
    ([0.9, 0.8, 0.4], [1, 1, 2], 0.4, 0.8333333333333333)
    """
    return curve_of(scored_pair(references, predictions, scores=scores, lengths=lengths, trim=trim, snap=snap),
                    metric, decode, min_iou, zero_division)


def kept_scored(pair: ScoredPair, threshold: float, per_type: Mapping[str, float] | None = None,
                decode: str = "nested") -> ScoredPair:
    """The pair with only the predictions whose score is at least the threshold of their label (``per_type``,
    else ``threshold``), flat decoded when asked, each with its score."""
    per_type = per_type or {}
    kept = [[(e, s) for e, s in zip(items, row) if s >= per_type.get(_label(e), threshold)]
            for items, row in zip(pair.predictions, pair.scores)]
    if decode == "flat":
        spans = spans_from_lists([[e for e, _ in row] for row in kept], pair.lengths, "predictions")
        mask = iter(flat_decode(spans, np.array([s for row in kept for _, s in row], dtype=np.float64)).tolist())
        kept = [[item for item in row if next(mask)] for row in kept]
    return replace(pair, predictions=[[e for e, _ in row] for row in kept],
                   scores=[[s for _, s in row] for row in kept])


def kept_at(pair: ScoredPair, threshold: float, per_type: Mapping[str, float] | None = None,
            decode: str = "nested") -> list[list[Any]]:
    """Each sentence's entities whose score is at least the threshold of their label (``per_type``, else
    ``threshold``), flat decoded when asked (:func:`kept_scored`)."""
    return list(map(list, kept_scored(pair, threshold, per_type, decode).predictions))


def apply_thresholds(pair: ScoredPair, threshold: float, per_type: Mapping[str, float] | None = None, *,
                     metric: str = "nested", decode: str = "nested", min_iou: float | None = None,
                     zero_division: ZeroDivision = 0) -> dict[str, Any]:
    """The metric's figures for the spans kept at ``threshold`` (per label where ``per_type`` gives one), decoded
    as asked, scored by the metric's own scorer: ``precision``, ``recall``, ``f1``, ``tp``, ``fp``, ``fn`` and
    ``per_type`` (each label's, with ``number``, its gold spans, and ``predicted``, its spans kept). Duplicates are counted in the curve's notes, not warned here."""
    check_settings(metric, decode, min_iou)
    kept = kept_at(pair, threshold, per_type, decode)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", DuplicateSpanWarning)
        if metric == "lenient":
            return _lenient_figures(score_lenient(kept, pair.references, min_iou=min_iou, zero_division=zero_division))
        counts = count_entities(check_entities(kept, pair.lengths, "predictions"),
                                check_entities(pair.references, pair.lengths, "references")).counts
    result = summarize(counts, zero_division)
    figures = {"precision": result["overall_precision"], "recall": result["overall_recall"],
               "f1": result["overall_f1"], "tp": result["tp"], "fp": result["fp"], "fn": result["fn"]}
    labels = {label: {**{key: result[label][key] for key in ("precision", "recall", "f1")}, "tp": tally.tp,
                      "fp": tally.fp, "fn": tally.fn, "number": tally.gold, "predicted": tally.predicted}
              for label, tally in counts.labels.items()}
    return {**figures, "per_type": labels}


def _lenient_figures(result: Mapping[str, Any]) -> dict[str, Any]:
    """The type scheme's figures of a lenient result, as :func:`apply_thresholds` gives them."""
    def figures(row: Mapping[str, Any], prefix: str = "") -> dict[str, Any]:
        correct = row[f"{prefix}correct"]
        return {"precision": row[f"{prefix}precision"], "recall": row[f"{prefix}recall"], "f1": row[f"{prefix}f1"],
                "tp": correct, "fp": row[f"{prefix}actual"] - correct, "fn": row[f"{prefix}possible"] - correct}

    labels = {label: {**figures(row["type"]), "number": row["type"]["possible"], "predicted": row["type"]["actual"]}
              for label, row in result["per_type"].items()}
    return {**figures(result, "type_"), "per_type": labels}
