"""Readers and writers for the json nested-NER formats (docs/DESIGN.md, 'File formats').

Each reader takes the file's text and a source name (for messages) and returns
a :class:`Corpus`; each writer returns the text of a file that reads back to the
same sentences and entities. A mention's ``score`` (or ``prob``; in biaffine's
``[start, end, label]`` lists a fourth item) is its confidence
(``Corpus.scores``), written back when the corpus has scores.
"""
from __future__ import annotations

import json
from collections.abc import Iterator, Mapping
from typing import Any

from ..core.entities import is_fragmented, normalize_fragments
from ..core.scored import entity_scores, file_scores
from ..core.spans import Span
from ..core.wording import plural, quote
from .corpus import Corpus

Record = tuple[str, Mapping[str, Any]]


def file_lines(text: str) -> list[str]:
    r"""A file's lines, split at ``\n`` (a ``\r`` before it dropped) and nowhere else: ``str.splitlines`` also
    splits at U+2028, U+2029, U+0085 and other characters that a json string or a token may hold as they are.

    >>> file_lines("a\u2028b\r\nc\n")
    ['a\u2028b', 'c']
    """
    lines = text.split("\n")
    if lines[-1] == "":
        lines.pop()
    return [line.removesuffix("\r") for line in lines]


def jsonl_records(text: str, source: str, first_line: int = 1) -> Iterator[Record]:
    """``(where, record)`` for each non-blank line of a json-lines text whose first line is ``first_line``
    of the file (lines end at ``\n`` only: :func:`file_lines`)."""
    for number, line in enumerate(file_lines(text), first_line):
        if line.strip():
            yield _parse(line, f"{source}, line {number}", number)


def json_records(text: str, source: str) -> Iterator[Record]:
    """``(where, record)`` for each item of a json list."""
    data = loads(text, source)
    if not isinstance(data, list):
        raise TypeError(f"{source}: expected a json list of sentences, got {type(data).__name__}")
    for number, item in enumerate(data, 1):
        if not isinstance(item, Mapping):
            raise TypeError(f"{source}, item {number}: expected a json object, got {quote(item, as_json=True)}")
        yield f"{source}, item {number}", item


def loads(text: str, where: str, *, line: int | None = None) -> Any:
    """The json value of ``text``; ValueError naming ``where`` and the line and column of a syntax error, counted
    from 1 (``line``: the file line ``text`` is, for one line of json lines; else the line in ``text``)."""
    try:
        return json.loads(text)
    except json.JSONDecodeError as error:
        at = f"column {error.colno}" if line is not None else f"line {error.lineno}, column {error.colno}"
        raise ValueError(f"{where}, {at}: not valid JSON ({error.msg})") from None
    except RecursionError:
        raise ValueError(f"{where}: json nested too deeply for Python's json reader") from None


def _parse(line: str, where: str, number: int) -> Record:
    record = loads(line, where, line=number)
    if type(record) is not dict and not isinstance(record, Mapping):  # json gives dicts: the ABC's check skipped
        raise TypeError(f"{where}: expected a json object, got {quote(record, as_json=True)}")
    return where, record


def field(record: Mapping[str, Any], key: str, where: str) -> Any:
    """``record[key]``; a TypeError naming the place when ``record`` is not a json object, a ValueError naming
    the place and the missing key."""
    if not isinstance(record, Mapping):
        raise TypeError(f"{where}: expected a json object with {quote(key)}, got {quote(record, as_json=True)}")
    if key not in record:
        raise ValueError(f"{where}: {quote(record)} has no {quote(key)} key")
    return record[key]


def list_field(record: Mapping[str, Any], key: str, where: str) -> list[Any]:
    """``record[key]`` checked to be a json list (``null`` there is refused naming the place, the key and the value)."""
    return json_list(field(record, key, where), key, where)


