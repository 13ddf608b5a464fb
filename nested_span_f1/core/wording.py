"""How messages and reports word things: a number and its noun, agreeing; a value quoted, shortened one way.

Every door words its counts the same way ("1 sentence", "2 sentences",
"1,100 resamples") and quotes the values it names the same way (:func:`quote`),
so a message read against another never differs in form.
"""
from __future__ import annotations

import json
from collections.abc import Mapping, Sequence, Set
from typing import Any


def plural(n: int, word: str, many: str | None = None) -> str:
    """``n`` and ``word``, the noun in the plural (``many``, else ``word + "s"``) unless ``n`` is 1.

    >>> plural(1, "sentence"), plural(2, "predicted sentence"), plural(1100, "resample")
    ('1 sentence', '2 predicted sentences', '1,100 resamples')
    """
    return f"{n:,} {word if n == 1 else many or word + 's'}"


def options_apply(given: Sequence[str], sep: str = " and ") -> str:
    """Options named in a refusal, the verb agreeing with how many: the start of "X apply to ..., but ...".

    >>> options_apply(["--trim"]), options_apply(["--trim", "--snap"]), options_apply(["scheme", "mode"], ", ")
    ('--trim applies', '--trim and --snap apply', 'scheme, mode apply')
    """
    return f"{sep.join(given)} {'applies' if len(given) == 1 else 'apply'}"


def misaligned(predicted: int, reference: int) -> str:
    """The message for sides of different numbers of sentences, the same at every door."""
    return (f"{plural(predicted, 'predicted sentence')} but {plural(reference, 'reference sentence')}; "
            "they must align sentence by sentence")


QUOTE_LIMIT = 80
"""Characters a quoted value takes in a one-line message, about (:func:`quote`)."""

_SMALLEST = 12
"""Characters below which an item of a list or a dict is left out rather than shortened further."""


def _spelling(value: Any, as_json: bool) -> str:
    return json.dumps(value, ensure_ascii=False, default=repr) if as_json else repr(value)


def quote(value: Any, limit: int = QUOTE_LIMIT, *, as_json: bool = False) -> str:
    """``repr(value)`` (``as_json``: its json spelling, as a file holds it) for a one-line message, in about
    ``limit`` characters: whole when it fits, else shortened where a reader can still tell what it was.

    A string keeps its start and says its length; a dict, a list, a tuple or a set
    keeps its first items, each shortened in turn, and says how many it leaves out:
    it is cut between items, never inside a key (a key is shown whole or not at
    all). Anything else is cut at ``limit`` characters.

    >>> quote("Barack Obama visited Paris. " * 1000, 48)
    "'Barack Obama visited Pa...' (28,000 characters)"
    >>> quote({"entity_group": "PER", "score": 0.99, "word": "Barack Obama", "start": 0, "end": 12}, 60)
    "{'entity_group': 'PER', 'score': 0.99, ... 3 more}"
    >>> quote([[{"entity_group": "PER", "word": "Barack Obama", "start": 0, "end": 12}]], 50)
    "[[{'entity_group': 'PER', ... 3 more}]]"
    >>> quote([{"start": 0, "end": 5, "label": None}] * 40, 60, as_json=True)
    '[{"start": 0, "end": 5, "label": null}, ... 39 more]'
    """
    text = _spelling(value, as_json)
    if len(text) <= limit:
        return text
    if isinstance(value, (str, bytes)) and not (as_json and isinstance(value, bytes)):
        return _cut_text(value, limit, as_json)
    if isinstance(value, Mapping):
        keys = [(_spelling(key if not as_json or isinstance(key, str) else str(key), as_json) + ": ", item)
                for key, item in value.items()]
        return _cut_items("{", "}", keys, limit, as_json)
    if isinstance(value, (list, tuple, Set)):
        opening, closing = ("[", "]") if as_json or isinstance(value, list) else ("(", ")")
        if isinstance(value, Set) and not as_json:
            opening, closing = ("{", "}") if type(value) is set else (f"{type(value).__name__}({{", "})")
        return _cut_items(opening, closing, [("", item) for item in value], limit, as_json)
    return text[:max(limit - 3, 1)] + "..."


def _cut_text(value: str | bytes, limit: int, as_json: bool) -> str:
    """A long string's start in quotes, ``...`` inside them, and its length."""
    unit = "characters" if isinstance(value, str) else "bytes"
    suffix = f" ({len(value):,} {unit})"
    room = limit - len(suffix) - 3
    keep = max(room - 2, 1)
    while keep > 1 and len(_spelling(value[:keep], as_json)) > room:
        keep -= max(1, (len(_spelling(value[:keep], as_json)) - room) // 4)
    shown = _spelling(value[:keep], as_json)
    cut = f"{shown[:-1]}...{shown[-1]}{suffix}"
    whole = _spelling(value, as_json)
    return whole if len(whole) <= len(cut) else cut


def _cut_items(opening: str, closing: str, items: list[tuple[str, Any]], limit: int, as_json: bool) -> str:
    """Items (``prefix`` such as a key, then the item) between brackets, the first ones that fit, each shortened to
    the room left, the rest counted."""
    shown: list[str] = []
    used = len(opening) + len(closing)
    for n, (prefix, item) in enumerate(items):
        rest = len(items) - n - 1
        tail = len(f", ... {rest} more") if rest else 0
        room = limit - used - tail - (2 if shown else 0) - len(prefix)
        if shown and room < _SMALLEST:
            break
        piece = prefix + quote(item, max(room, _SMALLEST), as_json=as_json)
        if shown and len(piece) > room + len(prefix):  # it would not fit even shortened: counted among the rest
            break
        shown.append(piece)
        used += len(piece) + (2 if len(shown) > 1 else 0)
    left = len(items) - len(shown)
    return opening + ", ".join(shown) + (f", ... {left} more" if left else "") + closing


def unreadable_line(unparseable: int, answers: int, ids: Sequence[str]) -> str:
    """How many answers could not be read, and which (by id, or by line): the commands' warning line and the
    Python API's ``UnreadableAnswersWarning`` say it alike."""
    share = unparseable / answers if answers else 0.0
    return f"{unparseable} of {answers} answers ({100 * share:.1f}%) could not be read: {quote(list(ids))}"
