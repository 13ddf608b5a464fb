"""Predicted sentences equal to their reference take the reference's codes.

``encode_pair`` compares each predicted sentence with its reference and looks up only
the ones that differ. The codes must be exactly what
encoding each side on its own gives, the scores what seqeval gives, and every bad
input must still be named as it is without the shortcut.
"""
from __future__ import annotations

import random

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from seqeval.metrics import classification_report

from nested_span_f1 import score_tags
from nested_span_f1.flat import count_tags, decode_pair
from nested_span_f1.labels import Vocab, encode_tags
from nested_span_f1.pair_encoding import Agreement, encode_pair, whole

TAGS = ["O", "B-PER", "I-PER", "B-LOC", "I-LOC", "B-ORG"]


def _corpus(n: int, right: float, seed: int, tags: list[str] = TAGS) -> tuple[list[list[str]], list[list[str]]]:
    """References, and predictions of which a share ``right`` are equal copies (new list objects)."""
    rng = random.Random(seed)
    references = [[rng.choice(tags) for _ in range(rng.randint(1, 20))] for _ in range(n)]
    predictions = []
    for sentence in references:
        if rng.random() < right:
            predictions.append(list(sentence))
        else:
            wrong = list(sentence)
            wrong[rng.randrange(len(wrong))] = rng.choice(tags)
            predictions.append(wrong)
    return predictions, references


def _one_side_at_a_time(predictions, references):
    vocab = Vocab(O=0)
    return [encode_tags(side, vocab, name)[0] for side, name in ((predictions, "p"), (references, "r"))], tuple(vocab)


@pytest.mark.parametrize("right", [0.0, 0.3, 0.6, 0.9, 1.0])
def test_codes_are_those_of_each_side_encoded_alone(right):
    predictions, references = _corpus(400, right, seed=int(right * 10))
    pred, ref = whole(encode_pair(predictions, references))
    (pred_alone, ref_alone), tags_alone = _one_side_at_a_time(predictions, references)
    # the code numbering may differ; the tags they stand for may not
    assert [pred.tags[c] for c in pred.codes] == [tags_alone[c] for c in pred_alone]
    assert [ref.tags[c] for c in ref.codes] == [tags_alone[c] for c in ref_alone]
    assert pred.lengths.tolist() == ref.lengths.tolist() == [len(s) for s in references]


@pytest.mark.parametrize("right", [0.0, 0.4, 0.6, 0.95])
def test_scores_equal_seqeval(right):
    predictions, references = _corpus(500, right, seed=7)
    got = score_tags(predictions, references, zero_division=0)
    expected = classification_report(references, predictions, output_dict=True, zero_division=0)
    for name in ("PER", "LOC", "ORG"):
        assert got[name]["f1"] == pytest.approx(expected[name]["f1-score"], abs=1e-12)
        assert got[name]["number"] == expected[name]["support"]
    assert got["overall_f1"] == pytest.approx(expected["micro avg"]["f1-score"], abs=1e-12)


def test_codes_past_a_byte_only_in_differing_predictions():
    """References within one byte of codes, predictions adding tags past it: no code may wrap."""
    ref_tags = ["O", *[f"B-T{i}" for i in range(200)]]
    predictions, references = _corpus(300, 0.7, seed=3, tags=ref_tags)
    extra = [f"I-X{i}" for i in range(100)]
    for i in range(0, 300, 3):
        predictions[i] = [extra[i % 100]] * len(references[i])
    pred, ref = whole(encode_pair(predictions, references))
    assert len(pred.tags) > 256
    assert [pred.tags[c] for c in pred.codes] == [t for s in predictions for t in s]
    assert [ref.tags[c] for c in ref.codes] == [t for s in references for t in s]


