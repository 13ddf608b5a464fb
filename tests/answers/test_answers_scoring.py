"""Real answers scored (issue 37): token indices placed on the gold's tokens, a gold of strings, types the gold
never uses and a label map, what reading left out counted in the report and the JSON, the commands' messages."""
from __future__ import annotations

import json

import pytest

from nested_span_f1 import Corpus, sample_path, tags_to_spans
from nested_span_f1.answers import score_answers
from nested_span_f1.answers.gold import looks_string_gold, read_string_gold
from nested_span_f1.answers.parse import NOTHING_FOUND
from nested_span_f1.answers.score import count_answers
from nested_span_f1.cli.main import main
from nested_span_f1.formats.columns import read_columns
from nested_span_f1.render.answers import answers_table

# a sentence of the kind the real answers were given (an ecology abstract), as tokens: tokens 16-17 are
# "land-use intensification" and 20 "ecosystem", the indices the real answer gives
TOKENS = ("Across 120 sites , grassland plots under grazing showed that the loss of species richness followed "
          "land-use intensification , not ecosystem age .").split()
GOLD = Corpus([TOKENS], [[(16, 18, "PHENOMENA"), (20, 21, "ENVIRONMENT"), (5, 6, "ENVIRONMENT")]], ["s1"],
              source="gold")
REAL_INDEXED = "[['land-use intensification', 'PHENOMENA', 16, 17], ['ecosystem', 'ENVIRONMENT', 20, 20]]"


def test_the_sentence_holds_the_real_answers_indices():
    assert TOKENS[16:18] == ["land-use", "intensification"] and TOKENS[20] == "ecosystem" and TOKENS[5] == "plots"


def test_token_indices_are_placed_on_the_gold_tokens():
    result = score_answers([{"id": "s1", "output": REAL_INDEXED}], GOLD, metric="exact", zero_division=0)
    report = result["answers"]
    assert report["shapes"] == {"indexed": 1}
    assert (report["index"], report["exact"]) == (2, 0)
    assert report["indices"] == {"disagree": 0, "out_of_range": 0, "without_tokens": 0}
    located = result["located"]
    assert (located["tp"], located["fp"], located["fn"]) == (2, 0, 1)


def test_index_and_string_disagree_one_rule_decides():
    # "ecosystem" said to be at token 19 ("not"); "plots" past the sentence's last token
    answer = json.dumps([["land-use intensification", "PHENOMENA", 16, 17], ["ecosystem", "ENVIRONMENT", 19, 19],
                         ["plots", "ENVIRONMENT", 40, 41]])
    results = {trust: score_answers([{"id": "s1", "output": answer}], GOLD, metric="exact", zero_division=0,
                                      trust=trust, examples=5) for trust in ("index", "string")}
    by_index, by_string = results["index"]["answers"], results["string"]["answers"]
    assert by_index["indices"] == by_string["indices"] == {"disagree": 1, "out_of_range": 1, "without_tokens": 0}
    # index: "ecosystem" goes on "not" (a false positive, the gold ecosystem missed); "plots" by its string
    assert (by_index["index"], by_index["exact"]) == (2, 1)
    located = results["index"]["located"]
    assert (located["tp"], located["fp"], located["fn"]) == (2, 1, 1)
    # string: "ecosystem" goes where the string is
    assert (by_string["index"], by_string["exact"]) == (1, 2)
    located = results["string"]["located"]
    assert (located["tp"], located["fp"], located["fn"]) == (3, 0, 0)
    examples = {e["category"]: e for e in by_index["examples"]}
    assert examples["disagree"] == {"category": "disagree", "id": "s1", "line": "record 0", "label": "ENVIRONMENT",
                                    "text": "ecosystem", "tokens": [19, 19], "at": "not"}
    assert examples["out_of_range"] == {"category": "out_of_range", "id": "s1", "line": "record 0",
                                        "label": "ENVIRONMENT", "text": "plots", "tokens": [40, 41]}
    table = answers_table(results["index"])
    assert ("token indices: placed by index 2, index and string disagree 1 (trusted: index), out of range 1, "
            "without gold tokens 0") in table
    assert "  disagree: s1 (record 0) (ENVIRONMENT): 'ecosystem' at tokens 19-19 ('not')" in table


