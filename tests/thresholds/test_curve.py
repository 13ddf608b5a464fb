"""The threshold curve equals re-scoring at every distinct threshold with the existing scorers, ties and duplicates
included, for the exact, nested and lenient metrics and for flat decoding; average precision equals scikit-learn's."""
import warnings
from fractions import Fraction

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st

from nested_span_f1 import score_lenient, score_nested, summarize
from nested_span_f1.core.matching import DuplicateSpanWarning, match_exact
from nested_span_f1.core.scores import UndefinedMetricWarning, curve_scores, precision_recall_f1
from nested_span_f1.core.spans import spans_from_lists
from nested_span_f1.thresholds import apply_thresholds, scored_pair, threshold_curve

sklearn_metrics = pytest.importorskip("sklearn.metrics")

LABELS = ("A", "B", "C")
SCORES = (0.1, 0.25, 0.5, 0.5, 0.75, 0.9, 1.0, -1.5, 3.0)
"""Few values, so that ties are common; logits outside [0, 1] too."""


def span(length):
    return st.tuples(st.integers(0, length - 1), st.integers(1, length), st.sampled_from(LABELS)).filter(
        lambda s: s[0] < s[1])


@st.composite
def scored_sets(draw, max_sentences=4, length=8):
    """Gold and scored predictions of a few nested sentences: overlaps, duplicates (a span twice, with two scores)
    and the same boundaries with two labels all drawn often."""
    n = draw(st.integers(1, max_sentences))
    gold, pred = [], []
    for _ in range(n):
        g = draw(st.lists(span(length), max_size=6))
        copied = draw(st.lists(st.sampled_from(g), max_size=4)) if g else []
        p = draw(st.lists(span(length), max_size=8)) + copied
        gold.append(g)
        pred.append([(*s, draw(st.sampled_from(SCORES))) for s in p])
    return gold, pred


def flat_decoded(sentences):
    """The plain greedy decoding, written apart from the package's: per sentence, the spans in decreasing score
    (ties: start, end, label), each kept when it shares no token with a span kept before it; a span listed twice
    counts at its higher score."""
    out = []
    for spans in sentences:
        best = {}
        for s, e, lab, score in spans:
            best[s, e, lab] = max(score, best.get((s, e, lab), score))
        kept = []
        for (s, e, lab), _ in sorted(best.items(), key=lambda item: (-item[1], item[0])):
            if all(e <= a or b <= s for a, b, _ in kept):
                kept.append((s, e, lab))
        out.append(kept)
    return out


def rescored(gold, pred, threshold, metric, decode):
    """tp, fp, fn, P, R, F1 overall and per label of the spans kept at ``threshold``, by the existing scorers."""
    kept = [[s for s in spans if s[3] >= threshold] for spans in pred]
    if decode == "flat":
        plain = flat_decoded(kept)
    else:
        plain = [[s[:3] for s in spans] for spans in kept]
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", DuplicateSpanWarning)
        if metric == "lenient":
            r = score_lenient(plain, gold, zero_division=0)
            overall = (r["type_correct"], r["type_actual"] - r["type_correct"], r["type_possible"] - r["type_correct"],
                       r["type_precision"], r["type_recall"], r["type_f1"])
            per = {lab: (row["type"]["correct"], row["type"]["actual"] - row["type"]["correct"],
                         row["type"]["possible"] - row["type"]["correct"], row["type"]["precision"],
                         row["type"]["recall"], row["type"]["f1"]) for lab, row in r["per_type"].items()}
            return overall, per
        if metric == "nested":
            r = score_nested(plain, gold, zero_division=0)
        else:  # the one exact matcher and summarize, as the flat metric scores decoded chunks
            r = summarize(match_exact(spans_from_lists(plain), spans_from_lists(gold)).counts(), zero_division=0)
    overall = (r["tp"], r["fp"], r["fn"], r["overall_precision"], r["overall_recall"], r["overall_f1"])
    counts = {}
    for lab in LABELS:
        if lab in r:
            tp = sum(1 for spans, g in zip(plain, gold) for s in set(spans) if s[2] == lab and s in set(g))
            predicted = sum(1 for spans in plain for s in set(spans) if s[2] == lab)
            counts[lab] = (tp, predicted - tp, r[lab]["number"] - tp, r[lab]["precision"], r[lab]["recall"],
                           r[lab]["f1"])
    return overall, counts


