"""``nested-span-f1 thresholds`` after a QA pass: non-finite numbers refused naming their option, a text mismatch
naming both files."""
from __future__ import annotations

import json

import pytest

from nested_span_f1.cli.main import main

GOLD = {"id": "s1", "text": "Anne went home", "entities": [{"start": 0, "end": 4, "label": "PER"}]}
PRED = {"id": "s1", "text": "Anne went home", "entities": [{"start": 0, "end": 4, "label": "PER", "score": 0.9}]}
OTHER = {**PRED, "text": "Anne wAnt home"}


def write(path, record):
    path.write_text(json.dumps(record) + "\n", encoding="utf-8")
    return str(path)


@pytest.fixture
def files(tmp_path):
    return write(tmp_path / "g.jsonl", GOLD), write(tmp_path / "p.jsonl", PRED), write(tmp_path / "o.jsonl", OTHER)


@pytest.mark.parametrize("option, value", [("--threshold", "nan"), ("--threshold", "inf"), ("--threshold", "-inf"),
                                           ("--threshold", "NaN"), ("--min-iou", "nan"), ("--min-iou", "inf")])
@pytest.mark.parametrize("json_output", [[], ["--json"]])
def test_a_number_that_is_not_finite_is_refused_naming_its_option(files, capsys, option, value, json_output):
    gold, pred, _ = files
    with pytest.raises(SystemExit) as raised:
        main(["thresholds", "--gold", gold, "--pred", pred, "--metric", "lenient", f"{option}={value}", *json_output])
    assert raised.value.code == 2
    out, err = capsys.readouterr()
    assert out == ""
    assert err == (f"nested-span-f1 thresholds: error: argument {option}: {value!r} is not a finite number "
                   "(see nested-span-f1 thresholds --help)\n")


def test_a_word_is_not_a_number(files, capsys):
    gold, pred, _ = files
    with pytest.raises(SystemExit):
        main(["thresholds", "--gold", gold, "--pred", pred, "--threshold", "half"])
    assert "argument --threshold: 'half' is not a number" in capsys.readouterr().err


def test_a_finite_threshold_is_reported(files, capsys):
    gold, pred, _ = files
    assert main(["thresholds", "--gold", gold, "--pred", pred, "--threshold", "1e3", "--json"]) == 0
    assert json.loads(capsys.readouterr().out)["at_system_threshold"]["threshold"] == 1000.0


def test_texts_that_differ_name_both_files(files, capsys):
    gold, _, other = files
    assert main(["thresholds", "--gold", gold, "--pred", other]) == 2
    err = capsys.readouterr().err
    assert err == (f"nested-span-f1 thresholds: error: --gold {gold} and --pred {other}: document 1 (id 's1'): texts "
                   "differ at offset 6 (14 gold characters, 14 predicted; gold 'ent home', predicted 'Ant home'); a "
                   "prediction is scored only against the text it was made on\n")


def test_dev_texts_that_differ_name_the_dev_files(files, capsys, tmp_path):
    gold, pred, other = files
    dev_gold = write(tmp_path / "dev.jsonl", {**GOLD, "entities": []})  # not the test gold, which is refused
    assert main(["thresholds", "--gold", gold, "--pred", pred, "--dev-gold", dev_gold, "--dev-pred", other]) == 2
    err = capsys.readouterr().err
    assert err.startswith(f"nested-span-f1 thresholds: error: --dev-gold {dev_gold} and --dev-pred {other}: document "
                          "1 (id 's1'): texts differ at offset 6")
    assert err.count("\n") == 1
