"""Read a language model's raw answer into mentions ``(text, label)``: the shapes models write, parsed whole.

An answer is parsed whole or not at all: one item that cannot be read makes the
answer unparseable (the scorer then counts it, and its document's gold entities as
missed), so that no part of an answer is dropped silently. The shapes, tried in
this order:

1. **empty**: an answer of whitespace only names no entity.
2. **JSON or a Python literal**, alone or with prose (or a Markdown code fence)
   around it: the first bracketed value (``[...]`` or ``{...}``) that reads as
   JSON, else as a Python literal (``ast.literal_eval``: single quotes, tuples,
   ``None``), and whose content is one of (the first :data:`TRIED` bracketed
   values are tried):

   - a list of objects ``{"text": ..., "label": ...}`` (``list``); the keys may
     also be spelled as in :data:`TEXT_KEYS` and :data:`LABEL_KEYS`;
   - a list of pairs ``["Barack Obama", "PER"]`` (``list``);
   - a list of strings, when the question named one type (UniversalNER's "which
     spans are of type T" questions: the record's ``label``) (``list``);
   - an object keyed by type, ``{"PER": ["Barack Obama"], "LOC": []}``, each value
     a list of strings or one string (``object``); an object with an
     ``entities`` list is read as that list (its other keys, a model's comments,
     are not read), and a single ``{"text", "label"}``
     object as one mention.

3. **inline tags** (``tags``): the text with markup, ``<PER>Barack Obama</PER>
   visited <LOC>Paris</LOC>``; tags may nest and must be balanced. The answer's
   text with the tags taken out is kept (``plain``): where it equals the
   document's text, each mention's offset in it places the mention exactly.
4. **word(tag) output** as GNER writes it (``gner``): ``Barack(B-PER) Obama(I-PER)
   visited(O)``; the words of a B-/I- run of one type, joined by one space, are a
   mention (an ``I-`` after ``O`` or after another type starts one, as seqeval's
   default mode reads it).

Anything else is unparseable, with the reason.
"""
from __future__ import annotations

import ast
import json
import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

SHAPES = ("empty", "list", "object", "tags", "gner", "entities", "unparseable")
"""What an answer was read as (``entities``: a record's structured ``entities``, not a raw answer)."""

TEXT_KEYS = ("text", "entity", "span", "mention", "name")
"""Keys a mention object may give its text under (exactly one of them)."""
LABEL_KEYS = ("label", "type", "entity_type", "category")
"""Keys a mention object may give its label under (exactly one of them)."""


@dataclass(frozen=True)
class Mention:
    """One generated entity: its string and label, and its offset in the answer's own text for inline tags."""

    text: str
    label: str
    start: int | None = None


@dataclass(frozen=True)
class Answer:
    """A parsed answer: its mentions in the answer's order, the shape it was read as, and why it could not be
    read (``error``, with ``shape == "unparseable"``). ``plain`` is an inline-tag answer's text without the tags
    (an answer with no structure at all keeps its text there: it is an inline-tag answer that names no entity
    when it is the document's text, which only the scorer knows)."""

    mentions: tuple[Mention, ...]
    shape: str
    error: str | None = None
    plain: str | None = None


class _Unreadable(ValueError):
    """A value that was read but is not one of the shapes (the reason is the message)."""


def _fail(reason: str, plain: str | None = None) -> Answer:
    return Answer((), "unparseable", reason, plain)


def _pick(item: Mapping[str, Any], keys: Sequence[str], what: str) -> Any:
    found = [key for key in keys if key in item]
    if len(found) != 1:
        detail = "none" if not found else f"{', '.join(found)} (more than one)"
        raise _Unreadable(f"object {_short(item)} needs its {what} under one of {', '.join(keys)}; it has {detail}")
    return item[found[0]]


def _short(value: Any) -> str:
    text = repr(value)
    return text if len(text) <= 60 else text[:57] + "..."


def _string(value: Any, what: str, item: Any) -> str:
    if not isinstance(value, str):
        raise _Unreadable(f"{what} {_short(value)} of {_short(item)} is not a string")
    return value


