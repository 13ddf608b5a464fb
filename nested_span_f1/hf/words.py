"""Sub-word predictions scored at word level: each word takes its first sub-token's label and prediction.

Trained with every sub-token labelled (run_ner.py's ``label_all_tokens``), a
model's evaluation set holds a label at every sub-token; scored as it is, a word
of three pieces counts three tokens, and a piece predicted ``B-`` an entity of
its own (transformers issue 14043). The convention behind the numbers papers
report is one label per word, the first sub-token's. The factories take each
example's word ids as an extra label column (``TrainingArguments(label_names=
["labels", "word_ids"])``, -100 where a position has no word: special tokens,
padding), and :func:`word_labels` keeps the label of each word's first
sub-token, -100 elsewhere, before anything is counted.

Nothing is dropped or counted twice silently: word ids other than -100 below 0,
word ids that go back (a word again after another one, or after a position of no
word), a label at a position of no word, and a word whose first sub-token has no
label (-100) while a later one has are refused, naming the example (its row) and
the position.
"""
from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

import numpy as np

from .arrays import to_numpy

NO_WORD = -100
"""The word id of a position that belongs to no word (special tokens, padding), as Trainer pads label columns."""


def first_subtokens(word_ids: np.ndarray) -> np.ndarray:
    """Mask over ``[batch, tokens]`` word ids: True at each word's first sub-token.

    >>> first_subtokens(np.array([[-100, 0, 0, 1, 2, 2, -100]])).astype(int).tolist()
    [[0, 1, 0, 1, 1, 0, 0]]
    """
    before = np.concatenate([np.full((word_ids.shape[0], 1), NO_WORD, dtype=word_ids.dtype), word_ids[:, :-1]], axis=1)
    return (word_ids >= 0) & (word_ids != before)


def word_labels(label_ids: Any) -> np.ndarray:
    """The labels of ``label_ids = (labels, word_ids)`` with -100 wherever a position is not its word's first
    sub-token, so that counting skips it (``labels`` ``[batch, tokens]``, or ``[batch, tokens, layers]`` for a
    layered tagger).

    Raises:
        ValueError: ``label_ids`` is not a pair, or word ids of another shape than the labels' first two axes.
        TypeError: word ids that are not integers.
    """
    if not isinstance(label_ids, (tuple, list)) or len(label_ids) != 2:
        raise ValueError("word-level scoring needs label_ids = (labels, word_ids): add a word_ids column (-100 where "
                         "a position has no word) and pass TrainingArguments(label_names=['labels', 'word_ids'])")
    labels, word_ids = to_numpy(label_ids[0], "label_ids"), to_numpy(label_ids[1], "word_ids")
    if word_ids.dtype.kind not in "iu":
        raise TypeError(f"word ids must be integers (-100 where a position has no word), got {word_ids.dtype}")
    if word_ids.shape != labels.shape[:2]:
        raise ValueError(f"word ids of shape {word_ids.shape} for labels of shape {labels.shape}; they need one word "
                         "id per position")
    check_word_ids(word_ids)
    keep = first_subtokens(word_ids)
    labelled = (labels != NO_WORD).any(axis=tuple(range(2, labels.ndim)))  # any layer labelled
    _check_first_labelled(word_ids, keep, labelled)
    return np.where(keep.reshape(keep.shape + (1,) * (labels.ndim - 2)), labels, NO_WORD)


