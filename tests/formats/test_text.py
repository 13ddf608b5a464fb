"""The text-span and pipeline-output readers: JSON lines of a text and its character spans."""
from __future__ import annotations

import json

import pytest

from nested_span_f1 import Corpus, read_corpus, write_corpus
from nested_span_f1.formats import FORMATS, align, detect_format
from nested_span_f1.formats.pipeline import merge_subtokens, read_pipeline
from nested_span_f1.formats.text import TextMismatchWarning, read_text_spans

TEXT = "Peter Blackburn visited Paris."
ENTITIES = [{"start": 0, "end": 15, "label": "PER"}, {"start": 24, "end": 29, "label": "LOC"}]


def _jsonl(*records):
    return "".join(json.dumps(r, ensure_ascii=False) + "\n" for r in records)


def test_text_spans_read_as_character_offsets():
    corpus = read_text_spans(_jsonl({"id": "d1", "text": TEXT, "entities": ENTITIES},
                                    {"id": "d2", "text": "", "entities": []}), "gold.jsonl")
    assert corpus.unit == "characters" and corpus.texts == [TEXT, ""]
    assert corpus.entities == [[(0, 15, "PER"), (24, 29, "LOC")], []]
    assert corpus.sentence_ids == ["d1", "d2"] and corpus.lengths == [30, 0]
    assert corpus.places == ["gold.jsonl, line 1", "gold.jsonl, line 2"]


def test_code_points_count_not_bytes_nor_utf16_units():
    # an emoji is one code point (two UTF-16 units, four UTF-8 bytes); a combining mark is a code point of its own
    text = "😀 Zoë Mü\u0308ller in 東京"
    start = text.index("東")
    corpus = read_text_spans(_jsonl({"id": "d", "text": text, "entities": [
        {"start": 2, "end": 5, "label": "PER", "text": "Zoë"}, {"start": start, "end": start + 2, "label": "LOC"}]}))
    assert [text[s:e] for s, e, _ in corpus.entities[0]] == ["Zoë", "東京"]
    assert corpus.notes == {}


def test_discontinuous_entities_and_their_text():
    corpus = read_text_spans(_jsonl({"id": "d", "text": "left and right breast",
                                     "entities": [{"fragments": [[0, 4], [15, 21]], "label": "Body",
                                                   "text": "left breast"}]}))
    assert corpus.entities == [[(((0, 4), (15, 21)), "Body")]] and corpus.discontinuous() == 1
    assert corpus.notes == {}


def test_mention_text_that_differs_is_counted_and_warned_not_refused():
    record = {"id": "d1", "text": TEXT, "entities": [{**ENTITIES[0], "text": "Peter"}, {**ENTITIES[1], "text": "Paris"}]}
    with pytest.warns(TextMismatchWarning, match="1 entity whose text differs") as caught:
        corpus = read_text_spans(_jsonl(record), "gold.jsonl")
    assert len(caught) == 1
    assert corpus.notes == {"mention_text_mismatches": 1}
    assert "gold.jsonl, line 1: text 'Peter' where the document reads 'Peter Blackburn'" in corpus.conversion
    assert corpus.entities == [[(0, 15, "PER"), (24, 29, "LOC")]]


@pytest.mark.parametrize(("entity", "error", "fragments"), [
    ({"start": 0, "end": 31, "label": "PER"}, ValueError, ("line 1", "(0, 31, 'PER')", "end <= 30 (the text's length in characters)")),
    ({"start": 5, "end": 2, "label": "PER"}, ValueError, ("line 1", "(5, 2, 'PER')", "0 <= start < end")),
    ({"start": 0, "end": 1.0, "label": "PER"}, TypeError, ("line 1", "end 1.0", "never truncated")),
    ({"start": "0", "end": 1, "label": "PER"}, TypeError, ("line 1", "start '0'")),
    ({"start": 0, "end": 1}, ValueError, ("line 1", "no 'label' key")),
    ({"start": -1, "end": 1, "label": "PER"}, ValueError, ("line 1", "out of range")),
])
def test_bad_offsets_are_refused_naming_line_and_value(entity, error, fragments):
    with pytest.raises(error) as raised:
        read_text_spans(_jsonl({"id": "d", "text": TEXT, "entities": [entity]}), "gold.jsonl")
    for fragment in fragments:
        assert fragment in str(raised.value)
    assert "position 1 in the document" in str(raised.value) or (error is ValueError and "label" in fragments[-1])


