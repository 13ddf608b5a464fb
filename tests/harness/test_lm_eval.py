"""lm-evaluation-harness end to end: the task file of docs/harnesses.md run by lm-eval's own runner
(``simple_evaluate``) on the shipped sample as a local JSON dataset, with a model that downloads nothing; the
numbers equal ``nested-span-f1 answers`` on the same answers."""
from __future__ import annotations

from pathlib import Path

import pytest
from harness_sample import doc_block, sample_answers

from nested_span_f1 import sample_path
from nested_span_f1.answers.score import UnreadableAnswersWarning

lm_eval = pytest.importorskip("lm_eval", reason="lm-eval is not installed (pip install nested-span-f1[lm-eval])")
from lm_eval.api.model import LM
from lm_eval.tasks import TaskManager

TASK = doc_block("yaml", "nested_span_f1.harness.lm_eval")
"""The task file of docs/harnesses.md, run as written but for the dataset's path."""
TABLE = doc_block("text", "|sample_ner|")
"""The table docs/harnesses.md says lm-eval prints."""


class CannedAnswers(LM):
    """A model that answers each document with the sample's canned answer for it (by the document's id), as a
    model's generations would arrive."""

    def __init__(self, answers: dict[str, str]) -> None:
        super().__init__()
        self.answers = answers
        self.prompts: list[str] = []

    def generate_until(self, requests):  # type: ignore[no-untyped-def]
        self.prompts += [request.args[0] for request in requests]
        return [self.answers[request.doc["id"]] for request in requests]

    def loglikelihood(self, requests):  # type: ignore[no-untyped-def]
        raise NotImplementedError

    def loglikelihood_rolling(self, requests):  # type: ignore[no-untyped-def]
        raise NotImplementedError


def run_task(folder: Path, model: LM) -> dict:
    task = TASK.replace("/path/to/sample.ner.jsonl", sample_path("sample.ner.jsonl"))
    assert task != TASK
    (folder / "sample_ner.yaml").write_text(task)
    with pytest.warns(UnreadableAnswersWarning, match=r"1 of 15 answers \(6.7%\) could not be read: \['s9'\]"):
        out = lm_eval.simple_evaluate(model=model, tasks=["sample_ner"], task_manager=TaskManager(include_path=str(folder)),
                                      bootstrap_iters=0, log_samples=True)
    return out


def test_lm_eval_runs_the_task_and_gives_the_commands_numbers(tmp_path, command_result, lenient_result):
    model = CannedAnswers(sample_answers())
    out = run_task(tmp_path, model)
    scores = out["results"]["sample_ner"]
    assert model.prompts[0].startswith("List the people (PER)") and "Maria Keller joined Northwind Labs" in model.prompts[0]
    assert scores["entity_f1,none"] == command_result["located"]["overall_f1"] == 0.75
    assert scores["string_f1,none"] == command_result["strings"]["overall_f1"]
    assert round(scores["string_f1,none"], 4) == 0.8727
    assert scores["unreadable_share,none"] == command_result["answers"]["unparseable_share"] == 1 / 15
    assert scores["partial_f1,none"] == lenient_result["located"]["partial_f1"]
    # what it prints is what docs/harnesses.md shows
    assert lm_eval.utils.make_table(out).strip() == TABLE.strip()
    # each document's logged value is its answer and its gold row
    logged = out["samples"]["sample_ner"][8]
    assert logged["entity_f1"]["answer"] == "Sorry, I cannot list the entities of this sentence."
    assert logged["entity_f1"]["gold"]["id"] == "s9"
