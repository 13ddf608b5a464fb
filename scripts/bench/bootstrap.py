"""Speed of the benchmark's bootstrap on count matrices against re-scoring each resample with score_nested.

One system on the GENIA test set (the gold with 12% of its entities removed,
seeded), documents resampled. Ours: the median of ``repeat`` runs of (a) the
resampling alone, 1,000 resamples of the system's count matrix summed and scored
(:func:`nested_span_f1.benchmark.stats.bootstrap_sums` and ``prf``; building the count matrix,
one match, is timed on its own), and (b) the whole
``benchmark()`` call (matching, count matrix, bootstrap, randomization, nested
and lenient point values). Re-scoring: ``rescore`` resamples (the same indices)
are rebuilt as sentence lists and scored by ``score_nested``; their mean time is
extrapolated to ``n_resamples`` (the rest would take minutes), and their F1s
are checked equal to the bootstrap's. Peak memory: tracemalloc's peak during
one ``benchmark()`` call.

    python scripts/bench/bootstrap.py                       # ../shared/data GENIA test
    python scripts/bench/bootstrap.py --units sentences     # 1732 sentences resampled instead
    python scripts/bench/bootstrap.py --gold FILE --resamples 1000 --rescore 20 --json

``run.py`` calls :func:`measure` in the benchmark's one run.
"""
from __future__ import annotations

import argparse
import json
import statistics
import time
import tracemalloc
from pathlib import Path
from typing import Any

import numpy as np
from data import GENIA_DOCSPLIT_TEST

from nested_span_f1 import score_nested
from nested_span_f1.benchmark.compare import benchmark
from nested_span_f1.benchmark.inputs import pair, read_side, units
from nested_span_f1.benchmark.matrices import unit_matrix
from nested_span_f1.benchmark.stats import bootstrap_sums, prf, resample_indices
from nested_span_f1.formats import Corpus, read_corpus


def _system(gold: Corpus, share: float = 0.12, seed: int = 0) -> Corpus:
    rng = np.random.default_rng(seed)
    entities = [[e for e in ents if rng.random() >= share] for ents in gold.entities]
    return Corpus(gold.tokens, entities, gold.sentence_ids, gold.doc_ids, gold.format, "", "system")


def _median_seconds(call: Any, repeat: int) -> float:
    times = []
    for _ in range(repeat):
        start = time.perf_counter()
        call()
        times.append(time.perf_counter() - start)
    return statistics.median(times)


def measure(gold_path: str | Path = GENIA_DOCSPLIT_TEST, n_resamples: int = 1000, rescore: int = 20, seed: int = 0,
            repeat: int = 5, units_by: str = "auto") -> dict[str, Any]:
    """Seconds and peak memory of the bootstrap on count matrices and of re-scoring, side by side."""
    gold = read_corpus(gold_path)
    system = _system(gold)
    options = {"n_resamples": n_resamples, "seed": seed, "units_by": units_by, "progress": False}
    result = benchmark(gold, {"system": system}, **options)
    gold_side = read_side(gold)
    unit_of, unit_name = units(gold_side, units_by)
    n_units = int(unit_of.max()) + 1
    found = pair(gold_side, read_side(system))
    labels = sorted(set(found.predictions.labels + found.references.labels))

    def count() -> np.ndarray:
        return unit_matrix(found, unit_of, n_units, labels)[0]

    matrix = count().reshape(n_units, -1)

    def resample() -> None:
        sums = bootstrap_sums(matrix, n_resamples, seed).reshape(n_resamples, 3, -1).sum(axis=-1)
        prf(sums[:, 0], sums[:, 1], sums[:, 2])

    matching = _median_seconds(count, repeat)
    ours = _median_seconds(resample, repeat)
    whole = _median_seconds(lambda: benchmark(gold, {"system": system}, **options), repeat)
    tracemalloc.start()
    benchmark(gold, {"system": system}, **options)
    peak = tracemalloc.get_traced_memory()[1]
    tracemalloc.stop()

    members = [np.flatnonzero(unit_of == u) for u in range(n_units)]
    rows = resample_indices(n_units, n_resamples, seed)[:rescore]
    start = time.perf_counter()
    rescored = []
    for row in rows:
        sentences = np.concatenate([members[u] for u in row]).tolist()
        rescored.append(score_nested([system.entities[s] for s in sentences], [gold.entities[s] for s in sentences],
                                     lengths=[len(gold.tokens[s]) for s in sentences], zero_division=0)["overall_f1"])
    per_rescore = (time.perf_counter() - start) / len(rows)
    if rescored != result.samples["system"][:rescore].tolist():
        raise RuntimeError("re-scored F1s differ from the bootstrap's: the comparison would be meaningless")
    return {
        "gold": str(gold_path), "units": unit_name, "n_units": n_units, "sentences": len(gold),
        "n_resamples": n_resamples, "count_matrix_seconds": matching, "resampling_seconds": ours, "benchmark_call_seconds": whole,
        "benchmark_call_peak_mb": peak / 2**20, "rescore_measured": len(rows),
        "rescore_seconds_each": per_rescore, "rescore_seconds_extrapolated": per_rescore * n_resamples,
        "speedup_resampling": per_rescore * n_resamples / ours,
        "speedup_benchmark_call": per_rescore * n_resamples / whole,
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--gold", default=str(GENIA_DOCSPLIT_TEST), help="gold file (default: ../shared/data GENIA docsplit test)")
    parser.add_argument("--resamples", type=int, default=1000)
    parser.add_argument("--rescore", type=int, default=20, help="resamples actually re-scored (then extrapolated)")
    parser.add_argument("--repeat", type=int, default=5, help="runs of ours; the median is reported")
    parser.add_argument("--units", choices=["auto", "documents", "sentences"], default="auto")
    parser.add_argument("--json", action="store_true", help="print the figures as JSON")
    args = parser.parse_args()
    figures = measure(args.gold, args.resamples, args.rescore, repeat=args.repeat, units_by=args.units)
    if args.json:
        print(json.dumps(figures, indent=2))
        return
    print(f"{figures['gold']}: {figures['sentences']} sentences, {figures['n_units']} {figures['units']}, "
          f"{figures['n_resamples']} resamples of one system")
    print(f"  count matrix (one match):                {1000 * figures['count_matrix_seconds']:.1f} ms")
    print(f"  resampling (count matrix sums + scores): {1000 * figures['resampling_seconds']:.1f} ms")
    print(f"  whole benchmark() call:                  {1000 * figures['benchmark_call_seconds']:.1f} ms, "
          f"peak {figures['benchmark_call_peak_mb']:.1f} MB (tracemalloc)")
    print(f"  re-scoring with score_nested:            {1000 * figures['rescore_seconds_each']:.1f} ms each "
          f"({figures['rescore_measured']} measured) -> {figures['rescore_seconds_extrapolated']:.1f} s extrapolated")
    print(f"  speed-up: {figures['speedup_resampling']:.0f}x (resampling), "
          f"{figures['speedup_benchmark_call']:.0f}x (whole call)")


if __name__ == "__main__":
    main()
