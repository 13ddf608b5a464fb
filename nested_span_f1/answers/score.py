"""Score an answer system against a gold with text: both protocols side by side, every mention accounted for.

:func:`score_answers` reads as the steps it runs:

1. read the answer system (:mod:`.read`) and the gold (:mod:`.gold`: any corpus
   of texts: text spans, brat, pipeline output, DocBins; or of tokens, joined by
   single spaces, or located in the ``text`` the file of answers gives; or texts
   with their entities as strings);
2. pair documents by id (or by order when a side has no ids): a document missing
   on either side, or given twice, is refused, and so is a ``text`` that differs
   from the gold's;
3. read each answer with its document's text and the gold's types at hand
   (:func:`~nested_span_f1.answers.read.read_answer`) and count each document
   (:class:`~nested_span_f1.answers.counts.AnswerCounter`): its answers' shapes,
   what reading left out and the unparseable ones, the string protocol, and the
   placement of every mention on the text;
4. score the located spans against the gold spans, in characters, with the metric
   asked for (``exact``, ``lenient`` or ``nested``: :func:`nested_span_f1.align.score_pair`,
   the path every text span takes);
5. report: ``strings`` (the string protocol's scores), ``located`` (the metric's
   result), and ``answers`` (the settings, the answers read and not read, where
   each mention went, per type, with examples).
"""
from __future__ import annotations

import os
from collections.abc import Collection, Mapping, Sequence
from dataclasses import dataclass
from typing import Any, Union

from ..align.score import Report, TextPair, score_pair
from ..core.caller import warn_caller
from ..core.scores import ZeroDivision, summarize
from ..core.wording import plural, quote, unreadable_line
from ..formats import Corpus
from ..formats.columns import read_text
from ..formats.corpus import first_difference
from .counts import INDICES, READING, AnswerCounter, AnswerCounts, PlaceTally
from .gold import References, StringGold, gold_texts, load_gold
from .locate import CATEGORIES
from .normalize import Normalization
from .read import Answers, gather, read_answer, read_answers

Predictions = Union[Answers, str, "os.PathLike[str]", Sequence[Mapping[str, Any]]]


@dataclass(frozen=True)
class AnswersRun:
    """An answer system counted against its gold: the gold as texts, the located spans as a corpus over the same
    texts (in the gold's order), the counts, and the examples of what went wrong.

    A document with mentions (or gold strings) that could not be placed has its text padded with spaces, on both
    sides, for the spans of those (:class:`~nested_span_f1.answers.counts.Located`)."""

    gold: Corpus
    located: Corpus
    counts: AnswerCounts
    examples: list[dict[str, Any]]
    documents: int
    string_documents: list[dict[str, tuple[int, int, int]]] | None = None
    """With ``per_document``: each document's string-protocol (tp, predicted, gold) per label."""
    paired: str = "id"
    """How the answers were paired with the gold's documents: by ``"id"``, or by ``"order"`` (a side without ids)."""
    first_error: dict[str, Any] | None = None
    """The first answer that could not be read (in the gold's order), whatever ``examples`` keeps: its document's
    ``id``, its ``line``, the ``answer`` as written and the ``error``."""


def load_answers(predictions: Predictions) -> Answers:
    """An answer system from a file, records (dicts, a document or question each), or as read."""
    if isinstance(predictions, Answers):
        return predictions
    if isinstance(predictions, (str, os.PathLike)):
        return read_answers(read_text(predictions), str(predictions))
    if isinstance(predictions, Sequence):
        return gather(((f"record {k}", r) for k, r in enumerate(predictions)), "predictions")
    raise TypeError(f"predictions: expected a file of answers, records or Answers, got "
                    f"{type(predictions).__name__}")


