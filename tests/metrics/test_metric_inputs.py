"""What the three evaluate modules take, refuse and survive (real ``evaluate.load`` of the metric folders, offline).

The feature set is read from the data, whatever the first sentence holds; malformed
input is refused before evaluate casts it, with side, sentence, position and value
in the message; a failed ``compute`` or ``add_batch`` leaves the instance usable
(the next good call returns the core's result, and no cache file is left behind).
"""
import re
from pathlib import Path

import numpy as np
import pytest

evaluate = pytest.importorskip("evaluate")

from nested_span_f1 import metric_path, score_exact
from nested_span_f1.hf.paths import MODULES
from nested_span_f1.lenient.score import score_lenient
from nested_span_f1.nested.score import count_layered, count_nested_tags, score_nested, summarize_nested

METRICS = ("exact", "lenient", "nested")
# a 60-label list: ids read as strings once scored LOC (ids 3, 4) as another type
LABELS = ["O", "B-PER", "I-PER", "B-LOC", "I-LOC", *[f"{p}-T{i}" for i in range(28) for p in "BI"][:55]]


def _reference(name, kind, predictions, references, **options):
    """The core's result for the input a module was given."""
    if name == "exact":
        return score_exact(predictions, references, zero_division=0, **options)
    if name == "lenient":
        return score_lenient(predictions, references, zero_division=0, **options)
    if kind == "spans":
        return score_nested(predictions, references, zero_division=0)
    count = count_layered if kind == "layers" else count_nested_tags
    return summarize_nested(count(predictions, references, **options), 0)


def _span(start, end, label):
    return {"start": start, "end": end, "label": label}


# per module and documented kind: (what an all-O first sentence is, the sentences after it, options)
REST = {
    ("exact", "tags"): (["O", "O"], ([["B-LOC", "I-LOC", "O"], ["B-PER", "O"]],
                                        [["B-LOC", "I-LOC", "O"], ["B-PER", "B-PER"]]), {}),
    ("exact", "ids"): ([0, 0], ([[3, 4, 0], [1, 0]], [[3, 4, 0], [1, 1]]), {"label_list": LABELS}),
    ("lenient", "spans"): ([], ([[_span(0, 2, "LOC")], [_span(0, 1, "PER"), _span(1, 3, "PER")]],
                                        [[_span(0, 2, "LOC")], [_span(0, 2, "PER")]]), {}),
    ("lenient", "tags"): (["O", "O"], ([["B-LOC", "I-LOC", "O"], ["B-PER", "O"]],
                                               [["B-LOC", "O", "O"], ["B-PER", "I-PER"]]), {}),
    ("nested", "spans"): ([], ([[_span(0, 3, "DNA"), _span(0, 1, "protein")], [_span(1, 2, "RNA")]],
                                       [[_span(0, 3, "DNA"), _span(1, 2, "protein")], [_span(1, 2, "RNA")]]), {}),
    ("nested", "layers"): ([["O", "O"]], ([[["B-DNA", "I-DNA", "I-DNA"], ["B-protein", "O", "O"]]],
                                                  [[["B-DNA", "I-DNA", "I-DNA"], ["O", "B-protein", "O"]]]), {}),
    ("nested", "tags"): (["O", "O"], ([["B-DNA", "I-DNA", "O"], ["B-RNA", "O"]],
                                              [["B-DNA", "I-DNA", "O"], ["O", "B-RNA"]]), {}),
}
FIRST = ("empty", "all-O", "holds entities")
KINDS = [pytest.param(name, kind, first, id=f"{name}-{kind}-{first}") for (name, kind), (all_o, _, _) in REST.items()
         for first in FIRST if all_o or first != "all-O"]


def _corpus(name, kind, first):
    all_o, (predictions, references), options = REST[(name, kind)]
    head = {"empty": [[]], "all-O": [all_o], "holds entities": []}[first]
    return [*head, *predictions], [*head, *references], options


