"""brat standoff annotation: a ``.txt`` text and its ``.ann`` annotations, in character offsets.

Entities come from ``T`` (text-bound) lines, ``ID<TAB>TYPE START END[;START END...]<TAB>TEXT``:
one fragment or several (a discontinuous entity), end exclusive, offsets
counting the characters of the ``.txt`` file as saved (its line ends and any
byte-order mark included, as brat counts them: its server reads the text with
Python's ``utf8`` codec, which keeps a byte-order mark as the character U+FEFF;
this is the one reader that does not skip it). Lines of the ``.ann`` file end at
``\\n`` (a ``\\r`` before it dropped) and nowhere else. ``types`` keeps the ``T`` lines
of chosen types only. Event triggers are ``T`` lines too (those an ``E`` line names as
its trigger, ``E1<TAB>Binding:T12 Theme:T3``): they are read as entities, as brat
shows them, and counted apart (``brat_event_triggers``: BioNLP-ST 2011 GE's 520 ``T``
lines are 335 entities and 185 triggers); ``event_triggers=False`` leaves them out,
counted. Every other line brat writes is read past and counted: ``E`` events,
``R`` relations, ``A``/``M`` attributes, ``N`` normalisations, ``*`` equivalences,
``#`` notes. The ``TEXT`` of a ``T``
line is compared with the document at its offsets (fragments joined by a
space, as brat writes them); a difference is counted and warned about, never
refused. A folder is a brat collection: its ``.ann`` files and those of its
subfolders (brat's nested collections; hidden folders aside). A document's id is
its path in the folder without ``.ann`` (``doc-1``, ``second/doc-2``: a brat
document is a document, no other document id is set); documents are read in the
natural order of their paths (``2`` before ``10``). An empty ``.ann`` (brat
writes one for a document no one has annotated yet) reads as a document that
marks nothing, counted and named in the conversion line. Where an
``annotation.conf`` applies (:mod:`.brat_config`), the ``T`` lines of types it
does not declare are read, counted by type and said.
"""
from __future__ import annotations

import os
import re
from collections import Counter
from collections.abc import Collection, Sequence
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any, NamedTuple

from ..core.entities import is_fragmented, normalize_fragments
from ..core.wording import plural, quote
from .brat_config import AnnotationConf, nearest_conf
from .columns import not_utf8
from .corpus import Corpus, not_a_word
from .offsets import CODEPOINTS, UNIT_WORDS, OffsetsError, Units, fitting_unit
from .output import write_folder
from .records import file_lines
from .text import Mismatches, covered_text, require_texts

LINE_TYPES = {"T": "text-bound", "E": "events", "R": "relations", "A": "attributes", "M": "attributes",
              "N": "normalisations", "*": "equivalences", "#": "notes"}
"""The first character of each kind of ``.ann`` line brat writes."""

EMPTY_NAMED = 5
"""The documents with an empty ``.ann`` that a conversion line names (it counts them all)."""

_OFFSETS = re.compile(r"^[0-9]+ [0-9]+(?:;[0-9]+ [0-9]+)*$")
"""brat's offsets: ASCII digits (``\\d`` would take ``٥`` for a 5)."""


def _read(path: Path) -> str:
    """A brat file's text exactly as saved (no line-end translation: offsets count ``\\r`` too)."""
    try:
        with open(path, encoding="utf-8", newline="") as handle:
            return handle.read()
    except UnicodeDecodeError:
        raise not_utf8(path) from None


class _OutOfRange(ValueError):
    """A ``T`` line's offsets out of its text's range."""


