"""``nested-span-f1 benchmark``: compare prediction sets with bootstrap intervals and paired significance tests.

Prints the Markdown report (``--json``: every figure as JSON instead); ``--markdown``, ``--html``, ``--plot``
and ``--model-card`` also write the other views to files. No output may be one of
the inputs (the gold, a prediction file, a file of a checkpoint directory), and
every view is made before any file is written, so a failure leaves none behind.
"""
from __future__ import annotations

import argparse
import io
import os
import sys
from pathlib import Path

from ...benchmark.compare import benchmark
from ...benchmark.inputs import checkpoint_files, is_brat_folder
from ...benchmark.options import MAX_ROUNDS, check_level, check_rounds, check_seed
from ...benchmark.pairs import COMPARISONS
from ...benchmark.result import BenchmarkResult
from ...flat.schemes import SCHEMES
from ...render.plots import DPI
from .inputs import TAGS, add_command, add_format_options, check_outputs, check_plot_file, for_people
from .texts import add_text_options


def prediction(text: str) -> tuple[str, str]:
    """An argparse type: ``NAME=FILE`` or a bare path (a checkpoint directory, or a file named by its path).

    A path that exists is taken as it is, ``=`` and all; otherwise an ``=`` with
    nothing before or after it (``=file``, ``a=``) is refused, not looked up as a file.
    """
    name, sep, path = text.partition("=")
    if sep and name.strip() and path:
        return name, path
    if not sep or os.path.exists(text):
        return text, text
    raise argparse.ArgumentTypeError(f"{text!r}: write NAME=FILE, a name and a file (or a directory of checkpoints) "
                                     f"around the '=', or a path alone")


EXAMPLES = """more examples:
  nested-span-f1 benchmark --gold test.jsonl --pred base=base.jsonl --pred large=large.jsonl --plot out.png --json > out.json
  nested-span-f1 benchmark --gold test.jsonl --pred run=output/          # every checkpoint-STEP of a training run
  nested-span-f1 benchmark --gold test.gold.conll --pred elmo=elmo.conll --pred flair=flair.conll
  nested-span-f1 benchmark --gold test.gold.conll --pred bert=pipeline_output.jsonl --pred crf=crf.conll --snap expand
  nested-span-f1 benchmark --gold brat_gold/ --pred spacy=pred.spacy --pred gliner=gliner.jsonl --trim

A directory holding .ann files is a brat corpus (one system, or the gold); any other directory given to --pred
stands for its checkpoint-STEP files and folders."""


