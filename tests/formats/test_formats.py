"""Readers and writers of the nested-NER formats: round trips, end conventions, detection, errors."""
import json

import pytest

from nested_span_f1.align import join_tokens
from nested_span_f1.formats import (
    FORMATS,
    Corpus,
    UnknownFormat,
    align,
    detect_format,
    get_format,
    read_corpus,
    read_dataset,
    write_corpus,
)

TOKENS = ["These", "studies", "suggest", "that", "the", "hXBP-1", "protein", "acts", "as", "a",
          "transcription", "factor", "in", "B", "cells", "."]
SPANS = [(5, 6, "protein"), (5, 7, "protein"), (10, 12, "protein"), (13, 15, "cell_type")]

# the GENIA sentence of NESTED_FORMATS.md, as each format writes it
HAND_MADE = {
    "oneie": json.dumps({"tokens": TOKENS, "sent_id": "s6", "entity_mentions": [
        {"start": b, "end": e, "entity_type": lab} for b, e, lab in SPANS]}) + "\n",
    "triaffine": json.dumps([{"tokens": TOKENS, "entities": [{"type": lab, "start": b, "end": e} for b, e, lab in SPANS],
                              "ltokens": [], "rtokens": [], "org_id": "MEDLINE:90208323"}]),
    "biaffine": json.dumps({"doc_key": "d", "sentences": [TOKENS, ["NF", "kappa", "B"]],
                            "ners": [[[5, 5, "protein"], [5, 6, "protein"], [10, 11, "protein"], [13, 14, "cell_type"]],
                                     [[0, 2, "protein"]]]}) + "\n",
    "w2ner": json.dumps([{"sentence": TOKENS, "ner": [{"index": [5], "type": "protein"}, {"index": [5, 6], "type": "protein"},
                                                      {"index": [10, 11], "type": "protein"},
                                                      {"index": [13, 14], "type": "cell_type"}]}]),
    "pyramid": json.dumps([{"tokens": TOKENS, "entities": [{"entity_type": lab, "span": [b, e]} for b, e, lab in SPANS]}]),
    "shibuya": " ".join(TOKENS) + "\n5,6 G#protein|5,7 G#protein|10,12 G#protein|13,15 G#cell_type\n\n",
    "lu_roth": " ".join(TOKENS) + "\n" + " ".join(["NN"] * 16) + "\n5,6 G#protein|5,7 G#protein|10,12 G#protein|13,15 G#cell_type\n\n",
}


@pytest.mark.parametrize("name", HAND_MADE, ids=HAND_MADE.keys())
def test_hand_made_files_read_as_exclusive_spans(tmp_path, name):
    path = tmp_path / f"file.{name}"
    path.write_text(HAND_MADE[name])
    corpus = read_corpus(path)
    assert corpus.format == name and list(corpus.tokens[0]) == TOKENS
    assert sorted(corpus.entities[0]) == SPANS
    assert corpus.conversion


def test_biaffine_inclusive_ends_and_several_sentences_a_line():
    corpus = FORMATS["biaffine"].read(HAND_MADE["biaffine"], "x")
    assert len(corpus) == 2 and corpus.entities[1] == [(0, 3, "protein")]
    assert "inclusive" in corpus.conversion and list(corpus.doc_ids) == ["d", "d"]
    written = json.loads(FORMATS["biaffine"].write(corpus))
    assert written["ners"][1] == [[0, 2, "protein"]] and len(written["sentences"]) == 2


def test_w2ner_index_lists_and_discontinuous():
    text = json.dumps([{"sentence": list("abcdefg"), "ner": [
        {"index": [0, 1, 2], "type": "A"}, {"index": [6, 1, 2, 4], "type": "B"}, {"index": [3], "type": "A"}]}])
    corpus = FORMATS["w2ner"].read(text, "x")
    assert corpus.entities[0] == [(0, 3, "A"), (((1, 3), (4, 5), (6, 7)), "B"), (3, 4, "A")]
    assert corpus.discontinuous() == 1
    back = json.loads(FORMATS["w2ner"].write(corpus))
    assert [m["index"] for m in back[0]["ner"]] == [[0, 1, 2], [1, 2, 4, 6], [3]]
    with pytest.raises(ValueError, match="cannot be written as oneie"):
        FORMATS["oneie"].write(corpus)


