"""Answer systems in a benchmark: their located spans beside span systems, and their string protocol.

A prediction source is an answer system when it is a file of answers
(detected by :func:`nested_span_f1.answers.read.looks_like_answers`) or a
:class:`~nested_span_f1.answers.read.Answers`. Its strings are placed on the
gold's texts (:func:`nested_span_f1.answers.count_answers`, default
settings) and the located spans are matched like any system's, against the gold
in characters, so they get the same intervals and take part in the same paired
tests. Its string protocol is resampled with the same draws (the same seed) and
reported beside, with intervals, as the system's ``strings`` entry; it takes no
part in the paired tests, whose counts must share one gold.
"""
from __future__ import annotations

import os
from collections.abc import Callable, Sequence
from typing import Any

import numpy as np

from ..align.project import locate_tokens
from ..align.score import words
from ..answers.read import Answers, answers_file
from ..answers.score import AnswersRun, count_answers, report
from ..flat.pipeline import tags_to_spans
from ..formats import Corpus
from ..formats.places import in_file
from ..formats.registry import path_format
from .inputs import Pair, Side
from .stats import bootstrap_sums

ANSWERS = "answers"
"""The format name of a language model's answers (``pred_format``): strings placed on the gold's text."""


def is_answers(source: Any) -> bool:
    """Whether a prediction source is an answer system (a file of one, or one read)."""
    if isinstance(source, Answers):
        return True
    if isinstance(source, (str, os.PathLike)) and not path_format(os.fspath(source)):
        return answers_file(source)
    return False


def answers_pair(gold: Side, source: Any, name: str) -> tuple[Pair, AnswersRun]:
    """The located spans of an answer system and the gold, both in characters, and the run that placed them; the
    units are the gold's tokens located in its texts, or the texts' words for a gold of texts."""
    corpus = gold.corpus
    if corpus is None and gold.columns is not None:
        try:
            decoded = tags_to_spans(gold.columns.column(-1))
        except ValueError as error:
            raise in_file(error, gold.columns) from None
        corpus = Corpus(gold.columns.tokens, decoded, source=gold.name)
    if corpus is None:
        raise ValueError(f"{name} is an answer system, whose strings are placed on the gold's text, but the gold "
                         f"({gold.name}) holds neither texts nor tokens")
    run = count_answers(source, corpus, per_document=True)
    located = run.located.spans()
    texts = [str(text) for text in run.gold.tokens]
    if corpus.unit == "tokens":
        units = [locate_tokens(list(tokens), text, f"{gold.name}, sentence {s + 1}")
                 for s, (tokens, text) in enumerate(zip(corpus.tokens, texts))]
    else:
        units = words(texts)
    return Pair(located, run.gold.spans(), run.gold.discontinuous(), units), run


def string_matrix(run: AnswersRun, unit_of: np.ndarray, n_units: int, labels: Sequence[str]) -> np.ndarray:
    """``[n_units, 3, n_labels]`` string-protocol counts (tp, predicted, gold) of a run, summed by unit."""
    index = {label: k for k, label in enumerate(labels)}
    matrix = np.zeros((n_units, 3, len(labels)), dtype=np.int64)
    for document, tallies in enumerate(run.string_documents or ()):
        for label, counts in tallies.items():
            matrix[unit_of[document], :, index[label]] += counts
    return matrix


def string_scores(run: AnswersRun, unit_of: np.ndarray, n_units: int, labels: Sequence[str], n_resamples: int,
                  seed: int, scored: Callable[[np.ndarray, np.ndarray], dict[str, Any]]) -> dict[str, Any]:
    """An answer system's extra entries: ``strings`` (the string protocol's precision, recall and F1 with
    intervals from the same draws as the located spans' (the same seed), and per type; ``scored`` turns totals and
    resampled sums into them, as for every system) and ``answers`` (the placement report, as
    :func:`nested_span_f1.answers.score_answers` gives it, without examples)."""
    matrix = string_matrix(run, unit_of, n_units, labels)
    drawn = bootstrap_sums(matrix.reshape(n_units, -1), n_resamples, seed).reshape(-1, 3, len(labels))
    totals = matrix.sum(axis=0)
    per_type = {label: scored(totals[:, k], drawn[:, :, k]) for k, label in enumerate(labels) if totals[1:, k].any()}
    placed = {key: value for key, value in report(run).items() if key != "examples"}
    return {"strings": {**scored(totals.sum(axis=-1), drawn.sum(axis=-1)), "per_type": per_type},
            "answers": placed}
