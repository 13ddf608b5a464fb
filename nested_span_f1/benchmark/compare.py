"""Benchmark prediction sets against one gold: scores with bootstrap intervals and paired significance tests.

Each system is matched once (:func:`~nested_span_f1.core.matching.match_exact`);
its hits become a matrix of tp / predicted / gold counts per resampling unit
(document when the gold carries document ids, else sentence) and label, and
:mod:`nested_span_f1.benchmark.stats` resamples those rows. Every figure of the result is
read from these matrices, apart from the point values of nested versus flat
recall and of the lenient error categories, which the nested and lenient
metrics give.

>>> gold = [[(0, 2, "PER")], [(1, 2, "LOC")], [(0, 1, "ORG")]]
>>> result = benchmark(gold, {"a": gold, "b": [[(0, 2, "PER")], [], []]}, n_resamples=200, progress=False)
>>> result.systems[0]["f1"]["value"], round(result.systems[1]["f1"]["value"], 4)
(1.0, 0.5)
>>> result.best["name"]
'a'
"""
from __future__ import annotations

import json
import numbers
import os
import warnings
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Union

import numpy as np

from .. import __version__
from ..align.project import check_snap
from ..answers.score import GeneratedRun
from ..core.caller import warn_caller
from ..core.matching import DuplicateSpanWarning, ExactMatch, match_exact
from ..core.spans import SpanArrays
from ..core.wording import plural, quote
from ..lenient.counts import BREAKDOWN
from ..lenient.score import LenientMatch, match_spans_lenient, summarize_lenient
from ..nested.score import count_match, summarize_nested
from .buckets import WIDTH, bucket_matrix, layout
from .curves import system_curve
from .generated import GENERATED, generated_pair, is_generated, string_scores
from .html import Sentences
from .inputs import Pair, Side, Source, checkpoints, is_brat_folder, pair, read_side, units
from .pairs import choose, describe, pairs, rounds_needed
from .splits import gold_counts, identify
from .stats import (
    GOLD,
    GOLD_TP,
    PREDICTED,
    TP,
    bootstrap_sums,
    extreme,
    holm,
    interval,
    paired_bootstrap_p,
    prf,
    swap_chunks,
)

Predictions = Union[Mapping[str, Source], str, "os.PathLike[str]"]


@dataclass(frozen=True)
class BenchmarkResult:
    """Every figure of a benchmark, and its views.

    Attributes:
        settings: what was run (gold, units, resamples, seed, confidence, ...; ``length_unit``: what lengths
            count, the gold's tokens or characters).
        systems: one dict per system, in report order (see the README for the keys).
        comparisons: one dict per pair of systems.
        samples: each system's bootstrap F1 values, an array per name (not in the JSON).
        sentences: the gold's tokens and each system's matching, for the HTML report's error browser (not in the
            JSON).
    """

    settings: dict[str, Any]
    systems: list[dict[str, Any]]
    comparisons: list[dict[str, Any]]
    samples: dict[str, np.ndarray] = field(repr=False, compare=False)
    sentences: Sentences | None = field(default=None, repr=False, compare=False)

    @property
    def best(self) -> dict[str, Any]:
        """The selected system: the highest development F1 when development data was given, else the highest F1
        on this gold (the first of equals); ``settings["selection"]`` says which."""
        name = self.settings["selection"]["system"]
        return next(s for s in self.systems if s["name"] == name)

    def to_dict(self) -> dict[str, Any]:
        """Settings, systems, comparisons and the best system's name: JSON-safe Python values."""
        return {"settings": self.settings, "systems": self.systems, "comparisons": self.comparisons,
                "best": self.best["name"]}

    def to_json(self, path: str | os.PathLike[str] | None = None) -> str:
        """:meth:`to_dict` as indented JSON text, also written to ``path`` when given."""
        text = json.dumps(self.to_dict(), indent=2, allow_nan=False) + "\n"
        if path is not None:
            Path(path).write_text(text, encoding="utf-8")
        return text

    def to_markdown(self, path: str | os.PathLike[str] | None = None) -> str:
        """Markdown tables for a paper or a model card (see :mod:`nested_span_f1.benchmark.report`)."""
        from .report import markdown

        text = markdown(self.to_dict())
        if path is not None:
            Path(path).write_text(text, encoding="utf-8")
        return text

    def model_index(self, dataset_name: str | None = None, *, dataset_type: str | None = None,
                    dataset_config: str | None = None, split: str = "test", model_name: str | None = None,
                    path: str | os.PathLike[str] | None = None) -> str:
        """A model card for the selected system: the Hub ``model-index`` block (YAML front matter: its F1,
        precision and recall on the dataset's Hub id ``dataset_type``, ``dataset_config`` and ``split``) and a
        paragraph saying what was scored and how the checkpoint was selected."""
        from .report import model_card

        name = dataset_name or self.settings["dataset"]
        text = model_card(self.to_dict(), model_name or self.best["name"], name, dataset_type or name,
                          dataset_config, split)
        if path is not None:
            Path(path).write_text(text, encoding="utf-8")
        return text

    def to_html(self, path: str | os.PathLike[str] | None = None) -> str:
        """One self-contained HTML page: the tables, charts and an error browser (see :mod:`.html`)."""
        from .html import page

        text = page(self.to_dict(), self.sentences)
        if path is not None:
            Path(path).write_text(text, encoding="utf-8")
        return text

    def plot(self, path: str | os.PathLike[str] | None = None) -> Any:
        """One figure: per-type F1 with intervals, error categories, and F1 against step when steps are known."""
        from .plots import plot_benchmark

        return plot_benchmark(self.to_dict(), None if path is None else str(path))


