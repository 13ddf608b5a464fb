"""The token-classification pipeline's output, as JSON lines beside the text it was run on.

``{"id": "d1", "text": "...", "entities": pipe(text)}``: ``entities`` is the
list ``transformers.pipeline("token-classification", ...)`` returns for the text.

* Aggregated (``aggregation_strategy="simple"``, ``"first"``, ...): each item is
  an entity, ``{"entity_group", "score", "word", "start", "end"}``, taken as the
  span ``(start, end, entity_group)``.
* Not aggregated (``"none"``, the default): each item is a sub-token,
  ``{"entity", "score", "index", "word", "start", "end"}``, with the ``O``
  sub-tokens left out. They are merged into spans by the rule of the pipeline's
  ``"simple"`` strategy (``TokenClassificationPipeline.group_entities``): a tag
  ``B-X`` or ``I-X`` has the group tag ``X``; any other tag (``E-X``, ``S-X``,
  ``PER``) is a group tag as it is. Walking the sub-tokens in ``index`` order, a
  sub-token joins the span before it when it is the very next sub-token
  (``index`` one more, so no ``O`` sub-token lay between), has the same group
  tag, and its tag does not start with ``B-``; otherwise it starts a span. A span
  runs from its first sub-token's ``start`` to its last one's ``end``, and its
  label is its first sub-token's tag after the first ``-`` (``E-PER`` and
  ``S-PER`` give ``PER``, as the pipeline labels its groups; so ``B-PER I-PER
  E-PER`` is two spans, ``PER`` and ``PER``, exactly as the pipeline splits it).

Items labelled ``O`` (the pipeline returns them when run with
``ignore_labels=[]``: aggregated groups and sub-tokens alike) end a span and are
no entity: they are left out and counted (``pipeline_outside_items``). A span
that covers no character (a byte-level tokenizer's lone space piece, whose
offsets the tokenizer trims to nothing) is left out and counted
(``pipeline_empty_spans``); an item's offsets must otherwise satisfy
``0 <= start <= end <= len(text)``.

The ``word`` of an item is compared with the text at its offsets after
removing what tokenizers add or change: the ``##``, ``▁`` and ``Ġ`` marks, case
and spaces, and the byte-level alphabet of GPT-2 and RoBERTa tokenizers
(``Ã©`` is the two bytes of ``é``), decoded as their byte decoder decodes it; the
bytes of a character cut between two pieces decode to ``�``, and a run of ``n``
of them stands for 1 to ``n`` characters. The pipeline detokenizes words, so
``jean-baptiste`` for ``Jean-Baptiste`` is expected and not counted. An uncased
tokenizer (``do_lower_case``, ``strip_accents``: BERT's uncased models) also
strips accents (``café`` is ``cafe`` in ``word``): a word that equals the text
once both are normalised as it normalises (NFD, combining marks removed, lower
case) is counted as such (``pipeline_words_unaccented``), not warned about. Any
other difference is counted (``pipeline_word_mismatches``) and warned about once,
never refused: the offsets are what is scored.

Sub-tokens of one word may carry different entities (``Par`` ``B-LOC``, ``##is``
``B-PER``): they become two spans that meet inside the word, scored as they are
(neither can match a gold entity of the whole word). Every two spans of a
document that meet inside a word are counted
(``pipeline_words_split_across_entities``), the first ones shown: between two
letters or digits, or before a combining mark; a letter of a script written
without spaces (Chinese, Japanese, Thai) is a word of its own
(:mod:`nested_span_f1.core.letters`), so 杭州 and 西湖 found side by side split no word.

An item's ``score`` is its span's confidence (``Corpus.scores``); a span merged
from sub-tokens has the mean of their scores, as the pipeline's ``"simple"``
strategy scores a group (the score itself when they all hold one).
"""
from __future__ import annotations

import math
import re
import unicodedata
from collections import Counter
from collections.abc import Iterator, Mapping, Sequence
from dataclasses import replace
from typing import Any

from ..core.letters import inside_word, word_around
from ..core.scored import check_score, file_scores, mean_score
from ..core.wording import plural, quote
from .corpus import Corpus
from .offsets import CODEPOINTS, OffsetsError, Units, fitting_unit
from .records import field, json_line, jsonl_records
from .text import Mismatches, document_ids, document_records, text_of

_MARKS = str.maketrans("", "", "▁Ġ ")