def _text_bound(line: str, where: str, units: Units | None) -> tuple[str, Any, str]:
    """``(type, entity, claimed text)`` of a ``T`` line, its offsets read in ``units`` (None: as written, unchecked);
    ValueError naming the line when it is malformed or its offsets are out of the text's range."""
    parts = line.split("\t", 2)
    if len(parts) < 2 or " " not in parts[1]:
        raise ValueError(f"{where}: {quote(line)} is not a text-bound line (ID<TAB>TYPE START END<TAB>TEXT)")
    kind, offsets = parts[1].split(" ", 1)
    if not _OFFSETS.fullmatch(offsets):
        raise ValueError(f"{where}: offsets {quote(offsets)} of {parts[0]} must be 'START END' pairs of integers "
                         "separated by ';'")
    pieces = tuple(tuple(map(int, piece.split())) for piece in offsets.split(";"))
    said = parts[2] if len(parts) > 2 else ""
    if units is None:
        return kind, (pieces, kind), said
    pieces = tuple(tuple(units.point(o, f"{where}: {parts[0]}") for o in piece) for piece in pieces)
    length = len(units.text)
    bad = next((piece for piece in pieces if not piece[0] < piece[1] <= length), None)
    if bad is not None:
        raise _OutOfRange(f"{where}: {parts[0]} offsets {bad[0]} {bad[1]} are out of range; they need start < end "
                          f"<= {length} (the .txt file's length in characters)")
    if len(pieces) > 1:
        normalize_fragments(pieces, length, f"{where}: {parts[0]}")  # overlapping fragments, named by their line
    entity: Any = (pieces[0][0], pieces[0][1], kind) if len(pieces) == 1 else (pieces, kind)
    return kind, entity, said


def _natural(relative: str) -> list[Any]:
    """A document's sort key: its path with runs of digits compared as numbers (``2.ann`` before ``10.ann``), so
    that documents named by their positions (the ids :func:`brat_files` gives documents without one) come back in
    order."""
    return [(0, int(run), run) if run.isdigit() else (1, 0, run) for run in re.split(r"([0-9]+)", relative)]


def _collection(folder: Path) -> list[Path]:
    """The ``.ann`` files of a folder and of its subfolders (hidden ones aside), in the natural order of their
    paths in it."""
    found = [ann for ann in folder.rglob("*.ann")
             if not any(part.startswith(".") for part in ann.relative_to(folder).parts)]
    return sorted(found, key=lambda ann: _natural(document_id(ann, folder)))


def document_id(ann: Path, folder: Path | None) -> str:
    """A document's id: the path of its ``.ann`` in the collection's folder, without ``.ann`` and with ``/``
    between folders (its file name without ``.ann`` when it is read alone, ``folder`` None)."""
    return ann.stem if folder is None else ann.relative_to(folder).with_suffix("").as_posix()


def ann_pairs(path: str | os.PathLike[str]) -> list[tuple[Path, Path]]:
    """The ``(.txt, .ann)`` pairs of a brat folder and its subfolders (:func:`_collection`) or of one file of a pair.

    Raises:
        ValueError: a folder without ``.ann`` files, or an ``.ann`` file without its ``.txt``.
    """
    path = Path(path)
    if path.is_dir():
        anns = _collection(path)
        if not anns:
            raise ValueError(f"{path}: no .ann files, in it or in its subfolders; a brat folder holds .txt and .ann "
                             "pairs")
    else:
        anns = [path.with_suffix(".ann")]
    pairs = []
    for ann in anns:
        txt = ann.with_suffix(".txt")
        for needed in (ann, txt):
            if not needed.is_file():
                raise ValueError(f"{needed}: not found; brat annotations come as .txt and .ann pairs")
        pairs.append((txt, ann))
    return pairs


def triggers(lines: Sequence[str]) -> set[str]:
    """The ids of the ``T`` lines that the ``E`` lines of an ``.ann`` file name as their triggers (``E1<TAB>TYPE:T12
    ROLE:ID ...``: the first argument)."""
    found = set()
    for line in lines:
        if line.startswith("E"):
            fields = line.split("\t", 2)
            trigger = fields[1].split(" ", 1)[0] if len(fields) > 1 else ""
            found.add(trigger.partition(":")[2])
    return found


