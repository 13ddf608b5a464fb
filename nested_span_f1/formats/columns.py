"""CoNLL-style column files: one token a line, the tag in a column, blank lines between sentences."""
from __future__ import annotations

import io
import math
import os
import re
from collections.abc import Callable, Iterable, Iterator, Sequence
from dataclasses import dataclass
from itertools import accumulate, repeat
from pathlib import Path
from typing import Protocol, TextIO, Union

from ..core.scored import mean_score
from ..core.wording import plural, quote

PathLike = Union[str, bytes, "os.PathLike[str]", "os.PathLike[bytes]"]
"""A file's path as ``open()`` takes it: text, bytes (decoded as the file system encodes names, with
:func:`os.fsdecode`) or a path object. Every reader takes all three and names the file as text."""

Source = PathLike | TextIO | Iterable[str]

DOCSTART = "-DOCSTART-"


@dataclass(slots=True)
class Block:
    """One sentence of a column file: the fields of its rows one after the other (``width`` a row) and the
    1-based line of its first row. (Not frozen: a file has millions of blocks, and a frozen dataclass is
    slow to build.)"""

    fields: list[str]
    width: int
    line: int

    def __len__(self) -> int:
        return len(self.fields) // self.width

    @property
    def rows(self) -> list[list[str]]:
        """The fields row by row."""
        return [self.fields[i:i + self.width] for i in range(0, len(self.fields), self.width)]

    def column(self, index: int) -> list[str]:
        """Field ``index`` of every row (negative counts from the end; ``-width <= index < width``)."""
        return self.fields[index % self.width::self.width]


@dataclass(frozen=True)
class ColumnFile:
    """Sentences read from a column file.

    ``tokens[s]`` and ``rows[s]`` hold sentence ``s``'s first column and the
    list of all its rows' fields; ``lines[s]`` is the 1-based line number of the
    sentence's first token, for error messages. ``name`` is the file name.
    """

    name: str
    blocks: list[Block]
    """The sentences, all of a file or a batch of them."""

    @property
    def tokens(self) -> list[list[str]]:
        return [b.column(0) for b in self.blocks]

    @property
    def rows(self) -> list[list[list[str]]]:
        return [b.rows for b in self.blocks]

    @property
    def lines(self) -> list[int]:
        return [b.line for b in self.blocks]

    @property
    def width(self) -> int:
        """Fields a row (0 for a file without sentences)."""
        return self.blocks[0].width if self.blocks else 0

    def column(self, index: int = -1) -> list[list[str]]:
        """One column of every sentence (default: the last, where tags live)."""
        if self.blocks and not -self.width <= index < self.width:
            raise ValueError(f"{self.name}: sentence 0 (line {self.blocks[0].line}) has no column {index}")
        return [b.column(index) for b in self.blocks]


BOM = "\ufeff"
"""The UTF-8 byte-order mark some editors put first in a file: every reader skips it."""


UTF16_MARKS = (b"\xff\xfe", b"\xfe\xff", "\udcff\udcfe", "\udcfe\udcff")
"""UTF-16's byte-order marks, as bytes and as a UTF-8 decoder that escapes bytes (``surrogateescape``) reads them."""


def not_text(name: str, number: int, line: str | bytes) -> ValueError:
    """The error for line ``number`` of a file, which holds a NUL byte or begins with UTF-16's byte-order mark: the
    file is not UTF-8 text (UTF-16 when its first line says so, a NUL between its letters), named at that line."""
    if isinstance(line, bytes):
        line = line.decode("utf-8", "surrogateescape")
    if number == 1 and (line.startswith(UTF16_MARKS[2:]) or "\x00" in line[:2]):
        return ValueError(f"{name}, line 1: the file is UTF-16 text, not UTF-8 text; save it as UTF-8")
    return ValueError(f"{name}, line {number}: a NUL byte ('\\x00'), which UTF-8 text never holds: the file is not "
                      "UTF-8 text; save it as UTF-8")


def check_no_nul(text: str, name: str, start: int) -> None:
    """:func:`not_text` for the first NUL of ``text``, whose first line is line ``start`` (a NUL is searched for in a
    whole chunk at once: ``in`` on a string costs a fraction of splitting it)."""
    at = text.find("\x00")
    if at >= 0:
        raise not_text(name, start + text.count("\n", 0, at), text[text.rfind("\n", 0, at) + 1:at + 1])


