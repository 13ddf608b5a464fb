"""Hypothesis fuzzing of the Trainer factories' streaming path (issue 26).

With ``batch_eval_metrics=True`` Trainer calls ``compute_metrics`` once per batch,
each batch padded to its own longest row. Whatever came before (evaluations stopped
midway and then reset, evaluations that a refused batch ended), an evaluation split
into batches at random gives exactly what one call on the whole evaluation gives.
``entity_level`` is on, so that counts leaking from an earlier evaluation show in the
``*_number`` and ``tp``/``fp``/``fn`` keys even where they would leave the ratios alone.
"""
from __future__ import annotations

from itertools import pairwise
from typing import Any

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st

pytest.importorskip("transformers")
from transformers import EvalPrediction

from nested_span_f1.hf.nested_trainer import layered_metrics_for, span_metrics_for
from nested_span_f1.hf.trainer import compute_metrics_for

TAGS = ["O", "B-PER", "I-PER", "B-LOC", "I-LOC"]
TYPES = ["none", "PER", "LOC"]
LAYERS = 2

ids = st.integers(0, len(TAGS) - 1)


@st.composite
def tag_sentence(draw: Any) -> dict[str, Any]:
    """One sentence of label ids, -100 where its reference has no label (special tokens, sub-words)."""
    n = draw(st.integers(0, 6))
    return {"pred": draw(st.lists(ids, min_size=n, max_size=n)),
            "ref": draw(st.lists(st.one_of(ids, ids, st.just(-100)), min_size=n, max_size=n))}


LAYER_IDS = st.tuples(st.sampled_from([0, 1, 2]), st.sampled_from([0, 3, 4])).map(list)
"""A token's ids in the two layers: PER in the first, LOC in the second (one span in two layers would be a
duplicate, which the nested metric reports with a warning)."""


@st.composite
def layered_sentence(draw: Any) -> dict[str, Any]:
    """One sentence of ``LAYERS`` tag layers; a position skipped is skipped in every layer."""
    n = draw(st.integers(0, 6))
    skipped = draw(st.lists(st.booleans(), min_size=n, max_size=n))
    pred = [draw(LAYER_IDS) for _ in range(n)]
    ref = [[-100] * LAYERS if skip else draw(LAYER_IDS) for skip in skipped]
    return {"pred": pred, "ref": ref}


@st.composite
def span_sentence(draw: Any) -> dict[str, Any]:
    """Candidate spans of up to 3 words with their gold and predicted label ids, and the gold spans."""
    n = draw(st.integers(1, 5))
    candidates = [(s, e) for s in range(n) for e in range(s + 1, min(n, s + 3) + 1)]
    types = st.sampled_from([0, 0, 1, 2])
    gold = draw(st.lists(types, min_size=len(candidates), max_size=len(candidates)))
    spans = draw(st.lists(st.tuples(st.integers(0, n - 1), st.integers(1, n), st.integers(1, len(TYPES) - 1))
                          .filter(lambda t: t[0] < t[1]), max_size=3, unique=True))
    return {"pred": draw(st.lists(types, min_size=len(candidates), max_size=len(candidates))), "gold": gold,
            "starts": [s for s, _ in candidates], "ends": [e for _, e in candidates], "spans": spans}


def _grid(rows: list[list[Any]], fill: Any, tail: tuple[int, ...] = ()) -> np.ndarray:
    """Rows padded with ``fill`` to the longest (at least 1), as Trainer pads a batch."""
    width = max([1, *map(len, rows)])
    out = np.full((len(rows), width, *tail), fill, dtype=np.int64)
    for i, row in enumerate(rows):
        if row:
            out[i, : len(row)] = row
    return out


def _batch(kind: str, sentences: list[dict[str, Any]], fill: int, with_gold_spans: bool) -> EvalPrediction:
    """The EvalPrediction of a batch: references padded with -100, predictions with ``fill`` (a model's
    output at padding, or -100 where Trainer padded across processes)."""
    if kind == "tags":
        return EvalPrediction(_grid([s["pred"] for s in sentences], fill), _grid([s["ref"] for s in sentences], -100))
    if kind == "layers":
        return EvalPrediction(_grid([s["pred"] for s in sentences], fill, (LAYERS,)),
                              _grid([s["ref"] for s in sentences], -100, (LAYERS,)))
    label_ids = tuple(_grid([s[key] for s in sentences], -100) for key in ("gold", "starts", "ends"))
    if with_gold_spans:
        label_ids += (_grid([s["spans"] for s in sentences], -100, (3,)),)
    return EvalPrediction(_grid([s["pred"] for s in sentences], fill), label_ids)


def _refused(batch: EvalPrediction) -> EvalPrediction:
    """The batch with one predicted column too many: every factory refuses predictions of another shape."""
    predictions = batch.predictions
    extra = np.zeros((predictions.shape[0], 1, *predictions.shape[2:]), dtype=predictions.dtype)
    return EvalPrediction(np.concatenate([predictions, extra], axis=1), batch.label_ids)


def _splits(draw: Any, n: int) -> list[slice]:
    """``range(n)`` cut into contiguous batches at random places."""
    cuts = sorted(draw(st.sets(st.integers(1, n - 1), max_size=n - 1))) if n > 1 else []
    edges = [0, *cuts, n]
    return [slice(a, b) for a, b in pairwise(edges)]


FACTORIES = {
    "tags": (tag_sentence(), lambda mode: compute_metrics_for(TAGS, mode=mode, entity_level=True)),
    "layers": (layered_sentence(), lambda mode: layered_metrics_for(TAGS, mode=mode, entity_level=True)),
    "spans": (span_sentence(), lambda mode: span_metrics_for(TYPES, entity_level=True)),
}


@pytest.mark.parametrize("kind", sorted(FACTORIES))
@given(data=st.data())
def test_streamed_evaluation_equals_one_call_whatever_came_before(kind, data):
    sentence, build = FACTORIES[kind]
    mode = data.draw(st.sampled_from([None, "strict"]), label="mode")
    with_gold_spans = data.draw(st.booleans(), label="gold_spans")
    evaluation = data.draw(st.lists(sentence, min_size=1, max_size=8), label="evaluation")
    compute = build(mode)

    def batches(sentences: list[dict[str, Any]]) -> list[EvalPrediction]:
        fill = data.draw(st.sampled_from([0, -100]), label="padding of predictions")
        return [_batch(kind, sentences[part], fill, with_gold_spans) for part in _splits(data.draw, len(sentences))]

    # earlier evaluations, each ended before its last batch: stopped midway (then reset) or by a refused batch
    for _ in range(data.draw(st.integers(0, 3), label="earlier evaluations")):
        earlier = batches(data.draw(st.lists(sentence, min_size=1, max_size=6)))
        reached = data.draw(st.integers(0, len(earlier) - 1), label="batches before it ended")
        for batch in earlier[:reached]:
            assert compute(batch, compute_result=False) == {}
        if data.draw(st.booleans(), label="refused batch"):
            with pytest.raises(ValueError, match=r"shape|\[batch, tokens, layers\]"):
                compute(_refused(earlier[reached]), compute_result=False)
        else:
            compute.reset()

    streamed = batches(evaluation)
    for i, batch in enumerate(streamed):
        result = compute(batch, compute_result=i == len(streamed) - 1)
    whole = _batch(kind, evaluation, 0, with_gold_spans)
    assert result == build(mode)(whole)
    assert result == compute(whole)  # one shot on the same instance, after streaming
