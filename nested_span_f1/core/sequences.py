"""What the API reads as a list: a sequence in its own order, never a set, a mapping or an iterator.

Sentences are paired by position across the two sides, tags by position within a
sentence, layers and spans by position in messages. A set or a frozenset has no
order of its caller's (it iterates in hash order, which changes from one run to the
next: F1 0.0 in one run and 1.0 in the next), a dict would be read as its keys, and a
generator is used up by the first of the passes a check and a scorer make. So every
door checks each side, sentence and layer with :func:`check_sequence`, in the same
words: where, what was expected, the type given.
"""
from __future__ import annotations

from collections.abc import Iterator, Mapping, Sequence, Set
from typing import Any

from .wording import quote


def is_sequence(value: Any) -> bool:
    """True for an ordered container that can be read more than once: a list, tuple, range, numpy array,
    tensor, Arrow array or datasets column; False for text, bytes, sets, mappings, iterators and scalars."""
    if isinstance(value, (str, bytes, bytearray, Mapping, Set)):
        return False
    return isinstance(value, Sequence) or hasattr(value, "__array__")


def shown(value: Any) -> str:
    """The type and a shortened repr of a value, as messages show what was given: ``set {'O', 'B-PER'}``."""
    return "None" if value is None else f"{type(value).__name__} {quote(value)}"


def _why(value: Any) -> str:
    """Why an unordered or one-pass container cannot stand for a list ('' for anything else)."""
    if isinstance(value, Set):
        return " (a set has no order, so its items cannot be paired by position; pass a list in order)"
    if isinstance(value, Mapping):
        return " (a dict is not a list: its keys would be read; pass a list in order)"
    if isinstance(value, Iterator):
        return " (an iterator is used up by the first pass over it; pass a list)"
    return ""


def check_sequence(value: Any, where: str, expected: str) -> None:
    """TypeError ``"<where>: expected a list of <expected>, got <type> <value>"`` unless ``value`` is a sequence
    (see :func:`is_sequence`).

    >>> check_sequence({"O", "B-PER"} - {"O"}, "predictions, sentence 0", "tags")
    Traceback (most recent call last):
    TypeError: predictions, sentence 0: expected a list of tags, got set {'B-PER'} (a set has no order, so its items cannot be paired by position; pass a list in order)
    """
    if not is_sequence(value):
        raise TypeError(f"{where}: expected a list of {expected}, got {shown(value)}{_why(value)}")


def check_each(values: Any, where: str, expected: str) -> None:
    """:func:`check_sequence` on every item of ``values``; ``where`` names item ``i`` as ``where.format(i)``
    (``"predictions, sentence {}"``), built only for an item that fails (lists and tuples pass at once)."""
    for index, value in enumerate(values):
        if type(value) not in (list, tuple) and not is_sequence(value):
            check_sequence(value, where.format(index), expected)


def check_rows(value: Any, where: str) -> None:
    """The check of an array-like given where an array is expected (a Trainer's predictions or label ids given
    as lists): it is a sequence, and none of its rows is a set, a mapping or an iterator (numpy would keep
    those as objects, and the error would come later, naming no place)."""
    check_sequence(value, where, "rows (one per example)")
    for index, row in enumerate(value):
        if isinstance(row, (Set, Mapping, Iterator)):
            check_sequence(row, f"{where}, row {index}", "values")
