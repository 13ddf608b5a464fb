"""What kind of input a door holds (spans, tag layers, tags or label ids): one rule, read from the items.

Every door that takes more than one kind of input answers the question by this
rule: the lenient metric (tags or spans), the benchmark's sides (tags or spans)
and the evaluate modules (:func:`nested_span_f1.hf.kinds.data_kind`, which also
holds every item of a call to one kind, since evaluate casts what it stores). An
item's kind is its type's: a string is a tag, an integer (not a bool) a label
id, a mapping a span, a list or tuple a tag layer (or, at a door that takes
them, a span written as a tuple). The words for a tag that is not a string are
built here too, for every door that names one.
"""
from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

import numpy as np

from ..core.wording import quote

INPUT_KINDS = ("spans", "layers", "tags", "ids")


def item_kind(kind: type) -> str | None:
    """The input kind a sentence item of this type belongs to; None for no kind (``None``, a float, bytes).

    >>> item_kind(str), item_kind(bool), item_kind(tuple)
    ('tags', None, 'layers')
    """
    if issubclass(kind, str):
        return "tags"
    if issubclass(kind, (int, np.integer)) and not issubclass(kind, bool):
        return "ids"
    if issubclass(kind, Mapping):
        return "spans"
    if issubclass(kind, (list, tuple, np.ndarray)):
        return "layers"
    return None


def first_kind(*sides: Any) -> str | None:
    """The kind of input ``sides`` hold: the kind of their first item, side by side and sentence by
    sentence, that has one (see :func:`item_kind`).

    A sentence that is itself one item (a tag string, a span mapping) counts as an
    item of its kind, so that the door hands it to that kind's reader, which names
    it. None when no item has a kind (no sentences, empty ones, only ``None``): the
    door takes its default. This decides the kind; the reader of that kind then
    checks every item.

    >>> first_kind([[], [None, "B-PER"]], [[{"start": 0, "end": 1, "label": "PER"}]])
    'tags'
    >>> first_kind([[]], [[(0, 1, "PER")]])
    'layers'
    """
    for side in sides:
        for sentence in side:
            kind = item_kind(type(sentence))
            if kind not in (None, "layers"):
                return kind
            if isinstance(sentence, (Sequence, np.ndarray)):
                for item in sentence:
                    kind = item_kind(type(item))
                    if kind is not None:
                        return kind
    return None


def not_a_string(tag: Any, *, label_list: bool) -> str:
    """How a door names a tag that is not a string. ``label_list``: the door takes integer label ids
    with a ``label_list``, so an integer tag is told to bring one.

    >>> not_a_string(3, label_list=True)
    'tag 3 is not a string (integer label ids need label_list)'
    """
    hint = " (integer label ids need label_list)" if label_list and isinstance(tag, (int, np.integer)) else ""
    return f"tag {quote(tag)} is not a string{hint}"
