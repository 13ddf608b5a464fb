"""Differential tests: span_f1's flat scores against the real seqeval 1.2.2.

Random corpora include malformed sequences (I- after O, a type change inside a
chunk, E- without B-, S- inside a chunk...), a type containing '-', bare
untyped tags, empty sentences and sentences of one token. Every per-type,
micro, macro and weighted value must equal seqeval's ``classification_report``
exactly (the same float), and ``overall_accuracy`` must equal ``accuracy_score``.
"""
from __future__ import annotations

import random
import warnings

import pytest
from hypothesis import given
from hypothesis import strategies as st
from seqeval import scheme as seqeval_scheme
from seqeval.metrics import accuracy_score, classification_report
from seqeval.metrics.sequence_labeling import get_entities
from seqeval.scheme import Entities

from nested_span_f1 import score_exact, tags_to_spans

TYPES = ("PER", "LOC", "ORG-SUB")
AVERAGES = ("micro avg", "macro avg", "weighted avg")
STRICT_SCHEMES = {
    "IOB1": "IOB",
    "IOB2": "IOB",
    "IOE1": "IOE",
    "IOE2": "IOE",
    "IOBES": "IOBES",
    "BILOU": "BILOU",
}


def _tags(prefixes: str, *, bare: bool, suffix: bool = False) -> st.SearchStrategy[str]:
    """One tag: O, a typed tag with one of ``prefixes``, or (``bare``) a prefix alone."""
    letters = [p for p in prefixes if p != "O"]
    typed = st.builds(
        (lambda p, t: f"{t}-{p}") if suffix else (lambda p, t: f"{p}-{t}"),
        st.sampled_from(letters),
        st.sampled_from(TYPES),
    )
    options = [st.just("O"), typed]
    if bare:
        options.append(st.sampled_from(letters))
    return st.one_of(*options)


@st.composite
def corpora(draw, prefixes: str, *, bare: bool = True, suffix: bool = False):
    """(predictions, references): aligned random corpora; predictions copy some reference tags,
    and some whole reference sentences (what the encoder then shares between the sides)."""
    tag = _tags(prefixes, bare=bare, suffix=suffix)
    lengths = draw(st.lists(st.integers(0, 9), min_size=1, max_size=6))
    references = [[draw(tag) for _ in range(n)] for n in lengths]
    predictions = [
        list(sentence) if draw(st.booleans()) else [ref if draw(st.booleans()) else draw(tag) for ref in sentence]
        for sentence in references
    ]
    return predictions, references


def _seqeval_report(predictions, references, *, mode=None, scheme=None, suffix=False, zero_division="warn"):
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        return classification_report(
            references,
            predictions,
            output_dict=True,
            mode=mode,
            scheme=getattr(seqeval_scheme, scheme) if scheme else None,
            suffix=suffix,
            zero_division=zero_division,
        )


def _ours(predictions, references, **options):
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        return score_exact(predictions, references, **options)


def assert_same_as_seqeval(predictions, references, *, mode=None, scheme=None, suffix=False, zero_division="warn"):
    expected = _seqeval_report(
        predictions, references, mode=mode, scheme=scheme, suffix=suffix, zero_division=zero_division
    )
    got = _ours(predictions, references, mode=mode, scheme=scheme, suffix=suffix, zero_division=zero_division)

    expected_types = set(expected) - set(AVERAGES)
    got_types = {key for key, value in got.items() if isinstance(value, dict)}
    assert got_types == expected_types
    for name in expected_types:
        row = expected[name]
        assert got[name]["precision"] == row["precision"], name
        assert got[name]["recall"] == row["recall"], name
        assert got[name]["f1"] == row["f1-score"], name
        assert got[name]["number"] == row["support"], name
        assert type(got[name]["number"]) is int

    micro = expected["micro avg"]
    assert got["overall_precision"] == micro["precision"]
    assert got["overall_recall"] == micro["recall"]
    assert got["overall_f1"] == micro["f1-score"]
    assert got["tp"] + got["fn"] == micro["support"]
    if expected_types:
        # With no entity at all seqeval's macro average is NaN (mean of nothing);
        # ours is the zero_division value, as documented in scores.summarize.
        macro = expected["macro avg"]
        assert got["macro_precision"] == macro["precision"]
        assert got["macro_recall"] == macro["recall"]
        assert got["macro_f1"] == macro["f1-score"]
    weighted = expected["weighted avg"]
    assert got["weighted_precision"] == weighted["precision"]
    assert got["weighted_recall"] == weighted["recall"]
    assert got["weighted_f1"] == weighted["f1-score"]

    if any(references):
        assert got["overall_accuracy"] == accuracy_score(references, predictions)
    for key, value in got.items():
        assert type(value) in (dict, int, float), (key, type(value))


