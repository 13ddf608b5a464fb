"""Where a problem is, as people count: sentences, tokens and lines from 1, the file and its line named.

The core names sentences and tokens from 0 (the Python API's indices). The command
line and the Space convert its messages here, where the line of every sentence of a
column file (a file, or text pasted into the Space) is known.

>>> lines = Place("pasted text", [1, 4])
>>> str(for_people(ValueError("predictions, sentence 1, token 1: tag 'PER'"), lines, lines))
"predictions, sentence 2, token 2 (pasted text line 5): tag 'PER'"
"""
from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass

from .columns import ColumnFile

_WHERE = re.compile(r"\b(?:(predictions|references), )?(sentence|document) (\d+)(?:(,? (?:token|position) )(\d+))?")
# formats.align names the first differing token by its position alone (a span's position in a file's
# sentence is counted from 1 where the file reader names its line: formats.Corpus)
_POSITION = re.compile(r"\b(differ at position) (\d+)")
_SPAN_POSITION = re.compile(r"\(position (\d+) in the sentence\)")


@dataclass(frozen=True)
class Place:
    """Where sentences are in a file: its name and the 1-based line of each sentence's first token."""

    name: str
    lines: Sequence[int]


def for_people(error: Exception, gold: object = None, pred: object = None, first: int = 0) -> Exception:
    """The error with 1-based sentence and token numbers, and the file line where the column files give it.

    ``predictions, sentence 3, token 2`` (the core's 0-based indices) becomes
    ``predictions, sentence 4, token 3 (pred.conll line 57)``. ``first`` is the
    number of sentences before those the error counts in (a batch's offset).
    ``gold`` and ``pred`` are where each side was read from: a :class:`ColumnFile`
    or a :class:`Place` names the line; anything else (a Corpus, which names its
    own places) or None only renumbers.
    """
    files = {"predictions": pred, "references": gold}

    def fix(match: re.Match[str]) -> str:
        side, word, sentence, sep, token = match.groups()
        s = int(sentence)
        text = f"{side + ', ' if side else ''}{word} {first + s + 1}"
        if token is not None:
            text += f"{sep}{int(token) + 1}"
        source = files.get(side or "")
        if isinstance(source, (ColumnFile, Place)) and s < len(source.lines):
            text += f" ({source.name} line {source.lines[s] + int(token or 0)})"
        return text

    text = _WHERE.sub(fix, str(error))
    return type(error)(_POSITION.sub(lambda m: f"{m.group(1)} {int(m.group(2)) + 1}", text))


_DECODED = re.compile(r"sentences, sentence (\d+), token (\d+)")
"""Where ``tags_to_spans`` names a bad tag of the one side it decodes (0-based)."""


def in_file(error: Exception, file: ColumnFile) -> Exception:
    """A tag error of ``tags_to_spans`` on a column file's tags, the sentence and token it names (0-based) as the
    file's name and line: ``sentences, sentence 3, token 2: tag 'X'`` becomes ``gold.conll, line 57: tag 'X'``."""
    found = _DECODED.match(str(error))
    if found is None or int(found.group(1)) >= len(file.lines):
        return error
    line = file.lines[int(found.group(1))] + int(found.group(2))
    return type(error)(f"{file.name}, line {line}{str(error)[found.end():]}")


def span_positions_from_1(text: str) -> str:
    """``text`` with a span's position in its sentence counted from 1: the core's ``(position 0 in the sentence)``
    becomes ``(position 1 in the sentence)``."""
    return _SPAN_POSITION.sub(lambda m: f"(position {int(m.group(1)) + 1} in the sentence)", text)
