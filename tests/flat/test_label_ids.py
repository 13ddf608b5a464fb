"""Integer label ids (what Trainer holds) score exactly as the tag strings they stand for."""
from __future__ import annotations

import warnings

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st

from nested_span_f1 import count_exact, score_exact

# "O" deliberately not at id 0, and a type with '-'
LABEL_LIST = ["B-PER", "I-PER", "O", "B-LOC", "I-LOC", "B-ORG-SUB", "I-ORG-SUB"]
IGNORE = -100


def _score(*args, **kwargs):
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        return score_exact(*args, **kwargs)


@st.composite
def id_corpora(draw):
    """Sentences of (prediction id, reference id) with -100 sprinkled into references."""
    label = st.integers(0, len(LABEL_LIST) - 1)
    lengths = draw(st.lists(st.integers(0, 8), min_size=1, max_size=5))
    refs = [[draw(label) for _ in range(n)] for n in lengths]
    preds = [[r if draw(st.booleans()) else draw(label) for r in sent] for sent in refs]
    for sentence in range(len(refs)):
        for k in range(len(refs[sentence])):
            if draw(st.integers(0, 4)) == 0:
                refs[sentence][k] = IGNORE
                # the prediction at an ignored position can be anything, even out of range
                preds[sentence][k] = draw(st.sampled_from([IGNORE, 0, 2, 99, -7]))
    return preds, refs


def _strings(preds, refs):
    out_p, out_r = [], []
    for p_sent, r_sent in zip(preds, refs):
        keep = [k for k, r in enumerate(r_sent) if r != IGNORE]
        out_p.append([LABEL_LIST[p_sent[k]] for k in keep])
        out_r.append([LABEL_LIST[r_sent[k]] for k in keep])
    return out_p, out_r


def _padded(rows, width):
    array = np.full((len(rows), width), IGNORE, dtype=np.int64)
    for i, row in enumerate(rows):
        array[i, : len(row)] = row
    return array


@given(id_corpora(), st.sampled_from([None, "strict"]))
def test_ids_equal_string_path(corpus, mode):
    preds, refs = corpus
    str_preds, str_refs = _strings(preds, refs)
    options = {"mode": mode, "scheme": "IOB2" if mode else None, "zero_division": 0}
    expected = _score(str_preds, str_refs, **options)
    assert _score(preds, refs, label_list=LABEL_LIST, **options) == expected
    width = max(map(len, refs)) + 2
    padded = _score(_padded(preds, width), _padded(refs, width), label_list=LABEL_LIST, **options)
    assert padded == expected


def test_trainer_shaped_example():
    # rows padded with -100; special tokens and non-first sub-tokens are -100 in the labels
    references = np.array(
        [
            [IGNORE, 0, 1, 2, IGNORE, 3, IGNORE, IGNORE],
            [IGNORE, 5, 6, 2, 2, IGNORE, IGNORE, IGNORE],
        ]
    )
    predictions = np.array(
        [
            [4, 0, 1, 2, 6, 3, 0, 0],
            [1, 5, 6, 2, 3, 5, 5, 5],
        ]
    )
    result = score_exact(predictions, references, label_list=LABEL_LIST)
    strings = score_exact(
        [["B-PER", "I-PER", "O", "B-LOC"], ["B-ORG-SUB", "I-ORG-SUB", "O", "B-LOC"]],
        [["B-PER", "I-PER", "O", "B-LOC"], ["B-ORG-SUB", "I-ORG-SUB", "O", "O"]],
    )
    assert result == strings
    assert result["PER"] == {"precision": 1.0, "recall": 1.0, "f1": 1.0, "number": 1}
    assert result["LOC"] == {"precision": 0.5, "recall": 1.0, "f1": 2 / 3, "number": 1}
    assert result["ORG-SUB"]["number"] == 1
    assert result["overall_accuracy"] == 7 / 8
    assert (result["tp"], result["fp"], result["fn"]) == (3, 1, 0)


def test_ignored_positions_do_not_count_even_with_wild_predictions():
    references = [[IGNORE, 0, 1, IGNORE]]
    a = score_exact([[IGNORE, 0, 1, 99]], references, label_list=LABEL_LIST)
    b = score_exact([[3, 0, 1, -5]], references, label_list=LABEL_LIST)
    assert a == b
    assert a["overall_f1"] == 1.0
    assert a["overall_accuracy"] == 1.0
    assert count_exact([[IGNORE, 0, 1, 99]], references, label_list=LABEL_LIST).tokens == 2


def test_ignored_position_splits_nothing():
    # -100 positions are removed before decoding: B-PER [ignored] I-PER is one chunk
    result = score_exact([[0, 4, 1]], [[0, IGNORE, 1]], label_list=LABEL_LIST)
    assert result["PER"]["number"] == 1
    assert result["overall_f1"] == 1.0


@pytest.mark.parametrize("kind", ["list", "numpy", "torch"])
def test_array_kinds(kind):
    preds = [[0, 1, 2], [3, 2, IGNORE]]
    refs = [[0, 1, 2], [3, 4, IGNORE]]
    if kind == "numpy":
        preds, refs = np.array(preds), np.array(refs)
    elif kind == "torch":
        torch = pytest.importorskip("torch")
        preds, refs = torch.tensor(preds), torch.tensor(refs)
    result = score_exact(preds, refs, label_list=LABEL_LIST)
    assert result["PER"]["f1"] == 1.0
    assert result["LOC"] == {"precision": 0.0, "recall": 0.0, "f1": 0.0, "number": 1}
    assert result["overall_accuracy"] == 4 / 5


def test_values_are_python_numbers():
    result = score_exact(np.array([[0, 1]]), np.array([[0, 1]]), label_list=LABEL_LIST)
    for key, value in result.items():
        if isinstance(value, dict):
            assert all(type(v) in (int, float) for v in value.values()), key
        else:
            assert type(value) in (int, float), key
