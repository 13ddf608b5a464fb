"""CoNLL-style column files: one token a line, the tag in a column, blank lines between sentences."""
from __future__ import annotations

import io
import os
from collections.abc import Callable, Iterable, Iterator
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


@dataclass(frozen=True)
class Block:
    """One sentence of a column file: its rows (each a list of fields) and the 1-based line of its first row."""

    rows: list[list[str]]
    line: int


def read_blocks(
    lines: Iterable[str], *, split: Callable[[str], list[str]], boundary: str = DOCSTART, name: str = "<lines>"
) -> Iterator[Block]:
    """The sentences of column-formatted ``lines``, one block at a time.

    ``split`` turns a line (as read, line end included) into its fields. A line
    with no fields, or whose first field is ``boundary``, ends a sentence; empty
    sentences are skipped. Every line with fields must have as many as the first
    one (ValueError naming ``name`` and the line otherwise).
    """
    rows: list[list[str]] = []
    start, width = 0, None
    for number, line in enumerate(lines, 1):
        fields = split(line)
        if fields:
            if width is None:
                width = len(fields)
            elif len(fields) != width:
                raise ValueError(f"{name}, line {number}: {len(fields)} columns where earlier lines have {width}")
        if not fields or fields[0] == boundary:
            if rows:
                yield Block(rows, start)
                rows = []
            continue
        if not rows:
            start = number
        rows.append(fields)
    if rows:
        yield Block(rows, start)


def read_columns(source: Source, delimiter: str | None = None) -> ColumnFile:
    """Read a column file; ``delimiter=None`` splits on any whitespace.

    Blank lines and ``-DOCSTART-`` lines end a sentence; empty sentences are not
    kept. Raises ValueError naming the line when rows of a file disagree on the
    number of columns.
    """
    def split(line: str) -> list[str]:
        fields = line.rstrip("\r\n").split(delimiter)
        return [] if fields == [""] else fields

    name, handle, close = _open(source)
    try:
        blocks = list(read_blocks(handle, split=split, name=name))
    finally:
        if close:
            handle.close()
    return ColumnFile(name, [[row[0] for row in b.rows] for b in blocks], [b.rows for b in blocks], [b.line for b in blocks])


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
