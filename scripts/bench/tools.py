"""The tools the benchmark times, in one table: what each call is, what it is timed against, and its goal.

Each entry's ``prepare(dataset, seed)`` builds the input (outside the timing)
and returns the call to time, which returns the scores in the shape of
``scores.py``, and the token count. A tool with a ``baseline`` is timed against
it on the same data in the same run; ``goal`` is how many times faster it must
be (and, with ``less_memory``, with a lower peak), judged only where the two
tools' numbers are equal.

Imports of the tools themselves happen inside ``prepare``: a worker process
loads only the tool it times.
"""
from __future__ import annotations

import warnings
from collections.abc import Callable
from dataclasses import dataclass
from functools import partial
from typing import Any

import data
import scores

Call = Callable[[], Any]


@dataclass(frozen=True)
class Tool:
    label: str
    """The name the tables print."""
    prepare: Callable[[str, int], tuple[Call, int]]
    job: str = "flat"
    """``flat`` tools run on every flat dataset of the run; ``nested`` on GENIA; ``streaming`` on its own sizes."""
    baseline: str | None = None
    goal: float | None = None
    """How many times faster than the baseline the first call must be."""
    less_memory: bool = False
    """The goal also asks for a lower peak than the baseline's."""
    note: str | None = None
    """What the row shows, for a row with no baseline of its own."""


def _seqeval(dataset: str, seed: int, strict: bool = False) -> tuple[Call, int]:
    from seqeval.metrics import classification_report
    from seqeval.scheme import IOB2

    preds, refs = data.flat_tags(dataset, seed)
    options = {"mode": "strict", "scheme": IOB2} if strict else {}
    return lambda: scores.from_seqeval(classification_report(refs, preds, output_dict=True, **options)), _tokens(refs)


def _strings(dataset: str, seed: int, strict: bool = False, none_right: bool = False) -> tuple[Call, int]:
    import nested_span_f1

    preds, refs = data.flat_tags(dataset, seed)
    if none_right:
        preds = data.none_right(preds, refs)
    options = {"mode": "strict", "scheme": "IOB2"} if strict else {}
    return lambda: scores.from_ours(nested_span_f1.score_exact(preds, refs, **options)), _tokens(refs)


def _run_ner(dataset: str, seed: int) -> tuple[Call, int]:
    """transformers' examples/pytorch/token-classification/run_ner.py's compute_metrics, minus the argmax:
    ids to strings, then seqeval."""
    from seqeval.metrics import accuracy_score, classification_report

    preds, refs = data.flat_tags(dataset, seed)
    pred_ids, ref_ids, label_list = data.label_ids(preds, refs, seed)

    def run_ner() -> dict[str, Any]:
        true_predictions = [
            [label_list[p] for (p, lab) in zip(prediction, label) if lab != -100]
            for prediction, label in zip(pred_ids, ref_ids)
        ]
        true_labels = [
            [label_list[lab] for (p, lab) in zip(prediction, label) if lab != -100]
            for prediction, label in zip(pred_ids, ref_ids)
        ]
        report = classification_report(true_labels, true_predictions, output_dict=True)
        return scores.from_seqeval(report, accuracy_score(true_labels, true_predictions))

    return run_ner, _tokens(refs)


def _ids(dataset: str, seed: int) -> tuple[Call, int]:
    import nested_span_f1

    preds, refs = data.flat_tags(dataset, seed)
    pred_ids, ref_ids, label_list = data.label_ids(preds, refs, seed)
    return lambda: scores.from_ours(nested_span_f1.score_exact(pred_ids, ref_ids, label_list=label_list)), _tokens(refs)


