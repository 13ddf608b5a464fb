"""scripts/bench/thresholds.py runs and reports what it measured, the curve checked equal to re-scoring first (timings
are not asserted: speed goals live in the script's output and BENCHMARKS.md)."""
import json
import os
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]


def test_bench_thresholds_runs_and_reports_every_figure():
    out = subprocess.run([sys.executable, str(ROOT / "scripts" / "bench" / "thresholds.py"), "--gold", "500", "--pred",
                          "5000", "--thresholds", "10", "--repeat", "1", "--json"], capture_output=True, text=True,
                         timeout=600, env={**os.environ, "OMP_NUM_THREADS": "1"}, check=False)
    assert out.returncode == 0, out.stderr[-2000:]
    figures = json.loads(out.stdout)
    assert (figures["gold_spans"], figures["predicted_spans"], figures["sentences"]) == (500, 5000, 100)
    assert figures["equal"] and figures["speedup"] > 0 and figures["rescore_thresholds"] == 10
    for key in ("curve_seconds", "to_dict_seconds", "lenient_curve_seconds", "flat_curve_seconds", "rescore_seconds",
                "top_k_curve_seconds", "calibration_seconds", "interval_seconds"):
        assert figures[key] > 0, key


def test_bench_thresholds_times_the_curve_against_another_checkout():
    out = subprocess.run([sys.executable, str(ROOT / "scripts" / "bench" / "thresholds.py"), "--gold", "500", "--pred",
                          "5000", "--repeat", "2", "--baseline", str(ROOT), "--json"], capture_output=True, text=True,
                         timeout=600, env={**os.environ, "OMP_NUM_THREADS": "1"}, check=False)
    assert out.returncode == 0, out.stderr[-2000:]
    figures = json.loads(out.stdout)
    assert figures["equal"] and figures["ratio"] > 0 and [len(r) for r in figures["runs"].values()] == [2, 2]
