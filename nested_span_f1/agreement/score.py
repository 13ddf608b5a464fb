"""``agreement()``: how far annotators agree, and how far a model is from them.

The design: docs/DESIGN.md, 'Agreement between annotators'.

It reads as the steps it runs:

1. read every set and pair the documents (:mod:`.annotations`): documents some
   set lacks are listed and left out, texts that differ are refused;
2. match every pair of annotators exactly, leniently and with types ignored
   (:mod:`.spans`), per resampling unit and type;
3. resample the units (documents, or sentences without document ids) with the
   benchmark's bootstrap for the interval of the mean pairwise F1, and of each
   set's F1 against the reference;
4. label every position (token or character) with its IOB2 tag and compute
   Cohen's kappa per pair, Fleiss' kappa and Krippendorff's alpha (:mod:`.chance`);
5. count the disagreements by kind and, when asked, show examples (:mod:`.disagreements`).
"""
from __future__ import annotations

import numbers
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from itertools import combinations
from typing import Any

import numpy as np

from ..benchmark.options import check_level, check_rounds, check_seed
from ..benchmark.stats import bootstrap_sums, interval, prf
from ..core.caller import warn_caller
from ..core.matching import DuplicateSpanWarning
from ..core.wording import quote
from ..formats import Corpus
from ..formats.offsets import CODEPOINTS, check_unit
from ..formats.registry import refuse_offsets
from . import disagreements
from .annotations import Named, Source, Table, check_distinct, document_table, named_sets, read_set, restrict
from .chance import Tagging, cohen_kappa, fleiss_kappa, krippendorff_alpha
from .spans import MODES, PairCounts, count_pair, figures, mean_f1

TYPED = ("exact", "lenient")
"""The modes with figures per type (``untyped`` ignores types)."""


def _units(table: Table, shared: np.ndarray) -> tuple[np.ndarray, list[str]]:
    """The resampling unit of every shared document (0, 1, ... in order of appearance) and the units' names: the
    documents' larger documents when the first set names them, else the documents themselves."""
    names = [ident for ident, keep in zip(table.doc_ids or table.ids, shared) if keep]
    first: dict[str, int] = {}
    return np.array([first.setdefault(name, len(first)) for name in names], dtype=np.int64), list(first)


def _check_examples(value: Any) -> int:
    if isinstance(value, bool) or not isinstance(value, numbers.Integral):
        raise TypeError(f"examples must be an integer, got {value!r}")
    if value < 0:
        raise ValueError(f"examples must be 0 or more, got {value}")
    return int(value)


def _samples(counted: Mapping[str, PairCounts], n_resamples: int, seed: int) -> dict[str, dict[str, np.ndarray]]:
    """The bootstrap F1s of every key and mode (``[n_resamples]`` each), from one set of draws of the units."""
    keys = list(counted)
    columns = [counted[key].matrices[mode].sum(axis=2) for mode in MODES for key in keys]
    sums = bootstrap_sums(np.concatenate(columns, axis=1), n_resamples, seed).reshape(n_resamples, -1, 3)
    f1 = prf(sums[..., 0], sums[..., 1], sums[..., 2])[2]
    return {key: {mode: f1[:, m * len(keys) + k] for m, mode in enumerate(MODES)} for k, key in enumerate(keys)}


def _bounds(samples: Sequence[np.ndarray], confidence: float) -> list[float]:
    """``[low, high]``: the percentile interval of the mean of the samples (one array a figure)."""
    low, high = interval(np.mean(np.stack(samples), axis=0), confidence)
    return [float(low), float(high)]