@dataclass
class _Tally:
    """What the ``.ann`` lines of a corpus held: lines of each kind, the ``T`` lines used as event triggers, the
    ``T`` lines of types not kept."""

    lines: Counter[str] = field(default_factory=Counter)
    triggers: int = 0
    left_out: Counter[str] = field(default_factory=Counter)
    empty: list[str] = field(default_factory=list)
    """The documents whose ``.ann`` holds nothing (ids)."""
    undeclared: Counter[str] = field(default_factory=Counter)
    """``T`` lines kept of types their ``annotation.conf`` does not declare, by type."""
    confs: dict[Path, AnnotationConf | None] = field(default_factory=dict)
    """The ``annotation.conf`` of each folder read (None where none applies)."""

    def conf(self, folder: Path) -> AnnotationConf | None:
        """The configuration that applies to a folder's documents, looked up once a folder."""
        if folder not in self.confs:
            self.confs[folder] = nearest_conf(folder)
        return self.confs[folder]


class Kept(NamedTuple):
    """A ``T`` line read as an entity: where it is (``file, line N``), the text it claims, the entity, its ``T`` id
    and line number."""

    where: str
    said: str
    entity: Any
    ident: str
    line: int


def _entities(ann: Path, text: str, types: Collection[str] | None, event_triggers: bool,
              tally: _Tally, document: str, offsets: str = CODEPOINTS) -> list[Kept]:
    """Every ``T`` line of an ``.ann`` file kept (its type among ``types``, an event trigger unless left out),
    every line counted in ``tally``; ``document`` is the document's id, named when the file is empty; offsets read
    in the unit ``offsets``.

    Raises:
        ValueError: a malformed ``T`` line, offsets out of the text's range (saying so when every line fits as
            another unit), an id given twice (naming the line).
    """
    seen: dict[str, int] = {}
    content = _read(ann).removeprefix("\ufeff")
    if not content.strip():
        tally.empty.append(document)
    lines = file_lines(content)
    used = triggers(lines)
    conf = tally.conf(ann.parent)
    units = Units(text, offsets)
    kept = []
    for number, line in enumerate(lines, 1):
        if not line.strip():
            continue
        if line[0].isspace():
            # brat reads a line's id from its very start: it shows no annotation of this line, so nor do we
            raise ValueError(f"{ann}, line {number}: {quote(line)} begins with {quote(line[0])}, so brat reads no "
                             "annotation from it (an id such as T1 begins a line); remove what comes before the id")
        kind = line[0]
        tally.lines[kind if kind in LINE_TYPES else "other"] += 1
        if kind != "T":
            continue
        where = f"{ann}, line {number}"
        try:
            label, entity, said = _text_bound(line, where, units)
        except _OutOfRange as error:
            unit = _fitting(lines, text) if offsets == CODEPOINTS else None
            raise error if unit is None else OffsetsError(str(error), unit) from None
        ident = line.split("\t", 1)[0]
        if ident in seen:
            raise ValueError(f"{where}: {ident} is given twice (first on line {seen[ident]}); each T line needs "
                             "its own id")
        seen[ident] = number
        tally.triggers += ident in used
        if ident in used and not event_triggers:
            continue
        if types is not None and label not in types:
            tally.left_out[label] += 1
            continue
        if conf is not None and label not in conf.types:
            tally.undeclared[label] += 1
        kept.append(Kept(where, said, entity, ident, number))
    return kept


def _fitting(lines: Sequence[str], text: str) -> str | None:
    """The unit in which every ``T`` line of an ``.ann`` file fits its text and covers its own text, when code points
    do not (:func:`~.offsets.fitting_unit`); None when there is none, or a line is malformed (its error comes first)."""
    try:
        claims = [_text_bound(line, "", None) for line in lines if line.startswith("T")]
    except ValueError:
        return None
    return fitting_unit([(text, [(entity[0], said or None) for _, entity, said in claims])])


