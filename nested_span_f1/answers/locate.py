"""Place answers' strings on the document's text: each mention becomes a character span, or a counted failure.

A string **occurs** in a text where the text holds it character for character
and the occurrence neither starts nor ends inside a word: "Paris" occurs in
"Paris, 1900" but not in "Parisian", "US" not in "USA". A word is a run of
letters, digits, ``_`` and combining marks; letters of scripts written without
spaces between words (Chinese, Japanese kana, Thai, Lao, Khmer, Myanmar) are
words of one letter each, so "北京" occurs in "我爱北京天安门". An occurrence
never ends before a combining mark (it would cut a letter from its accent). The
rule is :mod:`nested_span_f1.core.letters`.
Occurrences may overlap ("ana" occurs twice in "banana").

Policies (``policy``):

- ``"kth"`` (the default): the k-th mention of a string goes to the k-th of its
  occurrences in reading order. Occurrences that lie inside (or across) the span
  of a longer string already placed are counted last (``inner_last``, on by
  default): a string found inside a longer entity is read as that entity's part,
  unless the answer names it more often than it stands alone. Longer strings are
  placed first, so that every container is placed before what it contains. A
  string named more often than it occurs places as many mentions as it has
  occurrences; a further mention goes to the first occurrence that does not
  hold its label yet (one span with two labels, as GENIA annotates a few), and
  the rest are ``excess``.
- ``"every"``: a mention names every occurrence of its string; each distinct
  (string, label) gives one span per occurrence, and repeated mentions add none.

A string with no occurrence is looked for again, when ``fallback`` is on (the
default), with case, whitespace and small character differences normalised
(:func:`fold`): both sides composed (Unicode NFC, so a decomposed "Zoë" meets a
composed one), typographic apostrophes, quotes and dashes read as ASCII ones
("McDonald’s" meets "McDonald's", "1990–1995" meets "1990-1995"), full-width ASCII
as ASCII ("IBM" meets "ＩＢＭ", "(" meets "（"), the middle dots of names as one
("安倍・晋三" meets "安倍·晋三"), letters compared
in lower case (Python's ``str.lower``), any run of whitespace for a space,
whitespace at the string's ends dropped. The place found is given in the
characters of the text as it is, so that ``text[start:end]`` is always the
text's own. Such mentions are ``normalized``, and take occurrences
that no exact mention took first. A string found neither way is ``not_in_text``
(a fabricated entity: it can only be a false positive). An inline-tag answer
whose text without tags equals the document's places its mentions where its tags
are (``markup``); a mention whose answer gave it token indices is placed on
those tokens when the caller resolved them (``index``: ``fixed``, see
:mod:`.indices`).

Every mention gets exactly one of :data:`CATEGORIES`.
"""
from __future__ import annotations

import re
import unicodedata
from collections.abc import Sequence
from dataclasses import dataclass
from functools import lru_cache
from typing import Any

from ..core.letters import inside_word
from ..core.wording import quote
from .parse import Mention

CATEGORIES = ("markup", "index", "exact", "normalized", "not_in_text", "excess")
"""What became of a mention: placed by the answer's own markup, by its token indices, on an exact occurrence, on
a normalised one; or not placed: its string is nowhere in the text, or it was named more often than the string
occurs."""

POLICIES = ("kth", "every")

Span = tuple[int, int, str]


def _bounded(text: str, start: int, end: int) -> bool:
    """Whether ``text[start:end]`` neither starts nor ends inside a word (:func:`~nested_span_f1.core.letters.inside_word`)."""
    return not inside_word(text, start) and not inside_word(text, end)


def occurrences(text: str, string: str) -> list[tuple[int, int]]:
    """Every occurrence of ``string`` in ``text`` (see the module docstring), as ``(start, end)`` in reading order.

    >>> occurrences("banana bananas ana", "ana")
    [(15, 18)]
    >>> occurrences("我爱北京天安门", "北京"), occurrences("Parisian Paris", "Paris")
    ([(2, 4)], [(9, 14)])
    """
    if not string:
        return []
    out, size = [], len(string)
    at = text.find(string)
    while at >= 0:
        if _bounded(text, at, at + size):
            out.append((at, at + size))
        at = text.find(string, at + 1)
    return out


