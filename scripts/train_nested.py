"""Fine-tune a small span-classification model for nested NER, scored by the nested metric.

Reads nested-NER files in any format the package reads (CNN_Nested_NER/OneIE jsonl,
Triaffine json, biaffine jsonl, W2NER, Shibuya / Lu & Roth text, Pyramid; detected,
or named with ``--format``), or the package's embedded nested sample when none are
given. The model classifies every span of up to ``--max-span-width`` words (default:
the longest training entity) from the first sub-tokens of its first and last word
and its width; label 0 is "no entity". Offline by default: a tiny random BERT with
a word-piece vocabulary built from the training words; ``--model PATH`` starts from
a local BERT checkpoint instead (or a checkpoint of an earlier run, which holds its tokenizer).

Every evaluation is scored with the nested metric (``span_metrics_for``; each gold
entity counts, also those no candidate covers), and Trainer prints it. At every
checkpoint the test and the validation sets are predicted:
``checkpoint-N/test_predictions.<ext>`` and ``checkpoint-N/dev_predictions.<ext>`` in
their gold files' formats, with ``test_metrics.json`` and ``dev_metrics.json``, so
checkpoints can be compared afterwards (``nested-span-f1 nested --gold TEST --pred
checkpoint-N/test_predictions.<ext>`` gives the same numbers; ``nested-span-f1
benchmark --gold TEST --pred run=OUTPUT --dev-gold VALIDATION`` compares them all and
selects one on the validation set). ``OUTPUT/metrics.json`` gathers all of it
(``--output-dir``, by default ``runs/train_nested`` under the current directory).

The defaults learn the embedded sample: 30 epochs at learning rate 1e-2 for the tiny
random model (a few seconds of training on a CPU; it predicts no entity at all for
the first dozen epochs), 3 epochs at 5e-5 with ``--model``.

    python scripts/train_nested.py
    python scripts/train_nested.py --train train.jsonl --validation dev.jsonl --test test.jsonl \\
        --output-dir runs/genia --epochs 5 --save-steps 200
"""
from __future__ import annotations

import argparse
import sys
from pathlib import Path
from typing import Any

import numpy as np

from nested_span_f1.formats import FORMATS, Corpus, read_corpus, write_corpus
from nested_span_f1.hf.nested_trainer import LABEL_NAMES, candidate_spans, span_metrics_for
from nested_span_f1.hf.trainer import argmax_logits, reset_at_evaluation_start
from nested_span_f1.hf.training import evaluation_log, splits, tiny_bert_config, word_tokenizer, write_json

SAMPLE = Path(__file__).resolve().parents[1] / "nested_span_f1" / "sample_data" / "nested.gold.jsonl"
OUTPUT = Path("runs") / "train_nested"
NONE = "none"


def parse_args(argv: list[str] | None = None) -> argparse.Namespace:
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--train", default=str(SAMPLE), help="training file (default: the embedded nested sample)")
    p.add_argument("--validation", help="validation file (default: --train)")
    p.add_argument("--test", help="test file (default: --validation)")
    p.add_argument("--format", choices=sorted(FORMATS), help="format of the files (default: detected per file)")
    p.add_argument("--model", help="local BERT checkpoint to start from (default: a tiny random BERT)")
    p.add_argument("--output-dir", default=str(OUTPUT), help=f"where everything is written (default: {OUTPUT})")
    p.add_argument("--max-span-width", type=int, help="longest candidate span in words (default: longest in --train)")
    p.add_argument("--epochs", type=float, help="default: 30 for the tiny random model, 3 with --model")
    p.add_argument("--batch-size", type=int, default=8)
    p.add_argument("--learning-rate", type=float, help="default: 1e-2 for the tiny random model, 5e-5 with --model")
    p.add_argument("--save-steps", type=int, help="evaluate and save every N steps (default: every epoch)")
    p.add_argument("--seed", type=int, default=0)
    p.add_argument("--entity-level", action="store_true", help="also log per-type and breakdown scores")
    p.add_argument("--batch-eval-metrics", action="store_true", help="score batch by batch, keeping counts only")
    return p.parse_args(argv)


def contiguous(entities: list[Any]) -> list[tuple[int, int, str]]:
    """The entities that are ``(start, end, label)`` spans (a span classifier predicts no fragments)."""
    return [e for e in entities if len(e) == 3]


