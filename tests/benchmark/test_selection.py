"""Selecting on development data, reporting on test: the system with the highest development F1 is selected and its
test figures reported, the report and the model card say which set selected it; end to end with the checkpoints
scripts/train_nested.py writes (test and development predictions in each checkpoint folder)."""
import json
import os
import subprocess
import sys

import numpy as np
import pytest
from test_benchmark_views import parse_tables

from nested_span_f1 import score_nested
from nested_span_f1.benchmark.compare import benchmark
from nested_span_f1.cli.main import main
from nested_span_f1.formats import Corpus, read_corpus, write_corpus

SHARES = {"a": (0.02, 0.10), "b": (0.10, 0.02), "c": (0.06, 0.06)}
"""Share of entities each system leaves out of (test, development): a is best on test, b on development."""


def leave_out(corpus, share, seed):
    rng = np.random.default_rng(seed)
    entities = [[e for e in ents if rng.random() >= share] for ents in corpus.entities]
    return Corpus(corpus.tokens, entities, corpus.sentence_ids, corpus.doc_ids, source=f"{share}")


@pytest.fixture(scope="module")
def genia(shared_data):
    test = read_corpus(shared_data / "genia/genia-docsplit.test.jsonl")
    dev = read_corpus(shared_data / "genia/genia-docsplit.dev.jsonl")
    systems = {name: leave_out(test, t, k) for k, (name, (t, _)) in enumerate(SHARES.items())}
    dev_systems = {name: leave_out(dev, d, 10 + k) for k, (name, (_, d)) in enumerate(SHARES.items())}
    return test, dev, systems, dev_systems


def test_the_highest_development_f1_is_selected_and_its_test_figures_reported(genia):
    test, dev, systems, dev_systems = genia
    result = benchmark(test, systems, dev_references=dev, dev_predictions=dev_systems, dataset="GENIA",
                       progress=False)
    on_test = {name: score_nested(c.entities, test.entities, zero_division=0)["overall_f1"] for name, c in systems.items()}
    on_dev = {name: score_nested(c.entities, dev.entities, zero_division=0)["overall_f1"]
              for name, c in dev_systems.items()}
    assert max(on_test, key=on_test.get) == "a" and max(on_dev, key=on_dev.get) == "b"
    selection = result.settings["selection"]
    assert (selection["on"], selection["system"], selection["candidates"]) == ("development", "b", ["a", "b", "c"])
    assert result.best["name"] == "b" and result.best["f1"]["value"] == on_test["b"]
    assert result.to_dict()["best"] == "b"
    for system in result.systems:
        assert system["dev"]["f1"]["value"] == on_dev[system["name"]]
        assert system["dev"]["f1"]["low"] <= on_dev[system["name"]] <= system["dev"]["f1"]["high"]
    text = result.to_markdown()
    assert (f"Selected: b, the highest development F1 ({100 * on_dev['b']:.2f} on {dev.source}, among 3 systems with "
            "development predictions); the test set played no part in the choice.") in text
    systems_table = parse_tables(text)[0]
    assert systems_table[0][:3] == ["System", "Dev F1 (95% CI)", "Precision"]
    assert systems_table[2][1].startswith(f"{100 * on_dev['b']:.2f} [")
    card = result.model_index()
    assert "# b\n" in card
    assert f"The checkpoint (b) was selected on the development set: the highest F1 on {dev.source}" in card
    assert "Selected: b, the highest development F1" in result.to_html()


def test_selection_among_the_systems_with_development_predictions(genia):
    test, dev, systems, dev_systems = genia
    result = benchmark(test, systems, dev_references=dev, dev_predictions={"a": dev_systems["a"], "c": dev_systems["c"]},
                       comparisons="best", progress=False)
    assert result.settings["selection"]["candidates"] == ["a", "c"] and result.best["name"] == "c"
    assert [s["dev"] is None for s in result.systems] == [False, True, False]
    assert [(p["a"], p["b"]) for p in result.comparisons] == [("c", "a"), ("c", "b")]


def test_without_development_data_the_report_says_the_test_set_chose(genia):
    test, _, systems, _ = genia
    result = benchmark(test, systems, progress=False)
    assert result.settings["selection"]["on"] == "test" and result.best["name"] == "a"
    assert ("Selected: a, the highest F1 on this test set. No development data was given, so the choice was made on "
            "the test set, and its test F1 overstates what a system chosen without seeing the test set would "
            "score.") in result.to_markdown()
    assert "selected on the test set itself" in result.model_index()


