"""The invalid-chunk notes: counted as a difference where strict mode keeps a subset of the default chunks.

``kept_chunks_are_default_chunks`` decides that from the rule tables; these tests
check the decision on every tag sequence of up to five tokens, and check that the
two ways of counting (difference of counts, matching of chunks) agree.
"""
from __future__ import annotations

from itertools import product

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from nested_span_f1 import count_tags, decode_pair, flat
from nested_span_f1.schemes import CONLLEVAL_DEFAULT, SCHEMES, SEQEVAL_DEFAULT, kept_chunks_are_default_chunks

RULES = {"seqeval": SEQEVAL_DEFAULT, "conlleval": CONLLEVAL_DEFAULT}


def _tags(scheme):
    return ["O"] + [f"{p}-{t}" for p in scheme.letters if p != "O" for t in ("X", "Y")]


def test_which_schemes_keep_a_subset():
    """Documents the decision: every scheme but IOB1 (where B-X I-X both starts and continues a chunk)."""
    decided = {(name, rules): kept_chunks_are_default_chunks(s, SEQEVAL_DEFAULT if s.read_as else RULES[rules])
               for name, s in SCHEMES.items() for rules in RULES}
    assert {key for key, holds in decided.items() if not holds} == {
        ("IOB1", "seqeval"), ("IOB1", "conlleval"), ("IOBES", "conlleval")}


@pytest.mark.parametrize("rules", list(RULES))
@pytest.mark.parametrize("name", list(SCHEMES))
def test_decision_holds_on_every_short_sequence(name, rules):
    """Where the tables say so, each chunk strict mode keeps is a (repaired) default chunk, on all sequences of <= 5 tags."""
    scheme = SCHEMES[name]
    default_rules = SEQEVAL_DEFAULT if scheme.read_as else RULES[rules]
    if not kept_chunks_are_default_chunks(scheme, default_rules):
        pytest.skip(f"{name} with {rules} rules is counted by matching")
    tags = _tags(scheme)
    sentences = [list(s) for n in range(1, 6 if len(tags) <= 7 else 5) for s in product(tags, repeat=n)]
    read_as = dict(pair for pair in scheme.read_as.split())
    repaired = [[t if t == "O" else read_as.get(t[0], t[0]) + t[1:] for t in s] for s in sentences]
    kept = decode_pair(sentences, sentences, mode="strict", scheme=name).references.to_lists()
    default = decode_pair(repaired, repaired, default_rules=default_rules).references.to_lists()
    outside = [(i, chunk) for i, (k, d) in enumerate(zip(kept, default)) for chunk in set(k) - set(d)]
    assert not outside, [(sentences[i], chunk) for i, chunk in outside[:3]]


def _corpus(name):
    """(predictions, references): up to six sentences of the scheme's tags, aligned."""
    tag = st.sampled_from(_tags(SCHEMES[name]))
    references = st.lists(st.lists(tag, max_size=8), min_size=1, max_size=6)
    return references.flatmap(lambda refs: st.tuples(
        st.tuples(*[st.lists(tag, min_size=len(r), max_size=len(r)) for r in refs]), st.just(refs)))


@pytest.mark.parametrize("rules", list(RULES))
@pytest.mark.parametrize("mode", [None, "strict"])
@pytest.mark.parametrize("name", list(SCHEMES))
def test_counting_equals_matching(name, mode, rules, monkeypatch):
    """The notes counted as a difference equal the notes found by matching the chunks."""
    @settings(max_examples=60, deadline=None)
    @given(_corpus(name))
    def check(corpus):
        predictions, references = list(map(list, corpus[0])), corpus[1]
        options = {"scheme": name, "mode": mode, "default_rules": RULES[rules]}
        counted = count_tags(predictions, references, **options)
        with monkeypatch.context() as m:
            m.setattr(flat, "kept_chunks_are_default_chunks", lambda scheme, rules: False)
            matched = count_tags(predictions, references, **options)
        assert counted == matched

    check()