def test_text_must_be_a_string():
    with pytest.raises(TypeError, match=r"gold.jsonl, line 1: 'text' must be a string"):
        read_text_spans(_jsonl({"id": "d", "text": ["Peter"], "entities": []}), "gold.jsonl")


def test_write_reads_back(tmp_path):
    corpus = Corpus([TEXT, "left and right breast"], [[(0, 15, "PER"), (24, 29, "LOC")], [(((0, 4), (15, 21)), "B")]],
                    ["a", "b"], unit="characters")
    for name in ("text", "pipeline"):
        path = tmp_path / f"{name}.jsonl"
        if name == "pipeline":
            with pytest.raises(ValueError, match="discontinuous entity"):
                write_corpus(corpus, path, name)
            corpus = Corpus(corpus.tokens[:1], corpus.entities[:1], ["a"], unit="characters")
        write_corpus(corpus, path, name)
        back = read_corpus(path)
        assert back.format == name
        assert (back.texts, back.entities, back.sentence_ids) == (corpus.texts, corpus.entities, corpus.sentence_ids)


def test_detection_tells_text_spans_from_pipeline_output():
    text = _jsonl({"id": "a", "text": "x", "entities": []}, {"id": "b", "text": TEXT, "entities": ENTITIES})
    pipe = _jsonl({"id": "a", "text": "x", "entities": []},
                  {"id": "b", "text": TEXT, "entities": [{"entity_group": "PER", "word": "peter blackburn",
                                                          "start": 0, "end": 15, "score": 0.9}]})
    assert detect_format(text) == "text" and detect_format(pipe) == "pipeline"
    assert detect_format(FORMATS["text"].example()) == "text"


def test_token_writers_refuse_texts_and_a_text_writer_refuses_tokens(tmp_path):
    tokens = Corpus([["Peter"]], [[(0, 1, "PER")]])
    with pytest.raises(ValueError, match="holds tokens, not texts"):
        write_corpus(tokens, tmp_path / "x.jsonl", "text")


# ---------------------------------------------------------------- pipeline output

AGGREGATED = [
    {"entity_group": "PER", "score": 0.99, "word": "peter blackburn", "start": 0, "end": 15},
    {"entity_group": "LOC", "score": 0.98, "word": "paris", "start": 24, "end": 29},
]
SUBTOKENS = [
    {"entity": "B-PER", "score": 0.9, "index": 1, "word": "peter", "start": 0, "end": 5},
    {"entity": "I-PER", "score": 0.9, "index": 2, "word": "black", "start": 6, "end": 11},
    {"entity": "I-PER", "score": 0.9, "index": 3, "word": "##burn", "start": 11, "end": 15},
    {"entity": "B-LOC", "score": 0.9, "index": 5, "word": "paris", "start": 24, "end": 29},
]


def test_pipeline_aggregated_and_not_aggregated_give_the_same_spans():
    simple = read_pipeline(_jsonl({"id": "d", "text": TEXT, "entities": AGGREGATED}))
    none = read_pipeline(_jsonl({"id": "d", "text": TEXT, "entities": SUBTOKENS}))
    assert simple.entities == none.entities == [[(0, 15, "PER"), (24, 29, "LOC")]]
    assert simple.notes == none.notes == {}
    assert "aggregated" in simple.conversion and "simple strategy" in none.conversion


