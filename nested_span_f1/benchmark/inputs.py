"""What a benchmark reads: gold and prediction sides as span arrays, the resampling units, checkpoint folders.

A side is a file (any nested format the readers know, texts: text spans,
pipeline output, a brat ``.ann`` file or folder, a spaCy DocBin, or CoNLL tag
columns), a :class:`~nested_span_f1.formats.Corpus`, or in memory per sentence:
tag lists (flat, decoded as ``span_f1`` decodes them) or span lists (``(start,
end, label)`` tuples or dicts). Discontinuous entities of nested files are left
out (their number is reported): the bootstrap scores contiguous spans.

A directory holding ``.ann`` files is a brat corpus; any other directory stands
for its checkpoints (:func:`checkpoints`).
"""
from __future__ import annotations

import io
import json
import os
import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Union

import numpy as np

from ..align.score import pair_texts
from ..core.entities import check_entities
from ..core.spans import SpanArrays, spans_from_lists
from ..core.wording import quote
from ..flat.kinds import first_kind
from ..flat.pipeline import decode_pair, tags_to_spans
from ..flat.schemes import PREFIXES
from ..formats import PATH_FORMATS, Corpus, UnknownFormat, align, detect_format, get_format
from ..formats.columns import ColumnFile, check_same_tokens, read_columns, read_text
from ..formats.offsets import CODEPOINTS
from ..formats.places import in_file
from ..formats.registry import looks_like_json, path_format, read_as, read_file

Source = Union[str, "os.PathLike[str]", Corpus, Sequence[Any]]
COLUMNS = "conll"
"""The ``format`` name of CoNLL tag columns (token first, tag last)."""

SPANS, TAGS = "entity spans", "tag columns"
"""What a side holds: spans (a nested format, or span lists) or tags (CoNLL tag columns, or tag lists)."""


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
    def holds(self) -> str:
        """:data:`TAGS` or :data:`SPANS`."""
        return TAGS if self.tags is not None else SPANS

    @property
    def doc_ids(self) -> Sequence[str] | None:
        return self.corpus.doc_ids if self.corpus is not None else None

    @property
    def unit(self) -> str:
        """What its offsets count: ``tokens``, or ``characters`` for texts."""
        return self.corpus.unit if self.corpus is not None else "tokens"

    @property
    def lengths(self) -> np.ndarray | None:
        """Tokens of every sentence, or None for span lists and texts, which carry no tokens."""
        if self.corpus is not None:
            return np.array(self.corpus.lengths, dtype=np.int64) if self.unit == "tokens" else None
        return None if self.tags is None else np.array([len(t) for t in self.tags], dtype=np.int64)


@dataclass(frozen=True)
class Pair:
    """A system's predictions and the gold, as span arrays aligned sentence by sentence.

    ``units``: when the spans are characters, the offsets of each text's tokens (a token side's, else the
    texts' words), which the lenient tie-break counts, and which the lengths count when the gold is tokens.
    ``alignment``: for texts, what trimming and projecting did (:func:`alignment`).
    """

    predictions: SpanArrays
    references: SpanArrays
    left_out: int
    units: list[list[tuple[int, int]]] | None = None
    alignment: dict[str, Any] | None = None


def is_brat_folder(path: str | os.PathLike[str]) -> bool:
    """Whether a path is a brat corpus: a directory holding ``.ann`` files (any other directory stands for its
    checkpoints)."""
    folder = Path(path)
    return folder.is_dir() and any(entry.suffix == ".ann" and entry.is_file() for entry in folder.iterdir())


def alignment(report: Any) -> dict[str, Any]:
    """What pairing texts did to a system (an :class:`~nested_span_f1.align.score.Report`): which side was
    placed on the other's tokens, the spans trimmed and snapped, and the spans of each side in each category
    that kept them from aligning."""
    sides = ("predictions", "references")
    return {"projected": report.projected or None, "trim": report.trim, "snap": report.snap,
            **{f"trimmed_{side}": report.trimmed[side] for side in sides},
            **{f"snapped_{side}": report.snapped[side] for side in sides},
            **{f"{side}_{category}": count for side in sides
               for category, count in sorted(report.categories[side].items()) if count}}


