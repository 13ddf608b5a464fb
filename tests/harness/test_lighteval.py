"""lighteval: ner_metric as lighteval's own metric classes use it (per-sample counts, corpus functions that sum
them, the bootstrap that pickles them into worker processes and draws a document twice), numbers equal to
``nested-span-f1 answers``; and the start-up step of lighteval's Pipeline that keeps it from running here."""
from __future__ import annotations

import pickle
import warnings
from pathlib import Path

import pytest
from harness_sample import doc_block, sample_answers, sample_rows

from nested_span_f1.answers.score import UnreadableAnswersWarning
from nested_span_f1.answers.tally import AnswerTally

lighteval = pytest.importorskip("lighteval", reason="lighteval is not installed (pip install nested-span-f1[lighteval])")
from lighteval.metrics.utils.metric_utils import SampleLevelMetricGrouping
from lighteval.metrics.utils.stderr import get_stderr_function
from lighteval.models.model_output import ModelResponse
from lighteval.tasks.requests import Doc

from nested_span_f1.harness.lighteval import ner_metric

LABELS = ["PER", "ORG", "LOC", "MISC"]


def sample_values(metric: SampleLevelMetricGrouping) -> dict[str, list]:
    """Each figure's per-sample values, as lighteval's metric computes them for every document of the sample."""
    values: dict[str, list] = {name: [] for name in metric.metric_name}
    answers = sample_answers()
    for row in sample_rows():
        doc = Doc(query=" ".join(row["tokens"]), choices=[""], gold_index=0, specific=row, id=row["id"])
        for name, value in metric.compute_sample(doc=doc, model_response=ModelResponse(text=[answers[row["id"]]])).items():
            values[name].append(value)
    return values


def test_lighteval_metric_sums_counts_to_the_commands_numbers(command_result):
    metric = pickle.loads(pickle.dumps(ner_metric(labels=LABELS)))  # lighteval pickles its metrics
    assert isinstance(metric, SampleLevelMetricGrouping)
    values = sample_values(metric)
    assert all(isinstance(value, AnswerTally) for value in values["entity_f1"])
    corpus = metric.get_corpus_aggregations()
    with pytest.warns(UnreadableAnswersWarning, match=r"1 of 15 answers \(6.7%\) could not be read: \['s9'\]"):
        assert corpus["entity_f1"](values["entity_f1"]) == command_result["located"]["overall_f1"] == 0.75
    assert corpus["string_f1"](values["string_f1"]) == command_result["strings"]["overall_f1"]
    assert corpus["unreadable_share"](values["unreadable_share"]) == command_result["answers"]["unparseable_share"]


def test_lighteval_bootstrap_draws_documents_twice_and_pickles_the_counts():
    metric = ner_metric(labels=LABELS)
    values = sample_values(metric)
    aggregation = metric.get_corpus_aggregations()["string_f1"]
    stderr = get_stderr_function(aggregation=aggregation, number_experiments=20)  # worker processes, draws with replacement
    assert 0 < stderr(values["string_f1"]) < 0.2
    doubled = values["entity_f1"] + values["entity_f1"][:1]  # s1 twice: counted twice, never refused
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", UnreadableAnswersWarning)
        assert 0.75 < metric.get_corpus_aggregations()["entity_f1"](doubled) < 1


TASK_FILE = doc_block("python", "from nested_span_f1.harness.lighteval import ner_metric")
"""The task file of docs/harnesses.md."""


def test_lightevals_pipeline_cannot_start_offline(tmp_path, monkeypatch):
    """lighteval's Pipeline builds its task registry first, which imports every built-in task module, three of
    which reach the network as they are imported (each answered here without leaving the machine): the ifeval
    module downloads NLTK's punkt and punkt_tab tokenizers when they are missing (offline it prints an error and
    goes on); the tiny-benchmarks module fetches tinyBenchmarks.pkl from GitHub into the installed package when it
    is missing (offline: a ConnectionError, and the Pipeline stops); and the LLM-judge tasks (mt_bench, mix_eval,
    ...) call HfApi().list_models(model_name=...) on the Hub, an argument huggingface_hub 1.0 removed: with the
    huggingface_hub that transformers 5 needs, the registry, and so the Pipeline, cannot be built, online or not."""
    import nltk
    import requests
    from lighteval.tasks.registry import Registry

    fetched = []

    def no_network(url, *args, **kwargs):  # type: ignore[no-untyped-def]
        fetched.append(url.rsplit("/", 1)[-1])
        response = requests.Response()
        response.status_code = 404
        return response

    monkeypatch.setattr(requests, "get", no_network)
    monkeypatch.setattr(nltk, "download", lambda resource, *args, **kwargs: fetched.append(resource) and False)
    (tmp_path / "data").mkdir()
    task = TASK_FILE.replace("/path/to/folder/of/test.jsonl", str(tmp_path / "data"))
    assert task != TASK_FILE
    (tmp_path / "tasks.py").write_text(task)
    with pytest.raises(TypeError, match=r"list_models\(\) got an unexpected keyword argument 'model_name'"):
        Registry(tasks="sample_ner|0", custom_tasks=str(tmp_path / "tasks.py"))
    # what was fetched before the judge tasks stopped it: what this machine lacks of the three
    missing = {"tinyBenchmarks.pkl"} - {path.name for path in (Path(lighteval.__file__).parent / "tasks" / "tasks").iterdir()}
    for resource in ("punkt", "punkt_tab"):
        try:
            nltk.data.find(f"tokenizers/{resource}")
        except LookupError:
            missing.add(resource)
    assert set(fetched) == missing
