"""The nested_span_f1 evaluate module: every feature set, offline, loaded from the repo root and from inside its folder."""
import json
import os
import subprocess
import sys

import evaluate
import pytest

from nested_span_f1 import metric_path
from nested_span_f1.nested.score import score_nested

SPANS_REF = [[{"start": 0, "end": 2, "label": "protein"}, {"start": 0, "end": 1, "label": "protein"}], []]
SPANS_PRED = [[{"start": 0, "end": 2, "label": "protein"}], [{"start": 1, "end": 3, "label": "DNA"}]]


@pytest.fixture(scope="module")
def metric():
    return evaluate.load(metric_path("nested_span_f1"))


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


LOAD = """
import json, os, evaluate
m = evaluate.load(os.getcwd() if os.path.isfile("nested_span_f1.py") else "metrics/nested_span_f1")
r = m.compute(predictions={pred}, references={ref}, zero_division=0)
import nested_span_f1
print(json.dumps([r["overall_f1"], nested_span_f1.__file__]))
"""


@pytest.mark.parametrize("where", ["repo root", "metric folder"])
def test_loads_from_root_and_from_inside_the_folder(repo_root, where):
    cwd = repo_root if where == "repo root" else repo_root / "metrics" / "nested_span_f1"
    code = LOAD.format(pred=SPANS_PRED, ref=SPANS_REF)
    env = {**os.environ, "HF_HUB_OFFLINE": "1", "HF_DATASETS_OFFLINE": "1", "HF_EVALUATE_OFFLINE": "1"}
    done = subprocess.run([sys.executable, "-c", code], cwd=cwd, env=env, capture_output=True, text=True, timeout=300, check=False)
    assert done.returncode == 0, done.stderr[-2000:]
    f1, package = json.loads(done.stdout.strip().splitlines()[-1])
    assert f1 == 0.5 and package.endswith(os.path.join("nested_span_f1", "__init__.py"))


def test_app_builds_from_inside_the_folder(repo_root):
    """app.py, run from inside its folder, builds the gradio app on the package (not on a script named like it)."""
    pytest.importorskip("gradio")
    code = "import app, nested_span_f1; print(type(app.demo).__name__, nested_span_f1.__file__)"
    env = {**os.environ, "HF_HUB_OFFLINE": "1", "HF_DATASETS_OFFLINE": "1", "HF_EVALUATE_OFFLINE": "1"}
    done = subprocess.run([sys.executable, "-c", code], cwd=repo_root / "metrics" / "nested_span_f1", env=env,
                          capture_output=True, text=True, timeout=300, check=False)
    assert done.returncode == 0, done.stderr[-2000:]
    kind, package = done.stdout.split()[-2:]
    assert kind == "Blocks"
    assert package.endswith(os.path.join("nested_span_f1", "__init__.py"))
