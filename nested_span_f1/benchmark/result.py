"""The last stage of a benchmark: what was run, and the result with its views.

:func:`run_settings` says what was run (the gold and the split it matches, the
units, the rounds, the comparisons, the selection); :class:`BenchmarkResult`
holds every figure and gives the JSON, Markdown, HTML, the model card and the
plot.
"""
from __future__ import annotations

import json
import os
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import numpy as np

from .. import __version__
from .html import Sentences
from .matrices import Counted
from .options import Options
from .pairs import Rounds, describe
from .splits import gold_counts, identify
from .systems import Read


@dataclass(frozen=True)
class BenchmarkResult:
    """Every figure of a benchmark, and its views.

    Attributes:
        settings: what was run (gold, units, resamples, seed, confidence, ...; ``length_unit``: what lengths
            count, the gold's tokens or characters).
        systems: one dict per system, in report order (docs/benchmark.md says what the keys mean).
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
        from ..render.plots import plot_benchmark

        return plot_benchmark(self.to_dict(), None if path is None else str(path))


BRAT_WARNINGS = {"brat_empty_ann_files", "brat_undeclared_type_lines"}
"""What a brat gold's reading found that the report's header says: documents with an empty ``.ann`` (scored as
marking nothing) and ``T`` lines of types its ``annotation.conf`` does not declare."""


def run_settings(read: Read, rounds: Rounds, selection: dict[str, Any], options: Options) -> dict[str, Any]:
    """What was run: the gold, its counts and the standard split they match (a gold named as a dataset with
    known splits that matches none of them warns), how a brat gold was read when that found an empty ``.ann`` or
    an undeclared type, the units, the rounds, the comparisons and the selection."""
    gold, dataset = read.gold, options.dataset
    counts = gold_counts(gold, read.found[0].references)
    said = gold.corpus is not None and BRAT_WARNINGS & set(gold.corpus.notes)
    return {
        "gold": gold.name, "dataset": dataset or Path(gold.name).stem.split(".")[0], "gold_counts": counts,
        "split": identify(counts, dataset), "units": read.unit_name, "length_unit": gold.unit,
        "n_units": read.n_units, "sentences": gold.n_sentences, "n_resamples": rounds.n_resamples,
        "n_permutations": rounds.n_permutations, "seed": options.seed, "confidence": options.confidence,
        "alpha": options.alpha, "comparisons": read.kind,
        "compared": describe(read.kind, read.runs, options.baseline, selection["system"]),
        "baseline": options.baseline, "rounds_needed": rounds.needed, "raised_from": rounds.raised_from,
        "selection": selection, "scheme": options.scheme, "mode": options.mode, "version": __version__,
        **({"gold_read": gold.corpus.conversion} if said else {}),  # type: ignore[union-attr]
    }


def sentences(read: Read, counted: Counted) -> Sentences:
    """What the HTML report's error browser draws: the gold's tokens and each system's lenient matching."""
    gold = read.gold
    tokens = gold.corpus.tokens if gold.corpus is not None else gold.columns.tokens if gold.columns else None
    return Sentences(tokens, gold.n_sentences, dict(zip(read.names, counted.lenient)),
                     {name: f.units for name, f in zip(read.names, read.found) if gold.unit == "tokens"})
