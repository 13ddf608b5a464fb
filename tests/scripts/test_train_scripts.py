"""Both fine-tuning scripts run end to end offline; their written predictions, rescored by the CLI,
give the metrics they logged."""
import importlib.util
import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

pytest.importorskip("torch")
pytest.importorskip("transformers")

from nested_span_f1.hf.training import word_tokenizer

ROOT = Path(__file__).resolve().parents[2]
SAMPLES = ROOT / "nested_span_f1" / "sample_data"
GENIA_TEST = ROOT.parent / "shared" / "data" / "genia" / "genia-classic.test.w2ner.json"
OFFLINE = {"HF_HUB_OFFLINE": "1", "HF_DATASETS_OFFLINE": "1", "HF_EVALUATE_OFFLINE": "1", "OMP_NUM_THREADS": "1"}


def _run(*args, cwd=ROOT):
    out = subprocess.run([sys.executable, *map(str, args)], cwd=cwd, capture_output=True, text=True,
                         env={**os.environ, **OFFLINE})
    assert out.returncode == 0, out.stderr[-3000:]
    return out.stdout


def _cli(*args):
    return json.loads(_run("-m", "nested_span_f1.cli", *args))


def _rescored(logged, prefix, rescored):
    """The logged metrics next to the same keys read from the CLI's result dict."""
    pairs = {}
    for key, value in logged.items():
        name = key[len(prefix):]
        if name in ("precision", "recall", "f1", "accuracy"):
            pairs[key] = (value, rescored[f"overall_{name}"])
        elif "_" in name and name.rsplit("_", 1)[0] in rescored and isinstance(rescored[name.rsplit("_", 1)[0]], dict):
            label, score = name.rsplit("_", 1)
            pairs[key] = (value, rescored[label][score])
    return pairs


def _printed_evaluations(stdout):
    """The lines that print an evaluation's metrics (Trainer prints each once)."""
    return [line for line in stdout.splitlines() if "eval_f1" in line]


def test_train_ner_writes_metrics_and_predictions_the_cli_rescores(tmp_path):
    # no --output-dir: runs/train_ner under the current directory
    stdout = _run(ROOT / "scripts" / "train_ner.py", "--epochs", 4, "--batch-size", 4, "--eval-steps", 4, "--predict",
                  "--entity-level", cwd=tmp_path)
    assert sorted(p.name for p in tmp_path.iterdir()) == ["runs"]
    tmp_path = tmp_path / "runs" / "train_ner"
    metrics = json.loads((tmp_path / "metrics.json").read_text())
    assert [e["step"] for e in metrics["evaluations"]] == [4, 8, 12, 16]
    printed = _printed_evaluations(stdout)
    assert len(printed) == 4 and "'eval_PER_f1'" in printed[-1], printed
    test = metrics["test"]
    assert 0 < test["test_f1"] < 1
    rescored = _cli("score", "--gold", SAMPLES / "sample.gold.conll", "--pred", tmp_path / "test_predictions.conll",
                    "--json")
    pairs = _rescored(test, "test_", rescored)
    assert {"test_f1", "test_accuracy", "test_PER_f1", "test_LOC_number"} <= set(pairs)
    for key, (logged, again) in pairs.items():
        assert logged == pytest.approx(again, abs=1e-12), key

    # the saved model fine-tuned further with --model
    _run(ROOT / "scripts" / "train_ner.py", "--output-dir", tmp_path / "again", "--model", tmp_path / "model",
         "--epochs", 1, "--learning-rate", 1e-3)
    again = json.loads((tmp_path / "again" / "metrics.json").read_text())
    assert again["label_list"] == metrics["label_list"]
    assert again["evaluations"][0]["eval_f1"] > 0  # it starts from the trained weights


def _check_checkpoints(out, gold, n_checkpoints, per_type):
    metrics = json.loads((out / "metrics.json").read_text())
    assert len(metrics["evaluations"]) == n_checkpoints
    folders = sorted(out.glob("checkpoint-*"), key=lambda p: int(p.name.split("-")[1]))
    assert [p.name for p in folders] == sorted(metrics["checkpoints"], key=lambda n: int(n.split("-")[1]))
    assert len(folders) == n_checkpoints
    f1s = []
    for folder in folders:
        # the test set and the validation set (here the same file) are predicted at every checkpoint
        for part in ("test", "dev"):
            logged = json.loads((folder / f"{part}_metrics.json").read_text())
            assert logged == {k: v for k, v in metrics["checkpoints"][folder.name].items() if k.startswith(f"{part}_")}
            prediction = folder / f"{part}_predictions{gold.suffix}"
            rescored = _cli("nested", "--gold", gold, "--pred", prediction, "--json")
            pairs = _rescored(logged, f"{part}_", rescored)
            assert {f"{part}_precision", f"{part}_recall", f"{part}_f1"} <= set(pairs)
            if per_type:
                assert f"{part}_DNA_f1" in pairs
            for key, (value, again) in pairs.items():
                assert value == pytest.approx(again, abs=1e-12), (folder.name, key)
        f1s.append(metrics["checkpoints"][folder.name]["test_f1"])
    return f1s


