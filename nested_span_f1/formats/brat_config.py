"""A brat project's ``annotation.conf``: the entity and event types its ``T`` lines may have.

brat reads the configuration nearest a document: ``annotation.conf`` in the
document's folder, else in the folder above, up the tree. Its ``[entities]``
section (``[spans]`` is an alias) lists the entity types and its ``[events]``
section the event types, whose triggers are ``T`` lines too; one a line, indented
by depth in a hierarchy, the type first (``Protein``, or ``Protein | Prot`` with
an alias, or ``Binding<TAB>Theme:Protein`` with arguments). A type written
``!Type`` only groups others and marks nothing; ``#`` starts a comment, a line of
hyphens separates, ``<NAME>=...`` defines a macro. The other sections
(relations, attributes) name no ``T`` type.

A ``T`` line of a type the configuration does not declare is still read (brat
shows it as an error); the readers count such lines and say so.
"""
from __future__ import annotations

import os
import re
from dataclasses import dataclass
from pathlib import Path

FILE_NAME = "annotation.conf"

_SECTION = re.compile(r"^\s*\[(.*)\]\s*$")
_TYPED_SECTIONS = {"entities": "entities", "spans": "entities", "events": "events"}
_MACRO = re.compile(r"^<[A-Za-z_-]+>=")
_SEPARATOR = re.compile(r"^\s*-+\s*$")


@dataclass(frozen=True)
class AnnotationConf:
    """The ``T`` types an ``annotation.conf`` declares: its entity types and event types."""

    path: Path
    entities: frozenset[str]
    events: frozenset[str]

    @property
    def types(self) -> frozenset[str]:
        """Every type a ``T`` line may have."""
        return self.entities | self.events


def parse_conf(text: str, path: Path) -> AnnotationConf:
    """The entity and event types of an ``annotation.conf``'s text (see the module docstring)."""
    found: dict[str, set[str]] = {"entities": set(), "events": set()}
    section = ""
    for line in text.splitlines():
        header = _SECTION.match(line)
        if header:
            section = _TYPED_SECTIONS.get(header.group(1).strip(), "")
            continue
        if not section or not line.strip() or line.lstrip().startswith("#") or _SEPARATOR.match(line) \
                or _MACRO.match(line):
            continue
        term = re.split(r"\s", line.strip(), maxsplit=1)[0].split("|")[0].strip()
        if term and not term.startswith("!"):
            found[section].add(term)
    return AnnotationConf(path, frozenset(found["entities"]), frozenset(found["events"]))


def nearest_conf(folder: str | os.PathLike[str]) -> AnnotationConf | None:
    """The ``annotation.conf`` brat would use for the documents of ``folder``: the folder's own, else the nearest
    in a folder above it; None when there is none.

    Raises:
        ValueError: the file is not UTF-8 text.
    """
    here = Path(os.path.abspath(folder))
    for candidate in (here, *here.parents):
        path = candidate / FILE_NAME
        if path.is_file():
            try:
                text = path.read_text(encoding="utf-8-sig")
            except UnicodeDecodeError as error:
                raise ValueError(f"{path}: byte {error.start} is not UTF-8; brat reads its configuration as UTF-8 "
                                 "text") from None
            return parse_conf(text, path)
    return None
