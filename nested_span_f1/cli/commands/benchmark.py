"""``nested-span-f1 benchmark``: compare prediction sets with bootstrap intervals and paired significance tests.

Prints the Markdown report; ``--json``, ``--markdown``, ``--plot`` and
``--model-card`` also write the other views to files.
"""
from __future__ import annotations

import argparse
import sys

from ... import SCHEMES
from ...benchmark.compare import benchmark
from ...benchmark.inputs import COLUMNS
from ...formats import FORMATS
from .inputs import HelpFormatter, check_plot_file, for_people


def _prediction(text: str) -> tuple[str, str]:
    """``NAME=FILE`` or a bare path (a checkpoint directory, or a file named by its path)."""
    name, sep, path = text.partition("=")
    return (name, path) if sep and name and path else (text, text)


EXAMPLE = """examples:
  nested-span-f1 benchmark --gold test.jsonl --pred base=base.jsonl --pred large=large.jsonl --json out.json --plot out.png
  nested-span-f1 benchmark --gold test.jsonl --pred run=output/          # every checkpoint-STEP of a training run
  nested-span-f1 benchmark --gold test.gold.conll --pred elmo=elmo.conll --pred flair=flair.conll"""


def add_parser(sub: argparse._SubParsersAction) -> None:
    p = sub.add_parser(
        "benchmark", help="compare prediction sets: bootstrap intervals, paired significance tests, report",
        description=("Score prediction sets against one gold file with 95% bootstrap intervals (documents "
                     "resampled when the gold has document ids, else sentences), paired bootstrap and "
                     "approximate-randomization tests (Holm-corrected with more than two systems), and print "
                     "a Markdown report."),
        epilog=EXAMPLE, formatter_class=HelpFormatter,
    )
    p.add_argument("--gold", required=True, help="gold file: a nested-NER format, or CoNLL tag columns")
    p.add_argument("--pred", required=True, action="append", type=_prediction, metavar="NAME=FILE",
                   help="a prediction file named NAME (repeat for more), or a directory of checkpoint-STEP "
                        "files or folders, ordered by step (prediction files are told from logs, metrics and weights "
                        "by what they hold, whatever their names)")
    p.add_argument("--format", choices=[*sorted(FORMATS), COLUMNS],
                   help="format of every file (default: detected; text that no nested reader knows is read "
                        "as CoNLL tag columns, the tag last)")
    p.add_argument("--scheme", choices=sorted(SCHEMES), help="tagging scheme of tag columns (for --mode strict)")
    p.add_argument("--mode", choices=["strict"], help="decoding of tag columns (default: seqeval's default mode)")
    p.add_argument("--units", choices=["auto", "documents", "sentences"], default="auto",
                   help="what is resampled (default: documents when the gold has document ids)")
    p.add_argument("--bootstrap", type=int, default=1000, metavar="N", help="bootstrap resamples (default 1000)")
    p.add_argument("--permutations", type=int, metavar="N",
                   help="approximate-randomization rounds (default: as --bootstrap)")
    p.add_argument("--seed", type=int, default=0, help="random seed (default 0)")
    p.add_argument("--confidence", type=float, default=0.95, help="interval level (default 0.95)")
    p.add_argument("--alpha", type=float, default=0.05, help="significance level after correction (default 0.05)")
    p.add_argument("--json", metavar="OUT", help="write every figure as JSON")
    p.add_argument("--markdown", metavar="OUT", help="write the Markdown report")
    p.add_argument("--plot", metavar="OUT.png", help="draw per-type F1, error categories and F1 against step")
    p.add_argument("--model-card", metavar="OUT.md", help="write a Hub model-index block for the best system")
    p.add_argument("--dataset-name", help="dataset name for the report and model card (default: the gold's file name)")
    p.add_argument("--dataset-type", help="dataset id on the Hub for the model card (default: the name)")
    p.add_argument("--split", default="test", help="dataset split for the model card (default: test)")
    p.add_argument("--no-progress", action="store_true",
                   help="no progress bars (they are drawn only when stderr is a terminal)")
    p.set_defaults(run=run)


def run(args: argparse.Namespace) -> int:
    names = [name for name, _ in args.pred]
    repeated = sorted({n for n in names if names.count(n) > 1})
    if repeated:
        raise ValueError(f"--pred {repeated[0]} is given twice; name each prediction set once")
    if args.plot:
        check_plot_file(args.plot)
    try:
        result = benchmark(
            args.gold, dict(args.pred), n_resamples=args.bootstrap, n_permutations=args.permutations, seed=args.seed,
            confidence=args.confidence, alpha=args.alpha, units_by=args.units, format=args.format, scheme=args.scheme,
            mode=args.mode, dataset=args.dataset_name, progress=not args.no_progress,
        )
    except (ValueError, TypeError) as error:
        raise for_people(error) from None
    sys.stdout.write(result.to_markdown(args.markdown))
    if args.json:
        result.to_json(args.json)
    if args.plot:
        result.plot(args.plot)
    if args.model_card:
        result.model_index(dataset_type=args.dataset_type, split=args.split, path=args.model_card)
    return 0
