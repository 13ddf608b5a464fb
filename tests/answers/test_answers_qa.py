"""Answers a QA tester wrote as models write them, read right: a reasoning block before the answer, a type with
nothing (None, null, N/A, "none found", "-", []), an object of entities to types, lists as values of type lines,
names in a sentence, corrections of a value or of lines, lists on successive lines, the outside label O, and line
shapes with an explanation, brackets, a confidence, bold or a heading; and ordinary prose read as no mention."""
from __future__ import annotations

import json

import pytest

from nested_span_f1.answers import score_answers
from nested_span_f1.answers.parse import parse_answer
from nested_span_f1.cli.main import main

TEXT = "Barack Obama met Angela Merkel in Berlin on Monday."
GOLD = [{"id": "d1", "text": TEXT, "entities": [{"start": 0, "end": 12, "label": "PER"},
                                                {"start": 17, "end": 30, "label": "PER"},
                                                {"start": 34, "end": 40, "label": "LOC"}]}]
LABELS = {"PER", "LOC"}
THREE = [("Barack Obama", "PER"), ("Angela Merkel", "PER"), ("Berlin", "LOC")]


def read(text, labels=LABELS):
    answer = parse_answer(text, document=TEXT, labels=labels)
    return answer, [(m.text, m.label) for m in answer.mentions]


@pytest.fixture(scope="module")
def gold_file(tmp_path_factory):
    """The QA tester's gold, a JSON lines file of texts with character offsets."""
    path = tmp_path_factory.mktemp("gold") / "g.jsonl"
    path.write_text(json.dumps(GOLD[0]) + "\n")
    return str(path)


@pytest.fixture
def scored(gold_file):
    """The answer ``output`` scored against the gold by ``score_answers`` (located spans scored exactly)."""
    return lambda output: score_answers([{"id": "d1", "output": output}], gold_file, metric="exact",
                                          zero_division=0)


THINK = "<think>\nThe user wants PER and LOC.\n</think>\n"


@pytest.mark.parametrize("text, shape, skipped", [
    (THINK + "Barack Obama (PER)\nAngela Merkel (PER)\nBerlin (LOC)", "parentheses", 3),
    (THINK + "| Entity | Type |\n|---|---|\n| Barack Obama | PER |\n| Angela Merkel | PER |\n| Berlin | LOC |",
     "table", 3),
    (THINK + "PER: Barack Obama, Angela Merkel\nLOC: Berlin", "type_lines", 3),
    (THINK + '[["Barack Obama", "PER"], ["Angela Merkel", "PER"], ["Berlin", "LOC"]]', "list", 3),
    ("<thinking>PER <b>is</b> [a type]</thinking>\nBarack Obama (PER)\nAngela Merkel (PER)\nBerlin (LOC)",
     "parentheses", 1),
    ("<REASONING>\nLook for names.\n</REASONING>\nBarack Obama (PER)\nAngela Merkel (PER)\nBerlin (LOC)",
     "parentheses", 3),
    # a chat template that ate the opening tag: all before </think> is the reasoning
    ("The user wants PER and LOC.\n</think>\n\nBarack Obama (PER)\nAngela Merkel (PER)\nBerlin (LOC)",
     "parentheses", 2),
])
def test_a_reasoning_block_is_skipped_and_counted_and_the_answer_after_it_read(text, shape, skipped):
    answer, mentions = read(text)
    assert (answer.shape, mentions, len(answer.skipped)) == (shape, THREE, skipped)


def test_the_reasoning_answer_scores_one_and_its_lines_are_counted_as_skipped(scored):
    result = scored(THINK + "Barack Obama (PER)\nAngela Merkel (PER)\nBerlin (LOC)")
    assert result["located"]["overall_f1"] == 1.0 and result["strings"]["overall_f1"] == 1.0
    assert result["answers"]["shapes"] == {"parentheses": 1}
    assert result["answers"]["skipped_lines"] == 3 and result["answers"]["labels_not_in_gold"] == {}


