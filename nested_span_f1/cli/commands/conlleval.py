"""``nested-span-f1 conlleval``: a drop-in for conlleval.pl (CoNLL-2000 shared task scorer).

Same input conventions (fields split by a delimiter regex, the last field the
prediction and the one before it the gold tag, a blank or ``-X-`` line between
sentences, ``-r`` for prefix-less tags, ``-o`` for the outside tag in raw mode,
``-l`` for LaTeX) and the same output. Chunks are decoded with conlleval's own
transition table, so B/I/E/O input of any mix gives conlleval's chunks.
"""
from __future__ import annotations

import argparse
import io
import re
import sys
import warnings
from collections.abc import Callable, Iterable, Iterator
from itertools import chain

from ...core.counts import Counts
from ...core.wording import quote
from ...flat.pipeline import count_exact
from ...flat.schemes import CONLLEVAL_DEFAULT
from ...formats.columns import UTF16_MARKS, not_text, read_blocks, read_sentences
from ...render.tables import conlleval_latex, conlleval_text
from .batches import add_counts
from .inputs import TAGS, Place, add_command, check_outputs, for_people

BOUNDARY = "-X-"


def add_parser(sub: argparse._SubParsersAction) -> None:
    p, output = add_command(
        sub, "conlleval", "paste sample.gold.conll <(cut -f2 sample.pred.conll) | nested-span-f1 conlleval -d '\\t'",
        "A drop-in for conlleval.pl (CoNLL-2000). Reads stdin: one token a line, its fields split by -d (default: "
        "one space), the gold tag in the last-but-one field and the predicted tag in the last, a blank line (or -X-) "
        "between sentences. Prints conlleval.pl's report, character for character; the number after a type's FB1 "
        "counts its predicted phrases.",
        "more examples:\n"
        "  nested-span-f1 conlleval < output.txt        # token [features] gold pred, space-separated\n"
        "  nested-span-f1 conlleval -d '\\t' < output.tsv  # tab-separated: pass -d '\\t'\n"
        "  nested-span-f1 conlleval -r -l < output.txt  # prefix-less tags, LaTeX table",
        usage="%(prog)s [-d DELIMITER] [-r] [-o OUTSIDE] [-l] < FILE",
    )
    output.add_argument("-l", dest="latex", action="store_true", help="print a LaTeX table")
    output.add_argument("file", nargs="?", help=argparse.SUPPRESS)  # only to say that the input comes on stdin
    tags = p.add_argument_group(TAGS)
    tags.add_argument("-d", dest="delimiter", default=" ",
                      help=f"field delimiter, a regex of {DELIMITERS} (default: single space)")
    tags.add_argument("-r", dest="raw", action="store_true", help="tags have no B-/I- prefixes (one token per chunk)")
    tags.add_argument("-o", dest="outside", default="O", help="outside tag in raw mode (default: O)")
    p.set_defaults(run=run)


_ITEM = re.compile(r"""
    \\(?: x[0-9A-Fa-f]{2} | [tnrfa] | [sSdDwW] | [^A-Za-z0-9] )   # an escape: one character (\t, \|), or a class (\s)
  | \[ \^? \]? (?: \\. | [^]\\[] )* \]                             # a set: [ \t], [^ ]
  | [^\\()[\]{}|^$*+?]                                             # any other character but the syntax ('.' too)
""", re.VERBOSE | re.DOTALL)
"""One item of a delimiter, matching one character: what Perl's and Python's regular expressions read alike."""
_REPEAT = re.compile(r"(?: [*?+] | \{ [01] (?:,\d*)? \} ) \??", re.VERBOSE)
"""A repeat of the last item: from 0 or 1 times."""
DELIMITERS = ("characters, escapes (\\t, \\x09, \\|), classes (\\s, [ \\t]) and '.', the last of which may repeat "
              "(+, *, ?, {1,n}), such as ' ', '\\t', '\\s+' or '[ \\t]+'")
"""What ``-d`` takes, for --help and messages."""


def delimiter_pattern(delimiter: str) -> re.Pattern[str]:
    """``-d`` as the regex conlleval.pl splits lines on.

    Perl's regex engine returns at once on some patterns that take Python's
    exponential time (``(a+)+$`` on a line of 41 characters), so ``-d`` is held to
    the patterns that split a line in linear time and that both engines read alike
    (:data:`DELIMITERS`): items matching one character each, the last of which may
    repeat. Classes match ASCII characters only, as Perl's do on the bytes
    conlleval.pl reads.

    Raises:
        ValueError: any other pattern (groups, alternatives, anchors, back-references,
            an inner repeat, a POSIX class), or one that matches the empty string.
    """
    try:
        with warnings.catch_warnings():  # Perl's [[:space:]] is a nested set to Python, refused below
            warnings.simplefilter("ignore", FutureWarning)
            pattern = re.compile(delimiter, re.ASCII)
    except re.error as error:
        raise ValueError(f"-d {quote(delimiter)} is not a regular expression ({error})") from None
    at = 0
    while at < len(delimiter):
        item = _ITEM.match(delimiter, at)
        repeat = _REPEAT.match(delimiter, item.end()) if item else None
        at = (repeat or item).end() if item else at
        if item is None or (repeat and at < len(delimiter)):
            raise ValueError(f"-d {quote(delimiter)}: a delimiter is made of {DELIMITERS}; anything else (groups, "
                             "alternatives, anchors, inner repeats, POSIX classes) is refused, as Python's regex "
                             "engine can take exponential time on it where Perl's does not, or reads it otherwise")
    if pattern.search("") is not None:
        raise ValueError(f"-d {quote(delimiter)} matches the empty string, so it cannot split fields; pass a separator "
                         "such as ' ' (the default) or '\\t'")
    return pattern