def encode(corpus: Corpus, tokenizer: Any, label_list: list[str], width: int) -> list[dict[str, Any]]:
    """One row per sentence: sub-tokens, each word's first sub-token, candidate spans and their gold labels."""
    index = {label: i for i, label in enumerate(label_list)}
    enc = tokenizer([list(t) for t in corpus.tokens], is_split_into_words=True, truncation=True)
    rows = []
    for i, entities in enumerate(corpus.entities):
        word_ids = enc.word_ids(i)
        firsts = [p for p, w in enumerate(word_ids) if w is not None and w != word_ids[p - 1]]
        n = len(firsts)  # words a truncated sentence kept
        spans = [(s, e) for s in range(n) for e in range(s + 1, min(n, s + width) + 1)]
        gold: dict[tuple[int, int], int] = {}
        for s, e, label in sorted(contiguous(entities), key=lambda x: index[x[2]]):
            gold.setdefault((s, e), index[label])  # a span with two labels: a single prediction finds one
        rows.append({
            "input_ids": enc["input_ids"][i], "attention_mask": enc["attention_mask"][i], "word_starts": firsts,
            "span_starts": [s for s, _ in spans], "span_ends": [e for _, e in spans],
            "labels": [gold.get(span, 0) for span in spans],
            "gold_spans": [[s, e, index[label]] for s, e, label in contiguous(entities)],
        })
    return rows


def collate(rows: list[dict[str, Any]]) -> dict[str, Any]:
    """Pad every field of a batch (ids with 0, spans and labels with -100) into tensors."""
    import torch

    def pad(key: str, value: int, tail: tuple[int, ...] = ()) -> Any:
        size = max([1, *(len(r[key]) for r in rows)])
        out = torch.full((len(rows), size, *tail), value, dtype=torch.long)
        for i, r in enumerate(rows):
            if r[key]:
                out[i, : len(r[key])] = torch.tensor(r[key], dtype=torch.long)
        return out

    return {"input_ids": pad("input_ids", 0), "attention_mask": pad("attention_mask", 0),
            "word_starts": pad("word_starts", 0), "span_starts": pad("span_starts", -100),
            "span_ends": pad("span_ends", -100), "labels": pad("labels", -100),
            "gold_spans": pad("gold_spans", -100, (3,))}


def span_classifier_class() -> Any:
    """The model class (built here so that the script imports transformers only when it runs)."""
    import torch
    from transformers import BertModel, BertPreTrainedModel

    class BertForSpanClassification(BertPreTrainedModel):  # type: ignore[misc]
        """BERT, then a linear layer over [first word's vector; last word's vector; width embedding]."""

        def __init__(self, config: Any) -> None:
            super().__init__(config)
            self.bert = BertModel(config, add_pooling_layer=False)
            self.width = torch.nn.Embedding(config.max_span_width, config.hidden_size)
            self.classifier = torch.nn.Linear(3 * config.hidden_size, config.num_labels)
            self.post_init()

        def forward(self, input_ids: Any, attention_mask: Any, word_starts: Any, span_starts: Any, span_ends: Any,
                    labels: Any = None, gold_spans: Any = None) -> dict[str, Any]:
            hidden = self.bert(input_ids=input_ids, attention_mask=attention_mask).last_hidden_state
            words = hidden.gather(1, word_starts.unsqueeze(-1).expand(-1, -1, hidden.size(-1)))

            def at(index: Any) -> Any:
                return words.gather(1, index.clamp(min=0).unsqueeze(-1).expand(-1, -1, words.size(-1)))

            width = (span_ends - span_starts).clamp(1, self.config.max_span_width) - 1
            logits = self.classifier(torch.cat([at(span_starts), at(span_ends - 1), self.width(width)], dim=-1))
            out = {"logits": logits}
            if labels is not None:
                out["loss"] = torch.nn.functional.cross_entropy(
                    logits.reshape(-1, logits.size(-1)), labels.reshape(-1), ignore_index=-100)
            return out

    return BertForSpanClassification


def predicted_corpus(output: Any, gold: Corpus, label_list: list[str]) -> Corpus:
    """The test predictions as a corpus with the gold file's tokens and ids."""
    labels, starts, ends, _ = output.label_ids
    spans = candidate_spans(np.asarray(output.predictions), starts, ends, labels != -100, label_list, 0)
    return Corpus(gold.tokens, spans.to_lists(), gold.sentence_ids, gold.doc_ids, gold.format, source="predictions")


