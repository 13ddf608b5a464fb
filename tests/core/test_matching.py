"""The one exact matcher against Python sets: counts, untyped tallies, duplicates and which spans hit."""
import random
import re
import warnings

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st

from nested_span_f1.core.counts import Tally
from nested_span_f1.core.matching import DuplicateSpanWarning, distinct, match_exact
from nested_span_f1.core.spans import SpanArrays, spans_from_lists

LABELS = ("A", "B", "C")
span = st.tuples(st.integers(0, 5), st.integers(1, 4), st.sampled_from(LABELS)).map(lambda t: (t[0], t[0] + t[1], t[2]))
side = st.lists(st.lists(span, max_size=5), min_size=3, max_size=3)


def as_set(sentences):
    return {(s, *x) for s, sent in enumerate(sentences) for x in sent}


def rows(spans, hits):
    return {(s, b, e, spans.labels[lab]): bool(h) for s, b, e, lab, h in zip(
        spans.sentence.tolist(), spans.start.tolist(), spans.end.tolist(), spans.label.tolist(), hits.tolist())}


@given(side, side, st.randoms(use_true_random=False))
def test_match_exact_against_sets(predictions, references, rng: random.Random):
    shuffled = [rng.sample(sent, len(sent)) for sent in predictions]  # order never matters
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", DuplicateSpanWarning)
        match = match_exact(spans_from_lists(shuffled), spans_from_lists(references))
    pred, ref = as_set(predictions), as_set(references)
    # the distinct spans, and which the other side holds
    assert rows(match.predictions, match.predicted_hit) == {x: x in ref for x in pred}
    assert rows(match.references, match.reference_hit) == {x: x in pred for x in ref}
    counts = match.counts()
    per = {label: (len({x for x in pred & ref if x[3] == label}), len({x for x in pred if x[3] == label}),
                   len({x for x in ref if x[3] == label})) for label in LABELS}
    assert {k: (t.tp, t.predicted, t.gold) for k, t in counts.labels.items()} == {k: v for k, v in per.items() if any(v)}
    bounds = [{x[:3] for x in spans} for spans in (pred, ref)]
    assert (counts.untyped.tp, counts.untyped.predicted, counts.untyped.gold) == (
        len(bounds[0] & bounds[1]), len(bounds[0]), len(bounds[1]))
    assert dict(counts.notes) == {
        "duplicate_predictions": sum(map(len, predictions)) - len(pred),
        "duplicate_references": sum(map(len, references)) - len(ref)}


def test_duplicates_warn_once_and_are_counted():
    with pytest.warns(DuplicateSpanWarning, match=r"removed 2 duplicate predicted and 0 duplicate reference spans") as caught:
        match = match_exact(spans_from_lists([[(0, 1, "A"), (0, 1, "A")], [(2, 3, "B")] * 2]),
                            spans_from_lists([[(0, 1, "A")], []]))
    assert len(caught) == 1
    assert match.notes == {"duplicate_predictions": 2, "duplicate_references": 0}
    assert match.predicted_hit.tolist() == [True, False]


def test_distinct_sorts_and_counts_repeats():
    spans, removed = distinct(spans_from_lists([[(3, 4, "B"), (0, 2, "A"), (3, 4, "B")], [(1, 2, "A")]]))
    assert (spans.to_lists(), removed) == ([[(0, 2, "A"), (3, 4, "B")], [(1, 2, "A")]], 1)


def test_sides_must_align():
    with pytest.raises(ValueError, match=r"^2 predicted sentences but 1 reference sentence"):
        match_exact(spans_from_lists([[], []]), spans_from_lists([[]]))


def test_offsets_too_large_to_pack_are_refused_naming_the_span_and_the_bound():
    """One sentence: batches would not help; the message names the span and the largest offset that packs."""
    with pytest.raises(ValueError) as raised:
        match_exact(spans_from_lists([[]]), spans_from_lists([[(0, 2**40, "A")]]))
    assert str(raised.value) == (
        "references, sentence 0: span (0, 1099511627776, 'A') has offsets too large to pack: each span's sentence, "
        "start, end and label are packed into one 64-bit key, which holds offsets up to 2147483646 here (1 sentence, "
        "1 label); offsets are token positions counted from 0 in each sentence, so give them that way")
    largest = spans_from_lists([[(0, 2147483646, "A")]])
    assert match_exact(largest, largest).counts().total == Tally(1, 1, 1)


def _one_span_in(n_sentences: int, end: int) -> SpanArrays:
    """A side of ``n_sentences`` sentences whose last holds the one span (0, end, "A")."""
    one = np.array([0])
    return SpanArrays(np.array([n_sentences - 1]), one, np.array([end]), one, ("A",), n_sentences)


def test_too_many_sentences_to_pack_advise_a_batch_size_that_works():
    side = _one_span_in(2**21, 2**21)
    with pytest.raises(ValueError, match=r"^too many sentences to pack at once \(2,097,152 sentences, 1 label, offsets "
                                         r"up to 2097152 in predictions, sentence 2097151: span \(0, 2097152, 'A'\)\)"):
        match_exact(side, side)
    with pytest.raises(ValueError) as raised:
        distinct(side)
    batch = int(re.search(r"count at most (\d+) sentences at a time and add the counts$", str(raised.value)).group(1))
    fits = _one_span_in(batch, 2**21)
    assert match_exact(fits, fits).counts().total == Tally(1, 1, 1)
    with pytest.raises(ValueError, match="too many sentences"):
        distinct(_one_span_in(batch + 1, 2**21))
