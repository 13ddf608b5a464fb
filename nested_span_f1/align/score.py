"""Score text spans: pair documents, project one side onto the other's tokens when needed, count every decision.

:func:`score_text` reads as the steps it runs:

1. pair documents by id (or order) and check that both sides hold the same
   text (:func:`pair_texts`); a side of tokens is located in the other side's
   text and its spans turned into characters, exactly;
2. trim whitespace at span edges when asked (``trim``), counting the spans changed;
3. place the character side's spans against the token side's tokens
   (:mod:`.project`), snapping them when asked (``snap``), counting each category;
4. score both sides in characters with the metric asked for, through the same
   core matcher and counts as token spans (``exact``: the flat exact-match
   scores; ``lenient``; ``nested``);
5. add the ``alignment`` report: every predicted span in exactly one category
   (``matched``, ``spurious``, ``duplicate``, or one that kept it from matching:
   ``boundary_inside_token``, ``boundary_between_tokens``, ``no_token``), every
   gold span likewise (``matched``, ``missed``, ``duplicate``, ...), the spans
   trimmed and snapped, what each side's reader counted (``read``: pipeline words unlike their text, ...),
   each side's suspicious entities (``suspicious``: labelled ``O``, or over blanks only; scored as given),
   and examples of each span that could not be aligned.
"""
from __future__ import annotations

import os
import re
import warnings
from collections import Counter
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, NamedTuple, Union

from ..core.counts import Counts
from ..core.entities import Entities, check_entities
from ..core.matching import DuplicateSpanWarning
from ..core.scores import ZeroDivision, summarize
from ..core.spans import spans_from_lists
from ..core.wording import quote
from ..flat.encoding import check_sides
from ..formats import Corpus, align, read_corpus
from ..formats.corpus import first_difference, in_characters, look_alike, paired_order, suspicious
from ..lenient.score import score_lenient
from ..nested.nesting import CHARACTER_LENGTH_BINS
from ..nested.score import count_entities, summarize_nested
from .project import CATEGORIES, Grid, check_snap, join_tokens, locate_tokens, to_characters
from .trim import trim_entities

Source = Union[Corpus, str, "os.PathLike[str]"]

METRICS = ("exact", "lenient", "nested")

SIDES = ("predictions", "references")


@dataclass
class Report:
    """What pairing and projecting did to each side: categories, trimmed and snapped spans, examples."""

    projected: str = ""
    """The side placed against the other side's tokens ("" when both sides are texts)."""
    snap: str | None = None
    trim: bool = False
    categories: dict[str, Counter[str]] = field(default_factory=lambda: {side: Counter() for side in SIDES})
    trimmed: Counter[str] = field(default_factory=Counter)
    snapped: Counter[str] = field(default_factory=Counter)
    examples: list[dict[str, Any]] = field(default_factory=list)
    read: dict[str, dict[str, int]] = field(default_factory=dict)
    """What each side's reader found and kept (pipeline words unlike their text, ...): ``Corpus.notes``."""
    limit: int = 5
    """Examples kept per side and category."""

    def example(self, side: str, category: str, where: Where, text: str, entity: Any) -> None:
        """Keep a span that could not be aligned, with where it is: the gold document's id (its position when it
        has none) and index, the prediction's id (or position) and index, and how the two were paired."""
        if self.categories[side][category] > self.limit:
            return
        start, end = (entity[0][0][0], entity[0][-1][1]) if len(entity) == 2 else (entity[0], entity[1])
        self.examples.append({
            "side": side, **where._asdict(), "category": category,
            "span": [list(map(list, entity[0])), entity[1]] if len(entity) == 2 else list(entity),
            "text": text[start:end], "context": text[max(0, start - 20):end + 20],
        })


class Where(NamedTuple):
    """Where an example is: the gold document (its id, None when it has none; its index from 0), the prediction
    paired with it (the same), and ``paired_by``: ``"id"`` or ``"order"``."""

    id: str | None
    document: int
    prediction_id: str | None
    prediction: int
    paired_by: str


