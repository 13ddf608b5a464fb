"""Answer systems as files: JSON lines of entity lists or of raw model answers, a document (or question) a line.

Each line is an object with an ``id`` and exactly one of:

- ``"entities": [{"text": "Barack Obama", "label": "PER"}, ...]``: the entity list
  as a program already extracted it (items as :mod:`~nested_span_f1.answers.values`
  reads a list's items; other keys, such as a ``score``, are not read);
- ``"output": "<the model's raw answer>"``: read by
  :func:`~nested_span_f1.answers.parse.parse_answer` when it is scored, with the
  document's text and the gold's types at hand (an answer that cannot be read is
  counted as unparseable, never refused).

Optional keys: ``label``, the one type the line's question asked about
(UniversalNER asks "what describes T in the text?" once per type: each such
answer is a line with the document's id and its ``label``, and a list of strings
is then read as mentions of that type); ``text``, the document's text, compared
with the gold text when given. A document's lines are gathered by id; an id given
twice with the same ``label`` (or once with and once without one) is refused.
Without ids (on every line) documents are paired with the gold by order.

What the line holds is checked as it is read: a line that is not such an object,
an ``output`` that is not a string, ``entities`` that are not a list, is refused
with the file, the line and the value, since it is the file, not the model, that
is wrong. An item of a list that cannot be read is counted where it is scored,
with its line, and the rest is scored (an item is the model's, or its
extractor's, not the file's).
"""
from __future__ import annotations

import json
import os
from collections.abc import Collection, Iterable, Mapping, Sequence
from dataclasses import dataclass
from functools import cached_property
from typing import Any

from ..core.wording import quote
from ..formats.records import jsonl_records
from ..formats.registry import head
from .mention import Answer
from .parse import parse_answer
from .values import read_items

Question = tuple[str | None, Any]
"""One line's question type (None: every type) and what it answers with: the raw answer (a string) or an entity
list (a list of items)."""


@dataclass(frozen=True)
class Answers:
    """An answer system read from a file: per document its id, its questions (see :data:`Question`), the text
    the file gives for it (or None), and where each of its questions is (``"answers.jsonl, line 9"``: a document
    asked once per type has a line per question; the first is where the document is)."""

    ids: list[str] | None
    answers: list[list[Question]]
    texts: list[str | None]
    asked: list[list[str]]
    source: str = "answers"

    def __len__(self) -> int:
        return len(self.answers)

    @cached_property
    def places(self) -> list[str]:
        """Where each document is: its first question's place."""
        return [asked[0] for asked in self.asked]

    def place(self, k: int, q: int = 0) -> str:
        """Where document ``k``'s question ``q`` is (its first by default: where the document is)."""
        return self.asked[k][q]

    def line(self, k: int, q: int = 0) -> str:
        """:meth:`place` without the file's name (``"line 9"``): messages name the file once."""
        return self.place(k, q).removeprefix(f"{self.source}, ")


def read_answer(question: Question, document: str | None = None, labels: Collection[str] = ()) -> Answer:
    """One question's answer read: a raw answer by :func:`~nested_span_f1.answers.parse.parse_answer` (with the
    document's text and the gold's types), an entity list item by item (``entities``)."""
    label, given = question
    if isinstance(given, str):
        return parse_answer(given, label, document=document, labels=labels)
    mentions, unreadable = read_items(given, label)
    return Answer(tuple(mentions), "entities", unreadable=tuple(unreadable))


def record_answer(record: Mapping[str, Any], where: str) -> Question:
    """One line's question type and answer (see the module docstring), checked but not yet read."""
    if type(record) is not dict and not isinstance(record, Mapping):
        raise TypeError(f"{where}: {quote(record)} is not a json object")
    listed = "entities" in record
    if listed == ("output" in record):
        raise ValueError(f"{where}: a line holds either 'entities' (a list of {{'text', 'label'}} objects) or "
                         f"'output' (the model's answer), got {'both' if listed else 'neither'}")
    label = record.get("label")
    if label is not None and not isinstance(label, str):
        raise TypeError(f"{where}: 'label' (the type the question asked about) must be a string, got {quote(label)}")
    if listed:
        if not isinstance(record["entities"], list):
            raise TypeError(f"{where}: 'entities' must be a list of {{'text', 'label'}} objects, got "
                            f"{quote(record['entities'])}")
        return label, record["entities"]
    output = record["output"]
    if not isinstance(output, str):
        raise TypeError(f"{where}: 'output' must be the model's answer as a string, got {quote(output)}")
    return label, output


