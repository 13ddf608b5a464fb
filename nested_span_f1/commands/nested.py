"""``nested-span-f1 nested``: score a nested-NER prediction file against a gold file.

Prints the test set's size first (GENIA alone has two test splits in use whose
scores are not comparable), then what was found in the inputs (duplicates,
crossing spans, discontinuous entities), then overall, per-type and breakdown
tables.
"""
from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Mapping
from typing import Any

from ..formats import FORMATS, Corpus, align, read_corpus
from ..nested import count_nested, describe_spans, summarize_nested
from ..report import table
from .inputs import HelpFormatter, duplicates_in_output, for_people, format_name

BREAKDOWN_TITLES = {
    "by_nesting": "nested vs flat",
    "by_depth": "nesting depth (1 = outermost)",
    "by_length": "span length (tokens)",
    "by_continuity": "contiguous vs discontinuous",
}


def _epilog() -> str:
    known = "\n".join(f"  {f.describe()}" for f in FORMATS.values())
    return f"""examples:
  nested-span-f1 nested --gold genia.test.jsonl --pred predictions.jsonl
  nested-span-f1 nested --gold test.json --pred pred.txt --gold-format w2ner --pred-format biaffine --json

formats (detected, or named with --gold-format / --pred-format; aliases work too;
`nested-span-f1 formats` shows one sentence in each):
{known}"""


def add_parser(sub: argparse._SubParsersAction) -> None:
    p = sub.add_parser(
        "nested", help="exact span F1 of nested entity files, with nested/depth/length breakdowns",
        description="Exact span F1 of a nested-NER prediction file against a gold file (overlapping and nested "
                    "spans allowed), with breakdowns by nesting, depth, length and continuity. Prints the test "
                    "set's size first: GENIA's two test splits in use give scores that are not comparable.",
        epilog=_epilog(), formatter_class=HelpFormatter,
    )
    p.add_argument("--gold", required=True, help="gold file in one of the nested-NER formats")
    p.add_argument("--pred", required=True, help="prediction file (same sentences as --gold)")
    p.add_argument("--gold-format", type=format_name, metavar="FORMAT", help="format of --gold (default: detected)")
    p.add_argument("--pred-format", type=format_name, metavar="FORMAT", help="format of --pred (default: detected)")
    p.add_argument("--json", action="store_true", help="print the result as JSON")
    p.set_defaults(run=run)


def score_corpora(gold: Corpus, pred: Corpus) -> dict[str, Any]:
    """The nested result of two aligned corpora; duplicates are counted in the result, not warned about."""
    with duplicates_in_output():
        return summarize_nested(count_nested(pred.entities, gold.entities, lengths=gold.lengths), zero_division=0)


def breakdown_table(buckets: Mapping[str, Mapping[str, Any]], title: str, digits: int = 4) -> str:
    """One breakdown as a table: bucket, precision, recall, f1, gold number, predicted."""
    width = max([len(b) for b in buckets] + [8])
    lines = [f"{title}", f"{'':>{width}}  {'precision':>9}  {'recall':>9}  {'f1':>9}  {'number':>7}  {'predicted':>9}"]
    for name, row in buckets.items():
        lines.append(f"{name:>{width}}  {row['precision']:>9.{digits}f}  {row['recall']:>9.{digits}f}  "
                     f"{row['f1']:>9.{digits}f}  {row['number']:>7}  {row['predicted']:>9}")
    return "\n".join(lines) + "\n"


def run(args: argparse.Namespace) -> int:
    try:
        gold = read_corpus(args.gold, args.gold_format)
        pred = align(gold, read_corpus(args.pred, args.pred_format))
        result = score_corpora(gold, pred)
    except (ValueError, TypeError) as error:
        raise for_people(error) from None
    by_id = gold.sentence_ids is not None and pred.sentence_ids is not None
    size = {**describe_spans(gold.spans(), gold.lengths), "discontinuous": gold.discontinuous()}
    if args.json:
        json.dump({"test_set": size, **result}, sys.stdout, indent=2)
        sys.stdout.write("\n")
        return 0
    out = [
        f"gold:        {args.gold} ({gold.format}; {gold.conversion})",
        f"predictions: {args.pred} ({pred.format}; {pred.conversion})",
        f"aligned by {'sentence id' if by_id else 'order'}",
        (f"test set: {size['sentences']} sentences, {size['tokens']} tokens, {size['entities']} entities "
         f"({size['multi_label_spans']} spans with several labels, {size['discontinuous']} discontinuous), "
         f"{100 * size['nested_share']:.1f}% nested, max depth {size['max_depth']}"),
        (f"found: duplicates {result['duplicate_references']} gold / {result['duplicate_predictions']} predicted; "
         f"crossing pairs {result['crossing_references']} gold / {result['crossing_predictions']} predicted; "
         f"discontinuous {result['discontinuous_references']} gold / {result['discontinuous_predictions']} predicted"),
        "",
        table(result),
    ]
    out += [breakdown_table(result[key], title) for key, title in BREAKDOWN_TITLES.items() if key in result]
    sys.stdout.write("\n".join(out))
    return 0
