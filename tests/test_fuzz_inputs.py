"""Hypothesis fuzzing of every Python door with arbitrary, often malformed, input (issue 17).

Whatever comes in, a door either refuses it with a documented exception
(ValueError, TypeError or a subclass) and at most the documented warnings, or
returns a result that is JSON-serialisable with ``allow_nan=False``, whose
scores lie in [0, 1], whose true positives never exceed the predictions or the
gold items of their type, and whose per-type counts add up to the totals.
"""
from __future__ import annotations

import json
import warnings
from collections.abc import Callable, Iterator, Mapping
from typing import Any

import pytest
from hypothesis import example, given
from hypothesis import strategies as st

import nested_span_f1
from nested_span_f1.core.counts import Counts
from nested_span_f1.core.matching import DuplicateSpanWarning
from nested_span_f1.core.scores import UndefinedMetricWarning
from nested_span_f1.flat.pipeline import decode_pair
from nested_span_f1.lenient import score as lenient
from nested_span_f1.nested import score as nested

DOCUMENTED_ERRORS = (ValueError, TypeError)
DOCUMENTED_WARNINGS = (UndefinedMetricWarning, DuplicateSpanWarning)

HUGE_END = ([[{"start": 0, "end": 2**63, "label": "A"}]], [[]])
"""Edges the strategies reach only now and then, run every time: an end no int64 holds, ..."""
EMPTY_FIRST = ([[], ["B-PER", "I-PER"]], [[], ["B-PER", "O"]])
"""... an empty first sentence (evaluate picks a feature set from it), and no sentence at all."""


# --------------------------------------------------------------------------- strategies

GOOD_TAGS = ["O", "B-PER", "I-PER", "E-PER", "S-PER", "B-LOC", "I-LOC", "L-LOC", "U-LOC", "B", "I", "B-ORG-SUB"]
BAD_TAGS = ["PER", "B-", "", "I-PER ", "B-P ER", "b-PER", "X-PER", "-100", "O-PER", "B--X", None, 1, 1.5, True,
            b"B-PER", ["B-PER"]]
BAD_VALUES = [None, "O O", 3, 1.5, {"a": 1}, b"x"]
"""What may stand where a side or a sentence should be."""

tag = st.one_of(st.sampled_from(GOOD_TAGS), st.sampled_from(GOOD_TAGS), st.sampled_from(GOOD_TAGS),
                st.sampled_from(BAD_TAGS), st.text(max_size=5))
tag_options = st.fixed_dictionaries({}, optional={
    "scheme": st.sampled_from([None, "IO", "IOB1", "IOB2", "IOE1", "IOE2", "IOBES", "BILOU", "BIO", "nope"]),
    "mode": st.sampled_from([None, "strict", "lenient"]),
    "suffix": st.booleans(),
})
zero_division = st.sampled_from([0, 1, "warn", 2])


@st.composite
def mangled(draw: Any, pair: tuple[Any, Any]) -> tuple[Any, Any]:
    """Sometimes break a well-aligned pair: drop a sentence or token, or put a bad value where a side or a
    sentence should be."""
    pred, ref = pair
    how = draw(st.sampled_from(["keep"] * 8 + ["side", "sentence", "drop sentence", "add token"]))
    side = draw(st.integers(0, 1))
    sides = [pred, ref]
    if how == "side":
        sides[side] = draw(st.sampled_from(BAD_VALUES))
    elif how == "sentence" and sides[side]:
        sides[side] = [*sides[side][:-1], draw(st.sampled_from(BAD_VALUES))]
    elif how == "drop sentence" and sides[side]:
        sides[side] = sides[side][:-1]
    elif how == "add token" and sides[side]:
        sides[side] = [*sides[side][:-1], [*sides[side][-1], "O"]]
    return sides[0], sides[1]


