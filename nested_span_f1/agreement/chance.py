"""Chance-corrected agreement on positions: Cohen's and Fleiss' kappa, Krippendorff's alpha (nominal).

The units are the positions of the documents every annotator holds: tokens, or
characters in a corpus of texts (docs/DESIGN.md, 'Agreement between annotators').
Each annotator labels a position with its IOB2 tag, ``B-TYPE`` on a span's first
position, ``I-TYPE`` on the others, ``O`` outside every span. A position inside
several spans (nested, crossing, or one span under two types) is labelled with
all their tags, outermost first (by start, then the longer, then the type),
joined by ``|``: ``B-DNA|B-protein`` where a DNA span and a protein span inside
it begin. That is one category among the others, so flat annotations keep their
plain IOB2 tags, and the labelling of a position never depends on another
annotator's.

Every coefficient is computed from integer counts as one exact fraction and
rounded once, so it is the float nearest its definition's value; the reference
implementations (scikit-learn, statsmodels, krippendorff) sum floats and agree
with it to the last digits. A coefficient whose expected disagreement is zero
(every label one category) is undefined: None.
"""
from __future__ import annotations

from fractions import Fraction
from itertools import combinations

import numpy as np

from ..core.spans import SpanArrays

OUTSIDE = "O"


class Tagging:
    """Codes of positions' labels shared by every annotator: 0 is ``O``, ``1 + 2k`` is ``B-`` of label ``k``,
    ``2 + 2k`` its ``I-``, and each combination of tags gets the next free code as it is first met."""

    def __init__(self, labels: tuple[str, ...]) -> None:
        self.labels = labels
        self.combinations: dict[tuple[int, ...], int] = {}

    def name(self, code: int) -> str:
        """The label a code stands for (``O``, ``B-PER``, ``B-DNA|B-protein``)."""
        if code == 0:
            return OUTSIDE
        if code <= 2 * len(self.labels):
            label, inside = divmod(code - 1, 2)
            return f"{'I' if inside else 'B'}-{self.labels[label]}"
        tags = next(tags for tags, known in self.combinations.items() if known == code)
        return "|".join(self.name(tag) for tag in tags)

    def codes(self, spans: SpanArrays, lengths: np.ndarray) -> np.ndarray:
        """Every position's code, document after document (``spans`` on :attr:`labels`)."""
        if spans.labels != self.labels:
            spans = spans.relabel(self.labels)
        starts = np.concatenate(([0], np.cumsum(lengths)))
        out = np.zeros(int(starts[-1]), dtype=np.int64)
        size = spans.end - spans.start
        # one row per (span, position it covers), ordered outermost first at each position
        order = np.lexsort((spans.label, -spans.end, spans.start, spans.sentence))
        rows = np.repeat(order, size[order])
        step = np.arange(len(rows)) - np.repeat(np.cumsum(size[order]) - size[order], size[order])
        position = starts[spans.sentence[rows]] + spans.start[rows] + step
        tag = 1 + 2 * spans.label[rows] + (step > 0)
        by_position = np.argsort(position, kind="stable")
        position, tag = position[by_position], tag[by_position]
        first = np.concatenate(([True], position[1:] != position[:-1])) if len(position) else position.astype(bool)
        out[position[first]] = tag[first]
        shared = np.flatnonzero(~first)
        if len(shared):
            groups = np.flatnonzero(first)
            runs = np.unique(np.searchsorted(groups, shared, side="right") - 1)
            bounds = np.append(groups, len(position))
            for group in runs.tolist():
                a, b = int(bounds[group]), int(bounds[group + 1])
                tags = tuple(tag[a:b].tolist())
                code = self.combinations.setdefault(tags, 1 + 2 * len(self.labels) + len(self.combinations))
                out[position[a]] = code
        return out


def cohen_kappa(a: np.ndarray, b: np.ndarray) -> float | None:
    """Cohen's kappa of two annotators' codes over the same positions: ``(p_o - p_e) / (1 - p_e)`` with
    ``p_e`` from each annotator's own label frequencies (scikit-learn's ``cohen_kappa_score``); None when
    ``p_e`` is 1."""
    n = len(a)
    size = int(max(a.max(initial=0), b.max(initial=0))) + 1
    expected = int(np.bincount(a, minlength=size) @ np.bincount(b, minlength=size))
    disagree = int(np.count_nonzero(a != b))
    denominator = n * n - expected
    if denominator == 0:
        return None
    return float(Fraction(denominator - disagree * n, denominator))


def fleiss_kappa(codes: np.ndarray) -> float | None:
    """Fleiss' kappa of ``codes[annotator, position]``, every annotator labelling every position (statsmodels'
    ``fleiss_kappa`` of the positions' category counts); None when the expected agreement is 1."""
    raters, n = codes.shape
    size = int(codes.max(initial=0)) + 1
    per_category = np.bincount(codes.ravel(), minlength=size)
    agreeing = sum(int(np.count_nonzero(codes[r] == codes[s])) for r, s in combinations(range(raters), 2))
    total = raters * n
    squares = int(per_category @ per_category)
    denominator = (raters - 1) * (total * total - squares)
    if denominator == 0:
        return None
    # P_mean = 2 * agreeing / (total * (raters - 1)), P_e = squares / total**2
    return float(Fraction(2 * agreeing * total - squares * (raters - 1), denominator))


def krippendorff_alpha(codes: np.ndarray, present: np.ndarray) -> float | None:
    """Krippendorff's alpha, nominal, of ``codes[annotator, position]`` where ``present`` marks the values given
    (an annotator absent from a document gives none of its positions): ``1 - D_o / D_e`` over the positions
    with two values or more (the krippendorff package's ``alpha`` with those values missing); None when the
    values hold one category only."""
    values = present.sum(axis=0)
    pairable = values >= 2
    counted = present & pairable
    n = int(values[pairable].sum())
    size = int(codes.max(initial=0)) + 1
    per_category = np.bincount(codes[counted], minlength=size)
    squares = int(per_category @ per_category)
    if n < 2 or n * n == squares:
        return None
    # the coincidences of a value with itself, a position's agreeing pairs weighed by 1 / (its values - 1)
    agreeing = np.zeros(len(values), dtype=np.int64)
    for r, s in combinations(range(len(codes)), 2):
        agreeing += counted[r] & counted[s] & (codes[r] == codes[s])
    same = sum((Fraction(2 * int(agreeing[values == m].sum()), m - 1) for m in np.unique(values[pairable]).tolist()),
               Fraction(0))
    return float(1 - Fraction(n - 1) * (n - same) / (n * n - squares))
