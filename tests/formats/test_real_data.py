"""Real system outputs (../shared/data): CoNLL-2003 NER and a misaligned CoNLL-2000 chunking file."""
from __future__ import annotations

import json
import re
import subprocess
import sys
import warnings
from pathlib import Path

import pytest
from seqeval.metrics import accuracy_score, classification_report

from nested_span_f1 import score_exact

# published figures (conlleval / seqeval default mode), percent
CONLL2003 = {
    "elmo": {"precision": 92.14, "recall": 92.30, "f1": 92.22},
    "flair": {"precision": 92.75, "recall": 93.31, "f1": 93.03},
}
# 0-based index of the first sentence where test.pred.tsv lost its "#" tokens
CONLL2000_FIRST_BAD_SENTENCE = 1881
CONLL2000_FIRST_BAD_TOKEN = 6


def read_columns(path: Path) -> tuple[list[list[str]], list[list[str]]]:
    """Tiny independent reader: token<TAB>tag lines, blank lines between sentences."""
    tokens: list[list[str]] = [[]]
    tags: list[list[str]] = [[]]
    for line in path.read_text(encoding="utf-8").splitlines():
        if not line.strip():
            if tokens[-1]:
                tokens.append([])
                tags.append([])
            continue
        token, tag = line.split("\t")
        tokens[-1].append(token)
        tags[-1].append(tag)
    if not tokens[-1]:
        tokens.pop()
        tags.pop()
    return tokens, tags


def _cli(*args: str) -> subprocess.CompletedProcess:
    return subprocess.run(
        [sys.executable, "-m", "nested_span_f1.cli", *args], capture_output=True, text=True, timeout=120, check=False
    )


@pytest.fixture(scope="module")
def conll2003(shared_data):
    folder = shared_data / "conll2003"
    gold_tokens, gold = read_columns(folder / "test.gold.conll")
    systems = {}
    for name in CONLL2003:
        tokens, tags = read_columns(folder / f"test.{name}.conll")
        assert tokens == gold_tokens
        systems[name] = tags
    return gold, systems


def test_conll2003_sizes(conll2003):
    gold, _ = conll2003
    assert len(gold) == 3453
    assert sum(map(len, gold)) == 46435
    assert score_exact(gold, gold)["tp"] == 5648


@pytest.mark.parametrize("system", list(CONLL2003))
def test_conll2003_published_figures(conll2003, system):
    gold, systems = conll2003
    result = score_exact(systems[system], gold)
    got = {
        "precision": round(100 * result["overall_precision"], 2),
        "recall": round(100 * result["overall_recall"], 2),
        "f1": round(100 * result["overall_f1"], 2),
    }
    assert got == CONLL2003[system]
    assert result["tp"] + result["fn"] == 5648


@pytest.mark.parametrize("system", list(CONLL2003))
def test_conll2003_equals_seqeval(conll2003, system):
    gold, systems = conll2003
    pred = systems[system]
    result = score_exact(pred, gold)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        report = classification_report(gold, pred, output_dict=True)
    averages = {"micro avg", "macro avg", "weighted avg"}
    assert {k for k, v in result.items() if isinstance(v, dict)} == set(report) - averages == {"LOC", "MISC", "ORG", "PER"}
    for name in set(report) - averages:
        assert result[name]["precision"] == pytest.approx(report[name]["precision"], abs=1e-12)
        assert result[name]["recall"] == pytest.approx(report[name]["recall"], abs=1e-12)
        assert result[name]["f1"] == pytest.approx(report[name]["f1-score"], abs=1e-12)
        assert result[name]["number"] == report[name]["support"]
    for ours, theirs in (("overall", "micro avg"), ("macro", "macro avg"), ("weighted", "weighted avg")):
        assert result[f"{ours}_precision"] == pytest.approx(report[theirs]["precision"], abs=1e-12)
        assert result[f"{ours}_recall"] == pytest.approx(report[theirs]["recall"], abs=1e-12)
        assert result[f"{ours}_f1"] == pytest.approx(report[theirs]["f1-score"], abs=1e-12)
    assert result["overall_accuracy"] == pytest.approx(accuracy_score(gold, pred), abs=1e-12)