def add_parser(sub: argparse._SubParsersAction) -> None:
    p, io = add_command(
        sub, "benchmark",
        "nested-span-f1 benchmark --gold nested.gold.jsonl --pred model=nested.pred.jsonl",
        "Score prediction sets against one gold file with 95% bootstrap intervals (documents resampled when the gold "
        "has document ids, else sentences), paired bootstrap and approximate-randomization tests of the comparisons "
        "asked for (Holm-corrected over them; the resamples are raised until a difference can hold), select a "
        "checkpoint on development data when given, name the gold's standard split, and print a Markdown report.",
        EXAMPLES, usage="%(prog)s --gold GOLD --pred NAME=FILE [--pred NAME=FILE ...] [options]",
    )
    io.add_argument("--gold", required=True, help="gold file: a nested-NER format, CoNLL tag columns, or texts (text "
                                                  "spans, pipeline output, a brat folder or .ann file, a spaCy DocBin)")
    io.add_argument("--pred", required=True, action="append", type=prediction, metavar="NAME=FILE",
                    help="a prediction file named NAME (repeat for more; any kind --gold takes, texts against tokens "
                         "and tokens against texts too), or a directory of checkpoint-STEP files or folders, ordered "
                         "by step (prediction files are told from logs, metrics and weights by what they hold, "
                         "whatever their names); a directory holding .ann files is a brat corpus, not checkpoints")
    io.add_argument("--json", action="store_true", help="print every figure as JSON instead of the Markdown report")
    io.add_argument("--markdown", metavar="OUT", help="write the Markdown report")
    io.add_argument("--html", metavar="OUT.html", help="write one self-contained page: tables, charts, buckets and an "
                                                     "error browser (opens offline)")
    io.add_argument("--plot", metavar="OUT.png", help="draw per-type F1, error categories and F1 against step")
    io.add_argument("--no-progress", action="store_true",
                    help="no progress bars (they are drawn only when stderr is a terminal)")
    tests = p.add_argument_group("comparisons and intervals")
    tests.add_argument("--baseline", metavar="NAME", help="compare every other system with this one (--compare baseline)")
    tests.add_argument("--compare", choices=COMPARISONS, default="auto",
                       help="the pairs tested: baseline (each system against --baseline), consecutive (each checkpoint "
                            "against the one before it in its run), best (the selected system against each other), all "
                            "(every pair); auto (default): baseline when --baseline is given, consecutive when every "
                            "system is a checkpoint of one run, else all")
    tests.add_argument("--units", choices=["auto", "documents", "sentences"], default="auto",
                       help="what is resampled (default: documents when the gold has document ids)")
    tests.add_argument("--bootstrap", type=int, metavar="N",
                       help=f"bootstrap resamples, at most {MAX_ROUNDS:,}: each is kept for the intervals (default 1000, "
                            "raised to the next thousand when the comparisons need more for a difference to be able to "
                            "hold; a number too small for them is refused)")
    tests.add_argument("--permutations", type=int, metavar="N",
                       help=f"approximate-randomization rounds, at most {MAX_ROUNDS:,} (default: as --bootstrap)")
    tests.add_argument("--seed", type=int, default=0, help="random seed, 0 or more (default 0)")
    tests.add_argument("--confidence", type=float, default=0.95, help="interval level (default 0.95)")
    tests.add_argument("--alpha", type=float, default=0.05, help="significance level after correction (default 0.05)")
    selection = p.add_argument_group("checkpoints selected on dev")
    selection.add_argument("--dev-gold", metavar="FILE", help="development gold: the checkpoint with the highest development F1 "
                                                              "is selected, its test figures reported")
    selection.add_argument("--dev-pred", action="append", type=prediction, metavar="NAME=FILE",
                           help="development predictions of the system NAME (repeat for more; a directory of checkpoints "
                                "as --pred takes, named as there). Default: the development prediction files (named dev, "
                                "valid or eval) in the folders of the --pred checkpoint directories")
    card = p.add_argument_group("model card")
    card.add_argument("--model-card", metavar="OUT.md", help="write a model card for the selected system: the Hub "
                                                           "model-index block and how it was selected")
    card.add_argument("--model-name", help="the model's name in the model card (default: the selected system's)")
    card.add_argument("--dataset-name", help="dataset name for the report and model card (default: the gold's file "
                                             "name); a dataset with known splits (GENIA, ACE2004, ACE2005, KBP2017) "
                                             "warns when the gold is none of them")
    card.add_argument("--dataset-type", help="dataset id on the Hub for the model card (default: the name)")
    card.add_argument("--dataset-config", help="dataset config on the Hub for the model card")
    card.add_argument("--split", default="test", help="dataset split for the model card (default: test)")
    tags = p.add_argument_group(TAGS)
    tags.add_argument("--scheme", choices=sorted(SCHEMES), help="tagging scheme of tag columns (for --mode strict)")
    tags.add_argument("--mode", choices=["strict"], help="decoding of tag columns (default: seqeval's default mode)")
    add_format_options(p, gold="--gold and --dev-gold", pred="--pred and --dev-pred")
    add_text_options(p)
    p.set_defaults(run=run)


