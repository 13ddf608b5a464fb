"""scripts/bench/agreement.py runs and reports what it measured (timings are not asserted: the goal lives in the
script's output and BENCHMARKS.md)."""
import json
import os
import subprocess
import sys
from pathlib import Path

from nested_span_f1 import read_corpus

ROOT = Path(__file__).resolve().parents[2]


def test_bench_agreement_runs_and_reports_every_figure(shared_data):
    out = subprocess.run([sys.executable, str(ROOT / "scripts" / "bench" / "agreement.py"), "--documents", "300",
                          "--repeat", "1", "--json"], capture_output=True, text=True, timeout=600,
                         env={**os.environ, "OMP_NUM_THREADS": "1"}, check=False)
    assert out.returncode == 0, out.stderr[-2000:]
    figures = json.loads(out.stdout)
    gold = read_corpus(shared_data / "genia" / "genia-classic.test.w2ner.json")
    assert figures["documents"] == 300 and figures["annotators"] == 3
    assert figures["tokens"] == sum(map(len, gold.tokens[:300]))
    assert figures["characters"] == sum(len(" ".join(tokens)) for tokens in gold.tokens[:300])
    assert figures["entities"]["gold"] == sum(map(len, gold.entities[:300]))
    assert 0.5 < figures["mean_f1"]["low"] <= figures["mean_f1"]["value"] <= figures["mean_f1"]["high"] < 1
    assert 0.5 < figures["fleiss_kappa"] < 1 and 0.5 < figures["krippendorff_alpha"] < 1
    assert 0.5 < figures["token_mean_f1"]["value"] < 1 and 0 <= figures["sd_f1"] < 0.1
    assert figures["disputed_places"] > 0
    for name in ("command_seconds", "command_on_texts_seconds", "call_in_memory_seconds", "command_token_unit_seconds",
                 "command_adjudication_seconds"):
        assert figures[name] > 0
