"""GENIA, both splits and files: sizes and nested shares of PROVENANCE.md, gold against itself, timing."""

import pytest

from nested_span_f1.formats import read_corpus
from nested_span_f1.nested.score import (
    describe_spans,
    score_nested,
)

# file: (sentences, tokens, entities, nested share in %, max depth, spans with two labels)
GENIA = {
    "genia-docsplit.test.jsonl": (1732, 46873, 5119, 22.4, 3, 5),
    "genia-docsplit.dev.jsonl": (1765, 45495, 4714, 17.9, 3, 4),
    "genia-classic.test.w2ner.json": (1854, 48179, 5506, 21.8, 3, 0),
    "genia-classic.dev.w2ner.json": (1669, 43419, 5365, 19.9, 3, 0),
}


@pytest.mark.parametrize("name, expected", GENIA.items(), ids=GENIA.keys())
def test_sizes_and_nested_share(shared_data, name, expected):
    corpus = read_corpus(shared_data / "genia" / name)
    size = describe_spans(corpus.spans(), corpus.lengths)
    got = (size["sentences"], size["tokens"], size["entities"], round(100 * size["nested_share"], 1),
           size["max_depth"], size["multi_label_spans"])
    assert got == expected
    assert (size["duplicates"], size["crossing_pairs"], corpus.discontinuous()) == (0, 0, 0)


@pytest.mark.parametrize("name", GENIA, ids=GENIA.keys())
def test_gold_against_itself_is_perfect(shared_data, name):
    corpus = read_corpus(shared_data / "genia" / name)
    result = score_nested(corpus.entities, corpus.entities, lengths=corpus.lengths)
    assert (result["overall_f1"], result["macro_f1"], result["tp"], result["fp"]) == (1.0, 1.0, GENIA[name][2], 0)
    for key in ("by_nesting", "by_depth", "by_length"):
        assert all(b["f1"] == 1.0 for b in result[key].values() if b["number"])


def test_classic_test_types(shared_data):
    corpus = read_corpus(shared_data / "genia" / "genia-classic.test.w2ner.json")
    result = score_nested(corpus.entities, corpus.entities)
    numbers = {k: result[k]["number"] for k in ("protein", "DNA", "cell_type", "cell_line", "RNA")}
    assert numbers == {"protein": 3084, "DNA": 1262, "cell_type": 606, "cell_line": 445, "RNA": 109}


def test_two_label_spans_are_two_gold_items(shared_data):
    corpus = read_corpus(shared_data / "genia" / "genia-docsplit.test.jsonl")
    doubled = {}
    for s, ents in enumerate(corpus.entities):
        for b, e, lab in ents:
            doubled.setdefault((s, b, e), set()).add(lab)
    doubled = {k: v for k, v in doubled.items() if len(v) == 2}
    assert len(doubled) == 5
    # predicting one label of each pair finds one of its two gold items
    predictions = [[x for x in ents if (s, x[0], x[1]) not in doubled or x[2] == min(doubled[(s, x[0], x[1])])]
                   for s, ents in enumerate(corpus.entities)]
    result = score_nested(predictions, corpus.entities)
    assert (result["tp"], result["fn"], result["fp"], result["duplicate_references"]) == (5114, 5, 0, 0)
