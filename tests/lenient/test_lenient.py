"""The lenient metric: worked examples, a brute-force reference, invariants, counts, errors."""
import json
import random
from fractions import Fraction

import pytest
from hypothesis import given
from hypothesis import strategies as st

from nested_span_f1 import score_exact
from nested_span_f1.core.matching import DuplicateSpanWarning
from nested_span_f1.core.scores import UndefinedMetricWarning
from nested_span_f1.lenient.counts import LenientCounts
from nested_span_f1.lenient.matching import max_weight_matching
from nested_span_f1.lenient.score import count_lenient, score_lenient

SCHEMES = ("strict", "exact", "partial", "type")
COUNTS = ("correct", "incorrect", "partial", "missed", "spurious", "possible", "actual")


def scheme_counts(result, scheme):
    return {key: result[f"{scheme}_{key}"] for key in COUNTS}


# --- the textbook example -------------------------------------------------------------

GOLD = [[(0, 2, "PER"), (3, 4, "ORG"), (6, 7, "LOC"), (9, 11, "DATE")]]
SYSTEM_A = [[(0, 2, "PER"), (3, 4, "PER"), (6, 7, "LOC")]]
SYSTEM_B = [[(0, 2, "PER"), (3, 4, "ORG"), (6, 7, "LOC"), (9, 10, "DATE")]]


def test_textbook_system_a():
    # Pairs: PER(0,2)=PER(0,2) exact; ORG(3,4) vs PER(3,4) same boundaries, other label;
    # LOC(6,7) exact; DATE(9,11) has no prediction. POS = 4, ACT = 3.
    r = score_lenient(SYSTEM_A, GOLD, zero_division=0)
    # strict: the ORG/PER pair is INC -> COR 2, INC 1, MIS 1; P = 2/3, R = 2/4, F1 = 4/7
    assert scheme_counts(r, "strict") == {"correct": 2, "incorrect": 1, "partial": 0, "missed": 1, "spurious": 0, "possible": 4, "actual": 3}
    assert (r["strict_precision"], r["strict_recall"]) == (2 / 3, 0.5)
    assert r["strict_f1"] == pytest.approx(4 / 7)
    # exact: boundaries only, so ORG/PER is COR -> COR 3, MIS 1; P = 1, R = 3/4, F1 = 6/7
    assert scheme_counts(r, "exact") == {"correct": 3, "incorrect": 0, "partial": 0, "missed": 1, "spurious": 0, "possible": 4, "actual": 3}
    assert (r["exact_precision"], r["exact_recall"]) == (1.0, 0.75)
    assert r["exact_f1"] == pytest.approx(6 / 7)
    # partial: the same as exact here (no pair with other boundaries) -> P = 1, R = 3/4
    assert scheme_counts(r, "partial") == scheme_counts(r, "exact")
    assert (r["partial_precision"], r["partial_recall"]) == (1.0, 0.75)
    # type: the ORG/PER pair overlaps with the wrong type -> INC; COR 2, INC 1, MIS 1 as strict
    assert scheme_counts(r, "type") == scheme_counts(r, "strict")
    assert r["type_f1"] == pytest.approx(4 / 7)
    # breakdown: 2 correct, 1 type error (ORG read as PER), DATE missed
    assert [r[k] for k in ("correct", "type_error", "boundary_error", "boundary_type_error", "missed", "spurious")] == [2, 1, 0, 0, 1, 0]
    assert r["confusion"] == {"LOC": {"LOC": 1}, "ORG": {"PER": 1}, "PER": {"PER": 1}}
    # per type, recall is by gold label and precision by predicted label: the ORG span's INC
    # is ORG's (recall side), the PER prediction's INC is PER's (precision side)
    assert r["per_type"]["ORG"]["strict"]["incorrect"] == 1
    assert r["per_type"]["PER"]["strict"]["predicted_incorrect"] == 1
    assert r["per_type"]["PER"]["strict"]["precision"] == 0.5  # 1 COR of 2 PER predictions
    assert r["per_type"]["PER"]["strict"]["recall"] == 1.0  # the one PER gold span is COR