def _splitter(pattern: re.Pattern[str]) -> Callable[[str], list[str]]:
    # conlleval.pl chomps only "\n": a "\r" stays in the last field, as in the Perl script
    split = pattern.split

    def fields(line: str) -> list[str]:
        parts = split(line.rstrip("\n"))
        while parts and parts[-1] == "":
            # Perl's split drops trailing empty fields
            parts.pop()
        return parts

    return fields


def _literal(pattern: re.Pattern[str]) -> str | None:
    """The pattern's text when it matches only itself (then lines can be split without the regex engine)."""
    return pattern.pattern if re.escape(pattern.pattern) == pattern.pattern and "\n" not in pattern.pattern else None


def _raw(tag: str, outside: str) -> str:
    tag = "O" if tag == outside else tag
    return tag if tag == "O" else f"B-{tag}"


Tagged = tuple[list[str], list[str], int]
"""One sentence: gold tags, predicted tags, the 1-based line of its first token."""


def read_conlleval(lines: Iterable[str], delimiter: str = " ", raw: bool = False, outside: str = "O",
                   name: str = "<stdin>") -> Iterator[Tagged]:
    """The sentences of conlleval-formatted lines, one at a time.

    Raises ValueError, naming the line, where conlleval.pl stops: a line whose
    number of fields differs from the first line's, or one with fewer than two;
    for Windows line ends, which conlleval.pl misreads (it keeps the carriage
    return in the predicted tag, and stops at the first blank line), and lone
    carriage returns (one line to conlleval.pl); for input that is not UTF-8 text
    (UTF-16, a NUL byte), which conlleval.pl reads as garbage.
    """
    pattern = delimiter_pattern(delimiter)
    if not isinstance(lines, io.TextIOBase):
        lines = io.StringIO("".join(lines))
    first = lines.readline()
    if first.startswith(UTF16_MARKS[2:]):
        raise not_text(name, 1, first)
    if first.endswith("\r\n"):
        raise ValueError(f"{name}, line 1: the line ends in \\r\\n (Windows line ends), which conlleval.pl reads "
                         "as part of the last tag; convert the file first (dos2unix, or tr -d '\\r')")
    if first.endswith("\r"):
        raise ValueError(f"{name}, line 1: the line ends in a lone \\r (classic Mac line ends), which conlleval.pl "
                         "does not read as a line end (it reads the whole file as one line); convert the file first "
                         "(mac2unix, or tr '\\r' '\\n')")
    rest = io.StringIO(first) if first == "" else _Again(first, lines)
    literal = _literal(pattern)
    blocks = read_sentences(rest, split=_splitter(pattern), separator=literal, boundary=BOUNDARY, name=name) \
        if literal else read_blocks(rest, split=_splitter(pattern), boundary=BOUNDARY, name=name)
    for block in blocks:
        if block.width < 2:
            line = delimiter.join(block.fields[:1])
            hint = "; fields are split on one space unless -d says otherwise: pass -d '\\t' for tab-separated input" \
                if "\t" in line and "\t" not in delimiter else ""
            raise ValueError(f"{name}, line {block.line}: fewer than two fields in {quote(line)}{hint}")
        gold, pred = block.column(-2), block.column(-1)
        if raw:
            gold, pred = [_raw(tag, outside) for tag in gold], [_raw(tag, outside) for tag in pred]
        yield gold, pred, block.line


class _Again:
    """A text stream whose first line, already read, is given back first."""

    def __init__(self, first: str, rest: io.TextIOBase) -> None:
        self._first, self._rest = first, rest

    def read(self, size: int = -1, /) -> str:
        first, self._first = self._first, ""
        return first + self._rest.read(size)

    def __iter__(self) -> Iterator[str]:
        first, self._first = self._first, ""
        return chain([first] if first else [], self._rest)


def count_conlleval(sentences: Iterable[Tagged], name: str = "<stdin>") -> Counts:
    """Counts of conlleval's chunks, a batch of sentences at a time; a bad tag is named by its line."""
    def count(batch: list[Tagged], first: int) -> Counts:
        try:
            return count_exact([p for _, p, _ in batch], [g for g, _, _ in batch], default_rules=CONLLEVAL_DEFAULT)
        except (ValueError, TypeError) as error:
            place = Place(name, [line for _, _, line in batch])
            raise for_people(error, place, place, first) from None

    return add_counts(sentences, count, size=lambda sentence: len(sentence[0]))[0]


def run(args: argparse.Namespace) -> int:
    if args.file is not None:
        raise ValueError(f"conlleval reads standard input, as conlleval.pl does: nested-span-f1 conlleval < {args.file}")
    if sys.stdin is None:
        raise ValueError("stdin is closed; pipe the file in: nested-span-f1 conlleval < output.txt")
    check_outputs([("standard input", 0)])
    # conlleval.pl reads bytes and only chomps "\n": keep "\r" and undecodable bytes as they are
    stdin = io.TextIOWrapper(sys.stdin.buffer, encoding="utf-8", errors="surrogateescape", newline="")
    counts = count_conlleval(read_conlleval(stdin, args.delimiter, args.raw, args.outside))
    text = conlleval_latex(counts) if args.latex else conlleval_text(counts)
    sys.stdout.buffer.write(text.encode("utf-8", errors="surrogateescape"))
    return 0
