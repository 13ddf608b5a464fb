"""Optimal, order-invariant one-to-one matching of overlapping spans (docs/DESIGN.md, 'The optimal matching').

Every lenient scheme scores one matching of gold spans to predictions in which
only overlapping pairs may be matched. The matching is not found greedily in
input order (which is what makes nervaluate's counts depend on the order of the
spans) but as a maximum-weight bipartite matching for a lexicographic objective,
one objective per scheme plus the canonical one of the error breakdown.

Work is split by the shape of the overlap graph. A pair of spans that overlap
each other and nothing else is matched by every objective, which settles almost
every entity of a flat corpus with array operations alone. Only connected groups
with a span that overlaps two or more spans on the other side reach the exact
solver, an assignment algorithm over Python integers that encode the objective's
levels exactly (so no floating-point tie can flip a decision).
"""
from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from fractions import Fraction
from typing import Any

import numpy as np

from ..core.spans import SpanArrays

PAIR_KINDS = ("correct", "type_error", "boundary_error", "boundary_type_error")
"""Kinds of an overlapping pair, by code: same boundaries and label; same boundaries,
other label; other boundaries, same label; other boundaries, other label."""

OBJECTIVES = ("strict", "exact", "partial", "type", "canonical")
"""The four schemes, then the error breakdown's canonical matching."""

Units = Sequence[Sequence[tuple[int, int]]]
"""Per sentence, its units as ``(start, end)`` offsets in the spans' own offsets, in order and not overlapping:
the tokens, or the words, of a text whose spans are character offsets."""


@dataclass(frozen=True)
class Pairs:
    """The edges of the overlap graph: gold ``gold[i]`` overlaps prediction ``pred[i]``.

    ``kind`` codes index :data:`PAIR_KINDS`; ``overlap`` is the number of shared tokens (of shared units, when
    :func:`candidate_pairs` was given them), the matching's last tie-break.
    """

    gold: np.ndarray
    pred: np.ndarray
    kind: np.ndarray
    overlap: np.ndarray


def candidate_pairs(predictions: SpanArrays, references: SpanArrays, min_iou: float | None = None,
                    units: Units | None = None) -> Pairs:
    """All (gold, prediction) pairs in one sentence that overlap, and pass ``min_iou`` when set.

    Both sides must be sorted by sentence and share one label list. The
    intersection over union is symmetric: ``shared / (len(gold) + len(pred) - shared)``.
    With ``units`` (spans in characters, units the text's tokens or words), a
    pair's ``overlap`` counts the units its shared characters touch, so that a
    text of tokens is matched as its tokens are; ``min_iou`` stays in offsets.
    """
    n_sent = max(predictions.n_sentences, references.n_sentences)
    per_sentence = np.bincount(predictions.sentence, minlength=n_sent)
    first = np.cumsum(per_sentence) - per_sentence
    reps = per_sentence[references.sentence]
    gold = np.repeat(np.arange(len(references), dtype=np.int64), reps)
    run_start = np.repeat(np.cumsum(reps) - reps, reps)
    pred = np.repeat(first[references.sentence], reps) + np.arange(len(gold), dtype=np.int64) - run_start
    overlap = np.minimum(references.end[gold], predictions.end[pred]) - np.maximum(
        references.start[gold], predictions.start[pred]
    )
    keep = overlap > 0
    if min_iou is not None:
        union = (references.end - references.start)[gold] + (predictions.end - predictions.start)[pred] - overlap
        keep &= overlap / np.maximum(union, 1) >= min_iou
    gold, pred, overlap = gold.compress(keep), pred.compress(keep), overlap.compress(keep)
    same_bounds = (references.start[gold] == predictions.start[pred]) & (references.end[gold] == predictions.end[pred])
    other_label = references.label[gold] != predictions.label[pred]
    kind = (~same_bounds).astype(np.int64) * 2 + other_label
    if units is not None:
        start = np.maximum(references.start[gold], predictions.start[pred])
        overlap = shared_units(references.sentence[gold], start, start + overlap, units)
    return Pairs(gold, pred, kind, overlap)


