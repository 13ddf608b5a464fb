"""Score a generated system against a gold with text: both protocols side by side, every mention accounted for.

:func:`score_generated` reads as the steps it runs:

1. read the generated system (:mod:`.read`) and the gold (any corpus of texts:
   text spans, brat, pipeline output, DocBins; or of tokens, joined by single
   spaces, or located in the ``text`` the generated file gives);
2. pair documents by id (or by order when a side has no ids): a document missing
   on either side, or given twice, is refused, and so is a ``text`` that differs
   from the gold's;
3. count each document (:class:`~nested_span_f1.answers.counts.GeneratedCounter`):
   its answers' shapes and the unparseable ones, the string protocol, and the
   placement of every mention on the text;
4. score the located spans against the gold spans, in characters, with the metric
   asked for (``exact``, ``lenient`` or ``nested``: :func:`nested_span_f1.align.score_pair`,
   the path every text span takes);
5. report: ``strings`` (the string protocol's scores), ``located`` (the metric's
   result), and ``generated`` (the settings, the answers read and not read, where
   each mention went, per type, with examples).
"""
from __future__ import annotations

import os
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any, Union

from ..align.project import join_tokens, locate_tokens, to_characters
from ..align.score import Report, TextPair, score_pair
from ..core.scores import ZeroDivision, summarize
from ..core.wording import plural
from ..formats import Corpus, read_corpus
from ..formats.columns import read_text
from ..formats.corpus import first_difference
from .counts import GeneratedCounter, GeneratedCounts
from .locate import CATEGORIES
from .normalize import Normalization
from .read import Generated, gather, read_generated

Predictions = Union[Generated, str, "os.PathLike[str]", Sequence[Mapping[str, Any]]]
References = Union[Corpus, str, "os.PathLike[str]"]


@dataclass(frozen=True)
class GeneratedRun:
    """A generated system counted against its gold: the gold as texts, the located spans as a corpus over the same
    texts (in the gold's order), the counts, and the examples of what went wrong.

    A document with mentions that could not be placed has its text padded with
    spaces, on both sides, for the false-positive spans of those mentions
    (:class:`~nested_span_f1.answers.counts.Located`)."""

    gold: Corpus
    located: Corpus
    counts: GeneratedCounts
    examples: list[dict[str, Any]]
    documents: int
    string_documents: list[dict[str, tuple[int, int, int]]] | None = None
    """With ``per_document``: each document's string-protocol (tp, predicted, gold) per label."""


def load_generated(predictions: Predictions) -> Generated:
    """A generated system from a file, records (dicts, a document or question each), or as read."""
    if isinstance(predictions, Generated):
        return predictions
    if isinstance(predictions, (str, os.PathLike)):
        return read_generated(read_text(predictions), str(predictions))
    if isinstance(predictions, Sequence):
        return gather(((f"record {k}", r) for k, r in enumerate(predictions)), "predictions")
    raise TypeError(f"predictions: expected a generated-system file, records or Generated, got "
                    f"{type(predictions).__name__}")


def _gold(references: References, generated: Generated, order: list[int]) -> Corpus:
    """The gold as texts: a corpus of texts as it is; tokens located in the texts the generated file gives (every
    document then needs one), else joined by single spaces."""
    corpus = references if isinstance(references, Corpus) else read_corpus(references)
    if corpus.texts is not None:
        return corpus
    given = [generated.texts[p] for p in order]
    if all(text is None for text in given):
        return join_tokens(corpus)
    texts, entities = [], []
    for s, (tokens, text) in enumerate(zip(corpus.tokens, given)):
        if text is None:
            raise ValueError(f"{generated.places[order[s]]}: no 'text', where other documents give one; the gold's "
                             "tokens are located in the texts given, so every document needs its text")
        offsets = locate_tokens(list(tokens), text, f"{corpus.source}, sentence {s + 1}")
        texts.append(text)
        entities.append(to_characters(corpus.entities[s], offsets))
    return Corpus(texts, entities, corpus.sentence_ids, corpus.doc_ids, "text",
                  f"{corpus.format or 'tokens'} tokens located in the generated file's texts", corpus.source,
                  corpus.places, "characters", corpus.notes, checked=True)


