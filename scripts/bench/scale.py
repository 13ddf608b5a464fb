"""Past one machine: the Arrow path's peak memory and tokens per second with 1 and 2 processes, and Spark local[1]
and local[2], side by side in one run on one generated Parquet corpus.

    python scripts/bench/scale.py                      # 50M tokens, generated once into --data
    python scripts/bench/scale.py --tokens 2000000     # a quick look

Each route runs in a fresh process (``python scripts/bench/scale.py --route ...``),
which reports its counting time, its peak resident memory and that of its largest
worker process (``ru_maxrss``), and the counts, which must be identical across
routes before any ratio is printed. Spark's session start is timed apart from the
counting. Goals (issue 31): the Arrow path under 300 MB at 50M tokens; 2 processes
at least 1.6x one; Spark local[2] at least 1.6x local[1].
"""
from __future__ import annotations

import argparse
import json
import os
import resource
import subprocess
import sys
import time
from pathlib import Path

import numpy as np

TYPES = ("PER", "LOC", "ORG", "MISC")
ROUTES = ("arrow-1", "arrow-2", "spark-local[1]", "spark-local[2]")
GOAL_MB, GOAL_SPEEDUP = 300, 1.6


def generate(folder: Path, tokens: int, seed: int = 0, files: int = 16, row_group: int = 65_536) -> None:
    """A seeded corpus of about ``tokens`` tokens: sentences of 1 to 30 tokens, gold chunks of 1 to 3 tokens of
    four types, predictions that differ from the gold at 2% of the tokens; ``files`` Parquet files written a row
    group at a time (memory holds one row group)."""
    import pyarrow as pa
    import pyarrow.parquet as pq

    vocab = pa.array(["O", *(f"{p}-{t}" for t in TYPES for p in "BI")])
    rng = np.random.default_rng(seed)
    folder.mkdir(parents=True, exist_ok=True)
    schema = pa.schema([("predictions", pa.list_(pa.string())), ("references", pa.list_(pa.string()))])
    per_file, written = tokens // files, 0
    for k in range(files):
        with pq.ParquetWriter(folder / f"part-{k:03d}.parquet", schema) as writer:
            done = 0
            while done < per_file:
                lengths = rng.integers(1, 31, size=row_group)
                lengths = lengths[np.cumsum(lengths) <= per_file - done] if lengths.sum() > per_file - done else lengths
                if not len(lengths):
                    break
                n = int(lengths.sum())
                gold = np.zeros(n, dtype=np.int32)
                starts = np.flatnonzero(rng.random(n) < 0.08)
                kind = rng.integers(0, len(TYPES), size=len(starts))
                size = rng.integers(1, 4, size=len(starts))
                gold[starts] = 1 + 2 * kind
                for extra in (1, 2):
                    inside = starts[size > extra] + extra
                    gold[inside[inside < n]] = 2 + 2 * kind[size > extra][inside < n]
                pred = np.where(rng.random(n) < 0.02, rng.integers(0, len(vocab), size=n), gold)
                offsets = pa.array(np.concatenate(([0], np.cumsum(lengths))).astype(np.int32))
                columns = [pa.ListArray.from_arrays(offsets, vocab.take(pa.array(codes))) for codes in (pred, gold)]
                writer.write_table(pa.Table.from_arrays(columns, schema=schema), row_group_size=row_group)
                done += n
            written += done
    (folder / "_TOKENS").write_text(str(written))


def peak_mb() -> float:
    """This process's peak resident memory (VmHWM: unlike ru_maxrss, it does not carry the parent's over exec)."""
    for line in Path("/proc/self/status").read_text().splitlines():
        if line.startswith("VmHWM:"):
            return int(line.split()[1]) / 1024
    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024


def tree_cpu() -> float:
    """CPU seconds of this process, its children waited for, and its live descendants (Spark's JVM and Python
    workers)."""
    import psutil

    own = sum(getattr(resource.getrusage(who), field) for who in (resource.RUSAGE_SELF, resource.RUSAGE_CHILDREN)
              for field in ("ru_utime", "ru_stime"))
    live = 0.0
    for child in psutil.Process().children(recursive=True):
        try:
            times = child.cpu_times()
            live += times.user + times.system
        except psutil.NoSuchProcess:
            pass
    return own + live


