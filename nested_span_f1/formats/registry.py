"""The format registry: names, aliases, detection, and reading/writing files by name."""
from __future__ import annotations

import json
import os
from collections.abc import Callable, Collection, Iterable, Iterator
from dataclasses import dataclass
from itertools import islice
from pathlib import Path
from typing import Any

from ..core.wording import quote
from . import blocks as tx
from . import brat
from . import pipeline as pl
from . import records as js
from . import text as ts
from .columns import PathLike, read_text, text_lines, whitespace_fields
from .corpus import Corpus
from .offsets import CODEPOINTS, check_unit
from .output import write_file


@dataclass(frozen=True)
class Format:
    """A nested-NER file format: how to read it, how to write it, and its end convention."""

    name: str
    read: Callable[..., Corpus]
    write: Callable[[Corpus], str]
    ends: str
    used_by: str
    record_lines: int | None = None
    """Lines of one record in a line-based format (jsonl, text blocks), read in batches; None for a json list."""
    unit: str = "tokens"
    """What its offsets count: ``tokens``, or ``characters`` of each document's text."""

    def describe(self) -> str:
        """``name: tools that write it, how ends count``, for messages and listings."""
        return f"{self.name}: {self.used_by}, ends {self.ends}"

    def example(self) -> str:
        """The format's text for one sentence with two nested spans, as :func:`write_corpus` writes it."""
        return self.write(EXAMPLE_TEXT if self.unit == "characters" else EXAMPLE)


FORMATS: dict[str, Format] = {f.name: f for f in (
    Format("oneie", js.read_oneie, js.write_oneie, "exclusive", "CNN_Nested_NER, OneIE (jsonl)", 1),
    Format("triaffine", js.read_triaffine, js.write_triaffine, "exclusive",
           "Locate-and-Label, Triaffine, spERT, DiffusionNER (json list)"),
    Format("biaffine", js.read_biaffine, js.write_biaffine, "inclusive", "biaffine-ner, Yu et al. 2020 (jsonl)", 1),
    Format("w2ner", js.read_w2ner, js.write_w2ner, "index lists", "W2NER (json list, discontinuous allowed)"),
    Format("shibuya", tx.read_shibuya, tx.write_shibuya, "exclusive", "Shibuya & Hovy 2020 (3-line text blocks)", 3),
    Format("lu_roth", tx.read_lu_roth, tx.write_lu_roth, "exclusive", "Lu & Roth 2015, Muis & Lu 2017 (4-line text)", 4),
    Format("pyramid", js.read_pyramid, js.write_pyramid, "exclusive", "Pyramid (json list)"),
    Format("text", ts.read_text_spans, ts.write_text_spans, "exclusive, in characters",
           "text spans: spaCy, GLiNER, Spark NLP, brat exports (jsonl of text and character offsets)", 1, "characters"),
    Format("pipeline", pl.read_pipeline, pl.write_pipeline, "exclusive, in characters",
           "transformers' token-classification pipeline, aggregated or not (jsonl of text and its output)", 1,
           "characters"),
)}

EXAMPLE = Corpus([["IL-2", "gene", "expression"]], [[(0, 2, "DNA"), (0, 1, "protein")]], ["s1"], source="example")
"""The sentence :meth:`Format.example` writes: "IL-2 gene" is DNA, "IL-2" inside it a protein."""

EXAMPLE_TEXT = Corpus(["IL-2 gene expression"], [[(0, 9, "DNA"), (0, 4, "protein")]], ["s1"], source="example",
                      unit="characters")
""":data:`EXAMPLE` as a text, the tokens joined by spaces: what the formats of character offsets write."""

ALIASES = {
    "text_spans": "text", "spacy_jsonl": "text", "gliner": "text", "token_classification": "pipeline",
    "jsonl": "oneie", "cnn_nested_ner": "oneie", "locate_and_label": "triaffine", "spert": "triaffine",
    "diffusionner": "triaffine", "yu2020": "biaffine", "muis_lu": "lu_roth",
}


def get_format(name: str) -> Format:
    """The format called ``name`` (an alias such as ``jsonl`` or ``spert`` works too; case and ``-``/``_``
    do not matter)."""
    key = name.lower().replace("-", "_")
    key = ALIASES.get(key, key)
    if key not in FORMATS:
        choices = ", ".join([*FORMATS, *ALIASES])
        raise ValueError(f"unknown format {quote(name)}; choose one of {choices}")
    return FORMATS[key]


