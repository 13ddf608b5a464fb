"""Scored predictions as a real spaCy span categorizer writes them, through ``thresholds``: a pipeline built blank
and trained a few steps on a tiny fixture, its ``doc.spans["sc"]`` with ``attrs["scores"]`` saved in a DocBin.
Every figure is checked against spaCy's own scorer on the spans kept, or a plain loop over the spans' scores."""
from __future__ import annotations

import json
import random

import pytest

spacy = pytest.importorskip("spacy")
from spacy.scorer import Scorer
from spacy.tokens import DocBin, Span
from spacy.training import Example

from nested_span_f1.cli.main import main

# (text, [(mention, label)]): the spans of a text located by their words
FIXTURE = [
    ("IL2 gene expression in T cells", [("IL2", "protein"), ("IL2 gene", "DNA"), ("T cells", "cell_type")]),
    ("NFkB binds the IL2 promoter", [("NFkB", "protein"), ("IL2", "protein"), ("IL2 promoter", "DNA")]),
    ("Jurkat cells express CD28", [("Jurkat cells", "cell_line"), ("CD28", "protein")]),
    ("CD28 signals activate NFkB in Jurkat cells", [("CD28", "protein"), ("NFkB", "protein"),
                                                     ("Jurkat cells", "cell_line")]),
    ("the IL2 mRNA rose in T cells", [("IL2 mRNA", "RNA"), ("T cells", "cell_type"), ("IL2", "protein")]),
    ("GATA3 gene is expressed in T cells", [("GATA3 gene", "DNA"), ("GATA3", "protein"), ("T cells", "cell_type")]),
]
HELD_OUT = [
    ("GATA3 binds the CD28 promoter", [("GATA3", "protein"), ("CD28", "protein"), ("CD28 promoter", "DNA")]),
    ("NFkB mRNA in Jurkat cells", [("NFkB mRNA", "RNA"), ("NFkB", "protein"), ("Jurkat cells", "cell_line")]),
    ("IL2 signals in T cells", [("IL2", "protein"), ("T cells", "cell_type")]),
]


def char_spans(text, mentions):
    """Each mention's first occurrence as a word-bounded ``(start, end, label)`` in ``text``."""
    out = []
    for mention, label in mentions:
        start = f" {text} ".index(f" {mention} ")
        out.append((start, start + len(mention), label))
    return out


@pytest.fixture(scope="module")
def spancat(tmp_path_factory):
    """A blank English pipeline with a span categorizer (n-grams of 1 to 3 words suggested, every span scored at
    least 0.05 kept), trained 10 steps on the fixture (so that it is unsure of many spans); its predictions on all nine texts and their gold, as
    DocBins with the texts' ids."""
    spacy.util.fix_random_seed(0)
    nlp = spacy.blank("en")
    nlp.add_pipe("spancat", config={"spans_key": "sc", "threshold": 0.05,
                                    "suggester": {"@misc": "spacy.ngram_suggester.v1", "sizes": [1, 2, 3]}})
    examples = [Example.from_dict(nlp.make_doc(text), {"spans": {"sc": char_spans(text, mentions)}})
                for text, mentions in FIXTURE]
    optimizer = nlp.initialize(lambda: examples)
    rng = random.Random(0)
    for _ in range(10):
        rng.shuffle(examples)
        nlp.update(examples, sgd=optimizer)
    texts = FIXTURE + HELD_OUT
    predicted, gold = [], []
    for k, (doc, (text, mentions)) in enumerate(zip(nlp.pipe([t for t, _ in texts]), texts)):
        doc.user_data["id"] = f"t{k}"
        reference = nlp.make_doc(text)
        reference.spans["sc"] = [reference.char_span(s, e, label) for s, e, label in char_spans(text, mentions)]
        reference.user_data["id"] = f"t{k}"
        predicted.append(doc)
        gold.append(reference)
    folder = tmp_path_factory.mktemp("spancat")
    DocBin(docs=predicted, store_user_data=True).to_disk(folder / "pred.spacy")
    DocBin(docs=gold, store_user_data=True).to_disk(folder / "gold.spacy")
    return nlp, predicted, gold, folder


def scored_spans(doc):
    return [(span, float(score)) for span, score in zip(doc.spans["sc"], doc.spans["sc"].attrs["scores"])]


def kept_examples(nlp, predicted, gold, keep):
    """spaCy Examples of the predicted Docs holding only the spans ``keep(doc, span, score)`` keeps."""
    examples = []
    for doc, reference in zip(predicted, gold):
        copy = doc.copy()
        copy.spans["sc"] = [Span(copy, span.start, span.end, span.label_) for span, score in scored_spans(doc)
                            if keep(doc, span, score)]
        examples.append(Example(copy, reference))
    return examples


