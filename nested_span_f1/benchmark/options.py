"""The first stage of a benchmark: every option of a call checked, before anything is read.

:func:`check_options` gives the options as one :class:`Options`, each refused
with its name and value when it is out of range or of the wrong type; the
checks of the numbers (:func:`check_rounds`, :func:`check_level`,
:func:`check_seed`) serve the command line and ``agreement`` too.
"""
from __future__ import annotations

import numbers
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from ..align.project import check_snap
from ..core.wording import quote
from ..formats.offsets import CODEPOINTS, OffsetsError, side_units, unit_of
from .answers import ANSWERS
from .inputs import Side, Source, read_side

MAX_ROUNDS = 1_000_000
"""The most bootstrap resamples, and randomization rounds, a benchmark takes.

The intervals are percentiles of every resample, all of which are kept (8 bytes
× resamples × systems × 3 × types: 1.9 GB at the cap for 10 systems of 8 types;
the randomization's rounds are counted a chunk at a time), and the time grows
with both; past the cap, the Monte Carlo error of an interval bound or a
p-value is far below the 0.01 points a report shows.
"""


def check_rounds(value: Any, option: str) -> int:
    """``value`` as a number of resamples or rounds: an integer from 1 to :data:`MAX_ROUNDS`.

    Raises:
        TypeError, ValueError: naming ``option`` and the value.
    """
    if isinstance(value, bool) or not isinstance(value, numbers.Integral):
        raise TypeError(f"{option} must be an integer, got {quote(value)}")
    if not 1 <= int(value) <= MAX_ROUNDS:
        raise ValueError(f"{option} must be from 1 to {MAX_ROUNDS:,} (the resamples are kept in memory, and more "
                         f"would change no reported digit), got {int(value):,}")
    return int(value)


def check_level(value: Any, option: str) -> float:
    """``value`` as a level: a real number strictly between 0 and 1 (TypeError, ValueError naming ``option``)."""
    if isinstance(value, bool) or not isinstance(value, numbers.Real):
        raise TypeError(f"{option} must be a number between 0 and 1, got {quote(value)}")
    if not 0 < float(value) < 1:
        raise ValueError(f"{option} must be between 0 and 1 (exclusive), got {quote(value)}")
    return float(value)


def check_seed(value: Any, option: str) -> int:
    """``value`` as a seed: an integer from 0, as numpy's ``SeedSequence`` takes (TypeError, ValueError
    naming ``option``)."""
    if isinstance(value, bool) or not isinstance(value, numbers.Integral):
        raise TypeError(f"{option} must be an integer, got {quote(value)}")
    if int(value) < 0:
        raise ValueError(f"{option} must be 0 or more, got {value}")
    return int(value)


