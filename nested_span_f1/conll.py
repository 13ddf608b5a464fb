"""CoNLL-style column files: one token a line, the tag in a column, blank lines between sentences."""
from __future__ import annotations

import io
import os
from collections.abc import Callable, Iterable, Iterator, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import TextIO, Union

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

    @classmethod
    def of(cls, blocks: Sequence[Block], name: str) -> ColumnFile:
        """The sentences of ``blocks`` (all of a file, or a batch of them)."""
        return cls(name, [[row[0] for row in b.rows] for b in blocks], [b.rows for b in blocks], [b.line for b in blocks])

    def column(self, index: int = -1) -> list[list[str]]:
        """One column of every sentence (default: the last, where tags live)."""
        out = []
        for s, rows in enumerate(self.rows):
            try:
                out.append([row[index] for row in rows])
            except IndexError:
                raise ValueError(f"{self.name}: sentence {s} (line {self.lines[s]}) has no column {index}") from None
        return out


BOM = "\ufeff"
"""The UTF-8 byte-order mark some editors put first in a file: every reader skips it."""


def _not_utf8(path: str | os.PathLike[str]) -> ValueError:
    """The error for a file that does not decode as UTF-8, naming its first bad line (found by a second,
    byte-wise pass: the decoder that failed reads ahead in blocks and cannot say which line it was on)."""
    with open(path, "rb") as handle:
        for number, raw in enumerate(handle, 1):
            try:
                raw.decode("utf-8")
            except UnicodeDecodeError as error:
                return ValueError(f"{os.fspath(path)}, line {number}: bytes {raw[error.start:error.end + 3]!r} "
                                  "are not UTF-8; save the file as UTF-8")
    return ValueError(f"{os.fspath(path)}: not UTF-8; save the file as UTF-8")


def read_text(path: str | os.PathLike[str]) -> str:
    """A UTF-8 file's text without a leading byte-order mark; ValueError naming the line of bytes that are not UTF-8."""
    try:
        return Path(path).read_text(encoding="utf-8-sig")
    except UnicodeDecodeError:
        raise _not_utf8(path) from None


def text_lines(path: str | os.PathLike[str]) -> Iterator[str]:
    """The lines of a UTF-8 file, one at a time, as :func:`read_text` reads them."""
    with open(path, encoding="utf-8-sig") as handle:
        try:
            yield from handle
        except UnicodeDecodeError:
            raise _not_utf8(path) from None


def _open(source: Source) -> tuple[str, Iterable[str]]:
    if isinstance(source, (str, os.PathLike)):
        return os.fspath(source), text_lines(source)
    if isinstance(source, io.TextIOBase):
        return getattr(source, "name", "<stream>"), source
    return "<lines>", source


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
    one (ValueError naming ``name`` and the line otherwise). A byte-order mark
    before the first line is skipped.
    """
    rows: list[list[str]] = []
    start, width = 0, None
    for number, line in enumerate(lines, 1):
        if number == 1:
            line = line.removeprefix(BOM)
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
    number of columns or a file is not UTF-8.
    """
    name, lines = _open(source)
    return ColumnFile.of(list(read_blocks(lines, split=_splitter(delimiter), name=name)), name)


def iter_columns(source: Source, delimiter: str | None = None, name: str | None = None) -> Iterator[Block]:
    """The sentences of a column file one :class:`Block` at a time, as :func:`read_columns` reads them;
    ``name`` names the source in messages (default: its path, or ``<lines>``)."""
    found, lines = _open(source)
    return read_blocks(lines, split=_splitter(delimiter), name=name or found)


def _splitter(delimiter: str | None) -> Callable[[str], list[str]]:
    if delimiter == "":
        raise ValueError("the column delimiter is empty; pass one (or none, to split on any whitespace)")

    def split(line: str) -> list[str]:
        fields = line.rstrip("\r\n").split(delimiter)
        return [] if fields == [""] else fields

    return split


def check_same_tokens(gold: ColumnFile, pred: ColumnFile, first: int = 0) -> None:
    """Raise ValueError at the first sentence and token where two files stop aligning.

    ``first`` is the number of the files' sentences before these (when they are a
    batch of a longer file), so that the message counts sentences in the whole file.
    """
    for s, (g, p) in enumerate(zip(gold.tokens, pred.tokens)):
        if g == p:
            continue
        for t, (gt, pt) in enumerate(zip(g, p)):
            if gt != pt:
                raise ValueError(
                    f"files do not align at sentence {first + s}, token {t}: {gold.name} line {gold.lines[s] + t} "
                    f"has {gt!r} but {pred.name} line {pred.lines[s] + t} has {pt!r}"
                )
        raise ValueError(
            f"files do not align at sentence {first + s} ({gold.name} line {gold.lines[s]}, {pred.name} line "
            f"{pred.lines[s]}): {len(g)} gold tokens but {len(p)} predicted tokens"
        )
    if len(gold.tokens) != len(pred.tokens):
        raise ValueError(
            f"{gold.name} has {len(gold.tokens)} sentences but {pred.name} has {len(pred.tokens)}; "
            "they must align sentence by sentence"
        )
