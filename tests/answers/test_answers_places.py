"""Where answers are (a line per question) and where their strings land (small character differences), after a
QA pass: the exact lines, offsets and messages."""
from __future__ import annotations

import json
import unicodedata

import pytest

from nested_span_f1 import Corpus
from nested_span_f1.answers import score_answers
from nested_span_f1.answers.locate import fold, locate, loose_occurrences
from nested_span_f1.answers.normalize import Normalization
from nested_span_f1.answers.read import read_answers
from nested_span_f1.answers.score import count_answers
from nested_span_f1.cli.main import main

GOLD = {"id": "d1", "text": "Barack Obama met Angela Merkel in Berlin on Monday.",
        "entities": [{"start": 0, "end": 12, "label": "PER"}, {"start": 17, "end": 30, "label": "PER"},
                     {"start": 34, "end": 40, "label": "LOC"}]}
CUT_SHORT = '{"LOC": ["Berlin"'
ANSWERS = [{"id": "d1", "label": "PER", "output": '["Barack Obama", "Angela Merkel"]'},
           {"id": "d1", "label": "ORG", "output": "[]"},
           {"id": "d1", "label": "LOC", "output": CUT_SHORT}]


def lines(records):
    return "".join(json.dumps(r) + "\n" for r in records)


@pytest.fixture
def files(tmp_path):
    gold, pred = tmp_path / "gold.jsonl", tmp_path / "pred.jsonl"
    gold.write_text(lines([GOLD]), encoding="utf-8")
    pred.write_text(lines(ANSWERS), encoding="utf-8")
    return str(gold), str(pred)


# ------------------------------------------------------------------ 1. a line per question

def test_each_question_keeps_its_own_line():
    read = read_answers(lines(ANSWERS), "pred.jsonl")
    assert read.places == ["pred.jsonl, line 1"]
    assert [read.line(0, q) for q in range(3)] == ["line 1", "line 2", "line 3"]
    assert read.line(0) == "line 1"


def test_the_first_error_names_the_line_of_its_answer(files):
    gold, pred = files
    run = count_answers(pred, gold)
    assert run.first_error == {"id": "d1", "line": "line 3", "answer": CUT_SHORT,
                               "error": "the '{' at character 1 never closes (was the answer cut short?)"}
    assert run.counts.answers == {"list": 1, "empty": 1, "unparseable": 1}


def test_no_answer_read_names_the_first_answers_line(tmp_path, capsys):
    # the gold's first document is answered on lines 2 and 3 of the file: the first error is line 2's
    gold, pred = tmp_path / "gold.jsonl", tmp_path / "pred.jsonl"
    gold.write_text(lines([GOLD, {"id": "d2", "text": "Rome", "entities": []}]), encoding="utf-8")
    pred.write_text(lines([{"id": "d2", "output": "Sorry."}, {"id": "d1", "label": "PER", "output": "no idea"},
                           {"id": "d1", "label": "LOC", "output": CUT_SHORT}]), encoding="utf-8")
    assert main(["answers", "--gold", str(gold), "--pred", str(pred)]) == 2
    err = capsys.readouterr().err
    assert err.startswith(f"nested-span-f1 answers: error: {pred}: no answer can be read (3 tried); the first "
                          "(id 'd1', line 2), 'no idea': ")
    assert err.count("\n") == 1


# ------------------------------------------------------------------ 2. small character differences

NFC_TEXT = "Zoë Saldaña ate at McDonald’s from 1990–1995 and said “hello”."


@pytest.mark.parametrize("mention, span", [
    (unicodedata.normalize("NFD", "Zoë Saldaña"), (0, 11)),
    ("McDonald's", (19, 29)),
    ("1990-1995", (35, 44)),
    ('"hello"', (54, 61)),
    ("mcdonald's", (19, 29)),
])
def test_a_decomposed_or_straight_string_lands_on_the_texts_own_characters(mention, span):
    placement = locate(NFC_TEXT, [(mention, "X")])
    assert placement.categories == ["normalized"] and placement.places == [span]
    assert fold(NFC_TEXT[span[0]:span[1]]) == fold(mention)
    assert NFC_TEXT[span[0]:span[1]] in NFC_TEXT and NFC_TEXT[span[0]:span[1]] != mention
    assert locate(NFC_TEXT, [(mention, "X")], fallback=False).categories == ["not_in_text"]


