"""Hand-made cases and round trips for flat tag decoding and the shape of the result."""
from __future__ import annotations

import warnings

import pytest
from hypothesis import given
from hypothesis import strategies as st

from nested_span_f1 import UndefinedMetricWarning, score_exact, tags_to_spans

TYPES = ("PER", "LOC", "ORG-SUB")


@st.composite
def sentences_with_spans(draw):
    """A sentence length and sorted, non-overlapping spans in it."""
    n = draw(st.integers(0, 12))
    spans, position = [], 0
    while position < n:
        gap = draw(st.integers(0, 2))
        start = position + gap
        if start >= n:
            break
        end = draw(st.integers(start + 1, min(n, start + 4)))
        spans.append((start, end, draw(st.sampled_from(TYPES))))
        position = end
    return n, spans


def encode(n, spans, scheme):
    """Independent encoder: spans -> tags in ``scheme``."""
    tags = ["O"] * n
    for k, (start, end, label) in enumerate(spans):
        before = spans[k - 1] if k else None
        after = spans[k + 1] if k + 1 < len(spans) else None
        touches_before = before is not None and before[1] == start and before[2] == label
        touches_after = after is not None and after[0] == end and after[2] == label
        for i in range(start, end):
            tags[i] = f"I-{label}"
        if scheme == "IOB2" or (scheme == "IOB1" and touches_before):
            tags[start] = f"B-{label}"
        elif scheme == "IOE2" or (scheme == "IOE1" and touches_after):
            tags[end - 1] = f"E-{label}"
        elif scheme in ("IOBES", "BILOU"):
            single, last = ("S", "E") if scheme == "IOBES" else ("U", "L")
            if end - start == 1:
                tags[start] = f"{single}-{label}"
            else:
                tags[start] = f"B-{label}"
                tags[end - 1] = f"{last}-{label}"
    return tags


def _touching_same_type(spans):
    pairs = [(spans[k], spans[k + 1]) for k in range(len(spans) - 1)]
    return [(a, b) for a, b in pairs if a[1] == b[0] and a[2] == b[2]]


def _representable(spans, scheme):
    if scheme == "IO":
        # IO cannot separate two touching chunks of one type
        return not _touching_same_type(spans)
    if scheme == "IOE1":
        # seqeval's strict IOE1 has no start rule for a one-token chunk tagged E- after O
        # (["E-PER", "I-PER"] gives only PER[1,2)); the core keeps that quirk, see test_flat_seqeval
        return not any(a[1] - a[0] == 1 for a, _ in _touching_same_type(spans))
    return True


@pytest.mark.parametrize("scheme", ["IO", "IOB1", "IOB2", "IOE1", "IOE2", "IOBES", "BILOU"])
def test_round_trip_every_scheme(scheme):
    @given(st.lists(sentences_with_spans(), min_size=1, max_size=4))
    def check(corpus):
        corpus = [(n, spans) for n, spans in corpus if _representable(spans, scheme)]
        if not corpus:
            return
        tags = [encode(n, spans, scheme) for n, spans in corpus]
        expected = [spans for _, spans in corpus]
        assert tags_to_spans(tags, scheme=scheme, mode="strict") == expected
        if scheme != "BILOU":  # default mode knows no L-/U- transitions (seqeval's behaviour)
            assert tags_to_spans(tags) == expected
        result = score_exact(tags, tags, scheme=scheme, mode="strict", zero_division=1)
        assert result["overall_f1"] == 1.0
        assert result["invalid_predicted_chunks"] == result["invalid_reference_chunks"] == 0

    check()


def test_seqeval_ioe1_quirk_kept():
    assert tags_to_spans([["E-PER", "I-PER"]], scheme="IOE1", mode="strict") == [[(1, 2, "PER")]]


def test_valid_bilou_reports_no_invalid_chunks():
    # invalid_*_chunks count the chunks the scheme rejects (dropped or repaired).
    # For valid BILOU strict mode drops nothing; seqeval's default decoder, which
    # knows no U-/L- transitions, would merge U-PER U-PER into one chunk, so the
    # count must not compare against it.
    tags = [["U-PER", "U-PER"]]
    assert tags_to_spans(tags, scheme="BILOU", mode="strict") == [[(0, 1, "PER"), (1, 2, "PER")]]
    result = score_exact(tags, tags, scheme="BILOU", mode="strict")
    assert result["overall_f1"] == 1.0
    assert result["invalid_predicted_chunks"] == 0
    assert result["invalid_reference_chunks"] == 0


