"""Fine-tune a token-classification model with Trainer, scored by span F1 at every evaluation.

Reads CoNLL-style column files (token ... tag, blank line between sentences), or the
package's embedded sample when none are given. Offline by default: a tiny randomly
initialised BERT and a word-piece vocabulary built from the training words;
``--model PATH`` fine-tunes a local checkpoint instead. Labels sit on each word's
first sub-token, -100 elsewhere, as transformers' run_ner.py does
(``--label-all-tokens`` gives every sub-token its word's label, B- turned into I-, and
scores words, not sub-tokens: each word by its first sub-token, the word ids passed to
the metric as a label column).

Trainer prints the metrics of every evaluation; they are also written to
``OUTPUT/metrics.json`` (``--output-dir``, by default ``runs/train_ner`` under the
current directory), the model and tokenizer to ``OUTPUT/model`` (a ``--model`` for a
later run); with ``--predict``, also the test set's metrics and
``OUTPUT/test_predictions.conll`` (token and predicted tag), which ``nested-span-f1
score --gold TEST --pred OUTPUT/test_predictions.conll`` scores to the same numbers.
With ``--batch-eval-metrics`` only counts are kept between evaluation batches.

    python scripts/train_ner.py --predict
    python scripts/train_ner.py --train train.conll --validation dev.conll --test test.conll \\
        --output-dir runs/conll --epochs 3 --entity-level --predict
"""
from __future__ import annotations

import argparse
import sys
from pathlib import Path
from typing import Any

import numpy as np

from nested_span_f1.flat.schemes import SCHEMES
from nested_span_f1.formats.columns import ColumnFile, read_columns
from nested_span_f1.hf.trainer import argmax_logits, compute_metrics_for, reset_at_evaluation_start
from nested_span_f1.hf.training import evaluation_log, splits, tiny_bert_config, word_tokenizer, write_json
from nested_span_f1.hf.words import with_word_ids, word_id_column

SAMPLE = Path(__file__).resolve().parents[1] / "nested_span_f1" / "sample_data" / "sample.gold.conll"
OUTPUT = Path("runs") / "train_ner"


def parse_args(argv: list[str] | None = None) -> argparse.Namespace:
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--train", default=str(SAMPLE), help="training column file (default: the embedded sample)")
    p.add_argument("--validation", help="validation column file (default: --train)")
    p.add_argument("--test", help="test column file (default: --validation)")
    p.add_argument("--model", help="local checkpoint to fine-tune (default: a tiny random BERT)")
    p.add_argument("--output-dir", default=str(OUTPUT), help=f"where everything is written (default: {OUTPUT})")
    p.add_argument("--epochs", type=float, default=3.0)
    p.add_argument("--batch-size", type=int, default=8)
    p.add_argument("--learning-rate", type=float,
                   help="default: 3e-2 for the tiny random model, 5e-5 with --model")
    p.add_argument("--eval-steps", type=int, help="evaluate every N steps (default: every epoch)")
    p.add_argument("--seed", type=int, default=0)
    p.add_argument("--label-all-tokens", action="store_true",
                   help="label every sub-token, not only the first (metrics still score each word once)")
    p.add_argument("--scheme", choices=sorted(SCHEMES), help="tagging scheme (needed by --mode strict)")
    p.add_argument("--mode", choices=["strict"], help="strict: drop chunks the scheme does not allow")
    p.add_argument("--entity-level", action="store_true", help="also log per-type scores (PER_f1, ...)")
    p.add_argument("--batch-eval-metrics", action="store_true", help="score batch by batch, keeping counts only")
    p.add_argument("--predict", action="store_true", help="score the test set and write its predictions")
    p.add_argument("--column", type=int, default=-1, help="tag column (default: the last)")
    return p.parse_args(argv)


def label_list_of(files: list[ColumnFile], column: int) -> list[str]:
    """Every tag of the files, "O" first, then sorted by type and prefix."""
    tags = {tag for f in files for sentence in f.column(column) for tag in sentence}
    rest = sorted(tags - {"O"}, key=lambda t: (t[2:], t[:2]))
    return ["O", *rest]


def inside_tag(tag: str) -> str:
    """The I- tag of a B- tag (run_ner.py's ``b_to_i_label``), other tags unchanged."""
    return "I-" + tag[2:] if tag.startswith("B-") else tag


def encode(words: list[list[str]], tags: list[list[str]], tokenizer: Any, label_list: list[str],
           label_all_tokens: bool) -> list[dict[str, Any]]:
    """Tokenize sentences of words and align word labels to sub-tokens (-100 where unlabelled)."""
    index = {tag: i for i, tag in enumerate(label_list)}
    enc = tokenizer(words, is_split_into_words=True, truncation=True)
    rows = []
    for i, sentence_tags in enumerate(tags):
        previous, labels = None, []
        for word in enc.word_ids(i):
            if word is None:
                labels.append(-100)
            elif word != previous:
                labels.append(index[sentence_tags[word]])
            else:
                labels.append(index[inside_tag(sentence_tags[word])] if label_all_tokens else -100)
            previous = word
        row = {"input_ids": enc["input_ids"][i], "attention_mask": enc["attention_mask"][i], "labels": labels}
        if label_all_tokens:
            # the metric scores each word by its first sub-token: it needs to know where words start
            row["word_ids"] = word_id_column(enc.word_ids(i))
        rows.append(row)
    return rows


