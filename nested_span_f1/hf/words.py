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
    keep = first_subtokens(word_ids)
    return np.where(keep.reshape(keep.shape + (1,) * (labels.ndim - 2)), labels, NO_WORD)


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