@st.composite
def tag_pairs(draw: Any, item: st.SearchStrategy[Any] = tag, mangle: bool = True) -> tuple[Any, Any]:
    lengths = draw(st.lists(st.integers(0, 6), max_size=5))
    pred = [[draw(item) for _ in range(n)] for n in lengths]
    ref = [[draw(item) for _ in range(n)] for n in lengths]
    return draw(mangled((pred, ref))) if mangle else (pred, ref)


LABEL_LISTS = [["O", "B-PER", "I-PER", "B-LOC", "I-LOC"], ["O", "B-PER", "PER"], ["O", "B-PER "], ["O"]]
label_id = st.one_of(st.integers(-1, 5), st.integers(-1, 5), st.just(-100),
                     st.sampled_from([1.7, 2.0, True, None, "1", 2**63, -(2**64)]))


@st.composite
def spans(draw: Any) -> Any:
    """A span: mostly a well-formed dict or tuple, sometimes with bad offsets, keys or label."""
    start = draw(st.integers(0, 5))
    end = draw(st.integers(start + 1, 7))
    label = draw(st.sampled_from(["PER", "LOC", "ORG"]))
    offset = st.one_of(st.integers(-2, 8), st.sampled_from([0.5, 2.0, True, "0", None, 2**63]))
    kind = draw(st.sampled_from(["dict"] * 5 + ["tuple"] * 2 + ["bad offsets", "bad key", "bad label", "fragments"]))
    if kind == "dict":
        return {"start": start, "end": end, "label": label}
    if kind == "tuple":
        return (start, end, label)
    if kind == "bad offsets":
        return {"start": draw(offset), "end": draw(offset), "label": label}
    if kind == "bad key":
        span = {"start": start, "end": end, "label": label}
        span.pop(draw(st.sampled_from(["start", "end", "label", None])), None)
        return {**span, **draw(st.dictionaries(st.sampled_from(["score", "type", "end"]), st.integers(0, 3), max_size=1))}
    if kind == "bad label":
        return {"start": start, "end": end, "label": draw(st.sampled_from([None, "", 3, "B-PER "]))}
    return {"fragments": draw(st.lists(st.tuples(offset, offset), max_size=3)), "label": label}


@st.composite
def span_pairs(draw: Any) -> tuple[Any, Any]:
    n = draw(st.integers(0, 4))
    pred = [draw(st.lists(spans(), max_size=4)) for _ in range(n)]
    ref = [draw(st.lists(spans(), max_size=4)) for _ in range(n)]
    return draw(mangled((pred, ref)))


# --------------------------------------------------------------------------- invariants

def _scores(result: Any, path: str = "") -> Iterator[tuple[str, Any]]:
    """Every (key path, value) whose key names a score."""
    if isinstance(result, Mapping):
        for key, value in result.items():
            where = f"{path}.{key}"
            if isinstance(value, (Mapping, list)):
                yield from _scores(value, where)
            elif any(word in str(key) for word in ("precision", "recall", "f1", "accuracy")):
                yield where, value
    elif isinstance(result, list):
        for k, value in enumerate(result):
            yield from _scores(value, f"{path}[{k}]")


def check_result(result: Mapping[str, Any]) -> None:
    """JSON-safe, scores in [0, 1], and (flat/nested shapes) per-type gold numbers adding up to tp + fn."""
    json.dumps(result, allow_nan=False)
    for where, value in _scores(result):
        assert type(value) in (int, float) and 0.0 <= value <= 1.0, (where, value)
    if "tp" in result:
        per_type = [v for v in result.values() if isinstance(v, Mapping) and "number" in v and "f1" in v]
        assert sum(v["number"] for v in per_type) == result["tp"] + result["fn"]
    for name in ("by_nesting", "by_length", "by_depth"):
        if name in result:
            buckets = result[name].values()
            assert sum(b["number"] for b in buckets) == result["tp"] + result["fn"], name
            assert sum(b["predicted"] for b in buckets) == result["tp"] + result["fp"], name
    if "strict_possible" in result:
        check_lenient_result(result)