def point_at(curve, threshold):
    """The curve's counts at any threshold: its point at the least curve threshold at or above it (nothing kept
    above the highest)."""
    at = [k for k, t in enumerate(curve.thresholds.tolist()) if t >= threshold]
    if not at:
        return 0, 0, curve.gold
    k = at[-1]
    return int(curve.tp[k]), int(curve.fp[k]), int(curve.fn[k])


@pytest.mark.parametrize("decode", ["nested", "flat"])
@pytest.mark.parametrize("metric", ["exact", "nested", "lenient"])
@given(data=scored_sets())
def test_the_curve_is_rescoring_at_every_distinct_threshold(metric, decode, data):
    gold, pred = data
    curve = threshold_curve(gold, pred, metric=metric, decode=decode, zero_division=0) if not any(
        len(set(map(tuple, map(lambda s: s[:3], p)))) < len(p) or len(set(g)) < len(g) for p, g in zip(pred, gold)) \
        else _quiet(threshold_curve, gold, pred, metric=metric, decode=decode, zero_division=0)
    every = sorted({s[3] for spans in pred for s in spans}, reverse=True)
    if decode == "nested":  # a span listed twice counts at its higher score: the lower one is no threshold
        assert curve.thresholds.tolist() == sorted(set(hits_and_scores((gold, pred))[1].tolist()), reverse=True)
    else:  # the decoded output's own scores: a threshold whose spans all lose to higher ones changes nothing
        assert set(curve.thresholds.tolist()) <= set(every)
    for threshold in every:
        overall, per = rescored(gold, pred, threshold, metric, decode)
        assert point_at(curve, threshold) == overall[:3]
        if threshold in curve.thresholds:
            k = curve.thresholds.tolist().index(threshold)
            assert (curve.precision[k], curve.recall[k], curve.f1[k]) == overall[3:]
        for label, expected in per.items():
            assert point_at(curve.per_type[label], threshold) == expected[:3], (label, threshold)
            thresholds = curve.per_type[label].thresholds.tolist()
            if threshold in thresholds:
                k = thresholds.index(threshold)
                typed = curve.per_type[label]
                assert (typed.precision[k], typed.recall[k], typed.f1[k]) == expected[3:]
    # the figures at one chosen threshold, through the scorer, are the curve's
    pair = scored_pair(gold, pred)
    for threshold in every[:3]:
        applied = apply_thresholds(pair, threshold, metric=metric, decode=decode)
        assert (applied["tp"], applied["fp"], applied["fn"]) == point_at(curve, threshold)


def _quiet(call, *args, **kwargs):
    with pytest.warns(DuplicateSpanWarning):
        return call(*args, **kwargs)


def hits_and_scores(curve_input):
    """The distinct predictions' hit flags and (highest) scores, as scikit-learn takes them."""
    gold, pred = curve_input
    best = {}
    for s, p in enumerate(pred):
        for start, end, lab, score in p:
            key = (s, start, end, lab)
            best[key] = max(score, best.get(key, score))
    golds = {(s, *x) for s, g in enumerate(gold) for x in g}
    keys = sorted(best)
    return np.array([k in golds for k in keys], dtype=int), np.array([best[k] for k in keys]), len(golds)


@given(data=scored_sets())
def test_average_precision_is_scikit_learns_when_every_gold_span_is_found(data):
    gold, pred = data
    # the gold is the predicted spans it shares with a random gold, so that every gold span can be found
    predicted = [{s[:3] for s in p} for p in pred]
    gold = [sorted(set(g) & found) for g, found in zip(gold, predicted)]
    hit, scores, n_gold = hits_and_scores((gold, pred))
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", DuplicateSpanWarning)
        curve = threshold_curve(gold, pred, zero_division=0)
    if n_gold == 0 or hit.all():
        return  # scikit-learn needs both kinds of sample (without gold AP is zero_division)
    assert curve.average_precision == sklearn_metrics.average_precision_score(hit, scores)


