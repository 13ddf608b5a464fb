"""The benchmark: intervals and paired tests on real data, re-scoring equality, checkpoints, the flat path."""
import numpy as np
import pytest

from nested_span_f1 import score_exact, score_nested
from nested_span_f1.benchmark.compare import benchmark
from nested_span_f1.benchmark.stats import resample_indices, streams
from nested_span_f1.core.matching import DuplicateSpanWarning
from nested_span_f1.formats import Corpus, read_corpus, write_corpus
from nested_span_f1.formats.columns import read_columns

GENIA = "genia/genia-docsplit.test.jsonl"


def drop(corpus, share, seed, source):
    """The corpus with ``share`` of its entities removed (chosen with ``seed``)."""
    where = [(s, k) for s, ents in enumerate(corpus.entities) for k in range(len(ents))]
    gone = set(map(tuple, np.array(where)[np.random.default_rng(seed).choice(
        len(where), round(share * len(where)), replace=False)].tolist()))
    entities = [[e for k, e in enumerate(ents) if (s, k) not in gone] for s, ents in enumerate(corpus.entities)]
    return Corpus(corpus.tokens, entities, corpus.sentence_ids, corpus.doc_ids, corpus.format, "", source)


@pytest.fixture(scope="module")
def genia(shared_data):
    gold = read_corpus(shared_data / GENIA)
    systems = {"drop2": drop(gold, 0.02, 0, "drop2"), "drop12": drop(gold, 0.12, 1, "drop12")}
    systems["drop2 again"] = systems["drop2"]
    return {seed: benchmark(gold, systems, seed=seed, progress=False) for seed in (0, 1)}


def by_name(result):
    return {s["name"]: s for s in result.systems}


def test_genia_better_system_interval_excludes_the_other_and_tests_agree(genia):
    result = genia[0]
    assert result.settings["units"] == "documents" and result.settings["n_units"] == 199
    systems = by_name(result)
    better, worse = systems["drop2"]["f1"], systems["drop12"]["f1"]
    assert better["low"] > worse["value"] and worse["high"] < better["value"]
    assert systems["drop2"]["recall"]["value"] == 5017 / 5119  # 102 of 5119 removed
    assert systems["drop12"]["recall"]["value"] == 4505 / 5119
    (pair,) = [p for p in result.comparisons if (p["a"], p["b"]) == ("drop2", "drop12")]
    assert pair["p_bootstrap"] < 0.01 and pair["p_randomization"] < 0.01
    assert pair["p_bootstrap_holm"] < 0.01 and pair["p_randomization_holm"] < 0.01 and pair["significant"]
    assert pair["f1_difference"]["value"] == better["value"] - worse["value"]
    assert systems["drop2"]["errors"] == {"correct": 5017, "type_error": 0, "boundary_error": 0,
                                          "boundary_type_error": 0, "missed": 102, "spurious": 0}


def test_identical_systems_differ_by_zero_with_p_one(genia):
    (pair,) = [p for p in genia[0].comparisons if (p["a"], p["b"]) == ("drop2", "drop2 again")]
    assert pair["f1_difference"] == {"value": 0.0, "low": 0.0, "high": 0.0}
    assert pair["p_bootstrap"] == pair["p_randomization"] == 1.0
    assert pair["p_bootstrap_holm"] == pair["p_randomization_holm"] == 1.0
    assert not pair["significant"]


def estimates(result):
    """Every (where, estimate) of a result: overall and per-type P/R/F1, and the F1 differences."""
    for s in result.systems:
        for key in ("precision", "recall", "f1"):
            yield f"{s['name']} {key}", s[key]
            for label, row in s["per_type"].items():
                yield f"{s['name']} {label} {key}", row[key]
    for p in result.comparisons:
        yield f"{p['a']} - {p['b']}", p["f1_difference"]


def test_every_interval_contains_its_estimate(genia):
    for result in genia.values():
        for where, e in estimates(result):
            assert e["low"] <= e["value"] <= e["high"], where


def test_same_seed_same_numbers_other_seed_moves_bounds_little(genia, shared_data):
    gold = read_corpus(shared_data / GENIA)
    again = benchmark(gold, {"drop2": drop(gold, 0.02, 0, "drop2"), "drop12": drop(gold, 0.12, 1, "drop12"),
                             "drop2 again": drop(gold, 0.02, 0, "drop2")}, seed=0, progress=False)
    assert again.to_dict() == genia[0].to_dict()
    moved = []
    for (where, a), (_, b) in zip(estimates(genia[0]), estimates(genia[1])):
        assert a["value"] == b["value"], where
        moved += [abs(a["low"] - b["low"]), abs(a["high"] - b["high"])]
    assert 0 < max(moved) < 0.01


