"""The string protocol equals an independent implementation of UniversalNER's evaluation, written here.

UniversalNER (``src/eval/evaluate.py``) normalises each answer string (lower-case,
ASCII punctuation deleted, the words a/an/the replaced by a space, whitespace
collapsed), de-duplicates the strings of each (document, type) question, and
counts a predicted string correct when it is among the gold strings. The code below
restates that from its description, per type, without importing the package's
implementation, and is run on >= 1,000 generated documents full of repeats, case,
punctuation, article and whitespace variants.
"""
from __future__ import annotations

import random
import re
import string
from collections import Counter, defaultdict

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from nested_span_f1.answers.normalize import Normalization
from nested_span_f1.answers.strings import count_strings
from nested_span_f1.core.counts import Counts, Tally
from nested_span_f1.core.scores import summarize


def universalner_normalize(s):
    """UniversalNER's normalize_answer, restated: the four steps in its order."""
    s = s.lower()
    s = "".join(ch for ch in s if ch not in set(string.punctuation))
    s = re.sub(r"\b(a|an|the)\b", " ", s)
    return " ".join(s.split())


def universalner_counts(predictions, references, multiset=False):
    """Per type: (correct, predicted, gold), one question per (document, type), as UniversalNER counts them."""
    out = defaultdict(lambda: [0, 0, 0])
    for pred, gold in zip(predictions, references):
        types = {label for _, label in pred} | {label for _, label in gold}
        for t in types:
            p = [universalner_normalize(s) for s, label in pred if label == t]
            g = [universalner_normalize(s) for s, label in gold if label == t]
            if multiset:
                cp, cg = Counter(p), Counter(g)
                out[t][0] += sum(min(n, cg[s]) for s, n in cp.items())
                out[t][1] += len(p)
                out[t][2] += len(g)
                continue
            p_items, g_items = [], []
            for items, source in ((p_items, p), (g_items, g)):
                for item in source:
                    if item not in items:  # UniversalNER's parser keeps the first of each string
                        items.append(item)
            out[t][0] += sum(1 for item in p_items if item in g_items)
            out[t][1] += len(p_items)
            out[t][2] += len(g_items)
    return {t: tuple(v) for t, v in out.items()}


def prf(correct, predicted, gold):
    p = correct / predicted if predicted else 0.0
    r = correct / gold if gold else 0.0
    return p, r, (2 * p * r / (p + r) if p + r else 0.0)


NAMES = {
    "PER": ["Barack Obama", "O'Brien", "Jean-Luc Picard", "J.R.R. Tolkien", "Anna", "the Rock", "An Wang"],
    "ORG": ["The Beatles", "AT&T", "U.N.", "the Who", "A-ha", "Procter & Gamble", "IBM"],
    "LOC": ["the U.S.", "New York", "Paris", "São Paulo", "an island", "Côte d'Ivoire", "“Big Apple”"],
    "MISC": ["World War II", "a", "The", "...", "C++", "e.g.", "Nobel Prize"],
}


def variant(rng, text):
    """A form of ``text`` that UniversalNER's normalisation may or may not make equal to it."""
    kind = rng.randrange(8)
    if kind == 0:
        return text.upper()
    if kind == 1:
        return text.lower()
    if kind == 2:
        return text.replace(".", "").replace("'", "").replace("-", "")
    if kind == 3:
        return "the " + text if not text.lower().startswith("the ") else text[4:]
    if kind == 4:
        return "  " + text.replace(" ", "   ") + "\t"
    if kind == 5:
        return text + "."
    if kind == 6:
        return text.replace(" ", "-")
    return text


def answers_corpus(seed, documents=1200):
    rng = random.Random(seed)
    labels = sorted(NAMES)
    predictions, references = [], []
    for _ in range(documents):
        gold = [(rng.choice(NAMES[t]), t) for t in rng.choices(labels, k=rng.randrange(0, 8))]
        gold += rng.sample(gold, k=min(len(gold), rng.randrange(0, 3)))  # names said twice
        pred = []
        for text, label in gold:
            roll = rng.random()
            if roll < 0.15:
                continue  # missed
            if roll < 0.25:
                label = rng.choice(labels)  # wrong type
            pred.append((variant(rng, text) if rng.random() < 0.5 else text, label))
            if rng.random() < 0.1:
                pred.append((variant(rng, text), label))  # repeated, maybe in another form
        pred += [(rng.choice(NAMES[t]), t) for t in rng.choices(labels, k=rng.randrange(0, 3))]  # invented
        rng.shuffle(pred)
        predictions.append(pred)
        references.append(gold)
    return predictions, references


