"""Two real processes (torchrun, gloo on CPU) give what one process gives.

One ``torchrun --nproc_per_node 2`` run executes this file as a worker (see
``worker``): each rank counts its own uneven shard of the sample data and the
counts of the flat, lenient and nested metrics are all-reduced; the three evaluate
modules run in evaluate's own distributed mode (``num_process=2``, ``process_id``,
one ``experiment_id``); and a Trainer evaluates a saved model on both processes,
one shot and with ``batch_eval_metrics=True``. Rank 0 writes what it got; the test
computes the same in one process and compares.
"""
import json
import os
import subprocess
import sys
import uuid
from contextlib import nullcontext
from pathlib import Path

import pytest

torch = pytest.importorskip("torch")
transformers = pytest.importorskip("transformers")
evaluate = pytest.importorskip("evaluate")

from nested_span_f1 import count_exact, count_nested, metric_path
from nested_span_f1.core.matching import DuplicateSpanWarning
from nested_span_f1.formats import read_corpus
from nested_span_f1.formats.columns import read_columns
from nested_span_f1.hf.trainer import all_reduce_counts, argmax_logits, compute_metrics_for
from nested_span_f1.hf.training import tiny_bert_config, word_tokenizer
from nested_span_f1.lenient.score import count_lenient

ROOT = Path(__file__).resolve().parents[2]
SAMPLES = ROOT / "nested_span_f1" / "sample_data"
OFFLINE = {"HF_HUB_OFFLINE": "1", "HF_DATASETS_OFFLINE": "1", "HF_EVALUATE_OFFLINE": "1", "OMP_NUM_THREADS": "1"}
TIMING = ("runtime", "per_second", "preparation_time")


def _data():
    """Flat tags and nested spans of the samples: {name: (predictions, references)}."""
    gold, pred = read_columns(SAMPLES / "sample.gold.conll"), read_columns(SAMPLES / "sample.pred.conll")
    nested_gold, nested_pred = (read_corpus(SAMPLES / f"nested.{side}.jsonl") for side in ("gold", "pred"))
    spans = tuple([[{"start": b, "end": e, "label": label} for b, e, label in sentence] for sentence in side.entities]
                  for side in (nested_pred, nested_gold))
    return {"flat": (pred.column(), gold.column()), "lenient": spans, "nested": spans}


