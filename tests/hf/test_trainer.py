"""Real Trainer runs (tiny random BERT, offline) with compute_metrics from label ids."""
import copy
import functools
from pathlib import Path

import numpy as np
import pytest

torch = pytest.importorskip("torch")
transformers = pytest.importorskip("transformers")
seqeval_metrics = pytest.importorskip("seqeval.metrics")

from nested_span_f1 import metric_path, score_exact
from nested_span_f1.formats.columns import read_columns
from nested_span_f1.hf.trainer import argmax_logits, compute_metrics_for, reset_at_evaluation_start
from nested_span_f1.hf.training import tiny_bert_config, word_tokenizer

SAMPLES = Path(__file__).resolve().parents[2] / "nested_span_f1" / "sample_data"
LABELS = ["O", "B-PER", "I-PER", "B-ORG", "I-ORG", "B-LOC", "I-LOC", "B-MISC", "I-MISC"]
TIMING = ("runtime", "per_second", "preparation_time")


@pytest.fixture(scope="module")
def setup(tmp_path_factory):
    gold = read_columns(SAMPLES / "sample.gold.conll")
    words, tags = gold.tokens, gold.column()
    tok = word_tokenizer(words, tmp_path_factory.mktemp("tok"))
    enc = tok(words, is_split_into_words=True, truncation=True)
    rows = []
    for i in range(len(words)):
        previous, labels = None, []
        for w in enc.word_ids(i):
            labels.append(-100 if w is None or w == previous else LABELS.index(tags[i][w]))
            previous = w
        rows.append({"input_ids": enc["input_ids"][i], "attention_mask": enc["attention_mask"][i], "labels": labels})
    assert sum(label == -100 for r in rows for label in r["labels"]) > 2 * len(rows)  # words of several pieces

    def model():
        torch.manual_seed(0)
        return transformers.BertForTokenClassification(tiny_bert_config(
            len(tok), num_labels=len(LABELS), id2label=dict(enumerate(LABELS)),
            label2id={t: i for i, t in enumerate(LABELS)}))

    return tok, model, rows


@pytest.fixture(scope="module")
def trained(setup, tmp_path_factory):
    trainer = _trainer(setup, tmp_path_factory.mktemp("trained"), entity_level=True)
    trainer.train()
    return trainer


def _trainer(setup, tmp_path, model=None, entity_level=False, split=None, compute_metrics=None, callbacks=None,
             **options):
    tok, new_model, rows = setup
    train, evaluation = (rows, rows) if split is None else (rows[:split], rows[split:])
    settings = {"per_device_train_batch_size": 4, "per_device_eval_batch_size": 4, "num_train_epochs": 4,
                "learning_rate": 3e-2, "report_to": [], "use_cpu": True, "disable_tqdm": True,
                "save_strategy": "no", "seed": 0, **options}
    return transformers.Trainer(
        model=model or new_model(), args=transformers.TrainingArguments(output_dir=str(tmp_path), **settings),
        train_dataset=train, eval_dataset=evaluation, data_collator=transformers.DataCollatorForTokenClassification(tok),
        compute_metrics=compute_metrics or compute_metrics_for(LABELS, entity_level=entity_level),
        preprocess_logits_for_metrics=argmax_logits, callbacks=callbacks,
    )


def _scores(metrics):
    return {k: v for k, v in metrics.items() if not k.endswith(TIMING) and k not in ("eval_loss", "epoch")}


def test_trainer_evaluation_equals_seqeval_and_streaming(setup, trained, tmp_path):
    trainer = trained
    one_shot = _scores(trainer.evaluate())
    assert all(type(v) in (int, float) for v in one_shot.values())
    streamed = _scores(_trainer(setup, tmp_path / "b", model=trainer.model, entity_level=True,
                                batch_eval_metrics=True).evaluate())
    assert streamed == one_shot
    short = _scores(_trainer(setup, tmp_path / "c", model=trainer.model).evaluate())
    assert sorted(short) == ["eval_accuracy", "eval_f1", "eval_precision", "eval_recall"]

    # the same predictions, as tag strings, scored by seqeval
    output = trainer.predict(trainer.eval_dataset)
    ids, labels = np.asarray(output.predictions), output.label_ids
    pred = [[LABELS[p] for p, g in zip(pr, gr) if g != -100] for pr, gr in zip(ids, labels)]
    gold = [[LABELS[g] for g in gr if g != -100] for gr in labels]
    assert 0 < one_shot["eval_f1"] < 1
    assert one_shot["eval_precision"] == seqeval_metrics.precision_score(gold, pred)
    assert one_shot["eval_recall"] == seqeval_metrics.recall_score(gold, pred)
    assert one_shot["eval_f1"] == pytest.approx(seqeval_metrics.f1_score(gold, pred), abs=1e-12)
    assert one_shot["eval_accuracy"] == seqeval_metrics.accuracy_score(gold, pred)
    report = seqeval_metrics.classification_report(gold, pred, output_dict=True, zero_division=0)
    for label in ("PER", "ORG", "LOC", "MISC"):
        for ours, theirs in [("precision", "precision"), ("recall", "recall"), ("f1", "f1-score"),
                             ("number", "support")]:
            assert one_shot[f"eval_{label}_{ours}"] == pytest.approx(report[label][theirs], abs=1e-12)
    assert one_shot["eval_overall_f1"] == one_shot["eval_f1"]


