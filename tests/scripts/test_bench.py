"""scripts/bench/: ratios only for identical numbers, goals judged from the results, seeded data, smoke runs.

No timing is asserted here (speed goals live in the benchmark's own output); these
tests check that the benchmark measures what it says it measures.
"""
from __future__ import annotations

import json
import re
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
BENCH = ROOT / "scripts" / "bench"
MODULES = sorted(path.stem for path in BENCH.glob("*.py"))
TESTED = ("data", "flat", "goals", "runs", "tools")
"""The modules these tests read (the others import evaluate, the benchmark code, ...: seconds to load)."""


@pytest.fixture(scope="module")
def bench():
    """The benchmark's modules by name, imported as its scripts import each other (their folder first on
    sys.path), and forgotten afterwards so that their short names leave no trace in the session."""
    import importlib
    from types import SimpleNamespace

    with pytest.MonkeyPatch.context() as patch:
        patch.syspath_prepend(str(BENCH))
        clashes = sorted(set(MODULES) & set(sys.modules))
        assert not clashes, f"modules of these names are already loaded: {clashes}"
        try:
            yield SimpleNamespace(**{name: importlib.import_module(name) for name in TESTED})
        finally:
            for name in MODULES:
                sys.modules.pop(name, None)


def _row(tool, data, seconds, scores, peak_mb=1.0):
    return {"tool": tool, "data": data, "seconds": seconds, "scores": scores, "peak_mb": peak_mb}


SCORES = {"types": {"PER": [1.0, 0.5, 2 / 3, 2]}, "micro": [1.0, 0.5, 2 / 3]}


def test_ratio_is_refused_when_numbers_differ(bench):
    base = {"seconds": 1.0, "scores": SCORES}
    same = {"seconds": 0.01, "scores": SCORES}
    off = {"seconds": 0.01, "scores": {**SCORES, "micro": [1.0, 0.5, 0.6666]}}
    renamed = {"seconds": 0.01, "scores": {"types": {"LOC": [1.0, 0.5, 2 / 3, 2]}}}
    assert bench.flat.ratio_text(same, base) == "100.0x faster"
    assert bench.flat.ratio_text(off, base).startswith("NUMBERS DIFFER (1: micro.2: ")
    assert bench.flat.ratio_text(renamed, base) == "NUMBERS DIFFER (1: types: ['LOC'] vs ['PER'])"


def test_goals_are_judged_from_the_results(bench):
    """A goal is met only where it holds on every dataset with equal numbers; a miss names the datasets."""
    lenient = {"strict": [1.0] * 8}
    results = {"flat": [
        _row("seqeval", "3500", 0.30, SCORES), _row("strings", "3500", 0.01, SCORES),
        _row("seqeval", "conll2003", 0.30, SCORES), _row("strings", "conll2003", 0.0075, SCORES),
        _row("evaluate-seqeval", "3500", 0.5, SCORES, peak_mb=20.0), _row("evaluate", "3500", 0.05, SCORES, 30.0),
        _row("nervaluate", "3500", 0.3, lenient), _row("lenient", "3500", 0.01, lenient),
        _row("nervaluate", "conll2003", 0.3, {"strict": [2.0] * 8}), _row("lenient", "conll2003", 0.01, lenient),
    ], "nested": {"seconds": 0.0169}, "import": {"seconds": 0.009, "numpy_seconds": 0.063, "ratio_to_numpy": 0.14,
                                                  "heavy_modules": []}}
    judged = {text: (measured, status) for text, measured, status in bench.goals.judge(results)}
    assert len(judged) == len(bench.goals.GOALS)
    assert judged["`span_f1 strings default` >= 50x faster than `seqeval default`"] == (
        "30.0x / 40.0x", "**missed** at 3500, conll2003")
    assert judged["`evaluate: span_f1` >= 5x faster than `evaluate: seqeval (local copy)`, with less memory"] == (
        "10.0x; peak 30.0 MB against 20.0 MB", "**missed** at 3500")
    measured, status = judged["`span_f1 lenient` >= 10x faster than `nervaluate`"]
    assert measured == "30.0x / numbers differ (numbers differ on conll2003: no ratio there)"
    assert status == "met where comparable"
    assert judged["`span_f1 strings strict` >= 30x faster than `seqeval strict`"] == ("", "not measured")
    assert judged["`score_nested` on GENIA test with all breakdowns < 50 ms"] == ("16.9 ms", "met")
    assert judged["import nested_span_f1 after numpy <= half of numpy's, no heavy module loaded"] == (
        "9 ms against 63 ms (0.14x); heavy modules loaded: none", "met")


