"""inspect-ai end to end: the task of docs/harnesses.md evaluated by inspect's own ``eval`` with ``mockllm/model``
answering the shipped sample with canned outputs (usage given, so nothing is fetched), offline; the numbers
equal ``nested-span-f1 generated`` on the same answers."""
from __future__ import annotations

import pytest

from nested_span_f1.answers.score import UnreadableAnswersWarning

from harness_sample import sample_answers, sample_rows

inspect_ai = pytest.importorskip("inspect_ai", reason="inspect-ai is not installed (pip install nested-span-f1[inspect])")
from inspect_ai import Task, eval  # noqa: E402
from inspect_ai.dataset import MemoryDataset, Sample  # noqa: E402
from inspect_ai.model import ModelOutput, ModelUsage, get_model  # noqa: E402
from inspect_ai.solver import generate  # noqa: E402

from nested_span_f1.harness.inspect_ai import ner_scorer  # noqa: E402

PROMPT = "List the people (PER), organisations (ORG), places (LOC) and other names (MISC) in: {}\nEntities:"


def canned_model():  # type: ignore[no-untyped-def]
    """mockllm/model answering each prompt with the sample's answer to its sentence."""
    answers = {PROMPT.format(" ".join(row["tokens"])): sample_answers()[row["id"]] for row in sample_rows()}

    def output(messages, tools, tool_choice, config):  # type: ignore[no-untyped-def]
        content = answers[messages[-1].text]
        return ModelOutput(model="mockllm/model", choices=ModelOutput.from_content("mockllm/model", content).choices,
                           usage=ModelUsage(input_tokens=20, output_tokens=10, total_tokens=30))

    return get_model("mockllm/model", custom_outputs=output)


def test_inspect_eval_gives_the_commands_numbers(tmp_path, command_result):
    dataset = MemoryDataset([Sample(input=PROMPT.format(" ".join(row["tokens"])), id=row["id"], metadata=row)
                             for row in sample_rows()])
    task = Task(dataset=dataset, solver=generate(), scorer=ner_scorer(labels=["PER", "ORG", "LOC", "MISC"]))
    with pytest.warns(UnreadableAnswersWarning, match=r"1 of 15 answers \(6.7%\) could not be read: \['s9'\]"):
        log, = eval(task, model=canned_model(), log_dir=str(tmp_path), display="none")
    assert log.status == "success", log.error
    metrics = log.results.scores[0].metrics
    assert metrics["entity_f1"].value == command_result["located"]["overall_f1"] == 0.75
    assert metrics["string_f1"].value == command_result["strings"]["overall_f1"]
    assert metrics["unreadable_share"].value == command_result["generated"]["unparseable_share"] == 1 / 15
    # each sample's own score: its answer's located tp, fp and fn (Maria Keller, Northwind Labs, Basel)
    first = next(sample for sample in log.samples if sample.id == "s1")
    assert first.scores["ner_scorer"].value == {"tp": 3, "fp": 0, "fn": 0}
