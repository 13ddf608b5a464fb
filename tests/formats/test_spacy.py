"""spaCy Docs and DocBin files (the spacy extra): read as texts, scored as spaCy's own Scorer.score_spans scores them."""
from __future__ import annotations

import random

import pytest

spacy = pytest.importorskip("spacy")
from spacy.scorer import Scorer
from spacy.tokens import Doc, DocBin, Span
from spacy.training import Example

from nested_span_f1 import read_corpus
from nested_span_f1.align import score_text
from nested_span_f1.cli.main import main
from nested_span_f1.formats.spacy_docs import docs_to_corpus

WORDS = ["Ann", "Berg", "of", "the", "Civic", "Data", "Trust", "spoke", "in", "Dublin", "on", "Monday", "."]
TYPES = ["PER", "ORG", "LOC", "DATE"]


@pytest.fixture(scope="module")
def nlp():
    return spacy.blank("en")


def _random_spans(rng, n_tokens, overlap):
    """Random token spans: non-overlapping ones (doc.ents) or any (a span group)."""
    spans, taken = [], set()
    for _ in range(rng.randint(0, 5)):
        start = rng.randrange(n_tokens)
        end = rng.randint(start + 1, min(n_tokens, start + 3))
        span = (start, end, rng.choice(TYPES))
        if (overlap and span not in spans) or not taken & set(range(start, end)):
            spans.append(span)
            taken |= set(range(start, end))
    return spans


def _docs(nlp, rng, n, overlap):
    """Pairs of (predicted, gold) Docs over the same words, with random spans on each."""
    pairs = []
    for d in range(n):
        words = rng.sample(WORDS, rng.randint(1, len(WORDS)))
        spaces = [rng.random() < 0.8 for _ in words]
        docs = []
        for _ in range(2):
            doc = Doc(nlp.vocab, words=words, spaces=spaces)
            spans = [Span(doc, s, e, label=lab) for s, e, lab in _random_spans(rng, len(words), overlap)]
            if overlap:
                doc.spans["sc"] = spans
            else:
                doc.ents = spans
            doc.user_data["id"] = f"doc{d}"
            docs.append(doc)
        pairs.append(tuple(docs))
    return pairs


@pytest.mark.parametrize("overlap", [False, True], ids=["ents", "span-group"])
@pytest.mark.parametrize("seed", range(5))
def test_scores_equal_spacys_scorer(nlp, seed, overlap):
    pairs = _docs(nlp, random.Random(seed), 30, overlap)
    examples = [Example(pred, gold) for pred, gold in pairs]
    if overlap:
        theirs = Scorer.score_spans(examples, "spans_sc", getter=lambda doc, key: doc.spans["sc"], allow_overlap=True)
        prefix, key = "spans_sc", "sc"
    else:
        theirs = Scorer.score_spans(examples, "ents")
        prefix, key = "ents", None
    ours = score_text(docs_to_corpus([p for p, _ in pairs], key), docs_to_corpus([g for _, g in pairs], key),
                      metric="exact", zero_division=0)
    assert ours["tp"] > 0
    assert (ours["overall_precision"], ours["overall_recall"], ours["overall_f1"]) == (
        theirs[f"{prefix}_p"], theirs[f"{prefix}_r"], theirs[f"{prefix}_f"])
    per_type = theirs[f"{prefix}_per_type"]
    assert set(per_type) == {label for label in ours if label in TYPES}
    for label, scores in per_type.items():
        assert (ours[label]["precision"], ours[label]["recall"], ours[label]["f1"]) == (
            scores["p"], scores["r"], scores["f"]), label


def test_docbin_file_reads_as_its_docs(nlp, tmp_path):
    pairs = _docs(nlp, random.Random(7), 10, False)
    for name, docs in (("pred", [p for p, _ in pairs]), ("gold", [g for _, g in pairs])):
        DocBin(docs=docs, store_user_data=True).to_disk(tmp_path / f"{name}.spacy")
    gold = read_corpus(tmp_path / "gold.spacy")
    assert gold.format == "spacy" and gold.unit == "characters"
    assert gold.sentence_ids == [f"doc{d}" for d in range(10)]
    assert gold.texts == [g.text for _, g in pairs]
    assert gold.entities == [[(e.start_char, e.end_char, e.label_) for e in g.ents] for _, g in pairs]
    from_file = score_text(tmp_path / "pred.spacy", tmp_path / "gold.spacy", metric="exact", zero_division=0)
    in_memory = score_text(docs_to_corpus([p for p, _ in pairs]), docs_to_corpus([g for _, g in pairs]),
                           metric="exact", zero_division=0)
    assert from_file == in_memory


def test_a_missing_span_group_is_named(nlp):
    doc = Doc(nlp.vocab, words=["a"])
    with pytest.raises(ValueError, match="document 0: no span group 'sc'"):
        docs_to_corpus([doc], "sc")


def test_the_docs_of_a_file_count_from_1(nlp, tmp_path, capsys):
    # QA item 21: "g.spacy, document 0: no span group 'sc'" on the command line, which counts from 1
    docs = [Doc(nlp.vocab, words=["a"]), Doc(nlp.vocab, words=["Ann"])]
    docs[1].ents = [docs[1].char_span(0, 3, "PER")]
    DocBin(docs=docs).to_disk(tmp_path / "g.spacy")
    with pytest.raises(ValueError, match=r"g\.spacy, document 1: no span group 'sc'"):
        read_corpus(tmp_path / "g.spacy", spans_key="sc")
    assert read_corpus(tmp_path / "g.spacy").places == [f"{tmp_path / 'g.spacy'}, document {d}" for d in (1, 2)]
    assert main(["nested", "--gold", str(tmp_path / "g.spacy"), "--pred", str(tmp_path / "g.spacy"),
                 "--spans-key", "sc"]) == 2
    assert "g.spacy, document 1: no span group 'sc'" in capsys.readouterr().err


def test_spacy_drops_a_predicted_span_that_its_gold_tokens_cannot_hold_and_we_count_it(nlp):
    """Two tokenizations of one text: the predicted 'Berg' ends inside the gold token 'Berg-Smith'. spaCy's
    scorer leaves that prediction out (no false positive); here it is a false positive, counted as a boundary
    inside a token and shown."""
    gold = Doc(nlp.vocab, words=["Ann", "Berg-Smith", "spoke"], spaces=[True, True, False])
    gold.ents = [Span(gold, 0, 2, label="PER")]
    pred = Doc(nlp.vocab, words=["Ann", "Berg", "-", "Smith", "spoke"], spaces=[True, False, False, True, False])
    pred.ents = [Span(pred, 0, 1, label="PER"), Span(pred, 1, 2, label="PER")]
    theirs = Scorer.score_spans([Example(pred, gold)], "ents")
    assert theirs["ents_p"] == 0.0 and theirs["ents_r"] == 0.0  # 'Ann' is wrong; 'Berg' left out of the count
    ours = score_text(docs_to_corpus([pred]), docs_to_corpus([gold]), metric="exact", zero_division=0)
    assert (ours["tp"], ours["fp"], ours["fn"]) == (0, 2, 1)
    # both sides are texts here: the boundary inside a gold token shows against the gold's tokens
    tokens_gold = score_text(docs_to_corpus([pred]), gold_tokens(gold), metric="exact", zero_division=0)
    assert tokens_gold["alignment"]["predictions"]["boundary_inside_token"] == 1


def gold_tokens(doc):
    from nested_span_f1 import Corpus

    return Corpus([[t.text for t in doc]], [[(e.start, e.end, e.label_) for e in doc.ents]])
