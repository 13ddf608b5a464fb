"""Lenient span scores: MUC / SemEval-2013 Task 9.1 schemes over an optimal one-to-one matching.

For each scheme (strict, exact, partial, type; docs/DESIGN.md, 'Lenient schemes') gold spans and
predictions are matched one to one, only overlapping pairs, by the matching that
maximises the scheme's credit COR + w*PAR, then COR, then the number of pairs.
The counts of every optimal matching are the same, so the numbers do not depend
on the order the spans are listed in. The error breakdown and the confusion
counts come from one canonical matching (correct pairs, then same-boundary
pairs, then same-label pairs, then pairs, then shared tokens).

Precision of a label is the credit of the pairs whose PREDICTED label it is over
the predictions with that label; recall is the credit of pairs whose GOLD label
it is over the gold spans with that label; so per-label numerators add up to the
overall ones. Duplicates are removed per sentence first and counted, so the
strict scheme equals exact-match span F1.
"""
from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from numbers import Real
from typing import Any

import numpy as np

from ..core.matching import ExactMatch, match_exact
from ..core.scores import ZeroDivision, check_zero_division, precision_recall_f1
from ..core.spans import SpanArrays, spans_from_lists
from ..core.wording import quote
from ..flat.encoding import LabelList, check_sides
from ..flat.kinds import first_kind
from ..flat.pipeline import decode_pair
from .counts import BREAKDOWN, LENIENT_SCHEMES, LenientCounts, LenientTally
from .matching import PAIR_KINDS, Pairs, Units, candidate_pairs, match_lenient

_COR, _INC, _PAR = 0, 1, 2
OUTCOME = {
    "strict": np.array([_COR, _INC, _INC, _INC]),
    "exact": np.array([_COR, _COR, _INC, _INC]),
    "partial": np.array([_COR, _COR, _PAR, _PAR]),
    "type": np.array([_COR, _INC, _COR, _INC]),
}
"""The outcome of a matched pair under each scheme (0 correct, 1 incorrect, 2 partial), by the pair's kind
(:data:`~nested_span_f1.lenient.matching.PAIR_KINDS`)."""

Error = list[Any]
"""``[sentence, gold span or None, predicted span or None, category]``; spans are ``[start, end, label]``."""


