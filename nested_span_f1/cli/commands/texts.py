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

from ...align.score import SIDES, TextPair
from ...core.entities import check_entities
from ...core.wording import options_apply, plural, quote
from ...formats import FORMATS, PATH_FORMATS, Corpus, UnknownFormat, detect_format
from ...formats.columns import ColumnFile, column_scores
from ...formats.corpus import SUSPICIOUS
from ...formats.offsets import CODEPOINTS, UNITS, OffsetsError, unit_of
from ...formats.registry import BATCH_LINES, OFFSET_FORMATS, head, looks_like_json, path_format, read_file
from ...nested.score import describe_spans
from .inputs import COLUMNS, TEXTS, Side, decode_tags, read_side

JSON = "json"
"""What :func:`input_format` calls a json file that no format fits (or that does not parse): its reader names why."""


def add_text_options(parser: argparse.ArgumentParser) -> None:
    """``--trim``, ``--snap``, ``--types`` and ``--spans-key``: how texts are read and aligned."""
    group = parser.add_argument_group(TEXTS)
    group.add_argument("--trim", action="store_true", help="trim whitespace at span edges on both sides (counted)")
    group.add_argument("--snap", choices=["expand", "contract"],
                       help="move character spans whose boundaries are not token boundaries onto the other side's "
                            "tokens (counted); default: keep their characters, so they cannot match")
    add_reader_options(group)


def add_reader_options(group: Any, sides: bool = True) -> None:
    """``--types``, ``--no-event-triggers``, ``--spans-key`` and ``--offsets``: how brat files, DocBins and character
    offsets are read (for the commands that score texts, and ``answers``'s gold); ``sides``: ``--offsets`` may name
    the gold's or the prediction's unit (else one unit, for every file)."""
    group.add_argument("--types", nargs="+", metavar="TYPE", help="brat: keep the T lines of these types only")
    group.add_argument("--no-event-triggers", action="store_true",
                       help="brat: leave out the T lines that E lines use as event triggers (by default they are "
                            "scored as entities, as brat shows them; the header counts T lines as entities and event "
                            "triggers)")
    group.add_argument("--spans-key", metavar="KEY", help="spaCy DocBin: read doc.spans[KEY] instead of doc.ents")
    group.add_argument("--offsets", type=offsets_option if sides else unit_option, default={},
                       metavar="[SIDE=]UNIT" if sides else "UNIT",
                       help="what the character offsets of text spans, pipeline output and brat count: codepoints "
                            "(the default, as Python, Hugging Face and spaCy count), utf16 (as JavaScript and Java "
                            "tools count: an emoji is 2) or bytes (UTF-8)" + ("; for one side only, gold=UNIT or "
                            "pred=UNIT (joined by a comma for both)" if sides else ""))


def offsets_option(value: str) -> dict[str, str]:
    """An argparse type: ``--offsets UNIT`` (every file of character offsets) or ``gold=UNIT``, ``pred=UNIT`` (one
    side; comma-joined for both), as ``{"": unit}`` or ``{side: unit}``."""
    parts = [part.rpartition("=")[::2] for part in value.split(",")]
    given = dict(parts)
    sides = {"gold", "pred"} if len(parts) > 1 else {"", "gold", "pred"}
    if len(given) < len(parts) or not set(given) <= sides or not set(given.values()) <= set(UNITS):
        raise argparse.ArgumentTypeError(f"--offsets takes a unit, {', '.join(UNITS)}, or gold=UNIT and pred=UNIT "
                                         f"joined by a comma; got {quote(value)}")
    return given


def unit_option(value: str) -> dict[str, str]:
    """An argparse type: ``--offsets UNIT`` of a command that reads no gold and prediction (``{"": unit}``)."""
    if value not in UNITS:
        raise argparse.ArgumentTypeError(f"--offsets takes a unit, {', '.join(UNITS)}; got {quote(value)}")
    return {"": value}


def side_offsets(args: argparse.Namespace, side: str) -> str:
    """The unit ``--offsets`` gives the ``gold`` or ``pred`` side (code points when it names none)."""
    return unit_of(getattr(args, "offsets", {}), side)


def input_format(path: str, format: str | None) -> str | None:
    """The format a side is read in: the one named, a path's (brat, spacy), else the one its first lines show,
    each line read whole however long (:func:`~nested_span_f1.formats.registry.head`): ``conll`` when no span
    format fits text that is not json, :data:`JSON` for json no format fits (its reader names why); None for a
    pipe, which only its reader reads (once)."""
    if format:
        return format
    named = path_format(path)
    if named or not os.path.isfile(path):
        return named
    text = head(path, BATCH_LINES)
    try:
        return detect_format(text, path)
    except UnknownFormat:
        return COLUMNS
    except ValueError:  # json that does not parse or that no format fits, json nested too deeply, an empty file
        return JSON if looks_like_json(text) else COLUMNS


