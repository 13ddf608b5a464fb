"""One answer counted against its gold document, as counts that add: what an evaluation harness (lm-eval,
inspect-ai, lighteval) computes once a sample and sums over the corpus.

:func:`count_answer` reads one answer the way :func:`~nested_span_f1.answers.score.score_answers`
reads a corpus of them (given ``labels``, the corpus's type inventory, it reads each answer exactly as one
corpus call does) and returns an :class:`AnswerTally`: the string protocol's and the reading's counts
(:meth:`~nested_span_f1.answers.counts.AnswerCounter.state`) and the located spans' counts under the
metric, each a flat dict of ints. Tallies add with ``+``, ``sum()`` and :func:`total` (one pass, for
thousands), pickle, round-trip through JSON (:meth:`AnswerTally.to_dict`), and :meth:`AnswerTally.result`
gives what one ``score_answers`` call on the same answers gives (but the examples, how documents were
paired and the located spans' alignment report, which are not counts), warning as it does when more than
5% of the answers could not be read.

Entity F1 is computed from the summed counts, never averaged over samples: a mean of per-sample F1 weighs a
sentence with one entity as much as one with twenty, and reads 0/0 (no gold, no answer) as whatever the
harness chose (docs/harnesses.md measures it).
"""
from __future__ import annotations

from bisect import bisect_right
from collections.abc import Collection, Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from functools import lru_cache
from typing import Any, NamedTuple

from ..align.project import joined_offsets, to_characters
from ..align.score import METRICS, words
from ..core.counts import Counts
from ..core.entities import check_entities
from ..core.scores import ZeroDivision, summarize
from ..core.wording import quote
from ..flat.pipeline import tags_to_spans
from ..formats.text import read_entity
from ..lenient.counts import LenientCounts
from ..lenient.matching import PAIR_KINDS
from ..lenient.score import OUTCOME, check_options, match_spans_lenient, summarize_lenient
from ..nested.nesting import CHARACTER_LENGTH_BINS, length_bucket_names
from ..nested.score import NestedCounts, bucket_names, summarize_nested
from .counts import AnswerCounter, AnswerCounts
from .read import read_answer
from .score import counts_report, reading_types, strings_result, warn_unreadable
from .values import TEXT_KEYS, Unreadable, mention_of

State = dict[tuple[Any, ...], int]
"""Flat counts: a key (a path of names, and of indices into a tally) to its number."""


class GoldDocument(NamedTuple):
    """One gold document as answers are scored against it: its text, its entities in characters (None for a gold
    of strings), its ``(string, label)`` pairs (None for a gold of offsets), its tokens' offsets (None for a
    text), and its id (None when it has none)."""

    text: str
    entities: list[tuple[int, int, str]] | None
    strings: list[tuple[str, str]] | None
    tokens: list[tuple[int, int]] | None
    id: str | None

    def labels(self) -> set[str]:
        """The types its gold uses."""
        return {item[-1] for item in (self.entities if self.entities is not None else self.strings or ())}


def gold_document(document: Mapping[str, Any], where: str = "gold") -> GoldDocument:
    """A gold document from a dataset's row (a dict), in one of the shapes NER datasets give:

    - ``{"text", "entities": [{"start", "end", "label"}, ...]}`` (or ``[start, end, label]`` items): character
      offsets, end exclusive;
    - ``{"text", "entities": [{"text", "label"}, ...]}`` (or ``[text, label]`` pairs): strings without offsets,
      placed on the text as the answers' strings are;
    - ``{"tokens", "tags"}``: IOB tags (decoded as the exact metric decodes them), the tokens joined by single
      spaces (an answer's token indices are placed on them);
    - ``{"tokens", "entities": [[start, end, label], ...]}``: token spans, end exclusive (nested allowed).

    An ``id`` names the document in the counts of answers that could not be read.

    Raises:
        TypeError, ValueError: a row of none of these shapes, or an entity that cannot be read (named by
            ``where`` and its position).
    """
    if not isinstance(document, Mapping):
        raise TypeError(f"{where}: a gold document is a dict (text and entities, or tokens and tags), got "
                        f"{quote(document)}")
    ident = None if document.get("id") is None else str(document["id"])
    if "tokens" in document:
        tokens = [str(token) for token in document["tokens"]]
        offsets = joined_offsets(tokens)
        if "tags" in document:
            spans = tags_to_spans([list(document["tags"])])[0]
        else:
            spans = [_span(item, where) for item in document.get("entities", ())]
        _check_spans(spans, len(tokens), where)
        return GoldDocument(" ".join(tokens), to_characters(spans, offsets), None, offsets, ident)
    text, items = document.get("text"), document.get("entities")
    if not isinstance(text, str) or not isinstance(items, list):
        raise TypeError(f"{where}: a gold document needs 'text' (a string) and 'entities' (a list), or 'tokens' "
                        f"and 'tags'; got the keys {sorted(document)}")
    if items and _is_string(items[0]):
        try:
            pairs = [tuple(mention_of(item)[:2]) for item in items]
        except Unreadable as error:
            raise ValueError(f"{where}: {error}") from None
        return GoldDocument(text, None, pairs, None, ident)  # type: ignore[arg-type]
    entities = [_span(item, where) for item in items]
    _check_spans(entities, len(text), where)
    return GoldDocument(text, entities, None, None, ident)


