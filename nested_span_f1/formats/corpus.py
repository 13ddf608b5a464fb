"""A read corpus: tokens and entities per sentence, validated once, as spans (docs/DESIGN.md, 'Spans').

Every reader returns a :class:`Corpus` whose contiguous entities are
``(start, end, label)`` tuples with exclusive ends and whose discontinuous
entities are ``(fragments, label)`` pairs; ``conversion`` says what the reader
changed to get there (for example inclusive ends made exclusive).
"""
from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import InitVar, dataclass
from itertools import chain
from typing import Any

from ..core.entities import check_entities, is_fragmented
from ..core.sequences import check_each, check_sequence
from ..core.spans import SpanArrays, spans_from_lists


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
    checked: InitVar[bool] = False
    """True when every sentence comes from a corpus already built (a batch of its sentences, a reordering):
    their entities were checked then and are not checked again."""

    def __post_init__(self, checked: bool) -> None:
        check_sequence(self.tokens, f"{self.source}, tokens", "sentences (one list of token strings per sentence)")
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
            check_tokens(self.tokens, self.source)
            check_entities(self.entities, self.lengths, self.source)
        except (ValueError, TypeError) as error:
            raise self._placed(error) from None

    def _placed(self, error: Exception) -> Exception:
        """``error`` with its ``<source>, sentence <i>`` named by the sentence's place in the file, when known,
        and the span's position in the sentence counted from 1, as a place in a file is."""
        found = re.match(rf"{re.escape(self.source)}, sentence (\d+)", str(error))
        if self.places is None or found is None:
            return error
        rest = re.sub(r"\(position (\d+) in the sentence\)", lambda m: f"(position {int(m.group(1)) + 1} in the sentence)",
                      str(error)[found.end():])
        return type(error)(self.places[int(found.group(1))] + rest)

    def __len__(self) -> int:
        return len(self.tokens)

    @property
    def lengths(self) -> list[int]:
        """Tokens per sentence."""
        return [len(t) for t in self.tokens]

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
        columns: dict[str, Any] = {
            "tokens": [list(t) for t in self.tokens],
            "spans": [[{"start": e[0], "end": e[1], "label": e[2]} for e in ents if not is_fragmented(e)]
                      for ents in self.entities],
        }
        features: dict[str, Any] = {"tokens": datasets.Sequence(datasets.Value("string")), "spans": [span]}
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


def check_tokens(tokens: Sequence[Any], source: str) -> None:
    """TypeError naming the first sentence that is not a list of token strings: a sentence given as one
    string would be read as its characters, a set in hash order."""
    check_each(tokens, f"{source}, sentence {{}}", "token strings")
    if set(map(type, chain.from_iterable(tokens))) <= {str}:
        return
    for s, sentence in enumerate(tokens):
        for t, token in enumerate(sentence):
            if not isinstance(token, str):
                raise TypeError(f"{source}, sentence {s}, token {t}: token {token!r} is not a string; "
                                "each sentence is a list of token strings")
    raise AssertionError("no token that is not a string found")


def _repeated(ids: Sequence[Any]) -> Any:
    """The first sentence id given twice, or None."""
    seen = set()
    for sid in ids:
        if sid in seen:
            return sid
        seen.add(sid)
    return None


def align(references: Corpus, predictions: Corpus) -> Corpus:
    """Predictions reordered to the references' sentences, checked token by token.

    Sentences are paired by sentence id when both corpora carry ids, otherwise by
    order.

    Raises:
        ValueError: a sentence missing on either side, a different number of
            sentences, or different tokens; the message names the sentence.
    """
    order = list(range(len(predictions)))
    if references.sentence_ids is not None and predictions.sentence_ids is not None:
        for corpus in (references, predictions):
            twice = _repeated(corpus.sentence_ids)  # type: ignore[arg-type]
            if twice is not None:
                raise ValueError(f"{corpus.source}: sentence id {twice!r} is given to two sentences; "
                                 "sentences are paired by id, so each needs its own")
        index = {sid: i for i, sid in enumerate(predictions.sentence_ids)}
        missing = [sid for sid in references.sentence_ids if sid not in index]
        if missing:
            raise ValueError(f"{predictions.source}: no prediction for sentence id {missing[0]!r} "
                             f"({len(missing)} gold sentences missing)")
        order = [index[sid] for sid in references.sentence_ids]
    if len(order) != len(references):
        raise ValueError(f"{references.source} has {len(references)} sentences but {predictions.source} has "
                         f"{len(predictions)}; they must align sentence by sentence")
    for s, p in enumerate(order):
        gold, pred = list(references.tokens[s]), list(predictions.tokens[p])
        if gold != pred:
            name = f"sentence {s}" + (f" (id {references.sentence_ids[s]!r})" if references.sentence_ids else "")
            at = next((k for k, (a, b) in enumerate(zip(gold, pred)) if a != b), min(len(gold), len(pred)))
            raise ValueError(
                f"{name}: tokens differ at position {at} ({len(gold)} gold tokens, {len(pred)} predicted; "
                f"gold {gold[at:at + 3]!r}, predicted {pred[at:at + 3]!r}); both files must hold the same sentences"
            )
    if order == list(range(len(predictions))):
        return predictions
    pick = [predictions.entities[p] for p in order]
    ids = [predictions.sentence_ids[p] for p in order] if predictions.sentence_ids is not None else None
    docs = [predictions.doc_ids[p] for p in order] if predictions.doc_ids is not None else None
    places = [predictions.places[p] for p in order] if predictions.places is not None else None
    return Corpus([predictions.tokens[p] for p in order], pick, ids, docs, predictions.format,
                  predictions.conversion, predictions.source, places, checked=True)
