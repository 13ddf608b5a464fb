"""``nested-span-f1 convert``: any readable format into another, where nothing is lost on the way.

Token formats become texts by joining each sentence's tokens with single spaces
(offsets turned into characters, exactly); texts become tokens only when each
text is tokens joined by single spaces and every entity starts and ends at
token boundaries. CoNLL columns hold flat, contiguous spans as IOB2 tags. A
conversion that would lose anything (entities that overlap or are discontinuous
in a format that cannot hold them, sentence or document ids the target does not
keep, a text that is not spaces between tokens) is refused with the reason,
before anything is written.
"""
from __future__ import annotations

import argparse
import sys
from pathlib import Path

from ...align.project import join_tokens, split_text
from ...flat.pipeline import tags_to_spans
from ...formats import FORMATS, PATH_FORMATS, Corpus, get_format, write_corpus
from ...formats.columns import ColumnFile
from ...formats.tagged import write_columns
from .inputs import COLUMNS, HelpFormatter, check_outputs, read_side, tag_column
from .texts import check_reader_options

SENTENCE_IDS = ("oneie", "text", "pipeline", "brat")
"""The targets that keep each sentence's (document's) id."""
DOC_IDS = ("oneie", "triaffine", "biaffine", "text", "pipeline")
"""The targets that keep the id of the document each sentence belongs to."""

EXAMPLE = """examples:
  nested-span-f1 convert test.conll --to text --output test.jsonl          # CoNLL columns to text spans
  nested-span-f1 convert test.jsonl --to conll --output back.conll         # and back
  nested-span-f1 convert genia.test.jsonl --to brat --output genia-brat/   # a nested format to a brat folder
  nested-span-f1 convert corpus/ --to text --output corpus.jsonl --types Protein  # brat to text spans

Formats: conll, brat, spacy (read only) and every format `nested-span-f1 formats` lists."""


def target_format(value: str) -> str:
    """An argparse type: ``conll``, ``brat`` or a format of the registry (an alias works too)."""
    name = value.lower()
    if name in (COLUMNS, "columns"):
        return COLUMNS
    if name == "spacy":
        raise argparse.ArgumentTypeError("spacy is read, not written: a DocBin holds a tokenization this "
                                         "converter would have to choose")
    if name == "brat":
        return name
    try:
        return get_format(value).name
    except ValueError as error:
        raise argparse.ArgumentTypeError(str(error)) from None


def source_format(value: str) -> str:
    """An argparse type: ``conll``, a path format (brat, spacy) or a format of the registry."""
    name = value.lower()
    if name in PATH_FORMATS:
        return name
    return target_format(value)


def add_parser(sub: argparse._SubParsersAction) -> None:
    p = sub.add_parser(
        "convert", help="convert between formats (CoNLL columns, text spans, brat, the nested formats) losslessly",
        description=__doc__.split("\n\n", 1)[1].replace("\n", " "), epilog=EXAMPLE, formatter_class=HelpFormatter,
    )
    p.add_argument("input", help="a file, or a brat folder")
    p.add_argument("--to", required=True, type=target_format, metavar="FORMAT", help="the format to write")
    p.add_argument("--output", "-o", required=True, help="the file to write (a folder for brat)")
    p.add_argument("--from", dest="source", type=source_format, metavar="FORMAT",
                   help="the input's format (default: detected)")
    p.add_argument("--types", nargs="+", metavar="TYPE", help="brat input: keep the T lines of these types only")
    p.add_argument("--spans-key", metavar="KEY", help="spaCy input: read doc.spans[KEY] instead of doc.ents")
    p.set_defaults(run=run)


def read_input(args: argparse.Namespace) -> Corpus:
    """The input as a corpus; tag columns are decoded to spans as span_f1 decodes them (seqeval's default mode)."""
    from ...formats import read_corpus
    from ...formats.registry import path_format

    if args.source in PATH_FORMATS or (args.source is None and path_format(args.input)):
        corpus = read_corpus(args.input, args.source, types=args.types, spans_key=args.spans_key)
        check_reader_options(args, [corpus], "the input is not one")
        return corpus
    check_reader_options(args, [], "the input is not one")
    side = read_side(args.input, args.source)
    if not isinstance(side, ColumnFile):
        return side
    spans = tags_to_spans(tag_column(side, -1))
    return Corpus(side.tokens, spans, format=COLUMNS, conversion="tags decoded to spans", source=side.name)


def _kept_ids(corpus: Corpus, target: str) -> None:
    """Refuse a target that would drop ids the corpus holds (positions 0, 1, ... are no loss: order keeps them)."""
    positions = [str(s) for s in range(len(corpus))]
    for ids, kept, what in ((corpus.sentence_ids, SENTENCE_IDS, "sentence ids"), (corpus.doc_ids, DOC_IDS,
                                                                                    "document ids")):
        if ids is not None and list(ids) != positions and target not in kept:
            raise ValueError(f"--to {target} would lose the {what} of {corpus.source} (first: {ids[0]!r}); "
                             f"write {', '.join(kept)}, which keep them")


def convert(corpus: Corpus, target: str) -> Corpus:
    """The corpus in the unit of ``target`` (texts for brat and the character formats, else tokens), checked to
    lose nothing there."""
    _kept_ids(corpus, target)
    characters = target == "brat" or (target != COLUMNS and FORMATS[target].unit == "characters")
    return join_tokens(corpus) if characters else split_text(corpus)


def run(args: argparse.Namespace) -> int:
    check_outputs([(args.input, args.input)], [("--output", args.output)])
    output = Path(args.output)
    corpus = read_input(args)
    converted = convert(corpus, args.to)
    # every writer runs before anything is written: a refusal leaves no half-written output
    if args.to == COLUMNS:
        text = write_columns(converted)
        output.write_text(text, encoding="utf-8")
    else:
        write_corpus(converted, output, args.to)
    entities = sum(map(len, converted.entities))
    unit = "documents" if converted.unit == "characters" else "sentences"
    sys.stdout.write(f"{args.input} ({corpus.format}) -> {args.output} ({args.to}): {len(converted)} {unit}, "
                     f"{entities} entities ({converted.discontinuous()} discontinuous); "
                     f"{converted.conversion or corpus.conversion}\n")
    return 0
