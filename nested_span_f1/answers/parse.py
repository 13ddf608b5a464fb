"""Read a language model's raw answer into mentions ``(text, label)``: the shapes real models write.

The readers are tried in this order; the first that reads the answer gives it:

1. **empty** (``empty``): an answer of whitespace only, or one that says there is no
   entity in a common way ("no entities", "None", "N/A", "There are no named
   entities in this sentence.", ``[]``, ``{}``); also an answer that is the
   document's text itself (inline tags naming nothing: ``tags``);
2. **values** (:mod:`.values`): JSON or a Python literal, alone or with prose or a
   code fence around it (``list``, ``indexed``, ``object``);
3. **marks** (:mod:`.markup`): inline tags (``tags``), GPT-NER's ``@@string##``
   (``marked``), GoLLIE's code calls (``calls``, :func:`.values.calls`), GNER's
   ``word(tag)`` output whose words follow the text (``gner``);
4. **lines** (:mod:`.lines`): an entity a line (``parentheses``, ``type_lines``,
   ``colon``, ``dash``, ``tuples``, ``table``), the prose around them skipped
   and counted, a self-correction keeping its last list.

A reasoning model's block (``<think>...</think>``, also ``<thinking>``,
``<reasoning>``; or everything before a lone ``</think>``) is not read: its lines
are counted as skipped and the rest of the answer is read (a block that never
closes runs to the end: with nothing before it, the answer was cut short and is
unparseable). A value after a correction
("Final answer:", "Revised answer:", "Let me revise:") replaces the value before
it (counted as corrected). A mention typed ``O`` (the outside label) is declined
in every shape. Anything else is ``unparseable``, with the reason and what was tried. An answer
is read item by item: an item that cannot be read (an empty string, an empty
label) is counted with the reason, and the rest of the answer is kept.
"""
from __future__ import annotations

import re
from collections.abc import Collection

from ..core.wording import quote
from .lines import NONE_STARTS, read_lines, says_none, simple_lines
from .markup import gner, marks, tags
from .mention import Answer, Mention
from .values import calls, structured

SHAPES = ("empty", "list", "indexed", "object", "entities", "table", "tuples", "parentheses", "type_lines", "colon",
          "dash", "tags", "marked", "calls", "gner", "unparseable")
"""What an answer was read as (``entities``: a record's structured ``entities``, not a raw answer)."""

TRIED = ("a JSON or Python list or object", "inline tags", "GPT-NER's @@marks##", "code calls Type(span=...)",
         "word(tag) output", "lines of string (TYPE), TYPE: a, b, string: TYPE, string - TYPE, (string, TYPE) "
         "or a Markdown table")
"""What :func:`parse_answer` looks for, as the reason of an answer it cannot read says."""

NOTHING_FOUND = f"none of {', '.join(TRIED)} found"


def parse_answer(text: str, label: str | None = None, *, document: str | None = None,
                 labels: Collection[str] = ()) -> Answer:
    """A raw model answer read as mentions (see the module docstring); never raises on what a model wrote.

    Args:
        text: the answer as the model wrote it.
        label: the type the question asked about (UniversalNER's one-type questions, GPT-NER's): every string of
            a list of strings, and every ``@@mark##``, gets it.
        document: the text the answer is about, when known: an answer that is that text is inline tags naming
            nothing, and GNER's ``word(tag)`` is read only when its words follow it.
        labels: the types the gold uses, when known: they tell ``TYPE: a, b`` lines from ``string: TYPE`` ones.

    Raises:
        TypeError: ``text`` is not a string (a file's record, not a model, is wrong).

    >>> parse_answer('Sure! [{"text": "Barack Obama", "label": "PER"}] Anything else?').mentions
    (Mention(text='Barack Obama', label='PER', start=None, tokens=None),)
    >>> [m.text for m in parse_answer("Here is the answer:\\n\\nmetabolic (QUALITY)\\nfood-web (QUALITY)").mentions]
    ['metabolic', 'food-web']
    >>> parse_answer("There are no named entities in this sentence.").shape
    'empty'
    >>> parse_answer("Sorry, I cannot help with that.").shape
    'unparseable'
    """
    if not isinstance(text, str):
        raise TypeError(f"an answer must be a string, got {type(text).__name__} {quote(text)}")
    if "<" in text and (reasoned := _after_reasoning(text, label, document, labels)) is not None:
        return reasoned
    stripped = text.strip()
    if not stripped or (stripped[0] in NONE_STARTS and says_none(stripped)):
        return Answer((), "empty")
    if document is not None and len(stripped) <= len(document) and stripped == document.strip():
        return Answer((), "tags", plain=text)
    reason, empty = None, False
    if "[" in text or "{" in text:
        answer, reason, empty = _value(text, stripped, label, labels)
        if answer is not None:
            return _outside(answer)
    elif "<" not in text and "@@" not in text and "=" not in text:
        simple = simple_lines(text, labels)  # the commonest answers, read fast
        if simple is not None:
            return simple
    return _marked_or_lines(text, label, document, labels, reason, empty)