def not_utf8(path: PathLike) -> ValueError:
    """The error for a file that does not decode as UTF-8, naming its first bad line (found by a second,
    byte-wise pass: the decoder that failed reads ahead in blocks and cannot say which line it was on); a UTF-16
    file is named as such."""
    with open(path, "rb") as handle:
        for number, raw in enumerate(handle, 1):
            if (number == 1 and raw.startswith(UTF16_MARKS[:2])) or b"\x00" in raw:
                return not_text(os.fsdecode(path), number, raw)
            try:
                raw.decode("utf-8")
            except UnicodeDecodeError as error:
                return ValueError(f"{os.fsdecode(path)}, line {number}: bytes {quote(raw[error.start:error.end + 3])} "
                                  "are not UTF-8; save the file as UTF-8")
    return ValueError(f"{os.fsdecode(path)}: not UTF-8; save the file as UTF-8")


def read_text(path: PathLike) -> str:
    """A UTF-8 file's text without a leading byte-order mark; ValueError naming the line of bytes that are not UTF-8."""
    try:
        return Path(os.fsdecode(path)).read_text(encoding="utf-8-sig")
    except UnicodeDecodeError:
        raise not_utf8(path) from None


def text_lines(path: PathLike) -> Iterator[str]:
    """The lines of a UTF-8 file, one at a time, as :func:`read_text` reads them."""
    with open(os.fsdecode(path), encoding="utf-8-sig") as handle:
        try:
            yield from handle
        except UnicodeDecodeError:
            raise not_utf8(path) from None


def _name(source: Source) -> str:
    if isinstance(source, (str, bytes, os.PathLike)):
        return os.fsdecode(source)
    return str(getattr(source, "name", "<stream>")) if isinstance(source, io.IOBase) else "<lines>"


def read_blocks(
    lines: Iterable[str], *, split: Callable[[str], list[str]], boundary: str = DOCSTART, name: str = "<lines>",
    start: int = 1, width: int | None = None,
) -> Iterator[Block]:
    """The sentences of column-formatted ``lines``, one block at a time.

    ``split`` turns a line (as read, line end included) into its fields. A line
    with no fields, or whose first field is ``boundary``, ends a sentence; empty
    sentences are skipped. Every line with fields must have as many as the first
    one, or ``width`` when given (ValueError naming ``name`` and the line
    otherwise). ``start`` is the number of the first line. A byte-order mark
    before line 1 is skipped; bytes that are not UTF-8, and a NUL byte (UTF-16 text, a binary file), are named
    by their line.
    """
    fields: list[str] = []
    first = 0
    try:
        for number, line in enumerate(lines, start):
            if number == start:
                if not isinstance(line, str):
                    raise TypeError(f"{name}, line {number}: expected lines of text (str), got {type(line).__name__} "
                                    f"{quote(line)}; decode bytes first, or pass the file's path")
                if start == 1:
                    line = line.removeprefix(BOM)
            if "\x00" in line:
                raise not_text(name, number, line)
            row = split(line)
            if row:
                if width is None:
                    width = len(row)
                elif len(row) != width:
                    raise ValueError(f"{name}, line {number}: {plural(len(row), 'column')} where earlier lines have {width}: "
                                     f"{quote(line.rstrip())}")
            if not row or row[0] == boundary:
                if fields:
                    yield Block(fields, width or 0, first)
                    fields = []
                continue
            if not fields:
                first = number
            fields += row
    except UnicodeDecodeError:
        raise (not_utf8(name) if os.path.isfile(name) else ValueError(f"{name}: not UTF-8")) from None
    if fields:
        yield Block(fields, width or 0, first)


CHUNK = 1 << 18
"""Characters :func:`read_sentences` reads at a time."""


class Readable(Protocol):
    """A text file as :func:`read_sentences` reads it."""

    def read(self, size: int = -1, /) -> str: ...


def read_sentences(
    handle: Readable, *, split: Callable[[str], list[str]], separator: str | None, boundary: str = DOCSTART,
    name: str = "<stream>",
) -> Iterator[Block]:
    """:func:`read_blocks` of a text file, the same blocks, read a megabyte or so at a time.

    ``separator`` is what ``split`` splits a line on (``None``: runs of :data:`ASCII_WHITESPACE`,
    else a literal string). A chunk of whole sentences whose every line holds the
    same number of fields, or none (a blank line), and no carriage return or
    ``boundary``, is split at once, which is what makes files of millions of
    tokens quick to read; any other chunk goes through :func:`read_blocks` line by
    line, which has the last word on what a line holds and which error it is.
    A chunk ends at an empty line (``"\\n\\n"``). A NUL byte is refused at its line (:func:`not_text`).
    """
    width: int | None = None
    line, rest = 1, ""
    while True:
        try:
            data = handle.read(CHUNK)
        except UnicodeDecodeError:
            raise (not_utf8(name) if os.path.isfile(name) else ValueError(f"{name}: not UTF-8")) from None
        text = rest + data
        if "\x00" in data:  # the rest was searched with the chunk before
            check_no_nul(text, name, line)
        if line == 1:
            text = text.removeprefix(BOM)
        if data:
            cut = text.rfind("\n\n")
            if cut < 0:
                rest = text
                continue
            text, rest = text[:cut + 1], text[cut + 2:]
        lines = text.split("\n")
        if width is None:
            width = len(next((row for row in map(split, lines) if row), [])) or None
        blocks: Iterable[Block] | None = None
        if width is not None and "\r" not in text:
            blocks = _split_at_once(lines, width, separator, line, boundary)
        if blocks is None:
            blocks = read_blocks((f"{row}\n" for row in lines[:-1] + [lines[-1]] * bool(lines[-1])),
                                 split=split, boundary=boundary, name=name, start=line, width=width)
        yield from blocks
        line += len(lines) if data else 0
        if not data:
            return