@given(data=scored_sets())
def test_average_precision_with_gold_never_found_is_the_area_up_to_the_last_recall(data):
    """Recall counts every gold span, so the curve stops below recall 1: the area is scikit-learn's over the
    spans found, times the share of the gold found (to the last bit where both are exact fractions)."""
    gold, pred = data
    hit, scores, n_gold = hits_and_scores((gold, pred))
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", DuplicateSpanWarning)
        curve = threshold_curve(gold, pred, zero_division=0)
    if n_gold == 0:
        assert curve.average_precision == 0.0
        return
    exact = sum((Fraction(int(t1) - int(t0), n_gold) * Fraction(int(t1) + int(f1) and int(t1), int(t1) + int(f1))
                 for t0, t1, f1 in zip([0, *curve.tp[:-1]], curve.tp, curve.fp)), Fraction(0))
    assert curve.average_precision == pytest.approx(float(exact), rel=1e-12, abs=1e-15)
    if 0 < hit.sum() < len(hit):
        found = hit.sum() / n_gold
        assert curve.average_precision == pytest.approx(sklearn_metrics.average_precision_score(hit, scores) * found,
                                                        rel=1e-12)


def test_curve_scores_are_the_plain_scores_of_the_same_counts():
    tp, predicted, gold = np.array([0, 1, 1, 2, 3, 3]), np.array([1, 2, 3, 4, 7, 9]), 5
    p, r, f = curve_scores(tp, predicted, gold)
    plain = precision_recall_f1(tp.tolist(), predicted.tolist(), tp.tolist(), [gold] * len(tp), zero_division=0)
    assert (p.tolist(), r.tolist(), f.tolist()) == plain
    p, r, f = curve_scores(tp[:1], predicted[:1], 0, 1)
    assert (p.tolist(), r.tolist(), f.tolist()) == precision_recall_f1([0], [1], [0], [0], zero_division=1)


def test_a_worked_example_by_hand():
    gold = [[(0, 2, "PER"), (3, 4, "LOC")], [(0, 1, "PER")]]
    pred = [[(0, 2, "PER", 0.9), (3, 4, "ORG", 0.8), (3, 4, "LOC", 0.4)], [(0, 1, "PER", 0.8), (1, 2, "PER", 0.2)]]
    with pytest.warns(UndefinedMetricWarning, match="the gold has none of 1 predicted label: 'ORG'"):
        curve = threshold_curve(gold, pred)
    assert curve.to_dict()["curve"] == [
        {"threshold": 0.9, "precision": 1.0, "recall": 1 / 3, "f1": 0.5, "tp": 1, "fp": 0, "fn": 2},
        {"threshold": 0.8, "precision": 2 / 3, "recall": 2 / 3, "f1": 2 / 3, "tp": 2, "fp": 1, "fn": 1},
        {"threshold": 0.4, "precision": 0.75, "recall": 1.0, "f1": 0.8571428571428571, "tp": 3, "fp": 1, "fn": 0},
        {"threshold": 0.2, "precision": 0.6, "recall": 1.0, "f1": 0.7499999999999999, "tp": 3, "fp": 2, "fn": 0},
    ]
    assert curve.best == {"threshold": 0.4, "precision": 0.75, "recall": 1.0, "f1": 0.8571428571428571}
    # AP: recall rises by 1/3 at precision 1, by 1/3 at 2/3 and by 1/3 at 3/4 (29/36), as scikit-learn sums it
    assert curve.average_precision == 0.8055555555555556 == sklearn_metrics.average_precision_score(
        [1, 0, 1, 1, 0], [0.9, 0.8, 0.4, 0.8, 0.2])
    assert curve.per_type["PER"].to_dict()["curve"] == [
        {"threshold": 0.9, "precision": 1.0, "recall": 0.5, "f1": 0.6666666666666666, "tp": 1, "fp": 0, "fn": 1},
        {"threshold": 0.8, "precision": 1.0, "recall": 1.0, "f1": 1.0, "tp": 2, "fp": 0, "fn": 0},
        {"threshold": 0.2, "precision": 2 / 3, "recall": 1.0, "f1": 0.8, "tp": 2, "fp": 1, "fn": 0},
    ]
    assert (curve.per_type["ORG"].gold, curve.per_type["ORG"].average_precision) == (0, 0.0)
    assert curve.per_type["LOC"].best == {"threshold": 0.4, "precision": 1.0, "recall": 1.0, "f1": 1.0}