def _first_cells(page: str, heading: str) -> list[str]:
    """The first cell of each row of the table under ``heading`` (its header row left out)."""
    section = page.split(f"\n{heading}\n")[1].split("\n## ")[0]
    rows = [line for line in section.splitlines() if line.startswith("| ") and not line.startswith("|---")]
    return [row.split(" | ")[0].removeprefix("| ") for row in rows[1:]]


def test_the_docs_show_the_goals_as_the_benchmark_writes_them(bench):
    """docs/performance.md holds one run's goal table, every goal there one of goals.py's, and a table of the
    other scripts' goals, each row naming a script that is there."""
    page = (ROOT / "docs" / "performance.md").read_text()
    shown = _first_cells(page, "## The goals of the last run")
    assert shown and set(shown) <= {goal.text for goal in bench.goals.GOALS}
    scripts = _first_cells(page, "## The other goals, each its own script")
    assert scripts and all((ROOT / script.strip("`")).is_file() for script in scripts)


def test_synthetic_data_is_seeded_and_conll_like(bench):
    preds, refs = bench.data.synthetic(2000, seed=3)
    assert (preds, refs) == bench.data.synthetic(2000, seed=3)
    assert [len(p) for p in preds] == [len(r) for r in refs]
    tokens = sum(map(len, refs))
    inside = sum(t != "O" for s in refs for t in s) / tokens
    assert 13 < tokens / len(refs) < 15
    assert 0.15 < inside < 0.19
    assert sum(p != r for p, r in zip(preds, refs)) > 0.2 * len(refs)


def test_every_flat_tool_has_its_baseline_before_it(bench):
    """The table prints a tool after its baseline; a goal needs a baseline; a flat row without one says why."""
    tools = bench.tools.TOOLS
    flat = [name for name, tool in tools.items() if tool.job == "flat"]
    for position, name in enumerate(flat):
        tool = tools[name]
        assert (tool.goal is None) == (tool.baseline is None) or tool.note is not None, name
        if tool.baseline:
            assert tool.baseline in flat[:position], name


def test_a_failing_worker_reports_its_error(bench):
    with pytest.raises(bench.runs.WorkerFailed, match=r"(?s)^span_f1 strings default on no-such-data failed "
                                                      r"\(exit 1\):\n.*ValueError: invalid literal for int"):
        bench.runs.run_worker("strings", "no-such-data", 0)


def test_smoke_run_prints_ratios_and_goals(tmp_path):
    done = subprocess.run(
        [sys.executable, str(BENCH / "run.py"), "--sizes", "300", "--repeat", "1", "--no-conll",
         "--jobs", "flat,import", "--tools", "strings,strings-none-right", "--json", str(tmp_path / "bench.json")],
        capture_output=True, text=True, cwd=ROOT, check=False,
    )
    assert done.returncode == 0, done.stderr[-3000:]
    out = done.stdout
    rows = [line for line in out.splitlines() if line.startswith("| span_f1 strings default")]
    assert len(rows) == 2  # every sentence as predicted, and every sentence made wrong
    assert "x faster than seqeval default (>= 50x faster)" in rows[0]
    assert rows[1].endswith("every predicted sentence made wrong: no sentence takes its reference's codes |")
    assert "import nested_span_f1 after numpy: " in out
    second = [line for line in out.splitlines() if line.startswith("  span_f1 strings default on 300: ")]
    assert len(second) == 1 and second[0].endswith("x against seqeval default")
    goal = [line for line in out.splitlines() if line.startswith("| `span_f1 strings default` >= 50x faster")]
    assert len(goal) == 1 and re.search(r" \| [\d.]+x \| (met|\*\*missed\*\* at 300) \|$", goal[0]), goal
    results = json.loads((tmp_path / "bench.json").read_text())
    assert [row["tool"] for row in results["flat"]] == ["seqeval", "strings", "strings-none-right"]
    assert results["jobs"] == ["flat", "import"]


@pytest.mark.skipif(not Path("/usr/bin/time").exists(), reason="scripts/bench/commands.py measures with GNU time")
def test_commands_smoke_run_scores_the_answers_files_alike():
    """The CLI rows: each command runs on the generated files, and conlleval's report holds their counts."""
    out = subprocess.run(
        [sys.executable, str(BENCH / "commands.py"), "--sizes", "20000,40000", "--json"],
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
