"""What reading an answer gives: its mentions, the shape it was read as, and what of it was not read."""
from __future__ import annotations

from typing import NamedTuple


class Mention(NamedTuple):
    """One answered entity: its string and label; its offset in the answer's own text for inline tags and marks
    (``start``), and the inclusive 0-based token indices ``(first, last)`` the answer gave it (``tokens``)."""

    text: str
    label: str
    start: int | None = None
    tokens: tuple[int, int] | None = None


class Answer(NamedTuple):
    """A read answer: its mentions in the answer's order and the shape it was read as
    (:data:`~nested_span_f1.answers.parse.SHAPES`), or why it could not be read (``error``, with
    ``shape == "unparseable"``).

    ``plain`` is the text an answer with inline tags or marks gives without them (where it equals the document's
    text, each mention's ``start`` places it). What was not read is kept to count and show: ``skipped`` (lines
    that are not entities: lead-ins, explanations), ``declined`` (lines whose type slot says the string is no
    entity), ``unreadable`` (items that could not be read, each with the reason), ``corrected`` (lines of an
    earlier list the answer replaced with a later one).
    """

    mentions: tuple[Mention, ...]
    shape: str
    error: str | None = None
    plain: str | None = None
    skipped: tuple[str, ...] = ()
    declined: tuple[str, ...] = ()
    unreadable: tuple[str, ...] = ()
    corrected: tuple[str, ...] = ()