def _corpus():
    tokens = [TOKENS, ["NF", "kappa", "B", "binds"], ["nothing", "here"]]
    entities = [SPANS, [(0, 3, "DNA"), (0, 3, "protein"), (2, 3, "protein")], []]
    return Corpus(tokens, entities, ["a", "b", "c"], ["d1", "d1", "d2"])


@pytest.mark.parametrize("name", FORMATS, ids=list(FORMATS))
def test_every_format_round_trips(tmp_path, name):
    # the formats of character offsets write texts: the sentences' tokens joined by spaces
    corpus = _corpus() if FORMATS[name].unit == "tokens" else join_tokens(_corpus())
    path = tmp_path / "out"
    write_corpus(corpus, path, name)
    assert detect_format(path.read_text()) == name
    back = read_corpus(path)
    assert [list(t) for t in back.tokens] == [list(t) for t in corpus.tokens]
    assert [sorted(e) for e in back.entities] == [sorted(e) for e in corpus.entities]
    assert read_corpus(path, name).entities == back.entities


def test_genia_round_trips_through_every_format(shared_data):
    for file in ("genia-docsplit.test.jsonl", "genia-classic.test.w2ner.json"):
        corpus = read_corpus(shared_data / "genia" / file)
        # 5 docsplit sentences hold tokens with spaces, which the text formats cannot write
        plain = [s for s, t in enumerate(corpus.tokens) if all(w.split() == [w] for w in t)]
        text_safe = Corpus([corpus.tokens[s] for s in plain], [corpus.entities[s] for s in plain])
        for name, fmt in FORMATS.items():
            source = text_safe if name in ("shibuya", "lu_roth") else corpus
            source = join_tokens(source) if fmt.unit == "characters" else source
            back = fmt.read(fmt.write(source), name)
            assert [sorted(e) for e in back.entities] == [sorted(e) for e in source.entities], (file, name)


def test_explicit_format_overrides_detection(tmp_path):
    path = tmp_path / "f.json"
    path.write_text(HAND_MADE["triaffine"])
    assert read_corpus(path, "spert").format == "triaffine"
    with pytest.raises(ValueError, match="has no 'span' key"):
        read_corpus(path, "pyramid")
    with pytest.raises(ValueError, match="unknown format 'conll'"):
        get_format("conll")


def test_undetectable_format(tmp_path):
    path = tmp_path / "f.txt"
    path.write_text("just some words\nand more words\n")
    with pytest.raises(ValueError, match="cannot tell the format; pass it explicitly"):
        read_corpus(path)


@pytest.mark.parametrize("text", ["Peter\tB-PER\nBlack\tI-PER\n\n", "Peter B-PER\nBlack I-PER\n",
                                  "Peter B-PER\n\n", "EU B-ORG\nrejects O\n\nPeter B-PER\nBlack I-PER\n"])
def test_column_files_are_no_text_blocks(text):
    # QA item 5: two-token sentences of a column file have the shape of Lu & Roth blocks without entities
    with pytest.raises(UnknownFormat):
        detect_format(text, "two.conll")


def test_text_blocks_with_the_shape_of_columns_are_told_by_their_entities():
    assert detect_format("a b\nDT NN\n0,1 G#X\n\n") == "lu_roth"
    assert detect_format("a b c\nDT NN NN\n0,1 G#X|1,2 G#Y\n\n") == "lu_roth"
    assert detect_format("a b\n0,1 G#X\n\n") == "shibuya"


@pytest.mark.parametrize("text", ["", "\n\n", " \n"])
def test_an_empty_file_is_refused(tmp_path, text):
    path = tmp_path / "empty.txt"
    path.write_text(text)
    with pytest.raises(ValueError, match=r"empty\.txt: the file is empty"):
        read_corpus(path)


