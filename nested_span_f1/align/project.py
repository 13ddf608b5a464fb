"""Between tokens and characters: locate tokens in a text, and move spans from one unit to the other.

Tokens to characters is exact: a token span ``(i, j)`` covers the characters
from token ``i``'s start to token ``j - 1``'s end. Characters to tokens is not
always possible, and never done silently: each character span is *placed*
against the tokens, in one of these categories:

* ``aligned``: both boundaries are token boundaries (start at a token's start,
  end at a token's end);
* ``boundary_inside_token``: a boundary falls strictly inside a token;
* ``boundary_between_tokens``: no boundary is inside a token, but one is not at
  a token's edge either (it is in the whitespace between tokens, or before the
  first, after the last);
* ``no_token``: snapping was asked for, and no token is left for the span (it
  covers whitespace only, or, contracted, lies inside one token).

By default a span that is not aligned keeps its characters, so it cannot match a
span made of tokens. ``snap`` moves its boundaries to token boundaries as
spaCy's ``Doc.char_span(alignment_mode=...)`` does: ``"expand"`` to every token
it overlaps, ``"contract"`` to the tokens wholly inside it. A span snapped is
``aligned`` afterwards and counted as moved. A discontinuous entity is placed
fragment by fragment; its category is the worst of its fragments'.
"""
from __future__ import annotations

from bisect import bisect_left, bisect_right
from collections.abc import Sequence
from typing import Any, NamedTuple

from ..core.entities import is_fragmented
from ..core.wording import quote
from ..formats.corpus import Corpus, not_a_word

Offsets = Sequence[tuple[int, int]]
"""``(start, end)`` character offsets of each token of a text, in order."""

CATEGORIES = ("aligned", "boundary_inside_token", "boundary_between_tokens", "no_token")
"""Where a character span falls against tokens, from best to worst."""

SNAPS = (None, "expand", "contract")


def joined_offsets(tokens: Sequence[str]) -> list[tuple[int, int]]:
    """The offsets of tokens in ``" ".join(tokens)``."""
    offsets, start = [], 0
    for token in tokens:
        end = start + len(token)
        offsets.append((start, end))
        start = end + 1
    return offsets


def locate_tokens(tokens: Sequence[str], text: str, where: str = "text") -> list[tuple[int, int]]:
    """The offsets of ``tokens`` found one after the other in ``text``, with only whitespace around them.

    The tokens spell the text, the whitespace between them aside: whitespace in the text that no token holds
    is skipped. A token that is whitespace itself (a character-per-line gold's ``\u3000``, the ideographic
    space of Japanese and Chinese text) is a character of the text like any other: it is found at the first
    place, after the whitespace that follows the token before it, where the text holds it, and never left out.

    Raises:
        ValueError: an empty token, a token that is not where the text goes on (a whitespace token that the
            whitespace there does not hold), or text left after the last token; the message starts with
            ``where`` and names the token and the character.

    >>> locate_tokens(["New", "York", "."], "New York.")
    [(0, 3), (4, 8), (8, 9)]
    >>> locate_tokens(["東", "京", "\u3000", "大", "阪"], "東京\u3000大阪")
    [(0, 1), (1, 2), (2, 3), (3, 4), (4, 5)]
    """
    if text == " ".join(tokens) and all(tokens):
        return joined_offsets(tokens)
    offsets, position, n = [], 0, len(text)
    for t, token in enumerate(tokens):
        if token[:1].isspace():  # whitespace skipped up to where the text holds the token
            while position < n and text[position].isspace() and not text.startswith(token, position):
                position += 1
        else:
            while position < n and text[position].isspace():
                position += 1
        if not token or not text.startswith(token, position):
            raise ValueError(f"{where}: token {t} ({quote(token)}) is not found at character {position} of the text "
                             f"(which reads {quote(text[position:position + 20])} there); the tokens must spell the text, "
                             "the whitespace between them aside (a token of whitespace is the text's own)")
        offsets.append((position, position + len(token)))
        position += len(token)
    if text[position:].strip():
        raise ValueError(f"{where}: the text goes on after the last token at character {position} "
                         f"({quote(text[position:position + 20])}); the tokens must spell the text, whitespace aside")
    return offsets


def to_characters(entities: Sequence[Any], offsets: Offsets) -> list[Any]:
    """Token entities (spans and discontinuous ones) as character entities over the tokens' offsets."""
    out: list[Any] = []
    for entity in entities:
        if is_fragmented(entity):
            pieces = tuple((offsets[start][0], offsets[end - 1][1]) for start, end in entity[0])
            out.append((pieces, entity[1]))
        else:
            out.append((offsets[entity[0]][0], offsets[entity[1] - 1][1], entity[2]))
    return out


def join_tokens(corpus: Corpus) -> Corpus:
    """A token corpus as a corpus of texts: each sentence's tokens joined by single spaces, its entities in
    characters. Lossless: :func:`split_text` gives the corpus back."""
    if corpus.texts is not None:
        return corpus
    texts = [" ".join(tokens) for tokens in corpus.tokens]
    entities = [to_characters(ents, joined_offsets(list(tokens))) for tokens, ents in zip(corpus.tokens, corpus.entities)]
    return Corpus(texts, entities, corpus.sentence_ids, corpus.doc_ids, "text",
                  f"{corpus.format or 'tokens'} tokens joined by single spaces; token offsets turned into characters",
                  corpus.source, corpus.places, "characters", corpus.notes, corpus.scores, checked=True)


