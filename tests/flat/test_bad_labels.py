"""Bad labels are errors that name the side, the sentence, the token and the value: what the catalogue does not hold.

seqeval silently mis-parses most of these (``PER`` becomes type ``ER``, ``'-100'``
becomes type ``100``...); span_f1 refuses them. The catalogue (tests/test_bad_input.py)
runs each malformed tag, option, label id and shape at every door, with its message;
here are only what it does not cover: numpy input, the ValueError that a tag that
is not a string also is, a zero_division string, label_list as one string, the
strict scheme's allowed prefixes, tags_to_spans's one argument, the whole message of a side
that is not a list of sentences, and a bad sentence past the first chunk.
"""
from __future__ import annotations

import numpy as np
import pytest

from nested_span_f1 import count_exact, score_exact, tags_to_spans

LABEL_LIST = ["O", "B-PER", "I-PER"]


@pytest.mark.parametrize(
    ("predictions", "match"),
    [
        pytest.param([["O", None]], r"^predictions, sentence 0, token 1: tag None is not a string$", id="None"),
        pytest.param(
            [[0, 1]],
            r"^predictions, sentence 0, token 0: tag 0 is not a string \(integer label ids need label_list\)$",
            id="int-ids-without-label_list",
        ),
        pytest.param(
            [np.array([0, 1])],
            r"predictions, sentence 0, token 0: tag np\.int64\(0\) is not a string \(integer label ids need label_list\)",
            id="numpy-ids-without-label_list",
        ),
    ],
)
def test_non_string_tags_raise_value_error(predictions, match):
    # issue 2 asks for ValueError; the value is not a string at all, so it is a TypeError as well
    with pytest.raises(ValueError, match=match) as caught:
        score_exact(predictions, [["O", "O"]])
    assert isinstance(caught.value, TypeError)


@pytest.mark.parametrize(
    ("predictions", "references", "match"),
    [
        pytest.param(
            np.array([[0, 1, 9], [0, 0, -100]]), np.array([[0, 1, 1], [0, 0, -100]]),
            r"predictions, sentence 0, token 2: label id 9 is outside label_list", id="numpy",
        ),
        pytest.param(
            np.array([[0, 1, -100], [0, 7, 0]]), np.array([[0, 1, -100], [-100, 1, 1]]),
            # the column in the row as given (the padded row a Trainer user looks at), -100 positions counted
            r"predictions, sentence 1, token 1: label id 7 is outside label_list", id="position-after-ignored",
        ),
    ],
)
def test_ids_outside_label_list(predictions, references, match):
    with pytest.raises(ValueError, match=match):
        score_exact(predictions, references, label_list=LABEL_LIST)


def test_id_sentence_counts_must_align():
    with pytest.raises(ValueError, match=r"^1 predicted sentence but 2 reference sentences"):
        score_exact([[0]], [[0], [1]], label_list=LABEL_LIST)


def test_label_list_of_non_strings():
    with pytest.raises(TypeError, match=r"^label_list must be the tag of each label id.*label id 0 has 0, not a tag"):
        score_exact([[0]], [[0]], label_list=[0, 1])


def test_label_list_as_one_string():
    """A string is a sequence of one-character strings: it is refused, not read as tags ' ', 'B', ..."""
    with pytest.raises(TypeError, match=r"^label_list must be the tag of each label id: a list, or a dict id -> tag "
                                        r"\(id2label\) or tag -> id \(label2id\); got one string 'O B-PER'$"):
        score_exact([[1, 0]], [[1, 0]], label_list="O B-PER")


def test_prefix_outside_strict_scheme():
    with pytest.raises(
        ValueError,
        match=r"^predictions, sentence 0, token 1: tag 'E-PER': prefix E is not part of scheme IOB2 \(allowed: I, O, B; "
              r"E is in IOE1, IOE2, IOBES, BMES\); pick the scheme the tags use, or score in default mode$",
    ):
        score_exact([["B-PER", "E-PER"]], [["B-PER", "I-PER"]], mode="strict", scheme="IOB2")
    with pytest.raises(ValueError, match=r"references, sentence 1, token 0: tag 'U-PER': prefix U is not part of scheme IOBES"):
        count_exact([["O"], ["S-PER"]], [["O"], ["U-PER"]], mode="strict", scheme="IOBES")
    # default mode repairs instead of refusing
    assert score_exact([["B-PER", "E-PER"]], [["B-PER", "I-PER"]], scheme="IOB2")["overall_f1"] == 1.0


@pytest.mark.parametrize(
    ("options", "error", "match"),
    [
        pytest.param({"zero_division": "nan"}, ValueError, r"zero_division must be", id="zero_division-str"),
    ],
)
def test_bad_options(options, error, match):
    with pytest.raises(error, match=match):
        score_exact([["B-PER"]], [["B-PER"]], **options)


@pytest.mark.parametrize(
    ("predictions", "match"),
    [
        pytest.param("B-PER O", r"^predictions: expected a list of sentences \(one list per sentence\), got str 'B-PER O'$",
                     id="string-corpus"),
        pytest.param(["B-PER", "O"], r"predictions, sentence 0: expected a list of tags, got str 'B-PER'", id="flat-list"),
    ],
)
def test_not_a_list_of_sentences(predictions, match):
    with pytest.raises(TypeError, match=match):
        score_exact(predictions, [["B-PER"], ["O"]])


@pytest.mark.parametrize(
    ("sentences", "options", "error", "match"),
    [
        ([["B-PER", "X-LOC"]], {}, ValueError, r"^sentences, sentence 0, token 1: tag 'X-LOC': malformed"),
        ([["O"], ["B-PER", 3]], {}, TypeError, r"^sentences, sentence 1, token 1: tag 3 is not a string"),
        (["B-PER"], {}, TypeError, r"^sentences, sentence 0: expected a list of tags, got str 'B-PER'"),
        ([["B-PER", "E-PER"]], {"mode": "strict", "scheme": "IOB2"}, ValueError,
         r"^sentences, sentence 0, token 1: tag 'E-PER': prefix E is not part of scheme IOB2"),
    ],
)
def test_tags_to_spans_names_its_one_argument(sentences, options, error, match):
    """tags_to_spans decodes one list; its errors name that list, not a predicted or reference side."""
    with pytest.raises(error, match=match):
        tags_to_spans(sentences, **options)


def test_bad_sentence_past_the_first_chunk_is_named():
    """Sentences are measured a chunk at a time; a string far into the corpus is still found and named."""
    references = [["B-PER", "O"]] * 9000
    predictions = [["B-PER", "O"]] * 9000
    predictions[8500] = "B-PER O"
    with pytest.raises(TypeError, match=r"^predictions, sentence 8500: expected a list of tags, got str 'B-PER O'"):
        score_exact(predictions, references)