def spacys(examples):
    found = Scorer.score_spans(examples, "spans_sc", getter=lambda doc, key: doc.spans["sc"], allow_overlap=True)
    return found["spans_sc_p"], found["spans_sc_r"], found["spans_sc_f"]


def test_spancat_scores_through_thresholds_equal_spacys_scorer(spancat, capsys):
    nlp, predicted, gold, folder = spancat
    saved = [score for doc in predicted for _, score in scored_spans(doc)]
    assert len(saved) > 40 and min(saved) >= 0.05  # the span categorizer kept spans down to its threshold
    assert main(["thresholds", "--gold", str(folder / "gold.spacy"), "--pred", str(folder / "pred.spacy"),
                 "--spans-key", "sc", "--json", "--top-k", "3", "--calibration"]) == 0
    result = json.loads(capsys.readouterr().out)
    assert sorted({p["threshold"] for p in result["curve"]}) == sorted(set(saved))
    for point in result["curve"][::7] + result["curve"][-1:]:
        cut = point["threshold"]
        theirs = spacys(kept_examples(nlp, predicted, gold, lambda doc, span, score, cut=cut: score >= cut))
        assert (point["precision"], point["recall"], point["f1"]) == pytest.approx(theirs, abs=1e-15)
    at = result["at_system_threshold"]
    theirs = spacys(kept_examples(nlp, predicted, gold, lambda doc, span, score: score >= 0.5))
    assert (at["precision"], at["recall"], at["f1"]) == pytest.approx(theirs, abs=1e-15)
    assert at["interval"]["f1"]["low"] <= at["f1"] <= at["interval"]["f1"]["high"]
    assert result["bootstrap"]["units"] == "documents" and result["bootstrap"]["n_units"] == 9

    # top 3 of each document, in decreasing score (ties: start, end, label), by spaCy's scorer
    def top_three(doc, span, score):
        ranked = sorted(scored_spans(doc), key=lambda item: (-item[1], item[0].start_char, item[0].end_char,
                                                             item[0].label_))
        return any(span == other for other, _ in ranked[:3])

    theirs = spacys(kept_examples(nlp, predicted, gold, top_three))
    top = result["top_k"]["at_k"]
    assert (top["precision"], top["recall"], top["f1"]) == pytest.approx(theirs, abs=1e-15)

    # calibration: each saved span's score and whether the gold holds it, binned by a plain loop
    gold_spans = [{(s.start_char, s.end_char, s.label_) for s in reference.spans["sc"]} for reference in gold]
    bins = [[0, 0] for _ in range(10)]
    for doc, truth in zip(predicted, gold_spans):
        for span, score in scored_spans(doc):
            b = max(k for k in range(10) if score >= k / 10)  # [k / 10, (k + 1) / 10), 1.0 in the last
            bins[b][0] += 1
            bins[b][1] += (span.start_char, span.end_char, span.label_) in truth
    found = result["calibration"]
    assert [[row["count"], row["right"]] for row in found["bins"]] == bins
    assert found["counts"] == [count for count, _ in bins]


def test_spancat_cut_where_its_threshold_saved_is_warned_about(spancat, capsys, tmp_path):
    """The same predictions saved down to 0.3 instead of 0.05: where a best threshold falls among the lowest 5%
    of what was saved, the report says so and what to save."""
    _, predicted, _, folder = spancat
    cut = []
    for doc in predicted:
        copy = doc.copy()
        kept = [(span, score) for span, score in scored_spans(doc) if score >= 0.3]
        copy.spans["sc"] = [Span(copy, span.start, span.end, span.label_) for span, _ in kept]
        copy.spans["sc"].attrs["scores"] = [score for _, score in kept]
        cut.append(copy)
    DocBin(docs=cut, store_user_data=True).to_disk(tmp_path / "cut.spacy")
    flagged = {}
    for name, docs, pred in (("saved down to 0.05", predicted, folder / "pred.spacy"),
                             ("saved down to 0.3", cut, tmp_path / "cut.spacy")):
        assert main(["thresholds", "--gold", str(folder / "gold.spacy"), "--pred", str(pred), "--spans-key", "sc",
                     "--json"]) == 0
        result = json.loads(capsys.readouterr().out)
        flagged[name] = sorted(label for label, row in result["per_type"].items() if row["best_near_cut"])
        for label, row in result["per_type"].items():  # the rule, by a plain count of the saved scores
            if row["best"] is not None:
                below = sum(1 for doc in docs for span, score in scored_spans(doc)
                            if span.label_ == label and score < row["best"]["threshold"])
                assert row["best_near_cut"] == (below <= 0.05 * row["predicted"]), label
        warned = sorted(line.split(":")[0] for line in result["warnings"] if not line.startswith("all types"))
        assert warned == flagged[name]
    assert set(flagged["saved down to 0.3"]) > set(flagged["saved down to 0.05"])
