"""Mentions an answer gave token indices (``[string, TYPE, first, last]``): placed on the gold's tokens.

When the gold has tokens (CoNLL columns and the token formats; their texts are
the tokens joined by spaces, or located in the texts the answers' file gives), a
mention's ``(first, last)`` (inclusive, 0-based) is the span from the start of
token ``first`` to the end of token ``last``. Its string is compared with the
text there, with whitespace taken out and case folded (``land-use`` agrees with
the tokens ``land - use``); where they **disagree**, one rule decides
(``trust``): ``"index"`` (the default) places the mention on its tokens,
``"string"`` places it by its string like any mention. Indices **out of range**
(past the sentence's last token, negative, ``first > last``) cannot place it:
it is placed by its string. So is a mention whose gold has no tokens (a gold of
texts: ``without_tokens``). Each case is counted, never fatal.
"""
from __future__ import annotations

from collections.abc import Sequence
from typing import NamedTuple

from .mention import Mention

TRUST = ("index", "string")
"""What places a mention whose token indices and string disagree."""

Offsets = Sequence[tuple[int, int]]


def squeeze(text: str) -> str:
    """``text`` without whitespace, case folded: how a mention's string and its tokens are compared."""
    return "".join(text.split()).casefold()


class Indexed(NamedTuple):
    """Where the indices put a document's mentions (``fixed[i]``: mention i's ``(start, end)``, None when it is
    placed by its string), and the mentions counted: ``disagree`` and ``out_of_range`` (by position), and how many
    had indices but no gold tokens to use them on."""

    fixed: list[tuple[int, int] | None]
    disagree: list[int]
    out_of_range: list[int]
    without_tokens: int


def place_indices(text: str, mentions: Sequence[Mention], tokens: Offsets | None, trust: str = "index") -> Indexed:
    """Resolve the token indices of ``mentions`` on ``text``, whose tokens are at ``tokens`` (None: no tokens).

    >>> text = "land - use intensification"
    >>> found = place_indices(text, [Mention("land-use intensification", "PHENOMENA", tokens=(0, 3)),
    ...                              Mention("use", "X", tokens=(0, 0)), Mention("z", "X", tokens=(4, 9))],
    ...                       [(0, 4), (5, 6), (7, 10), (11, 26)])
    >>> found.fixed, found.disagree, found.out_of_range
    ([(0, 26), (0, 4), None], [1], [2])
    """
    fixed: list[tuple[int, int] | None] = [None] * len(mentions)
    disagree: list[int] = []
    out_of_range: list[int] = []
    without = 0
    for i, mention in enumerate(mentions):
        if mention.tokens is None:
            continue
        if tokens is None:
            without += 1
            continue
        first, last = mention.tokens
        if not 0 <= first <= last < len(tokens):
            out_of_range.append(i)
            continue
        place = (tokens[first][0], tokens[last][1])
        if squeeze(text[place[0]:place[1]]) != squeeze(mention.text):
            disagree.append(i)
            if trust == "string":
                continue
        fixed[i] = place
    return Indexed(fixed, disagree, out_of_range, without)