def run_route(route: str, data: Path) -> dict:
    """Count the corpus by one route in this process; what the parent prints."""
    if route.startswith("arrow-"):
        from nested_span_f1.arrow import count_arrow

        start, cpu = time.perf_counter(), tree_cpu()
        counts = count_arrow(str(data), num_proc=int(route.split("-")[1]), progress=False)
        seconds, setup, partitions = time.perf_counter() - start, 0.0, 0
        cpu = tree_cpu() - cpu
    else:
        import warnings

        os.environ.setdefault("PYSPARK_PYTHON", sys.executable)
        warnings.filterwarnings("ignore", "PySpark does not yet fully support pandas", FutureWarning)
        from nested_span_f1.spark import count_spark, session

        start = time.perf_counter()
        spark = session(route.split("-", 1)[1], "bench_scale", **{"spark.ui.enabled": "false",
                                                                   "spark.ui.showConsoleProgress": "false"})
        spark.sparkContext.setLogLevel("ERROR")
        frame = spark.read.parquet(str(data))
        # the Python workers start (and import pyarrow, pandas, this package) on their first task: a small job on
        # every core first, so that the counting is timed, not the start
        cores = spark.sparkContext.defaultParallelism
        count_spark(frame.limit(1000).repartition(cores))
        setup = time.perf_counter() - start
        start, cpu = time.perf_counter(), tree_cpu()
        counts = count_spark(frame)
        seconds = time.perf_counter() - start
        cpu = tree_cpu() - cpu
        partitions = frame.rdd.getNumPartitions()
        spark.stop()
    return {
        "route": route, "seconds": seconds, "setup_seconds": setup, "partitions": partitions,
        "cpu_seconds": cpu, "peak_mb": peak_mb(),
        "worker_peak_mb": resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss / 1024,
        "counts": counts.to_dict(),
    }


def measure(route: str, data: Path) -> dict:
    out = subprocess.run([sys.executable, __file__, "--route", route, "--data", str(data)], capture_output=True,
                         text=True, check=False)
    if out.returncode:
        raise SystemExit(f"{route} failed:\n{out.stderr[-3000:]}")
    return json.loads(out.stdout.splitlines()[-1])


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--tokens", type=int, default=50_000_000, help="corpus size (default: 50M)")
    parser.add_argument("--data", type=Path, default=Path("/tmp/nested-span-f1-bench-scale"),
                        help="folder of the generated corpus (made when absent or of another size)")
    parser.add_argument("--routes", nargs="+", default=list(ROUTES), choices=ROUTES)
    parser.add_argument("--json", type=Path, help="also write the figures here")
    parser.add_argument("--route", help=argparse.SUPPRESS)
    parser.add_argument("--generate", action="store_true", help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.generate:  # in a fresh process: --data is the corpus folder itself
        generate(args.data, args.tokens)
        return
    if args.route:  # one route, in a fresh process: --data is the corpus folder itself
        print(json.dumps(run_route(args.route, args.data)))
        return
    data = args.data / str(args.tokens)
    if not (data / "_TOKENS").exists():
        # in a process of its own, so that this one stays small (a child's ru_maxrss starts from its parent's)
        start = time.perf_counter()
        subprocess.run([sys.executable, __file__, "--generate", "--tokens", str(args.tokens), "--data", str(data)],
                       check=True)
        print(f"generated {data} in {time.perf_counter() - start:.1f} s", file=sys.stderr)
    tokens = int((data / "_TOKENS").read_text())
    size = sum(p.stat().st_size for p in data.glob("*.parquet")) / 2**20
    print(f"corpus: {tokens:,} tokens in {len(list(data.glob('*.parquet')))} Parquet files ({size:.0f} MB); "
          f"{os.cpu_count()} cores; load average before: {os.getloadavg()[0]:.2f}")
    results = {route: measure(route, data) for route in args.routes}
    first = next(iter(results.values()))["counts"]
    assert all(r["counts"] == first for r in results.values()), "the routes' counts differ"
    print(f"\n{'route':<16} {'seconds':>8} {'tokens/s':>12} {'CPU s':>7} {'peak MB':>8} {'worker MB':>9} "
          f"{'start s':>8} {'partitions':>10}")
    for route, r in results.items():
        worker = f"{r['worker_peak_mb']:.0f}" if route == "arrow-2" else "-"
        start, parts = (f"{r['setup_seconds']:.1f}", str(r["partitions"])) if route.startswith("spark") else ("-", "-")
        print(f"{route:<16} {r['seconds']:>8.2f} {tokens / r['seconds']:>12,.0f} {r['cpu_seconds']:>7.1f} "
              f"{r['peak_mb']:>8.0f} {worker:>9} {start:>8} {parts:>10}")
    print(f"\nidentical counts across routes: yes; load average after: {os.getloadavg()[0]:.2f}")
    goals = []
    for route in ("arrow-1", "arrow-2"):
        if route in results:
            peak = max(results[route]["peak_mb"], results[route]["worker_peak_mb"] if route == "arrow-2" else 0)
            goals.append((f"{route} peak memory < {GOAL_MB} MB (largest process)", f"{peak:.0f} MB", peak < GOAL_MB))
    for one, two in (("arrow-1", "arrow-2"), ("spark-local[1]", "spark-local[2]")):
        if one in results and two in results:
            ratio = results[one]["seconds"] / results[two]["seconds"]
            goals.append((f"{two} >= {GOAL_SPEEDUP}x {one}", f"{ratio:.2f}x", ratio >= GOAL_SPEEDUP))
    for goal, got, met in goals:
        print(f"{goal:<44} {got:>10}  {'met' if met else 'MISSED'}")
    if args.json:
        args.json.write_text(json.dumps({"tokens": tokens, "results": {
            k: {key: v for key, v in r.items() if key != "counts"} for k, r in results.items()}}, indent=2))


if __name__ == "__main__":
    main()
