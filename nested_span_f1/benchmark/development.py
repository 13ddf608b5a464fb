"""A stage of a benchmark: development data scored, and the system selected.

With a development gold, each system's development predictions (given by name,
or found beside the test predictions of a run's checkpoint folders) are scored
with intervals as the test predictions are, and the system with the highest
development F1 is selected (:func:`select`); without, the highest test F1
selects it, and the selection says that the test set chose it.
"""
from __future__ import annotations

import os
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any, NamedTuple

import numpy as np

from .inputs import Source, is_brat_folder, pair, units
from .matrices import match_systems
from .options import Options
from .stats import bootstrap_sums, scored
from .systems import Predictions, System, list_systems


class Development(NamedTuple):
    """The development gold's name, each system's figures on it (by name), and the repeated spans removed there (in
    phrases for the benchmark's one warning)."""

    gold: str
    figures: dict[str, dict[str, Any]]
    duplicates: list[str]


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


def _same_file(a: str | os.PathLike[str], b: str | os.PathLike[str]) -> bool:
    try:
        return os.path.samefile(a, b)
    except OSError:
        return os.path.realpath(a) == os.path.realpath(b)


def _check_named(entries: Sequence[System], tested: Mapping[str, Source]) -> None:
    """Refuse development predictions of a system that is not tested, or that are its test predictions."""
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


def score_development(predictions: Predictions, tested: Sequence[System], options: Options,
                      n_resamples: int) -> Development | None:
    """Precision, recall and F1 on the development gold with their intervals and the predictions' source, by
    system name; None without a development gold. The systems are matched to the tested ones by name, a run's
    checkpoints by step; without ``options.dev_predictions`` they are looked for beside the test predictions of
    checkpoint folders, and only files named for the development set are taken.

    Raises:
        ValueError: development predictions of a system that is not tested, or that are its test predictions.
    """
    if options.dev_references is None:
        return None
    named = options.dev_predictions is None
    given = _directories(predictions) if named else options.dev_predictions
    gold = options.read(options.dev_references, options.gold_format, "dev_references", "gold")
    entries = list_systems(given, gold.holds, part="dev", option="dev_predictions", named=named)
    _check_named(entries, {name: source for name, _, _, source in tested})
    unit_of, _ = units(gold, options.units_by)
    n_units = int(unit_of.max(initial=-1)) + 1
    found = [pair(gold, options.read(source, options.pred_format, name, "pred"), scheme=options.scheme,
                  mode=options.mode, **options.aligning)
             for name, _, _, source in entries]
    labels = sorted(set().union(*(f.predictions.labels + f.references.labels for f in found)))
    built, duplicates = match_systems(found, [name for name, _, _, _ in entries], unit_of, n_units, labels,
                                      f" on {gold.name}")
    matrices = np.stack([matrix for matrix, _ in built], axis=1)
    sums = bootstrap_sums(matrices.reshape(n_units, -1), n_resamples, options.seed, progress=options.progress)
    sums = sums.reshape(-1, len(found), 3, len(labels))
    totals = matrices.sum(axis=0)
    return Development(gold.name, {
        name: {**scored(totals[s].sum(axis=-1), sums[:, s].sum(axis=-1), options.confidence),
               "source": str(source) if isinstance(source, (str, os.PathLike)) else None}
        for s, (name, _, _, source) in enumerate(entries)}, duplicates)


def select(names: Sequence[str], test_f1: np.ndarray, dev: Development | None) -> dict[str, Any]:
    """Which system is selected and on what: the highest development F1 among the systems with development
    predictions, else the highest F1 on the test gold (the first of equals)."""
    if dev is None:
        chosen = names[int(np.argmax(test_f1))]
        return {"on": "test", "system": chosen, "dev_gold": None, "candidates": list(names),
                "text": f"Selected: {chosen}, the highest F1 on this test set. No development data was given, so the "
                        "choice was made on the test set, and its test F1 overstates what a system chosen without "
                        "seeing the test set would score."}
    candidates = [name for name in names if name in dev.figures]
    chosen = max(candidates, key=lambda name: dev.figures[name]["f1"]["value"])
    return {"on": "development", "system": chosen, "dev_gold": dev.gold, "candidates": candidates,
            "text": f"Selected: {chosen}, the highest development F1 ({100 * dev.figures[chosen]['f1']['value']:.2f} "
                    f"on {dev.gold}, among {len(candidates)} system{'s' if len(candidates) > 1 else ''} with "
                    "development predictions); the test set played no part in the choice."}
