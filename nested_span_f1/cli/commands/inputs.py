"""What the commands share at the edge: reading the files they score and telling people where a problem is.

The core names sentences and tokens from 0 (the Python API's indices); people
count sentences, tokens, lines and columns from 1. The commands convert with
:func:`~nested_span_f1.formats.places.for_people` (re-exported here), where the file
line of every sentence is known; the Space converts with it too.
"""
from __future__ import annotations

import argparse
import filecmp
import io
import os
import re
import stat
import sys
import textwrap
import warnings
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from typing import Any

from ...core.matching import DuplicateSpanWarning
from ...core.progress import bar
from ...core.wording import quote
from ...flat.pipeline import tags_to_spans
from ...flat.schemes import SCHEMES
from ...formats import PATH_FORMATS, Corpus, UnknownFormat, detect_format, get_format
from ...formats.columns import Block, ColumnFile, iter_columns, read_columns, read_text
from ...formats.offsets import CODEPOINTS
from ...formats.places import Place as Place
from ...formats.places import for_people as for_people
from ...formats.places import in_file
from ...formats.registry import head, looks_like_json, read_as, read_file

LARGE_FILE = 10_000_000
"""Bytes from which reading a column file shows a progress bar: about a million ``token tag`` lines."""

COLUMNS = "conll"
"""The format name of token-per-line column files, beside the span formats of the registry."""

class HelpFormatter(argparse.RawDescriptionHelpFormatter):
    """Wraps prose paragraphs of a description or epilog to the terminal; keeps indented lines (examples)
    as written."""

    def _fill_text(self, text: str, width: int, indent: str) -> str:
        paragraphs = []
        for paragraph in text.split("\n\n"):
            if any(line.startswith(" ") for line in paragraph.splitlines()):
                paragraphs.append(textwrap.indent(paragraph, indent))
            else:
                paragraphs.append(textwrap.fill(" ".join(paragraph.split()), width, initial_indent=indent,
                                                subsequent_indent=indent))
        return "\n\n".join(paragraphs)


TAGS = "tags (column files: token ... tag, a blank line between sentences)"
TEXTS = "texts and brat (text spans, pipeline output, brat, spaCy DocBin)"
ANSWER_OPTIONS = "answers (a language model's, when --pred holds them)"
"""The titles of the option groups by input kind, the same on every command that takes that input."""

SAMPLES = "example, run in a copy of the sample folder `nested-span-f1 demo --help` names:"
"""What a command's example runs on: the sample data shipped with the package, in a copy of their folder (an
example that writes, as convert's, writes there, not into the installed package)."""


def add_command(sub: argparse._SubParsersAction, name: str, example: str, description: str, epilog: str | None = None,
                usage: str | None = None, where: str = SAMPLES) -> tuple[argparse.ArgumentParser, Any]:
    """A command's parser, and its first option group, "input and output" (``-h`` in it): the help starts with the
    usage (``usage``, else argparse's), then one example (``where`` says what it runs on), then the description;
    the options follow in groups by input kind (:data:`TAGS`, :data:`TEXTS`, :data:`ANSWER_OPTIONS`), ``epilog``
    (more examples, notes) last."""
    parser = sub.add_parser(name, usage=usage, add_help=False, description=f"{where}\n  {example}\n\n{description}",
                            epilog=epilog, formatter_class=HelpFormatter)
    group = parser.add_argument_group("input and output")
    group.add_argument("-h", "--help", action="help", help="show this help and exit")
    return parser, group


def format_name(value: str) -> str:
    """An argparse type: any format name or alias the registry knows, as its canonical name (or a path format:
    brat, spacy)."""
    if value.lower() in PATH_FORMATS:
        return value.lower()
    try:
        return get_format(value).name
    except ValueError as error:
        raise argparse.ArgumentTypeError(f"{error} (`nested-span-f1 formats` describes each)") from None


ANSWERS = "answers"
"""The format name of a file of answers (entity lists or raw answers, no offsets)."""


def column_or_format(value: str) -> str:
    """An argparse type: ``conll`` (column files), ``answers`` (entity lists) or a span format name or alias."""
    if value.lower() == ANSWERS:
        return ANSWERS
    return COLUMNS if value.lower() in (COLUMNS, "columns") else format_name(value)


