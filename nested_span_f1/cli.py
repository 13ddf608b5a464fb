"""The ``nested-span-f1`` command line: one sub-command per module in ``commands/``."""
from __future__ import annotations

import argparse
import importlib
import sys
from collections.abc import Sequence

COMMANDS = ("demo", "score", "conlleval", "nested", "space")


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="nested-span-f1", description="Entity-level span F1: flat, lenient and nested scoring."
    )
    sub = parser.add_subparsers(dest="command", required=True)
    for name in COMMANDS:
        importlib.import_module(f"nested_span_f1.commands.{name}").add_parser(sub)
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    """Run the CLI; bad input exits with status 2 and one line naming the problem."""
    args = build_parser().parse_args(argv)
    try:
        return int(args.run(args) or 0)
    except (ValueError, TypeError, OSError) as error:
        print(f"nested-span-f1 {args.command}: error: {error}", file=sys.stderr)
        return 2


if __name__ == "__main__":
    sys.exit(main())
