"""Answers as real models write them (issue 37): every shape and variant, read into exactly the mentions they name,
with the prose around them skipped and counted, and prose that names no entity never made one.

The answers quoted in issue 37 are real output of four language models on two domain NER corpora; they are used
here word for word (``REAL``)."""
from __future__ import annotations

import pytest

from nested_span_f1.answers.lines import says_none
from nested_span_f1.answers.parse import NOTHING_FOUND, Mention, parse_answer

M = Mention

REAL = {
    "lead-in": "Here is the answer:\n\nmetabolic (QUALITY)\nfood-web (QUALITY)\necosystem (ENVIRONMENT)",
    "indexed": "[['land-use intensification', 'PHENOMENA', 16, 17], ['ecosystem', 'ENVIRONMENT', 20, 20]]",
    "explanation": "Penman – Monteith method (no entity, as methods are not included in the provided categories)",
}


def read(answer, **options):
    parsed = parse_answer(answer, **options)
    return parsed.shape, [(m.text, m.label) for m in parsed.mentions]


def test_the_real_string_type_answer():
    parsed = parse_answer(REAL["lead-in"])
    assert parsed.shape == "parentheses" and parsed.error is None
    assert parsed.mentions == (M("metabolic", "QUALITY"), M("food-web", "QUALITY"), M("ecosystem", "ENVIRONMENT"))
    assert parsed.skipped == ("Here is the answer:",)
    assert parsed.declined == parsed.unreadable == parsed.corrected == ()


@pytest.mark.parametrize("answer, mentions, skipped", [
    # trailing spaces, an "Answer:" lead-in, a type with hyphens
    ("Answer:\nmetabolic (QUALITY)  \nemissions (CLIMATE-GREENHOUSE-GASES)   \n",
     [("metabolic", "QUALITY"), ("emissions", "CLIMATE-GREENHOUSE-GASES")], ("Answer:",)),
    # list markers, bold, backticks and quotes around the string
    ("- metabolic (QUALITY)\n* food-web (QUALITY)\n• soil (ENVIRONMENT)\n1. **ecosystem** (ENVIRONMENT)\n"
     "2) `biomass` (QUALITY)\n3. \"carbon\" (QUALITY)",
     [("metabolic", "QUALITY"), ("food-web", "QUALITY"), ("soil", "ENVIRONMENT"), ("ecosystem", "ENVIRONMENT"),
      ("biomass", "QUALITY"), ("carbon", "QUALITY")], ()),
    # the string may hold parentheses of its own: the type is the last ones
    ("interleukin (IL)-2 (protein)\nNF-kappa B (p50) (protein).", [("interleukin (IL)-2", "protein"),
                                                                   ("NF-kappa B (p50)", "protein")], ()),
    # several on one line
    ("metabolic (QUALITY), food-web (QUALITY); ecosystem (ENVIRONMENT)",
     [("metabolic", "QUALITY"), ("food-web", "QUALITY"), ("ecosystem", "ENVIRONMENT")], ()),
    # the answer inside a code fence, prose after it
    ("```\nmetabolic (QUALITY)\n```\nI hope this helps!", [("metabolic", "QUALITY")], ("I hope this helps!",)),
])
def test_string_type_variants(answer, mentions, skipped):
    parsed = parse_answer(answer)
    assert parsed.shape == "parentheses"
    assert [(m.text, m.label) for m in parsed.mentions] == mentions
    assert parsed.skipped == skipped


def test_an_explanation_in_the_type_slot_is_declined_not_a_prediction():
    parsed = parse_answer(REAL["explanation"])
    assert (parsed.shape, parsed.mentions, parsed.error) == ("parentheses", (), None)
    assert parsed.declined == (REAL["explanation"],)
    parsed = parse_answer("metabolic (QUALITY)\n" + REAL["explanation"] + "\nwater (no label, it is a resource)\n"
                          "Paris - none\nsoil (O)")
    assert parsed.mentions == (M("metabolic", "QUALITY"),)
    assert parsed.declined == (REAL["explanation"], "water (no label, it is a resource)", "Paris - none", "soil (O)")