def aliases_of(name: str) -> list[str]:
    """The other names :func:`get_format` accepts for the format ``name``."""
    return [alias for alias, target in ALIASES.items() if target == name]


def _text_kind(records: Iterable[Any]) -> str:
    """``pipeline`` when the first entity of the text records is a pipeline item (``entity_group`` or ``entity``),
    also inside a list (the pipeline's output for a batch of texts), else ``text``."""
    entity: Any = next((e for r in records if isinstance(r, dict) and isinstance(r.get("entities"), list)
                        for e in r["entities"]), {})
    if isinstance(entity, list) and entity:
        entity = entity[0]
    return "pipeline" if isinstance(entity, dict) and ("entity_group" in entity or "entity" in entity) else "text"


def _json_kind(first: Any) -> str | None:
    if not isinstance(first, dict):
        return None
    if "text" in first and "entities" in first:
        return "text"
    if "sentences" in first and "ners" in first:
        return "biaffine"
    if "tokens" in first and "entity_mentions" in first:
        return "oneie"
    if "sentence" in first and "ner" in first:
        return "w2ner"
    return None


def _list_kind(items: list[Any]) -> str | None:
    """The format of a json list, by its first item's keys (the reader names any item that is otherwise)."""
    kind = _json_kind(items[0]) if items else None
    if kind or not (items and isinstance(items[0], dict) and "tokens" in items[0] and "entities" in items[0]):
        return kind
    mention: Any = next((m for i in items if isinstance(i, dict) and isinstance(i.get("entities"), list)
                         for m in i["entities"]), {})
    return "pyramid" if isinstance(mention, dict) and "span" in mention else "triaffine"


def _json_lines(lines: list[str]) -> Iterator[Any]:
    """The json value of each line that holds one (a line that does not parse is left to the reader to name)."""
    for line in lines:
        try:
            yield json.loads(line)
        except (json.JSONDecodeError, RecursionError):
            continue


def _block_kind(text: str, source: str) -> str | None:
    """``shibuya`` or ``lu_roth`` when the text reads as one, else None.

    A column file (a token and its tags a line, blank lines between sentences)
    with two tokens a sentence has the shape of Lu & Roth blocks with no entity
    (the second row read as POS tags, the blank line as the annotation line). So
    text whose non-blank lines all hold one number of fields, two or more, is a
    column file unless read as blocks it holds an entity.
    """
    rows = {len(whitespace_fields(line)) for line in js.file_lines(text) if line.strip()}
    columns = len(rows) == 1 and min(rows) >= 2
    for name in ("shibuya", "lu_roth"):
        try:
            corpus = FORMATS[name].read(text, source)
        except (ValueError, TypeError):
            continue
        if not columns or any(corpus.entities):
            return name
    return None


class UnknownFormat(ValueError):
    """A text whose shape fits none of the formats (a caller may then read it another way, as columns)."""


def looks_like_json(text: str) -> bool:
    """Whether a text is json, by how it starts: a ``{`` or ``[`` first (blanks aside), and after it what json goes
    on with there (a quote, a bracket, a brace, a digit, a minus) or nothing.

    A column file whose first token is a bracket goes on with its tag instead.

    >>> looks_like_json('{"id": "d1", "text": "Barack'), looks_like_json("[\\n  {"), looks_like_json("[ O\\n")
    (True, True, False)
    """
    stripped = text.lstrip()
    if not stripped.startswith(("{", "[")):
        return False
    rest = stripped[1:].lstrip()
    return not rest or rest[0] in '"{}[]-0123456789'


def _no_format(source: str, held: str = "") -> str:
    """The message for a text no format fits; ``held`` says what it holds."""
    known = "; ".join(f.describe() for f in FORMATS.values())
    return f"{source}: cannot tell the format{f' ({held})' if held else ''}; pass it explicitly, one of: {known}"


def _json_format(text: str, source: str) -> str:
    """The format of a json text: a list by its items' keys, json lines by the first record's.

    Raises:
        ValueError: json that does not parse (its line and column named, from 1), json nested too deeply, json of
            no known format (named with what it holds). Never :class:`UnknownFormat`: json is never read as columns.
    """
    if text.lstrip().startswith("["):
        items = js.loads(text, source)
        kind = _list_kind(items) if isinstance(items, list) else None
        if kind is None:
            first = quote(items[0] if isinstance(items, list) and items else items, as_json=True)
            raise ValueError(_no_format(source, f"a json list whose first item is {first}"))
        return kind
    lines = js.file_lines(text)
    number = next(n for n, line in enumerate(lines, 1) if line.strip())
    first = js.loads(lines[number - 1], f"{source}, line {number}", line=number)
    kind = _json_kind(first)
    if kind == "text":
        return _text_kind(_json_lines(lines))
    if kind is None:
        held = f"an object with the keys {quote(list(first), as_json=True)}" if isinstance(first, dict) else \
            f"{quote(first, as_json=True)}"
        raise ValueError(_no_format(source, f"line {number} holds {held}"))
    return kind


