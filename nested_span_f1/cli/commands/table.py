"""``nested-span-f1 table``: the table papers print, from the JSON of several benchmarks (one per dataset).

Prints the Markdown table; ``--markdown`` and ``--latex`` also write it to files (never over one of the results
read).
"""
from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

from ...benchmark.table import latex_table, markdown_table
from .inputs import add_command, check_outputs

EXAMPLES = """more examples:
  nested-span-f1 benchmark --gold genia/test.jsonl --pred base=base.jsonl --pred ours=ours.jsonl --baseline base \\
      --dataset-name GENIA --json > genia.json
  nested-span-f1 benchmark --gold ace05/test.jsonl --pred base=b.jsonl --pred ours=o.jsonl --baseline base \\
      --dataset-name ACE2005 --json > ace05.json
  nested-span-f1 table genia.json ace05.json --baseline base --latex table.tex --markdown table.md"""


def add_parser(sub: argparse._SubParsersAction) -> None:
    p, io = add_command(
        sub, "table",
        "nested-span-f1 table <(nested-span-f1 benchmark --gold nested.gold.jsonl --pred model=nested.pred.jsonl --json)",
        ("Combine the --json results of `nested-span-f1 benchmark` (one per dataset) into one table: "
         "systems as rows, datasets as columns, precision, recall and F1 in % with their bootstrap "
         "intervals, the best F1 of each dataset in bold, a dagger where a system's F1 differs from the "
         "baseline's (the difference holds in that dataset's benchmark; benchmark with --baseline so "
         "that the comparison is made), and each dataset's split in a footnote. The LaTeX table uses "
         "booktabs (\\usepackage{booktabs}) and is meant for \\input."),
        EXAMPLES, usage="%(prog)s RESULT.json [RESULT.json ...] [options]",
    )
    io.add_argument("results", nargs="+", metavar="RESULT.json", help="benchmark results (--json), one per dataset")
    io.add_argument("--baseline", metavar="NAME", help="the system the others are marked against")
    io.add_argument("--markdown", metavar="OUT.md", help="write the Markdown table")
    io.add_argument("--latex", metavar="OUT.tex", help="write the LaTeX table (booktabs)")
    p.set_defaults(run=run)


def _read(path: str) -> dict:
    """A benchmark result file (a byte-order mark skipped, as every reader does), refused naming the file."""
    try:
        return json.loads(Path(path).read_bytes().decode("utf-8").removeprefix("\ufeff"))
    except UnicodeDecodeError as error:
        raise ValueError(f"{path}: not UTF-8 text (byte {error.start}); give the --json of a benchmark") from None
    except json.JSONDecodeError as error:
        raise ValueError(f"{path}, line {error.lineno}, column {error.colno}: not valid JSON ({error.msg}); give the "
                         "--json of a benchmark") from None
    except RecursionError:
        raise ValueError(f"{path}: its JSON nests lists and objects too deeply to be a benchmark result; give the "
                         "--json of a benchmark") from None


def run(args: argparse.Namespace) -> int:
    check_outputs([(path, path) for path in args.results], [("--markdown", args.markdown), ("--latex", args.latex)])
    results = [_read(path) for path in args.results]
    markdown = markdown_table(results, args.baseline, args.results)
    latex = latex_table(results, args.baseline, args.results) if args.latex else None
    sys.stdout.write(markdown)
    if args.markdown:
        Path(args.markdown).write_text(markdown, encoding="utf-8")
    if latex is not None:
        Path(args.latex).write_text(latex, encoding="utf-8")
    return 0
