"""Answers counted one at a time (count_answer) add up to one corpus call (score_answers) in every key, whatever
the split; the tallies pickle, round-trip through JSON and refuse other settings; labels= reads a document as the
corpus does; the plain-Python exact, nested and lenient counts of one document equal the array matchers'."""
from __future__ import annotations

import json
import pickle
import warnings

import pytest
from hypothesis import given
from hypothesis import strategies as st

from nested_span_f1 import Corpus
from nested_span_f1.align.score import words
from nested_span_f1.answers import score_answers
from nested_span_f1.answers.score import UnreadableAnswersWarning
from nested_span_f1.answers.tally import (
    AnswerTally,
    count_answer,
    exact_state,
    flatten,
    gold_document,
    lenient_state,
    located_state,
    nested_cells,
    nested_state,
    total,
)
from nested_span_f1.core.entities import check_entities
from nested_span_f1.lenient.counts import LenientCounts
from nested_span_f1.lenient.score import match_spans_lenient
from nested_span_f1.nested.nesting import CHARACTER_LENGTH_BINS
from nested_span_f1.nested.score import count_entities

WORDS = ["Ada", "Lovelace", "met", "Alan", "Turing", "in", "London", "and", "Paris", "in", "June", "."]
TYPES = ["PER", "LOC", "MISC"]
SHAPES = [
    lambda items: json.dumps([[text, label] for text, label in items]),
    lambda items: "Here is the answer:\n" + "\n".join(f"{text} ({label})" for text, label in items),
    lambda items: "\n".join(f"{label}: {text}" for text, label in items),
    lambda items: "Sorry, I cannot do that." if not items else json.dumps({"entities": items}),
]

documents = st.lists(st.tuples(st.integers(0, 11), st.integers(1, 3), st.sampled_from(TYPES)), max_size=4)
mentions = st.lists(st.tuples(st.integers(0, 11), st.integers(1, 3), st.sampled_from([*TYPES, "person"]),
                              st.booleans()), max_size=4)


def corpus_of(draw_docs):
    """Gold rows (tokens and token spans) and answers from drawn spans and mentions."""
    rows, answers = [], []
    for k, (spans, said, shape) in enumerate(draw_docs):
        entities = sorted({(s, min(s + n, len(WORDS)), label) for s, n, label in spans if s < len(WORDS)})
        rows.append({"id": f"d{k}", "tokens": WORDS, "entities": [list(e) for e in entities]})
        items = [(" ".join(WORDS[s:s + n]).lower() if lower else " ".join(WORDS[s:s + n]), label)
                 for s, n, label, lower in said]
        answers.append(SHAPES[shape](items))
    return rows, answers


def reference(rows, answers, metric, **options):
    gold = Corpus([row["tokens"] for row in rows], [[tuple(e) for e in row["entities"]] for row in rows],
                  [row["id"] for row in rows])
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", UnreadableAnswersWarning)
        return score_answers([{"id": row["id"], "output": a} for row, a in zip(rows, answers)], gold, metric=metric,
                               zero_division=0, labels=TYPES, **options)


@given(st.lists(st.tuples(documents, mentions, st.integers(0, len(SHAPES) - 1)), min_size=1, max_size=6),
       st.sampled_from(["exact", "nested", "lenient"]))
def test_answers_counted_one_at_a_time_add_up_to_one_corpus_call(drawn, metric):
    rows, answers = corpus_of(drawn)
    options = {"label_map": {"person": "PER"}}
    tallies = [count_answer(answer, row, labels=TYPES, metric=metric, **options) for row, answer in zip(rows, answers)]
    summed = total(tallies)
    assert sum(tallies) == summed == AnswerTally.from_dict(json.loads(json.dumps(summed.to_dict())))
    assert pickle.loads(pickle.dumps(summed)) == summed
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", UnreadableAnswersWarning)
        got = summed.result(zero_division=0)
    expected = reference(rows, answers, metric, **options)
    del expected["located"]["alignment"], expected["answers"]["examples"], expected["answers"]["paired"]
    assert got == expected
    # any split adds up the same: the first half and the second half, summed
    half = len(tallies) // 2
    if half:
        assert total(tallies[:half]) + total(tallies[half:]) == summed


@given(st.lists(st.tuples(st.integers(0, 30), st.integers(1, 6), st.sampled_from("AB")), max_size=8),
       st.lists(st.tuples(st.integers(0, 30), st.integers(1, 6), st.sampled_from("AB")), max_size=8))