def _shard(pair, rank, world):
    """Rank 0 takes about two thirds of the sentences, rank 1 the rest (shards of unequal size)."""
    cut = [0, 2 * len(pair[0]) // 3, len(pair[0])] if world == 2 else [0, len(pair[0])]
    return tuple(side[cut[rank]:cut[rank + 1]] for side in pair)


COUNT = {"flat": count_exact, "lenient": count_lenient, "nested": count_nested}
MODULES = {"flat": "exact", "lenient": "lenient", "nested": "nested"}


def _rows(tok):
    gold = read_columns(SAMPLES / "sample.gold.conll")
    labels = sorted({t for s in gold.column() for t in s})
    enc = tok(gold.tokens, is_split_into_words=True, truncation=True)
    rows = []
    for i, tags in enumerate(gold.column()):
        previous, ids = None, []
        for w in enc.word_ids(i):
            ids.append(-100 if w is None or w == previous else labels.index(tags[w]))
            previous = w
        rows.append({"input_ids": enc["input_ids"][i], "attention_mask": enc["attention_mask"][i], "labels": ids})
    return labels, rows


def _evaluate_with_trainer(model_dir, out_dir, batch_eval_metrics):
    tok = transformers.BertTokenizerFast.from_pretrained(str(model_dir))
    labels, rows = _rows(tok)
    args = transformers.TrainingArguments(
        output_dir=str(out_dir), per_device_eval_batch_size=3, report_to=[], use_cpu=True, disable_tqdm=True,
        batch_eval_metrics=batch_eval_metrics,
    )
    trainer = transformers.Trainer(
        model=transformers.BertForTokenClassification.from_pretrained(str(model_dir)), args=args,
        eval_dataset=rows, data_collator=transformers.DataCollatorForTokenClassification(tok),
        compute_metrics=compute_metrics_for(labels, entity_level=True), preprocess_logits_for_metrics=argmax_logits,
    )
    metrics = trainer.evaluate()
    return {k: v for k, v in metrics.items() if not k.endswith(TIMING) and k != "eval_loss"}


def worker(out_dir, model_dir, experiment_id):
    """One rank of the torchrun job (see the module docstring)."""
    import torch.distributed as dist

    dist.init_process_group("gloo")
    rank, world = dist.get_rank(), dist.get_world_size()
    record = {"world_size": world, "counts": {}, "evaluate": {}, "trainer": {}}
    for name, pair in _data().items():
        record["counts"][name] = all_reduce_counts(COUNT[name](*_shard(pair, rank, world))).to_dict()
        metric = evaluate.load(metric_path(MODULES[name]), num_process=world, process_id=rank,
                               experiment_id=experiment_id, cache_dir=str(Path(out_dir) / "evaluate-cache"))
        predictions, references = _shard(pair, rank, world)
        metric.add_batch(predictions=predictions, references=references)
        record["evaluate"][name] = metric.compute(zero_division=0)
    for streaming in (False, True):
        record["trainer"][str(streaming)] = _evaluate_with_trainer(model_dir, Path(out_dir) / f"trainer-{rank}",
                                                                   streaming)
    if rank == 0:
        (Path(out_dir) / "rank0.json").write_text(json.dumps(record))
    dist.barrier()
    dist.destroy_process_group()


@pytest.fixture(scope="module")
def model_dir(tmp_path_factory):
    """A tiny BERT trained a few steps (so its predictions hold entities), saved with its tokenizer."""
    folder = tmp_path_factory.mktemp("model")
    tok = word_tokenizer(read_columns(SAMPLES / "sample.gold.conll").tokens, folder)
    labels, rows = _rows(tok)
    torch.manual_seed(0)
    model = transformers.BertForTokenClassification(tiny_bert_config(len(tok), num_labels=len(labels)))
    args = transformers.TrainingArguments(output_dir=str(folder / "run"), per_device_train_batch_size=4,
                                          num_train_epochs=4, learning_rate=3e-2, report_to=[], use_cpu=True,
                                          disable_tqdm=True, save_strategy="no", seed=0)
    transformers.Trainer(model=model, args=args, train_dataset=rows,
                         data_collator=transformers.DataCollatorForTokenClassification(tok)).train()
    model.save_pretrained(str(folder))
    return folder


def test_two_processes_equal_one(tmp_path, model_dir):
    command = [sys.executable, "-m", "torch.distributed.run", "--standalone", "--nproc_per_node", "2",
               __file__, str(tmp_path), str(model_dir), uuid.uuid4().hex]
    out = subprocess.run(command, cwd=ROOT, capture_output=True, text=True, env={**os.environ, **OFFLINE})
    assert out.returncode == 0, out.stderr[-4000:]
    two = json.loads((tmp_path / "rank0.json").read_text())
    assert two["world_size"] == 2
    for name, pair in _data().items():
        # the nested sample lists one predicted span twice, on purpose: lenient and nested warn once a call
        with pytest.warns(DuplicateSpanWarning) if name != "flat" else nullcontext():
            one = COUNT[name](*pair)
            alone = evaluate.load(metric_path(MODULES[name])).compute(predictions=pair[0], references=pair[1],
                                                                      zero_division=0)
        assert two["counts"][name] == one.to_dict(), name
        assert two["evaluate"][name] == json.loads(json.dumps(alone)), name
    assert two["counts"]["nested"]["counts"]["labels"]  # the shards held entities
    for streaming in ("False", "True"):
        alone = _evaluate_with_trainer(model_dir, tmp_path / "one", streaming == "True")
        assert 0 < alone["eval_f1"] < 1
        assert two["trainer"][streaming] == alone, streaming


if __name__ == "__main__":
    worker(*sys.argv[1:4])
