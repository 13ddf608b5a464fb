"""The parent's side of the measurements: fresh worker processes, in rounds, and their medians.

A measurement is one run of ``worker.py`` in a fresh process. :func:`rounds`
runs every tool of a dataset once, then again, ``repeat`` times: interleaving
the rounds puts a tool and its baseline in the same stretch of time, so a slow
spell of the machine (a VM shares its host) weighs on both. A worker that
fails stops the run with its error (:class:`WorkerFailed`); no row is left out
silently.
"""
from __future__ import annotations

import json
import os
import statistics
import subprocess
import sys
from typing import Any

import data
from tools import TOOLS

WORKER = data.ROOT / "scripts" / "bench" / "worker.py"
OFFLINE = {"HF_HUB_OFFLINE": "1", "HF_DATASETS_OFFLINE": "1", "HF_EVALUATE_OFFLINE": "1"}


class WorkerFailed(RuntimeError):
    """A worker process exited with an error: the message names the tool and dataset and holds its stderr."""


def run_worker(tool: str, dataset: str, seed: int) -> dict[str, Any]:
    """One fresh worker process, run from the repository root: its measurement."""
    done = subprocess.run([sys.executable, str(WORKER), tool, dataset, str(seed)], capture_output=True, text=True,
                          env={**os.environ, **OFFLINE}, cwd=data.ROOT, check=False)
    if done.returncode:
        raise WorkerFailed(f"{TOOLS[tool].label} on {dataset} failed (exit {done.returncode}):\n"
                           f"{done.stderr[-3000:].rstrip()}")
    return json.loads(done.stdout.strip().splitlines()[-1])


def rounds(tools: list[str], dataset: str, repeat: int, seed: int, progress: Any) -> list[dict[str, Any]]:
    """Every tool ``repeat`` times on ``dataset``, one round of all tools after another; a row per tool."""
    runs: dict[str, list[dict[str, Any]]] = {tool: [] for tool in tools}
    for _ in range(repeat):
        for tool in tools:
            progress.set_postfix_str(f"{tool} / {dataset}")
            runs[tool].append(run_worker(tool, dataset, seed))
            progress.update(1)
    return [summarize(tool, dataset, runs[tool]) for tool in tools]


def summarize(tool: str, dataset: str, runs: list[dict[str, Any]]) -> dict[str, Any]:
    """One row: medians of the runs' seconds, second-call seconds, peak and page faults; the first run's scores."""
    def median(key: str) -> float:
        return statistics.median(r[key] for r in runs)

    return {
        "tool": tool, "label": TOOLS[tool].label, "data": dataset, "runs": len(runs), "seconds": median("seconds"),
        "all_seconds": [r["seconds"] for r in runs], "peak_mb": median("peak_bytes") / 2**20,
        "memory": runs[0]["memory"], "tokens": runs[0]["tokens"], "scores": runs[0]["scores"],
        "page_faults": median("page_faults"),
        "second_seconds": median("second_seconds") if runs[0]["second_seconds"] is not None else None,
    }