def test_a_self_correction_keeps_the_last_list():
    answer = ("Answer:\nland-use (PHENOMENA)\necosystem (ENVIRONMENT)\n\nHowever, land-use intensification is one "
              "phenomenon, so the corrected answer would be:\nland-use intensification (PHENOMENA)\n"
              "ecosystem (ENVIRONMENT)")
    parsed = parse_answer(answer)
    assert parsed.mentions == (M("land-use intensification", "PHENOMENA"), M("ecosystem", "ENVIRONMENT"))
    assert parsed.corrected == ("land-use (PHENOMENA)", "ecosystem (ENVIRONMENT)")
    assert parsed.skipped == ("Answer:", "However, land-use intensification is one phenomenon, so the corrected "
                                         "answer would be:")
    # "Final answer:" announces the last list too, and may carry it on its own line
    parsed = parse_answer("Paris (LOC)\nRome (PER)\nFinal answer: Paris (LOC), Rome (LOC)")
    assert read("Paris (LOC)\nRome (PER)\nFinal answer: Paris (LOC), Rome (LOC)")[1] == [("Paris", "LOC"),
                                                                                         ("Rome", "LOC")]
    assert parsed.corrected == ("Paris (LOC)", "Rome (PER)")
    # an announcement after the list that names nothing new leaves the list as it is
    parsed = parse_answer("Paris (LOC)\nRome (LOC)\nThis is my final answer.")
    assert [m.text for m in parsed.mentions] == ["Paris", "Rome"] and parsed.corrected == ()
    assert parsed.skipped == ("This is my final answer.",)


@pytest.mark.parametrize("answer", [
    "no entities", "No entities", "None", "none.", "N/A", "n/a", "[]", "{}", "", "   \n",
    "There are no named entities in this sentence.", "There are no entities in the text.", "No entities found.",
    "No named entities.", "Answer: None", "**None**", "No entities of type person were found in the text.",
    "Here is the answer:\n\nNone", "Answer:\nNo entities",
])
def test_answers_that_say_there_are_none_are_empty(answer):
    parsed = parse_answer(answer)
    assert (parsed.shape, parsed.mentions, parsed.error) == ("empty", (), None)


@pytest.mark.parametrize("answer", [
    "Sorry, I cannot list the entities of this sentence.",
    "I am not sure.",
    "Here is the answer:",
    "However, the corrected answer would be:",
    "The sentence talks about ecosystems.\nIt mentions land use.",
    "Note: the sentence has several candidates, but none fits the categories.",
    "Explanation: metabolic describes a quality of the process.",
    "This answer has no structure - really nothing",
])
def test_prose_alone_is_unparseable_never_a_mention(answer):
    parsed = parse_answer(answer)
    assert (parsed.shape, parsed.mentions, parsed.error) == ("unparseable", (), NOTHING_FOUND)


@pytest.mark.parametrize("prose", [
    "Here is the answer:", "However, the corrected answer would be:", "Note: ecosystem is a broad term.",
    "Explanation: metabolic describes a quality of the process.", "I hope this helps!",
    "The entities are listed below (one per line).", "Reasoning - the text is about soils and their use",
    "Let me know if you need anything else.", "Entity: the thing named | Type: its category",
])
def test_prose_lines_around_entities_are_skipped_and_counted(prose):
    parsed = parse_answer(f"{prose}\nmetabolic (QUALITY)\n{prose}")
    assert parsed.mentions == (M("metabolic", "QUALITY"),)
    assert parsed.skipped == (prose, prose)


def test_gner_is_not_detected_on_string_type_lines():
    # issue 37: read as GNER with 0 mentions before
    parsed = parse_answer("Paris (LOC)\nnice (O)", document="Paris is nice")
    assert parsed.shape == "parentheses"
    assert parsed.mentions == (M("Paris", "LOC"),) and parsed.declined == ("nice (O)",)


def test_gner_only_when_its_words_follow_the_text():
    answer = "Barack(B-person) Obama(I-person) visited(O) Paris(B-location) .(O)"
    assert read(answer, document="Barack Obama visited Paris .") == (
        "gner", [("Barack Obama", "person"), ("Paris", "location")])
    # the same pieces against another text: not GNER's output for it
    parsed = parse_answer(answer, document="Angela Merkel visited Berlin .")
    assert (parsed.shape, parsed.error) == (
        "unparseable", "word(tag) output whose words do not follow the text: 'Barack' (word 1) is not in it after "
                       "character 0")
    # words out of the text's order
    assert parse_answer("Paris(B-location) Barack(B-person)", document="Barack visited Paris").shape == "unparseable"


