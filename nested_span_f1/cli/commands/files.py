"""The two files ``score``, ``lenient``, ``nested`` and ``answers`` name, scored by a metric: :func:`score_files`.

What the prediction file holds decides how: a language model's answers are
placed on the gold's text and scored under both protocols; texts (and, for
``exact``, files of token spans) are paired document by document with every
alignment decision counted; tag columns and token spans scored by ``lenient``
are read side by side. ``score`` and ``nested`` stream tag columns and token
spans themselves, a batch of sentences at a time, and Parquet tables are counted
by :mod:`.tables`: neither comes here.
"""
from __future__ import annotations

import argparse
from collections.abc import Mapping
from typing import Any, NamedTuple

from ...align.score import TextPair, pair_texts, score_pair
from ...answers.gold import read_string_gold, string_gold_file
from ...answers.normalize import Normalization
from ...answers.read import answers_file
from ...answers.score import count_answers, score_run
from ...core.wording import options_apply, quote
from ...formats import Corpus, align
from ...formats.columns import ColumnFile, check_same_tokens, read_text
from ...lenient.score import score_lenient
from . import texts
from .inputs import ANSWERS, COLUMNS, Side, decode_tags, duplicates_in_output, for_people, read_side, tag_column


class Scored(NamedTuple):
    """A metric's result for two files; for texts, also how they were paired and both sides as read (what the
    commands' headers describe)."""

    result: dict[str, Any]
    pair: TextPair | None = None
    sides: dict[str, Corpus] | None = None


def score_files(args: argparse.Namespace, metric: str, read: Mapping[str, Side] | None = None,
                answers: bool | None = None, **options: Any) -> Scored:
    """The metric's result for the two files the arguments name (``read``: the sides read already, pipes, as
    :func:`.texts.read_pipes` reads them; ``answers``: whether the prediction file holds a language model's answers,
    None to detect it; ``options``: the metric's, such as ``partial_weight``).

    A language model's answers (named, or :func:`holds_answers`): both protocols, the located spans scored by ``metric``.
    ``lenient`` of tag columns or token spans: read side by side, as :func:`nested_span_f1.score_lenient` scores
    them. Anything else: both sides as spans, paired by document, with the alignment report.

    Raises:
        ValueError: as the readers do, for an option the files give nothing to do, and when no answer can be read.
    """
    if holds_answers(args) if answers is None else answers:
        return Scored(_answers(args, metric, **options))
    if metric == "lenient" and not texts.holds_texts(args):
        return Scored(_lenient_sides(args, **options))
    (gold, gold_format), (pred, pred_format) = texts.formats(args)
    sides = {"references": texts.read_any(gold, gold_format, args, read=read),
             "predictions": texts.read_any(pred, pred_format, args, read=read)}
    texts.check_text_options(args, sides)
    tag_options = [f"--{key}" for key in ("scheme", "mode", "suffix") if getattr(args, key, None)]
    if tag_options and all(corpus.format != COLUMNS for corpus in sides.values()):
        raise ValueError(f"{options_apply(tag_options)} to tag columns, but neither file holds them")
    try:
        pair = pair_texts(sides["predictions"], sides["references"], trim=args.trim, snap=args.snap)
    except (ValueError, TypeError) as error:
        raise for_people(error) from None
    with duplicates_in_output():
        return Scored(score_pair(pair, metric, zero_division=0, **options), pair, sides)


def holds_answers(args: argparse.Namespace) -> bool:
    """Whether the prediction file is an answer system's: named so, or detected from its first lines, each read
    whole (a pipe can be read once, by its reader: an answer system through one is named with --pred-format)."""
    if args.pred_format is not None:
        return bool(args.pred_format == ANSWERS)
    return answers_file(args.pred)


def read_gold(args: argparse.Namespace) -> Any:
    """The gold of answers: texts with their entities as strings (named ``answers``, or detected), or any corpus."""
    if args.gold_format == ANSWERS:
        return read_string_gold(read_text(args.gold), args.gold)
    return (args.gold_format is None and string_gold_file(args.gold)) or texts.read_any(args.gold, args.gold_format,
                                                                                        args)


def _answers(args: argparse.Namespace, metric: str, **options: Any) -> dict[str, Any]:
    """Both protocols of an answer system; refused when no answer of the file can be read."""
    try:
        Normalization.parse(args.normalization)
        given = [f"--{name}" for name in ("trim", "snap") if getattr(args, name, None)]
        if given:
            raise ValueError(f"{options_apply(given)} to spans of two texts, "
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


def _as_corpus(side: Side, args: argparse.Namespace) -> Corpus:
    if isinstance(side, Corpus):
        return side
    spans = decode_tags(side, args.column, scheme=args.scheme, mode=args.mode, suffix=args.suffix)
    return Corpus(side.tokens, spans, format="conll", conversion="tags decoded to spans", source=side.name)


def _lenient_sides(args: argparse.Namespace, **options: Any) -> dict[str, Any]:
    """The lenient result of two files of tag columns or token spans: two column files scored as tag sequences,
    otherwise both sides as spans aligned sentence by sentence (the discontinuous entities left out counted)."""
    texts.refuse_text_options(args, "column files or files of token spans")
    gold = read_side(args.gold, args.gold_format, args.delimiter)
    pred = read_side(args.pred, args.pred_format, args.delimiter)
    options = {**options, "zero_division": 0}
    try:
        with duplicates_in_output():
            if isinstance(gold, ColumnFile) and isinstance(pred, ColumnFile):
                predicted, tags = tag_column(pred, args.column), tag_column(gold, args.column)
                check_same_tokens(gold, pred)
                return score_lenient(predicted, tags, scheme=args.scheme, mode=args.mode, suffix=args.suffix,
                                     **options)
            references, predictions = _as_corpus(gold, args), _as_corpus(pred, args)
            texts.check_units(references, predictions)
            predictions = align(references, predictions)
            result = score_lenient(predictions.spans(), references.spans(), **options)
    except (ValueError, TypeError) as error:
        raise for_people(error, gold, pred) from None
    # the lenient metric scores contiguous spans; say how many discontinuous entities it left out
    skipped = {"unscored_discontinuous_references": references.discontinuous(),
               "unscored_discontinuous_predictions": predictions.discontinuous()}
    return {**result, **{k: v for k, v in skipped.items() if v}}