_OTHER_SPACE = {" ": re.compile(r"[^\S \n]"), "\t": re.compile(r"[^\S\t\n]")}
"""Whitespace other than the separator (a space or a tab) or a line end: chunks holding it are read line by line."""

_ASCII_SPACE = " \t\x0b\x0c\r\x1c\x1d\x1e\x1f"
"""The ASCII whitespace other than a line end (an ASCII text is checked for it without the regex engine)."""


def _split_at_once(lines: list[str], width: int, separator: str | None, start: int, boundary: str) -> list[Block] | None:
    """The sentences of ``lines`` (the first is line ``start``), or None unless every line holds
    ``width`` fields split by single separators (``None``: single spaces, or single tabs throughout)
    or is empty, and ``boundary`` only starts lines of their own; then the line-by-line reader decides."""
    text = "\n".join(lines)
    mark = separator or ("\t" if "\t" in text and " " not in text else " ")
    fields = _regular_fields(lines, text, width, separator, mark)
    body = text.rstrip("\n")
    if fields is None or body.startswith("\n") or "\n\n\n" in body:
        return None
    # sentences are the pieces between empty lines; each piece's rows give its fields and the next one's line
    pieces = body.split("\n\n") if body else []
    rows = [n + 1 for n in map(str.count, pieces, repeat("\n"))]
    ends = list(accumulate(n * width for n in rows))
    firsts = accumulate(rows, lambda line, n: line + n + 1, initial=start)
    blocks = list(map(Block, map(fields.__getitem__, map(slice, [0, *ends], ends)), repeat(width), firsts))
    return _without_boundaries(blocks, lines, boundary, mark) if boundary in text else blocks


def _regular_fields(lines: list[str], text: str, width: int, separator: str | None, mark: str) -> list[str] | None:
    """Every field of ``lines`` (their ``text``) in order, or None unless every line holds ``width`` fields split by
    single ``mark`` separators or is empty (without a ``separator``: no other whitespace either)."""
    counts = list(map(str.count, lines, repeat(mark)))
    blank = lines.count("")
    if width < 2 or counts.count(width - 1) + blank != len(lines):
        return None
    if separator is not None:
        fields = separator.join(filter(None, lines)).split(separator)
        return None if "" in fields else fields
    ascii_text = text.isascii()
    if any(c in text for c in _ASCII_SPACE if c != mark) if ascii_text else _OTHER_SPACE[mark].search(text):
        return None
    fields = text.split()
    # every line has width - 1 separators, so no more than width fields: the total says each has width
    return fields if len(fields) == width * (len(lines) - blank) else None


def _without_boundaries(blocks: list[Block], lines: list[str], boundary: str, mark: str) -> list[Block] | None:
    """The sentences without the boundary lines (CoNLL-2003's -DOCSTART-) that stand between empty lines, each a
    sentence of its own to drop; None when one stands anywhere else (it ends a sentence inside a piece: the
    line-by-line reader decides)."""
    kept = [b for b in blocks if b.fields[0] != boundary]
    alone = [b for b in blocks if b.fields[0] == boundary and len(b) == 1]
    if len(alone) + len(kept) != len(blocks) or len(alone) != sum(1 for line in lines if line.startswith(boundary + mark)):
        return None
    return kept


def read_columns(source: Source, delimiter: str | None = None, name: str | None = None) -> ColumnFile:
    """Read a column file; ``delimiter=None`` splits on runs of :data:`ASCII_WHITESPACE`; ``name`` names the source in messages
    (default: its path, or ``<lines>``).

    Blank lines and ``-DOCSTART-`` lines end a sentence; empty sentences are not
    kept. Raises ValueError naming the line when rows of a file disagree on the
    number of columns or a file is not UTF-8.
    """
    name = name or _name(source)
    return ColumnFile(name, list(iter_columns(source, delimiter, name)))