def _span(item: Any, where: str) -> Any:
    """A gold entity as a span: a ``[start, end, label]`` list (or tuple) as it is, anything else read as the text
    formats read an entity (``{"start", "end", "label"}``); the offsets and label checked after."""
    if type(item) in (list, tuple) and len(item) == 3:
        return tuple(item)
    return read_entity(item if isinstance(item, Mapping) else dict(zip(("start", "end", "label"), item)), where)


def _check_spans(spans: list[Any], length: int, where: str) -> None:
    """Refuse spans out of range, or with offsets that are not ints or a label that is not a string, as
    :func:`~nested_span_f1.core.entities.check_entities` does (which names the span); the plain loop first,
    since a document's few spans are checked in a fraction of the time arrays take."""
    if not _plain(spans, length):
        check_entities([spans], [length], where)
        if any(len(span) != 3 for span in spans):
            raise ValueError(f"{where}: a discontinuous entity (fragments) in a gold document; answers are counted one "
                             "document at a time against contiguous spans (score the corpus with score_answers)")


def _plain(spans: Sequence[Any], length: int) -> bool:
    """Whether every span is a ``(start, end, label)`` of int offsets in ``[0, length]`` (start before end) and a
    string label: what :func:`~nested_span_f1.core.entities.check_entities` accepts without a word."""
    return all(len(span) == 3 and type(span[0]) is int and type(span[1]) is int and 0 <= span[0] < span[1] <= length
               and type(span[2]) is str for span in spans)


def _is_string(item: Any) -> bool:
    """Whether a gold entity names its string rather than its offsets."""
    if isinstance(item, Mapping):
        return any(key in item for key in TEXT_KEYS) and "start" not in item
    return isinstance(item, (list, tuple)) and len(item) == 2 and isinstance(item[0], str)