def json_list(value: Any, key: str, where: str) -> list[Any]:
    """``value`` (the record's ``key``) checked to be a json list."""
    if not isinstance(value, list):
        raise TypeError(f"{where}: {quote(key)} must be a list, got {quote(value, as_json=True)}")
    return value


def tokens(record: Mapping[str, Any], key: str, where: str) -> list[str]:
    """``record[key]`` checked to be a list of token strings (a string there would be read as characters)."""
    return token_list(field(record, key, where), key, where)


def token_list(value: Any, key: str, where: str) -> list[str]:
    """``value`` (the record's ``key``) checked to be a list of token strings."""
    if not isinstance(value, list) or not all(isinstance(t, str) for t in value):
        raise TypeError(f"{where}: {quote(key)} must be a list of token strings, got {quote(value, as_json=True)}")
    return value


def _spans_of(corpus: Corpus, name: str) -> Iterator[list[Any]]:
    for s, ents in enumerate(corpus.entities):
        for e in ents:
            if is_fragmented(e):
                raise ValueError(f"sentence {s}: discontinuous entity {quote(e)} cannot be written as {name}; "
                                 "write w2ner, which keeps fragments")
        yield list(ents)


def _scores(mentions: list[list[Any]]) -> dict[str, Any]:
    """A corpus's ``scores`` and ``notes`` from its mention objects (:func:`~nested_span_f1.core.scored.entity_scores`:
    ``score``, else ``prob``, with which was read counted)."""
    scores, notes = entity_scores(mentions)
    return {"scores": scores, "notes": notes}


def _scored(item: dict[str, Any], corpus: Corpus, s: int, k: int) -> dict[str, Any]:
    """A written mention with its ``score`` when the corpus has scores."""
    if corpus.scores is not None:
        item["score"] = corpus.scores[s][k]
    return item


def _ids(records: list[Record], key: str) -> list[str] | None:
    values = [r.get(key) for _, r in records]
    return [str(v) for v in values] if all(v is not None for v in values) else None


_LINE_BREAKS = str.maketrans({"\u2028": "\\u2028", "\u2029": "\\u2029", "\x85": "\\u0085"})
"""The characters other than control characters that line splitters (``str.splitlines``, editors) break lines at:
json escapes them in what it writes, so that every json line of ours is one line to any reader."""


def json_line(item: Any) -> str:
    """``item`` as one line of json: non-ASCII characters as they are, line-breaking characters escaped."""
    return json.dumps(item, ensure_ascii=False).translate(_LINE_BREAKS)


def _json_list(items: list[Any]) -> str:
    return "[\n" + ",\n".join(map(json_line, items)) + "\n]\n"


def read_oneie(text: str, source: str = "oneie", first_line: int = 1) -> Corpus:
    """CNN_Nested_NER / OneIE jsonl: ``tokens`` + ``entity_mentions: [{start, end, entity_type}]``."""
    records = list(jsonl_records(text, source, first_line))
    mentions = [list_field(r, "entity_mentions", w) for w, r in records]
    entities = [
        [(field(m, "start", w), field(m, "end", w), field(m, "entity_type", w)) for m in row]
        for (w, _), row in zip(records, mentions)
    ]
    return Corpus([tokens(r, "tokens", w) for w, r in records], entities, _ids(records, "sent_id"),
                  _ids(records, "doc_id"), "oneie", "end exclusive: offsets kept as they are", source,
                  [w for w, _ in records], **_scores(mentions))


def write_oneie(corpus: Corpus) -> str:
    """The corpus as OneIE jsonl (``sent_id``/``doc_id`` when known, ``text`` of each mention)."""
    lines = []
    for s, spans in enumerate(_spans_of(corpus, "oneie")):
        tokens = list(corpus.tokens[s])
        record: dict[str, Any] = {"tokens": tokens}
        if corpus.doc_ids is not None:
            record["doc_id"] = corpus.doc_ids[s]
        if corpus.sentence_ids is not None:
            record["sent_id"] = corpus.sentence_ids[s]
        record["entity_mentions"] = [
            _scored({"start": b, "end": e, "entity_type": lab, "text": " ".join(tokens[b:e])}, corpus, s, k)
            for k, (b, e, lab) in enumerate(spans)
        ]
        lines.append(json_line(record) + "\n")
    return "".join(lines)