def _file(path: str | os.PathLike[str], format: str | None, types: Sequence[str] | None = None,
          spans_key: str | None = None, event_triggers: bool = True, offsets: str = CODEPOINTS) -> Side:
    name = str(path)
    if format in PATH_FORMATS or (format is None and path_format(name)):
        return _corpus(read_file(path, format, types=types, spans_key=spans_key, event_triggers=event_triggers,
                                 offsets=offsets))
    if format == COLUMNS:
        return _columns(read_columns(path))
    text = read_text(path)  # read once: a pipe cannot be read again
    if format is None:
        try:
            format = detect_format(text, name)
        except UnknownFormat:  # text that is not json and fits no span format: tag columns (json never is)
            return _columns(read_columns(io.StringIO(text), name=name))
    return _corpus(read_as(get_format(format).name, text, name, offsets=offsets))


def _columns(columns: ColumnFile) -> Side:
    return Side(columns.name, tags=columns.column(-1), columns=columns)


def _corpus(corpus: Corpus) -> Side:
    return Side(corpus.source, spans=corpus.spans(), corpus=corpus, left_out=corpus.discontinuous())


def read_side(source: Source, format: str | None = None, name: str = "corpus", *, types: Sequence[str] | None = None,
              spans_key: str | None = None, event_triggers: bool = True, offsets: str = CODEPOINTS) -> Side:
    """Read one side (see the module docstring); ``format`` is a reader's name, ``"conll"`` or None (detected);
    ``types`` keeps a brat corpus's ``T`` lines of those types, ``event_triggers=False`` leaves out its event
    triggers, ``spans_key`` reads a DocBin's ``doc.spans[key]``, ``offsets`` is the unit a file's character offsets
    count (:func:`~nested_span_f1.formats.registry.read_file`).

    Raises:
        ValueError: an unreadable file or malformed spans or tags (named by the readers).
        TypeError: a source of another kind.
    """
    if isinstance(source, (str, os.PathLike)):
        return _file(source, format, types, spans_key, event_triggers, offsets)
    if isinstance(source, Corpus):
        return _corpus(source)
    if isinstance(source, SpanArrays):
        return Side(name, spans=source)
    if isinstance(source, Sequence) and not isinstance(source, (bytes, Mapping)):
        if first_kind(source) == "tags":
            return Side(name, tags=[list(tags) for tags in source])
        return Side(name, spans=spans_from_lists(source, side=name))
    raise TypeError(f"{name}: expected a file path, a Corpus, or per-sentence tag or span lists, "
                    f"got {type(source).__name__}")


def pair(gold: Side, predicted: Side, *, scheme: str | None = None, mode: str | None = None, trim: bool = False,
         snap: str | None = None) -> Pair:
    """Align a prediction side with the gold and give both as span arrays.

    Tag sides are decoded together by :func:`nested_span_f1.flat.pipeline.decode_pair`
    (``scheme``, ``mode`` as ``span_f1`` takes them); corpora are aligned by
    sentence id or order and checked token by token. When a side holds texts, both
    are paired by :func:`nested_span_f1.align.pair_texts` (documents by id, texts
    compared, a side of tokens located in the texts): ``trim`` takes whitespace off
    the span edges, ``snap`` moves a text system's spans onto a token gold's tokens
    (never the gold's spans), each counted in the pair's ``alignment``.

    Raises:
        ValueError: a flat side against a nested one, or sides that do not align.
    """
    has_texts = any(side.corpus is not None and side.corpus.texts is not None for side in (gold, predicted))
    if has_texts and (gold.columns is not None or predicted.columns is not None):
        gold, predicted = _columns_as_spans(gold, predicted, scheme, mode)
        scheme = mode = None
    if (gold.tags is None) != (predicted.tags is None):
        raise ValueError(f"{predicted.name} holds {predicted.holds} but the gold ({gold.name}) holds {gold.holds}; "
                         "give both in one kind")
    if gold.tags is not None:
        return _pair_tags(gold, predicted, scheme, mode)
    if scheme is not None or mode is not None:
        raise ValueError("scheme and mode apply to tag columns, but the gold holds entity spans")
    if gold.corpus is not None and predicted.corpus is not None and "characters" in (gold.unit, predicted.unit):
        return _pair_texts(gold.corpus, predicted.corpus, trim, snap)
    return _pair_spans(gold, predicted)


