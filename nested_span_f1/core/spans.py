"""Spans: ``(start, end, label)`` with half-open token offsets, and their array form.

Python-facing code speaks tuples; scoring speaks :class:`SpanArrays`, four
parallel int arrays (sentence, start, end, label id) plus the label names, so
that matching a whole corpus is a handful of array operations.
"""
from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np

from .sequences import check_sequence, is_sequence
from .wording import quote

Span = tuple[int, int, str]
"""``(start, end, label)``: token offsets, start inclusive, end exclusive."""


@dataclass(frozen=True)
class SpanArrays:
    """Spans of a whole corpus side, one row per span.

    ``sentence[i], start[i], end[i], label[i]`` describe span ``i``; ``label``
    indexes ``labels``. ``n_sentences`` counts sentences, including empty ones.
    """

    sentence: np.ndarray
    start: np.ndarray
    end: np.ndarray
    label: np.ndarray
    labels: tuple[str, ...]
    n_sentences: int

    def __len__(self) -> int:
        return len(self.start)

    def to_lists(self) -> list[list[Span]]:
        """Per-sentence lists of ``(start, end, label)`` tuples, in array order."""
        out: list[list[Span]] = [[] for _ in range(self.n_sentences)]
        names = self.labels
        for s, b, e, lab in zip(
            self.sentence.tolist(), self.start.tolist(), self.end.tolist(), self.label.tolist()
        ):
            out[s].append((b, e, names[lab]))
        return out

    def relabel(self, labels: Sequence[str]) -> SpanArrays:
        """The same spans with label ids re-indexed into ``labels`` (a superset of ``self.labels``)."""
        index = {name: i for i, name in enumerate(labels)}
        remap = np.array([index[name] for name in self.labels], dtype=np.int64)
        label = remap[self.label] if len(self.labels) else self.label
        return SpanArrays(self.sentence, self.start, self.end, label, tuple(labels), self.n_sentences)


def empty_spans(n_sentences: int, labels: Sequence[str] = ()) -> SpanArrays:
    """A corpus side with no spans."""
    z = np.zeros(0, dtype=np.int64)
    return SpanArrays(z, z, z, z, tuple(labels), n_sentences)


def shared_labels(*sides: SpanArrays) -> tuple[SpanArrays, ...]:
    """Re-index several sides onto one label list (sorted union of their labels)."""
    labels = sorted(set().union(*(side.labels for side in sides)))
    return tuple(side if list(side.labels) == labels else side.relabel(labels) for side in sides)


def spans_from_lists(
    sentences: Sequence[Iterable[Any]],
    lengths: Sequence[int] | None = None,
    side: str = "spans",
) -> SpanArrays:
    """Validate per-sentence span lists and convert them to :class:`SpanArrays`.

    Each span is a mapping with exactly the keys ``start``, ``end`` and ``label``, or a
    ``(start, end, label)`` tuple. Offsets must be integers (``0.5``, ``1.0``, ``True``
    and ``"0"`` are refused, never truncated or cast). ``lengths`` (tokens per
    sentence), when known, bounds the ends. Well-formed input is checked with array
    operations; when anything is off, a span-by-span pass finds the first bad span
    and names it.

    Raises:
        ValueError: a missing or extra key (or a tuple of other than three items),
            ``start >= end``, a negative start, an end beyond the sentence or beyond
            64-bit integers; the message names side, sentence, span and its position.
        TypeError: non-integer offsets, a missing or non-string label, a sentence
            that is not a list of spans.

    >>> spans_from_lists([[{"start": 0, "end": 1.5, "label": "A"}]])
    Traceback (most recent call last):
    TypeError: spans, sentence 0: span {'start': 0, 'end': 1.5, 'label': 'A'} has non-integer offsets (end 1.5); offsets must be ints, never truncated (position 0 in the sentence)
    """
    check_sequence(sentences, side, "sentences (one list of spans per sentence)")
    if lengths is not None:
        check_sequence(lengths, "lengths", "token counts (one per sentence)")
    if lengths is not None and len(lengths) != len(sentences):
        raise ValueError(f"{side}: {len(sentences)} sentences of spans but {len(lengths)} sentences of tokens")
    fast = _vectorised(sentences, lengths)
    return fast if fast is not None else _checked(sentences, lengths, side)


def _columns(flat: list[Any]) -> tuple[list[Any], list[Any], list[Any]] | None:
    """start, end and label columns of spans that each hold exactly three fields, else None."""
    try:
        if any(len(span) != 3 for span in flat):
            return None
    except TypeError:
        return None
    for keys in (("start", "end", "label"), (0, 1, 2)):
        try:
            return tuple([span[k] for span in flat] for k in keys)  # type: ignore[return-value]
        except (KeyError, IndexError, TypeError):
            continue
    return None