def pair_documents(gold_ids: Sequence[str] | None, read: Answers, gold_source: str, gold_size: int,
                   gold_places: Sequence[str] | None = None) -> list[int]:
    """For each gold document, the index of its answered document: by id when both sides have ids, else by order.
    ``gold_places`` says where each gold document is (``"gold.jsonl, line 2"``), for the messages.

    Raises:
        ValueError: a document missing on either side, a gold id given twice, or (by order) a different number of
            documents.
    """
    if gold_ids is None or read.ids is None:
        if len(read) != gold_size:
            raise ValueError(f"{gold_source} has {plural(gold_size, 'document')} but {read.source} has "
                             f"{len(read):,}; without ids on both sides they are paired in order")
        return list(range(gold_size))

    def where(s: int) -> str:
        return gold_places[s] if gold_places is not None and s < len(gold_places) else gold_source

    index = {ident: k for k, ident in enumerate(read.ids)}
    seen: dict[str, int] = {}
    order = []
    for s, ident in enumerate(gold_ids):
        if ident in seen:
            raise ValueError(f"{where(s)}: document id {quote(ident)} is given to two documents (first at "
                             f"{where(seen[ident])}); documents are paired by id, so each needs its own")
        seen[ident] = s
        if ident not in index:
            missing = sum(1 for i in gold_ids if i not in index)
            raise ValueError(f"{where(s)}: document id {quote(ident)} has no answer in {read.source} "
                             f"({plural(missing, 'gold document')} without one); a document the model was not asked "
                             "about cannot be scored")
        order.append(index[ident])
    extra = [ident for ident in read.ids if ident not in seen]
    if extra:
        raise ValueError(f"{read.place(index[extra[0]])}: document id {quote(extra[0])} is not in {gold_source} "
                         f"({plural(len(extra), 'answered document')} without gold)")
    return order


def count_answers(
    predictions: Predictions,
    references: References,
    *,
    normalization: Normalization | str | None = None,
    multiset: bool = False,
    policy: str = "kth",
    fallback: bool = True,
    inner_last: bool = True,
    trust: str = "index",
    label_map: Mapping[str, str] | None = None,
    labels: Collection[str] | None = None,
    examples: int = 5,
    per_document: bool = False,
) -> AnswersRun:
    """Steps 1 to 3 of :func:`score_answers`: the counts, and the located spans as a corpus of texts
    (``per_document``: with each document's string-protocol counts)."""
    read = load_answers(predictions)
    counter = AnswerCounter(normalization=normalization, multiset=multiset, policy=policy, fallback=fallback,
                               inner_last=inner_last, trust=trust, label_map=label_map, examples=examples,
                               per_document=per_document)
    raw = load_gold(references)
    source = raw.source
    order = pair_documents(raw.ids if isinstance(raw, StringGold) else raw.sentence_ids, read, source, len(raw),
                           raw.places)
    gold = gold_texts(raw, read, order)
    types = reading_types(gold.labels(), labels, source, counter.label_map)
    # documents are named by id, or without ids by the line of their answer (the file is named once)
    ids = list(gold.ids) if gold.ids is not None else [read.line(p) for p in order]
    located, golds, padded = [], [], []
    first_error = None
    for s, p in enumerate(order):
        text, given = gold.texts[s], read.texts[p]
        if given is not None and given != text:
            at = first_difference(given, text)
            raise ValueError(f"{read.place(p)}: its text differs from the gold's at offset {at} ({len(given):,} "
                             f"characters given, {len(text):,} in the gold; given {quote(given[at:at + 10])}, gold "
                             f"{quote(text[at:at + 10])}); answers are scored only against the text they were made "
                             "from")
        answers = [(question[0], read_answer(question, text, types)) for question in read.answers[p]]
        if first_error is None:
            first_error = next(({"id": ids[s], "line": read.line(p, q), "answer": given, "error": answer.error}
                                for q, ((_, given), (_, answer)) in enumerate(zip(read.answers[p], answers))
                                if answer.error is not None), None)
        found = counter.add(ids[s], text, gold.entities[s] if gold.entities is not None else None, answers,
                            strings=gold.strings[s] if gold.strings is not None else None,
                            tokens=gold.tokens[s] if gold.tokens is not None else None,
                            lines=[read.line(p, q) for q in range(len(answers))])
        located.append(found.spans)
        golds.append(found.gold)
        padded.append(text + " " * found.padding if found.padding else text)
    gold_corpus = gold.corpus(padded, golds)
    predicted = Corpus(padded, located, gold_corpus.sentence_ids, gold_corpus.doc_ids, "answers",
                       f"answers' strings placed on the gold texts (policy {policy})", read.source, None,
                       "characters", checked=True)
    return AnswersRun(gold_corpus, predicted, counter.counts(), counter.examples, len(gold_corpus),
                        counter.strings.documents, "id" if gold.ids is not None and read.ids is not None
                        else "order", first_error)


