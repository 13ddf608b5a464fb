"""The kind of input a metric call holds (spans, tag layers, tags or label ids), read from every sentence.

evaluate stores a batch under one feature set, and casts what it stores: ``0.5``,
``True`` and ``"0"`` would become int offsets, an empty first sentence would let
label ids become the strings ``"1"``. So the three evaluate modules ask
:func:`data_kind` first: it reads the kind of every item of both sides by the rule
every door reads it by (:func:`nested_span_f1.flat.kinds.item_kind`), and refuses
anything of no kind, or of two kinds, naming side, sentence, position and value.
It imports neither evaluate nor datasets.
"""
from __future__ import annotations

from collections.abc import Iterator, Mapping, Sequence
from itertools import chain
from typing import Any

import numpy as np

from ..core.scored import check_scores, split_scored
from ..core.sequences import check_sequence, is_sequence, shown
from ..core.spans import INT64_MAX, spans_from_lists
from ..core.wording import quote
from ..flat.encoding import check_aligned, check_sides
from ..flat.kinds import INPUT_KINDS as ITEM_KINDS
from ..flat.kinds import item_kind, not_a_string

INPUT_KINDS = (*ITEM_KINDS, "texts", "lists", "answers", "scored")
"""The item kinds; texts: a sentence that is a whole document (``{"text", "entities"}``); lists and
answers: a language model's entity list (``{"text", "label"}`` dicts) or raw answer (a string) a document,
against texts; scored: predicted spans with a score each (``{"start", "end", "label", "score"}``) against spans."""

KIND_WORDS = {
    "spans": "spans ({'start', 'end', 'label'} dicts)",
    "layers": "tag layers (lists of tags)",
    "tags": "tags (strings)",
    "ids": "label ids (integers)",
    "texts": "texts ({'text', 'entities'} dicts, a document each)",
    "lists": "entity lists ({'text', 'label'} dicts, a list a document) against texts",
    "answers": "a model's raw answers (a string a document) against texts",
    "scored": "scored spans ({'start', 'end', 'label', 'score'} dicts) against spans",
}
"""How messages name each input kind."""

ITEM_WORDS = {
    "spans": "a span ({'start', 'end', 'label'} dict)",
    "layers": "a tag layer (list of tags)",
    "tags": "a tag (string)",
    "ids": "a label id (integer)",
    "texts": "a text ({'text', 'entities'} dict)",
    "lists": "an entity of a list ({'text', 'label'} dict)",
    "answers": "a model's answer (string)",
    "scored": "a scored span ({'start', 'end', 'label', 'score'} dict)",
}
"""How messages name one item of each input kind."""

def _either(words: dict[str, str], kinds: Sequence[str]) -> str:
    """The kinds' words joined by "or", tags first (the words every door uses for tag input)."""
    order = ("tags", "ids", "spans", "layers", "texts", "lists", "answers", "scored")
    return " or ".join(words[k] for k in sorted(kinds, key=order.index))


def _bad_item(item: Any, where: str, position: int, expected: str | None, kinds: Sequence[str]) -> TypeError:
    """The error for a sentence item that is not of the kind ``expected`` (or of no kind at all)."""
    if expected == "tags":
        return TypeError(f"{where}, token {position}: {not_a_string(item, label_list='ids' in kinds)}")
    if expected == "ids":
        return TypeError(f"{where}, token {position}: label id {quote(item)} is not an integer (ids are never truncated)")
    if expected == "spans":
        return TypeError(f"{where}, span {position}: {quote(item)} is not a span; spans are {{'start', 'end', 'label'}} dicts")
    if expected == "layers":
        return TypeError(f"{where}, layer {position}: {shown(item)} is not a tag layer (a list of tags)")
    unit = "token" if set(kinds) <= {"tags", "ids"} else "position"
    return TypeError(f"{where}, {unit} {position}: {shown(item)} is not {_either(ITEM_WORDS, kinds)}")


def _mixed_with_spans(sentence: Sequence[Any], where: str) -> TypeError:
    """The error for a sentence holding spans and items of another kind: either could be the stray one
    (spans have no order to tell), so both are named."""
    first: dict[str, tuple[int, Any]] = {}
    for position, item in enumerate(sentence):
        kind = item_kind(type(item))
        if kind is not None:
            first.setdefault(kind, (position, item))
    shown = " and ".join(f"{ITEM_WORDS[k]} at position {p}: {quote(x)}" for k, (p, x) in first.items())
    return TypeError(f"{where} holds {shown}; give each sentence in one form")


