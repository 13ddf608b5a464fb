"""lighteval: a metric whose per-sample function returns counts and whose corpus functions sum them.

:func:`ner_metric` is a ``SampleLevelMetricGrouping`` (lighteval's own class): per
sample, :class:`AnswerCounts` counts the model's answer against the gold document in
the ``Doc``'s ``specific`` dict (a dataset's row in a shape
:func:`~nested_span_f1.answers.tally.gold_document` reads) with the corpus's ``labels``;
per metric, :class:`CorpusFigure` sums every sample's counts and computes the figure, so
a document that lighteval's bootstrap draws twice is counted twice and nothing is
refused. Both are classes of this module, so lighteval can pickle them.
"""
from __future__ import annotations

from collections.abc import Collection, Mapping, Sequence
from typing import Any

from lighteval.metrics.metrics_corpus import CorpusLevelComputation
from lighteval.metrics.metrics_sample import SampleLevelComputation
from lighteval.metrics.utils.metric_utils import SampleLevelMetricGrouping
from lighteval.models.model_output import ModelResponse
from lighteval.tasks.requests import Doc, SamplingMethod

from ..answers.tally import AnswerTally, count_answer
from .figures import FIGURES, figures


class AnswerCounts(SampleLevelComputation):
    """The per-sample function: the answer's counts under each figure's name."""

    def __init__(self, labels: Collection[str], metric: str = "exact", label_map: Mapping[str, str] | None = None,
                 **options: Any) -> None:
        self.labels, self.metric, self.label_map, self.options = sorted(labels), metric, label_map, options

    def compute(self, doc: Doc, model_response: ModelResponse, **kwargs: Any) -> dict[str, AnswerTally]:
        if not doc.specific:
            raise ValueError(f"document {doc.id!r}: the gold document goes in the Doc's 'specific' dict (text and "
                             "entities, or tokens and tags)")
        tally = count_answer(model_response.final_text[0], doc.specific, labels=self.labels, metric=self.metric,
                             id=str(doc.id), label_map=self.label_map, **self.options)
        return dict.fromkeys(FIGURES, tally)


class CorpusFigure(CorpusLevelComputation):
    """The corpus function of one figure: the samples' counts summed, the figure computed (entity F1 warns when
    more than 5% of the answers could not be read)."""

    def __init__(self, name: str) -> None:
        self.name = name

    def compute_corpus(self, items: Sequence[AnswerTally]) -> float:
        return figures(items, warn=self.name == "entity_f1")[self.name]


def ner_metric(labels: Collection[str], *, metric: str = "exact", label_map: Mapping[str, str] | None = None,
               **options: Any) -> SampleLevelMetricGrouping:
    """Entity F1, string F1 and the unreadable share of a generative NER task, from counts summed over the corpus.

    Args:
        labels: the corpus's type inventory (every answer is read with it, as one corpus call reads them).
        metric: how the located spans are counted: ``"exact"``, ``"lenient"`` or ``"nested"``.
        label_map: the answers' types renamed before scoring.
        options: the other options of :func:`~nested_span_f1.answers.tally.count_answer`.
    """
    # lighteval annotates both dicts' values as callables; higher_is_better holds booleans, as its own metrics do
    higher_is_better: dict[str, Any] = {name: name != "unreadable_share" for name in FIGURES}
    return SampleLevelMetricGrouping(
        metric_name=list(FIGURES),
        higher_is_better=higher_is_better,
        category=SamplingMethod.GENERATIVE,
        sample_level_fn=AnswerCounts(labels, metric, label_map, **options),
        corpus_level_fn={name: CorpusFigure(name).compute_corpus for name in FIGURES},
    )
