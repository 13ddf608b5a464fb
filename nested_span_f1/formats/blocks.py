"""Readers and writers for the text-block formats: Shibuya & Hovy (3 lines) and Lu & Roth (4 lines).

A block is the space-separated tokens, for Lu & Roth a line of POS tags, then
``s,e G#TYPE|s,e G#TYPE`` (end exclusive; empty when the sentence has no
entity) and a blank line. Blocks are read by position, not split on blank
lines, because the annotation line itself may be blank.
"""
from __future__ import annotations

import re

from ..core.entities import is_fragmented
from ..core.spans import Span
from ..core.wording import quote
from .corpus import Corpus, not_a_word
from .records import file_lines

_ENTITY = re.compile(r"^(\d+),(\d+) (?:G#)?(\S+)$")


def _annotation(line: str, where: str) -> list[Span]:
    spans = []
    for piece in filter(None, line.strip().split("|")):
        match = _ENTITY.match(piece.strip())
        if match is None:
            raise ValueError(f"{where}: entity {quote(piece)} must read 'start,end G#TYPE' with integer offsets")
        spans.append((int(match[1]), int(match[2]), match[3]))
    return spans


def _read_blocks(text: str, source: str, with_pos: bool, name: str, first_line: int = 1) -> Corpus:
    lines = file_lines(text)
    shift = first_line - 1
    size = 4 if with_pos else 3
    tokens: list[list[str]] = []
    entities: list[list[Span]] = []
    places: list[str] = []
    for first in range(0, len(lines), size):
        block = lines[first:first + size]
        where = f"{source}, line {shift + first + size - 1}"
        if not block[0].strip():
            raise ValueError(f"{source}, line {shift + first + 1}: expected the tokens of a sentence, got a blank line")
        if len(block) < size - 1 or (len(block) == size and block[-1].strip()):
            raise ValueError(f"{where}: a {name} block is {size - 1} lines and a blank line")
        words = block[0].split()
        if with_pos and len(block[1].split()) != len(words):
            raise ValueError(f"{source}, line {shift + first + 2}: {len(block[1].split())} POS tags for {len(words)} tokens")
        tokens.append(words)
        entities.append(_annotation(block[size - 2], where))
        places.append(where)
    return Corpus(tokens, entities, None, None, name, "end exclusive: offsets kept as they are", source, places)


def _write_blocks(corpus: Corpus, with_pos: bool, name: str) -> str:
    out = []
    for s, (words, ents) in enumerate(zip(corpus.tokens, corpus.entities)):
        for e in ents:
            if is_fragmented(e):
                raise ValueError(f"sentence {s}: discontinuous entity {quote(e)} cannot be written as {name}; write w2ner")
        if not words:
            raise ValueError(f"sentence {s} is empty; a {name} block cannot hold an empty sentence (its tokens line "
                             "would be blank, which ends a block)")
        bad = [w for w in words if not_a_word(w)]
        if bad:
            raise ValueError(f"sentence {s}: token {quote(bad[0])} is empty or holds whitespace; {name} separates tokens by spaces")
        out.append(" ".join(words))
        if with_pos:
            out.append(" ".join("_" for _ in words))
        out.append("|".join(f"{b},{e} G#{lab}" for b, e, lab in ents))
        out.append("")
    return "\n".join(out) + "\n" if out else ""


def read_shibuya(text: str, source: str = "shibuya", first_line: int = 1) -> Corpus:
    """Shibuya & Hovy (2020) ``.data``: tokens / ``s,e G#TYPE|...`` / blank."""
    return _read_blocks(text, source, False, "shibuya", first_line)


def write_shibuya(corpus: Corpus) -> str:
    """The corpus as Shibuya & Hovy text blocks."""
    return _write_blocks(corpus, False, "shibuya")


def read_lu_roth(text: str, source: str = "lu_roth", first_line: int = 1) -> Corpus:
    """Lu & Roth (2015) / Muis & Lu (2017): tokens / POS / ``s,e G#TYPE|...`` / blank (POS is ignored)."""
    return _read_blocks(text, source, True, "lu_roth", first_line)


def write_lu_roth(corpus: Corpus) -> str:
    """The corpus as Lu & Roth text blocks; the POS line holds ``_`` placeholders (a Corpus keeps no POS)."""
    return _write_blocks(corpus, True, "lu_roth")