def test_token_indices_on_a_gold_of_texts_are_placed_by_their_strings():
    text = " ".join(TOKENS)
    start = text.index("land-use")
    texts = Corpus([text], [[(start, start + 24, "PHENOMENA")]], ["s1"], source="gold", unit="characters")
    report = score_answers([{"id": "s1", "output": REAL_INDEXED}], texts, zero_division=0)["answers"]
    assert report["indices"] == {"disagree": 0, "out_of_range": 0, "without_tokens": 2}
    assert (report["index"], report["exact"]) == (0, 2)


STRING_GOLD = [
    {"id": "d1", "text": "Barack Obama visited Paris and Lyon.", "entities": [
        {"text": "Barack Obama", "label": "PER"}, {"text": "Paris", "label": "LOC"}, {"text": "Lyon", "label": "LOC"}]},
    {"id": "d2", "text": "NATO met in Brussels.", "entities": [
        {"text": "NATO", "label": "ORG"}, {"text": "Bruxelles", "label": "LOC"}]},
]


def lines(records):
    return "".join(json.dumps(r) + "\n" for r in records)


def test_a_gold_of_strings_is_scored_under_both_protocols(tmp_path):
    gold = tmp_path / "gold.jsonl"
    gold.write_text(lines(STRING_GOLD), encoding="utf-8")
    assert looks_string_gold(gold.read_text(encoding="utf-8"))
    answers = [{"id": "d1", "output": "Barack Obama (PER)\nParis (LOC)\nLyon (LOC)"},
               {"id": "d2", "output": "NATO (ORG)\nBrussels (LOC)"}]
    result = score_answers(answers, gold, metric="exact", zero_division=0)
    strings, located, report = result["strings"], result["located"], result["answers"]
    # strings: "Brussels" is not the gold's "Bruxelles"
    assert (strings["tp"], strings["fp"], strings["fn"]) == (4, 1, 1)
    # located: the gold string "Bruxelles" is nowhere in its text: counted and shown, and missed by every prediction
    assert report["gold_strings"] == {"strings": 5, "exact": 4, "normalized": 0, "not_in_text": 1, "excess": 0}
    assert (located["tp"], located["fp"], located["fn"]) == (4, 1, 1)
    assert {"category": "gold_not_placed", "id": "d2", "line": "record 1", "label": "LOC", "text": "Bruxelles"} in \
        report["examples"]
    assert "gold strings: 5: exact 4, normalized 0, not in the text 1, excess 0" in answers_table(result)
    # the records themselves, and the gold read, give the same
    assert score_answers(answers, STRING_GOLD, metric="exact", zero_division=0)["located"] == located
    again = score_answers(answers, read_string_gold(gold.read_text(encoding="utf-8"), str(gold)), metric="exact",
                            zero_division=0)
    assert again["strings"] == strings


def test_a_gold_of_strings_on_the_command_line(tmp_path, capsys):
    gold, pred = tmp_path / "gold.jsonl", tmp_path / "pred.jsonl"
    gold.write_text(lines(STRING_GOLD), encoding="utf-8")
    pred.write_text(lines([{"id": "d1", "output": "Barack Obama (PER)\nParis (LOC)"}, {"id": "d2", "output": "None"}]),
                    encoding="utf-8")
    for extra in ([], ["--gold-format", "answers"]):
        assert main(["answers", "--gold", str(gold), "--pred", str(pred), "--json", *extra]) == 0
        result = json.loads(capsys.readouterr().out)
        assert result["strings"]["tp"] == 2 and result["answers"]["shapes"] == {"empty": 1, "parentheses": 1}
        assert result["answers"]["gold_strings"]["not_in_text"] == 1


@pytest.mark.parametrize("records, message", [
    ([{"id": "d1", "entities": []}], "gold, line 1: a gold of strings needs each document's 'text' (a string), got None"),
    ([{"id": "d1", "text": "a", "entities": [{"text": "a", "label": ""}]}],
     "gold, line 1, entity 1: label of {'text': 'a', 'label': ''} is empty"),
    ([{"id": "d1", "text": "a", "entities": []}, {"text": "b", "entities": []}],
     "gold, line 2: no 'id', where the first line has one"),
])
def test_a_gold_of_strings_must_be_whole(records, message):
    with pytest.raises((TypeError, ValueError)) as caught:
        read_string_gold(lines(records), "gold")
    assert str(caught.value).startswith(message)


