"""Answer systems through every door: the Python API, the command line (detected or named), the nested and
lenient evaluate modules; each gives the API's numbers, on the sample data whose counts are worked out by hand."""
from __future__ import annotations

import json
from pathlib import Path

import pytest

import nested_span_f1
from nested_span_f1 import Corpus, tags_to_spans
from nested_span_f1.align import join_tokens
from nested_span_f1.answers import score_answers
from nested_span_f1.answers.score import UnreadableAnswersWarning
from nested_span_f1.cli.main import main
from nested_span_f1.formats.columns import read_columns
from nested_span_f1.render.answers import answers_table

SAMPLE = Path(nested_span_f1.__file__).parent / "sample_data"
ONE_OF_15 = r"1 of 15 answers \(6.7%\) could not be read: \['line 9'\]; each counts its gold entities as missed"
"""The sample's unparseable answer, which score_answers warns about (more than 5% of the answers)."""


@pytest.fixture(scope="module")
def sample():
    columns = read_columns(SAMPLE / "sample.gold.conll")
    gold = Corpus(columns.tokens, tags_to_spans(columns.column()), source="sample.gold.conll")
    return gold, SAMPLE / "sample.lists.jsonl"


def test_sample_counts_worked_out_by_hand(sample):
    gold, answers = sample
    with pytest.warns(UnreadableAnswersWarning, match=ONE_OF_15):
        result = score_answers(answers, gold, metric="exact", zero_division=0)
    strings, located, report = result["strings"], result["located"], result["answers"]
    # 28 gold names in 15 sentences. Located: 21 found at their place; 7 mentions are false positives: "The
    # Lakeside Marathon" and "the Autumn Lantern Festival" (the article taken in), "Priya Natarajan" as ORG,
    # "storm", "Dublin Castle" and "Samuel Okafor." (not in the text), the second "Valletta" (it occurs once)
    assert (located["tp"], located["fp"], located["fn"]) == (21, 7, 7)
    # strings: the two article variants and "samuel okafor" normalise to gold strings; "valletta" twice is one
    assert (strings["tp"], strings["fp"], strings["fn"]) == (24, 3, 4)
    assert round(strings["overall_f1"], 4) == 0.8727 and located["overall_f1"] == 0.75
    assert report["unparseable"] == 1 and report["unparseable_gold"] == 3
    # without ids, a document is named by its answer's line (the report names the file once)
    assert report["unparseable_ids"] == ["line 9"]
    assert report["shapes"] == {"list": 8, "empty": 1, "object": 1, "tags": 1, "gner": 1, "entities": 2,
                                "unparseable": 1}
    assert report["unparseable_share"] == 1 / 15
    assert (report["not_in_text"], report["excess"], report["normalized"], report["markup"]) == (2, 1, 1, 2)
    table = answers_table(result)
    assert "overall     28     0.8889     0.8571     0.8727     0.7500     0.7500     0.7500       2       1" in table


def cli(capsys, *argv):
    code = main(list(argv))
    out, err = capsys.readouterr()
    return code, out, err


@pytest.mark.parametrize("command", [["answers", "--metric", "nested"], ["nested"],
                                     ["nested", "--pred-format", "answers"]])
def test_cli_detects_or_is_told_and_equals_the_api(capsys, sample, command):
    gold, answers = sample
    code, out, err = cli(capsys, *command, "--gold", str(SAMPLE / "sample.gold.conll"), "--pred", str(answers),
                         "--json")
    assert code == 0, err
    with pytest.warns(UnreadableAnswersWarning, match=ONE_OF_15):
        expected = score_answers(answers, gold, zero_division=0)
    assert json.loads(out) == json.loads(json.dumps(expected))