OUTSIDE = "O"
"""The tag of the sub-tokens and groups that are no entity."""


def _byte_alphabet() -> dict[str, int]:
    """The byte each character of GPT-2's byte-level alphabet stands for (RoBERTa, GPT-2, BART, ... tokenizers):
    the printable Latin-1 bytes stand for themselves, the other 68 (controls, space, no-break space, soft hyphen)
    for the code points from 256 on, in byte order."""
    shown = [*range(0x21, 0x7F), *range(0xA1, 0xAD), *range(0xAE, 0x100)]
    hidden = [byte for byte in range(256) if byte not in shown]
    return {**{chr(byte): byte for byte in shown}, **{chr(256 + n): byte for n, byte in enumerate(hidden)}}


BYTE_ALPHABET = _byte_alphabet()


def byte_decoded(word: str) -> str | None:
    """A byte-level piece (``Ġcaf`` ``Ã©``) as the text it encodes (`` café``), bytes of a character cut between
    pieces as ``�``; None when ``word`` holds a character outside the byte-level alphabet.

    >>> byte_decoded("ĠcafÃ©"), byte_decoded("Ã"), byte_decoded("東京")
    (' café', '�', None)
    """
    try:
        return bytes(BYTE_ALPHABET[c] for c in word).decode("utf-8", errors="replace")
    except KeyError:
        return None


def _spells(word: str, found: str) -> bool:
    """Whether ``word`` spells ``found`` (both without whitespace, casefolded), each run of ``n`` ``�`` in ``word``
    standing for 1 to ``n`` characters (a cut character's bytes decode to one ``�`` or more, never to less)."""
    if "\ufffd" not in word:
        return word == found
    cut = re.compile("\ufffd+")
    pieces = [re.escape(piece) for piece in cut.split(word)]
    runs = [f".{{1,{len(run)}}}" for run in cut.findall(word)]
    pattern = "".join(piece + run for piece, run in zip(pieces, [*runs, ""]))
    return re.fullmatch(pattern, found, re.DOTALL) is not None


def _same_word(word: Any, found: str) -> bool:
    """Whether a pipeline ``word`` spells ``found`` once tokenizer marks, the byte-level alphabet, case and
    whitespace are set aside."""
    if not isinstance(word, str):
        return False
    if word.lower() == found.lower():  # an uncased model's word: most differences are case alone
        return True
    found = "".join(found.split()).casefold()
    if _spells(word.replace("##", "").translate(_MARKS).casefold(), found):
        return True
    decoded = byte_decoded(word)
    return decoded is not None and _spells("".join(decoded.split()).casefold(), found)


def unaccented(text: str) -> str:
    """``text`` as an uncased tokenizer normalises it: lower case, then NFD with the combining marks removed
    (BERT's ``BasicTokenizer._run_strip_accents``).

    >>> unaccented("Café Zürich")
    'cafe zurich'
    """
    return "".join(c for c in unicodedata.normalize("NFD", text.lower()) if unicodedata.category(c) != "Mn")


SHOWN = 3
"""Words split across entities shown in a reader's conversion line."""


def split_words(text: str, spans: list[tuple[Any, Any, str]], where: str) -> list[str]:
    """The words of a document's text that two of its spans split between them: one ends where the other starts,
    inside a word (:func:`~nested_span_f1.core.letters.inside_word`: between two letters or digits, or before a
    combining mark; a Chinese, Japanese or Thai letter is a word of its own, so 杭州 and 西湖 side by side split
    none); each said as the word and the two parts with their labels."""
    starts: dict[int, list[tuple[Any, Any, str]]] = {}
    for span in spans:
        starts.setdefault(span[0], []).append(span)
    found = []
    for left in spans:
        at = left[1]
        if at in starts and inside_word(text, at):
            begin, end = word_around(text, at)
            for right in starts[at]:
                found.append(f"{where}: {quote(text[begin:end])} as {quote(text[left[0]:at])} {left[2]} and "
                             f"{quote(text[at:right[1]])} {right[2]}")
    return found


def _group(entity: str) -> tuple[str, str]:
    """``(prefix, group tag)`` of a sub-token's tag, as the pipeline's ``get_tag`` reads it: ``B-X`` and ``I-X``
    give ``X``; any other tag is its own group tag, continuing (``I``)."""
    if entity.startswith(("B-", "I-")):
        return entity[0], entity[2:]
    return "I", entity


