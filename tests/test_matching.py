"""Exact matching against Python sets, in span order (the one-merge path) and shuffled (the set path)."""
import random
import warnings

from hypothesis import given, settings
from hypothesis import strategies as st

from nested_span_f1.matching import DuplicateSpanWarning, match_exact
from nested_span_f1.spans import spans_from_lists

LABELS = ("A", "B", "C")
span = st.tuples(st.integers(0, 5), st.integers(1, 4), st.sampled_from(LABELS)).map(lambda t: (t[0], t[0] + t[1], t[2]))
side = st.lists(st.lists(span, max_size=5), min_size=3, max_size=3)


def expected(predictions, references):
    pred = {(s, *x) for s, sent in enumerate(predictions) for x in sent}
    ref = {(s, *x) for s, sent in enumerate(references) for x in sent}
    per = {label: (len({x for x in pred & ref if x[3] == label}), len({x for x in pred if x[3] == label}),
                   len({x for x in ref if x[3] == label})) for label in LABELS}
    bounds = [{x[:3] for x in spans} for spans in (pred, ref)]
    return ({k: v for k, v in per.items() if v[1] or v[2]},
            (len(bounds[0] & bounds[1]), len(bounds[0]), len(bounds[1])))


def counted(predictions, references):
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", DuplicateSpanWarning)
        counts = match_exact(spans_from_lists(predictions), spans_from_lists(references))
    per = {k: (t.tp, t.predicted, t.gold) for k, t in counts.labels.items()}
    u = counts.untyped
    return per, (u.tp, u.predicted, u.gold)


def one_label_per_bounds(sentence):
    return [(start, end, label) for (start, end), label in sorted({(s, e): lab for s, e, lab in sentence}.items())]


@settings(max_examples=300, deadline=None)
@given(side, side, st.randoms(use_true_random=False))
def test_match_exact_against_sets(predictions, references, rng: random.Random):
    # one label per (start, end), sorted: what decoded flat chunks look like (the one-merge path)
    flat_predictions, flat_references = ([one_label_per_bounds(sent) for sent in x] for x in (predictions, references))
    assert counted(flat_predictions, flat_references) == expected(flat_predictions, flat_references)
    # shuffled, with duplicates and shared bounds: the set path
    shuffled = [rng.sample(sent, len(sent)) for sent in predictions]
    assert counted(shuffled, references) == expected(predictions, references)
