"""``nested-span-f1 convert``: any readable format into another, where nothing is lost on the way.

Token formats become texts by joining each sentence's tokens with single spaces
(offsets turned into characters, exactly); texts become tokens only when each
text is tokens joined by single spaces and every entity starts and ends at
token boundaries. A conversion that would lose anything is refused with the
reason, before anything is written: entities that overlap or are discontinuous
in a format that cannot hold them, sentence or document ids the target does not
keep, a text that is not spaces between tokens, a token that is empty or holds
whitespace (as text it would come back as other tokens), and from CoNLL columns:
columns besides the token and its tag, -DOCSTART- lines, and tags the writer
would write otherwise (it writes IOB2: other schemes are read with --scheme, and
come back as IOB2). Documents without ids are given their positions (0, 1, ...)
in every format.

What round-trips byte for byte: CoNLL columns of a token and an IOB2 tag split
by a tab, LF line ends, no byte-order mark and one blank line after every
sentence; text-span and pipeline JSON lines and brat folders as this command
writes them. Output is written whole or not at all (a new or empty folder for
brat). Entity scores (of a predicted file) are written by the json formats and
text spans; the others have no place for them, and the summary line says how
many were not written.
"""
from __future__ import annotations

import argparse
import io
import re
import sys

from ...align.project import join_tokens, split_text
from ...core.wording import plural, quote
from ...flat.schemes import SCHEMES
from ...formats import FORMATS, PATH_FORMATS, Corpus, UnknownFormat, detect_format, get_format, write_corpus
from ...formats.columns import DOCSTART, ColumnFile, read_columns, read_text
from ...formats.corpus import not_a_word
from ...formats.offsets import CODEPOINTS
from ...formats.output import write_file
from ...formats.records import file_lines
from ...formats.tagged import iob2_tags, write_columns
from .inputs import COLUMNS, TAGS, TEXTS, add_command, check_outputs, decode_tags, for_people, tag_column
from .texts import check_reader_options, side_offsets, unit_option

SENTENCE_IDS = ("oneie", "text", "pipeline", "brat")
"""The targets that keep each sentence's (document's) id."""
DOC_IDS = ("oneie", "triaffine", "biaffine", "text", "pipeline")
"""The targets that keep the id of the document each sentence belongs to."""
SCORES = ("oneie", "triaffine", "biaffine", "w2ner", "pyramid", "text", "pipeline")
"""The targets that keep each entity's score (a predicted corpus's confidences)."""