def label_of(entity: str) -> str:
    """The label the pipeline gives a group whose first sub-token is tagged ``entity``: what follows its first
    ``-`` (``B-PER``, ``E-PER``, ``S-PER``: ``PER``)."""
    return entity.split("-", 1)[-1]


def merge_subtokens(items: list[Mapping[str, Any]], where: str) -> list[tuple[Any, Any, str]]:
    """Spans of not-aggregated pipeline items, merged by the rule of the module docstring (``O`` spans left out)."""
    return [(start, end, label) for start, end, label, _ in _merged(items, where)]


def _merged(items: list[Mapping[str, Any]], where: str) -> list[tuple[Any, Any, str, list[Mapping[str, Any]]]]:
    """:func:`merge_subtokens`, each span with the sub-tokens merged into it."""
    rows = []
    for item in items:
        try:
            entity, index = item["entity"], item["index"]
        except KeyError:
            entity, index = field(item, "entity", where), field(item, "index", where)
        if type(entity) is not str or not entity:
            raise TypeError(f"{where}: sub-token {quote(dict(item))} needs a non-empty string 'entity'")
        if type(index) is not int:
            raise TypeError(f"{where}: sub-token {quote(dict(item))} needs an integer 'index'")
        rows.append((index, item))
    rows.sort(key=lambda row: row[0])
    spans: list[list[Any]] = []
    previous: tuple[int, str] | None = None
    for index, item in rows:
        prefix, group = _group(item["entity"])
        if previous == (index - 1, group) and prefix != "B":
            spans[-1][1] = item["end"]
            spans[-1][3].append(item)
        else:
            spans.append([item["start"], item["end"], label_of(item["entity"]), [item]])
        previous = (index, group)
    return [(start, end, label, members) for start, end, label, members in spans if label != OUTSIDE]


def _score(members: list[Mapping[str, Any]], where: str) -> float | None:
    """The score of a span made of pipeline items: None when none of them has one, else the mean of theirs
    (:func:`~nested_span_f1.core.scored.mean_score`), each checked to be a finite number."""
    if all("score" not in item for item in members):
        return None
    scores = []
    for item in members:
        value = item.get("score")
        # a finite float is what check_score gives back; the message naming the item is made only for another value
        scores.append(value if type(value) is float and math.isfinite(value) else
                      check_score(value, f"{where}: item {quote(dict(item))}", ""))
    return mean_score(scores)


def _check_offsets(item: Mapping[str, Any], where: str, length: int) -> None:
    """An item's ``start`` and ``end``: integers with ``0 <= start <= end <= length`` (each sub-token is checked,
    not only the spans merged from them; an empty one is a byte-level tokenizer's trimmed space piece)."""
    try:
        start, end = item["start"], item["end"]
    except KeyError:
        start, end = field(item, "start", where), field(item, "end", where)
    if type(start) is not int or type(end) is not int:  # the common case at once; bool and floats named below
        odd = [f"{key} {quote(x)}" for key, x in (("start", start), ("end", end))
               if isinstance(x, bool) or not isinstance(x, int)]
        if odd:
            raise TypeError(f"{where}: item {quote(dict(item))} has non-integer offsets ({', '.join(odd)}); "
                            "offsets must be ints, never truncated")
    if not 0 <= start <= end <= length:
        raise ValueError(f"{where}: item {quote(dict(item))} is out of range (start {start}, end {end}); offsets "
                         f"need 0 <= start <= end <= {length} (the text's length in characters)")


def unbatched(items: Any, where: str, left_out: Counter[str]) -> Any:
    """One document's pipeline output: ``pipe([text])``'s list holding one list (the output of a batch of one text)
    is that list, counted in ``left_out``; a list holding several lists (the output of a batch of several texts) is
    refused, saying how to save it."""
    if not isinstance(items, list) or not items or not all(isinstance(item, list) for item in items):
        return items
    if len(items) > 1:
        raise ValueError(f"{where}: 'entities' holds {len(items)} lists, the pipeline's output for a batch of "
                         f"{len(items)} texts (pipe(texts)); save each text's output beside its text, one line a "
                         "text: {\"text\": texts[i], \"entities\": output[i]}")
    left_out["pipeline_batches_unwrapped"] += 1
    return items[0]