# --- default mode -------------------------------------------------------------------------


@given(corpora("OBIES"), st.sampled_from(["warn", 0, 1]))
def test_default_mode_equals_seqeval(corpus, zero_division):
    predictions, references = corpus
    assert_same_as_seqeval(predictions, references, zero_division=zero_division)


@given(corpora("OBIES", suffix=True))
def test_default_mode_suffix_equals_seqeval(corpus):
    predictions, references = corpus
    assert_same_as_seqeval(predictions, references, suffix=True)


@given(corpora("OBIES"))
def test_default_mode_spans_equal_seqeval_get_entities(corpus):
    _, references = corpus
    flat = [(type_, start, end + 1) for type_, start, end in get_entities(references)]
    ours = tags_to_spans(references)
    offset = 0
    got = []
    for sentence, spans in zip(references, ours):
        got.extend((label, offset + start, offset + end) for start, end, label in spans)
        offset += len(sentence) + 1  # get_entities puts one "O" after every sentence
    assert sorted(got) == sorted(flat)


@given(corpora("OBIESUL"))
def test_default_mode_u_and_l_prefixes_per_sentence(corpus):
    # seqeval's default mode knows no U-/L- transitions: they only start or end chunks
    # through type changes, and a chunk with no start in its sentence reuses the
    # offset of an earlier sentence. Within one sentence scored alone it is sane.
    _, references = corpus
    ours = tags_to_spans(references)
    for sentence, spans in zip(references, ours):
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            expected = {(start, end + 1, type_) for type_, start, end in get_entities(list(sentence))}
        assert set(spans) == expected, sentence


@pytest.mark.parametrize(
    ("tags", "expected"),
    [
        pytest.param(["U-PER"], [(0, 1, "PER")], id="lone-U"),
        pytest.param(["U-PER", "U-PER"], [(0, 2, "PER")], id="U-U-same-type-merges"),
        pytest.param(["B-PER", "L-PER", "O"], [(0, 2, "PER")], id="B-L"),
        # no rule ends a chunk at L-, so the B- after it restarts the open chunk
        pytest.param(["B-PER", "L-PER", "B-PER"], [(2, 3, "PER")], id="B-L-B-loses-first"),
        pytest.param(["L-PER", "U-LOC"], [(0, 1, "PER"), (1, 2, "LOC")], id="type-change"),
        # O and bare U share the empty type "_", so nothing starts at U: the chunk
        # takes the sentence's first offset
        pytest.param(["O", "U", "B-PER"], [(0, 2, "_"), (2, 3, "PER")], id="bare-U-before-typed"),
    ],
)
def test_default_mode_u_and_l_examples(tags, expected):
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        seqeval_spans = sorted((s, e + 1, t) for t, s, e in get_entities(tags))
    assert seqeval_spans == sorted(expected)
    assert sorted(tags_to_spans([tags])[0]) == sorted(expected)


@pytest.mark.parametrize(
    ("predictions", "references"),
    [
        pytest.param([[]], [[]], id="one-empty-sentence"),
        pytest.param([["O"]], [["O"]], id="no-entity"),
        pytest.param([["B-PER"]], [["O"]], id="only-predicted"),
        pytest.param([["O"]], [["I-PER"]], id="only-gold"),
        pytest.param([["B-ORG-SUB", "I-ORG-SUB"]], [["B-ORG-SUB", "I-ORG-SUB"]], id="type-with-dash"),
        pytest.param([["I-PER", "I-LOC", "E-LOC", "S-PER"]], [["B-PER", "E-PER", "S-LOC", "I-LOC"]], id="malformed"),
        pytest.param([["B", "I", "O"], ["O"]], [["B", "O", "I"], ["O"]], id="untyped"),
    ],
)
@pytest.mark.parametrize("zero_division", ["warn", 0, 1])
def test_default_mode_examples(predictions, references, zero_division):
    assert_same_as_seqeval(predictions, references, zero_division=zero_division)


# --- strict mode --------------------------------------------------------------------------


@pytest.mark.parametrize("scheme", list(STRICT_SCHEMES))
def test_strict_mode_equals_seqeval(scheme):
    @given(corpora("O" + STRICT_SCHEMES[scheme]), st.sampled_from(["warn", 0, 1]))
    def check(corpus, zero_division):
        predictions, references = corpus
        assert_same_as_seqeval(predictions, references, mode="strict", scheme=scheme, zero_division=zero_division)

    check()


