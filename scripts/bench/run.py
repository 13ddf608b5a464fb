"""The benchmark in one run: span F1 against seqeval, nervaluate and evaluate's seqeval module, and every other goal.

Jobs, in the order they run (``--jobs`` picks some):

- ``flat``: every flat tool of ``tools.py`` on seeded synthetic CoNLL-like data
  (``--sizes`` sentences) and on the CoNLL-2003 test outputs, each measurement
  in a fresh process (``worker.py``), in rounds (``runs.py``); a ratio to the
  baseline only where the numbers are equal (``flat.py``);
- ``nested``: ``score_nested`` on GENIA test; ``streaming``: ``count_exact`` in
  batches of 32 at 35k and 350k sentences (peak memory);
- ``import``: the package's import time (``imports.py``);
- ``bootstrap``: the benchmark command's resampling against re-scoring (``bootstrap.py``);
- ``commands``: the streaming CLI commands on 1M and 10M-token files, beside
  conlleval.pl when ``--conlleval-pl`` names a copy (``commands.py``).

Then the goal table (``goals.py``): each goal, what this run measured, and
whether it is met. Four scripts beside it measure goals of their own, side by
side in one run each: ``text.py`` (text spans against token spans, reading
pipeline output), ``scale.py`` (Arrow with 1 and 2 processes, Spark),
``answers.py`` (language models' entity lists read, placed and scored) and
``agreement.py`` (agreement between three annotators of 10,000 GENIA documents).

    python scripts/bench/run.py --conlleval-pl /tmp/conlleval.pl --json bench.json   # everything
    python scripts/bench/run.py --quick                                               # a smoke run
    python scripts/bench/run.py --sizes 3500 --repeat 11 --jobs flat --tools strings,strings-strict

At eval sizes (3.5k sentences, CoNLL-2003) our calls take a few milliseconds.
On a shared VM, some fresh processes (a quarter to a half of them, in
stretches) run the same work up to 1.7x slower than the others, and a slow
stretch weighs far more on a 5 ms call than on seqeval's 200 ms: a median of
11 such calls can land in either mode. ``--small-repeat`` gives every tool
more rounds on data under 10k sentences, alternating as before.
"""
from __future__ import annotations

import argparse
import compileall
import datetime
import json
import os
import platform
import subprocess
import sys
from pathlib import Path
from typing import Any

import bootstrap
import commands
import data
import flat
import goals
import imports
from runs import WorkerFailed, rounds
from tools import TOOLS

JOBS = ("flat", "nested", "streaming", "import", "bootstrap", "commands")
FLAT_TOOLS = [tool for tool, entry in TOOLS.items() if entry.job == "flat"]


def compile_package() -> None:
    """Write the package's bytecode, as pip does when it installs a package.

    An editable install run with PYTHONDONTWRITEBYTECODE set would otherwise
    compile every module again in every fresh worker, a cost that seqeval,
    nervaluate and evaluate, installed by pip, never pay.
    """
    compileall.compile_dir(str(data.ROOT / "nested_span_f1"), quiet=1)


def machine() -> dict[str, str]:
    """The CPU, cores, Python and the versions of the packages compared; the commit and date of the run."""
    from importlib.metadata import PackageNotFoundError, version

    cpu = "unknown"
    try:
        for line in Path("/proc/cpuinfo").read_text().splitlines():
            if line.startswith("model name"):
                cpu = line.split(":", 1)[1].strip()
                break
    except OSError:
        pass
    versions = {}
    for name in ("numpy", "seqeval", "nervaluate", "evaluate", "datasets", "pyarrow"):
        try:
            versions[name] = version(name)
        except PackageNotFoundError:
            versions[name] = "absent"
    commit = subprocess.run(["git", "rev-parse", "--short", "HEAD"], capture_output=True, text=True, cwd=data.ROOT,
                            check=False).stdout.strip() or "unknown"
    return {"cpu": cpu, "cores": str(os.cpu_count()), "python": platform.python_version(),
            "platform": platform.platform(), "commit": commit, "date": datetime.date.today().isoformat(), **versions}


