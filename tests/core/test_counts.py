"""Counts are the currency: they add across splits, survive a dict round trip, ignore order."""
from __future__ import annotations

import json
import warnings

import pytest
from hypothesis import given
from hypothesis import strategies as st

from nested_span_f1 import count_exact, score_exact
from nested_span_f1.core.counts import Counts, Tally
from nested_span_f1.core.scores import summarize

TAG = st.sampled_from(["O", "O", "B-PER", "I-PER", "E-PER", "S-LOC", "B-LOC", "I-LOC", "B-ORG-SUB", "I-ORG-SUB", "B", "I"])


@st.composite
def corpora(draw):
    lengths = draw(st.lists(st.integers(0, 7), min_size=1, max_size=8))
    refs = [[draw(TAG) for _ in range(n)] for n in lengths]
    # some predicted sentences copy their reference whole: those are decoded once, as agreed
    preds = [list(sent) if draw(st.booleans()) else [t if draw(st.booleans()) else draw(TAG) for t in sent]
             for sent in refs]
    return preds, refs


def _quiet_summary(counts):
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        return summarize(counts)


@given(corpora(), st.data(), st.sampled_from([(None, None), (None, "IOB2"), (None, "BILOU"), ("strict", "IOBES")]))
def test_counts_of_two_halves_add_up_to_the_whole(corpus, data, options):
    preds, refs = corpus
    cut = data.draw(st.integers(0, len(refs)))
    mode, scheme = options
    options = {"mode": mode, "scheme": scheme}
    whole = count_exact(preds, refs, **options)
    first = count_exact(preds[:cut], refs[:cut], **options) if cut else Counts()
    second = count_exact(preds[cut:], refs[cut:], **options) if cut < len(refs) else Counts()
    total = first + second
    assert total.labels == whole.labels
    assert total.untyped == whole.untyped
    assert (total.tokens, total.correct_tokens) == (whole.tokens, whole.correct_tokens)
    if scheme is not None:
        # the scheme is fixed (also where the tags break it, in default mode), so the invalid-chunk notes add too
        assert total == whole
        assert _quiet_summary(total) == _quiet_summary(whole)
    assert sum([first, second]) == total


def test_invalid_chunk_notes_add_across_splits():
    # The notes are additive diagnostics: the counts of two halves add up to the
    # counts of the whole. That needs a declared scheme: detected per call, the
    # whole corpus (B, I, O) would be judged as IOB2, where I-PER after O is
    # invalid, but its second half alone (I, O) as IO, where it is valid. So
    # without a scheme (default mode) there are no such notes at all.
    preds = [["O", "B-PER"], ["I-PER"]]
    refs = [["O", "O"], ["I-PER"]]
    whole = count_exact(preds, refs, scheme="IOB2")
    halves = count_exact(preds[:1], refs[:1], scheme="IOB2") + count_exact(preds[1:], refs[1:], scheme="IOB2")
    assert dict(whole.notes) == {"invalid_predicted_chunks": 1, "invalid_reference_chunks": 1}
    assert dict(halves.notes) == dict(whole.notes)
    assert dict(count_exact(preds, refs).notes) == {}


@given(corpora(), st.randoms(use_true_random=False))
def test_sentence_order_does_not_matter(corpus, rng):
    preds, refs = corpus
    order = list(range(len(refs)))
    rng.shuffle(order)
    a = count_exact(preds, refs)
    b = count_exact([preds[i] for i in order], [refs[i] for i in order])
    assert a == b


@given(corpora(), st.sampled_from([None, "strict"]))
def test_perfect_prediction_scores_one(corpus, mode):
    _, refs = corpus
    result = score_exact(refs, refs, mode=mode, scheme="IOBES" if mode else None, zero_division=1)
    assert result["overall_precision"] == result["overall_recall"] == result["overall_f1"] == 1.0
    assert result["untyped_f1"] == 1.0
    assert result["macro_f1"] == result["weighted_f1"] == 1.0
    assert result["fp"] == result["fn"] == 0
    for value in result.values():
        if isinstance(value, dict):
            assert value["f1"] == 1.0
    if any(refs):
        assert result["overall_accuracy"] == 1.0


