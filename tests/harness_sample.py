"""The shipped sample the harness tests run on: the 15 sentences of sample.gold.conll as a dataset
(sample.ner.jsonl, ids s1 to s15) and a model's raw answers to them (sample.harness.jsonl)."""
from __future__ import annotations

import json
from pathlib import Path

from nested_span_f1 import sample_path


def sample_rows() -> list[dict]:
    """The gold documents, a dataset's rows: ``{"id", "tokens", "tags"}``."""
    return [json.loads(line) for line in Path(sample_path("sample.ner.jsonl")).read_text().splitlines()]


def sample_answers() -> dict[str, str]:
    """The canned answers, by the id of the sentence each answers."""
    records = [json.loads(line) for line in Path(sample_path("sample.harness.jsonl")).read_text().splitlines()]
    return {record["id"]: record["output"] for record in records}