def check_word_ids(word_ids: np.ndarray) -> None:
    """Refuse ``[batch, tokens]`` word ids that would drop a word or count one twice: a negative id other than
    -100, or ids that go back within a row (a word's positions must be one run, and words in order, as a
    tokenizer's ``word_ids()`` gives them).

    Raises:
        ValueError: naming the row (the example, counted from 0), the position and the word ids.

    >>> check_word_ids(np.array([[-100, 0, 0, 1, -100, -100]]))
    >>> check_word_ids(np.array([[-100, 0, 1, 0]]))
    Traceback (most recent call last):
    ...
    ValueError: word ids, example 0, position 3: word 0 after word 1; a word's sub-tokens must be one run and words in order (a tokenizer's word_ids()), or a word is counted twice
    """
    odd = np.argwhere((word_ids < 0) & (word_ids != NO_WORD))
    if len(odd):
        row, position = map(int, odd[0])
        raise ValueError(f"word ids, example {row}, position {position}: word id {int(word_ids[row, position])}; a "
                         f"word id is a word's index from 0, or {NO_WORD} where a position has no word")
    width = word_ids.shape[1]
    flat = word_ids.ravel()
    at = np.flatnonzero(flat >= 0)
    ids, row = flat[at], at // max(width, 1)
    same_row = row[1:] == row[:-1]
    back = same_row & ((ids[1:] < ids[:-1]) | ((ids[1:] == ids[:-1]) & (at[1:] != at[:-1] + 1)))
    if back.any():
        k = int(np.flatnonzero(back)[0])
        earlier = "the same word before a position of no word" if ids[k + 1] == ids[k] else f"word {int(ids[k])}"
        raise ValueError(f"word ids, example {int(row[k + 1])}, position {int(at[k + 1] % width)}: word "
                         f"{int(ids[k + 1])} after {earlier}; a word's sub-tokens must be one run and words in order "
                         "(a tokenizer's word_ids()), or a word is counted twice")


def _check_first_labelled(word_ids: np.ndarray, first: np.ndarray, labelled: np.ndarray) -> None:
    """Refuse a label at a position of no word, and a word whose first sub-token is unlabelled (-100) while a later
    one of it is labelled: scored by its first sub-token, the word would be dropped."""
    stray = np.argwhere((word_ids == NO_WORD) & labelled)
    if len(stray):
        row, position = map(int, stray[0])
        raise ValueError(f"labels, example {row}, position {position}: a label where the word id is {NO_WORD} (no "
                         f"word); give the position its word's id, or the label {NO_WORD}")
    positions = np.arange(word_ids.shape[1])
    start = np.maximum.accumulate(np.where(first, positions, 0), axis=1)  # each position's word's first sub-token
    rows = np.arange(word_ids.shape[0])[:, None]
    dropped = np.argwhere((word_ids >= 0) & ~first & labelled & ~labelled[rows, start])
    if len(dropped):
        row, position = map(int, dropped[0])
        raise ValueError(f"labels, example {row}, position {position}: word {int(word_ids[row, position])} is "
                         f"labelled here but not at its first sub-token (position {int(start[row, position])}, label "
                         f"{NO_WORD}); a word is scored by its first sub-token's label, so label it there (as "
                         "label_all_tokens or first-sub-token labelling do)")


def word_id_column(word_ids: Sequence[int | None]) -> list[int]:
    """A tokenizer encoding's ``word_ids()`` as a label column: -100 for ``None``."""
    return [NO_WORD if w is None else w for w in word_ids]


def with_word_ids(collator: Callable[[list[dict[str, Any]]], Any]) -> Callable[[list[dict[str, Any]]], Any]:
    """A data collator that pads the ``word_ids`` column with -100 beside what ``collator`` pads.

    ``DataCollatorForTokenClassification`` pads ``labels`` only; this one takes the
    word ids out of each example, lets ``collator`` build the batch, and adds them
    back padded to the batch's length.
    """

    def collate(features: list[dict[str, Any]]) -> Any:
        import torch

        ids = [list(feature["word_ids"]) for feature in features]
        batch = collator([{k: v for k, v in feature.items() if k != "word_ids"} for feature in features])
        width = batch["input_ids"].shape[1]
        padding_left = getattr(getattr(collator, "tokenizer", None), "padding_side", "right") == "left"
        rows = [[NO_WORD] * (width - len(row)) + row if padding_left else row + [NO_WORD] * (width - len(row))
                for row in ids]
        batch["word_ids"] = torch.tensor(rows, dtype=torch.long)
        return batch

    return collate