def input_unit(path: str, format: str | None) -> str:
    """``characters`` when the file holds texts, else ``tokens`` (:func:`input_format`)."""
    name = input_format(path, format)
    return "characters" if name in PATH_FORMATS or (name in FORMATS and FORMATS[name].unit == "characters") \
        else "tokens"


def holds_texts(args: argparse.Namespace) -> bool:
    """Whether the command scores texts: a side holds them, or an option for texts is given (asked after a
    Parquet table, whose folder is no brat folder)."""
    if args.trim or args.snap or CODEPOINTS not in (side_offsets(args, "gold"), side_offsets(args, "pred")):
        return True
    return any(input_unit(path, fmt) == "characters" for path, fmt in formats(args))


def holds_spans(args: argparse.Namespace) -> bool:
    """Whether a side is anything but tag columns (texts, or spans of a format read or named), or an option for texts
    is given: ``score`` then scores both sides as spans (:func:`.files.score_files`)."""
    return holds_texts(args) or any(input_format(path, fmt) not in (COLUMNS, None) for path, fmt in formats(args))


def formats(args: argparse.Namespace) -> list[tuple[str, str | None]]:
    """``(path, format or None)`` of the gold and the prediction file."""
    return [(args.gold, getattr(args, "gold_format", None)), (args.pred, getattr(args, "pred_format", None))]


