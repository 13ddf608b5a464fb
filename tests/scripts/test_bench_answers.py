"""scripts/bench/answers.py measures what it says: the answers it writes are read as the shapes it names, and its
bare parse reads the pairs it claims to."""
import importlib.util
import json
from pathlib import Path

import pytest

from nested_span_f1.answers import parse_answer

ROOT = Path(__file__).resolve().parents[2]


@pytest.fixture(scope="module")
def bench():
    spec = importlib.util.spec_from_file_location("bench_answers", ROOT / "scripts" / "bench" / "answers.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


TOKENS = ["Peter", "Blackburn", "visited", "Paris"]
SPANS = [(0, 2, "PER"), (3, 4, "LOC")]
READ_AS = {"parentheses": "parentheses", "lead-in": "parentheses", "markers": "parentheses",
           "corrected": "parentheses", "json": "list", "json in prose": "list", "object": "object",
           "type_lines": "type_lines", "colon": "colon", "dash": "dash", "tuples": "tuples", "table": "table",
           "indexed": "indexed", "gner": "gner", "tags": "tags"}


def test_every_shape_of_the_mix_is_read_as_itself(bench):
    text, labels = " ".join(TOKENS), {"PER", "LOC"}
    seen = set()
    for k in range(1, 60):
        answer, shape = bench._answer(k, TOKENS, SPANS)
        if shape in ("prose", "empty") or k % 11 == 0:
            continue
        seen.add(shape)
        parsed = parse_answer(answer, document=text, labels=labels)
        assert parsed.shape == READ_AS[shape], (shape, answer)
        # every fifth mention lower-cased, every ninth dropped (counted from the document's number)
        # (GNER's tags and inline tags mark the text's own words)
        lower = shape not in ("gner", "tags")
        expected = [(" ".join(TOKENS[s:e]).lower() if lower and (k + n) % 5 == 0 else " ".join(TOKENS[s:e]), label)
                    for n, (s, e, label) in enumerate(SPANS) if (k + n) % 9 != 0]
        assert sorted((m.text, m.label) for m in parsed.mentions) == sorted(expected), (shape, answer)
    assert seen == set(bench.MIX) and set(bench.ORDER) == set(bench.MIX)
    assert bench._answer(99, TOKENS, SPANS) == ("I am sorry, I cannot find the entities in this text.", "prose")
    assert ("Atlantis", "LOC") in [(m.text, m.label) for m in parse_answer(bench._answer(11, TOKENS, SPANS)[0]).mentions]
    assert bench._answer(1, TOKENS, [])[1] == "empty"


def test_the_bare_parse_reads_the_pairs(bench):
    # documents 21, 32 and 15: string (TYPE) lines, tuples, GNER's tags (no mention lower-cased or dropped)
    written = [bench._answer(k, TOKENS, SPANS) for k in (21, 32, 15)]
    assert [shape for _, shape in written] == ["lead-in", "tuples", "gner"]
    lines = "".join(json.dumps({"output": answer}) + "\n" for answer, _ in written)
    assert bench.bare_parse(lines, [shape for _, shape in written]) == [
        [("Peter Blackburn", "PER"), ("Paris", "LOC")], [("Peter Blackburn", "PER"), ("Paris", "LOC")],
        [("Peter", "B-PER"), ("Blackburn", "I-PER"), ("Paris", "B-LOC")]]


def test_the_floor_reads_what_the_package_reads_on_plain_lines(bench):
    # the floor under any reader of the package's objects: the same mentions on string (TYPE) lines after a lead-in
    written = [bench._answer(k, TOKENS, SPANS, bench.AS_WRITTEN) for k in (21, 22)]
    assert [shape for _, shape in written] == ["lead-in", "lead-in"]
    lines = "".join(json.dumps({"output": answer}) + "\n" for answer, _ in written)
    assert [a.mentions for a in bench.floor_parse(lines)] == [parse_answer(answer).mentions for answer, _ in written]


def test_a_small_run(bench, shared_data, monkeypatch):
    monkeypatch.setattr(bench, "ANSWERS", 200)
    row = bench.measure(bench.conll_documents(shared_data / "conll2003"), repeat=1, metrics=("exact",), floor=True)
    assert row["answers"] == 200 and row["unparseable"] == 2
    assert 0.5 < row["located_f1"] < 1 and 0.5 < row["string_f1"] < 1
    assert row["exact_seconds"] > 0 and row["bare_parse_seconds"] > 0 and row["parse_ratio"] > 0
    assert row["floor_parse_seconds"] > 0 and row["floor_ratio"] > 0
    assert set(row["shapes"]) >= {"parentheses", "list", "object", "type_lines", "colon", "dash", "tuples", "table",
                                  "indexed", "gner", "tags", "empty", "unparseable"}