def mention_of(item: Any, label: str | None = None) -> Mention:
    """One list item as a mention: a ``{"text", "label"}`` object, a ``[text, label]`` pair, or a string when
    ``label`` (the question's type) is known.

    Raises:
        ValueError: an item of none of those kinds, or whose text or label is not a string.
    """
    if isinstance(item, Mapping):
        return Mention(_string(_pick(item, TEXT_KEYS, "text"), "text", item),
                       _string(_pick(item, LABEL_KEYS, "label"), "label", item))
    if isinstance(item, (list, tuple)):
        if len(item) != 2:
            raise _Unreadable(f"item {_short(item)} is not a [text, label] pair")
        return Mention(_string(item[0], "text", item), _string(item[1], "label", item))
    if isinstance(item, str):
        if label is None:
            raise _Unreadable(f"item {_short(item)} is a string without a type: a list of strings answers a question "
                              "about one type, which the record must name ('label')")
        return Mention(item, label)
    raise _Unreadable(f"item {_short(item)} is not an object, a [text, label] pair or a string")


def mentions_of(value: Any, label: str | None = None) -> tuple[tuple[Mention, ...], str]:
    """The mentions a JSON or literal value holds, and its shape (``list`` or ``object``); see the module docstring.

    Raises:
        ValueError: a value of none of the shapes.
    """
    if isinstance(value, (list, tuple)):
        mentions = []
        for item in value:
            # the common item, {"text": str, "label": str}, read without the general checks
            if type(item) is dict and len(item) == 2 and type(item.get("text")) is str and type(
                    item.get("label")) is str:
                mentions.append(Mention(item["text"], item["label"]))
            elif type(item) is list and len(item) == 2 and type(item[0]) is str and type(item[1]) is str:
                mentions.append(Mention(item[0], item[1]))
            else:
                mentions.append(mention_of(item, label))
        return tuple(mentions), "list"
    if not isinstance(value, Mapping):
        raise _Unreadable(f"{_short(value)} is neither a list nor an object")
    if any(key in value for key in TEXT_KEYS) and any(key in value for key in LABEL_KEYS):
        return (mention_of(value),), "object"
    if isinstance(value.get("entities"), list):
        return mentions_of(value["entities"], label)[0], "object"
    mentions = []
    for key, strings in value.items():
        if not isinstance(key, str):
            raise _Unreadable(f"type {_short(key)} is not a string")
        if isinstance(strings, str):
            strings = [strings]
        if not isinstance(strings, (list, tuple)):
            raise _Unreadable(f"the value of type {key!r} is {_short(strings)}, not a list of strings")
        mentions += [Mention(_string(s, "text", strings), key) for s in strings]
    return tuple(mentions), "object"


_OPENERS = {"[": "]", "{": "}"}


def _bracketed(text: str) -> tuple[list[tuple[int, int]], int | None]:
    """``(start, end)`` of every balanced ``[...]`` and ``{...}`` of ``text``, by start, in one pass, and where the
    first bracket that never closes opens (None when all close). Brackets inside quoted strings of a bracketed
    value do not count; a closing bracket that does not match leaves the brackets open then unclosed."""
    pairs: list[tuple[int, int]] = []
    stack: list[int] = []
    unclosed: list[int] = []
    quote, k = "", 0
    while k < len(text):
        char = text[k]
        if quote:
            if char == "\\":
                k += 1
            elif char == quote:
                quote = ""
        elif char in _OPENERS:
            stack.append(k)
        elif stack and char in "\"'":
            quote = char
        elif stack and char in "]}":
            start = stack.pop()
            if _OPENERS[text[start]] == char:
                pairs.append((start, k + 1))
            else:
                unclosed += [start, *stack]
                stack.clear()
        k += 1
    unclosed += stack
    return sorted(pairs), min(unclosed, default=None)


TRIED = 100
"""Bracketed values tried at most in one answer (an answer with more that none reads as mentions is unparseable)."""


def _value(chunk: str) -> Any:
    """``chunk`` read as JSON, else as a Python literal; raises ValueError when it is neither."""
    try:
        return json.loads(chunk)
    except (ValueError, RecursionError):
        pass
    try:
        return ast.literal_eval(chunk)
    except (ValueError, TypeError, SyntaxError, MemoryError, RecursionError):
        raise ValueError("not JSON or a Python literal") from None


