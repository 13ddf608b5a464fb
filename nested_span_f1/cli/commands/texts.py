"""What ``score``, ``lenient`` and ``nested`` do when a side holds texts: pair documents, project, report.

A side holds texts when its format counts characters: text spans, pipeline
output, brat (a folder or an ``.ann`` file), a spaCy DocBin. Then both files are
read whole and handed to :func:`nested_span_f1.align.pair_texts`: documents
paired by id, texts compared, a side of tokens located in the other side's text
and the character side's spans placed against its tokens. The report says how
every predicted and gold span fared (the categories add up to the spans given),
how many spans ``--trim`` and ``--snap`` changed, and shows the spans that could
not be aligned.
"""
from __future__ import annotations

import argparse
import json
import os
from collections.abc import Mapping, Sequence
from typing import Any

from ...align.score import SIDES, TextPair, pair_texts, score_pair
from ...core.entities import check_entities
from ...flat.pipeline import tags_to_spans
from ...formats import FORMATS, PATH_FORMATS, Corpus, UnknownFormat, detect_format, read_corpus
from ...formats.columns import ColumnFile, column_scores
from ...formats.registry import path_format
from ...nested.score import describe_spans
from .inputs import COLUMNS, duplicates_in_output, for_people, read_side, tag_column

HEAD = 1 << 16
"""Characters read to tell a file's format without reading it whole."""


def add_text_options(parser: argparse.ArgumentParser) -> None:
    """``--trim``, ``--snap``, ``--types`` and ``--spans-key``: how texts are read and aligned."""
    group = parser.add_argument_group("texts (text spans, pipeline output, brat, spaCy DocBin)")
    group.add_argument("--trim", action="store_true", help="trim whitespace at span edges on both sides (counted)")
    group.add_argument("--snap", choices=["expand", "contract"],
                       help="move character spans whose boundaries are not token boundaries onto the other side's "
                            "tokens (counted); default: keep their characters, so they cannot match")
    group.add_argument("--types", nargs="+", metavar="TYPE", help="brat: keep the T lines of these types only")
    group.add_argument("--spans-key", metavar="KEY", help="spaCy DocBin: read doc.spans[KEY] instead of doc.ents")


def input_unit(path: str, format: str | None) -> str:
    """``characters`` when the file holds texts, else ``tokens``, read from its format or its first lines."""
    if format:
        return "characters" if format in PATH_FORMATS or (format in FORMATS and FORMATS[format].unit == "characters") \
            else "tokens"
    if path_format(path):
        return "characters"
    if not os.path.isfile(path):
        # a pipe can be read once, by the reader: texts through one are named with --gold-format/--pred-format
        return "tokens"
    with open(path, encoding="utf-8-sig", errors="replace") as handle:
        head = handle.read(HEAD)
    if not head.lstrip().startswith("{"):
        return "tokens"
    try:
        # the head's last line may be cut: it is left out
        return FORMATS[detect_format(head.rsplit("\n", 1)[0] if "\n" in head.strip() else head, path)].unit
    except (UnknownFormat, ValueError):
        return "tokens"


def holds_texts(args: argparse.Namespace) -> bool:
    """Whether the command scores texts: a side holds them, or an option for texts is given (asked after a
    Parquet table, whose folder is no brat folder)."""
    if args.trim or args.snap:
        return True
    return any(input_unit(path, fmt) == "characters" for path, fmt in formats(args))


def formats(args: argparse.Namespace) -> list[tuple[str, str | None]]:
    """``(path, format or None)`` of the gold and the prediction file."""
    return [(args.gold, getattr(args, "gold_format", None)), (args.pred, getattr(args, "pred_format", None))]


READER_OPTIONS = {"types": ("brat", "keeps the T lines of these types in brat files"),
                  "spans_key": ("spacy", "reads doc.spans[KEY] of spaCy DocBins")}
"""Options of one reader: the format they apply to and what they do."""


def _option(name: str) -> str:
    return "--" + name.replace("_", "-")


