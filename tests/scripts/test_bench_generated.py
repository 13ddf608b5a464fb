"""scripts/bench/generated.py measures what it says: the answers it writes read as the shapes it names."""
import importlib.util
from pathlib import Path

import pytest

from nested_span_f1.answers import parse_answer

ROOT = Path(__file__).resolve().parents[2]


@pytest.fixture(scope="module")
def bench():
    spec = importlib.util.spec_from_file_location("bench_generated", ROOT / "scripts" / "bench" / "generated.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_the_answers_take_every_shape_it_names(bench):
    text = "Peter Blackburn visited Paris"
    entities = [(0, 15, "PER"), (24, 29, "LOC")]
    shapes = {k: parse_answer(bench._answer(k, text, entities)) for k in (1, 7, 10, 11, 99)}
    assert shapes[1].shape == "list" and [m.text for m in shapes[1].mentions] == ["Peter Blackburn", "Paris"]
    assert shapes[7].shape == "object"
    assert shapes[10].shape == "list" and "Here are the entities" in bench._answer(10, text, entities)
    assert ("Atlantis", "LOC") in [(m.text, m.label) for m in shapes[11].mentions]
    assert shapes[99].shape == "unparseable"
    # every fifth mention lower-cased, every ninth dropped (counted from the document's number)
    assert [m.text for m in parse_answer(bench._answer(5, text, entities)).mentions] == ["peter blackburn", "Paris"]
    assert [m.text for m in parse_answer(bench._answer(9, text, entities)).mentions] == ["paris"]


def test_a_small_run(bench, shared_data, monkeypatch):
    monkeypatch.setattr(bench, "ANSWERS", 200)
    row = bench.measure(bench.conll_documents(shared_data / "conll2003"), repeat=1)
    assert row["answers"] == 200 and row["unparseable"] == 2
    assert 0.5 < row["located_f1"] < 1 and 0.5 < row["string_f1"] < 1
    assert row["exact_seconds"] > 0 and row["nested_seconds"] > 0
