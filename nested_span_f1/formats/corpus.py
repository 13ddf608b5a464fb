"""A read corpus: tokens and entities per sentence, validated once, as spans (docs/DESIGN.md, 'Spans').

Every reader returns a :class:`Corpus` whose contiguous entities are
``(start, end, label)`` tuples with exclusive ends and whose discontinuous
entities are ``(fragments, label)`` pairs; ``conversion`` says what the reader
changed to get there (for example inclusive ends made exclusive).

A corpus of texts (``unit="characters"``: the text-span, pipeline, brat and spaCy
readers) holds each document's text where a token corpus holds its token list: a
text is the sequence of its characters, so offsets, lengths and alignment count
characters (Python string indices, code points) with no second code path.
"""
from __future__ import annotations

import re
import unicodedata
from collections.abc import Mapping, Sequence
from dataclasses import InitVar, dataclass, field
from itertools import chain
from typing import Any

import numpy as np

from ..core.entities import Entities, check_entities, is_fragmented
from ..core.scored import check_scores
from ..core.sequences import check_each, check_sequence
from ..core.spans import SpanArrays, spans_from_lists
from ..core.wording import plural, quote
from .places import span_positions_from_1


@dataclass(frozen=True)
class Corpus:
    """Sentences of one file.

    Attributes:
        tokens: one list of token strings per sentence.
        entities: one list per sentence of ``(start, end, label)`` spans and
            ``(fragments, label)`` discontinuous entities.
        sentence_ids: one id per sentence when the file carries them (used to align).
        doc_ids: one document id per sentence when the file carries them.
        format: the reader's format name.
        conversion: how the file's offsets were converted to exclusive token spans.
        source: where the sentences came from (a path), for messages.
    """

    tokens: Sequence[Sequence[str]]
    entities: Sequence[Sequence[Any]]
    sentence_ids: Sequence[str] | None = None
    doc_ids: Sequence[str] | None = None
    format: str = ""
    conversion: str = ""
    source: str = "corpus"
    places: Sequence[str] | None = None
    """Where each sentence is in the file (``"gold.json, line 3"``), when the reader knows: messages name it."""
    unit: str = "tokens"
    """``"tokens"``, or ``"characters"`` for a corpus of texts: ``tokens[s]`` is then document ``s``'s text and
    every offset counts its characters."""
    notes: Mapping[str, int] = field(default_factory=dict)
    """What the reader found and kept (pipeline words that differ from the text at their offsets, ...), counted."""
    scores: Sequence[Sequence[float]] | None = None
    """A predicted side's confidences, one list a sentence aligned with ``entities``, when the file carries them;
    checked once (finite numbers, one an entity), else None (docs/DESIGN.md, 'Scores beside the spans')."""
    checked: InitVar[bool] = False
    """True when every sentence comes from a corpus already built (a batch of its sentences, a reordering):
    their entities were checked then and are not checked again."""

    def __post_init__(self, checked: bool) -> None:
        if self.unit not in UNITS:
            raise ValueError(f"{self.source}: unit must be one of {', '.join(UNITS)}, got {quote(self.unit)}")
        what = "sentences (one list of token strings per sentence)" if self.unit == "tokens" else "texts (one a document)"
        check_sequence(self.tokens, f"{self.source}, tokens", what)
        check_sequence(self.entities, f"{self.source}, entities", "sentences (one list of entities per sentence)")
        for name in ("sentence_ids", "doc_ids"):
            if getattr(self, name) is not None:
                check_sequence(getattr(self, name), f"{self.source}, {name}", "ids (one per sentence)")
        if len(self.tokens) != len(self.entities):
            raise ValueError(f"{self.source}: {len(self.tokens)} sentences of tokens but {len(self.entities)} of entities")
        for name in ("sentence_ids", "doc_ids"):
            ids = getattr(self, name)
            if ids is not None and len(ids) != len(self.tokens):
                raise ValueError(f"{self.source}: {len(ids)} {name} for {len(self.tokens)} sentences")
        if checked:
            return
        try:
            (check_tokens if self.unit == "tokens" else check_texts)(self.tokens, self.source)
            check_entities(self.entities, self.lengths, self.source)
            if self.scores is not None:
                object.__setattr__(self, "scores", check_scores(self.scores, self.entities, self.source))
        except (ValueError, TypeError) as error:
            raise self._placed(error) from None

    def _placed(self, error: Exception) -> Exception:
        """``error`` with its ``<source>, sentence <i>`` named by the sentence's place in the file, when known,
        and the span's position in the sentence counted from 1, as a place in a file is; in a corpus of texts the
        bound of a span is the text's length in characters."""
        found = re.match(rf"{re.escape(self.source)}, sentence (\d+)", str(error))
        if self.places is None or found is None:
            return type(error)(in_characters(str(error))) if self.unit == "characters" else error
        rest = span_positions_from_1(str(error)[found.end():])
        if self.unit == "characters":
            rest = in_characters(rest).replace(" in the sentence)", " in the document)")
        return type(error)(self.places[int(found.group(1))] + rest)

    def __len__(self) -> int:
        return len(self.tokens)

    @property
    def lengths(self) -> list[int]:
        """Tokens per sentence (characters per text in a corpus of texts)."""
        return [len(t) for t in self.tokens]

    @property
    def texts(self) -> Sequence[str] | None:
        """The documents' texts of a corpus of texts, else None."""
        return self.tokens if self.unit == "characters" else None  # type: ignore[return-value]

    @property
    def sentence_word(self) -> str:
        """What messages call one item: ``document`` in a corpus of texts, else ``sentence``."""
        return "document" if self.unit == "characters" else "sentence"

    def spans(self) -> SpanArrays:
        """The contiguous entities as :class:`SpanArrays`."""
        return spans_from_lists([[e for e in ents if not is_fragmented(e)] for ents in self.entities], self.lengths)

    def discontinuous(self) -> int:
        """How many discontinuous entities the corpus holds."""
        return sum(is_fragmented(e) for ents in self.entities for e in ents)

    def to_dataset(self) -> Any:
        """A :class:`datasets.Dataset` with ``tokens`` and ``spans`` columns (``id`` and
        ``fragments`` too when present), span features as the ``nested_span_f1`` metric takes them."""
        import datasets

        span = {"start": datasets.Value("int32"), "end": datasets.Value("int32"), "label": datasets.Value("string")}
        columns: dict[str, Any] = {"text": list(self.texts)} if self.texts is not None else {
            "tokens": [list(t) for t in self.tokens]}
        columns["spans"] = [[{"start": e[0], "end": e[1], "label": e[2]} for e in ents if not is_fragmented(e)]
                            for ents in self.entities]
        string = datasets.Value("string")
        features: dict[str, Any] = {"text": string} if self.texts is not None else {
            "tokens": datasets.Sequence(string)}
        features["spans"] = [span]
        if self.sentence_ids is not None:
            columns["id"] = list(self.sentence_ids)
            features["id"] = datasets.Value("string")
        if self.discontinuous():
            columns["fragments"] = [
                [{"fragments": [list(p) for p in e[0]], "label": e[1]} for e in ents if is_fragmented(e)]
                for ents in self.entities
            ]
            features["fragments"] = [{"fragments": [[datasets.Value("int32")]], "label": datasets.Value("string")}]
        return datasets.Dataset.from_dict(columns, features=datasets.Features(features))


