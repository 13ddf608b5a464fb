"""The token-classification pipeline's output, as JSON lines beside the text it was run on.

``{"id": "d1", "text": "...", "entities": pipe(text)}``: ``entities`` is the
list ``transformers.pipeline("token-classification", ...)`` returns for the text.

* Aggregated (``aggregation_strategy="simple"``, ``"first"``, ...): each item is
  an entity, ``{"entity_group", "score", "word", "start", "end"}``, taken as the
  span ``(start, end, entity_group)``.
* Not aggregated (``"none"``, the default): each item is a sub-token,
  ``{"entity", "score", "index", "word", "start", "end"}``, with the ``O``
  sub-tokens left out. They are merged into spans by the rule of the pipeline's
  ``"simple"`` strategy: walking the sub-tokens in ``index`` order, a sub-token
  joins the span before it when it is the very next sub-token (``index`` one
  more), has the same type, and its tag does not start with ``B-``; otherwise it
  starts a span. A tag is ``B-TYPE``, ``I-TYPE`` or, without either prefix, the
  whole tag is the type and continues a span (so ``E-`` and ``S-`` tags stay
  types of their own, as in the pipeline). A span runs from its first sub-token's
  ``start`` to its last one's ``end``. Sub-tokens tagged ``O`` (present when the
  pipeline ran with ``ignore_labels=[]``) end a span and are no entity.

The ``word`` of an item is compared with the text at its offsets after
removing what tokenizers add or change (the ``##``, ``▁`` and ``Ġ`` marks, case,
spaces): the pipeline detokenizes words, so ``jean-baptiste`` for
``Jean-Baptiste`` is expected and not counted; any other difference is counted
(``pipeline_word_mismatches``) and warned about once, never refused: the offsets
are what is scored.
"""
from __future__ import annotations

import json
from collections.abc import Mapping
from dataclasses import replace
from typing import Any

from .corpus import Corpus
from .records import field, jsonl_records
from .text import Mismatches, document_ids, document_records, text_of

_MARKS = str.maketrans("", "", "▁Ġ ")


def _same_word(word: Any, found: str) -> bool:
    """Whether a pipeline ``word`` spells ``found`` once tokenizer marks, case and spaces are set aside."""
    if not isinstance(word, str):
        return False
    if word.lower() == found.lower():  # an uncased model's word: most differences are case alone
        return True
    return word.replace("##", "").translate(_MARKS).casefold() == "".join(found.split()).casefold()


def _tag(entity: str) -> tuple[str, str]:
    """``(prefix, type)`` of a sub-token's tag, as the pipeline's ``simple`` grouping reads it (I for no prefix)."""
    if entity.startswith(("B-", "I-")):
        return entity[0], entity[2:]
    return "I", entity


def merge_subtokens(items: list[Mapping[str, Any]], where: str) -> list[tuple[Any, Any, str]]:
    """Spans of not-aggregated pipeline items, merged by the rule of the module docstring."""
    rows = []
    for item in items:
        try:
            entity, index = item["entity"], item["index"]
        except KeyError:
            entity, index = field(item, "entity", where), field(item, "index", where)
        if type(entity) is not str or not entity:
            raise TypeError(f"{where}: sub-token {dict(item)!r:.120} needs a non-empty string 'entity'")
        if type(index) is not int:
            raise TypeError(f"{where}: sub-token {dict(item)!r:.120} needs an integer 'index'")
        rows.append((index, item))
    rows.sort(key=lambda row: row[0])
    spans: list[list[Any]] = []
    previous: tuple[int, str] | None = None
    for index, item in rows:
        prefix, kind = _tag(item["entity"])
        if previous is not None and previous == (index - 1, kind) and prefix != "B" and spans and spans[-1][2] == kind:
            spans[-1][1] = item["end"]
        else:
            spans.append([item["start"], item["end"], kind])
        previous = (index, kind)
    return [(start, end, kind) for start, end, kind in spans if kind != "O"]