@dataclass(frozen=True)
class TextPair:
    """Both sides in characters over the same texts, paired document by document, and the report so far.

    ``predictions`` and ``references`` hold every entity (those not aligned keep
    their characters); ``unaligned`` the entities of each side that could not be
    aligned to the other side's tokens (they can never match). ``tokens``: the
    offsets of the token side's tokens in each text, when a side was tokens.
    """

    texts: list[str]
    ids: list[str]
    predictions: list[Sequence[Any]]
    references: list[Sequence[Any]]
    unaligned: dict[str, list[list[Any]]]
    report: Report
    tokens: list[list[tuple[int, int]]] | None = None

    @property
    def lengths(self) -> list[int]:
        return [len(text) for text in self.texts]

    @property
    def units(self) -> list[list[tuple[int, int]]]:
        """Each text's tokens as offsets: the token side's, else its words (runs of non-whitespace), which are the
        tokens of a text of tokens joined by spaces. The lenient matching's last tie-break counts them."""
        return self.tokens if self.tokens is not None else words(self.texts)


def words(texts: Sequence[str]) -> list[list[tuple[int, int]]]:
    """The offsets of each text's words, its runs of non-whitespace (a text of tokens joined by spaces: its
    tokens)."""
    return [[match.span() for match in re.finditer(r"\S+", text)] for text in texts]


def _read(source: Source, side: str) -> Corpus:
    if isinstance(source, Corpus):
        return source
    if isinstance(source, (str, os.PathLike)):
        return read_corpus(source)
    raise TypeError(f"{side}: expected a Corpus or a file path, got {type(source).__name__}")


def _ids(corpus: Corpus) -> list[str]:
    return list(corpus.sentence_ids) if corpus.sentence_ids is not None else [str(s) for s in range(len(corpus))]


def pair_texts(predictions: Source, references: Source, *, trim: bool = False, snap: str | None = None,
               examples: int = 5) -> TextPair:
    """Pair two sides (corpora or files) as texts; see the module docstring.

    Two corpora of texts must hold the same text in each document; a corpus of
    tokens against one of texts is located in its texts (the tokens must spell
    the text, the whitespace between them aside: a token of whitespace is located on the text's own and
    counted, ``whitespace_tokens_located`` in the report's ``read``); two corpora of tokens are both joined by
    spaces.

    Raises:
        ValueError: documents missing on either side or given twice, texts that
            differ (naming the id and the first differing character), tokens not
            found in the text, ``snap`` without a side of tokens.
    """
    snap = check_snap(snap)
    pred, ref = _read(predictions, "predictions"), _read(references, "references")
    if pred.unit == ref.unit == "tokens":
        align(ref, pred)  # tokens that differ are named as tokens, before the texts they are joined into
        pred, ref = join_tokens(pred), join_tokens(ref)
    if snap is not None and pred.unit == ref.unit:
        raise ValueError(f"snap={quote(snap)} moves character spans to token boundaries, but both sides are texts; "
                         "give one side as tokens, or leave snap out")
    report = Report(snap=snap, trim=trim, limit=examples,
                    read={"predictions": dict(pred.notes), "references": dict(ref.notes)})
    if pred.unit == ref.unit:
        return _both_texts(pred, ref, report)
    return _projected(pred, ref, report)


def _both_texts(pred: Corpus, ref: Corpus, report: Report) -> TextPair:
    """Two sides of texts: documents paired, their texts held equal, the spans trimmed when the report says so."""
    texts = list(ref.texts)  # type: ignore[arg-type]
    sides = {"predictions": list(align(ref, pred).entities), "references": list(ref.entities)}
    unaligned: dict[str, list[list[Any]]] = {side: [[] for _ in texts] for side in SIDES}
    if report.trim:
        for side in SIDES:
            sides[side] = [_trimmed(report, side, text, ents) for text, ents in zip(texts, sides[side])]
    return TextPair(texts, _ids(ref), sides["predictions"], sides["references"], unaligned, report)


