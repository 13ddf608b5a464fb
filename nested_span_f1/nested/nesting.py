"""How the spans of one corpus side nest: crossing pairs, nested flags, depth, length buckets.

Everything is computed over *distinct boundaries* ``(sentence, start, end)``:
the same boundaries with two labels are two items for scoring, but they do not
nest in each other (GENIA's published "22.4% nested" counts it this way). All
pairs of spans within a sentence are compared at once with numpy, which is
cheap because sentences hold few spans.
"""
from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from itertools import pairwise

import numpy as np

from ..core.spans import SpanArrays
from ..core.wording import quote

LENGTH_BINS = (1, 2, 3, 4, 5, 8)
"""Default lower edges of the span-length buckets: 1, 2, 3, 4, 5-7, 8+ tokens."""
CHARACTER_LENGTH_BINS = (1, 5, 10, 20, 40)
"""Lower edges of the span-length buckets of text spans: 1-4, 5-9, 10-19, 20-39, 40+ characters."""


@dataclass(frozen=True)
class Structure:
    """Nesting facts for each row of a :class:`SpanArrays` side.

    Attributes:
        nested: the span contains, or lies inside, another span (other boundaries).
        depth: 1 + the number of spans (other boundaries) that contain it; 1 is outermost.
        crossing_pairs: pairs of spans that overlap without one containing the other.
    """

    nested: np.ndarray
    depth: np.ndarray
    crossing_pairs: int


def sentence_pairs(sentence: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Every ordered pair ``(i, j)``, ``i != j``, of rows that share a sentence.

    ``sentence`` must be sorted (as :func:`numpy.unique` leaves it).

    >>> i, j = sentence_pairs(np.array([0, 0, 1]))
    >>> i.tolist(), j.tolist()
    ([0, 1], [1, 0])
    """
    if not len(sentence):
        empty = np.zeros(0, dtype=np.int64)
        return empty, empty
    _, first, size = np.unique(sentence, return_index=True, return_counts=True)
    group = np.repeat(np.arange(len(size)), size)
    per_row = size[group]
    i = np.repeat(np.arange(len(sentence)), per_row)
    offset = np.arange(len(i)) - np.repeat(np.cumsum(per_row) - per_row, per_row)
    j = np.repeat(first[group], per_row) + offset
    keep = i != j
    return i.compress(keep), j.compress(keep)


def structure(spans: SpanArrays) -> Structure:
    """Nested flag, depth and crossing pairs of every row of ``spans``."""
    width = int(spans.end.max(initial=0)) + 1
    keys, inverse = np.unique((spans.sentence * width + spans.start) * width + spans.end, return_inverse=True)
    sent, start, end = keys // (width * width), keys // width % width, keys % width
    i, j = sentence_pairs(sent)
    inside = (start[j] <= start[i]) & (end[i] <= end[j])
    contains = (start[i] <= start[j]) & (end[j] <= end[i])
    crossing = (np.maximum(start[i], start[j]) < np.minimum(end[i], end[j])) & ~inside & ~contains
    nested = np.zeros(len(keys), dtype=bool)
    nested[i[inside | contains]] = True
    depth = 1 + np.bincount(i[inside], minlength=len(keys))
    return Structure(nested[inverse], depth[inverse], int(np.count_nonzero(crossing)) // 2)


def length_bucket_names(bins: Sequence[int] = LENGTH_BINS) -> list[str]:
    """Names of the length buckets for lower edges ``bins``.

    >>> length_bucket_names((1, 2, 5))
    ['1', '2-4', '5+']
    """
    edges = list(bins)
    if not edges or edges[0] != 1 or any(b >= c for b, c in pairwise(edges)):
        raise ValueError(f"length_bins must be increasing lower edges starting at 1, got {quote(tuple(bins))}")
    names = [str(b) if c == b + 1 else f"{b}-{c - 1}" for b, c in pairwise(edges)]
    return [*names, f"{edges[-1]}+"]


def length_bucket(spans: SpanArrays, bins: Sequence[int] = LENGTH_BINS) -> np.ndarray:
    """Index of each span's length bucket (see :func:`length_bucket_names`)."""
    return np.searchsorted(np.asarray(bins), spans.end - spans.start, side="right") - 1
