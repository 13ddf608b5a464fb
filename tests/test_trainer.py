"""A real Trainer run (tiny random BERT, offline) with compute_metrics from label ids."""
from pathlib import Path

import numpy as np
import pytest

torch = pytest.importorskip("torch")
transformers = pytest.importorskip("transformers")

from nested_span_f1 import score_tags
from nested_span_f1.conll import read_columns
from nested_span_f1.trainer import argmax_logits, compute_metrics_for

SAMPLES = Path(__file__).resolve().parents[1] / "nested_span_f1" / "sample_data"
LABELS = ["O", "B-PER", "I-PER", "B-ORG", "I-ORG", "B-LOC", "I-LOC", "B-MISC", "I-MISC"]


@pytest.fixture(scope="module")
def setup(tmp_path_factory):
    gold = read_columns(SAMPLES / "sample.gold.conll")
    words = gold.tokens
    tags = gold.column()
    vocab_dir = tmp_path_factory.mktemp("tok")
    pieces = sorted({w.lower()[:4] for s in words for w in s} | {"##" + w.lower()[4:] for s in words for w in s if len(w) > 4})
    (vocab_dir / "vocab.txt").write_text("\n".join(["[PAD]", "[UNK]", "[CLS]", "[SEP]", "[MASK]", *pieces]) + "\n")
    tok = transformers.BertTokenizerFast.from_pretrained(str(vocab_dir))
    enc = tok(words, is_split_into_words=True, truncation=True)
    rows = []
    for i in range(len(words)):
        previous, labels = None, []
        for w in enc.word_ids(i):
            labels.append(-100 if w is None or w == previous else LABELS.index(tags[i][w]))
            previous = w
        rows.append({"input_ids": enc["input_ids"][i], "attention_mask": enc["attention_mask"][i], "labels": labels})
    torch.manual_seed(0)
    config = transformers.BertConfig(
        vocab_size=len(tok), hidden_size=16, num_hidden_layers=1, num_attention_heads=2,
        intermediate_size=32, num_labels=len(LABELS), max_position_embeddings=64,
    )
    model = transformers.BertForTokenClassification(config)
    return tok, model, rows


def _trainer(setup, tmp_path, batch_eval_metrics):
    tok, model, rows = setup
    args = transformers.TrainingArguments(
        output_dir=str(tmp_path), per_device_train_batch_size=4, per_device_eval_batch_size=4,
        num_train_epochs=1, report_to=[], use_cpu=True, batch_eval_metrics=batch_eval_metrics,
        disable_tqdm=True, save_strategy="no",
    )
    return transformers.Trainer(
        model=model, args=args, train_dataset=rows, eval_dataset=rows,
        data_collator=transformers.DataCollatorForTokenClassification(tok),
        compute_metrics=compute_metrics_for(LABELS),
        preprocess_logits_for_metrics=argmax_logits,
    )


def test_trainer_train_and_evaluate_one_shot_equals_streaming(setup, tmp_path):
    trainer = _trainer(setup, tmp_path / "a", batch_eval_metrics=False)
    trainer.train()
    one_shot = trainer.evaluate()
    streamed = _trainer(setup, tmp_path / "b", batch_eval_metrics=True).evaluate()
    keys = [k for k in one_shot if k.startswith("eval_") and not k.endswith(("runtime", "per_second", "loss"))]
    assert "eval_overall_f1" in keys and "eval_overall_accuracy" in keys
    for key in keys:
        assert streamed[key] == pytest.approx(one_shot[key], abs=1e-12), key

    # the same predictions scored through strings give the same numbers
    output = trainer.predict(trainer.eval_dataset)
    ids, labels = np.asarray(output.predictions), output.label_ids
    pred = [[LABELS[p] for p, g in zip(pr, gr) if g != -100] for pr, gr in zip(ids, labels)]
    gold = [[LABELS[g] for g in gr if g != -100] for gr in labels]
    reference = score_tags(pred, gold, zero_division=0)
    assert one_shot["eval_overall_f1"] == pytest.approx(reference["overall_f1"], abs=1e-12)
    assert one_shot["eval_overall_accuracy"] == pytest.approx(reference["overall_accuracy"], abs=1e-12)