def test_textbook_system_b():
    # Pairs: PER, ORG, LOC exact; DATE(9,11) vs DATE(9,10) overlap, same label. POS = ACT = 4.
    r = score_lenient(SYSTEM_B, GOLD)
    # strict: 3 COR, the DATE pair INC -> P = R = F1 = 3/4
    assert scheme_counts(r, "strict") == {"correct": 3, "incorrect": 1, "partial": 0, "missed": 0, "spurious": 0, "possible": 4, "actual": 4}
    assert (r["strict_precision"], r["strict_recall"], r["strict_f1"]) == (0.75, 0.75, 0.75)
    # exact: the DATE boundaries differ -> INC, as strict
    assert scheme_counts(r, "exact") == scheme_counts(r, "strict")
    assert r["exact_f1"] == 0.75
    # partial: the DATE pair is PAR -> (3 + 0.5 * 1) / 4 = 0.875
    assert scheme_counts(r, "partial") == {"correct": 3, "incorrect": 0, "partial": 1, "missed": 0, "spurious": 0, "possible": 4, "actual": 4}
    assert (r["partial_precision"], r["partial_recall"], r["partial_f1"]) == (0.875, 0.875, 0.875)
    # type: overlap with the right type is COR -> 4 COR, 1.0
    assert scheme_counts(r, "type") == {"correct": 4, "incorrect": 0, "partial": 0, "missed": 0, "spurious": 0, "possible": 4, "actual": 4}
    assert r["type_f1"] == 1.0
    assert [r[k] for k in ("correct", "type_error", "boundary_error", "boundary_type_error", "missed", "spurious")] == [3, 0, 1, 0, 0, 0]


# --- cases where greedy matching in input order goes wrong ---------------------------

def test_exact_match_not_lost_to_an_earlier_near_miss():
    # nervaluate 1.2.1 (predictions in this order) strict: COR 0, INC 1, SPU 1 -- the near miss
    # takes the gold span first; listed the other way round it gives COR 1, SPU 1.
    r = score_lenient([[(0, 2, "PER"), (0, 3, "PER")]], [[(0, 3, "PER")]])
    assert scheme_counts(r, "strict") == {"correct": 1, "incorrect": 0, "partial": 0, "missed": 0, "spurious": 1, "possible": 1, "actual": 2}
    assert scheme_counts(r, "partial") == {"correct": 1, "incorrect": 0, "partial": 0, "missed": 0, "spurious": 1, "possible": 1, "actual": 2}


def test_partial_pairs_each_gold_with_its_best_prediction():
    # nervaluate 1.2.1 partial: COR 0, PAR 1, MIS 1, SPU 1 -- the first prediction takes the first
    # gold span it overlaps (2,4), and the exact prediction (2,4) is then spurious.
    r = score_lenient([[(1, 3, "A"), (2, 4, "A")]], [[(2, 4, "A"), (0, 2, "A")]])
    assert scheme_counts(r, "partial") == {"correct": 1, "incorrect": 0, "partial": 1, "missed": 0, "spurious": 0, "possible": 2, "actual": 2}
    assert r["partial_f1"] == 0.75


def test_type_scheme_is_not_solved_by_taking_exact_pairs_first():
    # docs/DESIGN.md, 'The optimal matching': the optimum pairs each gold span with the other prediction.
    # nervaluate 1.2.1 ent_type: COR 1, MIS 1, SPU 1.
    r = score_lenient([[(0, 2, "PER"), (1, 3, "PER")]], [[(0, 2, "PER"), (0, 1, "PER")]])
    assert scheme_counts(r, "type") == {"correct": 2, "incorrect": 0, "partial": 0, "missed": 0, "spurious": 0, "possible": 2, "actual": 2}
    # strict keeps the exact pair (1 COR beats 2 INC); (0,1) and (1,3) do not overlap
    assert scheme_counts(r, "strict") == {"correct": 1, "incorrect": 0, "partial": 0, "missed": 1, "spurious": 1, "possible": 2, "actual": 2}
    # so does the canonical matching (correct pairs first)
    assert (r["correct"], r["boundary_error"], r["missed"], r["spurious"]) == (1, 0, 1, 1)


