"""Flat decoding of scored spans: the highest-scoring spans that do not overlap, as GLiNER's flat mode keeps them.

Within a sentence the spans are taken in decreasing score (ties: the earlier
start, then the earlier end, then the label's name: the order in which GLiNER
lists candidate spans), and a span is kept when it overlaps no span kept before
it. Two spans overlap when they share a token, whatever their labels (the same
boundaries with two labels are one span too many).

Why one decoding serves every threshold: the spans scoring at least ``t`` are
the first ones of that order, so the decoding of those spans makes the same
decisions as the decoding of all spans makes on them. A span is in the decoded
output at threshold ``t`` exactly when it is in the decoding of all spans and its
score is at least ``t``; the curve of the decoded output is the curve of that
one decoding (docs/DESIGN.md, 'Flat decoding of scored spans').
"""
from __future__ import annotations

import numpy as np

from ..core.spans import SpanArrays


def clusters(spans: SpanArrays) -> tuple[np.ndarray, np.ndarray]:
    """The rows sorted by (sentence, start), and for each the id of its overlap cluster: a run of spans of one
    sentence each overlapping the spans before it (a span starting at or after the end of every span before it
    starts a new run). Spans of two clusters never overlap."""
    order = np.lexsort((spans.start, spans.sentence))
    width = int(spans.end.max(initial=0)) + 1
    sentence = spans.sentence[order]
    start, end = sentence * width + spans.start[order], sentence * width + spans.end[order]
    reach = np.maximum.accumulate(end) if len(end) else end
    new = np.ones(len(order), dtype=bool)
    new[1:] = start[1:] >= reach[:-1]
    return order, np.cumsum(new) - 1


def flat_decode(spans: SpanArrays, scores: np.ndarray) -> np.ndarray:
    """A mask over the rows: the spans flat decoding keeps (see the module docstring).

    A span alone in its cluster is kept at once; the spans of a cluster of several are decided in the decoding's
    order, each checked against the spans of its cluster kept before it, in Python (its cost: the spans of such
    clusters, times the spans kept in their cluster).
    """
    kept = np.zeros(len(spans), dtype=bool)
    order, cluster = clusters(spans)
    size = np.bincount(cluster)
    alone = size[cluster] == 1
    kept[order[alone]] = True
    rows, group = order[~alone], cluster[~alone]
    if not len(rows):
        return kept
    names = np.argsort(np.argsort(np.array(spans.labels, dtype=object)))
    rank = np.lexsort((names[spans.label[rows]], spans.end[rows], spans.start[rows], -scores[rows], group))
    rows, group = rows[rank].tolist(), group[rank].tolist()
    starts, ends = spans.start.tolist(), spans.end.tolist()
    taken: list[tuple[int, int]] = []
    current = -1
    for row, g in zip(rows, group):
        if g != current:
            current, taken = g, []
        a, b = starts[row], ends[row]
        if all(b <= c or d <= a for c, d in taken):
            taken.append((a, b))
            kept[row] = True
    return kept