_REASONING = re.compile(r"<(think|thinking|reasoning)>", re.I)
_REASONING_END = re.compile(r"</(?:think|thinking|reasoning)>", re.I)


def _after_reasoning(text: str, label: str | None, document: str | None, labels: Collection[str]) -> Answer | None:
    """The answer without its reasoning block (its lines added to the skipped ones): the block from its opening tag
    to its closing one, to the end when it never closes, or all before a lone closing tag (a chat template ate the
    opening one); unparseable when nothing is left. None when the answer has no such block."""
    opened = _REASONING.search(text)
    if opened is None:
        closed = _REASONING_END.search(text)
        if closed is None:
            return None
        start = 0
    else:
        closed = re.compile(rf"</{opened.group(1)}>", re.I).search(text, opened.end())
        start = opened.start()
    end = closed.end() if closed is not None else len(text)
    skipped = tuple(line.strip() for line in text[start:end].splitlines() if line.strip())
    rest = f"{text[:start]}\n{text[end:]}" if start else text[end:]
    if not rest.strip():
        reason = "nothing follows the reasoning block" if closed is not None else (
            f"the reasoning block <{opened.group(1)}> never closes (was the answer cut short?)")  # type: ignore[union-attr]
        return Answer((), "unparseable", reason, skipped=skipped)
    answer = parse_answer(rest, label, document=document, labels=labels)
    return answer._replace(skipped=skipped + answer.skipped)


_CORRECTION = re.compile(
    r"^[ \t>#*_-]*(?:final answer|(?:corrected|correct|revised|updated|new) (?:answer|list|output|version)"
    r"|corrected|correction|let me (?:revise|correct)(?: (?:that|this|it|my answer|the list))?)\b[^\n\[{]*",
    re.I | re.M)


def _value(text: str, stripped: str, label: str | None,
           labels: Collection[str]) -> tuple[Answer | None, str | None, bool]:
    """An answer with brackets read as a value (:func:`.values.structured`): the answer, or None with the first
    reason a bracketed value was refused and whether one named nothing. A value after the last correction phrase
    that follows a value replaces what came before (counted as corrected)."""
    correction = None
    for phrase in _CORRECTION.finditer(text):
        correction = phrase
    if correction is not None and ("[" in text[:correction.start()] or "{" in text[:correction.start()]):
        later, _, _ = structured(text[correction.end():], label, labels)
        if later is not None:
            mentions, unreadable, shape = later
            return Answer(tuple(mentions), shape, unreadable=tuple(unreadable),
                          corrected=(text[:correction.start()].strip(),)), None, False
    found, reason, empty = structured(text, label, labels)
    if found is not None:
        mentions, unreadable, shape = found
        return Answer(tuple(mentions), shape, unreadable=tuple(unreadable)), None, False
    if empty and stripped[0] in "[{" and stripped[-1] in "]}":
        return Answer((), "empty"), None, True  # a value naming nothing and nothing else: "[]", '{"PER": []}'
    return None, reason, empty


def _marked_or_lines(text: str, label: str | None, document: str | None, labels: Collection[str],
                     reason: str | None, empty: bool) -> Answer:
    """Steps 3 and 4 of the module docstring, then what is left: an empty value's answer (``empty``: a value
    named nothing) or an unparseable one (with ``reason``, the first value refused, or what was tried)."""
    for reader in (tags, lambda t: marks(t, label), _calls, lambda t: gner(t, document)):
        answer = reader(text)
        if answer is not None:
            return _outside(answer)
    answer = read_lines(text, labels)
    if answer is not None and (answer.mentions or answer.declined or not empty):
        return answer
    if empty:
        return Answer((), "empty", skipped=answer.skipped if answer is not None else ())
    return Answer((), "unparseable", reason or NOTHING_FOUND)


_OUTSIDE = frozenset(("O", "o"))


def _outside(answer: Answer) -> Answer:
    """``answer`` with its mentions typed ``O`` (the outside label: no entity) declined, as lines decline them."""
    if not any(m.label.strip() in _OUTSIDE for m in answer.mentions):
        return answer
    outside = tuple(f"{m.text} (O)" for m in answer.mentions if m.label.strip() in _OUTSIDE)
    return answer._replace(mentions=tuple(m for m in answer.mentions if m.label.strip() not in _OUTSIDE),
                           declined=answer.declined + outside)


def _calls(text: str) -> Answer | None:
    if "(" not in text or "=" not in text:
        return None
    mentions, unreadable = calls(text)
    return Answer(tuple(mentions), "calls", unreadable=tuple(unreadable)) if mentions or unreadable else None


__all__ = ["NOTHING_FOUND", "SHAPES", "TRIED", "Answer", "Mention", "parse_answer"]
