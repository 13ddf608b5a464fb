"""Text spans as JSON lines: a document a line, its text and its entities in character offsets.

``{"id": "d1", "text": "Peter lives in Paris.", "entities": [{"start": 0, "end": 5, "label": "PER"}, ...]}``

Offsets are Python string indices (code points), ``end`` exclusive, as
``text[start:end]`` reads them; ``offsets="utf16"`` or ``"bytes"`` reads a file
whose offsets count UTF-16 code units or UTF-8 bytes (:mod:`.offsets`), and a file
read in code points whose spans fit, or cover their ``text``, only in one of those
is refused naming it. A discontinuous entity is
``{"fragments": [[start, end], ...], "label": ...}`` (brat's ``0 5;10 15``). An
entity may carry the ``text`` it covers: it is compared with the document's
text at its offsets and every difference is counted (never refused: it is the
offsets that are scored). An entity's ``score`` (or ``prob``), as GLiNER writes
it, is its confidence (``Corpus.scores``: every entity of the file has one, or
none has); other keys of an entity (``id``) are not read. ``id`` is optional; documents without ids are paired by order. ``doc_id``
(optional) names the larger document a record belongs to (a sentence of an
abstract), as the benchmark's resampling units.
"""
from __future__ import annotations

from collections.abc import Iterator, Mapping, Sequence
from dataclasses import replace
from typing import Any

from ..core.caller import warn_caller
from ..core.entities import is_fragmented
from ..core.scored import entity_scores
from ..core.wording import plural, quote
from .corpus import Corpus
from .offsets import CODEPOINTS, UNIT_WORDS, Claim, OffsetsError, fitting_unit, in_code_points
from .records import field, json_line, jsonl_records

Record = tuple[str, Mapping[str, Any]]


class TextMismatchWarning(UserWarning):
    """An entity's own text (a pipeline's ``word``, a mention's ``text``) differs from the document at its offsets."""


def text_of(record: Mapping[str, Any], where: str) -> str:
    """The record's ``text``, checked to be a string."""
    text = field(record, "text", where)
    if not isinstance(text, str):
        raise TypeError(f"{where}: 'text' must be a string, got {quote(text)}")
    return text


def document_ids(records: Sequence[Record], key: str = "id") -> list[str] | None:
    """Every record's ``key`` (``id``, ``doc_id``) as a string, or None when a record has none."""
    values = [record.get(key) for _, record in records]
    return [str(v) for v in values] if all(v is not None for v in values) else None


def read_entity(item: Any, where: str) -> Any:
    """A span ``(start, end, label)`` or a discontinuous ``(fragments, label)`` from an entity dict; the
    offsets are checked by :class:`Corpus` (integers, in range)."""
    if not isinstance(item, Mapping):
        raise TypeError(f"{where}: entity {quote(item)} must be a json object with start, end and label")
    label = field(item, "label", where)
    if "fragments" in item:
        both = [key for key in ("start", "end") if key in item]
        if both:
            raise ValueError(f"{where}: entity {quote(item)} has fragments and {' and '.join(both)}; give one or the "
                             "other (a span is start and end, a discontinuous entity its fragments)")
        fragments = item["fragments"]
        if not isinstance(fragments, list):
            raise TypeError(f"{where}: entity {quote(item)} needs fragments as a list of [start, end] pairs")
        return tuple(tuple(piece) if isinstance(piece, list) else piece for piece in fragments), label
    return field(item, "start", where), field(item, "end", where), label


def covered_text(text: str, entity: Any) -> str:
    """The characters an entity covers; a discontinuous entity's fragments joined by a space, as brat writes them."""
    if is_fragmented(entity):
        return " ".join(text[start:end] for start, end in entity[0])
    return text[entity[0]:entity[1]]


class Mismatches:
    """Entities whose own text differs from the document at their offsets: counted, the first one kept to show."""

    def __init__(self, what: str) -> None:
        self.what, self.count, self.first = what, 0, ""

    def check(self, claimed: Any, found: str, where: str, same: Any = None) -> None:
        if claimed is None or claimed == found or (same is not None and same(claimed, found)):
            return
        self.count += 1
        if not self.first:
            self.first = f"{where}: {self.what} {quote(claimed)} where the document reads {quote(found)}"

    def summary(self) -> str:
        """The entities whose text differed, counted, and the first of them."""
        return (f"{plural(self.count, 'entity', 'entities')} whose {self.what} differs from the text at "
                f"{'its' if self.count == 1 else 'their'} offsets (first: {self.first})")

    def report(self, conversion: str, key: str) -> tuple[str, dict[str, int]]:
        """The reader's conversion line and notes, with a warning when anything differed."""
        if not self.count:
            return conversion, {}
        message = self.summary()
        warn_caller(f"{message}; the offsets are scored", TextMismatchWarning)
        return f"{conversion}; {message}", {key: self.count}