def pair_documents(gold_ids: Sequence[str] | None, generated: Generated, gold_source: str, gold_size: int) -> list[int]:
    """For each gold document, the index of its generated document: by id when both sides have ids, else by order.

    Raises:
        ValueError: a document missing on either side, a gold id given twice, or (by order) a different number of
            documents.
    """
    if gold_ids is None or generated.ids is None:
        if len(generated) != gold_size:
            raise ValueError(f"{gold_source} has {gold_size} documents but {generated.source} has {len(generated)}; "
                             "without ids on both sides they are paired in order")
        return list(range(gold_size))
    index = {ident: k for k, ident in enumerate(generated.ids)}
    seen: set[str] = set()
    order = []
    for ident in gold_ids:
        if ident in seen:
            raise ValueError(f"{gold_source}: document id {ident!r} is given to two documents; documents are paired "
                             "by id, so each needs its own")
        seen.add(ident)
        if ident not in index:
            missing = [i for i in gold_ids if i not in index]
            raise ValueError(f"{generated.source}: no answer for document id {ident!r} ({plural(len(missing), 'gold document')} "
                             "without one); a document the model was not asked about cannot be scored")
        order.append(index[ident])
    extra = [ident for ident in generated.ids if ident not in seen]
    if extra:
        raise ValueError(f"{generated.places[index[extra[0]]]}: document id {extra[0]!r} is not in {gold_source} "
                         f"({len(extra)} answered documents without gold)")
    return order


def count_generated(
    predictions: Predictions,
    references: References,
    *,
    normalization: Normalization | str | None = None,
    multiset: bool = False,
    policy: str = "kth",
    fallback: bool = True,
    inner_last: bool = True,
    examples: int = 5,
    per_document: bool = False,
) -> GeneratedRun:
    """Steps 1 to 3 of :func:`score_generated`: the counts, and the located spans as a corpus of texts
    (``per_document``: with each document's string-protocol counts)."""
    generated = load_generated(predictions)
    counter = GeneratedCounter(normalization=normalization, multiset=multiset, policy=policy, fallback=fallback,
                               inner_last=inner_last, examples=examples, per_document=per_document)
    raw = references if isinstance(references, Corpus) else read_corpus(references)
    order = pair_documents(raw.sentence_ids, generated, raw.source, len(raw))
    gold = _gold(raw, generated, order)
    texts = gold.texts
    assert texts is not None
    # documents are named by id, or without ids by where their answer is (a file's line, counted from 1)
    ids = list(gold.sentence_ids) if gold.sentence_ids is not None else [generated.places[p] for p in order]
    located, padded = [], []
    for s, p in enumerate(order):
        text, given = texts[s], generated.texts[p]
        if given is not None and given != text:
            at = first_difference(given, text)
            raise ValueError(f"{generated.places[p]}: the text of document {s} differs from the gold's at "
                             f"character {at} (given {given[at:at + 10]!r}, gold {text[at:at + 10]!r}); answers are "
                             "scored only against the text they were made from")
        spans, padding = counter.add(ids[s], text, gold.entities[s], generated.answers[p])
        located.append(spans)
        padded.append(text + " " * padding if padding else text)
    gold = Corpus(padded, gold.entities, gold.sentence_ids, gold.doc_ids, gold.format, gold.conversion, gold.source,
                  gold.places, "characters", gold.notes, checked=True)
    corpus = Corpus(padded, located, gold.sentence_ids, gold.doc_ids, "generated",
                    f"generated strings placed on the gold texts (policy {policy})", generated.source, None,
                    "characters", checked=True)
    return GeneratedRun(gold, corpus, counter.counts(), counter.examples, len(gold), counter.strings.documents)


def strings_result(counts: GeneratedCounts, zero_division: ZeroDivision = "warn") -> dict[str, Any]:
    """The string protocol's scores: per type, micro (``overall_*``), macro, weighted and untyped, and counts."""
    result = summarize(counts.strings, zero_division)
    del result["overall_accuracy"]
    return result


