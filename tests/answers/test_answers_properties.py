"""Properties (issue 37): any gold written as answers of every shape scores 1.0 under both protocols; with
normalisation off and multiset counting, ``string (TYPE)`` answers give the true positives of a plain reading of
their lines, and token-index answers those of placing ``[first, last]`` directly."""
from __future__ import annotations

import json
import re
from collections import Counter

from hypothesis import given, settings
from hypothesis import strategies as st

from nested_span_f1 import Corpus
from nested_span_f1.align.project import joined_offsets
from nested_span_f1.answers import score_answers

LABELS = st.from_regex(r"[A-Z][A-Z_]{1,5}", fullmatch=True).filter(lambda label: label not in ("NO", "NOT", "NONE"))
WORDS = st.from_regex(r"[a-z]{3,8}", fullmatch=True)


@st.composite
def gold(draw):
    """Documents of distinct words (every string occurs once in its text), with flat entities (non-overlapping,
    as GNER's tags and the lines need) of a few types."""
    labels = draw(st.lists(LABELS, min_size=1, max_size=3, unique=True))
    vocabulary = draw(st.lists(WORDS.filter(lambda w: w.upper() not in labels), min_size=30, max_size=30,
                               unique=True))
    documents = []
    for _ in range(draw(st.integers(1, 3))):
        size = draw(st.integers(1, 9))
        tokens = draw(st.permutations(vocabulary))[:size]
        spans, k = [], 0
        while k < size:
            length = draw(st.integers(1, 3))
            if draw(st.booleans()) and k + length <= size:
                spans.append((k, k + length, draw(st.sampled_from(labels))))
                k += length
            k += 1
        documents.append((tokens, spans))
    return labels, documents


def table(strings):
    return "| Entity | Type |\n|---|---|\n" + "".join(f"| {s} | {label} |\n" for s, label in strings)


SHAPES = {
    "list": lambda strings: json.dumps([[s, label] for s, label in strings]),
    "parentheses": lambda strings: "Here is the answer:\n\n" + "\n".join(f"{s} ({label})" for s, label in strings),
    "colon": lambda strings: "\n".join(f"- {s}: {label}" for s, label in strings),
    "dash": lambda strings: "\n".join(f"{k}. {s} - {label}" for k, (s, label) in enumerate(strings, 1)),
    "tuples": lambda strings: ", ".join(f'("{s}", "{label}")' for s, label in strings),
    "table": table,
    "calls": lambda strings: "result = [" + ", ".join(f'{label}(span="{s}")' for s, label in strings) + "]",
}
"""Answer writers from a document's ``(string, label)`` pairs in reading order (an empty list: "No entities")."""


def answers_of(tokens, spans, labels):
    """One document's answers in every shape: shape -> its records (GPT-NER's: a question a type)."""
    strings = [(" ".join(tokens[a:b]), label) for a, b, label in spans]
    out = {shape: [{"output": write(strings) if strings else "No entities"}] for shape, write in SHAPES.items()}
    by_type: dict[str, list[str]] = {}
    for string, label in strings:
        by_type.setdefault(label, []).append(string)
    out["object"] = [{"output": json.dumps(by_type)}]
    out["type_lines"] = [{"output": "\n".join(f"{label}: {'; '.join(items)}" for label, items in by_type.items())
                          or "None"}]
    out["indexed"] = [{"output": json.dumps([[s, label, a, b - 1] for (s, label), (a, b, _) in zip(strings, spans)])}]
    out["entities"] = [{"entities": [{"text": s, "label": label} for s, label in strings]}]
    tagged = list(tokens)
    for a, b, label in spans:
        tagged[a] = f"<{label}>{tagged[a]}"
        tagged[b - 1] = f"{tagged[b - 1]}</{label}>"
    out["tags"] = [{"output": " ".join(tagged)}]
    tags = ["O"] * len(tokens)
    for a, b, label in spans:
        tags[a:b] = [f"B-{label}"] + [f"I-{label}"] * (b - a - 1)
    out["gner"] = [{"output": " ".join(f"{t}({tag})" for t, tag in zip(tokens, tags))}]
    marked = []
    for label in labels:  # GPT-NER asks one type a question
        words = list(tokens)
        for a, b, kind in spans:
            if kind == label:
                words[a] = "@@" + words[a]
                words[b - 1] += "##"
        marked.append({"label": label, "output": " ".join(words)})
    out["marked"] = marked
    return out