@pytest.mark.parametrize(
    ("tags", "expected"),
    [
        pytest.param(["B-PER", "I-PER", "O", "B-LOC"], [(0, 2, "PER"), (3, 4, "LOC")], id="iob2"),
        pytest.param(["I-PER", "I-PER"], [(0, 2, "PER")], id="I-after-O-starts"),
        pytest.param(["B-PER", "I-LOC"], [(0, 1, "PER"), (1, 2, "LOC")], id="type-change-splits"),
        pytest.param(["B-PER", "B-PER"], [(0, 1, "PER"), (1, 2, "PER")], id="B-B"),
        pytest.param(["I-PER", "E-PER", "I-PER"], [(0, 2, "PER"), (2, 3, "PER")], id="E-ends"),
        pytest.param(["E-PER", "E-PER"], [(0, 1, "PER"), (1, 2, "PER")], id="E-without-B"),
        pytest.param(["B-PER", "S-PER", "I-PER"], [(0, 1, "PER"), (1, 2, "PER"), (2, 3, "PER")], id="S-inside"),
        pytest.param(["B-ORG-SUB", "I-ORG-SUB"], [(0, 2, "ORG-SUB")], id="type-with-dash"),
        pytest.param(["B", "I", "O", "I"], [(0, 2, "_"), (3, 4, "_")], id="untyped"),
        pytest.param([], [], id="empty"),
        pytest.param(["O"], [], id="one-O"),
        pytest.param(["I-X"], [(0, 1, "X")], id="one-I"),
    ],
)
def test_default_decoding(tags, expected):
    assert tags_to_spans([tags]) == [expected]


def test_chunks_never_cross_sentences():
    assert tags_to_spans([["B-PER", "I-PER"], ["I-PER"], [], ["I-PER"]]) == [
        [(0, 2, "PER")], [(0, 1, "PER")], [], [(0, 1, "PER")]
    ]


def test_suffix_decoding():
    assert tags_to_spans([["PER-B", "PER-I", "O", "ORG-SUB-B"]], suffix=True) == [[(0, 2, "PER"), (3, 4, "ORG-SUB")]]


@pytest.mark.parametrize("name", ["BIO", "bio", "iob2", "IOB2"])
def test_scheme_aliases(name):
    assert tags_to_spans([["I-PER", "B-LOC"]], scheme=name, mode="strict") == [[(1, 2, "LOC")]]


def test_seqeval_scheme_class_accepted():
    from seqeval.scheme import IOBES

    assert tags_to_spans([["S-PER", "B-LOC", "E-LOC"]], scheme=IOBES, mode="strict") == [[(0, 1, "PER"), (1, 3, "LOC")]]


def test_strict_scheme_detected_from_references():
    # seqeval's strict mode detects the scheme from the references
    result = score_exact([["I-PER", "O"]], [["B-PER", "O"]], mode="strict", zero_division=0)
    assert result["tp"] == 0
    assert result["invalid_predicted_chunks"] == 1


def test_result_keys_and_types():
    result = score_exact([["B-PER", "I-PER", "O", "B-LOC"]], [["B-PER", "I-PER", "B-LOC", "O"]], scheme="IOB2")
    assert set(result) == {
        "LOC", "PER",
        "overall_precision", "overall_recall", "overall_f1", "overall_accuracy",
        "macro_precision", "macro_recall", "macro_f1",
        "weighted_precision", "weighted_recall", "weighted_f1",
        "untyped_precision", "untyped_recall", "untyped_f1",
        "tp", "fp", "fn",
        "invalid_predicted_chunks", "invalid_reference_chunks",
    }
    assert result["PER"] == {"precision": 1.0, "recall": 1.0, "f1": 1.0, "number": 1}
    assert result["LOC"] == {"precision": 0.0, "recall": 0.0, "f1": 0.0, "number": 1}
    assert (result["tp"], result["fp"], result["fn"]) == (1, 1, 1)
    assert result["overall_accuracy"] == 0.5
    assert result["macro_f1"] == 0.5
    assert result["weighted_f1"] == 0.5
    for key, value in result.items():
        if isinstance(value, dict):
            assert [type(v) for v in value.values()] == [float, float, float, int], key
        else:
            assert type(value) in (int, float), key


def test_untyped_scores_ignore_labels():
    result = score_exact([["B-PER", "I-PER", "O", "B-LOC"]], [["B-ORG", "I-ORG", "O", "B-LOC"]], zero_division=0)
    assert result["overall_f1"] == 0.5
    assert result["untyped_precision"] == result["untyped_recall"] == result["untyped_f1"] == 1.0


def test_zero_division_warns_by_default():
    with pytest.warns(UndefinedMetricWarning, match="zero_division"):
        result = score_exact([["O", "O"]], [["B-PER", "O"]])
    assert result["PER"] == {"precision": 0.0, "recall": 0.0, "f1": 0.0, "number": 1}
    assert result["overall_precision"] == 0.0


@pytest.mark.parametrize("zero_division", [0, 1])
def test_zero_division_value_is_silent(zero_division):
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        result = score_exact([["O", "O"]], [["B-PER", "O"]], zero_division=zero_division)
    assert result["PER"]["precision"] == float(zero_division)
    assert result["PER"]["recall"] == 0.0
    assert result["overall_precision"] == float(zero_division)


@pytest.mark.parametrize("zero_division", ["warn", 0, 1])
def test_no_entity_anywhere(zero_division):
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        result = score_exact([["O"]], [["O"]], zero_division=zero_division)
    value = 0.0 if zero_division == "warn" else float(zero_division)
    assert not [k for k, v in result.items() if isinstance(v, dict)]
    # seqeval's macro average is NaN here; ours is the zero_division value (documented)
    for key in ("overall_f1", "macro_precision", "macro_f1", "weighted_precision", "weighted_f1"):
        assert result[key] == value, key
    assert result["overall_accuracy"] == 1.0
