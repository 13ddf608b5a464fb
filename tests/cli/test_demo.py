"""The README's main job: ``nested-span-f1 demo`` on the sample data shipped in the package."""
import os
import subprocess
import sys

import pytest

import nested_span_f1


def test_demo_scores_the_shipped_samples(tmp_path):
    done = subprocess.run([sys.executable, "-W", "always", "-m", "nested_span_f1.cli", "demo"], cwd=tmp_path,
                          capture_output=True, text=True, check=True)
    # the demo's own sample data is no reason to warn: duplicates are counted in the output
    assert done.stderr == ""
    out = done.stdout
    lines = out.splitlines()
    # flat sample: 28 gold chunks, 28 predicted, 20 exact matches in default mode, 19 in strict mode
    assert "processed 121 tokens with 28 phrases; found: 28 phrases; correct: 20." in lines
    assert "tp=20  fp=8  fn=8  invalid_predicted_chunks=1  invalid_reference_chunks=0" in lines
    assert "tp=19  fp=8  fn=9  invalid_predicted_chunks=1  invalid_reference_chunks=0" in lines
    assert "  strict     0.7143     0.7143     0.7143     20      7      0      1      1" in lines
    assert "errors: correct=20  type_error=2  boundary_error=5  boundary_type_error=0  missed=1  spurious=1" in lines
    # nested sample: 14 gold spans, 16 distinct predictions (one duplicate removed), 10 exact matches
    assert "  overall     0.6250     0.7143     0.6667       14" in lines
    assert any(line.startswith("tp=10  fp=6  fn=4  ") and "duplicate_predictions=1" in line for line in lines)
    # the conlleval block says that its last column counts predicted phrases
    assert "PREDICTED phrases" in out and "             MISC: precision:  50.00%; recall:  66.67%; FB1:  57.14  4" in lines


def test_sample_path_is_the_folder_demo_help_prints(tmp_path):
    """An installed user has no repository paths: ``sample_path`` gives the shipped samples, where
    ``nested-span-f1 demo --help`` says they are, and refuses a name that is not one of them."""
    done = subprocess.run([sys.executable, "-m", "nested_span_f1.cli", "demo", "--help"], cwd=tmp_path,
                          capture_output=True, text=True, check=True)
    assert done.stdout.rstrip().endswith(f"the samples: {nested_span_f1.sample_path()}")
    for name in ("chunks.conll", "nested.annotator2.jsonl", "nested.gold.jsonl", "nested.pred.jsonl",
                 "nested.scored.jsonl", "sample.answers.jsonl", "sample.gold.conll", "sample.harness.jsonl", "sample.lists.jsonl",
                 "sample.ner.jsonl", "sample.pred.conll"):
        path = nested_span_f1.sample_path(name)
        assert path == os.path.join(nested_span_f1.sample_path(), name) and os.path.isfile(path)
    assert os.path.isdir(nested_span_f1.sample_path("brat-project"))  # a sample folder: the brat project
    for name in ("nested.gold.json", "../__init__.py"):
        with pytest.raises(FileNotFoundError, match=r"the samples are brat-project, chunks.conll, nested.annotator2.jsonl, "
                                                    r"nested.gold.jsonl, "
                                                    r"nested.pred.jsonl, nested.scored.jsonl, sample.answers.jsonl, sample.gold.conll, "
                                                    r"sample.harness.jsonl, sample.lists.jsonl, sample.ner.jsonl, "
                                                    r"sample.pred.conll$"):
            nested_span_f1.sample_path(name)
