"""scripts/bench/text.py runs and reports what it measured, the numbers checked equal first (timings are not
asserted: speed goals live in the script's output and BENCHMARKS.md)."""
import json
import os
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]


def test_bench_text_runs_and_reports_every_figure(shared_data):
    out = subprocess.run([sys.executable, str(ROOT / "scripts" / "bench" / "text.py"), "--conll", str(shared_data / "conll2003"),
                          "--repeat", "1", "--documents", "300", "--json"], capture_output=True, text=True, timeout=600,
                         env={**os.environ, "OMP_NUM_THREADS": "1"}, check=False)
    assert out.returncode == 0, out.stderr[-2000:]
    figures = json.loads(out.stdout)
    scoring = figures["scoring"]
    assert scoring["sentences"] == 3453 and scoring["gold_entities"] == 5648
    for name in ("exact", "nested", "exact, projected onto the gold tokens"):
        assert round(100 * scoring[name]["f1"], 2) == 92.22 and scoring[name]["ratio"] > 0
    assert figures["reading"]["documents"] == 300
    assert set(figures["reading"]) - {"documents"} == {f"{kind}, gold {gold}" for kind in ("aggregated", "sub-tokens")
                                                         for gold in ("texts", "tokens")}