def test_a_decomposed_text_maps_back_to_its_own_offsets():
    text = unicodedata.normalize("NFD", "Zoë Saldaña at McDonald's")  # 27 code points for 25 letters
    assert len(text) == 27
    placement = locate(text, [("Zoë Saldaña", "PER"), ("McDonald’s", "ORG"), ("saldaña", "PER")])
    assert placement.categories == ["normalized"] * 3
    assert placement.places == [(0, 13), (17, 27), (5, 13)]
    assert [text[a:b] for a, b in placement.places] == [
        "Zoe\u0308 Saldan\u0303a", "McDonald's", "Saldan\u0303a"]
    # a composed letter is never cut from its accent: "Zoe" is not in "Zoë"
    assert loose_occurrences(text, "Zoe") == []
    assert loose_occurrences("Zoë", "Zoe\u0308") == [(0, 3)]


def test_the_curly_apostrophe_answer_against_a_straight_text():
    text = "He ate at McDonald's."
    assert locate(text, [("McDonald’s", "ORG")]).places == [(10, 20)]


def test_the_string_protocol_stays_universalners():
    # the default normalisation is UniversalNER's, to the character (its published scores are reproduced): it
    # deletes ASCII punctuation only and composes nothing, so these remain two strings there; placement folds them
    default = Normalization()
    assert default("McDonald’s") == "mcdonald’s" and default("McDonald's") == "mcdonalds"
    assert default(unicodedata.normalize("NFD", "Zoë")) != default("Zoë")


def test_the_scores_count_them_normalized():
    gold = Corpus([NFC_TEXT], [[(0, 11, "PER"), (19, 29, "ORG")]], ["d1"], unit="characters")
    answers = [{"id": "d1", "output": json.dumps([[unicodedata.normalize("NFD", "Zoë Saldaña"), "PER"],
                                                  ["McDonald's", "ORG"]])}]
    result = score_answers(answers, gold, metric="exact", zero_division=0)
    assert result["answers"]["normalized"] == 2 and result["answers"]["not_in_text"] == 0
    assert result["located"]["overall_f1"] == 1.0
    assert result["strings"]["overall_f1"] == 0.0  # UniversalNER's protocol: other strings


# ------------------------------------------------------------------ 3. a label map file that does not exist

@pytest.mark.parametrize("value", ["missing.json", "maps/person"])
def test_a_missing_label_map_file_is_named(files, capsys, value):
    gold, pred = files
    with pytest.raises(SystemExit) as raised:
        main(["answers", "--gold", gold, "--pred", pred, "--label-map", value])
    assert raised.value.code == 2
    err = capsys.readouterr().err
    assert err == (f"nested-span-f1 answers: error: argument --label-map: {value}: no such file (give a JSON file "
                   "of the map, or NAME=TYPE entries joined by commas) (see nested-span-f1 answers --help)\n")


def test_a_label_map_entry_without_equals_is_still_named_as_such(files, capsys):
    gold, pred = files
    with pytest.raises(SystemExit):
        main(["answers", "--gold", gold, "--pred", pred, "--label-map", "person"])
    assert "label map: 'person' is not NAME=TYPE (entries are joined by commas)" in capsys.readouterr().err


def test_the_report_and_its_examples_name_the_line_of_each_answer(files, capsys):
    gold, pred = files
    assert main(["answers", "--gold", gold, "--pred", pred, "--show", "5", "--json"]) == 0
    examples = json.loads(capsys.readouterr().out)["answers"]["examples"]
    assert examples == [{"category": "unparseable", "id": "d1", "line": "line 3", "label": "LOC",
                         "error": "the '{' at character 1 never closes (was the answer cut short?)"}]
    assert main(["answers", "--gold", gold, "--pred", pred, "--show", "5"]) == 0
    assert ("  unparseable: d1 (line 3) (LOC): the '{' at character 1 never closes (was the answer cut short?)\n"
            in capsys.readouterr().out)


def test_a_mention_not_in_the_text_names_its_answers_line():
    answers = [ANSWERS[0], {"id": "d1", "label": "ORG", "output": '["Acme"]'},
               {"id": "d1", "label": "LOC", "output": '["Berlin", "Paris"]'}]
    gold = Corpus([GOLD["text"]], [[(0, 12, "PER"), (17, 30, "PER"), (34, 40, "LOC")]], ["d1"], unit="characters")
    run = count_answers(answers, gold)
    assert [(e["category"], e["text"], e.get("line")) for e in run.examples] == [
        ("not_in_text", "Acme", "record 1"), ("not_in_text", "Paris", "record 2")]
