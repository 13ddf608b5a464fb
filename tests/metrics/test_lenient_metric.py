"""The lenient_span_f1 evaluate module: loads offline, takes span lists and tags, matches the core."""
import warnings

import pytest

from nested_span_f1 import metric_path
from nested_span_f1.lenient.score import score_lenient

evaluate = pytest.importorskip("evaluate")

FOLDER = metric_path("lenient")
SPANS_REF = [
    [{"start": 0, "end": 2, "label": "PER"}, {"start": 3, "end": 4, "label": "ORG"}],
    [],
    [{"start": 1, "end": 5, "label": "LOC"}, {"start": 2, "end": 3, "label": "PER"}],
]
SPANS_PRED = [
    [{"start": 0, "end": 2, "label": "PER"}, {"start": 3, "end": 5, "label": "ORG"}],
    [{"start": 0, "end": 1, "label": "MISC"}],
    [{"start": 1, "end": 5, "label": "ORG"}],
]
TAGS_REF = [["B-PER", "I-PER", "O", "B-ORG"], ["O", "B-LOC", "I-LOC"]]
TAGS_PRED = [["B-PER", "I-PER", "O", "B-ORG"], ["O", "B-LOC", "O"]]


@pytest.fixture(scope="module")
def metric():
    return evaluate.load(FOLDER)


def test_span_lists(metric):
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        got = metric.compute(predictions=SPANS_PRED, references=SPANS_REF, return_errors=True, zero_division=0)
    assert got == score_lenient(SPANS_PRED, SPANS_REF, return_errors=True, zero_division=0)
    assert (got["strict_correct"], got["type_error"], got["boundary_error"], got["missed"], got["spurious"]) == (1, 1, 1, 1, 1)


def test_tag_sequences(metric):
    got = metric.compute(predictions=TAGS_PRED, references=TAGS_REF, zero_division=0)
    assert got == score_lenient(TAGS_PRED, TAGS_REF, zero_division=0)
    assert (got["strict_correct"], got["partial_partial"], got["type_f1"]) == (2, 1, 1.0)


def test_options_reach_the_core(metric):
    got = metric.compute(
        predictions=[["B-PER", "I-PER", "I-PER", "O"]], references=[["B-PER", "O", "O", "O"]],
        partial_weight=1.0, min_iou=0.3, mode="strict", scheme="IOB2",
    )
    assert (got["partial_partial"], got["partial_f1"]) == (1, 1.0)
    got = metric.compute(
        predictions=[["B-PER", "I-PER", "I-PER", "O"]], references=[["B-PER", "O", "O", "O"]], min_iou=0.5,
    )
    assert (got["partial_missed"], got["partial_spurious"]) == (1, 1)


def test_batches_add_up(metric):
    for pred, ref in zip(SPANS_PRED, SPANS_REF):
        metric.add_batch(predictions=[pred], references=[ref])
    assert metric.compute(zero_division=0) == score_lenient(SPANS_PRED, SPANS_REF, zero_division=0)


def test_bad_span_through_evaluate(metric):
    with pytest.raises(ValueError, match=r"predictions, sentence 0: span .* out of range"):
        metric.compute(predictions=[[{"start": 4, "end": 2, "label": "A"}]], references=[[]])
