"""Speed of the threshold curve (issue 39) against re-scoring at 100 thresholds, measured side by side in one run.

Seeded synthetic nested data: ``--gold`` gold spans (default 100,000) in sentences of
40 tokens, 5 a sentence, of 4 types; ``--pred`` scored predictions (default
1,000,000): 85% of the gold spans with scores drawn high, the rest random spans
(nested and crossing ones among them) with scores drawn low, every score a
distinct float. Timed calls, each given the same per-sentence lists of
``(start, end, label, score)`` tuples:

1. the whole curve: ``threshold_curve`` (every distinct score: P, R, F1, tp, fp, fn,
   average precision, best threshold, overall and per type); goal: under 3 s on one
   core; then its ``to_dict()`` (every point as JSON-ready dicts), timed apart;
2. re-scoring at 100 thresholds (0.00, 0.01, ..., 0.99): the spans at or above each
   kept, per sentence, and scored by ``score_nested``, as a user's loop does it;
   goal: the curve at least 50x faster. Before a ratio is printed, each of the 100
   re-scored results (tp, fp, fn, P, R, F1) is checked equal to the curve's point at
   that threshold;
3. for scale, not goals: the curve with ``--metric lenient`` and with
   ``--decode flat``; and from the same predictions (issue 50) the curve over k of
   keeping each sentence's top k, the reliability table with the expected
   calibration error (ten bins, overall and per type), each from the predictions'
   gains as the command computes them, and the bootstrap interval at the threshold
   0.5 (1,000 resamples of the 20,000 sentences, the spans kept matched again).

Times are CPU seconds of this process (``time.process_time``), medians of
``--repeat`` runs of each curve (re-scoring runs once: it is the slow side), so
that other processes on a shared machine do not inflate them.

``--baseline DIR`` instead times the whole curve of this checkout against the one
of another checkout (``DIR``, holding ``nested_span_f1/``; its package is copied
under another name, which its relative imports allow) in the same process, the
runs alternating between the two, so that a busy machine slows both alike: the
ratio tells whether a change moved the curve, where the absolute figure moves
with the machine's load.

    OMP_NUM_THREADS=1 python scripts/bench/thresholds.py
    OMP_NUM_THREADS=1 python scripts/bench/thresholds.py --repeat 5 --json
    OMP_NUM_THREADS=1 python scripts/bench/thresholds.py --baseline ../main --repeat 10
"""
from __future__ import annotations

import argparse
import importlib
import json
import shutil
import statistics
import sys
import tempfile
import time
import warnings
from pathlib import Path
from typing import Any

import numpy as np

from nested_span_f1 import score_nested
from nested_span_f1.benchmark import threshold_intervals
from nested_span_f1.thresholds import scored_pair, threshold_curve
from nested_span_f1.thresholds.calibration import reliability
from nested_span_f1.thresholds.score import gains
from nested_span_f1.thresholds.topk import curve_over_k

LENGTH = 40
LABELS = ("PER", "ORG", "LOC", "MISC")


