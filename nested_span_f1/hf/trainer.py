"""``Trainer.compute_metrics`` for token classification, from label ids, with streaming counts.

Works both ways Trainer calls it:

* one shot (default): ``compute_metrics(EvalPrediction)`` with the whole eval set's
  logits (or argmax ids, see :func:`argmax_logits`) and label ids;
* streaming (``TrainingArguments(batch_eval_metrics=True)``): called once per batch
  with ``compute_result=False`` and tensors; only counts are kept between batches,
  so memory does not grow with the eval set. An evaluation that stops midway leaves
  its counts pending: pass ``callbacks=[reset_at_evaluation_start(compute_metrics)]``
  (or call ``compute_metrics.reset()``) so that the next evaluation starts clean.

Returns the keys of transformers' ``run_ner.py`` example (``precision``, ``recall``,
``f1``, ``accuracy``), scalars only, so any key can be ``metric_for_best_model``.
Under Trainer the predictions of all processes are already gathered; for a loop of
your own across processes, add each rank's counts with :func:`all_reduce_counts`.
torch is imported only by :func:`all_reduce_counts`, transformers only by
:func:`reset_at_evaluation_start`.
"""
from __future__ import annotations

import functools
import operator
import weakref
from collections.abc import Callable, Mapping
from typing import Any, Generic, TypeVar

import numpy as np

from ..core.counts import Counts
from ..core.scores import ZeroDivision, check_zero_division, summarize
from ..flat.encoding import LabelList, read_label_list
from ..flat.pipeline import count_exact, decode_pair
from ..flat.tags import label_list_scheme
from ..render.tables import flatten
from .arrays import to_numpy
from .words import word_labels

RUN_NER_KEYS = {"overall_precision": "precision", "overall_recall": "recall", "overall_f1": "f1",
                "overall_accuracy": "accuracy"}
"""run_ner.py's short names of the micro scores (its default ``compute_metrics`` output)."""

C = TypeVar("C")


def first_output(predictions: Any) -> Any:
    """The logits of a model output that may be a tuple (logits first, as Trainer passes them)."""
    return predictions[0] if isinstance(predictions, tuple) else predictions


def predicted_ids(predictions: Any, references: np.ndarray) -> np.ndarray:
    """The predicted label ids: the argmax of logits (one axis more than ``references``), or the ids as given."""
    predicted = to_numpy(first_output(predictions), "predictions")
    return predicted.argmax(-1) if predicted.ndim == references.ndim + 1 else predicted


def argmax_logits(logits: Any, labels: Any) -> Any:
    """``preprocess_logits_for_metrics``: keep argmax ids, not a whole eval set of logits."""
    return first_output(logits).argmax(dim=-1)


def trainer_view(result: Mapping[str, Any], *, entity_level: bool = False) -> dict[str, Any]:
    """Trainer's flat dict of scalars from a result dict.

    Always ``precision``, ``recall``, ``f1`` (and ``accuracy`` for tags), as run_ner.py
    returns them; with ``entity_level`` also every scalar of the result, per-label
    entries spread as ``{LABEL}_{precision|recall|f1|number}`` (run_ner.py's
    ``return_entity_level_metrics`` keys) and nested breakdowns as
    ``{breakdown}_{bucket}_{score}``.

    >>> trainer_view({"overall_precision": 1.0, "overall_recall": 0.5, "overall_f1": 0.6,
    ...               "PER": {"precision": 1.0, "recall": 0.5, "f1": 0.6, "number": 2}})
    {'precision': 1.0, 'recall': 0.5, 'f1': 0.6}
    """
    out = {short: result[key] for key, short in RUN_NER_KEYS.items() if key in result}
    if entity_level:
        out.update(flatten(result))
        for name, value in result.items():
            if isinstance(value, Mapping) and "f1" not in value:
                out.update(flatten({f"{name}_{bucket}": scores for bucket, scores in value.items()}))
    return out