READER_OPTIONS = {"types": ("brat", "keeps the T lines of these types in brat files"),
                  "no_event_triggers": ("brat", "leaves out the T lines brat's E lines use as triggers"),
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
        raise ValueError(f"{options_apply(given)} to texts (text spans, pipeline output, brat, spaCy DocBins), "
                         f"but --gold and --pred are {held}; leave {'them' if len(given) > 1 else 'it'} out")


def check_reader_options(args: argparse.Namespace, corpora: Sequence[Corpus],
                         none: str = "neither --gold nor --pred is one") -> None:
    """Refuse ``--types`` when no corpus read is brat, ``--spans-key`` when none is a DocBin (``none`` says so)."""
    for name, (format, what) in READER_OPTIONS.items():
        if getattr(args, name, None) and all(corpus.format != format for corpus in corpora):
            raise ValueError(f"{_option(name)} {what}, but {none}; leave it out")
    for side, unit in getattr(args, "offsets", {}).items():
        held = [corpus for corpus in corpora if not side or corpus.source == getattr(args, side, None)]
        if unit != CODEPOINTS and not any(corpus.format in OFFSET_FORMATS for corpus in held):
            what = f"--{side} {getattr(args, side)} is not one" if side and held else none
            raise ValueError(f"--offsets {f'{side}=' if side else ''}{unit} reads the character offsets of text spans, "
                             f"pipeline output and brat, but {what}; leave it out")


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


def is_pipe(path: str) -> bool:
    """Whether a path can be read only once: it exists, but is neither a regular file nor a folder (a pipe,
    ``<(cat x.jsonl)``, ``/dev/stdin`` fed by one)."""
    return os.path.exists(path) and not os.path.isfile(path) and not os.path.isdir(path)


def read_pipes(args: argparse.Namespace) -> dict[str, Side]:
    """The sides that are pipes with no format named, each read once and whole: what a pipe holds is known only
    from its content (:func:`~.inputs.read_side` detects it), and it cannot be read a second time."""
    return {path: _read_side(path, None, args) for path, format in formats(args) if format is None and is_pipe(path)}


def _read_side(path: str, format: str | None, args: argparse.Namespace) -> Side:
    """:func:`~.inputs.read_side` of one side, its character offsets read in the unit ``--offsets`` gives it; offsets
    that fit only in another unit are refused naming the option for this side (``--offsets pred=utf16``)."""
    side = "pred" if path in (args.pred, getattr(args, "dev_pred", None)) else "gold"
    unit = side_offsets(args, side)
    try:
        if format in PATH_FORMATS or (format is None and path_format(path)):
            return read_file(path, format, types=args.types, spans_key=args.spans_key,
                             event_triggers=not getattr(args, "no_event_triggers", False), offsets=unit)
        return read_side(path, format, getattr(args, "delimiter", None), unit)
    except OffsetsError as error:
        raise ValueError(error.naming(side)) from None


def read_any(path: str, format: str | None, args: argparse.Namespace, score_column: int | None = None,
             read: Mapping[str, Side] | None = None) -> Corpus:
    """A side as a corpus: texts, span formats, or tag columns decoded to spans (seqeval's default mode);
    ``score_column`` (a list index) gives a column file's spans the mean score of their tokens; ``read`` holds the
    sides already read (pipes, :func:`read_pipes`)."""
    side = read[path] if read and path in read else _read_side(path, format, args)
    corpus = _decoded(side, args, score_column) if isinstance(side, ColumnFile) else side
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
    spans = decode_tags(side, tags, suffix=getattr(args, "suffix", False), **options)
    scores = None if score_column is None else column_scores(side, spans, score_column)
    mode = f"strict mode, {options['scheme'] or 'scheme detected'}" if options["mode"] else "seqeval's default mode"
    return Corpus(side.tokens, spans, format=COLUMNS, conversion=f"tags decoded to spans ({mode})", source=side.name,
                  scores=scores)


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
    tokens = all(corpus.unit == "tokens" for corpus in sides.values())
    how = (f"the {projected}' character spans placed against the other side's tokens" if projected
           else "both sides tokens, compared token by token" if tokens
           else "both sides texts, compared character by character")
    lines.append(f"aligned by {by}: {how}")
    return lines


SIDE_NAMES = {"references": "gold", "predictions": "predictions"}


def suspicious_lines(found: Mapping[str, Mapping[str, int]]) -> list[str]:
    """The header's line of suspicious entities (:data:`~nested_span_f1.formats.corpus.SUSPICIOUS`) of each side,
    ``{side: {key: count}}``; none when there are none."""
    said = []
    for side in ("references", "predictions"):
        counts = found.get(side, {})
        kinds = [f"{plural(counts[key], one, many)} ({why})" for key, (one, many, why) in SUSPICIOUS.items()
                 if counts.get(key)]
        if kinds:
            said.append(f"{SIDE_NAMES[side]}: {', '.join(kinds)}")
    return [f"suspicious, scored as given (a conversion bug?): {'; '.join(said)}"] if said else []


def labelled_outside(gold: int, predicted: int) -> list[str]:
    """:func:`suspicious_lines` of sides of tokens (tag columns, token spans, tables), whose entities labelled ``O``
    the metric's per-label counts give (a token is never blank)."""
    return suspicious_lines({"references": {"labelled_O": gold}, "predictions": {"labelled_O": predicted}})


def outside_tallies(labels: Mapping[str, Any]) -> list[str]:
    """:func:`labelled_outside` from an exact-match count's per-label tallies (``Counts.labels``)."""
    outside = [tally for label, tally in labels.items() if label.upper() == "O"]
    return labelled_outside(sum(t.gold for t in outside), sum(t.predicted for t in outside))


def alignment_lines(alignment: Mapping[str, Any]) -> list[str]:
    """The alignment report for people: each side's categories, the spans trimmed and snapped, examples."""
    lines = []
    for side in SIDES:
        counts = alignment[side]
        shown = ", ".join(f"{key.replace('_', ' ')} {value}" for key, value in counts.items()
                          if key != "total" and (value or key in ("matched", "spurious", "missed")))
        lines.append(f"{side}: {plural(counts['total'], 'span')}: {shown}")
    changed = [f"{what} {alignment[f'{what}_{side}']} {side}" for what in ("trimmed", "snapped") for side in SIDES
               if alignment[f"{what}_{side}"]]
    if changed:
        lines.append("changed: " + ", ".join(changed))
    read = [f"{side}: {key.replace('_', ' ')} {value}" for side in SIDES for key, value in alignment["read"][side].items()]
    if read:
        lines.append("read: " + ", ".join(read))
    lines += suspicious_lines(alignment["suspicious"])
    for example in alignment["examples"]:
        lines.append(f"  {example['side']}, {example_place(example)}: {example['category'].replace('_', ' ')}: "
                     f"{example['span']} {quote(example['text'])} in {quote(example['context'])}")
    return lines


def example_place(example: Mapping[str, Any]) -> str:
    """Where an example of the alignment report is: its id when the documents were paired by id; else the document
    (counted from 1), paired by order, and the ids the gold and the prediction have."""
    if example.get("paired_by", "id") == "id":
        return f"id {quote(example['id'])}"
    ids = [f"{side} id {quote(example[key])}" for side, key in (("gold", "id"), ("prediction", "prediction_id"))
           if example.get(key) is not None]
    return f"document {example['document'] + 1} ({', '.join([*ids, 'paired by order'])})"


def dump(value: Any) -> str:
    """The JSON the commands print."""
    return json.dumps(value, indent=2, ensure_ascii=False) + "\n"

