"""``Trainer.compute_metrics`` for token classification, from label ids, with streaming counts.

Works both ways Trainer calls it:

* one shot (default): ``compute_metrics(EvalPrediction)`` with the whole eval set's
  logits (or argmax ids, see :func:`argmax_logits`) and label ids;
* streaming (``TrainingArguments(batch_eval_metrics=True)``): called once per batch
  with ``compute_result=False`` and tensors; only counts are kept between batches,
  so memory does not grow with the eval set.

Returns the keys of transformers' ``run_ner.py`` example (``precision``, ``recall``,
``f1``, ``accuracy``), scalars only, so any key can be ``metric_for_best_model``.
Under Trainer the predictions of all processes are already gathered; for a loop of
your own across processes, add each rank's counts with :func:`all_reduce_counts`.
torch is imported only by :func:`all_reduce_counts`.
"""
from __future__ import annotations

import functools
import operator
from collections.abc import Callable, Mapping, Sequence
from typing import Any, TypeVar

import numpy as np

from ..core.counts import Counts
from ..core.scores import ZeroDivision, summarize
from ..flat.pipeline import count_tags
from ..views.tables import flatten

RUN_NER_KEYS = {"overall_precision": "precision", "overall_recall": "recall", "overall_f1": "f1",
                "overall_accuracy": "accuracy"}
"""run_ner.py's short names of the micro scores (its default ``compute_metrics`` output)."""

C = TypeVar("C")


def to_numpy(x: Any) -> np.ndarray:
    """A numpy array of a tensor (any device) or array-like."""
    if hasattr(x, "detach"):
        x = x.detach().cpu().numpy()
    return np.asarray(x)


def first_output(predictions: Any) -> Any:
    """The logits of a model output that may be a tuple (logits first, as Trainer passes them)."""
    return predictions[0] if isinstance(predictions, tuple) else predictions


def predicted_ids(predictions: Any, references: np.ndarray) -> np.ndarray:
    """The predicted label ids: the argmax of logits (one axis more than ``references``), or the ids as given."""
    predicted = to_numpy(first_output(predictions))
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


def streaming(
    count: Callable[[Any], C], summarize_counts: Callable[[C], dict[str, Any]]
) -> Callable[..., dict[str, Any]]:
    """A ``compute_metrics`` for both of Trainer's calling conventions from a counting function.

    ``count(eval_pred)`` turns one EvalPrediction into counts that add; one shot, the
    counts are summarized at once; with ``batch_eval_metrics=True`` they are kept
    per batch and summarized when Trainer passes ``compute_result=True``.
    """
    pending: list[C] = []

    def compute_metrics(eval_pred: Any, compute_result: bool | None = None) -> dict[str, Any]:
        if compute_result is None:
            return summarize_counts(count(eval_pred))
        try:
            counts = count(eval_pred)
        except Exception:
            # a refused batch ends this evaluation; the next one must not count the batches added before it
            pending.clear()
            raise
        pending.append(counts)
        if not compute_result:
            return {}
        total = functools.reduce(operator.add, pending)
        pending.clear()
        return summarize_counts(total)

    return compute_metrics


def compute_metrics_for(
    label_list: Sequence[str],
    *,
    scheme: str | None = None,
    mode: str | None = None,
    zero_division: ZeroDivision = 0,
    entity_level: bool = False,
) -> Callable[..., dict[str, Any]]:
    """Build a ``compute_metrics`` for Trainer that scores label ids against ``label_list``.

    Args:
        label_list: the tag of each label id (``model.config.id2label`` in id order).
        scheme, mode: as in :func:`nested_span_f1.score_tags`.
        zero_division: "warn", 0 or 1 (0 by default: evaluation logs should not warn every step).
        entity_level: also return per-type keys (``PER_f1``, ...) and the other averages.

    Returns:
        ``compute_metrics(eval_pred, compute_result=None)`` giving ``precision``,
        ``recall``, ``f1``, ``accuracy`` (see :func:`trainer_view`).
    """
    labels = list(label_list)

    def count(eval_pred: Any) -> Counts:
        references = to_numpy(eval_pred.label_ids)
        predictions = predicted_ids(eval_pred.predictions, references)
        # Trainer pads gathered batches with -100; positions with a -100 reference are skipped
        return count_tags(predictions, references, label_list=labels, scheme=scheme, mode=mode)

    return streaming(count, lambda counts: trainer_view(summarize(counts, zero_division), entity_level=entity_level))


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
