"""The "Use with Trainer" snippets of the metric cards run and return Trainer's scalars."""
import re
from pathlib import Path

import numpy as np
import pytest

pytest.importorskip("transformers")
from transformers import EvalPrediction

from nested_span_f1 import metric_path, score_exact
from nested_span_f1.core.matching import DuplicateSpanWarning
from nested_span_f1.hf.nested_trainer import count_layered_ids
from nested_span_f1.hf.trainer import trainer_view
from nested_span_f1.lenient.score import score_lenient
from nested_span_f1.nested.score import summarize_nested
from nested_span_f1.render.tables import flatten

LABELS = ["O", "B-PER", "I-PER", "B-LOC", "I-LOC"]


def card_snippet(name):
    """The python block of the card's "Use with Trainer" section, run; its namespace."""
    card = (Path(metric_path(name)) / "README.md").read_text(encoding="utf-8")
    section = re.split(r"\n#{2,3} ", card.split("### Use with Trainer", 1)[1])[0]
    code = re.search(r"```python\n(.*?)```", section, flags=re.DOTALL).group(1)
    namespace = {"label_list": LABELS}
    exec(code, namespace)
    return namespace


@pytest.fixture
def batch():
    rng = np.random.default_rng(5)
    labels = rng.choice(len(LABELS), size=(6, 9), p=[0.5, 0.15, 0.1, 0.15, 0.1])
    labels[:, 0] = -100
    labels[2, 6:] = -100
    logits = rng.normal(size=(6, 9, len(LABELS))) + 2.5 * np.eye(len(LABELS))[np.where(labels < 0, 0, labels)]
    predictions = logits.argmax(-1)
    strings = [[[LABELS[t] for t, g in zip(row, gold) if g != -100] for row, gold in zip(side, labels)]
               for side in (predictions, labels)]
    return logits, labels, strings


def _scalars(result):
    assert result and all(type(v) in (int, float) for v in result.values())
    return result


def test_span_f1_card(batch):
    logits, labels, (pred, gold) = batch
    result = _scalars(card_snippet("exact")["compute_metrics"](EvalPrediction(logits, labels)))
    assert result == trainer_view(score_exact(pred, gold, zero_division=0), entity_level=True)
    assert 0 < result["f1"] < 1 and "PER_f1" in result


def test_lenient_card(batch):
    logits, labels, (pred, gold) = batch
    result = _scalars(card_snippet("lenient")["compute_metrics"](EvalPrediction(logits, labels)))
    assert result == flatten(score_lenient(pred, gold, zero_division=0))
    assert 0 < result["partial_f1"] < 1


def test_nested_card(batch):
    logits, labels, _ = batch
    inner = np.where(labels < 0, -100, np.roll(labels, 1, axis=1) % len(LABELS))  # a second layer, same positions
    layered_logits, layered_labels = np.stack([logits, logits[:, ::-1]], axis=2), np.stack([labels, inner], axis=2)
    names = card_snippet("nested")
    # the second layer repeats spans of the first: each scoring warns once about the duplicates
    with pytest.warns(DuplicateSpanWarning):
        result = _scalars(names["compute_metrics"](EvalPrediction(layered_logits, layered_labels)))
    with pytest.warns(DuplicateSpanWarning):
        expected = summarize_nested(count_layered_ids(layered_logits.argmax(-1), layered_labels, LABELS), 0)
    assert result == trainer_view(expected)
    assert 0 < result["f1"] < 1
    assert callable(names["span_metrics_for"])