def entity_spans(items: Any, where: str, length: int, left_out: Counter[str]) -> tuple[list[Any], str,
                                                                                      list[float | None]]:
    """The spans of one document's pipeline output, which output it was (``aggregated`` or ``sub-tokens``), and each
    span's score (None where it has none); the ``O`` and the empty spans are left out and counted in ``left_out``."""
    if not isinstance(items, list) or not all(type(item) is dict or isinstance(item, Mapping) for item in items):
        raise TypeError(f"{where}: 'entities' must be the pipeline's list of dicts (one text's output), got "
                        f"{quote(items)}")
    for item in items:
        _check_offsets(item, where, length)
    grouped = ["entity_group" in item for item in items]
    if any(grouped) and not all(grouped):
        raise ValueError(f"{where}: entities mix aggregated items (entity_group) and sub-tokens (entity); "
                         "give one pipeline output a line")
    if all(grouped):
        outside = sum(item["entity_group"] == OUTSIDE for item in items)
        merged = [(i["start"], i["end"], i["entity_group"], [i]) for i in items if i["entity_group"] != OUTSIDE]
        kind = "aggregated"
    else:
        merged, kind = _merged(items, where), "sub-tokens"
        outside = sum(label_of(item["entity"]) == OUTSIDE for item in items)
    kept = [(start, end, label) for start, end, label, _ in merged if start < end]
    scores = [_score(members, where) for start, end, _, members in merged if start < end]
    left_out["pipeline_outside_items"] += outside
    left_out["pipeline_empty_spans"] += len(merged) - len(kept)
    return kept, kind, scores


def _in_code_points(items: Any, text: str, offsets: str, where: str) -> Any:
    """The items of one document's output with their ``start`` and ``end`` read in the unit ``offsets``
    (:class:`~.offsets.Units`); anything that is not a list of dicts as it is (its check names it)."""
    units = Units(text, offsets)
    if units.bounds is None or not isinstance(items, list):
        return items
    return [{**item, **{key: units.point(item[key], f"{where}: item {quote(dict(item))}")
                        for key in ("start", "end") if key in item}} if isinstance(item, Mapping) else item
            for item in items]


def _words(texts: Sequence[str], outputs: Sequence[Any], words: bool) -> Iterator[tuple[str, list[Any]]]:
    """Each document's text and items as :func:`~.offsets.fitting_unit` reads them (``words``: with the word each
    claims, else None); empty for output that is no list of dicts with both offsets."""
    for text, output in zip(texts, outputs):
        items = [item for item in output if isinstance(item, Mapping) and {"start", "end"} <= set(item)] \
            if isinstance(output, list) else []
        yield text, [(((item["start"], item["end"]),), item.get("word") if words else None) for item in items
                     if item.get("entity", item.get("entity_group")) != OUTSIDE]


def _range_unit(records: Sequence[tuple[str, Mapping[str, Any]]]) -> str | None:
    """The unit in which every item of the file fits its text, when code points do not (:func:`~.offsets.fitting_unit`);
    None when there is none (or another record is malformed: its own error comes in turn)."""
    try:
        texts = [text_of(record, where) for where, record in records]
        outputs = [unbatched(field(record, "entities", where), where, Counter()) for where, record in records]
    except (ValueError, TypeError):
        return None
    return fitting_unit(_words(texts, outputs, False))


def _document(records: Sequence[tuple[str, Mapping[str, Any]]], where: str, text: str, outputs: list[Any],
              offsets: str, left_out: Counter[str]) -> tuple[list[Any], str, list[float | None]]:
    """:func:`entity_spans` of the last output read (``outputs[-1]``, its offsets read as code points first); offsets
    out of range that every item of the file would fit in another unit are refused naming it."""
    if offsets != CODEPOINTS:
        outputs[-1] = _in_code_points(outputs[-1], text, offsets, where)
    try:
        return entity_spans(outputs[-1], where, len(text), left_out)
    except ValueError as error:
        unit = _range_unit(records) if offsets == CODEPOINTS and "out of range" in str(error) else None
        raise error if unit is None else OffsetsError(str(error), unit) from None


def _refuse_words_in_another_unit(mismatches: Mismatches, texts: Sequence[str], outputs: Sequence[Any], offsets: str,
                                  source: str) -> None:
    """OffsetsError when words differ from the text at their offsets read as code points but every word is the text
    at its offsets in another unit."""
    unit = fitting_unit(_words(texts, outputs, True), _same_or_unaccented) \
        if mismatches.count and offsets == CODEPOINTS else None
    if unit is not None:
        raise OffsetsError(f"{source}: {mismatches.summary()}", unit, claimed=True)