def test_an_unclosed_reasoning_block_gives_no_mention_from_the_reasoning():
    answer, mentions = read("<think>\nBarack Obama (PER) is a person, Berlin (LOC) a city")
    assert (answer.shape, mentions) == ("unparseable", [])
    assert answer.error == "the reasoning block <think> never closes (was the answer cut short?)"
    assert answer.skipped == ("<think>", "Barack Obama (PER) is a person, Berlin (LOC) a city")


def test_a_reasoning_block_with_nothing_after_it_is_unparseable():
    answer, mentions = read("<think>Berlin (LOC)</think>\n  ")
    assert (answer.shape, mentions, answer.error) == ("unparseable", [], "nothing follows the reasoning block")


@pytest.mark.parametrize("text", [
    "{'PER': ['Barack Obama', 'Angela Merkel'], 'LOC': ['Berlin'], 'ORG': [], 'DATE': None}",
    '{"PER": ["Barack Obama", "Angela Merkel"], "LOC": ["Berlin"], "ORG": [], "DATE": null}',
    '{"PER": ["Barack Obama", "Angela Merkel"], "LOC": "Berlin", "ORG": "N/A", "DATE": "none"}',
])
def test_a_type_with_none_null_or_n_a_has_nothing(text, scored):
    for labels in (LABELS, ()):
        answer, mentions = read(text, labels)
        assert (answer.shape, mentions, answer.unreadable, answer.error) == ("object", THREE, (), None)
    assert scored(text)["located"]["overall_f1"] == 1.0


def test_type_lines_of_json_or_python_lists_read_the_lists(scored):
    for text in ('PER: ["Barack Obama", "Angela Merkel"]\nLOC: ["Berlin"]',
                 "PER: ['Barack Obama', 'Angela Merkel']\nLOC: ['Berlin']\nORG: []"):
        answer, mentions = read(text)
        assert (answer.shape, mentions, answer.skipped) == ("type_lines", THREE, ())
    assert scored('PER: ["Barack Obama", "Angela Merkel"]\nLOC: ["Berlin"]')["located"]["overall_f1"] == 1.0


@pytest.mark.parametrize("labels", [LABELS, ()])
def test_an_object_of_entities_to_types_is_read_entity_to_type(labels):
    answer, mentions = read('{"Barack Obama": "PER", "Angela Merkel": "PER", "Berlin": "LOC"}', labels)
    assert (answer.shape, mentions) == ("object", THREE)
    assert read('{"Obama": "person", "Berlin": "location"}', labels)[1] == [("Obama", "person"),
                                                                           ("Berlin", "location")]


@pytest.mark.parametrize("labels", [LABELS, ()])
@pytest.mark.parametrize("text, mentions", [
    ('{"PER": ["Barack Obama"]}', [("Barack Obama", "PER")]),
    ('{"PER": "Barack Obama"}', [("Barack Obama", "PER")]),
    ('{"PER": "Obama", "LOC": "Berlin"}', [("Obama", "PER"), ("Berlin", "LOC")]),
])
def test_an_object_keyed_by_type_stays_read_type_to_entity(text, mentions, labels):
    assert read(text, labels)[1] == mentions


def test_the_gold_types_decide_which_side_of_an_object_is_the_type():
    # both sides one upper-case word: the side holding the gold's types is the type
    assert read('{"UN": "ORG"}', {"ORG"})[1] == [("UN", "ORG")]
    assert read('{"ORG": "UN"}', {"ORG"})[1] == [("UN", "ORG")]


@pytest.mark.parametrize("placeholder", ["none found", "-", "—", "[]", "No organizations mentioned.", "N/A",
                                         "(none)", "None found in the text.", "No organisations were identified."])
def test_a_type_line_saying_none_names_nothing(placeholder, scored):
    answer, mentions = read(f"PER: Barack Obama, Angela Merkel\nLOC: Berlin\nORG: {placeholder}", LABELS | {"ORG"})
    assert (answer.shape, mentions, answer.skipped) == ("type_lines", THREE, ())
    result = scored(f"PER: Barack Obama, Angela Merkel\nLOC: Berlin\nORG: {placeholder}")
    assert result["located"]["fp"] == 0 and result["answers"]["labels_not_in_gold"] == {}


