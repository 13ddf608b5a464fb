"""Character offsets that count another unit than code points: UTF-16 code units, UTF-8 bytes.

Python, Hugging Face and spaCy count a text's characters as code points (``len(text)``),
and so does every reader here by default (``offsets="codepoints"``). JavaScript counts
UTF-16 code units (``"😀".length`` is 2), and so do the tools written in it or in Java
(annotation tools' web exports, transformers.js): past a character outside the Basic
Multilingual Plane (an emoji, a rare CJK ideograph) their offsets run one ahead per
such character. Tools that index the encoded text count UTF-8 bytes (``é`` is 2, ``中``
3). ``offsets="utf16"`` or ``"bytes"`` reads a file's offsets in that unit into code
points (:class:`Units`), each checked to fall between two characters of its text.

Read in code points, a file whose spans fit its texts, or match their own ``text``,
only in another unit is refused with the option that reads it (:func:`fitting_unit`,
:func:`hint`): nothing is scored at offsets known to be wrong.
"""
from __future__ import annotations

import re
from bisect import bisect_left
from collections.abc import Callable, Iterable, Mapping, Sequence
from itertools import accumulate
from typing import Any

from ..core.wording import quote

UNITS = {
    "codepoints": "code points (as Python, Hugging Face and spaCy count)",
    "utf16": "UTF-16 code units (as JavaScript and Java tools count: an emoji is 2)",
    "bytes": "UTF-8 bytes (é is 2, 中 is 3)",
}
"""What each ``offsets`` value counts."""

UNIT_WORDS = {"codepoints": "code points", "utf16": "UTF-16 code units", "bytes": "UTF-8 bytes"}
"""Each unit's name in messages."""

CODEPOINTS = "codepoints"

_ASTRAL = re.compile("[\U00010000-\U0010ffff]")


def check_unit(offsets: Any) -> str:
    """``offsets`` when it names a unit of :data:`UNITS`; ValueError otherwise."""
    if offsets not in UNITS:
        raise ValueError(f"offsets must be one of {', '.join(UNITS)}, got {quote(offsets)}")
    return str(offsets)


def _width(c: str, unit: str) -> int:
    if unit == "utf16":
        return 2 if c > "\uffff" else 1
    return 1 if c < "\x80" else 2 if c < "\u0800" else 3 if c < "\U00010000" else 4


class Units:
    """A text's offsets in ``unit`` as code points: ``Units(text, "utf16").point(offset, where)``."""

    def __init__(self, text: str, unit: str) -> None:
        self.text, self.unit = text, unit
        same = unit == CODEPOINTS or text.isascii() or (unit == "utf16" and _ASTRAL.search(text) is None)
        self.bounds: list[int] | None = None if same else list(accumulate((_width(c, unit) for c in text), initial=0))

    @property
    def length(self) -> int:
        """The text's length in the unit."""
        return len(self.text) if self.bounds is None else self.bounds[-1]

    def fits(self, offset: int) -> bool:
        """Whether ``offset`` falls between two characters of the text (or at an end)."""
        if self.bounds is None:
            return 0 <= offset <= len(self.text)
        at = bisect_left(self.bounds, offset)
        return 0 <= offset and at < len(self.bounds) and self.bounds[at] == offset

    def point(self, offset: Any, where: str) -> Any:
        """The code point ``offset`` (an int in the unit) stands for; anything but an int of at least 0 as it is (the
        span check names it). Raises ValueError, naming ``where``, for an offset inside a character or past the end."""
        if self.bounds is None or type(offset) is not int or offset < 0:
            return offset
        at = bisect_left(self.bounds, offset)
        if at == len(self.bounds):
            raise ValueError(f"{where}: offset {offset} is past the end of the text, {self.bounds[-1]} "
                             f"{UNIT_WORDS[self.unit]} long")
        if self.bounds[at] != offset:
            char = self.text[at - 1]
            raise ValueError(f"{where}: offset {offset} falls inside {quote(char)}, a character of "
                             f"{_width(char, self.unit)} {UNIT_WORDS[self.unit]}; offsets fall between characters")
        return at