def _columns_as_spans(gold: Side, predicted: Side, scheme: str | None, mode: str | None) -> tuple[Side, Side]:
    """Tag columns against texts: the side of tag columns decoded (``scheme``, ``mode``) into token spans, to be
    projected onto the texts; ``(gold, predicted)`` with that side replaced."""
    columns = next(side.columns for side in (gold, predicted) if side.columns is not None)
    try:
        token_spans = tags_to_spans(columns.column(-1), scheme=scheme, mode=mode)
    except ValueError as error:
        raise in_file(error, columns) from None
    spans = _corpus(Corpus(columns.tokens, token_spans, source=columns.name))
    return (spans, predicted) if gold.columns is not None else (gold, spans)


def _pair_tags(gold: Side, predicted: Side, scheme: str | None, mode: str | None) -> Pair:
    """Two tag sides decoded together (tag columns checked token by token first)."""
    if gold.columns is not None and predicted.columns is not None:
        check_same_tokens(gold.columns, predicted.columns)
    decoded = decode_pair(predicted.tags, gold.tags, scheme=scheme, mode=mode, names=(predicted.name, gold.name))
    return Pair(decoded.predictions, decoded.references, 0)


def _pair_texts(gold: Corpus, predicted: Corpus, trim: bool, snap: str | None) -> Pair:
    """Texts: both sides in characters, a character side's spans kept as they are unless snapped (only a text
    system's, onto a token gold's tokens); a token side's tokens kept as offsets (lengths in a token gold's unit)."""
    onto_gold = gold.unit == "tokens" and predicted.unit == "characters"
    both = pair_texts(predicted, gold, trim=trim, snap=snap if onto_gold else None)
    sides = [check_entities(getattr(both, side), both.lengths, side) for side in ("predictions", "references")]
    return Pair(sides[0].spans, sides[1].spans, len(sides[0].fragmented) + len(sides[1].fragmented), both.units,
                alignment(both.report))


def _pair_spans(gold: Side, predicted: Side) -> Pair:
    """Two span sides, corpora aligned by sentence id or order and checked token by token."""
    if gold.corpus is not None and predicted.corpus is not None:
        aligned = align(gold.corpus, predicted.corpus)
        if aligned is not predicted.corpus:
            predicted = _corpus(aligned)
    if predicted.n_sentences != gold.n_sentences:
        raise ValueError(f"{gold.name} has {gold.n_sentences} sentences but {predicted.name} has "
                         f"{predicted.n_sentences}; they must align sentence by sentence")
    return Pair(predicted.spans, gold.spans, gold.left_out + predicted.left_out)  # type: ignore[arg-type]


def units(gold: Side, by: str = "auto") -> tuple[np.ndarray, str]:
    """The resampling unit of every sentence of the gold (:func:`unit_index` of its document ids)."""
    return unit_index(gold.doc_ids, gold.n_sentences, by, gold.name)


def unit_index(doc_ids: Sequence[str] | None, n_sentences: int, by: str = "auto",
               name: str = "the gold") -> tuple[np.ndarray, str]:
    """The resampling unit of every sentence (0, 1, ... in order of appearance) and the units' name.

    ``by``: ``"auto"`` (documents when the sentences carry document ids, ``doc_ids``, else
    sentences), ``"documents"`` or ``"sentences"``; ``name`` names the gold in messages.

    Raises:
        ValueError: ``by="documents"`` without document ids, or an unknown ``by``.
    """
    if by not in ("auto", "documents", "sentences"):
        raise ValueError(f"units must be 'auto', 'documents' or 'sentences', got {quote(by)}")
    if by == "documents" and doc_ids is None:
        raise ValueError(f"{name} carries no document ids; resample sentences (units='sentences')")
    if by == "sentences" or doc_ids is None:
        return np.arange(n_sentences, dtype=np.int64), "sentences"
    first: dict[str, int] = {}
    return np.array([first.setdefault(d, len(first)) for d in doc_ids], dtype=np.int64), "documents"


HEAD = 1 << 16
"""Bytes of a file read first to tell what it holds (more, doubling, until its first json record is whole)."""

_TAG = re.compile(rf"O|[{PREFIXES[1:]}]-\S+|\S+-[{PREFIXES[1:]}]")