def report(run: GeneratedRun) -> dict[str, Any]:
    """The ``generated`` entry of a result: the settings, the answers, where the mentions went (overall and per
    type), the gold entities of unparseable answers per type, and examples."""
    counts = run.counts
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
    return {
        "settings": {name: getattr(counts, name) for name in counts.SETTINGS},
        "documents": run.documents,
        "answers": sum(counts.answers.values()),
        "shapes": dict(counts.answers),
        "unparseable": counts.answers.get("unparseable", 0),
        "unparseable_ids": list(counts.unparseable_ids),
        "mentions": total.mentions,
        **{c: getattr(total, c) for c in CATEGORIES},
        "spans": total.spans,
        "unparseable_gold": sum(counts.unparseable.values()),
        "per_type": per_type,
        "examples": run.examples,
    }


def score_run(run: GeneratedRun, metric: str = "nested", *, zero_division: ZeroDivision = "warn",
              **options: Any) -> dict[str, Any]:
    """Steps 4 and 5 of :func:`score_generated` for a counted run."""
    texts = list(run.gold.texts or ())
    ids = list(run.gold.sentence_ids) if run.gold.sentence_ids is not None else [str(s) for s in range(len(texts))]
    pair = TextPair(texts, ids, list(run.located.entities), list(run.gold.entities),
                    {"predictions": [[] for _ in texts], "references": [[] for _ in texts]}, Report())
    return {
        "strings": strings_result(run.counts, zero_division),
        "located": score_pair(pair, metric, zero_division=zero_division, **options),
        "generated": report(run),
    }


def score_generated(
    predictions: Predictions,
    references: References,
    *,
    metric: str = "nested",
    normalization: Normalization | str | None = None,
    multiset: bool = False,
    policy: str = "kth",
    fallback: bool = True,
    inner_last: bool = True,
    zero_division: ZeroDivision = "warn",
    examples: int = 5,
    **options: Any,
) -> dict[str, Any]:
    """Both protocols for a generated system: the string protocol and located spans, side by side.

    Args:
        predictions: a generated-system file (JSON lines, see :mod:`nested_span_f1.answers.read`), its records
            as dicts, or a :class:`~nested_span_f1.answers.read.Generated`.
        references: the gold: a :class:`~nested_span_f1.formats.Corpus` or a file any reader takes.
        metric: how located spans are scored: ``"exact"``, ``"lenient"`` or ``"nested"``.
        normalization: the string protocol's normalisation (see
            :class:`~nested_span_f1.answers.normalize.Normalization`; default: UniversalNER's four steps).
        multiset: count a name as often as it is said (default: as sets, as UniversalNER does).
        policy, fallback, inner_last: how strings are placed (see :mod:`nested_span_f1.answers.locate`).
        zero_division: "warn", 0 or 1.
        examples: examples kept per category (not in the text, excess, unparseable).
        options: the metric's own options (``partial_weight``, ``min_iou``, ``length_bins``).

    Returns:
        ``{"strings": ..., "located": ..., "generated": ...}`` (see the module docstring).

    Raises:
        ValueError, TypeError: as :func:`pair_documents` and :func:`~nested_span_f1.answers.read.read_generated`.

    >>> from nested_span_f1 import Corpus
    >>> gold = Corpus(["The Beatles played in Liverpool ."], [[(4, 11, "ORG"), (22, 31, "LOC")]], unit="characters")
    >>> answers = [{"output": '[["The Beatles", "ORG"], ["Liverpool", "LOC"]]'}]
    >>> r = score_generated(answers, gold, metric="exact", zero_division=0)
    >>> r["strings"]["overall_f1"], r["located"]["overall_f1"]
    (1.0, 0.5)
    """
    run = count_generated(predictions, references, normalization=normalization, multiset=multiset, policy=policy,
                          fallback=fallback, inner_last=inner_last, examples=examples)
    return score_run(run, metric, zero_division=zero_division, **options)