def test_cli_tables(capsys, sample):
    code, out, err = cli(capsys, "nested", "--gold", str(SAMPLE / "sample.gold.conll"), "--pred", str(sample[1]))
    assert code == 0
    assert "strings (set)" in out and "span length (characters)" in out
    assert "not in the text 2, excess 1" in out
    assert "unparseable answers: 1 of 15 answers (6.7%) could not be read: ['line 9']" in out
    # more than 5% could not be read: the report says so first, and so does stderr
    assert out.startswith("warning: 1 of 15 answers (6.7%) could not be read: ['line 9']\n")
    assert err == "warning: 1 of 15 answers (6.7%) could not be read: ['line 9']\n"
    code, out, _ = cli(capsys, "lenient", "--gold", str(SAMPLE / "sample.gold.conll"), "--pred", str(sample[1]),
                       "--policy", "every", "--multiset", "--normalization", "lowercase+whitespace")
    assert code == 0
    assert "located spans (strict)" in out and "strings (multiset)" in out and "partial" in out
    assert "normalised by lowercase+whitespace, as multisets; located: policy every" in out


def test_cli_options_reach_the_scorer(capsys, sample):
    gold, answers = sample
    code, out, _ = cli(capsys, "lenient", "--gold", str(SAMPLE / "sample.gold.conll"), "--pred", str(answers),
                       "--no-fallback", "--no-inner-last", "--partial-weight", "1", "--json")
    assert code == 0
    result = json.loads(out)
    with pytest.warns(UnreadableAnswersWarning, match=ONE_OF_15):
        expected = score_answers(answers, gold, metric="lenient", fallback=False, inner_last=False,
                                   partial_weight=1, zero_division=0)
    assert result == json.loads(json.dumps(expected))
    assert result["answers"]["normalized"] == 0 and result["answers"]["not_in_text"] == 3


@pytest.mark.parametrize("argv, message", [
    (["--normalization", "case"], "normalization step 'case' is not one of lowercase, punctuation, articles, whitespace "
                                  "(join steps with '+', or give 'all' or 'none')"),
    # a gold of strings is named so; a column file is not one
    (["--gold-format", "answers"], "{gold}, line 1, column 1: not valid JSON (Expecting value)"),
])
def test_cli_refuses_in_one_line(capsys, sample, argv, message):
    gold = SAMPLE / "sample.gold.conll"
    code, _, err = cli(capsys, "answers", "--gold", str(gold), "--pred", str(sample[1]), *argv)
    assert code == 2 and err == f"nested-span-f1 answers: error: {message.format(gold=gold)}\n"


@pytest.mark.parametrize("argv, message", [
    (["--label-map", "person"], "argument --label-map: label map: 'person' is not NAME=TYPE (entries are joined by "
                                "commas)"),
    (["--label-map", "person=PER,person=LOC"], "label map: 'person' is mapped twice"),
    (["--label-map", '{"person": 3}'], "label_map: 'person': 3 is not a type name mapped to a type name"),
    (["--trust", "tokens"], "argument --trust: invalid choice: 'tokens' (choose from 'index', 'string')"),
])
def test_cli_refuses_bad_options_in_its_usage(capsys, sample, argv, message):
    with pytest.raises(SystemExit) as stopped:
        main(["answers", "--gold", str(SAMPLE / "sample.gold.conll"), "--pred", str(sample[1]), *argv])
    assert stopped.value.code == 2 and message in capsys.readouterr().err


evaluate = pytest.importorskip("evaluate")


def documents(gold):
    texts = join_tokens(gold)
    return [{"text": t, "entities": [{"start": s, "end": e, "label": label} for s, e, label in ents]}
            for t, ents in zip(texts.texts, texts.entities)]


def raw_answers(path):
    records = [json.loads(line) for line in path.read_text(encoding="utf-8").splitlines()]
    return [r["output"] if "output" in r else json.dumps([[e["text"], e["label"]] for e in r["entities"]])
            for r in records]


