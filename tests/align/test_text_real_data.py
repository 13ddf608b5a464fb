"""Real data through the text path: CoNLL-2003 system outputs and GENIA as text spans score as token spans do."""
from __future__ import annotations

import pytest

from nested_span_f1 import Corpus, read_corpus, score_exact, score_lenient, score_nested, tags_to_spans, write_corpus
from nested_span_f1.align import join_tokens, score_text
from nested_span_f1.formats.columns import read_columns

CONLL2003 = {"elmo": 92.22, "flair": 93.03}
SAME_BUCKETS = ("by_nesting", "by_depth")
"""Breakdowns whose buckets do not depend on the unit (by_length counts characters for text spans)."""


def _token_corpus(path):
    columns = read_columns(path)
    return columns, Corpus(columns.tokens, tags_to_spans(columns.column()), source=str(path))


@pytest.mark.parametrize("system", sorted(CONLL2003))
def test_conll2003_as_text_spans_scores_the_published_f1(shared_data, tmp_path, system):
    folder = shared_data / "conll2003"
    gold_columns, gold = _token_corpus(folder / "test.gold.conll")
    pred_columns, pred = _token_corpus(folder / f"test.{system}.conll")
    # through files, as a user would hold them: text spans written, read back (format detected)
    write_corpus(join_tokens(gold), tmp_path / "gold.jsonl", "text")
    write_corpus(join_tokens(pred), tmp_path / "pred.jsonl", "text")
    gold_text, pred_text = read_corpus(tmp_path / "gold.jsonl"), read_corpus(tmp_path / "pred.jsonl")
    assert gold_text.format == pred_text.format == "text" and gold_text.texts[0] == " ".join(gold.tokens[0])
    result = score_text(tmp_path / "pred.jsonl", tmp_path / "gold.jsonl", metric="exact")
    assert round(100 * result["overall_f1"], 2) == CONLL2003[system]
    tokens = score_exact(pred_columns.column(), gold_columns.column())
    for key in ("PER", "ORG", "LOC", "MISC", "tp", "fp", "fn", "overall_precision", "overall_recall", "overall_f1",
                "macro_f1", "weighted_f1", "untyped_f1"):
        assert result[key] == tokens[key], key
    alignment = result["alignment"]
    assert alignment["predictions"] == {"matched": tokens["tp"], "spurious": tokens["fp"], "duplicate": 0,
                                        "boundary_inside_token": 0, "boundary_between_tokens": 0, "no_token": 0,
                                        "total": tokens["tp"] + tokens["fp"]}
    assert alignment["references"]["missed"] == tokens["fn"] and alignment["examples"] == []
    # the token gold against the text predictions: projected, every span aligned, the same numbers
    projected = score_text(pred_text, gold, metric="exact")
    assert {k: projected[k] for k in tokens if k != "overall_accuracy"} == {
        k: v for k, v in tokens.items() if k != "overall_accuracy"}
    assert projected["alignment"]["projected"] == "predictions"


@pytest.mark.parametrize("system", sorted(CONLL2003))
def test_conll2003_as_text_spans_gives_the_token_paths_lenient_counts(shared_data, system):
    """Lenient scores of texts of tokens (both sides texts, and text predictions against token gold) equal the
    token path's in every number, per type and confusion included: ties between equally good pairs are settled
    by shared tokens, not characters (three sentences such as 'Florence Masnada ( France )' differ otherwise)."""
    folder = shared_data / "conll2003"
    gold_columns, gold = _token_corpus(folder / "test.gold.conll")
    pred_columns, pred = _token_corpus(folder / f"test.{system}.conll")
    tokens = score_lenient(pred_columns.column(), gold_columns.column(), zero_division=0)
    for references in (join_tokens(gold), gold):
        result = score_text(join_tokens(pred), references, metric="lenient", zero_division=0)
        result.pop("alignment")
        assert result == tokens


def _perturbed(corpus: Corpus) -> Corpus:
    """A 'system' for the gold: every third span dropped, every fifth shifted by a token, every seventh relabelled."""
    out = []
    for s, (tokens, spans) in enumerate(zip(corpus.tokens, corpus.entities)):
        kept = []
        for k, (start, end, label) in enumerate(spans):
            n = s + k
            if n % 3 == 0:
                continue
            if n % 5 == 0 and end < len(tokens):
                start, end = start + 1, end + 1
            if n % 7 == 0:
                label = "protein" if label != "protein" else "DNA"
            kept.append((start, end, label))
        out.append(list(dict.fromkeys(kept)))  # a shift can land on a span kept already
    return Corpus(corpus.tokens, out, corpus.sentence_ids, corpus.doc_ids, source="perturbed")


@pytest.mark.parametrize("name", ["genia-docsplit.test.jsonl", "genia-classic.test.w2ner.json"])
def test_genia_as_text_spans_counts_as_token_spans(shared_data, tmp_path, name):
    gold = read_corpus(shared_data / "genia" / name)
    pred = _perturbed(gold)
    tokens = score_nested(pred.entities, gold.entities, lengths=gold.lengths, zero_division=0)
    write_corpus(join_tokens(gold), tmp_path / "gold.jsonl", "text")
    write_corpus(join_tokens(pred), tmp_path / "pred.jsonl", "text")
    text = score_text(tmp_path / "pred.jsonl", tmp_path / "gold.jsonl", zero_division=0)
    assert 0.5 < tokens["overall_f1"] < 0.9
    assert tokens["tp"] > 2000 and tokens["duplicate_references"] == text["duplicate_references"]
    for key, value in tokens.items():
        if key != "by_length":
            assert text[key] == value, key
    assert set(text["by_length"]) == {"1-4", "5-9", "10-19", "20-39", "40+"}
    assert sum(b["number"] for b in text["by_length"].values()) == sum(b["number"] for b in tokens["by_length"].values())
