"""Bucketed analysis: point values equal the nested metric's breakdowns, intervals equal re-scoring each resample,
sentence buckets counted by hand."""
import numpy as np
import pytest
from test_benchmark import small_corpus

from nested_span_f1 import score_nested
from nested_span_f1.benchmark.compare import benchmark
from nested_span_f1.benchmark.stats import resample_indices
from nested_span_f1.formats import Corpus, read_corpus

KEYS = ("precision", "recall", "f1")


def perturbed(gold, seed):
    """Gold with a tenth of the entities left out, some shortened by one token and a spurious span in some sentences."""
    rng = np.random.default_rng(seed)
    entities = []
    for ents in gold.entities:
        kept = []
        for start, end, label in ents:
            draw = rng.random()
            if draw < 0.1:
                continue
            kept.append((start, end - 1, label) if draw < 0.15 and end - start > 1 else (start, end, label))
        if rng.random() < 0.2 and (0, 1, "protein") not in kept:
            kept.append((0, 1, "protein"))
        entities.append(sorted(set(kept)))
    return Corpus(gold.tokens, entities, gold.sentence_ids, gold.doc_ids, source=f"perturbed{seed}")


@pytest.fixture(scope="module")
def genia(shared_data):
    gold = read_corpus(shared_data / "genia/genia-docsplit.test.jsonl")
    systems = {"a": perturbed(gold, 0), "b": perturbed(gold, 1)}
    return gold, systems, benchmark(gold, systems, n_resamples=300, progress=False)


def test_entity_length_and_depth_buckets_are_the_nested_metrics(genia):
    gold, systems, result = genia
    for system in result.systems:
        metric = score_nested(systems[system["name"]].entities, gold.entities, zero_division=0)
        for ours, theirs in (("entity_length", "by_length"), ("nesting_depth", "by_depth")):
            buckets = system["buckets"][ours]
            expected = {k: v for k, v in metric[theirs].items() if v["number"] or v["predicted"]}
            assert list(buckets) == list(expected)
            for name, row in buckets.items():
                assert [row[k]["value"] for k in KEYS] == [expected[name][k] for k in KEYS], (ours, name)
                assert (row["number"], row["predicted"]) == (expected[name]["number"], expected[name]["predicted"])
                assert all(row[k]["low"] <= row[k]["value"] <= row[k]["high"] for k in KEYS)
    assert set(result.systems[0]["buckets"]) == {"entity_length", "sentence_length", "entity_density", "nesting_depth"}


def test_sentence_buckets_hold_every_span_of_their_sentences(genia):
    gold, systems, result = genia
    lengths = np.array([len(t) for t in gold.tokens])
    per_token = np.array([len(e) for e in gold.entities]) / lengths
    for system in result.systems:
        pred = systems[system["name"]].entities
        for attribute, of_sentence in (
            ("sentence_length", np.searchsorted([1, 11, 21, 31, 41], lengths, side="right") - 1),
            ("entity_density", np.where(per_token > 0, np.searchsorted([0.1, 0.2, 0.3], per_token) + 1, 0)),
        ):
            names = {"sentence_length": ["1-10", "11-20", "21-30", "31-40", "41+"],
                     "entity_density": ["0", "0-0.1", "0.1-0.2", "0.2-0.3", "0.3+"]}[attribute]
            for k, name in enumerate(names):
                chosen = np.flatnonzero(of_sentence == k)
                metric = score_nested([pred[s] for s in chosen], [gold.entities[s] for s in chosen], zero_division=0)
                row = system["buckets"][attribute].get(name)
                if row is None:
                    assert not any(pred[s] or gold.entities[s] for s in chosen), (attribute, name)
                    continue
                assert [row[key]["value"] for key in KEYS] == [metric[f"overall_{key}"] for key in KEYS], (attribute, name)


def test_bucket_intervals_are_the_percentiles_of_rescored_resamples():
    gold, pred = small_corpus()
    result = benchmark(gold, {"x": pred}, n_resamples=200, seed=3, progress=False)
    unit_sentences = [[s for s, d in enumerate(gold.doc_ids) if d == f"d{u}"] for u in range(5)]
    by_bucket = {}
    for row in resample_indices(5, 200, seed=3):
        sentences = [s for u in row for s in unit_sentences[u]]
        metric = score_nested([pred.entities[s] for s in sentences], [gold.entities[s] for s in sentences],
                              zero_division=0)
        for name, bucket in metric["by_length"].items():
            if bucket["number"] or bucket["predicted"]:
                by_bucket.setdefault(name, []).append(bucket["f1"])
    buckets = result.systems[0]["buckets"]["entity_length"]
    assert set(buckets) == set(by_bucket)
    for name, values in by_bucket.items():
        low, high = np.percentile(values, [2.5, 97.5])
        assert (buckets[name]["f1"]["low"], buckets[name]["f1"]["high"]) == (low, high), name


def test_span_lists_without_tokens_have_no_sentence_buckets():
    result = benchmark([[(0, 1, "A"), (0, 3, "B")], [(1, 2, "A")]], {"x": [[(0, 1, "A")], [(1, 3, "A")]]},
                       n_resamples=20, progress=False)
    buckets = result.systems[0]["buckets"]
    assert list(buckets) == ["entity_length", "nesting_depth"]
    assert buckets["nesting_depth"]["1"]["number"] == 2 and buckets["nesting_depth"]["2"]["number"] == 1
    lengths = {name: (row["number"], row["predicted"], row["f1"]["value"]) for name, row in buckets["entity_length"].items()}
    assert lengths == {"1": (2, 1, 2 / 3), "2": (0, 1, 0.0), "3": (1, 0, 0.0)}