def check_lenient_result(result: Mapping[str, Any]) -> None:
    """Per-type counts add up to the overall ones; the breakdown covers every gold span and prediction."""
    for scheme in ("strict", "exact", "partial", "type"):
        rows = [scores[scheme] for scores in result["per_type"].values()]
        for key in ("correct", "incorrect", "partial", "missed", "possible", "actual", "spurious"):
            assert sum(r[key] for r in rows) == result[f"{scheme}_{key}"], (scheme, key)
        assert result[f"{scheme}_correct"] <= min(result[f"{scheme}_possible"], result[f"{scheme}_actual"])
    errors = ("correct", "type_error", "boundary_error", "boundary_type_error")
    assert sum(result[k] for k in errors) + result["missed"] == result["strict_possible"]
    assert sum(result[k] for k in errors) + result["spurious"] == result["strict_actual"]


def check_counts(counts: Counts) -> None:
    """tp <= min(predicted, gold) for every type, totals equal to the sum over types, JSON-safe."""
    for label, tally in counts.labels.items():
        assert 0 <= tally.tp <= min(tally.predicted, tally.gold), (label, tally)
    assert counts.total == sum(counts.labels.values(), type(counts.total)())
    assert 0 <= counts.untyped.tp <= min(counts.untyped.predicted, counts.untyped.gold)
    assert 0 <= counts.correct_tokens <= counts.tokens
    json.dumps(counts.to_dict(), allow_nan=False)


def check_lenient_counts(counts: lenient.LenientCounts) -> None:
    for scheme, tallies in counts.schemes.items():
        for label, t in tallies.items():
            # correct counts the label's gold spans, predicted_correct its predictions
            # (docs/DESIGN.md, 'Per type and the error breakdown')
            assert 0 <= t.correct <= t.possible and 0 <= t.predicted_correct <= t.actual, (scheme, label, t)
            assert t.missed >= 0 and t.spurious >= 0, (scheme, label, t)
        total = counts.total(scheme)
        assert total.correct <= min(total.possible, total.actual), (scheme, total)
    json.dumps(counts.to_dict(), allow_nan=False)


def refuses_or_holds(call: Callable[[], Any], check: Callable[[Any], None]) -> None:
    """Run ``call``: a documented error and documented warnings only; a result must pass ``check``."""
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        try:
            result = call()
        except DOCUMENTED_ERRORS:
            result = None
    undocumented = [w for w in caught if not issubclass(w.category, DOCUMENTED_WARNINGS)]
    assert not undocumented, [f"{w.category.__name__}: {w.message}" for w in undocumented]
    if result is not None:
        check(result)


# --------------------------------------------------------------------------- the core

@given(tag_pairs(), tag_options, zero_division)
def test_score_exact(pair, options, zero):
    refuses_or_holds(lambda: nested_span_f1.score_exact(*pair, zero_division=zero, **options), check_result)


@given(tag_pairs(), tag_options)
def test_count_exact(pair, options):
    refuses_or_holds(lambda: nested_span_f1.count_exact(*pair, **options), check_counts)


@given(tag_pairs(), tag_options)
def test_decode_pair_and_tags_to_spans(pair, options):
    def check(decoded: Any) -> None:
        for side, sentences in zip((decoded.predictions, decoded.references), pair):
            for s, found in enumerate(side.to_lists()):
                assert all(0 <= b < e <= len(sentences[s]) for b, e, _ in found), found
        json.dumps(decoded.notes, allow_nan=False)

    refuses_or_holds(lambda: decode_pair(*pair, **options), check)
    refuses_or_holds(lambda: nested_span_f1.tags_to_spans(pair[0], **options),
                     lambda found: json.dumps(found, allow_nan=False))


well_formed = tag_pairs(st.sampled_from(GOOD_TAGS), mangle=False)
schemes = st.fixed_dictionaries({"scheme": st.sampled_from(["IO", "IOB1", "IOB2", "IOE1", "IOE2", "IOBES", "BILOU"])},
                                optional={"mode": st.sampled_from([None, "strict"])})