def small_corpus():
    rng = np.random.default_rng(11)
    tokens, gold, pred, docs = [], [], [], []
    for s in range(14):
        n = int(rng.integers(3, 9))
        tokens.append([f"w{t}" for t in range(n)])
        spans = {(int(a), int(a + rng.integers(1, 3)), str(rng.choice(["A", "B"]))) for a in rng.integers(0, n - 2, 3)}
        gold.append(sorted(spans))
        kept = [sp for sp in sorted(spans) if rng.random() < 0.7]
        pred.append(kept + ([(0, 1, "B")] if rng.random() < 0.4 and (0, 1, "B") not in kept else []))
        docs.append(f"d{s // 3}")
    return Corpus(tokens, gold, None, docs, source="gold"), Corpus(tokens, pred, None, docs, source="pred")


def test_bootstrap_distribution_equals_rescoring_each_resample():
    gold, pred = small_corpus()
    result = benchmark(gold, {"x": pred}, n_resamples=300, seed=4, progress=False)
    assert result.settings["units"] == "documents" and result.settings["n_units"] == 5
    unit_sentences = [[s for s, d in enumerate(gold.doc_ids) if d == f"d{u}"] for u in range(5)]
    rescored = []
    for row in resample_indices(5, 300, seed=4):
        sentences = [s for u in row for s in unit_sentences[u]]
        rescored.append(score_nested([pred.entities[s] for s in sentences], [gold.entities[s] for s in sentences],
                                     zero_division=0)["overall_f1"])
    assert result.samples["x"].tolist() == rescored
    low, high = np.percentile(rescored, [2.5, 97.5])
    assert result.systems[0]["f1"] == {"value": score_nested(pred.entities, gold.entities, zero_division=0)["overall_f1"],
                                       "low": low, "high": high}


def test_randomization_p_equals_swapping_predictions_and_rescoring():
    gold, pred = small_corpus()
    other = [[sp for sp in ents if sp[2] == "A"] for ents in gold.entities]
    result = benchmark(gold, {"x": pred, "y": other}, n_resamples=20, n_permutations=200, seed=6, progress=False)
    docs = [int(d[1:]) for d in gold.doc_ids]
    observed = (score_nested(pred.entities, gold.entities, zero_division=0)["overall_f1"]
                - score_nested(other, gold.entities, zero_division=0)["overall_f1"])
    extreme = 0
    for swapped in streams(6)[1].random((200, 5)) < 0.5:
        a = [other[s] if swapped[docs[s]] else pred.entities[s] for s in range(14)]
        b = [pred.entities[s] if swapped[docs[s]] else other[s] for s in range(14)]
        null = score_nested(a, gold.entities, zero_division=0)["overall_f1"] - score_nested(
            b, gold.entities, zero_division=0)["overall_f1"]
        extreme += abs(null) >= abs(observed) - 1e-12
    (pair,) = result.comparisons
    assert pair["f1_difference"]["value"] == observed
    assert pair["p_randomization"] == (extreme + 1) / 201


def test_intervals_skip_resamples_where_a_type_has_no_score():
    gold = [[(0, 1, "A")], [(0, 1, "B")], [(0, 1, "B")], [(1, 2, "B")]]
    pred = [[(0, 1, "A")], [(0, 1, "B")], [], [(1, 2, "B"), (0, 1, "A")]]
    result = benchmark(gold, {"same": gold, "x": pred}, n_resamples=300, progress=False)
    same, x = (s["per_type"] for s in result.systems)
    # resamples without sentence 0 have no A at all: they give A no F1 rather than 0
    assert same["A"]["f1"] == {"value": 1.0, "low": 1.0, "high": 1.0}
    # x's A precision is defined where sentence 0 or 3 is drawn: 1/2, 1/1 or 0/1
    assert x["A"]["precision"]["value"] == 0.5 and x["A"]["recall"] == {"value": 1.0, "low": 1.0, "high": 1.0}
    assert x["A"]["precision"]["low"] == 0.0 and x["A"]["precision"]["high"] == 1.0


def test_sentences_are_resampled_without_document_ids():
    gold, pred = small_corpus()
    result = benchmark(gold.entities, {"x": pred.entities}, n_resamples=20, progress=False)
    assert (result.settings["units"], result.settings["n_units"]) == ("sentences", 14)
    with pytest.raises(ValueError, match="carries no document ids; resample sentences"):
        benchmark(gold.entities, {"x": pred.entities}, units_by="documents", progress=False)