def checkpoint_predictions(trainer_ref: dict[str, Any], sets: dict[str, tuple[Corpus, list[dict[str, Any]], str]],
                           label_list: list[str]) -> Any:
    """A ``TrainerCallback`` writing each checkpoint's predictions and metrics of each set (``{part: (gold, rows,
    file suffix)}``, the test and development sets) into its folder: ``{part}_predictions.<ext>`` and
    ``{part}_metrics.json``."""
    from transformers import TrainerCallback

    class CheckpointPredictions(TrainerCallback):  # type: ignore[misc]
        def __init__(self) -> None:
            self.checkpoints: dict[str, dict[str, Any]] = {}

        def on_save(self, args: Any, state: Any, control: Any, **kwargs: Any) -> None:
            del control  # TrainerCallback's signature; saving predictions changes nothing in the training's flow
            folder = Path(args.output_dir) / f"checkpoint-{state.global_step}"
            for part, (gold, rows, suffix) in sets.items():
                output = trainer_ref["trainer"].predict(rows, metric_key_prefix=part)
                write_corpus(predicted_corpus(output, gold, label_list), folder / f"{part}_predictions{suffix}",
                             gold.format)
                write_json(output.metrics, folder / f"{part}_metrics.json")
                self.checkpoints.setdefault(folder.name, {}).update(output.metrics)
                scores = ", ".join(f"{name} {output.metrics[f'{part}_{name}']:.4f}"
                                   for name in ("precision", "recall", "f1"))
                print(f"{folder.name} {part}: {scores} (all of them in {folder / f'{part}_metrics.json'})")

    return CheckpointPredictions()


def main(argv: list[str] | None = None) -> int:
    args = parse_args(argv)
    import torch
    import transformers

    out = Path(args.output_dir)
    out.mkdir(parents=True, exist_ok=True)
    paths = splits(args.train, args.validation, args.test)
    data = {split: read_corpus(path, args.format) for split, path in paths.items()}
    types = sorted({e[-1] for corpus in data.values() for sentence in corpus.entities for e in sentence})
    label_list = [NONE, *types]
    fragmented = data["test"].discontinuous()
    if fragmented:
        print(f"note: {fragmented} discontinuous test entities cannot be predicted by a span classifier")
    width = args.max_span_width or max(
        (e - s for sentence in data["train"].entities for s, e, _ in contiguous(sentence)), default=1)
    transformers.set_seed(args.seed)
    model_class = span_classifier_class()
    labels = {"num_labels": len(label_list), "id2label": dict(enumerate(label_list)),
              "label2id": {t: i for i, t in enumerate(label_list)}, "max_span_width": width}
    if args.model:
        tokenizer = transformers.AutoTokenizer.from_pretrained(args.model)
        model = model_class.from_pretrained(args.model, **labels)
    else:
        tokenizer = word_tokenizer(data["train"].tokens, out / "tokenizer")
        model = model_class(tiny_bert_config(len(tokenizer), **labels))
    rows = {split: encode(corpus, tokenizer, label_list, width) for split, corpus in data.items()}
    strategy = "steps" if args.save_steps else "epoch"
    training_args = transformers.TrainingArguments(
        output_dir=str(out), num_train_epochs=args.epochs or (3 if args.model else 30),
        learning_rate=args.learning_rate or (5e-5 if args.model else 1e-2),
        per_device_train_batch_size=args.batch_size, per_device_eval_batch_size=args.batch_size,
        eval_strategy=strategy, eval_steps=args.save_steps, save_strategy=strategy, save_steps=args.save_steps,
        logging_strategy=strategy, logging_steps=args.save_steps, label_names=list(LABEL_NAMES), report_to=[],
        use_cpu=not torch.cuda.is_available(), seed=args.seed, batch_eval_metrics=args.batch_eval_metrics,
    )
    # built before training: a label list or option it refuses stops the run here, not at the first evaluation
    compute_metrics = span_metrics_for(label_list, entity_level=args.entity_level)
    log = evaluation_log()
    trainer_ref: dict[str, Any] = {}
    saved = checkpoint_predictions(trainer_ref, {
        part: (data[split], rows[split], Path(paths[split]).suffix) for part, split in (("dev", "validation"),
                                                                                        ("test", "test"))},
        label_list)
    trainer = transformers.Trainer(
        model=model, args=training_args, train_dataset=rows["train"], eval_dataset=rows["validation"],
        data_collator=collate, compute_metrics=compute_metrics, preprocess_logits_for_metrics=argmax_logits,
        callbacks=[log, saved, reset_at_evaluation_start(compute_metrics)], processing_class=tokenizer,
    )
    trainer_ref["trainer"] = trainer
    trainer.train()
    write_json({"label_list": label_list, "max_span_width": width, "files": paths, "evaluations": log.evaluations,
                "checkpoints": saved.checkpoints}, out / "metrics.json")
    return 0


if __name__ == "__main__":
    sys.exit(main())