def _conversion(tally: _Tally, event_triggers: bool) -> str:
    """How the corpus was read, in words: its ``T`` lines (entities and triggers), the lines read past, the types
    left out."""
    others = ", ".join(f"{n} {k}" for k, n in sorted(tally.lines.items()) if k != "T")
    t_lines, trigger_lines = tally.lines["T"], tally.triggers
    conversion = (f"brat standoff, character offsets: {plural(t_lines, 'T line')}: "
                  f"{plural(t_lines - trigger_lines, 'entity', 'entities')}, {plural(trigger_lines, 'event trigger')}"
                  f"{'' if not trigger_lines else ' (left out)' if not event_triggers else ' (T lines that E lines use, scored as entities)'}"
                  f"{f'; read past: {others}' if others else ''}")
    if tally.left_out:
        conversion += "; T lines of other types left out: " + ", ".join(f"{n} {k}" for k, n in sorted(tally.left_out.items()))
    if tally.undeclared:
        confs = sorted({str(conf.path) for conf in tally.confs.values() if conf is not None})
        conversion += (f"; T lines of types {' or '.join(confs)} does not declare: "
                       + ", ".join(f"{k} {n}" for k, n in sorted(tally.undeclared.items())))
    if tally.empty:
        shown = ", ".join(quote(ident) for ident in tally.empty[:EMPTY_NAMED])
        more = f" and {len(tally.empty) - EMPTY_NAMED} more" if len(tally.empty) > EMPTY_NAMED else ""
        conversion += (f"; {plural(len(tally.empty), 'empty .ann file')} (a document no one annotated? it is "
                       f"scored as marking nothing): {shown}{more}")
    return conversion


def _documents(path: str | os.PathLike[str], types: Collection[str] | None, event_triggers: bool,
               tally: _Tally, offsets: str = CODEPOINTS) -> list[tuple[str, str, str, list[Kept]]]:
    """``(id, where, text, T lines kept)`` of every document of a brat folder or pair, every line counted in
    ``tally``, offsets read in the unit ``offsets``."""
    folder = Path(path) if Path(path).is_dir() else None
    out = []
    for txt, ann in ann_pairs(path):
        text = _read(txt)
        ident = document_id(ann, folder)
        out.append((ident, f"{ann}", text, _entities(ann, text, types, event_triggers, tally, ident, offsets)))
    return out


def read_brat(path: str | os.PathLike[str], types: Collection[str] | None = None, *,
              event_triggers: bool = True, offsets: str = CODEPOINTS) -> Corpus:
    """A brat folder (every ``.ann``/``.txt`` pair in it and its subfolders) or one pair (either file's path) as a
    corpus of texts; ``event_triggers=False`` leaves out the ``T`` lines that ``E`` lines use as triggers (counted);
    ``offsets`` the unit the offsets count (:mod:`.offsets`: brat's own server counts code points, tools that export
    brat from Java or JavaScript UTF-16 code units).

    Raises:
        ValueError: a malformed ``T`` line or offsets out of range (naming the file and line), a missing file,
            bytes that are not UTF-8; offsets whose lines fit, or match their text, only in another unit.
    """
    tally = _Tally()
    documents = _documents(path, types, event_triggers, tally, offsets)
    conversion = _conversion(tally, event_triggers) + _types_absent(types, documents)
    if offsets != CODEPOINTS:
        conversion = conversion.replace("character offsets", f"offsets in {UNIT_WORDS[offsets]} read as code points")
    corpus = Corpus([text for _, _, text, _ in documents], [[kept.entity for kept in claimed]
                                                            for *_, claimed in documents],
                    [ident for ident, *_ in documents], None, "brat", conversion, str(path),
                    [where for _, where, _, _ in documents], "characters")
    mismatches = Mismatches("text")
    for _, _, text, claimed in documents:
        for kept in claimed:
            mismatches.check(kept.said, covered_text(text, kept.entity), kept.where)
    _refuse_text_in_another_unit(path, documents, mismatches, offsets)
    conversion, notes = mismatches.report(corpus.conversion, "brat_text_mismatches")
    if tally.triggers:
        notes = {("brat_event_triggers" if event_triggers else "brat_event_triggers_left_out"): tally.triggers, **notes}
    if tally.empty:
        notes = {**notes, "brat_empty_ann_files": len(tally.empty)}
    if tally.undeclared:
        notes = {**notes, "brat_undeclared_type_lines": sum(tally.undeclared.values())}
    return replace(corpus, conversion=conversion, notes=notes, checked=True)


