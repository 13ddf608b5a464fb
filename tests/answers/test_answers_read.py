"""Files of answers: lines gathered into documents by id, one-type questions, what the file gets wrong."""
from __future__ import annotations

import json

import pytest

from nested_span_f1.answers.parse import Mention
from nested_span_f1.answers.read import answer_records, looks_like_answers, read_answer, read_answers


def lines(*records):
    return "".join(json.dumps(r) + "\n" for r in records)


def parsed(read, document=None):
    """Each document's answers, read (as the scorer reads them, with the document's text when given)."""
    return [[read_answer(question, document) for question in answers] for answers in read.answers]


def test_entity_lists_and_raw_answers():
    read = read_answers(lines(
        {"id": "d1", "entities": [{"text": "Obama", "label": "PER", "score": 0.9}]},
        {"id": "d2", "output": 'Answer: [["Paris", "LOC"]]'},
        {"id": "d3", "output": "no idea"},
    ), "sys.jsonl")
    assert read.ids == ["d1", "d2", "d3"]
    # read as written; the answers are read when they are scored
    assert read.answers == [[(None, [{"text": "Obama", "label": "PER", "score": 0.9}])],
                            [(None, 'Answer: [["Paris", "LOC"]]')], [(None, "no idea")]]
    answers = parsed(read)
    assert [[a.mentions for a in document] for document in answers] == [
        [(Mention("Obama", "PER"),)], [(Mention("Paris", "LOC"),)], [()]]
    assert [document[0].shape for document in answers] == ["entities", "list", "unparseable"]
    assert read.places == ["sys.jsonl, line 1", "sys.jsonl, line 2", "sys.jsonl, line 3"]
    assert [read.line(k) for k in range(3)] == ["line 1", "line 2", "line 3"]


def test_entity_list_items_that_cannot_be_read_are_counted_where_they_are_scored():
    read = read_answers(lines({"id": "d1", "entities": ["Obama", {"text": "Obama"}, {"label": "PER"},
                                                          {"text": 3, "label": "PER"}, {"text": "Paris", "label": ""},
                                                          {"text": "Rome", "label": "LOC"}]}), "f")
    (answer,) = parsed(read)[0]
    assert answer.shape == "entities" and answer.mentions == (Mention("Rome", "LOC"),)
    assert answer.unreadable == (
        "item 1: item 'Obama' is a string without a type: a list of strings answers a question about one type, "
        "which the record must name ('label')",
        "item 2: object {'text': 'Obama'} needs its label under one of label, type, entity_type, category, "
        "entity_group, 类型, 实体类型, 类别, 标签; it has none",
        "item 3: object {'label': 'PER'} needs its text under one of text, entity, span, mention, name, word, 实体, "
        "实体名称, 名称; it has none",
        "item 4: text 3 of {'text': 3, 'label': 'PER'} is not a string",
        "item 5: label of {'text': 'Paris', 'label': ''} is empty")


def test_one_type_questions_are_gathered_by_id():
    read = read_answers(lines(
        {"id": 7, "label": "person", "output": '["Barack Obama"]', "text": "Barack Obama in Paris"},
        {"id": 8, "label": "person", "output": "[]"},
        {"id": 7, "label": "location", "output": '["Paris"]'},
    ))
    assert read.ids == ["7", "8"]
    assert [(label, read_answer((label, a)).mentions) for label, a in read.answers[0]] == [
        ("person", (Mention("Barack Obama", "person"),)), ("location", (Mention("Paris", "location"),))]
    assert read.texts == ["Barack Obama in Paris", None]


def test_without_ids_documents_go_by_order():
    read = read_answers(lines({"output": "[]"}, {"output": "[]"}))
    assert read.ids is None and len(read) == 2


@pytest.mark.parametrize("records, error, message", [
    ([{"id": "d1", "output": "[]"}, {"id": "d1", "output": "[]"}], ValueError,
     "f, line 2: id 'd1' is given twice (without a 'label' both times; first at f, line 1)"),
    ([{"id": "d1", "label": "PER", "output": "[]"}, {"id": "d1", "label": "PER", "output": "[]"}], ValueError,
     "f, line 2: id 'd1' is given twice (with label 'PER'"),
    ([{"id": "d1", "label": "PER", "output": "[]"}, {"id": "d1", "output": "[]"}], ValueError,
     "both for one type and for all"),
    ([{"id": "d1", "output": "[]"}, {"output": "[]"}], ValueError,
     "f, line 2: no 'id', where the first line has one; give every line an id, or none"),
    ([{"output": "[]"}, {"id": "d2", "output": "[]"}], ValueError, "f, line 2: an 'id', where the first line has none"),
    ([{"id": "d1", "output": None}], TypeError, "f, line 1: 'output' must be the model's answer as a string, got None"),
    ([{"id": "d1", "output": ["Obama"]}], TypeError, "'output' must be the model's answer as a string, got ['Obama']"),
    ([{"id": "d1"}], ValueError, "f, line 1: a line holds either 'entities'"),
    ([{"id": "d1", "output": "[]", "entities": []}], ValueError, "got both"),
    ([{"id": "d1", "entities": {"text": "Obama", "label": "PER"}}], TypeError, "'entities' must be a list"),
    ([{"id": "d1", "label": 3, "output": "[]"}], TypeError, "'label' (the type the question asked about) must be a"),
    ([{"id": "d1", "output": "[]", "text": 3}], TypeError, "'text' must be the document's text as a string, got 3"),
    ([{"id": "d1", "label": "A", "output": "[]", "text": "x"}, {"id": "d1", "label": "B", "output": "[]", "text": "y"}],
     ValueError, "f, line 2: id 'd1' has another 'text' than at f, line 1"),
    ([["d1", "[]"]], TypeError, 'f, line 1: expected a json object, got ["d1", "[]"]'),
])
def test_what_the_file_gets_wrong_is_refused_with_its_line(records, error, message):
    with pytest.raises(error) as caught:
        read_answers(lines(*records), "f")
    assert message in str(caught.value)


def test_detection():
    assert looks_like_answers(lines({"id": "d1", "output": "x"}))
    assert looks_like_answers(lines({"id": "d1", "entities": []}, {"id": "d2", "entities": [{"text": "a", "label": "B"}]}))
    assert looks_like_answers(lines({"id": "d1", "text": "a b", "entities": [{"text": "a", "label": "B"}]}))
    assert not looks_like_answers(lines({"id": "d1", "text": "a b", "entities": [{"start": 0, "end": 1, "label": "B",
                                                                            "text": "a"}]}))
    assert not looks_like_answers(lines({"text": "a", "entities": [{"entity_group": "B", "word": "a", "start": 0}]}))
    assert not looks_like_answers(lines({"tokens": ["a"], "entity_mentions": []}))
    assert not looks_like_answers("a\tB-PER\n")
    assert looks_like_answers(lines({"id": "d1", "entities": []}))  # entities without a text: only these files
    assert looks_like_answers(lines({"id": "d1", "entities": ["Obama"]}))  # (to be refused by the reader)
    assert not looks_like_answers(lines({"id": "d1", "text": "a", "entities": []}))  # nothing tells


def test_written_records_read_back():
    text = answer_records(["a", "b"], [[("Obama", "PER")], []])
    read = read_answers(text)
    assert read.ids == ["a", "b"] and read_answer(read.answers[0][0]).mentions == (Mention("Obama", "PER"),)
    assert looks_like_answers(text)
