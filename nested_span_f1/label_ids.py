"""Integer label ids (Trainer's padded arrays) -> integer codes, without a tag string per token."""
from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import numpy as np

from .arrow_columns import arrow_ids, is_arrow
from .labels import IGNORE_INDEX, Encoded, Vocab, check_aligned, place, sentence_lengths
from .schemes import OUTSIDE


def encode_ids(
    predictions: Any, references: Any, label_list: Sequence[str]
) -> tuple[Encoded, Encoded]:
    """Encode integer label ids (Trainer's arrays); positions whose reference is -100 are dropped.

    ``predictions``/``references`` are 2-D arrays (padded with -100) or lists of
    int lists. ``label_list[i]`` is the tag string of id ``i``.
    """
    labels = list(label_list)
    if not all(isinstance(t, str) for t in labels):
        raise TypeError("label_list must be a list of tag strings, one per label id")
    arrow = arrow_ids(predictions, references) if is_arrow(predictions) and is_arrow(references) else None
    if arrow is not None:
        predictions, references = arrow
    pred_rows, ref_rows = _as_rows(predictions, "predictions"), _as_rows(references, "references")
    if isinstance(pred_rows, np.ndarray) and isinstance(ref_rows, np.ndarray) and pred_rows.shape == ref_rows.shape:
        keep = ref_rows != IGNORE_INDEX
        lengths = keep.sum(axis=1, dtype=np.int64)
        kept = np.flatnonzero(keep)  # one index for both sides: cheaper than two mask selections
        pred, ref = pred_rows.reshape(-1).take(kept), ref_rows.reshape(-1).take(kept)
    else:
        check_aligned(sentence_lengths("predictions", pred_rows), sentence_lengths("references", ref_rows))
        keeps = [np.asarray(r) != IGNORE_INDEX for r in ref_rows]
        lengths = np.fromiter((k.sum() for k in keeps), np.int64, len(keeps))
        pred = np.concatenate([np.asarray(p, dtype=np.int64)[k] for p, k in zip(pred_rows, keeps)] or [np.zeros(0, np.int64)])
        ref = np.concatenate([np.asarray(r, dtype=np.int64)[k] for r, k in zip(ref_rows, keeps)] or [np.zeros(0, np.int64)])
    # Re-code so that "O" is code 0 whatever id the label list gives it.
    vocab = Vocab(O=OUTSIDE)
    remap = np.fromiter(map(vocab.__getitem__, labels), np.int64, len(labels))
    tags = tuple(vocab)
    # one byte a code while the label list allows it (what the string path produces too)
    remap = remap.astype(np.uint8 if len(tags) <= 256 else np.int64)
    out = []
    for side, ids in (("predictions", pred), ("references", ref)):
        if len(ids) and (ids.min() < 0 or ids.max() >= len(labels)):
            bad = np.flatnonzero((ids < 0) | (ids >= len(labels)))
            at = Encoded(ids, lengths, tags).locate(int(bad[0]))
            raise ValueError(
                f"{side}, {place(*at)}: label id {int(ids[bad[0]])} is outside label_list "
                f"(ids 0..{len(labels) - 1}; -100 is only ignored in references)"
            )
        out.append(Encoded(remap[ids], lengths, tags))
    return out[0], out[1]


def _as_rows(values: Any, side: str) -> Any:
    if isinstance(values, np.ndarray) or hasattr(values, "numpy"):
        array = np.asarray(values.numpy() if hasattr(values, "numpy") else values)
        if array.ndim != 2 or not np.issubdtype(array.dtype, np.integer):
            raise TypeError(f"{side}: expected a 2-D integer array of label ids, got shape {array.shape} {array.dtype}")
        return array
    return values