def in_characters(message: str) -> str:
    """A span check's message for a text: the bound it names is the text's length in characters."""
    return message.replace("(the sentence length)", "(the text's length in characters)")


def check_tokens(tokens: Sequence[Any], source: str) -> None:
    """TypeError naming the first sentence that is not a list of token strings: a sentence given as one
    string would be read as its characters, a set in hash order."""
    check_each(tokens, f"{source}, sentence {{}}", "token strings")
    if set(map(type, chain.from_iterable(tokens))) <= {str}:
        return
    for s, sentence in enumerate(tokens):
        for t, token in enumerate(sentence):
            if not isinstance(token, str):
                raise TypeError(f"{source}, sentence {s}, token {t}: token {quote(token)} is not a string; "
                                "each sentence is a list of token strings")
    raise AssertionError("no token that is not a string found")


_SURROGATE = re.compile("[\ud800-\udfff]")


def check_texts(texts: Sequence[Any], source: str) -> None:
    """TypeError naming the first document of a corpus of texts whose text is not a string; ValueError naming the
    first one that holds a lone surrogate (json's ``"\\ud800"``: half of a UTF-16 pair, no character, which no
    file can be written with), and its offset."""
    bad = next((s for s, text in enumerate(texts) if not isinstance(text, str)), None)
    if bad is not None:
        raise TypeError(f"{source}, sentence {bad}: {quote(texts[bad])} is not a text; a corpus of texts holds one "
                        "string a document")
    for s, text in enumerate(texts):
        found = None if text.isascii() else _SURROGATE.search(text)
        if found is not None:
            raise ValueError(f"{source}, sentence {s}: a lone surrogate U+{ord(found.group()):04X} at offset "
                             f"{found.start()} of the text, half of a UTF-16 pair and no character; decode the text "
                             "as UTF-16 pairs first")


