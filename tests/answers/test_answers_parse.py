"""Answers as models write them, read into mentions; what cannot be read is unparseable with its reason."""
from __future__ import annotations

import doctest
import importlib

import pytest

from nested_span_f1.answers.parse import NOTHING_FOUND, Mention, parse_answer

M = Mention


@pytest.mark.parametrize("module", ["parse", "normalize", "locate", "strings", "counts", "indices", "labels"])
def test_docstring_examples(module):
    found = doctest.testmod(importlib.import_module(f"nested_span_f1.answers.{module}"))
    assert found.attempted and not found.failed


OBAMA = [M("Barack Obama", "PER"), M("Paris", "LOC")]


@pytest.mark.parametrize("answer", [
    '[{"text": "Barack Obama", "label": "PER"}, {"text": "Paris", "label": "LOC"}]',
    '[["Barack Obama", "PER"], ["Paris", "LOC"]]',
    "[('Barack Obama', 'PER'), ('Paris', 'LOC')]",
    "[{'text': 'Barack Obama', 'label': 'PER'}, {'text': 'Paris', 'label': 'LOC'}]",
    '[{"entity": "Barack Obama", "type": "PER"}, {"name": "Paris", "category": "LOC"}]',
    'Here are the entities I found:\n[{"text": "Barack Obama", "label": "PER"}, {"text": "Paris", "label": "LOC"}]\n'
    "Let me know if you need more [or fewer] entities.",
    'Sure!\n```json\n[["Barack Obama", "PER"], ["Paris", "LOC"]]\n```\nThe [1] list above is complete.',
    'Reasoning: "Obama" is a [person]. Answer: [["Barack Obama", "PER"], ["Paris", "LOC"]]',
    '{"entities": [["Barack Obama", "PER"], ["Paris", "LOC"]], "note": "two found"}',
], ids=["json objects", "json pairs", "python tuples", "python dicts", "key aliases", "prose around", "code fence",
        "brackets in prose first", "entities key"])
def test_lists_in_every_spelling(answer):
    parsed = parse_answer(answer)
    assert parsed.error is None
    assert [(m.text, m.label) for m in parsed.mentions] == [(m.text, m.label) for m in OBAMA]


def test_object_keyed_by_type():
    parsed = parse_answer('{"PER": ["Barack Obama", "Michelle Obama"], "LOC": "Paris", "ORG": []}')
    assert parsed.shape == "object"
    assert parsed.mentions == (M("Barack Obama", "PER"), M("Michelle Obama", "PER"), M("Paris", "LOC"))


def test_one_type_questions_answer_with_strings():
    # UniversalNER: "Text: ... What describes person in the text?" -> '["Barack Obama"]'
    assert parse_answer('["Barack Obama", "Michelle Obama"]', label="person").mentions == (
        M("Barack Obama", "person"), M("Michelle Obama", "person"))
    assert parse_answer("[]", label="person").mentions == ()
    refused = parse_answer('["Barack Obama"]')
    assert refused.shape == "unparseable" and "without a type" in refused.error


def test_inline_tags_nest_and_keep_offsets():
    parsed = parse_answer("<ORG><LOC>Paris</LOC> Saint-Germain</ORG> beat <ORG>Lyon</ORG>.")
    assert parsed.shape == "tags"
    assert parsed.plain == "Paris Saint-Germain beat Lyon."
    assert parsed.mentions == (M("Paris Saint-Germain", "ORG", 0), M("Paris", "LOC", 0), M("Lyon", "ORG", 25))


@pytest.mark.parametrize("answer, reason", [
    ("<PER>Barack Obama visited Paris", "<PER> is never closed"),
    ("<PER>Barack <LOC>Obama</PER></LOC>", "</PER> where </LOC> was due"),
    ("Obama</PER>", "</PER> where no closing tag was due"),
])
def test_tags_that_do_not_balance(answer, reason):
    parsed = parse_answer(answer)
    assert parsed.shape == "unparseable" and reason in parsed.error


def test_gner_word_tag_output():
    answer = "Barack(B-person) Obama(I-person) visited(O) New(B-location) York(I-location) Paris(I-location) ((O) " \
             "NATO(I-organization) )(O)"
    parsed = parse_answer(answer)
    assert parsed.shape == "gner"
    assert parsed.mentions == (M("Barack Obama", "person"), M("New York Paris", "location"),
                               M("NATO", "organization"))