class Placement(NamedTuple):
    """A character entity placed against tokens: the entity (snapped when asked), its category, and in tokens
    (None unless aligned)."""

    entity: Any
    category: str
    moved: bool
    tokens: Any


class Grid:
    """The token boundaries of one text, for placing character spans."""

    def __init__(self, offsets: Offsets) -> None:
        starts, ends = zip(*offsets) if offsets else ((), ())
        self.starts, self.ends = list(starts), list(ends)

    def _boundary(self, position: int, is_start: bool) -> tuple[str, int]:
        """``(category, token index)`` of one boundary: the index of the token it starts (or ends) when aligned."""
        edges = self.starts if is_start else self.ends
        k = bisect_left(edges, position)
        if k < len(edges) and edges[k] == position:
            return "aligned", k
        if is_start:
            j = bisect_right(self.starts, position) - 1
            inside = j >= 0 and position < self.ends[j]
        else:
            j = bisect_left(self.ends, position)
            inside = j < len(self.ends) and self.starts[j] < position
        return ("boundary_inside_token" if inside else "boundary_between_tokens"), -1

    def place_piece(self, start: int, end: int, snap: str | None) -> tuple[str, tuple[int, int] | None, bool]:
        """Category, token span (None when not aligned after snapping) and whether snapping moved it."""
        start_kind, first = self._boundary(start, True)
        end_kind, last = self._boundary(end, False)
        if start_kind == end_kind == "aligned":
            return "aligned", (first, last + 1), False
        kind = max(start_kind, end_kind, key=CATEGORIES.index)
        if snap is None:
            return kind, None, False
        if snap == "expand":
            first, last = bisect_right(self.ends, start), bisect_left(self.starts, end) - 1
        else:
            first, last = bisect_left(self.starts, start), bisect_right(self.ends, end) - 1
        if first > last:
            return "no_token", None, False
        return "aligned", (first, last + 1), True

    def place(self, entity: Any, snap: str | None) -> Placement:
        """Place a character span or discontinuous entity (see the module docstring)."""
        if not is_fragmented(entity):
            kind, span, moved = self.place_piece(entity[0], entity[1], snap)
            if span is None:
                return Placement(entity, kind, False, None)
            moved_entity = (self.starts[span[0]], self.ends[span[1] - 1], entity[2]) if moved else entity
            return Placement(moved_entity, kind, moved, (span[0], span[1], entity[2]))
        placed = [self.place_piece(start, end, snap) for start, end in entity[0]]
        worst = max((kind for kind, _, _ in placed), key=CATEGORIES.index)
        if worst != "aligned":
            return Placement(entity, worst, False, None)
        pieces = _merged([span for _, span, _ in placed])  # type: ignore[misc]
        moved = any(m for _, _, m in placed)
        chars = tuple((self.starts[a], self.ends[b - 1]) for a, b in pieces)
        tokens: Any = (pieces[0][0], pieces[0][1], entity[1]) if len(pieces) == 1 else (tuple(pieces), entity[1])
        character: Any = (chars[0][0], chars[0][1], entity[1]) if len(chars) == 1 else (chars, entity[1])
        return Placement(character if moved else entity, "aligned", moved, tokens)


def _merged(pieces: list[tuple[int, int]]) -> list[tuple[int, int]]:
    """Token fragments sorted, with overlapping or touching ones merged (snapping can make them meet)."""
    out: list[tuple[int, int]] = []
    for start, end in sorted(pieces):
        if out and start <= out[-1][1]:
            out[-1] = (out[-1][0], max(out[-1][1], end))
        else:
            out.append((start, end))
    return out


def check_snap(snap: Any) -> str | None:
    """``snap`` checked: None, ``"expand"`` or ``"contract"``."""
    if snap not in SNAPS:
        raise ValueError(f"snap must be None (keep the characters), 'expand' or 'contract', got {quote(snap)}")
    return snap


def split_text(corpus: Corpus) -> Corpus:
    """A corpus of texts as a token corpus, each text split at single spaces: the inverse of :func:`join_tokens`.

    Refused where it would not be lossless: a text that is not tokens joined by single spaces (an empty
    token from a double space or a space at an edge, other whitespace inside a token), or an entity whose
    boundaries are not token boundaries.

    Raises:
        ValueError: naming the document (its id), the reason and the value.
    """
    if corpus.texts is None:
        return corpus
    tokens, entities = [], []
    for s, (text, ents) in enumerate(zip(corpus.texts, corpus.entities)):
        name = f"document {s}" + (f" (id {quote(corpus.sentence_ids[s])})" if corpus.sentence_ids is not None else "")
        words = text.split(" ") if text else []
        odd = next((w for w in words if not_a_word(w)), None)
        if odd is not None:
            what = "an empty token (two spaces in a row, or one at an edge)" if not odd else f"token {quote(odd)}"
            raise ValueError(f"{name}: the text is not tokens joined by single spaces ({what}); "
                             "it cannot become tokens without choosing a tokenization")
        grid = Grid(joined_offsets(words))
        placed = []
        for entity in ents:
            where = grid.place(entity, None)
            if where.category != "aligned":
                raise ValueError(f"{name}: entity {quote(entity)} ({where.category.replace('_', ' ')}) does not start and "
                                 "end at token boundaries; as tokens it would change")
            placed.append(where.tokens)
        tokens.append(words)
        entities.append(placed)
    return Corpus(tokens, entities, corpus.sentence_ids, corpus.doc_ids, corpus.format,
                  f"{corpus.format} texts split at single spaces", corpus.source, corpus.places, "tokens", corpus.notes,
                  corpus.scores, checked=True)
