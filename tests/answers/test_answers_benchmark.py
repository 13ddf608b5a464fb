"""Answer systems in the benchmark: beside a tagger on one gold, with intervals and paired tests, the string
protocol resampled with the same draws."""
from __future__ import annotations

import json
from pathlib import Path

import numpy as np
import pytest

import nested_span_f1
from nested_span_f1 import Corpus, tags_to_spans
from nested_span_f1.answers import count_answers, read_answers, score_answers
from nested_span_f1.answers.score import UnreadableAnswersWarning
from nested_span_f1.benchmark.compare import benchmark
from nested_span_f1.benchmark.stats import bootstrap_sums, prf
from nested_span_f1.cli.main import main
from nested_span_f1.formats.columns import read_columns

SAMPLE = Path(nested_span_f1.__file__).parent / "sample_data"
GOLD, TAGGER, LLM = (SAMPLE / name for name in ("sample.gold.conll", "sample.pred.conll", "sample.lists.jsonl"))


def test_a_answers_system_beside_a_tagger():
    result = benchmark(GOLD, {"tagger": TAGGER, "llm": LLM}, n_resamples=300, progress=False)
    tagger, llm = result.systems
    columns = read_columns(GOLD)
    gold = Corpus(columns.tokens, tags_to_spans(columns.column()), source="gold")
    with pytest.warns(UnreadableAnswersWarning, match=r"1 of 15 answers \(6.7%\) could not be read"):
        expected = score_answers(LLM, gold, metric="exact", zero_division=0)
    # the located spans are a system like the tagger: the same numbers as the metric, with intervals
    assert llm["f1"]["value"] == expected["located"]["overall_f1"] == 0.75
    assert (llm["tp"], llm["predicted"], llm["gold"]) == (21, 28, 28) and tagger["gold"] == 28
    assert llm["f1"]["low"] < 0.75 < llm["f1"]["high"]
    # the string protocol beside them, its interval from the same draws
    assert llm["strings"]["f1"]["value"] == expected["strings"]["overall_f1"]
    assert llm["strings"]["per_type"]["LOC"]["f1"]["value"] == expected["strings"]["LOC"]["f1"]
    assert llm["answers"]["not_in_text"] == 2 and llm["answers"]["unparseable"] == 1
    assert "strings" not in tagger
    (pair,) = result.comparisons
    assert (pair["a"], pair["b"]) == ("tagger", "llm") and 0 < pair["p_bootstrap"] <= 1
    # the report shows both protocols of the answer system
    report = result.to_markdown()
    assert "### Answer systems: located spans and strings" in report
    section = report.split("### Answer systems: located spans and strings")[1]
    row = next(line for line in section.splitlines() if line.startswith("| llm | 75.00 |"))
    assert "| 87.27 |" in row and row.endswith("| 2 | 1 | 1 |")


def test_the_string_interval_is_the_bootstrap_of_per_document_counts():
    columns = read_columns(GOLD)
    gold = Corpus(columns.tokens, tags_to_spans(columns.column()), source="gold")
    run = count_answers(read_answers(LLM.read_text(encoding="utf-8")), gold, per_document=True)
    # the documents' counts add up to the run's
    assert [sum(d.get(label, (0, 0, 0))[k] for d in run.string_documents) for label in ("LOC",) for k in range(3)] == [
        run.counts.strings.labels["LOC"].tp, run.counts.strings.labels["LOC"].predicted,
        run.counts.strings.labels["LOC"].gold]
    matrix = np.array([[sum(d.get(label, (0, 0, 0))[k] for label in d) for k in range(3)]
                       for d in run.string_documents], dtype=np.int64)
    drawn = bootstrap_sums(matrix, 300, 0)
    f1 = prf(drawn[:, 0], drawn[:, 1], drawn[:, 2])[2]
    llm = benchmark(GOLD, {"llm": LLM}, n_resamples=300, progress=False).systems[0]
    assert llm["strings"]["f1"]["low"] == pytest.approx(np.percentile(f1, 2.5), abs=1e-12)
    assert llm["strings"]["f1"]["high"] == pytest.approx(np.percentile(f1, 97.5), abs=1e-12)


def test_the_benchmark_command_detects_answers_files(tmp_path, capsys):
    code = main(["benchmark", "--gold", str(GOLD), "--pred", f"tagger={TAGGER}", "--pred", f"llm={LLM}",
                 "--bootstrap", "200", "--json", "--no-progress"])
    out, err = capsys.readouterr()
    assert code == 0, err
    systems = {s["name"]: s for s in json.loads(out)["systems"]}
    assert systems["llm"]["f1"]["value"] == 0.75 and round(systems["llm"]["strings"]["f1"]["value"], 4) == 0.8727