def _projected(pred: Corpus, ref: Corpus, report: Report) -> TextPair:
    """A side of tokens against a side of texts: the tokens located in each text and their spans turned into
    characters; the text side's spans trimmed when asked and placed against the tokens (snapped when asked),
    each counted in the report, those that could not be aligned kept apart."""
    ids = _ids(ref)
    paired_by = "id" if ref.sentence_ids is not None and pred.sentence_ids is not None else "order"
    gold_ids, pred_ids = ([None] * len(c) if c.sentence_ids is None else c.sentence_ids for c in (ref, pred))
    characters, tokens = ("predictions", "references") if pred.unit == "characters" else ("references", "predictions")
    report.projected = characters
    texts: list[str] = []
    sides: dict[str, list[Sequence[Any]]] = {side: [] for side in SIDES}
    unaligned: dict[str, list[list[Any]]] = {side: [] for side in SIDES}
    located = []
    for s, p in enumerate(paired_order(ref, pred)):
        text = str(pred.tokens[p] if characters == "predictions" else ref.tokens[s])
        token_strings = ref.tokens[s] if tokens == "references" else pred.tokens[p]
        where = f"{ref.sentence_word} {s} (id {quote(ids[s])})" if ref.sentence_ids is not None else f"document {s}"
        offsets = locate_tokens(list(token_strings), text, where)
        located.append(offsets)
        blank = sum(1 for token in token_strings if token.isspace())
        if blank:  # tokens of whitespace (U+3000 a line), each located on the text's own character: counted
            read = report.read[tokens]
            read["whitespace_tokens_located"] = read.get("whitespace_tokens_located", 0) + blank
        entities = {"predictions": pred.entities[p], "references": ref.entities[s]}
        sides[tokens].append(to_characters(entities[tokens], offsets))
        unaligned[tokens].append([])
        kept, lost = _placed(report, characters, text, entities[characters], Grid(offsets),
                             Where(gold_ids[s], s, pred_ids[p], p, paired_by))
        sides[characters].append(kept)
        unaligned[characters].append(lost)
        texts.append(text)
    return TextPair(texts, ids, sides["predictions"], sides["references"], unaligned, report, located)


def _placed(report: Report, side: str, text: str, entities: Sequence[Any], grid: Grid,
            where: Where) -> tuple[list[Any], list[Any]]:
    """A document's character spans trimmed (when asked) and placed against its tokens (snapped when asked), each
    counted in the report: every span as placed, and those that could not be aligned (kept as examples)."""
    kept, lost = [], []
    for entity in _trimmed(report, side, text, entities):
        placed = grid.place(entity, report.snap)
        report.categories[side][placed.category] += placed.category != "aligned"
        report.snapped[side] += placed.moved
        if placed.category != "aligned":
            lost.append(placed.entity)
            report.example(side, placed.category, where, text, placed.entity)
        kept.append(placed.entity)
    return kept, lost


def _trimmed(report: Report, side: str, text: str, entities: Sequence[Any]) -> list[Any]:
    if not report.trim:
        return list(entities)
    out, changed = trim_entities(text, entities)
    report.trimmed[side] += changed
    return out


Checked = dict[str, Entities]
"""Each side's entities, checked once (:func:`nested_span_f1.core.entities.check_entities`)."""


def _checked(sides: Mapping[str, Sequence[Any]], lengths: list[int]) -> Checked:
    return {side: check_entities(sides[side], lengths, side) for side in SIDES}


def _exact_counts(checked: Checked) -> Counts:
    """The exact-match counts of two checked sides, duplicates counted and not warned about (the metric warns)."""
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", DuplicateSpanWarning)
        return count_entities(checked["predictions"], checked["references"]).counts


def _hits(pair: TextPair, checked: Checked, counts: Counts | None) -> dict[str, dict[str, int]]:
    """Matched, duplicate and other distinct spans of each side, among the spans that could be aligned (the
    others never match): read from the metric's exact counts when every span was aligned."""
    if any(any(lost) for lost in pair.unaligned.values()):
        kept = {side: [[e for e in ents if e not in lost] if lost else ents
                       for ents, lost in zip(getattr(pair, side), pair.unaligned[side])] for side in SIDES}
        checked, counts = _checked(kept, pair.lengths), None
    counts = counts if counts is not None else _exact_counts(checked)
    total = counts.total
    out = {}
    for side, other, distinct in (("predictions", "spurious", total.predicted), ("references", "missed", total.gold)):
        given = len(checked[side].spans) + len(checked[side].fragmented)
        out[side] = {"matched": total.tp, other: distinct - total.tp, "duplicate": given - distinct}
    return out