def refuse_text_options(args: argparse.Namespace, held: str) -> None:
    """Refuse the options for texts (``--trim``, ``--snap``, ``--types``, ``--spans-key``) when the files hold
    ``held`` instead (column files, files of token spans; Parquet tables are refused earlier, by
    :func:`.tables.is_table`): an option that would do nothing is never ignored silently."""
    check_reader_options(args, [], f"--gold and --pred are {held}")
    given = [_option(name) for name in ("trim", "snap") if getattr(args, name, None)]
    if given:
        verb = "apply" if len(given) > 1 else "applies"
        raise ValueError(f"{' and '.join(given)} {verb} to texts (text spans, pipeline output, brat, spaCy DocBins), "
                         f"but --gold and --pred are {held}; leave {'them' if len(given) > 1 else 'it'} out")


def check_reader_options(args: argparse.Namespace, corpora: Sequence[Corpus],
                         none: str = "neither --gold nor --pred is one") -> None:
    """Refuse ``--types`` when no corpus read is brat, ``--spans-key`` when none is a DocBin (``none`` says so)."""
    for name, (format, what) in READER_OPTIONS.items():
        if getattr(args, name, None) and all(corpus.format != format for corpus in corpora):
            raise ValueError(f"{_option(name)} {what}, but {none}; leave it out")


def check_text_options(args: argparse.Namespace, sides: Mapping[str, Corpus]) -> None:
    """Refuse an option for texts that the sides read give nothing to do: ``--types`` without a brat side,
    ``--spans-key`` without a DocBin, ``--trim`` or ``--snap`` when both sides hold tokens."""
    check_reader_options(args, list(sides.values()))
    units = {corpus.unit for corpus in sides.values()}
    if units == {"tokens"}:
        for name, what in (("trim", "trims whitespace at the edges of character spans"),
                           ("snap", "moves character spans onto the other side's tokens")):
            if getattr(args, name, None):
                raise ValueError(f"{_option(name)} {what}, but both --gold and --pred hold tokens; it applies when "
                                 "a side holds texts")
    if units == {"characters"} and args.snap:
        raise ValueError("--snap moves character spans onto the other side's tokens, but both --gold and --pred hold "
                         "texts; it applies when one side holds tokens")


def check_units(references: Corpus, predictions: Corpus) -> None:
    """Refuse texts found only on reading, beside tokens (a pipe is read once, so its format was not known
    beforehand): name the option that scores them as texts."""
    if references.unit == predictions.unit:
        return
    option, corpus = ("--gold-format", references) if references.unit == "characters" else ("--pred-format",
                                                                                            predictions)
    raise ValueError(f"{corpus.source} holds texts ({corpus.format}: character offsets), which was known only once "
                     f"it was read, beside a side of tokens; give {option} {corpus.format} to score it as texts "
                     "(the character spans are then placed against the tokens, every boundary inside a token counted)")


def read_any(path: str, format: str | None, args: argparse.Namespace, score_column: int | None = None) -> Corpus:
    """A side as a corpus: texts, span formats, or tag columns decoded to spans (seqeval's default mode);
    ``score_column`` (a list index) gives a column file's spans the mean score of their tokens."""
    if format in PATH_FORMATS or (format is None and path_format(path)):
        corpus = read_corpus(path, format, types=args.types, spans_key=args.spans_key)
    else:
        side = read_side(path, format, getattr(args, "delimiter", None))
        corpus = side if isinstance(side, Corpus) else _decoded(side, args, score_column)
    if score_column is not None and corpus.format != COLUMNS:
        raise ValueError(f"--score-column names a column of a CoNLL column file, but {path} holds {corpus.format}; "
                         "leave it out (the scores of span files are read from their entities)")
    return corpus


def _decoded(side: ColumnFile, args: argparse.Namespace, score_column: int | None) -> Corpus:
    """A column file's tags decoded to spans, with their scores when a score column is named."""
    options = {key: getattr(args, key, None) for key in ("scheme", "mode")}
    tags = getattr(args, "column", -1)
    if score_column is not None and side.blocks:
        number = score_column + 1 if score_column >= 0 else score_column
        if not -side.width <= score_column < side.width:
            raise ValueError(f"{side.name}: --score-column {number} is beyond the file's {side.width} columns "
                             f"(line {side.lines[0]}); columns count from 1, or from the end with -1")
        if score_column % side.width == tags % side.width:
            raise ValueError(f"{side.name}: --score-column {number} is the tag column; name the tag column with "
                             "--column")
    spans = tags_to_spans(tag_column(side, tags), suffix=getattr(args, "suffix", False), **options)
    scores = None if score_column is None else column_scores(side, spans, score_column)
    mode = f"strict mode, {options['scheme'] or 'scheme detected'}" if options["mode"] else "seqeval's default mode"
    return Corpus(side.tokens, spans, format=COLUMNS, conversion=f"tags decoded to spans ({mode})", source=side.name,
                  scores=scores)