def _systems(predictions: Predictions, kind: str, part: str = "test", option: str = "predictions",
             named: bool = False) -> list[tuple[str, str | None, int | None, Source]]:
    """``(name, run, step, source)`` per system; a directory stands for its checkpoints (of the gold's ``kind``,
    the predictions of ``part``; with ``named``, only files whose names name it), ordered by step, its name the
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
    out: list[tuple[str, str | None, int | None, Source]] = []
    for name, source in predictions.items():
        if not isinstance(name, str):
            raise TypeError(f"{option}: a system's name must be a string, got {quote(name)} "
                            f"({type(name).__name__}); name each prediction set with a string")
        if not name.strip():
            raise ValueError(f"{option}: a system's name must not be empty, got {quote(name)}; name each prediction set")
        if isinstance(source, (str, os.PathLike)) and Path(source).is_dir() and not is_brat_folder(source):
            prefix = "" if name == str(source) else f"{name}/"
            out += [(prefix + ckpt, name, step, path) for ckpt, step, path in checkpoints(source, kind, part, named)]
        else:
            out.append((name, None, None, source))
    names = [name for name, _, _, _ in out]
    repeated = sorted({n for n in names if names.count(n) > 1})
    if repeated:
        raise ValueError(f"two systems are named {quote(repeated[0])}; give each prediction set its own name")
    if not out:
        raise ValueError(f"no predictions to benchmark ({option} is empty)")
    return out


def unit_matrix(
    found: Pair, unit_of: np.ndarray, n_units: int, labels: Sequence[str]
) -> tuple[np.ndarray, ExactMatch]:
    """``[n_units, 3, n_labels]`` int64 counts (tp, predicted, gold) of one system, and its match."""
    match = match_exact(found.predictions, found.references)
    every = slice(None)
    counts = [unit_counts(match.predictions, match.predicted_hit, unit_of, n_units, labels),
              unit_counts(match.predictions, every, unit_of, n_units, labels),
              unit_counts(match.references, every, unit_of, n_units, labels)]
    return np.stack(counts, axis=1), match


def unit_counts(spans: SpanArrays, rows: np.ndarray | slice, unit_of: np.ndarray, n_units: int,
                labels: Sequence[str]) -> np.ndarray:
    """``[n_units, n_labels]`` counts of the spans ``rows`` picks, by the unit of their sentence and their label
    (``labels`` holds every label of ``spans``)."""
    index = {name: i for i, name in enumerate(labels)}
    remap = np.array([index[name] for name in spans.labels], dtype=np.int64)
    width = len(labels)
    cells = unit_of[spans.sentence[rows]] * width + remap[spans.label[rows]]
    return np.bincount(cells, minlength=n_units * width).reshape(n_units, width)


def _matched(found: Sequence[Pair], names: Sequence[str], unit_of: np.ndarray, n_units: int,
             labels: Sequence[str], duplicates: list[str], where: str = "") -> list[tuple[np.ndarray, ExactMatch]]:
    """:func:`unit_matrix` of every system; the spans each removed as repeats are added to ``duplicates`` (one
    phrase naming the systems, ``where`` saying on which gold) for the one warning a benchmark raises, in
    place of a warning per system that names none."""
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", DuplicateSpanWarning)
        built = [unit_matrix(f, unit_of, n_units, labels) for f in found]
    predicted = [f"{match.notes['duplicate_predictions']} of {name}" for name, (_, match) in zip(names, built)
                 if match.notes["duplicate_predictions"]]
    if predicted:
        duplicates.append(f"predicted spans{where}: {', '.join(predicted)}")
    gold = max((match.notes["duplicate_references"] for _, match in built), default=0)
    if gold:
        duplicates.append(f"gold spans{where}: {gold}")
    return built


def _estimate(value: Any, low: Any, high: Any) -> dict[str, float]:
    """``{value, low, high}`` as Python floats (from floats or 0-d arrays)."""
    return {"value": float(value), "low": float(low), "high": float(high)}


def _scored(totals: np.ndarray, samples: np.ndarray, confidence: float) -> dict[str, dict[str, float]]:
    """P/R/F1 point values of ``totals`` ``[3]`` with the intervals of ``samples`` ``[B, 3]``; with a fourth count
    (:data:`GOLD_TP`, the gold spans found, as buckets have), recall's numerator is that.

    An interval is taken over the resamples where its score is defined: precision
    where something was predicted, recall where there is gold, F1 where either is
    (a rare type missing from a resample has no score there, not a score of 0).
    """
    found = GOLD_TP if len(totals) > GOLD_TP else TP
    point = prf(totals[TP], totals[PREDICTED], totals[GOLD], totals[found])
    resampled = prf(samples[:, TP], samples[:, PREDICTED], samples[:, GOLD], samples[:, found])
    predicted, gold = samples[:, PREDICTED] > 0, samples[:, GOLD] > 0
    out = {}
    for key, value, values, defined in zip(("precision", "recall", "f1"), point, resampled,
                                           (predicted, gold, predicted | gold)):
        low, high = interval(values[defined], confidence) if defined.any() else (value, value)
        out[key] = _estimate(value, low, high)
    return out


def _system(name: str, run: str | None, step: int | None, source: Source, matrix: np.ndarray, sums: np.ndarray,
            match: ExactMatch, lenient: LenientMatch, left_out: int, labels: Sequence[str],
            confidence: float) -> dict[str, Any]:
    totals = matrix.sum(axis=0)
    system: dict[str, Any] = {
        "name": name, "run": run, "step": step,
        "source": str(source) if isinstance(source, (str, os.PathLike)) else None,
        **_scored(totals.sum(axis=-1), sums.sum(axis=-1), confidence),
        "tp": int(totals[TP].sum()), "predicted": int(totals[PREDICTED].sum()), "gold": int(totals[GOLD].sum()),
    }
    system["per_type"] = {
        label: {**_scored(totals[:, k], sums[:, :, k], confidence),
                "number": int(totals[GOLD, k]), "predicted": int(totals[PREDICTED, k])}
        for k, label in enumerate(labels) if totals[GOLD, k] or totals[PREDICTED, k]
    }
    nested = summarize_nested(count_match(match), zero_division=0)
    system["by_nesting"] = {bucket: {"recall": row["recall"], "number": row["number"]}
                            for bucket, row in nested["by_nesting"].items()}
    breakdown = summarize_lenient(lenient.counts(), zero_division=0)
    system["errors"] = {key: int(breakdown[key]) for key in BREAKDOWN}
    system["notes"] = {**{k: int(v) for k, v in match.notes.items()}, "discontinuous_left_out": left_out}
    return system


def _bucketed(matches: Sequence[ExactMatch], found: Sequence[Pair], gold: Side, unit_of: np.ndarray, n_units: int,
              n_resamples: int, seed: int, confidence: float, progress: bool) -> list[dict[str, Any]]:
    """Each system's bucketed figures (:mod:`.buckets`): attribute -> bucket -> P/R/F1 with intervals (the same
    resamples as the totals'), gold spans (``number``) and predictions in the bucket; empty buckets left out.
    Lengths count the gold's unit (a text system against token gold: the gold tokens a span touches)."""
    lengths = gold.lengths
    chosen = layout(lengths, gold.unit)
    counts = np.stack([bucket_matrix(m, unit_of, n_units, lengths, chosen, f.units if gold.unit == "tokens" else None)
                       for m, f in zip(matches, found)], axis=1)
    sums = bootstrap_sums(counts.reshape(n_units, -1), n_resamples, seed, progress=progress)
    sums = sums.reshape(-1, len(matches), chosen.n_columns)
    totals = counts.sum(axis=0)
    out = []
    for s in range(len(matches)):
        figures: dict[str, Any] = {}
        for name, first in chosen.offsets().items():
            rows = {}
            for k, bucket in enumerate(chosen.names(name)):
                columns = slice(first + WIDTH * k, first + WIDTH * (k + 1))
                total = totals[s, columns]
                if total[PREDICTED] or total[GOLD]:
                    rows[bucket] = {**_scored(total, sums[:, s, columns], confidence), "number": int(total[GOLD]),
                                    "predicted": int(total[PREDICTED])}
            figures[name] = rows
        out.append(figures)
    return out


