"""What a Space request can bring: pasted or uploaded text (CoNLL columns or JSON), a preset example.

Pure Python, no gradio: the app in :mod:`nested_span_f1.space.app` calls these.
Sizes are checked before anything is parsed, so a huge paste or file costs a
length check, not the memory of its parse.
"""
from __future__ import annotations

import json
import os
from pathlib import Path
from typing import Any

from ..formats import Corpus, align, read_corpus
from ..formats.columns import check_same_tokens, read_columns

MAX_BYTES = 2_000_000
"""Largest input a Space scores (pasted text or uploaded file): 2 MB, about 200k CoNLL tokens."""

MAX_OPTIONS_BYTES = 10_000

SAMPLES = Path(__file__).resolve().parents[1] / "sample_data"

PRESETS = ("flat", "nested")
"""Preset examples, written for this package (``sample_data``): ``flat`` is a CoNLL-2003-like
slice (token, gold, prediction columns), ``nested`` a GENIA-like set of nested spans (JSON)."""


def check_size(size: int, what: str) -> None:
    """Refuse an input over :data:`MAX_BYTES` with a message that names the limit."""
    if size > MAX_BYTES:
        raise ValueError(
            f"{what} is {size:,} bytes; this Space scores at most {MAX_BYTES:,} bytes "
            "(about 200k tokens); score larger sets locally (nested-span-f1 score)"
        )


def read_upload(path: str | os.PathLike[str]) -> str:
    """The text of an uploaded file, its size checked before it is read."""
    check_size(os.path.getsize(path), f"the uploaded file {Path(path).name}")
    try:
        return Path(path).read_text(encoding="utf-8")
    except UnicodeDecodeError as error:
        raise ValueError(f"the uploaded file is not UTF-8 text (byte {error.start})") from None


def parse(text: str) -> tuple[list[Any], list[Any]]:
    """``(predictions, references)`` from pasted or uploaded text.

    JSON (text starting with ``{``): an object with ``predictions`` and
    ``references`` lists, in any shape the metric accepts. Otherwise CoNLL
    columns: one token a line, the gold tag in the last column but one and the
    predicted tag in the last (``token gold prediction``, as conlleval reads
    them), a blank line between sentences.
    """
    check_size(len(text.encode("utf-8")), "the input")
    if not text.strip():
        raise ValueError("no input: paste CoNLL columns (token gold prediction) or JSON, upload a file, or load an example")
    if text.lstrip().startswith("{"):
        return _parse_json(text)
    columns = read_columns(text.splitlines())
    if len(columns.rows[0][0]) < 3:
        raise ValueError(
            f"line {columns.lines[0]}: {len(columns.rows[0][0])} columns; CoNLL input needs three "
            "(token, gold tag, predicted tag), separated by spaces or tabs"
        )
    return columns.column(-1), columns.column(-2)


def _parse_json(text: str) -> tuple[list[Any], list[Any]]:
    try:
        data = json.loads(text)
    except json.JSONDecodeError as error:
        raise ValueError(f"JSON input, line {error.lineno} column {error.colno}: {error.msg}") from None
    if not isinstance(data, dict) or not {"predictions", "references"} <= data.keys():
        raise ValueError('JSON input must be an object {"predictions": [...], "references": [...]}')
    predictions, references = data["predictions"], data["references"]
    if not isinstance(predictions, list) or not isinstance(references, list):
        raise TypeError('"predictions" and "references" must be lists, one item per sentence')
    return predictions, references


def parse_options(text: str) -> dict[str, Any]:
    """Keyword arguments of ``compute`` from the options box (a JSON object; empty means none)."""
    if len(text) > MAX_OPTIONS_BYTES:
        raise ValueError(f"the options are {len(text):,} characters; at most {MAX_OPTIONS_BYTES:,} are read")
    if not text.strip():
        return {}
    try:
        options = json.loads(text)
    except json.JSONDecodeError as error:
        raise ValueError(f"options, column {error.colno}: {error.msg}; write a JSON object") from None
    if not isinstance(options, dict):
        raise TypeError(f"options must be a JSON object of compute's keyword arguments, not {type(options).__name__}")
    return options


def preset(name: str) -> str:
    """The text of a preset example, as it would be pasted."""
    if name == "flat":
        return _flat_example()
    if name == "nested":
        return _nested_example()
    raise ValueError(f"unknown example {name!r}; choose one of {', '.join(PRESETS)}")


def _flat_example() -> str:
    gold = read_columns(SAMPLES / "sample.gold.conll")
    pred = read_columns(SAMPLES / "sample.pred.conll")
    check_same_tokens(gold, pred)
    sentences = [
        "\n".join(f"{t} {g} {p}" for t, g, p in zip(*row)) for row in zip(gold.tokens, gold.column(), pred.column())
    ]
    return "\n\n".join(sentences) + "\n"


def _nested_example() -> str:
    gold = read_corpus(SAMPLES / "nested.gold.jsonl")
    pred = align(gold, read_corpus(SAMPLES / "nested.pred.jsonl"))

    def spans(corpus: Corpus) -> str:
        return ",\n".join(
            "    " + json.dumps([{"start": s, "end": e, "label": label} for s, e, label in ents])
            for ents in corpus.entities
        )

    return f'{{\n  "predictions": [\n{spans(pred)}\n  ],\n  "references": [\n{spans(gold)}\n  ]\n}}\n'
