"""The ``nested-span-f1`` command line: one sub-command per module in ``commands/``."""
from __future__ import annotations

import argparse
import importlib
import os
import signal
import sys
import warnings
from collections.abc import Sequence
from typing import NoReturn

from .. import __version__
from .commands.inputs import HelpFormatter

TASKS = {
    "score": {
        "demo": "the sample data shipped with the package, scored by every metric",
        "score": "flat span F1: column files, or texts against texts or tokens",
        "conlleval": "drop-in for conlleval.pl: reads stdin, prints its report",
        "nested": "exact F1 of nested spans, with nesting, depth, length breakdowns",
        "lenient": "lenient MUC / SemEval-2013 scores, with the error breakdown",
        "answers": "a language model's answers: string protocol and located spans",
    },
    "analyse": {
        "thresholds": "scored predictions: curves, thresholds on dev, top k, calibration",
        "benchmark": "prediction sets compared: bootstrap intervals, paired tests",
        "agreement": "agreement between annotators: pairwise F1, kappa and alpha",
    },
    "publish": {
        "table": "benchmark results of several datasets as a paper's table",
        "space": "a self-contained Hub Space folder for one metric",
    },
    "convert": {
        "convert": "one format into another: CoNLL, text spans, brat, nested formats",
        "formats": "the formats --gold-format / --pred-format take, one example each",
    },
}
"""The commands by task, each with its line in ``nested-span-f1 --help``; a module of ``commands/`` each."""

COMMANDS = tuple(name for commands in TASKS.values() for name in commands)

EXTRAS = {"matplotlib": "plots", "evaluate": "evaluate", "datasets": "evaluate", "gradio": "app",
          "torch": "train", "transformers": "train", "accelerate": "train", "pyarrow": "arrow", "pyspark": "spark",
          "spacy": "spacy"}
"""Optional dependency -> the extra of setup.py that installs it."""


class Parser(argparse.ArgumentParser):
    """argparse's parser, but a bad command line is one line on stderr (status 2), as bad input is."""

    def error(self, message: str) -> NoReturn:
        self.exit(2, f"{self.prog}: error: {message} (see {self.prog} --help)\n")


def command_list() -> str:
    """The commands grouped by task, one line each, as ``nested-span-f1 --help`` lists them."""
    width = max(map(len, COMMANDS)) + 2
    return "\n\n".join(f"{task}:\n" + "\n".join(f"  {name:<{width}}{line}" for name, line in commands.items())
                       for task, commands in TASKS.items())


def build_parser() -> argparse.ArgumentParser:
    parser = Parser(
        prog="nested-span-f1", usage="%(prog)s [-h] [--version] COMMAND ...",
        description=f"Entity-level span F1: flat, lenient and nested scoring.\n\n{command_list()}",
        epilog="Run `nested-span-f1 COMMAND --help` for a command's options and an example; "
               "`nested-span-f1 demo` scores the sample data shipped with the package. "
               "Sentences, tokens, lines and columns count from 1 in messages.",
        formatter_class=HelpFormatter,
    )
    parser.add_argument("--version", action="version", version=f"%(prog)s {__version__}")
    # listed by task in the description, not as argparse's one list of choices
    sub = parser.add_subparsers(dest="command", required=True, help=argparse.SUPPRESS, prog="nested-span-f1")
    for name in COMMANDS:
        importlib.import_module(f"nested_span_f1.cli.commands.{name}").add_parser(sub)
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    """Run the CLI; bad input exits with status 2 and one line naming the problem."""
    args = build_parser().parse_args(argv)
    try:
        if sys.stdout is None:
            raise ValueError("stdout is closed; redirect it to a file or a pipe")
        with warnings.catch_warnings(record=True) as caught:
            # within this block only: a warning meant for users is shown once, as Python shows it by default
            warnings.filterwarnings("default", category=UserWarning)
            try:
                code = int(args.run(args) or 0)
            finally:
                # a warning is a line for people, as an error is, not Python's two lines naming this file
                for warning in caught:
                    print(f"nested-span-f1 {args.command}: warning: {warning.message}", file=sys.stderr)
        sys.stdout.flush()
        return code
    except BrokenPipeError:
        # the reader of stdout went away (`| head`): stop quietly as Unix tools do, and keep Python from
        # failing again when it flushes stdout at exit
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
        return 128 + signal.SIGPIPE
    except RecursionError:
        print(f"nested-span-f1 {args.command}: error: the input is nested too deeply to read", file=sys.stderr)
        return 2
    except ModuleNotFoundError as error:
        missing = (error.name or "").partition(".")[0]
        if missing not in EXTRAS:
            raise
        # the package is on no index: an extra installs from the clone, as the README and docs/ say
        print(f"nested-span-f1 {args.command}: error: this needs {missing}; install it in the clone with "
              f"python -m pip install \".[{EXTRAS[missing]}]\"", file=sys.stderr)
        return 2
    except OSError as error:
        # "x: Is a directory", not Python's "[Errno 21] Is a directory: 'x'"
        shown = f"{error.filename}: {error.strerror}" if error.filename is not None and error.strerror else error
        print(f"nested-span-f1 {args.command}: error: {shown}", file=sys.stderr)
        return 2
    except (ValueError, TypeError) as error:
        print(f"nested-span-f1 {args.command}: error: {error}", file=sys.stderr)
        return 2