def _dropped_by_strict(sentences, scheme):
    """seqeval's default chunks (BILOU read as IOBES) that its strict mode does not keep."""
    read = {"U": "S", "L": "E"} if scheme == "BILOU" else {}
    kept = Entities(sentences, getattr(seqeval_scheme, scheme)).entities
    dropped = 0
    for sentence, strict in zip(sentences, kept):
        default = {(t, b, e + 1) for t, b, e in get_entities([read.get(x[0], x[0]) + x[1:] for x in sentence])}
        dropped += len(default - {(x.tag, x.start, x.end) for x in strict})
    return dropped


@pytest.mark.parametrize("scheme", ["IOB2", "IOE2", "IOBES", "BILOU"])
def test_invalid_chunk_notes_count_what_strict_mode_drops(scheme):
    @given(corpora("O" + STRICT_SCHEMES[scheme], bare=False))
    def check(corpus):
        predictions, references = corpus
        for mode in (None, "strict"):
            result = _ours(predictions, references, mode=mode, scheme=scheme)
            assert result["invalid_predicted_chunks"] == _dropped_by_strict(predictions, scheme)
            assert result["invalid_reference_chunks"] == _dropped_by_strict(references, scheme)

    check()


@pytest.mark.parametrize("scheme", ["IOB2", "IOBES", "BILOU"])
def test_strict_mode_suffix_equals_seqeval(scheme):
    @given(corpora("O" + STRICT_SCHEMES[scheme], suffix=True))
    def check(corpus):
        predictions, references = corpus
        assert_same_as_seqeval(predictions, references, mode="strict", scheme=scheme, suffix=True)

    check()


@pytest.mark.parametrize(
    ("scheme", "tags", "expected"),
    [
        pytest.param("IOB2", ["I-PER", "I-PER", "B-LOC"], [(2, 3, "LOC")], id="IOB2-I-after-O-dropped"),
        pytest.param("IOB2", ["B-PER", "I-LOC"], [(0, 1, "PER")], id="IOB2-type-change-drops-I"),
        pytest.param("IOBES", ["B-PER", "S-PER", "E-PER"], [(1, 2, "PER")], id="IOBES-S-inside"),
        pytest.param("IOBES", ["E-PER", "O"], [], id="IOBES-E-without-B"),
        pytest.param("IOE2", ["I-PER", "E-PER", "E-PER"], [(0, 2, "PER"), (2, 3, "PER")], id="IOE2"),
        pytest.param("BILOU", ["B-ORG-SUB", "L-ORG-SUB", "U-PER"], [(0, 2, "ORG-SUB"), (2, 3, "PER")], id="BILOU"),
    ],
)
def test_strict_mode_examples(scheme, tags, expected):
    strict = seqeval_scheme.Entities([tags], getattr(seqeval_scheme, scheme)).entities[0]
    assert sorted((e.start, e.end, e.tag) for e in strict) == sorted(expected)
    assert sorted(tags_to_spans([tags], scheme=scheme, mode="strict")[0]) == sorted(expected)
    assert_same_as_seqeval([tags], [tags], mode="strict", scheme=scheme)


def test_strict_and_default_disagreement_is_reported():
    references = [["B-PER", "I-PER", "O"]]
    predictions = [["I-PER", "I-PER", "O"]]
    default = _ours(predictions, references, scheme="IOB2")
    strict = _ours(predictions, references, mode="strict", scheme="IOB2")
    # default mode repairs I-PER I-PER into PER[0,2); strict IOB2 drops it
    assert default["overall_f1"] == 1.0
    assert default["tp"] == 1
    assert default["invalid_predicted_chunks"] == 1
    assert strict["tp"] == 0
    assert strict["invalid_predicted_chunks"] == 1
    assert strict["invalid_reference_chunks"] == 0


# --- IO in strict mode (seqeval lacks it) -----------------------------------------------------


def io_reference_chunks(sentence):
    """Independent IO reference: every maximal run of one type is one chunk."""
    chunks, start, current = [], 0, None
    for k, tag in enumerate([*sentence, "O"]):
        type_ = None if tag == "O" else (tag[2:] or "_")
        if type_ != current:
            if current is not None:
                chunks.append((start, k, current))
            start, current = k, type_
    return chunks


@given(corpora("OI"))
def test_io_strict_every_run_of_one_type_is_a_chunk(corpus):
    predictions, references = corpus
    for side in (predictions, references):
        got = tags_to_spans(side, scheme="IO", mode="strict")
        assert [sorted(spans) for spans in got] == [sorted(io_reference_chunks(s)) for s in side]

    result = _ours(predictions, references, scheme="IO", mode="strict", zero_division=0)
    pred_sets = [set(io_reference_chunks(s)) for s in predictions]
    ref_sets = [set(io_reference_chunks(s)) for s in references]
    tp = sum(len(p & r) for p, r in zip(pred_sets, ref_sets))
    n_pred = sum(map(len, pred_sets))
    n_gold = sum(map(len, ref_sets))
    assert (result["tp"], result["fp"], result["fn"]) == (tp, n_pred - tp, n_gold - tp)
    for name in {c[2] for s in pred_sets + ref_sets for c in s}:
        gold = sum(1 for s in ref_sets for c in s if c[2] == name)
        assert result[name]["number"] == gold


