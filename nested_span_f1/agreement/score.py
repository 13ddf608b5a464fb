"""``agreement()``: how far annotators agree, and how far a model is from them.

The design: docs/DESIGN.md, 'Agreement between annotators'.

It reads as the steps it runs:

1. read every set and pair the documents (:mod:`.annotations`): documents some
   set lacks are listed and left out, texts that differ are refused;
2. keep each set's annotations on the documents every set holds, its
   discontinuous entities too when they are compared by their fragments
   (:mod:`.sides`);
3. match every pair of annotators exactly, leniently and with types ignored
   (:mod:`.spans`), or count the whitespace tokens their annotations overlap
   (:mod:`.tokens`), per resampling unit and type; every mean over the pairs
   with its standard deviation;
4. resample the units (documents, or sentences without document ids) with the
   benchmark's bootstrap for the interval of the mean pairwise F1, and of each
   set's F1 against the reference;
5. label every position (token, whitespace token or character) with its IOB2
   tag and compute Cohen's kappa per pair, Fleiss' kappa and Krippendorff's
   alpha (:mod:`.chance`);
6. count the disagreements by kind, sum the label confusion and, when asked,
   show examples (:mod:`.disagreements`) and the disputed places
   (:mod:`.places`), and write them as a brat folder (:mod:`.brat_folder`).
"""
from __future__ import annotations

import numbers
import os
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from itertools import combinations
from typing import Any

import numpy as np

from ..benchmark.options import check_level, check_rounds, check_seed
from ..benchmark.stats import bootstrap_sums, interval, prf
from ..core.caller import warn_caller
from ..core.matching import DuplicateSpanWarning, distinct
from ..core.spans import SpanArrays
from ..core.wording import quote
from ..formats import Corpus
from ..formats.brat import t_lines
from ..formats.brat_config import nearest_conf
from ..formats.offsets import CODEPOINTS, check_unit
from ..formats.registry import refuse_offsets
from . import disagreements, places
from .annotations import Named, Source, Table, check_distinct, document_table, named_sets, project_annotators, read_set
from .brat_folder import write_adjudication
from .chance import Tagging, cohen_kappa, fleiss_kappa, krippendorff_alpha
from .sides import DISCONTINUOUS, UNITS, PairCounter, Sides, compared, with_fragments
from .spans import MODES, PairCounts, figures, mean_f1
from .tokens import Tokens, token_spans, whitespace_tokens

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


def _choice(value: Any, choices: Sequence[str], option: str) -> str:
    if not isinstance(value, str):
        raise TypeError(f"{option} must be one of {', '.join(map(repr, choices))}, got {quote(value)}")
    if value not in choices:
        raise ValueError(f"{option} must be one of {', '.join(map(repr, choices))}, got {quote(value)}")
    return value


def _samples(counted: Mapping[str, PairCounts], modes: Sequence[str], n_resamples: int,
             seed: int) -> dict[str, dict[str, np.ndarray]]:
    """The bootstrap F1s of every key and mode (``[n_resamples]`` each), from one set of draws of the units."""
    keys = list(counted)
    columns = [counted[key].matrices[mode].sum(axis=2) for mode in modes for key in keys]
    sums = bootstrap_sums(np.concatenate(columns, axis=1), n_resamples, seed).reshape(n_resamples, -1, 3)
    f1 = prf(sums[..., 0], sums[..., 1], sums[..., 2])[2]
    return {key: {mode: f1[:, m * len(keys) + k] for m, mode in enumerate(modes)} for k, key in enumerate(keys)}


def _bounds(samples: Sequence[np.ndarray], confidence: float) -> list[float]:
    """``[low, high]``: the percentile interval of the mean of the samples (one array a figure)."""
    low, high = interval(np.mean(np.stack(samples), axis=0), confidence)
    return [float(low), float(high)]