def not_a_word(token: str) -> bool:
    """Whether a token (or a label) is empty or holds whitespace: what the formats that separate tokens by whitespace
    (columns, blocks, a text of tokens joined by single spaces, a brat T line's type) cannot hold, since splitting
    at the whitespace gives other tokens back."""
    return not token or token.split() != [token]


SUSPICIOUS = {"labelled_O": ("entity labelled O", "entities labelled O", "a label named like the outside tag"),
              "blank": ("span of blanks", "spans of blanks", "it covers whitespace only")}
"""Entities a conversion bug is the likelier cause of, counted (never dropped: they are scored as given): key ->
(one, several, why)."""


_SPACE = re.compile(r"\s")
"""Whitespace, as ``str.isspace`` and ``str.strip`` read it (the same characters)."""


def suspicious(texts: Sequence[str], entities: Entities) -> dict[str, int]:
    """How many of a side's checked entities over ``texts`` are :data:`SUSPICIOUS` (keys with a count of 0 left
    out): labelled ``O`` (in any case), or covering whitespace only (a discontinuous entity: every fragment).

    The labels are counted by their ids; a span of blanks starts with one, so only the spans whose first character
    is whitespace are read whole (``tests/align/test_text_path_counts.py`` holds this equal to reading every span).

    >>> from nested_span_f1.core.entities import check_entities
    >>> suspicious(["Paris is  big"], check_entities([[(0, 5, "O"), (9, 13, "LOC"), (8, 10, "LOC")]]))
    {'labelled_O': 1, 'blank': 1}
    """
    spans = entities.spans
    outside = [k for k, name in enumerate(spans.labels) if name.upper() == "O"]
    labelled = int(np.count_nonzero(np.isin(spans.label, outside))) if outside else 0
    sentence, start, end = spans.sentence.tolist(), spans.start.tolist(), spans.end.tolist()
    firsts = "".join([texts[s][b] for s, b in zip(sentence, start)])
    blank = sum(not texts[sentence[k]][start[k]:end[k]].strip() for k in (m.start() for m in _SPACE.finditer(firsts)))
    for s, fragments, label in entities.fragmented:
        labelled += label.upper() == "O"
        blank += all(not texts[s][b:e].strip() for b, e in fragments)
    return {key: n for key, n in (("labelled_O", labelled), ("blank", blank)) if n}


UNITS = ("tokens", "characters")
"""What a corpus's offsets count."""


def _repeated(ids: Sequence[Any]) -> Any:
    """The first sentence id given twice, or None."""
    seen = set()
    for sid in ids:
        if sid in seen:
            return sid
        seen.add(sid)
    return None


def first_difference(a: Sequence[Any], b: Sequence[Any]) -> int:
    """The first position where two sequences differ (the shorter one's length when one starts the other)."""
    return next((k for k, (x, y) in enumerate(zip(a, b)) if x != y), min(len(a), len(b)))


def look_alike(a: str, b: str, at: int) -> str:
    """For a message showing where two texts first differ (offset ``at``): when they are the same after Unicode
    NFC normalization (``é`` as one character against ``e`` and a combining accent), which print alike, the code
    points of the characters that differ there; else "".

    >>> look_alike("Re\u0301my", "R\u00e9my", 1)
    '; they print alike: U+0065 U+0301 against U+00E9, the same text after Unicode NFC normalization (normalize both sides alike)'
    """
    if unicodedata.normalize("NFC", a) != unicodedata.normalize("NFC", b):
        return ""
    while at > 0 and at < len(a) and unicodedata.combining(a[at]):
        at -= 1  # back to the character the marks sit on (the texts agree before ``at``)

    def cluster(text: str) -> str:
        end = at + 1
        while end < len(text) and unicodedata.combining(text[end]):
            end += 1
        return " ".join(f"U+{ord(c):04X}" for c in text[at:end])

    return (f"; they print alike: {cluster(a)} against {cluster(b)}, the same text after Unicode NFC normalization "
            "(normalize both sides alike)")


