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

from ...answers.gold import read_string_gold, string_gold_file
from ...answers.indices import TRUST
from ...answers.labels import parse_label_map
from ...answers.locate import POLICIES
from ...answers.normalize import STEPS, Normalization
from ...answers.read import answers_file
from ...answers.score import SHARE, count_answers, score_run
from ...core.wording import quote
from ...formats import Corpus
from ...formats.columns import read_text
from ...render.answers import answers_table, unreadable_line
from ...render.tables import lenient_table
from . import texts
from .inputs import ANSWERS as FORMAT
from .inputs import HelpFormatter, add_format_options, check_outputs, duplicates_in_output, for_people

EXAMPLE = """examples:
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
    group = parser.add_argument_group("language models' answers")
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
    p = sub.add_parser(
        "answers", help="a language model's entity lists: the string protocol and located spans side by side",
        description="Scores of an answer system (entity lists or raw answers, JSON lines) against a gold with "
                    "text: the string protocol papers use and the strings located in the text, scored as spans.",
        epilog=EXAMPLE, formatter_class=HelpFormatter,
    )
    p.add_argument("--gold", required=True, help="gold file or folder with text (or tokens, joined by spaces)")
    p.add_argument("--pred", required=True, help="the answer system's JSON lines")
    add_format_options(p)
    p.add_argument("--metric", choices=("exact", "lenient", "nested"), default="nested",
                   help="how the located spans are scored (default: nested)")
    p.add_argument("--json", action="store_true", help="print the result as JSON")
    texts.add_reader_options(p.add_argument_group("the gold (brat, spaCy DocBin)"))
    add_answer_options(p)
    p.set_defaults(run=run)


def run(args: argparse.Namespace) -> int:
    check_outputs([(f"--gold {args.gold}", args.gold), (f"--pred {args.pred}", args.pred)])
    return run_answers(args, args.metric)


def holds_answers(args: argparse.Namespace) -> bool:
    """Whether the prediction file is an answer system's: named so, or detected from its first lines, each read
    whole (a pipe can be read once, by its reader: an answer system through one is named with --pred-format)."""
    if args.pred_format is not None:
        return bool(args.pred_format == FORMAT)
    return answers_file(args.pred)


def read_gold(args: argparse.Namespace) -> Any:
    """The gold: texts with their entities as strings (named ``answers``, or detected), or any corpus."""
    if args.gold_format == FORMAT:
        return read_string_gold(read_text(args.gold), args.gold)
    return (args.gold_format is None and string_gold_file(args.gold)) or texts.read_any(args.gold, args.gold_format,
                                                                                        args)


def score_files(args: argparse.Namespace, metric: str, **options: Any) -> dict[str, Any]:
    """Both protocols for the two files the arguments name.

    Raises:
        ValueError: as the readers do, and when no answer of the file can be read.
    """
    try:
        Normalization.parse(args.normalization)
        given = [f"--{name}" for name in ("trim", "snap") if getattr(args, name, None)]
        if given:
            raise ValueError(f"{' and '.join(given)} {'apply' if len(given) > 1 else 'applies'} to spans of two texts, "
                             f"but --pred {args.pred} holds a language model's answers, whose strings are placed on "
                             f"the gold's text; leave {'them' if len(given) > 1 else 'it'} out")
        gold = read_gold(args)
        texts.check_reader_options(args, [gold] if isinstance(gold, Corpus) else [], f"the gold ({args.gold}) is not one")
        run = count_answers(args.pred, gold, normalization=args.normalization, multiset=args.multiset,
                              policy=args.policy, fallback=args.fallback, inner_last=args.inner_last,
                              trust=args.trust, label_map=args.label_map, examples=args.show)
        if run.first_error is not None and run.counts.answers.get("unparseable") == sum(run.counts.answers.values()):
            first = run.first_error
            where = first["line"] if first["line"] == first["id"] else f"id {quote(first['id'])}, {first['line']}"
            raise ValueError(f"{args.pred}: no answer can be read ({sum(run.counts.answers.values()):,} tried); the "
                             f"first ({where}), {quote(first['answer'])}: {first['error']}")
        with duplicates_in_output():
            return score_run(run, metric, zero_division=0, **options)
    except (ValueError, TypeError) as error:
        raise for_people(error) from None


def run_answers(args: argparse.Namespace, metric: str, extra: Any = None, **options: Any) -> int:
    """Print both protocols (then ``extra(located result)``: the metric's own tables), or the JSON result; a line
    on stderr, and first in the report, when more than 5% of the answers cannot be read."""
    result = score_files(args, metric, **options)
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
