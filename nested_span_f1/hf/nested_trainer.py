"""``Trainer.compute_metrics`` for nested NER: span classifiers and layered taggers.

Both factories score label ids and tensors with the nested metric
(:func:`nested_span_f1.nested.score.count_arrays`) without building a string per token,
and stream like :func:`nested_span_f1.hf.trainer.compute_metrics_for`: with
``TrainingArguments(batch_eval_metrics=True)`` only :class:`NestedCounts` are kept
between batches, and an evaluation that stopped midway is dropped by ``reset()`` or by
``callbacks=[reset_at_evaluation_start(compute_metrics)]``. They take ``label_list``
as it does (a list, or a model's ``id2label`` / ``label2id``), check every option when
built, and return ``precision``, ``recall``, ``f1`` (and, with ``entity_level``,
per-type and breakdown keys), all scalars.

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

from typing import Any

import numpy as np

from ..core.counts import Counts
from ..core.scores import ZeroDivision
from ..core.spans import SpanArrays
from ..core.wording import quote
from ..flat.encoding import SIDES, LabelList, read_label_list
from ..flat.pipeline import decode_pair
from ..flat.schemes import Scheme
from ..nested.score import NestedCounts, count_arrays, summarize_nested
from .arrays import to_numpy
from .trainer import StreamingMetrics, eval_arrays, predicted_ids, streaming, tag_metrics

LABEL_NAMES = ("labels", "span_starts", "span_ends", "gold_spans")
"""The span classifier's ``TrainingArguments(label_names=...)``, in the order of ``label_ids``."""


def _checked_spans(sentence: np.ndarray, item: np.ndarray, start: np.ndarray, end: np.ndarray, label: np.ndarray,
                   labels: tuple[str, ...], n_sentences: int, side: str, what: str) -> SpanArrays:
    """Spans from parallel arrays, after checking offsets and label ids; messages name the sentence and the
    ``what`` (candidate, gold_spans row) ``item`` of it, as the arrays were given."""
    def where(k: int) -> str:
        return f"{side}: sentence {int(sentence[k])}, {what} {int(item[k])}"

    for name, values in (("start", start), ("end", end), ("label id", label)):
        # a float or bool tensor would be truncated silently by the int64 cast below
        if not np.issubdtype(values.dtype, np.integer):
            found = f"{where(0)} has span {name} {quote(values[0].item())}" if len(values) else f"{side}: no spans"
            raise TypeError(f"{found}; span {name}s must be integers, got an array of {values.dtype}")
    bad = np.flatnonzero((start < 0) | (start >= end))
    if len(bad):
        k = bad[0]
        raise ValueError(f"{where(k)} has span start {int(start[k])}, end {int(end[k])}; "
                         "spans need 0 <= start < end (end exclusive)")
    bad = np.flatnonzero((label < 0) | (label >= len(labels)))
    if len(bad):
        k = bad[0]
        raise ValueError(f"{where(k)}, span ({int(start[k])}, {int(end[k])}) has label id {int(label[k])}, "
                         f"not one of 0..{len(labels) - 1}")

    def as64(a: np.ndarray) -> np.ndarray:
        return np.asarray(a, dtype=np.int64)

    return SpanArrays(sentence=as64(sentence), start=as64(start), end=as64(end), label=as64(label), labels=labels,
                      n_sentences=n_sentences)


def candidate_spans(
    ids: Any, starts: Any, ends: Any, mask: Any, label_list: LabelList, none_label: int, side: str = "predictions"
) -> SpanArrays:
    """The candidates ``mask`` keeps whose label id is not ``none_label``, as spans.

    ``ids``, ``starts``, ``ends``, ``mask``: ``[batch, candidates]``; ends exclusive.
    """
    ids, starts, ends, mask = (to_numpy(x) for x in (ids, starts, ends, mask))
    keep = mask & (ids != none_label)
    sentence, candidate = np.nonzero(keep)
    return _checked_spans(sentence, candidate, starts[keep], ends[keep], ids[keep], read_label_list(label_list),
                          ids.shape[0], side, "candidate")


def gold_span_rows(gold_spans: Any, label_list: LabelList, none_label: int) -> SpanArrays:
    """Gold spans from ``[batch, spans, 3]`` rows of ``(start, end, label id)``; negative starts are padding.

    A row whose label id is ``none_label`` is refused: "no entity" is not a gold entity.
    """
    rows = to_numpy(gold_spans, "gold_spans")
    if rows.ndim != 3 or rows.shape[-1] != 3:
        raise ValueError(f"gold_spans must have shape [batch, spans, 3] (start, end, label id), got {list(rows.shape)}")
    keep = rows[..., 0] >= 0
    sentence, row = np.nonzero(keep)
    kept = rows[keep]
    spans = _checked_spans(sentence, row, kept[:, 0], kept[:, 1], kept[:, 2], read_label_list(label_list),
                           rows.shape[0], "gold_spans", "row")
    none = np.flatnonzero(spans.label == none_label)
    if len(none):
        k = int(none[0])
        raise ValueError(f"gold_spans: sentence {int(sentence[k])}, row {int(row[k])}: span ({int(spans.start[k])}, "
                         f"{int(spans.end[k])}) has label id {none_label}, the none label ({quote(spans.labels[none_label])}); "
                         "gold_spans rows are gold entities (pad with a negative start)")
    return spans


def _none_label(none_label: Any, labels: tuple[str, ...]) -> int:
    """``none_label`` checked: an integer label id (not a bool) of ``labels``."""
    if isinstance(none_label, bool) or not isinstance(none_label, (int, np.integer)):
        raise TypeError(f"none_label must be an integer label id (the \"no entity\" class), got {quote(none_label)}")
    if not 0 <= none_label < len(labels):
        raise ValueError(f"none_label {none_label} is not a label id below {len(labels)}")
    return int(none_label)