def word_predictions(ids: np.ndarray, word_ids: list[list[int | None]], lengths: list[int],
                     label_list: list[str]) -> list[list[str]]:
    """Each word's tag: the prediction at its first sub-token ("O" for words cut off by truncation)."""
    out = []
    for row, words, n in zip(ids, word_ids, lengths):
        tags = ["O"] * n
        previous = None
        for position, word in enumerate(words):
            if word is not None and word != previous:
                tags[word] = label_list[int(row[position])]
            previous = word
        out.append(tags)
    return out


def write_columns(path: Path, words: list[list[str]], tags: list[list[str]]) -> None:
    """Token and tag per line, a blank line after each sentence."""
    with open(path, "w", encoding="utf-8") as f:
        for sentence, sentence_tags in zip(words, tags):
            f.writelines(f"{w} {t}\n" for w, t in zip(sentence, sentence_tags))
            f.write("\n")


def main(argv: list[str] | None = None) -> int:
    args = parse_args(argv)
    import torch
    import transformers

    out = Path(args.output_dir)
    out.mkdir(parents=True, exist_ok=True)
    paths = splits(args.train, args.validation, args.test)
    data = {split: read_columns(path) for split, path in paths.items()}
    label_list = label_list_of(list(data.values()), args.column)
    transformers.set_seed(args.seed)
    if args.model:
        tokenizer = transformers.AutoTokenizer.from_pretrained(args.model)
        model = transformers.AutoModelForTokenClassification.from_pretrained(
            args.model, num_labels=len(label_list), id2label=dict(enumerate(label_list)),
            label2id={t: i for i, t in enumerate(label_list)}, ignore_mismatched_sizes=True,
        )
    else:
        tokenizer = word_tokenizer(data["train"].tokens, out / "tokenizer")
        config = tiny_bert_config(len(tokenizer), num_labels=len(label_list), id2label=dict(enumerate(label_list)),
                                  label2id={t: i for i, t in enumerate(label_list)})
        model = transformers.BertForTokenClassification(config)
    rows = {split: encode(f.tokens, f.column(args.column), tokenizer, label_list, args.label_all_tokens)
            for split, f in data.items()}
    strategy = "steps" if args.eval_steps else "epoch"
    training_args = transformers.TrainingArguments(
        output_dir=str(out), num_train_epochs=args.epochs,
        learning_rate=args.learning_rate or (5e-5 if args.model else 3e-2),
        per_device_train_batch_size=args.batch_size, per_device_eval_batch_size=args.batch_size,
        eval_strategy=strategy, eval_steps=args.eval_steps, save_strategy="no", logging_strategy=strategy,
        logging_steps=args.eval_steps, report_to=[], use_cpu=not torch.cuda.is_available(), seed=args.seed,
        batch_eval_metrics=args.batch_eval_metrics,
        label_names=["labels", "word_ids"] if args.label_all_tokens else None,
    )
    collator = transformers.DataCollatorForTokenClassification(tokenizer)
    log = evaluation_log()
    # built before training: a label list or option it refuses stops the run here, not at the first evaluation
    compute_metrics = compute_metrics_for(label_list, scheme=args.scheme, mode=args.mode, entity_level=args.entity_level,
                                          word_ids=args.label_all_tokens)
    trainer = transformers.Trainer(
        model=model, args=training_args, train_dataset=rows["train"], eval_dataset=rows["validation"],
        data_collator=with_word_ids(collator) if args.label_all_tokens else collator, compute_metrics=compute_metrics,
        preprocess_logits_for_metrics=argmax_logits, callbacks=[log, reset_at_evaluation_start(compute_metrics)],
        processing_class=tokenizer,
    )
    trainer.train()
    trainer.save_model(str(out / "model"))
    result: dict[str, Any] = {"label_list": label_list, "files": paths, "evaluations": log.evaluations}
    if args.predict:
        output = trainer.predict(rows["test"], metric_key_prefix="test")
        result["test"] = output.metrics
        print(f"test: {output.metrics}")
        test = data["test"]
        word_ids = [tokenizer(s, is_split_into_words=True, truncation=True).word_ids() for s in test.tokens]
        tags = word_predictions(np.asarray(output.predictions), word_ids, [len(s) for s in test.tokens], label_list)
        write_columns(out / "test_predictions.conll", test.tokens, tags)
    write_json(result, out / "metrics.json")
    return 0


if __name__ == "__main__":
    sys.exit(main())