def add_format_options(parser: argparse.ArgumentParser, gold: str = "--gold", pred: str = "--pred") -> None:
    """``--gold-format`` and ``--pred-format``, in a group of their own: the same two options, with the same values,
    on every command that reads a gold and a prediction file (``score``, ``lenient``, ``nested``, ``answers``,
    ``benchmark``, ``thresholds``), the only way any command names an input's format; ``gold`` and ``pred`` name
    the files each applies to in its help."""
    group = parser.add_argument_group("formats (detected unless named)")
    group.add_argument("--gold-format", type=column_or_format, metavar="FORMAT",
                       help=f"format of {gold}: conll (tag columns) or a span format or alias `nested-span-f1 "
                            "formats` lists, brat, spacy (default: detected from the whole first records)")
    group.add_argument("--pred-format", type=column_or_format, metavar="FORMAT",
                       help=f"format of {pred}, as --gold-format takes it, or answers (a language model's "
                            "answers; default: detected)")


def column_index(value: str) -> int:
    """An argparse type: a column counted from 1 (the token) or from the end (-1, the last) to a list index."""
    try:
        number = int(value)
    except ValueError:
        raise argparse.ArgumentTypeError(f"a column number is an integer, got {quote(value)}") from None
    if number == 0:
        raise argparse.ArgumentTypeError("columns count from 1 (the token) or from the end (-1, the last); 0 is none")
    if number == 1:
        raise argparse.ArgumentTypeError("column 1 holds the tokens; tags are in column 2 or later (default: the last)")
    return number - 1 if number > 0 else number


def add_tag_options(parser: argparse.ArgumentParser, where: str = "") -> Any:
    """The options that say how tags are read, in the group :data:`TAGS`: ``--scheme``, ``--mode``, ``--suffix``,
    ``--column``, ``--delimiter`` (the group returned). ``where`` narrows their help to some inputs (" of column
    files")."""
    group = parser.add_argument_group(TAGS)
    group.add_argument("--scheme", choices=sorted(SCHEMES), metavar="SCHEME",
                       help=f"tagging scheme{where} for --mode strict: {', '.join(sorted(SCHEMES))} (default: "
                            "detected)")
    group.add_argument("--mode", choices=["strict"], help="strict: drop chunks the scheme does not allow")
    group.add_argument("--suffix", action="store_true", help="tags are TYPE-B rather than B-TYPE")
    group.add_argument("--column", type=column_index, default=-1, metavar="N",
                       help=f"tag column{where}, counted from 1 (the token) or from the end (default: -1, the last)")
    group.add_argument("--delimiter", type=delimiter_type, default=None, metavar="TEXT",
                       help="column delimiter, '\\t' a tab, as conlleval.pl -d (default: runs of ASCII whitespace)")
    return group


_ESCAPE = re.compile(r"\\(x[0-9A-Fa-f]{2}|.?)", re.DOTALL)
_ESCAPED_CHARACTERS = {"t": "\t", "n": "\n", "r": "\r", "f": "\f", "a": "\a"}


def read_delimiter(text: str) -> str:
    """A delimiter as typed on a command line, as the characters it stands for.

    A backslash escapes as in a regular expression, the spelling of conlleval.pl's
    ``-d``: ``\\t`` is a tab (also ``\\n``, ``\\r``, ``\\f``, ``\\a``), ``\\x09`` the
    character of that code, and a backslash before any other character that is
    not a letter or digit stands for that character (``\\|``, ``\\\\``). Any other
    character stands for itself (no regex syntax: ``|`` is a bar).

    Raises:
        ValueError: a class such as ``\\s`` or another escape that stands for no one character.
    """
    def character(match: re.Match[str]) -> str:
        code = match.group(1)
        if len(code) == 3:
            return chr(int(code[1:], 16))
        if code in _ESCAPED_CHARACTERS:
            return _ESCAPED_CHARACTERS[code]
        if code and not code.isalnum():
            return code
        raise ValueError(f"{quote(text)}: \\{code} stands for no one character; a delimiter is fixed text in which "
                         "\\t is a tab and \\x09 a character by its code (to split on runs of ASCII whitespace, give no "
                         "delimiter)")

    return _ESCAPE.sub(character, text)