@pytest.mark.parametrize(
    ("predictions", "references", "error", "match"),
    [
        pytest.param([["O"], "O"], [["O"], ["O"]], TypeError, r"predictions, sentence 1: expected a list of tags",
                     id="string-sentence-among-equal-ones"),
        pytest.param([["O"], ["O", "O"]], [["O"], ["B-PER"]], ValueError, r"sentence 1: 2 predicted tags but 1 reference",
                     id="misaligned-differing-sentence"),
        pytest.param([["O"], [["B-PER"]]], [["O"], ["B-PER"]], TypeError, r"predictions, sentence 1, token 0",
                     id="unhashable-predicted-tag"),
        pytest.param([["O"], ["O"]], [["O"], ["O"], ["O"]], ValueError, r"2 predicted sentences but 3 reference",
                     id="sentence-counts"),
        pytest.param([["O", 7], ["O"]], [["O", 7], ["O"]], TypeError, r"predictions, sentence 0, token 1: tag 7",
                     id="non-string-tag-in-equal-sentences"),
        pytest.param([["O"], ["B-PER", "PER"]], [["O"], ["B-PER", "PER"]], ValueError,
                     r"predictions, sentence 1, token 1: tag 'PER': malformed", id="malformed-tag-in-equal-sentences"),
    ],
)
def test_bad_input_is_named_as_without_the_shortcut(predictions, references, error, match):
    with pytest.raises(error, match=match):
        score_tags(predictions, references)


def test_first_malformed_tag_in_corpus_order_is_named():
    """Codes are numbered references first; the error still names the earliest bad predicted tag."""
    predictions = [["O", "X-1"], ["Y-2"]]
    references = [["O", "O"], ["Y-2"]]
    with pytest.raises(ValueError, match=r"predictions, sentence 0, token 1: tag 'X-1'"):
        score_tags(predictions, references)


def test_array_sentences_are_scored_like_lists():
    """Sentences that are numpy arrays are not lists: the sides are encoded one by one."""
    predictions, references = _corpus(50, 0.8, seed=5)
    as_arrays = [np.array(s) for s in predictions]
    assert score_tags(as_arrays, references) == score_tags(predictions, references)


SCHEME_TAGS = {"IOB1": "BI", "IOB2": "BI", "IOE2": "IE", "IOBES": "BIES", "BILOU": "BILU"}


@st.composite
def agreeing_corpora(draw, letters: str):
    """Aligned corpora in which most predicted sentences copy their reference."""
    tag = st.one_of(st.just("O"), st.builds(lambda p, t: f"{p}-{t}", st.sampled_from(letters), st.sampled_from("XYZ")),
                    st.sampled_from(letters))
    references = draw(st.lists(st.lists(tag, max_size=8), min_size=1, max_size=8))
    predictions = [list(s) if draw(st.integers(0, 3)) else draw(st.lists(tag, min_size=len(s), max_size=len(s)))
                   for s in references]
    return predictions, references


@pytest.mark.parametrize("scheme", list(SCHEME_TAGS))
@pytest.mark.parametrize("mode", [None, "strict"])
def test_agreed_sentences_counted_once_equal_both_sides_decoded(scheme, mode):
    """Counting with the right sentences decoded once gives the counts of decoding both sides, notes included."""

    @settings(max_examples=150, deadline=None, derandomize=True)
    @given(agreeing_corpora(SCHEME_TAGS[scheme]))
    def check(corpus):
        predictions, references = corpus
        options = {"scheme": scheme, "mode": mode}
        try:
            expected = decode_pair(predictions, references, **options).counts()
        except ValueError:  # a prefix outside the strict scheme: the same error either way
            with pytest.raises(ValueError):
                count_tags(predictions, references, **options)
            return
        assert count_tags(predictions, references, **options) == expected

    check()


@pytest.mark.parametrize("right", [0.0, 0.9])
def test_lists_of_lists_are_split_by_agreement(right):
    predictions, references = _corpus(100, right, seed=11)
    agreement = encode_pair(predictions, references)
    assert isinstance(agreement, Agreement)
    assert len(agreement.agreed.lengths) == sum(p == r for p, r in zip(predictions, references))
    # anything else is encoded side by side
    assert not isinstance(encode_pair([np.array(s) for s in predictions], references), Agreement)


def test_corpus_of_many_chunks(monkeypatch):
    """Sentences are compared and looked up a chunk at a time; chunks must join up in order."""
    from nested_span_f1 import pair_encoding

    monkeypatch.setattr(pair_encoding, "CHUNK", 37)
    predictions, references = _corpus(1000, 0.6, seed=13)
    pred, ref = whole(encode_pair(predictions, references))
    assert [pred.tags[c] for c in pred.codes] == [t for s in predictions for t in s]
    assert [ref.tags[c] for c in ref.codes] == [t for s in references for t in s]
    expected = classification_report(references, predictions, output_dict=True, zero_division=0)
    assert score_tags(predictions, references, zero_division=0)["overall_f1"] == pytest.approx(
        expected["micro avg"]["f1-score"], abs=1e-12)