def reading_types(used: set[str], labels: Collection[str] | None, source: str,
                  label_map: Mapping[str, str]) -> set[str]:
    """The types answers are read with: ``labels`` (the corpus's type inventory) when given, else the types the
    gold uses, with the label map's names on both sides, each also in lower case. Scoring one document at a
    time with the corpus's ``labels`` reads each answer as one corpus call does ("... and June (MISC)" is read
    as a mention in a document whose gold has no MISC).

    Raises:
        TypeError: ``labels`` not a collection of strings.
        ValueError: a type the gold uses that ``labels`` leaves out (the documents would be read with another
            inventory than the corpus).
    """
    known = _inventory(used, labels, source) | set(label_map) | set(label_map.values())
    return known | {label.lower() for label in known}


def _inventory(used: set[str], labels: Collection[str] | None, source: str) -> set[str]:
    if labels is None:
        return used
    if isinstance(labels, (str, bytes)) or not all(isinstance(label, str) for label in labels):
        raise TypeError(f"labels must be the corpus's type names (a list of strings), got {quote(labels)}")
    missing = sorted(used - set(labels))
    if missing:
        raise ValueError(f"{source}: the gold uses {plural(len(missing), 'type')} that labels= leaves out "
                         f"({quote(missing)}); labels is the whole corpus's type inventory")
    return set(labels)


def strings_result(counts: AnswerCounts, zero_division: ZeroDivision = "warn") -> dict[str, Any]:
    """The string protocol's scores: per type, micro (``overall_*``), macro, weighted and untyped, and counts."""
    result = summarize(counts.strings, zero_division)
    del result["overall_accuracy"]
    return result


SHARE = 0.05
"""The share of answers that could not be read above which the report says so first (the commands on stderr, the
Python API with an :class:`UnreadableAnswersWarning`)."""


class UnreadableAnswersWarning(UserWarning):
    """More than 5% of the answers could not be read: their gold entities count as missed, so the F1 is low
    because of the reading, not only of the model (the ids say which)."""


def warn_unreadable(report: Mapping[str, Any]) -> None:
    """The :class:`UnreadableAnswersWarning` of a result's report, when more than :data:`SHARE` of its answers
    could not be read (once a call)."""
    if report["unparseable_share"] > SHARE:
        line = unreadable_line(report["unparseable"], report["answers"], report["unparseable_ids"])
        warn_caller(f"{line}; each counts its gold entities as missed", UnreadableAnswersWarning)


def report(run: AnswersRun) -> dict[str, Any]:
    """The ``answers`` entry of a result: the settings, the answers and what reading them left out, where the
    mentions went (overall and per type), the types the gold never uses, the gold entities of unparseable answers
    per type, the gold strings placed (a gold of strings), and examples."""
    out = counts_report(run.counts, run.documents)
    return {"settings": out.pop("settings"), "documents": out.pop("documents"), "paired": run.paired, **out,
            "examples": run.examples}


def counts_report(counts: AnswerCounts, documents: int) -> dict[str, Any]:
    """:func:`report` but how the documents were paired and the examples: what counts alone tell."""
    total = counts.placed
    labels = sorted(set(counts.placement) | set(counts.unparseable) | set(counts.strings.labels))
    per_type = {}
    for label in labels:
        tally = counts.placement.get(label)
        row = {"mentions": tally.mentions if tally else 0,
               **{c: getattr(tally, c) if tally else 0 for c in CATEGORIES},
               "spans": tally.spans if tally else 0,
               "unparseable_gold": counts.unparseable.get(label, 0)}
        per_type[label] = row
    foreign = {label: tally.mentions for label, tally in counts.placement.items()
               if label not in counts.strings.labels or not counts.strings.labels[label].gold}
    answers = sum(counts.answers.values())
    gold = sum(counts.gold_placement.values(), PlaceTally()) if counts.gold_placement else None
    return {
        "settings": {name: dict(value) if isinstance(value, Mapping) else value
                     for name in counts.SETTINGS for value in [getattr(counts, name)]},
        "documents": documents,
        "answers": answers,
        "shapes": dict(counts.answers),
        "unparseable": counts.answers.get("unparseable", 0),
        "unparseable_share": counts.answers.get("unparseable", 0) / answers if answers else 0.0,
        "unparseable_ids": list(counts.unparseable_ids),
        **{name: counts.reading.get(name, 0) for name in READING},
        "mentions": total.mentions,
        **{c: getattr(total, c) for c in CATEGORIES},
        "spans": total.spans,
        "indices": {name: counts.indices.get(name, 0) for name in INDICES},
        "labels_not_in_gold": dict(sorted(foreign.items(), key=lambda item: (-item[1], item[0]))),
        "mapped": dict(counts.mapped),
        "unparseable_gold": sum(counts.unparseable.values()),
        "gold_strings": None if gold is None else {"strings": gold.mentions,
                                                   **{c: getattr(gold, c) for c in CATEGORIES[2:]}},
        "per_type": per_type,
    }