def test_per_type_counts_add_up_with_cross_type_pairs():
    # nervaluate 1.2.1 overall strict: INC 1; its per-type strict: PER MIS 1, LOC SPU 1 (INC 0),
    # so per-type counts do not sum to the overall ones.
    r = score_lenient([[(0, 2, "LOC")]], [[(0, 2, "PER")]], zero_division=0)
    assert r["strict_incorrect"] == 1
    assert r["per_type"]["PER"]["strict"]["incorrect"] == 1
    assert r["per_type"]["PER"]["strict"]["missed"] == 0
    assert r["per_type"]["LOC"]["strict"]["predicted_incorrect"] == 1
    assert r["per_type"]["LOC"]["strict"]["spurious"] == 0


def test_near_miss_counts_as_incorrect_not_missed_and_spurious():
    r = score_lenient([[(0, 3, "ORG")]], [[(0, 2, "PER")]], zero_division=0)
    assert scheme_counts(r, "strict") == {"correct": 0, "incorrect": 1, "partial": 0, "missed": 0, "spurious": 0, "possible": 1, "actual": 1}
    assert r["boundary_type_error"] == 1


@pytest.mark.parametrize(
    "weight, partial, correct",
    [
        # gold A(0,2) A(1,3), predictions A(0,2) (overlaps both) and A(0,1) (overlaps the first):
        # one COR (and a MIS and a SPU) against two PAR; the tie at w = 0.5 goes to more COR
        pytest.param(0.4, 0, 1, id="w0.4-one-correct"),
        pytest.param(0.5, 0, 1, id="w0.5-tie-prefers-correct"),
        pytest.param(0.6, 2, 0, id="w0.6-two-partial"),
    ],
)
def test_partial_weight_decides_the_partial_matching(weight, partial, correct):
    r = score_lenient([[(0, 2, "A"), (0, 1, "A")]], [[(0, 2, "A"), (1, 3, "A")]], partial_weight=weight)
    assert (r["partial_correct"], r["partial_partial"]) == (correct, partial)


# --- brute force ----------------------------------------------------------------------

KIND_SCHEME = {
    # outcome of a matched pair by (same boundaries, same label)
    "strict": {(True, True): "C", (True, False): "I", (False, True): "I", (False, False): "I"},
    "exact": {(True, True): "C", (True, False): "C", (False, True): "I", (False, False): "I"},
    "partial": {(True, True): "C", (True, False): "C", (False, True): "P", (False, False): "P"},
    "type": {(True, True): "C", (True, False): "I", (False, True): "C", (False, False): "I"},
}


def _iou_ok(g, p, min_iou):
    shared = min(g[1], p[1]) - max(g[0], p[0])
    if shared <= 0:
        return False
    return min_iou is None or shared / (g[1] - g[0] + p[1] - p[0] - shared) >= min_iou


def _matchings(gold, pred, min_iou):
    """Every one-to-one matching of overlapping pairs, as lists of (g, p) index pairs."""
    out = []

    def extend(i, used, current):
        if i == len(gold):
            out.append(list(current))
            return
        extend(i + 1, used, current)
        for j, p in enumerate(pred):
            if j not in used and _iou_ok(gold[i], p, min_iou):
                current.append((i, j))
                extend(i + 1, used | {j}, current)
                current.pop()

    extend(0, frozenset(), [])
    return out