def delimiter_type(text: str) -> str:
    """An argparse type: :func:`read_delimiter`."""
    try:
        return read_delimiter(text)
    except ValueError as error:
        raise argparse.ArgumentTypeError(str(error)) from None


FilePath = str | os.PathLike[str]
Identity = tuple[str, tuple[int, int] | None]


def _identity(path: FilePath | int) -> Identity | None:
    """A file's resolved path (symbolic links followed; none for a file descriptor) and, when it exists, its
    device and inode, which hard links share; None for a device or a pipe, which writing destroys nothing of."""
    resolved = "" if isinstance(path, int) else os.path.realpath(path)
    try:
        found = os.stat(path)
    except (OSError, ValueError):
        return resolved, None
    if not (stat.S_ISREG(found.st_mode) or stat.S_ISDIR(found.st_mode)):
        return None
    return resolved, (found.st_dev, found.st_ino)


def _same(a: Identity | None, b: Identity | None) -> bool:
    return a is not None and b is not None and ((a[0] != "" and a[0] == b[0]) or (a[1] is not None and a[1] == b[1]))


def same_data(a: FilePath, b: FilePath) -> str | None:
    """How two input paths hold one set of data: ``"the same file"`` (one path resolved, or a hard link),
    ``"a copy of it (the same bytes)"`` (two regular files of equal content), else None."""
    if _same(_identity(a), _identity(b)):
        return "the same file"
    if os.path.isfile(a) and os.path.isfile(b) and filecmp.cmp(a, b, shallow=False):
        return "a copy of it (the same bytes)"
    return None


def check_outputs(inputs: Sequence[tuple[str, FilePath | int | None]],
                  outputs: Sequence[tuple[str, FilePath | None]] = (), folders: Sequence[str] = ()) -> None:
    """Refuse a command line whose output would be written over one of its inputs, before anything is read.

    ``inputs`` are ``(how the message names it, path)`` pairs (``("--gold g.jsonl",
    "g.jsonl")``; a path may be None, or a file descriptor: 0 for standard input);
    ``outputs`` are ``(option, path)`` pairs (None where the option is not given).
    Two paths are one file when they resolve to the same path (symbolic links
    followed) or are the same device and inode (hard links). Standard output
    counts as an output when it is redirected to a file, and the outputs may not
    name one file twice; an output in a folder that does not exist, and one that
    is a folder (but for the options in ``folders``, which write one), are refused
    too, so that nothing is scored that cannot be written. Every command that
    writes calls this first.

    Raises:
        ValueError: naming the output and the input.
    """
    for flag, target in outputs:
        if target is None:
            continue
        parent = os.path.dirname(os.path.abspath(target))
        if not os.path.isdir(parent):
            state = "is not a folder" if os.path.exists(parent) else "does not exist"
            raise ValueError(f"{flag} {target}: the folder {parent} {state}")
        if flag not in folders and os.path.isdir(target):
            raise ValueError(f"{flag} {target} is a folder; give the name of a file to write")
    written: list[tuple[str, FilePath | int]] = [(what, path) for what, path in outputs if path is not None]
    try:
        if stat.S_ISREG(os.fstat(sys.stdout.fileno()).st_mode):
            written.append(("standard output", sys.stdout.fileno()))
    except (AttributeError, OSError, ValueError):  # no stdout, or not a file (a pipe, a test's capture)
        pass
    read = [(what, _identity(path)) for what, path in inputs if path is not None]
    seen: list[tuple[str, FilePath | int, Identity | None]] = []
    for option, path in written:
        identity = _identity(path)
        for what, known in read:
            if _same(identity, known):
                if isinstance(path, int):
                    raise ValueError(f"standard output is redirected to {what}, an input; redirect it to another file")
                raise ValueError(f"{option} {path} would overwrite {what}, an input; write to another file")
        for other, earlier, known in seen:
            if _same(identity, known):
                raise ValueError(f"{other} and {option} name one file, {earlier}; give each its own")
        seen.append((option, path, identity))


PLOT_SUFFIXES = (".png", ".svg", ".pdf")
"""The file types ``--plot`` writes."""