def _check_offsets(item: Mapping[str, Any], where: str, length: int) -> None:
    """An item's ``start`` and ``end``: integers with ``0 <= start < end <= length`` (each sub-token is checked, not
    only the spans merged from them)."""
    try:
        start, end = item["start"], item["end"]
    except KeyError:
        start, end = field(item, "start", where), field(item, "end", where)
    if type(start) is not int or type(end) is not int:  # the common case at once; bool and floats named below
        odd = [f"{key} {x!r}" for key, x in (("start", start), ("end", end))
               if isinstance(x, bool) or not isinstance(x, int)]
        if odd:
            raise TypeError(f"{where}: item {dict(item)!r:.160} has non-integer offsets ({', '.join(odd)}); "
                            "offsets must be ints, never truncated")
    if not 0 <= start < end <= length:
        raise ValueError(f"{where}: item {dict(item)!r:.160} is out of range; offsets need 0 <= start < end <= "
                         f"{length} (the text's length in characters)")


def _entities(items: Any, where: str, length: int) -> tuple[list[Any], str]:
    """The spans of one document's pipeline output, and which output it was (``aggregated`` or ``sub-tokens``)."""
    if not isinstance(items, list) or not all(type(item) is dict or isinstance(item, Mapping) for item in items):
        raise TypeError(f"{where}: 'entities' must be the pipeline's list of dicts, got {items!r:.80}")
    for item in items:
        _check_offsets(item, where, length)
    grouped = ["entity_group" in item for item in items]
    if any(grouped) and not all(grouped):
        raise ValueError(f"{where}: entities mix aggregated items (entity_group) and sub-tokens (entity); "
                         "give one pipeline output a line")
    if all(grouped):
        return [(i["start"], i["end"], i["entity_group"]) for i in items], "aggregated"
    return merge_subtokens(items, where), "sub-tokens"


def read_pipeline(text: str, source: str = "pipeline", first_line: int = 1) -> Corpus:
    """Pipeline output JSON lines (see the module docstring) as a corpus of texts."""
    records = list(jsonl_records(text, source, first_line))
    texts, entities, kinds = [], [], set()
    for where, record in records:
        texts.append(text_of(record, where))
        spans, kind = _entities(field(record, "entities", where), where, len(texts[-1]))
        if record["entities"]:
            kinds.add(kind)
        entities.append(spans)
    how = {"aggregated": "aggregated entities (entity_group) taken as spans",
           "sub-tokens": "sub-tokens (entity, index) merged into spans as the pipeline's simple strategy merges them"}
    conversion = "; ".join(how[k] for k in sorted(kinds)) or "no entities"
    corpus = Corpus(texts, entities, document_ids(records), document_ids(records, "doc_id"), "pipeline", conversion, source,
                    [w for w, _ in records], "characters")
    mismatches = Mismatches("word")
    for (where, record), document in zip(records, texts):
        for item in record["entities"]:
            if item.get("entity", item.get("entity_group")) == "O":
                continue
            word, found = item.get("word"), document[item["start"]:item["end"]]
            if word != found:
                mismatches.check(word, found, where, _same_word)
    conversion, notes = mismatches.report(conversion, "pipeline_word_mismatches")
    return replace(corpus, conversion=conversion, notes=notes, checked=True)


def pipeline_record(text: str, output: list[Mapping[str, Any]], id: str | None = None) -> dict[str, Any]:
    """One JSON-lines record of the pipeline's ``output`` for ``text``: its numpy scores and offsets turned into
    Python numbers (``json.dumps`` refuses numpy's float32).

    >>> import json
    >>> json.dumps(pipeline_record("Paris", [{"entity_group": "LOC", "word": "paris", "start": 0, "end": 5}], "d1"))
    '{"id": "d1", "text": "Paris", "entities": [{"entity_group": "LOC", "word": "paris", "start": 0, "end": 5}]}'
    """
    items = [{key: value.item() if hasattr(value, "item") else value for key, value in item.items()} for item in output]
    return {**({"id": id} if id is not None else {}), "text": text, "entities": items}


def write_pipeline(corpus: Corpus) -> str:
    """A corpus of texts as aggregated pipeline output (``entity_group``, ``word`` the text at the offsets,
    ``score`` 1.0); discontinuous entities cannot be written (the pipeline has none)."""
    lines = []
    for record, document, entities in document_records(corpus):
        items = []
        for entity in entities:
            if len(entity) != 3:
                raise ValueError(f"{record['id']}: discontinuous entity {entity!r} cannot be written as pipeline "
                                 "output; write text spans or brat, which keep fragments")
            start, end, label = entity
            items.append({"entity_group": label, "score": 1.0, "word": document[start:end], "start": start,
                          "end": end})
        record["entities"] = items
        lines.append(json.dumps(record, ensure_ascii=False) + "\n")
    return "".join(lines)