def test_development_inputs_are_checked(genia):
    test, dev, systems, dev_systems = genia
    with pytest.raises(ValueError, match=r"development predictions of 'd', which no test system is named \(a, b, c\)"):
        benchmark(test, systems, dev_references=dev, dev_predictions={"d": dev_systems["a"]}, progress=False)
    with pytest.raises(ValueError, match="dev_predictions are scored against dev_references: give the development gold"):
        benchmark(test, systems, dev_predictions=dev_systems, progress=False)
    with pytest.raises(ValueError, match="dev_references needs development predictions: give dev_predictions"):
        benchmark(test, systems, dev_references=dev, progress=False)
    with pytest.raises(ValueError, match="no prediction for sentence id 'MEDLINE:93061407-0'"):
        benchmark(test, systems, dev_references=dev, dev_predictions={"a": systems["a"]}, progress=False)


OFFLINE = {"HF_HUB_OFFLINE": "1", "HF_DATASETS_OFFLINE": "1", "HF_EVALUATE_OFFLINE": "1", "OMP_NUM_THREADS": "1"}


@pytest.fixture(scope="module")
def trained(repo_root, tmp_path_factory):
    """A run of scripts/train_nested.py on the package's nested sample, its first three sentences the validation
    set and the last three the test set: six checkpoints, each with test and development predictions."""
    pytest.importorskip("torch", reason="training needs torch (pip install '.[train]' in the clone)")
    root = tmp_path_factory.mktemp("trained")
    sample = read_corpus(repo_root / "nested_span_f1" / "sample_data" / "nested.gold.jsonl")
    parts = {"dev": range(0, 3), "test": range(3, 6)}
    for part, rows in parts.items():
        write_corpus(Corpus([sample.tokens[k] for k in rows], [sample.entities[k] for k in rows],
                            [sample.sentence_ids[k] for k in rows]), root / f"{part}.jsonl")
    done = subprocess.run([sys.executable, str(repo_root / "scripts" / "train_nested.py"), "--validation",
                           str(root / "dev.jsonl"), "--test", str(root / "test.jsonl"), "--output-dir", str(root / "run"),
                           "--epochs", "10", "--batch-size", "2", "--save-steps", "5", "--learning-rate", "1e-2"],
                          capture_output=True, text=True, env={**os.environ, **OFFLINE}, timeout=1200)
    assert done.returncode == 0, done.stderr[-3000:]
    return root


def test_end_to_end_with_the_checkpoints_train_nested_writes(trained, capsys):
    root = trained
    folders = sorted((root / "run").glob("checkpoint-*"), key=lambda p: int(p.name.split("-")[1]))
    assert len(folders) == 6
    dev = read_corpus(root / "dev.jsonl")
    test = read_corpus(root / "test.jsonl")
    on_dev = {f"run/{f.name}": score_nested(read_corpus(f / "dev_predictions.jsonl").entities, dev.entities,
                                           zero_division=0)["overall_f1"] for f in folders}
    on_test = {f"run/{f.name}": score_nested(read_corpus(f / "test_predictions.jsonl").entities, test.entities,
                                            zero_division=0)["overall_f1"] for f in folders}
    assert len(set(on_dev.values())) > 1  # the checkpoints differ on the development set
    chosen = max(on_dev, key=on_dev.get)  # the first of equals, as max gives it
    result = benchmark(root / "test.jsonl", {"run": root / "run"}, dev_references=root / "dev.jsonl", progress=False)
    assert result.settings["selection"]["system"] == chosen == result.best["name"]
    assert result.best["f1"]["value"] == on_test[chosen]
    assert [s["dev"]["source"] for s in result.systems] == [str(f / "dev_predictions.jsonl") for f in folders]
    assert [s["source"] for s in result.systems] == [str(f / "test_predictions.jsonl") for f in folders]
    assert [s["dev"]["f1"]["value"] for s in result.systems] == list(on_dev.values())
    logged = json.loads((folders[0] / "dev_metrics.json").read_text())
    assert logged["dev_f1"] == pytest.approx(result.systems[0]["dev"]["f1"]["value"], abs=1e-12)
    card = root / "card.md"
    assert main(["benchmark", "--gold", str(root / "test.jsonl"), "--pred", f"run={root / 'run'}", "--dev-gold",
                 str(root / "dev.jsonl"), "--model-card", str(card), "--model-name", "span-ner-tiny", "--no-progress"]) == 0
    assert f"Selected: {chosen}, the highest development F1" in capsys.readouterr().out
    text = card.read_text()
    assert f"The checkpoint ({chosen}) was selected on the development set: the highest F1 on {root / 'dev.jsonl'}" in text
    assert '- name: "span-ner-tiny"' in text