@settings(max_examples=25, deadline=None)
@given(gold())
def test_any_gold_as_answers_of_every_shape_scores_one(drawn):
    labels, documents = drawn
    tokens, entities, records = [], [], []
    for k, (words, spans) in enumerate(documents):
        for shape, questions in answers_of(words, spans, labels).items():
            ident = f"{shape}-{k}"
            tokens.append(words)
            entities.append(spans)
            records += [{"id": ident, **question} for question in questions]
    ids = list(dict.fromkeys(r["id"] for r in records))
    corpus = Corpus(tokens, entities, ids, source="gold")
    result = score_answers(records, corpus, metric="exact", zero_division=1)
    report = result["answers"]
    total = sum(len(e) for e in entities)
    assert result["strings"]["overall_f1"] == 1.0 and result["located"]["overall_f1"] == 1.0
    assert result["located"]["tp"] == total
    assert report["unparseable"] == report["not_in_text"] == report["excess"] == 0
    assert report["skipped_lines"] == sum(1 for _, spans in documents if spans)  # "Here is the answer:"
    assert report["declined_lines"] == report["unreadable_items"] == report["corrected_answers"] == 0
    if total:
        # every shape was read as itself (a document without entities: as an empty answer, or as its text)
        assert set(report["shapes"]) - {"empty"} == {*SHAPES, "object", "type_lines", "indexed", "entities", "tags",
                                                     "gner", "marked"}


def plain_lines(answer):
    """A plain reading of ``string (TYPE)`` lines: every line ``<string> (<type>)``."""
    return [(m.group(1), m.group(2)) for m in re.finditer(r"^(.+?) \(([^()]+)\)$", answer, re.M)]


@st.composite
def lined(draw):
    """A gold of texts and answers of ``string (TYPE)`` lines naming gold strings, other strings of the text, and
    strings the text lacks, with gold and other types, repeated at will."""
    labels, documents = draw(gold())
    corpus_texts, corpus_entities, answers = [], [], []
    for tokens, spans in documents:
        text = " ".join(tokens)
        offsets = joined_offsets(tokens)
        corpus_texts.append(text)
        corpus_entities.append([(offsets[a][0], offsets[b - 1][1], label) for a, b, label in spans])
        pool = [" ".join(tokens[a:b]) for a, b, _ in spans] + list(tokens) + ["zzz nowhere"]
        named = draw(st.lists(st.tuples(st.sampled_from(pool), st.sampled_from([*labels, "OTHER"])), max_size=8))
        answers.append("\n".join(f"{s} ({label})" for s, label in named) or "No entities")
    return Corpus(corpus_texts, corpus_entities, unit="characters"), answers


@settings(max_examples=40, deadline=None)
@given(lined())
def test_string_type_lines_count_as_a_plain_reading_does(drawn):
    corpus, answers = drawn
    result = score_answers([{"output": a} for a in answers], corpus, normalization="none", multiset=True,
                             metric="exact", zero_division=0)
    tp = 0
    for text, entities, answer in zip(corpus.texts, corpus.entities, answers):
        gold = Counter((text[a:b], label) for a, b, label in entities)
        tp += sum((Counter(plain_lines(answer)) & gold).values())
    assert result["strings"]["tp"] == tp
    assert result["answers"]["mentions"] == sum(len(plain_lines(a)) for a in answers)


@st.composite
def indexed(draw):
    """A gold of tokens and token-index answers: distinct ``[string, TYPE, first, last]`` items in range, their
    strings the tokens' or not."""
    labels, documents = draw(gold())
    answers = []
    for tokens, _ in documents:
        size = len(tokens)
        items = draw(st.lists(st.integers(0, size - 1).flatmap(lambda a, size=size: st.tuples(
            st.just(a), st.integers(a, min(a + 2, size - 1)), st.sampled_from(labels), st.booleans())),
            unique_by=lambda item: item[:3], max_size=6))
        answers.append([[" ".join(tokens[a:b + 1]) if right else "some other words", label, a, b]
                        for a, b, label, right in items])
    return documents, answers


@settings(max_examples=40, deadline=None)
@given(indexed())
def test_token_index_answers_count_as_placing_first_and_last_directly(drawn):
    documents, answers = drawn
    corpus = Corpus([tokens for tokens, _ in documents], [spans for _, spans in documents], source="gold")
    result = score_answers([{"output": json.dumps(a)} for a in answers], corpus, normalization="none",
                             multiset=True, metric="exact", zero_division=0)
    direct = sum(len({(a, b + 1, label) for _, label, a, b in items} & set(spans))
                 for items, (_, spans) in zip(answers, documents))
    assert result["located"]["tp"] == direct
    assert result["answers"]["index"] == sum(len(a) for a in answers)