EXAMPLES = """more examples:
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
    p, io = add_command(
        sub, "convert", "nested-span-f1 convert sample.gold.conll --to text --output sample.text.jsonl",
        __doc__.split("\n\n", 1)[1].replace("\n", " "), EXAMPLES,
        usage="%(prog)s INPUT --to FORMAT --output OUTPUT [options]",
    )
    io.add_argument("input", help="a file, or a brat folder")
    io.add_argument("--to", required=True, type=target_format, metavar="FORMAT", help="the format to write")
    io.add_argument("--output", "-o", required=True, help="the file to write (a folder for brat)")
    io.add_argument("--from", dest="source", type=source_format, metavar="FORMAT",
                    help="the input's format (default: detected)")
    tags = p.add_argument_group(TAGS)
    tags.add_argument("--scheme", choices=sorted(SCHEMES),
                      help="CoNLL input: decode the tags as this scheme, strictly (default: they must be IOB2 as "
                           "written back; other tags are refused)")
    texts = p.add_argument_group(TEXTS)
    texts.add_argument("--types", nargs="+", metavar="TYPE", help="brat input: keep the T lines of these types only")
    texts.add_argument("--no-event-triggers", action="store_true",
                       help="brat input: leave out the T lines that E lines use as event triggers (kept by default)")
    texts.add_argument("--spans-key", metavar="KEY", help="spaCy input: read doc.spans[KEY] instead of doc.ents")
    texts.add_argument("--offsets", type=unit_option, default={}, metavar="UNIT",
                       help="text spans, pipeline output, brat input: what its character offsets count, codepoints "
                            "(the default), utf16 (JavaScript, Java: an emoji is 2) or bytes (UTF-8); written as code "
                            "points")
    p.set_defaults(run=run)


def read_input(args: argparse.Namespace) -> Corpus:
    """The input as a corpus; CoNLL columns checked to lose nothing as spans (:func:`column_spans`)."""
    from ...formats.registry import path_format, read_as, read_file

    unit = side_offsets(args, "gold")
    if args.source in PATH_FORMATS or (args.source is None and path_format(args.input)):
        corpus = read_file(args.input, args.source, types=args.types, spans_key=args.spans_key,
                           event_triggers=not args.no_event_triggers, offsets=unit)
        check_reader_options(args, [corpus], "the input is not one")
        return corpus
    if unit == CODEPOINTS:
        check_reader_options(args, [], "the input is not one")
    # read whole, once (a pipe cannot be read again): the column check looks at the text's lines too
    text = read_text(args.input)
    name = args.source
    if name is None:
        try:
            name = detect_format(text, args.input)
        except UnknownFormat:
            name = COLUMNS
    if name != COLUMNS:
        if args.scheme:
            raise ValueError(f"--scheme applies to CoNLL columns, but {args.input} holds {name}")
        corpus = read_as(name, text, args.input, offsets=unit)
        check_reader_options(args, [corpus], "the input is not one")
        return corpus
    check_reader_options(args, [], "the input is not one")
    side = read_columns(io.StringIO(text), name=args.input)
    spans, how = column_spans(side, text, args.scheme)
    return Corpus(side.tokens, spans, format=COLUMNS, conversion=f"tags decoded to spans ({how})", source=side.name)


def column_spans(side: ColumnFile, text: str, scheme: str | None) -> tuple[list[list[tuple[int, int, str]]], str]:
    """The spans of a column file's tags (``text`` its text), and how they were decoded; ValueError naming the
    file and line of the first thing spans cannot keep: a column besides the token and its tag, a ``-DOCSTART-``
    line, a tag the IOB2 writer would write otherwise (with ``scheme``: a tag in no entity of that scheme, strictly
    decoded)."""
    if not side.blocks:
        raise ValueError(f"{side.name}: no sentences to convert")
    if side.width > 2:
        raise ValueError(f"{side.name}, line {side.lines[0]}: {side.width} columns; spans keep the token and its tag "
                         "(the last column), so the others (POS, chunk, ...) would be lost: cut the file to those two")
    marker = next((n for n, line in enumerate(file_lines(text), 1) if line.startswith(DOCSTART)), None)
    if marker is not None:
        raise ValueError(f"{side.name}, line {marker}: a {DOCSTART} line; no target keeps document markers, so they "
                         f"would be lost: remove them first")
    tags = tag_column(side, -1)
    spans = decode_tags(side, scheme=scheme, mode="strict" if scheme else None)
    if scheme:
        for s, (sentence, found) in enumerate(zip(tags, spans)):
            covered = {t for start, end, _ in found for t in range(start, end)}
            lost = next((t for t, tag in enumerate(sentence) if tag != "O" and t not in covered), None)
            if lost is not None:
                raise ValueError(f"{side.name}, line {side.lines[s] + lost}: tag {quote(sentence[lost])} is in no entity "
                                 f"of {scheme} (decoded strictly), so it would be lost")
        return spans, f"{scheme}, strict; written back as IOB2"
    for s, (sentence, found) in enumerate(zip(tags, spans)):
        written = iob2_tags(len(sentence), found, f"sentence {s}")
        if written != sentence:
            t = next(t for t, (a, b) in enumerate(zip(sentence, written)) if a != b)
            raise ValueError(f"{side.name}, line {side.lines[s] + t}: tag {quote(sentence[t])} would come back as "
                             f"{quote(written[t])} (tags are written as IOB2); pass --scheme to read another scheme "
                             "(IOB1, IOBES, ...), whose tags come back as IOB2")
    return spans, "IOB2"


def _kept_ids(corpus: Corpus, target: str) -> None:
    """Refuse a target that would drop ids the corpus holds (positions 0, 1, ... are no loss: order keeps them)."""
    positions = [str(s) for s in range(len(corpus))]
    for ids, kept, what in ((corpus.sentence_ids, SENTENCE_IDS, "sentence ids"), (corpus.doc_ids, DOC_IDS,
                                                                                    "document ids")):
        if ids is not None and list(ids) != positions and target not in kept:
            raise ValueError(f"--to {target} would lose the {what} of {corpus.source} (first: {quote(ids[0])}); "
                             f"write {', '.join(kept)}, which keep them")


def convert(corpus: Corpus, target: str) -> Corpus:
    """The corpus in the unit of ``target`` (texts for brat and the character formats, else tokens), checked to
    lose nothing there."""
    _kept_ids(corpus, target)
    characters = target == "brat" or (target != COLUMNS and FORMATS[target].unit == "characters")
    if characters and corpus.texts is None:
        for s, tokens in enumerate(corpus.tokens):
            t = next((t for t, token in enumerate(tokens) if not_a_word(token)), None)
            if t is not None:
                where = f" ({corpus.places[s]})" if corpus.places is not None else ""
                raise ValueError(f"{corpus.source}, sentence {s}, token {t}{where}: {quote(tokens[t])} is empty or holds "
                                 f"whitespace, so a text of tokens joined by spaces cannot give the tokens back; "
                                 f"--to {target} would change them (write a token format)")
    return join_tokens(corpus) if characters else split_text(corpus)


def run(args: argparse.Namespace) -> int:
    check_outputs([(args.input, args.input)], [("--output", args.output)],
                  folders=("--output",) if args.to == "brat" else ())
    try:
        corpus = read_input(args)
        converted = convert(corpus, args.to)
        # the whole output is made before anything is written, and written whole or not at all
        if args.to == COLUMNS:
            write_file(args.output, write_columns(converted))
        else:
            write_corpus(converted, args.output, args.to)
    except (ValueError, TypeError) as error:
        # the writers name a sentence (or document) by its position alone: name the file it is in too
        named = f"{args.input}, {error}" if re.match(r"(sentence|document) \d", str(error)) else str(error)
        raise for_people(type(error)(named)) from None
    entities = sum(map(len, converted.entities))
    unit = "document" if converted.unit == "characters" else "sentence"
    scores = "" if corpus.scores is None or args.to in SCORES else (
        f"; {plural(entities, 'entity score')} not written ({args.to} has no place for them; {', '.join(SCORES)} "
        "keep them)")
    sys.stdout.write(f"{args.input} ({corpus.format}) -> {args.output} ({args.to}): {plural(len(converted), unit)}, "
                     f"{plural(entities, 'entity', 'entities')} ({converted.discontinuous()} discontinuous); "
                     f"{'; '.join(dict.fromkeys(filter(None, (corpus.conversion, converted.conversion))))}{scores}\n")
    return 0