def _inputs(args: argparse.Namespace) -> list[tuple[str, str | Path | None]]:
    """The files the command may read: the gold, the prediction files, every file of a checkpoint directory or
    of a brat corpus."""
    found: list[tuple[str, str | Path | None]] = []
    for option, name, path in [("--gold", args.gold, args.gold),
                               *([("--dev-gold", args.dev_gold, args.dev_gold)] if args.dev_gold else []),
                               *(("--pred", n, p) for n, p in args.pred),
                               *(("--dev-pred", n, p) for n, p in args.dev_pred or [])]:
        given = f"{option} {path}" if name == path else f"{option} {name}={path}"
        found.append((given, path))
        if is_brat_folder(path):
            found += [(f"{file} (a file of the brat corpus {given})", file) for file in sorted(Path(path).iterdir())]
        elif os.path.isdir(path) and option in ("--pred", "--dev-pred"):
            found += [(f"{file} (a checkpoint file of {given})", file) for file in checkpoint_files(path)]
    return found


def _views(result: BenchmarkResult, args: argparse.Namespace) -> list[tuple[str, str, bytes]]:
    """``(option, path, content)`` of every file asked for, all made before any is written."""
    views = [("--markdown", args.markdown, lambda: result.to_markdown().encode()),
             ("--html", args.html, lambda: result.to_html().encode()),
             ("--model-card", args.model_card,
              lambda: result.model_index(dataset_type=args.dataset_type, dataset_config=args.dataset_config,
                                         split=args.split, model_name=args.model_name).encode()),
             ("--plot", args.plot, lambda: _image(result, args.plot))]
    return [(option, path, make()) for option, path, make in views if path]


def _image(result: BenchmarkResult, path: str) -> bytes:
    buffer = io.BytesIO()
    result.plot().savefig(buffer, format=Path(path).suffix[1:].lower(), dpi=DPI)
    return buffer.getvalue()


def run(args: argparse.Namespace) -> int:
    for option, given in (("--pred", args.pred), ("--dev-pred", args.dev_pred or [])):
        names = [name for name, _ in given]
        repeated = sorted({n for n in names if names.count(n) > 1})
        if repeated:
            raise ValueError(f"{option} {repeated[0]} is given twice; name each prediction set once")
    if args.dev_pred and not args.dev_gold:
        raise ValueError("--dev-pred is scored against --dev-gold: give the development gold too")
    if args.compare == "baseline" and args.baseline is None:
        raise ValueError("--compare baseline compares every system with --baseline NAME: name it")
    if args.bootstrap is not None:
        check_rounds(args.bootstrap, "--bootstrap")
    if args.permutations is not None:
        check_rounds(args.permutations, "--permutations")
    check_seed(args.seed, "--seed")
    check_level(args.confidence, "--confidence")
    check_level(args.alpha, "--alpha")
    check_outputs(_inputs(args), [("--markdown", args.markdown), ("--html", args.html), ("--plot", args.plot),
                                  ("--model-card", args.model_card)])
    if args.plot:
        check_plot_file(args.plot)
    try:
        result = benchmark(
            args.gold, dict(args.pred), comparisons=args.compare, baseline=args.baseline, dev_references=args.dev_gold,
            dev_predictions=dict(args.dev_pred) if args.dev_pred else None,
            n_resamples=args.bootstrap, n_permutations=args.permutations, seed=args.seed,
            confidence=args.confidence, alpha=args.alpha, units_by=args.units,
            gold_format=args.gold_format, pred_format=args.pred_format, scheme=args.scheme,
            mode=args.mode, dataset=args.dataset_name, progress=not args.no_progress, trim=args.trim,
            snap=args.snap, types=args.types, spans_key=args.spans_key, event_triggers=not args.no_event_triggers,
            offsets=args.offsets.get("", args.offsets),
        )
    except (ValueError, TypeError) as error:
        raise for_people(error) from None
    # every view is made first: one that fails (a plot) leaves no file written
    views = _views(result, args)
    sys.stdout.write(result.to_json() + "\n" if args.json else result.to_markdown())
    written, failed = [], []
    for option, path, content in views:
        try:
            Path(path).write_bytes(content)
            written.append(f"{option} {path}")
        except OSError as error:
            failed.append(f"{option} {path} ({error.strerror or error})")
    if failed:
        raise ValueError(f"could not write {', '.join(failed)}" + (f"; wrote {', '.join(written)}" if written else ""))
    return 0