def _reference(sets: Sequence[Named], counted: Counted, samples: Mapping[str, Mapping[str, np.ndarray]],
               confidence: float) -> dict[str, Any]:
    """Each set's figures against the reference, by mode, with the interval of its F1; and the annotators' mean."""
    ref, modes, units = counted.ref, counted.modes, counted.units
    assert ref is not None
    out: dict[str, Any] = {"name": sets[ref].name, "is_annotator": sets[ref].role == "annotator",
                           "annotators": {}, "models": {}}
    for k in counted.rows:
        name = sets[k].name
        entry = {}
        for mode in modes:
            scored = figures([name], [counted.pairs[name].matrices[mode]], None, units)["pairwise"][name]
            entry[mode] = {**scored, "interval": _bounds([samples[name][mode]], confidence)}
        out["annotators" if sets[k].role == "annotator" else "models"][name] = entry
    humans = list(out["annotators"])
    if humans:
        out["annotator_mean_f1"] = {
            mode: {"value": mean_f1([out["annotators"][h][mode] for h in humans]),
                   "interval": _bounds([samples[h][mode] for h in humans], confidence)} for mode in modes}
    return out


def agreement(annotations: Sequence[Source] | Mapping[str, Source] | str | os.PathLike[str], *,
              reference: str | Source | Mapping[str, Source] | None = None, models: Mapping[str, Source] | None = None,
              format: str | None = None, types: Sequence[str] | None = None, spans_key: str | None = None,
              event_triggers: bool = True, unit: str = "instance", discontinuous: str = "leave-out",
              n_resamples: int = 1000, seed: int = 0, confidence: float = 0.95, alpha_partial: bool = False,
              examples: int = 0, adjudication: bool = False,
              adjudication_folder: str | os.PathLike[str] | None = None, offsets: str = CODEPOINTS) -> dict[str, Any]:
    """Agreement between annotators of the same documents; see the module docstring and docs/DESIGN.md.

    Args:
        annotations: each annotator's annotations (a file or folder of any format the readers take, CoNLL tag
            columns too, or a :class:`~nested_span_f1.formats.Corpus`), as a list (named ``A``, ``B``, ...) or a
            dict of name to annotations; two or more. Or a brat project's root holding one folder per annotator
            (bratiaa's layout), the folders named by their names.
        reference: the adjudicated gold: an annotator's name, or annotations of its own (named ``reference``, or
            a one-item dict of name to annotations). Each annotator and each model is scored against it.
        models: name to a model's predictions, scored against the reference beside the annotators.
        format, types, spans_key, event_triggers, offsets: how every file is read, as
            :func:`~nested_span_f1.formats.read_corpus` reads it (``format`` detected for each when None).
        unit: ``"instance"`` (each annotation is one) or ``"token"`` (each annotation is the whitespace tokens it
            overlaps, a multiset: bratiaa's token-based agreement); kappa and alpha then label whitespace tokens.
        discontinuous: ``"leave-out"`` (discontinuous entities left out and counted) or ``"fragments"`` (compared:
            two agree where every fragment and the type do).
        n_resamples, seed, confidence: the bootstrap of the intervals (documents resampled, or sentences when
            the documents are sentences without document ids).
        alpha_partial: Krippendorff's alpha also over the documents two or more annotators (not all) hold,
            each absent annotator's positions missing; every other figure stays on the documents every set holds.
        examples: disagreements shown per pair and group (``examples`` key), 0 for none. adjudication: the disputed
            places (``adjudication`` key), one row each; ``adjudication_folder``: a new or empty folder to write them
            to as a brat collection an adjudicator opens (:mod:`.brat_folder`), implying ``adjudication``.

    Returns:
        A JSON-safe dict: ``pairwise`` (``{"A|B": {f1, precision, recall, tp, fp, fn}}``, exact), ``mean_f1``
        (``{value, low, high}``) and ``sd_f1`` (over the pairs), ``per_annotator``, ``per_type`` and
        ``per_document`` (each row's ``mean_f1`` and ``sd_f1`` over the pairs); the same under ``lenient`` and
        ``untyped``; ``cohen_kappa`` (per pair), ``fleiss_kappa``, ``krippendorff_alpha`` and ``kappa_unit``;
        ``documents`` (scored, resampled, left out, marked nothing); ``disagreements`` (per pair, by group),
        ``label_confusion``; ``reference`` when given; ``notes`` and ``settings``.

    Raises:
        ValueError: fewer than two annotators, the same file given twice, a set with no document or no annotation,
            documents that cannot be paired, texts or tokens that differ (naming the document and the first
            difference), a bad option, an adjudication folder that exists and holds files.
        TypeError: annotations of another kind, an option of the wrong type.
    """
    settings = _settings(unit, discontinuous, n_resamples, seed, confidence, alpha_partial)
    limit, root = _check_examples(examples), project_annotators(annotations)
    sets = named_sets(annotations, reference, models)
    check_distinct(sets)
    table = _read(sets, format, types, spans_key, event_triggers, check_unit(offsets))
    counted = _count(sets, table, reference, settings["unit"], settings["discontinuous"])
    samples = _samples(counted.pairs, counted.modes, settings["n_resamples"], settings["seed"])
    result = _figures(sets, table, counted, samples, settings["confidence"], alpha_partial)
    asked = adjudication or adjudication_folder is not None
    result.update(_asked(sets, table, counted, limit, asked and (types, event_triggers, adjudication_folder, offsets)))
    if counted.ref is not None:
        result["reference"] = _reference(sets, counted, samples, settings["confidence"])
    result["notes"] = _notes(sets, table, counted, root, annotations)
    result["settings"] = settings
    return result


