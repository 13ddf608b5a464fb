"""Bootstrap intervals on the figures at a chosen threshold (issue 50, item 3): the values are the scorer's, every
resample is the scorer on the documents drawn, and the bounds lie within Monte-Carlo error of a plain loop that
draws documents with its own random numbers and re-scores each resample."""
from __future__ import annotations

import json
import random
import warnings

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st
from scored_sets import LABELS, scored_sets

from nested_span_f1 import Corpus, score_lenient, score_nested
from nested_span_f1.benchmark import threshold_intervals
from nested_span_f1.benchmark.intervals import resampling_units, top_k_intervals
from nested_span_f1.benchmark.stats import resample_indices
from nested_span_f1.cli.main import main
from nested_span_f1.core.matching import DuplicateSpanWarning
from nested_span_f1.thresholds import apply_thresholds, scored_pair
from nested_span_f1.thresholds.score import gains

SCORES = (0.1, 0.3, 0.5, 0.5, 0.7, 0.9)


@pytest.mark.parametrize(("metric", "decode"), [("exact", "nested"), ("nested", "flat"), ("lenient", "nested"),
                                                ("lenient", "flat")])
@given(data=scored_sets(5, 6, SCORES), threshold=st.sampled_from(SCORES),
       per_type=st.dictionaries(st.sampled_from(LABELS), st.sampled_from(SCORES)))
def test_the_values_are_the_figures_the_scorer_gives_at_the_thresholds(metric, decode, data, threshold, per_type):
    gold, pred = data
    pair = scored_pair(gold, pred)
    found = threshold_intervals(pair, threshold, per_type, metric=metric, decode=decode, n_resamples=20)
    applied = apply_thresholds(pair, threshold, per_type, metric=metric, decode=decode)
    for key in ("precision", "recall", "f1"):
        assert found[key]["value"] == applied[key]
        assert found[key]["low"] <= found[key]["high"]
    assert set(found["per_type"]) == {label for label, row in applied["per_type"].items()
                                      if row["predicted"] or row["number"]}
    for label, row in found["per_type"].items():
        assert [row[key]["value"] for key in ("precision", "recall", "f1")] == [
            applied["per_type"][label][key] for key in ("precision", "recall", "f1")]
    assert (found["resamples"], found["units"], found["n_units"]) == (20, "sentences", len(gold))


def documents(n_docs=24, seed=5):
    """A corpus of ``n_docs`` documents of 1 to 3 sentences (document ids on both sides) and scored predictions:
    each gold span found with a random score, and spurious spans."""
    rng = random.Random(seed)
    tokens, gold, pred, scores, docs = [], [], [], [], []
    for d in range(n_docs):
        for _ in range(rng.randint(1, 3)):
            spans = sorted({(s, s + rng.randint(1, 3), rng.choice("AB")) for s in rng.sample(range(8), 3)})
            kept = [s for s in spans if rng.random() < 0.7] + [(s, s + 1, rng.choice("AB")) for s in
                                                             rng.sample(range(9), rng.randint(0, 2))]
            tokens.append(["w"] * 12)
            gold.append(spans)
            pred.append(kept)
            scores.append([round(rng.random(), 3) for _ in kept])
            docs.append(f"doc{d}")
    ids = [f"s{k}" for k in range(len(tokens))]
    return (Corpus(tokens, gold, ids, docs, source="gold"), Corpus(tokens, pred, ids, docs, source="pred",
                                                                    scores=scores))


def rescored(pair, units, kept_of, metric, label=None):
    """P, R, F1, predicted and gold of the spans ``kept_of(sentence)`` keeps in the sentences of the units drawn
    (of one ``label`` on both sides when given), by the metric's scorer."""
    unit_of = resampling_units(pair)[0]
    sentences = [s for u in units for s in np.flatnonzero(unit_of == u).tolist()]
    kept = [kept_of(s) for s in sentences]
    gold = [pair.references[s] for s in sentences]
    if label is not None:
        kept, gold = ([[e for e in row if e[2] == label] for row in side] for side in (kept, gold))
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", DuplicateSpanWarning)
        if metric == "lenient":
            r = score_lenient(kept, gold, zero_division=0)
            return r["type_precision"], r["type_recall"], r["type_f1"], r["type_actual"], r["type_possible"]
        r = score_nested(kept, gold, zero_division=0)
    return r["overall_precision"], r["overall_recall"], r["overall_f1"], r["tp"] + r["fp"], r["tp"] + r["fn"]