BAD_FILES = {
    "end-beyond": ('{"tokens": ["a", "b"], "entity_mentions": [{"start": 0, "end": 3, "entity_type": "X"}]}',
                   ValueError, r"line 1: span \(0, 3, 'X'\) is out of range"),
    "start-equals-end": ('{"tokens": ["a", "b"], "entity_mentions": [{"start": 1, "end": 1, "entity_type": "X"}]}',
                         ValueError, r"line 1: span \(1, 1, 'X'\)"),
    "negative": ('{"tokens": ["a"], "entity_mentions": [{"start": -1, "end": 1, "entity_type": "X"}]}',
                 ValueError, r"line 1: span \(-1, 1, 'X'\)"),
    "missing-key": ('{"tokens": ["a"], "entity_mentions": [{"start": 0, "entity_type": "X"}]}',
                    ValueError, r"line 1: .* has no 'end' key"),
    "non-integer": ('{"tokens": ["a"], "entity_mentions": [{"start": "0", "end": 1, "entity_type": "X"}]}',
                    TypeError, r"line 1: span \('0', 1, 'X'\) has non-integer offsets"),
    "not-json": ("{oops\n", ValueError, r"line 1, column 2: not valid JSON \(Expecting property name enclosed in double quotes\)"),
}


@pytest.mark.parametrize("text, error, message", BAD_FILES.values(), ids=BAD_FILES.keys())
def test_bad_files_name_sentence_and_span(tmp_path, text, error, message):
    path = tmp_path / "bad.jsonl"
    path.write_text(text + "\n")
    with pytest.raises(error, match=message):
        read_corpus(path, "oneie")


def test_bad_text_block_names_the_line():
    with pytest.raises(ValueError, match=r"x, line 2: entity '5-6 G#protein' must read"):
        FORMATS["shibuya"].read("a b c d e f\n5-6 G#protein\n\n", "x")


def test_align_by_id_and_token_mismatch():
    gold = _corpus()
    shuffled = Corpus(list(reversed(gold.tokens)), list(reversed(gold.entities)), ["c", "b", "a"])
    assert align(gold, shuffled).entities == gold.entities
    no_ids = Corpus(gold.tokens, gold.entities)
    assert align(gold, no_ids) is no_ids
    changed = Corpus([gold.tokens[0], ["NF", "kappa", "C", "binds"], gold.tokens[2]], gold.entities)
    with pytest.raises(ValueError, match=r"sentence 1 \(id 'b'\): tokens differ at position 2"):
        align(gold, changed)
    with pytest.raises(ValueError, match="no prediction for sentence id 'a'"):
        align(gold, Corpus(gold.tokens[1:], gold.entities[1:], ["b", "c"]))


def test_dataset_columns(tmp_path):
    path = tmp_path / "f.json"
    path.write_text(HAND_MADE["w2ner"])
    dataset = read_dataset(path)
    assert dataset.column_names == ["tokens", "spans"]
    assert dataset[0]["spans"][1] == {"start": 5, "end": 7, "label": "protein"}
    assert "id" in _corpus().to_dataset().column_names
    fragmented = Corpus([list("abcd")], [[(((0, 1), (2, 3)), "A")]])
    assert fragmented.to_dataset()[0]["fragments"] == [{"fragments": [[0, 1], [2, 3]], "label": "A"}]


@pytest.mark.parametrize("name", ["shibuya", "lu_roth"])
def test_text_block_writers_refuse_an_empty_sentence(tmp_path, name):
    # found by the convert round-trip property: its blank tokens line read back as the end of a block
    with pytest.raises(ValueError, match=f"sentence 1 is empty; a {name} block cannot hold an empty sentence"):
        write_corpus(Corpus([["a"], []], [[], []]), tmp_path / "out", name)
    assert not (tmp_path / "out").exists()