def _reference(sets: Sequence[Named], ref: int, rows: Sequence[int], counted: Mapping[str, PairCounts],
               samples: Mapping[str, Mapping[str, np.ndarray]], units: list[str], confidence: float) -> dict[str, Any]:
    """Each set's figures against the reference, by mode, with the interval of its F1; and the annotators' mean."""
    out: dict[str, Any] = {"name": sets[ref].name, "is_annotator": sets[ref].role == "annotator",
                           "annotators": {}, "models": {}}
    for k in rows:
        name = sets[k].name
        entry = {}
        for mode in MODES:
            scored = figures([name], [counted[name].matrices[mode]], None, units)["pairwise"][name]
            entry[mode] = {**scored, "interval": _bounds([samples[name][mode]], confidence)}
        out["annotators" if sets[k].role == "annotator" else "models"][name] = entry
    humans = list(out["annotators"])
    if humans:
        out["annotator_mean_f1"] = {
            mode: {"value": mean_f1([out["annotators"][h][mode] for h in humans]),
                   "interval": _bounds([samples[h][mode] for h in humans], confidence)} for mode in MODES}
    return out


def agreement(annotations: Sequence[Source] | Mapping[str, Source], *,
              reference: str | Source | Mapping[str, Source] | None = None, models: Mapping[str, Source] | None = None,
              format: str | None = None, types: Sequence[str] | None = None, spans_key: str | None = None,
              event_triggers: bool = True, offsets: str = CODEPOINTS, n_resamples: int = 1000, seed: int = 0,
              confidence: float = 0.95, alpha_partial: bool = False, examples: int = 0) -> dict[str, Any]:
    """Agreement between annotators of the same documents; see the module docstring and docs/DESIGN.md.

    Args:
        annotations: each annotator's annotations (a file or folder of any format the readers take, CoNLL tag
            columns too, or a :class:`~nested_span_f1.formats.Corpus`), as a list (named ``A``, ``B``, ...) or a
            dict of name to annotations; two or more.
        reference: the adjudicated gold: an annotator's name, or annotations of its own (named ``reference``, or
            a one-item dict of name to annotations). Each annotator and each model is scored against it.
        models: name to a model's predictions, scored against the reference beside the annotators.
        format, types, spans_key, event_triggers, offsets: how every file is read, as
            :func:`~nested_span_f1.formats.read_corpus` reads it (``format`` detected for each when None).
        n_resamples, seed, confidence: the bootstrap of the intervals (documents resampled, or sentences when
            the documents are sentences without document ids).
        alpha_partial: Krippendorff's alpha also over the documents two or more annotators (not all) hold,
            each absent annotator's positions missing; every other figure stays on the documents every set holds.
        examples: disagreements shown per pair and group (``examples`` key), 0 for none.

    Returns:
        A JSON-safe dict: ``pairwise`` (``{"A|B": {f1, precision, recall, tp, fp, fn}}``, exact), ``mean_f1``
        (``{value, low, high}``), ``per_type``, ``per_document``; the same under ``lenient`` and ``untyped``;
        ``cohen_kappa`` (per pair), ``fleiss_kappa``, ``krippendorff_alpha`` and ``kappa_unit``; ``documents``
        (scored, resampled, left out); ``disagreements`` (per pair, by group); ``reference`` when given; ``notes``
        and ``settings``.

    Raises:
        ValueError: fewer than two annotators, the same file given twice, a set with no document or no annotation,
            documents that cannot be paired, texts or tokens that differ (naming the document and the first
            difference), a bad option.
        TypeError: annotations of another kind, an option of the wrong type.
    """
    n_resamples = check_rounds(n_resamples, "n_resamples")
    seed = check_seed(seed, "seed")
    confidence = check_level(confidence, "confidence")
    limit = _check_examples(examples)
    sets = named_sets(annotations, reference, models)
    check_distinct(sets)
    table = _read(sets, format, types, spans_key, event_triggers, check_unit(offsets))
    counted = _count(sets, table, reference)
    samples = _samples(counted.pairs, n_resamples, seed)
    result: dict[str, Any] = {
        "annotators": [sets[k].name for k in counted.annotators],
        "documents": {"scored": int(table.shared.sum()), "resampled": f"{table.word}s", "units": len(counted.units),
                      "left_out": table.left_out, "paired": "position" if table.by_position else "id"},
        **_by_mode(counted, samples, confidence), **_chance(table, counted.annotators, table.shared, alpha_partial),
        "disagreements": {key: disagreements.counts(counted.pairs[key].lenient) for key in counted.keys}}
    if limit:
        result["examples"] = _examples(sets, table, counted, limit)
    if counted.ref is not None:
        result["reference"] = _reference(sets, counted.ref, counted.rows, counted.pairs, samples, counted.units,
                                         confidence)
    result["notes"] = {"duplicates": table.duplicates, "discontinuous_left_out": table.discontinuous,
                       "formats": table.formats, "read": table.conversions}
    result["settings"] = {"n_resamples": n_resamples, "seed": seed, "confidence": confidence,
                          "alpha_partial": bool(alpha_partial)}
    return result


