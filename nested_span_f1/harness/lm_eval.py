"""lm-evaluation-harness (``lm_eval`` 0.4): ``process_results`` and corpus-level aggregations for entity F1.

A task names them in its YAML (lm-eval's ``!function`` imports a function from an
installed module when no ``.py`` file of that name lies next to the YAML)::

    process_results: !function nested_span_f1.harness.lm_eval.process_results
    metric_list: !function nested_span_f1.harness.lm_eval.METRICS

lm-eval calls ``process_results`` once a document and each metric's aggregation once
with every document's value. The value is the answer and its gold document (JSON-safe:
``--log_samples`` writes it); each aggregation counts every answer with the types of
every gold document as the inventory (:func:`~nested_span_f1.answers.tally.count_answer`,
``labels=``), sums the counts and computes its figure, so the numbers are those of
``nested-span-f1 answers`` on the same answers, never a mean over documents. The
document is a row of the task's dataset in a shape
:func:`~nested_span_f1.answers.tally.gold_document` reads (``text`` and ``entities``,
``tokens`` and ``tags``, ...).
"""
from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from ..answers.tally import AnswerTally, count_answer, gold_document, total
from .figures import figures


def process_results(doc: Mapping[str, Any], results: Sequence[str]) -> dict[str, dict[str, Any]]:
    """lm-eval's per-document hook: the model's answer (the first result, after the task's filters) and the
    document, under each metric's name."""
    item = {"answer": results[0], "gold": dict(doc)}
    return {name: item for name, _ in AGGREGATIONS}


def tally(items: Sequence[Mapping[str, Any]], metric: str = "exact") -> AnswerTally:
    """Every document's answer counted with the inventory of all their gold types, and summed."""
    documents = [gold_document(item["gold"], f"document {k}") for k, item in enumerate(items)]
    labels = set().union(*(document.labels() for document in documents))
    return total(count_answer(item["answer"], document, labels=labels, metric=metric,
                              id=document.id if document.id is not None else f"document {k}")
                 for k, (item, document) in enumerate(zip(items, documents)))


def entity_f1(items: Sequence[Mapping[str, Any]]) -> float:
    """Corpus-level entity F1: the answers' strings placed on the text, matched exactly (micro over types)."""
    return figures(tally(items))["entity_f1"]


def partial_f1(items: Sequence[Mapping[str, Any]]) -> float:
    """Corpus-level lenient F1 (SemEval-2013's partial scheme: an overlap with the right type counts half)."""
    return figures(tally(items, "lenient"), warn=False)["partial_f1"]


def string_f1(items: Sequence[Mapping[str, Any]]) -> float:
    """Corpus-level F1 of the string protocol (UniversalNER's: normalised strings per document and type)."""
    return figures(tally(items), warn=False)["string_f1"]


def unreadable_share(items: Sequence[Mapping[str, Any]]) -> float:
    """The share of answers that could not be read (each counts its gold entities as missed)."""
    return figures(tally(items), warn=False)["unreadable_share"]


AGGREGATIONS = (("entity_f1", entity_f1), ("partial_f1", partial_f1), ("string_f1", string_f1),
                ("unreadable_share", unreadable_share))

METRICS = [{"metric": name, "aggregation": function, "higher_is_better": name != "unreadable_share"}
           for name, function in AGGREGATIONS]
"""A task's ``metric_list``: entity F1 (exact, and lenient's partial), string F1 and the unreadable share, each
aggregated over the corpus."""
