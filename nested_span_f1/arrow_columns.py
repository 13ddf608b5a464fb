"""Arrow list columns (what evaluate hands over with format "arrow") read without a Python object per tag."""
from __future__ import annotations

from typing import Any

import numpy as np

from .labels import IGNORE_INDEX, Encoded, Vocab, check_aligned
from .schemes import OUTSIDE


def is_arrow(values: Any) -> bool:
    """An Arrow array or chunked array (what evaluate hands over with format "arrow")."""
    return type(values).__module__.startswith("pyarrow")


def arrow_lists(values: Any) -> tuple[Any, np.ndarray] | None:
    """(flat values, sentence lengths) of an Arrow list column; None when it holds nulls."""
    if hasattr(values, "combine_chunks"):
        values = values.combine_chunks()
    if not hasattr(values, "flatten") or not hasattr(values, "value_lengths") or values.null_count:
        return None
    flat = values.flatten()
    if flat.null_count:
        return None
    lengths = values.value_lengths().to_numpy(zero_copy_only=False).astype(np.int64)
    return flat, lengths


def encode_arrow_tags(predictions: Any, references: Any) -> tuple[Encoded, Encoded] | None:
    """encode_pair for Arrow list<string> columns, without making a Python string per tag.

    Returns None for columns it does not take (nulls, other types), which then go
    the list way and get its error messages.
    """
    import pyarrow as pa
    import pyarrow.compute as pc

    sides = [side for side in (arrow_lists(predictions), arrow_lists(references)) if side is not None]
    if len(sides) < 2 or any(not pa.types.is_string(flat.type) and not pa.types.is_large_string(flat.type)
                             for flat, _ in sides):
        return None
    vocab = Vocab(O=OUTSIDE)
    out = []
    for flat, lengths in sides:
        encoded = pc.dictionary_encode(flat)
        remap = np.fromiter(map(vocab.__getitem__, encoded.dictionary.to_pylist()), np.int64, len(encoded.dictionary))
        indices = encoded.indices.to_numpy(zero_copy_only=False)
        out.append((remap[indices], lengths))
    (pred_codes, pred_lengths), (ref_codes, ref_lengths) = out
    check_aligned(pred_lengths, ref_lengths)
    tags = tuple(vocab)
    return Encoded(pred_codes, pred_lengths, tags, True), Encoded(ref_codes, ref_lengths, tags, True)


def arrow_ids(predictions: Any, references: Any) -> tuple[Any, Any] | None:
    """Arrow list<int> columns as 2-D arrays padded with -100 (the references' ignore id)."""
    import pyarrow as pa

    sides = [side for side in (arrow_lists(predictions), arrow_lists(references)) if side is not None]
    if len(sides) < 2 or any(not pa.types.is_integer(flat.type) for flat, _ in sides):
        return None
    (pred_flat, pred_lengths), (ref_flat, ref_lengths) = sides
    check_aligned(pred_lengths, ref_lengths)
    width = int(ref_lengths.max(initial=0))
    rows = []
    for flat in (pred_flat, ref_flat):
        grid = np.full((len(ref_lengths), width), IGNORE_INDEX, dtype=np.int64)
        grid[np.arange(width) < ref_lengths[:, None]] = flat.to_numpy(zero_copy_only=False)
        rows.append(grid)
    return rows[0], rows[1]