def test_counts_of_one_document_equal_the_array_matcher(predicted, gold):
    """exact_state and nested_state, the plain loops, against count_entities, the arrays (nested, crossing and
    repeated spans drawn)."""
    predicted = [(s, s + n, label) for s, n, label in predicted]
    gold = [(s, s + n, label) for s, n, label in gold]
    sides = [check_entities([side], [40], name) for side, name in ((predicted, "predictions"), (gold, "references"))]
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        nested = count_entities(*sides, length_bins=CHARACTER_LENGTH_BINS)
        fine = count_entities(*sides, length_bins=(1, 2, 3))
    assert exact_state(predicted, gold) == flatten(nested.counts.to_dict())
    assert nested_cells(nested_state(predicted, gold)) == flatten(nested.to_dict())
    assert nested_cells(nested_state(predicted, gold, (1, 2, 3)), (1, 2, 3)) == flatten(fine.to_dict())
    # the tally carries only the cells its spans fell in
    assert all(n for key, n in nested_state(predicted, gold).items() if key[0] == "breakdowns")


TEXT = "Ada Lovelace met Alan Turing in London, 1843."[:40]


def lenient_arrays(predicted, gold, **options):
    """The lenient counts of one document of :data:`TEXT` by the arrays (the matcher's counts, its ties broken by
    shared words, flattened as tallies hold them)."""
    sides = [check_entities([side], [len(TEXT)], name) for side, name in ((predicted, "predictions"), (gold, "references"))]
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        counts = match_spans_lenient(sides[0].spans, sides[1].spans, units=words([TEXT]), **options).counts()
    return flatten({name: value for name, value in counts.to_dict().items() if name not in LenientCounts.SETTINGS})


@given(st.lists(st.tuples(st.integers(0, 30), st.integers(1, 6), st.sampled_from("AB")), max_size=8),
       st.lists(st.tuples(st.integers(0, 30), st.integers(1, 6), st.sampled_from("AB")), max_size=8),
       st.sampled_from([None, 0.0, 0.25, 0.5, 1.0]))
def test_lenient_counts_of_one_document_equal_the_array_matcher(predicted, gold, min_iou):
    """lenient_state, the plain loops, against the arrays where every overlapping pair overlaps nothing else, and
    None (the arrays count it) where a span overlaps two or is repeated; located_state gives the arrays' counts
    either way (nested, crossing and repeated spans drawn)."""
    predicted = [(s, s + n, label) for s, n, label in predicted]
    gold = [(s, s + n, label) for s, n, label in gold]
    expected = lenient_arrays(predicted, gold, min_iou=min_iou, partial_weight=0.25)
    plain = lenient_state(predicted, gold, len(TEXT), min_iou)
    assert plain is None or plain == expected
    overlaps = [(g, p) for g in set(gold) for p in set(predicted) if min(g[1], p[1]) > max(g[0], p[0])]
    alone = len({g for g, _ in overlaps}) == len({p for _, p in overlaps}) == len(overlaps)
    if min_iou is None and len(set(predicted)) == len(predicted) and len(set(gold)) == len(gold):
        assert (plain is not None) == alone
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        assert located_state("lenient", predicted, gold, TEXT, {"min_iou": min_iou, "partial_weight": 0.25}) == \
            expected


def test_lenient_counts_of_one_document_by_hand():
    """A boundary error, a type error and a miss: each pair alone, so the plain loops count them."""
    gold = [(0, 5, "PER"), (10, 16, "LOC"), (20, 25, "ORG")]
    predicted = [(0, 4, "PER"), (10, 16, "ORG"), (30, 33, "LOC")]
    state = lenient_state(predicted, gold, len(TEXT))
    assert state == lenient_arrays(predicted, gold)
    assert {key[1]: n for key, n in state.items() if key[0] == "breakdown"} == {
        "correct": 0, "type_error": 1, "boundary_error": 1, "boundary_type_error": 0, "missed": 1, "spurious": 1}
    assert state["schemes", "partial", "PER", 2] == 1 and state["schemes", "exact", "LOC", 0] == 1
    assert state["confusion", "LOC", "ORG"] == 1 and ("confusion", "PER", "PER") in state
    # a span overlapping two on the other side goes to the arrays' optimal matching
    assert lenient_state([(0, 12, "PER")], [(0, 5, "PER"), (6, 12, "PER")], len(TEXT)) is None


