"""A brat folder for an adjudicator: every document, the annotations all annotators share as they are, the others
marked with who made them.

Each document every annotator holds is written as ``<id>.txt`` and ``<id>.ann``
(an id with ``/`` in a subfolder, as brat collections nest). An annotation every
annotator made is one ``T`` line of its type. One that only some made is one
``T`` line whose type names them, ``TYPE_by_NAME`` (``ORG_by_Lisa_Maria`` where
Lisa and Maria marked it and the others did not), with a note (a ``#`` line
brat shows on it) telling what every annotator marked at its disputed place
(:mod:`.places`). The
``annotation.conf`` written beside them declares every type used, so that brat
opens the folder without complaint. The adjudicator keeps or deletes each
marked line and renames the type of those kept.

A text whose annotation crosses a line end (brat's ``T`` lines cannot hold one)
is written as fragments split there, as brat writes them. A corpus of tokens is
written as its tokens joined by spaces, every span moved to characters.
"""
from __future__ import annotations

import os
import re
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from ..core.wording import quote
from ..formats.output import write_folder
from .places import Entry

_PLAIN = re.compile(r"[A-Za-z0-9_-]+")


def _file_stem(ident: str) -> str:
    """A document's path in the folder: its id, when every part of it is a plain file name."""
    parts = ident.split("/")
    if not ident or any(part in ("", ".", "..") or any(c in part for c in "\\\0") for part in parts):
        raise ValueError(f"document id {quote(ident)} cannot name a file inside the folder; give the documents plain "
                         "ids")
    return ident


def _check_names(names: Sequence[str]) -> None:
    for name in names:
        if not _PLAIN.fullmatch(name):
            raise ValueError(f"annotator {name}: a brat type names who marked a span, so the name must hold only "
                             "letters, digits, '_' and '-'; name the annotators so (NAME=PATH)")


class _Text:
    """A document's text, and where each position begins and ends in it (positions are characters, or tokens
    joined by spaces)."""

    def __init__(self, item: Any, unit: str) -> None:
        if unit == "characters":
            self.text = str(item)
            self.begin: list[int] = list(range(len(item)))
            self.finish: list[int] = list(range(1, len(item) + 1))
            return
        self.text = " ".join(item)
        self.begin, self.finish, at = [], [], 0
        for token in item:
            self.begin.append(at)
            self.finish.append(at + len(token))
            at += len(token) + 1

    def pieces(self, e: Entry) -> list[tuple[int, int]]:
        """An annotation's fragments in characters, split at every line end inside them."""
        out = []
        for a, b in e.fragments or ((e.start, e.end),):
            start, end = self.begin[a], self.finish[b - 1]
            out += [(start + found.start(), start + found.end())
                    for found in re.finditer(r"[^\r\n]+", self.text[start:end])]
        return out

    def covered(self, e: Entry) -> str:
        """The text an annotation covers, its fragments joined by a space (as brat writes it)."""
        return " ".join(self.text[a:b] for a, b in self.pieces(e))


def _document(members: Sequence[Entry], names: Sequence[str], text: _Text,
              notes: dict[tuple[Any, ...], str]) -> tuple[str, set[str]]:
    """The ``.ann`` of one document from its annotations (every annotator's), and the types it uses; ``notes``
    holds the note of each annotation of a disputed place (by document, start, end, type, fragments)."""
    holders: dict[tuple[Any, ...], list[int]] = {}
    for e in members:
        holders.setdefault((e.document, e.start, e.end, e.label, e.fragments), []).append(e.annotator)
    lines, types = [], set()
    number = 0
    for key, who in sorted(holders.items(), key=lambda kv: kv[0][1:4]):
        e = Entry(who[0], *key)
        pieces = text.pieces(e)
        if not pieces:
            continue
        number += 1
        kind = label = e.label
        if len(who) < len(names):
            kind = f"{label}_by_{'_'.join(names[a] for a in sorted(who))}"
        types.add(kind)
        offsets = ";".join(f"{a} {b}" for a, b in pieces)
        lines.append(f"T{number}\t{kind} {offsets}\t{text.covered(e)}\n")
        if len(who) < len(names):
            lines.append(f"#{number}\tAnnotatorNotes T{number}\t{notes[key]}\n")
    return "".join(lines), types


def _note(place: Sequence[Entry], names: Sequence[str], text: _Text) -> str:
    """What every annotator marked at a disputed place."""
    said = []
    for k, name in enumerate(names):
        mine = ", ".join(f"{o.label} '{text.covered(o)}'" for o in place if o.annotator == k)
        said.append(f"{name}: {mine or 'nothing'}")
    return "disputed: " + "; ".join(said)


def adjudication_files(found: Sequence[Entry], disputed: Sequence[Sequence[Entry]], names: Sequence[str],
                       ids: Sequence[str], items: Sequence[Any], unit: str) -> dict[str, str]:
    """File name -> content of the folder (see the module docstring) from every annotation and the disputed
    places (:func:`.places.places`)."""
    _check_names(names)
    by_document: dict[int, list[Entry]] = {d: [] for d in range(len(ids))}
    for e in found:
        by_document[e.document].append(e)
    texts = [_Text(item, unit) for item in items]
    notes = {}
    for place in disputed:
        note = _note(place, names, texts[place[0].document])
        for e in place:
            notes[(e.document, e.start, e.end, e.label, e.fragments)] = note
    files: dict[str, str] = {}
    types: set[str] = set()
    for d, ident in enumerate(ids):
        stem = _file_stem(ident)
        ann, used = _document(by_document[d], names, texts[d], notes)
        files[f"{stem}.txt"], files[f"{stem}.ann"] = texts[d].text, ann
        types |= used
    files["annotation.conf"] = ("# types of the adjudication folder: TYPE_by_NAMES marks what only those annotators "
                                "marked\n[entities]\n" + "".join(f"{kind}\n" for kind in sorted(types))
                                + "\n[relations]\n\n[events]\n\n[attributes]\n")
    return files


def write_adjudication(found: Sequence[Entry], disputed: Sequence[Sequence[Entry]], names: Sequence[str],
                       ids: Sequence[str], items: Sequence[Any], unit: str, folder: str | os.PathLike[str],
                       inputs: Sequence[Any] = ()) -> None:
    """Write the folder, new or empty, whole or not at all; refused inside an input folder (it would be read with
    it next time).

    Raises:
        ValueError: the folder exists and holds files, lies inside an input folder, an annotator's name a brat
            type cannot hold, a document id that names no file in the folder.
    """
    target = Path(os.path.abspath(folder))
    for source in inputs:
        if isinstance(source, (str, os.PathLike)) and os.path.isdir(source):
            inside = Path(os.path.abspath(source))
            if target == inside or inside in target.parents:
                raise ValueError(f"{folder} is inside {source}, an input folder; write the adjudication folder "
                                 "elsewhere")
    write_folder(folder, adjudication_files(found, disputed, names, ids, items, unit))