def _tools(names: str) -> list[str]:
    """The flat tools asked for, with the baselines they are timed against, in the table's order."""
    if not names:
        return FLAT_TOOLS
    asked = set(names.split(","))
    unknown = sorted(asked - set(FLAT_TOOLS))
    if unknown:
        raise SystemExit(f"run.py: unknown tool {', '.join(unknown)}; the flat tools are {', '.join(FLAT_TOOLS)}")
    asked |= {TOOLS[tool].baseline for tool in asked if TOOLS[tool].baseline}
    return [tool for tool in FLAT_TOOLS if tool in asked]


def _sizes(text: str) -> list[int]:
    try:
        sizes = [int(s) for s in text.split(",")]
    except ValueError:
        sizes = []
    if not sizes or min(sizes) < 1:
        raise argparse.ArgumentTypeError(f"{text!r} is not a comma-separated list of positive whole numbers")
    return sizes


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--jobs", default=",".join(JOBS), help=f"comma-separated, of {', '.join(JOBS)} (default: all)")
    parser.add_argument("--tools", default="", help=f"flat tools, comma-separated, of {', '.join(FLAT_TOOLS)} "
                                                    "(default: all; each brings its baseline)")
    parser.add_argument("--sizes", type=_sizes, default="3500,35000,350000",
                        help="synthetic sizes in sentences, comma-separated")
    parser.add_argument("--repeat", type=int, default=3, help="fresh-process runs per tool and size (median)")
    parser.add_argument("--repeat-large", type=int, default=1, help="runs per tool for sizes >= 100k sentences")
    parser.add_argument("--small-repeat", type=int, default=0,
                        help="runs per tool on data under 10k sentences (3.5k, CoNLL-2003), if more than --repeat")
    parser.add_argument("--quick", action="store_true", help="smoke run: 2000 sentences, one run each, small files")
    parser.add_argument("--no-conll", action="store_true", help="leave out the CoNLL-2003 outputs")
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--json", help="also write the results to this file")
    parser.add_argument("--conlleval-pl", metavar="PATH",
                        help="conlleval.pl, to time the commands against (without it that comparison is left out)")
    parser.add_argument("--command-sizes", type=_sizes, default="1000000,10000000",
                        help="tokens per file for the commands job")
    args = parser.parse_args()
    jobs = args.jobs.split(",")
    if set(jobs) - set(JOBS):
        parser.error(f"unknown job {', '.join(sorted(set(jobs) - set(JOBS)))}; the jobs are {', '.join(JOBS)}")
    try:
        results = measure(args, jobs, _tools(args.tools))
    except WorkerFailed as error:
        sys.exit(f"run.py: {error}")
    report(results)
    if args.json:
        Path(args.json).write_text(json.dumps(results, indent=1))