def test_types_the_gold_never_uses_are_listed_and_a_label_map_renames_them():
    gold = Corpus(["Obama met Merkel in Paris ."], [[(0, 5, "PER"), (10, 16, "PER"), (20, 25, "LOC")]],
                  unit="characters")
    answers = [{"output": "Obama (person)\nMerkel (Person)\nParis (location)"}]
    result = score_answers(answers, gold, metric="exact", zero_division=0)
    assert result["answers"]["labels_not_in_gold"] == {"Person": 1, "location": 1, "person": 1}
    assert result["located"]["tp"] == 0
    assert "labels not in the gold: Person 1, location 1, person 1" in answers_table(result)
    mapped = score_answers(answers, gold, metric="exact", zero_division=0,
                             label_map={"person": "PER", "Person": "PER", "location": "LOC"})
    assert mapped["answers"]["labels_not_in_gold"] == {}
    assert mapped["answers"]["mapped"] == {"Person -> PER": 1, "location -> LOC": 1, "person -> PER": 1}
    assert mapped["answers"]["settings"]["label_map"] == {"person": "PER", "Person": "PER", "location": "LOC"}
    assert mapped["located"]["overall_f1"] == mapped["strings"]["overall_f1"] == 1.0
    assert "labels mapped: Person -> PER 1, location -> LOC 1, person -> PER 1" in answers_table(mapped)


def test_what_reading_left_out_is_counted_and_shown(capsys, tmp_path):
    gold = tmp_path / "gold.jsonl"
    gold.write_text(lines([{"id": f"d{k}", "text": "metabolic rates and the food-web of the ecosystem .",
                            "entities": [{"start": 0, "end": 9, "label": "QUALITY"},
                                         {"start": 24, "end": 32, "label": "QUALITY"},
                                         {"start": 40, "end": 49, "label": "ENVIRONMENT"}]} for k in (1, 2, 3)]),
                    encoding="utf-8")
    pred = tmp_path / "pred.jsonl"
    pred.write_text(lines([
        {"id": "d1", "output": "Here is the answer:\n\nmetabolic (QUALITY)\nfood-web (QUALITY)\necosystem (ENVIRONMENT)"},
        {"id": "d2", "output": "Answer:\nmetabolic (QUALITY)\nfood-web (ENVIRONMENT)\nHowever, the corrected answer "
                               "would be:\nmetabolic (QUALITY)\nfood-web (QUALITY)\nrates (no entity, a measure)"},
        {"id": "d3", "output": '[["metabolic", "QUALITY"], ["food-web", ""], ["ecosystem", 3]]'},
    ]), encoding="utf-8")
    assert main(["answers", "--gold", str(gold), "--pred", str(pred), "--metric", "exact", "--show", "2"]) == 0
    out, err = capsys.readouterr()
    assert err == ""
    assert "answers: 3 for 3 documents paired by id (list 1, parentheses 2)" in out
    assert "reading: lines skipped 3, declined 1; answers corrected 1; items unreadable 2" in out
    shown = [line for line in out.splitlines() if line.startswith("  ") and line[2] != " "]
    assert shown == [
        "  skipped lines: d1 (line 1): 'Here is the answer:'",
        "  skipped lines: d2 (line 2): 'Answer:'",
        "  declined lines: d2 (line 2): 'rates (no entity, a measure)'",
        "  corrected answers: d2 (line 2): 'metabolic (QUALITY) | food-web (ENVIRONMENT)'",
        "  unreadable items: d3 (line 3): \"item 2: label of ['food-web', ''] is empty\"",
        "  unreadable items: d3 (line 3): \"item 3: label 3 of ['ecosystem', 3] is not a string\"",
    ]
    assert main(["answers", "--gold", str(gold), "--pred", str(pred), "--json"]) == 0
    report = json.loads(capsys.readouterr().out)["answers"]
    assert (report["skipped_lines"], report["declined_lines"], report["corrected_answers"],
            report["unreadable_items"]) == (3, 1, 1, 2)
    assert report["unparseable"] == 0 and report["unparseable_share"] == 0.0