def iter_columns(source: Source, delimiter: str | None = None, name: str | None = None) -> Iterator[Block]:
    """The sentences of a column file one :class:`Block` at a time, as :func:`read_columns` reads them;
    ``name`` names the source in messages (default: its path, or ``<lines>``)."""
    split, name = _splitter(delimiter), name or _name(source)
    if isinstance(source, (str, bytes, os.PathLike)):
        return _file_blocks(source, delimiter, name)
    if isinstance(source, (io.RawIOBase, io.BufferedIOBase)):
        raise TypeError(f"{name}: a file opened in binary mode; open it as text (open(path, encoding='utf-8')), "
                        "or pass its path")
    if isinstance(source, io.TextIOBase) and (delimiter is None or "\n" not in delimiter):
        return read_sentences(source, split=split, separator=delimiter, name=name)
    return read_blocks(source, split=split, name=name)


def _file_blocks(path: PathLike, delimiter: str | None, name: str) -> Iterator[Block]:
    with open(os.fsdecode(path), encoding="utf-8") as handle:
        yield from iter_columns(handle, delimiter, name)


ASCII_WHITESPACE = " \t\n\r\f\v"
"""What splits a line's fields when no delimiter is given: runs of ASCII whitespace, conlleval.pl's ``\\s`` (Perl
reads the file's bytes). A no-break space, U+2028 and the rest of Unicode's whitespace stay inside a token."""
_FIELDS = re.compile(f"[{ASCII_WHITESPACE}]+")


def whitespace_fields(line: str) -> list[str]:
    r"""A line's fields split at runs of :data:`ASCII_WHITESPACE` (none for a blank line).

    >>> whitespace_fields("EU\u00a0x  B-ORG\r\n")
    ['EU\xa0x', 'B-ORG']
    """
    fields = _FIELDS.split(line.strip(ASCII_WHITESPACE))
    return [] if fields == [""] else fields


def _splitter(delimiter: str | None) -> Callable[[str], list[str]]:
    if delimiter == "":
        raise ValueError("the column delimiter is empty; pass one (or none, to split on runs of ASCII whitespace)")

    if delimiter is None:
        return whitespace_fields

    def split(line: str) -> list[str]:
        fields = line.rstrip("\r\n").split(delimiter)
        return [] if fields == [""] else fields

    return split


def check_same_tokens(gold: ColumnFile, pred: ColumnFile) -> None:
    """Raise ValueError at the first sentence and token where two files stop aligning (indices from 0, as in
    the Python API; the commands say where in the files, counting from 1).
    """
    for s, (gold_block, pred_block) in enumerate(zip(gold.blocks, pred.blocks)):
        g, p = gold_block.column(0), pred_block.column(0)
        if g == p:
            continue
        for t, (gt, pt) in enumerate(zip(g, p)):
            if gt != pt:
                raise ValueError(
                    f"files do not align at sentence {s}, token {t}: {gold.name} line {gold.lines[s] + t} "
                    f"has {quote(gt)} but {pred.name} line {pred.lines[s] + t} has {quote(pt)}"
                )
        raise ValueError(
            f"files do not align at sentence {s} ({gold.name} line {gold.lines[s]}, {pred.name} line "
            f"{pred.lines[s]}): {len(g)} gold tokens but {len(p)} predicted tokens"
        )
    if len(gold.blocks) != len(pred.blocks):
        raise ValueError(
            f"{gold.name} has {len(gold.tokens)} sentences but {pred.name} has {len(pred.tokens)}; "
            "they must align sentence by sentence"
        )


def column_scores(file: ColumnFile, spans: Sequence[Sequence[tuple[int, int, str]]], index: int) -> list[list[float]]:
    """Each span's score from column ``index`` (a list index) of a column file: the mean of its tokens' scores
    (:func:`~nested_span_f1.core.scored.mean_score`, so a tagger that writes its span's score on every token gives
    that score); only the tokens of spans are read.

    Raises:
        ValueError: a token's score that is not a finite number, naming the file, the line, the column (from 1)
            and the value.
    """
    column = file.column(index)
    out = []
    for s, (found, values) in enumerate(zip(spans, column)):
        row = []
        for start, end, _ in found:
            pieces = []
            for t in range(start, end):
                try:
                    number = float(values[t])
                except ValueError:
                    number = math.nan
                if not math.isfinite(number):
                    place = index + 1 if index >= 0 else file.width + index + 1
                    raise ValueError(f"{file.name}, line {file.lines[s] + t}, column {place}: score {values[t]!r} is "
                                     "not a finite number; the score column holds a number a token (scores outside "
                                     "[0, 1], such as logits, are allowed)")
                pieces.append(number + 0.0)
            row.append(mean_score(pieces))
        out.append(row)
    return out