def data(n_gold: int = 100_000, n_pred: int = 1_000_000, seed: int = 0) -> tuple[list[list[tuple[int, int, str]]],
                                                                                 list[list[tuple[Any, ...]]]]:
    """Gold spans (5 a sentence) and scored predictions (see the module docstring), as per-sentence lists."""
    rng = np.random.default_rng(seed)
    n_sentences = n_gold // 5
    gold: list[list[tuple[int, int, str]]] = []
    for _ in range(n_sentences):
        found: set[tuple[int, int, str]] = set()
        while len(found) < 5:
            start = int(rng.integers(0, LENGTH - 1))
            found.add((start, int(min(LENGTH, start + rng.integers(1, 6))), LABELS[int(rng.integers(0, 4))]))
        gold.append(sorted(found))
    kept = rng.random(n_gold) < 0.85
    pred: list[list[tuple[Any, ...]]] = [[] for _ in range(n_sentences)]
    found_scores = rng.beta(5, 2, int(kept.sum())).tolist()  # found spans: high scores, mostly
    for k, s in enumerate(np.flatnonzero(kept).tolist()):
        pred[s // 5].append((*gold[s // 5][s % 5], found_scores[k]))
    rest = n_pred - len(found_scores)
    starts = rng.integers(0, LENGTH - 1, rest)
    ends = np.minimum(LENGTH, starts + rng.integers(1, 8, rest))
    rows = zip(rng.integers(0, n_sentences, rest).tolist(), starts.tolist(), ends.tolist(),
               rng.integers(0, 4, rest).tolist(), rng.beta(2, 5, rest).tolist())  # random spans: low scores, mostly
    for s, b, e, lab, score in rows:
        pred[s].append((b, e, LABELS[lab], score))
    return gold, pred


def _cpu(call: Any) -> tuple[float, Any]:
    start = time.process_time()
    value = call()
    return time.process_time() - start, value


def measure(n_gold: int = 100_000, n_pred: int = 1_000_000, repeat: int = 3, thresholds: int = 100,
            seed: int = 0) -> dict[str, Any]:
    """The figures of the module docstring."""
    gold, pred = data(n_gold, n_pred, seed)
    lengths = [LENGTH] * len(gold)
    warnings.simplefilter("ignore")  # duplicates among the random spans: counted in the curve, not shouted

    def curve(**options: Any) -> Any:
        return threshold_curve(gold, pred, lengths=lengths, zero_division=0, **options)

    runs = {name: [] for name in ("nested", "to_dict", "lenient", "flat")}
    found = None
    for _ in range(repeat):
        spent, found = _cpu(curve)
        runs["nested"].append(spent)
        runs["to_dict"].append(_cpu(found.to_dict)[0])
        runs["lenient"].append(_cpu(lambda: curve(metric="lenient"))[0])
        runs["flat"].append(_cpu(lambda: curve(decode="flat"))[0])
    assert found is not None
    pair = scored_pair(gold, pred, lengths=lengths)
    found_gains = gains(pair)
    top_k = [_cpu(lambda: curve_over_k(found_gains))[0] for _ in range(repeat)]
    calibration = [_cpu(lambda: reliability(found_gains))[0] for _ in range(repeat)]
    interval = _cpu(lambda: threshold_intervals(pair, 0.5, n_resamples=1000))[0]
    levels = [k / thresholds for k in range(thresholds)]
    rescored, equal = [], True
    start = time.process_time()
    for level in levels:
        kept = [[s[:3] for s in spans if s[3] >= level] for spans in pred]
        rescored.append(score_nested(kept, gold, lengths=lengths, zero_division=0))
    rescoring = time.process_time() - start
    cut = found.thresholds.tolist()
    for level, result in zip(levels, rescored):
        k = sum(1 for t in cut if t >= level) - 1
        point = (int(found.tp[k]), int(found.fp[k]), int(found.fn[k]), float(found.precision[k]),
                 float(found.recall[k]), float(found.f1[k])) if k >= 0 else None
        expected = (result["tp"], result["fp"], result["fn"], result["overall_precision"], result["overall_recall"],
                    result["overall_f1"])
        equal = equal and point == expected
    median = {name: statistics.median(times) for name, times in runs.items()}
    return {
        "gold_spans": sum(map(len, gold)), "predicted_spans": sum(map(len, pred)), "sentences": len(gold),
        "distinct_thresholds": len(found), "duplicate_predictions": found.notes["duplicate_predictions"],
        "repeat": repeat, "curve_seconds": median["nested"], "curve_runs": runs["nested"],
        "to_dict_seconds": median["to_dict"], "lenient_curve_seconds": median["lenient"],
        "flat_curve_seconds": median["flat"], "top_k_curve_seconds": statistics.median(top_k),
        "calibration_seconds": statistics.median(calibration), "interval_seconds": interval,
        "rescore_thresholds": thresholds, "rescore_seconds": rescoring,
        "equal": equal, "speedup": rescoring / median["nested"] if equal else None,
        "average_precision": found.average_precision, "best": found.best,
    }


def side_by_side(baseline: str, n_gold: int = 100_000, n_pred: int = 1_000_000, repeat: int = 10,
                 seed: int = 0) -> dict[str, Any]:
    """The whole curve of this checkout and of the checkout ``baseline``, run alternately in this process (see the
    module docstring), both checked to give the same points: their medians and the ratio."""
    gold, pred = data(n_gold, n_pred, seed)
    lengths = [LENGTH] * len(gold)
    warnings.simplefilter("ignore")
    with tempfile.TemporaryDirectory() as folder:
        shutil.copytree(Path(baseline) / "nested_span_f1", Path(folder) / "nested_span_f1_baseline")
        sys.path.insert(0, folder)
        try:
            theirs = importlib.import_module("nested_span_f1_baseline.thresholds").threshold_curve
        finally:
            sys.path.remove(folder)
        curves = {"this": threshold_curve, "baseline": theirs}
        runs: dict[str, list[float]] = {name: [] for name in curves}
        found = {}
        for k in range(repeat):
            for name in ("this", "baseline") if k % 2 == 0 else ("baseline", "this"):
                spent, found[name] = _cpu(lambda f=curves[name]: f(gold, pred, lengths=lengths, zero_division=0))
                runs[name].append(spent)
    equal = found["this"].points() == found["baseline"].points()
    median = {name: statistics.median(times) for name, times in runs.items()}
    return {"baseline": baseline, "repeat": repeat, "equal": equal, "this_seconds": median["this"],
            "baseline_seconds": median["baseline"], "ratio": median["this"] / median["baseline"], "runs": runs}


def report(figures: dict[str, Any]) -> None:
    print(f"{figures['predicted_spans']:,} scored spans ({figures['distinct_thresholds']:,} distinct after "
          f"{figures['duplicate_predictions']:,} repeats) against {figures['gold_spans']:,} gold spans in "
          f"{figures['sentences']:,} sentences; CPU seconds, median of {figures['repeat']} runs")
    print(f"  threshold_curve (nested, every threshold, per type):  {figures['curve_seconds']:.3f} s "
          f"(runs: {', '.join(f'{t:.3f}' for t in figures['curve_runs'])})")
    print(f"  its to_dict() (every point as a dict):                {figures['to_dict_seconds']:.3f} s")
    print(f"  threshold_curve --metric lenient:                     {figures['lenient_curve_seconds']:.3f} s")
    print(f"  threshold_curve --decode flat:                        {figures['flat_curve_seconds']:.3f} s")
    print(f"  the curve over k (top k per sentence), from the gains: {figures['top_k_curve_seconds']:.3f} s")
    print(f"  the reliability tables and ECE, from the gains:        {figures['calibration_seconds']:.3f} s")
    print(f"  the bootstrap interval at 0.5 (1,000 resamples):       {figures['interval_seconds']:.3f} s")
    print(f"  re-scoring at {figures['rescore_thresholds']} thresholds with score_nested:         "
          f"{figures['rescore_seconds']:.1f} s")
    if not figures["equal"]:
        print("  the re-scored figures differ from the curve's: no ratio")
        return
    print(f"  goal: the whole curve under 3 s: {figures['curve_seconds']:.3f} s: "
          f"{'met' if figures['curve_seconds'] < 3 else 'MISSED'}")
    print(f"  goal: at least 50x faster than re-scoring at {figures['rescore_thresholds']} thresholds: "
          f"{figures['speedup']:.0f}x: {'met' if figures['speedup'] >= 50 else 'MISSED'}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--gold", type=int, default=100_000, help="gold spans (default 100,000)")
    parser.add_argument("--pred", type=int, default=1_000_000, help="scored predictions (default 1,000,000)")
    parser.add_argument("--repeat", type=int, default=3, help="runs of each curve; the median is reported")
    parser.add_argument("--thresholds", type=int, default=100, help="thresholds re-scored (default 100)")
    parser.add_argument("--json", action="store_true", help="print the figures as JSON")
    parser.add_argument("--baseline", metavar="DIR",
                        help="time the whole curve against another checkout's, alternating in one process")
    args = parser.parse_args()
    if args.baseline:
        compared = side_by_side(args.baseline, args.gold, args.pred, args.repeat)
        if args.json:
            print(json.dumps(compared, indent=2))
            return
        print(f"the whole curve, median of {compared['repeat']} alternating runs each (CPU seconds): this checkout "
              f"{compared['this_seconds']:.3f} s, {compared['baseline']} {compared['baseline_seconds']:.3f} s: "
              f"ratio {compared['ratio']:.3f}; the same points: {compared['equal']}")
        return
    figures = measure(args.gold, args.pred, args.repeat, args.thresholds)
    if args.json:
        print(json.dumps(figures, indent=2))
        return
    report(figures)


if __name__ == "__main__":
    main()
