"""``nested-span-f1 nested``: score a nested-NER prediction file against a gold file.

Prints the test set's size first (GENIA alone has two test splits in use whose
scores are not comparable), then what was found in the inputs (duplicates,
crossing spans, discontinuous entities), then overall, per-type and breakdown
tables.
"""
from __future__ import annotations

import argparse
import json
import os
import sys
from collections.abc import Callable, Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass
from typing import Any, NamedTuple

from ...core.entities import check_entities
from ...core.wording import plural
from ...formats import FORMATS, PATH_FORMATS, Corpus, UnknownFormat, align, read_batches
from ...nested.score import NestedCounts, count_entities, count_nested, describe_spans, summarize_nested
from ...render.tables import table
from . import answers, texts
from .batches import UnequalLengths, add_counts, side_by_side
from .files import holds_answers, score_files
from .inputs import (
    COLUMNS,
    add_command,
    add_format_options,
    check_outputs,
    duplicates_in_output,
    for_people,
    progress,
)
from .tables import Counted, add_table_options, count_table, header, is_table, length_unit
from .texts import add_text_options

BREAKDOWN_TITLES = {
    "by_nesting": "nested vs flat",
    "by_depth": "nesting depth (1 = outermost)",
    "by_length": "span length (tokens)",
    "by_continuity": "contiguous vs discontinuous",
}


def _epilog() -> str:
    known = "\n".join([*(f"  {f.describe()}" for f in FORMATS.values()),
                       *(f"  {name}: {what}" for name, what in PATH_FORMATS.items())])
    return f"""more examples:
  nested-span-f1 nested --gold genia.test.jsonl --pred predictions.jsonl --json
  nested-span-f1 nested --gold test.json --pred pred.txt --gold-format w2ner --pred-format biaffine --json
  nested-span-f1 nested --gold corpus/ --pred pipeline-output.jsonl --trim    # brat gold, pipeline predictions

formats (detected, or named with --gold-format / --pred-format; aliases work too;
`nested-span-f1 formats` shows one sentence in each):
{known}"""


def add_parser(sub: argparse._SubParsersAction) -> None:
    p, io = add_command(
        sub, "nested", "nested-span-f1 nested --gold nested.gold.jsonl --pred nested.pred.jsonl",
        "Exact span F1 of a nested-NER prediction file against a gold file (overlapping and nested spans allowed), "
        "with breakdowns by nesting, depth, length and continuity. Prints the test set's size first: GENIA's two "
        "test splits in use give scores that are not comparable.",
        _epilog(), usage="%(prog)s --gold GOLD --pred PRED [options]",
    )
    io.add_argument("--gold", required=True, help="gold file in one of the nested-NER formats")
    io.add_argument("--pred", required=True, help="prediction file (same sentences as --gold)")
    io.add_argument("--json", action="store_true", help="print the result as JSON")
    add_format_options(p)
    add_text_options(p)
    answers.add_answer_options(p)
    add_table_options(p, spans=True)
    p.set_defaults(run=run)


def score_corpora(gold: Corpus, pred: Corpus) -> dict[str, Any]:
    """The nested result of two aligned corpora; duplicates are counted in the result, not warned about."""
    with duplicates_in_output():
        return summarize_nested(count_nested(pred.entities, gold.entities, lengths=gold.lengths), zero_division=0)


class Sentence(NamedTuple):
    """One sentence of a nested file: what a :class:`Corpus` holds for it."""

    tokens: Sequence[str]
    entities: Sequence[Any]
    sentence_id: str | None
    doc_id: str | None


class NestedFile:
    """A nested-NER file read a batch of records at a time; its format and conversion are known once read.

    ``progress`` is called with the bytes of each batch read (see :func:`read_batches`).
    """

    def __init__(self, path: str, format: str | None, progress: Callable[[int], object] | None = None) -> None:
        self.path, self.format, self.conversion, self.has_ids = path, format, "", True
        self.progress = progress

    def sentences(self) -> Iterator[Sentence]:
        for corpus in read_batches(self.path, self.format, progress=self.progress):
            self.format, self.conversion = corpus.format, corpus.conversion
            ids, docs = corpus.sentence_ids, corpus.doc_ids
            self.has_ids = self.has_ids and ids is not None
            for s in range(len(corpus)):
                yield Sentence(corpus.tokens[s], corpus.entities[s], None if ids is None else ids[s],
                               None if docs is None else docs[s])


def _corpus(sentences: Sequence[Sentence], source: str) -> Corpus:
    """A batch of sentences, read (and so checked) by :func:`read_batches`, as one corpus to align."""
    ids = [s.sentence_id for s in sentences if s.sentence_id is not None]
    return Corpus([s.tokens for s in sentences], [s.entities for s in sentences],
                  ids if len(ids) == len(sentences) else None, None, source=source, checked=True)


