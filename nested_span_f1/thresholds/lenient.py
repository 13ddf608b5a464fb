"""The lenient metric's true positives at every threshold, without matching again at each one.

With lenient matching (docs/DESIGN.md, 'The optimal matching') a prediction is
correct under the ``type`` scheme when it is matched one to one with a gold span
it overlaps that has its label, and the optimal matching makes as many such pairs
as can be made: their number is the size of a maximum matching of the graph whose
edges join overlapping spans of one label. When a prediction joins the kept ones
the matching can change (a gold span moves to another prediction), but its size
grows by at most one, and by one exactly when there is an augmenting path from the
new prediction (Berge's theorem: the old matching was maximum, so any augmenting
path of the larger graph starts at the new vertex). So the predictions are added
in decreasing score, each searching one augmenting path (Kuhn's algorithm), and
each gains 1 or 0: the gains the curve sums (:mod:`.curve`). Ties are added one
after the other; the size after all of them does not depend on their order.

Work is split by connected component of the graph: a component with one gold
span gains 1 at its highest-ranked prediction, one with one prediction gains 1 at
it, both found with array operations; only the components with two or more of
each run the search in Python, in each of them O(edges) a prediction.
"""
from __future__ import annotations

import numpy as np

from ..core.spans import SpanArrays
from ..lenient.matching import candidate_pairs, components


def _augment(first: int, edges: dict[int, list[int]], owner: dict[int, int], holds: dict[int, int]) -> bool:
    """Search an augmenting path from the unmatched prediction ``first`` (depth first, a gold span visited once)
    and flip it; ``owner``: gold -> its prediction, ``holds``: prediction -> its gold."""
    visited: set[int] = set()
    reached: dict[int, int] = {}  # gold -> the prediction the search came from
    stack = [(first, iter(edges[first]))]
    while stack:
        pred, golds = stack[-1]
        for gold in golds:
            if gold in visited:
                continue
            visited.add(gold)
            reached[gold] = pred
            if gold not in owner:
                while True:  # flip the path back to ``first``
                    pred = reached[gold]
                    before = holds.get(pred)
                    owner[gold], holds[pred] = pred, gold
                    if before is None:
                        return True
                    gold = before
            stack.append((owner[gold], iter(edges[owner[gold]])))
            break
        else:
            stack.pop()
    return False


def lenient_gains(predictions: SpanArrays, scores: np.ndarray, references: SpanArrays,
                  min_iou: float | None = None) -> np.ndarray:
    """Per prediction, the type-scheme true positives it adds when the predictions are added in decreasing score
    (ties in row order); both sides distinct, sorted by sentence, on one label list (see the module docstring)."""
    pairs = candidate_pairs(predictions, references, min_iou)
    same = (pairs.kind & 1) == 0  # same label: a correct pair or a boundary error
    gold, pred = pairs.gold[same], pairs.pred[same]
    gains = np.zeros(len(predictions), dtype=np.int64)
    if not len(gold):
        return gains
    n_gold = len(references)
    rank = np.empty(len(predictions), dtype=np.int64)
    rank[np.lexsort((np.arange(len(predictions)), -scores))] = np.arange(len(predictions))
    group = components(gold, pred, n_gold, n_gold + len(predictions))
    _, group = np.unique(group, return_inverse=True)
    n = int(group.max()) + 1
    golds = np.bincount(group[_first(gold)], minlength=n)
    preds = np.bincount(group[_first(pred)], minlength=n)
    top = np.full(n, len(predictions), dtype=np.int64)
    np.minimum.at(top, group, rank[pred])
    simple = (golds == 1) | (preds == 1)
    order = np.argsort(rank)
    gains[order[top[simple]]] = 1
    complex_edges = ~simple[group]
    if complex_edges.any():
        _search(gold[complex_edges], pred[complex_edges], group[complex_edges], rank, gains)
    return gains


def _first(node: np.ndarray) -> np.ndarray:
    """A mask of the edges that are the first of their node (so that each node is counted once in its group)."""
    first = np.zeros(len(node), dtype=bool)
    first[np.unique(node, return_index=True)[1]] = True
    return first


def _search(gold: np.ndarray, pred: np.ndarray, group: np.ndarray, rank: np.ndarray, gains: np.ndarray) -> None:
    """Kuhn's incremental search in every component with two or more of each side (:func:`_augment`)."""
    order = np.lexsort((gold, rank[pred], group))
    gold_list, pred_list, group_list = gold[order].tolist(), pred[order].tolist(), group[order].tolist()
    start = 0
    while start < len(order):
        stop = start
        while stop < len(order) and group_list[stop] == group_list[start]:
            stop += 1
        edges: dict[int, list[int]] = {}
        for k in range(start, stop):  # predictions by rank, each with its gold spans
            edges.setdefault(pred_list[k], []).append(gold_list[k])
        owner: dict[int, int] = {}
        holds: dict[int, int] = {}
        for first in edges:
            if _augment(first, edges, owner, holds):
                gains[first] = 1
        start = stop