@pytest.mark.parametrize(("tags", "indices", "spans"), [
    # B- starts a span even after the same type; I- of another type starts one; a gap in index ends one
    (["B-PER", "B-PER"], [1, 2], [(0, 1, "PER"), (1, 2, "PER")]),
    (["B-PER", "I-LOC"], [1, 2], [(0, 1, "PER"), (1, 2, "LOC")]),
    (["I-PER", "I-PER"], [1, 3], [(0, 1, "PER"), (2, 3, "PER")]),
    (["I-PER", "I-PER"], [1, 2], [(0, 2, "PER")]),
    # no B-/I- prefix: the whole tag is the group tag and continues (as the pipeline's get_tag reads E- and S-
    # tags); a span is labelled by its first tag after the first '-' (as the pipeline's group_sub_entities)
    (["S-PER", "S-PER"], [1, 2], [(0, 2, "PER")]),
    (["B-PER", "I-PER", "E-PER"], [1, 2, 3], [(0, 2, "PER"), (2, 3, "PER")]),
    (["E-PER", "E-PER", "S-PER"], [1, 2, 3], [(0, 2, "PER"), (2, 3, "PER")]),
    (["S-ORG", "I-ORG"], [1, 2], [(0, 1, "ORG"), (1, 2, "ORG")]),
    (["PER", "I-PER"], [1, 2], [(0, 2, "PER")]),
    # O sub-tokens (ignore_labels=[]) end a span and are no entity
    (["B-PER", "O", "I-PER"], [1, 2, 3], [(0, 1, "PER"), (2, 3, "PER")]),
    # the order of the items does not matter, the index does
    (["I-PER", "B-PER"], [2, 1], [(0, 2, "PER")]),
])
def test_subtokens_merge_by_the_simple_rule(tags, indices, spans):
    items = [{"entity": tag, "index": index, "start": index - 1, "end": index} for tag, index in zip(tags, indices)]
    assert merge_subtokens(items, "x") == spans


def test_pipeline_word_that_differs_beyond_marks_and_case_is_reported():
    items = [dict(AGGREGATED[0]), {**AGGREGATED[1], "word": "london"}]
    with pytest.warns(TextMismatchWarning, match="1 entity whose word differs"):
        corpus = read_pipeline(_jsonl({"id": "d", "text": TEXT, "entities": items}), "pred.jsonl")
    assert corpus.notes == {"pipeline_word_mismatches": 1}
    assert "pred.jsonl, line 1: word 'london' where the document reads 'Paris'" in corpus.conversion


@pytest.mark.parametrize(("item", "error", "fragment"), [
    ({**SUBTOKENS[0], "end": 5.0}, TypeError, "end 5.0"),
    ({**SUBTOKENS[0], "end": 99}, ValueError, "<= 30"),
    ({**SUBTOKENS[0], "index": "1"}, TypeError, "integer 'index'"),
    ({k: v for k, v in SUBTOKENS[0].items() if k != "start"}, ValueError, "no 'start' key"),
])
def test_bad_pipeline_items_are_refused(item, error, fragment):
    with pytest.raises(error, match=r"pred\.jsonl, line 1") as raised:
        read_pipeline(_jsonl({"id": "d", "text": TEXT, "entities": [item, *SUBTOKENS[1:]]}), "pred.jsonl")
    assert fragment in str(raised.value)


def test_mixed_pipeline_outputs_in_one_line_are_refused():
    with pytest.raises(ValueError, match="mix aggregated items"):
        read_pipeline(_jsonl({"id": "d", "text": TEXT, "entities": [AGGREGATED[0], SUBTOKENS[3]]}))


# ---------------------------------------------------------------- pairing documents

def _texts(texts, ids=None, entities=None):
    return Corpus(texts, entities or [[] for _ in texts], ids, unit="characters", source="pred.jsonl")


