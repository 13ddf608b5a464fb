"""Arrow columns -> what the metrics count, read from the Arrow buffers (no Python object per token or span).

Tag columns (``list<string>``) and label-id columns (``list<int>``, with a
``label_list``) need nothing here: the flat encoder reads them as Arrow
(:mod:`nested_span_f1.flat.encoding`). Span columns (``list<struct<start, end,
label>>``) become :class:`SpanArrays` from the struct's child arrays. Whatever
the fast reading does not vouch for (nulls, other fields, offsets out of range,
an empty label) is read by the plain path on Python lists, which names the
problem in the words of the single-process API, or scores what it accepts.
"""
from __future__ import annotations

from collections.abc import Iterable
from typing import Any

import numpy as np
import pyarrow as pa
import pyarrow.compute as pc

from ..core.entities import Entities, check_entities
from ..core.spans import SpanArrays, spans_from_lists

SPAN_FIELDS = ("start", "end", "label")


def is_span_column(column: Any) -> bool:
    """A list of structs: spans (``{start, end, label}``, or any struct the plain path reads or refuses)."""
    kind = column.type
    return (pa.types.is_list(kind) or pa.types.is_large_list(kind)) and pa.types.is_struct(kind.value_type)


def _span_fields(column: Any) -> Any | None:
    """The flattened ``start``, ``end`` and ``label`` child arrays of a span column the fast path reads, else None."""
    if not is_span_column(column) or column.null_count:
        return None
    struct = column.type.value_type
    if tuple(sorted(struct.field(i).name for i in range(struct.num_fields))) != tuple(sorted(SPAN_FIELDS)):
        return None
    if not (pa.types.is_integer(struct.field("start").type) and pa.types.is_integer(struct.field("end").type)
            and pa.types.is_string(struct.field("label").type)):
        return None
    flat = pc.list_flatten(column)
    if flat.null_count or any(flat.field(name).null_count for name in SPAN_FIELDS):
        return None
    return flat


def span_arrays(column: Any, side: str, lengths: np.ndarray | None = None) -> SpanArrays:
    """A span column of one record batch as :class:`SpanArrays` (sentence = row of the batch).

    Raises:
        ValueError, TypeError: a bad span, named as :func:`spans_from_lists` names it.
    """
    fast = _fast_spans(column, lengths)
    if fast is not None:
        return fast
    return spans_from_lists(column.to_pylist(), None if lengths is None else lengths.tolist(), side)


def _fast_spans(column: Any, lengths: np.ndarray | None) -> SpanArrays | None:
    flat = _span_fields(column)
    if flat is None:
        return None
    start, end = (flat.field(name).to_numpy(zero_copy_only=False).astype(np.int64) for name in ("start", "end"))
    sizes = pc.list_value_length(column).to_numpy(zero_copy_only=False).astype(np.int64)
    sentence = np.repeat(np.arange(len(column), dtype=np.int64), sizes)
    bad = (start < 0) | (start >= end)
    if lengths is not None:
        bad |= end > lengths[sentence]
    labels = flat.field("label")
    if bad.any() or pc.any(pc.equal(pc.utf8_length(labels), 0)).as_py():
        return None
    encoded = labels.dictionary_encode()
    return SpanArrays(sentence, start, end, encoded.indices.to_numpy(zero_copy_only=False).astype(np.int64),
                      tuple(encoded.dictionary.to_pylist()), len(column))


def entities(column: Any, side: str, lengths: np.ndarray | None = None) -> Entities:
    """A span column as the nested metric's checked :class:`Entities` (discontinuous entities through the plain
    path, as :func:`check_entities` reads ``{"fragments", "label"}`` items)."""
    fast = _fast_spans(column, lengths)
    if fast is not None:
        return Entities(fast, [])
    return check_entities(column.to_pylist(), None if lengths is None else lengths.tolist(), side)


def row_lengths(column: Any) -> np.ndarray:
    """Tokens (or characters) per row: a list column's lengths (the tokens), a string column's code points (the
    text of character spans), or an integer column as it is.

    Raises:
        TypeError: a column of another type, or with nulls.
    """
    kind = column.type
    if column.null_count:
        raise TypeError("the lengths column holds nulls (None); every row needs its tokens, text or length")
    if pa.types.is_list(kind) or pa.types.is_large_list(kind):
        values = pc.list_value_length(column)
    elif pa.types.is_string(kind) or pa.types.is_large_string(kind):
        values = pc.utf8_length(column)
    elif pa.types.is_integer(kind):
        values = column
    else:
        raise TypeError(f"the lengths column is of type {kind}; it must hold tokens (a list), text (a string) "
                        "or lengths (integers)")
    return np.asarray(values.to_numpy(zero_copy_only=False), dtype=np.int64)


def total_length(batches: Iterable[Any], column: str) -> int:
    """The row lengths (:func:`row_lengths`) of the batches' column ``column``, summed: a corpus's tokens."""
    return sum(int(row_lengths(batch.column(column)).sum()) for batch in batches)