def _sentence_kind(sentence: Any, where: str, kinds: Sequence[str], context: str | None) -> str | None:
    """The kind of one sentence's items, None when it has none; raises naming the first bad item.

    ``context`` is the kind already found in earlier sentences, which names what a
    bad item was expected to be.
    """
    check_sequence(sentence, where, _either(KIND_WORDS, kinds))
    items = _items(sentence, where)
    found = {item_kind(t) for t in set(map(type, items))}
    if not found:
        return None
    if "spans" in found and len(found) > 1 and None not in found and context is None:
        raise _mixed_with_spans(items, where)
    kind = found.pop() if len(found) == 1 else None
    if kind is not None and kind not in kinds:
        held = "lists (tag layers, or spans written as tuples)" if kind == "layers" else KIND_WORDS[kind]
        hint = "; write spans as {'start', 'end', 'label'} dicts" if "spans" in kinds else ""
        raise TypeError(f"{where} holds {held}; this module takes {_either(KIND_WORDS, kinds)}{hint}")
    if kind is None:
        expected = context or next((k for k in map(item_kind, map(type, items)) if k in kinds), None)
        position, item = next((p, x) for p, x in enumerate(items) if expected is None or item_kind(type(x)) != expected)
        raise _bad_item(item, where, position, expected, kinds)
    if kind == "ids" and not -INT64_MAX - 1 <= min(items) <= max(items) <= INT64_MAX:
        token, value = next((p, x) for p, x in enumerate(items) if not -INT64_MAX - 1 <= x <= INT64_MAX)
        raise ValueError(f"{where}, token {token}: label id {value} does not fit in 64 bits")
    if kind == "layers":
        _check_layers(items, where, kinds)
    return kind


def _items(sentence: Any, where: str) -> Sequence[Any]:
    """A sentence's items as a sequence: an array (or any other sequence numpy reads) as a list of Python values,
    refused when it is not one-dimensional or holds label ids beyond 64 bits."""
    if not isinstance(sentence, (Sequence, np.ndarray)):
        sentence = np.asarray(sentence)
    if not isinstance(sentence, np.ndarray):
        return sentence
    if sentence.ndim != 1:
        raise ValueError(f"{where}: expected one list per sentence, got an array of shape {sentence.shape}")
    if len(sentence) and sentence.dtype.kind == "u" and sentence.max() > INT64_MAX:
        raise ValueError(f"{where}: label id {sentence.max()} does not fit in 64 bits")
    return sentence.tolist()


def _check_layers(layers: Sequence[Any], where: str, kinds: Sequence[str]) -> None:
    """TypeError naming the first tag of a sentence's tag layers that is not a string."""
    for layer, tags in enumerate(layers):
        for token, tag in enumerate(tags):
            if not isinstance(tag, str):
                spans = "spans" in kinds and isinstance(tag, (int, np.integer))
                hint = "; spans are {'start', 'end', 'label'} dicts here" if spans else ""
                raise TypeError(f"{where}, layer {layer}, token {token}: {not_a_string(tag, label_list=False)} "
                                f"(a tag layer is a list of tag strings{hint})")


def _uniform_kind(side: Any) -> str | bool | None:
    """Fast path: the kind of a side whose sentences are lists of one well-formed kind (None: all empty);
    False when the sentence-by-sentence walk must decide (and name what is wrong)."""
    if isinstance(side, np.ndarray) and side.ndim == 2 and side.dtype.kind == "i":
        return "ids" if side.size else None
    if not set(map(type, side)) <= {list, tuple}:
        return False
    found = {item_kind(t) for t in set(map(type, chain.from_iterable(side)))}
    if len(found) > 1 or None in found:
        return False
    kind = found.pop() if found else None
    if kind == "ids":
        fits = -INT64_MAX - 1 <= min(chain.from_iterable(side)) and max(chain.from_iterable(side)) <= INT64_MAX
        return kind if fits else False
    if kind == "layers":
        return kind if set(map(type, chain.from_iterable(chain.from_iterable(side)))) <= {str} else False
    return kind


