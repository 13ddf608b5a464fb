"""The second stage of a benchmark: the gold and every system read, and each system paired with the gold.

:func:`read_systems` reads the gold and its resampling units, lists the systems
(a directory stands for its checkpoints, :func:`list_systems`), chooses the
comparisons once their names and runs are known, and pairs each system with
the gold (:func:`pair_system`): span arrays aligned sentence by sentence, a
answer system's strings placed on the gold's texts, a scored system's curve.
"""
from __future__ import annotations

import os
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any, NamedTuple, Union

import numpy as np

from ..answers.score import AnswersRun
from ..core.wording import quote
from ..formats.offsets import CODEPOINTS
from ..formats.registry import OFFSET_FORMATS
from .answers import ANSWERS, answers_pair, is_answers
from .curves import system_curve
from .inputs import Pair, Side, Source, checkpoints, is_brat_folder, pair, units
from .options import Options
from .pairs import choose

Predictions = Union[Mapping[str, Source], str, "os.PathLike[str]"]


class System(NamedTuple):
    """One system: its name, its run and step when it is a checkpoint of one (else None), its predictions."""

    name: str
    run: str | None
    step: int | None
    source: Source


def list_systems(predictions: Predictions, kind: str, part: str = "test", option: str = "predictions",
                 named: bool = False) -> list[System]:
    """Every system of ``predictions``; a directory stands for its checkpoints (of the gold's ``kind``, the
    predictions of ``part``; with ``named``, only files whose names name it), ordered by step, its name the
    run's, unless it holds ``.ann`` files: a brat corpus is one system.

    Raises:
        TypeError: ``predictions`` (named ``option``) is neither ``{name: source}`` nor a directory, or a name is
            not a string.
        ValueError: an empty name, two systems of one name, no predictions.
    """
    if isinstance(predictions, (str, os.PathLike)):
        predictions = {str(predictions): predictions}
    if not isinstance(predictions, Mapping):
        raise TypeError(f"{option} must be {{name: source}} (a mapping of system names to prediction sets) or a "
                        f"directory of checkpoints, got a {type(predictions).__name__}: {quote(predictions)}")
    out: list[System] = []
    for name, source in predictions.items():
        if not isinstance(name, str):
            raise TypeError(f"{option}: a system's name must be a string, got {quote(name)} "
                            f"({type(name).__name__}); name each prediction set with a string")
        if not name.strip():
            raise ValueError(f"{option}: a system's name must not be empty, got {quote(name)}; name each prediction set")
        if isinstance(source, (str, os.PathLike)) and Path(source).is_dir() and not is_brat_folder(source):
            prefix = "" if name == str(source) else f"{name}/"
            out += [System(prefix + ckpt, name, step, path) for ckpt, step, path in checkpoints(source, kind, part, named)]
        else:
            out.append(System(name, None, None, source))
    names = [system.name for system in out]
    repeated = sorted({n for n in names if names.count(n) > 1})
    if repeated:
        raise ValueError(f"two systems are named {quote(repeated[0])}; give each prediction set its own name")
    if not out:
        raise ValueError(f"no predictions to benchmark ({option} is empty)")
    return out


@dataclass(frozen=True)
class Read:
    """The gold, its resampling units and every system paired with it.

    Attributes:
        gold: the gold side.
        unit_of: the resampling unit of every gold sentence (0, 1, ... in order of appearance).
        unit_name: ``"documents"`` or ``"sentences"``.
        systems: in report order.
        kind: the comparisons made (``auto`` resolved, :func:`~nested_span_f1.benchmark.pairs.choose`).
        found: each system's predictions and the gold as span arrays.
        answers: the answer systems (by index): their strings placed on the gold's texts.
        curves: the systems whose predictions carry scores (by index): their curves' figures.
    """

    gold: Side
    unit_of: np.ndarray
    unit_name: str
    systems: list[System]
    kind: str
    found: list[Pair]
    answers: dict[int, AnswersRun]
    curves: dict[int, dict[str, Any]]

    @property
    def n_units(self) -> int:
        return int(self.unit_of.max(initial=-1)) + 1

    @property
    def names(self) -> list[str]:
        return [system.name for system in self.systems]

    @property
    def runs(self) -> list[str | None]:
        return [system.run for system in self.systems]


