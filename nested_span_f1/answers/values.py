"""Answers written as values: JSON, Python literals, and code calls (GoLLIE), alone or inside prose.

A value answer is the first bracketed value (``[...]`` or ``{...}``) of the answer,
or of its Markdown code fence, that reads as JSON, else as a Python literal
(``ast.literal_eval``: single quotes, tuples, ``None``), and holds mentions:

- a list of objects ``{"text": ..., "label": ...}``, the keys also spelled as in
  :data:`TEXT_KEYS` and :data:`LABEL_KEYS` (``list``), in Chinese too
  (``{"实体": ..., "类型": ...}``);
- a list of pairs ``["Barack Obama", "PER"]`` (``list``);
- a list of ``[string, TYPE, first, last]`` items, ``first`` and ``last`` the
  inclusive 0-based indices of the string's tokens in the sentence, or of objects
  with token ``start`` and ``end`` (``end`` exclusive, as every offset here)
  (``indexed``: placed by the indices when the gold has tokens);
- a list of strings, when the question named one type (the record's ``label``);
- an object keyed by type, ``{"PER": ["Barack Obama"], "LOC": []}`` (``object``),
  a type's value ``None``, ``null`` or a string saying none ("N/A") naming nothing;
  an object of strings keyed by entity, ``{"Barack Obama": "PER"}``, read entity
  to type when its values, not its keys, are the gold's types (or, without the gold's
  types, when every value is one word of one case, "PER" or "person", and some key is not);
  an object with an ``entities`` list is read as that list, and a single
  ``{"text", "label"}`` object as one mention.

An item that cannot be read (an empty string, an empty label, a number for a
label, a pair of three) is **unreadable**: counted with the reason, the other
items kept. A list of scalars none of which reads (numbers, or strings without a
type) is not an answer (the next bracketed value is tried). Lists that follow the
first value with only whitespace between (a model continuing its list) are read
with it. Code calls, ``[Person(span="Barack Obama")]`` as
GoLLIE writes them, are read by :func:`calls` (``calls``): the class is the type.
"""
from __future__ import annotations

import ast
import json
import re
from collections.abc import Collection, Mapping, Sequence
from typing import Any

from ..core.wording import quote
from .mention import Mention

NO_VALUE = re.compile(r"\s*(?:n/?a|none|null|nil|nothing|-+|–|—|无|没有|空)\s*[.。]?\s*", re.I)
"""A type's value that names nothing: empty, "N/A", "none", "-", "无"."""

TEXT_KEYS = ("text", "entity", "span", "mention", "name", "word", "实体", "实体名称", "名称")
"""Keys a mention object may give its text under (exactly one of them)."""
LABEL_KEYS = ("label", "type", "entity_type", "category", "entity_group", "类型", "实体类型", "类别", "标签")
"""Keys a mention object may give its label under (exactly one of them)."""


class Unreadable(ValueError):
    """A value that was read but is not one of the shapes (the reason is the message)."""


def _pick(item: Mapping[str, Any], keys: Sequence[str], what: str) -> Any:
    found = [key for key in keys if key in item]
    if len(found) != 1:
        detail = "none" if not found else f"{', '.join(found)} (more than one)"
        raise Unreadable(f"object {quote(item)} needs its {what} under one of {', '.join(keys)}; it has {detail}")
    return item[found[0]]


def _string(value: Any, what: str, item: Any) -> str:
    if not isinstance(value, str):
        raise Unreadable(f"{what} {quote(value)} of {quote(item)} is not a string")
    if not value.strip():
        raise Unreadable(f"{what} of {quote(item)} is empty")
    return value


def _index(value: Any) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


