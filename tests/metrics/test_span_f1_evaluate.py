"""The evaluate module ``metrics/span_f1`` is a drop-in for evaluate's ``seqeval`` metric.

evaluate's ``seqeval`` module cannot be downloaded here, so the benchmark's
re-creation of it (``scripts/bench/evaluate_seqeval.py``: a classification report
with ``output_dict=True``, macro and weighted averages dropped, the micro average
as ``overall_*``, and token accuracy, exactly as its ``_compute`` does) stands in
for it, loaded with ``evaluate.load`` as a user loads a local module.
"""
from __future__ import annotations

import warnings
from pathlib import Path

import pytest

evaluate = pytest.importorskip("evaluate")

import nested_span_f1


@pytest.fixture(scope="module")
def seqeval_module():
    """evaluate's seqeval module as the benchmark re-creates it, loaded as a local module."""
    return evaluate.load(str(Path(__file__).resolve().parents[2] / "scripts" / "bench" / "evaluate_seqeval.py"))


@pytest.fixture(scope="module")
def metric():
    return evaluate.load(nested_span_f1.metric_path("exact"))


def _compute(metric, **kwargs):
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        return metric.compute(**kwargs)


def assert_superset_equal(got, expected):
    missing = set(expected) - set(got)
    assert not missing, missing
    for key, value in expected.items():
        if isinstance(value, dict):
            assert set(got[key]) >= set(value), key
            for field, number in value.items():
                if field == "number":
                    assert got[key][field] == number, (key, field)
                    assert type(got[key][field]) is int
                else:
                    assert got[key][field] == pytest.approx(number, abs=1e-12), (key, field)
        else:
            assert got[key] == pytest.approx(value, abs=1e-12), key


CORPORA = {
    "conll-example": (
        [["O", "O", "B-MISC", "I-MISC", "I-MISC", "I-MISC", "O"], ["B-PER", "I-PER", "O"]],
        [["O", "O", "O", "B-MISC", "I-MISC", "I-MISC", "O"], ["B-PER", "I-PER", "O"]],
    ),
    "malformed": (
        [["I-PER", "I-LOC", "O", "B-ORG-SUB", "I-ORG-SUB"], ["O"], ["I-LOC", "B-LOC"]],
        [["B-PER", "I-PER", "O", "B-ORG-SUB", "I-ORG-SUB"], ["B-LOC"], ["B-LOC", "I-LOC"]],
    ),
    "iobes": (
        [["B-PER", "E-PER", "S-LOC", "O"], ["B-LOC", "I-LOC", "E-LOC"], ["S-PER"]],
        [["B-PER", "E-PER", "O", "S-LOC"], ["B-LOC", "I-LOC", "E-LOC"], ["B-PER"]],
    ),
    "untyped": ([["B", "I", "O", "B"]], [["B", "I", "O", "I"]]),
    "no-entity-predicted": ([["O", "O"], ["O"]], [["B-PER", "O"], ["O"]]),
}


@pytest.mark.parametrize(
    ("corpus", "options"),
    [
        ("conll-example", {}),
        ("conll-example", {"mode": "strict", "scheme": "IOB2"}),
        ("malformed", {}),
        ("malformed", {"mode": "strict", "scheme": "IOB2"}),
        ("malformed", {"zero_division": 1}),
        ("iobes", {}),
        ("iobes", {"mode": "strict", "scheme": "IOBES"}),
        ("untyped", {}),
        ("no-entity-predicted", {"zero_division": 0}),
    ],
)
def test_equals_evaluate_seqeval(metric, seqeval_module, corpus, options):
    predictions, references = CORPORA[corpus]
    expected = _compute(seqeval_module, predictions=predictions, references=references, **options)
    got = _compute(metric, predictions=predictions, references=references, **options)
    assert_superset_equal(got, expected)


def test_suffix(metric, seqeval_module):
    predictions = [["PER-B", "PER-I", "O", "LOC-B"]]
    references = [["PER-B", "PER-I", "LOC-B", "O"]]
    got = _compute(metric, predictions=predictions, references=references, suffix=True)
    assert_superset_equal(got, _compute(seqeval_module, predictions=predictions, references=references, suffix=True))


def test_extra_keys(metric):
    predictions, references = CORPORA["malformed"]
    got = _compute(metric, predictions=predictions, references=references, mode="strict", scheme="IOB2")
    core = nested_span_f1.score_exact(predictions, references, mode="strict", scheme="IOB2", zero_division=0)
    for key in (
        "macro_precision", "macro_recall", "macro_f1",
        "weighted_precision", "weighted_recall", "weighted_f1",
        "untyped_precision", "untyped_recall", "untyped_f1",
        "tp", "fp", "fn", "invalid_predicted_chunks", "invalid_reference_chunks",
    ):
        assert got[key] == core[key], key
    assert got["invalid_predicted_chunks"] == 3  # I-PER, I-LOC (sentence 0) and I-LOC (sentence 2) open no chunk in IOB2
    for key, value in got.items():
        assert type(value) in (dict, int, float), key


def test_label_ids_with_label_list(metric):
    label_list = ["O", "B-PER", "I-PER", "B-LOC", "I-LOC"]
    predictions = [[0, 1, 2, 0, 4, -100], [3, 3, 0, 2, 0, 0]]
    references = [[-100, 1, 2, 0, 3, -100], [3, 4, 0, -100, -100, -100]]
    got = _compute(metric, predictions=predictions, references=references, label_list=label_list)
    strings = nested_span_f1.score_exact(
        [["B-PER", "I-PER", "O", "I-LOC"], ["B-LOC", "B-LOC", "O"]],
        [["B-PER", "I-PER", "O", "B-LOC"], ["B-LOC", "I-LOC", "O"]],
    )
    assert got == strings


def test_add_batch_equals_one_call(metric):
    predictions, references = CORPORA["malformed"]
    for p, r in zip(predictions, references):
        metric.add_batch(predictions=[p], references=[r])
    streamed = _compute(metric)
    assert streamed == _compute(metric, predictions=predictions, references=references)


def test_bad_label_error_reaches_the_user(metric):
    with pytest.raises(ValueError, match=r"sentence 0, token 1: tag 'PER'"):
        metric.compute(predictions=[["O", "PER"]], references=[["O", "O"]])


def test_metric_folder_is_complete():
    folder = Path(nested_span_f1.metric_path("exact"))
    assert folder.name == "span_f1"
    for name in ("span_f1.py", "README.md", "app.py", "requirements.txt"):
        assert (folder / name).is_file(), name