@lru_cache(maxsize=4096)
def _loose(words: tuple[str, ...], flags: int = 0) -> re.Pattern[str]:
    return re.compile(r"\s+".join(map(re.escape, words)), flags)


_TYPOGRAPHIC = str.maketrans({**dict.fromkeys("\u2018\u2019\u201a\u201b\u02bc\u2032", "'"),
                              **dict.fromkeys("\u201c\u201d\u201e\u201f\u2033", '"'),
                              **dict.fromkeys("\u2010\u2011\u2012\u2013\u2014\u2212", "-"),
                              **{chr(0xFF01 + k): chr(0x21 + k) for k in range(94)}, "\u3000": " ",
                              **dict.fromkeys("\u30fb\uff65\u2027\u2022", "\u00b7")})
"""Typographic apostrophes, quotes and dashes, full-width ASCII (``ＩＢＭ``, ``（``) and the ideographic space, and
the middle dots between the parts of a name (``・`` in Japanese, ``·`` in Chinese): the character :func:`fold` reads
each as (one for one, so that no offset moves)."""


@lru_cache(maxsize=1 << 14)
def fold(string: str) -> str:
    """``string`` as the fallback compares it, but for whitespace: composed (NFC), typographic apostrophes, quotes
    and dashes as ASCII ones, full-width ASCII as ASCII, middle dots as one, in lower case.

    >>> fold("Zoe\u0308 McDonald\u2019s 1990\u20131995") == "zoë mcdonald's 1990-1995"
    True
    >>> fold("ＩＢＭ（中国）"), fold("安倍・晋三") == fold("安倍·晋三")
    ('ibm(中国)', True)
    """
    if string.isascii():  # the usual string: nothing to compose or read as ASCII
        return string.lower()
    return unicodedata.normalize("NFC", string).translate(_TYPOGRAPHIC).lower()


@dataclass(frozen=True)
class Folded:
    """A text as the fallback searches it (:func:`fold`, but the lower case kept where it would move offsets), and
    per character of it the offset in the text it comes from (None: the same offsets)."""

    text: str
    starts: list[int] | None
    flags: int
    size: int

    @classmethod
    def of(cls, text: str) -> Folded:
        """``text`` folded, each character mapped back to the one (or the letter and its marks) it comes from."""
        if text.isascii():  # the usual text: nothing to compose or read as ASCII, and lower-casing keeps offsets
            return cls(text.lower(), None, 0, len(text))
        starts: list[int] | None = None
        composed = text
        if not unicodedata.is_normalized("NFC", text):
            # composed a letter and its marks at a time, so that each composed character maps back whole
            pieces: list[str] = []
            starts = []
            for found in _LETTER.finditer(text):
                piece = unicodedata.normalize("NFC", found.group())
                pieces.append(piece)
                starts.extend(range(found.start(), found.end()) if piece == found.group() else
                              [found.start()] * len(piece))
            composed = "".join(pieces)
        composed = composed.translate(_TYPOGRAPHIC)
        lowered = composed.lower()
        # the usual text: lower-casing keeps every offset, so the lowered text is searched
        if len(lowered) == len(composed):
            return cls(lowered, starts, 0, len(text))
        return cls(composed, starts, re.IGNORECASE, len(text))

    def span(self, start: int, end: int) -> tuple[int, int]:
        """The text's offsets of the folded text's ``[start, end)``."""
        if self.starts is None:
            return start, end
        return self.starts[start], self.starts[end] if end < len(self.starts) else self.size


_LETTER = re.compile(r".[\u0300-\u036f\u1ab0-\u1aff\u1dc0-\u1dff\u20d0-\u20ff\ufe20-\ufe2f\u3099\u309a]*", re.DOTALL)
"""A character and the combining marks that follow it (the ranges of marks NFC composes with a letter)."""


