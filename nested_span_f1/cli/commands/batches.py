"""Scoring files of any size in bounded memory: sentences in batches, the counts of the batches added.

The commands read their files a sentence at a time; this module gathers the
sentences into batches of about :data:`BATCH_TOKENS` tokens, counts each batch
with one call of the core (whose per-call cost is then small) and adds the
counts, which equal the counts of one call on the whole file.
"""
from __future__ import annotations

from collections.abc import Callable, Iterable, Iterator
from itertools import zip_longest
from typing import TypeVar

from ...core.wording import plural

BATCH_TOKENS = 50_000
"""Tokens per batch: large enough that the core's per-call cost is small, small enough that a batch's
Python lists stay a few megabytes."""

S = TypeVar("S")
C = TypeVar("C")


def add_counts(sentences: Iterable[S], count: Callable[[list[S], int], C], size: Callable[[S], int],
               batch_tokens: int | None = None) -> tuple[C, int]:
    """The counts of ``sentences``, as ``count(batch, first)`` of consecutive batches added, and the
    number of sentences.

    ``size`` gives a sentence's tokens; ``first`` is the index of a batch's first
    sentence in the whole stream (for messages); ``batch_tokens`` defaults to
    :data:`BATCH_TOKENS`. No sentences at all are counted as one empty batch.
    """
    batch_tokens = batch_tokens or BATCH_TOKENS
    total: C | None = None
    batch: list[S] = []
    tokens = first = 0
    stream = iter(sentences)
    while True:
        try:
            sentence = next(stream)
        except StopIteration:
            break
        except ValueError:
            # the stream ends in an error (one file ended early): the sentences read before it are counted
            # first, so that a difference among them (a sentence missing, split or merged) is what is named
            if batch:
                count(batch, first)
            raise
        batch.append(sentence)
        tokens += size(sentence)
        if tokens >= batch_tokens:
            counts = count(batch, first)
            total = counts if total is None else total + counts  # type: ignore[operator]
            first, batch, tokens = first + len(batch), [], 0
    if batch or total is None:
        counts = count(batch, first)
        total = counts if total is None else total + counts  # type: ignore[operator]
    return total, first + len(batch)


A = TypeVar("A")
B = TypeVar("B")


class UnequalLengths(ValueError):
    """One file of a pair has more sentences than the other (:func:`side_by_side`)."""


def side_by_side(gold: Iterable[A], pred: Iterable[B], gold_name: str, pred_name: str) -> Iterator[tuple[A, B]]:
    """The sentences of two files in pairs; :class:`UnequalLengths` when one file has more sentences than the
    other."""
    n = 0
    for n, (g, p) in enumerate(zip_longest(gold, pred, fillvalue=_END), 1):
        if g is _END or p is _END:
            longer, shorter = (pred_name, gold_name) if g is _END else (gold_name, pred_name)
            raise UnequalLengths(f"{longer} has more sentences than {shorter}, which ends after {plural(n - 1, 'sentence')}; "
                             "they must align sentence by sentence")
        yield g, p  # type: ignore[misc]


_END = object()
