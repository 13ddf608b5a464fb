"""inspect-ai: a scorer whose metrics sum counts over the samples (entity F1, string F1, the unreadable share).

inspect-ai gives one ``Score`` per sample and computes each ``@metric`` over all of
them. :func:`ner_scorer` counts each sample's answer
(:func:`~nested_span_f1.answers.tally.count_answer`, with the corpus's ``labels``) against
the gold document in the sample's ``metadata`` (a dataset's row in a shape
:func:`~nested_span_f1.answers.tally.gold_document` reads: ``text`` and ``entities``,
``tokens`` and ``tags``, ...); the score's value is the answer's located tp, fp and fn,
its metadata the counts; :func:`entity_f1`, :func:`string_f1` and
:func:`unreadable_share` sum the counts of every sample, so the numbers are those of
``nested-span-f1 answers`` on the same answers, never a mean of per-sample F1.
"""
from __future__ import annotations

from collections.abc import Collection, Mapping
from typing import Any

from inspect_ai.scorer import Metric, SampleScore, Score, Scorer, Target, metric, scorer
from inspect_ai.solver import TaskState

from ..answers.tally import AnswerTally, count_answer
from .figures import figures, located


def _tallies(scores: list[SampleScore]) -> list[AnswerTally]:
    return [AnswerTally.from_dict(sample.score.metadata["counts"]) for sample in scores if sample.score.metadata]


@metric
def entity_f1() -> Metric:
    """Corpus-level entity F1 of the samples' summed counts (warns when more than 5% of answers cannot be read)."""
    def compute(scores: list[SampleScore]) -> float:
        return figures(_tallies(scores))["entity_f1"]

    return compute


@metric
def string_f1() -> Metric:
    """Corpus-level F1 of the string protocol (UniversalNER's), from the summed counts."""
    def compute(scores: list[SampleScore]) -> float:
        return figures(_tallies(scores), warn=False)["string_f1"]

    return compute


@metric
def unreadable_share() -> Metric:
    """The share of answers that could not be read (each counts its gold entities as missed)."""
    def compute(scores: list[SampleScore]) -> float:
        return figures(_tallies(scores), warn=False)["unreadable_share"]

    return compute


@scorer(metrics=[entity_f1(), string_f1(), unreadable_share()])
def ner_scorer(labels: Collection[str], *, metric: str = "exact", label_map: Mapping[str, str] | None = None,
               **options: Any) -> Scorer:
    """Entity F1 of a model's answers: each sample's answer counted against the gold document in its metadata.

    Args:
        labels: the corpus's type inventory (every answer is read with it, as one corpus call reads them).
        metric: how the located spans are counted: ``"exact"``, ``"lenient"`` or ``"nested"``.
        label_map: the answers' types renamed before scoring (``{"person": "PER"}``).
        options: the other options of :func:`~nested_span_f1.answers.tally.count_answer`.
    """
    inventory = sorted(labels)

    async def score(state: TaskState, target: Target) -> Score:
        answer = state.output.completion
        tally = count_answer(answer, state.metadata, labels=inventory, metric=metric, id=str(state.sample_id),
                             label_map=label_map, **options)
        tp, predicted, gold = located(tally)
        return Score(value={"tp": tp, "fp": predicted - tp, "fn": gold - tp}, answer=answer,
                     metadata={"counts": tally.to_dict()})

    return score

