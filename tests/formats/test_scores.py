"""Scores read wherever the formats carry them, written back by the writers that have a place for them, and refused
with their place when one is missing, NaN, infinite or not a number (logits outside [0, 1] are scores)."""
import json
import math

import numpy as np
import pytest

from nested_span_f1 import Corpus, read_corpus, write_corpus
from nested_span_f1.core.scored import check_scores, split_scored
from nested_span_f1.formats import FORMATS
from nested_span_f1.formats.columns import column_scores, read_columns

TOKENS = [["IL-2", "gene", "expression"], ["NF-kappa", "B"]]
ENTITIES = [[(0, 2, "DNA"), (0, 1, "protein")], [(0, 2, "protein")]]
SCORES = [[0.9, -1.25], [3.5]]
"""A logit below 0 and one above 1: any finite number is a score."""


def _write(tmp_path, name, lines):
    path = tmp_path / name
    path.write_text(lines if isinstance(lines, str) else "".join(json.dumps(line) + "\n" for line in lines))
    return str(path)


@pytest.mark.parametrize("name", ["oneie", "triaffine", "biaffine", "w2ner", "pyramid"])
def test_token_formats_write_and_read_back_scores(name, tmp_path):
    corpus = Corpus(TOKENS, ENTITIES, ["s1", "s2"], scores=SCORES)
    path = tmp_path / f"scored.{name}"
    write_corpus(corpus, path, name)
    back = read_corpus(path, name)
    assert (back.entities, back.scores) == (ENTITIES, SCORES)


@pytest.mark.parametrize("name", ["text", "pipeline"])
def test_text_formats_write_and_read_back_scores(name, tmp_path):
    corpus = Corpus(["IL-2 gene expression", "NF-kappa B"], [[(0, 9, "DNA"), (0, 4, "protein")], [(0, 10, "protein")]],
                    ["s1", "s2"], unit="characters", scores=SCORES)
    path = tmp_path / "scored.jsonl"
    write_corpus(corpus, path, name)
    assert read_corpus(path, name).scores == SCORES


def test_a_file_without_scores_has_none(tmp_path):
    path = tmp_path / "plain.jsonl"
    write_corpus(Corpus(TOKENS, ENTITIES, ["s1", "s2"]), path, "oneie")
    assert read_corpus(path).scores is None
    assert "score" not in path.read_text()


def test_prob_is_read_as_a_score_and_gliner_text_spans(tmp_path):
    oneie = _write(tmp_path, "a.jsonl", [{"tokens": ["a", "b"], "entity_mentions": [
        {"start": 0, "end": 1, "entity_type": "X", "prob": 0.25}]}])
    gliner = _write(tmp_path, "g.jsonl", [{"text": "Ann met Bob", "entities": [
        {"start": 0, "end": 3, "text": "Ann", "label": "person", "score": 0.97},
        {"start": 8, "end": 11, "text": "Bob", "label": "person", "score": 0.41}]}])
    assert read_corpus(oneie).scores == [[0.25]]
    assert read_corpus(gliner).scores == [[0.97, 0.41]]


def test_pipeline_sub_tokens_have_the_mean_of_their_scores(tmp_path):
    items = [{"entity": "B-PER", "score": 0.9, "index": 1, "word": "Ann", "start": 0, "end": 3},
             {"entity": "I-PER", "score": 0.6, "index": 2, "word": "##a", "start": 3, "end": 4},
             {"entity": "B-LOC", "score": 0.5, "index": 4, "word": "Rome", "start": 8, "end": 12},
             {"entity": "I-LOC", "score": 0.5, "index": 5, "word": "##s", "start": 12, "end": 13}]
    path = _write(tmp_path, "p.jsonl", [{"text": "Anna in Romes", "entities": items}])
    corpus = read_corpus(path)
    assert corpus.entities == [[(0, 4, "PER"), (8, 13, "LOC")]]
    # 0.75 = (0.9 + 0.6) / 2 as math.fsum sums; 0.5 held by both pieces is 0.5 itself
    assert corpus.scores == [[0.75, 0.5]]