@dataclass(frozen=True)
class LenientMatch:
    """Both sides deduplicated, their overlapping pairs, and each objective's matched pairs."""

    predictions: SpanArrays
    references: SpanArrays
    pairs: Pairs
    chosen: dict[str, np.ndarray]
    partial_weight: float
    min_iou: float | None
    notes: dict[str, int]

    def counts(self) -> LenientCounts:
        """The mergeable counts of this match."""
        ref, pred, pairs = self.references, self.predictions, self.pairs
        labels = ref.labels
        n_lab = len(labels)
        possible = np.bincount(ref.label, minlength=n_lab)
        actual = np.bincount(pred.label, minlength=n_lab)
        seen = np.flatnonzero(possible + actual)
        schemes = {}
        for scheme in LENIENT_SCHEMES:
            mask = self.chosen[scheme]
            outcome = OUTCOME[scheme][pairs.kind[mask]]
            gold = np.bincount(ref.label[pairs.gold[mask]] * 3 + outcome, minlength=3 * n_lab).reshape(n_lab, 3)
            predicted = np.bincount(pred.label[pairs.pred[mask]] * 3 + outcome, minlength=3 * n_lab).reshape(n_lab, 3)
            schemes[scheme] = {labels[i]: _tally(gold[i], int(possible[i]), predicted[i], int(actual[i])) for i in seen}
        mask = self.chosen["canonical"]
        kinds = np.bincount(pairs.kind[mask], minlength=len(PAIR_KINDS))
        matched = int(mask.sum())
        breakdown = dict(zip(PAIR_KINDS, map(int, kinds)), missed=len(ref) - matched, spurious=len(pred) - matched)
        cells = np.bincount(ref.label[pairs.gold[mask]] * n_lab + pred.label[pairs.pred[mask]], minlength=n_lab * n_lab)
        confusion: dict[str, dict[str, int]] = {}
        for cell in np.flatnonzero(cells):
            confusion.setdefault(labels[cell // n_lab], {})[labels[cell % n_lab]] = int(cells[cell])
        return LenientCounts(schemes, breakdown, confusion, self.partial_weight, self.min_iou, self.notes)

    def cases(self) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        """Every outcome of the canonical matching: its gold span and prediction (row indices, -1 for none) and its
        :data:`~nested_span_f1.lenient.counts.BREAKDOWN` category index (a pair's kind, as PAIR_KINDS are
        BREAKDOWN's first four); pairs first, then missed, then spurious."""
        pairs, mask = self.pairs, self.chosen["canonical"]
        missed = np.setdiff1d(np.arange(len(self.references)), pairs.gold[mask])
        spurious = np.setdiff1d(np.arange(len(self.predictions)), pairs.pred[mask])
        none = np.full(len(missed) + len(spurious), -1)
        gold = np.concatenate([pairs.gold[mask], missed, none[len(missed):]])
        pred = np.concatenate([pairs.pred[mask], none[:len(missed)], spurious])
        category = np.concatenate([pairs.kind[mask], np.full(len(missed), BREAKDOWN.index("missed")),
                                   np.full(len(spurious), BREAKDOWN.index("spurious"))])
        return gold.astype(np.int64), pred.astype(np.int64), category.astype(np.int64)

    def errors(self) -> list[Error]:
        """Every outcome of the canonical matching except correct pairs, by sentence and position."""
        ref, pred = self.references, self.predictions
        gold_spans = _span_lists(ref)
        pred_spans = _span_lists(pred)
        sentence_of_gold, sentence_of_pred = ref.sentence.tolist(), pred.sentence.tolist()
        out: list[Error] = []
        for g, p, kind in zip(*(part.tolist() for part in self.cases())):
            if BREAKDOWN[kind] != "correct":
                sentence = sentence_of_gold[g] if g >= 0 else sentence_of_pred[p]
                out.append([sentence, gold_spans[g] if g >= 0 else None, pred_spans[p] if p >= 0 else None,
                            BREAKDOWN[kind]])

        def position(error: Error) -> tuple[Any, ...]:
            first = error[1] or error[2]
            return error[0], first[0], first[1], first[2], BREAKDOWN.index(error[3]), error[2] or []

        return sorted(out, key=position)


def _span_lists(side: SpanArrays) -> list[list[Any]]:
    names = side.labels
    return [[b, e, names[lab]] for b, e, lab in zip(side.start.tolist(), side.end.tolist(), side.label.tolist())]


def _tally(gold: np.ndarray, possible: int, predicted: np.ndarray, actual: int) -> LenientTally:
    """A label's tally from its (correct, incorrect, partial) rows on the gold and prediction sides."""
    g, p = gold.tolist(), predicted.tolist()
    return LenientTally(correct=g[0], incorrect=g[1], partial=g[2], possible=possible, predicted_correct=p[0],
                        predicted_incorrect=p[1], predicted_partial=p[2], actual=actual)


def check_options(partial_weight: Any, min_iou: Any) -> None:
    if isinstance(partial_weight, bool) or not isinstance(partial_weight, Real) or not 0 <= float(partial_weight) <= 1:
        raise ValueError(f"partial_weight must be a number from 0 to 1 (credit of a partial match), got {quote(partial_weight)}")
    if min_iou is not None and (isinstance(min_iou, bool) or not isinstance(min_iou, Real) or not 0 <= float(min_iou) <= 1):
        raise ValueError(f"min_iou must be None (any overlap) or a number from 0 to 1, got {quote(min_iou)}")


def match_spans_lenient(
    predictions: SpanArrays | ExactMatch,
    references: SpanArrays | None = None,
    *,
    partial_weight: float = 0.5,
    min_iou: float | None = None,
    notes: dict[str, int] | None = None,
    units: Units | None = None,
) -> LenientMatch:
    """Deduplicate both sides per sentence and find every objective's optimal matching.

    ``predictions`` may be an :class:`~nested_span_f1.core.matching.ExactMatch` already
    made (then ``references`` is left out): its distinct spans are matched, with no
    second exact matching. ``notes`` (such as the invalid chunks of decoded tags)
    are kept beside the duplicate counts. ``units`` (per sentence, the tokens or
    words of a text whose spans are in characters) make the last tie-break count
    shared units instead of shared offsets (:func:`.matching.candidate_pairs`).

    Raises:
        ValueError: the sides have different numbers of sentences, or an option is
            out of range.
    """
    check_options(partial_weight, min_iou)
    # the exact matcher's distinct spans, sorted by (sentence, start, end, label): the canonical
    # order the lenient matching is invariant under
    if isinstance(predictions, ExactMatch):
        exact = predictions
    elif references is None:
        raise TypeError("match_spans_lenient needs references, or an ExactMatch in their place")
    else:
        exact = match_exact(predictions, references)
    pred, ref = exact.predictions, exact.references
    pairs = candidate_pairs(pred, ref, min_iou, units)
    chosen = match_lenient(pairs, len(ref), len(pred), float(partial_weight))
    notes = {**exact.notes, **(notes or {})}
    return LenientMatch(predictions=pred, references=ref, pairs=pairs, chosen=chosen, partial_weight=float(partial_weight),
                        min_iou=None if min_iou is None else float(min_iou), notes=notes)


def read_sides(
    predictions: Any,
    references: Any,
    *,
    scheme: str | None = None,
    mode: str | None = None,
    suffix: bool = False,
    label_list: LabelList | None = None,
) -> tuple[SpanArrays, SpanArrays, dict[str, int]]:
    """Both sides as :class:`SpanArrays`, from tag sequences, span lists or SpanArrays.

    Tag sequences (or label ids with ``label_list``) are decoded exactly as
    ``span_f1`` decodes them; the returned notes count the chunks the mode repaired
    or dropped. Span lists hold ``{"start", "end", "label"}`` dicts or
    ``(start, end, label)`` tuples per sentence, half-open.

    Raises:
        ValueError: a bad span or tag (the message names side, sentence and value),
            sides of different lengths, or tag options given with span lists.
        TypeError: input that is neither.
    """
    if isinstance(predictions, SpanArrays) and isinstance(references, SpanArrays):
        return predictions, references, {}
    check_sides(predictions, references)
    # the references, then the predictions: the first item that has a kind decides (tags and ids go to the
    # tag decoder, which names a None tag as a tag, and asks integer ids for a label_list)
    if label_list is not None or first_kind(references, predictions) in ("tags", "ids"):
        decoded = decode_pair(predictions, references, scheme=scheme, mode=mode, suffix=suffix, label_list=label_list)
        return decoded.predictions, decoded.references, dict(decoded.notes)
    if scheme is not None or mode is not None or suffix:
        raise ValueError("scheme, mode and suffix apply to tag sequences, but the input is span lists")
    pred = spans_from_lists(predictions, side="predictions")
    ref = spans_from_lists(references, side="references")
    return pred, ref, {}


def _scores(tallies: Sequence[LenientTally], weight: float, zero_division: ZeroDivision) -> list[dict[str, Any]]:
    """P/R/F1 and counts of tallies: precision from predicted labels, recall from gold labels."""
    if not tallies:
        return []
    precision, recall, f1 = precision_recall_f1(
        [t.predicted_correct + weight * t.predicted_partial for t in tallies], [t.actual for t in tallies],
        [t.correct + weight * t.partial for t in tallies], [t.possible for t in tallies], zero_division,
    )
    return [
        {
            "precision": float(p), "recall": float(r), "f1": float(f),
            "correct": t.correct, "incorrect": t.incorrect, "partial": t.partial, "missed": t.missed,
            "spurious": t.spurious, "possible": t.possible, "actual": t.actual,
            "predicted_correct": t.predicted_correct, "predicted_incorrect": t.predicted_incorrect,
            "predicted_partial": t.predicted_partial,
        }
        for t, p, r, f in zip(tallies, precision, recall, f1)
    ]


_OVERALL_KEYS = ("precision", "recall", "f1", "correct", "incorrect", "partial", "missed", "spurious", "possible", "actual")


def summarize_lenient(counts: LenientCounts, zero_division: ZeroDivision = "warn") -> dict[str, Any]:
    """The result dict of the lenient metric, from counts.

    Keys: ``{s}_precision``, ``{s}_recall``, ``{s}_f1``, ``{s}_correct``,
    ``{s}_incorrect``, ``{s}_partial``, ``{s}_missed``, ``{s}_spurious``,
    ``{s}_possible``, ``{s}_actual`` for s in strict, exact, partial, type; the
    breakdown ``correct``, ``type_error``, ``boundary_error``,
    ``boundary_type_error``, ``missed``, ``spurious``; ``per_type`` (label ->
    scheme -> P/R/F1 and counts, where ``correct``/``incorrect``/``partial``/
    ``missed``/``possible`` count gold spans of the label and
    ``predicted_*``/``spurious``/``actual`` count its predictions); ``confusion``
    (gold label -> predicted label -> pairs); then the notes (duplicates, invalid
    chunks). Python ints and floats only.
    """
    check_zero_division(zero_division)
    # every scheme's total and per-type tallies in one set of divisions (one warning at most)
    rows = [(scheme, None, counts.total(scheme)) for scheme in LENIENT_SCHEMES] + [
        (scheme, label, tally) for scheme in LENIENT_SCHEMES for label, tally in counts.schemes[scheme].items()
    ]
    scored = _scores([tally for _, _, tally in rows], counts.partial_weight, zero_division)
    result: dict[str, Any] = {}
    per_type: dict[str, dict[str, Any]] = {}
    for (scheme, label, _), scores in zip(rows, scored):
        if label is None:
            result.update({f"{scheme}_{key}": scores[key] for key in _OVERALL_KEYS})
        else:
            per_type.setdefault(label, {})[scheme] = scores
    result.update(counts.breakdown)
    result["per_type"] = per_type
    result["confusion"] = {gold: dict(row) for gold, row in counts.confusion.items()}
    result.update(counts.notes)
    return result


def count_lenient(
    predictions: Any,
    references: Any,
    *,
    partial_weight: float = 0.5,
    min_iou: float | None = None,
    **decoding: Any,
) -> LenientCounts:
    """Mergeable lenient counts of one batch; input and options as :func:`score_lenient`.

    >>> c = count_lenient([[(0, 2, "PER")]], [[(0, 3, "PER")]])
    >>> c.total("partial").partial, c.breakdown["boundary_error"]
    (1, 1)
    """
    pred, ref, notes = read_sides(predictions, references, **decoding)
    return match_spans_lenient(pred, ref, partial_weight=partial_weight, min_iou=min_iou, notes=notes).counts()


def score_lenient(
    predictions: Any,
    references: Any,
    *,
    partial_weight: float = 0.5,
    min_iou: float | None = None,
    zero_division: ZeroDivision = "warn",
    return_errors: bool = False,
    scheme: str | None = None,
    mode: str | None = None,
    suffix: bool = False,
    label_list: LabelList | None = None,
    units: Units | None = None,
) -> dict[str, Any]:
    """Lenient entity scores (strict, exact, partial, type), error breakdown, per type.

    Args:
        predictions, references: per sentence, span lists (``{"start", "end",
            "label"}`` dicts or ``(start, end, label)`` tuples, half-open; overlap
            and nesting allowed) or tag sequences (``"B-PER"``..., or label ids
            with ``label_list``), or :class:`SpanArrays`.
        partial_weight: credit of a partial match, from 0 to 1 (default 0.5).
        min_iou: None (any shared token) or the least intersection over union a
            pair needs to be matched.
        zero_division: "warn", 0 or 1, as in scikit-learn.
        return_errors: add ``errors``, a list of ``[sentence, gold span, predicted
            span, category]`` (spans ``[start, end, label]`` or None) for every
            outcome of the canonical matching except correct pairs.
        scheme, mode, suffix, label_list: how tag sequences are decoded (as span_f1).
        units: when spans are character offsets into texts, each text's tokens
            (or words) as ``(start, end)`` offsets: the matching's last tie-break
            (docs/DESIGN.md, 'The optimal matching') counts the units a pair
            shares rather than characters, so that texts of tokens give the per-type
            counts their tokens give. The overall counts never depend on it.

    Returns:
        The dict :func:`summarize_lenient` describes (plus ``errors``).

    >>> r = score_lenient([[(0, 2, "PER"), (3, 5, "ORG")]], [[(0, 2, "PER"), (3, 4, "ORG")]])
    >>> r["strict_f1"], r["partial_correct"], r["partial_partial"], r["type_f1"], r["boundary_error"]
    (0.5, 1, 1, 1.0, 1)
    """
    check_zero_division(zero_division)
    pred, ref, notes = read_sides(predictions, references, scheme=scheme, mode=mode, suffix=suffix, label_list=label_list)
    match = match_spans_lenient(pred, ref, partial_weight=partial_weight, min_iou=min_iou, notes=notes, units=units)
    result = summarize_lenient(match.counts(), zero_division)
    if return_errors:
        result["errors"] = match.errors()
    return result


__all__ = [
    "LENIENT_SCHEMES", "OUTCOME", "LenientCounts", "LenientMatch", "LenientTally",
    "count_lenient", "match_spans_lenient", "read_sides", "score_lenient", "summarize_lenient",
]