def _micro_f1(totals: np.ndarray) -> np.ndarray:
    """Micro F1 of ``[..., 3, n_labels]`` sums."""
    summed = totals.sum(axis=-1)
    return prf(summed[..., TP], summed[..., PREDICTED], summed[..., GOLD])[2]


def _comparisons(names: Sequence[str], pairs: Sequence[tuple[int, int]], totals: np.ndarray, f1_samples: np.ndarray,
                 swaps: Iterable[np.ndarray], n_rounds: int, confidence: float,
                 alpha: float) -> list[dict[str, Any]]:
    """Each pair's F1 difference (``a`` minus ``b``) with its interval and both p-values, Holm-corrected over the
    pairs (:func:`~nested_span_f1.benchmark.pairs.pairs`).

    ``swaps`` are the randomization's swapped sums (``[rows, systems, 3, labels]``),
    a chunk of rounds at a time: each pair counts its extreme rounds chunk by chunk.
    """
    point = _micro_f1(totals)
    observed = {(i, j): float(point[i] - point[j]) for i, j in pairs}
    extremes = dict.fromkeys(pairs, 0)
    for swapped in swaps:
        for i, j in pairs:
            moved = swapped[:, j] - swapped[:, i]
            extremes[i, j] += extreme(_micro_f1(totals[i] + moved) - _micro_f1(totals[j] - moved), observed[i, j])
    out: list[dict[str, Any]] = []
    for i, j in pairs:
        differences = f1_samples[:, i] - f1_samples[:, j]
        low, high = interval(differences, confidence)
        out.append({"a": names[i], "b": names[j], "f1_difference": _estimate(observed[i, j], low, high),
                    "p_bootstrap": paired_bootstrap_p(differences, observed[i, j]),
                    "p_randomization": (extremes[i, j] + 1) / (n_rounds + 1)})
    for key in ("p_bootstrap", "p_randomization"):
        for row, adjusted in zip(out, holm([row[key] for row in out])):
            row[f"{key}_holm"] = adjusted
    for row in out:
        row["significant"] = bool(row["p_bootstrap_holm"] < alpha and row["p_randomization_holm"] < alpha)
    return out


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