_FENCE = re.compile(r"```[A-Za-z]*\s*\n(.*?)```", re.DOTALL)


def _structured(text: str, label: str | None) -> Answer | str | None:
    """The answer read from its first bracketed value that holds mentions; else the first reason a bracketed value
    was refused (a string), or None when it holds no bracketed value that reads at all."""
    fenced = _FENCE.search(text)
    candidates = [fenced.group(1).strip()] if fenced else []
    candidates.append(text)
    reason = None
    for chunk in candidates:
        try:  # the common case: the whole answer is the value
            value = json.loads(chunk)
        except (ValueError, RecursionError):
            pass
        else:
            try:
                return _answer(value, label)
            except _Unreadable as error:
                return str(error)
        pairs, unclosed = _bracketed(chunk)
        if unclosed is not None:
            # what opens inside a bracket that never closes is part of a value cut short: not read on its own
            pairs = [(start, end) for start, end in pairs if start < unclosed]
            reason = reason or (f"the {chunk[unclosed]!r} at character {unclosed + 1} never closes "
                                "(was the answer cut short?)")
        for start, end in pairs[:TRIED]:
            try:
                value = _value(chunk[start:end])
            except ValueError:
                continue
            try:
                return _answer(value, label)
            except _Unreadable as error:
                reason = reason or str(error)
    return reason


def _answer(value: Any, label: str | None) -> Answer:
    mentions, shape = mentions_of(value, label)
    return Answer(mentions, shape)


_TAG = re.compile(r"<(/?)([A-Za-z_][\w.\-]*)>")


def _tags(text: str) -> Answer | None:
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


_WORD_TAG = re.compile(r"\((?:([BI])-([^()]*?)|O)\)")


def _gner(text: str) -> Answer | None:
    """GNER's ``word(tag)`` output; None when the answer holds no such tag."""
    mentions: list[Mention] = []
    words: list[str] = []
    label = None
    position = 0
    found = False
    for match in _WORD_TAG.finditer(text):
        found = True
        word = text[position:match.start()].strip()
        position = match.end()
        prefix, tag = match.group(1), match.group(2)
        if not word:
            continue
        if words and (prefix != "I" or tag != label):
            mentions.append(Mention(" ".join(words), label))  # type: ignore[arg-type]
            words, label = [], None
        if prefix:
            words.append(word)
            label = tag
    if not found:
        return None
    if words:
        mentions.append(Mention(" ".join(words), label))  # type: ignore[arg-type]
    return Answer(tuple(mentions), "gner")


def parse_answer(text: str, label: str | None = None) -> Answer:
    """A raw model answer read as mentions (see the module docstring); never raises on what a model wrote.

    Args:
        text: the answer as the model wrote it.
        label: the type the question asked about (UniversalNER's one-type questions):
            every string of a list of strings gets it.

    Raises:
        TypeError: ``text`` is not a string (a file's record, not a model, is wrong).

    >>> parse_answer('Sure! [{"text": "Barack Obama", "label": "PER"}] Anything else?').mentions
    (Mention(text='Barack Obama', label='PER', start=None),)
    >>> parse_answer("<PER>Barack Obama</PER> visited <LOC>Paris</LOC>").mentions[1]
    Mention(text='Paris', label='LOC', start=21)
    >>> parse_answer("[('Paris', 'LOC')]").shape, parse_answer('["Paris"]', label="LOC").mentions
    ('list', (Mention(text='Paris', label='LOC', start=None),))
    >>> parse_answer("I found no entities.").error
    'no JSON list or object, inline tags or word(tag) output found'
    """
    if not isinstance(text, str):
        raise TypeError(f"an answer must be a string, got {type(text).__name__} {_short(text)}")
    if not text.strip():
        return Answer((), "empty")
    structured = _structured(text, label)
    if isinstance(structured, Answer):
        return structured
    for reader in (_tags, _gner):
        answer = reader(text)
        if answer is not None:
            return answer
    # kept as the text an inline-tag answer naming no entity would be: the scorer compares it with the document
    return _fail(structured or "no JSON list or object, inline tags or word(tag) output found", text)
