"""What a benchmark reads: gold and prediction sides as span arrays, the resampling units, checkpoint folders.

A side is a file (any nested format the readers know, or CoNLL tag columns), a
:class:`~nested_span_f1.formats.Corpus`, or in memory per sentence: tag lists
(flat, decoded as ``span_f1`` decodes them) or span lists (``(start, end,
label)`` tuples or dicts). Discontinuous entities of nested files are left out
(their number is reported): the bootstrap scores contiguous spans.
"""
from __future__ import annotations

import io
import os
import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Union

import numpy as np

from ..core.spans import SpanArrays, spans_from_lists
from ..flat.pipeline import decode_pair
from ..formats import Corpus, UnknownFormat, align, detect_format, get_format
from ..formats.columns import ColumnFile, check_same_tokens, read_columns, read_text

Source = Union[str, "os.PathLike[str]", Corpus, Sequence[Any]]
COLUMNS = "conll"
"""The ``format`` name of CoNLL tag columns (token first, tag last)."""

CHECKPOINT = re.compile(r"checkpoint-(\d+)")
TRAINER_FILES = frozenset({
    "config.json", "generation_config.json", "trainer_state.json", "tokenizer.json", "tokenizer_config.json",
    "special_tokens_map.json", "vocab.json", "added_tokens.json", "preprocessor_config.json",
})
"""Files a Trainer checkpoint folder holds besides predictions."""


@dataclass(frozen=True)
class Side:
    """One side of a corpus: tag lists (flat) or contiguous spans (nested), with what locates its sentences."""

    name: str
    tags: list[list[str]] | None = None
    spans: SpanArrays | None = None
    corpus: Corpus | None = None
    columns: ColumnFile | None = None
    left_out: int = 0
    """Discontinuous entities not scored."""

    @property
    def n_sentences(self) -> int:
        return len(self.tags) if self.tags is not None else self.spans.n_sentences  # type: ignore[union-attr]

    @property
    def doc_ids(self) -> Sequence[str] | None:
        return self.corpus.doc_ids if self.corpus is not None else None


@dataclass(frozen=True)
class Pair:
    """A system's predictions and the gold, as span arrays aligned sentence by sentence."""

    predictions: SpanArrays
    references: SpanArrays
    left_out: int


def _file(path: str | os.PathLike[str], format: str | None) -> Side:
    name = str(path)
    if format == COLUMNS:
        return _columns(read_columns(path))
    text = read_text(path)  # read once: a pipe cannot be read again
    if format is None:
        try:
            format = detect_format(text, name)
        except UnknownFormat:
            if text.lstrip().startswith(("{", "[")):
                raise
            return _columns(read_columns(io.StringIO(text), name=name))
    return _corpus(get_format(format).read(text, name))


def _columns(columns: ColumnFile) -> Side:
    return Side(columns.name, tags=columns.column(-1), columns=columns)


def _corpus(corpus: Corpus) -> Side:
    return Side(corpus.source, spans=corpus.spans(), corpus=corpus, left_out=corpus.discontinuous())


def _is_tags(sentences: Sequence[Any]) -> bool:
    return any(isinstance(item, str) for sentence in sentences for item in sentence)


def read_side(source: Source, format: str | None = None, name: str = "corpus") -> Side:
    """Read one side (see the module docstring); ``format`` is a reader's name, ``"conll"`` or None (detected).

    Raises:
        ValueError: an unreadable file or malformed spans or tags (named by the readers).
        TypeError: a source of another kind.
    """
    if isinstance(source, (str, os.PathLike)):
        return _file(source, format)
    if isinstance(source, Corpus):
        return _corpus(source)
    if isinstance(source, SpanArrays):
        return Side(name, spans=source)
    if isinstance(source, Sequence) and not isinstance(source, (bytes, Mapping)):
        if _is_tags(source):
            return Side(name, tags=[list(tags) for tags in source])
        return Side(name, spans=spans_from_lists(source, side=name))
    raise TypeError(f"{name}: expected a file path, a Corpus, or per-sentence tag or span lists, "
                    f"got {type(source).__name__}")