@dataclass(frozen=True)
class Batch:
    """The counts of a batch of sentences and the size of its gold side (:func:`describe_spans`); adds."""

    counts: NestedCounts
    size: Mapping[str, Any]

    def __add__(self, other: Batch) -> Batch:
        # every figure is a sum over sentences, but the deepest nesting and the nested share
        size = {key: max(value, other.size[key]) if key == "max_depth" else value + other.size[key]
                for key, value in self.size.items()}
        return Batch(self.counts + other.counts, size)

    def test_set(self) -> dict[str, Any]:
        """The gold side's size as :func:`describe_spans` gives it for the whole file."""
        size = dict(self.size)
        size["nested_share"] = size["nested"] / size["entities"] if size["entities"] else 0.0
        return size


class _OutOfOrder(Exception):
    """The files carry sentence ids in different orders, or one has sentences the other lacks: they are paired
    by id, reading them whole."""


def _count(gold: Corpus, pred: Corpus, first: int) -> Batch:
    """The counts of two corpora paired by :func:`~nested_span_f1.formats.align` (by id, else by order), and the
    gold side's size; errors count sentences from ``first``."""
    try:
        # the sentences were checked when read; these are the arrays the count and the test set's size share
        lengths = gold.lengths
        references = check_entities(gold.entities, lengths, "references")
        counts = count_entities(check_entities(align(gold, pred).entities, lengths, "predictions"), references)
    except (ValueError, TypeError) as error:
        raise for_people(error, first=first) from None
    return Batch(counts, {**describe_spans(references.spans, lengths), "discontinuous": len(references.fragmented)})


def count_files(gold: NestedFile, pred: NestedFile, whole: bool = False) -> Batch:
    """The counts of two nested files, a batch of sentences at a time while they list the same sentences in one
    order; ``whole``: each file read whole, and when both carry sentence ids the two paired as one corpus by
    :func:`~nested_span_f1.formats.align`'s rule, so that a sentence missing, added or moved is named as every
    command names it.

    Raises:
        _OutOfOrder: (not ``whole``) both files carry sentence ids, and they differ in order or number.
    """
    gold_sentences: Iterable[Sentence] = gold.sentences()
    pred_sentences: Iterable[Sentence] = pred.sentences()
    if whole:
        gold_sentences, pred_sentences = list(gold_sentences), list(pred_sentences)
        g, p = _corpus(gold_sentences, gold.path), _corpus(pred_sentences, pred.path)
        if g.sentence_ids is not None and p.sentence_ids is not None:
            with duplicates_in_output():
                return _count(g, p, 0)

    def count(batch: list[tuple[Sentence, Sentence]], first: int) -> Batch:
        g, p = _corpus([g for g, _ in batch], gold.path), _corpus([p for _, p in batch], pred.path)
        if g.sentence_ids is not None and p.sentence_ids is not None and g.sentence_ids != p.sentence_ids:
            raise _OutOfOrder
        return _count(g, p, first)

    with duplicates_in_output():
        try:
            return add_counts(side_by_side(gold_sentences, pred_sentences, gold.path, pred.path), count,
                              size=lambda pair: len(pair[0].tokens), batch_tokens=sys.maxsize if whole else None)[0]
        except UnequalLengths:
            if gold.has_ids and pred.has_ids and not whole:
                raise _OutOfOrder from None
            raise


def breakdown_table(buckets: Mapping[str, Mapping[str, Any]], title: str, digits: int = 4) -> str:
    """One breakdown as a table: bucket, precision, recall, f1, gold number, predicted."""
    width = max([len(b) for b in buckets] + [8])
    lines = [f"{title}", f"{'':>{width}}  {'precision':>9}  {'recall':>9}  {'f1':>9}  {'number':>7}  {'predicted':>9}"]
    for name, row in buckets.items():
        lines.append(f"{name:>{width}}  {row['precision']:>9.{digits}f}  {row['recall']:>9.{digits}f}  "
                     f"{row['f1']:>9.{digits}f}  {row['number']:>7}  {row['predicted']:>9}")
    return "\n".join(lines) + "\n"


def run_texts(args: argparse.Namespace) -> int:
    """``nested`` when a side holds texts: both files read whole, paired and aligned; lengths in characters."""
    result, pair, sides = score_files(args, "nested", answers=False)
    assert pair is not None and sides is not None  # not answers: texts, paired
    size = texts.test_set(pair)
    if args.json:
        sys.stdout.write(texts.dump({"test_set": size, **result}))
        return 0
    out = [
        *texts.describe_inputs(args, sides, pair),
        size_line({**size, "sentences": size["documents"]}, "document"),
        *texts.alignment_lines(result["alignment"]),
        "",
        table(result),
    ]
    titles = {**BREAKDOWN_TITLES, "by_length": "span length (characters)"}
    out += [breakdown_table(result[key], title) for key, title in titles.items() if key in result]
    sys.stdout.write("\n".join(out))
    return 0


def _breakdowns(located: Mapping[str, Any]) -> str:
    """The located spans' breakdowns of an answer system (span lengths in characters)."""
    titles = {**BREAKDOWN_TITLES, "by_length": "span length (characters)"}
    return "\n".join(breakdown_table(located[key], title) for key, title in titles.items() if key in located)


