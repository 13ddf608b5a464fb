"""``Trainer.compute_metrics`` for token classification, from label ids, with streaming counts.

Works both ways Trainer calls it:

* one shot (default): ``compute_metrics(EvalPrediction)`` with the whole eval set's
  logits (or argmax ids, see :func:`argmax_logits`) and label ids;
* streaming (``TrainingArguments(batch_eval_metrics=True)``): called once per batch
  with ``compute_result=False`` and tensors; only :class:`~nested_span_f1.Counts`
  are kept between batches, so memory does not grow with the eval set.

Returns Trainer's flat view: ``overall_f1``, ``PER_f1``, ... (scalars only, so any
key can be ``metric_for_best_model``). torch is never imported here.
"""
from __future__ import annotations

from collections.abc import Sequence
from typing import Any, Callable

import numpy as np

from .counts import Counts
from .flat import count_tags
from .report import flatten
from .scores import ZeroDivision, summarize


def _numpy(x: Any) -> np.ndarray:
    if hasattr(x, "detach"):
        x = x.detach().cpu().numpy()
    return np.asarray(x)


def argmax_logits(logits: Any, labels: Any) -> Any:
    """``preprocess_logits_for_metrics``: keep argmax ids, not a whole eval set of logits."""
    if isinstance(logits, tuple):
        logits = logits[0]
    return logits.argmax(dim=-1)


def compute_metrics_for(
    label_list: Sequence[str],
    *,
    scheme: str | None = None,
    mode: str | None = None,
    zero_division: ZeroDivision = 0,
) -> Callable[..., dict[str, Any]]:
    """Build a ``compute_metrics`` for Trainer that scores label ids against ``label_list``.

    Args:
        label_list: the tag of each label id (``model.config.id2label`` in id order).
        scheme, mode: as in :func:`nested_span_f1.score_tags`.
        zero_division: "warn", 0 or 1 (0 by default: evaluation logs should not warn every step).
    """
    labels = list(label_list)
    pending: list[Counts] = []

    def counts_of(eval_pred: Any) -> Counts:
        predictions, references = eval_pred.predictions, eval_pred.label_ids
        if isinstance(predictions, tuple):
            predictions = predictions[0]
        predictions, references = _numpy(predictions), _numpy(references)
        if predictions.ndim == references.ndim + 1:
            predictions = predictions.argmax(-1)
        # Trainer pads gathered batches with -100; positions with a -100 reference are skipped
        return count_tags(predictions, references, label_list=labels, scheme=scheme, mode=mode)

    def compute_metrics(eval_pred: Any, compute_result: bool | None = None) -> dict[str, Any]:
        if compute_result is None:
            return flatten(summarize(counts_of(eval_pred), zero_division))
        pending.append(counts_of(eval_pred))
        if not compute_result:
            return {}
        total = sum(pending, Counts())
        pending.clear()
        return flatten(summarize(total, zero_division))

    return compute_metrics