def read_answers(text: str, source: str = "answers", first_line: int = 1) -> Answers:
    """A file of answers (see the module docstring).

    Raises:
        TypeError, ValueError: a line that is not such an object, ids on some lines only, an id given twice with
            the same question, or a ``text`` that is not a string; naming the file, the line and the value.
    """
    return gather(jsonl_records(text, source, first_line), source)


def gather(records: Iterable[tuple[str, Any]], source: str = "answers") -> Answers:
    """Records (with where each is) gathered into documents by id, as :func:`read_answers` does."""
    order: dict[str, int] = {}
    answers: list[list[Question]] = []
    texts: list[str | None] = []
    places: list[list[str]] = []
    with_ids = None
    for where, record in records:
        question = record_answer(record, where)
        ident = record.get("id")
        if with_ids is None:
            with_ids = ident is not None
        if (ident is not None) != with_ids:
            raise ValueError(f"{where}: {'no' if with_ids else 'an'} 'id', where the first line "
                             f"{'has one' if with_ids else 'has none'}; give every line an id, or none")
        document = record.get("text")
        if document is not None and not isinstance(document, str):
            raise TypeError(f"{where}: 'text' must be the document's text as a string, got {quote(document)}")
        key = str(ident) if with_ids else str(len(answers))
        if key not in order or not with_ids:
            order[key] = len(answers)
            answers.append([question])
            texts.append(document)
            places.append([where])
            continue
        k = order[key]
        asked = [label for label, _ in answers[k]]
        if None in asked or question[0] is None or question[0] in asked:
            what = ("without a 'label' both times" if question[0] is None and asked == [None]
                    else f"with label {quote(question[0])}" if question[0] in asked else "both for one type and for all")
            raise ValueError(f"{where}: id {quote(key)} is given twice ({what}; first at {places[k][0]}); a document's "
                             "questions are told apart by their 'label', one line each")
        if document is not None and texts[k] is not None and document != texts[k]:
            raise ValueError(f"{where}: id {quote(key)} has another 'text' than at {places[k][0]}")
        texts[k] = texts[k] if texts[k] is not None else document
        answers[k].append(question)
        places[k].append(where)
    return Answers(list(order) if with_ids else None, answers, texts, places, source)


LOOKED_AT = 100
"""Lines :func:`looks_like_answers` reads at most to tell a file of answers."""


def looks_like_answers(text: str) -> bool:
    """Whether a json-lines text is a file of answers, by the first of its first :data:`LOOKED_AT` records
    that tells: one with an ``output``, or ``entities`` without the document's ``text`` or ``tokens`` (no other
    format lists entities without what they are in), or ``entities`` whose first item has ``text`` and ``label``
    but no offsets (``start``, ``fragments``) and is not a pipeline's (``entity_group``, ``entity``)."""
    for line in [line for line in text.splitlines() if line.strip()][:LOOKED_AT]:
        try:
            record = json.loads(line)
        except (ValueError, RecursionError):
            return False
        if not isinstance(record, Mapping):
            return False
        if "output" in record:
            return True
        entities = record.get("entities")
        if not isinstance(entities, list):
            return False
        if "text" not in record and "tokens" not in record:
            return True
        if entities:
            first = entities[0]
            return isinstance(first, Mapping) and {"text", "label"} <= set(first) and not (
                {"start", "fragments", "entity_group", "entity"} & set(first))
    return False


def answers_file(path: str | os.PathLike[str]) -> bool:
    """Whether ``path`` is a file of an answer system (:func:`looks_like_answers`), from its first lines each read
    whole however long (:func:`~nested_span_f1.formats.registry.head`); False for a folder or a pipe, which only
    its reader reads (once)."""
    return os.path.isfile(path) and looks_like_answers(head(path, LOOKED_AT))


def answer_records(ids: Sequence[str], mentions: Sequence[Sequence[tuple[str, str]]]) -> str:
    """JSON lines of entity lists (``{"id", "entities": [{"text", "label"}]}``), as :func:`read_answers` reads
    them."""
    return "".join(
        json.dumps({"id": ident, "entities": [{"text": t, "label": label} for t, label in items]},
                   ensure_ascii=False) + "\n"
        for ident, items in zip(ids, mentions)
    )