def _read(sets: Sequence[Named], format: str | None, types: Sequence[str] | None, spans_key: str | None,
          event_triggers: bool, offsets: str = CODEPOINTS) -> Table:
    """Every set read and their documents paired (:func:`.annotations.document_table`); the spans a set repeats
    are removed, warned about once."""
    corpora = [read_set(given, format, types, spans_key, event_triggers, offsets) for given in sets]
    _check_reading(sets, corpora, types, spans_key, event_triggers)
    refuse_offsets(offsets, [corpus.format for corpus in corpora], "every set")
    table = document_table(sets, corpora)
    if any(table.duplicates.values()):
        repeated = ", ".join(f"{name} {n}" for name, n in table.duplicates.items() if n)
        warn_caller(f"removed duplicate spans (same document, start, end and type; {repeated}); they are counted in "
                    "notes.duplicates", DuplicateSpanWarning)
    return table


def _check_reading(sets: Sequence[Named], corpora: Sequence[Corpus], types: Sequence[str] | None,
                   spans_key: str | None, event_triggers: bool) -> None:
    """Refuse a reading option no set gives anything to do, and ``types`` unless every set is brat: annotators
    are compared on what each marked, so a filter only some sets pass through would count the rest as
    disagreements."""
    formats = ", ".join(f"{given.name}: {corpus.format}" for given, corpus in zip(sets, corpora))
    not_brat = [given.name for given, corpus in zip(sets, corpora) if corpus.format != "brat"]
    if types and not_brat:
        raise ValueError(f"types={quote(list(types))} (--types) keeps a brat set's T lines of these types, but "
                         f"{' and '.join(not_brat)} {'is' if len(not_brat) == 1 else 'are'} not brat ({formats}); "
                         "every set must be read alike: leave it out, or give every annotator's annotations of "
                         "those types only")
    for given, option, format, what in ((spans_key, "spans_key (--spans-key)", "spacy",
                                         "reads a spaCy DocBin's doc.spans[spans_key]"),
                                        (not event_triggers, "event_triggers=False (--no-event-triggers)", "brat",
                                         "leaves out a brat corpus's event triggers")):
        if given and all(corpus.format != format for corpus in corpora):
            raise ValueError(f"{option} {what}, but no set is {'a DocBin' if format == 'spacy' else format} "
                             f"({formats}); leave it out")


@dataclass(frozen=True)
class Counted:
    """Every pair's counts on the documents every set holds.

    Attributes:
        annotators: the sets that are annotators (their indices among the sets).
        keys: every pair of annotators, ``"A|B"``, in order.
        pairs: the counts of every pair of annotators (by key), and of every other set against the reference
            (by the set's name).
        ref: the index of the reference among the sets, if there is one.
        rows: the sets scored against the reference.
        units: the resampling units' names; labels: every type the sets use.
    """

    annotators: list[int]
    keys: list[str]
    pairs: dict[str, PairCounts]
    ref: int | None
    rows: list[int]
    units: list[str]
    labels: list[str]