def _settings(unit: Any, discontinuous: Any, n_resamples: Any, seed: Any, confidence: Any,
              alpha_partial: Any) -> dict[str, Any]:
    """The options checked, as the result's ``settings`` hold them."""
    return {"unit": _choice(unit, UNITS, "unit"), "discontinuous": _choice(discontinuous, DISCONTINUOUS, "discontinuous"),
            "n_resamples": check_rounds(n_resamples, "n_resamples"), "seed": check_seed(seed, "seed"),
            "confidence": check_level(confidence, "confidence"), "alpha_partial": bool(alpha_partial)}


def _figures(sets: Sequence[Named], table: Table, counted: Counted, samples: Mapping[str, Mapping[str, np.ndarray]],
             confidence: float, alpha_partial: bool) -> dict[str, Any]:
    """The figures every call reports: documents, F1 by mode, kappa and alpha, disagreements, label confusion."""
    return {"annotators": [sets[k].name for k in counted.annotators], "unit": counted.unit,
            "documents": _documents(table, counted),
            **_by_mode(counted, samples, confidence), **_chance(table, counted, alpha_partial),
            "disagreements": {key: disagreements.counts(counted.pairs[key].lenient) for key in counted.keys},
            "label_confusion": disagreements.confusion([counted.pairs[key].lenient for key in counted.keys])}


def _asked(sets: Sequence[Named], table: Table, counted: Counted, limit: int, adjudication: Any) -> dict[str, Any]:
    """The views asked for: ``examples`` of each pair's disagreements (``limit`` of each group), the disputed
    places (``adjudication``: the reading options and the folder to write, or False)."""
    out: dict[str, Any] = {}
    if limit:
        out["examples"] = _examples(sets, table, counted, limit)
    if adjudication:
        out["adjudication"] = _adjudication(sets, table, counted, *adjudication)
    return out


def _documents(table: Table, counted: Counted) -> dict[str, Any]:
    """How many documents are scored and resampled, those left out, and those each annotator marks nothing in."""
    nothing = {}
    for k in counted.annotators:  # a discontinuous entity left out is still a mark
        marked = np.zeros(len(table.ids), dtype=bool)
        marked[table.spans[k].sentence] = True
        marked[[d for d, _, _ in table.fragmented[k]]] = True
        nothing[table.sets[k].name] = [ident for ident, have in zip(table.ids, (table.shared & ~marked).tolist())
                                       if have]
    return {"scored": int(table.shared.sum()), "resampled": f"{table.word}s", "units": len(counted.units),
            "left_out": table.left_out, "paired": "position" if table.by_position else "id", "word": table.word,
            "marked_nothing": nothing}


def _notes(sets: Sequence[Named], table: Table, counted: Counted, root: dict[str, str] | None,
           annotations: Any) -> dict[str, Any]:
    """What the reading found: repeats removed, discontinuous entities (left out or compared), each set's reading,
    the types a brat project's ``annotation.conf`` does not declare and those one annotator alone uses (counts per
    annotator), the figures not computed and why, the project root read."""
    discontinuous = table.discontinuous if counted.discontinuous == "leave-out" else dict.fromkeys(table.discontinuous, 0)
    compared_ = {} if counted.discontinuous == "leave-out" else {
        given.name: len(records) for given, records in zip(sets, counted.sides.fragmented)}
    duplicates = {name: n + counted.sides.repeated.get(name, 0) for name, n in table.duplicates.items()}
    notes: dict[str, Any] = {"duplicates": duplicates, "discontinuous_left_out": discontinuous,
                             "discontinuous_compared": compared_, "formats": table.formats, "read": table.conversions,
                             **_types(sets, table, counted)}
    if "lenient" not in counted.modes:
        notes["not_computed"] = {"lenient": "in the token unit a token is marked or not: overlap is sameness there "
                                            "(exact and lenient would be one figure)"}
    if root is not None:
        notes["project_root"] = os.fspath(annotations)
    return notes