@pytest.fixture(scope="module")
def cache(tmp_path_factory):
    return tmp_path_factory.mktemp("evaluate-cache")


@pytest.fixture(scope="module")
def metrics(cache):
    return {name: evaluate.load(metric_path(name), cache_dir=str(cache)) for name in METRICS}


@pytest.mark.parametrize(("name", "kind", "first"), KINDS)
def test_every_kind_whatever_the_first_sentence_holds(metrics, name, kind, first):
    predictions, references, options = _corpus(name, kind, first)
    expected = _reference(name, kind, predictions, references, **options)
    metric = metrics[name]
    assert metric.compute(predictions=predictions, references=references, zero_division=0, **options) == expected
    for p, r in zip(predictions, references):  # one sentence a batch: the first batch may hold nothing
        metric.add_batch(predictions=[p], references=[r])
    assert metric.compute(zero_division=0, **options) == expected


def test_label_ids_after_an_empty_first_sentence_keep_their_type(metrics):
    """The issue's case: 60 labels, ids 3 and 4 (B-LOC, I-LOC) after an empty sentence are LOC, not strings."""
    result = metrics["exact"].compute(predictions=[[], [3, 4, 0]], references=[[], [3, 4, 1]], label_list=LABELS,
                                        zero_division=0)
    assert result["LOC"] == {"precision": 1.0, "recall": 1.0, "f1": 1.0, "number": 1}
    assert result["PER"]["number"] == 1 and (result["tp"], result["fp"], result["fn"]) == (1, 0, 1)


def test_trainer_shaped_arrays_and_add(metrics):
    """2-D id arrays with -100 padding (a first row all padding), and ``add`` sentence by sentence."""
    metric = metrics["exact"]
    predictions = np.array([[0, 0, 0], [3, 4, 0], [1, 0, 0]])
    references = np.array([[-100, -100, -100], [3, 4, 0], [1, 1, -100]])
    expected = score_exact([[], [3, 4, 0], [1, 0]], [[], [3, 4, 0], [1, 1]], label_list=LABELS, zero_division=0)
    assert metric.compute(predictions=predictions, references=references, label_list=LABELS, zero_division=0) == expected
    for p, r in zip([[], [3, 4, 0], [1, 0]], [[], [3, 4, 0], [1, 1]]):
        metric.add(prediction=p, reference=r)
    assert metric.compute(label_list=LABELS, zero_division=0) == expected


def test_one_instance_takes_each_kind_in_turn(metrics):
    metric = metrics["nested"]
    for kind in ("spans", "tags", "layers", "spans"):
        predictions, references, _ = _corpus("nested", kind, "empty")
        result = metric.compute(predictions=predictions, references=references, zero_division=0)
        assert result == _reference("nested", kind, predictions, references)


@pytest.mark.parametrize("name", METRICS)
def test_no_sentences(metrics, name):
    """No sentences score as no entities (the core's all-zero result); nothing added at all is a ValueError."""
    metric = metrics[name]
    expected = _reference(name, "spans", [], [])
    assert expected["overall_f1" if name != "lenient" else "strict_f1"] == 0.0
    assert metric.compute(predictions=[], references=[], zero_division=0) == expected
    metric.add_batch(predictions=[], references=[])
    assert metric.compute(zero_division=0) == expected
    with pytest.raises(ValueError, match="call `add` or `add_batch` at least once"):
        metric.compute(zero_division=0)


def test_add_batch_refuses_another_kind_and_unknown_inputs(metrics):
    metric = metrics["lenient"]
    metric.add_batch(predictions=[["B-PER"]], references=[["B-PER"]])
    with pytest.raises(TypeError, match=re.escape("this batch holds spans ({'start', 'end', 'label'} dicts) but the "
                                                  "batches added before it hold tags (strings)")):
        metric.add_batch(predictions=[[_span(0, 1, "PER")]], references=[[]])
    with pytest.raises(ValueError, match=re.escape("unknown inputs ['weights']: a batch is predictions and references")):
        metric.add_batch(predictions=[[]], references=[[]], weights=[1.0])
    assert metric.compute(zero_division=0) == score_lenient([["B-PER"]], [["B-PER"]], zero_division=0)


