"""One rule for what kind of input a door holds (``flat.kinds``), and one set of words for a tag that is not a string.

The lenient metric and the benchmark decide by ``first_kind``; the evaluate
modules' ``data_kind`` holds every item to the kind ``item_kind`` gives it, so
on any input it takes it decides as ``first_kind`` does.
"""
from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st

from nested_span_f1 import score_exact, score_lenient, tags_to_spans
from nested_span_f1.benchmark.inputs import read_side
from nested_span_f1.flat.kinds import INPUT_KINDS, first_kind, not_a_string
from nested_span_f1.hf.kinds import data_kind

SPAN = {"start": 0, "end": 1, "label": "PER"}


@pytest.mark.parametrize(("sides", "kind"), [
    pytest.param(([["O", "B-PER"]],), "tags", id="tags"),
    pytest.param(([[1, 0]],), "ids", id="ids"),
    pytest.param((np.array([[3, 0]]),), "ids", id="id-array"),
    pytest.param(([[SPAN]],), "spans", id="span-dicts"),
    pytest.param(([[(0, 1, "PER")]],), "layers", id="tuples-as-layers-or-span-tuples"),
    pytest.param(([[["O"], ["B-PER"]]],), "layers", id="tag-layers"),
    pytest.param(([], [[]], [[None, "O"]]), "tags", id="None-has-no-kind-the-tag-after-it-decides"),
    pytest.param(([[True, 2]],), "ids", id="a-bool-is-no-label-id"),
    pytest.param(([[1.5, "O"]],), "tags", id="a-float-has-no-kind"),
    pytest.param((["B-PER O"],), "tags", id="a-sentence-given-as-one-string"),
    pytest.param(([SPAN],), "spans", id="a-span-without-its-sentence-list"),
    pytest.param(([[]], [[SPAN, "O"]]), "spans", id="the-first-item-decides"),
    pytest.param(([[None]], [[]]), None, id="no-item-of-a-kind"),
    pytest.param(([],), None, id="no-sentences"),
])
def test_first_kind(sides, kind):
    assert first_kind(*sides) == kind


def test_lenient_reads_a_none_tag_in_the_first_sentence_as_a_tag():
    """The first item that has a kind decides, wherever it is: a first sentence of only None is no span list."""
    with pytest.raises(TypeError, match=r"^predictions, sentence 0, token 0: tag None is not a string$"):
        score_lenient([[None], ["B-PER"]], [[None], ["B-PER"]])


def test_benchmark_reads_sides_by_the_same_rule():
    assert read_side([[None], ["B-PER", "O"]]).tags == [[None], ["B-PER", "O"]]
    assert read_side([[], [(0, 1, "PER")]]).spans.to_lists() == [[], [(0, 1, "PER")]]


ITEMS = st.one_of(st.sampled_from(["O", "B-PER", "I-PER"]), st.integers(-2, 5), st.none(), st.booleans(),
                  st.floats(allow_nan=False), st.just(SPAN), st.just(["O", "B-PER"]), st.just(("O",)))


@st.composite
def pairs(draw):
    """Aligned sides whose items are drawn from one kind or, now and then, from anything."""
    pool = draw(st.sampled_from([ITEMS, st.sampled_from(["O", "B-PER"]), st.integers(0, 3), st.just(SPAN),
                                 st.just(["O", "B-PER"])]))
    lengths = draw(st.lists(st.integers(0, 3), max_size=4))
    return [[[draw(pool) for _ in range(n)] for n in lengths] for _ in range(2)]


@given(pairs(), st.sampled_from([INPUT_KINDS, ("tags", "ids"), ("spans", "tags"), ("spans", "layers", "tags")]))
def test_data_kind_decides_as_first_kind(pair, kinds):
    """Where the evaluate modules' check takes an input, it finds the kind the one rule finds."""
    predictions, references = pair
    try:
        kind = data_kind(predictions, references, kinds)
    except (TypeError, ValueError):
        return
    assert kind == first_kind(predictions, references)


@pytest.mark.parametrize("tag", [None, 1, np.int64(2), 1.5, ["I-PER"]], ids=["None", "int", "numpy-int", "float", "list"])
def test_every_door_names_a_tag_that_is_not_a_string_in_the_same_words(tag):
    predictions, references = [["O", tag]], [["O", "O"]]
    doors = {
        "score_exact": lambda: score_exact(predictions, references),
        "tags_to_spans": lambda: tags_to_spans(predictions),
        "score_lenient": lambda: score_lenient(predictions, references),
        "evaluate modules (data_kind)": lambda: data_kind(predictions, references, ("tags", "ids")),
    }
    expected = f"sentence 0, token 1: {not_a_string(tag, label_list=True)}"
    for name, door in doors.items():
        with pytest.raises(TypeError) as raised:
            door()
        assert str(raised.value).split(", ", 1)[1] == expected, name
