"""The counts of a generated system that are not the located spans' own: the string protocol, where each mention
went, what each answer was read as. They add and serialise like every count here (``Mergeable``).

The located spans are scored by the exact, lenient or nested metric, whose counts
(``Counts``, ``LenientCounts``, ``NestedCounts``) are kept beside these.
"""
from __future__ import annotations

from collections import Counter
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, ClassVar, NamedTuple

from ..core.counts import Additive, Counts, Mergeable, frozen_mapping
from .locate import POLICIES, Span, locate
from .normalize import Normalization
from .parse import Answer, Mention
from .strings import StringCounter


@dataclass(frozen=True)
class PlaceTally(Additive):
    """The mentions of one predicted label by category (one field a category of
    :data:`~nested_span_f1.answers.locate.CATEGORIES`), and the spans they were placed on (more than the mentions
    under the ``every`` policy)."""

    mentions: int = 0
    markup: int = 0
    exact: int = 0
    normalized: int = 0
    not_in_text: int = 0
    excess: int = 0
    spans: int = 0

    @property
    def placed(self) -> int:
        return self.markup + self.exact + self.normalized


@dataclass(frozen=True)
class GeneratedCounts(Mergeable):
    """What a generated system's report is computed from, besides its located spans' counts.

    Attributes:
        strings: the string protocol's tallies per label (and untyped), as :class:`Counts`.
        placement: predicted label -> :class:`PlaceTally`.
        unparseable: gold label -> gold entities of documents (or one-type questions) whose answer could not
            be parsed: each is missed.
        answers: shape -> answers read as it (``unparseable`` included); see
            :data:`~nested_span_f1.answers.parse.SHAPES`.
        unparseable_ids: the documents whose answer (or an answer to one of their questions) could not be
            parsed, in reading order, each as often as it had an unparseable answer: by id, or where there are
            no ids, by where the answer is (``"answers.jsonl, line 9"``).
        normalization, multiset, policy, fallback, inner_last: the settings the counts were made with; counts
            made with other settings do not add.

    >>> from nested_span_f1.core.counts import Tally
    >>> a = GeneratedCounts(Counts({"PER": Tally(1, 1, 2)}), {"PER": PlaceTally(1, exact=1, spans=1)},
    ...                     {"LOC": 1}, {"list": 1, "unparseable": 1}, ("d2",))
    >>> (a + a).unparseable_ids, (a + a).placement["PER"].exact, GeneratedCounts.from_dict(a.to_dict()) == a
    (('d2', 'd2'), 2, True)
    """

    LEAVES: ClassVar[Mapping[str, type]] = {"strings": Counts, "placement": PlaceTally}
    SETTINGS: ClassVar[tuple[str, ...]] = ("normalization", "multiset", "policy", "fallback", "inner_last")

    strings: Counts = field(default_factory=Counts)
    placement: Mapping[str, PlaceTally] = field(default_factory=dict)
    unparseable: Mapping[str, int] = field(default_factory=dict)
    answers: Mapping[str, int] = field(default_factory=dict)
    unparseable_ids: tuple[str, ...] = ()
    normalization: str = "lowercase+punctuation+articles+whitespace"
    multiset: bool = False
    policy: str = "kth"
    fallback: bool = True
    inner_last: bool = True

    def __post_init__(self) -> None:
        for name in ("placement", "unparseable", "answers"):
            object.__setattr__(self, name, frozen_mapping(getattr(self, name)))
        object.__setattr__(self, "unparseable_ids", tuple(self.unparseable_ids))

    @property
    def placed(self) -> PlaceTally:
        """All predicted labels pooled."""
        return sum(self.placement.values(), PlaceTally())



Question = tuple[str | None, Answer]
"""One answer of a document and the type its question asked about (None: every type)."""


def covered(text: str, entity: Any) -> str:
    """The gold string of an entity: the text at its offsets (a discontinuous entity's fragments joined by a space)."""
    if len(entity) == 3:
        return text[entity[0]:entity[1]]
    return " ".join(text[start:end] for start, end in entity[0])


class Located(NamedTuple):
    """A document's located spans, and how far they reach past its text.

    A mention that could not be placed (``not_in_text``, ``excess``) is a false
    positive. So that every metric (exact, lenient, nested, and the benchmark)
    counts it as one, it becomes a span after the end of the text, as long as
    its string, one character apart from the text and from the others: no gold
    span can be there. ``padding`` is the characters those spans need past the
    text's end (0 when every mention was placed).
    """

    spans: list[Span]
    padding: int


