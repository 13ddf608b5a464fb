"""``nested-span-f1 score``: score a predicted column file against a gold one, or texts (character spans) against
texts or tokens."""
from __future__ import annotations

import argparse
import json
import os
import sys
import warnings
from collections.abc import Mapping
from pathlib import Path

from ...core.counts import Counts
from ...core.scores import summarize
from ...core.wording import plural
from ...flat.pipeline import count_exact
from ...flat.tags import reference_prefixes, scheme_from_prefixes
from ...formats import Corpus
from ...formats.columns import Block, ColumnFile, check_same_tokens
from ...render.tables import table
from . import answers, texts
from .batches import add_counts, side_by_side
from .files import holds_answers, score_files
from .inputs import (
    add_command,
    add_format_options,
    add_tag_options,
    check_outputs,
    check_plot_file,
    column_blocks,
    for_people,
    tag_column,
)
from .tables import add_table_options, count_table, header, is_table
from .texts import add_text_options

EXAMPLES = """more examples:
  nested-span-f1 score --gold test.gold.conll --pred test.pred.conll --scheme IOB2 --mode strict --json
  nested-span-f1 score --gold gold.tsv --pred pred.tsv --column 2 --delimiter '\\t' --plot types.png
  nested-span-f1 score --gold test.gold.conll --pred pipeline_output.jsonl
  nested-span-f1 score --gold brat_gold/ --pred spans.jsonl --trim
  nested-span-f1 score --gold test.jsonl --pred pred.txt --pred-format conll    # past a wrong detection

Two column files must hold the same tokens; the first difference is named by file and line. Either side may
instead hold texts (text spans, pipeline output, a brat folder or .ann file, a spaCy DocBin): documents are
paired by id, their texts must be equal, and a side of tokens is located in the other side's texts; every span
that cannot be aligned is counted. Columns count from 1 (column 1 is the token) or from the end (-1, the default,
is the last). The `number` column is gold support; --plot needs the plots extra (pip install ".[plots]" in a
clone)."""


def add_parser(sub: argparse._SubParsersAction) -> None:
    p, io = add_command(
        sub, "score", "nested-span-f1 score --gold sample.gold.conll --pred sample.pred.conll",
        "Exact-match span F1 (seqeval's numbers) of a predicted column file against a gold one, or of texts "
        "(character spans) against texts or tokens.",
        EXAMPLES, usage="%(prog)s --gold GOLD --pred PRED [options]",
    )
    io.add_argument("--gold", required=True, help="gold: a column file or texts")
    io.add_argument("--pred", required=True, help="predictions: column file of the same tokens, or texts")
    io.add_argument("--json", action="store_true", help="print the result as JSON")
    io.add_argument("--plot", metavar="FILE", help="also draw per-type P/R/F1 to FILE (.png, .svg, .pdf)")
    add_tag_options(p)
    add_format_options(p)
    add_text_options(p)
    answers.add_answer_options(p)
    add_table_options(p)
    p.set_defaults(run=run)


def count_files(args: argparse.Namespace, read: Mapping[str, ColumnFile]) -> tuple[Counts, int]:
    """The counts of the two files, a batch of sentences at a time, and their number of sentences (``read``: the
    files read already, pipes, as :func:`.texts.read_pipes` reads them)."""
    scheme = args.scheme
    if args.mode is not None and scheme is None and os.path.isfile(args.gold):  # a pipe can be read only once
        scheme = gold_scheme(args.gold, args.delimiter, args.column, args.suffix)

    def count(batch: list[tuple[Block, Block]], first: int) -> Counts:
        gold = ColumnFile(args.gold, [g for g, _ in batch])
        pred = ColumnFile(args.pred, [p for _, p in batch])
        try:
            # the tag columns first: a file of one column is named as such, not as tokens that differ
            predicted, tags = tag_column(pred, args.column), tag_column(gold, args.column)
            check_same_tokens(gold, pred)
            return count_exact(predicted, tags, scheme=scheme, mode=args.mode, suffix=args.suffix)
        except (ValueError, TypeError) as error:
            raise for_people(error, gold, pred, first) from None

    gold_blocks, pred_blocks = (iter(read[path].blocks) if path in read else column_blocks(path, args.delimiter)
                                for path in (args.gold, args.pred))
    blocks = side_by_side(gold_blocks, pred_blocks, args.gold, args.pred)
    # no scheme found in the first pass: one batch, whose error names the problem (or the missing scheme)
    whole = args.mode is not None and scheme is None
    return add_counts(blocks, count, size=lambda pair: len(pair[0]), batch_tokens=sys.maxsize if whole else None)


