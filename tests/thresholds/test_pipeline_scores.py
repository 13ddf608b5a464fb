"""Scored predictions as the real token-classification pipeline writes them (its ``score``), through
``thresholds``: every point checked against the package's text scorer on a file of the entities kept."""
from __future__ import annotations

import json
from pathlib import Path

import pytest

from nested_span_f1 import Corpus, tags_to_spans
from nested_span_f1.align import score_text
from nested_span_f1.cli.main import main
from nested_span_f1.formats.columns import read_columns
from nested_span_f1.formats.pipeline import pipeline_record

SAMPLES = Path(__file__).resolve().parents[2] / "nested_span_f1" / "sample_data"
TAGS = ["O", "B-PER", "I-PER", "B-ORG", "I-ORG", "B-LOC", "I-LOC", "B-MISC", "I-MISC"]


def test_the_token_classification_pipelines_scores(tmp_path, capsys):
    """An untrained tiny BERT (seeded) tags the sample sentences through the real pipeline: its entities' scores
    are what the curve varies; at each threshold the curve's counts equal the text scorer's on a file holding only
    the entities scored at least that much."""
    torch = pytest.importorskip("torch")
    transformers = pytest.importorskip("transformers")
    from nested_span_f1.hf.training import tiny_bert_config, word_tokenizer

    gold = read_columns(SAMPLES / "sample.gold.conll")
    tok = word_tokenizer(gold.tokens, tmp_path / "tok")
    torch.manual_seed(0)
    model = transformers.BertForTokenClassification(tiny_bert_config(
        len(tok), num_labels=len(TAGS), id2label=dict(enumerate(TAGS)), label2id={t: i for i, t in enumerate(TAGS)}))
    pipe = transformers.pipeline("token-classification", model=model.eval(), tokenizer=tok,
                                 aggregation_strategy="simple")
    records = [pipeline_record(" ".join(words), pipe(" ".join(words)), f"s{k}") for k, words in enumerate(gold.tokens)]
    assert sum(len(r["entities"]) for r in records) > 20 and all("score" in e for r in records for e in r["entities"])
    pred = tmp_path / "pipeline.jsonl"
    pred.write_text("".join(json.dumps(r) + "\n" for r in records))
    gold_path = str(SAMPLES / "sample.gold.conll")
    reference = Corpus(gold.tokens, tags_to_spans(gold.column()), source=gold_path)
    assert main(["thresholds", "--gold", gold_path, "--pred", str(pred), "--json", "--calibration"]) == 0
    result = json.loads(capsys.readouterr().out)
    scores = sorted({e["score"] for r in records for e in r["entities"]}, reverse=True)
    for point in result["curve"][::5] + result["curve"][-1:]:
        kept = tmp_path / "kept.jsonl"
        kept.write_text("".join(json.dumps({**r, "entities": [e for e in r["entities"]
                                                              if e["score"] >= point["threshold"]]}) + "\n"
                                for r in records))
        theirs = score_text(str(kept), reference, metric="nested", zero_division=0)
        assert (point["tp"], point["fp"], point["fn"]) == (theirs["tp"], theirs["fp"], theirs["fn"])
        assert point["threshold"] in scores
    assert sum(result["calibration"]["counts"]) == result["predicted"]