def test_conll2003_strict_iob2_equals_seqeval(conll2003):
    gold, systems = conll2003
    pred = systems["elmo"]
    result = score_exact(pred, gold, mode="strict", scheme="IOB2")
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        from seqeval.scheme import IOB2

        report = classification_report(gold, pred, output_dict=True, mode="strict", scheme=IOB2)
    assert result["overall_f1"] == pytest.approx(report["micro avg"]["f1-score"], abs=1e-12)
    for name in ("LOC", "MISC", "ORG", "PER"):
        assert result[name]["f1"] == pytest.approx(report[name]["f1-score"], abs=1e-12)


def test_conll2000_misalignment_named_by_score_exact(shared_data):
    folder = shared_data / "conll2000"
    gold_tokens, gold = read_columns(folder / "test.gold.tsv")
    pred_tokens, pred = read_columns(folder / "test.pred.tsv")
    assert len(gold) == len(pred) == 2012
    assert (sum(map(len, gold)), sum(map(len, pred))) == (47377, 47366)
    bad = [i for i, (g, p) in enumerate(zip(gold, pred)) if len(g) != len(p)]
    assert bad == [1881, 1890, 1921, 1923, 1924]
    first = CONLL2000_FIRST_BAD_SENTENCE
    assert gold_tokens[first][CONLL2000_FIRST_BAD_TOKEN] == "#"
    assert pred_tokens[first][CONLL2000_FIRST_BAD_TOKEN] == "200"
    with pytest.raises(ValueError, match=rf"^sentence {first}: 33 predicted tags but 34 reference tags"):
        score_exact(pred, gold)


def test_conll2000_misalignment_named_by_cli(shared_data):
    folder = shared_data / "conll2000"
    done = _cli("score", "--gold", str(folder / "test.gold.tsv"), "--pred", str(folder / "test.pred.tsv"))
    assert done.returncode != 0
    assert done.stdout == ""
    # the first bad sentence and the first token that differs ('#' vs '200'), counted from 1 for people
    assert f"sentence {CONLL2000_FIRST_BAD_SENTENCE + 1}, token {CONLL2000_FIRST_BAD_TOKEN + 1}:" in done.stderr
    assert "Traceback" not in done.stderr


def test_conll2003_cli_score_json(shared_data):
    folder = shared_data / "conll2003"
    done = _cli(
        "score", "--gold", str(folder / "test.gold.conll"), "--pred", str(folder / "test.flair.conll"), "--json"
    )
    assert done.returncode == 0, done.stderr
    result = json.loads(done.stdout)
    assert round(100 * result["overall_f1"], 2) == 93.03
    assert round(100 * result["overall_precision"], 2) == 92.75
    assert round(100 * result["overall_recall"], 2) == 93.31


def test_conll2003_cli_score_text(shared_data):
    folder = shared_data / "conll2003"
    done = _cli("score", "--gold", str(folder / "test.gold.conll"), "--pred", str(folder / "test.elmo.conll"))
    assert done.returncode == 0, done.stderr
    assert re.search(r"overall\s+0\.9214\s+0\.9230\s+0\.9222\s+5648\n", done.stdout)
    assert "tp=5213  fp=445  fn=435" in done.stdout


def test_conll2003_cli_score_strict_json_equals_core(shared_data, conll2003):
    folder = shared_data / "conll2003"
    gold, systems = conll2003
    done = _cli(
        "score", "--gold", str(folder / "test.gold.conll"), "--pred", str(folder / "test.elmo.conll"),
        "--scheme", "IOB2", "--mode", "strict", "--json",
    )
    assert done.returncode == 0, done.stderr
    result = json.loads(done.stdout)
    expected = score_exact(systems["elmo"], gold, scheme="IOB2", mode="strict")
    for key in ("overall_precision", "overall_recall", "overall_f1", "overall_accuracy", "tp", "fp", "fn"):
        assert result[key] == expected[key], key
    assert result["PER"] == expected["PER"]