def test_documents_pair_by_id_and_texts_must_be_equal():
    gold = _texts(["abc", "xyz"], ["1", "2"])
    assert align(gold, _texts(["xyz", "abc"], ["2", "1"])).texts == ["abc", "xyz"]
    with pytest.raises(ValueError, match=r"document 1 \(id '2'\): texts differ at offset 2 .*'z'.*'Z'"):
        align(gold, _texts(["abc", "xyZ"], ["1", "2"]))
    with pytest.raises(ValueError, match="no prediction for document id '2'"):
        align(gold, _texts(["abc"], ["1"]))
    with pytest.raises(ValueError, match="document id '3' is not in"):
        align(gold, _texts(["abc", "xyz", "q"], ["1", "2", "3"]))
    with pytest.raises(ValueError, match="document id '1' is given to two documents"):
        align(gold, _texts(["abc", "abc"], ["1", "1"]))
    with pytest.raises(ValueError, match=r"holds characters but .* holds tokens"):
        align(Corpus([["abc"]], [[]]), _texts(["abc"]))


@pytest.mark.parametrize("separator", ["\u2028", "\u2029", "\x85"])
@pytest.mark.parametrize("format", ["text", "pipeline"])
def test_line_separators_inside_a_text_are_written_escaped_and_read_either_way(tmp_path, separator, format):
    # QA item 7: str.splitlines() splits at U+2028, U+2029 and U+0085; a json line ends at \n only
    corpus = Corpus([f"Peter{separator}Paris lives", "Ann"], [[(0, 5, "PER")], []], ["d", "e"], unit="characters")
    path = tmp_path / "u.jsonl"
    write_corpus(corpus, path, format)
    written = path.read_text(encoding="utf-8")
    assert separator not in written and len(written.splitlines()) == 2
    for given in (None, format):
        back = read_corpus(path, given)
        assert (back.texts, back.entities, back.places[1]) == (corpus.texts, corpus.entities, f"{path}, line 2")
    # a file another tool wrote with the separator raw in a string reads too, with every line counted at \n
    path.write_text(written.replace(json.dumps(separator)[1:-1], separator), encoding="utf-8")
    assert separator in path.read_text(encoding="utf-8")
    back = read_corpus(path)
    assert (back.texts, back.entities, back.places[1]) == (corpus.texts, corpus.entities, f"{path}, line 2")


def test_an_entity_with_fragments_and_offsets_is_refused():
    # QA item 20: the fragments were used and start/end ignored
    line = _jsonl({"text": TEXT, "entities": [{"start": 0, "end": 5, "fragments": [[0, 5]], "label": "PER"}]})
    with pytest.raises(ValueError, match=r"g\.jsonl, line 1: entity .* has fragments and start and end; give one"):
        read_text_spans(line, "g.jsonl")


def test_texts_that_print_alike_are_shown_by_their_code_points():
    # QA item 21: "gold 'é Z', predicted 'é Z'" named no difference a reader could see
    from nested_span_f1.align.score import score_documents

    nfc, nfd = "Ren\u00e9 Z", "Rene\u0301 Z"
    gold = Corpus([nfc], [[]], ["d"], unit="characters", source="gold")
    pred = Corpus([nfd], [[]], ["d"], unit="characters", source="pred")
    with pytest.raises(ValueError, match="texts differ at offset 3") as raised:
        align(gold, pred)
    assert "they print alike: U+00E9 against U+0065 U+0301, the same text after Unicode NFC" in str(raised.value)
    with pytest.raises(ValueError) as raised:
        score_documents([{"text": nfd, "entities": []}], [{"text": nfc, "entities": []}])
    assert "they print alike: U+0065 U+0301 against U+00E9" in str(raised.value)
    with pytest.raises(ValueError) as raised:
        align(gold, Corpus(["Renee Z"], [[]], ["d"], unit="characters"))
    assert "print alike" not in str(raised.value)
    with pytest.raises(ValueError, match=r"end <= 6 \(the text's length in characters\)"):
        score_documents([{"text": nfc, "entities": [{"start": 0, "end": 9, "label": "X"}]}],
                        [{"text": nfc, "entities": []}])


def test_a_span_beyond_a_text_names_its_length_in_characters():
    # QA item 21: "(the sentence length)" where the bound is the text's length in characters
    with pytest.raises(ValueError, match=r"end <= 3 \(the text's length in characters\)"):
        Corpus(["abc"], [[(0, 9, "X")]], unit="characters")