def at_threshold(pair, threshold):
    return lambda s: [e for e, x in zip(pair.predictions[s], pair.scores[s]) if x >= threshold]


def top(pair, k):
    """A sentence's k best distinct spans (each at its highest score; ties: start, end, label), by a plain sort."""
    def kept(s):
        best = {}
        for e, x in zip(pair.predictions[s], pair.scores[s]):
            best[e] = max(x, best.get(e, x))
        return sorted(best, key=lambda e: (-best[e], e))[:k]
    return kept


def percentile_bounds(samples, confidence=0.95):
    """The percentile interval of each figure over the resamples where it is defined (precision: something
    predicted; recall: gold; F1: either), as a plain reading of the benchmark's rule."""
    out = {}
    for k, key in enumerate(("precision", "recall", "f1")):
        defined = [s[k] for s in samples if (s[3] > 0, s[4] > 0, s[3] > 0 or s[4] > 0)[k]]
        low, high = np.percentile(defined, [50 * (1 - confidence), 50 * (1 + confidence)])
        out[key] = (float(low), float(high))
    return out


@pytest.mark.parametrize("metric", ["nested", "lenient"])
def test_every_resample_is_the_scorer_on_the_documents_drawn(metric):
    """The same draws as the benchmark's for this seed (documents, not sentences), each resample re-scored by
    the metric's scorer on the drawn documents' sentences: the same intervals, overall and per type."""
    gold, pred = documents()
    pair = scored_pair(gold, pred)
    unit_of, name = resampling_units(pair)
    assert (name, int(unit_of.max()) + 1, len(unit_of) > 24) == ("documents", 24, True)
    found = threshold_intervals(pair, 0.4, metric=metric, n_resamples=300, seed=3)
    draws = resample_indices(24, 300, 3)
    for label, figures in ((None, found), ("A", found["per_type"]["A"]), ("B", found["per_type"]["B"])):
        expected = percentile_bounds([rescored(pair, units, at_threshold(pair, 0.4), metric, label)
                                      for units in draws])
        for key in ("precision", "recall", "f1"):
            assert (figures[key]["low"], figures[key]["high"]) == pytest.approx(expected[key], abs=1e-12), label
    assert (found["units"], found["n_units"], found["seed"]) == ("documents", 24, 3)


def test_top_k_intervals_are_the_scorer_on_the_documents_drawn():
    gold, pred = documents()
    pair = scored_pair(gold, pred)
    unit_of = resampling_units(pair)[0]
    found = top_k_intervals(gains(pair), 2, unit_of, n_resamples=300, seed=4)
    draws = resample_indices(24, 300, 4)
    for label, figures in ((None, found), ("A", found["per_type"]["A"])):
        expected = percentile_bounds([rescored(pair, units, top(pair, 2), "nested", label) for units in draws])
        for key in ("precision", "recall", "f1"):
            assert (figures[key]["low"], figures[key]["high"]) == pytest.approx(expected[key], abs=1e-12), label
    assert found["f1"]["value"] == rescored(pair, range(24), top(pair, 2), "nested")[2]


def test_the_bounds_lie_within_monte_carlo_error_of_a_plain_loop():
    """A plain loop draws 24 documents with replacement 2,000 times with Python's random numbers and re-scores
    each resample; the package's bounds (2,000 resamples, its own draws) sit at the 2.5th and 97.5th percentiles
    of the loop's F1s within four standard errors of two such estimates (sqrt(q (1 - q) (1/B + 1/B)))."""
    gold, pred = documents()
    pair = scored_pair(gold, pred)
    rng, n = random.Random(11), 2000
    samples = [rescored(pair, rng.choices(range(24), k=24), at_threshold(pair, 0.4), "nested") for _ in range(n)]
    found = threshold_intervals(pair, 0.4, n_resamples=n, seed=0)
    for key, k in (("precision", 0), ("recall", 1), ("f1", 2)):
        values = np.array([s[k] for s in samples])
        for bound, q in (("low", 0.025), ("high", 0.975)):
            tolerance = 4 * (q * (1 - q) * 2 / n) ** 0.5
            below, at_most = np.mean(values < found[key][bound]), np.mean(values <= found[key][bound])
            assert below - tolerance <= q <= at_most + tolerance, (key, bound, below, at_most)