def brute_force(predictions, references, weight, min_iou):
    """Per scheme (COR, INC, PAR, MIS, SPU) and the breakdown, by trying every matching."""
    w = Fraction(weight)
    totals = {s: [0, 0, 0, 0, 0] for s in SCHEMES}
    breakdown = [0, 0, 0, 0, 0, 0]
    for pred, gold in zip(predictions, references):
        gold, pred = sorted(set(gold)), sorted(set(pred))
        options = _matchings(gold, pred, min_iou)
        for scheme in SCHEMES:
            def key(matching, scheme=scheme, gold=gold, pred=pred):
                kinds = [KIND_SCHEME[scheme][(gold[g][:2] == pred[p][:2], gold[g][2] == pred[p][2])] for g, p in matching]
                return (kinds.count("C") + w * kinds.count("P"), kinds.count("C"), len(matching))
            best = max(options, key=key)
            kinds = [KIND_SCHEME[scheme][(gold[g][:2] == pred[p][:2], gold[g][2] == pred[p][2])] for g, p in best]
            row = [kinds.count("C"), kinds.count("I"), kinds.count("P"), len(gold) - len(best), len(pred) - len(best)]
            totals[scheme] = [a + b for a, b in zip(totals[scheme], row)]

        def canonical(matching, gold=gold, pred=pred):
            same = [(gold[g][:2] == pred[p][:2], gold[g][2] == pred[p][2]) for g, p in matching]
            return (same.count((True, True)), sum(b for b, _ in same), sum(lab for _, lab in same), len(matching))

        best = max(options, key=canonical)
        same = [(gold[g][:2] == pred[p][:2], gold[g][2] == pred[p][2]) for g, p in best]
        row = [same.count(k) for k in ((True, True), (True, False), (False, True), (False, False))]
        row += [len(gold) - len(best), len(pred) - len(best)]
        breakdown = [a + b for a, b in zip(breakdown, row)]
    return totals, breakdown


span = st.tuples(st.integers(0, 7), st.integers(1, 4), st.sampled_from("ABC")).map(lambda t: (t[0], t[0] + t[1], t[2]))
sentence = st.lists(span, max_size=5)
document = st.integers(1, 3).flatmap(lambda n: st.tuples(st.lists(sentence, min_size=n, max_size=n), st.lists(sentence, min_size=n, max_size=n)))


@given(document, st.sampled_from([0.0, 0.25, 0.5, 0.75, 1.0]), st.sampled_from([None, 0.3, 0.5]))
def test_optimal_matching_equals_brute_force(warns_if_duplicated, doc, weight, min_iou):
    predictions, references = doc
    with warns_if_duplicated(predictions, references):
        r = score_lenient(predictions, references, partial_weight=weight, min_iou=min_iou, zero_division=0)
    totals, breakdown = brute_force(predictions, references, weight, min_iou)
    for scheme in SCHEMES:
        got = [r[f"{scheme}_{k}"] for k in ("correct", "incorrect", "partial", "missed", "spurious")]
        assert got == totals[scheme], scheme
    assert [r[k] for k in ("correct", "type_error", "boundary_error", "boundary_type_error", "missed", "spurious")] == breakdown


def _best_total(weight, row=0, used=frozenset()):
    if row == len(weight):
        return 0
    best = _best_total(weight, row + 1, used)
    for col, value in enumerate(weight[row]):
        if value > 0 and col not in used:
            best = max(best, value + _best_total(weight, row + 1, used | {col}))
    return best


@given(st.integers(1, 6), st.integers(1, 6), st.data())
def test_assignment_solver_equals_brute_force(rows, cols, data):
    # big weights, as the packed lexicographic levels are; 0 means no edge
    values = st.one_of(st.just(0), st.integers(1, 10**30))
    weight = [[data.draw(values) for _ in range(cols)] for _ in range(rows)]
    pairs = max_weight_matching(weight)
    assert sum(weight[r][c] for r, c in pairs) == _best_total(weight)
    assert len({r for r, _ in pairs}) == len({c for _, c in pairs}) == len(pairs)
    assert all(weight[r][c] > 0 for r, c in pairs)


# --- character spans over texts of tokens: the tie-break counts tokens -----------------------

