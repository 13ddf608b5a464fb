"""``Trainer.compute_metrics`` for nested NER: span classifiers and layered taggers.

Both factories score label ids and tensors with the nested metric
(:func:`nested_span_f1.nested.score.count_arrays`) without building a string per token,
and stream like :func:`nested_span_f1.hf.trainer.compute_metrics_for`: with
``TrainingArguments(batch_eval_metrics=True)`` only :class:`NestedCounts` are kept
between batches. They return ``precision``, ``recall``, ``f1`` (and, with
``entity_level``, per-type and breakdown keys), all scalars.

Span classifier (:func:`span_metrics_for`): ``predictions`` are logits
``[batch, candidates, labels]`` (or their argmax), ``label_ids`` the tuple
``(labels, starts, ends)`` or ``(labels, starts, ends, gold_spans)`` that Trainer
builds from ``TrainingArguments(label_names=["labels", "span_starts", "span_ends",
"gold_spans"])``: each candidate's gold label id (-100 for padding), its start and
exclusive end token, and optionally every gold span as ``[start, end, label id]``
rows (padding rows negative). Without ``gold_spans`` the references are the
candidates' gold labels, so a gold entity that no candidate covers is not seen;
pass ``gold_spans`` to count it as missed.

Layered tagger (:func:`layered_metrics_for`): one tag layer per nesting depth,
``predictions`` logits ``[batch, tokens, layers, labels]`` (or their argmax),
``label_ids`` ``[batch, tokens, layers]`` with -100 on positions to skip; each
layer is decoded like flat tags and a sentence's spans are the union of its layers'.
"""
from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

import numpy as np

from ..core.counts import Counts
from ..core.scores import ZeroDivision
from ..core.spans import SpanArrays
from ..flat.pipeline import decode_pair
from ..nested.score import NestedCounts, count_arrays, summarize_nested
from .trainer import predicted_ids, streaming, to_numpy, trainer_view


def _checked_spans(sentence: np.ndarray, start: np.ndarray, end: np.ndarray, label: np.ndarray,
                   labels: tuple[str, ...], n_sentences: int, side: str) -> SpanArrays:
    """Spans from parallel arrays, after checking offsets and label ids (messages name the sentence)."""
    for name, values in (("start", start), ("end", end), ("label id", label)):
        # a float or bool tensor would be truncated silently by the int64 cast below
        if not np.issubdtype(values.dtype, np.integer):
            where = f"sentence {int(sentence[0])} has span {name} {values[0].item()!r}" if len(values) else "no spans"
            raise TypeError(f"{side}: {where}; span {name}s must be integers, got an array of {values.dtype}")
    bad = np.flatnonzero((start < 0) | (start >= end))
    if len(bad):
        k = bad[0]
        raise ValueError(f"{side}: sentence {int(sentence[k])} has span start {int(start[k])}, end {int(end[k])}; "
                         "spans need 0 <= start < end (end exclusive)")
    bad = np.flatnonzero((label < 0) | (label >= len(labels)))
    if len(bad):
        k = bad[0]
        raise ValueError(f"{side}: sentence {int(sentence[k])}, span ({int(start[k])}, {int(end[k])}) has label id "
                         f"{int(label[k])}, not one of 0..{len(labels) - 1}")

    def as64(a: np.ndarray) -> np.ndarray:
        return np.asarray(a, dtype=np.int64)

    return SpanArrays(sentence=as64(sentence), start=as64(start), end=as64(end), label=as64(label), labels=labels,
                      n_sentences=n_sentences)


def candidate_spans(
    ids: Any, starts: Any, ends: Any, mask: Any, label_list: Sequence[str], none_label: int, side: str = "predictions"
) -> SpanArrays:
    """The candidates ``mask`` keeps whose label id is not ``none_label``, as spans.

    ``ids``, ``starts``, ``ends``, ``mask``: ``[batch, candidates]``; ends exclusive.
    """
    ids, starts, ends, mask = (to_numpy(x) for x in (ids, starts, ends, mask))
    keep = mask & (ids != none_label)
    sentence, _ = np.nonzero(keep)
    return _checked_spans(sentence, starts[keep], ends[keep], ids[keep], tuple(label_list), ids.shape[0], side)


def gold_span_rows(gold_spans: Any, label_list: Sequence[str]) -> SpanArrays:
    """Gold spans from ``[batch, spans, 3]`` rows of ``(start, end, label id)``; negative starts are padding."""
    rows = to_numpy(gold_spans)
    if rows.ndim != 3 or rows.shape[-1] != 3:
        raise ValueError(f"gold_spans must have shape [batch, spans, 3] (start, end, label id), got {list(rows.shape)}")
    keep = rows[..., 0] >= 0
    sentence, _ = np.nonzero(keep)
    kept = rows[keep]
    return _checked_spans(sentence, kept[:, 0], kept[:, 1], kept[:, 2], tuple(label_list), rows.shape[0], "gold_spans")


