"""Answers that are the sentence with marks in it: inline tags, GPT-NER's ``@@string##``, GNER's ``word(tag)``.

- **inline tags** (``tags``): ``<PER>Barack Obama</PER> visited <LOC>Paris</LOC>``;
  tags may nest and must be balanced.
- **GPT-NER marks** (``marked``): the sentence with each entity of the asked type
  between ``@@`` and ``##`` (Wang et al. 2023); the type is the question's (the
  line's ``label``), so an answer without one cannot be read.
- **GNER's output** (``gner``): every word followed by its tag, ``Barack(B-PER)
  Obama(I-PER) visited(O)``; the words of a B-/I- run of one type, joined by one
  space, are a mention (an ``I-`` after ``O`` or another type starts one, as
  seqeval's default mode reads it). The answer is read so only when it is made of
  such pieces and nothing else (``Paris (LOC)`` lines are not GNER's), and, when
  the document's text is known, its words must follow the text in order (else it
  is unparseable, naming the first word that does not).

Tags and marks keep the answer's text without them (``plain``): where it equals
the document's text, each mention's offset in it places the mention exactly.
"""
from __future__ import annotations

import re

from ..core.wording import quote
from .mention import Answer, Mention

_TAG = re.compile(r"<(/?)([A-Za-z_][\w.\-]*)>")


def _fail(reason: str) -> Answer:
    return Answer((), "unparseable", reason)


def tags(text: str) -> Answer | None:
    """Inline markup read with a stack (tags may nest); None when the answer holds no tag."""
    plain: list[str] = []
    open_tags: list[tuple[str, int, int]] = []
    mentions: list[tuple[int, int, str] | None] = []
    position = length = 0
    for match in _TAG.finditer(text):
        piece = text[position:match.start()]
        plain.append(piece)
        length += len(piece)
        position = match.end()
        closing, name = match.group(1), match.group(2)
        if not closing:
            open_tags.append((name, length, len(mentions)))
            mentions.append(None)
            continue
        if not open_tags or open_tags[-1][0] != name:
            expected = f"</{open_tags[-1][0]}>" if open_tags else "no closing tag"
            return _fail(f"inline tags do not balance: </{name}> where {expected} was due")
        _, start, slot = open_tags.pop()
        mentions[slot] = (start, length, name)
    if position == 0:
        return None
    if open_tags:
        return _fail(f"inline tags do not balance: <{open_tags[-1][0]}> is never closed")
    plain.append(text[position:])
    joined = "".join(plain)
    return Answer(tuple(Mention(joined[s:e], name, s) for s, e, name in mentions  # type: ignore[misc]
                        ), "tags", plain=joined)


_MARK = re.compile(r"@@|##")


def marks(text: str, label: str | None) -> Answer | None:
    """GPT-NER's ``@@string##`` marks, of the question's type ``label``; None when the answer holds no ``@@``."""
    if "@@" not in text:
        return None
    if label is None:
        return _fail("GPT-NER's @@string## marks name no type: the line needs the 'label' its question asked about")
    plain: list[str] = []
    opened: list[int] = []
    found: list[tuple[int, int]] = []
    position = length = 0
    for match in _MARK.finditer(text):
        piece = text[position:match.start()]
        plain.append(piece)
        length += len(piece)
        position = match.end()
        if match.group() == "@@":
            opened.append(length)
        elif opened:
            found.append((opened.pop(), length))
        else:
            # a ## with no @@ before it is the sentence's own text (a hashtag), kept
            plain.append("##")
            length += 2
    if opened:
        return _fail(f"GPT-NER's marks do not balance: an @@ at character {opened[-1] + 1} of the text is never "
                     "closed by ##")
    plain.append(text[position:])
    joined = "".join(plain)
    mentions = tuple(Mention(joined[s:e], label, s) for s, e in sorted(found) if joined[s:e].strip())
    return Answer(mentions, "marked", plain=joined,
                  unreadable=tuple(f"mark at character {s + 1}: @@## marks nothing" for s, e in found
                                   if not joined[s:e].strip()))


_WORD_TAG = re.compile(r"(\S*?)\((?:([BI])-([^()]*?)|O)\)")


def gner(text: str, document: str | None) -> Answer | None:
    """GNER's ``word(tag)`` output; None when the answer is not made of such pieces, unparseable when its words do
    not follow ``document`` (when given) in order."""
    if not text.rstrip().endswith(")") or ("(O)" not in text and "(B-" not in text and "(I-" not in text):
        return None
    pieces = list(_WORD_TAG.finditer(text))
    if not pieces or _WORD_TAG.sub("", text).strip():
        return None
    if document is not None:
        at = 0
        for piece in pieces:
            word = piece.group(1)
            if word:
                found = document.find(word, at)
                if found < 0:
                    return _fail(f"word(tag) output whose words do not follow the text: {quote(word)} (word "
                                 f"{pieces.index(piece) + 1}) is not in it after character {at}")
                at = found + len(word)
    mentions: list[Mention] = []
    unreadable: list[str] = []
    words: list[str] = []
    label = None
    for piece in pieces:
        word, prefix, tag = piece.group(1), piece.group(2), piece.group(3)
        if not word:
            continue
        if prefix and not tag.strip():
            unreadable.append(f"word {quote(word)}: its tag {quote(piece.group(0)[len(word):])} names no type")
            prefix = None
        if words and (prefix != "I" or tag != label):
            mentions.append(Mention(" ".join(words), label))  # type: ignore[arg-type]
            words, label = [], None
        if prefix:
            words.append(word)
            label = tag
    if words:
        mentions.append(Mention(" ".join(words), label))  # type: ignore[arg-type]
    return Answer(tuple(mentions), "gner", unreadable=tuple(unreadable))