def _count(sets: Sequence[Named], table: Table, reference: Any) -> Counted:
    """Match and count every pair of annotators, and every other set against the reference."""
    shared = table.shared
    sides = [restrict(spans, shared) for spans in table.spans]
    labels = sorted(set().union(*(side.labels for side in sides)))
    unit_of, units = _units(table, shared)
    annotators = [k for k, given in enumerate(sets) if given.role == "annotator"]
    keys, counted = [], {}
    for i, j in combinations(annotators, 2):
        key = f"{sets[i].name}|{sets[j].name}"
        keys.append(key)
        counted[key] = count_pair(sides[i], sides[j], unit_of, len(units), labels)
    ref = next((k for k, given in enumerate(sets) if given.role == "reference"), None)
    if ref is None and isinstance(reference, str):
        ref = next(k for k in annotators if sets[k].name == reference)
    rows = [k for k in range(len(sets)) if ref is not None and k != ref and sets[k].role != "reference"]
    for k in rows:
        counted[sets[k].name] = count_pair(sides[ref], sides[k], unit_of, len(units), labels)  # type: ignore[index]
    return Counted(annotators, keys, counted, ref, rows, units, labels)


def _by_mode(counted: Counted, samples: Mapping[str, Mapping[str, np.ndarray]],
             confidence: float) -> dict[str, Any]:
    """The pairwise figures of every mode, the mean F1 with its interval: the exact mode's keys at the top, the
    others' under their mode's name."""
    out: dict[str, Any] = {}
    for mode in MODES:
        block = figures(counted.keys, [counted.pairs[key].matrices[mode] for key in counted.keys],
                        counted.labels if mode in TYPED else None, counted.units)
        defined = [key for key in counted.keys if block["pairwise"][key]["f1"] is not None]
        if defined:
            low, high = _bounds([samples[key][mode] for key in defined], confidence)
            block["mean_f1"].update(low=low, high=high)
        if mode == "exact":
            out.update(block)
        else:
            out[mode] = block
    return out


def _examples(sets: Sequence[Named], table: Table, counted: Counted, limit: int) -> dict[str, Any]:
    """Up to ``limit`` disagreements of every pair of annotators, by group, with the documents they are in."""
    ids = [ident for ident, keep in zip(table.ids, table.shared) if keep]
    items = [item for item, keep in zip(table.items, table.shared) if keep]
    return {key: disagreements.examples(counted.pairs[key].lenient, (sets[i].name, sets[j].name), ids, items,
                                        table.unit, limit)
            for key, (i, j) in zip(counted.keys, combinations(counted.annotators, 2))}


def _chance(table: Table, annotators: Sequence[int], shared: np.ndarray, alpha_partial: bool) -> dict[str, Any]:
    """Cohen's kappa per pair, Fleiss' kappa and Krippendorff's alpha over the annotators' position labels (every
    document's: alpha may count those some annotators lack)."""
    lengths = table.lengths
    tagging = Tagging(tuple(sorted(set().union(*(table.spans[k].labels for k in annotators)))))
    codes = np.stack([tagging.codes(table.spans[k], lengths) for k in annotators])
    document = np.repeat(np.arange(len(lengths)), lengths)
    scored = shared[document]
    present = table.present[:, annotators].T[:, document] if alpha_partial else np.broadcast_to(scored, codes.shape)
    names = [table.sets[k].name for k in annotators]
    on_shared = codes[:, scored]
    return {
        "kappa_unit": table.unit,
        "kappa_positions": int(scored.sum()),
        "cohen_kappa": {f"{names[a]}|{names[b]}": cohen_kappa(on_shared[a], on_shared[b])
                        for a, b in combinations(range(len(names)), 2)},
        "fleiss_kappa": fleiss_kappa(on_shared),
        "krippendorff_alpha": krippendorff_alpha(codes, present),
        "alpha_positions": int((present.sum(axis=0) >= 2).sum()),
    }