class StreamingMetrics(Generic[C]):
    """A ``compute_metrics`` for both of Trainer's calling conventions, from a counting function.

    ``count(eval_pred)`` turns one EvalPrediction into counts that add. Called one shot
    (``compute_result`` None), the counts are summarized at once. With
    ``TrainingArguments(batch_eval_metrics=True)`` Trainer calls it once per batch: the
    counts are kept (pending) and summarized, then dropped, when ``compute_result`` is
    True, at the evaluation's last batch.

    An evaluation that stops before its last batch (an exception in the model's
    forward pass, a keyboard interrupt) leaves its batches pending, and no call tells
    this object so: :meth:`reset` drops them, and
    :func:`reset_at_evaluation_start` calls it at each evaluation's first batch. A batch
    that ``count`` refuses drops the pending counts itself (its error ends the evaluation).
    """

    def __init__(self, count: Callable[[Any], C], summarize_counts: Callable[[C], dict[str, Any]]) -> None:
        self._count = count
        self._summarize = summarize_counts
        self._pending: list[C] = []

    def __call__(self, eval_pred: Any, compute_result: bool | None = None) -> dict[str, Any]:
        if compute_result is None:
            return self._summarize(self._count(eval_pred))
        try:
            counts = self._count(eval_pred)
        except Exception:
            # a refused batch ends this evaluation; the next one must not count the batches added before it
            self.reset()
            raise
        self._pending.append(counts)
        if not compute_result:
            return {}
        total = functools.reduce(operator.add, self._pending)
        self.reset()
        return self._summarize(total)

    def reset(self) -> None:
        """Drop the counts of an evaluation that never reached its last batch."""
        self._pending.clear()


def reset_at_evaluation_start(*metrics: StreamingMetrics[Any]) -> Any:
    """A ``TrainerCallback`` that resets streaming ``compute_metrics`` at the start of each evaluation.

    ``Trainer(..., compute_metrics=m, callbacks=[reset_at_evaluation_start(m)])``: with
    ``batch_eval_metrics=True`` an evaluation that stopped midway (the model's forward
    raised, a notebook cell was interrupted) leaves counts pending; this callback drops
    them at the next evaluation's first batch, so that evaluation reports its own.

    Trainer has no event at an evaluation's start; an evaluation starts at the first
    prediction step after a training step, a finished evaluation or prediction, or on
    another evaluation dataloader than the step before. Trainer builds a new dataloader
    for each evaluation, except with ``dataloader_persistent_workers=True``: then an
    evaluation interrupted and rerun with no training step between reuses the same
    one, and ``m.reset()`` must be called by hand. transformers is imported here only.
    """
    from transformers import TrainerCallback

    class ResetAtEvaluationStart(TrainerCallback):  # type: ignore[misc]
        def __init__(self) -> None:
            self.starting = True
            self.loader: weakref.ref[Any] | None = None

        def on_prediction_step(self, args: Any, state: Any, control: Any, eval_dataloader: Any = None,
                               **kwargs: Any) -> None:
            last = None if self.loader is None else self.loader()
            if self.starting or last is not eval_dataloader:
                for metric in metrics:
                    metric.reset()
                self.starting = False
                self.loader = None if eval_dataloader is None else weakref.ref(eval_dataloader)

        def between(self, *args: Any, **kwargs: Any) -> None:
            self.starting = True

        on_train_begin = on_step_begin = on_evaluate = on_predict = between

    return ResetAtEvaluationStart()


def eval_arrays(eval_pred: Any) -> tuple[Any, Any]:
    """``(predictions, label_ids)`` of an EvalPrediction, neither of them None."""
    for name in ("predictions", "label_ids"):
        if getattr(eval_pred, name, None) is None:
            raise TypeError(f"the EvalPrediction's {name} is None: compute_metrics needs the model's predictions and "
                            "the label ids (Trainer passes them when the evaluation dataset has labels; see "
                            "TrainingArguments(label_names=...))")
    return eval_pred.predictions, eval_pred.label_ids


