"""The figures every harness reports, from the answers' summed counts: entity F1 (the located spans'), the string
protocol's F1, and the share of answers that could not be read; and, to show what not to report, the mean of
per-sample F1.
"""
from __future__ import annotations

from collections.abc import Iterable, Sequence

from ..answers.tally import AnswerTally, total
from ..lenient.counts import LenientCounts
from ..nested.score import NestedCounts

FIGURES = ("entity_f1", "string_f1", "unreadable_share")
"""The corpus-level figures of :func:`figures` (lenient counts add ``partial_f1`` and ``type_f1``)."""


def figures(tallies: Iterable[AnswerTally] | AnswerTally, warn: bool = True) -> dict[str, float]:
    """The corpus-level figures of answers' counts (summed first when several): ``entity_f1`` (the located spans'
    micro F1; under the lenient metric its strict one, with ``partial_f1`` and ``type_f1`` beside), ``string_f1``
    (the string protocol's micro F1) and ``unreadable_share``; 0/0 is 0.

    Warns:
        UnreadableAnswersWarning: more than 5% of the answers could not be read (unless ``warn`` is False: a
            harness warns once, with its entity F1, not with each of its figures).
    """
    tally = tallies if isinstance(tallies, AnswerTally) else total(tallies)
    result = tally.result(zero_division=0, warn=warn)
    located = result["located"]
    out = {"entity_f1": located["strict_f1"] if tally.metric == "lenient" else located["overall_f1"],
           "string_f1": result["strings"]["overall_f1"],
           "unreadable_share": result["answers"]["unparseable_share"]}
    if tally.metric == "lenient":
        out.update(partial_f1=located["partial_f1"], type_f1=located["type_f1"])
    return out


def located(tally: AnswerTally) -> tuple[int, int, int]:
    """The located true positives, predicted spans and gold spans of answers' counts (exact matching: the
    lenient metric's strict scheme)."""
    counts = tally.located_counts()
    if isinstance(counts, LenientCounts):
        pooled = counts.total("strict")
        return pooled.correct, pooled.actual, pooled.possible
    exact = (counts.counts if isinstance(counts, NestedCounts) else counts).total
    return exact.tp, exact.predicted, exact.gold


def sample_f1(tally: AnswerTally, empty: float | None = 1.0) -> float | None:
    """One answer's own entity F1, as a harness that averages per sample computes it (the wrong number: see
    docs/harnesses.md); ``empty`` is what an answer with no gold and no prediction scores (None: left out)."""
    tp, predicted, gold = located(tally)
    if predicted + gold == 0:
        return empty
    return 2 * tp / (predicted + gold)


def mean_of_samples(tallies: Sequence[AnswerTally], empty: float | None = 1.0) -> float:
    """The mean of :func:`sample_f1` over answers (those scoring None left out): what not to report."""
    values = [f for f in (sample_f1(t, empty) for t in tallies) if f is not None]
    return sum(values) / len(values) if values else 0.0
