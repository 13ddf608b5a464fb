"""The counts of an answer system that are not the located spans' own: the string protocol, where each mention
went, what each answer was read as. They add and serialise like every count here (``Mergeable``).

The located spans are scored by the exact, lenient or nested metric, whose counts
(``Counts``, ``LenientCounts``, ``NestedCounts``) are kept beside these.
"""
from __future__ import annotations

from collections import Counter
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, ClassVar, NamedTuple

from ..core.counts import Additive, Counts, Mergeable, Tally, frozen_mapping
from ..core.wording import quote
from .indices import TRUST, Offsets, place_indices
from .labels import check_label_map
from .locate import POLICIES, Span, locate
from .mention import Answer, Mention
from .normalize import Normalization
from .strings import TALLY, StringCounter


@dataclass(frozen=True)
class PlaceTally(Additive):
    """The mentions of one label by category (one field a category of
    :data:`~nested_span_f1.answers.locate.CATEGORIES`), and the spans they were placed on (more than the mentions
    under the ``every`` policy)."""

    mentions: int = 0
    markup: int = 0
    index: int = 0
    exact: int = 0
    normalized: int = 0
    not_in_text: int = 0
    excess: int = 0
    spans: int = 0


READING = ("skipped_lines", "declined_lines", "corrected_answers", "unreadable_items")
"""What reading the answers left out, counted: lines of prose, lines whose type slot says no entity, answers that
replaced a first list with a later one, items that could not be read."""

INDICES = ("disagree", "out_of_range", "without_tokens")
"""Token-index mentions counted (see :mod:`~nested_span_f1.answers.indices`): index and string disagree, indices
out of range, indices without gold tokens."""


@dataclass(frozen=True)
class AnswerCounts(Mergeable):
    """What an answer system's report is computed from, besides its located spans' counts.

    Attributes:
        strings: the string protocol's tallies per label (and untyped), as :class:`Counts`.
        placement: predicted label -> :class:`PlaceTally`.
        unparseable: gold label -> gold entities of documents (or one-type questions) whose answer could not
            be parsed: each is missed.
        answers: shape -> answers read as it (``unparseable`` included); see
            :data:`~nested_span_f1.answers.parse.SHAPES`.
        unparseable_ids: the documents whose answer (or an answer to one of their questions) could not be
            parsed, in reading order, each as often as it had an unparseable answer: by id, or where there are
            no ids, by the line of its answer (``"line 9"``).
        reading: what reading left out (:data:`READING`).
        indices: token-index mentions by what became of their indices (:data:`INDICES`).
        mapped: ``"person -> PER"`` -> mentions whose type the label map renamed.
        gold_placement: gold label -> :class:`PlaceTally` of the gold strings placed on the text (a gold given as
            strings without offsets; empty otherwise).
        normalization, multiset, policy, fallback, inner_last, trust, label_map: the settings the counts were
            made with; counts made with other settings do not add.

    >>> from nested_span_f1.core.counts import Tally
    >>> a = AnswerCounts(Counts({"PER": Tally(1, 1, 2)}), {"PER": PlaceTally(1, exact=1, spans=1)},
    ...                     {"LOC": 1}, {"list": 1, "unparseable": 1}, ("d2",))
    >>> (a + a).unparseable_ids, (a + a).placement["PER"].exact, AnswerCounts.from_dict(a.to_dict()) == a
    (('d2', 'd2'), 2, True)
    """

    LEAVES: ClassVar[Mapping[str, type]] = {"strings": Counts, "placement": PlaceTally, "gold_placement": PlaceTally}
    SETTINGS: ClassVar[tuple[str, ...]] = ("normalization", "multiset", "policy", "fallback", "inner_last", "trust",
                                           "label_map")

    strings: Counts = field(default_factory=Counts)
    placement: Mapping[str, PlaceTally] = field(default_factory=dict)
    unparseable: Mapping[str, int] = field(default_factory=dict)
    answers: Mapping[str, int] = field(default_factory=dict)
    unparseable_ids: tuple[str, ...] = ()
    reading: Mapping[str, int] = field(default_factory=dict)
    indices: Mapping[str, int] = field(default_factory=dict)
    mapped: Mapping[str, int] = field(default_factory=dict)
    gold_placement: Mapping[str, PlaceTally] = field(default_factory=dict)
    normalization: str = "lowercase+punctuation+articles+whitespace"
    multiset: bool = False
    policy: str = "kth"
    fallback: bool = True
    inner_last: bool = True
    trust: str = "index"
    label_map: Mapping[str, str] = field(default_factory=dict)

    def __post_init__(self) -> None:
        for name in ("placement", "unparseable", "answers", "reading", "indices", "mapped", "gold_placement",
                     "label_map"):
            object.__setattr__(self, name, frozen_mapping(getattr(self, name)))
        object.__setattr__(self, "unparseable_ids", tuple(self.unparseable_ids))

    @property
    def placed(self) -> PlaceTally:
        """All predicted labels pooled."""
        return sum(self.placement.values(), PlaceTally())

    @classmethod
    def from_state(cls, state: Mapping[tuple[str, ...], int], unparseable_ids: Sequence[str],
                   settings: Sequence[Any]) -> AnswerCounts:
        """The counts of a :meth:`AnswerCounter.state` (or of states added key by key), with the ids of the
        unparseable answers and the settings (:attr:`SETTINGS`, in order)."""
        strings: dict[str, list[int]] = {}
        untyped = [0, 0, 0]
        places: dict[str, Counter[tuple[str, str]]] = {"placement": Counter(), "gold_placement": Counter()}
        fields: dict[str, dict[str, int]] = {name: {} for name in STATE_FIELDS}
        for key, n in state.items():
            name = key[0]
            if name == "strings":
                strings.setdefault(key[1], [0, 0, 0])[TALLY.index(key[2])] = n
            elif name == "strings_untyped":
                untyped[TALLY.index(key[1])] = n
            elif name in places:
                places[name][key[1], key[2]] = n
            else:
                fields[name][key[1]] = n
        return cls(Counts({label: Tally(*t) for label, t in strings.items()}, Tally(*untyped)),
                   _tallies(places["placement"]), fields["unparseable"], fields["answers"], tuple(unparseable_ids),
                   fields["reading"], fields["indices"], fields["mapped"], _tallies(places["gold_placement"]),
                   *settings)