@given(well_formed, well_formed, schemes)
@example(([["B-PER", "I-PER"]], [["B-PER", "I-PER"]]), ([["S-PER"]], [["S-PER"]]), {"scheme": "IOB2"})
def test_counts_of_two_batches_add_up_to_their_union(first, second, options):
    """Issue 17 item 3: counts add, invalid-chunk counts included, also when one batch breaks the scheme."""
    def count(pair: tuple[Any, Any]) -> Counts | None:
        with warnings.catch_warnings(record=True):
            warnings.simplefilter("always")
            try:
                return nested_span_f1.count_exact(*pair, **options)
            except DOCUMENTED_ERRORS:
                return None

    parts = [count(first), count(second)]
    if None in parts:
        return
    union = count((first[0] + second[0], first[1] + second[1]))
    assert union is not None, "each batch is scored but their union is refused"
    assert (parts[0] + parts[1]).to_dict() == union.to_dict()


@given(tag_pairs(label_id), st.sampled_from(LABEL_LISTS), tag_options)
def test_label_ids(pair, label_list, options):
    refuses_or_holds(lambda: nested_span_f1.count_exact(*pair, label_list=label_list, **options), check_counts)
    refuses_or_holds(lambda: nested_span_f1.score_exact(*pair, label_list=label_list, zero_division=0, **options),
                     check_result)


@given(span_pairs(), st.none() | st.lists(st.integers(0, 8), min_size=0, max_size=5), zero_division)
@example(HUGE_END, None, 0)
def test_nested(pair, lengths, zero):
    refuses_or_holds(lambda: nested.count_nested(*pair, lengths=lengths), lambda c: check_counts(c.counts))
    refuses_or_holds(lambda: nested.score_nested(*pair, lengths=lengths, zero_division=zero), check_result)


lenient_options = st.fixed_dictionaries({}, optional={
    "partial_weight": st.sampled_from([0, 0.5, 1, 2, -1, float("nan")]),
    "min_iou": st.sampled_from([None, 0.0, 0.5, 1.0, 1.5]),
})


@given(st.one_of(span_pairs(), tag_pairs()), lenient_options, zero_division)
@example(HUGE_END, {}, 0)
def test_lenient(pair, options, zero):
    refuses_or_holds(lambda: lenient.count_lenient(*pair, **options), check_lenient_counts)
    refuses_or_holds(lambda: lenient.score_lenient(*pair, zero_division=zero, **options), check_result)


# --------------------------------------------------------------------------- the evaluate modules

evaluate = pytest.importorskip("evaluate")


@pytest.fixture(scope="module")
def modules():
    return {name: evaluate.load(nested_span_f1.metric_path(name)) for name in ("exact", "lenient",
                                                                                "nested")}


@given(pair=st.one_of(tag_pairs(), tag_pairs(label_id)), with_ids=st.booleans())
@example(pair=([], []), with_ids=False)
@example(pair=EMPTY_FIRST, with_ids=False)
@example(pair=([[], [1, 2]], [[], [1, 0]]), with_ids=True)
def test_span_f1_module(modules, pair, with_ids):
    options = {"label_list": LABEL_LISTS[0]} if with_ids else {}
    refuses_or_holds(lambda: modules["exact"].compute(predictions=pair[0], references=pair[1], zero_division=0,
                                                        **options), check_result)


@pytest.mark.parametrize("name", ["lenient", "nested"])
@given(pair=st.one_of(span_pairs(), tag_pairs()))
@example(pair=([], []))
@example(pair=EMPTY_FIRST)
@example(pair=HUGE_END)
def test_span_modules(modules, name, pair):
    refuses_or_holds(lambda: modules[name].compute(predictions=pair[0], references=pair[1], zero_division=0),
                     check_result)