def test_labels_read_a_document_as_the_corpus_does():
    """'... and June (MISC).' in a document whose gold has no MISC: read as a mention only with the corpus's types
    (a prose sentence of names is read only when every parenthesis holds a known type)."""
    rows = [{"id": "d1", "text": "Ada met Alan in June.", "entities": [{"start": 0, "end": 3, "label": "PER"},
                                                                      {"start": 8, "end": 12, "label": "PER"}]},
            {"id": "d2", "text": "The June Fair opened.", "entities": [{"start": 4, "end": 13, "label": "MISC"}]}]
    answers = ["Ada (PER) met Alan (PER) and June (MISC).", "June Fair (MISC)"]
    gold = Corpus([r["text"] for r in rows], [[(e["start"], e["end"], e["label"]) for e in r["entities"]] for r in rows],
                  ["d1", "d2"], unit="characters")
    corpus = score_answers([{"id": r["id"], "output": a} for r, a in zip(rows, answers)], gold, metric="exact",
                             zero_division=0)["located"]["overall_f1"]
    together = total(count_answer(a, r, labels=["PER", "MISC"]) for r, a in zip(rows, answers))
    assert together.result(zero_division=0)["located"]["overall_f1"] == corpus == 6 / 7
    # without the inventory, d1 is read with PER only: its sentence of names is unreadable, its gold missed
    with pytest.warns(UnreadableAnswersWarning, match=r"1 of 2 answers \(50.0%\) could not be read: \['d1'\]"):
        alone = total(count_answer(a, r) for r, a in zip(rows, answers)).result(zero_division=0)
    assert alone["located"]["overall_f1"] == 0.5


def test_tallies_of_other_settings_do_not_add():
    row = {"text": "Ada met Alan.", "entities": [[0, 3, "PER"]]}
    with pytest.raises(ValueError, match=r"cannot add counts made with metric 'exact'.*metric 'lenient'"):
        count_answer("Ada (PER)", row, metric="lenient") + count_answer("Ada (PER)", row)
    with pytest.raises(ValueError, match="count every answer with the same settings"):
        count_answer("Ada (PER)", row, labels=["PER"]) + count_answer("Ada (PER)", row, labels=["PER", "LOC"])
    with pytest.raises(ValueError, match="no counts to add"):
        total([])


def test_gold_documents_in_the_shapes_datasets_give():
    text = "Ada met Alan ."
    shapes = [{"text": text, "entities": [{"start": 0, "end": 3, "label": "PER"}]},
              {"text": text, "entities": [[0, 3, "PER"]]},
              {"tokens": text.split(), "tags": ["B-PER", "O", "O", "O"]},
              {"tokens": text.split(), "entities": [[0, 1, "PER"]]}]
    assert {tuple(gold_document(row).entities) for row in shapes} == {((0, 3, "PER"),)}
    strings = gold_document({"text": text, "entities": [{"text": "Ada", "label": "PER"}]})
    assert (strings.entities, strings.strings) == (None, [("Ada", "PER")])
    with pytest.raises(ValueError, match=r"gold, sentence 0: span \(0, 30, 'PER'\) is out of range"):
        gold_document({"text": text, "entities": [[0, 30, "PER"]]})
    with pytest.raises(TypeError, match=r"needs 'text' .* or 'tokens' and 'tags'; got the keys \['words'\]"):
        gold_document({"words": []})
    with pytest.raises(ValueError, match=r"gold 'd1': the gold uses 1 type that labels= leaves out \(\['PER'\]\)"):
        count_answer("Ada (PER)", {"id": "d1", **shapes[0]}, labels=["LOC"])


def test_a_random_model_is_not_a_silent_zero():
    rows = [{"id": f"d{k}", "text": "Ada met Alan.", "entities": [[0, 3, "PER"]]} for k in range(20)]
    tallies = [count_answer("I cannot help with that." if k < 2 else "Ada (PER)", row, labels=["PER"])
               for k, row in enumerate(rows)]
    with pytest.warns(UnreadableAnswersWarning, match=r"2 of 20 answers \(10.0%\) could not be read: \['d0', 'd1'\]"):
        result = total(tallies).result(zero_division=0)
    assert result["located"]["overall_f1"] == pytest.approx(2 * 18 / 38)
    gold = Corpus([r["text"] for r in rows], [[tuple(e) for e in r["entities"]] for r in rows],
                  [r["id"] for r in rows], unit="characters")
    with pytest.warns(UnreadableAnswersWarning) as caught:
        score_answers([{"id": r["id"], "output": "No idea."} for r in rows], gold, metric="exact", zero_division=0)
    assert len(caught) == 1 and "20 of 20 answers (100.0%) could not be read" in str(caught[0].message)
