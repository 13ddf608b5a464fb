"""``nested-span-f1 answers``: a language model's answers against a gold with text, under both protocols.

The prediction file holds a document (or a one-type question) a line: the
model's raw answer (``{"id", "output": "..."}``, in any of the shapes
:mod:`nested_span_f1.answers.parse` reads) or an extracted entity list
(``{"id", "entities": [{"text", "label"}]}``), detected by its first lines or
named with ``--pred-format answers``. The gold is any file with text (text
spans, pipeline output, brat, a DocBin), with tokens (joined by single spaces),
or texts with their entities as strings (``{"id", "text", "entities": [{"text",
"label"}]}``, detected, or named with ``--gold-format answers``). ``nested``
and ``lenient`` take the same files and options and score the located spans with
their own metric; this command scores them with ``--metric``.

When no answer can be read the command exits 2 naming the first and what was
tried; when more than 5% cannot be read, the report's first line and stderr say so.
"""
from __future__ import annotations

import argparse
import os
import sys
from typing import Any

from ...answers.indices import TRUST
from ...answers.labels import parse_label_map
from ...answers.locate import POLICIES
from ...answers.normalize import STEPS
from ...answers.score import SHARE
from ...formats.columns import read_text
from ...render.answers import answers_table, unreadable_line
from ...render.tables import lenient_table
from . import texts
from .files import score_files
from .inputs import ANSWER_OPTIONS, TEXTS, add_command, add_format_options, check_outputs

EXAMPLES = """more examples:
  nested-span-f1 answers --gold test.jsonl --pred llm-answers.jsonl
  nested-span-f1 answers --gold corpus/ --pred answers.jsonl --metric exact --multiset --json
  nested-span-f1 answers --gold test.conll --pred answers.jsonl --label-map person=PER,location=LOC
  nested-span-f1 nested --gold genia.text.jsonl --pred answers.jsonl --policy every

Prediction lines: {"id": "d1", "output": "<the model's answer>"}: JSON or Python
lists ([text, label] pairs, {"text", "label"} objects, [text, label, first, last]
token indices), objects keyed by type, "string (TYPE)" lines, "TYPE: a, b" lines,
"string: TYPE", "string - TYPE", (string, TYPE) tuples, Markdown tables, inline
tags <PER>...</PER>, GPT-NER's @@string## (with "label"), code calls
Person(span="..."), GNER's word(tag) output; prose around them is skipped and
counted, "no entities" is an empty answer. Or {"id": "d1", "entities": [{"text":
"Barack Obama", "label": "PER"}]}; add "label": "PER" to a line that answers a
question about one type.

The string protocol (UniversalNER's): per document and type, normalised strings
compared as sets. Located spans: each string placed on the text (the k-th mention
on the k-th occurrence; token indices on the gold's tokens), then scored as spans;
a string found nowhere is "not in the text", a string named more often than it
occurs is "excess": both count as false positives."""


def label_map_type(value: str) -> dict[str, str]:
    """An argparse type: ``person=PER,location=LOC``, or a JSON file of such a map (a value that names a file, by
    its ``.json`` or a folder in it, and holds no ``=``, is said to be missing when it is)."""
    if not os.path.isfile(value) and "=" not in value and (
            value.lower().endswith(".json") or os.sep in value or "/" in value):
        raise argparse.ArgumentTypeError(f"{value}: no such file (give a JSON file of the map, or NAME=TYPE "
                                         "entries joined by commas)")
    try:
        return parse_label_map(read_text(value) if os.path.isfile(value) else value)
    except ValueError as error:
        raise argparse.ArgumentTypeError(str(error)) from None


def add_answer_options(parser: argparse.ArgumentParser) -> None:
    """The string protocol's and the placement's options (for ``answers``, ``nested`` and ``lenient``)."""
    group = parser.add_argument_group(ANSWER_OPTIONS)
    group.add_argument("--normalization", default="all", metavar="STEPS",
                       help=f"string protocol: the steps, joined by '+', of {', '.join(STEPS)}; 'all' (default, "
                            "UniversalNER's) or 'none'")
    group.add_argument("--multiset", action="store_true",
                       help="string protocol: a name said twice counts twice (default: sets, as UniversalNER)")
    group.add_argument("--policy", choices=POLICIES, default="kth",
                       help="where a string is placed: the k-th mention on the k-th occurrence (kth, default), or "
                            "on every occurrence (every)")
    group.add_argument("--no-fallback", dest="fallback", action="store_false",
                       help="do not look for a string found nowhere again with case, whitespace, Unicode composition, "
                            "typographic quotes and dashes, full-width ASCII and middle dots normalised")
    group.add_argument("--no-inner-last", dest="inner_last", action="store_false",
                       help="kth: take occurrences in reading order even inside a longer placed string")
    group.add_argument("--trust", choices=TRUST, default="index",
                       help="token-index answers: where an item's token indices and string disagree, place it by "
                            "its indices (index, default) or by its string (string); each disagreement is counted")
    group.add_argument("--label-map", type=label_map_type, metavar="MAP",
                       help="rename the answers' types before scoring: person=PER,location=LOC, or a JSON file of "
                            "such a map (each renamed mention counted)")
    group.add_argument("--show", type=int, default=5, metavar="N",
                       help="cases shown per category (not in the text, excess, unparseable, lines skipped, "
                            "declined, unreadable items, ...; default: 5)")


def add_parser(sub: argparse._SubParsersAction) -> None:
    p, io = add_command(
        sub, "answers", "nested-span-f1 answers --gold sample.gold.conll --pred sample.answers.jsonl --metric exact",
        "Scores of an answer system (entity lists or raw answers, JSON lines) against a gold with text: the string "
        "protocol papers use and the strings located in the text, scored as spans.",
        EXAMPLES, usage="%(prog)s --gold GOLD --pred PRED [options]",
    )
    io.add_argument("--gold", required=True, help="gold file or folder with text (or tokens, joined by spaces)")
    io.add_argument("--pred", required=True, help="the answer system's JSON lines")
    io.add_argument("--metric", choices=("exact", "lenient", "nested"), default="nested",
                    help="how the located spans are scored (default: nested)")
    io.add_argument("--json", action="store_true", help="print the result as JSON")
    add_answer_options(p)
    add_format_options(p)
    texts.add_reader_options(p.add_argument_group(f"{TEXTS}: the gold"))
    p.set_defaults(run=run)


def run(args: argparse.Namespace) -> int:
    check_outputs([(f"--gold {args.gold}", args.gold), (f"--pred {args.pred}", args.pred)])
    return run_answers(args, args.metric)


def run_answers(args: argparse.Namespace, metric: str, extra: Any = None, **options: Any) -> int:
    """Print both protocols (then ``extra(located result)``: the metric's own tables), or the JSON result; a line
    on stderr, and first in the report, when more than 5% of the answers cannot be read."""
    result = score_files(args, metric, answers=True, **options).result
    warning = unreadable_line(result["answers"]) if result["answers"]["unparseable_share"] > SHARE else None
    if warning:
        sys.stderr.write(f"warning: {warning}\n")
    if args.json:
        sys.stdout.write(texts.dump(result))
        return 0
    located = result["located"]
    out = [f"gold:        {args.gold}", f"predictions: {args.pred} (answers; located spans scored by {metric})",
           "", answers_table(result)]
    if warning:
        out.insert(0, f"warning: {warning}")
    if extra is not None:
        out.append(extra(located))
    elif metric == "lenient":
        out.append(lenient_table(located))
    sys.stdout.write("\n".join(out))
    return 0
