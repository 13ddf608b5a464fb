"""The three evaluate modules take texts: per document its text and its character spans (the feature set read
from the data, as for tags and spans)."""
from __future__ import annotations

import json
from pathlib import Path

import pytest

evaluate = pytest.importorskip("evaluate")

import nested_span_f1
from nested_span_f1 import Corpus, tags_to_spans
from nested_span_f1.align import join_tokens, score_text
from nested_span_f1.formats.columns import read_columns

GOLD = [{"text": "Peter Blackburn visited Paris", "entities": [{"start": 0, "end": 15, "label": "PER"},
                                                                {"start": 24, "end": 29, "label": "LOC"}]},
        {"text": "", "entities": []}]
PRED = [{"text": "Peter Blackburn visited Paris", "entities": [{"start": 0, "end": 15, "label": "PER"},
                                                                {"start": 24, "end": 27, "label": "LOC"}]},
        {"text": "", "entities": []}]
METRICS = ("exact", "lenient", "nested")


@pytest.fixture(scope="module")
def metrics():
    return {name: evaluate.load(nested_span_f1.metric_path(name)) for name in METRICS}


def _corpus(documents):
    return Corpus([d["text"] for d in documents], [[(e["start"], e["end"], e["label"]) for e in d["entities"]]
                                                   for d in documents], unit="characters")


def _plain(result):
    return json.loads(json.dumps(result))


@pytest.mark.parametrize("name", sorted(METRICS))
def test_texts_score_as_score_text(metrics, name):
    got = metrics[name].compute(predictions=PRED, references=GOLD, zero_division=0)
    assert _plain(got) == _plain(score_text(_corpus(PRED), _corpus(GOLD), metric=name, zero_division=0))
    # batch by batch, then the same instance takes tags again
    for p, g in zip(PRED, GOLD):
        metrics[name].add(prediction=p, reference=g)
    assert _plain(metrics[name].compute(zero_division=0)) == _plain(got)
    if name != "lenient":
        assert metrics[name].compute(predictions=[["B-PER"]], references=[["B-PER"]])["overall_f1"] == 1.0


@pytest.mark.parametrize("name", sorted(METRICS))
def test_bad_texts_are_refused_and_the_instance_recovers(metrics, name):
    cases = [
        ([{**PRED[0], "text": "Peter Blackburn visited Pariz"}, PRED[1]], ValueError,
         "sentence 0: the predicted text differs from the reference text at offset 28"),
        ([{**PRED[0], "entities": [{"start": 0, "end": 99, "label": "PER"}]}, PRED[1]], ValueError,
         "predictions, sentence 0: span {'start': 0, 'end': 99, 'label': 'PER'} is out of range"),
        ([{**PRED[0], "entities": [{"start": 0, "end": 1.5, "label": "PER"}]}, PRED[1]], TypeError,
         "non-integer offsets (end 1.5)"),
        ([{**PRED[0], "id": "x"}, PRED[1]], ValueError, "the keys 'text' and 'entities' and nothing else"),
        ([PRED[0], ["B-PER"]], TypeError, "predictions, sentence 1: ['B-PER'] is not a text"),
    ]
    for predictions, error, message in cases:
        with pytest.raises(error) as raised:
            metrics[name].compute(predictions=predictions, references=GOLD)
        assert message in str(raised.value)
    assert metrics[name].compute(predictions=GOLD, references=GOLD, zero_division=0)["alignment"]["predictions"][
        "matched"] == 2


def test_tag_options_with_texts_are_refused(metrics):
    with pytest.raises(ValueError, match="mode apply to tags, but the input holds texts"):
        metrics["exact"].compute(predictions=PRED, references=GOLD, mode="strict")


def test_conll2003_through_evaluate_as_texts(metrics, shared_data):
    folder = shared_data / "conll2003"
    sides = []
    for name in ("elmo", "gold"):
        columns = read_columns(folder / f"test.{name}.conll")
        corpus = join_tokens(Corpus(columns.tokens, tags_to_spans(columns.column())))
        sides.append([{"text": t, "entities": [{"start": s, "end": e, "label": lab} for s, e, lab in ents]}
                      for t, ents in zip(corpus.texts, corpus.entities)])
    result = metrics["exact"].compute(predictions=sides[0], references=sides[1])
    assert round(100 * result["overall_f1"], 2) == 92.22


def test_the_cards_say_what_texts_return(metrics):
    """The nested card names the character length buckets texts get; the span_f1 card says texts have no
    overall_accuracy (there is no tag per token to compare)."""
    nested = metrics["nested"].compute(predictions=PRED, references=GOLD, zero_division=0)
    card = (Path(nested_span_f1.metric_path("nested")) / "README.md").read_text(encoding="utf-8")
    by_length = card.split("`by_length` (", 1)[1].split(")", 1)[0]
    assert set(nested["by_length"]) <= {"1-4", "5-9", "10-19", "20-39", "40+"}
    assert all(f'`"{bucket}"`' in by_length for bucket in ("1-4", "5-9", "10-19", "20-39", "40+"))
    assert "characters" in by_length
    flat = metrics["exact"].compute(predictions=PRED, references=GOLD, zero_division=0)
    card = (Path(nested_span_f1.metric_path("exact")) / "README.md").read_text(encoding="utf-8")
    accuracy = card.split("`overall_accuracy` (", 1)[1].split(")", 1)[0]
    assert "overall_accuracy" not in flat and "not given for\n  texts" in accuracy