def loose_occurrences(text: str, string: str, folded: Folded | None = None) -> list[tuple[int, int]]:
    """Occurrences of ``string`` with case, whitespace and small character differences normalised (see the module
    docstring), overlapping ones included, in the text's own offsets; ``folded`` is ``Folded.of(text)`` when the
    caller has it.

    >>> loose_occurrences("Zoe\u0308 Saldan\u0303a met them", "Zoë Saldaña")
    [(0, 13)]
    """
    words = tuple(fold(string).split())
    if not words:
        return []
    folded = Folded.of(text) if folded is None else folded
    pattern, searched = _loose(words, folded.flags), folded.text
    out = []
    found = pattern.search(searched)
    while found is not None:
        if _bounded(searched, *found.span()):
            out.append(folded.span(*found.span()))
        found = pattern.search(searched, found.start() + 1)
    return out


@dataclass(frozen=True)
class Placement:
    """Where a document's mentions went: the located spans, and each mention's category.

    ``spans`` holds, in the order of the mentions, one span per placed mention under
    ``"kth"``, and every occurrence of each distinct (string, label) under ``"every"``
    (given by its first mention); ``places[i]`` is mention i's ``(start, end)``, or
    None when it was not placed (under ``"every"``: its string's first occurrence).
    """

    spans: list[Span]
    categories: list[str]
    places: list[tuple[int, int] | None]

    @property
    def missed(self) -> bool:
        """Whether some mention was not placed."""
        return None in self.places


def _inside(place: tuple[int, int], placed: list[tuple[int, int]]) -> bool:
    """Whether ``place`` overlaps a longer span already placed."""
    start, end = place
    return any(a < end and start < b and b - a > end - start for a, b in placed)


def _rank(found: list[tuple[int, int]], wanted: int, placed: list[tuple[int, int]], inner_last: bool) -> list[tuple[int, int]]:
    """The occurrences ``wanted`` mentions take, in reading order (with ``inner_last``, those outside longer placed
    strings first)."""
    if len(found) > wanted:
        found = sorted(found, key=lambda o: inner_last and _inside(o, placed))[:wanted]
    return sorted(found)


def _as_mention(item: Any) -> Mention:
    if isinstance(item, Mention):
        return item
    text, label = item
    return Mention(text, label)


def locate(
    text: str,
    mentions: Sequence[Mention | tuple[str, str]],
    *,
    policy: str = "kth",
    fallback: bool = True,
    inner_last: bool = True,
    plain: str | None = None,
    fixed: Sequence[tuple[int, int] | None] | None = None,
) -> Placement:
    """Place each mention on the text (see the module docstring for the policies and categories).

    Args:
        text: the document's text.
        mentions: :class:`~nested_span_f1.answers.parse.Mention` objects or ``(text, label)`` pairs, in the
            answer's order.
        policy: ``"kth"`` or ``"every"``.
        fallback: look for strings not found exactly with case, whitespace and small character differences
            normalised (:func:`fold`).
        inner_last: under ``"kth"``, count occurrences inside a longer placed string last.
        plain: an inline-tag answer's text without its tags; where it equals ``text``, mentions with an offset
            are placed there.
        fixed: per mention, the ``(start, end)`` its token indices give it, or None (placed by its string).

    >>> p = locate("The New York Times in New York", [("New York Times", "ORG"), ("New York", "LOC")])
    >>> p.spans, p.categories
    ([(4, 18, 'ORG'), (22, 30, 'LOC')], ['exact', 'exact'])
    >>> locate("in Paris", [("paris", "LOC"), ("Rome", "LOC")]).categories
    ['normalized', 'not_in_text']
    """
    if policy not in POLICIES:
        raise ValueError(f"policy must be one of {', '.join(POLICIES)}, got {quote(policy)}")
    items = [_as_mention(m) for m in mentions]
    state = _Placing(items, policy, inner_last, ["not_in_text"] * len(items), [None] * len(items), {}, [])
    groups = state.given(fixed, plain is not None and plain == text)
    leftover = state.exact(text, groups, fallback)
    folded = Folded.of(text) if leftover else None
    for key in sorted(leftover, key=len, reverse=True):
        found = loose_occurrences(text, key, folded)
        if found:
            # occurrences exact mentions took are not named again: with none left, kth mentions are excess
            state.place(sorted(leftover[key]), found, "normalized", set(state.placed))
    if policy == "kth":
        spans = [(*place, mention.label) for mention, place in zip(items, state.places) if place is not None]
    else:
        spans = [span for i in sorted(state.produced) for span in state.produced[i]]
    return Placement(spans, state.categories, state.places)  # type: ignore[arg-type]