def _vectorised(sentences: Sequence[Iterable[Any]], lengths: Sequence[int] | None) -> SpanArrays | None:
    """The arrays of well-formed input, or None when a span-by-span check is needed."""
    if not set(map(type, sentences)) <= {list, tuple} and not all(map(is_sequence, sentences)):
        return None
    flat = [span for spans in sentences for span in spans]
    columns = _columns(flat)
    if columns is None:
        return None
    starts, ends, labels = columns
    offsets = set(map(type, starts)) | set(map(type, ends))
    if any(t is bool or not issubclass(t, (int, np.integer)) for t in offsets):
        return None
    if set(map(type, labels)) - {str} or "" in labels:
        return None
    try:
        start, end = np.array(starts, dtype=np.int64), np.array(ends, dtype=np.int64)
    except OverflowError:
        return None
    sizes = [len(spans) for spans in sentences]  # type: ignore[arg-type]  # all sequences, checked above
    sent = np.repeat(np.arange(len(sentences), dtype=np.int64), sizes)
    bad = (start < 0) | (start >= end)
    if lengths is not None:
        bad |= end > np.asarray(lengths, dtype=np.int64)[sent]
    if bad.any():
        return None
    index = {name: i for i, name in enumerate(dict.fromkeys(labels))}
    label = np.fromiter(map(index.__getitem__, labels), dtype=np.int64, count=len(labels))
    return SpanArrays(sent, start, end, label, tuple(index), len(sentences))


SPAN_KEYS = ("start", "end", "label")
INT64_MAX = 2**63 - 1


def _fields(span: Any, where: str, position: str) -> tuple[Any, Any, Any]:
    """``(start, end, label)`` of a span dict or tuple; ValueError naming a missing or extra field,
    TypeError for an item that is neither (a string, a number)."""
    rule = f"{where} must have start, end and label and nothing else"
    shape = "write spans as {'start', 'end', 'label'} dicts or (start, end, label) tuples"
    if isinstance(span, Mapping):
        missing = [key for key in SPAN_KEYS if key not in span]
        extra = [key for key in span if key not in SPAN_KEYS]
        if missing or extra:
            problem = f"it lacks {', '.join(map(repr, missing))}" if missing else f"it has {', '.join(map(repr, extra))}"
            raise ValueError(f"{rule}: {problem}{position}; {shape}")
        return span["start"], span["end"], span["label"]
    if isinstance(span, (str, bytes)) or not isinstance(span, Sequence):
        raise TypeError(f"{where} is not a span{position}; {shape}")
    if len(span) != 3:
        raise ValueError(f"{rule}{position}; {shape}")
    return span[0], span[1], span[2]


def _checked(sentences: Sequence[Iterable[Any]], lengths: Sequence[int] | None, side: str) -> SpanArrays:
    """Span by span, raising at the first bad one."""
    sent, start, end, label = [], [], [], []
    names: dict[str, int] = {}
    for s, spans in enumerate(sentences):
        check_sequence(spans, f"{side}, sentence {s}", "spans")
        for j, span in enumerate(spans):
            where, position = f"{side}, sentence {s}: span {quote(span)}", f" (position {j} in the sentence)"
            b, e, lab = _fields(span, where, position)
            odd = [f"{key} {quote(x)}" for key, x in (("start", b), ("end", e))
                   if isinstance(x, bool) or not isinstance(x, (int, np.integer))]
            if odd:
                raise TypeError(f"{where} has non-integer offsets ({', '.join(odd)}); offsets must be ints, "
                                f"never truncated{position}")
            if not isinstance(lab, str) or not lab:
                raise TypeError(f"{where} needs a non-empty string label{position}")
            if max(b, e) > INT64_MAX:
                raise ValueError(f"{where} has an offset beyond 64-bit integers (at most {INT64_MAX}){position}")
            if b < 0 or b >= e or (lengths is not None and e > lengths[s]):
                bound = f" and end <= {lengths[s]} (the sentence length)" if lengths is not None else ""
                raise ValueError(
                    f"{where} is out of range; spans need 0 <= start < end{bound}{position}"
                )
            sent.append(s)
            start.append(int(b))
            end.append(int(e))
            label.append(names.setdefault(lab, len(names)))
    sentence, first, last, label_id = (np.array(x, dtype=np.int64) for x in (sent, start, end, label))
    return SpanArrays(sentence, first, last, label_id, tuple(names), len(sentences))