def test_units_follow_the_gold(tmp_path):
    gold, pred = documents(4)
    pair = scored_pair(gold, pred)
    assert resampling_units(pair, "sentences")[1] == "sentences"
    assert resampling_units(scored_pair([[(0, 1, "A")]], [[(0, 1, "A", 0.5)]]))[1] == "sentences"
    with pytest.raises(ValueError, match="the gold carries no document ids; resample sentences"):
        resampling_units(scored_pair([[(0, 1, "A")]], [[(0, 1, "A", 0.5)]]), "documents")
    texts = Corpus(["Ann met Bob", "Bob left"], [[(0, 3, "PER")], [(0, 3, "PER")]], ["a", "b"], unit="characters")
    scored = Corpus(["Ann met Bob", "Bob left"], [[(0, 3, "PER")], [(4, 8, "PER")]], ["a", "b"], unit="characters",
                    scores=[[0.9], [0.2]])
    for by in ("auto", "documents", "sentences"):  # a corpus of texts holds documents
        assert resampling_units(scored_pair(texts, scored), by)[1] == "documents"


def _files(tmp_path):
    rows = [{"sent_id": f"s{k}", "doc_id": f"d{k // 2}", "tokens": ["w"] * 3,
             "entity_mentions": [{"start": 0, "end": 1, "entity_type": "A"}]} for k in range(6)]
    pred = [{**row, "entity_mentions": [{"start": 0, "end": 1 + k % 2, "entity_type": "A", "score": 0.1 * (k + 3)}]}
            for k, row in enumerate(rows)]
    out = {}
    for name, records in (("gold", rows), ("pred", pred)):
        out[name] = str(tmp_path / f"{name}.jsonl")
        (tmp_path / f"{name}.jsonl").write_text("".join(json.dumps(r) + "\n" for r in records))
    return out


def test_the_command_gives_the_interval_and_how_it_was_drawn(tmp_path, capsys):
    files = _files(tmp_path)
    assert main(["thresholds", "--gold", files["gold"], "--pred", files["pred"], "--json", "--bootstrap", "500",
                 "--seed", "7", "--confidence", "0.9"]) == 0
    result = json.loads(capsys.readouterr().out)
    found = threshold_intervals(scored_pair(files["gold"], files["pred"]), 0.5, n_resamples=500, seed=7,
                                confidence=0.9)
    assert result["bootstrap"] == {"resamples": 500, "seed": 7, "confidence": 0.9, "units": "documents", "n_units": 3}
    at = result["at_system_threshold"]
    assert at["interval"] == {key: {"low": found[key]["low"], "high": found[key]["high"]}
                              for key in ("precision", "recall", "f1")}
    assert at["per_type"]["A"]["interval"]["f1"] == {"low": found["per_type"]["A"]["f1"]["low"],
                                                     "high": found["per_type"]["A"]["f1"]["high"]}
    assert main(["thresholds", "--gold", files["gold"], "--pred", files["pred"], "--units", "sentences"]) == 0
    assert "    95% interval (1,000 resamples of 6 sentences): precision [" in capsys.readouterr().out


@pytest.mark.parametrize(("args", "message"), [
    (["--bootstrap", "0"], "--bootstrap must be from 1 to 1,000,000"),
    (["--seed", "-1"], "--seed must be 0 or more, got -1"),
    (["--confidence", "1.5"], "--confidence must be between 0 and 1 (exclusive), got 1.5"),
])
def test_bad_bootstrap_options_are_refused_in_one_line(tmp_path, capsys, args, message):
    files = _files(tmp_path)
    assert main(["thresholds", "--gold", files["gold"], "--pred", files["pred"], *args]) == 2
    err = capsys.readouterr().err
    assert len(err.splitlines()) == 1 and message in err, err


def test_documents_without_ids_are_refused_by_name(tmp_path, capsys):
    gold, pred = tmp_path / "g.jsonl", tmp_path / "p.jsonl"
    row = {"sent_id": "s1", "tokens": ["Ann"], "entity_mentions": [{"start": 0, "end": 1, "entity_type": "P"}]}
    gold.write_text(json.dumps(row) + "\n")
    pred.write_text(json.dumps({**row, "entity_mentions": [{**row["entity_mentions"][0], "score": 0.8}]}) + "\n")
    assert main(["thresholds", "--gold", str(gold), "--pred", str(pred), "--units", "documents"]) == 2
    assert capsys.readouterr().err == (f"nested-span-f1 thresholds: error: --gold {gold} carries no document ids; "
                                       "resample sentences (units='sentences')\n")