def _types(sets: Sequence[Named], table: Table, counted: Counted) -> dict[str, Any]:
    """``undeclared_types`` (type -> annotator -> annotations, and the ``annotation.conf`` each brat set is read
    against) and ``one_annotator_types`` (the types only one annotator uses, with its count)."""
    sides = counted.sides
    used: dict[str, dict[str, int]] = {}
    for k in counted.annotators:
        counts = np.bincount(sides.spans[k].label, minlength=len(sides.labels)).tolist()
        for _, _, label in sides.fragmented[k]:
            counts[sides.labels.index(label)] += 1
        for label, n in zip(sides.labels, counts):
            if n:
                used.setdefault(label, {})[sets[k].name] = n
    out: dict[str, Any] = {"one_annotator_types": {label: who for label, who in sorted(used.items()) if len(who) == 1}}
    confs: dict[str, str] = {}
    undeclared: dict[str, dict[str, int]] = {}
    for k in counted.annotators:
        source = sets[k].source
        if table.formats[sets[k].name] != "brat" or not isinstance(source, (str, os.PathLike)):
            continue
        conf = nearest_conf(source if os.path.isdir(source) else os.path.dirname(os.path.abspath(source)))
        if conf is None:
            continue
        confs[sets[k].name] = str(conf.path)
        for label, who in used.items():
            if label not in conf.types and sets[k].name in who:
                undeclared.setdefault(label, {})[sets[k].name] = who[sets[k].name]
    if confs:
        out["annotation_conf"] = confs
        out["undeclared_types"] = dict(sorted(undeclared.items()))
    return out


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
        modes: the matchings counted (``lenient`` only for instances).
        sides: every set's annotations as compared; discontinuous: how discontinuous entities are treated.
        tokens: the documents' whitespace tokens, when the unit is the token.
    """

    annotators: list[int]
    keys: list[str]
    pairs: dict[str, PairCounts]
    ref: int | None
    rows: list[int]
    units: list[str]
    labels: list[str]
    modes: tuple[str, ...]
    sides: Sides
    discontinuous: str
    tokens: Tokens | None

    @property
    def unit(self) -> str:
        """What one annotation counts as: ``instance`` or ``token``."""
        return "instance" if self.tokens is None else "token"


def _count(sets: Sequence[Named], table: Table, reference: Any, unit: str, discontinuous: str) -> Counted:
    """Match and count every pair of annotators, and every other set against the reference, in ``unit``."""
    unit_of, units = _units(table, table.shared)
    sides = compared(table, unit_of, len(units), discontinuous)
    items = [item for item, keep in zip(table.items, table.shared) if keep]
    tokens = whitespace_tokens(items, table.unit) if unit == "token" else None
    counter = PairCounter(sides, unit, tokens)
    annotators = [k for k, given in enumerate(sets) if given.role == "annotator"]
    keys, counted = [], {}
    for i, j in combinations(annotators, 2):
        key = f"{sets[i].name}|{sets[j].name}"
        keys.append(key)
        counted[key] = counter.count(i, j)
    ref = next((k for k, given in enumerate(sets) if given.role == "reference"), None)
    if ref is None and isinstance(reference, str):
        ref = next(k for k in annotators if sets[k].name == reference)
    rows = [k for k in range(len(sets)) if ref is not None and k != ref and sets[k].role != "reference"]
    for k in rows:
        counted[sets[k].name] = counter.count(ref, k)  # type: ignore[arg-type]
    modes = MODES if unit == "instance" else ("exact", "untyped")
    return Counted(annotators, keys, counted, ref, rows, units, sides.labels, modes, sides, discontinuous, tokens)


def _by_mode(counted: Counted, samples: Mapping[str, Mapping[str, np.ndarray]],
             confidence: float) -> dict[str, Any]:
    """The pairwise figures of every mode, the mean F1 with its interval: the exact mode's keys at the top, the
    others' under their mode's name."""
    out: dict[str, Any] = {}
    for mode in counted.modes:
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


def _positions(table: Table, counted: Counted) -> tuple[list[SpanArrays], np.ndarray, str]:
    """What kappa and alpha label: every set's spans on positions (its fragments too when they are compared), the
    positions of every document, and what a position is."""
    spans = list(table.spans)
    if counted.discontinuous == "fragments":
        spans = [distinct(with_fragments(side, records))[0] for side, records in zip(spans, table.fragmented)]
    if counted.tokens is None or table.unit == "tokens":
        return spans, table.lengths, table.unit
    tokens = whitespace_tokens(table.items, table.unit)
    return [token_spans(side, tokens) for side in spans], tokens.counts, "whitespace tokens"


def _chance(table: Table, counted: Counted, alpha_partial: bool) -> dict[str, Any]:
    """Cohen's kappa per pair, Fleiss' kappa and Krippendorff's alpha over the annotators' position labels (every
    document's: alpha may count those some annotators lack)."""
    annotators, shared = counted.annotators, table.shared
    spans, lengths, unit = _positions(table, counted)
    tagging = Tagging(tuple(sorted(set().union(*(spans[k].labels for k in annotators)))))
    codes = np.stack([tagging.codes(spans[k], lengths) for k in annotators])
    document = np.repeat(np.arange(len(lengths)), lengths)
    scored = shared[document]
    present = table.present[:, annotators].T[:, document] if alpha_partial else np.broadcast_to(scored, codes.shape)
    names = [table.sets[k].name for k in annotators]
    on_shared = codes[:, scored]
    return {
        "kappa_unit": unit,
        "kappa_positions": int(scored.sum()),
        "cohen_kappa": {f"{names[a]}|{names[b]}": cohen_kappa(on_shared[a], on_shared[b])
                        for a, b in combinations(range(len(names)), 2)},
        "fleiss_kappa": fleiss_kappa(on_shared),
        "krippendorff_alpha": krippendorff_alpha(codes, present),
        "alpha_positions": int((present.sum(axis=0) >= 2).sum()),
    }


def _adjudication(sets: Sequence[Named], table: Table, counted: Counted, types: Sequence[str] | None,
                  event_triggers: bool, folder: str | os.PathLike[str] | None, offsets: str) -> dict[str, Any]:
    """The disputed places as rows (:mod:`.places`), written as a brat folder when ``folder`` is given."""
    annotators = counted.annotators
    names = [sets[k].name for k in annotators]
    ids = [ident for ident, keep in zip(table.ids, table.shared) if keep]
    items = [item for item, keep in zip(table.items, table.shared) if keep]
    where = [[place for place, keep in zip(table.places[k], table.shared) if keep] for k in annotators]
    found = places.entries([counted.sides.spans[k] for k in annotators],
                           [counted.sides.fragmented[k] for k in annotators])
    disputed, agreed = places.places(found, len(annotators))
    origins = [_origins(sets[k], table, types, event_triggers, offsets) for k in annotators]
    out: dict[str, Any] = {"disputed": len(disputed), "agreed": agreed,
                           "places": places.rows(disputed, names, ids, items, table.unit, where, origins)}
    if folder is not None:
        write_adjudication(found, disputed, names, ids, items, table.unit, folder, [given.source for given in sets])
        out["folder"] = os.fspath(folder)
    return out


def _origins(given: Named, table: Table, types: Sequence[str] | None,
             event_triggers: bool, offsets: str) -> dict[tuple[str, Any], tuple[str, int]] | None:
    """``(document id, entity) -> (T id, line)`` of a set read from a brat folder or pair, else None."""
    if table.formats[given.name] != "brat" or isinstance(given.source, Corpus):
        return None
    out: dict[tuple[str, Any], tuple[str, int]] = {}
    for ident, found in t_lines(given.source, types, event_triggers=event_triggers, offsets=offsets).items():
        for entity, t_id, line in found:
            out.setdefault((ident, entity), (t_id, line))
    return out
