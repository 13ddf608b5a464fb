"""Nested scoring against an independent plain-Python set computation, on hand-made and GENIA data."""
import random
from collections import Counter, defaultdict
from itertools import combinations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from nested_span_f1.core.matching import DuplicateSpanWarning
from nested_span_f1.formats import read_corpus
from nested_span_f1.nested.score import count_nested, score_nested, summarize_nested

LENGTH_NAMES = [(1, 1, "1"), (2, 2, "2"), (3, 3, "3"), (4, 4, "4"), (5, 7, "5-7"), (8, 10**9, "8+")]


def _contains(a, b):
    return a[0] <= b[0] and b[1] <= a[1] and a[:2] != b[:2]


def _sides(predictions, references):
    pred = {(s, b, e, lab) for s, sent in enumerate(predictions) for b, e, lab in sent}
    gold = {(s, b, e, lab) for s, sent in enumerate(references) for b, e, lab in sent}
    return pred, gold


def _bounds_by_sentence(items):
    """The distinct (start, end) of ``items`` in each sentence."""
    bounds = defaultdict(set)
    for s, b, e, _ in items:
        bounds[s].add((b, e))
    return bounds


def _bucket_of(items):
    """Nested flag, depth and length bucket of each item, among ``items`` (distinct boundaries)."""
    bounds = _bounds_by_sentence(items)
    out = {}
    for item in items:
        s, b, e, _ = item
        others = [o for o in bounds[s] if o != (b, e)]
        nested = any(_contains((b, e), o) or _contains(o, (b, e)) for o in others)
        depth = 1 + sum(_contains(o, (b, e)) for o in others)
        length = next(name for lo, hi, name in LENGTH_NAMES if lo <= e - b <= hi)
        out[item] = {"by_nesting": "nested" if nested else "flat", "by_depth": str(depth), "by_length": length}
    return out


def _crossing(items):
    return sum(
        1
        for sentence in _bounds_by_sentence(items).values()
        for x, y in combinations(sorted(sentence), 2)
        if max(x[0], y[0]) < min(x[1], y[1]) and not _contains(x, y) and not _contains(y, x)
    )


def _ratio(a, b):
    return a / b if b else 0.0


def expected_scores(predictions, references):
    """Scores computed with Python sets, independently of the package."""
    pred, gold = _sides(predictions, references)
    tp = pred & gold
    p, r = _ratio(len(tp), len(pred)), _ratio(len(tp), len(gold))
    out = {
        "overall_precision": p, "overall_recall": r, "overall_f1": _ratio(2 * p * r, p + r),
        "tp": len(tp), "fp": len(pred - gold), "fn": len(gold - pred),
        "duplicate_predictions": sum(map(len, predictions)) - len(pred),
        "duplicate_references": sum(map(len, references)) - len(gold),
        "crossing_predictions": _crossing(pred), "crossing_references": _crossing(gold),
    }
    for label in {x[3] for x in pred | gold}:
        lp, lg = {x for x in pred if x[3] == label}, {x for x in gold if x[3] == label}
        out[label] = {"precision": _ratio(len(lp & lg), len(lp)), "recall": _ratio(len(lp & lg), len(lg)),
                      "number": len(lg)}
    pred_bucket, gold_bucket = _bucket_of(pred), _bucket_of(gold)
    for name in ("by_nesting", "by_depth", "by_length"):
        out[name] = {}
        for bucket in {b[name] for b in [*pred_bucket.values(), *gold_bucket.values()]}:
            in_p = {x for x in pred if pred_bucket[x][name] == bucket}
            in_g = {x for x in gold if gold_bucket[x][name] == bucket}
            out[name][bucket] = {"precision": _ratio(len(in_p & gold), len(in_p)),
                                 "recall": _ratio(len(in_g & pred), len(in_g)),
                                 "number": len(in_g), "predicted": len(in_p)}
    return out


def assert_matches(result, expected):
    for key, value in expected.items():
        if isinstance(value, dict) and key.startswith("by_"):
            for bucket, scores in value.items():
                for k, v in scores.items():
                    assert result[key][bucket][k] == pytest.approx(v), (key, bucket, k)
            extra = {b for b, s in result[key].items() if s["number"] or s["predicted"]} - set(value)
            assert not extra, (key, extra)
        elif isinstance(value, dict):
            for k, v in value.items():
                assert result[key][k] == pytest.approx(v), (key, k)
        else:
            assert result[key] == pytest.approx(value), key