def test_no_answer_read_exits_2_saying_what_was_tried(tmp_path, capsys):
    gold = tmp_path / "gold.jsonl"
    gold.write_text(lines([{"id": "d1", "text": "Paris", "entities": [{"start": 0, "end": 5, "label": "LOC"}]},
                           {"id": "d2", "text": "Rome", "entities": []}]), encoding="utf-8")
    pred = tmp_path / "pred.jsonl"
    pred.write_text(lines([{"id": "d1", "output": "I cannot help with that."}, {"id": "d2", "output": "Sorry."}]),
                    encoding="utf-8")
    assert main(["answers", "--gold", str(gold), "--pred", str(pred)]) == 2
    err = capsys.readouterr().err
    assert err == (f"nested-span-f1 answers: error: {pred}: no answer can be read (2 tried); the first (id 'd1', line "
                   "1), 'I cannot help with that.': none of a JSON or Python list or object, inline tags, GPT-NER's @@marks##, code calls "
                   "Type(span=...), word(tag) output, lines of string (TYPE), TYPE: a, b, string: TYPE, string - "
                   "TYPE, (string, TYPE) or a Markdown table found\n")
    # the Python API counts them (an early checkpoint's answers are scored, not refused)
    run = count_answers(str(pred), str(gold))
    assert run.counts.answers == {"unparseable": 2}
    assert run.first_error == {"id": "d1", "line": "line 1", "answer": "I cannot help with that.",
                               "error": NOTHING_FOUND}


def test_answers_named_by_line_without_ids(tmp_path, capsys):
    gold = Corpus(["Paris", "Rome", "Lyon"], [[(0, 5, "LOC")], [], []], unit="characters")
    run = count_answers([{"output": "Paris (LOC)"}, {"output": "no idea"}, {"output": "nope"}], gold)
    assert run.counts.unparseable_ids == ("record 1", "record 2")
    assert [e["id"] for e in run.examples if e["category"] == "unparseable"] == ["record 1", "record 2"]
    assert all("line" not in e for e in run.examples)


def test_the_answers_sample_through_the_api_and_the_command(capsys):
    # docs/answers.md's command: every shape of the table on the 15 sample sentences
    gold, answers = sample_path("sample.gold.conll"), sample_path("sample.answers.jsonl")
    label_map = {"person": "PER", "Person": "PER", "Misc": "MISC"}
    columns = read_columns(gold)
    corpus = Corpus(columns.tokens, tags_to_spans(columns.column()), source=gold)
    result = score_answers(answers, corpus, metric="exact", zero_division=0, label_map=label_map)
    report = result["answers"]
    assert report["shapes"] == {"calls": 1, "colon": 1, "dash": 1, "empty": 1, "gner": 1, "indexed": 1, "list": 1,
                                "parentheses": 5, "table": 1, "tuples": 1, "type_lines": 1}
    assert (report["skipped_lines"], report["declined_lines"], report["corrected_answers"],
            report["unreadable_items"], report["unparseable"]) == (3, 2, 1, 0, 0)
    assert (report["mentions"], report["index"], report["exact"], report["normalized"]) == (28, 2, 25, 1)
    assert report["mapped"] == {"Misc -> MISC": 1, "Person -> PER": 1, "person -> PER": 1}
    assert report["labels_not_in_gold"] == {}
    # strings: every gold name; located: "The Lakeside Marathon" takes the article in (one false positive and
    # one miss)
    assert (result["strings"]["tp"], result["strings"]["fp"], result["strings"]["fn"]) == (28, 0, 0)
    assert (result["located"]["tp"], result["located"]["fp"], result["located"]["fn"]) == (27, 1, 1)
    assert main(["answers", "--gold", gold, "--pred", answers, "--metric", "exact", "--json",
                 "--label-map", "person=PER,Person=PER,Misc=MISC"]) == 0
    assert json.loads(capsys.readouterr().out) == json.loads(json.dumps(result))
    unmapped = score_answers(answers, corpus, metric="exact", zero_division=0)["answers"]
    assert unmapped["labels_not_in_gold"] == {"Misc": 1, "Person": 1, "person": 1}