@dataclass(frozen=True)
class AnswerTally:
    """Counts of answers under both protocols that add (see the module docstring).

    Attributes:
        metric: how the located spans are counted: ``"exact"``, ``"lenient"`` or ``"nested"``.
        settings: the reading's settings (:attr:`AnswerCounts.SETTINGS`, in order), the type inventory
            (``labels``, sorted; None: each document's own types) and the metric's options; tallies made with
            other settings do not add.
        answers: the string protocol's and the reading's counts
            (:meth:`~nested_span_f1.answers.counts.AnswerCounter.state`).
        located: the located spans' counts (the metric's counts as :func:`flatten` writes them; nested: but for
            the breakdowns' empty cells and those that follow from the others, which :meth:`located_counts`
            fills in).
        unparseable_ids: the documents whose answer could not be read, in the order added.
        documents: how many documents were counted.
    """

    metric: str
    settings: tuple[Any, ...]
    answers: State = field(default_factory=dict)
    located: State = field(default_factory=dict)
    unparseable_ids: tuple[str, ...] = ()
    documents: int = 0

    def __add__(self, other: AnswerTally) -> AnswerTally:
        if not isinstance(other, AnswerTally):
            return NotImplemented
        return total((self, other))

    def __radd__(self, other: Any) -> AnswerTally:
        # lets sum(tallies) start from 0
        if other == 0:
            return self
        return NotImplemented

    @property
    def options(self) -> dict[str, Any]:
        """The metric's options the tally was made with."""
        return dict(self.settings[-1])

    def counts(self) -> AnswerCounts:
        """The string protocol's and the reading's counts, as ``count_answers(...).counts`` gives them."""
        return AnswerCounts.from_state(self.answers, self.unparseable_ids, (*self.settings[:6], dict(self.settings[6])))

    def located_counts(self) -> Counts | NestedCounts | LenientCounts:
        """The located spans' counts under :attr:`metric` (nested: every breakdown cell, the empty ones filled in)."""
        options = self.options
        if self.metric == "nested":
            return NestedCounts.from_dict(unflatten(nested_cells(self.located, options.get("length_bins",
                                                                                          CHARACTER_LENGTH_BINS))))
        data = unflatten(self.located)
        if self.metric == "lenient":
            return LenientCounts.from_dict({**data, "partial_weight": options.get("partial_weight", 0.5),
                                            "min_iou": options.get("min_iou")})
        return Counts.from_dict(data)

    def result(self, zero_division: ZeroDivision = "warn", warn: bool = True) -> dict[str, Any]:
        """What ``score_answers`` gives on the same answers: ``strings``, ``located`` (without its ``alignment``
        report) and ``answers`` (without ``paired`` and ``examples``).

        Warns:
            UnreadableAnswersWarning: more than 5% of the answers could not be read (``warn``: True).
        """
        counts = self.counts()
        report = counts_report(counts, self.documents)
        located = self.located_counts()
        if isinstance(located, LenientCounts):
            scores = summarize_lenient(located, zero_division)
        elif isinstance(located, NestedCounts):
            scores = summarize_nested(located, zero_division)
        else:
            scores = summarize(located, zero_division)
            del scores["overall_accuracy"]
        if warn:
            warn_unreadable(report)
        return {"strings": strings_result(counts, zero_division), "located": scores, "answers": report}

    def to_dict(self) -> dict[str, Any]:
        """A JSON-safe dict (inverse of :meth:`from_dict`): the flat counts as ``[key..., n]`` rows."""
        settings = dict(zip(AnswerCounts.SETTINGS, self.settings))
        settings["label_map"] = dict(self.settings[6])
        settings["labels"] = None if self.settings[7] is None else list(self.settings[7])
        return {"metric": self.metric, "settings": settings, "options": self.options,
                "answers": [[*key, n] for key, n in self.answers.items()],
                "located": [[*key, n] for key, n in self.located.items()],
                "unparseable_ids": list(self.unparseable_ids), "documents": self.documents}

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> AnswerTally:
        """Rebuild a tally written by :meth:`to_dict`."""
        settings = data["settings"]
        return cls(data["metric"], _settings([settings[name] for name in AnswerCounts.SETTINGS],
                                             settings["labels"], data["options"]),
                   {tuple(row[:-1]): row[-1] for row in data["answers"]},
                   {tuple(row[:-1]): row[-1] for row in data["located"]}, tuple(data["unparseable_ids"]),
                   data["documents"])


def _settings(reading: Sequence[Any], labels: Collection[str] | None, options: Mapping[str, Any]) -> tuple[Any, ...]:
    """The settings tuple of a tally: hashable, and equal for equal settings however they were given."""
    *rest, label_map = reading
    return (*rest, tuple(sorted(dict(label_map).items())), None if labels is None else tuple(sorted(labels)),
            tuple(sorted((name, tuple(v) if isinstance(v, list) else v) for name, v in options.items())))


def total(tallies: Iterable[AnswerTally]) -> AnswerTally:
    """The sum of tallies in one pass (``sum()`` gives the same, building every partial sum on the way).

    Raises:
        ValueError: no tally, or tallies made with other metrics or settings.
    """
    first: AnswerTally | None = None
    answers: State = {}
    located: State = {}
    ids: list[str] = []
    documents = 0
    for tally in tallies:
        if first is None:
            first = tally
        elif (tally.metric, tally.settings) != (first.metric, first.settings):
            raise ValueError(f"cannot add counts made with metric {quote(tally.metric)} and settings "
                             f"{quote(tally.settings)} to counts made with metric {quote(first.metric)} and settings "
                             f"{quote(first.settings)}; count every answer with the same settings")
        for key, n in tally.answers.items():
            answers[key] = answers.get(key, 0) + n
        for key, n in tally.located.items():
            located[key] = located.get(key, 0) + n
        ids.extend(tally.unparseable_ids)
        documents += tally.documents
    if first is None:
        raise ValueError("no counts to add: count at least one answer")
    return AnswerTally(first.metric, first.settings, answers, located, tuple(ids), documents)