def test_a_directory_of_checkpoints_is_ordered_by_step(tmp_path):
    gold, pred = small_corpus()
    write_corpus(gold, tmp_path / "gold.jsonl")
    runs = tmp_path / "run"
    runs.mkdir()
    for step in (1500, 500):
        folder = runs / f"checkpoint-{step}"
        folder.mkdir()
        (folder / "config.json").write_text("{}")
        (folder / "trainer_state.json").write_text("{}")
        write_corpus(gold if step == 1500 else pred, folder / "test_predictions.jsonl")
    write_corpus(pred, runs / "checkpoint-1000.jsonl")
    (runs / "notes.txt").write_text("not a checkpoint")
    result = benchmark(tmp_path / "gold.jsonl", runs, n_resamples=50, progress=False)
    assert [(s["name"], s["step"]) for s in result.systems] == [
        ("checkpoint-500", 500), ("checkpoint-1000", 1000), ("checkpoint-1500", 1500)]
    assert result.systems[0]["source"] == str(runs / "checkpoint-500" / "test_predictions.jsonl")
    assert result.best["name"] == "checkpoint-1500" and result.best["f1"]["value"] == 1.0
    named = benchmark(tmp_path / "gold.jsonl", {"run": runs}, n_resamples=50, progress=False)
    assert [s["name"] for s in named.systems] == ["run/checkpoint-500", "run/checkpoint-1000", "run/checkpoint-1500"]
    # the test set's predictions beside the development set's: the test gold takes the file named test
    write_corpus(gold, runs / "checkpoint-500" / "dev_predictions.jsonl")
    again = benchmark(tmp_path / "gold.jsonl", runs, n_resamples=50, progress=False)
    assert again.systems[0]["source"] == str(runs / "checkpoint-500" / "test_predictions.jsonl")
    write_corpus(pred, runs / "checkpoint-500" / "test_predictions.old.jsonl")
    with pytest.raises(ValueError, match=r"expected one prediction file, found test_predictions\.jsonl, "
                                         r"test_predictions\.old\.jsonl; pass NAME=FILE"):
        benchmark(tmp_path / "gold.jsonl", runs, progress=False)


def test_conll2003_elmo_flair_get_the_flat_metric_f1(shared_data):
    folder = shared_data / "conll2003"
    files = {name: folder / f"test.{name}.conll" for name in ("elmo", "flair")}
    result = benchmark(folder / "test.gold.conll", files, n_resamples=200, progress=False)
    gold = read_columns(folder / "test.gold.conll").column(-1)
    for system in result.systems:
        flat = score_exact(read_columns(files[system["name"]]).column(-1), gold)
        assert [system[k]["value"] for k in ("precision", "recall", "f1")] == [
            flat["overall_precision"], flat["overall_recall"], flat["overall_f1"]]
        assert {label: row["f1"]["value"] for label, row in system["per_type"].items()} == {
            label: flat[label]["f1"] for label in ("LOC", "MISC", "ORG", "PER")}
    assert [round(100 * s["f1"]["value"], 2) for s in result.systems] == [92.22, 93.03]
    assert (result.settings["units"], result.settings["n_units"]) == ("sentences", 3453)
    assert result.best["name"] == "flair"
    strict = benchmark(folder / "test.gold.conll", {"elmo": files["elmo"]}, n_resamples=20, scheme="IOB2",
                       mode="strict", progress=False)
    flat = score_exact(read_columns(files["elmo"]).column(-1), gold, scheme="IOB2", mode="strict")
    assert strict.systems[0]["f1"]["value"] == flat["overall_f1"]
    assert (strict.settings["scheme"], strict.settings["mode"]) == ("IOB2", "strict")


def test_discontinuous_entities_are_left_out_and_said(tmp_path):
    tokens = [["a", "b", "c", "d"], ["e", "f"]]
    gold = Corpus(tokens, [[(0, 1, "X"), (((0, 1), (2, 3)), "Y")], [(0, 2, "X")]])
    pred = Corpus(tokens, [[(0, 1, "X")], [(0, 2, "X"), (((0, 1),), "Y")]])
    write_corpus(gold, tmp_path / "gold.json", format="w2ner")
    write_corpus(pred, tmp_path / "pred.json", format="w2ner")
    result = benchmark(tmp_path / "gold.json", {"p": tmp_path / "pred.json"}, n_resamples=20, progress=False)
    (system,) = result.systems
    assert (system["tp"], system["predicted"], system["gold"]) == (2, 3, 2)
    assert system["notes"]["discontinuous_left_out"] == 1
    assert "Discontinuous entities left out of every figure (gold and predicted): p 1." in result.to_markdown()