def _excerpt(path: Path) -> tuple[str, bool] | None:
    """The text of the file's first :data:`HEAD` bytes, or more up to the end of a first json record that is
    longer however long (what holds it is never told from a record cut short), and whether that is the whole file;
    None when the first bytes hold a NUL, which no text file holds (model weights, a binary)."""
    with open(path, "rb") as handle:
        data, size = handle.read(HEAD), HEAD
        if b"\0" in data:
            return None
        while True:
            whole = len(data) < size
            text = data.decode("utf-8", errors="replace").removeprefix("\ufeff").lstrip()
            cut_short = looks_like_json(text) and ("\n" not in text if text.startswith("{") else not _first_record(text))
            if whole or not cut_short:
                return text, whole
            data += handle.read(size)
            size *= 2


def _first_record(text: str) -> str | None:
    """The first record of a json list (as a list of one) or of json lines, or None when the text cuts it short."""
    try:
        if text.startswith("{"):
            line = text.partition("\n")[0]
            json.loads(line)
            return line
        _, end = json.JSONDecoder().raw_decode(text, len(text) - len(text[1:].lstrip()))
        return text[:end] + "]"
    except (json.JSONDecodeError, RecursionError):
        return None


def _detected(text: str) -> bool:
    try:
        return bool(detect_format(text))
    except ValueError:  # no format fits (UnknownFormat), or json nested too deeply
        return False


def holds(path: str | os.PathLike[str]) -> str | None:
    """What a file holds, from its first :data:`HEAD` bytes: :data:`SPANS` (records of a format the readers
    detect), :data:`TAGS` (lines most of which end in a tag such as ``O`` or ``B-PER``), or None (a log,
    metrics, a configuration, a model's weights, nothing).

    The content decides, not the file's name: a checkpoint's predictions are found
    in whatever file they were written to, and a file that is not predictions is
    passed over, however it is named.
    """
    excerpt = _excerpt(Path(path))
    if excerpt is None or not excerpt[0].strip():
        return None
    text, whole = excerpt
    if looks_like_json(text):
        record = _first_record(text)
        return SPANS if record is not None and _detected(record) else None
    lines = text if whole else text[:text.rfind("\n") + 1]
    records = lines if whole else lines[:lines.rfind("\n\n") + 2]
    if records.strip() and _detected(records):
        return SPANS
    rows = [line.split() for line in lines.splitlines() if line.strip() and not line.startswith("-DOCSTART-")]
    tagged = sum(len(fields) > 1 and _TAG.fullmatch(fields[-1]) is not None for fields in rows)
    return TAGS if rows and 2 * tagged > len(rows) else None


CHECKPOINT = re.compile(r"checkpoint-(\d+)")


def checkpoint_entries(directory: str | os.PathLike[str]) -> list[tuple[int, Path]]:
    """``(step, path)`` of every ``checkpoint-STEP/`` folder and ``checkpoint-STEP.EXT`` file in a directory,
    in order of name."""
    found = []
    for entry in sorted(Path(directory).iterdir()):
        match = CHECKPOINT.fullmatch(entry.name if entry.is_dir() else entry.name.partition(".")[0])
        if match is not None:
            found.append((int(match.group(1)), entry))
    return found


def checkpoint_files(directory: str | os.PathLike[str]) -> list[Path]:
    """Every file of a directory's checkpoints: the ``checkpoint-STEP.EXT`` files, and the files in the
    ``checkpoint-STEP/`` folders (what a benchmark of the directory may read)."""
    out = []
    for _, entry in checkpoint_entries(directory):
        out += sorted(p for p in entry.iterdir() if p.is_file()) if entry.is_dir() else [entry]
    return out


PARTS = {"test": ("test",), "dev": ("dev", "valid", "eval")}
"""Words that name a data split in a prediction file's name (``dev_predictions.jsonl``, ``eval_predictions.txt``):
a word of the name (split at every character that is not a letter) that starts with one of them."""

PART_NAMES = {"test": "test", "dev": "development"}


def names_part(name: str, part: str) -> bool:
    """Whether a file name names the split ``part`` (:data:`PARTS`): ``dev_predictions.jsonl`` names ``dev``,
    ``validation.txt`` too, ``latest.jsonl`` names none."""
    words = [word for word in re.split(r"[^a-z]+", name.lower()) if word]
    return any(word.startswith(prefix) for word in words for prefix in PARTS[part])


def _eligible(path: Path, part: str, named: bool) -> bool:
    """Whether a file may hold the predictions of ``part``: never when its name names another split; with
    ``named``, only when its name names ``part`` (the development predictions beside a folder's test ones)."""
    others = [other for other in PARTS if other != part]
    if any(names_part(path.name, other) for other in others):
        return False
    return names_part(path.name, part) or not named