@dataclass
class _Placing:
    """What placing a document's mentions has decided so far: each mention's category and place, the spans each
    produced (under ``"every"``), and every place taken (for ``inner_last``)."""

    items: list[Mention]
    policy: str
    inner_last: bool
    categories: list[str]
    places: list[tuple[int, int] | None]
    produced: dict[int, list[Span]]
    placed: list[tuple[int, int]]

    def given(self, fixed: Sequence[tuple[int, int] | None] | None, marked: bool) -> dict[str, list[int]]:
        """Place the mentions their token indices (``fixed``) or the answer's markup (``marked``: its text is the
        document's) put; the others grouped by their string, in the answer's order."""
        groups: dict[str, list[int]] = {}
        for i, mention in enumerate(self.items):
            place = fixed[i] if fixed is not None else None
            if place is None and marked and mention.start is not None:
                place = (mention.start, mention.start + len(mention.text))
                self.categories[i] = "markup"
            elif place is not None:
                self.categories[i] = "index"
            if place is not None:
                self.places[i] = place
                self.produced[i] = [(*place, mention.label)]
                self.placed.append(place)
            else:
                groups.setdefault(mention.text, []).append(i)
        return groups

    def exact(self, text: str, groups: dict[str, list[int]], fallback: bool) -> dict[str, list[int]]:
        """Place each string's mentions on its exact occurrences, the longest strings first; the mentions of the
        strings found nowhere (with ``fallback``), by their string folded (:func:`fold`) with whitespace normalised."""
        leftover: dict[str, list[int]] = {}
        for string in sorted(groups, key=len, reverse=True):
            found = occurrences(text, string) if string == string.strip() else []
            indices = groups[string]
            if not found:
                if fallback:
                    leftover.setdefault(" ".join(fold(string).split()), []).extend(indices)
            elif len(found) == 1 == len(indices) and self.policy == "kth":  # the common case, without the steps
                self.places[indices[0]], self.categories[indices[0]] = found[0], "exact"
                self.placed.append(found[0])
            else:
                self.place(indices, found, "exact")
        return leftover

    def place(self, indices: list[int], found: list[tuple[int, int]], category: str,
              taken: frozenset[tuple[int, int]] | set[tuple[int, int]] = frozenset()) -> None:
        """Put the mentions ``indices`` (of one string) on its occurrences ``found`` (less those ``taken``) under
        the policy; under ``"every"``, ``produced[i]`` gets the spans mention i produced."""
        free = [o for o in found if o not in taken] if taken else found
        if self.policy == "every":
            first: dict[str, int] = {}
            for i in indices:
                first.setdefault(self.items[i].label, i)
            for label, i in first.items():
                self.produced[i] = [(start, end, label) for start, end in free]
            self.placed.extend(free)
            for i in indices:
                self.categories[i], self.places[i] = category, found[0]
            return
        chosen = _rank(free, len(indices), self.placed, self.inner_last)
        labels: dict[tuple[int, int], set[str]] = {}
        for j, i in enumerate(indices):
            label = self.items[i].label
            # a mention beyond the occurrences may share one with a mention of another label; else it is excess
            place = chosen[j] if j < len(chosen) else next((o for o in chosen if label not in labels[o]), None)
            if place is None:
                self.categories[i] = "excess"
                continue
            self.categories[i], self.places[i] = category, place
            labels.setdefault(place, set()).add(label)
        self.placed.extend(chosen)
