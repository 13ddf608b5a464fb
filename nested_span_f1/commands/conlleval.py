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
from collections.abc import Iterable

from ..conll import read_blocks
from ..flat import count_tags
from ..report import conlleval_latex, conlleval_text
from ..schemes import CONLLEVAL_DEFAULT

BOUNDARY = "-X-"


def add_parser(sub: argparse._SubParsersAction) -> None:
    p = sub.add_parser(
        "conlleval", help="drop-in for conlleval.pl: reads stdin, prints its report",
        description="A drop-in for conlleval.pl (CoNLL-2000). Reads stdin: one token a line, its\n"
                    "fields split by -d (default: one space), the gold tag in the last-but-one field\n"
                    "and the predicted tag in the last, a blank line (or -X-) between sentences.\n"
                    "Prints conlleval.pl's report, character for character; the number after a\n"
                    "type's FB1 counts its predicted phrases.",
        epilog="examples:\n"
               "  nested-span-f1 conlleval < output.txt        # token [features] gold pred, space-separated\n"
               "  nested-span-f1 conlleval -d '\\t' < output.tsv  # tab-separated: pass -d '\\t'\n"
               "  nested-span-f1 conlleval -r -l < output.txt  # prefix-less tags, LaTeX table",
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    p.add_argument("-d", dest="delimiter", default=" ", help="field delimiter, a regex (default: single space)")
    p.add_argument("-r", dest="raw", action="store_true", help="tags have no B-/I- prefixes (one token per chunk)")
    p.add_argument("-o", dest="outside", default="O", help="outside tag in raw mode (default: O)")
    p.add_argument("-l", dest="latex", action="store_true", help="print a LaTeX table")
    p.set_defaults(run=run)


def _fields(line: str, delimiter: re.Pattern[str]) -> list[str]:
    fields = delimiter.split(line)
    while fields and fields[-1] == "":
        # Perl's split drops trailing empty fields
        fields.pop()
    return fields


def _raw(tag: str, outside: str) -> str:
    tag = "O" if tag == outside else tag
    return tag if tag == "O" else f"B-{tag}"


def read_conlleval(lines: Iterable[str], delimiter: str = " ", raw: bool = False, outside: str = "O") -> tuple[list[list[str]], list[list[str]]]:
    """Gold and predicted tag sentences from conlleval-formatted lines.

    Raises ValueError, naming the line, where conlleval.pl stops: a line whose
    number of fields differs from the first line's, or one with fewer than two.
    """
    pattern = re.compile(delimiter)
    gold: list[list[str]] = []
    pred: list[list[str]] = []
    # conlleval.pl chomps only "\n": a "\r" stays in the last field, as in the Perl script
    for block in read_blocks(lines, split=lambda line: _fields(line.rstrip("\n"), pattern), boundary=BOUNDARY,
                             name="<stdin>"):
        for number, fields in enumerate(block.rows, block.line):
            if len(fields) < 2:
                line = delimiter.join(fields)
                hint = "; fields are split on one space unless -d says otherwise: pass -d '\\t' for tab-separated input" \
                    if "\t" in line and "\t" not in delimiter else ""
                raise ValueError(f"<stdin>, line {number}: fewer than two fields in {line!r}{hint}")
        gold.append([_raw(f[-2], outside) if raw else f[-2] for f in block.rows])
        pred.append([_raw(f[-1], outside) if raw else f[-1] for f in block.rows])
    return gold, pred


def run(args: argparse.Namespace) -> int:
    # conlleval.pl reads bytes and only chomps "\n": keep "\r" and undecodable bytes as they are
    stdin = io.TextIOWrapper(sys.stdin.buffer, encoding="utf-8", errors="surrogateescape", newline="")
    gold, pred = read_conlleval(stdin, args.delimiter, args.raw, args.outside)
    counts = count_tags(pred, gold, default_rules=CONLLEVAL_DEFAULT)
    text = conlleval_latex(counts) if args.latex else conlleval_text(counts)
    sys.stdout.buffer.write(text.encode("utf-8", errors="surrogateescape"))
    return 0
