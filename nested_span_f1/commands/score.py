"""``nested-span-f1 score``: score a predicted column file against a gold one."""
from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

from ..conll import check_same_tokens, read_columns
from ..flat import score_tags
from ..report import table
from ..schemes import SCHEMES


def add_parser(sub: argparse._SubParsersAction) -> None:
    p = sub.add_parser("score", help="span F1 of two token-aligned column files (gold, predictions)")
    p.add_argument("--gold", required=True, help="gold column file: token ... tag, blank line between sentences")
    p.add_argument("--pred", required=True, help="predicted column file, token-aligned with --gold")
    p.add_argument("--scheme", choices=sorted(SCHEMES), help="tagging scheme (needed for --mode strict)")
    p.add_argument("--mode", choices=["strict"], help="strict: drop chunks the scheme does not allow")
    p.add_argument("--suffix", action="store_true", help="tags are TYPE-B rather than B-TYPE")
    p.add_argument("--column", type=int, default=-1, help="tag column (default: the last)")
    p.add_argument("--delimiter", default=None, help="column delimiter (default: any whitespace)")
    p.add_argument("--json", action="store_true", help="print the result as JSON")
    p.add_argument("--plot", metavar="FILE", help="also draw per-type P/R/F1 to FILE (.png, .svg, .pdf)")
    p.set_defaults(run=run)


def run(args: argparse.Namespace) -> int:
    gold = read_columns(args.gold, args.delimiter)
    pred = read_columns(args.pred, args.delimiter)
    check_same_tokens(gold, pred)
    result = score_tags(
        pred.column(args.column), gold.column(args.column),
        scheme=args.scheme, mode=args.mode, suffix=args.suffix,
    )
    if args.json:
        json.dump(result, sys.stdout, indent=2)
        sys.stdout.write("\n")
    else:
        sys.stdout.write(f"{args.pred} against {args.gold}: {len(gold.tokens)} sentences\n\n")
        sys.stdout.write(table(result))
    if args.plot:
        from ..plots import plot_per_type

        plot_per_type(result, args.plot, title=f"{Path(args.pred).name} against {Path(args.gold).name}")
    return 0
