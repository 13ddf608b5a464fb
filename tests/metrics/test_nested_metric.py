"""The nested_span_f1 evaluate module: every feature set, offline, loaded by its relative path from the repo root."""
import json

import evaluate
import pytest

from nested_span_f1 import metric_path
from nested_span_f1.nested.score import score_nested

SPANS_REF = [[{"start": 0, "end": 2, "label": "protein"}, {"start": 0, "end": 1, "label": "protein"}], []]
SPANS_PRED = [[{"start": 0, "end": 2, "label": "protein"}], [{"start": 1, "end": 3, "label": "DNA"}]]


@pytest.fixture(scope="module")
def metric():
    return evaluate.load(metric_path("nested"))


def test_span_lists(metric):
    result = metric.compute(predictions=SPANS_PRED, references=SPANS_REF, zero_division=0)
    assert result == score_nested(SPANS_PRED, SPANS_REF, zero_division=0)
    assert (result["overall_precision"], result["overall_recall"], result["by_depth"]["2"]["recall"]) == (0.5, 0.5, 0.0)
    json.dumps(result)


def test_first_sentence_without_spans(metric):
    result = metric.compute(predictions=[[], SPANS_PRED[0]], references=[[], SPANS_REF[0]], zero_division=0)
    assert result["overall_recall"] == 0.5


def test_layered_tags(metric):
    references = [[["O", "B-protein", "O"], ["B-DNA", "I-DNA", "I-DNA"]]]
    predictions = [[["O", "B-protein", "O"]]]
    result = metric.compute(predictions=predictions, references=references, zero_division=0)
    assert (result["overall_precision"], result["overall_recall"]) == (1.0, 0.5)
    assert result["by_nesting"]["nested"]["number"] == 2 and "overall_accuracy" not in result


def test_flat_tags(metric):
    result = metric.compute(predictions=[["B-DNA", "I-DNA", "O", "B-RNA"]], references=[["B-DNA", "I-DNA", "O", "O"]],
                            zero_division=0)
    assert (result["overall_precision"], result["overall_accuracy"], result["DNA"]["f1"]) == (0.5, 0.75, 1.0)
    assert result["by_nesting"]["flat"]["predicted"] == 2


def test_strict_mode_on_tags(metric):
    result = metric.compute(predictions=[["I-DNA", "I-DNA", "O"]], references=[["B-DNA", "I-DNA", "O"]],
                            mode="strict", scheme="IOB2", zero_division=0)
    assert result["overall_recall"] == 0.0 and result["invalid_predicted_chunks"] == 1


def test_bad_span_error_names_sentence(metric):
    with pytest.raises(ValueError, match=r"predictions, sentence 1: span .*'start': 3.* out of range"):
        metric.compute(predictions=[[], [{"start": 3, "end": 3, "label": "X"}]], references=[[], []])


def test_loads_by_its_relative_path_from_the_repo_root(repo_root, monkeypatch):
    """``metrics/nested_span_f1`` has the shape of a Hub id (org/name): evaluate must take the local folder.
    Loaded from inside the folder: tests/metrics/test_metric_folders.py."""
    monkeypatch.chdir(repo_root)
    result = evaluate.load("metrics/nested_span_f1").compute(predictions=SPANS_PRED, references=SPANS_REF,
                                                            zero_division=0)
    assert result["overall_f1"] == 0.5