def span_metrics_for(
    label_list: LabelList,
    *,
    none_label: int = 0,
    zero_division: ZeroDivision = 0,
    entity_level: bool = False,
) -> StreamingMetrics[NestedCounts]:
    """Build a ``compute_metrics`` for a span-classification model (see the module docstring).

    Every option is checked here, before any training.

    Args:
        label_list: the entity type of each label id (``label_list[none_label]`` is unused):
            a list in id order, or the model's ``id2label`` (or ``label2id``).
        none_label: the "no entity" label id.
        zero_division: "warn", 0 or 1.
        entity_level: also per-type keys (``protein_f1``, ...) and the breakdowns.
    """
    labels = read_label_list(label_list)
    none = _none_label(none_label, labels)

    def count(eval_pred: Any) -> NestedCounts:
        predictions, label_ids = eval_arrays(eval_pred)
        if not isinstance(label_ids, (tuple, list)) or len(label_ids) not in (3, 4):
            raise ValueError('label_ids must be (labels, starts, ends[, gold_spans]): pass TrainingArguments('
                             'label_names=["labels", "span_starts", "span_ends"(, "gold_spans")])')
        for name, value in zip(LABEL_NAMES, label_ids):
            if value is None:
                raise TypeError(f"label_ids holds None for {name}: each of (labels, starts, ends[, gold_spans]) "
                                "must be an array")
        gold, starts, ends = (to_numpy(x, f"label_ids[{i}] ({name})")
                              for i, (name, x) in enumerate(zip(LABEL_NAMES, label_ids[:3])))
        predicted = predicted_ids(predictions, gold)
        shapes = {"labels": gold.shape, "starts": starts.shape, "ends": ends.shape, "predicted ids": predicted.shape}
        if len(set(shapes.values())) > 1:
            raise ValueError("labels, starts, ends and the predicted ids must have one shape [batch, candidates], got "
                             + ", ".join(f"{name} {list(shape)}" for name, shape in shapes.items()))
        mask = gold != -100
        predicted_spans = candidate_spans(predicted, starts, ends, mask, labels, none)
        if len(label_ids) == 4:
            references = gold_span_rows(label_ids[3], labels, none)
        else:
            references = candidate_spans(gold, starts, ends, mask, labels, none, "references")
        return count_arrays(predicted_spans, references)

    return streaming(count, summarize_nested, zero_division, entity_level)


def _layers(x: np.ndarray) -> np.ndarray:
    """``[batch, tokens, layers]`` -> one row per (sentence, layer): ``[batch * layers, tokens]``."""
    return x.transpose(0, 2, 1).reshape(-1, x.shape[1])


def count_layered_ids(
    predictions: Any, references: Any, label_list: LabelList, *, scheme: str | Scheme | None = None,
    mode: str | None = None,
) -> NestedCounts:
    """Nested counts of layered label ids ``[batch, tokens, layers]`` (-100 in references skipped).

    A position skipped in one layer of a sentence must be skipped in every layer that
    has any position left (otherwise the layers' token offsets would disagree).
    Errors name the sentence, token and layer as the arrays were given.
    """
    labels = read_label_list(label_list)
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
    for side, ids in zip(SIDES, (pred, ref)):
        if not np.issubdtype(ids.dtype, np.integer):
            raise TypeError(f"{side}: label ids must be integers, got an array of {ids.dtype}")
        bad = np.argwhere(scored & ((ids < 0) | (ids >= len(labels))))
        if len(bad):
            s, t, layer = bad[0].tolist()
            raise ValueError(f"{side}, sentence {s}, token {t}, layer {layer}: label id {int(ids[s, t, layer])} is "
                             f"outside label_list (ids 0..{len(labels) - 1}; -100 is only ignored in references)")
    decoded = decode_pair(_layers(pred), _layers(ref), label_list=labels, scheme=scheme, mode=mode)
    n_layers = ref.shape[2]

    def lift(side: SpanArrays) -> SpanArrays:
        return SpanArrays(sentence=side.sentence // n_layers, start=side.start, end=side.end, label=side.label,
                          labels=side.labels, n_sentences=ref.shape[0])

    counts = count_arrays(lift(decoded.predictions), lift(decoded.references))
    return counts + NestedCounts(Counts(notes=decoded.notes))


def layered_metrics_for(
    label_list: LabelList,
    *,
    scheme: str | None = None,
    mode: str | None = None,
    zero_division: ZeroDivision = 0,
    entity_level: bool = False,
    word_ids: bool = False,
) -> StreamingMetrics[NestedCounts]:
    """Build a ``compute_metrics`` for a layered tagger (see the module docstring).

    Every option is checked here, before any training, as by
    :func:`nested_span_f1.hf.trainer.compute_metrics_for`.

    Args:
        label_list: the tag of each label id, the same for every layer: a list in id
            order, or the model's ``id2label`` (or ``label2id``).
        scheme, mode: how each layer is decoded, as in :func:`nested_span_f1.score_exact`;
            strict mode without a scheme detects it once, from the prefixes of ``label_list``.
        zero_division: "warn", 0 or 1.
        entity_level: also per-type keys and the breakdowns.
        word_ids: the label ids are ``(labels, word_ids)``: each word is scored by its first sub-token, as
            :func:`nested_span_f1.hf.trainer.compute_metrics_for` does.
    """
    return tag_metrics(label_list, count_layered_ids, summarize_nested, scheme=scheme, mode=mode,
                       zero_division=zero_division, entity_level=entity_level, word_ids=word_ids)