def score_files(args: argparse.Namespace, metric: str, **options: Any) -> tuple[dict[str, Any], TextPair,
                                                                                  dict[str, Corpus]]:
    """The metric's result (with its alignment report) for the two files, the pair, and both corpora as read."""
    (gold, gold_format), (pred, pred_format) = formats(args)
    sides = {"references": read_any(gold, gold_format, args), "predictions": read_any(pred, pred_format, args)}
    check_text_options(args, sides)
    tag_options = [f"--{key}" for key in ("scheme", "mode", "suffix") if getattr(args, key, None)]
    if tag_options and all(corpus.format != COLUMNS for corpus in sides.values()):
        verb = "apply" if len(tag_options) > 1 else "applies"
        raise ValueError(f"{' and '.join(tag_options)} {verb} to tag columns, but neither file holds them")
    try:
        pair = pair_texts(sides["predictions"], sides["references"], trim=args.trim, snap=args.snap)
    except (ValueError, TypeError) as error:
        raise for_people(error) from None
    with duplicates_in_output():
        return score_pair(pair, metric, zero_division=0, **options), pair, sides


def test_set(pair: TextPair) -> dict[str, Any]:
    """The gold side's size in documents and characters, as the nested command prints it for tokens."""
    entities = check_entities(pair.references, pair.lengths, "references")
    size = describe_spans(entities.spans, pair.lengths)
    out: dict[str, Any] = {"documents": size.pop("sentences"), "characters": size.pop("tokens")}
    return {**out, **size, "discontinuous": len(entities.fragmented)}


def describe_inputs(args: argparse.Namespace, sides: Mapping[str, Corpus], pair: TextPair) -> list[str]:
    """The lines that say what was read and how the sides were paired."""
    names = {"references": ("gold:       ", args.gold), "predictions": ("predictions:", args.pred)}
    lines = [f"{names[side][0]} {names[side][1]} ({corpus.format}, {corpus.unit}; {corpus.conversion})"
             for side, corpus in (("references", sides["references"]), ("predictions", sides["predictions"]))]
    by = "id" if sides["references"].sentence_ids is not None and sides["predictions"].sentence_ids is not None \
        else "order"
    projected = pair.report.projected
    how = (f"the {projected}' character spans placed against the other side's tokens" if projected
           else "both sides texts, compared character by character")
    lines.append(f"aligned by {by}: {how}")
    return lines


def alignment_lines(alignment: Mapping[str, Any]) -> list[str]:
    """The alignment report for people: each side's categories, the spans trimmed and snapped, examples."""
    lines = []
    for side in SIDES:
        counts = alignment[side]
        shown = ", ".join(f"{key.replace('_', ' ')} {value}" for key, value in counts.items()
                          if key != "total" and (value or key in ("matched", "spurious", "missed")))
        lines.append(f"{side}: {counts['total']} spans: {shown}")
    changed = [f"{what} {alignment[f'{what}_{side}']} {side}" for what in ("trimmed", "snapped") for side in SIDES
               if alignment[f"{what}_{side}"]]
    if changed:
        lines.append("changed: " + ", ".join(changed))
    read = [f"{side}: {key.replace('_', ' ')} {value}" for side in SIDES for key, value in alignment["read"][side].items()]
    if read:
        lines.append("read: " + ", ".join(read))
    for example in alignment["examples"]:
        lines.append(f"  {example['side']}, id {example['id']!r}: {example['category'].replace('_', ' ')}: "
                     f"{example['span']} {example['text']!r} in {example['context']!r}")
    return lines


def dump(value: Any) -> str:
    """The JSON the commands print."""
    return json.dumps(value, indent=2, ensure_ascii=False) + "\n"