S, L, N = "exact", "lenient", "nested"
ALL = (S, L, N)
SPANS = (L, N)
# id: (modules, predictions, references, options, raised by add_batch (else by compute), type, message fragment)
BAD = {
    "none-tag": (ALL, [["O", None]], [["O", "O"]], {}, True, TypeError,
                 "predictions, sentence 0, token 1: tag None is not a string"),
    "none-tag-in-references": (ALL, [["O"], ["B-X", "O"]], [["O"], ["B-X", None]], {}, True, TypeError,
                               "references, sentence 1, token 1: tag None is not a string"),
    "none-in-a-layer": ((N,), [[["O", "O"], ["B-X", None]]], [[["O", "O"]]], {}, True, TypeError,
                        "predictions, sentence 0, layer 1, token 1: tag None is not a string"),
    "none-sentence": (ALL, [["O"], None], [["O"], ["O"]], {}, True, TypeError,
                      "predictions, sentence 1: expected a list of tags (strings)"),
    "string-sentence": (ALL, ["B-PER", "O"], ["B-PER", "O"], {}, True, TypeError,
                        "predictions, sentence 0: expected a list of tags (strings)"),
    "sentences-differ": (ALL, [["O"]], [["O"], ["O"]], {}, True, ValueError,
                         "1 predicted sentence but 2 reference sentences; they must align sentence by sentence"),
    "sentence-lengths-differ": (ALL, [["O"], ["O", "O"]], [["O"], ["O"]], {}, True, ValueError,
                                "sentence 1: 2 predicted tags but 1 reference tags; they must align token by token"),
    "id-sentence-lengths-differ": ((S,), [[0, 1]], [[0, 1, 2]], {"label_list": LABELS}, True, ValueError,
                                   "sentence 0: 2 predicted tags but 3 reference tags"),
    "tags-then-ids": ((S,), [["O"], [0]], [["O"], ["O"]], {}, True, TypeError,
                      "predictions, sentence 1 holds label ids (integers) but predictions, sentence 0 holds tags"),
    "float-id": ((S,), [[], [0, 1.7]], [[], [0, 1]], {"label_list": LABELS}, True, TypeError,
                 "predictions, sentence 1, token 1: label id 1.7 is not an integer"),
    "bool-id": ((S,), [[0, True]], [[0, 1]], {"label_list": LABELS}, True, TypeError,
                "predictions, sentence 0, token 1: label id True is not an integer"),
    "string-id": ((S,), [[0, "1"]], [[0, 1]], {"label_list": LABELS}, True, TypeError,
                  "predictions, sentence 0, token 1: label id '1' is not an integer"),
    "id-beyond-int64": ((S,), [[0, 1]], [[0, 2**64]], {"label_list": LABELS}, True, ValueError,
                        "references, sentence 0, token 1: label id 18446744073709551616 does not fit in 64 bits"),
    "ids-without-label-list": ((S,), [[], [3, 4]], [[], [3, 4]], {}, False, TypeError,
                               "hold integer label ids: pass label_list"),
    "tags-with-label-list": ((S,), [["B-LOC"]], [["B-LOC"]], {"label_list": LABELS}, False, TypeError,
                             "label_list is given but predictions and references hold tag strings"),
    "id-array-to-span-modules": (SPANS, np.array([[1, 2, 0]]), np.array([[1, 2, -100]]), {}, True, TypeError,
                                 "predictions, sentence 0 holds label ids (integers); this module takes"),
    "spans-to-span-f1": ((S,), [[_span(0, 1, "A")]], [[]], {}, True, TypeError,
                         "predictions, sentence 0 holds spans ({'start', 'end', 'label'} dicts); this module takes"),
    "span-tuples": ((L,), [[(0, 1, "A")]], [[]], {}, True, TypeError,
                    "predictions, sentence 0 holds lists (tag layers, or spans written as tuples)"),
    "missing-key": (SPANS, [[], [_span(0, 1, "A"), {"start": 0, "label": "A"}]], [[], []], {}, True, ValueError,
                    "predictions, sentence 1: span {'start': 0, 'label': 'A'} must have start, end and label and "
                    "nothing else: it lacks 'end' (position 1 in the sentence)"),
    "extra-key": (SPANS, [[]], [[{"start": 0, "end": 1, "label": "A", "score": 0.9}]], {}, True, ValueError,
                  "references, sentence 0: span {'start': 0, 'end': 1, 'label': 'A', 'score': 0.9} must have start, "
                  "end and label and nothing else: it has 'score' (position 0 in the sentence)"),
    "half-offset": (SPANS, [[_span(0.5, 1, "A")]], [[]], {}, True, TypeError,
                    "predictions, sentence 0: span {'start': 0.5, 'end': 1, 'label': 'A'} has non-integer offsets "
                    "(start 0.5)"),
    "whole-float-offset": (SPANS, [[_span(0, 2.0, "A")]], [[]], {}, True, TypeError,
                           "has non-integer offsets (end 2.0); offsets must be ints, never truncated"),
    "bool-offset": (SPANS, [[_span(True, 2, "A")]], [[]], {}, True, TypeError, "non-integer offsets (start True)"),
    "string-offset": (SPANS, [[_span("0", 2, "A")]], [[]], {}, True, TypeError, "non-integer offsets (start '0')"),
    "end-beyond-int64": (SPANS, [[_span(0, 2**64, "A")]], [[]], {}, True, ValueError,
                         "has an offset beyond 64-bit integers (at most 9223372036854775807)"),
    "empty-label": (SPANS, [[_span(0, 1, "")]], [[]], {}, True, TypeError, "needs a non-empty string label"),
    "lone-surrogate-tag": ((S,), [["B-P\udc80"]], [["O"]], {}, True, ValueError,
                           "predictions, sentence 0, token 0: 'B-P\\udc80' is not valid UTF-8 text"),
    "lone-surrogate-label": (SPANS, [[]], [[_span(0, 1, "P\udc80")]], {}, True, ValueError,
                             "references, sentence 0, span 0: 'P\\udc80' is not valid UTF-8 text"),
    "malformed-tag": (ALL, [["O", "PER"]], [["O", "O"]], {}, False, ValueError, "sentence 0, token 1: tag 'PER'"),
}
CASES = [pytest.param(name, case, id=f"{name}-{case}") for case, spec in BAD.items() for name in spec[0]]
GOOD = {  # a call that must work right after a failed one
    S: ([["B-LOC", "I-LOC"], ["B-PER"]], [["B-LOC", "I-LOC"], ["O"]]),
    L: ([[_span(0, 2, "LOC")], [_span(0, 1, "PER")]], [[_span(0, 2, "LOC")], [_span(0, 2, "PER")]]),
    N: ([[_span(0, 2, "LOC")], [_span(0, 1, "PER")]], [[_span(0, 2, "LOC")], [_span(0, 2, "PER")]]),
}