def test_io_strict_example():
    tags = ["I-PER", "I-PER", "I-LOC", "O", "I-LOC", "I", "I"]
    assert tags_to_spans([tags], scheme="IO", mode="strict") == [
        [(0, 2, "PER"), (2, 3, "LOC"), (4, 5, "LOC"), (5, 7, "_")]
    ]


# --- sizes past a byte ------------------------------------------------------------------


def test_more_tags_than_a_byte_holds():
    """Over 256 distinct tags the codes no longer fit a byte; scores must not change."""
    types = [f"T{i}" for i in range(200)]
    references = [[f"B-{t}", f"I-{t}", "O"] for t in types]
    predictions = [[f"B-{t}", f"I-{types[(i + 1) % 200] if i % 3 == 0 else t}", "O"] for i, t in enumerate(types)]
    assert_same_as_seqeval(predictions, references)
    assert_same_as_seqeval(predictions, references, mode="strict", scheme="IOB2")


@pytest.mark.parametrize("new_tags", [1, 2])
def test_codes_in_a_byte_and_past_it(new_tags):
    """Codes fill a bytearray while the vocabulary has at most 256 tags, four bytes from then on. The
    references hold 255 tags (O, B- and I- of 127 types); the predictions bring 1 more (256: still a
    byte) or 2 (257: past it) in a sentence that is wrong, while the references still fit a byte."""
    types = [f"T{i}" for i in range(127)]
    references = [[f"B-{t}", f"I-{t}", "O"] for t in types] + [["O", "O"]]
    predictions = [list(s) for s in references[:-1]] + [["B-NEW1", "B-NEW2"][:new_tags] + ["O"] * (2 - new_tags)]
    assert len({t for s in references + predictions for t in s}) == 255 + new_tags
    assert_same_as_seqeval(predictions, references, zero_division=0)
    assert_same_as_seqeval(predictions, references, mode="strict", scheme="IOB2", zero_division=0)


def test_sentences_longer_than_a_byte_holds():
    """Lengths are kept in a byte while every sentence has fewer than 256 tokens; longer ones
    (alone in their chunk of sentences, or after short ones) must not change the scores, and
    nor must a sentence of 255 tokens, whose separator lies 256 places on."""

    rng = random.Random(3)
    tags = ["O", "B-PER", "I-PER", "B-LOC", "I-LOC"]
    for sizes in ([255, 1, 255], [256, 3, 300, 2], [5] * 5000 + [255, 700, 4]):
        references = [[rng.choice(tags) for _ in range(n)] for n in sizes]
        predictions = [[t if rng.random() < 0.8 else rng.choice(tags) for t in s] for s in references]
        assert_same_as_seqeval(predictions, references)
        assert_same_as_seqeval(predictions, references, mode="strict", scheme="IOB2")


def test_sentence_whose_length_disagrees_with_its_items():
    """A sentence whose len() and items disagree is refused, whichever way they differ."""

    class Short(tuple):
        def __len__(self):
            return 1

    class Long(list):
        def __len__(self):
            return 3

    with pytest.raises(ValueError, match=r"^references: the sentences hold 2 tags when iterated but 1 by len\(\)$"):
        score_exact([["O"]], [Short(["O", "O"])])
    with pytest.raises(ValueError, match=r"^references: the sentences hold 2 tags when iterated but 3 by len\(\)$"):
        score_exact([["O", "O", "O"]], [Long(["O", "O"])])
    with pytest.raises(TypeError, match=r"references, sentence 1: expected a list of tags, got str 'O'"):
        score_exact([["O"], ["O"]], [["O"], "O"])


@given(st.sets(st.sampled_from("OBIESUL"), max_size=5))
def test_strict_mode_detects_the_scheme_as_seqeval_does(prefixes):
    """Strict mode without a scheme: the scheme seqeval's auto_detect picks from the reference
    prefixes, and a refusal exactly where it refuses."""
    references = [[p if p == "O" else f"{p}-X" for p in sorted(prefixes)]]
    try:
        expected = seqeval_scheme.auto_detect(references).__name__
    except ValueError:
        expected = None
    try:
        got = score_exact(references, references, mode="strict", zero_division=0)
    except ValueError as error:
        assert expected is None, error
        assert "seqeval detects" in str(error)
    else:
        assert expected is not None and got == score_exact(references, references, mode="strict", scheme=expected,
                                                          zero_division=0)
