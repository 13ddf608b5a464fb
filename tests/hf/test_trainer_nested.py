"""The nested Trainer factories on hand-built logits equal the nested metric on the decoded spans."""
import numpy as np
import pytest
from transformers import EvalPrediction

from nested_span_f1.hf.nested_trainer import count_layered_ids, layered_metrics_for, span_metrics_for
from nested_span_f1.hf.trainer import trainer_view
from nested_span_f1.nested.score import count_layered, score_nested, summarize_nested

TYPES = ["none", "protein", "DNA", "cell_type"]
TAGS = ["O", "B-protein", "I-protein", "B-DNA", "I-DNA"]


def _candidates(lengths, width):
    """All spans up to ``width`` tokens per sentence, padded with -100 to one length."""
    spans = [[(s, e) for s in range(n) for e in range(s + 1, min(n, s + width) + 1)] for n in lengths]
    size = max(map(len, spans))
    starts = np.full((len(lengths), size), -100)
    ends = np.full((len(lengths), size), -100)
    for i, rows in enumerate(spans):
        starts[i, : len(rows)] = [s for s, _ in rows]
        ends[i, : len(rows)] = [e for _, e in rows]
    return starts, ends


@pytest.fixture
def span_batch():
    rng = np.random.default_rng(7)
    starts, ends = _candidates([5, 3, 6, 1], width=3)
    gold = np.where(starts >= 0, rng.choice(4, size=starts.shape, p=[0.7, 0.1, 0.1, 0.1]), -100)
    logits = rng.normal(size=(*starts.shape, 4))
    logits[..., 0] += 1.0  # mostly "none", as a trained model predicts
    return logits, gold, starts, ends


def _decoded(ids, starts, ends, mask):
    """The test's own decoding: a plain loop over candidates."""
    return [[(int(s), int(e), TYPES[int(k)]) for k, s, e, m in zip(*row) if m and k != 0]
            for row in zip(ids, starts, ends, mask)]


def _expected(predictions, references, entity_level=True):
    return trainer_view(score_nested(predictions, references, zero_division=0), entity_level=entity_level)


def test_span_factory_equals_score_nested(span_batch):
    logits, gold, starts, ends = span_batch
    mask = gold != -100
    predicted = _decoded(logits.argmax(-1), starts, ends, mask)
    reference = _decoded(gold, starts, ends, mask)
    assert sum(map(len, predicted)) > 5 and sum(map(len, reference)) > 5
    metrics = span_metrics_for(TYPES, entity_level=True)(EvalPrediction(logits, (gold, starts, ends)))
    expected = _expected(predicted, reference)
    # score_nested's counts also carry the (empty) discontinuous breakdown
    assert metrics == {k: v for k, v in expected.items() if "continu" not in k}
    assert {"precision", "recall", "f1", "protein_f1", "by_nesting_nested_f1", "by_depth_1_recall"} <= set(metrics)
    assert all(type(v) in (int, float) for v in metrics.values())
    short = span_metrics_for(TYPES)(EvalPrediction(logits, (gold, starts, ends)))
    assert short == {k: expected[k] for k in ("precision", "recall", "f1")}


def test_span_factory_streams_and_counts_uncovered_gold_spans(span_batch):
    logits, gold, starts, ends = span_batch
    mask = gold != -100
    reference = _decoded(gold, starts, ends, mask)
    reference[0].append((0, 5, "DNA"))  # longer than any candidate: no model could find it
    rows = max(map(len, reference))
    gold_spans = np.full((len(reference), rows, 3), -100)
    for i, spans in enumerate(reference):
        gold_spans[i, : len(spans)] = [(s, e, TYPES.index(t)) for s, e, t in spans]
    compute = span_metrics_for(TYPES, entity_level=True)
    for first, last in [(0, 2), (2, 4)]:
        part = slice(first, last)
        result = compute(EvalPrediction(logits[part], (gold[part], starts[part], ends[part], gold_spans[part])),
                         compute_result=last == 4)
    expected = _expected(_decoded(logits.argmax(-1), starts, ends, mask), reference)
    assert result == {k: v for k, v in expected.items() if "continu" not in k}
    assert result["DNA_number"] == sum(t == "DNA" for s in reference for *_, t in s)


def test_span_factory_rejects_bad_input(span_batch):
    logits, gold, starts, ends = span_batch
    with pytest.raises(ValueError, match="label_names"):
        span_metrics_for(TYPES)(EvalPrediction(logits, gold))
    bad = ends.copy()
    bad[1, 0] = starts[1, 0]
    with pytest.raises(ValueError, match=r"sentence 1, candidate 0 has span start 0, end 0"):
        span_metrics_for(TYPES)(EvalPrediction(np.ones_like(gold), (gold, starts, bad)))
    wrong = logits.argmax(-1)
    wrong[2, 1] = 9
    with pytest.raises(ValueError, match=r"predictions: sentence 2, candidate 1, span \(0, 2\) has label id 9, not one of 0..3"):
        span_metrics_for(TYPES)(EvalPrediction(wrong, (gold, starts, ends)))
    with pytest.raises(ValueError, match="none_label 4"):
        span_metrics_for(TYPES, none_label=4)


@pytest.fixture
def layered_batch():
    rng = np.random.default_rng(3)
    gold = rng.choice(len(TAGS), size=(4, 7, 2), p=[0.5, 0.2, 0.1, 0.1, 0.1])
    gold[:, 0, :] = -100  # [CLS]
    gold[1, 5:, :] = -100  # padding
    gold[2, 3, :] = -100  # a word's second sub-token
    gold[3, :, 1] = -100  # a sentence with one layer
    predictions = np.where(rng.random(gold.shape) < 0.7, gold, rng.choice(len(TAGS), size=gold.shape))
    logits = np.eye(len(TAGS))[np.where(gold == -100, 0, predictions)]
    return logits, gold


def _layer_strings(ids, gold):
    """Per sentence, per layer, the tag strings of the scored positions."""
    return [[[TAGS[t] for t, g in zip(ids[s, :, k], gold[s, :, k]) if g != -100] for k in range(gold.shape[2])
             if (gold[s, :, k] != -100).any()] for s in range(gold.shape[0])]


def test_layered_factory_equals_string_layers(layered_batch):
    logits, gold = layered_batch
    pred_layers, gold_layers = _layer_strings(logits.argmax(-1), gold), _layer_strings(gold, gold)
    for mode, scheme in [(None, None), ("strict", "IOB2")]:
        counts = count_layered(pred_layers, gold_layers, mode=mode, scheme=scheme)
        expected = trainer_view(summarize_nested(counts, zero_division=0), entity_level=True)
        metrics = layered_metrics_for(TAGS, mode=mode, scheme=scheme, entity_level=True)(EvalPrediction(logits, gold))
        assert metrics == expected
        assert metrics["f1"] > 0 and "protein_f1" in metrics
    streamed = layered_metrics_for(TAGS)
    streamed(EvalPrediction(logits[:2], gold[:2]), compute_result=False)
    assert streamed(EvalPrediction(logits[2:], gold[2:]), compute_result=True) == layered_metrics_for(TAGS)(
        EvalPrediction(logits, gold))


def test_layered_ids_reject_layers_that_skip_other_positions(layered_batch):
    logits, gold = layered_batch
    gold = gold.copy()
    gold[0, 2, 1] = -100
    with pytest.raises(ValueError, match=r"sentence 0, token 2: layer 1 skips the position"):
        count_layered_ids(logits.argmax(-1), gold, TAGS)
