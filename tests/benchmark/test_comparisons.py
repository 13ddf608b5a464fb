"""Comparisons that can hold: eleven GENIA checkpoints a few F1 points apart are told apart with the defaults,
against a baseline, between consecutive checkpoints and in all pairs (the resamples raised for them), identical
systems still differ by nothing with p = 1, and too few resamples for the comparisons asked for are refused."""
from itertools import pairwise

import numpy as np
import pytest
from test_benchmark_views import parse_tables

from nested_span_f1.benchmark.compare import benchmark
from nested_span_f1.cli.main import main
from nested_span_f1.formats import Corpus, read_corpus, write_corpus

STEPS = [100 * (k + 1) for k in range(11)]


@pytest.fixture(scope="module")
def run(shared_data, tmp_path_factory):
    """The GENIA document test split and a run of eleven checkpoints: step k leaves out 3 * (10 - k) % of the
    entities (30 % at the first, none at the last), each leaving out a subset of what the one before left out."""
    gold = read_corpus(shared_data / "genia/genia-docsplit.test.jsonl")
    root = tmp_path_factory.mktemp("eleven")
    write_corpus(gold, root / "gold.jsonl")
    draw = np.random.default_rng(0)
    rank = [draw.random(len(ents)) for ents in gold.entities]
    (root / "run").mkdir()
    for k, step in enumerate(STEPS):
        share = 0.03 * (10 - k)
        kept = [[e for e, r in zip(ents, ranks) if r >= share] for ents, ranks in zip(gold.entities, rank)]
        write_corpus(Corpus(gold.tokens, kept, gold.sentence_ids, gold.doc_ids), root / "run" / f"checkpoint-{step}.jsonl")
    return gold, root


def f1s(result):
    return [s["f1"]["value"] for s in result.systems]


def test_consecutive_checkpoints_are_told_apart_with_the_defaults(run):
    _, root = run
    result = benchmark(root / "gold.jsonl", {"run": root / "run"}, progress=False)
    settings = result.settings
    assert (settings["comparisons"], settings["n_resamples"], settings["rounds_needed"]) == ("consecutive", 1000, 200)
    assert settings["raised_from"] is None
    assert [(p["a"], p["b"]) for p in result.comparisons] == [
        (f"run/checkpoint-{later}", f"run/checkpoint-{earlier}") for earlier, later in pairwise(STEPS)]
    gaps = np.diff(f1s(result))
    assert 0.010 < gaps.min() and gaps.max() < 0.03  # one to three F1 points apart
    assert all(p["significant"] and p["f1_difference"]["value"] > 0 for p in result.comparisons)
    assert all(p["p_bootstrap_holm"] == p["p_randomization_holm"] == 10 / 1001 for p in result.comparisons)
    text = result.to_markdown()
    assert ("Compared: each checkpoint against the one before it in its run (10 comparisons). With 1,000 resamples the "
            "smallest p-value after Holm's correction is 10/1,001 = 0.0100, below alpha 0.05.") in text


def test_a_named_baseline_is_compared_with_every_checkpoint(run):
    _, root = run
    result = benchmark(root / "gold.jsonl", {"run": root / "run"}, baseline="run/checkpoint-100", progress=False)
    assert result.settings["comparisons"] == "baseline"
    assert [(p["a"], p["b"]) for p in result.comparisons] == [
        (f"run/checkpoint-{step}", "run/checkpoint-100") for step in STEPS[1:]]
    assert all(p["significant"] for p in result.comparisons)


def test_all_pairs_raise_the_resamples_until_a_difference_can_hold(run):
    _, root = run
    result = benchmark(root / "gold.jsonl", {"run": root / "run"}, comparisons="all", progress=False)
    settings = result.settings
    # 55 pairs: 1,000 resamples give at best 55/1001 = 0.055, so they are raised to the next thousand above 1,100
    assert (settings["rounds_needed"], settings["n_resamples"], settings["n_permutations"]) == (1100, 2000, 2000)
    assert settings["raised_from"] == 1000 and len(result.comparisons) == 55
    assert all(p["significant"] for p in result.comparisons)
    assert ("With 2,000 resamples the smallest p-value after Holm's correction is 55/2,001 = 0.0275, below alpha 0.05; "
            "the resamples were raised from 1,000 to 2,000 for that (at least 1,100 are needed).") in result.to_markdown()