def test_spacy_span_group_scores(tmp_path):
    spacy = pytest.importorskip("spacy")
    from spacy.tokens import DocBin, SpanGroup

    doc = spacy.blank("en")("IL-2 gene expression")
    doc.spans["sc"] = SpanGroup(doc, name="sc", spans=[doc.char_span(0, 9, "DNA"), doc.char_span(0, 4, "protein")],
                                attrs={"scores": np.array([0.8, 0.3])})
    path = tmp_path / "docs.spacy"
    DocBin(docs=[doc], attrs=[]).to_disk(path)
    corpus = read_corpus(path, spans_key="sc")
    assert (corpus.entities, corpus.scores) == ([[(0, 9, "DNA"), (0, 4, "protein")]], [[0.8, 0.3]])
    assert read_corpus(path).scores is None  # doc.ents carry no scores


def test_conll_score_column_gives_each_span_its_tokens_mean(tmp_path):
    text = "IL-2 B-DNA 0.8\ngene I-DNA 0.6\nexpression O x\n\nNF-kappa B-protein 0.5\nB I-protein 0.5\n"
    path = _write(tmp_path, "p.conll", text)
    columns = read_columns(path)
    assert column_scores(columns, [[(0, 2, "DNA")], [(0, 2, "protein")]], 2) == [[0.7], [0.5]]
    with pytest.raises(ValueError, match=r"p.conll, line 3, column 3: score 'x' is not a finite number"):
        column_scores(columns, [[(0, 3, "DNA")], []], 2)
    with pytest.raises(ValueError, match=r"line 1, column 3: score 'nan'"):
        column_scores(read_columns(_write(tmp_path, "n.conll", "a B-X nan\n")), [[(0, 1, "X")]], -1)


@pytest.mark.parametrize(("score", "error", "fragment"), [
    (None, ValueError, "has no score, but other entities have one"),
    (math.nan, ValueError, "has score nan; a score must be a finite number"),
    (math.inf, ValueError, "has score inf"),
    ("0.9", TypeError, "has score '0.9', which is not a number"),
    (True, TypeError, "has score True, which is not a number"),
])
def test_a_bad_score_is_refused_naming_the_file_line_and_position(score, error, fragment, tmp_path):
    mentions = [{"start": 0, "end": 1, "entity_type": "X", "score": 0.5}, {"start": 1, "end": 2, "entity_type": "X"}]
    if score is not None:
        mentions[1]["score"] = score
    path = _write(tmp_path, "bad.jsonl", [{"tokens": ["a", "b"], "entity_mentions": []},
                                          {"tokens": ["a", "b"], "entity_mentions": mentions}])
    with pytest.raises(error) as raised:
        read_corpus(path)
    assert fragment in str(raised.value)
    assert f"{path}, line 2: entity (1, 2, 'X')" in str(raised.value)
    assert "(position 2 in the sentence)" in str(raised.value)


def test_the_python_api_names_sentence_and_position_from_0():
    with pytest.raises(ValueError, match=r"predictions, sentence 1: entity \(0, 1, 'X'\) has score nan.*position 0"):
        check_scores([[0.1], [math.nan]], [[(0, 1, "X")], [(0, 1, "X")]])
    with pytest.raises(ValueError, match="predictions, sentence 0: 2 scores for 1 entities"):
        check_scores([[0.1, 0.2]], [[(0, 1, "X")]])
    entities, scores = split_scored([[(0, 1, "X", 0.5), {"start": 1, "end": 2, "label": "X"}]])
    assert scores == [[0.5, None]]
    with pytest.raises(ValueError, match=r"sentence 0: entity \{'start': 1, 'end': 2, 'label': 'X'\} has no score"):
        check_scores(scores, entities)
    assert check_scores([[np.float32(0.5), 2, -0.0]], [[(0, 1, "X")] * 3]) == [[0.5, 2.0, -0.0]]


def test_every_writer_that_keeps_scores_is_a_reader_of_them():
    """The formats that read scores are the ones convert writes them to (the others have no place for them)."""
    from nested_span_f1.cli.commands.convert import SCORES as KEPT

    corpus = Corpus(TOKENS, ENTITIES, ["s1", "s2"], scores=SCORES)
    texts = Corpus(["IL-2 gene expression", "NF-kappa B"], [[(0, 9, "DNA"), (0, 4, "protein")], [(0, 10, "protein")]],
                   ["s1", "s2"], unit="characters", scores=SCORES)
    kept = set()
    for name, fmt in FORMATS.items():
        written = fmt.write(texts if fmt.unit == "characters" else corpus)
        args = (written, "x") if fmt.record_lines is None else (written, "x", 1)
        if fmt.read(*args).scores == SCORES:
            kept.add(name)
    assert kept == set(KEPT)