DEFAULT_ROUNDS = 1000
"""Bootstrap resamples and randomization rounds when none are given, raised to what the comparisons need."""


def _rounds(given: int | None, needed: int, option: str, what: str, m: int, alpha: float) -> int:
    """The resamples (or rounds) to draw: ``given``, refused when fewer than ``needed``; else
    :data:`DEFAULT_ROUNDS` raised to the next thousand at or above ``needed``. ``what``: the comparisons in words
    (:func:`~nested_span_f1.benchmark.pairs.describe`)."""
    if given is None:
        rounds = max(DEFAULT_ROUNDS, -(-needed // 1000) * 1000)
        if rounds > MAX_ROUNDS:
            raise ValueError(f"{plural(m, 'comparison')} ({what}) need {needed:,} resamples for a difference to "
                             f"be able to hold at {alpha:g}, more than the {MAX_ROUNDS:,} a benchmark draws; compare "
                             "fewer pairs (comparisons='baseline' or 'consecutive')")
        return rounds
    if given < needed:
        by = "Holm's correction" if m > 1 else "the tests"
        raise ValueError(f"{option} {given:,} is too few for {plural(m, 'comparison')} ({what}): the smallest "
                         f"p-value {by} can give is {m}/{given + 1:,} "
                         f"= {m / (given + 1):.4f}, not below alpha {alpha:g}, so no difference could hold; use at "
                         f"least {needed:,} (or leave it out: it is raised to what the comparisons need)"
                         + (", or compare fewer pairs" if m > 1 else ""))
    return given


def _check_text_options(found: Sequence[Pair], formats: set[str | None], reading: Mapping[str, Any],
                        aligning: Mapping[str, Any]) -> None:
    """Refuse an option for texts that no side gives anything to do (it would be ignored silently)."""
    for option, format, what in (("types", "brat", "keeps a brat corpus's T lines of these types"),
                                 ("spans_key", "spacy", "reads a spaCy DocBin's doc.spans[spans_key]")):
        if reading[option] and format not in formats:
            raise ValueError(f"{option}={quote(reading[option])} (--{option.replace('_', '-')}) {what}, but neither the "
                             "gold nor a system is one; leave it out")
    if not reading["event_triggers"] and "brat" not in formats:
        raise ValueError("event_triggers=False (--no-event-triggers) leaves out a brat corpus's event triggers, but "
                         "neither the gold nor a system is one; leave it out")
    texts = [f.alignment for f in found if f.alignment is not None]
    if aligning["trim"] and not texts:
        raise ValueError("trim (--trim) takes whitespace off the edges of character spans, but neither the gold nor "
                         "a system holds texts; leave it out")
    if aligning["snap"] and not any(a["projected"] == "predictions" for a in texts):
        raise ValueError(f"snap={quote(aligning['snap'])} (--snap) moves a text system's spans onto the gold's tokens, but "
                         "no system holds texts against a gold of tokens; leave it out")


def _directories(predictions: Predictions) -> Predictions:
    """The checkpoint directories among ``predictions`` (their folders may hold development predictions too)."""
    if isinstance(predictions, (str, os.PathLike)):
        return predictions
    found = {name: source for name, source in predictions.items()
             if isinstance(source, (str, os.PathLike)) and Path(source).is_dir() and not is_brat_folder(source)}
    if not found:
        raise ValueError("dev_references needs development predictions: give dev_predictions ({name: file or "
                         "checkpoint directory}), or checkpoint directories whose folders hold them")
    return found


def _development(references: Source, predictions: Predictions, tested: Mapping[str, Source], *,
                 named: bool, duplicates: list[str], formats: tuple[str | None, str | None], scheme: str | None,
                 mode: str | None,
                 units_by: str, n_resamples: int, seed: int, confidence: float,
                 progress: bool, reading: Mapping[str, Any],
                 aligning: Mapping[str, Any]) -> tuple[str, dict[str, dict[str, Any]]]:
    """The development gold's name and, by system name, precision, recall and F1 on it with their intervals and
    the predictions' source; the systems are matched to the test set's (``tested``: each system's test
    predictions) by name, a run's checkpoints by step. ``named``: the development predictions are looked for
    beside the test predictions of checkpoint folders, so only files named for the development set are taken.

    Raises:
        ValueError: development predictions of a system that is not tested, or that are its test predictions.
    """
    gold = read_side(references, formats[0], "dev_references", **reading)
    entries = _systems(predictions, gold.holds, part="dev", option="dev_predictions", named=named)
    unknown = [name for name, _, _, _ in entries if name not in tested]
    if unknown:
        raise ValueError(f"development predictions of {', '.join(map(repr, unknown))}, which no test system is "
                         f"named ({', '.join(tested)}); name each as its test predictions are named")
    for name, _, _, source in entries:
        test = tested[name]
        if isinstance(source, (str, os.PathLike)) and isinstance(test, (str, os.PathLike)) and \
                _same_file(source, test):
            raise ValueError(f"the development predictions of {name} are its test predictions ({source}); a system "
                             "is selected on predictions of the development set")
    unit_of, _ = units(gold, units_by)
    n_units = int(unit_of.max(initial=-1)) + 1
    found = [pair(gold, read_side(source, formats[1], name, **reading), scheme=scheme, mode=mode, **aligning)
             for name, _, _, source in entries]
    labels = sorted(set().union(*(f.predictions.labels + f.references.labels for f in found)))
    built = _matched(found, [name for name, _, _, _ in entries], unit_of, n_units, labels, duplicates,
                     f" on {gold.name}")
    matrices = np.stack([matrix for matrix, _ in built], axis=1)
    sums = bootstrap_sums(matrices.reshape(n_units, -1), n_resamples, seed, progress=progress)
    sums = sums.reshape(-1, len(found), 3, len(labels))
    totals = matrices.sum(axis=0)
    return gold.name, {
        name: {**_scored(totals[s].sum(axis=-1), sums[:, s].sum(axis=-1), confidence),
               "source": str(source) if isinstance(source, (str, os.PathLike)) else None}
        for s, (name, _, _, source) in enumerate(entries)}


def _same_file(a: str | os.PathLike[str], b: str | os.PathLike[str]) -> bool:
    try:
        return os.path.samefile(a, b)
    except OSError:
        return os.path.realpath(a) == os.path.realpath(b)


def _selection(names: Sequence[str], test_f1: np.ndarray, dev: dict[str, dict[str, Any]] | None,
               dev_gold: str | None) -> dict[str, Any]:
    """Which system is selected and on what: the highest development F1 among the systems with development
    predictions, else the highest F1 on the test gold (the first of equals)."""
    if dev is None:
        chosen = names[int(np.argmax(test_f1))]
        return {"on": "test", "system": chosen, "dev_gold": None, "candidates": list(names),
                "text": f"Selected: {chosen}, the highest F1 on this test set. No development data was given, so the "
                        "choice was made on the test set, and its test F1 overstates what a system chosen without "
                        "seeing the test set would score."}
    candidates = [name for name in names if name in dev]
    chosen = max(candidates, key=lambda name: dev[name]["f1"]["value"])
    return {"on": "development", "system": chosen, "dev_gold": dev_gold, "candidates": candidates,
            "text": f"Selected: {chosen}, the highest development F1 ({100 * dev[chosen]['f1']['value']:.2f} on "
                    f"{dev_gold}, among {len(candidates)} system{'s' if len(candidates) > 1 else ''} with development "
                    "predictions); the test set "
                    "played no part in the choice."}


def benchmark(
    references: Source,
    predictions: Predictions,
    *,
    comparisons: str = "auto",
    baseline: str | None = None,
    dev_references: Source | None = None,
    dev_predictions: Predictions | None = None,
    n_resamples: int | None = None,
    n_permutations: int | None = None,
    seed: int = 0,
    confidence: float = 0.95,
    alpha: float = 0.05,
    units_by: str = "auto",
    format: str | None = None,
    gold_format: str | None = None,
    pred_format: str | None = None,
    scheme: str | None = None,
    mode: str | None = None,
    dataset: str | None = None,
    progress: bool = True,
    trim: bool = False,
    snap: str | None = None,
    types: Sequence[str] | None = None,
    spans_key: str | None = None,
    event_triggers: bool = True,
) -> BenchmarkResult:
    """Score prediction sets against one gold with bootstrap intervals and paired significance tests.

    Args:
        references: the gold: a file (nested format or CoNLL tag columns), a
            :class:`~nested_span_f1.formats.Corpus`, or per-sentence tag or span lists.
        predictions: ``{name: source}`` in the gold's kind (a directory stands for
            its ``checkpoint-STEP`` files or folders, named ``name/checkpoint-STEP``,
            found by :func:`~nested_span_f1.benchmark.inputs.checkpoints`), or one
            directory of checkpoints.
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
        format: every file's format (a reader's name, ``"conll"``), detected when None.
        gold_format, pred_format: the format of the gold (and the development gold),
            and of every prediction file (development ones too), each in place of
            ``format``; ``pred_format="generated"``: a language model's answers.
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

    Raises:
        ValueError: unreadable or misaligned inputs, an empty gold, repeated names,
            options out of range (each named with its value), too few resamples for
            the comparisons asked for, an option for texts that no side gives anything to do.
        TypeError: an option or a source of the wrong type (named with its value).
    """
    snap = check_snap(snap)
    reading: dict[str, Any] = {"types": types, "spans_key": spans_key, "event_triggers": bool(event_triggers)}
    aligning: dict[str, Any] = {"trim": bool(trim), "snap": snap}
    if n_resamples is not None:
        n_resamples = check_rounds(n_resamples, "n_resamples")
    if n_permutations is not None:
        n_permutations = check_rounds(n_permutations, "n_permutations")
    seed = check_seed(seed, "seed")
    confidence, alpha = check_level(confidence, "confidence"), check_level(alpha, "alpha")
    for option, value in (("units_by", units_by), ("format", format), ("gold_format", gold_format),
                          ("pred_format", pred_format), ("scheme", scheme), ("mode", mode), ("dataset", dataset),
                          ("comparisons", comparisons), ("baseline", baseline)):
        if not isinstance(value, str) and (value is not None or option in ("units_by", "comparisons")):
            raise TypeError(f"{option} must be a string{'' if option in ('units_by', 'comparisons') else ' or None'}, "
                            f"got {quote(value)}")
    if dev_predictions is not None and dev_references is None:
        raise ValueError("dev_predictions are scored against dev_references: give the development gold too")
    gold_format, pred_format = gold_format or format, pred_format or format
    if gold_format == GENERATED:
        raise ValueError(f"the gold's format {GENERATED!r}: a gold needs offsets, and a language model's answers are "
                         "predictions (pred_format, --pred-format)")
    gold = read_side(references, gold_format, "references", **reading)
    if gold.n_sentences == 0:
        given = "" if gold.name == "references" else f" ({gold.name})"
        raise ValueError(f"references{given}: no sentences, so nothing to benchmark")
    unit_of, unit_name = units(gold, units_by)
    n_units = int(unit_of.max(initial=-1)) + 1
    entries = _systems(predictions, gold.holds)
    names = [name for name, _, _, _ in entries]
    runs = [run for _, run, _, _ in entries]
    kind = choose(comparisons, baseline, runs)
    generated: dict[int, GeneratedRun] = {}  # generated systems: their strings placed on the gold's texts
    curves: dict[int, dict[str, Any] | None] = {}  # systems whose predictions carry scores: their curves
    found, formats = [], {gold.corpus.format if gold.corpus is not None else None}
    for s, (name, _, _, source) in enumerate(entries):
        if pred_format == GENERATED or (pred_format is None and is_generated(source)):
            located, generated[s] = generated_pair(gold, source, name)
            found.append(located)
        else:
            side = read_side(source, pred_format, name, **reading)
            formats.add(side.corpus.format if side.corpus is not None else None)
            found.append(pair(gold, side, scheme=scheme, mode=mode, **aligning))
            curves[s] = system_curve(gold, side, **aligning)
    _check_text_options(found, formats, reading, aligning)
    labels = sorted(set().union(*(f.predictions.labels + f.references.labels for f in found),
                                *(run.counts.strings.labels for run in generated.values())))
    duplicates: list[str] = []
    built = _matched(found, names, unit_of, n_units, labels, duplicates)
    matrices = np.stack([matrix for matrix, _ in built], axis=1)
    totals = matrices.sum(axis=0)
    # how many pairs are compared does not depend on which system is selected (the best is one of them)
    m = len(pairs(kind, names, runs, baseline, 0))
    needed = rounds_needed(m, alpha) if m else 0
    raised_from = DEFAULT_ROUNDS if n_resamples is None and needed > DEFAULT_ROUNDS else None
    what = describe(kind, runs, baseline)
    n_resamples = _rounds(n_resamples, needed, "n_resamples (--bootstrap)", what, m, alpha)
    n_permutations = (n_resamples if n_permutations is None else
                      _rounds(n_permutations, needed, "n_permutations (--permutations)", what, m, alpha))
    dev_gold, dev = None, None
    if dev_references is not None:
        dev_gold, dev = _development(dev_references, dev_predictions if dev_predictions is not None else
                                     _directories(predictions), {name: source for name, _, _, source in entries},
                                     named=dev_predictions is None, duplicates=duplicates,
                                     formats=(gold_format, pred_format),
                                     scheme=scheme, mode=mode, units_by=units_by, n_resamples=n_resamples,
                                     seed=seed, confidence=confidence, progress=progress, reading=reading,
                                     aligning=aligning)
    if duplicates:
        warn_caller(f"removed duplicate spans (same sentence, start, end and label) before scoring, counted once "
                    f"each: {'; '.join(duplicates)} (each system's notes count them)", DuplicateSpanWarning)
    selection = _selection(names, _micro_f1(totals), dev, dev_gold)
    chosen_pairs = pairs(kind, names, runs, baseline, names.index(selection["system"]))
    flat = matrices.reshape(n_units, -1)
    shape = (len(found), 3, len(labels))
    sums = bootstrap_sums(flat, n_resamples, seed, progress=progress).reshape(-1, *shape)
    swaps = (chunk.reshape(-1, *shape) for chunk in swap_chunks(flat, n_permutations, seed, progress=progress))
    lenient = [match_spans_lenient(match, units=f.units) for (_, match), f in zip(built, found)]
    systems = [
        _system(name, run, step, source, matrices[:, s], sums[:, s], built[s][1], lenient[s], found[s].left_out,
                labels, confidence)
        for s, (name, run, step, source) in enumerate(entries)
    ]
    for system, figures in zip(systems, _bucketed([match for _, match in built], found, gold, unit_of, n_units,
                                                  n_resamples, seed, confidence, progress)):
        system["buckets"] = figures
    for s, (system, found_pair) in enumerate(zip(systems, found)):
        system["dev"] = None if dev is None else dev.get(system["name"])
        system["alignment"] = found_pair.alignment
        if curves.get(s) is not None:
            system["thresholds"] = curves[s]
    for s, run in generated.items():
        systems[s].update(string_scores(run, unit_of, n_units, labels, n_resamples, seed,
                                        lambda totals, drawn: _scored(totals, drawn, confidence)))
    f1_samples = _micro_f1(sums)
    counts = gold_counts(gold, found[0].references)
    settings = {
        "gold": gold.name, "dataset": dataset or Path(gold.name).stem.split(".")[0], "gold_counts": counts,
        "split": identify(counts, dataset), "units": unit_name, "length_unit": gold.unit,
        "n_units": n_units, "sentences": gold.n_sentences, "n_resamples": n_resamples,
        "n_permutations": n_permutations, "seed": seed, "confidence": confidence, "alpha": alpha,
        "comparisons": kind, "compared": describe(kind, runs, baseline, selection["system"]), "baseline": baseline,
        "rounds_needed": needed, "raised_from": raised_from,
        "selection": selection, "scheme": scheme, "mode": mode, "version": __version__,
    }
    compared = _comparisons(names, chosen_pairs, totals, f1_samples, swaps, n_permutations, confidence, alpha)
    tokens = gold.corpus.tokens if gold.corpus is not None else gold.columns.tokens if gold.columns else None
    sentences = Sentences(tokens, gold.n_sentences, dict(zip(names, lenient)),
                          {name: f.units for name, f in zip(names, found) if gold.unit == "tokens"})
    return BenchmarkResult(settings, systems, compared, {n: f1_samples[:, s] for s, n in enumerate(names)},
                           sentences)
