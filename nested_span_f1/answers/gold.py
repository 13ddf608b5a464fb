"""The gold an answer system is scored against: texts with their entities, the tokens' places, or strings.

Three kinds of gold:

- a corpus of **texts** (text spans, pipeline output, brat, spaCy DocBins): as it is;
- a corpus of **tokens** (CoNLL columns, the nested-NER token formats): each
  sentence's tokens joined by single spaces, or located in the texts the answers'
  file gives; the tokens' places in the text are kept, for answers that give
  token indices (:mod:`.indices`);
- **strings without offsets**, as many LLM-NER datasets publish their gold:
  ``{"id": "d1", "text": "Paris is nice.", "entities": [{"text": "Paris", "label":
  "LOC"}]}`` a line (:func:`read_string_gold`; the items' keys as the answers' are
  read, :data:`~nested_span_f1.answers.values.TEXT_KEYS`). The string protocol
  compares them as they are; the located spans place them on the text by the same
  policy as the predictions, each gold string that cannot be placed counted and
  shown (and missed by every prediction).
"""
from __future__ import annotations

import json
import os
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any, NamedTuple, Union

from ..align.project import joined_offsets, locate_tokens, to_characters
from ..core.wording import quote
from ..formats import Corpus, read_corpus
from ..formats.columns import read_text
from ..formats.records import jsonl_records
from ..formats.registry import head
from .read import Answers
from .values import LABEL_KEYS, TEXT_KEYS, Unreadable, mention_of

OFFSET_KEYS = ("start", "end", "fragments")


@dataclass(frozen=True)
class StringGold:
    """A gold of texts whose entities are strings: per document its text and ``(string, label)`` pairs."""

    texts: list[str]
    strings: list[list[tuple[str, str]]]
    ids: list[str] | None
    places: list[str]
    source: str = "gold"

    def __len__(self) -> int:
        return len(self.texts)


References = Union[Corpus, StringGold, str, "os.PathLike[str]", Sequence[Mapping[str, Any]]]


def string_gold(records: Iterable[tuple[str, Any]], source: str = "gold") -> StringGold:
    """Records (with where each is) of a gold of strings (see the module docstring).

    Raises:
        TypeError, ValueError: a record without its text or its entities list, an entity that cannot be read
            (the gold must be whole: it is refused, naming the line and the entity), ids on some records only.
    """
    texts, strings, ids, places = [], [], [], []
    for where, record in records:
        if not isinstance(record, Mapping):
            raise TypeError(f"{where}: {quote(record)} is not a json object")
        text, items = record.get("text"), record.get("entities")
        if not isinstance(text, str):
            raise TypeError(f"{where}: a gold of strings needs each document's 'text' (a string), got {quote(text)}")
        if not isinstance(items, list):
            raise TypeError(f"{where}: 'entities' must be a list of {{'text', 'label'}} objects, got {quote(items)}")
        pairs = []
        for k, item in enumerate(items):
            if isinstance(item, Mapping) and not any(key in item for key in TEXT_KEYS) and any(
                    key in item for key in OFFSET_KEYS):
                raise ValueError(f"{where}, entity {k + 1}: {quote(item)} gives offsets, not the entity's text: a gold "
                                 "of strings names each entity by its text and label; give a gold with offsets as a "
                                 "file of its own format, or as a Corpus")
            try:
                mention = mention_of(item)
            except Unreadable as error:
                raise ValueError(f"{where}, entity {k + 1}: {error}") from None
            pairs.append((mention.text, mention.label))
        texts.append(text)
        strings.append(pairs)
        ids.append(record.get("id"))
        places.append(where)
    given = [ident is not None for ident in ids]
    if any(given) and not all(given):
        where = places[given.index(not given[0])]
        raise ValueError(f"{where}: {'no' if given[0] else 'an'} 'id', where the first line "
                         f"{'has one' if given[0] else 'has none'}; give every line an id, or none")
    return StringGold(texts, strings, [str(i) for i in ids] if all(given) and ids else None, places, source)


def read_string_gold(text: str, source: str = "gold") -> StringGold:
    """A gold of strings as JSON lines (see the module docstring)."""
    return string_gold(jsonl_records(text, source), source)