def _good(name):
    predictions, references = GOOD[name]
    return _reference(name, "tags" if name == S else "spans", predictions, references)


def _no_cache_file_left(cache):
    assert sorted(p.name for p in Path(cache).rglob("*.arrow")) == []


@pytest.mark.parametrize(("name", "case"), CASES)
def test_compute_refuses_bad_input_and_stays_usable(metrics, cache, name, case):
    _, predictions, references, options, _, error, fragment = BAD[case]
    metric = metrics[name]
    with pytest.raises(error, match=re.escape(fragment)):
        metric.compute(predictions=predictions, references=references, zero_division=0, **options)
    good_predictions, good_references = GOOD[name]
    assert metric.compute(predictions=good_predictions, references=good_references, zero_division=0) == _good(name)
    _no_cache_file_left(cache)


@pytest.mark.parametrize(("name", "case"), CASES)
def test_add_batch_refuses_bad_input_and_stays_usable(metrics, cache, name, case):
    _, predictions, references, options, at_add, error, fragment = BAD[case]
    metric = metrics[name]
    good_predictions, good_references = GOOD[name]
    if at_add:  # the bad batch is not added; the batches before and after it are
        metric.add_batch(predictions=good_predictions[:1], references=good_references[:1])
        with pytest.raises(error, match=re.escape(fragment)):
            metric.add_batch(predictions=predictions, references=references)
        metric.add_batch(predictions=good_predictions[1:], references=good_references[1:])
    else:  # refused once read: compute drops it all and the next call starts clean
        metric.add_batch(predictions=predictions, references=references)
        with pytest.raises(error, match=re.escape(fragment)):
            metric.compute(zero_division=0, **options)
        _no_cache_file_left(cache)
        metric.add_batch(predictions=good_predictions, references=good_references)
    assert metric.compute(zero_division=0) == _good(name)
    _no_cache_file_left(cache)