def mention_of(item: Any, label: str | None = None) -> Mention:
    """One list item as a mention: a ``{"text", "label"}`` object (with token ``start`` and ``end``: indexed), a
    ``[text, label]`` pair, a ``[text, label, first, last]`` item, or a string when ``label`` (the question's type)
    is known.

    Raises:
        Unreadable: an item of none of those kinds, or whose text or label is not a non-empty string.
    """
    if isinstance(item, Mapping):
        mention = Mention(_string(_pick(item, TEXT_KEYS, "text"), "text", item),
                          _string(_pick(item, LABEL_KEYS, "label"), "label", item))
        start, end = item.get("start"), item.get("end")
        if isinstance(start, int) and isinstance(end, int) and _index(start) and _index(end):
            return mention._replace(tokens=(start, end - 1))
        return mention
    if isinstance(item, (list, tuple)):
        if len(item) == 4 and _index(item[2]) and _index(item[3]):
            return Mention(_string(item[0], "text", item), _string(item[1], "label", item), None, (item[2], item[3]))
        if len(item) != 2:
            raise Unreadable(f"item {quote(item)} is not a [text, label] pair or a [text, label, first, last] item")
        return Mention(_string(item[0], "text", item), _string(item[1], "label", item))
    if isinstance(item, str):
        if label is None:
            raise Unreadable(f"item {quote(item)} is a string without a type: a list of strings answers a question "
                             "about one type, which the record must name ('label')")
        return Mention(_string(item, "text", item), label)
    raise Unreadable(f"item {quote(item)} is not an object, a [text, label] pair or a string")


def read_items(items: Sequence[Any], label: str | None = None) -> tuple[list[Mention], list[str]]:
    """The mentions of a list's items, and the reason each unreadable item was not read (``item 2: ...``)."""
    mentions: list[Mention] = []
    unreadable: list[str] = []
    for k, item in enumerate(items):
        # the common item, {"text": str, "label": str}, read without the general checks
        if type(item) is dict and len(item) == 2 and type(item.get("text")) is str and type(
                item.get("label")) is str and item["text"].strip() and item["label"].strip():
            mentions.append(Mention(item["text"], item["label"]))
        elif type(item) is list and len(item) == 2 and type(item[0]) is str and type(item[1]) is str and item[
                0].strip() and item[1].strip():
            mentions.append(Mention(item[0], item[1]))
        else:
            try:
                mentions.append(mention_of(item, label))
            except Unreadable as error:
                unreadable.append(f"item {k + 1}: {error}")
    return mentions, unreadable


def mentions_of(value: Any, label: str | None = None, labels: Collection[str] = ()) -> tuple[list[Mention],
                                                                                            list[str], str]:
    """The mentions a JSON or literal value holds, the unreadable items, and the shape (``list``, ``indexed`` or
    ``object``); see the module docstring.

    Raises:
        Unreadable: a value of none of the shapes, or one with items none of which reads.
    """
    if isinstance(value, (list, tuple)):
        return _listed(value, label)
    if not isinstance(value, Mapping):
        raise Unreadable(f"{quote(value)} is neither a list nor an object")
    if any(key in value for key in TEXT_KEYS) and any(key in value for key in LABEL_KEYS):
        mention = mention_of(value)
        return [mention], [], "indexed" if mention.tokens is not None else "object"
    if isinstance(value.get("entities"), list):
        mentions, unreadable, shape = _listed(value["entities"], label)
        return mentions, unreadable, "object" if shape == "list" else shape
    if _keyed_by_entity(value, labels):
        mentions, unreadable, _ = _listed([[key, kind] for key, kind in value.items() if not _nothing(kind)], label)
        return mentions, unreadable, "object"
    return _keyed_by_type(value)


def _nothing(value: Any) -> bool:
    return value is None or (isinstance(value, str) and NO_VALUE.fullmatch(value) is not None)


def _keyed_by_entity(value: Mapping[Any, Any], labels: Collection[str]) -> bool:
    """Whether an object maps entity strings to types (``{"Barack Obama": "PER"}``), not types to strings: its values
    are all strings, and the gold's types are its values and none of its keys; without the gold's types on either
    side, every value is one word of one case ("PER", "person") and some key is not such a word of that case."""
    kinds = [kind for kind in value.values() if not _nothing(kind)]
    if not kinds or not all(isinstance(kind, str) for kind in kinds) or not all(isinstance(k, str) for k in value):
        return False
    if labels:
        keys_known = any(key in labels for key in value)
        values_known = any(kind in labels for kind in kinds)
        if keys_known or values_known:
            return values_known and not keys_known
    cases = {_case(kind) for kind in kinds}
    if len(cases) != 1 or None in cases:
        return False
    return any(_case(key) not in cases for key in value)