def looks_string_gold(text: str) -> bool:
    """Whether a json-lines text is a gold of strings: its first record has a ``text`` and ``entities`` whose first
    item names a string and a label, with no offsets (and no model ``output``)."""
    for line in text.splitlines():
        if not line.strip():
            continue
        try:
            record = json.loads(line)
        except (ValueError, RecursionError):
            return False
        if not isinstance(record, Mapping) or "output" in record or not isinstance(record.get("text"), str):
            return False
        entities = record.get("entities")
        if not isinstance(entities, list):
            return False
        if entities:
            first = entities[0]
            return (isinstance(first, Mapping) and any(key in first for key in TEXT_KEYS)
                    and any(key in first for key in LABEL_KEYS) and not any(key in first for key in OFFSET_KEYS))
    return False


def string_gold_file(path: str | os.PathLike[str]) -> StringGold | None:
    """The gold of strings a file holds, when its first record tells it is one (:func:`looks_string_gold`); None
    for any other file (or a folder, a pipe)."""
    if not os.path.isfile(path) or not looks_string_gold(head(path)):
        return None
    return read_string_gold(read_text(path), str(path))


def load_gold(references: References) -> Corpus | StringGold:
    """The gold as given: a corpus, a gold of strings (a file detected as one, or its records), or any file
    :func:`~nested_span_f1.formats.read_corpus` reads."""
    if isinstance(references, (Corpus, StringGold)):
        return references
    if isinstance(references, (str, os.PathLike)):
        return string_gold_file(references) or read_corpus(references)
    if isinstance(references, Sequence):
        return string_gold(((f"reference {k}", r) for k, r in enumerate(references)), "references")
    raise TypeError(f"references: expected a gold file, a Corpus, a StringGold or records, got "
                    f"{type(references).__name__}")


class Gold(NamedTuple):
    """The gold as texts, in the gold's order: each document's text, its entities in characters (None for a gold
    of strings), its ``(string, label)`` pairs (None for a gold of offsets), its tokens' places in the text (None
    for a gold of texts), its ids, and the other fields of the corpus it came from (``meta``)."""

    texts: list[str]
    entities: list[list[Any]] | None
    strings: list[list[tuple[str, str]]] | None
    tokens: list[list[tuple[int, int]]] | None
    ids: Sequence[str] | None
    meta: Mapping[str, Any]

    def labels(self) -> set[str]:
        """Every label the gold uses."""
        if self.strings is not None:
            return {label for pairs in self.strings for _, label in pairs}
        return {e[-1] for entities in self.entities or () for e in entities}

    def corpus(self, texts: Sequence[str], entities: Sequence[Sequence[Any]]) -> Corpus:
        """A corpus of ``texts`` (the gold's, padded) and ``entities`` (checked already) that names the gold."""
        return Corpus(texts, entities, unit="characters", checked=True, **self.meta)


def _meta(corpus: Corpus, conversion: str) -> dict[str, Any]:
    return {"sentence_ids": corpus.sentence_ids, "doc_ids": corpus.doc_ids, "format": "text", "source": corpus.source,
            "conversion": conversion, "places": corpus.places, "notes": corpus.notes}


def gold_texts(gold: Corpus | StringGold, read: Answers, order: list[int]) -> Gold:
    """The gold as texts (see :class:`Gold`): texts as they are; tokens joined by single spaces, or located in
    the texts the file of answers gives (every document then needs one).

    Raises:
        ValueError: tokens to locate in the file of answers's texts where a document gives none, or that are not
            in its text.
    """
    if isinstance(gold, StringGold):
        meta = {"sentence_ids": gold.ids, "format": "strings", "source": gold.source, "places": gold.places,
                "conversion": "entities given as strings, placed on the texts as the answers' strings are"}
        return Gold(list(gold.texts), None, gold.strings, None, gold.ids, meta)
    if gold.texts is not None:
        return Gold(list(gold.texts), [list(e) for e in gold.entities], None, None, gold.sentence_ids,
                    {**_meta(gold, gold.conversion), "format": gold.format})
    given = [read.texts[p] for p in order]
    joined = all(t is None for t in given)
    texts, entities, tokens = [], [], []
    for s, words in enumerate(gold.tokens):
        text = given[s]
        if joined:
            offsets = joined_offsets(list(words))
            text = " ".join(words)
        elif text is None:
            raise ValueError(f"{read.place(order[s])}: no 'text', where other documents give one; the gold's "
                             "tokens are located in the texts given, so every document needs its text")
        else:
            offsets = locate_tokens(list(words), text, f"{gold.source}, sentence {s + 1}")
        texts.append(text)
        tokens.append(offsets)
        entities.append(to_characters(gold.entities[s], offsets))
    how = ("joined by single spaces; token offsets turned into characters" if joined else
           "located in the file of answers's texts")
    return Gold(texts, entities, None, tokens, gold.sentence_ids, _meta(gold, f"{gold.format or 'tokens'} tokens {how}"))