def test_best_against_the_rest_and_identical_systems(run):
    gold, root = run
    last = read_corpus(root / "run" / "checkpoint-1100.jsonl")
    first = read_corpus(root / "run" / "checkpoint-100.jsonl")
    result = benchmark(gold, {"first": first, "last": last, "last again": last}, comparisons="best", progress=False)
    assert result.settings["selection"]["system"] == "last" == result.best["name"]
    assert [(p["a"], p["b"]) for p in result.comparisons] == [("last", "first"), ("last", "last again")]
    same = result.comparisons[1]
    assert same["f1_difference"] == {"value": 0.0, "low": 0.0, "high": 0.0}
    assert same["p_bootstrap"] == same["p_randomization"] == same["p_bootstrap_holm"] == 1.0
    assert not same["significant"] and result.comparisons[0]["significant"]


def test_too_few_resamples_for_the_comparisons_are_refused(run):
    _, root = run
    message = ("n_resamples (--bootstrap) 1,000 is too few for 55 comparisons (every pair of systems): the smallest "
               "p-value Holm's correction can give is 55/1,001 = 0.0549, not below alpha 0.05, so no difference could "
               "hold; use at least 1,100 (or leave it out: it is raised to what the comparisons need), or compare "
               "fewer pairs")
    with pytest.raises(ValueError) as refused:
        benchmark(root / "gold.jsonl", {"run": root / "run"}, comparisons="all", n_resamples=1000, progress=False)
    assert str(refused.value) == message
    with pytest.raises(ValueError, match=r"n_permutations \(--permutations\) 199 is too few for 10 comparisons"):
        benchmark(root / "gold.jsonl", {"run": root / "run"}, n_permutations=199, progress=False)


def test_the_command_takes_a_baseline_and_a_choice_of_comparisons(run, capsys):
    _, root = run
    gold, runs = str(root / "gold.jsonl"), f"run={root / 'run'}"
    assert main(["benchmark", "--gold", gold, "--pred", runs, "--baseline", "run/checkpoint-1100", "--no-progress"]) == 0
    tables = parse_tables(capsys.readouterr().out)
    assert [row[:2] for row in tables[-1][1:]] == [[f"run/checkpoint-{s}", "run/checkpoint-1100"] for s in STEPS[:-1]]
    assert all(row[-1] == "yes" for row in tables[-1][1:])
    assert main(["benchmark", "--gold", gold, "--pred", runs, "--compare", "all", "--bootstrap", "500",
                 "--no-progress"]) == 2
    assert "n_resamples (--bootstrap) 500 is too few for 55 comparisons" in capsys.readouterr().err
    assert main(["benchmark", "--gold", gold, "--pred", runs, "--compare", "baseline", "--no-progress"]) == 2
    assert capsys.readouterr().err == ("nested-span-f1 benchmark: error: --compare baseline compares every system with "
                                       "--baseline NAME: name it\n")
    assert main(["benchmark", "--gold", gold, "--pred", runs, "--baseline", "nobody", "--no-progress"]) == 2
    assert "the baseline 'nobody' is not one of the systems (run/checkpoint-100, " in capsys.readouterr().err


def test_what_is_compared_is_said_of_named_systems_and_counted_in_words():
    """QA: ``comparisons="consecutive"`` on two named systems said "each checkpoint against the one before it";
    one comparison was "1 comparisons"."""
    gold = [[(0, 2, "PER")], [(1, 2, "LOC")], [(0, 1, "ORG")]]
    systems = {"a": [[(0, 2, "PER")], [], []], "b": gold}
    result = benchmark(gold, systems, comparisons="consecutive", n_resamples=200, progress=False)
    assert result.settings["compared"] == "each system against the one before it, in the order given"
    assert ("Compared: each system against the one before it, in the order given (1 comparison). With 200 resamples "
            "the smallest p-value is 1/201 = 0.0050, below alpha 0.05.") in result.to_markdown()
    with pytest.raises(ValueError) as refused:
        benchmark(gold, systems, n_resamples=5, progress=False)
    assert str(refused.value) == (
        "n_resamples (--bootstrap) 5 is too few for 1 comparison (every pair of systems): the smallest p-value the "
        "tests can give is 1/6 = 0.1667, not below alpha 0.05, so no difference could hold; use at least 20 (or "
        "leave it out: it is raised to what the comparisons need)")