def read_gold(references: Source, options: Options) -> Side:
    """The gold side, refused when it has no sentence."""
    gold = options.read(references, options.gold_format, "references", "gold")
    if gold.n_sentences == 0:
        given = "" if gold.name == "references" else f" ({gold.name})"
        raise ValueError(f"references{given}: no sentences, so nothing to benchmark")
    return gold


class Paired(NamedTuple):
    """One system paired with the gold (:func:`pair_system`)."""

    found: Pair
    format: str | None
    """The format its predictions were read in (None for an answer system or predictions without a corpus)."""
    run: AnswersRun | None
    """An answer system's strings placed on the gold's texts, else None."""
    curve: dict[str, Any] | None
    """The curve's figures of predictions with scores, else None."""


def pair_system(gold: Side, system: System, options: Options) -> Paired:
    """One system's predictions read and paired with the gold."""
    if options.pred_format == ANSWERS or (options.pred_format is None and is_answers(system.source)):
        located, run = answers_pair(gold, system.source, system.name)
        return Paired(located, None, run, None)
    side = options.read(system.source, options.pred_format, system.name, "pred")
    found = pair(gold, side, scheme=options.scheme, mode=options.mode, **options.aligning)
    return Paired(found, side.corpus.format if side.corpus is not None else None, None,
                  system_curve(gold, side, **options.aligning))


def read_systems(references: Source, predictions: Predictions, options: Options) -> Read:
    """Read the gold and every system and pair them; the comparisons are chosen once the systems' names and runs
    are known, before any system is read, so that a wrong option is named before a wrong file.

    Raises:
        ValueError, TypeError: an unreadable or misaligned side, an empty gold, repeated names, an option for texts
            that no side gives anything to do.
    """
    gold = read_gold(references, options)
    unit_of, unit_name = units(gold, options.units_by)
    systems = list_systems(predictions, gold.holds)
    kind = choose(options.comparisons, options.baseline, [system.run for system in systems])
    found, formats = [], {gold.corpus.format if gold.corpus is not None else None}
    answers, curves = {}, {}
    for s, system in enumerate(systems):
        paired = pair_system(gold, system, options)
        found.append(paired.found)
        if paired.run is not None:
            answers[s] = paired.run
        else:
            formats.add(paired.format)
        if paired.curve is not None:
            curves[s] = paired.curve
    check_text_options(found, formats, options)
    return Read(gold, unit_of, unit_name, systems, kind, found, answers, curves)


def check_text_options(found: Sequence[Pair], formats: set[str | None], options: Options) -> None:
    """Refuse an option for texts that no side gives anything to do (it would be ignored silently)."""
    for option, format, what in (("types", "brat", "keeps a brat corpus's T lines of these types"),
                                 ("spans_key", "spacy", "reads a spaCy DocBin's doc.spans[spans_key]")):
        if options.reading[option] and format not in formats:
            raise ValueError(f"{option}={quote(options.reading[option])} (--{option.replace('_', '-')}) {what}, but "
                             "neither the gold nor a system is one; leave it out")
    if not options.event_triggers and "brat" not in formats:
        raise ValueError("event_triggers=False (--no-event-triggers) leaves out a brat corpus's event triggers, but "
                         "neither the gold nor a system is one; leave it out")
    if set(options.offsets.values()) - {CODEPOINTS} and not formats & set(OFFSET_FORMATS):
        shown = options.offsets[""] if "" in options.offsets else dict(options.offsets)
        raise ValueError(f"offsets={shown!r} (--offsets) reads the character offsets of text spans, pipeline output "
                         "and brat, but neither the gold nor a system holds them; leave it out")
    texts = [f.alignment for f in found if f.alignment is not None]
    if options.trim and not texts:
        raise ValueError("trim (--trim) takes whitespace off the edges of character spans, but neither the gold nor "
                         "a system holds texts; leave it out")
    if options.snap and not any(a["projected"] == "predictions" for a in texts):
        raise ValueError(f"snap={quote(options.snap)} (--snap) moves a text system's spans onto the gold's tokens, "
                         "but no system holds texts against a gold of tokens; leave it out")
