"""The string protocol: per document and type, the answers' strings against the gold strings, normalised.

This is how UniversalNER (and GNER after it) score a generative model: for each
document and type, the normalised strings the model gave are compared with the
normalised strings of the gold entities, as **sets** (a name said twice counts
once, on both sides); a true positive is a predicted string that is among the
gold strings. Over a corpus the counts are summed per type, and precision,
recall and F1 are computed from the sums (micro over types, as UniversalNER
reports; macro and weighted as for every metric here). ``multiset=True`` counts
a name as often as it is said, on both sides (a true positive is then the
smaller of the two counts).

Untyped counts compare the strings with types ignored (per document, as sets or
multisets): they tell type errors from strings that are wrong.
"""
from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Sequence

from ..core.counts import Counts, Tally
from .normalize import Normalization

Pair = tuple[str, str]
"""A string and its label."""


class StringCounter:
    """Per-type tallies of the string protocol, added document by document; :meth:`counts` gives :class:`Counts`.

    >>> counter = StringCounter()
    >>> counter.add([("Obama", "PER"), ("the U.S.", "LOC"), ("Paris", "PER")], [("obama", "PER"), ("US", "LOC"),
    ...             ("Paris", "LOC")])
    >>> counter.counts().labels["LOC"], counter.counts().untyped
    (Tally(tp=1, predicted=1, gold=2), Tally(tp=3, predicted=3, gold=3))
    """

    def __init__(self, normalization: Normalization | str | None = None, multiset: bool = False,
                 per_document: bool = False) -> None:
        self.normalization = Normalization.parse(normalization)
        self.multiset = bool(multiset)
        self._labels: dict[str, list[int]] = {}
        self._untyped = [0, 0, 0]
        self.documents: list[dict[str, tuple[int, int, int]]] | None = [] if per_document else None
        """With ``per_document``: each document's (tp, predicted, gold) per label, in the order added (the
        benchmark resamples them)."""

    def add(self, predicted: Iterable[Pair], gold: Iterable[Pair]) -> None:
        """Count one document: its answers' ``(string, label)`` pairs against its gold pairs."""
        norm = self.normalization
        pred = [(label, norm(text)) for text, label in predicted]
        ref = [(label, norm(text)) for text, label in gold]
        document, untyped = (_multisets if self.multiset else _sets)(pred, ref)
        totals = self._labels
        for label, (tp, p, g) in document.items():
            tally = totals.setdefault(label, [0, 0, 0])
            tally[0] += tp
            tally[1] += p
            tally[2] += g
        for k in range(3):
            self._untyped[k] += untyped[k]
        if self.documents is not None:
            self.documents.append({label: (t[0], t[1], t[2]) for label, t in document.items()})

    def counts(self) -> Counts:
        """The tallies so far (labels seen on either side) as :class:`~nested_span_f1.core.counts.Counts`."""
        return Counts({label: Tally(*t) for label, t in self._labels.items()}, Tally(*self._untyped))

    def state(self) -> dict[tuple[str, ...], int]:
        """The tallies so far as flat counts: ``("strings", label, "tp" | "predicted" | "gold")`` and
        ``("strings_untyped", ...)`` (see :meth:`~nested_span_f1.answers.counts.AnswerCounter.state`)."""
        out: dict[tuple[str, ...], int] = {("strings", label, name): n for label, t in self._labels.items()
                                           for name, n in zip(TALLY, t)}
        out.update({("strings_untyped", name): n for name, n in zip(TALLY, self._untyped)})
        return out


TALLY = ("tp", "predicted", "gold")
"""The numbers of a :class:`~nested_span_f1.core.counts.Tally`, in its order."""


def _sets(pred: list[Pair], ref: list[Pair]) -> tuple[dict[str, list[int]], tuple[int, int, int]]:
    """One document's (tp, predicted, gold) per label and untyped, the strings taken as sets."""
    pred_set, ref_set = set(pred), set(ref)
    tallies: dict[str, list[int]] = {}
    for label, _ in pred_set:
        tallies.setdefault(label, [0, 0, 0])[1] += 1
    for label, _ in ref_set:
        tallies.setdefault(label, [0, 0, 0])[2] += 1
    for label, _ in pred_set & ref_set:
        tallies[label][0] += 1
    strings_pred, strings_ref = {s for _, s in pred_set}, {s for _, s in ref_set}
    return tallies, (len(strings_pred & strings_ref), len(strings_pred), len(strings_ref))


def _multisets(pred: list[Pair], ref: list[Pair]) -> tuple[dict[str, list[int]], tuple[int, int, int]]:
    """As :func:`_sets`, a string counted as often as it is said."""
    pred_count, ref_count = Counter(pred), Counter(ref)
    tallies: dict[str, list[int]] = {}
    for (label, _), n in pred_count.items():
        tallies.setdefault(label, [0, 0, 0])[1] += n
    for (label, _), n in ref_count.items():
        tallies.setdefault(label, [0, 0, 0])[2] += n
    for (label, _), n in (pred_count & ref_count).items():
        tallies[label][0] += n
    strings_pred = Counter(s for _, s in pred)
    strings_ref = Counter(s for _, s in ref)
    both = sum((strings_pred & strings_ref).values())
    return tallies, (both, len(pred), len(ref))


def count_strings(
    predictions: Sequence[Iterable[Pair]],
    references: Sequence[Iterable[Pair]],
    *,
    normalization: Normalization | str | None = None,
    multiset: bool = False,
) -> Counts:
    """String-protocol counts of documents given as lists of ``(string, label)`` pairs, one list a document.

    >>> count_strings([[("The Beatles", "ORG")]], [[("Beatles", "ORG"), ("Beatles", "ORG")]]).labels["ORG"]
    Tally(tp=1, predicted=1, gold=1)
    >>> count_strings([[("The Beatles", "ORG")]], [[("Beatles", "ORG")] * 2], multiset=True).labels["ORG"]
    Tally(tp=1, predicted=1, gold=2)
    """
    if len(predictions) != len(references):
        raise ValueError(f"{len(predictions)} documents of predictions but {len(references)} of references")
    counter = StringCounter(normalization, multiset)
    for pred, ref in zip(predictions, references):
        counter.add(pred, ref)
    return counter.counts()
