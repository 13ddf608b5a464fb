"""The vectorised pipeline equals the plain per-sentence algorithm of ``tests/reference.py``.

Counts, untyped tallies, token accuracy and the invalid-chunk notes, in every
scheme, both modes and under seqeval's and conlleval's repair rules, on random
corpora that include every prefix the scheme has, bare untyped tags, empty
sentences and predictions that copy some reference sentences whole.
"""
from __future__ import annotations

import warnings

import pytest
import reference
from hypothesis import given
from hypothesis import strategies as st

from nested_span_f1 import count_exact
from nested_span_f1.flat.schemes import CONLLEVAL_DEFAULT, SCHEMES, SEQEVAL_DEFAULT

RULES = {"seqeval": SEQEVAL_DEFAULT, "conlleval": CONLLEVAL_DEFAULT}


@st.composite
def corpora(draw, letters: str):
    """Aligned (predictions, references) over O, typed and bare tags with the given prefixes."""
    tag = st.one_of(st.just("O"), st.sampled_from([f"{p}-{t}" for p in letters for t in ("X", "Y-Z")]),
                    st.sampled_from(list(letters)))
    references = draw(st.lists(st.lists(tag, max_size=9), min_size=1, max_size=6))
    predictions = [list(s) if draw(st.booleans()) else [draw(tag) for _ in s] for s in references]
    return predictions, references


def as_reference(counts) -> dict:
    return {
        "labels": {label: (t.tp, t.predicted, t.gold) for label, t in counts.labels.items()},
        "untyped": (counts.untyped.tp, counts.untyped.predicted, counts.untyped.gold),
        "tokens": counts.tokens, "correct_tokens": counts.correct_tokens,
        "notes": {k: v for k, v in counts.notes.items() if k.startswith("invalid")},
    }


@pytest.mark.parametrize("rules", list(RULES))
@pytest.mark.parametrize("mode", [None, "strict"])
@pytest.mark.parametrize("scheme", list(SCHEMES))
def test_counts_equal_the_reference(scheme, mode, rules):
    letters = SCHEMES[scheme].letters.replace("O", "")

    @given(corpora(letters))
    def check(corpus):
        predictions, references = corpus
        got = count_exact(predictions, references, scheme=scheme, mode=mode, default_rules=RULES[rules])
        expected = reference.count(predictions, references, scheme=scheme, mode=mode, rules=RULES[rules])
        assert as_reference(got) == expected

    check()


@given(corpora("BIESULM"), st.sampled_from(list(RULES)))
def test_default_mode_without_a_scheme_equals_the_reference(corpus, rules):
    """Any prefix mix, no scheme: the repairing decoder alone, no notes."""
    predictions, references = corpus
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        got = count_exact(predictions, references, default_rules=RULES[rules])
    assert as_reference(got) == reference.count(predictions, references, rules=RULES[rules])


@given(corpora("BIESULM"), st.sampled_from(list(SCHEMES)), st.sampled_from(list(RULES)))
def test_default_mode_with_a_scheme_the_tags_break_equals_the_reference(corpus, scheme, rules):
    """Any prefix mix with a scheme passed: default mode decodes every prefix, and the chunks the
    scheme rejects (those holding a prefix it lacks among them) are counted."""
    predictions, references = corpus
    got = count_exact(predictions, references, scheme=scheme, default_rules=RULES[rules])
    assert as_reference(got) == reference.count(predictions, references, scheme=scheme, rules=RULES[rules])
    assert set(got.notes) == {"invalid_predicted_chunks", "invalid_reference_chunks"}


def test_reference_strict_example():
    """The reference itself, on a case worked by hand: IOB2 strict drops the I-started chunk."""
    scheme = SCHEMES["IOB2"]
    assert reference.strict_chunks(["I-X", "I-X", "O", "B-X", "I-X", "B-Y"], scheme) == [(3, 5, "X"), (5, 6, "Y")]
    assert reference.default_chunks(["I-X", "I-X", "O", "B-X", "I-X", "B-Y"]) == [(0, 2, "X"), (3, 5, "X"), (5, 6, "Y")]
    assert reference.invalid_chunks(["I-X", "I-X", "O", "B-X", "I-X", "B-Y"], "IOB2", False, SEQEVAL_DEFAULT) == 1


def test_no_rule_fires_where_the_tagged_token_decoder_does_not_look():
    """The decoder reads tagged tokens only: a repairing decoder's chunks end after a tagged token and
    start on one; strict chunks start on one, and the inside rule takes no O on either side."""
    outside = 0  # the prefix code of O
    for rules in RULES.values():
        assert not rules.ends[outside].any() and not rules.starts[:, outside].any()
    for scheme in SCHEMES.values():
        assert not scheme.starts[:, outside].any()
        assert not scheme.inside[outside].any() and not scheme.inside[:, outside].any()