def _case(text: str) -> str | None:
    """``upper`` or ``lower`` for one word that looks like a type written in that case ("PER", "person"), else None."""
    if _TYPE_WORD.fullmatch(text) is None:
        return None
    return "upper" if text.isupper() else "lower" if text.islower() else None


_TYPE_WORD = re.compile(r"[A-Za-z][\w\-./&]{0,39}")


def _listed(value: Sequence[Any], label: str | None) -> tuple[list[Mention], list[str], str]:
    """A list's mentions (``indexed`` when an item gives token indices); a list of scalars none of which reads
    (numbers, strings without a type) is no entity list."""
    mentions, unreadable = read_items(value, label)
    if unreadable and not mentions and not any(isinstance(item, (list, tuple, Mapping)) for item in value):
        raise Unreadable(unreadable[0].split(": ", 1)[1])
    return mentions, unreadable, "indexed" if any(m.tokens is not None for m in mentions) else "list"


def _keyed_by_type(value: Mapping[Any, Any]) -> tuple[list[Mention], list[str], str]:
    """An object keyed by type, ``{"PER": ["Barack Obama"], "LOC": "Paris"}``."""
    mentions: list[Mention] = []
    unreadable: list[str] = []
    for key, strings in value.items():
        if not isinstance(key, str) or not key.strip():
            raise Unreadable(f"type {quote(key)} is not a string")
        if _nothing(strings):
            continue  # "DATE": null, "DATE": "N/A": the type has nothing
        if isinstance(strings, str):
            strings = [strings]
        if not isinstance(strings, (list, tuple)):
            raise Unreadable(f"the value of type {quote(key)} is {quote(strings)}, not a list of strings")
        found, lost = read_items([s for s in strings if not _nothing(s)], key)
        mentions += found
        unreadable += [f"type {quote(key)}, {reason}" for reason in lost]
    if unreadable and not mentions:
        raise Unreadable(unreadable[0])
    return mentions, unreadable, "object"


_OPENERS = {"[": "]", "{": "}"}


def bracketed(text: str) -> tuple[list[tuple[int, int]], int | None]:
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


def literal(chunk: str) -> Any:
    """``chunk`` read as JSON, else as a Python literal; raises ValueError when it is neither."""
    try:
        return json.loads(chunk)
    except (ValueError, RecursionError):
        pass
    try:
        return ast.literal_eval(chunk)
    except (ValueError, TypeError, SyntaxError, MemoryError, RecursionError):
        raise ValueError("not JSON or a Python literal") from None


FENCE = re.compile(r"```[A-Za-z]*\s*\n(.*?)```", re.DOTALL)

Found = tuple[list[Mention], list[str], str]
"""Mentions, unreadable items and shape of a value answer."""


_DECODER = json.JSONDecoder()


def _first_json(chunk: str, label: str | None, labels: Collection[str]) -> tuple[Found, int] | None:
    """The mentions of the JSON value at the chunk's first bracket, when it is one and holds mentions, and where it
    ends: what the scan of every bracketed value finds first then, read without the scan (prose around a JSON
    list)."""
    return _json_at_first_bracket(chunk, label, labels)


def _json_at_first_bracket(chunk: str, label: str | None, labels: Collection[str]) -> tuple[Found, int] | None:
    """:func:`_first_json`'s reading, also used to find a list after prose after the first (:func:`_continued`)."""
    starts = [k for k in (chunk.find("["), chunk.find("{")) if k >= 0]
    if not starts:
        return None
    try:
        value, end = _DECODER.raw_decode(chunk, min(starts))
        found = mentions_of(value, label, labels)
    except (ValueError, RecursionError):  # Unreadable is a ValueError
        return None
    return (found, end) if found[0] or found[1] else None