def compute_metrics_for(
    label_list: LabelList,
    *,
    scheme: str | None = None,
    mode: str | None = None,
    zero_division: ZeroDivision = 0,
    entity_level: bool = False,
    word_ids: bool = False,
) -> StreamingMetrics[Counts]:
    """Build a ``compute_metrics`` for Trainer that scores label ids against ``label_list``.

    Every option is checked here, before any training: a Trainer run must not spend its
    ``eval_steps`` to fail at the first evaluation.

    Args:
        label_list: the tag of each label id: a list in id order, or the model's
            ``config.id2label`` (or ``label2id``), read in id order.
        scheme, mode: as in :func:`nested_span_f1.score_exact`, except that strict mode
            without a scheme detects it once, from the prefixes of ``label_list`` (seqeval
            detects it from the references; one batch's references may be all ``O``).
        zero_division: "warn", 0 or 1 (0 by default: evaluation logs should not warn every step).
        entity_level: also return per-type keys (``PER_f1``, ...) and the other averages.
        word_ids: the label ids are ``(labels, word_ids)`` (``label_names=["labels", "word_ids"]``): every
            sub-token may be labelled, and each word is scored once, by its first sub-token
            (see :mod:`nested_span_f1.hf.words`).

    Returns:
        ``compute_metrics(eval_pred, compute_result=None)`` giving ``precision``,
        ``recall``, ``f1``, ``accuracy`` (see :func:`trainer_view`); with
        ``batch_eval_metrics=True`` it streams (see :class:`StreamingMetrics`: pass
        ``callbacks=[reset_at_evaluation_start(compute_metrics)]`` too).

    Raises:
        TypeError, ValueError: a ``label_list`` :func:`~nested_span_f1.flat.encoding.read_label_list`
            refuses, a malformed tag in it (or one outside the strict scheme), an unknown
            scheme or mode, a bad ``zero_division``.
    """
    # Trainer pads gathered batches with -100; positions with a -100 reference are skipped
    return tag_metrics(label_list, count_exact, summarize, scheme=scheme, mode=mode, zero_division=zero_division,
                       entity_level=entity_level, word_ids=word_ids)


def streaming(count: Callable[[Any], C], summarize_counts: Callable[[C, ZeroDivision], dict[str, Any]],
              zero_division: ZeroDivision, entity_level: bool) -> StreamingMetrics[C]:
    """The ``compute_metrics`` of every factory: ``count`` per EvalPrediction, the counts summarized with
    ``zero_division`` (checked here) and shown as Trainer's flat dict (:func:`trainer_view`)."""
    check_zero_division(zero_division)
    return StreamingMetrics(count, lambda c: trainer_view(summarize_counts(c, zero_division), entity_level=entity_level))


def tag_metrics(label_list: LabelList, count_ids: Callable[..., C],
                summarize_counts: Callable[[C, ZeroDivision], dict[str, Any]], *, scheme: str | None,
                mode: str | None, zero_division: ZeroDivision, entity_level: bool,
                word_ids: bool) -> StreamingMetrics[C]:
    """The ``compute_metrics`` of a tagger's label ids, flat or layered: every option checked now, then per
    EvalPrediction the predicted ids (argmax of logits) and the label ids (each word's first sub-token with
    ``word_ids``) counted by ``count_ids(predicted, references, label_list=, scheme=, mode=)``. Strict mode
    without a scheme detects it once, from the prefixes of ``label_list``."""
    labels = read_label_list(label_list)
    chosen = label_list_scheme(labels, scheme=scheme, strict=mode == "strict")
    decode_pair([], [], scheme=chosen, mode=mode)  # the pipeline refuses an unknown mode now, not at the first batch

    def count(eval_pred: Any) -> C:
        predictions, label_ids = eval_arrays(eval_pred)
        references = word_labels(label_ids) if word_ids else to_numpy(label_ids, "label_ids")
        return count_ids(predicted_ids(predictions, references), references, label_list=labels, scheme=chosen,
                         mode=mode)

    return streaming(count, summarize_counts, zero_division, entity_level)


def all_reduce_counts(counts: C, group: Any = None) -> C:
    """The sum of every rank's counts (``Counts``, ``LenientCounts`` or ``NestedCounts``).

    Each rank passes the counts of its own shard; every rank gets the total. The counts
    travel in their ``to_dict`` form (``torch.distributed.all_gather_object``), so any
    backend works, gloo on CPU included. Without an initialised process group the
    counts are returned as they are.
    """
    import torch.distributed as dist

    if not (dist.is_available() and dist.is_initialized()):
        return counts
    gathered: list[Any] = [None] * dist.get_world_size(group)
    dist.all_gather_object(gathered, counts.to_dict(), group=group)  # type: ignore[attr-defined]
    return functools.reduce(operator.add, (type(counts).from_dict(d) for d in gathered))  # type: ignore[attr-defined]