def detect_format(text: str, source: str = "file") -> str:
    """Name the format of a file's text from its shape (see :data:`FORMATS`).

    Text that starts as json (:func:`looks_like_json`) is json: its first record
    (the first line of json lines; a json list whole) decides, and a syntax error
    there is named by line and column. Other text is text blocks or columns.

    >>> detect_format('{"doc_key": "d", "sentences": [["a"]], "ners": [[[0, 0, "X"]]]}\\n')
    'biaffine'

    Raises:
        UnknownFormat: text that is not json fits no known format; pass the format explicitly.
        ValueError: json that does not parse (file, line and column), or of no known format, or nested too deeply.
    """
    if looks_like_json(text):
        return _json_format(text, source)
    if not text.strip():
        raise ValueError(f"{source}: the file is empty (no sentences to read)")
    kind = _block_kind(text, source)
    if kind is None:
        raise UnknownFormat(_no_format(source))
    return kind


LOOKED_AT = 100
"""Lines :func:`head` reads: enough records of any line-based format for detection to decide."""


def head(path: PathLike, lines: int = LOOKED_AT) -> str:
    """The first ``lines`` lines of a file, each whole however long, as detection reads them (a byte-order mark
    dropped, bytes that are not UTF-8 replaced: the reader names them): detection never decides from a line cut
    short."""
    with open(os.fsdecode(path), encoding="utf-8-sig", errors="replace") as handle:
        return "".join(islice(handle, lines))


PATH_FORMATS = {
    "brat": "brat standoff: a folder of .txt and .ann pairs, or one pair (character offsets, discontinuous allowed)",
    "spacy": "spaCy DocBin (.spacy): doc.ents, or doc.spans[key] for overlapping spans (the spacy extra)",
}
"""Formats read from a path rather than a text: a brat folder (or pair), a spaCy DocBin file."""


def path_format(path: PathLike) -> str | None:
    """The path format a path holds, by its shape: a folder or an ``.ann`` file is brat, a ``.spacy`` file a DocBin."""
    path = Path(os.fsdecode(path))
    if path.is_dir() or path.suffix == ".ann":
        return "brat"
    if path.suffix == ".spacy":
        return "spacy"
    return None


def read_corpus(path: PathLike, format: str | None = None, *, types: Collection[str] | None = None,
                spans_key: str | None = None, event_triggers: bool = True, offsets: str = CODEPOINTS) -> Corpus:
    """Read a nested-NER, text-span, brat or spaCy file; ``format`` overrides detection.

    ``types`` keeps brat's ``T`` lines of those types only, ``event_triggers=False``
    leaves out the ``T`` lines brat's ``E`` lines use as triggers (read as entities by
    default, and counted); ``spans_key`` reads a DocBin's ``doc.spans[spans_key]``
    instead of ``doc.ents``; ``offsets`` names what the character offsets of text
    spans, pipeline output and brat count: ``"codepoints"`` (Python's ``len``, the
    default), ``"utf16"`` (JavaScript's) or ``"bytes"`` (UTF-8), read into code points
    (:mod:`~nested_span_f1.formats.offsets`).

    Raises:
        ValueError: undetectable format, malformed records or bad spans (naming file,
            line or sentence, and span), bytes that are not UTF-8 (naming the line);
            spans that fit only as UTF-16 or UTF-8 offsets (naming ``offsets``);
            ``offsets`` for a file of no such offsets.
        OSError: the file cannot be read.
    """
    corpus = read_file(path, format, types=types, spans_key=spans_key, event_triggers=event_triggers,
                       offsets=offsets)
    refuse_offsets(offsets, [corpus.format], corpus.source)
    return corpus


OFFSET_FORMATS = ("text", "pipeline", "brat")
"""The formats whose character offsets ``offsets`` reads (not a DocBin, whose offsets spaCy counts, nor tokens)."""


