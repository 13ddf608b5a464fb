"""What a Space request can bring: pasted or uploaded text (CoNLL columns or JSON), a preset example.

Pure Python, no gradio: the app in :mod:`nested_span_f1.space.app` calls these.
Sizes are checked before anything is parsed, so a huge paste or file costs a
length check, not the memory of its parse; an upload is read only when it is a
regular file, and never past the limit (a device or a pipe has no size to check
first). JSON is refused when it nests deeper than any input the metrics take, so
no request reaches Python's recursion limit. Every refusal is a ValueError or a
TypeError whose message is one plain sentence for the page.
"""
from __future__ import annotations

import json
import os
import stat
from pathlib import Path
from typing import Any, NamedTuple

from .. import sample_path
from ..core.wording import quote
from ..formats import Corpus, align, read_corpus
from ..formats.columns import BOM, check_same_tokens, read_columns
from ..formats.places import Place, for_people, span_positions_from_1
from ..formats.records import file_lines
from ..formats.registry import looks_like_json

MAX_BYTES = 2_000_000
"""Largest input a Space scores (pasted text or uploaded file): 2 MB, about 200k CoNLL tokens."""

MAX_OPTIONS_BYTES = 10_000

MAX_JSON_DEPTH = 8
"""Deepest JSON a request may hold: the input object, a side, a sentence, a span or a tag layer, a
discontinuous span's fragments and one fragment are six levels; options are two."""

SAMPLES = Path(sample_path())

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
    """The text of an uploaded file (a byte-order mark dropped), its size checked before it is read.

    Only a regular file is read (a directory, a device such as ``/dev/zero`` or a pipe is refused: opening
    does not wait for a pipe's writer), and never more than :data:`MAX_BYTES` and one byte of it.
    """
    name = Path(path).name
    try:
        handle = os.open(path, os.O_RDONLY | os.O_NONBLOCK)
    except OSError as error:
        raise ValueError(f"the uploaded file {name} cannot be read ({error.strerror})") from None
    kind = os.fstat(handle).st_mode
    if not stat.S_ISREG(kind):
        os.close(handle)
        what = "a folder" if stat.S_ISDIR(kind) else "a pipe" if stat.S_ISFIFO(kind) else "a device or a socket"
        raise ValueError(f"the upload {name} is {what}, not a file; upload a text file")
    with os.fdopen(handle, "rb") as file:
        check_size(os.fstat(handle).st_size, f"the uploaded file {name}")
        data = file.read(MAX_BYTES + 1)
    check_size(len(data), f"the uploaded file {name}")  # a file that grew, or one whose size says 0 (/proc)
    try:
        return data.decode("utf-8").removeprefix(BOM)
    except UnicodeDecodeError as error:
        raise ValueError(f"the uploaded file is not UTF-8 text (byte {error.start})") from None


class Request(NamedTuple):
    """What a request's text holds: both sides, and where its sentences start when it is CoNLL columns (their
    lines, for messages), else None."""

    predictions: list[Any]
    references: list[Any]
    place: Place | None


def parse(text: str, name: str = "the input") -> Request:
    """The :class:`Request` in pasted or uploaded text (``name`` names it in messages: the uploaded file's name).

    JSON (text that starts as json, :func:`~nested_span_f1.formats.registry.looks_like_json`, as at every door):
    an object with ``predictions`` and
    ``references`` lists, in any shape the metric accepts. Otherwise CoNLL
    columns: one token a line, the gold tag in the last column but one and the
    predicted tag in the last (``token gold prediction``, as conlleval reads
    them), a blank line between sentences.
    """
    check_size(len(text.encode("utf-8")), "the input")
    text = text.removeprefix(BOM)
    if not text.strip():
        raise ValueError("no input: paste CoNLL columns (token gold prediction) or JSON, upload a file, or load an example")
    if looks_like_json(text):
        return Request(*_parse_json(text), None)
    columns = read_columns(file_lines(text), name=name)  # lines end at \n: a token may hold U+2028
    if len(columns.rows[0][0]) < 3:
        raise ValueError(
            f"line {columns.lines[0]}: {len(columns.rows[0][0])} columns; CoNLL input needs three "
            "(token, gold tag, predicted tag), separated by spaces or tabs"
        )
    return Request(columns.column(-1), columns.column(-2), Place(name, columns.lines))


SCHEME_HINT = "scheme= in Python, --scheme on the command line"
"""How flat.tags' strict-mode refusal says where a scheme is given (space/ does not import flat/; the catalogue
row space-strict-scheme-in-the-options-box fails if the two wordings part)."""
SPACE_SCHEME_HINT = '"scheme" in the options box, such as {"mode": "strict", "scheme": "IOB2"}'


def for_visitors(error: Exception, place: Place | None) -> Exception:
    """A refusal of the metric as a visitor counts: sentences, tokens and a span's position from 1, the line of
    pasted or uploaded CoNLL columns named (``place``), and options named as the options box takes them."""
    located = for_people(error, place, place)
    return type(error)(span_positions_from_1(str(located)).replace(SCHEME_HINT, SPACE_SCHEME_HINT))


def _loads(text: str, what: str) -> Any:
    """The JSON value of ``text``, refused in one sentence naming ``what`` when it is not JSON or nests deeper
    than :data:`MAX_JSON_DEPTH`."""
    too_deep = ValueError(f"{what} nests lists and objects more than {MAX_JSON_DEPTH} deep; no input of the "
                          "metrics does (an object, its sides, their sentences, spans or tag layers)")
    try:
        data = json.loads(text)
    except json.JSONDecodeError as error:
        raise ValueError(f"{what}, line {error.lineno} column {error.colno}: {error.msg}") from None
    except RecursionError:
        raise too_deep from None
    if _json_depth(data) > MAX_JSON_DEPTH:
        raise too_deep
    return data


def _json_depth(value: Any) -> int:
    """How deep lists and objects nest in a JSON value (0 for a number or a string), counted without recursion,
    and no further than one level past :data:`MAX_JSON_DEPTH`."""
    deepest, stack = 0, [(value, 1)]
    while stack:
        item, depth = stack.pop()
        if isinstance(item, (list, dict)):
            deepest = max(deepest, depth)
            if depth > MAX_JSON_DEPTH:
                break
            stack.extend((child, depth + 1) for child in (item.values() if isinstance(item, dict) else item))
    return deepest


def _parse_json(text: str) -> tuple[list[Any], list[Any]]:
    data = _loads(text, "JSON input")
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
        options = _loads(text.removeprefix(BOM), "options")
    except ValueError as error:
        raise ValueError(f"{error}; write a JSON object of compute's keyword arguments") from None
    if not isinstance(options, dict):
        raise TypeError(f"options must be a JSON object of compute's keyword arguments, not {type(options).__name__}")
    return options


def preset(name: str) -> str:
    """The text of a preset example, as it would be pasted."""
    if name == "flat":
        return _flat_example()
    if name == "nested":
        return _nested_example()
    raise ValueError(f"unknown example {quote(name)}; choose one of {', '.join(PRESETS)}")


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
