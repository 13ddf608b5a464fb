"""Parity with nervaluate 1.2.1 where greedy matching is optimal, and its order dependence elsewhere."""
import pytest
from hypothesis import given
from hypothesis import strategies as st

from nested_span_f1.lenient.score import score_lenient

nervaluate = pytest.importorskip("nervaluate")

# nervaluate's scenario names for our schemes
NAMES = {"strict": "strict", "exact": "exact", "partial": "partial", "type": "ent_type"}
COUNTS = ("correct", "incorrect", "partial", "missed", "spurious")


def run_nervaluate(predictions, references):
    """nervaluate's overall and per-type results; its ends are INCLUSIVE, ours exclusive."""
    def convert(side):
        return [[{"label": lab, "start": s, "end": e - 1} for s, e, lab in spans] for spans in side]

    labels = sorted({lab for side in (predictions, references) for spans in side for _, _, lab in spans})
    out = nervaluate.Evaluator(convert(references), convert(predictions), tags=labels, loader="dict").evaluate()
    return out["overall"], out["entities"]


def counts_of(result):
    return [getattr(result, key) for key in COUNTS]


def ours(r, scheme):
    return [r[f"{scheme}_{key}"] for key in COUNTS]


def _overlaps(a, b):
    return max(a[0], b[0]) < min(a[1], b[1])


@st.composite
def one_to_one_documents(draw):
    """Random sentences in which no span overlaps more than one span on the other side."""
    span = st.tuples(st.integers(0, 15), st.integers(1, 4), st.sampled_from("ABC")).map(lambda t: (t[0], t[0] + t[1], t[2]))
    predictions, references = [], []
    for _ in range(draw(st.integers(1, 4))):
        gold = sorted(set(draw(st.lists(span, max_size=5))))
        pred, taken = [], set()
        for p in draw(st.lists(span, max_size=6)):
            hit = [i for i, g in enumerate(gold) if _overlaps(g, p)]
            if p not in pred and len(hit) <= 1 and not taken.intersection(hit):
                pred.append(p)
                taken.update(hit)
        predictions.append(pred)
        references.append(gold)
    return predictions, references


@given(one_to_one_documents())
def test_equal_to_nervaluate_where_greedy_is_optimal(doc):
    predictions, references = doc
    r = score_lenient(predictions, references, zero_division=0)
    overall, _ = run_nervaluate(predictions, references)
    for scheme, name in NAMES.items():
        assert ours(r, scheme) == counts_of(overall[name]), scheme
        assert r[f"{scheme}_possible"] == overall[name].possible
        assert r[f"{scheme}_actual"] == overall[name].actual
        assert r[f"{scheme}_precision"] == pytest.approx(overall[name].precision)
        assert r[f"{scheme}_recall"] == pytest.approx(overall[name].recall)
        assert r[f"{scheme}_f1"] == pytest.approx(overall[name].f1)


@pytest.mark.parametrize(
    "predictions, references, scheme, ours_counts, nervaluate_counts",
    [
        pytest.param(
            [[(0, 2, "PER"), (0, 3, "PER")]], [[(0, 3, "PER")]], "strict", [1, 0, 0, 0, 1], [0, 1, 0, 0, 1],
            id="near-miss-listed-first-takes-the-exact-match",
        ),
        pytest.param(
            [[(0, 3, "PER"), (0, 2, "PER")]], [[(0, 3, "PER")]], "strict", [1, 0, 0, 0, 1], [1, 0, 0, 0, 1],
            id="same-spans-other-order",
        ),
        pytest.param(
            [[(1, 3, "A"), (2, 4, "A")]], [[(2, 4, "A"), (0, 2, "A")]], "partial", [1, 0, 1, 0, 0], [0, 0, 1, 1, 1],
            id="partial-takes-the-first-gold-it-overlaps",
        ),
        pytest.param(
            [[(0, 2, "PER"), (1, 3, "PER")]], [[(0, 2, "PER"), (0, 1, "PER")]], "type", [2, 0, 0, 0, 0], [1, 0, 0, 1, 1],
            id="type-closest-boundaries-is-not-optimal",
        ),
    ],
)
def test_where_nervaluate_differs(predictions, references, scheme, ours_counts, nervaluate_counts):
    overall, _ = run_nervaluate(predictions, references)
    assert counts_of(overall[NAMES[scheme]]) == nervaluate_counts
    assert ours(score_lenient(predictions, references), scheme) == ours_counts


def test_nervaluate_per_type_counts_do_not_add_up_ours_do():
    predictions, references = [[(0, 2, "LOC")]], [[(0, 2, "PER")]]
    overall, entities = run_nervaluate(predictions, references)
    # nervaluate: overall INC 1, but per type PER is MIS 1 and LOC SPU 1 (scored label by label)
    assert counts_of(overall["strict"]) == [0, 1, 0, 0, 0]
    assert counts_of(entities["PER"]["strict"]) == [0, 0, 0, 1, 0]
    assert counts_of(entities["LOC"]["strict"]) == [0, 0, 0, 0, 1]
    r = score_lenient(predictions, references, zero_division=0)
    assert (r["per_type"]["PER"]["strict"]["incorrect"], r["per_type"]["LOC"]["strict"]["predicted_incorrect"]) == (1, 1)


def test_nervaluate_overlap_threshold_is_gold_only_ours_is_symmetric():
    # prediction (0,10) covers all of gold (0,2): nervaluate's gold-based percentage is 100,
    # the intersection over union is 0.2
    predictions, references = [[(0, 10, "A")]], [[(0, 2, "A")]]
    out = nervaluate.Evaluator(
        [[{"label": "A", "start": 0, "end": 1}]], [[{"label": "A", "start": 0, "end": 9}]],
        tags=["A"], loader="dict", min_overlap_percentage=50,
    ).evaluate()
    assert out["overall"]["partial"].partial == 1
    r = score_lenient(predictions, references, min_iou=0.5)
    assert (r["partial_partial"], r["partial_missed"], r["partial_spurious"]) == (0, 1, 1)