@dataclass(frozen=True)
class Options:
    """What a benchmark was asked for, checked (:func:`check_options`); :func:`~.compare.benchmark` takes each as
    a keyword.

    Attributes:
        comparisons: which pairs are tested (:mod:`~nested_span_f1.benchmark.pairs`):
            ``"baseline"`` (each system against ``baseline``), ``"consecutive"`` (each
            checkpoint against the one before it in its run), ``"best"`` (the selected
            system against each other one), ``"all"``; ``"auto"`` (default): the
            baseline when one is named, consecutive checkpoints when every system is a
            checkpoint of one run, else all pairs.
        baseline: the name of the system the others are compared with.
        dev_references, dev_predictions: a development gold and its predictions
            (``{name: source}`` as ``predictions``, matched to them by name; by default
            the development predictions in the folders of ``predictions``'
            checkpoint directories): the system with the highest development F1 is
            selected, and its test figures are reported (else the selection is made
            on the test set, and the report says so).
        n_resamples: bootstrap resamples: by default 1000, raised to the next
            thousand when the comparisons need more for a difference to be able to
            hold after Holm's correction (``m / (B + 1) < alpha``); a number given that
            is too few is refused. At most :data:`MAX_ROUNDS`.
        n_permutations: approximate-randomization rounds (default ``n_resamples``),
            checked as ``n_resamples`` is; counted a chunk at a time.
        seed: seeds both tests, an integer from 0; the same seed gives the same numbers.
        confidence: level of the percentile intervals (default 0.95).
        alpha: level at which a difference is said to hold, after Holm's correction
            over the comparisons made, under both tests.
        units_by: ``"auto"`` (documents when the gold has document ids, else
            sentences), ``"documents"`` or ``"sentences"``.
        gold_format, pred_format: the format of the gold (and the development gold),
            and of every prediction file (development ones too): a reader's name,
            ``"conll"``, or None (detected); ``benchmark``'s ``format`` stands for both
            where they are not given. ``pred_format="answers"``: a language model's answers.
        scheme, mode: decoding of tag columns, as ``span_f1`` takes them.
        dataset: the dataset's name for the report and model card (default: the gold's
            file name); a dataset of :data:`~nested_span_f1.benchmark.splits.SPLITS`
            whose splits the gold matches none of raises ``UnknownSplitWarning``.
        progress: show progress bars while resampling (on a terminal or in a notebook
            only: :mod:`nested_span_f1.core.progress`).
        trim, snap: for texts (text spans, pipeline output, brat, DocBins; paired
            with the gold by :func:`nested_span_f1.align.pair_texts`): ``trim`` takes
            whitespace off both sides' span edges, ``snap`` (``"expand"`` or
            ``"contract"``) moves a text system's spans that cut a token gold's tokens
            onto them; each system's ``alignment`` counts what they changed and the
            spans that could not be aligned.
        types, spans_key: a brat corpus's ``T`` line types to keep; a DocBin's span
            group to read instead of ``doc.ents``.
        event_triggers: False leaves out a brat corpus's event triggers (the ``T``
            lines its ``E`` lines use), read as entities by default and counted.
        offsets: what the character offsets of text spans, pipeline output and brat
            count, per side (:func:`~nested_span_f1.formats.offsets.side_units`:
            ``{"": unit}`` for every file, else ``"gold"`` and ``"pred"``).
    """

    comparisons: str
    baseline: str | None
    dev_references: Source | None
    dev_predictions: Any
    n_resamples: int | None
    n_permutations: int | None
    seed: int
    confidence: float
    alpha: float
    units_by: str
    gold_format: str | None
    pred_format: str | None
    scheme: str | None
    mode: str | None
    dataset: str | None
    progress: bool
    trim: bool
    snap: str | None
    types: Sequence[str] | None
    spans_key: str | None
    event_triggers: bool
    offsets: Mapping[str, str]

    @property
    def reading(self) -> dict[str, Any]:
        """The options of reading a side (:func:`~nested_span_f1.benchmark.inputs.read_side`) but its offsets
        (:meth:`offsets_of`)."""
        return {"types": self.types, "spans_key": self.spans_key, "event_triggers": self.event_triggers}

    def offsets_of(self, side: str) -> str:
        """The unit of the character offsets of the gold (``gold``) or of the systems (``pred``)."""
        return unit_of(self.offsets, side)

    def read(self, source: Source, format: str | None, name: str, side: str) -> Side:
        """:func:`~.inputs.read_side` of the gold (``side="gold"``) or of a system (``"pred"``) with these options;
        offsets that fit only in another unit are refused naming the option for that side."""
        try:
            return read_side(source, format, name, **self.reading, offsets=self.offsets_of(side))
        except OffsetsError as error:
            raise ValueError(error.naming(side)) from None

    @property
    def aligning(self) -> dict[str, Any]:
        """The options of pairing texts (:func:`~nested_span_f1.benchmark.inputs.pair`)."""
        return {"trim": self.trim, "snap": self.snap}


STRINGS = ("units_by", "format", "gold_format", "pred_format", "scheme", "mode", "dataset", "comparisons", "baseline")
"""The options that are strings; all but ``units_by`` and ``comparisons`` may be None."""


def check_options(*, format: str | None, n_resamples: Any, n_permutations: Any, seed: Any, confidence: Any,
                  alpha: Any, snap: Any, trim: Any, event_triggers: Any, offsets: Any = CODEPOINTS,
                  **given: Any) -> Options:
    """``benchmark``'s options checked, in the order a call names a wrong one: ``snap``, the numbers, the
    options that are strings, development predictions without a development gold, a gold of answers.

    Raises:
        TypeError, ValueError: the first option out of range or of the wrong type, named with its value.
    """
    snap = check_snap(snap)
    units = side_units(offsets)
    if n_resamples is not None:
        n_resamples = check_rounds(n_resamples, "n_resamples")
    if n_permutations is not None:
        n_permutations = check_rounds(n_permutations, "n_permutations")
    seed = check_seed(seed, "seed")
    confidence, alpha = check_level(confidence, "confidence"), check_level(alpha, "alpha")
    for option in STRINGS:
        value = format if option == "format" else given[option]
        if not isinstance(value, str) and (value is not None or option in ("units_by", "comparisons")):
            raise TypeError(f"{option} must be a string{'' if option in ('units_by', 'comparisons') else ' or None'}, "
                            f"got {quote(value)}")
    if given["dev_predictions"] is not None and given["dev_references"] is None:
        raise ValueError("dev_predictions are scored against dev_references: give the development gold too")
    gold_format, pred_format = given.pop("gold_format") or format, given.pop("pred_format") or format
    if gold_format == ANSWERS:
        raise ValueError(f"the gold's format {ANSWERS!r}: a gold needs offsets, and a language model's answers are "
                         "predictions (pred_format, --pred-format)")
    return Options(n_resamples=n_resamples, n_permutations=n_permutations, seed=seed, confidence=confidence,
                   alpha=alpha, gold_format=gold_format, pred_format=pred_format, trim=bool(trim), snap=snap,
                   event_triggers=bool(event_triggers), offsets=units, **given)