def read_triaffine(text: str, source: str = "triaffine") -> Corpus:
    """Locate-and-Label / Triaffine / spERT json list: ``tokens`` + ``entities: [{type, start, end}]``."""
    records = list(json_records(text, source))
    mentions = [list_field(r, "entities", w) for w, r in records]
    entities = [[(field(m, "start", w), field(m, "end", w), field(m, "type", w)) for m in row]
                for (w, _), row in zip(records, mentions)]
    return Corpus([tokens(r, "tokens", w) for w, r in records], entities, None, _ids(records, "org_id"),
                  "triaffine", "end exclusive: offsets kept as they are", source, [w for w, _ in records],
                  **_scores(mentions))


def write_triaffine(corpus: Corpus) -> str:
    """The corpus as a Triaffine json list (``org_id`` when document ids are known)."""
    items = []
    for s, spans in enumerate(_spans_of(corpus, "triaffine")):
        item: dict[str, Any] = {"tokens": list(corpus.tokens[s]),
                                "entities": [_scored({"type": lab, "start": b, "end": e}, corpus, s, k)
                                             for k, (b, e, lab) in enumerate(spans)]}
        if corpus.doc_ids is not None:
            item["org_id"] = corpus.doc_ids[s]
        items.append(item)
    return _json_list(items)


def _pyramid_span(m: Any, where: str) -> Span:
    span = field(m, "span", where)
    if not isinstance(span, list) or len(span) != 2:
        raise ValueError(f"{where}: entity {quote(m)} needs span: [start, end]")
    return span[0], span[1], field(m, "entity_type", where)


def read_pyramid(text: str, source: str = "pyramid") -> Corpus:
    """Pyramid json list: ``tokens`` + ``entities: [{entity_type, span: [start, end]}]``."""
    records = list(json_records(text, source))
    mentions = [list_field(r, "entities", w) for w, r in records]
    entities = [[_pyramid_span(m, w) for m in row] for (w, _), row in zip(records, mentions)]
    return Corpus([tokens(r, "tokens", w) for w, r in records], entities, None, None,
                  "pyramid", "end exclusive: offsets kept as they are", source, [w for w, _ in records],
                  **_scores(mentions))


def write_pyramid(corpus: Corpus) -> str:
    """The corpus as a Pyramid json list."""
    return _json_list([
        {"tokens": list(corpus.tokens[s]), "entities": [_scored({"entity_type": lab, "span": [b, e]}, corpus, s, k)
                                                        for k, (b, e, lab) in enumerate(spans)]}
        for s, spans in enumerate(_spans_of(corpus, "pyramid"))
    ])


def _inclusive(triple: Any, where: str) -> Span:
    if not isinstance(triple, list) or len(triple) not in (3, 4):
        raise ValueError(f"{where}: entity {quote(triple)} must be [start, end, label] (or [start, end, label, score])")
    start, end, label = triple[:3]
    if not isinstance(end, int) or isinstance(end, bool):
        raise TypeError(f"{where}: entity {quote(triple)} has non-integer offsets")
    return start, end + 1, label