def test_a_tie_between_words_is_settled_by_shared_words_not_characters():
    """'Florence Masnada' (CoNLL-2003): gold LOC 'Florence' and PER 'Masnada', predicted PER 'Florence Masnada'.
    Strict pairs the prediction with either gold span (both INC); in tokens the two pairs share one token each,
    in characters 8 and 7. Given the words as units, the character spans match as the token spans do."""
    tokens = score_lenient([[(0, 2, "PER")]], [[(0, 1, "LOC"), (1, 2, "PER")]], zero_division=0, return_errors=True)
    words = [[(0, 8), (9, 16)]]
    characters = score_lenient([[(0, 16, "PER")]], [[(0, 8, "LOC"), (9, 16, "PER")]], zero_division=0, units=words,
                               return_errors=True)
    assert characters["per_type"] == tokens["per_type"] and characters["confusion"] == tokens["confusion"]
    assert characters["per_type"]["PER"]["strict"]["incorrect"] == 1 == tokens["per_type"]["PER"]["strict"]["incorrect"]
    assert [error[1][2] for error in characters["errors"]] == [error[1][2] for error in tokens["errors"]]


def _in_characters(side, offsets):
    return [[(offsets[s][start][0], offsets[s][end - 1][1], label) for start, end, label in spans]
            for s, spans in enumerate(side)]


@given(document, st.lists(st.lists(st.integers(1, 4), min_size=11, max_size=11), min_size=3, max_size=3),
       st.sampled_from([0.0, 0.5, 1.0]))
def test_character_spans_with_their_tokens_as_units_score_as_token_spans(warns_if_duplicated, doc, widths, weight):
    """Tokens of random widths joined by single spaces: token spans turned into character spans and scored with
    the tokens as units give every number of the token spans, per type and confusion included."""
    predictions, references = doc
    offsets = []
    for row in widths:
        starts = [sum(row[:k]) + k for k in range(len(row))]
        offsets.append([(start, start + width) for start, width in zip(starts, row)])
    offsets = offsets[:len(references)]
    with warns_if_duplicated(predictions, references):
        tokens = score_lenient(predictions, references, partial_weight=weight, zero_division=0)
    pred, ref = _in_characters(predictions, offsets), _in_characters(references, offsets)
    with warns_if_duplicated(pred, ref):
        characters = score_lenient(pred, ref, partial_weight=weight, zero_division=0, units=offsets)
    assert characters == tokens


# --- invariants -----------------------------------------------------------------------

@given(document, st.randoms(use_true_random=False))
def test_order_and_duplicates_never_change_a_number(warns_if_duplicated, doc, rng):
    predictions, references = doc
    with warns_if_duplicated(predictions, references):
        base = score_lenient(predictions, references, zero_division=0, return_errors=True)

    def shuffled(side):
        out = []
        for spans in side:
            spans = list(spans) + [s for s in spans if rng.random() < 0.3]
            rng.shuffle(spans)
            out.append(spans)
        return out

    predictions, references = shuffled(predictions), shuffled(references)
    with warns_if_duplicated(predictions, references):
        again = score_lenient(predictions, references, zero_division=0, return_errors=True)
    for key in ("duplicate_predictions", "duplicate_references"):
        base.pop(key), again.pop(key)
    assert again == base


@given(document)
def test_per_type_sums_and_totals(warns_if_duplicated, doc):
    predictions, references = doc
    with warns_if_duplicated(predictions, references):
        r = score_lenient(predictions, references, zero_division=0)
    n_gold = sum(len(set(s)) for s in references)
    n_pred = sum(len(set(s)) for s in predictions)
    for scheme in SCHEMES:
        c = scheme_counts(r, scheme)
        assert c["possible"] == n_gold == c["correct"] + c["incorrect"] + c["partial"] + c["missed"]
        assert c["actual"] == n_pred == c["correct"] + c["incorrect"] + c["partial"] + c["spurious"]
        per = [t[scheme] for t in r["per_type"].values()]
        for key in ("correct", "incorrect", "partial", "missed", "spurious", "possible", "actual"):
            assert sum(t[key] for t in per) == c[key], (scheme, key)
        for key in ("correct", "incorrect", "partial"):
            assert sum(t[f"predicted_{key}"] for t in per) == c[key], (scheme, key)
    assert r["missed"] + r["correct"] + r["type_error"] + r["boundary_error"] + r["boundary_type_error"] == n_gold
    assert sum(n for row in r["confusion"].values() for n in row.values()) == n_gold - r["missed"]


