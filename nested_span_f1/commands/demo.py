"""``nested-span-f1 demo``: the main job on the sample data shipped with the package."""
from __future__ import annotations

import argparse
import sys
from pathlib import Path

from ..conll import check_same_tokens, read_columns
from ..flat import count_tags
from ..report import conlleval_text, table
from ..scores import summarize

SAMPLES = Path(__file__).resolve().parent.parent / "sample_data"


def add_parser(sub: argparse._SubParsersAction) -> None:
    p = sub.add_parser("demo", help="score the sample data shipped with the package")
    p.set_defaults(run=run)


def run(args: argparse.Namespace) -> int:
    gold = read_columns(SAMPLES / "sample.gold.conll")
    pred = read_columns(SAMPLES / "sample.pred.conll")
    check_same_tokens(gold, pred)
    out = sys.stdout
    out.write(f"Flat span F1 on the shipped sample ({len(gold.tokens)} sentences, IOB2)\n\n")
    for mode in (None, "strict"):
        counts = count_tags(pred.column(), gold.column(), scheme="IOB2", mode=mode)
        out.write(f"--- mode={mode or 'default'} (seqeval {'strict' if mode else 'default'}) ---\n")
        out.write(table(summarize(counts, zero_division=0)))
        out.write("\n")
    out.write("--- conlleval.pl view ---\n")
    out.write(conlleval_text(count_tags(pred.column(), gold.column())))
    return 0