def unit_range(sentence: np.ndarray, start: np.ndarray, end: np.ndarray, units: Units) -> tuple[np.ndarray,
                                                                                                 np.ndarray]:
    """The units each interval ``[start, end)`` of sentence ``sentence`` shares an offset with, as ``(first,
    stop)`` indices among its sentence's units (``first == stop`` for an interval of whitespace between words).

    Every sentence's offsets are shifted past the sentence before, so that one sorted array of unit starts and
    one of unit ends answer every interval: the units starting before ``end``, less those ending at or before
    ``start``.

    >>> words = [[(0, 5), (6, 15)], [(0, 3)]]
    >>> first, stop = unit_range(np.array([0, 0, 0, 1]), np.array([0, 3, 5, 0]), np.array([15, 8, 6, 2]), words)
    >>> first.tolist(), stop.tolist()
    ([0, 0, 1, 0], [2, 2, 1, 1])
    """
    if len(units) <= int(sentence.max(initial=-1)):
        raise ValueError(f"units are given for {len(units)} sentences, but spans reach sentence {int(sentence.max())}")
    width = np.array([unit[-1][1] if unit else 0 for unit in units], dtype=np.int64)
    np.maximum.at(width, sentence, end)
    shift = np.cumsum(width + 1) - (width + 1)
    before = np.cumsum([len(unit) for unit in units]) - np.array([len(unit) for unit in units], dtype=np.int64)
    firsts = np.array([shift[s] + a for s, unit in enumerate(units) for a, _ in unit], dtype=np.int64)
    lasts = np.array([shift[s] + b for s, unit in enumerate(units) for _, b in unit], dtype=np.int64)
    first = np.searchsorted(lasts, shift[sentence] + start, "right") - before[sentence]
    stop = np.searchsorted(firsts, shift[sentence] + end, "left") - before[sentence]
    return first.astype(np.int64), stop.astype(np.int64)


def shared_units(sentence: np.ndarray, start: np.ndarray, end: np.ndarray, units: Units) -> np.ndarray:
    """How many of its sentence's units each interval shares an offset with (:func:`unit_range`)."""
    first, stop = unit_range(sentence, start, end, units)
    return stop - first


def _levels(one: Any, part: Any) -> dict[str, list[list[Any]]]:
    """Per objective, its levels in priority order, each a value per pair kind.

    A scheme maximises its credit (COR + w*PAR, with ``one`` for COR and
    ``part`` for PAR), then COR; the canonical matching maximises correct pairs,
    then same-boundary pairs, then same-label pairs. Every objective then
    maximises the number of pairs and, last, the tokens the pairs share (a
    tie-break only: the counts are fixed by then).
    """
    return {
        "strict": [[one, 0, 0, 0], [1, 0, 0, 0]],
        "exact": [[one, one, 0, 0], [1, 1, 0, 0]],
        "partial": [[one, one, part, part], [1, 1, 0, 0]],
        "type": [[one, 0, one, 0], [1, 0, 1, 0]],
        "canonical": [[1, 0, 0, 0], [1, 1, 0, 0], [1, 0, 1, 0]],
    }


def _weight(levels: list[list[int]], kind: int, overlap: int, base: int, overlap_base: int) -> int:
    """One pair's levels packed into one integer; ``base`` exceeds any sum of a lower level."""
    value = 0
    for level in levels:
        value = value * base + level[kind]
    return (value * base + 1) * overlap_base + overlap


def max_weight_matching(weight: list[list[int]]) -> list[tuple[int, int]]:
    """Rows and columns of a maximum-weight matching; ``weight[r][c] <= 0`` means no edge.

    The Hungarian algorithm with potentials (Kuhn-Munkres, shortest augmenting
    paths, O(n^2 m) for n rows <= m columns) assigns every row of the smaller
    side to a column, a no-edge cell costing 0: a maximum-weight assignment is
    then a maximum-weight matching, since every edge weighs more than no edge.
    Works on Python integers of any size.

    >>> max_weight_matching([[3, 2], [2, 0]])
    [(0, 1), (1, 0)]
    """
    flip = len(weight) > len(weight[0])
    table = [list(col) for col in zip(*weight)] if flip else weight
    n, m = len(table), len(table[0])
    cost = [[0] * (m + 1)] + [[0] + [-x if x > 0 else 0 for x in row] for row in table]
    # Python ints stay exact at any size; delta starts as inf only until a real slack is seen
    u: list[Any] = [0] * (n + 1)
    v: list[Any] = [0] * (m + 1)
    owner, way = [0] * (m + 1), [0] * (m + 1)
    for row in range(1, n + 1):
        owner[0], col = row, 0
        slack: list[float] = [float("inf")] * (m + 1)
        used = [False] * (m + 1)
        while owner[col]:
            used[col] = True
            at, delta, nxt = owner[col], float("inf"), 0
            line, shift = cost[at], u[at]
            for c in range(1, m + 1):
                if not used[c]:
                    reduced = line[c] - shift - v[c]
                    if reduced < slack[c]:
                        slack[c], way[c] = reduced, col
                    if slack[c] < delta:
                        delta, nxt = slack[c], c
            for c in range(m + 1):
                if used[c]:
                    u[owner[c]] += delta
                    v[c] -= delta
                else:
                    slack[c] -= delta
            col = nxt
        while col:
            prev = way[col]
            owner[col] = owner[prev]
            col = prev
    pairs = [(owner[c] - 1, c - 1) for c in range(1, m + 1) if owner[c] and table[owner[c] - 1][c - 1] > 0]
    return sorted((c, r) for r, c in pairs) if flip else sorted(pairs)