def refuse_offsets(offsets: str, formats: Collection[str], what: str) -> None:
    """ValueError when ``offsets`` names another unit than code points but none of the ``formats`` read holds such
    offsets (``what``: what was read, for the message)."""
    if check_unit(offsets) != CODEPOINTS and not set(formats) & set(OFFSET_FORMATS):
        raise ValueError(f"offsets={offsets!r} (--offsets {offsets}) reads the character offsets of text spans, "
                         f"pipeline output and brat, but {what} holds {', '.join(sorted(set(formats)))}; leave it out")


def read_file(path: PathLike, format: str | None = None, *, types: Collection[str] | None = None,
              spans_key: str | None = None, event_triggers: bool = True, offsets: str = CODEPOINTS) -> Corpus:
    """:func:`read_corpus`, ``offsets`` applied where the file holds such offsets and left aside where it does not
    (a side of tokens beside one of texts, both read with one option: the caller refuses it when no side takes it,
    :func:`refuse_offsets`)."""
    source = os.fsdecode(path)
    check_unit(offsets)
    name = format.lower() if format and format.lower() in PATH_FORMATS else path_format(source) if not format else None
    if name == "brat":
        return brat.read_brat(source, types, event_triggers=event_triggers, offsets=offsets)
    if name == "spacy":
        from . import spacy_docs

        return spacy_docs.read_docbin(source, spans_key)
    text = read_text(source)
    name = get_format(format).name if format else detect_format(text, source)
    return read_as(name, text, source, offsets=offsets)


def read_as(name: str, text: str, source: str, first_line: int | None = None, *, offsets: str = CODEPOINTS) -> Corpus:
    """A text read in the format ``name``, ``offsets`` given to the formats of character offsets (``first_line``:
    the file line the text starts at, for the line-based formats)."""
    options: dict[str, Any] = {"offsets": offsets} if FORMATS[name].unit == "characters" else {}
    return FORMATS[name].read(text, source, **({} if first_line is None else {"first_line": first_line}), **options)


BATCH_LINES = 2_400
"""Lines read at a time from a line-based file by :func:`read_batches` (whole records of 1, 3 or 4 lines)."""


def read_batches(path: PathLike, format: str | None = None, lines: int | None = None,
                 progress: Callable[[int], object] | None = None, *, offsets: str = CODEPOINTS) -> Iterator[Corpus]:
    """The sentences of a nested-NER file as consecutive corpora, for files of any size.

    Line-based formats (json lines, text blocks) are read ``lines`` lines at a
    time (default :data:`BATCH_LINES`; detection looks at the first batch); a json
    list is one value and is read whole, as one corpus. ``progress`` (a progress
    bar's ``update``) is called with the size in bytes of each batch's text as it is
    read (UTF-8, without a byte-order mark, line ends as read). A brat folder or a
    DocBin is read whole. ``offsets`` as :func:`read_corpus` takes it. Raises as
    :func:`read_corpus`.
    """
    if (format.lower() in PATH_FORMATS) if format else path_format(os.fsdecode(path)):
        yield read_corpus(path, format, offsets=offsets)
        return
    lines = lines or BATCH_LINES
    source = os.fsdecode(path)
    rest = text_lines(path)
    head = list(islice(rest, lines))
    text = "".join(head)
    # a json list is one value: detection and reading need all of it, read once
    whole = read_text(path) if looks_like_json(text) and text.lstrip().startswith("[") else None
    name = get_format(format).name if format else detect_format(text if whole is None else whole, source)

    def counted(text: str) -> str:
        if progress is not None:
            progress(len(text.encode()))
        return text

    refuse_offsets(offsets, [name], source)
    if FORMATS[name].record_lines is None:
        yield read_as(name, counted(read_text(path) if whole is None else whole), source, offsets=offsets)
        return
    first = 1
    while head:
        yield read_as(name, counted("".join(head)), source, first, offsets=offsets)
        first += len(head)
        head = list(islice(rest, lines))


def write_corpus(corpus: Corpus, path: PathLike, format: str = "oneie") -> None:
    """Write a corpus in ``format`` (default: the OneIE jsonl of CNN_Nested_NER), whole or not at all; ``brat``
    writes a new folder (or into an empty one)."""
    if format.lower() == "brat":
        brat.write_brat(corpus, os.fsdecode(path))
        return
    write_file(os.fsdecode(path), get_format(format).write(corpus))


def read_dataset(path: PathLike, format: str | None = None) -> Any:
    """Read a nested-NER file as a :class:`datasets.Dataset` (``tokens``, ``spans``, ...)."""
    return read_corpus(path, format).to_dataset()
