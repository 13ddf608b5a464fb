"""inspect-ai end to end: the task file of docs/harnesses.md, as written, evaluated by inspect's own ``eval`` with
``mockllm/model`` answering the shipped sample with canned outputs (usage given, so nothing is fetched), offline;
the numbers equal ``nested-span-f1 answers`` on the same answers."""
from __future__ import annotations

import pytest
from harness_sample import doc_block, sample_answers, sample_rows

from nested_span_f1.answers.score import UnreadableAnswersWarning

inspect_ai = pytest.importorskip("inspect_ai", reason="inspect-ai is not installed (pip install nested-span-f1[inspect])")
from inspect_ai import eval
from inspect_ai.model import ModelOutput, ModelUsage, get_model

TASK_FILE = doc_block("python", "from nested_span_f1.harness.inspect_ai import ner_scorer")
"""The task file of docs/harnesses.md."""


def canned_model(prompt: str):  # type: ignore[no-untyped-def]
    """mockllm/model answering each prompt with the sample's answer to its sentence."""
    answers = {prompt.format(" ".join(row["tokens"])): sample_answers()[row["id"]] for row in sample_rows()}

    def output(messages, tools, tool_choice, config):  # type: ignore[no-untyped-def]
        content = answers[messages[-1].text]
        return ModelOutput(model="mockllm/model", choices=ModelOutput.from_content("mockllm/model", content).choices,
                           usage=ModelUsage(input_tokens=20, output_tokens=10, total_tokens=30))

    return get_model("mockllm/model", custom_outputs=output)


def test_inspect_eval_gives_the_commands_numbers(tmp_path, command_result):
    namespace: dict = {}
    exec(compile(TASK_FILE, "sample_ner.py", "exec"), namespace)
    with pytest.warns(UnreadableAnswersWarning, match=r"1 of 15 answers \(6.7%\) could not be read: \['s9'\]"):
        log, = eval(namespace["sample_ner"](), model=canned_model(namespace["PROMPT"]), log_dir=str(tmp_path),
                    display="none")
    assert log.status == "success", log.error
    metrics = log.results.scores[0].metrics
    assert metrics["entity_f1"].value == command_result["located"]["overall_f1"] == 0.75
    assert metrics["string_f1"].value == command_result["strings"]["overall_f1"]
    assert metrics["unreadable_share"].value == command_result["answers"]["unparseable_share"] == 1 / 15
    # each sample's own score: its answer's located tp, fp and fn (Maria Keller, Northwind Labs, Basel)
    first = next(sample for sample in log.samples if sample.id == "s1")
    assert first.scores["ner_scorer"].value == {"tp": 3, "fp": 0, "fn": 0}