def perturb(references, lengths, seed):
    """Predictions made from gold by dropping, shifting, relabelling, adding spurious, duplicate and crossing spans."""
    rng = random.Random(seed)
    labels = sorted({lab for sent in references for _, _, lab in sent}) or ["X"]
    out = []
    for sent, n in zip(references, lengths):
        pred = []
        for b, e, lab in sent:
            roll = rng.random()
            if roll < 0.1:
                continue
            if roll < 0.15 and e < n:
                pred.append((b, e + 1, lab))
            elif roll < 0.2 and e - b > 1:
                pred.append((b + 1, e, lab))
            elif roll < 0.25:
                pred.append((b, e, rng.choice(labels)))
            else:
                pred.append((b, e, lab))
            if roll > 0.95:
                pred.append((b, e, lab))
            if 0.9 < roll <= 0.95 and e - b > 1 and e < n:
                pred.append((b + 1, e + 1, lab))
        if n > 1 and rng.random() < 0.2:
            b = rng.randrange(n - 1)
            pred.append((b, rng.randrange(b + 1, n + 1), rng.choice(labels)))
        rng.shuffle(pred)
        out.append(pred)
    return out


HAND_MADE = {
    "nested-missed": ([[(0, 2, "A")]], [[(0, 2, "A"), (0, 1, "A")]]),
    "two-labels": ([[(0, 2, "A")]], [[(0, 2, "A"), (0, 2, "B")]]),
    "duplicates-both": ([[(0, 2, "A"), (0, 2, "A"), (3, 4, "B")]], [[(0, 2, "A"), (0, 2, "A")]]),
    "crossing": ([[(0, 2, "A"), (1, 3, "A"), (2, 4, "B")]], [[(0, 2, "A"), (1, 3, "A")]]),
    "touching-not-crossing": ([[(0, 2, "A"), (2, 4, "A")]], [[(0, 2, "A")]]),
    "depth-3": ([[(0, 5, "A"), (1, 4, "A")]], [[(0, 5, "A"), (1, 4, "A"), (2, 3, "B")]]),
    "empty": ([[], []], [[], []]),
    "all-spurious": ([[(0, 1, "A")], []], [[], [(0, 9, "B")]]),
}


@pytest.mark.parametrize("predictions, references", HAND_MADE.values(), ids=HAND_MADE.keys())
def test_hand_made_against_sets(warns_if_duplicated, predictions, references):
    with warns_if_duplicated(predictions, references):
        result = score_nested(predictions, references, zero_division=0)
    assert_matches(result, expected_scores(predictions, references))


def test_prediction_bucket_is_computed_among_predictions():
    result = score_nested([[(0, 2, "A")]], [[(0, 2, "A"), (0, 1, "A")]], zero_division=0)
    assert result["by_nesting"]["flat"] == {"precision": 1.0, "recall": 0.0, "f1": 0.0, "number": 0, "predicted": 1}
    assert result["by_nesting"]["nested"]["recall"] == 0.5


def test_duplicates_and_crossing_are_reported():
    with pytest.warns(DuplicateSpanWarning, match="removed 1 duplicate predicted and 0 duplicate reference spans"):
        result = score_nested([[(0, 2, "A"), (0, 2, "A"), (1, 3, "B")]], [[(0, 2, "A")]], zero_division=0)
    assert (result["duplicate_predictions"], result["crossing_predictions"], result["overall_precision"]) == (1, 1, 0.5)


def test_discontinuous_match_only_when_every_fragment_matches():
    gold = [[(((0, 1), (3, 4)), "A"), (((0, 1), (5, 6)), "A")]]
    pred = [[{"fragments": [[3, 4], [0, 1]], "label": "A"}, (((0, 1), (4, 6)), "A")]]
    result = score_nested(pred, gold, lengths=[6], zero_division=0)
    assert (result["tp"], result["fp"], result["fn"]) == (1, 1, 1)
    assert (result["discontinuous_predictions"], result["discontinuous_references"]) == (2, 2)
    assert result["by_continuity"]["discontinuous"]["recall"] == 0.5
    assert result["untyped_f1"] == 0.5


def test_discontinuous_label_and_untyped():
    result = score_nested([[(((0, 1), (3, 4)), "B")]], [[(((0, 1), (3, 4)), "A")]], zero_division=0)
    assert (result["overall_f1"], result["untyped_f1"], result["A"]["number"]) == (0.0, 1.0, 1)


