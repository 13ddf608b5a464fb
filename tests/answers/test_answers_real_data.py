"""Real gold turned into answers: both protocols give 1.0 where the text allows it, and a known number
of strings dropped or invented moves the counts by exactly that number."""
from __future__ import annotations

import json
from collections import Counter

import pytest

from nested_span_f1 import Corpus, read_corpus, tags_to_spans
from nested_span_f1.align import join_tokens
from nested_span_f1.answers.locate import occurrences
from nested_span_f1.answers.normalize import Normalization
from nested_span_f1.answers.score import count_answers, score_answers
from nested_span_f1.formats.columns import read_columns


def conll_gold(shared_data):
    columns = read_columns(shared_data / "conll2003" / "test.gold.conll")
    return join_tokens(Corpus(columns.tokens, tags_to_spans(columns.column()), source="conll2003"))


def reading_order(entities):
    return sorted((e for e in entities if len(e) == 3), key=lambda e: (e[0], -e[1], e[2]))


def as_answers(gold, drop=frozenset(), invent=None):
    """Every gold entity's text and label in reading order, less the (document, entity) pairs in ``drop``, plus the
    strings ``invent`` gives a document."""
    records = []
    for s, (text, entities) in enumerate(zip(gold.texts, gold.entities)):
        items = [{"text": text[a:b], "label": label} for a, b, label in reading_order(entities) if (s, (a, b, label))
                 not in drop]
        items += [{"text": t, "label": label} for t, label in (invent or {}).get(s, [])]
        records.append({"entities": items})
    return records


def inline_tags(text, entities):
    out, at = [], 0
    for start, end, label in sorted(entities):
        out += [text[at:start], f"<{label}>{text[start:end]}</{label}>"]
        at = end
    return "".join([*out, text[at:]])


def test_conll2003_gold_as_answers_scores_one_under_both_protocols(shared_data):
    gold = conll_gold(shared_data)
    total = sum(len(e) for e in gold.entities)
    assert total == 5648
    shapes = {
        "entities": as_answers(gold),
        "json output": [{"output": "Entities: " + json.dumps([[i["text"], i["label"]] for i in r["entities"]])}
                        for r in as_answers(gold)],
        "inline tags": [{"output": inline_tags(t, e)} for t, e in zip(gold.texts, gold.entities)],
    }
    for shape, records in shapes.items():
        result = score_answers(records, gold, metric="exact")
        assert result["strings"]["overall_f1"] == 1.0, shape
        assert result["located"]["overall_f1"] == 1.0, shape
        assert result["located"]["tp"] == total, shape
        report = result["answers"]
        assert report["not_in_text"] == report["excess"] == report["unparseable"] == 0, shape
        assert report["markup" if shape == "inline tags" else "exact"] == total, shape


def test_dropping_and_inventing_strings_moves_the_counts_by_exactly_that_number(shared_data):
    gold = conll_gold(shared_data)
    total = sum(len(e) for e in gold.entities)
    # the string protocol counts distinct strings per document and type: 64 gold names are said twice
    distinct = score_answers(as_answers(gold), gold, metric="exact")["strings"]["tp"]
    assert distinct == total - 64
    # drop mentions whose string occurs once in its text, named once in its document (normalised too), and meets
    # no occurrence of another mention's string: no other mention's place and no other string's count changes
    norm = Normalization()
    drop, invent = set(), {}
    for s, (text, entities) in enumerate(zip(gold.texts, gold.entities)):
        strings = Counter(norm(text[a:b]) for a, b, _ in entities)
        for a, b, label in entities:
            # no other mention's string occurs across this one's span (its placement would change without it)
            alone = all(y <= a or x >= b for a2, b2, _ in entities if (a2, b2) != (a, b)
                        for x, y in occurrences(text, text[a2:b2]))
            if (len(drop) < 300 and s % 4 == 0 and strings[norm(text[a:b])] == 1 and alone
                    and len(occurrences(text, text[a:b])) == 1):
                drop.add((s, (a, b, label)))
        if s % 7 == 0 and len(invent) < 120:
            invent[s] = [(f"Atlantis {s}", "LOC")]
    assert len(drop) == 300 and len(invent) == 120
    result = score_answers(as_answers(gold, drop, invent), gold, metric="exact")
    strings, located = result["strings"], result["located"]
    assert (strings["tp"], strings["fp"], strings["fn"]) == (distinct - 300, 120, 300)
    assert (located["tp"], located["fp"], located["fn"]) == (total - 300, 120, 300)
    assert result["answers"]["not_in_text"] == 120 and result["answers"]["exact"] == total - 300
    assert result["located"]["alignment"]["predictions"]["spurious"] == 120


@pytest.mark.parametrize("name, misplaced", [("genia-docsplit.test.jsonl", 17), ("genia-classic.test.w2ner.json", 21)])
def test_genia_gold_as_answers(shared_data, name, misplaced):
    gold = join_tokens(read_corpus(shared_data / "genia" / name))
    total = sum(len(e) for e in gold.entities)
    records = as_answers(gold)
    assert sum(len(r["entities"]) for r in records) == total  # no discontinuous entity in either split
    result = score_answers(records, gold, zero_division=0)
    assert result["strings"]["overall_f1"] == 1.0
    report, located = result["answers"], result["located"]
    assert report["exact"] == report["spans"] == total and report["not_in_text"] == report["excess"] == 0
    # every string is placed, but where the text holds a string more often than the gold marks it, a list of
    # strings cannot say which occurrence is meant: the first one is taken (or one outside the longer entities
    # placed, where the gold marks the one inside)
    assert (located["tp"], located["fp"], located["fn"]) == (total - misplaced, misplaced, misplaced)
    run = count_answers(records, gold)
    for text, pred, ref in zip(run.gold.texts, run.located.entities, run.gold.entities):
        wrong, missed = set(pred) - set(ref), set(ref) - set(pred)
        # each wrong span is the right string with the right label, at another occurrence than the gold's
        assert sorted((text[a:b], label) for a, b, label in wrong) == sorted((text[a:b], label) for a, b, label in missed)