@pytest.mark.parametrize("answer, shape, mentions", [
    ("PER: Barack Obama, Michelle Obama\nLOC: Paris\nORG: None", "type_lines",
     [("Barack Obama", "PER"), ("Michelle Obama", "PER"), ("Paris", "LOC")]),
    ("person: Barack Obama; Michelle Obama\nlocation: Paris", "type_lines",
     [("Barack Obama", "person"), ("Michelle Obama", "person"), ("Paris", "location")]),
    ("Barack Obama: PER\nParis: LOC", "colon", [("Barack Obama", "PER"), ("Paris", "LOC")]),
    ("Obama: person\nParis: location", "colon", [("Obama", "person"), ("Paris", "location")]),
    ("Star Wars: Episode IV: MISC", "colon", [("Star Wars: Episode IV", "MISC")]),
    ("Barack Obama - PER\nParis – LOC\nRome — LOC", "dash", [("Barack Obama", "PER"), ("Paris", "LOC"),
                                                          ("Rome", "LOC")]),
    ("(Barack Obama, PER)\n(\"Paris\", \"LOC\"), ('Rome', 'LOC')", "tuples",
     [("Barack Obama", "PER"), ("Paris", "LOC"), ("Rome", "LOC")]),
    ("Here is the table:\n\n| # | Entity | Type |\n|---|:------|------:|\n| 1 | Barack Obama | PER |\n"
     "| 2 | **Paris** | LOC |\n| 3 | - | - |", "table", [("Barack Obama", "PER"), ("Paris", "LOC")]),
    ("| entity_type | text |\n| --- | --- |\n| PER | Barack Obama |", "table", [("Barack Obama", "PER")]),
    ('result = [\n    Person(span="Barack Obama"),\n    Location(span=\'Paris\'),\n]', "calls",
     [("Barack Obama", "Person"), ("Paris", "Location")]),
    ('[{"entity": "Barack Obama", "entity_type": "PER"}, {"word": "Paris", "entity_group": "LOC"}, '
     '{"span": "Rome", "category": "LOC"}, {"name": "NATO", "type": "ORG"}]', "list",
     [("Barack Obama", "PER"), ("Paris", "LOC"), ("Rome", "LOC"), ("NATO", "ORG")]),
    ('{"entities": [{"text": "Barack Obama", "label": "PER", "start": 0, "end": 2}]}', "indexed",
     [("Barack Obama", "PER")]),
    (REAL["indexed"], "indexed", [("land-use intensification", "PHENOMENA"), ("ecosystem", "ENVIRONMENT")]),
])
def test_every_line_and_value_shape(answer, shape, mentions):
    assert read(answer) == (shape, mentions)


def test_the_gold_types_tell_type_lines_from_string_type_lines():
    # "Paris: LOC" and "LOC: Paris" read alone are told apart by case; the gold's types tell them when both are words
    assert read("Paris: Rome") == ("colon", [("Paris", "Rome")])
    assert read("city: Paris", labels={"city"}) == ("type_lines", [("Paris", "city")])
    assert read("Paris: city", labels={"city"}) == ("colon", [("Paris", "city")])
    # an answer's colon lines go one way: a line that cannot tell follows those that can
    assert read("LOC: Paris, Lyon\nPER: Obama") == ("type_lines", [("Paris", "LOC"), ("Lyon", "LOC"),
                                                                   ("Obama", "PER")])


def test_token_indices_are_kept():
    parsed = parse_answer(REAL["indexed"])
    assert [m.tokens for m in parsed.mentions] == [(16, 17), (20, 20)]
    # objects give token start and end, end exclusive as every offset here
    assert parse_answer('[{"text": "ecosystem", "label": "ENVIRONMENT", "start": 20, "end": 21}]').mentions == (
        M("ecosystem", "ENVIRONMENT", None, (20, 20)),)


def test_gpt_ner_marks_take_the_questions_type():
    parsed = parse_answer("@@Barack Obama## visited Paris with @@Michelle Obama## .", "PER")
    assert parsed.shape == "marked" and parsed.plain == "Barack Obama visited Paris with Michelle Obama ."
    assert parsed.mentions == (M("Barack Obama", "PER", 0), M("Michelle Obama", "PER", 32))
    assert parse_answer("@@Barack Obama## visited Paris").error == (
        "GPT-NER's @@string## marks name no type: the line needs the 'label' its question asked about")
    assert parse_answer("@@Barack Obama visited Paris", "PER").error == (
        "GPT-NER's marks do not balance: an @@ at character 1 of the text is never closed by ##")


def test_an_answer_that_is_the_text_names_nothing():
    text = "Barack Obama visited Paris (France)."
    assert parse_answer(text, document=text).shape == "tags"
    assert parse_answer(text).shape == "parentheses"  # without the text: "France" is read as a type


@pytest.mark.parametrize("text, none", [
    ("No entities", True), ("none", True), ("There is no named entity in this sentence.", True), ("Nothing.", True),
    ("No entities, but Paris is a city", False), ("Nonetheless (LOC)", False), ("None of them is a PER", False),
])
def test_what_says_none(text, none):
    assert says_none(text) is none