def read_biaffine(text: str, source: str = "biaffine", first_line: int = 1) -> Corpus:
    """Biaffine (Yu et al. 2020) jsonl: a document a line, ``sentences`` + ``ners``, INCLUSIVE ends.

    Ends are made exclusive (``end + 1``); sentences carry their line's ``doc_key``.
    """
    words: list[Any] = []
    entities: list[list[Span]] = []
    scores: list[list[Any]] = []
    docs: list[str] = []
    places: list[str] = []
    for where, record in jsonl_records(text, source, first_line):
        sentences, ners = list_field(record, "sentences", where), list_field(record, "ners", where)
        if len(sentences) != len(ners):
            raise ValueError(f"{where}: {plural(len(sentences), 'sentence')} but {plural(len(ners), 'list')} of ners")
        for k, (sent, ner) in enumerate(zip(sentences, ners), 1):
            # "#": a place in the file, counted from 1, that messages never renumber (formats.places)
            place = f"{where}, sentence #{k}"
            words.append(token_list(sent, "sentences", place))
            triples = json_list(ner, "ners", place)
            entities.append([_inclusive(t, place) for t in triples])
            scores.append([t[3] if len(t) == 4 else None for t in triples])
            docs.append(str(record.get("doc_key", where)))
            places.append(place)
    return Corpus(words, entities, None, docs, "biaffine", "end inclusive: converted to exclusive (end + 1)", source,
                  places, scores=file_scores(scores))


def write_biaffine(corpus: Corpus) -> str:
    """The corpus as biaffine jsonl: consecutive sentences of one document share a line; ends inclusive."""
    lines: list[dict[str, Any]] = []
    for s, spans in enumerate(_spans_of(corpus, "biaffine")):
        doc = corpus.doc_ids[s] if corpus.doc_ids is not None else str(s)
        if not lines or lines[-1]["doc_key"] != doc:
            lines.append({"doc_key": doc, "sentences": [], "ners": []})
        lines[-1]["sentences"].append(list(corpus.tokens[s]))
        lines[-1]["ners"].append([[b, e - 1, lab] + ([corpus.scores[s][k]] if corpus.scores is not None else [])
                                  for k, (b, e, lab) in enumerate(spans)])
    return "".join(json_line(line) + "\n" for line in lines)


def _w2ner_entity(m: Any, where: str) -> Any:
    index, label = field(m, "index", where), field(m, "type", where)
    if not isinstance(index, list) or not index:
        raise ValueError(f"{where}: entity {quote(m)} needs a non-empty index list")
    if len(set(map(repr, index))) != len(index):
        raise ValueError(f"{where}: entity {quote(m)} repeats a token index")
    fragments = normalize_fragments([(i, i + 1) if isinstance(i, int) else (i, i) for i in index], None, where)
    if len(fragments) == 1:
        return fragments[0][0], fragments[0][1], label
    return fragments, label


def read_w2ner(text: str, source: str = "w2ner") -> Corpus:
    """W2NER json list: ``sentence`` + ``ner: [{index: [token ids], type}]``.

    A contiguous index list ``[a, ..., b]`` becomes ``(a, b + 1)``; a list with gaps
    stays a discontinuous entity of fragments.
    """
    records = list(json_records(text, source))
    mentions = [list_field(r, "ner", w) for w, r in records]
    entities = [[_w2ner_entity(m, w) for m in row] for (w, _), row in zip(records, mentions)]
    return Corpus([tokens(r, "sentence", w) for w, r in records], entities, None, None, "w2ner",
                  "token index lists: converted to exclusive spans (last index + 1); "
                  "lists with gaps kept as discontinuous fragments", source, [w for w, _ in records],
                  **_scores(mentions))


def write_w2ner(corpus: Corpus) -> str:
    """The corpus as a W2NER json list (discontinuous entities keep their index lists)."""
    items = []
    for s, (tokens, ents) in enumerate(zip(corpus.tokens, corpus.entities)):
        ner = []
        for k, e in enumerate(ents):
            pieces = e[0] if is_fragmented(e) else ((e[0], e[1]),)
            ner.append(_scored({"index": [i for b, end in pieces for i in range(b, end)], "type": e[-1]}, corpus, s, k))
        items.append({"sentence": list(tokens), "ner": ner})
    return _json_list(items)