def measure(args: argparse.Namespace, jobs: list[str], tools: list[str]) -> dict[str, Any]:
    """Every job asked for; the results as ``report`` and ``goals.judge`` read them (and ``--json`` writes them)."""
    from tqdm import tqdm

    repeat = 1 if args.quick else args.repeat
    datasets = ["2000"] if args.quick else [str(size) for size in args.sizes]
    notes = []
    if args.no_conll:
        notes.append("CoNLL-2003 left out (--no-conll)")
    elif (data.CONLL2003 / "test.gold.conll").exists():
        datasets.append("conll2003")
    else:
        notes.append(f"CoNLL-2003 left out: {data.CONLL2003} not found")
    if "nested" in jobs and not data.GENIA_CLASSIC_TEST.exists():
        jobs.remove("nested")
        notes.append(f"nested job left out: {data.GENIA_CLASSIC_TEST} not found")
    if "bootstrap" in jobs and not data.GENIA_DOCSPLIT_TEST.exists():
        jobs.remove("bootstrap")
        notes.append(f"bootstrap job left out: {data.GENIA_DOCSPLIT_TEST} not found")
    if "commands" in jobs and not Path(commands.TIME).exists():
        jobs.remove("commands")
        notes.append(f"commands job left out: {commands.TIME} (GNU time) not found")
    streaming = ["2000", "20000"] if args.quick else ["35000", "350000"]

    def runs_for(dataset: str) -> int:
        if dataset.isdigit() and int(dataset) >= 100_000:
            return args.repeat_large
        small = dataset == "conll2003" or int(dataset) < 10_000
        return max(repeat, args.small_repeat) if small and not args.quick else repeat

    total = (sum(runs_for(d) * len(tools) for d in datasets) * ("flat" in jobs) + repeat * ("nested" in jobs)
             + sum(map(runs_for, streaming)) * ("streaming" in jobs))
    compile_package()
    results: dict[str, Any] = {"machine": machine(), "notes": notes, "jobs": jobs}
    with tqdm(total=total, desc="bench", unit="run", file=sys.stderr, disable=None) as progress:
        if "flat" in jobs:
            results["flat"] = [row for d in datasets for row in rounds(tools, d, runs_for(d), args.seed, progress)]
        if "nested" in jobs:
            results["nested"] = rounds(["nested"], "genia", repeat, args.seed, progress)[0]
        if "streaming" in jobs:
            results["streaming"] = [row for d in streaming for row in rounds(["streaming"], d, runs_for(d),
                                                                               args.seed, progress)]
    if "import" in jobs:
        results["import"] = imports.measure()
    if "bootstrap" in jobs:
        results["bootstrap"] = bootstrap.measure(data.GENIA_DOCSPLIT_TEST, repeat=repeat)
    if "commands" in jobs:
        sizes = (200_000,) if args.quick else tuple(args.command_sizes)
        results["commands"] = commands.measure(sizes, args.conlleval_pl, args.seed)
    return results


def report(results: dict[str, Any]) -> None:
    """Every job's figures, then the goal table."""
    m = results["machine"]
    print(f"\nRun of {m['date']} at commit {m['commit']}. Machine: {m['cpu']}, {m['cores']} cores, Python {m['python']}; "
          f"numpy {m['numpy']}, seqeval {m['seqeval']}, nervaluate {m['nervaluate']}, evaluate {m['evaluate']}, "
          f"datasets {m['datasets']}, pyarrow {m['pyarrow']}")
    if results.get("flat"):
        print(f"Peak memory: {results['flat'][0]['memory']} during the call, MB. "
              "Times: median of fresh-process runs (runs column).\n")
        flat.print_table(results["flat"])
    if "nested" in results:
        n = results["nested"]
        print(f"\nspan_f1 nested on GENIA test (classic split, all breakdowns): {1000 * n['seconds']:.1f} ms median "
              f"of {n['runs']}, peak +{n['peak_mb']:.1f} MB")
    for row in results.get("streaming", []):
        print(f"streaming count_exact in batches of 32, {row['data']} sentences: peak +{row['peak_mb']:.1f} MB, "
              f"{row['seconds']:.2f} s")
    if "bootstrap" in results:
        b = results["bootstrap"]
        print(f"benchmark bootstrap on GENIA test ({b['n_units']} {b['units']}, {b['n_resamples']} resamples, one "
              f"system): resampling {1000 * b['resampling_seconds']:.1f} ms, whole benchmark() call "
              f"{1000 * b['benchmark_call_seconds']:.0f} ms (peak {b['benchmark_call_peak_mb']:.1f} MB) against "
              f"re-scoring each resample with score_nested {b['rescore_seconds_extrapolated']:.1f} s "
              f"({b['rescore_measured']} re-scored, extrapolated): {b['speedup_resampling']:.0f}x / "
              f"{b['speedup_benchmark_call']:.0f}x")
    if "commands" in results:
        print("\nThe streaming commands on generated files:")
        commands.print_report(results["commands"])
    if "import" in results:
        imp = results["import"]
        print(f"import nested_span_f1 after numpy: {1000 * imp['seconds']:.0f} ms against numpy's "
              f"{1000 * imp['numpy_seconds']:.0f} ms, {imp['ratio_to_numpy']:.2f}x (median of {len(imp['all_seconds'])} "
              f"fresh processes); heavy modules loaded: {', '.join(imp['heavy_modules']) or 'none'}")
    print()
    goals.print_goals(results)
    for note in results["notes"]:
        print(f"note: {note}")


if __name__ == "__main__":
    main()