@pytest.mark.parametrize("name", SPANS)
def test_an_unknown_option_is_named_and_the_batches_stay(metrics, name):
    """``label_list`` belongs to span_f1 only: the other modules name it and list their own options."""
    metric = metrics[name]
    good_predictions, good_references = GOOD[name]
    metric.add_batch(predictions=good_predictions, references=good_references)
    with pytest.raises(TypeError, match=re.escape(f"{MODULES[name]} takes no option 'label_list'; its options are ")):
        metric.compute(label_list=LABELS)
    assert metric.compute(zero_division=0) == _good(name)


# the package API behind the two span modules refuses the same spans, and never truncates an offset
DIRECT = {
    "half-offset": ([(0.5, 2, "A")], TypeError, "span (0.5, 2, 'A') has non-integer offsets (start 0.5)"),
    "whole-float-end": ([_span(0, 2.0, "A")], TypeError, "(end 2.0); offsets must be ints, never truncated"),
    "bool-offset": ([(0, True, "A")], TypeError, "non-integer offsets (end True)"),
    "string-offsets": ([("0", "2", "A")], TypeError, "non-integer offsets (start '0', end '2')"),
    "end-at-2**63": ([(0, 2**63, "A")], ValueError, "has an offset beyond 64-bit integers"),
    "start-below-int64": ([(-(2**64), 1, "A")], ValueError, "is out of range; spans need 0 <= start < end"),
    "extra-key": ([{"start": 0, "end": 1, "label": "A", "type": "B"}], ValueError,
                  "must have start, end and label and nothing else: it has 'type' (position 0 in the sentence)"),
    "four-items": ([(0, 1, "A"), (0, 1, "A", 0.9)], ValueError,
                   "span (0, 1, 'A', 0.9) must have start, end and label and nothing else (position 1 in the sentence)"),
}


@pytest.mark.parametrize("score", [score_nested, score_lenient], ids=["score_nested", "score_lenient"])
@pytest.mark.parametrize("case", DIRECT)
def test_package_api_refuses_the_same_spans(score, case):
    spans, error, fragment = DIRECT[case]
    with pytest.raises(error, match=re.escape("predictions, sentence 1: span ")) as raised:
        score([[], spans], [[], []], zero_division=0)
    assert fragment in str(raised.value)


def test_lenient_names_a_none_tag_that_comes_first():
    with pytest.raises(TypeError, match=re.escape("predictions, sentence 0, token 0: tag None is not a string")):
        score_lenient([[None, "B-PER"]], [["O", "B-PER"]], zero_division=0)
