"""Benchmark prediction sets against one gold: scores with bootstrap intervals and paired significance tests.

:func:`benchmark` runs its stages in order, each a function with plain data in and out, in a module of its own:
the options checked (:mod:`.options`), the gold and every system read and paired with it (:mod:`.systems`), each
system matched once and counted per resampling unit and label (:mod:`.matrices`), the rounds the comparisons need
(:mod:`.pairs`), development data scored and a system selected (:mod:`.development`), the counts resampled
(:mod:`.stats`), each system's figures (:mod:`.figures`), the paired tests (:mod:`.significance`), and what was
run with the result (:mod:`.result`). Every figure is read from the count matrices and their resamples, apart from
the point values of nested versus flat recall and of the lenient error categories, which the metrics give.

>>> gold = [[(0, 2, "PER")], [(1, 2, "LOC")], [(0, 1, "ORG")]]
>>> result = benchmark(gold, {"a": gold, "b": [[(0, 2, "PER")], [], []]}, n_resamples=200, progress=False)
>>> result.systems[0]["f1"]["value"], round(result.systems[1]["f1"]["value"], 4)
(1.0, 0.5)
>>> result.best["name"]
'a'
"""
from __future__ import annotations

from collections.abc import Mapping, Sequence

from .development import score_development, select
from .figures import score_systems
from .inputs import Source
from .matrices import count_systems, warn_duplicates
from .options import check_options
from .pairs import pairs, plan_rounds
from .result import BenchmarkResult, run_settings, sentences
from .significance import compare_pairs
from .stats import micro_f1, resample
from .systems import Predictions, read_systems


def benchmark(references: Source, predictions: Predictions, *, comparisons: str = "auto", baseline: str | None = None,
              dev_references: Source | None = None, dev_predictions: Predictions | None = None,
              n_resamples: int | None = None, n_permutations: int | None = None, seed: int = 0,
              confidence: float = 0.95, alpha: float = 0.05, units_by: str = "auto", format: str | None = None,
              gold_format: str | None = None, pred_format: str | None = None, scheme: str | None = None,
              mode: str | None = None, dataset: str | None = None, progress: bool = True, trim: bool = False,
              snap: str | None = None, types: Sequence[str] | None = None, spans_key: str | None = None,
              event_triggers: bool = True, offsets: str | Mapping[str, str] = "codepoints") -> BenchmarkResult:
    """Score prediction sets against one gold with bootstrap intervals and paired significance tests.

    Args:
        references: the gold: a file (nested format or CoNLL tag columns), a
            :class:`~nested_span_f1.formats.Corpus`, or per-sentence tag or span lists.
        predictions: ``{name: source}`` in the gold's kind (a directory stands for
            its ``checkpoint-STEP`` files or folders, named ``name/checkpoint-STEP``,
            found by :func:`~nested_span_f1.benchmark.inputs.checkpoints`), or one
            directory of checkpoints.
        format: every file's format (a reader's name, ``"conll"``), detected when None;
            ``gold_format`` and ``pred_format`` stand in its place where given.
        comparisons, baseline, dev_references, dev_predictions, n_resamples, n_permutations, seed, confidence,
            alpha, units_by, gold_format, pred_format, scheme, mode, dataset, progress, trim, snap, types,
            spans_key, event_triggers: as :class:`~nested_span_f1.benchmark.options.Options` describes them.
        offsets: what the character offsets of text spans, pipeline output and brat count: ``"codepoints"`` (the
            default), ``"utf16"`` or ``"bytes"`` for every file, or ``{"gold": unit, "pred": unit}`` per side.

    Raises:
        ValueError: unreadable or misaligned inputs, an empty gold, repeated names,
            options out of range (each named with its value), too few resamples for
            the comparisons asked for, an option for texts that no side gives anything to do.
        TypeError: an option or a source of the wrong type (named with its value).
    """
    options = check_options(
        comparisons=comparisons, baseline=baseline, dev_references=dev_references, dev_predictions=dev_predictions,
        n_resamples=n_resamples, n_permutations=n_permutations, seed=seed, confidence=confidence, alpha=alpha,
        units_by=units_by, format=format, gold_format=gold_format, pred_format=pred_format, scheme=scheme, mode=mode,
        dataset=dataset, progress=progress, trim=trim, snap=snap, types=types, spans_key=spans_key,
        event_triggers=event_triggers, offsets=offsets)
    read = read_systems(references, predictions, options)
    counted = count_systems(read)
    rounds = plan_rounds(read.kind, read.names, read.runs, options.baseline, options.alpha, options.n_resamples,
                         options.n_permutations)
    dev = score_development(predictions, read.systems, options, rounds.n_resamples)
    warn_duplicates(counted.duplicates + (dev.duplicates if dev is not None else []))
    selection = select(read.names, micro_f1(counted.totals), dev)
    sums, swaps = resample(counted.matrices, rounds.n_resamples, rounds.n_permutations, options.seed, options.progress)
    systems = score_systems(read, counted, sums, dev.figures if dev is not None else None, rounds.n_resamples, options)
    settings = run_settings(read, rounds, selection, options)
    chosen = pairs(read.kind, read.names, read.runs, options.baseline, read.names.index(selection["system"]))
    f1_samples = micro_f1(sums)
    compared = compare_pairs(read.names, chosen, counted.totals, f1_samples, swaps, rounds.n_permutations,
                             options.confidence, options.alpha)
    return BenchmarkResult(settings, systems, compared, {name: f1_samples[:, s] for s, name in enumerate(read.names)},
                           sentences(read, counted))