def _evaluate(dataset: str, seed: int, module: str) -> tuple[Call, int]:
    """``evaluate.load`` (timed: a Trainer's compute_metrics pays it too), batches of 32 added, then compute."""
    import evaluate

    preds, refs = data.flat_tags(dataset, seed)

    def run() -> dict[str, Any]:
        metric = evaluate.load(module)
        for i in range(0, len(refs), 32):
            metric.add_batch(predictions=preds[i:i + 32], references=refs[i:i + 32])
        return scores.from_ours(metric.compute())

    return run, _tokens(refs)


def _nervaluate(dataset: str, seed: int) -> tuple[Call, int]:
    from nervaluate import Evaluator

    preds, refs = data.flat_tags(dataset, seed)
    tags = list(data.TYPES)  # CoNLL-2003's types too
    return lambda: scores.from_nervaluate(Evaluator(refs, preds, tags=tags, loader="list").evaluate()), _tokens(refs)


def _lenient(dataset: str, seed: int) -> tuple[Call, int]:
    from nested_span_f1 import score_lenient

    preds, refs = data.flat_tags(dataset, seed)
    return lambda: scores.from_lenient(score_lenient(preds, refs)), _tokens(refs)


def _nested(dataset: str, seed: int) -> tuple[Call, int]:
    from nested_span_f1 import score_nested

    preds, refs, lengths = data.genia_nested(seed)
    return lambda: {"micro": [score_nested(preds, refs, lengths=lengths)["overall_f1"]]}, sum(lengths)


def _streaming(dataset: str, seed: int) -> tuple[Call, int]:
    """``count_exact`` on batches of 32 sentences, the counts added, then one ``summarize``."""
    import nested_span_f1

    preds, refs = data.flat_tags(dataset, seed)

    def stream() -> dict[str, Any]:
        total = sum(nested_span_f1.count_exact(preds[i:i + 32], refs[i:i + 32]) for i in range(0, len(refs), 32))
        return scores.from_ours(nested_span_f1.summarize(total))

    return stream, _tokens(refs)


def _tokens(refs: data.Tags) -> int:
    return sum(map(len, refs))


TOOLS = {
    "seqeval": Tool("seqeval default", _seqeval),
    "strings": Tool("span_f1 strings default", _strings, baseline="seqeval", goal=50),
    "seqeval-strict": Tool("seqeval strict", partial(_seqeval, strict=True)),
    "strings-strict": Tool("span_f1 strings strict", partial(_strings, strict=True), baseline="seqeval-strict", goal=30),
    "strings-none-right": Tool("span_f1 strings default, none right", partial(_strings, none_right=True),
                               note="every predicted sentence made wrong: no sentence takes its reference's codes"),
    "run_ner": Tool("run_ner.py: ids -> strings -> seqeval", _run_ner),
    "ids": Tool("span_f1 from ids", _ids, baseline="run_ner", goal=100),
    "evaluate-seqeval": Tool("evaluate: seqeval (local copy)",
                             partial(_evaluate, module=str(data.ROOT / "scripts" / "bench" / "evaluate_seqeval.py"))),
    "evaluate": Tool("evaluate: span_f1", partial(_evaluate, module=str(data.ROOT / "metrics" / "span_f1")),
                     baseline="evaluate-seqeval", goal=5, less_memory=True),
    "nervaluate": Tool("nervaluate", _nervaluate),
    "lenient": Tool("span_f1 lenient", _lenient, baseline="nervaluate", goal=10),
    "nested": Tool("span_f1 nested (GENIA)", _nested, job="nested"),
    "streaming": Tool("span_f1 streaming (batches of 32)", _streaming, job="streaming"),
}
"""Every tool by its command-line name, the flat ones in the order the table prints them."""


def prepare(tool: str, dataset: str, seed: int) -> tuple[Call, int]:
    """The call to time for ``tool`` on ``dataset`` (its input built here, outside the timing), and the token count.

    The tools' own warnings (seqeval's zero division, for one) are not what is
    measured: they are silenced in the worker process.
    """
    warnings.simplefilter("ignore")
    return TOOLS[tool].prepare(dataset, seed)