def test_empty_answers_name_no_entity():
    for answer in ("", "  \n", "[]", "{}", '{"PER": [], "LOC": []}', "Answer: []"):
        parsed = parse_answer(answer)
        assert (parsed.shape, parsed.mentions, parsed.error) == ("empty", (), None), answer


@pytest.mark.parametrize("answer, reason", [
    ("I could not find any entity.", NOTHING_FOUND),
    ("42", NOTHING_FOUND),
    ('"Obama"', NOTHING_FOUND),
    ('[["Obama", "PER", 0.9]', "the '[' at character 1 never closes (was the answer cut short?)"),
    ("[1, 2]", "item 1 is not an object, a [text, label] pair or a string"),
    ('{"PER": 3}', "the value of type 'PER' is 3, not a list of strings"),
    ('[{"text": "Obama", "label": "PER"}', "the '[' at character 1 never closes (was the answer cut short?)"),
])
def test_unparseable_answers_say_why(answer, reason):
    parsed = parse_answer(answer)
    assert parsed.shape == "unparseable" and parsed.mentions == ()
    assert parsed.error == reason


def test_what_was_tried_is_named():
    assert NOTHING_FOUND == (
        "none of a JSON or Python list or object, inline tags, GPT-NER's @@marks##, code calls Type(span=...), "
        "word(tag) output, lines of string (TYPE), TYPE: a, b, string: TYPE, string - TYPE, (string, TYPE) or a "
        "Markdown table found")


@pytest.mark.parametrize("answer, reasons", [
    ('[{"text": "Obama"}]', ["item 1: object {'text': 'Obama'} needs its label under one of label, type, "
                             "entity_type, category, entity_group, 类型, 实体类型, 类别, 标签; it has none"]),
    ('[{"label": "PER"}]', ["item 1: object {'label': 'PER'} needs its text under one of text, entity, span, "
                            "mention, name, word, 实体, 实体名称, 名称; it has none"]),
    ('[{"text": "Obama", "entity": "Barack Obama", "label": "PER"}]',
     ["item 1: object {'text': 'Obama', 'entity': 'Barack Obama', 'label': 'PER'} needs its text under one of "
      "text, entity, span, mention, name, word, 实体, 实体名称, 名称; it has text, entity (more than one)"]),
    ('[{"text": 1996, "label": "DATE"}]', ["item 1: text 1996 of {'text': 1996, 'label': 'DATE'} is not a string"]),
    ('[["Obama", "PER", 0.9]]', ["item 1: item ['Obama', 'PER', 0.9] is not a [text, label] pair or a [text, "
                                 "label, first, last] item"]),
    ('[["Obama", null]]', ["item 1: label None of ['Obama', None] is not a string"]),
    ('[["Paris", ""]]', ["item 1: label of ['Paris', ''] is empty"]),
    ('[["", "LOC"]]', ["item 1: text of ['', 'LOC'] is empty"]),
    ('[["Paris", 3]]', ["item 1: label 3 of ['Paris', 3] is not a string"]),
])
def test_an_item_that_cannot_be_read_is_counted_not_fatal(answer, reasons):
    # issue 37: an empty label aborted the whole run; now the item is counted with the reason
    parsed = parse_answer(answer)
    assert (parsed.shape, parsed.mentions, parsed.error) == ("list", (), None)
    assert list(parsed.unreadable) == reasons


def test_one_bad_item_keeps_the_rest_of_the_answer():
    parsed = parse_answer('[["Obama", "PER"], ["Paris"], ["Rome", ""], ["Lyon", "LOC"]]')
    assert parsed.shape == "list"
    assert parsed.mentions == (M("Obama", "PER"), M("Lyon", "LOC"))
    assert parsed.unreadable == (
        "item 2: item ['Paris'] is not a [text, label] pair or a [text, label, first, last] item",
        "item 3: label of ['Rome', ''] is empty")
    parsed = parse_answer('{"PER": ["Obama", ""], "LOC": ["Paris"]}')
    assert parsed.mentions == (M("Obama", "PER"), M("Paris", "LOC"))
    assert parsed.unreadable == ("type 'PER', item 2: text of '' is empty",)


@pytest.mark.parametrize("value", [None, 3, ["Obama"], b"[]"])
def test_an_answer_that_is_not_text_is_refused(value):
    with pytest.raises(TypeError, match="an answer must be a string"):
        parse_answer(value)


def test_deep_or_huge_values_do_not_crash():
    assert parse_answer("[" * 100_000).shape == "unparseable"
    assert parse_answer("[" * 5000 + "]" * 5000).shape == "unparseable"