SAMPLE_COUNTS = [
    "answers: 15 for 15 documents paired by order (calls 1, colon 1, dash 1, empty 1, gner 1, indexed 1, list 1, parentheses 5, "
    "table 1, tuples 1, type_lines 1)",
    "reading: lines skipped 3, declined 2; answers corrected 1; items unreadable 0",
    "mentions: 28: markup 0, index 2, exact 25, normalized 1, not in the text 0, excess 0; 28 spans placed",
    "token indices: placed by index 2, index and string disagree 0 (trusted: index), out of range 0, without gold "
    "tokens 0",
    "labels mapped: Misc -> MISC 1, Person -> PER 1, person -> PER 1",
    "strings: normalised by lowercase+punctuation+articles+whitespace, as sets; located: policy kth, loose "
    "fallback on, inner occurrences last on",
    "  skipped lines: line 1: 'Here is the answer:'",
    "  declined lines: line 2: '- Bridge (no entity, as it is part of a place name)'",
    "  skipped lines: line 6: 'Answer:'",
    "  skipped lines: line 6: 'However, Dublin is a place too, so the corrected answer would be:'",
    "  corrected answers: line 6: 'Anna Berg (PER) | Civic Data Trust (ORG)'",
    "  declined lines: line 14: 'fares (O)'",
]
"""The counts under the sample's report, as docs/answers.md's command prints them (the gold has no ids: documents are
named by their answers' lines)."""


@pytest.mark.parametrize("command, metric", [("answers", "exact"), ("nested", "nested"), ("lenient", "lenient"),
                                             ("score", "exact")])
def test_the_answers_sample_through_every_command(capsys, command, metric):
    # docs/answers.md's command and its counts, exactly; the JSON of every command that detects answers is the API's
    gold, answers = sample_path("sample.gold.conll"), sample_path("sample.answers.jsonl")
    columns = read_columns(gold)
    corpus = Corpus(columns.tokens, tags_to_spans(columns.column()), source=gold)
    label_map = {"person": "PER", "Person": "PER", "Misc": "MISC"}
    result = score_answers(answers, corpus, metric=metric, zero_division=0, label_map=label_map)
    argv = [command, "--gold", gold, "--pred", answers, "--label-map", "person=PER,Person=PER,Misc=MISC"]
    assert main([*argv, *(["--metric", metric] if command == "answers" else []), "--json"]) == 0
    out, err = capsys.readouterr()
    assert err == "" and json.loads(out) == json.loads(json.dumps(result))
    assert main([*argv, *(["--metric", metric] if command == "answers" else [])]) == 0
    out, err = capsys.readouterr()
    assert err == ""
    lines = out.splitlines()
    assert lines[:2] == [f"gold:        {gold}",
                         f"predictions: {answers} (answers; located spans scored by {metric})"]
    start = lines.index(SAMPLE_COUNTS[0])
    assert lines[start:start + len(SAMPLE_COUNTS)] == SAMPLE_COUNTS
    if command == "answers":
        # located: "The Lakeside Marathon" takes the article in (one false positive, one miss)
        assert "overall     28     1.0000     1.0000     1.0000     0.9643     0.9643     0.9643       0       0" \
               "            0" in lines


def test_the_commands_pass_trust_and_a_label_map_file(tmp_path, capsys):
    pred = tmp_path / "pred.jsonl"
    answer = json.dumps([["land-use intensification", "phenomena", 16, 17], ["ecosystem", "ENVIRONMENT", 19, 19]])
    pred.write_text(json.dumps({"id": "s1", "output": answer}) + "\n", encoding="utf-8")
    gold = tmp_path / "gold.jsonl"
    gold.write_text(json.dumps({"sent_id": "s1", "tokens": TOKENS, "entity_mentions": [
        {"start": a, "end": b, "entity_type": label} for a, b, label in GOLD.entities[0]]}) + "\n", encoding="utf-8")
    mapping = tmp_path / "labels.json"
    mapping.write_text('{"phenomena": "PHENOMENA"}', encoding="utf-8")
    for command in ("answers", "nested", "lenient"):
        assert main([command, "--gold", str(gold), "--pred", str(pred), "--pred-format", "answers", "--json",
                     "--trust", "string", "--label-map", str(mapping)]) == 0
        report = json.loads(capsys.readouterr().out)["answers"]
        assert report["settings"]["trust"] == "string" and report["settings"]["label_map"] == {
            "phenomena": "PHENOMENA"}
        assert report["mapped"] == {"phenomena -> PHENOMENA": 1}
        assert report["indices"]["disagree"] == 1 and (report["index"], report["exact"]) == (1, 1)