def test_scores_given_beside_plain_spans_and_dicts_are_the_same_curve():
    gold = [[(0, 2, "PER")]]
    tuples = threshold_curve(gold, [[(0, 2, "PER", 0.7), (2, 3, "PER", 0.9)]])
    beside = threshold_curve(gold, [[(0, 2, "PER"), (2, 3, "PER")]], scores=[[0.7, 0.9]])
    dicts = threshold_curve(gold, [[{"start": 0, "end": 2, "label": "PER", "score": 0.7},
                                    {"start": 2, "end": 3, "label": "PER", "score": 0.9}]])
    assert tuples.to_dict() == beside.to_dict() == dicts.to_dict()


def test_lenient_matching_that_moves_a_gold_span_is_counted_exactly():
    """Gold A[0,2) and A[2,4); a prediction A[1,3) of score 0.9 takes either, A[0,1) (0.5) then overlaps only the
    first: the matching moves A[1,3) to the second gold span, 2 correct. A greedy pairing kept at 1."""
    gold = [[(0, 2, "A"), (2, 4, "A")]]
    pred = [[(1, 3, "A", 0.9), (0, 1, "A", 0.5)]]
    curve = threshold_curve(gold, pred, metric="lenient")
    assert (curve.thresholds.tolist(), curve.tp.tolist()) == ([0.9, 0.5], [1, 2])
    assert score_lenient([[(1, 3, "A"), (0, 1, "A")]], gold)["type_correct"] == 2


def test_flat_decoding_keeps_the_highest_scoring_spans_that_do_not_overlap():
    gold = [[(0, 3, "ORG"), (1, 2, "PER")]]
    # (1, 2) PER loses to the wider ORG span of higher score; at 0.6 it is kept by nested decoding
    pred = [[(0, 3, "ORG", 0.8), (1, 2, "PER", 0.6), (3, 4, "LOC", 0.6)]]
    nested = threshold_curve(gold, pred, zero_division=0)
    flat = threshold_curve(gold, pred, decode="flat", zero_division=0)
    assert (nested.tp.tolist(), nested.predicted.tolist()) == ([1, 2], [1, 3])
    assert (flat.tp.tolist(), flat.predicted.tolist(), flat.notes["flat_decoding_left_out"]) == ([1, 1], [1, 2], 1)


def test_without_gold_recall_and_average_precision_take_zero_division():
    with pytest.warns(UndefinedMetricWarning, match="no gold span"):
        curve = threshold_curve([[]], [[(0, 1, "A", 0.5)]])
    assert (curve.recall.tolist(), curve.average_precision) == ([0.0], 0.0)
    curve = threshold_curve([[]], [[(0, 1, "A", 0.5)]], zero_division=1)
    assert (curve.recall.tolist(), curve.average_precision, curve.f1.tolist()) == ([1.0], 1.0, [0.0])


def test_nothing_predicted_has_no_best_and_an_area_of_zero():
    curve = threshold_curve([[(0, 1, "A")]], [[]], scores=[[]], zero_division=0)
    assert (len(curve), curve.best, curve.average_precision) == (0, None, 0.0)
    assert curve.to_dict()["per_type"] == {"A": {"curve": [], "best": None, "average_precision": 0.0, "number": 1,
                                                 "predicted": 0, "predicted_at_best": None, "thresholds": 0,
                                                 "lowest_score": None, "best_near_cut": False}}


def test_discontinuous_entities_count_as_the_nested_metric_counts_them():
    gold = [[(((0, 1), (2, 3)), "X"), (0, 3, "X")]]
    entities = [[(((0, 1), (2, 3)), "X"), (((0, 1), (1, 2)), "X"), (0, 3, "X")]]  # the second merges into (0, 2)
    curve = threshold_curve(gold, entities, scores=[[0.9, 0.7, 0.4]])
    for threshold, expected in ((0.9, (1, 0, 1)), (0.7, (1, 1, 1)), (0.4, (2, 1, 0))):
        kept = [[e for e, s in zip(entities[0], (0.9, 0.7, 0.4)) if s >= threshold]]
        r = score_nested(kept, gold, zero_division=0)
        assert point_at(curve, threshold) == expected == (r["tp"], r["fp"], r["fn"])
    with pytest.raises(ValueError, match=r"predictions, sentence 0: entity .* is discontinuous; the lenient metric"):
        threshold_curve(gold, entities, scores=[[0.9, 0.7, 0.4]], metric="lenient")
