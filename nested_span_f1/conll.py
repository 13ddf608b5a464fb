"""CoNLL-style column files: one token a line, the tag in a column, blank lines between sentences."""
from __future__ import annotations

import io
import os
from collections.abc import Iterable
from dataclasses import dataclass
from typing import Any, TextIO, Union

Source = Union[str, "os.PathLike[str]", TextIO, Iterable[str]]

DOCSTART = "-DOCSTART-"


@dataclass(frozen=True)
class ColumnFile:
    """Sentences read from a column file.

    ``tokens[s]`` and ``columns[s]`` hold sentence ``s``'s first column and the
    list of all its rows' fields; ``lines[s]`` is the 1-based line number of the
    sentence's first token, for error messages. ``name`` is the file name.
    """

    name: str
    tokens: list[list[str]]
    rows: list[list[list[str]]]
    lines: list[int]

    def column(self, index: int = -1) -> list[list[str]]:
        """One column of every sentence (default: the last, where tags live)."""
        out = []
        for s, rows in enumerate(self.rows):
            try:
                out.append([row[index] for row in rows])
            except IndexError:
                raise ValueError(f"{self.name}: sentence {s} (line {self.lines[s]}) has no column {index}") from None
        return out


def _open(source: Source) -> tuple[str, Any, bool]:
    if isinstance(source, (str, os.PathLike)):
        return str(source), open(source, encoding="utf-8"), True
    if isinstance(source, io.TextIOBase):
        return getattr(source, "name", "<stream>"), source, False
    return "<lines>", source, False


def read_columns(source: Source, delimiter: str | None = None) -> ColumnFile:
    """Read a column file; ``delimiter=None`` splits on any whitespace.

    Blank lines and ``-DOCSTART-`` lines end a sentence; empty sentences are not
    kept. Raises ValueError naming the line when rows of a file disagree on the
    number of columns.
    """
    name, handle, close = _open(source)
    tokens: list[list[str]] = []
    rows: list[list[list[str]]] = []
    lines: list[int] = []
    width = None
    current: list[list[str]] = []
    start = 0
    try:
        for number, line in enumerate(handle, 1):
            fields = line.rstrip("\r\n").split(delimiter)
            if delimiter is not None and fields == [""]:
                fields = []
            if not fields or fields[0] == DOCSTART:
                if current:
                    tokens.append([r[0] for r in current])
                    rows.append(current)
                    lines.append(start)
                current = []
                continue
            if width is None:
                width = len(fields)
            elif len(fields) != width:
                raise ValueError(f"{name}, line {number}: {len(fields)} columns where earlier lines have {width}")
            if not current:
                start = number
            current.append(fields)
    finally:
        if close:
            handle.close()
    if current:
        tokens.append([r[0] for r in current])
        rows.append(current)
        lines.append(start)
    return ColumnFile(name, tokens, rows, lines)


def check_same_tokens(gold: ColumnFile, pred: ColumnFile) -> None:
    """Raise ValueError at the first sentence and token where two files stop aligning."""
    for s, (g, p) in enumerate(zip(gold.tokens, pred.tokens)):
        for t, (gt, pt) in enumerate(zip(g, p)):
            if gt != pt:
                raise ValueError(
                    f"files do not align at sentence {s}, token {t}: {gold.name} line {gold.lines[s] + t} "
                    f"has {gt!r} but {pred.name} line {pred.lines[s] + t} has {pt!r}"
                )
        if len(g) != len(p):
            raise ValueError(
                f"files do not align at sentence {s} ({gold.name} line {gold.lines[s]}, {pred.name} line "
                f"{pred.lines[s]}): {len(g)} gold tokens but {len(p)} predicted tokens"
            )
    if len(gold.tokens) != len(pred.tokens):
        raise ValueError(
            f"{gold.name} has {len(gold.tokens)} sentences but {pred.name} has {len(pred.tokens)}; "
            "they must align sentence by sentence"
        )