def test_a_sentence_naming_several_entities_reads_them(scored):
    text = "The entities are Barack Obama (PER), Angela Merkel (PER) and Berlin (LOC)."
    for labels in (LABELS, ()):
        answer, mentions = read(text, labels)
        assert (answer.shape, mentions) == ("parentheses", THREE)
    assert scored(text)["located"]["overall_f1"] == 1.0


def test_a_sentence_with_a_parenthesis_that_is_no_gold_type_is_skipped_not_one_mention():
    text = "The entities are Barack Obama (PER), Angela Merkel (the chancellor) and Berlin (LOC)."
    answer, mentions = read(text)
    assert (answer.shape, mentions) == ("unparseable", [])
    answer, mentions = read(f"Barack Obama (PER)\n{text}")
    assert (mentions, answer.skipped) == ([("Barack Obama", "PER")], (text,))


CORRECTED_VALUE = ('[["Barack Obama", "PER"]]\nFinal answer: [["Barack Obama", "PER"], ["Angela Merkel", "PER"], '
                   '["Berlin", "LOC"]]')


def test_a_value_after_final_answer_replaces_the_first(scored):
    answer, mentions = read(CORRECTED_VALUE)
    assert (answer.shape, mentions, answer.corrected) == ("list", THREE, ('[["Barack Obama", "PER"]]',))
    result = scored(CORRECTED_VALUE)
    assert result["located"]["overall_f1"] == 1.0 and result["answers"]["corrected_answers"] == 1


@pytest.mark.parametrize("phrase", ["Let me revise:", "Revised answer:", "Corrected:", "Updated list:"])
def test_a_correction_phrase_replaces_a_list_of_lines(phrase):
    answer, mentions = read(f"Barack Obama (PER)\nMonday (PER)\n{phrase}\nBarack Obama (PER)\nAngela Merkel (PER)\n"
                            "Berlin (LOC)")
    assert (answer.shape, mentions, answer.corrected) == ("parentheses", THREE, ("Barack Obama (PER)",
                                                                                  "Monday (PER)"))
    answer, mentions = read(f'[["Monday", "PER"]]\n{phrase} [["Barack Obama", "PER"], ["Angela Merkel", "PER"], '
                            '["Berlin", "LOC"]]')
    assert (mentions, answer.corrected) == (THREE, ('[["Monday", "PER"]]',))


def test_lists_on_successive_lines_are_read_together(scored):
    text = '[["Barack Obama", "PER"], ["Angela Merkel", "PER"]]\n[["Berlin", "LOC"]]'
    answer, mentions = read(text)
    assert (answer.shape, mentions, answer.corrected) == ("list", THREE, ())
    assert scored(text)["located"]["overall_f1"] == 1.0
    # after prose too (the first value found after a lead-in, then the next)
    assert read(f"Here are the entities:\n{text}\nHope this helps.")[1] == THREE


@pytest.mark.parametrize("text", [
    '[{"entity": "Barack Obama", "type": "PER"}, {"entity": "Monday", "type": "O"}]',
    '[["Barack Obama", "PER"], ["Monday", "O"]]',
    '{"PER": ["Barack Obama"], "O": ["Monday"]}',
    "Barack Obama (PER)\nMonday (O)",
    "<PER>Barack Obama</PER> met Angela Merkel in Berlin on <O>Monday</O>.",
])
def test_the_outside_label_o_is_declined_in_every_shape(text, scored):
    answer, mentions = read(text)
    assert mentions == [("Barack Obama", "PER")]
    assert len(answer.declined) == 1 and "Monday" in answer.declined[0]
    result = scored(text)["answers"]
    assert result["declined_lines"] == 1 and result["labels_not_in_gold"] == {}


