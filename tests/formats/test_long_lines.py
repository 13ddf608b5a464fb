"""A text-span document on one line of any length is read whole at every door that detects formats (issue 38).

A whole article on one line (390 KB in the report) was taken for CoNLL columns by the commands that told the
format from the file's first 64 KB. A Hypothesis property writes random valid text-span documents whose first
line holds 1 character to 1 MB (a few examples at the large end, the boundaries of the old head among them) and
reads them back through every detecting door: ``read_corpus``, ``read_batches``, ``score_text``, and the
commands ``score``, ``lenient``, ``nested``, ``benchmark`` and ``convert``, each of which must find the very
documents written (``convert`` writes them back byte for byte).
"""
from __future__ import annotations

import json
import random
import tempfile
from pathlib import Path

import pytest
from hypothesis import HealthCheck, example, given, settings
from hypothesis import strategies as st

from nested_span_f1 import Corpus, read_corpus, write_corpus
from nested_span_f1.align import score_text
from nested_span_f1.cli.main import main
from nested_span_f1.formats import read_batches

ALPHABET = "abcdeXYZ0123 .,;-'\"\\{}[]\t\u00e9\u00fc\u6771\u4eac\u2028\u0085\U0001f600"
"""Characters of the texts: json's escapes, brackets and braces, a tab, accents, CJK, U+2028 and U+0085 (which
``str.splitlines`` breaks at), an emoji."""

OLD_HEAD = 1 << 16
"""The characters the commands used to read to tell a format: lengths around it are drawn."""


def documents(length: int, seed: int) -> Corpus:
    """A first document of ``length`` characters with up to eight distinct spans, then a short second one."""
    draw = random.Random(seed)
    text = "".join(draw.choices(ALPHABET, k=length))
    spans = set()
    for _ in range(draw.randint(0, 8)):
        start = draw.randrange(length)
        spans.add((start, draw.randint(start + 1, min(length, start + 40)), draw.choice(["PER", "LOC", "ORG"])))
    return Corpus([text, "Ann"], [sorted(spans), [(0, 3, "PER")]], ["d1", "d2"], unit="characters")


def _json(capsys, *args) -> dict:
    capsys.readouterr()
    code = main([str(arg) for arg in args])
    out, err = capsys.readouterr()
    assert (code, err) == (0, ""), err[-2000:]
    return json.loads(out)


@settings(max_examples=6, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture,
                                                                 HealthCheck.too_slow])
@given(length=st.one_of(st.integers(1, 300), st.sampled_from([OLD_HEAD - 40, OLD_HEAD + 1, 4 * OLD_HEAD])),
       seed=st.integers(0, 2**32))
@example(length=1, seed=0)
@example(length=1_000_000, seed=1)
def test_a_document_of_any_length_on_one_line_is_read_whole_at_every_door(tmp_path, capsys, length, seed):
    folder = Path(tempfile.mkdtemp(dir=tmp_path))  # one folder an example (Hypothesis may draw one twice)
    corpus = documents(length, seed)
    path = folder / "long.jsonl"
    write_corpus(corpus, path, "text")
    written = path.read_bytes()
    assert written.count(b"\n") == 2 and len(written.split(b"\n")[0]) > length  # the first document on one line
    n = len(corpus.entities[0]) + 1

    for read in (read_corpus(path), *read_batches(path)):
        assert (read.format, list(read.texts), read.entities, list(read.sentence_ids)) == (
            "text", list(corpus.texts), [list(e) for e in corpus.entities], ["d1", "d2"])
    result = score_text(path, path, metric="exact", zero_division=0)
    assert (result["tp"], result["fp"], result["fn"]) == (n, 0, 0)

    assert _json(capsys, "score", "--gold", path, "--pred", path, "--json")["tp"] == n
    assert _json(capsys, "lenient", "--gold", path, "--pred", path, "--json")["strict_correct"] == n
    size = _json(capsys, "nested", "--gold", path, "--pred", path, "--json")["test_set"]
    assert (size["documents"], size["characters"], size["entities"]) == (2, length + 3, n)
    capsys.readouterr()
    assert main(["benchmark", "--gold", str(path), "--pred", f"a={path}", "--bootstrap", "20", "--no-progress",
                 "--json"]) == 0
    system = json.loads(capsys.readouterr().out)["systems"][0]
    assert (system["tp"], system["predicted"], system["gold"]) == (n, n, n)
    capsys.readouterr()
    assert main(["convert", str(path), "--to", "text", "--output", str(folder / "back.jsonl")]) == 0
    assert (folder / "back.jsonl").read_bytes() == written


def test_a_cut_first_line_is_named_as_json_at_every_door(tmp_path, capsys):
    """The report's case: the first line cut short is json that does not parse, never CoNLL columns."""
    path = tmp_path / "cut.jsonl"
    path.write_text('{"id": "d1", "text": "Barack\n', encoding="utf-8")
    message = f"{path}, line 1, column 22: not valid JSON (Unterminated string starting at)"
    for command in ("score", "lenient", "nested", "benchmark", "convert"):
        args = {"benchmark": ["--gold", path, "--pred", f"a={path}"],
                "convert": [path, "--to", "text", "--output", tmp_path / "o.jsonl"]}.get(
            command, ["--gold", path, "--pred", path])
        capsys.readouterr()
        assert main([command, *map(str, args)]) == 2
        assert capsys.readouterr().err == f"nested-span-f1 {command}: error: {message}\n"
    with pytest.raises(ValueError) as raised:
        read_corpus(path)
    assert str(raised.value) == message
