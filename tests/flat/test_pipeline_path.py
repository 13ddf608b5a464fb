"""The flat path stays short: a reader follows ``score_exact`` through each stage once.

Traced with ``sys.setprofile`` on a three-sentence call (after a warm-up call):
the distinct package functions entered, the package modules they live in, and
how often consecutive calls change module. Comprehensions and generator
expressions count as part of the function they are written in (Python 3.12
inlines them). Bounds from issue 16.
"""
from __future__ import annotations

import itertools
import sys
from collections.abc import Callable
from pathlib import Path

import pytest

import nested_span_f1
from nested_span_f1 import score_exact, tags_to_spans

PACKAGE = str(Path(nested_span_f1.__file__).resolve().parent)
PREDICTIONS = [["B-PER", "I-PER", "O", "B-LOC"], ["O", "B-ORG", "I-ORG"], ["I-MISC", "O"]]
REFERENCES = [["B-PER", "I-PER", "O", "B-ORG"], ["O", "B-ORG", "I-ORG"], ["B-MISC", "O"]]


def trace(call: Callable[[], object]) -> list[tuple[str, str]]:
    """(module file, function) of every package function entered by one call, in order."""
    call()  # warm-up: imports, caches
    entered: list[tuple[str, str]] = []

    def profile(frame, event, arg):
        code = frame.f_code
        if event == "call" and code.co_filename.startswith(PACKAGE) and not code.co_name.startswith("<"):
            entered.append((Path(code.co_filename).name, code.co_qualname))

    sys.setprofile(profile)
    try:
        call()
    finally:
        sys.setprofile(None)
    return entered


@pytest.mark.parametrize(("options", "functions", "modules", "changes"), [
    ({}, 35, 7, 14),
    ({"mode": "strict", "scheme": "IOB2"}, 40, 8, 16),
], ids=["default", "strict"])
def test_path_is_short(options, functions, modules, changes):
    entered = trace(lambda: score_exact(PREDICTIONS, REFERENCES, zero_division=0, **options))
    files = [module for module, _ in entered]
    switches = sum(a != b for a, b in itertools.pairwise(files))
    summary = f"{len(set(entered))} functions in {len(set(files))} modules, {switches} changes: {entered}"
    assert len(set(entered)) <= functions, summary
    assert len(set(files)) <= modules, summary
    assert switches <= changes, summary


@pytest.mark.parametrize(("options", "chunks"), [
    ({}, "_Tagged.default_chunks"),
    ({"scheme": "IOB2"}, "_Tagged.default_chunks"),
    ({"mode": "strict", "scheme": "IOB2"}, "_Tagged.strict_chunks"),
], ids=["default", "default-with-scheme", "strict"])
def test_tags_to_spans_decodes_once(options, chunks):
    """One side decoded by one decoder; no invalid chunks counted (tags_to_spans reports none)."""
    entered = trace(lambda: tags_to_spans(REFERENCES, **options))
    decoding = [function for module, function in entered if module == "decoding.py"]
    assert decoding == ["decode", "_Tagged.__init__", chunks], decoding