class GeneratedCounter:
    """Counts a generated system document by document: the string protocol, the placement of every mention, the
    shapes of the answers and those that could not be parsed; :meth:`add` returns the document's located spans.

    >>> from nested_span_f1.answers.parse import parse_answer
    >>> counter = GeneratedCounter()
    >>> counter.add("d1", "Obama met Obama in Paris.", [(0, 5, "PER"), (19, 24, "LOC")],
    ...             [(None, parse_answer('[["Obama", "PER"], ["Rome", "LOC"]]'))])
    Located(spans=[(0, 5, 'PER'), (26, 30, 'LOC')], padding=5)
    >>> c = counter.counts()
    >>> c.strings.labels["PER"], c.placement["LOC"].not_in_text
    (Tally(tp=1, predicted=1, gold=1), 1)
    """

    def __init__(self, *, normalization: Normalization | str | None = None, multiset: bool = False,
                 policy: str = "kth", fallback: bool = True, inner_last: bool = True, examples: int = 5,
                 per_document: bool = False) -> None:
        if policy not in POLICIES:
            raise ValueError(f"policy must be one of {', '.join(POLICIES)}, got {policy!r}")
        self.strings = StringCounter(normalization, multiset, per_document)
        self.policy, self.fallback, self.inner_last, self.limit = policy, bool(fallback), bool(inner_last), examples
        self.placement: Counter[tuple[str, str]] = Counter()
        """(label, category) -> mentions; (label, "spans") -> spans placed."""
        self.unparseable: Counter[str] = Counter()
        self.answers: Counter[str] = Counter()
        self.unparseable_ids: list[str] = []
        self.examples: list[dict[str, Any]] = []
        self._shown: Counter[str] = Counter()

    def _example(self, category: str, **fields: Any) -> None:
        if self._shown[category] < self.limit:
            self._shown[category] += 1
            self.examples.append({"category": category, **fields})

    def add(self, ident: str, text: str, gold: Sequence[Any], answers: Sequence[Question]) -> Located:
        """Count one document (its text, gold entities and answers) and return the spans its mentions were placed
        on (see :class:`Located`). All its answers' mentions are placed together, in the answers' order."""
        mentions: list[Mention] = []
        for question, answer in answers:
            if answer.error is not None and answer.plain is not None and answer.plain.strip() == text.strip():
                answer = Answer((), "tags", plain=answer.plain)  # the text with no tag: inline tags naming nothing
            self.answers[answer.shape] += 1
            if answer.error is not None:
                self.unparseable_ids.append(ident)
                self.unparseable.update(e[-1] for e in gold if question is None or e[-1] == question)
                self._example("unparseable", id=ident, label=question, error=answer.error)
            mentions.extend(answer.mentions)
        self.strings.add([(m.text, m.label) for m in mentions], [(covered(text, e), e[-1]) for e in gold])
        plain = answers[0][1].plain if len(answers) == 1 else None
        placement = locate(text, mentions, policy=self.policy, fallback=self.fallback, inner_last=self.inner_last,
                           plain=plain)
        self.placement.update(zip([m.label for m in mentions], placement.categories))
        self.placement.update((label, "spans") for *_, label in placement.spans)
        spans, end = placement.spans, len(text)
        if placement.missed:
            for mention, category in zip(mentions, placement.categories):
                if category in ("not_in_text", "excess"):
                    self._example(category, id=ident, label=mention.label, text=mention.text)
                    size = max(len(mention.text), 1)
                    spans = [*spans, (end + 1, end + 1 + size, mention.label)]
                    end += 1 + size
        return Located(spans, end - len(text))

    def counts(self) -> GeneratedCounts:
        """The counts so far."""
        tallies: dict[str, dict[str, int]] = {}
        for (label, category), n in self.placement.items():
            tallies.setdefault(label, {})[category] = n
        placement = {label: PlaceTally(mentions=sum(n for c, n in t.items() if c != "spans"), **t)
                     for label, t in tallies.items()}
        return GeneratedCounts(
            self.strings.counts(), placement,
            dict(self.unparseable), dict(self.answers), tuple(self.unparseable_ids), self.strings.normalization.name,
            self.strings.multiset, self.policy, self.fallback, self.inner_last,
        )

