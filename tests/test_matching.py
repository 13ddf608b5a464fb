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


# ---- count_missing: chunks of one decode that another decode lacks, per side

TAGS = ("O", "B-A", "I-A", "B-B", "I-B")
chunk_list = st.lists(st.tuples(st.integers(0, 19), st.integers(1, 3), st.integers(0, 19)), max_size=8)


def _layout():
    from nested_span_f1.decoding import layout
    from nested_span_f1.pair_encoding import encode_pair, whole
    from nested_span_f1.tag_parsing import parse_tags

    # ten sentences of one token each: padded positions 1, 3, ..., 19 hold the tags
    sentences = [[TAGS[i % len(TAGS)]] for i in range(10)]
    pred, _ = whole(encode_pair(sentences, sentences))
    return layout((pred,), parse_tags(pred.tags)[0])


@settings(max_examples=300, deadline=None)
@given(chunk_list, chunk_list, st.integers(0, 21), st.booleans())
def test_count_missing_equals_set_difference(kept, other, first_reference, in_order):
    """Increasing begins take the search path, anything else the set path; both equal Python sets."""
    import numpy as np

    from nested_span_f1.decoding import count_missing

    lay = _layout()
    if in_order:  # one chunk a begin, as decoded flat chunks are
        kept = list({b: (b, n, at) for b, n, at in kept}.values())
        other = list({b: (b, n, at) for b, n, at in other}.values())
    kept, other = sorted(kept), sorted(other)

    def arrays(chunks):
        begin = np.array([b for b, _, _ in chunks], dtype=np.int64)
        return (begin, begin + np.array([n for _, n, _ in chunks], dtype=np.int64)), np.array(
            [at for _, _, at in chunks], dtype=np.int64)

    (kept_bounds, kept_at), (other_bounds, other_at) = arrays(kept), arrays(other)
    type_of = lay.parsed.type_id[lay.padded]
    rows = [{(b, b + n, int(type_of[at])) for b, n, at in chunks} for chunks in (kept, other)]
    missing = rows[0] - rows[1]
    predicted = sum(b < first_reference for b, _, _ in missing)
    assert count_missing(lay, kept_bounds, kept_at, other_bounds, other_at, [first_reference]) == (
        predicted, len(missing) - predicted)
    # more sides: a count per group between the cuts
    cuts = [first_reference // 2, first_reference]
    groups = [sum(lo <= b < hi for b, _, _ in missing) for lo, hi in zip([0, *cuts], [*cuts, 10**9])]
    assert count_missing(lay, kept_bounds, kept_at, other_bounds, other_at, cuts) == tuple(groups)
