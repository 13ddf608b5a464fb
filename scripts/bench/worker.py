"""One measurement in a fresh process: one tool, one dataset, one first call (and at eval sizes a second).

    python scripts/bench/worker.py TOOL DATASET SEED

prints one JSON line: the seconds of the first call, of a second call in the
same process below ``SECOND_CALL_TOKENS`` (the call a Trainer makes at every
evaluation after the first, once the process has paid its one-time costs), the
peak memory the first call added, the token count and the scores. A fresh
process per measurement means no tool profits from another's warm caches or
imports; ``runs.py`` starts this script and reads its line.

Peak memory is the rise of the process's peak resident set (VmHWM) over the
resident set before the call, with the peak reset just before it
(``/proc/self/clear_refs``); where that is unavailable, the rise of ``ru_maxrss``.
"""
from __future__ import annotations

import gc
import json
import resource
import sys
import time
from typing import Any

import tools

SECOND_CALL_TOKENS = 200_000


def _status(field: str) -> int:
    with open("/proc/self/status") as f:
        for line in f:
            if line.startswith(field):
                return int(line.split()[1]) * 1024
    raise KeyError(field)


def _reset_peak() -> bool:
    try:
        with open("/proc/self/clear_refs", "w") as f:
            f.write("5")
        return True
    except OSError:
        return False


def measure(tool: str, dataset: str, seed: int) -> dict[str, Any]:
    """Build the input, then time the first call (and its peak memory) and, at eval sizes, a second one."""
    call, tokens = tools.prepare(tool, dataset, seed)
    gc.collect()
    hwm = _reset_peak()
    before = _status("VmRSS:") if hwm else resource.getrusage(resource.RUSAGE_SELF).ru_maxrss * 1024
    faults = resource.getrusage(resource.RUSAGE_SELF).ru_minflt
    start = time.perf_counter()
    scores = call()
    seconds = time.perf_counter() - start
    faults = resource.getrusage(resource.RUSAGE_SELF).ru_minflt - faults
    peak = _status("VmHWM:") if hwm else resource.getrusage(resource.RUSAGE_SELF).ru_maxrss * 1024
    second = None
    if tokens < SECOND_CALL_TOKENS:
        start = time.perf_counter()
        call()
        second = time.perf_counter() - start
    return {"seconds": seconds, "second_seconds": second, "peak_bytes": peak - before,
            "memory": "VmHWM rise" if hwm else "ru_maxrss rise", "tokens": tokens, "page_faults": faults,
            "scores": scores}


def main() -> None:
    if len(sys.argv) != 4 or sys.argv[1] not in tools.TOOLS:
        sys.exit(f"usage: {sys.argv[0]} TOOL DATASET SEED, TOOL one of {', '.join(tools.TOOLS)}")
    print(json.dumps(measure(sys.argv[1], sys.argv[2], int(sys.argv[3]))))


if __name__ == "__main__":
    main()