def _folder_predictions(folder: Path, kind: str, part: str = "test",
                        named: bool = False) -> tuple[Path | None, list[str]]:
    """The one file of ``kind`` in a checkpoint folder that holds the predictions of ``part`` (or None), and the
    names of the files of ``kind`` passed over for naming another split.

    A file named for another split is never taken (:func:`_eligible`); among
    several, those whose names hold "pred", then among those the one whose name
    names ``part`` (:data:`PARTS`: a folder may hold the predictions of the test
    set and of the development set)."""
    of_kind = [p for p in sorted(folder.iterdir()) if p.is_file() and holds(p) == kind]
    found = [p for p in of_kind if _eligible(p, part, named)]
    if len(found) > 1:
        found = [p for p in found if "pred" in p.name.lower()] or found
    if len(found) > 1:
        found = [p for p in found if names_part(p.name, part)] or found
    if len(found) > 1:
        raise ValueError(f"{folder}: expected one prediction file, found {', '.join(p.name for p in found)}; "
                         "pass NAME=FILE instead")
    return (found[0] if found else None), [p.name for p in of_kind if p not in found]


def checkpoints(directory: str | os.PathLike[str], kind: str = SPANS, part: str = "test",
                named: bool = False) -> list[tuple[str, int, Path]]:
    """``(name, step, prediction file)`` of every checkpoint in a directory, ordered by step.

    A checkpoint is a folder ``checkpoint-STEP/`` (a Trainer's) or a file
    ``checkpoint-STEP.EXT``; its prediction file is the one holding ``kind``, the
    gold's (:func:`holds`), whatever its name: a checkpoint file of another kind
    (``checkpoint-500.log``, model weights, metrics) is passed over, and a folder
    of several prediction files prefers the one named ``*pred*``, then the one
    whose name names ``part`` (``test``, or ``dev`` for a development gold:
    ``dev_predictions.jsonl`` beside ``test_predictions.jsonl``). A file whose
    name names the other split is never taken (``dev_predictions.jsonl`` is no
    test prediction file, ``test_predictions.jsonl`` no development one), and with
    ``named`` only a file whose name names ``part`` is (the development predictions
    looked for beside the test predictions of a run). Every other entry of the
    directory is passed over.

    Raises:
        ValueError: no checkpoint holds predictions; a step has two prediction
            files (``checkpoint-500.jsonl`` and ``checkpoint-500/``, named both);
            a checkpoint folder holds none for its step (or only those of the other
            split, named), or several.
    """
    found: dict[int, list[tuple[str, Path]]] = {}
    bare: dict[int, tuple[Path, list[str]]] = {}
    for step, entry in checkpoint_entries(directory):
        if entry.is_dir():
            path, passed = _folder_predictions(entry, kind, part, named)
        else:
            path, passed = (entry if holds(entry) == kind and _eligible(entry, part, named) else None), []
        if path is not None:
            found.setdefault(step, []).append((entry.name.partition(".")[0], path))
        elif entry.is_dir():
            bare.setdefault(step, (entry, passed))
    for step, named_files in sorted(found.items()):
        if len(named_files) > 1:
            paths = " and ".join(str(path) for _, path in named_files)
            raise ValueError(f"{directory}: step {step} has {len(named_files)} prediction files, {paths}; keep one, "
                             "or pass each as NAME=FILE")
    for step, (folder, passed) in sorted(bare.items()):
        if step not in found:
            if passed:
                raise ValueError(f"{folder} holds no {PART_NAMES[part]} predictions (only {', '.join(passed)}); a "
                                 f"file named for another split is never scored as the {PART_NAMES[part]} set's")
            listed = ", ".join(p.name for p in sorted(folder.iterdir())[:8]) or "nothing"
            raise ValueError(f"{folder}: no file of {kind} (the gold's kind) for step {step}; it holds {listed}. "
                             "Write the checkpoint's predictions into it, or pass them as NAME=FILE")
    if not found:
        what = "" if part == "test" else f" {PART_NAMES[part]} predictions of"
        raise ValueError(f"{directory}: no checkpoint-STEP file or folder holds{what} {kind} as the gold does")
    return [(named_files[0][0], step, named_files[0][1]) for step, named_files in sorted(found.items())]