def alignment(pair: TextPair, checked: Checked | None = None, counts: Counts | None = None) -> dict[str, Any]:
    """The ``alignment`` entry of a result: categories per side (they add up to the spans given), spans trimmed
    and snapped, examples of the spans not aligned. ``checked`` and ``counts`` (the exact counts of all spans),
    when the metric made them, are not made again."""
    report = pair.report
    checked = checked or _checked({side: getattr(pair, side) for side in SIDES}, pair.lengths)
    hits = _hits(pair, checked, counts)
    out: dict[str, Any] = {"projected": report.projected or None, "snap": report.snap, "trim": report.trim}
    for side in SIDES:
        categories = {**hits[side], **{c: report.categories[side][c] for c in CATEGORIES[1:]}}
        out[side] = {**categories, "total": sum(len(ents) for ents in getattr(pair, side))}
        out[f"trimmed_{side}"] = report.trimmed[side]
        out[f"snapped_{side}"] = report.snapped[side]
    out["read"] = {side: dict(report.read.get(side, {})) for side in SIDES}
    # the spans as scored: labels as given, and trimming or snapping never makes a span of blanks or unmakes one
    # (but contracting a span to a token of whitespace alone, which is then scored as one)
    out["suspicious"] = {side: suspicious(pair.texts, checked[side]) for side in SIDES}
    out["examples"] = list(report.examples)
    return out


def _exact(pair: TextPair, checked: Checked, zero_division: ZeroDivision, **options: Any) -> tuple[dict[str, Any],
                                                                                                  Counts]:
    counts = count_entities(checked["predictions"], checked["references"]).counts
    result = summarize(counts, zero_division)
    del result["overall_accuracy"]
    return result, counts


def _nested(pair: TextPair, checked: Checked, zero_division: ZeroDivision, **options: Any) -> tuple[dict[str, Any],
                                                                                                   Counts]:
    options.setdefault("length_bins", CHARACTER_LENGTH_BINS)
    counts = count_entities(checked["predictions"], checked["references"], **options)
    return summarize_nested(counts, zero_division), counts.counts


def _lenient(pair: TextPair, checked: Checked, zero_division: ZeroDivision, **options: Any) -> tuple[dict[str, Any],
                                                                                                    None]:
    """The lenient result; its last tie-break counts the texts' tokens (or words) a pair shares, not characters,
    so that texts of tokens give the token path's per-type counts."""
    pred, ref = checked["predictions"], checked["references"]
    result = score_lenient(pred.spans, ref.spans, zero_division=zero_division, units=pair.units, **options)
    # the lenient metric scores contiguous spans; say how many discontinuous entities it left out
    skipped = {"unscored_discontinuous_references": len(ref.fragmented),
               "unscored_discontinuous_predictions": len(pred.fragmented)}
    return {**result, **{key: value for key, value in skipped.items() if value}}, None


SCORERS: dict[str, Callable[..., tuple[dict[str, Any], Counts | None]]] = {
    "exact": _exact, "lenient": _lenient, "nested": _nested}


def score_pair(pair: TextPair, metric: str = "nested", *, zero_division: ZeroDivision = "warn",
               **options: Any) -> dict[str, Any]:
    """The metric's result for a :class:`TextPair`, with its ``alignment`` report."""
    if metric not in SCORERS:
        raise ValueError(f"metric must be one of {', '.join(METRICS)}, got {quote(metric)}")
    checked = _checked({side: getattr(pair, side) for side in SIDES}, pair.lengths)
    result, counts = SCORERS[metric](pair, checked, zero_division, **options)
    result["alignment"] = alignment(pair, checked, counts)
    return result