@pytest.mark.parametrize("text, shape", [
    ("1. Barack Obama (PER) - former US president\n2. Angela Merkel (PER) - German chancellor\n"
     "3. Berlin (LOC) - capital of Germany", "parentheses"),
    ("Barack Obama (PER): former US president\nAngela Merkel (PER): chancellor\nBerlin (LOC): a city",
     "parentheses"),
    ("**PER:** Barack Obama, Angela Merkel\n**LOC:** Berlin", "type_lines"),
    ("PER:\n- Barack Obama\n- Angela Merkel\n\nLOC:\n- Berlin", "type_lines"),
    ("### PER\n- Barack Obama\n- Angela Merkel\n### LOC\n- Berlin", "type_lines"),
    ("Barack Obama [PER]\nAngela Merkel [PER]\nBerlin [LOC]", "parentheses"),
    ("Barack Obama (PER, 0.98)\nAngela Merkel (PER, 0.91)\nBerlin (LOC, 87%)", "parentheses"),
])
def test_common_line_shapes_read(text, shape):
    for labels in (LABELS, ()):
        answer, mentions = read(text, labels)
        assert (answer.shape, mentions, answer.declined) == (shape, THREE, ())


@pytest.mark.parametrize("text", ["The text does not contain any named entities.",
                                  "There are no person names in the text.", "No organizations mentioned."])
def test_answers_saying_there_is_none_are_empty(text):
    assert read(text)[0] == parse_answer("") and read(text)[0].shape == "empty"


@pytest.mark.parametrize("text", [
    "I met John (my brother) yesterday. The World Health Organization (WHO) said so.",
    "Obama (the president) and Merkel (the chancellor) met in Berlin (the capital).",
    "Here is the answer:\n- the first item\n- the second item",
    "Notes:\n- the text is short\n- nothing else to add",
    "The meeting (on Monday) went well - everyone agreed.",
    "No Doubt",
    "Let me think about this. <think> is a tag some models write.",
    "Sorry, I cannot help with that [policy].",
])
def test_ordinary_prose_names_no_entity(text):
    answer, mentions = read(text)
    assert mentions == [] and answer.shape == "unparseable"


def test_prose_acronyms_are_no_entity_when_the_gold_types_are_known():
    assert read("The World Health Organization (WHO) - the UN agency.")[1] == []
    assert read("Barack Obama (PER)\nThe World Health Organization (WHO) met; Berlin (LOC) hosted.")[1] == [
        ("Barack Obama", "PER")]


def test_the_command_reads_the_reasoning_answer(tmp_path, capsys):
    gold, pred = tmp_path / "g.jsonl", tmp_path / "x.jsonl"
    gold.write_text(json.dumps(GOLD[0]) + "\n")
    pred.write_text(json.dumps({"id": "d1", "output": "<think>\nThe user wants PER and LOC.\n</think>\n"
                                "Barack Obama (PER)\nAngela Merkel (PER)\nBerlin (LOC)"}) + "\n")
    assert main(["answers", "--gold", str(gold), "--pred", str(pred), "--metric", "exact"]) == 0
    out = capsys.readouterr().out
    assert "overall      3     1.0000     1.0000     1.0000     1.0000     1.0000     1.0000" in out
    assert "reading: lines skipped 3, declined 0" in out


def test_a_reasoning_block_after_the_answer_or_inside_it_is_skipped():
    answer, mentions = read("Barack Obama (PER)\nAngela Merkel (PER)\nBerlin (LOC)\n<think>\nMonday (PER)?")
    assert (mentions, answer.skipped) == (THREE, ("<think>", "Monday (PER)?"))
    answer, mentions = read("<PER>Barack Obama</PER> met <think>Is she PER?</think> <PER>Angela Merkel</PER>")
    assert (answer.shape, mentions, answer.skipped) == ("tags", THREE[:2], ("<think>Is she PER?</think>",))


def test_a_list_after_prose_after_the_first_is_counted_not_lost(scored):
    text = '[["Barack Obama", "PER"], ["Angela Merkel", "PER"]]\nAlso this one:\n[["Berlin", "LOC"]]'
    answer, mentions = read(text)
    assert mentions == THREE[:2]
    assert answer.unreadable == ("a later list of 1 item(s) after prose was not read (only a list right after the "
                                 "first, or after 'Final answer:', is)",)
    assert scored(text)["answers"]["unreadable_items"] == 1


def test_an_announcement_with_prose_after_it_is_one_skipped_line():
    answer, mentions = read("Barack Obama (PER)\nAnswer: see above.\nCorrection: none needed.")
    assert (mentions, answer.skipped) == ([("Barack Obama", "PER")], ("Answer: see above.",
                                                                      "Correction: none needed."))