def test_touching_fragments_are_one_span():
    result = score_nested([[(((0, 2), (2, 3)), "A")]], [[(0, 3, "A")]], zero_division=0)
    assert (result["overall_f1"], result["discontinuous_predictions"]) == (1.0, 0)


BAD = {
    "start-equals-end": ((2, 2, "A"), ValueError, r"sentence 0: span \(2, 2, 'A'\) is out of range"),
    "start-after-end": ((3, 2, "A"), ValueError, r"sentence 0: span \(3, 2, 'A'\)"),
    "negative": ((-1, 2, "A"), ValueError, r"sentence 0: span \(-1, 2, 'A'\)"),
    "beyond-sentence": ((0, 9, "A"), ValueError, r"end <= 4 \(the sentence length\)"),
    "missing-key": ({"start": 0, "label": "A"}, ValueError, r"sentence 0: span \{'start': 0, 'label': 'A'\} must have"),
    "float-offset": ((0.0, 2, "A"), TypeError, r"sentence 0: span \(0.0, 2, 'A'\) has non-integer offsets"),
    "string-offset": (("0", 2, "A"), TypeError, r"non-integer offsets"),
    "fragment-overlap": ((((0, 2), (1, 3)), "A"), ValueError, r"sentence 0: entity .* fragments \(0, 2\) and \(1, 3\) overlap"),
    "fragment-beyond": ((((0, 1), (3, 9)), "A"), ValueError, r"fragment \(3, 9\) is out of range"),
    "fragment-float": ((((0, 1), (2.5, 3)), "A"), TypeError, r"pair of integers"),
}


@pytest.mark.parametrize("span, error, message", BAD.values(), ids=BAD.keys())
def test_bad_spans_name_sentence_and_span(span, error, message):
    with pytest.raises(error, match=message):
        score_nested([[span]], [[]], lengths=[4])
    with pytest.raises(error, match=r"^references, sentence 0: "):
        score_nested([[]], [[span]], lengths=[4])


def test_counts_add_across_splits():
    pred = [[(0, 2, "A"), (0, 1, "B")], [(1, 3, "A")], [(((0, 1), (2, 3)), "A")]]
    gold = [[(0, 2, "A")], [(1, 3, "A"), (0, 4, "B")], [(((0, 1), (2, 3)), "A")]]
    whole = count_nested(pred, gold)
    parts = count_nested(pred[:1], gold[:1]) + count_nested(pred[1:], gold[1:])
    assert summarize_nested(whole, 0) == summarize_nested(parts, 0)


def test_genia_perturbed_against_sets(shared_data):
    gold = read_corpus(shared_data / "genia" / "genia-docsplit.test.jsonl")
    references = [list(s) for s in gold.entities]
    for seed in range(3):
        predictions = perturb(references, gold.lengths, seed)
        with pytest.warns(DuplicateSpanWarning):
            result = score_nested(predictions, references, lengths=gold.lengths, zero_division=0)
        expected = expected_scores(predictions, references)
        assert_matches(result, expected)
        assert result["duplicate_predictions"] > 0 and result["crossing_predictions"] > 0


spans = st.lists(
    st.tuples(st.integers(0, 6), st.integers(1, 4), st.sampled_from("AB")).map(lambda t: (t[0], t[0] + t[1], t[2])),
    max_size=5,
)
corpora = st.lists(st.tuples(spans, spans), min_size=1, max_size=4)


@given(corpora)
def test_random_against_sets(warns_if_duplicated, pairs):
    predictions, references = [p for p, _ in pairs], [g for _, g in pairs]
    with warns_if_duplicated(predictions, references):
        result = score_nested(predictions, references, zero_division=0)
    assert_matches(result, expected_scores(predictions, references))


@given(corpora)
def test_perfect_and_order_invariant(warns_if_duplicated, pairs):
    references = [g for _, g in pairs]
    predictions = [p for p, _ in pairs]
    with warns_if_duplicated(references, predictions):
        if any(references):
            assert score_nested(references, references)["overall_f1"] == 1.0
        shuffled = [list(reversed(p)) for p in predictions]
        assert score_nested(shuffled, references, zero_division=0) == score_nested(predictions, references, zero_division=0)


def test_counter_of_labels_matches_number():
    references = [[(0, 2, "A"), (0, 2, "B"), (3, 4, "A")]]
    result = score_nested(references, references)
    assert {k: result[k]["number"] for k in "AB"} == Counter(lab for _, _, lab in references[0])
