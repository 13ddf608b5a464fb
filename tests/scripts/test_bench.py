"""scripts/bench.py: ratios only for identical numbers, seeded data, and a smoke run.

No timing is asserted here (speed goals live in the benchmark's own output); these
tests check that the benchmark measures what it says it measures.
"""
from __future__ import annotations

import importlib.util
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
SCRIPT = ROOT / "scripts" / "bench.py"


@pytest.fixture(scope="module")
def bench():
    spec = importlib.util.spec_from_file_location("bench", SCRIPT)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_ratio_is_refused_when_numbers_differ(bench):
    base = {"seconds": 1.0, "scores": {"types": {"PER": [1.0, 0.5, 2 / 3, 2]}, "micro": [1.0, 0.5, 2 / 3]}}
    same = {"seconds": 0.01, "scores": {"types": {"PER": [1.0, 0.5, 2 / 3, 2]}, "micro": [1.0, 0.5, 2 / 3]}}
    off = {"seconds": 0.01, "scores": {"types": {"PER": [1.0, 0.5, 2 / 3, 2]}, "micro": [1.0, 0.5, 0.6666]}}
    renamed = {"seconds": 0.01, "scores": {"types": {"LOC": [1.0, 0.5, 2 / 3, 2]}}}
    assert bench.fmt_ratio(same, base) == "100.0x faster"
    assert bench.fmt_ratio(off, base).startswith("NUMBERS DIFFER (1: micro.2: ")
    assert bench.fmt_ratio(renamed, base) == "NUMBERS DIFFER (1: types: ['LOC'] vs ['PER'])"


def test_synthetic_data_is_seeded_and_conll_like(bench):
    preds, refs = bench.synthetic(2000, seed=3)
    assert (preds, refs) == bench.synthetic(2000, seed=3)
    assert [len(p) for p in preds] == [len(r) for r in refs]
    tokens = sum(map(len, refs))
    inside = sum(t != "O" for s in refs for t in s) / tokens
    assert 13 < tokens / len(refs) < 15
    assert 0.15 < inside < 0.19
    assert sum(p != r for p, r in zip(preds, refs)) > 0.2 * len(refs)


def test_smoke_run_prints_ratios_against_seqeval(tmp_path):
    out = subprocess.run(
        [sys.executable, str(SCRIPT), "--sizes", "300", "--repeat", "1", "--no-conll",
         "--tools", "seqeval default,strings default", "--json", str(tmp_path / "bench.json")],
        capture_output=True, text=True, cwd=ROOT, check=True,
    ).stdout
    rows = [line for line in out.splitlines() if line.startswith("| span_f1 strings default")]
    assert len(rows) == 2  # every sentence as predicted, and every sentence made wrong
    assert "x faster than seqeval default (>= 50x faster)" in rows[0]
    assert rows[1].endswith("every predicted sentence made wrong: no sentence takes its reference's codes |")
    assert "import nested_span_f1 after numpy: " in out
    second = [line for line in out.splitlines() if line.startswith("  span_f1 strings default on 300: ")]
    assert len(second) == 1 and second[0].endswith("x against seqeval default")
    assert (tmp_path / "bench.json").read_text().startswith("{")


@pytest.mark.skipif(not Path("/usr/bin/time").exists(), reason="scripts/bench_streaming.py measures with GNU time")
def test_streaming_smoke_run_scores_the_generated_files_alike(tmp_path):
    """The CLI rows: each command runs on the generated files, and conlleval's report holds their counts."""
    import json

    out = subprocess.run(
        [sys.executable, str(ROOT / "scripts" / "bench_streaming.py"), "--sizes", "20000,40000", "--json"],
        capture_output=True, text=True, cwd=ROOT, check=True,
    ).stdout
    figures = json.loads(out)
    assert figures["note"] == "conlleval.pl comparison skipped: pass --conlleval-pl PATH"
    assert set(figures["sizes"]) == {"20000", "40000"}
    for row in figures["sizes"].values():
        assert row["tokens"] >= 20000 and row["sentences"] > 0
        assert f"processed {row['tokens']} tokens with" in row["conlleval_output"]
        assert all(row[name]["seconds"] > 0 and row[name]["peak_mb"] > 0 for name in ("conlleval", "score", "nested"))
    assert set(figures["peak_ratio_largest_to_smallest"]) == {"conlleval", "score", "nested"}