def check_plot_file(path: str) -> None:
    """Fail before any scoring when a plot cannot be drawn to ``path``: no matplotlib (ModuleNotFoundError, which
    the CLI answers with the extra to install) or a file type other than .png, .svg and .pdf."""
    import matplotlib  # noqa: F401

    if not path.lower().endswith(PLOT_SUFFIXES):
        raise ValueError(f"--plot {path}: a plot is written as .png, .svg or .pdf")


def tag_column(file: ColumnFile, index: int) -> list[list[str]]:
    """Column ``index`` (a list index, from :func:`column_index`) of every sentence, checked against the
    file's width first so that the message counts columns as the user does."""
    width = file.width
    if file.blocks and width == 1:
        raise ValueError(f"{file.name}: one column (line {file.lines[0]}); each line holds a token, then its tag, "
                         "split by whitespace (or by --delimiter)")
    if file.blocks and not -width <= index < width:
        number = index + 1 if index >= 0 else index
        raise ValueError(f"{file.name}: --column {number} is beyond the file's {width} columns "
                         f"(line {file.lines[0]}); columns count from 1, or from the end with -1")
    if file.blocks and index in (0, -width):
        raise ValueError(f"{file.name}: column 1 holds the tokens ({width} columns); pass the tag column")
    return file.column(index)


def decode_tags(file: ColumnFile, column: int = -1, **options: Any) -> list[list[tuple[int, int, str]]]:
    """The spans of a column file's tags (:func:`tag_column`, then ``tags_to_spans`` with ``options``: scheme, mode,
    suffix); a bad tag named by the file and its line."""
    tags = tag_column(file, column)
    try:
        return tags_to_spans(tags, **options)
    except ValueError as error:
        raise in_file(error, file) from None


def progress(path: str) -> Any:
    """A bar over the file's bytes (:func:`~nested_span_f1.core.progress.bar`), switched off below :data:`LARGE_FILE`."""
    size = os.path.getsize(path)
    return bar(size, os.path.basename(path), "B", show=size >= LARGE_FILE, unit_scale=True)


def column_blocks(path: str, delimiter: str | None = None) -> Iterator[Block]:
    """The sentences of a column file one at a time (:func:`iter_columns`), with a progress bar for large files."""
    with progress(path) as bar, open(path, encoding="utf-8") as handle:
        for number, block in enumerate(iter_columns(handle, delimiter, name=path), 1):
            if number % 4096 == 0 and not bar.disable:
                bar.update(os.lseek(handle.fileno(), 0, os.SEEK_CUR) - bar.n)
            yield block
        bar.update(bar.total - bar.n)


def read_column_file(path: str, delimiter: str | None = None) -> ColumnFile:
    """:func:`read_columns`, with a progress bar on stderr for large files when stderr is a terminal."""
    return ColumnFile(path, list(column_blocks(path, delimiter)))


Side = ColumnFile | Corpus


def read_side(path: str, format: str | None = None, delimiter: str | None = None, offsets: str = CODEPOINTS) -> Side:
    """A column file (``format="conll"``, or a file no span format recognises) or a span corpus (``offsets``: what
    the character offsets of a file of texts count, :func:`~nested_span_f1.formats.registry.read_file`).

    Detection reads files below :data:`LARGE_FILE` only; a larger file is a span
    corpus when it starts as json (:func:`~nested_span_f1.formats.registry.looks_like_json`) and a column file
    otherwise.
    """
    if format == COLUMNS:
        return read_column_file(path, delimiter)
    if format:
        return read_file(path, format, offsets=offsets)
    if os.path.getsize(path) >= LARGE_FILE:
        return read_file(path, offsets=offsets) if looks_like_json(head(path, 2)) else read_column_file(path, delimiter)
    text = read_text(path)  # read once: a pipe cannot be read again
    try:
        name = detect_format(text, path)
    except UnknownFormat:
        return read_columns(io.StringIO(text), delimiter, name=path)
    return read_as(name, text, path, offsets=offsets)


@contextmanager
def duplicates_in_output() -> Iterator[None]:
    """Silence the core's DuplicateSpanWarning for the call inside: the command prints the counts instead."""
    with warnings.catch_warnings():
        warnings.filterwarnings("ignore", category=DuplicateSpanWarning)
        yield