def test_inputs_are_checked():
    gold, pred = small_corpus()
    with pytest.raises(ValueError, match=r"tags holds tag columns but the gold \(gold\) holds entity spans; give both in one kind"):
        benchmark(gold, {"tags": [["O"] * len(t) for t in gold.tokens]}, progress=False)
    with pytest.raises(ValueError, match="gold has 14 sentences but pred has 13"):
        benchmark(gold, {"x": Corpus(pred.tokens[:13], pred.entities[:13], source="pred")}, progress=False)
    with pytest.raises(ValueError, match=r"n_resamples must be from 1 to 1,000,000 .*, got 0"):
        benchmark(gold, {"x": pred}, n_resamples=0, progress=False)
    with pytest.raises(ValueError, match="confidence must be between 0 and 1"):
        benchmark(gold, {"x": pred}, confidence=95, progress=False)
    with pytest.raises(TypeError, match="expected a file path, a Corpus, or per-sentence tag or span lists"):
        benchmark(gold, {"x": 3}, progress=False)


def test_worked_example_script_writes_the_report(shared_data, tmp_path, repo_root):
    import subprocess
    import sys

    out = subprocess.run([sys.executable, str(repo_root / "scripts" / "benchmark_checkpoints.py"), "--demo",
                          "--gold", str(shared_data / GENIA), "--bootstrap", "100", "--out", str(tmp_path)],
                         capture_output=True, text=True, check=True).stdout
    assert sorted(p.name for p in tmp_path.iterdir()) == ["benchmark.html", "benchmark.json", "benchmark.md",
                                                          "benchmark.png", "model_card.md"]
    assert "selected on the test set: run/checkpoint-1500 test F1 " in out
    assert "run/checkpoint-1500 > run/checkpoint-500 (+" in (tmp_path / "benchmark.md").read_text()
    assert "vs run/checkpoint-1000: better, the difference holds" in out


def test_duplicate_spans_are_one_warning_naming_each_system():
    """QA: three systems with repeated spans gave three "removed N duplicate predicted spans" warnings, none naming
    its system; the development set's repeats are in the same one warning."""
    gold = [[(0, 2, "PER")], [(1, 2, "LOC")], [(0, 1, "ORG")]]
    twice = [[(0, 2, "PER"), (0, 2, "PER")], [(1, 2, "LOC")], []]
    thrice = [[(0, 2, "PER")] * 3, [], []]
    with pytest.warns(DuplicateSpanWarning) as caught:
        result = benchmark(gold, {"a": twice, "b": gold, "c": thrice}, n_resamples=200, progress=False,
                           dev_references=gold, dev_predictions={"a": thrice})
    assert [str(w.message) for w in caught] == [
        "removed duplicate spans (same sentence, start, end and label) before scoring, counted once each: predicted "
        "spans: 1 of a, 2 of c; predicted spans on dev_references: 2 of a (each system's notes count them)"]
    assert caught[0].filename == __file__
    assert [s["notes"]["duplicate_predictions"] for s in result.systems] == [1, 0, 2]


def test_worked_example_demo_runs_without_the_shared_data(tmp_path, repo_root):
    """QA: ``--demo`` in a fresh clone ended in a FileNotFoundError for ../shared/data/genia/...: without --gold
    it takes the sample data installed with the package, from any folder."""
    import subprocess
    import sys

    script = str(repo_root / "scripts" / "benchmark_checkpoints.py")
    done = subprocess.run([sys.executable, script, "--demo", "--bootstrap", "100", "--out", "report"], cwd=tmp_path,
                          capture_output=True, text=True, timeout=300, check=False)
    assert done.returncode == 0, done.stderr
    assert "selected on the test set: run/checkpoint-" in done.stdout
    assert "Benchmark on nested" in (tmp_path / "report" / "benchmark.md").read_text()
    refused = subprocess.run([sys.executable, script, "--gold", "missing.jsonl", "--demo"], cwd=tmp_path,
                             capture_output=True, text=True, timeout=300, check=False)
    assert refused.returncode == 2 and refused.stderr.splitlines()[-1] == (
        "benchmark_checkpoints.py: error: --gold missing.jsonl: no such file")