@pytest.mark.parametrize("multiset", [False, True])
@pytest.mark.parametrize("seed", [0, 1, 2])
def test_string_protocol_equals_universalner_on_answers_documents(seed, multiset):
    predictions, references = answers_corpus(seed)
    assert len(predictions) >= 1000
    expected = universalner_counts(predictions, references, multiset)
    counts = count_strings(predictions, references, multiset=multiset)
    assert {label: (t.tp, t.predicted, t.gold) for label, t in counts.labels.items()} == expected
    result = summarize(counts, zero_division=0)
    for label, (correct, predicted, gold) in expected.items():
        p, r, f = prf(correct, predicted, gold)
        assert (result[label]["precision"], result[label]["recall"], result[label]["f1"]) == (p, r, f)
    # UniversalNER's micro average: every question's counts summed, over every type
    correct, predicted, gold = (sum(v[k] for v in expected.values()) for k in range(3))
    assert (result["overall_precision"], result["overall_recall"], result["overall_f1"]) == prf(correct, predicted, gold)
    # its own formula adds 1e-10 to each denominator: the same number to within that
    p_u = correct / (predicted + 1e-10)
    r_u = correct / (gold + 1e-10)
    assert abs(result["overall_f1"] - 2 * p_u * r_u / (p_u + r_u + 1e-10)) < 1e-9
    # the variants matter: the test set holds strings that normalise equal and strings that do not
    assert 0.3 < result["overall_f1"] < 0.95


def test_the_answers_set_has_every_kind_of_variant():
    predictions, references = answers_corpus(0)
    pairs = [(p, g) for pred, gold in zip(predictions, references) for p, _ in pred for g, _ in gold]
    same_after = [(p, g) for p, g in pairs if p != g and universalner_normalize(p) == universalner_normalize(g)]
    kinds = {"case": lambda p, g: p.lower() == g.lower(), "article": lambda p, g: "the" in (p + g).lower().split(),
             "punctuation": lambda p, g: any(c in string.punctuation for c in p + g)}
    for kind, test in kinds.items():
        assert any(test(p, g) for p, g in same_after), kind
    assert sum(len(set(g)) < len(g) for g in references) > 100  # documents naming an entity twice


@settings(max_examples=300, deadline=None)
@given(st.text(alphabet=st.sampled_from("aAnNtThHeE .,'-\t\n\u00e9\u0301İßΣ“”_0"), max_size=30))
def test_normalization_equals_universalner_on_any_text(text):
    assert Normalization()(text) == universalner_normalize(text)


@settings(max_examples=200, deadline=None)
@given(st.text(max_size=40))
def test_normalization_equals_universalner_on_any_unicode(text):
    assert Normalization()(text) == universalner_normalize(text)


def test_steps_can_be_turned_off_one_by_one():
    text = "The  U.S.  Army"
    assert Normalization.parse("none")(text) == text
    assert Normalization.parse("lowercase")(text) == "the  u.s.  army"
    assert Normalization.parse("punctuation")(text) == "The  US  Army"
    assert Normalization.parse("articles")(text) == "   U.S.  Army"  # "The" is an article in any case
    assert Normalization.parse("whitespace")(text) == "The U.S. Army"
    assert Normalization.parse("lowercase+whitespace").name == "lowercase+whitespace"
    assert Normalization.parse("all") == Normalization() and Normalization().name == (
        "lowercase+punctuation+articles+whitespace")
    with pytest.raises(ValueError, match="'case' is not one of lowercase, punctuation, articles, whitespace"):
        Normalization.parse("case")


def test_set_and_multiset_on_a_name_said_twice():
    pred, gold = [[("Paris", "LOC"), ("paris", "LOC")]], [[("Paris", "LOC")]]
    assert count_strings(pred, gold).labels["LOC"] == Tally(1, 1, 1)
    assert count_strings(pred, gold, multiset=True).labels["LOC"] == Tally(1, 2, 1)
    assert count_strings(pred, gold, normalization="none", multiset=True).labels["LOC"] == Tally(1, 2, 1)
    assert count_strings(pred, gold, normalization="none").labels["LOC"] == Tally(1, 2, 1)


def test_untyped_counts_ignore_the_type():
    counts = count_strings([[("Paris", "PER"), ("Rome", "LOC")]], [[("Paris", "LOC")]])
    assert counts.untyped == Tally(1, 2, 1)
    assert counts.labels == {"PER": Tally(0, 1, 0), "LOC": Tally(0, 1, 1)}
    assert isinstance(counts, Counts)


def test_documents_must_pair():
    with pytest.raises(ValueError, match="2 documents of predictions but 1 of references"):
        count_strings([[], []], [[]])
