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

from ...lenient.score import summarize_lenient
from ...render.tables import lenient_table
from . import answers, texts
from .files import holds_answers, score_files
from .inputs import add_command, add_format_options, add_tag_options, check_outputs
from .tables import add_table_options, count_table, is_table
from .texts import add_text_options

EXAMPLES = """more examples:
  nested-span-f1 lenient --gold test.gold.conll --pred test.pred.conll --partial-weight 0 --json
  nested-span-f1 lenient --gold genia.test.jsonl --pred predictions.json --pred-format triaffine --json

Per scheme (strict, exact, partial, type) COR/INC/PAR/MIS/SPU counts and P/R/F1
(partial credit 0.5 unless --partial-weight), then the error breakdown: correct,
type_error, boundary_error, boundary_type_error, missed, spurious."""


def add_parser(sub: argparse._SubParsersAction) -> None:
    p, io = add_command(
        sub, "lenient", "nested-span-f1 lenient --gold sample.gold.conll --pred sample.pred.conll",
        "Lenient entity scores (strict, exact, partial, type) of a prediction file against a gold file: column "
        "files (token ... tag) or any span format `nested-span-f1 formats` lists.",
        EXAMPLES, usage="%(prog)s --gold GOLD --pred PRED [options]",
    )
    io.add_argument("--gold", required=True, help="gold file: column file or span format")
    io.add_argument("--pred", required=True, help="prediction file, the same sentences as --gold")
    io.add_argument("--json", action="store_true", help="print the result as JSON")
    matching = p.add_argument_group("matching")
    matching.add_argument("--partial-weight", type=float, default=0.5, metavar="WEIGHT",
                          help="credit of a partial match, 0 to 1 (default: 0.5)")
    matching.add_argument("--min-iou", type=float, default=None, metavar="IOU",
                          help="least intersection over union of a matched pair (default: any shared token)")
    add_tag_options(p, " of column files")
    add_format_options(p)
    add_text_options(p)
    answers.add_answer_options(p)
    add_table_options(p, spans=True)
    p.set_defaults(run=run)


def run(args: argparse.Namespace) -> int:
    check_outputs([(f"--gold {args.gold}", args.gold), (f"--pred {args.pred}", args.pred)])
    options = {"partial_weight": args.partial_weight, "min_iou": args.min_iou}
    if is_table(args):
        counted = count_table(args, "lenient", scheme=args.scheme, mode=args.mode, suffix=args.suffix, **options)
        result = summarize_lenient(counted.counts, zero_division=0)
    elif holds_answers(args):
        return answers.run_answers(args, "lenient", **options)
    else:
        result, pair, sides = score_files(args, "lenient", **options)
        if pair is not None and sides is not None:  # texts: what was read and how every span was aligned
            if args.json:
                sys.stdout.write(texts.dump(result))
                return 0
            lines = [*texts.describe_inputs(args, sides, pair), *texts.alignment_lines(result["alignment"])]
            sys.stdout.write("\n".join(lines) + "\n\n" + lenient_table(result))
            return 0
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