@pytest.mark.parametrize("best", ["f1", "PER_f1"])
def test_load_best_model_at_end_selects_the_checkpoint_with_the_best_score(setup, tmp_path, best):
    # trained on 10 sentences, evaluated on the other 4, the scores go up and down
    trainer = _trainer(setup, tmp_path, entity_level=True, split=10, eval_strategy="steps", eval_steps=2,
                       save_strategy="steps", save_steps=2, load_best_model_at_end=True,
                       metric_for_best_model=best)
    trainer.train()
    history = [(e["step"], e[f"eval_{best}"]) for e in trainer.state.log_history if f"eval_{best}" in e]
    scores = [score for _, score in history]
    assert len(set(scores)) > 2  # the scores moved, so the choice means something
    best_step = next(step for step, score in history if score == max(scores))
    assert best_step != history[-1][0]  # loading the best model changes the model
    assert trainer.state.best_metric == max(scores)
    assert trainer.state.best_model_checkpoint == str(tmp_path / f"checkpoint-{best_step}")
    assert trainer.evaluate()[f"eval_{best}"] == max(scores)


def test_evaluator_equals_scoring_the_models_predictions_directly(setup, trained):
    evaluate = pytest.importorskip("evaluate")
    datasets = pytest.importorskip("datasets")
    tok, _, _ = setup
    gold = read_columns(SAMPLES / "sample.gold.conll")
    words, tags = gold.tokens, gold.column()
    model = trained.model.eval()
    enc = tok(words, is_split_into_words=True, truncation=True, padding=True, return_tensors="pt")
    with torch.no_grad():
        ids = model(input_ids=enc["input_ids"], attention_mask=enc["attention_mask"]).logits.argmax(-1).numpy()
    predictions = []
    for i, sentence in enumerate(words):
        first = {w: p for p, w in reversed(list(enumerate(enc.word_ids(i)))) if w is not None}
        predictions.append([LABELS[ids[i, first[w]]] for w in range(len(sentence))])

    task = evaluate.evaluator("token-classification")
    data = datasets.Dataset.from_dict({"tokens": words, "ner_tags": tags})
    metric = evaluate.load(metric_path("exact"))
    results = []
    for options in ({"zero_division": 0}, {"mode": "strict", "scheme": "IOB2", "zero_division": 0}):
        task.METRIC_KWARGS = options  # how mode and scheme reach the metric
        result = task.compute(model_or_pipeline=model, tokenizer=tok, data=data, metric=metric,
                              input_column="tokens", label_column="ner_tags", device=-1)
        direct = score_exact(predictions, tags, **options)
        assert 0 < direct["overall_f1"] < 1
        assert {k: result[k] for k in direct} == direct
        results.append(direct)
    assert "invalid_predicted_chunks" not in results[0] and results[1]["invalid_predicted_chunks"] > 0, results


def _raising_once(model, at):
    """The model, its forward raising once, at the ``at``-th batch it sees in evaluation mode (as a bad
    input, a device error or a notebook interrupt stop an evaluation midway)."""
    model = copy.deepcopy(model)
    forward, seen = model.forward, []

    @functools.wraps(forward)
    def flaky(*args, **kwargs):
        if not model.training:
            seen.append(1)
            if len(seen) == at:
                raise RuntimeError("the evaluation stops here")
        return forward(*args, **kwargs)

    model.forward = flaky
    return model


@pytest.mark.parametrize("how", ["callback", "reset", "nothing"])
def test_an_evaluation_stopped_midway_does_not_leak_into_the_next(setup, trained, tmp_path, how):
    """batch_eval_metrics: an evaluation whose forward raises at its third batch (of four) leaves two batches
    counted; with reset_at_evaluation_start (or a reset() by hand) the next evaluation reports its own counts."""
    clean = _scores(_trainer(setup, tmp_path / "clean", model=trained.model, entity_level=True,
                             batch_eval_metrics=True).evaluate())
    metrics = compute_metrics_for(LABELS, entity_level=True)
    trainer = _trainer(setup, tmp_path, model=_raising_once(trained.model, at=3), batch_eval_metrics=True,
                       compute_metrics=metrics, callbacks=[reset_at_evaluation_start(metrics)] if how == "callback" else None)
    assert len(trainer.get_eval_dataloader()) == 4
    with pytest.raises(RuntimeError, match="stops here"):
        trainer.evaluate()
    if how == "reset":
        metrics.reset()
    again = _scores(trainer.evaluate())
    if how == "nothing":  # what the callback is for: the stopped evaluation's two batches counted again
        assert again["eval_PER_number"] > clean["eval_PER_number"]
    else:
        assert again == clean
        assert _scores(trainer.evaluate()) == clean  # and the evaluation after a clean one