STATE_FIELDS = ("unparseable", "answers", "reading", "indices", "mapped")
"""The counters of a :class:`AnswerCounter` keyed by one name each (a label, a shape, a category)."""


def covered(text: str, entity: Any) -> str:
    """The gold string of an entity: the text at its offsets (a discontinuous entity's fragments joined by a space)."""
    if len(entity) == 3:
        return text[entity[0]:entity[1]]
    return " ".join(text[start:end] for start, end in entity[0])


class Located(NamedTuple):
    """A document's located spans, its gold spans, and how far they reach past its text.

    A mention that could not be placed (``not_in_text``, ``excess``) is a false
    positive. So that every metric (exact, lenient, nested, and the benchmark)
    counts it as one, it becomes a span after the end of the text, as long as
    its string, one character apart from the text and from the others: no gold
    span can be there. A gold string that could not be placed (a gold given as
    strings) is a span past those, which no prediction can match. ``padding`` is
    the characters those spans need past the text's end (0 when all were placed).
    """

    spans: list[Span]
    gold: list[Any]
    padding: int


ReadAnswer = tuple[str | None, Answer]
"""One answer of a document, read, and the type its question asked about (None: every type)."""


class AnswerCounter:
    """Counts an answer system document by document: the string protocol, the placement of every mention, the
    shapes of the answers, what reading them left out and those that could not be parsed; :meth:`add` returns the
    document's located spans.

    >>> from nested_span_f1.answers.parse import parse_answer
    >>> counter = AnswerCounter()
    >>> counter.add("d1", "Obama met Obama in Paris.", [(0, 5, "PER"), (19, 24, "LOC")],
    ...             [(None, parse_answer('[["Obama", "PER"], ["Rome", "LOC"]]'))]).spans
    [(0, 5, 'PER'), (26, 30, 'LOC')]
    >>> c = counter.counts()
    >>> c.strings.labels["PER"], c.placement["LOC"].not_in_text
    (Tally(tp=1, predicted=1, gold=1), 1)
    """

    def __init__(self, *, normalization: Normalization | str | None = None, multiset: bool = False,
                 policy: str = "kth", fallback: bool = True, inner_last: bool = True, trust: str = "index",
                 label_map: Mapping[str, str] | None = None, examples: int = 5, per_document: bool = False) -> None:
        if policy not in POLICIES:
            raise ValueError(f"policy must be one of {', '.join(POLICIES)}, got {quote(policy)}")
        if trust not in TRUST:
            raise ValueError(f"trust must be one of {', '.join(TRUST)}, got {quote(trust)}")
        self.strings = StringCounter(normalization, multiset, per_document)
        self.policy, self.fallback, self.inner_last, self.limit = policy, bool(fallback), bool(inner_last), examples
        self.trust, self.label_map = trust, check_label_map(label_map)
        self.tallies: Counter[tuple[str, ...]] = Counter()
        """Every count but the string protocol's, under its key in :meth:`state`: ``("placement", label,
        category)`` -> mentions (``category`` ``"spans"``: the spans placed), ``("gold_placement", label,
        category)``, and ``(name, key)`` for the counters of :data:`STATE_FIELDS`."""
        self.unparseable_ids: list[str] = []
        self.examples: list[dict[str, Any]] = []
        self._shown: Counter[str] = Counter()

    def _example(self, category: str, ident: str, line: str | None, **fields: Any) -> None:
        if self._shown[category] < self.limit:
            self._shown[category] += 1
            where = {"line": line} if line is not None and line != ident else {}
            self.examples.append({"category": category, "id": ident, **where, **fields})

    def _read(self, ident: str, lines: Sequence[str | None], answers: Sequence[ReadAnswer],
              labels: list[str]) -> list[Mention]:
        """Count how each answer was read (its shape, what it left out, whether it could be read at all) and
        return the mentions of all, in the answers' order, renamed by the label map."""
        mentions: list[Mention] = []
        for line, (question, answer) in zip(lines, answers):
            self.tallies["answers", answer.shape] += 1
            if answer.error is not None:
                self.unparseable_ids.append(ident)
                self.tallies.update(("unparseable", label) for label in labels if question is None or label == question)
                self._example("unparseable", ident, line, label=question, error=answer.error)
                continue
            for name, kept in (("skipped_lines", answer.skipped), ("declined_lines", answer.declined),
                               ("unreadable_items", answer.unreadable)):
                if kept:
                    self.tallies["reading", name] += len(kept)
                    for text in kept:
                        self._example(name, ident, line, text=text)
            if answer.corrected:
                self.tallies["reading", "corrected_answers"] += 1
                self._example("corrected_answers", ident, line, text=" | ".join(answer.corrected))
            mentions.extend(answer.mentions)
        if self.label_map and any(m.label in self.label_map for m in mentions):
            renamed = []
            for mention in mentions:
                target = self.label_map.get(mention.label)
                if target is not None:
                    self.tallies["mapped", f"{mention.label} -> {target}"] += 1
                    mention = mention._replace(label=target)
                renamed.append(mention)
            mentions = renamed
        return mentions

    def add(self, ident: str, text: str, gold: Sequence[Any] | None, answers: Sequence[ReadAnswer], *,
            strings: Sequence[tuple[str, str]] | None = None, tokens: Offsets | None = None,
            lines: Sequence[str | None] | None = None) -> Located:
        """Count one document and return the spans its mentions were placed on (see :class:`Located`). All its
        answers' mentions are placed together, in the answers' order.

        Args:
            ident: the document's id (or its line, without ids), as the counts and examples name it.
            text: the document's text.
            gold: its gold entities in characters; None for a gold given as ``strings`` (``(string, label)``
                pairs), which are placed on the text as the mentions are.
            answers: its questions' types and their answers, read.
            tokens: the gold tokens' ``(start, end)`` in the text, for mentions with token indices (None: a gold
                of texts).
            lines: where each of its answers is (``"line 9"``), for the examples.
        """
        lines = [None] * len(answers) if lines is None else lines
        opening = lines[0] if lines else None
        if gold is None:
            gold_pairs = list(strings or ())
            gold_spans, gold_missed = self._gold(ident, opening, text, gold_pairs)
        else:
            gold_pairs = [(covered(text, e), e[-1]) for e in gold]
            gold_spans, gold_missed = list(gold), []
        mentions = self._read(ident, lines, answers, [label for _, label in gold_pairs])
        self.strings.add([(m.text, m.label) for m in mentions], gold_pairs)
        fixed = None
        if any(m.tokens is not None for m in mentions):
            found = place_indices(text, mentions, tokens, self.trust)
            fixed = found.fixed
            self.tallies["indices", "without_tokens"] += found.without_tokens
            origin = _said(lines, answers)
            for name, where in (("disagree", found.disagree), ("out_of_range", found.out_of_range)):
                self.tallies["indices", name] += len(where)
                for i in where:
                    first, last = mentions[i].tokens  # type: ignore[misc]
                    at = {"at": text[tokens[first][0]:tokens[last][1]]} if name == "disagree" else {}  # type: ignore[index]
                    self._example(name, ident, origin[i], label=mentions[i].label, text=mentions[i].text,
                                  tokens=[first, last], **at)
        plain = answers[0][1].plain if len(answers) == 1 else None
        placement = locate(text, mentions, policy=self.policy, fallback=self.fallback, inner_last=self.inner_last,
                           plain=plain, fixed=fixed)
        self.tallies.update(("placement", m.label, category) for m, category in zip(mentions, placement.categories))
        self.tallies.update(("placement", label, "spans") for *_, label in placement.spans)
        spans, end = placement.spans, len(text)
        if placement.missed:
            for mention, category, said in zip(mentions, placement.categories, _said(lines, answers)):
                if category in ("not_in_text", "excess"):
                    self._example(category, ident, said, label=mention.label, text=mention.text)
                    spans, end = _past(spans, end, mention.text, mention.label)
        for string, label in gold_missed:
            gold_spans, end = _past(gold_spans, end, string, label)
        return Located(spans, gold_spans, end - len(text))

    def _gold(self, ident: str, line: str | None, text: str, pairs: list[tuple[str, str]]) -> tuple[list[Span], list[tuple[str, str]]]:
        """Gold strings placed on the text as mentions are: the spans, and the strings that could not be placed."""
        placement = locate(text, pairs, policy=self.policy, fallback=self.fallback, inner_last=self.inner_last)
        self.tallies.update(("gold_placement", label, category)
                            for (_, label), category in zip(pairs, placement.categories))
        self.tallies.update(("gold_placement", label, "spans") for *_, label in placement.spans)
        missed = [pair for pair, category in zip(pairs, placement.categories) if category in ("not_in_text", "excess")]
        for string, label in missed:
            self._example("gold_not_placed", ident, line, label=label, text=string)
        return placement.spans, missed

    def state(self) -> dict[tuple[str, ...], int]:
        """The counts so far as one flat dict, ``(counter, key...) -> n``: the string protocol's tallies
        (:meth:`~nested_span_f1.answers.strings.StringCounter.state`), ``("placement", label, category)``,
        ``("gold_placement", label, category)`` and ``(name, key)`` for the counters of :data:`STATE_FIELDS`.
        States of documents add key by key into the state of all of them (:meth:`AnswerCounts.from_state`
        turns either into counts)."""
        out = self.strings.state()
        out.update(self.tallies)
        return out

    @property
    def settings(self) -> tuple[Any, ...]:
        """The settings the counts are made with (:attr:`AnswerCounts.SETTINGS`, in order)."""
        return (self.strings.normalization.name, self.strings.multiset, self.policy, self.fallback, self.inner_last,
                self.trust, self.label_map)

    def counts(self) -> AnswerCounts:
        """The counts so far."""
        return AnswerCounts.from_state(self.state(), self.unparseable_ids, self.settings)


def _said(lines: Sequence[str | None], answers: Sequence[ReadAnswer]) -> list[str | None]:
    """Where each mention of a document's answers was said: the line of its answer."""
    return [line for line, (_, answer) in zip(lines, answers) for _ in answer.mentions]


def _past(spans: list[Any], end: int, string: str, label: str) -> tuple[list[Any], int]:
    """``spans`` with one more span past ``end`` (one character apart), as long as ``string``; the new end."""
    size = max(len(string), 1)
    return [*spans, (end + 1, end + 1 + size, label)], end + 1 + size


def _tallies(placement: Counter[tuple[str, str]]) -> dict[str, PlaceTally]:
    by_label: dict[str, dict[str, int]] = {}
    for (label, category), n in placement.items():
        by_label.setdefault(label, {})[category] = n
    return {label: PlaceTally(mentions=sum(n for c, n in t.items() if c != "spans"), **t)
            for label, t in by_label.items()}