def in_code_points(text: str, entities: Sequence[Any], unit: str, where: str) -> list[Any]:
    """A document's entities (``(start, end, label)``, ``(fragments, label)``) with offsets in ``unit`` turned into
    code points (:meth:`Units.point`)."""
    units = Units(text, unit)
    if units.bounds is None:
        return list(entities)
    out = []
    for entity in entities:
        if len(entity) == 2 and isinstance(entity[0], (list, tuple)):  # fragments
            pieces = tuple(tuple(units.point(o, where) for o in piece) if isinstance(piece, (list, tuple)) else piece
                           for piece in entity[0])
            out.append((pieces, entity[1]))
        else:
            out.append((units.point(entity[0], where), units.point(entity[1], where), *entity[2:]))
    return out


Claim = tuple[Sequence[tuple[int, int]], Any]
"""One entity as :func:`fitting_unit` reads it: its ``(start, end)`` pieces and the text it claims to cover (None when
it claims none)."""


def fitting_unit(documents: Iterable[tuple[str, Sequence[Claim]]],
                 same: Callable[[Any, str], bool] | None = None) -> str | None:
    """The unit (``utf16``, else ``bytes``) in which every entity of the documents falls between characters of its
    text and covers the text it claims (``same(claimed, covered)``, default equality; pieces joined by a space), when
    code points do not give that; None when code points do, or no unit does."""
    documents = list(documents)
    same = same or (lambda claimed, covered: claimed == covered)

    def holds(unit: str) -> bool:
        for text, claims in documents:
            units = Units(text, unit)
            for pieces, claimed in claims:
                ints = all(type(o) is int for piece in pieces for o in piece)
                if not ints or not all(units.fits(o) for piece in pieces for o in piece):
                    return False
                if claimed is not None:
                    covered = " ".join(text[units.point(a, ""):units.point(b, "")] for a, b in pieces)
                    if not same(claimed, covered):
                        return False
        return True

    if holds(CODEPOINTS):
        return None
    return next((unit for unit in ("utf16", "bytes") if holds(unit)), None)


class OffsetsError(ValueError):
    """Offsets read in code points that fit their texts (``claimed``: cover the text their entities claim) only in
    another ``unit``: the message says so and names the option that reads them."""

    def __init__(self, message: str, unit: str | None = None, claimed: bool = False) -> None:
        self.message, self.unit, self.claimed = message, unit, claimed
        super().__init__(self.naming())

    def naming(self, side: str = "") -> str:
        """The message, naming the option that reads the offsets (``side``: for that side only, ``gold`` or
        ``pred``); without a unit (an error whose message was rewritten) the message as it is."""
        if self.unit is None:
            return self.message
        how = "covers its own text" if self.claimed else "fits its text"
        option, value = (f"{side}={self.unit}", repr({side: self.unit})) if side else (self.unit, repr(self.unit))
        return (f"{self.message}; every entity {how} as {UNITS[self.unit]}, not as code points: read the offsets "
                f"with --offsets {option} (offsets={value} in Python)")


def side_units(offsets: Any) -> dict[str, str]:
    """``offsets`` as the unit of each side: a unit for every file (``{"": unit}``), or ``{"gold": unit, "pred":
    unit}`` with either side left out (code points).

    Raises:
        ValueError: a unit not in :data:`UNITS`, a side other than ``gold`` and ``pred``.
    """
    if isinstance(offsets, str):
        return {"": check_unit(offsets)}
    if not isinstance(offsets, Mapping) or not set(offsets) <= {"gold", "pred"}:
        raise ValueError(f"offsets must be a unit ({', '.join(UNITS)}) or a dict of 'gold' and 'pred' to units, got "
                         f"{quote(offsets)}")
    return {side: check_unit(unit) for side, unit in offsets.items()}


def unit_of(units: Mapping[str, str], side: str) -> str:
    """The unit :func:`side_units` gives ``side`` (``gold`` or ``pred``)."""
    return units.get(side, units.get("", CODEPOINTS))
