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


DOC = Path(__file__).resolve().parents[1] / "docs" / "harnesses.md"


def doc_blocks(language: str) -> list[str]:
    """The ``language`` blocks of docs/harnesses.md, in order: the task files the harness tests run."""
    blocks, current = [], None
    for line in DOC.read_text(encoding="utf-8").splitlines():
        if current is None and line == f"```{language}":
            current = []
        elif current is not None and line == "```":
            blocks.append("\n".join(current) + "\n")
            current = None
        elif current is not None:
            current.append(line)
    return blocks


def doc_block(language: str, containing: str) -> str:
    """The one ``language`` block of docs/harnesses.md that holds ``containing``."""
    (block,) = [block for block in doc_blocks(language) if containing in block]
    return block
