"""``nested-span-f1 lenient``: lenient (MUC / SemEval-2013) scores of a prediction file against a gold file.

Either side is a column file (token ... tag, as ``score`` reads) or a file in
any span format of the registry (``nested-span-f1 formats``). Two column files
are scored as tag sequences, exactly as :func:`nested_span_f1.score_lenient`
scores them; otherwise both sides become spans, aligned sentence by sentence.
"""
from __future__ import annotations

import argparse
import json
import sys

from ...formats import Corpus, align
from ...formats.columns import ColumnFile, check_same_tokens
from ...lenient.score import score_lenient, summarize_lenient
from ...render.tables import lenient_table
from . import answers, texts
from .inputs import (
    HelpFormatter,
    Side,
    add_format_options,
    add_tag_options,
    check_outputs,
    decode_tags,
    duplicates_in_output,
    for_people,
    read_side,
    tag_column,
)
from .tables import add_table_options, count_table, is_table
from .texts import add_text_options

EXAMPLE = """examples:
  nested-span-f1 lenient --gold test.gold.conll --pred test.pred.conll
  nested-span-f1 lenient --gold genia.test.jsonl --pred predictions.json --pred-format triaffine --json

Per scheme (strict, exact, partial, type) COR/INC/PAR/MIS/SPU counts and P/R/F1
(partial credit 0.5 unless --partial-weight), then the error breakdown: correct,
type_error, boundary_error, boundary_type_error, missed, spurious."""


def add_parser(sub: argparse._SubParsersAction) -> None:
    p = sub.add_parser(
        "lenient", help="lenient MUC / SemEval-2013 scores of two files, with the error breakdown",
        description="Lenient entity scores (strict, exact, partial, type) of a prediction file against a gold "
                    "file: column files (token ... tag) or any span format `nested-span-f1 formats` lists.",
        epilog=EXAMPLE, formatter_class=HelpFormatter,
    )
    p.add_argument("--gold", required=True, help="gold file: column file or span format")
    p.add_argument("--pred", required=True, help="prediction file, the same sentences as --gold")
    add_format_options(p)
    add_tag_options(p, " of column files")
    p.add_argument("--partial-weight", type=float, default=0.5, help="credit of a partial match, 0 to 1 (default: 0.5)")
    p.add_argument("--min-iou", type=float, default=None, help="least intersection over union of a matched pair "
                                                               "(default: any shared token)")
    p.add_argument("--json", action="store_true", help="print the result as JSON")
    add_table_options(p, spans=True)
    add_text_options(p)
    answers.add_answer_options(p)
    p.set_defaults(run=run)


def _as_corpus(side: Side, args: argparse.Namespace) -> Corpus:
    if isinstance(side, Corpus):
        return side
    spans = decode_tags(side, args.column, scheme=args.scheme, mode=args.mode, suffix=args.suffix)
    return Corpus(side.tokens, spans, format="conll", conversion="tags decoded to spans", source=side.name)


def score_files(args: argparse.Namespace) -> dict:
    """The lenient result of the two files the arguments name."""
    if is_table(args):
        counted = count_table(args, "lenient", scheme=args.scheme, mode=args.mode, suffix=args.suffix,
                              partial_weight=args.partial_weight, min_iou=args.min_iou)
        return summarize_lenient(counted.counts, zero_division=0)
    texts.refuse_text_options(args, "column files or files of token spans")
    gold = read_side(args.gold, args.gold_format, args.delimiter)
    pred = read_side(args.pred, args.pred_format, args.delimiter)
    options = {"partial_weight": args.partial_weight, "min_iou": args.min_iou, "zero_division": 0}
    try:
        with duplicates_in_output():
            if isinstance(gold, ColumnFile) and isinstance(pred, ColumnFile):
                predicted, tags = tag_column(pred, args.column), tag_column(gold, args.column)
                check_same_tokens(gold, pred)
                return score_lenient(predicted, tags, scheme=args.scheme, mode=args.mode, suffix=args.suffix,
                                     **options)
            references, predictions = _as_corpus(gold, args), _as_corpus(pred, args)
            texts.check_units(references, predictions)
            predictions = align(references, predictions)
            result = score_lenient(predictions.spans(), references.spans(), **options)
    except (ValueError, TypeError) as error:
        raise for_people(error, gold, pred) from None
    # the lenient metric scores contiguous spans; say how many discontinuous entities it left out
    skipped = {"unscored_discontinuous_references": references.discontinuous(),
               "unscored_discontinuous_predictions": predictions.discontinuous()}
    return {**result, **{k: v for k, v in skipped.items() if v}}


def run(args: argparse.Namespace) -> int:
    check_outputs([(f"--gold {args.gold}", args.gold), (f"--pred {args.pred}", args.pred)])
    if not is_table(args) and answers.holds_answers(args):
        return answers.run_answers(args, "lenient", partial_weight=args.partial_weight, min_iou=args.min_iou)
    if not is_table(args) and texts.holds_texts(args):
        result, pair, sides = texts.score_files(args, "lenient", partial_weight=args.partial_weight,
                                                min_iou=args.min_iou)
        if args.json:
            sys.stdout.write(texts.dump(result))
            return 0
        lines = [*texts.describe_inputs(args, sides, pair), *texts.alignment_lines(result["alignment"])]
        sys.stdout.write("\n".join(lines) + "\n\n" + lenient_table(result))
        return 0
    result = score_files(args)
    if args.json:
        json.dump(result, sys.stdout, indent=2)
        sys.stdout.write("\n")
        return 0
    found = ("duplicate_", "invalid_", "unscored_")
    notes = "  ".join(f"{k}={v}" for k, v in result.items() if k.startswith(found) and v)
    outside = [scores["strict"] for label, scores in result["per_type"].items() if label.upper() == "O"]
    head = [f"{args.pred} against {args.gold}", *texts.labelled_outside(sum(s["possible"] for s in outside),
                                                                       sum(s["actual"] for s in outside))]
    sys.stdout.write("\n".join(head) + f"\n\n{lenient_table(result)}")
    if notes:
        sys.stdout.write(f"found: {notes}\n")
    return 0