def paired_order(references: Corpus, predictions: Corpus) -> list[int]:
    """For each reference sentence (document), the index of its prediction: by id when both corpora carry ids,
    otherwise by order.

    Raises:
        ValueError: an id given twice, a sentence missing on either side, a different number of sentences.
    """
    word = references.sentence_word
    order = list(range(len(predictions)))
    if references.sentence_ids is not None and predictions.sentence_ids is not None:
        for corpus in (references, predictions):
            twice = _repeated(corpus.sentence_ids)  # type: ignore[arg-type]
            if twice is not None:
                raise ValueError(f"{corpus.source}: {word} id {quote(twice)} is given to two {word}s; "
                                 f"{word}s are paired by id, so each needs its own")
        index = {sid: i for i, sid in enumerate(predictions.sentence_ids)}
        missing = [sid for sid in references.sentence_ids if sid not in index]
        if missing:
            raise ValueError(f"{predictions.source}: no prediction for {word} id {quote(missing[0])} "
                             f"({plural(len(missing), 'gold ' + word)} missing)")
        known = set(references.sentence_ids)
        extra = [sid for sid in predictions.sentence_ids if sid not in known]
        if extra:
            raise ValueError(f"{predictions.source}: {word} id {quote(extra[0])} is not in {references.source} "
                             f"({plural(len(extra), 'predicted ' + word)} without gold)")
        order = [index[sid] for sid in references.sentence_ids]
    if len(order) != len(references):
        raise ValueError(f"{references.source} has {len(references)} {word}s but {predictions.source} has "
                         f"{len(predictions)}; they must align {word} by {word}")
    return order


def align(references: Corpus, predictions: Corpus) -> Corpus:
    """Predictions reordered to the references' sentences (:func:`paired_order`), checked token by token
    (texts character by character).

    Raises:
        ValueError: as :func:`paired_order`; different tokens or texts, a corpus of texts against one of
            tokens; the message names the sentence (its id when known).
    """
    if references.unit != predictions.unit:
        raise ValueError(
            f"{predictions.source} holds {predictions.unit} but {references.source} holds {references.unit}: "
            "score them with nested_span_f1.align.score_text, which projects the character spans onto the tokens "
            "and counts every boundary that falls inside a token"
        )
    word = references.sentence_word
    order = paired_order(references, predictions)
    for s, p in enumerate(order):
        name = f"{word} {s}" + (f" (id {quote(references.sentence_ids[s])})" if references.sentence_ids else "")
        gold, pred = references.tokens[s], predictions.tokens[p]
        if references.texts is not None:
            if gold != pred:
                at = first_difference(gold, pred)
                raise ValueError(
                    f"{name}: texts differ at offset {at} ({len(gold)} gold characters, {len(pred)} predicted; "
                    f"gold {quote(gold[at:at + 10])}, predicted {quote(pred[at:at + 10])}"
                    f"{look_alike(str(gold), str(pred), at)}); a prediction is scored only against the text "
                    "it was made on"
                )
            continue
        gold, pred = list(gold), list(pred)
        if gold != pred:
            at = first_difference(gold, pred)
            raise ValueError(
                f"{name}: tokens differ at position {at} ({len(gold)} gold tokens, {len(pred)} predicted; "
                f"gold {quote(gold[at:at + 3])}, predicted {quote(pred[at:at + 3])}); both files must hold the same sentences"
            )
    if order == list(range(len(predictions))):
        return predictions
    pick = [predictions.entities[p] for p in order]
    ids = [predictions.sentence_ids[p] for p in order] if predictions.sentence_ids is not None else None
    docs = [predictions.doc_ids[p] for p in order] if predictions.doc_ids is not None else None
    places = [predictions.places[p] for p in order] if predictions.places is not None else None
    scores = [predictions.scores[p] for p in order] if predictions.scores is not None else None
    return Corpus([predictions.tokens[p] for p in order], pick, ids, docs, predictions.format,
                  predictions.conversion, predictions.source, places, predictions.unit, predictions.notes, scores,
                  checked=True)