def score_text(
    predictions: Source,
    references: Source,
    *,
    metric: str = "nested",
    trim: bool = False,
    snap: str | None = None,
    zero_division: ZeroDivision = "warn",
    examples: int = 5,
    **options: Any,
) -> dict[str, Any]:
    """Scores of character spans (or of token spans against character spans), every alignment decision counted.

    Args:
        predictions, references: a :class:`~nested_span_f1.formats.Corpus` or a
            file any reader takes (text spans, pipeline output, brat, a DocBin,
            or token formats); documents are paired by id, or by order.
        metric: ``"exact"`` (flat exact-match scores: per type, micro, macro,
            weighted, untyped), ``"lenient"`` (MUC / SemEval-2013 schemes) or
            ``"nested"`` (exact scores with the nested, depth, length breakdowns;
            lengths in characters).
        trim: trim whitespace at the edges of both sides' spans first (the result
            says how many changed).
        snap: when one side is tokens, move the other side's spans that are not on
            token boundaries: ``"expand"`` or ``"contract"`` (spaCy's alignment
            modes); None keeps their characters, so they cannot match.
        zero_division: "warn", 0 or 1.
        examples: spans shown per side and category that could not be aligned.
        options: the metric's own options (``partial_weight``, ``min_iou``,
            ``length_bins``).

    Returns:
        The metric's result dict with an ``alignment`` entry (see the module docstring).

    >>> from nested_span_f1 import Corpus
    >>> gold = Corpus([["Peter", "Blackburn", "visited", "Paris"]], [[(0, 2, "PER"), (3, 4, "LOC")]])
    >>> pred = Corpus(["Peter Blackburn visited Paris"], [[(0, 15, "PER"), (24, 27, "LOC")]], unit="characters")
    >>> r = score_text(pred, gold, metric="exact", zero_division=0)
    >>> r["overall_f1"], r["alignment"]["predictions"]["boundary_inside_token"]
    (0.5, 1)
    >>> score_text(pred, gold, metric="exact", snap="expand")["overall_f1"]
    1.0
    """
    if metric not in SCORERS:
        raise ValueError(f"metric must be one of {', '.join(METRICS)}, got {quote(metric)}")
    pair = pair_texts(predictions, references, trim=trim, snap=snap, examples=examples)
    return score_pair(pair, metric, zero_division=zero_division, **options)


TEXT_KEYS = ("text", "entities")


def check_documents(predictions: Sequence[Any], references: Sequence[Any]) -> None:
    """Refuse anything but documents ``{"text": str, "entities": [span dicts]}`` on both sides whose spans are in
    the text's range, each prediction's text its reference's (documents pair by position).

    Raises:
        TypeError, ValueError: naming the side, the document (as a sentence, counted from 0), the key or value.
    """
    check_sides(predictions, references)
    check_document_side(predictions, "predictions")
    check_document_side(references, "references")
    for s, (pred, ref) in enumerate(zip(predictions, references)):
        if pred["text"] != ref["text"]:
            at = first_difference(pred["text"], ref["text"])
            raise ValueError(f"sentence {s}: the predicted text differs from the reference text at offset {at} "
                             f"(predicted {quote(pred['text'][at:at + 10])}, reference {quote(ref['text'][at:at + 10])}"
                             f"{look_alike(pred['text'], ref['text'], at)}); "
                             "a prediction is scored only against the text it was made on")


def check_document_side(side: Sequence[Any], name: str) -> None:
    """Refuse anything but documents ``{"text": str, "entities": [span dicts]}`` whose spans are in the text's range,
    on one side (``name``: ``predictions`` or ``references``, as messages name it)."""
    for s, document in enumerate(side):
        where = f"{name}, sentence {s}"
        if not isinstance(document, Mapping):
            raise TypeError(f"{where}: {quote(document)} is not a text ({{'text', 'entities'}} dict); give every "
                            "sentence of both sides as a text")
        if set(document) != set(TEXT_KEYS):
            raise ValueError(f"{where}: a text has the keys 'text' and 'entities' and nothing else, got "
                             f"{sorted(document)}")
        if not isinstance(document["text"], str):
            raise TypeError(f"{where}: 'text' must be a string, got {quote(document['text'])}")
        if isinstance(document["entities"], (str, bytes, Mapping)) or not isinstance(document["entities"], Sequence):
            raise TypeError(f"{where}: 'entities' must be a list of spans, got {quote(document['entities'])}")
    try:
        spans_from_lists([document["entities"] for document in side], [len(document["text"]) for document in side],
                         side=name)
    except ValueError as error:
        raise ValueError(in_characters(str(error))) from None


def score_documents(predictions: Sequence[Mapping[str, Any]], references: Sequence[Mapping[str, Any]],
                    metric: str = "nested", **options: Any) -> dict[str, Any]:
    """:func:`score_text` of documents given as ``{"text": ..., "entities": [{"start", "end", "label"}, ...]}``
    dicts (the evaluate modules' ``texts`` input), paired by position and checked by :func:`check_documents`."""
    check_documents(predictions, references)
    def corpus(documents: Sequence[Mapping[str, Any]], side: str) -> Corpus:
        entities = [[(e["start"], e["end"], e["label"]) for e in d["entities"]] for d in documents]
        return Corpus([d["text"] for d in documents], entities, source=side, unit="characters")

    return score_text(corpus(predictions, "predictions"), corpus(references, "references"), metric=metric, **options)