def pair(gold: Side, predicted: Side, *, scheme: str | None = None, mode: str | None = None) -> Pair:
    """Align a prediction side with the gold and give both as span arrays.

    Tag sides are decoded together by :func:`nested_span_f1.flat.pipeline.decode_pair`
    (``scheme``, ``mode`` as ``span_f1`` takes them); corpora are aligned by
    sentence id or order and checked token by token.

    Raises:
        ValueError: a flat side against a nested one, or sides that do not align.
    """
    if (gold.tags is None) != (predicted.tags is None):
        kinds = {True: "tag columns", False: "entity spans"}
        raise ValueError(f"{predicted.name} holds {kinds[predicted.tags is not None]} but the gold "
                         f"({gold.name}) holds {kinds[gold.tags is not None]}; give both in one kind")
    if gold.tags is not None and predicted.tags is not None:
        if gold.columns is not None and predicted.columns is not None:
            check_same_tokens(gold.columns, predicted.columns)
        decoded = decode_pair(predicted.tags, gold.tags, scheme=scheme, mode=mode, names=(predicted.name, gold.name))
        return Pair(decoded.predictions, decoded.references, 0)
    if scheme is not None or mode is not None:
        raise ValueError("scheme and mode apply to tag columns, but the gold holds entity spans")
    if gold.corpus is not None and predicted.corpus is not None:
        aligned = align(gold.corpus, predicted.corpus)
        if aligned is not predicted.corpus:
            predicted = _corpus(aligned)
    if predicted.n_sentences != gold.n_sentences:
        raise ValueError(f"{gold.name} has {gold.n_sentences} sentences but {predicted.name} has "
                         f"{predicted.n_sentences}; they must align sentence by sentence")
    return Pair(predicted.spans, gold.spans, gold.left_out + predicted.left_out)  # type: ignore[arg-type]


def units(gold: Side, by: str = "auto") -> tuple[np.ndarray, str]:
    """The resampling unit of every sentence (0, 1, ... in order of appearance) and the units' name.

    ``by``: ``"auto"`` (documents when the gold carries document ids, else
    sentences), ``"documents"`` or ``"sentences"``.

    Raises:
        ValueError: ``by="documents"`` without document ids, or an unknown ``by``.
    """
    if by not in ("auto", "documents", "sentences"):
        raise ValueError(f"units must be 'auto', 'documents' or 'sentences', got {by!r}")
    docs = gold.doc_ids
    if by == "documents" and docs is None:
        raise ValueError(f"{gold.name} carries no document ids; resample sentences (units='sentences')")
    if by == "sentences" or docs is None:
        return np.arange(gold.n_sentences, dtype=np.int64), "sentences"
    first: dict[str, int] = {}
    return np.array([first.setdefault(d, len(first)) for d in docs], dtype=np.int64), "documents"


def _prediction_file(folder: Path, suffix: str) -> Path:
    """The one prediction file of a checkpoint folder: the gold's suffix, not a Trainer file."""
    found = sorted(p for p in folder.iterdir() if p.is_file() and p.name not in TRAINER_FILES
                   and (p.suffix == suffix if suffix else p.suffix in (".jsonl", ".json")))
    if len(found) > 1:
        found = [p for p in found if "pred" in p.name.lower()] or found
    if len(found) != 1:
        listed = ", ".join(p.name for p in found) or f"no *{suffix or '.jsonl'} file"
        raise ValueError(f"{folder}: expected one prediction file, found {listed}; pass NAME=FILE instead")
    return found[0]


def checkpoints(directory: str | os.PathLike[str], suffix: str = "") -> list[tuple[str, int, Path]]:
    """``(name, step, prediction file)`` of every checkpoint in a directory, ordered by step.

    A checkpoint is a file ``checkpoint-STEP.EXT`` or a folder ``checkpoint-STEP/``
    holding one prediction file (``suffix``, the gold's, picks it among the
    Trainer's files). Other entries are ignored.

    Raises:
        ValueError: no checkpoint in the directory, or a folder without exactly one prediction file.
    """
    folder = Path(directory)
    found = []
    for entry in folder.iterdir():
        match = CHECKPOINT.fullmatch(entry.name if entry.is_dir() else entry.name.split(".")[0])
        if match is None:
            continue
        path = _prediction_file(entry, suffix) if entry.is_dir() else entry
        found.append((f"checkpoint-{match.group(1)}", int(match.group(1)), path))
    if not found:
        raise ValueError(f"{folder}: no checkpoint-STEP files or folders found")
    return sorted(found, key=lambda item: item[1])