def run(args: argparse.Namespace) -> int:
    check_outputs([(f"--gold {args.gold}", args.gold), (f"--pred {args.pred}", args.pred)])
    if is_table(args):
        counted = count_table(args, "nested", tokens=True)
        size = counted_test_set(counted, length_unit(args) if args.lengths_column else "tokens")
        return write(args, summarize_nested(counted.counts, zero_division=0), size,
                     [header(args, counted.rows).rstrip(), size_line(size),
                      *texts.outside_tallies(counted.counts.counts.labels)])
    if holds_answers(args):
        return answers.run_answers(args, "nested", _breakdowns)
    if texts.holds_texts(args):
        return run_texts(args)
    texts.refuse_text_options(args, "files of token spans")
    if COLUMNS in (args.gold_format, args.pred_format):
        raise ValueError("tag columns (conll) against tag columns are scored by `nested-span-f1 score` or "
                         "`nested-span-f1 lenient`; here they are taken against texts only")
    # the files are read side by side: how far the gold file is read is how far the scoring is
    with progress(args.gold) as bar:
        read = None if bar.disable else bar.update
        gold, pred = NestedFile(args.gold, args.gold_format, read), NestedFile(args.pred, args.pred_format)
        # files out of order are read again, whole; a pipe can be read only once, so it is read whole at once
        whole = not (os.path.isfile(args.gold) and os.path.isfile(args.pred))
        try:
            total = count_files(gold, pred, whole)
        except UnknownFormat as error:
            raise ValueError(f"{error}. A file of tag columns (token ... tag) is scored by `nested-span-f1 score` "
                             "or `nested-span-f1 lenient`") from None
        except _OutOfOrder:
            bar.reset()
            gold, pred = NestedFile(args.gold, args.gold_format, read), NestedFile(args.pred, args.pred_format)
            total = count_files(gold, pred, whole=True)
    size = total.test_set()
    about = [
        f"gold:        {args.gold} ({gold.format}; {gold.conversion})",
        f"predictions: {args.pred} ({pred.format}; {pred.conversion})",
        f"aligned by {'sentence id' if gold.has_ids and pred.has_ids else 'order'}",
        size_line(size),
        *texts.outside_tallies(total.counts.counts.labels),
    ]
    return write(args, summarize_nested(total.counts, zero_division=0), size, about)


def size_line(size: Mapping[str, Any], item: str = "sentence") -> str:
    """The test set's size in one line: sentences (or documents), tokens (or characters) where known, entities,
    nesting."""
    lengths = "".join(f", {plural(size[unit], unit[:-1])}" for unit in ("tokens", "characters") if unit in size)
    several = (f"{plural(size['multi_label_spans'], 'span')} with several labels, " if "multi_label_spans" in size
               else "")
    return (f"test set: {plural(size['sentences'], item)}{lengths}, {plural(size['entities'], 'entity', 'entities')} "
            f"({several}{size['discontinuous']:,} discontinuous), {100 * size['nested_share']:.1f}% nested, "
            f"max depth {size['max_depth']}")


def counted_test_set(counted: Counted, unit: str) -> dict[str, Any]:
    """The gold side's size of a Parquet table, from what its rows gave in the workers (the counts, the rows, the
    lengths column's sum): the keys of :func:`describe_spans` but ``multi_label_spans``, which counts do not hold."""
    counts, notes = counted.counts, counted.counts.counts.notes
    entities = counts.counts.total.gold
    nested = counts.breakdowns["by_nesting"]["nested"].gold
    size: dict[str, Any] = {"sentences": counted.rows}
    if counted.tokens is not None:
        size[unit] = counted.tokens
    size.update(entities=entities, duplicates=notes.get("duplicate_references", 0), nested=nested,
                nested_share=nested / entities if entities else 0.0,
                max_depth=max((int(depth) for depth, tally in counts.breakdowns["by_depth"].items() if tally.gold),
                              default=0),
                crossing_pairs=notes.get("crossing_references", 0),
                discontinuous=notes.get("discontinuous_references", 0))
    return size


def write(args: argparse.Namespace, result: dict[str, Any], size: Mapping[str, Any] | None, about: list[str]) -> int:
    """The result as JSON (with the test set's size, when known), or as lines about the inputs and tables."""
    if args.json:
        json.dump(result if size is None else {"test_set": size, **result}, sys.stdout, indent=2)
        sys.stdout.write("\n")
        return 0
    out = [
        *about,
        (f"found: duplicates {result['duplicate_references']} gold / {result['duplicate_predictions']} predicted; "
         f"crossing pairs {result['crossing_references']} gold / {result['crossing_predictions']} predicted; "
         f"discontinuous {result['discontinuous_references']} gold / {result['discontinuous_predictions']} predicted"),
        "",
        table(result),
    ]
    out += [breakdown_table(result[key], title) for key, title in BREAKDOWN_TITLES.items() if key in result]
    sys.stdout.write("\n".join(out))
    return 0