def span_metrics_for(
    label_list: Sequence[str],
    *,
    none_label: int = 0,
    zero_division: ZeroDivision = 0,
    entity_level: bool = False,
) -> Callable[..., dict[str, Any]]:
    """Build a ``compute_metrics`` for a span-classification model (see the module docstring).

    Args:
        label_list: the entity type of each label id (``label_list[none_label]`` is unused).
        none_label: the "no entity" label id.
        zero_division: "warn", 0 or 1.
        entity_level: also per-type keys (``protein_f1``, ...) and the breakdowns.
    """
    labels = tuple(label_list)
    if not 0 <= none_label < len(labels):
        raise ValueError(f"none_label {none_label} is not a label id below {len(labels)}")

    def count(eval_pred: Any) -> NestedCounts:
        if not isinstance(eval_pred.label_ids, (tuple, list)) or len(eval_pred.label_ids) not in (3, 4):
            raise ValueError('label_ids must be (labels, starts, ends[, gold_spans]): pass TrainingArguments('
                             'label_names=["labels", "span_starts", "span_ends"(, "gold_spans")])')
        gold, starts, ends = (to_numpy(x) for x in eval_pred.label_ids[:3])
        predicted = predicted_ids(eval_pred.predictions, gold)
        mask = gold != -100
        predictions = candidate_spans(predicted, starts, ends, mask, labels, none_label)
        if len(eval_pred.label_ids) == 4:
            references = gold_span_rows(eval_pred.label_ids[3], labels)
        else:
            references = candidate_spans(gold, starts, ends, mask, labels, none_label, "references")
        return count_arrays(predictions, references)

    return streaming(count, lambda c: trainer_view(summarize_nested(c, zero_division), entity_level=entity_level))


def _layers(x: np.ndarray) -> np.ndarray:
    """``[batch, tokens, layers]`` -> one row per (sentence, layer): ``[batch * layers, tokens]``."""
    return x.transpose(0, 2, 1).reshape(-1, x.shape[1])


def count_layered_ids(
    predictions: Any, references: Any, label_list: Sequence[str], *, scheme: str | None = None,
    mode: str | None = None,
) -> NestedCounts:
    """Nested counts of layered label ids ``[batch, tokens, layers]`` (-100 in references skipped).

    A position skipped in one layer of a sentence must be skipped in every layer that
    has any position left (otherwise the layers' token offsets would disagree).
    """
    pred, ref = to_numpy(predictions), to_numpy(references)
    if ref.ndim != 3 or pred.shape != ref.shape:
        raise ValueError(f"layered predictions and references must both be [batch, tokens, layers], "
                         f"got {list(pred.shape)} and {list(ref.shape)}")
    scored = ref != -100
    used = scored.any(axis=1, keepdims=True)
    bad = np.argwhere(used & (scored != scored.any(axis=2, keepdims=True)))
    if len(bad):
        s, t, layer = bad[0].tolist()
        raise ValueError(f"sentence {s}, token {t}: layer {layer} skips the position (-100) where another layer "
                         "scores it; every layer of a sentence must skip the same positions")
    decoded = decode_pair(_layers(pred), _layers(ref), label_list=list(label_list), scheme=scheme, mode=mode)
    n_layers = ref.shape[2]

    def lift(side: SpanArrays) -> SpanArrays:
        return SpanArrays(sentence=side.sentence // n_layers, start=side.start, end=side.end, label=side.label,
                          labels=side.labels, n_sentences=ref.shape[0])

    counts = count_arrays(lift(decoded.predictions), lift(decoded.references))
    return counts + NestedCounts(Counts(notes=decoded.notes))


def layered_metrics_for(
    label_list: Sequence[str],
    *,
    scheme: str | None = None,
    mode: str | None = None,
    zero_division: ZeroDivision = 0,
    entity_level: bool = False,
) -> Callable[..., dict[str, Any]]:
    """Build a ``compute_metrics`` for a layered tagger (see the module docstring).

    Args:
        label_list: the tag of each label id, the same for every layer.
        scheme, mode: how each layer is decoded, as in :func:`nested_span_f1.score_tags`.
        zero_division: "warn", 0 or 1.
        entity_level: also per-type keys and the breakdowns.
    """
    labels = list(label_list)

    def count(eval_pred: Any) -> NestedCounts:
        references = to_numpy(eval_pred.label_ids)
        predictions = predicted_ids(eval_pred.predictions, references)
        return count_layered_ids(predictions, references, labels, scheme=scheme, mode=mode)

    return streaming(count, lambda c: trainer_view(summarize_nested(c, zero_division), entity_level=entity_level))
