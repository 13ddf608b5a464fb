"""``nested-span-f1 formats``: the span file formats the commands read, who writes each, and an example.

Every name and alias listed is accepted by ``--gold-format`` / ``--pred-format``
and by :func:`nested_span_f1.formats.read_corpus`. The example of each format
is the writer's own output for one sentence, so the listing cannot drift from
what the readers take.
"""
from __future__ import annotations

import argparse
import sys
import textwrap

from ...formats import FORMATS, PATH_FORMATS
from ...formats.brat import brat_files
from ...formats.registry import EXAMPLE, EXAMPLE_TEXT, aliases_of
from .inputs import COLUMNS, add_command

COLUMN_EXAMPLE = "IL-2\tB-DNA\ngene\tI-DNA\nexpression\tO\n"


def add_parser(sub: argparse._SubParsersAction) -> None:
    p, _ = add_command(
        sub, "formats", "nested-span-f1 formats",
        "The span file formats `nested`, `lenient` and read_corpus() read (detected, or named with --gold-format / "
        "--pred-format), the tools that write each, and one sentence in each.", where="example:",
    )
    p.set_defaults(run=run)


def listing() -> str:
    """Each format: name and aliases, the tools that write it, its end convention, the example sentence."""
    tokens = " ".join(EXAMPLE.tokens[0])
    out = [f"Every example is the sentence {tokens!r} with DNA 'IL-2 gene' and, nested in it, protein 'IL-2'.\n"]
    for name, fmt in FORMATS.items():
        aliases = aliases_of(name)
        out.append(f"{name}" + (f" (also: {', '.join(aliases)})" if aliases else ""))
        out.append(f"  written by: {fmt.used_by}; ends: {fmt.ends}")
        out.append(textwrap.indent(fmt.example().rstrip("\n"), "    "))
        out.append("")
    out.append("brat (a folder of .txt and .ann pairs, or one pair; read and written)")
    out.append(f"  {PATH_FORMATS['brat']}")
    for name, content in brat_files(EXAMPLE_TEXT).items():
        out.append(textwrap.indent(f"{name}:\n{content.rstrip()}", "    "))
    out.append("")
    out.append("spacy (a DocBin file, .spacy; read only)")
    out.append(f"  {PATH_FORMATS['spacy']}")
    out.append("")
    out.append(f"{COLUMNS} (`score`, and `lenient` with --gold-format/--pred-format {COLUMNS} or when no span format fits)")
    out.append("  written by: CoNLL shared tasks, most taggers; token ... tag per line, blank line between sentences")
    out.append(textwrap.indent(COLUMN_EXAMPLE.rstrip("\n"), "    "))
    return "\n".join(out) + "\n"


def run(args: argparse.Namespace) -> int:
    sys.stdout.write(listing())
    return 0