def data_kind(predictions: Any, references: Any, kinds: Sequence[str] = INPUT_KINDS) -> str | None:
    """The one kind of input (``spans``, ``layers``, ``tags`` or ``ids``) both sides hold, read from every sentence.

    Returns None when no sentence holds anything (every kind then scores alike).

    Raises:
        TypeError: a side that is not a list of sentences, a sentence that is not a
            list, an item of no kind or of a kind not in ``kinds`` (a ``None`` tag, a
            label id ``1.7`` or ``True``), sentences of different kinds; the message
            names side, sentence, position and value.
        ValueError: sides with different numbers of sentences, a label id beyond
            64 bits, a malformed span (see :func:`nested_span_f1.core.spans.spans_from_lists`).

    >>> data_kind([[], [3, 4]], [[], [3, 0]])
    'ids'
    >>> data_kind([["O", None]], [["O", "O"]])
    Traceback (most recent call last):
    TypeError: predictions, sentence 0, token 1: tag None is not a string
    """
    check_sides(predictions, references)
    whole = _document_kind(predictions, references, kinds)
    if whole is not None:
        return whole
    # texts are whole sentences, never an item of one: the walk below names the kinds of items
    kinds = [kind for kind in kinds if kind not in ("texts", "lists", "answers", "scored")]
    for name, side in (("predictions", predictions), ("references", references)):
        if isinstance(side, np.ndarray) and side.ndim != 2:
            raise ValueError(f"{name}: expected a list of sentences or a 2-D array of label ids (a row a sentence), "
                             f"got an array of shape {side.shape}")
    sides = (_uniform_kind(predictions), _uniform_kind(references))
    fast = {kind for kind in sides if isinstance(kind, str)}
    if False not in sides and len(fast) <= 1 and fast <= set(kinds):
        return _checked(next(iter(fast), None), predictions, references)
    return _checked(_walked_kind(predictions, references, kinds), predictions, references)


def _document_kind(predictions: Any, references: Any, kinds: Sequence[str]) -> str | None:
    """The kind a whole call holds, once both sides are checked, when its documents say: scored spans (a predicted
    item with a ``score``), a model's entity lists or answers against texts, texts; else None (the items say)."""
    if "scored" in kinds and _has_scores(predictions):
        return _scored(predictions, references)
    if ({"lists", "answers"} & set(kinds) and len(references)
            and all(isinstance(document, Mapping) for document in references)
            and not any(isinstance(document, Mapping) for document in predictions)):
        return _answers(predictions, references, kinds)
    # a mapping with a text's keys makes the call one of texts (any other mapping is a sentence of no kind)
    documents = [isinstance(sentence, Mapping) and bool({"text", "entities"} & set(sentence))
                 for side in (predictions, references) for sentence in side]
    if "texts" in kinds and any(documents):
        return _texts(predictions, references)
    return None


def _walked_kind(predictions: Any, references: Any, kinds: Sequence[str]) -> str | None:
    """The kind of every sentence of both sides, read one by one: the first kind found, which every other sentence
    must hold (None when no sentence holds anything)."""
    first: tuple[str, str] | None = None
    for name, side in (("predictions", predictions), ("references", references)):
        for s, sentence in enumerate(side):
            where = f"{name}, sentence {s}"
            kind = _sentence_kind(sentence, where, kinds, first[0] if first else None)
            if kind is None:
                continue
            if first is None:
                first = (kind, where)
            elif kind != first[0]:
                raise TypeError(f"{where} holds {KIND_WORDS[kind]} but {first[1]} holds {KIND_WORDS[first[0]]}; "
                                "give every sentence of both sides in one form")
    return first[0] if first else None


def _has_scores(predictions: Any) -> bool:
    """Whether a predicted item is a mapping with a ``score``: the call holds scored spans."""
    return any(isinstance(item, Mapping) and "score" in item for sentence in predictions
               if is_sequence(sentence) for item in sentence)