@given(corpora())
def test_to_dict_from_dict_round_trip(corpus):
    preds, refs = corpus
    counts = count_exact(preds, refs)
    data = json.loads(json.dumps(counts.to_dict()))
    assert Counts.from_dict(data) == counts
    assert Counts.from_dict(data).to_dict() == counts.to_dict()


def test_to_dict_shape():
    counts = count_exact([["B-PER", "I-PER", "O", "B-LOC"]], [["B-PER", "I-PER", "B-LOC", "O"]], scheme="IOB2")
    assert counts.to_dict() == {
        "labels": {"LOC": [0, 1, 1], "PER": [1, 1, 1]},
        "untyped": [1, 2, 2],
        "tokens": 4,
        "correct_tokens": 2,
        "notes": {"invalid_predicted_chunks": 0, "invalid_reference_chunks": 0},
    }


def test_addition_merges_labels_and_notes():
    a = Counts({"PER": Tally(1, 2, 1)}, Tally(1, 2, 1), 5, 4, {"invalid_predicted_chunks": 1})
    b = Counts({"LOC": Tally(1, 1, 2), "PER": Tally(0, 1, 0)}, Tally(1, 2, 2), 3, 2, {"invalid_predicted_chunks": 2})
    total = a + b
    assert dict(total.labels) == {"LOC": Tally(1, 1, 2), "PER": Tally(1, 3, 1)}
    assert total.untyped == Tally(2, 4, 3)
    assert (total.tokens, total.correct_tokens) == (8, 6)
    assert dict(total.notes) == {"invalid_predicted_chunks": 3}
    assert total.total == Tally(2, 4, 3)
    assert sum([a, b]) == total
    assert Tally(1, 3, 1).fp == 2 and Tally(1, 3, 4).fn == 3


def test_empty_counts_are_neutral():
    counts = count_exact([["B-PER"]], [["B-PER"]])
    assert counts + Counts() == Counts() + counts
    assert (counts + Counts()).labels == counts.labels


def test_counts_are_frozen():
    counts = Counts({"PER": Tally(1, 1, 1)})
    try:
        counts.labels["LOC"] = Tally()  # type: ignore[index]
    except TypeError:
        pass
    else:  # pragma: no cover
        raise AssertionError("Counts.labels must be read-only")


def test_every_counts_type_adds_and_round_trips_through_json():
    """Counts, LenientCounts and NestedCounts share one way to add and one to serialise."""
    from nested_span_f1 import count_lenient, count_nested
    from nested_span_f1.lenient.score import LenientCounts
    from nested_span_f1.nested.score import NestedCounts

    pred = [[(0, 2, "A"), (3, 5, "B")], [(1, 2, "A")]]
    ref = [[(0, 2, "A"), (3, 4, "B")], [(0, 2, "A")]]
    for kind, make in ((Counts, lambda p, r: count_exact([["B-A", "O"]], [["B-A", "I-A"]])),
                       (LenientCounts, count_lenient), (NestedCounts, count_nested)):
        first, second = make(pred, ref), make(ref, pred)
        for counts in (first, second, first + second):
            data = json.loads(json.dumps(counts.to_dict()))
            assert kind.from_dict(data) == counts, kind.__name__
        assert sum([first, second]) == first + second
    assert count_lenient(pred, ref).total("partial") + count_lenient(ref, pred).total("partial") == (
        (count_lenient(pred, ref) + count_lenient(ref, pred)).total("partial"))


def test_counts_made_with_other_settings_do_not_add():
    from nested_span_f1 import count_lenient

    with pytest.raises(ValueError, match=r"cannot add LenientCounts made with partial_weight=0\.5 .* partial_weight=1\.0"):
        count_lenient([[(0, 1, "A")]], [[(0, 1, "A")]]) + count_lenient([[(0, 1, "A")]], [[(0, 1, "A")]], partial_weight=1.0)