def gold_scheme(path: str, delimiter: str | None, column: int, suffix: bool) -> str | None:
    """The scheme strict mode detects from the gold tags, as seqeval does from the references, found by a first
    pass over the gold file so that the scoring pass can stream; None when the tags name no scheme or the file
    has a problem (the scoring pass then names it)."""
    tags: set[str] = set()
    try:
        for block in column_blocks(path, delimiter):
            tags.update(block.column(column))
    except ValueError:
        return None
    try:
        return scheme_from_prefixes(reference_prefixes(tags, suffix)).name
    except ValueError:
        return None


def run(args: argparse.Namespace) -> int:
    check_outputs([(f"--gold {args.gold}", args.gold), (f"--pred {args.pred}", args.pred)], [("--plot", args.plot)])
    if args.plot:
        check_plot_file(args.plot)
    parquet = is_table(args)
    if parquet:
        counted = count_table(args, "exact", scheme=args.scheme, mode=args.mode, suffix=args.suffix)
        result = summarize(counted.counts, zero_division=0)
        head = "\n".join([header(args, counted.rows).rstrip("\n"), *texts.outside_tallies(counted.counts.labels)])
    elif holds_answers(args):
        if args.plot:
            raise ValueError("--plot draws the per-type scores of two span files; an answer system's located "
                             "spans are in --json (or `nested-span-f1 answers --metric exact`)")
        return answers.run_answers(args, "exact", table)
    else:
        # a pipe is read once, here, and what it holds then decides as a file's first lines do
        read = texts.read_pipes(args)
        if texts.holds_spans(args) or any(isinstance(side, Corpus) for side in read.values()):
            # texts, or spans of a format read or named: exact span F1 of both sides as spans, every alignment
            # decision reported
            result, pair, sides = score_files(args, "exact", read, answers=False)
            assert pair is not None and sides is not None  # not answers: texts, paired
            head = "\n".join([*texts.describe_inputs(args, sides, pair), *texts.alignment_lines(result["alignment"])])
        else:
            texts.refuse_text_options(args, "column files")
            counts, sentences = count_files(args, {p: side for p, side in read.items() if isinstance(side, ColumnFile)})
            result = summarize(counts, zero_division=0)
            head = "\n".join([f"{args.pred} against {args.gold}: {plural(sentences, 'sentence')}",
                              *texts.outside_tallies(counts.labels)])
    broken = result.get("invalid_reference_chunks", 0)
    if args.mode == "strict" and broken:
        # gold tags seldom break their own scheme: a wrong --scheme is the likelier cause
        scheme = f"scheme {args.scheme}" if args.scheme else "the scheme detected from the gold"
        warnings.warn(f"{plural(broken, 'gold chunk')} {'breaks' if broken == 1 else 'break'} {scheme} and strict "
                      "mode drops them; "
                      "check that it is the scheme the gold tags use", UserWarning, stacklevel=1)
    if args.json:
        json.dump(result, sys.stdout, indent=2)
        sys.stdout.write("\n")
    else:
        sys.stdout.write(f"{head}\n\n")
        sys.stdout.write(table(result))
    if args.plot:
        from ...render.plots import plot_per_type

        plot_per_type(result, args.plot, title=f"{Path(args.pred).name} against {Path(args.gold).name}")
    return 0
