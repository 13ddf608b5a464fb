"""How long ``import nested_span_f1`` takes after numpy, against numpy's own import, and what it loads.

Each measurement is a fresh interpreter that imports numpy, then the package,
timing both; the median of ``repeat`` such processes is reported, with the
heavy packages (Hugging Face, torch, plotting) the import pulled in, which
should be none.
"""
from __future__ import annotations

import json
import statistics
import subprocess
import sys
from typing import Any

from data import ROOT

HEAVY = ("transformers", "torch", "evaluate", "sklearn", "datasets", "gradio", "matplotlib", "pandas", "pyarrow")
CODE = ("import sys, time, json; t0 = time.perf_counter(); import numpy; t1 = time.perf_counter(); "
        "import nested_span_f1; t2 = time.perf_counter(); print(json.dumps([t1 - t0, t2 - t1, sorted(sys.modules)]))")


def measure(repeat: int = 7) -> dict[str, Any]:
    """The package's import seconds after numpy's and numpy's, medians of ``repeat`` fresh processes."""
    numpy_times, times, modules = [], [], []
    for _ in range(repeat):
        out = subprocess.run([sys.executable, "-c", CODE], capture_output=True, text=True, check=True, cwd=ROOT)
        numpy_seconds, seconds, modules = json.loads(out.stdout)
        numpy_times.append(numpy_seconds)
        times.append(seconds)
    heavy = sorted({m.split(".")[0] for m in modules} & set(HEAVY))
    return {"seconds": statistics.median(times), "all_seconds": times, "numpy_seconds": statistics.median(numpy_times),
            "ratio_to_numpy": statistics.median(t / n for t, n in zip(times, numpy_times)), "heavy_modules": heavy}
