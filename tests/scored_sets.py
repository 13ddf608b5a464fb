"""Random gold and scored predictions for the hypothesis tests of ``thresholds``: a few sentences of spans of three
labels, the predictions mixing random spans with copies of the gold's, scored from a few values so that ties are
common (a logit among them)."""
from __future__ import annotations

from hypothesis import strategies as st

LABELS = ("A", "B", "C")
SCORES = (0.1, 0.3, 0.5, 0.5, 0.7, 0.9, -2.0)


def span(length):
    return st.tuples(st.integers(0, length - 1), st.integers(1, length), st.sampled_from(LABELS)).filter(
        lambda s: s[0] < s[1])


@st.composite
def scored_sets(draw, max_sentences=4, length=7, scores=SCORES):
    """``(gold, predictions)``: per sentence a list of distinct gold spans and a list of ``(start, end, label,
    score)`` tuples, which may repeat a span."""
    gold, pred = [], []
    for _ in range(draw(st.integers(1, max_sentences))):
        g = draw(st.lists(span(length), max_size=5, unique=True))
        p = draw(st.lists(span(length), max_size=7)) + (draw(st.lists(st.sampled_from(g), max_size=3)) if g else [])
        gold.append(g)
        pred.append([(*s, draw(st.sampled_from(scores))) for s in p])
    return gold, pred
