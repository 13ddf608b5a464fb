"""What two sets disagree on, grouped: a boundary, a type, both, or a span only one of them marks.

The groups are the lenient metric's error breakdown of the pair, from its
canonical one-to-one matching of overlapping spans
(docs/DESIGN.md, 'Per type and the error breakdown'), read from either side:
``boundary`` (overlapping spans of one type, other boundaries), ``type`` (the
same boundaries, other types), ``boundary_and_type`` (overlapping, both differ)
and ``missing`` (a span that overlaps nothing the other set marks, in the first
set or in the second). :func:`confusion` sums the same matchings into a label
confusion between annotators.
"""
from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import numpy as np

from ..lenient.counts import BREAKDOWN
from ..lenient.score import LenientMatch

GROUPS = ("boundary", "type", "boundary_and_type", "missing")
"""The groups of disagreements, in the order they are shown."""

_GROUP_OF = {"boundary_error": "boundary", "type_error": "type", "boundary_type_error": "boundary_and_type",
             "missed": "missing", "spurious": "missing"}

CONTEXT = {"tokens": 6, "characters": 40}
"""Tokens, or characters, shown on each side of a disagreement."""


def counts(match: LenientMatch) -> dict[str, int]:
    """How many disagreements of each group the pair has."""
    breakdown = match.counts().breakdown
    out = dict.fromkeys(GROUPS, 0)
    for category, group in _GROUP_OF.items():
        out[group] += breakdown[category]
    return out


def context(item: Any, start: int, end: int, unit: str) -> str:
    """The words around positions ``start``..``end`` of a document: tokens joined by spaces, or characters with
    line ends as spaces."""
    width = CONTEXT[unit]
    lo, hi = max(0, start - width), min(len(item), end + width)
    if unit == "tokens":
        return " ".join(item[lo:hi])
    return " ".join(str(item[lo:hi]).split())


def covered(item: Any, start: int, end: int, unit: str) -> str:
    """The text a span covers."""
    return " ".join(item[start:end]) if unit == "tokens" else str(item[start:end])


def examples(match: LenientMatch, names: tuple[str, str], ids: list[str], items: list[Any], unit: str,
             limit: int) -> dict[str, list[dict[str, Any]]]:
    """Up to ``limit`` disagreements of each group, in document order: the document, each set's span
    (``[start, end, type, text]``, None where it has none) and the context."""
    gold, pred, category = match.cases()
    ref, prd = match.references, match.predictions
    sentence = np.where(gold >= 0, ref.sentence[np.maximum(gold, 0)], prd.sentence[np.maximum(pred, 0)])
    start = np.where(gold >= 0, ref.start[np.maximum(gold, 0)], prd.start[np.maximum(pred, 0)])
    out: dict[str, list[dict[str, Any]]] = {group: [] for group in GROUPS}
    for k in np.lexsort((start, sentence)).tolist():
        group = _GROUP_OF.get(BREAKDOWN[int(category[k])])
        if group is None or len(out[group]) >= limit:
            continue
        doc = int(sentence[k])
        spans: dict[str, Any] = {}
        bounds = []
        for name, side, row in ((names[0], ref, int(gold[k])), (names[1], prd, int(pred[k]))):
            if row < 0:
                spans[name] = None
                continue
            a, b = int(side.start[row]), int(side.end[row])
            spans[name] = [a, b, side.labels[side.label[row]], covered(items[doc], a, b, unit)]
            bounds += [a, b]
        out[group].append({"document": ids[doc], "spans": spans,
                           "context": context(items[doc], min(bounds), max(bounds), unit)})
    return out


NOTHING = "(nothing)"
"""The row and column of the label confusion for a span the other annotator's matching leaves alone."""


def confusion(matches: Sequence[LenientMatch]) -> dict[str, dict[str, int]]:
    """The label confusion between annotators, the pairs' summed: ``confusion[x][y]`` counts the span pairs of
    types ``x`` and ``y`` that a pair's canonical matching pairs (overlapping, one to one), either way round, so
    the table is symmetric and its diagonal holds the pairs of one type; ``confusion[x][NOTHING]`` (and
    ``[NOTHING][x]``) counts the spans of type ``x`` it pairs with nothing. Every type any pair marks has a row."""
    labels = sorted(set().union(*(set(m.references.labels) | set(m.predictions.labels) for m in matches)))
    names = [*labels, NOTHING]
    width = len(names)
    cells = np.zeros(width * width, dtype=np.int64)
    for match in matches:
        gold, pred, _ = match.cases()
        codes = []
        for side, rows in ((match.references, gold), (match.predictions, pred)):
            remap = np.array([labels.index(name) for name in side.labels] + [width - 1], dtype=np.int64)
            codes.append(remap[np.where(rows >= 0, side.label[np.maximum(rows, 0)] if len(side) else -1, -1)])
        first, second = codes
        cells += np.bincount(first * width + second, minlength=width * width)
        other = first != second
        cells += np.bincount(second[other] * width + first[other], minlength=width * width)
    table = cells.reshape(width, width).tolist()
    return {a: dict(zip(names, row)) for a, row in zip(names, table)}