def _types_absent(types: Collection[str] | None, documents: Sequence[tuple[str, str, str, list[Kept]]]) -> str:
    """The words for the kept types that no ``T`` line has (a split may lack one, or a type be mistyped: types
    match exactly, case included), "" when each has one."""
    if types is None:
        return ""
    absent = sorted(set(types) - {kept.entity[-1] for *_, claimed in documents for kept in claimed})
    return f"; types kept that no T line has: {', '.join(absent)}" if absent else ""


def _refuse_text_in_another_unit(path: str | os.PathLike[str], documents: Sequence[tuple[str, str, str, list[Kept]]],
                                 mismatches: Mismatches, offsets: str) -> None:
    """OffsetsError when ``T`` lines' texts differ from the documents at their offsets read as code points but every
    one is the text at its offsets in another unit."""
    unit = fitting_unit((text, [(kept.entity[0] if is_fragmented(kept.entity) else (kept.entity[:2],), kept.said)
                                for kept in claimed]) for _, _, text, claimed in documents) \
        if mismatches.count and offsets == CODEPOINTS else None
    if unit is not None:
        raise OffsetsError(f"{path}: {mismatches.summary()}", unit, claimed=True)


def t_lines(path: str | os.PathLike[str], types: Collection[str] | None = None, *,
            event_triggers: bool = True, offsets: str = CODEPOINTS) -> dict[str, list[tuple[Any, str, int]]]:
    """Document id -> ``(entity, T id, line)`` of every entity :func:`read_brat` reads from it (with the same
    options), in its order: where each came from, for a view that sends a reader to the line."""
    return {ident: [(kept.entity, kept.ident, kept.line) for kept in claimed]
            for ident, _, _, claimed in _documents(path, types, event_triggers, _Tally(), offsets)}


def _stem(ident: str, s: int) -> str:
    """A document's file name: its id, when that is a plain file name."""
    if not ident or ident in (".", "..") or any(c in ident for c in "/\\\0"):
        raise ValueError(f"document {s}: id {quote(ident)} cannot name a brat file; give the documents plain ids")
    return ident


def brat_files(corpus: Corpus) -> dict[str, str]:
    """File name -> content of a corpus of texts written as brat: ``<id>.txt`` and ``<id>.ann`` per document."""
    texts: Sequence[str] = require_texts(corpus)
    files: dict[str, str] = {}
    for s, (text, ents) in enumerate(zip(texts, corpus.entities)):
        stem = _stem(corpus.sentence_ids[s] if corpus.sentence_ids is not None else str(s), s)
        if f"{stem}.txt" in files:
            raise ValueError(f"document {s}: id {quote(stem)} is given twice; each brat document needs its own")
        lines = []
        for k, entity in enumerate(ents, 1):
            pieces = entity[0] if is_fragmented(entity) else ((entity[0], entity[1]),)
            label = entity[-1]
            if not isinstance(label, str) or not_a_word(label):
                raise ValueError(f"document {s} (id {quote(stem)}): label {quote(label)} of entity {quote(entity)} is empty or holds "
                                 "whitespace, which a brat T line cannot hold (its type ends at the first space)")
            offsets = ";".join(f"{a} {b}" for a, b in pieces)
            said = covered_text(text, entity)
            if "\n" in said or "\r" in said:
                # brat's one-line T lines cannot hold a line end: the fragments are split at each one
                raise ValueError(f"document {quote(stem)}: entity {quote(entity)} covers a line end, which a brat T line "
                                 "cannot hold; split it into fragments at the line end")
            lines.append(f"T{k}\t{label} {offsets}\t{said}\n")
        files[f"{stem}.txt"], files[f"{stem}.ann"] = text, "".join(lines)
    return files


def write_brat(corpus: Corpus, folder: str | os.PathLike[str]) -> None:
    """Write a corpus of texts as a new brat folder (or into an empty one), whole or not at all.

    Raises:
        ValueError: the folder exists and holds files, an id that is no file name, a label a T line cannot hold,
            an entity over a line end.
    """
    write_folder(folder, brat_files(corpus))