def components(gold: np.ndarray, pred: np.ndarray, n_gold: int, n_nodes: int) -> np.ndarray:
    """Connected-component id (smallest node id in it) of every edge; preds are nodes ``n_gold + j``."""
    a, b = gold, pred + n_gold
    root = np.arange(n_nodes, dtype=np.int64)
    while True:
        low = np.minimum(root[a], root[b])
        new = root.copy()
        np.minimum.at(new, a, low)
        np.minimum.at(new, b, low)
        new = new[new]
        if np.array_equal(new, root):
            return root[a]
        root = new


def _match_stars(pairs: Pairs, edges: np.ndarray, center: np.ndarray, w: float, chosen: dict[str, np.ndarray]) -> None:
    """Match groups where one span overlaps several that overlap nothing else: its best pair wins.

    At most one pair of a star can be matched, so the optimum is the pair with the
    lexicographically largest levels; ``np.lexsort`` finds it for all stars at once.
    """
    kind, overlap = pairs.kind[edges], pairs.overlap[edges]
    for name, levels in _levels(1.0, w).items():
        keys = [overlap] + [np.asarray(level, dtype=np.float64)[kind] for level in reversed(levels)] + [center]
        order = np.lexsort(keys)
        last = np.append(center[order][1:] != center[order][:-1], True)
        chosen[name][edges[order[last]]] = True


def _match_groups(pairs: Pairs, edges: np.ndarray, n_gold: int, n_nodes: int, w: float, chosen: dict[str, np.ndarray]) -> None:
    """Match every other connected group exactly with :func:`max_weight_matching`.

    Levels are packed into one Python integer per pair, the credit scaled by the
    denominator of ``w`` so that it is exact.
    """
    group = components(pairs.gold[edges], pairs.pred[edges], n_gold, n_nodes)
    order = np.argsort(group, kind="stable")
    edges, group = edges[order], group[order]
    weight = Fraction(w)
    levels = _levels(weight.denominator, weight.numerator)
    gold_all, pred_all = pairs.gold.tolist(), pairs.pred.tolist()
    kind_all, overlap_all = pairs.kind.tolist(), pairs.overlap.tolist()
    for part in np.split(edges, np.flatnonzero(np.diff(group)) + 1):
        edge_list = part.tolist()
        rows = {g: i for i, g in enumerate(sorted({gold_all[e] for e in edge_list}))}
        cols = {p: i for i, p in enumerate(sorted({pred_all[e] for e in edge_list}))}
        base = min(len(rows), len(cols)) + 1
        overlap_base = base * max(1, *(overlap_all[e] for e in edge_list))  # shared units can be 0
        at = {(rows[gold_all[e]], cols[pred_all[e]]): e for e in edge_list}
        for name in OBJECTIVES:
            matrix = [[0] * len(cols) for _ in rows]
            for (r, c), e in at.items():
                matrix[r][c] = _weight(levels[name], kind_all[e], overlap_all[e], base, overlap_base)
            for r, c in max_weight_matching(matrix):
                chosen[name][at[(r, c)]] = True


def match_lenient(pairs: Pairs, n_gold: int, n_pred: int, partial_weight: float = 0.5) -> dict[str, np.ndarray]:
    """For each of :data:`OBJECTIVES`, a boolean mask over ``pairs`` of the matched pairs.

    Pairs that overlap nothing else are matched by every objective; stars (one
    span overlapping several that overlap nothing else) keep their best pair;
    any other group goes to the exact solver. The result depends only on the
    spans, not on their order, once the sides are in canonical order.
    """
    deg_gold = np.bincount(pairs.gold, minlength=n_gold)
    deg_pred = np.bincount(pairs.pred, minlength=n_pred)
    multi_gold = deg_gold[pairs.gold] > 1
    multi_pred = deg_pred[pairs.pred] > 1
    alone = ~multi_gold & ~multi_pred
    chosen = {name: alone.copy() for name in OBJECTIVES}
    # a gold span is a star's centre when none of its predictions overlaps another gold span
    gold_star = multi_gold & (np.bincount(pairs.gold[multi_pred], minlength=n_gold)[pairs.gold] == 0)
    pred_star = multi_pred & (np.bincount(pairs.pred[multi_gold], minlength=n_pred)[pairs.pred] == 0)
    star = np.flatnonzero(gold_star | pred_star)
    if len(star):
        center = np.where(gold_star[star], pairs.gold[star], n_gold + pairs.pred[star])
        _match_stars(pairs, star, center, partial_weight, chosen)
    rest = np.flatnonzero(~alone & ~gold_star & ~pred_star)
    if len(rest):
        _match_groups(pairs, rest, n_gold, n_gold + n_pred, partial_weight, chosen)
    return chosen