@pytest.mark.parametrize("module, metric", [("nested", "nested"), ("lenient", "lenient")])
def test_evaluate_modules_take_answers_and_entity_lists(sample, module, metric):
    gold, path = sample
    references = documents(gold)
    answers = raw_answers(path)
    loaded = evaluate.load(nested_span_f1.metric_path(module))
    unreadable = r"1 of 15 answers \(6.7%\) could not be read: \['record 8'\]"
    with pytest.warns(UnreadableAnswersWarning, match=unreadable):
        expected = score_answers([{"output": a} for a in answers], gold, metric=metric, zero_division=0)
    with pytest.warns(UnreadableAnswersWarning, match=unreadable):  # the evaluate modules warn as the API does
        result = loaded.compute(predictions=answers, references=references, zero_division=0)
    assert result["strings"] == expected["strings"] and result["located"] == expected["located"]
    assert result["answers"]["shapes"] == expected["answers"]["shapes"]
    # entity lists (as a program extracted them), added in two batches
    lists = [[{"text": t, "label": label} for t, label in json.loads(answer)] for answer in
             [json.dumps([["Maria Keller", "PER"], ["basel", "LOC"]])] + ["[]"] * (len(answers) - 1)]
    loaded.add_batch(predictions=lists[:5], references=references[:5])
    loaded.add_batch(predictions=lists[5:], references=references[5:])
    batched = loaded.compute(zero_division=0, multiset=True, policy="every")
    whole = score_answers([{"entities": e} for e in lists], gold, metric=metric, zero_division=0, multiset=True,
                            policy="every")
    assert batched["strings"] == whole["strings"] and batched["located"] == whole["located"]
    assert batched["strings"]["tp"] == 2 and batched["answers"]["settings"]["policy"] == "every"


def test_evaluate_refuses_what_does_not_fit(sample):
    gold, _ = sample
    references = documents(gold)[:2]
    loaded = evaluate.load(nested_span_f1.metric_path("nested"))
    with pytest.raises(ValueError, match="policy applies to language models' answers, but the input holds spans"):
        loaded.compute(predictions=[[{"start": 0, "end": 1, "label": "X"}]],
                       references=[[{"start": 0, "end": 1, "label": "X"}]], policy="every")
    with pytest.raises(ValueError, match="scheme applies to tags, but the input holds language models' answers"):
        loaded.compute(predictions=["[]", "[]"], references=references, scheme="IOB2")
    with pytest.raises(TypeError, match=r"predictions, sentence 1, entity 0: \{'text': 'x'\} is not a"):
        loaded.compute(predictions=[[], [{"text": "x"}]], references=references)
    with pytest.raises(TypeError, match="predictions, sentence 0, entity 0: label 3 is not a string"):
        loaded.compute(predictions=[[{"text": "x", "label": 3}], []], references=references)
    span_f1 = evaluate.load(nested_span_f1.metric_path("exact"))
    with pytest.raises(TypeError):
        span_f1.compute(predictions=["[]", "[]"], references=references)


@pytest.mark.parametrize("command", ["answers", "nested", "lenient", "score"])
def test_answers_whose_first_line_is_longer_than_any_cut_are_detected(capsys, tmp_path, command):
    """Detection reads the answers' first line whole (issue 38): a line of 70,000 characters (its document's text
    given beside the answer) is a language model's answers at every door that detects them."""
    text = "Barack Obama visited Paris. " * 2500
    gold = tmp_path / "g.jsonl"
    gold.write_text(json.dumps({"id": "a1", "text": text, "entities": [{"start": 0, "end": 12, "label": "PER"},
                                                                        {"start": 21, "end": 26, "label": "LOC"}]})
                    + "\n", encoding="utf-8")
    answers = tmp_path / "a.jsonl"
    answers.write_text(json.dumps({"id": "a1", "text": text, "output": "Barack Obama (PER)\nParis (LOC)"}) + "\n",
                       encoding="utf-8")
    assert len(answers.read_text(encoding="utf-8")) > 1 << 16
    code, out, err = cli(capsys, command, "--gold", str(gold), "--pred", str(answers), "--json")
    assert (code, err) == (0, "")
    result = json.loads(out)
    assert result["answers"]["shapes"] == {"parentheses": 1}
    assert (result["strings"]["tp"], result["strings"]["fp"], result["strings"]["fn"]) == (2, 0, 0)
    # located: each string on its first occurrence (k-th mention, k-th occurrence), where the gold has it
    assert result["located"]["strict_f1" if command == "lenient" else "overall_f1"] == 1.0