def flatten(data: Any, path: tuple[Any, ...] = ()) -> State:
    """A counts' :meth:`~nested_span_f1.core.counts.Mergeable.to_dict` as flat counts: each int under the path of
    keys (and list indices) that leads to it; the counts' settings (floats, None) left out."""
    if isinstance(data, Mapping):
        out: State = {}
        for key, value in data.items():
            out.update(flatten(value, (*path, key)))
        return out
    if isinstance(data, list):
        return {(*path, k): n for k, n in enumerate(data)}
    return {path: data} if isinstance(data, int) and not isinstance(data, bool) and path else {}


def unflatten(state: Mapping[tuple[Any, ...], int]) -> dict[str, Any]:
    """The inverse of :func:`flatten`: the nested dict (tallies as lists) a counts type's ``from_dict`` reads."""
    root: dict[Any, Any] = {}
    for key, n in state.items():
        node = root
        for part in key[:-1]:
            node = node.setdefault(part, {})
        node[key[-1]] = n
    return _lists(root)


def _lists(node: Any) -> Any:
    if not isinstance(node, dict):
        return node
    if node and all(isinstance(key, int) for key in node):
        return [node[k] for k in range(len(node))]
    return {key: _lists(value) for key, value in node.items()}


def exact_state(predicted: Sequence[tuple[int, int, str]], gold: Sequence[tuple[int, int, str]],
                under: tuple[str, ...] = ()) -> State:
    """The exact metric's counts of one document's contiguous spans, as :func:`flatten` writes
    ``count_entities(...).counts``: the same sets matched in plain Python, which for the few spans of one
    answer costs a hundredth of building arrays (held equal by tests/answers/test_answers_tally.py). ``under``:
    a path put before every key (the nested metric's counts hold them under ``counts``)."""
    pred, ref = set(predicted), set(gold)
    tallies: dict[str, list[int]] = {}
    for column, spans in ((1, pred), (2, ref), (0, pred & ref)):
        for span in spans:
            tallies.setdefault(span[2], [0, 0, 0])[column] += 1
    out: State = {}
    for label, row in tallies.items():
        out.update(zip(_label_keys(under, label), row))
    bounds = [{span[:2] for span in side} for side in (pred, ref)]
    out.update(zip(_document_keys(under), (len(bounds[0] & bounds[1]), len(bounds[0]), len(bounds[1]), 0, 0,
                                           _crossing(bounds[0]), _crossing(bounds[1]), 0, 0,
                                           len(predicted) - len(pred), len(gold) - len(ref))))
    return out


@lru_cache(maxsize=1024)
def _label_keys(under: tuple[str, ...], label: str) -> tuple[tuple[Any, ...], ...]:
    """The keys of a label's tally (true positives, predicted, gold) in the exact counts, under ``under``: made
    once for each of the corpus's few labels."""
    return tuple((*under, "labels", label, column) for column in range(3))


@lru_cache(maxsize=8)
def _document_keys(under: tuple[str, ...]) -> tuple[tuple[Any, ...], ...]:
    """The keys every document's exact counts have, but its labels' (the untyped tally, the tokens, the notes),
    under ``under``."""
    return tuple((*under, *key) for key in (
        ("untyped", 0), ("untyped", 1), ("untyped", 2), ("tokens",), ("correct_tokens",),
        ("notes", "crossing_predictions"), ("notes", "crossing_references"), ("notes", "discontinuous_predictions"),
        ("notes", "discontinuous_references"), ("notes", "duplicate_predictions"), ("notes", "duplicate_references")))


def _crossing(bounds: set[tuple[int, int]]) -> int:
    """Pairs of boundaries that overlap with neither inside the other."""
    if len(bounds) < 2:
        return 0
    spans = sorted(bounds)
    count = 0
    for k, (start, end) in enumerate(spans):
        for other_start, other_end in spans[k + 1:]:
            if other_start >= end:  # this one and those after start past its end
                break
            count += start < other_start and end < other_end
    return count