def test_train_nested_on_the_embedded_sample_streaming(tmp_path):
    stdout = _run(ROOT / "scripts" / "train_nested.py", "--output-dir", tmp_path, "--epochs", 10, "--batch-size", 2,
                  "--save-steps", 10, "--learning-rate", 1e-2, "--batch-eval-metrics", "--entity-level")
    # each evaluation printed once (by Trainer), each checkpoint's test scores in one short line
    assert len(_printed_evaluations(stdout)) == 3
    tested = [line for line in stdout.splitlines() if " test: " in line]
    assert [line.split()[0] for line in tested] == ["checkpoint-10", "checkpoint-20", "checkpoint-30"]
    assert all(len(line) < 200 for line in tested), tested
    f1s = _check_checkpoints(tmp_path, SAMPLES / "nested.gold.jsonl", 3, per_type=True)
    assert max(f1s) > 0
    first = (tmp_path / "checkpoint-30" / "test_predictions.jsonl").read_text().splitlines()[0]
    assert set(json.loads(first)) == {"tokens", "sent_id", "entity_mentions"}  # the gold file's format

    # a checkpoint holds its tokenizer: training goes on from it with --model
    _run(ROOT / "scripts" / "train_nested.py", "--output-dir", tmp_path / "again", "--model", tmp_path / "checkpoint-30",
         "--epochs", 1, "--batch-size", 2, "--learning-rate", 1e-4)
    again = json.loads((tmp_path / "again" / "metrics.json").read_text())
    assert again["evaluations"][0]["eval_f1"] > 0  # it starts from the trained weights


def test_train_nested_defaults_learn_the_sample(tmp_path):
    """docs/trainer.md's first command, as written: no option at all."""
    stdout = _run(ROOT / "scripts" / "train_nested.py", cwd=tmp_path)
    metrics = json.loads((tmp_path / "runs" / "train_nested" / "metrics.json").read_text())
    f1s = [e["eval_f1"] for e in metrics["evaluations"]]
    assert len(f1s) == 30 and f1s[-1] > 0, f1s
    assert len(_printed_evaluations(stdout)) == 30


@pytest.mark.parametrize("name", ["train_ner", "train_nested"])
def test_help_shows_the_whole_description_and_the_defaults(name):
    shown = _run(ROOT / "scripts" / f"{name}.py", "--help")
    description = _script(name).__doc__
    paragraphs = [" ".join(p.split()) for p in description.split("\n\n")]
    assert len(paragraphs) >= 3
    flat = " ".join(shown.split())
    for paragraph in paragraphs:
        assert paragraph in flat, paragraph
    assert f"(default: runs/{name})" in flat


@pytest.mark.skipif(not GENIA_TEST.exists(), reason=f"GENIA is not at {GENIA_TEST} (see ../shared/data/PROVENANCE.md)")
def test_train_nested_on_genia_in_w2ner_format(tmp_path):
    gold = tmp_path / "genia-slice.w2ner.json"
    gold.write_text(json.dumps(json.loads(GENIA_TEST.read_text())[:16]))
    out = tmp_path / "run"
    _run(ROOT / "scripts" / "train_nested.py", "--train", gold, "--output-dir", out, "--epochs", 25,
         "--batch-size", 4, "--save-steps", 50, "--entity-level")
    f1s = _check_checkpoints(out, gold, 2, per_type=True)
    assert f1s[-1] > 0
    written = json.loads((out / "checkpoint-100" / f"test_predictions{gold.suffix}").read_text())
    assert set(written[0]) == {"sentence", "ner"}  # W2NER, as the gold file


def _script(name):
    spec = importlib.util.spec_from_file_location(name, ROOT / "scripts" / f"{name}.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_train_ner_aligns_labels_as_run_ner_does(tmp_path):
    script = _script("train_ner")
    labels = ["O", "B-ORG", "I-ORG"]
    tok = word_tokenizer([["Acme-Corp", "hires"]], tmp_path)
    assert tok.tokenize("Acme-Corp hires") == ["acme", "-", "corp", "hires"]
    first_only = script.encode([["Acme-Corp", "hires"]], [["B-ORG", "O"]], tok, labels, label_all_tokens=False)
    every_piece = script.encode([["Acme-Corp", "hires"]], [["B-ORG", "O"]], tok, labels, label_all_tokens=True)
    assert first_only[0]["labels"] == [-100, 1, -100, -100, 0, -100]
    assert every_piece[0]["labels"] == [-100, 1, 2, 2, 0, -100]  # B- becomes I- after the first piece
    assert every_piece[0]["word_ids"] == [-100, 0, 0, 0, 1, -100] and "word_ids" not in first_only[0]


def test_train_ner_label_all_tokens_logs_word_level_metrics(tmp_path):
    """Every sub-token labelled, the logged metrics still score words: the CLI, rescoring the written word tags
    (each word's first sub-token), gives them exactly, accuracy included."""
    _run(ROOT / "scripts" / "train_ner.py", "--output-dir", tmp_path, "--epochs", 4, "--batch-size", 4,
         "--predict", "--entity-level", "--label-all-tokens", "--batch-eval-metrics")
    metrics = json.loads((tmp_path / "metrics.json").read_text())
    test = metrics["test"]
    assert 0 < test["test_f1"] < 1
    rescored = _cli("score", "--gold", SAMPLES / "sample.gold.conll", "--pred", tmp_path / "test_predictions.conll",
                    "--json")
    pairs = _rescored(test, "test_", rescored)
    assert {"test_f1", "test_accuracy", "test_PER_number"} <= set(pairs)
    for key, (logged, again) in pairs.items():
        assert logged == pytest.approx(again, abs=1e-12), key
    assert all(e["eval_PER_number"] == rescored["PER"]["number"] for e in metrics["evaluations"])