def _same_or_unaccented(word: Any, found: str) -> bool:
    return word == found or _same_word(word, found) or (isinstance(word, str) and
                                                        _same_word(unaccented(word), unaccented(found)))


def read_pipeline(text: str, source: str = "pipeline", first_line: int = 1, *, offsets: str = CODEPOINTS) -> Corpus:
    """Pipeline output JSON lines (see the module docstring) as a corpus of texts; ``offsets`` the unit the items'
    offsets count (:mod:`.offsets`: transformers.js counts UTF-16 code units)."""
    records = list(jsonl_records(text, source, first_line))
    texts, entities, scores, kinds, left_out = [], [], [], set(), Counter[str]()
    outputs, split = [], []
    for where, record in records:
        texts.append(text_of(record, where))
        outputs.append(unbatched(field(record, "entities", where), where, left_out))
        spans, kind, span_scores = _document(records, where, texts[-1], outputs, offsets, left_out)
        if outputs[-1]:
            kinds.add(kind)
        entities.append(spans)
        scores.append(span_scores)
        split += split_words(texts[-1], spans, where)
    how = {"aggregated": "aggregated entities (entity_group) taken as spans",
           "sub-tokens": "sub-tokens (entity, index) merged into spans as the pipeline's simple strategy merges them"}
    conversion = "; ".join(how[k] for k in sorted(kinds)) or "no entities"
    dropped = {"pipeline_batches_unwrapped": (("document's output", "documents' outputs"),
                                              "given as a batch of one text (a list holding one list), read as that list"),
               "pipeline_outside_items": (("item", "items"), "tagged O left out"),
               "pipeline_empty_spans": (("empty span", "empty spans"), "left out")}
    conversion += "".join(f"; {plural(left_out[key], *nouns)} {what}" for key, (nouns, what) in dropped.items()
                          if left_out[key])
    if split:
        left_out["pipeline_words_split_across_entities"] = len(split)
        conversion += (f"; {plural(len(split), 'word')} split across entities, each part scored as a span (first: "
                       f"{'; '.join(split[:SHOWN])})")
    corpus = Corpus(texts, entities, document_ids(records), document_ids(records, "doc_id"), "pipeline", conversion, source,
                    [w for w, _ in records], "characters", scores=file_scores(scores))
    mismatches = Mismatches("word")
    for (where, _), document, output in zip(records, texts, outputs):
        for item in output:
            if item.get("entity", item.get("entity_group")) == OUTSIDE:
                continue
            word, found = item.get("word"), document[item["start"]:item["end"]]
            if word == found or _same_word(word, found):
                continue
            if isinstance(word, str) and _same_word(unaccented(word), unaccented(found)):
                left_out["pipeline_words_unaccented"] += 1
                continue
            mismatches.check(word, found, where)
    if left_out["pipeline_words_unaccented"]:
        conversion += (f"; {plural(left_out['pipeline_words_unaccented'], 'word')} equal to the text once accents are "
                       "stripped, as an uncased tokenizer does")
    _refuse_words_in_another_unit(mismatches, texts, outputs, offsets, source)
    conversion, notes = mismatches.report(conversion, "pipeline_word_mismatches")
    kept = [*dropped, "pipeline_words_split_across_entities", "pipeline_words_unaccented"]
    notes = {**{key: left_out[key] for key in kept if left_out[key]}, **notes}
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
    ``score`` the corpus's, or 1.0 without scores); discontinuous entities cannot be written (the pipeline has
    none)."""
    lines = []
    for s, (record, document, entities) in enumerate(document_records(corpus)):
        items = []
        for k, entity in enumerate(entities):
            if len(entity) != 3:
                raise ValueError(f"document {s} (id {quote(record['id'])}): discontinuous entity {quote(entity)} cannot be written as pipeline "
                                 "output; write text spans or brat, which keep fragments")
            start, end, label = entity
            score = corpus.scores[s][k] if corpus.scores is not None else 1.0
            items.append({"entity_group": label, "score": score, "word": document[start:end], "start": start,
                          "end": end})
        record["entities"] = items
        lines.append(json_line(record) + "\n")
    return "".join(lines)