def score_run(run: AnswersRun, metric: str = "nested", *, zero_division: ZeroDivision = "warn",
              **options: Any) -> dict[str, Any]:
    """Steps 4 and 5 of :func:`score_answers` for a counted run."""
    texts = list(run.gold.texts or ())
    ids = list(run.gold.sentence_ids) if run.gold.sentence_ids is not None else [str(s) for s in range(len(texts))]
    pair = TextPair(texts, ids, list(run.located.entities), list(run.gold.entities),
                    {"predictions": [[] for _ in texts], "references": [[] for _ in texts]}, Report())
    return {
        "strings": strings_result(run.counts, zero_division),
        "located": score_pair(pair, metric, zero_division=zero_division, **options),
        "answers": report(run),
    }


def score_answers(
    predictions: Predictions,
    references: References,
    *,
    metric: str = "nested",
    normalization: Normalization | str | None = None,
    multiset: bool = False,
    policy: str = "kth",
    fallback: bool = True,
    inner_last: bool = True,
    trust: str = "index",
    label_map: Mapping[str, str] | None = None,
    labels: Collection[str] | None = None,
    zero_division: ZeroDivision = "warn",
    examples: int = 5,
    **options: Any,
) -> dict[str, Any]:
    """Both protocols for an answer system: the string protocol and located spans, side by side.

    Args:
        predictions: a file of answers (JSON lines, see :mod:`nested_span_f1.answers.read`), its records
            as dicts, or a :class:`~nested_span_f1.answers.read.Answers`.
        references: the gold: a :class:`~nested_span_f1.formats.Corpus`, a file any reader takes, or a gold of
            texts with their entities as strings (a file, its records, or a
            :class:`~nested_span_f1.answers.gold.StringGold`).
        metric: how located spans are scored: ``"exact"``, ``"lenient"`` or ``"nested"``.
        normalization: the string protocol's normalisation (see
            :class:`~nested_span_f1.answers.normalize.Normalization`; default: UniversalNER's four steps).
        multiset: count a name as often as it is said (default: as sets, as UniversalNER does).
        policy, fallback, inner_last: how strings are placed (see :mod:`nested_span_f1.answers.locate`).
        trust: ``"index"`` or ``"string"``: what places a mention whose token indices and string disagree (see
            :mod:`nested_span_f1.answers.indices`).
        label_map: the answers' types renamed before scoring (``{"person": "PER"}``), each renamed mention counted.
        labels: the corpus's type inventory answers are read with (default: the gold's types); give it to score
            a part of a corpus (a document, a batch) exactly as the whole is read.
        zero_division: "warn", 0 or 1.
        examples: examples kept per category (not in the text, excess, unparseable, lines skipped, ...).
        options: the metric's own options (``partial_weight``, ``min_iou``, ``length_bins``).

    Returns: ``{"strings": ..., "located": ..., "answers": ...}`` (see the module docstring).

    Raises:
        ValueError, TypeError: as :func:`pair_documents` and :func:`~nested_span_f1.answers.read.read_answers`.

    Warns:
        UnreadableAnswersWarning: more than 5% of the answers could not be read.

    >>> from nested_span_f1 import Corpus
    >>> gold = Corpus(["The Beatles played in Liverpool ."], [[(4, 11, "ORG"), (22, 31, "LOC")]], unit="characters")
    >>> answers = [{"output": '[["The Beatles", "ORG"], ["Liverpool", "LOC"]]'}]
    >>> r = score_answers(answers, gold, metric="exact", zero_division=0)
    >>> r["strings"]["overall_f1"], r["located"]["overall_f1"]
    (1.0, 0.5)
    """
    run = count_answers(predictions, references, normalization=normalization, multiset=multiset, policy=policy,
                          fallback=fallback, inner_last=inner_last, trust=trust, label_map=label_map, labels=labels,
                          examples=examples)
    result = score_run(run, metric, zero_division=zero_division, **options)
    warn_unreadable(result["answers"])
    return result