def nested_state(predicted: Sequence[tuple[int, int, str]], gold: Sequence[tuple[int, int, str]],
                 length_bins: Sequence[int] = CHARACTER_LENGTH_BINS) -> State:
    """The nested metric's counts of one document's contiguous spans, as :func:`flatten` writes
    ``count_entities(...)`` but for the breakdowns' cells :func:`nested_cells` fills in: :func:`exact_state`
    under ``counts``, and the breakdowns (nesting, depth, length) of each side's distinct spans, by plain loops
    over the few spans of one answer (held equal to the arrays' by tests/answers/test_answers_tally.py). Left out:
    the cells no span falls in, and those that follow from the others (every span is contiguous, and flat and of
    depth 1 unless counted nested and deeper), so that a tally carries, and :func:`total` sums, only the few
    cells its answer adds to."""
    sides = (set(predicted), set(gold))
    hits = sides[0] & sides[1]
    bins = tuple(length_bins)
    facts = []
    for column, side in ((0, sides[0]), (2, sides[1])):
        shape = _shapes(side)
        for span in side:
            nested, depth = shape.get(span, (False, 1))
            length = bisect_right(bins, span[1] - span[0]) - 1
            facts.append((column, nested, depth, length))
            if span in hits:
                facts.append((column + 1, nested, depth, length))
    out = exact_state(predicted, gold, ("counts",))
    out.update(_breakdowns(tuple(sorted(facts)), bins))  # copied in with the hashes of their keys
    return out


@lru_cache(maxsize=1024)
def _breakdowns(facts: tuple[tuple[int, bool, int, int], ...], length_bins: tuple[int, ...]) -> dict[tuple[Any, ...], int]:
    """The breakdowns' cells (nesting, depth, length) that one document's spans fall in, from their facts:
    ``(column, nested, depth, length bucket)`` for each distinct span, in column 0 (predicted) or 2 (gold), and
    again in the next (matched); but the flat and depth-1 cells (:func:`nested_cells` fills them in). Documents
    repeat the same few facts, so each set of them is counted once (the dict is read, never changed)."""
    lengths = length_bucket_names(length_bins)
    out: dict[tuple[Any, ...], int] = {}
    for column, nested, depth, length in facts:
        cells = [("by_length", lengths[length])]
        if nested:
            cells.append(("by_nesting", "nested"))
        if depth > 1:
            cells.append(("by_depth", str(depth)))
        for cell in cells:
            key = ("breakdowns", *cell, column)
            out[key] = out.get(key, 0) + 1
    return out


def nested_cells(state: Mapping[tuple[Any, ...], int], length_bins: Sequence[int] = CHARACTER_LENGTH_BINS) -> State:
    """Nested counts as :func:`nested_state` writes them (or any sum of them) with every breakdown cell the corpus
    call reports (:func:`~nested_span_f1.nested.score.bucket_names`, down to the deepest depth counted): the
    contiguous cells are each column's spans (from the labels' tallies), the flat and depth-1 ones those spans
    but the nested and deeper ones, the rest 0 where no span fell. The flat form of the
    :class:`~nested_span_f1.nested.score.NestedCounts` of the same spans."""
    deepest = max((int(key[2]) for key in state if key[:2] == ("breakdowns", "by_depth")), default=1)
    cells = {("breakdowns", breakdown, name, column): 0 for breakdown, names in bucket_names(deepest, length_bins).items()
             for name in names for column in range(4)}
    spans = [0, 0, 0, 0]  # predicted, matched predicted, gold, matched gold: the label tallies' columns 1, 0, 2, 0
    for key, n in state.items():
        if key[:2] == ("counts", "labels"):
            for column in ((1, 3), (0,), (2,))[key[3]]:
                spans[column] += n
    for column, n in enumerate(spans):
        cells["breakdowns", "by_continuity", "contiguous", column] = n
        cells["breakdowns", "by_nesting", "flat", column] = n - state.get(("breakdowns", "by_nesting", "nested", column), 0)
        cells["breakdowns", "by_depth", "1", column] = n - sum(state.get(("breakdowns", "by_depth", str(depth), column), 0)
                                                               for depth in range(2, deepest + 1))
    return {**cells, **state}


def _shapes(side: set[tuple[int, int, str]]) -> dict[tuple[int, int, str], tuple[bool, int]]:
    """The nested spans of a side, each with its nested flag (True: it contains, or lies inside, another) and depth
    (1 + the boundaries that contain it), as :func:`~nested_span_f1.nested.nesting.structure` computes them; the
    flat ones (not nested, depth 1) left out, and with them every span of a side where none overlaps the next
    (the common case, told by one sort)."""
    spans = sorted(side)
    for k in range(1, len(spans)):
        if spans[k][0] < spans[k - 1][1]:
            break
    else:
        return {}
    bounds = {span[:2] for span in spans}
    out = {}
    for span in spans:
        start, end = span[:2]
        around = sum(other[0] <= start and end <= other[1] for other in bounds) - 1
        inside = any(start <= other[0] and other[1] <= end for other in bounds if other != (start, end))
        if around or inside:
            out[span] = (True, 1 + around)
    return out