@given(document, st.integers(0, 3))
def test_counts_of_parts_add_to_counts_of_the_whole(warns_if_duplicated, doc, cut):
    predictions, references = doc
    with warns_if_duplicated(predictions, references):
        whole = count_lenient(predictions, references)
    with warns_if_duplicated(predictions, references):
        parts = sum([count_lenient(predictions[:cut], references[:cut]),
                     count_lenient(predictions[cut:], references[cut:])])
    assert parts.to_dict() == whole.to_dict()
    assert LenientCounts.from_dict(json.loads(json.dumps(whole.to_dict()))) == whole


def test_counts_with_other_settings_do_not_add():
    a = count_lenient([[(0, 2, "A")]], [[(0, 2, "A")]])
    b = count_lenient([[(0, 2, "A")]], [[(0, 2, "A")]], partial_weight=1.0)
    with pytest.raises(ValueError, match=r"partial_weight=0\.5.*partial_weight=1\.0"):
        a + b


def _random_tags(rng, n):
    types = ["PER", "ORG", "LOC"]
    prefixes = ["B-", "I-"]
    return [
        [rng.choice(["O", "O", "O"] + [p + t for p in prefixes for t in types]) for _ in range(rng.randint(0, 12))]
        for _ in range(n)
    ]


@pytest.mark.parametrize("seed", range(10))
@pytest.mark.parametrize("mode, scheme", [(None, None), ("strict", "IOB2")], ids=["default", "strict-IOB2"])
def test_strict_scheme_equals_span_f1(seed, mode, scheme):
    rng = random.Random(seed)
    gold = _random_tags(rng, 40)
    pred = [[t if rng.random() < 0.7 else rng.choice(["O", "B-PER", "I-LOC", "B-ORG"]) for t in s] for s in gold]
    flat = score_exact(pred, gold, mode=mode, scheme=scheme, zero_division=0)
    lenient = score_lenient(pred, gold, mode=mode, scheme=scheme, zero_division=0)
    assert lenient["strict_precision"] == flat["overall_precision"]
    assert lenient["strict_recall"] == flat["overall_recall"]
    assert lenient["strict_f1"] == flat["overall_f1"]
    assert lenient["strict_correct"] == flat["tp"]
    for label, scores in flat.items():
        if isinstance(scores, dict):
            assert lenient["per_type"][label]["strict"]["possible"] == scores["number"]


# --- options, errors, input forms -------------------------------------------------------

def test_min_iou_is_symmetric_intersection_over_union():
    gold, wide = [[(0, 2, "A")]], [[(0, 8, "A")]]
    # IoU 2/8 = 0.25: matched at 0.25, not at 0.3, whichever side is the wide one
    assert score_lenient(wide, gold, min_iou=0.25)["partial_partial"] == 1
    for pred, ref in ((wide, gold), (gold, wide)):
        r = score_lenient(pred, ref, min_iou=0.3)
        assert (r["partial_partial"], r["partial_missed"], r["partial_spurious"]) == (0, 1, 1)
    # without a threshold any shared token is enough; touching spans never match
    assert score_lenient([[(1, 2, "A")]], [[(0, 8, "A")]])["type_correct"] == 1
    assert score_lenient([[(2, 4, "A")]], [[(0, 2, "A")]])["type_missed"] == 1


def test_errors_list_every_non_correct_outcome():
    r = score_lenient(
        [[(0, 2, "PER"), (3, 4, "PER"), (8, 9, "X")], [(0, 1, "A")]],
        [[(0, 2, "PER"), (3, 5, "ORG"), (6, 7, "LOC")], [(0, 1, "B")]],
        return_errors=True,
        zero_division=0,
    )
    assert r["errors"] == [
        [0, [3, 5, "ORG"], [3, 4, "PER"], "boundary_type_error"],
        [0, [6, 7, "LOC"], None, "missed"],
        [0, None, [8, 9, "X"], "spurious"],
        [1, [0, 1, "B"], [0, 1, "A"], "type_error"],
    ]
    assert json.loads(json.dumps(r)) == r