def _scored(predictions: Any, references: Any) -> str:
    """``"scored"``, once every predicted span has a finite score and both sides' spans are well formed."""
    entities, scores = split_scored(predictions, "predictions")
    spans_from_lists(entities, side="predictions")
    check_scores(scores or [], entities, "predictions")
    spans_from_lists(references, side="references")
    # the core reads (start, end, label) tuples too; a module stores spans as dicts only
    for s, sentence in enumerate(references):
        bad = next(((k, item) for k, item in enumerate(sentence) if not isinstance(item, Mapping)), None)
        if bad is not None:
            raise _bad_item(bad[1], f"references, sentence {s}", bad[0], "spans", ("spans",))
    return "scored"


def _texts(predictions: Any, references: Any) -> str:
    """``"texts"``, once :func:`nested_span_f1.align.score.check_documents` accepts both sides."""
    from ..align.score import check_documents

    check_documents(predictions, references)
    return "texts"


def _answers(predictions: Any, references: Any, kinds: Sequence[str]) -> str:
    """``"answers"`` (a string a document) or ``"lists"`` (a list of ``{'text', 'label'}`` dicts a document)
    against texts, once both sides are checked (the references as :func:`_texts` checks them)."""
    from ..align.score import check_document_side

    check_document_side(references, "references")
    strings = [isinstance(answer, str) for answer in predictions]
    kind = "answers" if all(strings) else "lists"
    if any(strings) and not all(strings):
        answer, listed = strings.index(True), strings.index(False)
        raise TypeError(f"predictions, sentence {answer} is a model's answer (a string) but sentence {listed} is "
                        f"{quote(predictions[listed])}; give every document's predictions in one form")
    if kind not in kinds:
        raise TypeError(f"predictions hold {KIND_WORDS[kind]}; this module takes {_either(KIND_WORDS, kinds)}")
    if kind == "lists":
        for s, document in enumerate(predictions):
            where = f"predictions, sentence {s}"
            if not is_sequence(document):
                raise TypeError(f"{where}: expected a model's answer (a string) or a list of {{'text', 'label'}} "
                                f"dicts, got {shown(document)}")
            for k, item in enumerate(document):
                if not isinstance(item, Mapping) or set(item) != {"text", "label"}:
                    raise TypeError(f"{where}, entity {k}: {quote(item)} is not a {{'text', 'label'}} dict")
                for key in ("text", "label"):
                    if not isinstance(item[key], str):
                        raise TypeError(f"{where}, entity {k}: {key} {quote(item[key])} is not a string")
    return kind


def _checked(kind: str | None, predictions: Any, references: Any) -> str | None:
    """``kind``, after the core's own checks that need no options: every span of both sides, or tags and ids
    aligned token by token."""
    if kind in ("tags", "ids"):
        check_aligned(list(map(len, predictions)), list(map(len, references)))
    if kind == "spans":
        spans_from_lists(predictions, side="predictions")
        spans_from_lists(references, side="references")
    return kind


def refuse_unencodable(predictions: Any, references: Any) -> None:
    """ValueError naming the first tag or label that is not valid UTF-8 text (a lone surrogate), if any."""
    def texts(sentence: Any) -> Iterator[tuple[str, Any]]:
        if isinstance(sentence, Mapping):  # a document: its text, then its entities
            yield "text", sentence.get("text")
            sentence = sentence.get("entities") or []
        for p, item in enumerate(sentence):
            if isinstance(item, Mapping):
                yield f"span {p}", item.get("label")
            elif isinstance(item, (list, tuple)):
                yield from ((f"layer {p}, token {t}", tag) for t, tag in enumerate(item))
            else:
                yield f"token {p}", item

    for name, side in (("predictions", predictions), ("references", references)):
        for s, sentence in enumerate(side):
            for where, text in texts(sentence):
                if isinstance(text, str) and not text.isascii():
                    try:
                        text.encode("utf-8")
                    except UnicodeEncodeError as error:
                        raise ValueError(f"{name}, sentence {s}, {where}: {quote(text)} is not valid UTF-8 text (a lone "
                                         f"surrogate U+{ord(text[error.start]):04X} at offset {error.start}); evaluate "
                                         "stores text as UTF-8") from None


def input_kind(predictions: Sequence[Any], references: Sequence[Any]) -> str:
    """Which kind of input was given ("spans", "layers", "tags" or "ids"); "spans" when every sentence is empty."""
    return data_kind(predictions, references) or "spans"