def located_state(metric: str, predicted: list[Any], gold: list[Any], text: str, options: Mapping[str, Any]) -> State:
    """One document's located spans counted under ``metric`` (``text``: its text, padded for the spans of
    mentions that could not be placed)."""
    if metric == "exact":
        return exact_state(predicted, gold)
    if metric == "nested":
        return nested_state(predicted, gold, options.get("length_bins", CHARACTER_LENGTH_BINS))
    partial_weight, min_iou = options.get("partial_weight", 0.5), options.get("min_iou")
    check_options(partial_weight, min_iou)
    state = lenient_state(predicted, gold, len(text), min_iou)
    if state is not None:
        return state
    pred, ref = (check_entities([side], [len(text)], name) for side, name in ((predicted, "predictions"),
                                                                           (gold, "references")))
    counts = match_spans_lenient(pred.spans, ref.spans, partial_weight=partial_weight, min_iou=min_iou,
                                 units=words([text])).counts()
    return flatten({name: value for name, value in counts.to_dict().items() if name not in LenientCounts.SETTINGS})


def lenient_state(predicted: Sequence[Any], gold: Sequence[Any], length: int, min_iou: float | None = None) -> State | None:
    """The lenient metric's counts of one document's spans (``length``: its text's, padded), as :func:`flatten`
    writes ``match_spans_lenient(...).counts()`` (its settings left out), when every overlapping pair overlaps
    nothing else: the matcher matches each such pair under every scheme, so the counts follow from the pairs
    alone, in plain loops over the few spans of one answer. None otherwise (a span overlapping two on the other
    side, a repeated span, a span the checks would refuse): the arrays count those (held equal to them by
    tests/answers/test_answers_tally.py)."""
    pred, ref = set(predicted), set(gold)
    if len(pred) != len(predicted) or len(ref) != len(gold) or not _plain(predicted, length) or not _plain(gold, length):
        return None
    pairs = _lone_pairs(pred, ref, min_iou)
    if pairs is None:
        return None
    labels = sorted({span[2] for span in pred} | {span[2] for span in ref})
    out: State = {}
    for scheme, outcome in OUTCOMES.items():
        rows = {label: [0, 0, 0, 0, 0, 0, 0, 0] for label in labels}
        for span in ref:
            rows[span[2]][3] += 1
        for span in pred:
            rows[span[2]][7] += 1
        for g, p, kind in pairs:
            rows[g[2]][outcome[kind]] += 1
            rows[p[2]][4 + outcome[kind]] += 1
        out.update({("schemes", scheme, label, k): n for label, row in rows.items() for k, n in enumerate(row)})
    kinds = [kind for _, _, kind in pairs]
    out.update({("breakdown", name): kinds.count(k) for k, name in enumerate(PAIR_KINDS)})
    out.update({("breakdown", "missed"): len(ref) - len(pairs), ("breakdown", "spurious"): len(pred) - len(pairs)})
    for g, p, _ in pairs:
        key = ("confusion", g[2], p[2])
        out[key] = out.get(key, 0) + 1
    out.update({("notes", "duplicate_predictions"): 0, ("notes", "duplicate_references"): 0})
    return out


def _lone_pairs(pred: set[Any], ref: set[Any], min_iou: float | None) -> list[tuple[Any, Any, int]] | None:
    """Every overlapping (gold, predicted) pair with its kind (:data:`PAIR_KINDS`' index), or None when a span
    overlaps two on the other side (then the matching is not read off the pairs)."""
    pairs = []
    for g in ref:
        for p in pred:
            overlap = min(g[1], p[1]) - max(g[0], p[0])
            if overlap > 0 and (min_iou is None or overlap / max(g[1] - g[0] + p[1] - p[0] - overlap, 1) >= min_iou):
                pairs.append((g, p, (g[:2] != p[:2]) * 2 + (g[2] != p[2])))
    if len({g for g, _, _ in pairs}) != len(pairs) or len({p for _, p, _ in pairs}) != len(pairs):
        return None
    return pairs