def test_duplicates_are_removed_and_counted():
    with pytest.warns(DuplicateSpanWarning, match="removed 1 duplicate predicted and 1 duplicate reference spans"):
        r = score_lenient([[(0, 2, "A"), (0, 2, "A")]], [[(0, 2, "A"), (0, 2, "B"), (0, 2, "B")]], zero_division=0)
    assert (r["duplicate_predictions"], r["duplicate_references"]) == (1, 1)
    assert (r["strict_correct"], r["strict_missed"], r["strict_spurious"]) == (1, 1, 0)


def test_dict_and_tuple_spans_and_tags_agree():
    tags = [["B-PER", "I-PER", "O", "B-LOC"]], [["B-PER", "O", "O", "B-LOC"]]
    dicts = [[{"start": 0, "end": 2, "label": "PER"}, {"start": 3, "end": 4, "label": "LOC"}]]
    tuples = [[(0, 1, "PER"), (3, 4, "LOC")]]
    from_tags = score_lenient(*tags)
    from_spans = score_lenient(dicts, tuples)
    assert "invalid_predicted_chunks" not in from_tags  # no scheme given: nothing to check the chunks against
    assert from_tags == from_spans


@pytest.mark.parametrize(
    "predictions, references, error, match",
    [
        pytest.param([[], [(3, 1, "A")]], [[], []], ValueError, r"predictions, sentence 1: span \(3, 1, 'A'\) is out of range", id="start-after-end"),
        pytest.param([[]], [[{"start": -1, "end": 1, "label": "A"}]], ValueError, "references, sentence 0: span .* out of range", id="negative"),
        pytest.param([[{"start": 0, "label": "A"}]], [[]], ValueError, "predictions, sentence 0: span .* must have start, end and label", id="no-end"),
        pytest.param([[(0, 1, "")]], [[]], TypeError, "non-empty string label", id="empty-label"),
        pytest.param([[(0.5, 1, "A")]], [[]], TypeError, "non-integer offsets", id="float-offset"),
        pytest.param([[], []], [[]], ValueError, "2 predicted sentences but 1 reference sentence", id="misaligned"),
        pytest.param([["B-PER"]], [["PER"]], ValueError, "references, sentence 0, token 0: tag 'PER'", id="bad-tag"),
    ],
)
def test_bad_input_names_sentence_and_value(predictions, references, error, match):
    with pytest.raises(error, match=match):
        score_lenient(predictions, references)


@pytest.mark.parametrize(
    "options, match",
    [
        pytest.param({"partial_weight": 1.5}, "partial_weight must be a number from 0 to 1", id="weight"),
        pytest.param({"min_iou": -0.1}, "min_iou must be None", id="iou"),
        pytest.param({"zero_division": "nan"}, "zero_division must be", id="zero-division"),
        pytest.param({"mode": "strict"}, "apply to tag sequences", id="tag-option-on-spans"),
    ],
)
def test_bad_options(options, match):
    with pytest.raises(ValueError, match=match):
        score_lenient([[(0, 1, "A")]], [[(0, 1, "A")]], **options)


def test_zero_division():
    with pytest.warns(UndefinedMetricWarning, match="zero_division"):
        r = score_lenient([[]], [[]])
    assert r["strict_f1"] == 0.0
    r = score_lenient([[]], [[(0, 1, "A")]], zero_division=1)
    assert (r["partial_precision"], r["partial_recall"], r["per_type"]["A"]["type"]["precision"]) == (1.0, 0.0, 1.0)


def test_plain_python_values():
    r = score_lenient(SYSTEM_A, GOLD, zero_division=0, return_errors=True)

    def walk(value):
        if isinstance(value, dict):
            assert all(isinstance(k, str) for k in value)
            for v in value.values():
                walk(v)
        elif isinstance(value, list):
            for v in value:
                walk(v)
        else:
            assert value is None or type(value) in (int, float, str), type(value)

    walk(r)
