"""Hypothesis: every conversion ``nested-span-f1 convert`` accepts round-trips (QA item 9 and 10's rule)."""
from __future__ import annotations

import argparse
import tempfile
from pathlib import Path

from hypothesis import event, given
from hypothesis import strategies as st

from nested_span_f1 import Corpus, write_corpus
from nested_span_f1.cli.commands.convert import convert, read_input
from nested_span_f1.cli.commands.inputs import COLUMNS
from nested_span_f1.formats import FORMATS
from nested_span_f1.formats.output import write_file
from nested_span_f1.formats.tagged import write_columns

TARGETS = [COLUMNS, "brat", *FORMATS]
_CLEAN = st.lists(st.sampled_from(["a", "B", "\u00e9", "e\u0301", "\U0001f600", "中", ",", "#", "-"]), min_size=1,
                 max_size=3).map("".join)
_ODD = st.lists(st.sampled_from(["a", " ", "\t", "\u2028", "\x85", "\u00a0"]), max_size=3).map("".join)
TOKEN = st.one_of(_CLEAN, _CLEAN, _CLEAN, _CLEAN, _CLEAN, _CLEAN, _ODD)
"""Mostly tokens every format holds (combining marks, emoji, CJK among them); now and then one that is empty or
holds whitespace, which text, brat, text blocks and columns cannot hold."""


def _spans(draw, length: int) -> list:
    """0-3 spans (nested, overlapping, repeated) over ``length`` units, none over an empty sentence or text."""
    spans = []
    for _ in range(draw(st.integers(0, 3)) if length else 0):
        start = draw(st.integers(0, length - 1))
        spans.append((start, draw(st.integers(start + 1, length)), draw(st.sampled_from(["PER", "LOC"]))))
    return spans


@st.composite
def corpora(draw):
    """A token corpus of 1-4 sentences with spans (nested, overlapping, repeated), ids or none."""
    sentences = draw(st.lists(st.lists(TOKEN, max_size=5), min_size=1, max_size=4))
    entities = [_spans(draw, len(tokens)) for tokens in sentences]
    ids = [f"d{k}" for k in range(len(sentences))] if draw(st.booleans()) else None
    return Corpus(sentences, entities, ids)


def _read(path: Path, source: str) -> Corpus:
    """The file or folder as ``convert`` reads it, its format named."""
    return read_input(argparse.Namespace(input=str(path), source=source, types=None, spans_key=None, scheme=None,
                                         no_event_triggers=False))


def _write(corpus: Corpus, target: str, path: Path) -> None:
    if target == COLUMNS:
        write_file(path, write_columns(corpus))
    else:
        write_corpus(corpus, path, target)


@given(corpora(), st.sampled_from(TARGETS), st.sampled_from(TARGETS))
def test_every_accepted_conversion_round_trips(corpus, first, second):
    """Tokens -> ``first`` -> ``second`` -> the token unit again gives the corpus back, wherever convert accepts
    each step (a refusal is a ValueError naming the reason, before anything is written)."""
    with tempfile.TemporaryDirectory() as folder:
        current, source = corpus, None
        for step, target in enumerate((first, second)):
            path = Path(folder) / f"step{step}"
            try:
                converted = convert(current, target)
                _write(converted, target, path)
            except ValueError:
                assert not path.exists()
                event(f"refused at step {step}")
                return
            source = target
            current = _read(path, source)
        back = convert(current, "oneie") if current.texts is not None else current
    event("round trip")
    assert [list(t) for t in back.tokens] == [list(t) for t in corpus.tokens]
    assert [sorted(e) for e in back.entities] == [sorted(e) for e in corpus.entities]
    if back.sentence_ids is not None and corpus.sentence_ids is not None:
        assert list(back.sentence_ids) == list(corpus.sentence_ids)
    elif corpus.sentence_ids is not None:
        raise AssertionError(f"{first} -> {second} lost the ids {corpus.sentence_ids}")


@st.composite
def text_corpora(draw):
    """A corpus of 1-3 texts (line ends, U+2028, combining marks, emoji, runs of spaces) with character spans."""
    alphabet = ["a", "B", " ", "  ", "\n", "\r\n", "\t", "\u2028", "\u00e9", "e\u0301", "\U0001f600", "中"]
    texts = draw(st.lists(st.lists(st.sampled_from(alphabet), max_size=8).map("".join), min_size=1, max_size=3))
    entities = [_spans(draw, len(text)) for text in texts]
    ids = [f"d{k}" for k in range(len(texts))] if draw(st.booleans()) else None
    return Corpus(texts, entities, ids, unit="characters")


@given(text_corpora(), st.sampled_from(TARGETS))
def test_every_accepted_conversion_of_texts_round_trips(corpus, target):
    """Texts -> ``target`` -> texts gives the texts, their spans and ids back wherever convert accepts it."""
    with tempfile.TemporaryDirectory() as folder:
        path = Path(folder) / "out"
        try:
            _write(convert(corpus, target), target, path)
        except ValueError:
            assert not path.exists()
            event("refused")
            return
        event("round trip")
        read = _read(path, target)
        back = convert(read, "text")
    assert list(back.texts) == list(corpus.texts)
    assert [sorted(e) for e in back.entities] == [sorted(e) for e in corpus.entities]
    if corpus.sentence_ids is not None:
        assert back.sentence_ids is not None and list(back.sentence_ids) == list(corpus.sentence_ids)