OUTCOMES = {scheme: table.tolist() for scheme, table in OUTCOME.items()}
"""Per scheme, a matched pair's outcome (0 correct, 1 incorrect, 2 partial) by its kind (:data:`PAIR_KINDS`)."""


OPTIONS = {"exact": (), "nested": ("length_bins",), "lenient": ("partial_weight", "min_iou")}
"""The options each metric takes."""


def _check(metric: str, options: Mapping[str, Any], answer: Any) -> None:
    """Refuse an unknown metric, an option the metric does not take, an answer that is neither text nor a list."""
    if metric not in METRICS:
        raise ValueError(f"metric must be one of {', '.join(METRICS)}, got {quote(metric)}")
    unknown = sorted(set(options) - set(OPTIONS[metric]))
    if unknown:
        raise TypeError(f"count_answer: {quote(unknown)} {'is not an option' if len(unknown) == 1 else 'are not options'}"
                        f" of the {metric} metric (it takes {quote(list(OPTIONS[metric]))})")
    if not isinstance(answer, (str, list, tuple)):
        raise TypeError(f"answer must be the model's answer (a string) or an entity list, got {quote(answer)}")


def count_answer(
    answer: str | Sequence[Any],
    gold: Mapping[str, Any] | GoldDocument,
    *,
    labels: Collection[str] | None = None,
    metric: str = "exact",
    question: str | None = None,
    id: str | None = None,
    normalization: str | None = None,
    multiset: bool = False,
    policy: str = "kth",
    fallback: bool = True,
    inner_last: bool = True,
    trust: str = "index",
    label_map: Mapping[str, str] | None = None,
    **options: Any,
) -> AnswerTally:
    """One answer read and counted against its gold document, as counts that add (see the module docstring).

    Args:
        answer: the model's raw answer (a string, read in any shape
            :func:`~nested_span_f1.answers.parse.parse_answer` reads), or an entity list (``{"text", "label"}``
            items).
        gold: the gold document (see :func:`gold_document`), a dataset's row.
        labels: the corpus's type inventory. Give it: without it, an answer is read with its own document's
            types only, and "... and June (MISC)" in a document whose gold has no MISC is not read as one corpus
            call reads it.
        metric: how the located spans are counted: ``"exact"`` (default), ``"lenient"`` or ``"nested"`` (with the
            nested breakdowns; its F1 is the exact one).
        question: the one type the question asked about (UniversalNER's per-type prompts), or None.
        id: names the document where its answer cannot be read (default: the gold's ``id``).
        normalization, multiset, policy, fallback, inner_last, trust, label_map: as ``score_answers``'s.
        options: the metric's own options (lenient: ``partial_weight``, ``min_iou``; nested: ``length_bins``).

    Raises:
        TypeError, ValueError: a gold document that cannot be read, a type of the gold that ``labels`` leaves out,
            an unknown metric or option, an answer that is neither a string nor a list.

    >>> gold = {"id": "d1", "text": "Ada met Alan in June.", "entities": [{"start": 0, "end": 3, "label": "PER"},
    ...                                                                   {"start": 8, "end": 12, "label": "PER"}]}
    >>> a = count_answer("Ada (PER)\\nJune (MISC)", gold, labels=["PER", "MISC"])
    >>> b = count_answer('[["Alan", "PER"]]', {**gold, "id": "d2"}, labels=["PER", "MISC"])
    >>> round((a + b).result(zero_division=0)["located"]["overall_f1"], 4), (a + b).documents
    (0.5714, 2)
    """
    _check(metric, options, answer)
    document = gold if isinstance(gold, GoldDocument) else gold_document(gold)
    ident = id if id is not None else document.id if document.id is not None else "answer"
    counter = AnswerCounter(normalization=normalization, multiset=multiset, policy=policy, fallback=fallback,
                               inner_last=inner_last, trust=trust, label_map=label_map, examples=0)
    types = reading_types(document.labels(), labels, f"gold {quote(ident)}", counter.label_map)
    read = read_answer((question, answer if isinstance(answer, str) else list(answer)), document.text, types)
    found = counter.add(ident, document.text, document.entities, [(question, read)], strings=document.strings,
                        tokens=document.tokens)
    padded = document.text + " " * found.padding
    return AnswerTally(metric, _settings(counter.settings, labels, options), counter.state(),
                       located_state(metric, found.spans, found.gold, padded, options),
                       tuple(counter.unparseable_ids), 1)


__all__ = ["AnswerTally", "GoldDocument", "count_answer", "gold_document", "total"]