def read_text_spans(text: str, source: str = "text", first_line: int = 1, *, offsets: str = CODEPOINTS) -> Corpus:
    """Text-span JSON lines (see the module docstring) as a corpus of texts; ``offsets``: the unit the file's
    offsets count (:mod:`~nested_span_f1.formats.offsets`)."""
    return documents_corpus(list(jsonl_records(text, source, first_line)), source, offsets)


def documents_corpus(records: Sequence[Record], source: str, offsets: str = CODEPOINTS) -> Corpus:
    """``(where, record)`` pairs of text-span records (``text``, ``entities``, optional ``id`` and ``doc_id``) as a
    corpus of texts; ``where`` names each record in messages; ``offsets`` the unit the offsets count.

    Read in code points, offsets that fit the texts (or cover the entities' own texts) only in another unit are
    refused with the option that reads them (:func:`~nested_span_f1.formats.offsets.fitting_unit`)."""
    texts, entities, items_of = [], [], []
    for where, record in records:
        document = text_of(record, where)
        items = field(record, "entities", where)
        if not isinstance(items, list):
            raise TypeError(f"{where}: 'entities' must be a list, got {quote(items)}")
        texts.append(document)
        entities.append([read_entity(item, where) for item in items])
        if offsets != CODEPOINTS:
            entities[-1] = in_code_points(document, entities[-1], offsets, where)
        items_of.append(items)
    scores, read = entity_scores(items_of)
    how = "kept as they are" if offsets == CODEPOINTS else f"{UNIT_WORDS[offsets]} read as code points"
    try:
        corpus = Corpus(texts, entities, document_ids(records), document_ids(records, "doc_id"), "text",
                        f"character offsets, end exclusive: {how}", source, [w for w, _ in records],
                        "characters", read, scores=scores)
    except ValueError as error:
        unit = fitting_unit(_claims(records, texts, entities, False)) if offsets == CODEPOINTS else None
        raise error if unit is None else OffsetsError(str(error), unit) from None
    # offsets are known to be in range now: compare the mentions' own texts
    mismatches = Mismatches("text")
    for (where, record), document, spans in zip(records, texts, entities):
        for item, span in zip(record["entities"], spans):
            mismatches.check(item.get("text"), covered_text(document, span), where)
    unit = fitting_unit(_claims(records, texts, entities)) if mismatches.count and offsets == CODEPOINTS else None
    if unit is not None:
        raise OffsetsError(f"{source}: {mismatches.summary()}", unit, claimed=True)
    conversion, notes = mismatches.report(corpus.conversion, "mention_text_mismatches")
    return replace(corpus, conversion=conversion, notes={**corpus.notes, **notes}, checked=True)


def _claims(records: Sequence[Record], texts: Sequence[str], entities: Sequence[Sequence[Any]],
            claimed: bool = True) -> Iterator[tuple[str, list[Claim]]]:
    """Each document's text and entities as :func:`~nested_span_f1.formats.offsets.fitting_unit` reads them: their
    pieces, and the text each claims (``claimed``), else None."""
    for (_, record), text, spans in zip(records, texts, entities):
        yield text, [(span[0] if is_fragmented(span) else ((span[0], span[1]),),
                      item.get("text") if claimed and isinstance(item, Mapping) else None)
                     for item, span in zip(record["entities"], spans)]


def entity_dict(text: str, entity: Any) -> dict[str, Any]:
    """An entity as the text-span format writes it (with the text it covers)."""
    if is_fragmented(entity):
        return {"fragments": [list(piece) for piece in entity[0]], "label": entity[1],
                "text": covered_text(text, entity)}
    return {"start": entity[0], "end": entity[1], "label": entity[2], "text": text[entity[0]:entity[1]]}


def document_records(corpus: Corpus) -> Iterator[tuple[dict[str, Any], str, Sequence[Any]]]:
    """``(record, text, entities)`` of each document of a corpus of texts: the record holds its id (the
    sentence id, or its position), the id of the document it belongs to when known (``doc_id``), and text."""
    texts = require_texts(corpus)
    for s, (document, entities) in enumerate(zip(texts, corpus.entities)):
        record = {"id": corpus.sentence_ids[s] if corpus.sentence_ids is not None else str(s)}
        if corpus.doc_ids is not None:
            record["doc_id"] = corpus.doc_ids[s]
        record["text"] = document
        yield record, document, entities


def require_texts(corpus: Corpus) -> Sequence[str]:
    """The corpus's texts; ValueError for a corpus of tokens (convert it first)."""
    if corpus.texts is None:
        raise ValueError(f"{corpus.source} holds tokens, not texts; turn it into texts first "
                         "(nested-span-f1 convert, or nested_span_f1.align.join_tokens)")
    return corpus.texts


def write_text_spans(corpus: Corpus) -> str:
    """A corpus of texts as text-span JSON lines (each entity with the text it covers, and its score when the corpus
    has scores)."""
    lines = []
    for s, (record, document, entities) in enumerate(document_records(corpus)):
        record["entities"] = [entity_dict(document, e) for e in entities]
        if corpus.scores is not None:
            for item, score in zip(record["entities"], corpus.scores[s]):
                item["score"] = score
        lines.append(json_line(record) + "\n")
    return "".join(lines)