def _continued(chunk: str, end: int, found: Found, label: str | None, labels: Collection[str]) -> Found:
    """``found`` with the mentions of the values that follow it in ``chunk`` from ``end`` with only whitespace
    between (a model continuing its list on the next line), up to the first that holds none; a JSON list of
    mentions later still, after prose, is counted as unreadable (not read, not lost)."""
    mentions, unreadable, shape = found
    while True:
        rest = chunk[end:]
        gap = len(rest) - len(rest.lstrip())
        if gap == len(rest) or rest[gap] not in _OPENERS:
            break
        pairs, _ = bracketed(rest[gap:])
        if not pairs or pairs[0][0] != 0:
            break
        try:
            more = mentions_of(literal(rest[gap:gap + pairs[0][1]]), label, labels)
        except ValueError:  # Unreadable is a ValueError
            break
        if not (more[0] or more[1]):
            break
        mentions, unreadable = mentions + more[0], unreadable + more[1]
        end += gap + pairs[0][1]
    later = _json_at_first_bracket(chunk[end:], label, labels) if "[" in chunk[end:] or "{" in chunk[end:] else None
    if later is not None:  # a list after prose: counted, never lost silently
        unreadable = [*unreadable, f"a later list of {len(later[0][0]) + len(later[0][1])} item(s) after prose "
                                   "was not read (only a list right after the first, or after 'Final answer:', is)"]
    return mentions, unreadable, shape


def structured(text: str, label: str | None, labels: Collection[str] = ()) -> tuple[Found | None, str | None, bool]:
    """The answer read from its first bracketed value that holds mentions (None when none does) and the values
    right after it (:func:`_continued`), the first reason a bracketed value was refused (or None), and whether an
    empty value (``[]``, ``{}``, an object of empty lists) was found (an answer saying it names nothing, unless its
    lines name something)."""
    fenced = FENCE.search(text)
    candidates = [fenced.group(1).strip()] if fenced else []
    candidates.append(text)
    reason, empty = None, False
    for chunk in candidates:
        try:  # the common case: the whole answer is the value
            value = json.loads(chunk)
        except (ValueError, RecursionError):
            pass
        else:
            try:
                found = mentions_of(value, label, labels)
            except Unreadable as error:
                return None, str(error), False
            return (found, None, False) if found[0] or found[1] else (None, None, True)
        first = _first_json(chunk, label, labels)
        if first is not None:
            return _continued(chunk, first[1], first[0], label, labels), None, False
        pairs, unclosed = bracketed(chunk)
        if unclosed is not None:
            # what opens inside a bracket that never closes is part of a value cut short: not read on its own
            pairs = [(start, end) for start, end in pairs if start < unclosed]
            reason = reason or (f"the {quote(chunk[unclosed])} at character {unclosed + 1} never closes "
                                "(was the answer cut short?)")
        for start, end in pairs[:TRIED]:
            try:
                value = literal(chunk[start:end])
            except ValueError:
                continue
            try:
                found = mentions_of(value, label, labels)
            except Unreadable as error:
                reason = reason or str(error)
                continue
            if found[0] or found[1]:
                return _continued(chunk, end, found, label, labels), reason, False
            empty = True
    return None, reason, empty


_CALL = re.compile(r"\b([A-Za-z_]\w*)\(\s*(?:span|text|name|mention|entity)\s*=\s*"
                   r"(\"(?:[^\"\\\n]|\\.)*\"|'(?:[^'\\\n]|\\.)*')\s*\)")


def calls(text: str) -> tuple[list[Mention], list[str]]:
    """GoLLIE's code-style answer, ``[Person(span="Barack Obama"), Location(span="Paris")]``: each call's class is
    the type and its ``span`` (or ``text``, ``name``, ``mention``, ``entity``) argument the string; the mentions
    and the calls that cannot be read (both empty when the answer holds no such call)."""
    found, unreadable = [], []
    for k, match in enumerate(_CALL.finditer(text)):
        try:
            string = ast.literal_eval(match.group(2))
        except (ValueError, SyntaxError):
            string = ""
        if string.strip():
            found.append(Mention(string, match.group(1)))
        else:
            unreadable.append(f"call {k + 1}: {match.group(0)} has no string")
    return found, unreadable
