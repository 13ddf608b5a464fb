"""Every goal of the benchmark, written once, and how a run's results meet it.

The flat goals come from the tools table (``tools.py``: a tool, its baseline,
how many times faster); the others are stated here. :func:`judge` reads a
run's results (the JSON ``run.py`` writes) and gives, per goal, what was
measured and whether the goal is met; ``run.py`` prints it as the Markdown
table that BENCHMARKS.md and docs/performance.md show.
"""
from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

import flat
from tools import TOOLS

Results = dict[str, Any]


@dataclass(frozen=True)
class Goal:
    text: str
    check: Callable[[Results], tuple[str, str] | None]
    """What the run measured and the status (``met``, ``**missed**``, ...), or None when the run did not measure it."""


def _status(met: bool, where: list[str] | None = None) -> str:
    return "met" if met else "**missed**" + (f" at {', '.join(where)}" if where else "")


def _flat_goal(tool: str) -> Goal:
    entry = TOOLS[tool]
    baseline = TOOLS[entry.baseline or ""]

    def check(results: Results) -> tuple[str, str] | None:
        rows = {(r["tool"], r["data"]): r for r in results.get("flat", [])}
        pairs = [(data, row, rows[entry.baseline, data]) for (name, data), row in rows.items()
                 if name == tool and (entry.baseline, data) in rows]
        if not pairs:
            return None
        ratios = {data: flat.speedup(row, base) for data, row, base in pairs}
        measured = " / ".join("numbers differ" if isinstance(r, list) else f"{r:.1f}x" for r in ratios.values())
        slow = [data for data, r in ratios.items() if not isinstance(r, list) and r < (entry.goal or 0)]
        heavy = [data for data, row, base in pairs if entry.less_memory and row["peak_mb"] >= base["peak_mb"]]
        if entry.less_memory:
            measured += ("; peak " + " / ".join(f"{row['peak_mb']:.1f}" for _, row, _ in pairs) + " MB against "
                         + " / ".join(f"{base['peak_mb']:.1f}" for _, _, base in pairs) + " MB")
        differ = [data for data, r in ratios.items() if isinstance(r, list)]
        if differ:
            measured += f" (numbers differ on {', '.join(differ)}: no ratio there)"
        if len(differ) == len(ratios):
            return measured, "no ratio: the numbers differ"
        status = _status(not slow and not heavy, list(dict.fromkeys(slow + heavy)))
        return measured, status + (" where comparable" if differ and status == "met" else "")

    memory = ", with less memory" if entry.less_memory else ""
    return Goal(f"`{entry.label}` >= {entry.goal:g}x faster than `{baseline.label}`{memory}", check)


def _nested(results: Results) -> tuple[str, str] | None:
    row = results.get("nested")
    return None if row is None else (f"{1000 * row['seconds']:.1f} ms", _status(row["seconds"] < 0.050))


def _streaming(results: Results) -> tuple[str, str] | None:
    rows = results.get("streaming", [])
    if len(rows) < 2:
        return None
    measured = ", ".join(f"+{r['peak_mb']:.1f} MB at {r['data']} sentences" for r in rows)
    return measured, _status(rows[-1]["peak_mb"] <= rows[0]["peak_mb"] + 1)


def _import(results: Results) -> tuple[str, str] | None:
    imp = results.get("import")
    if imp is None:
        return None
    heavy = ", ".join(imp["heavy_modules"]) or "none"
    return (f"{1000 * imp['seconds']:.0f} ms against {1000 * imp['numpy_seconds']:.0f} ms "
            f"({imp['ratio_to_numpy']:.2f}x); heavy modules loaded: {heavy}",
            _status(imp["ratio_to_numpy"] <= 0.5 and not imp["heavy_modules"]))


def _bootstrap(results: Results) -> tuple[str, str] | None:
    b = results.get("bootstrap")
    if b is None:
        return None
    return (f"resampling {1000 * b['resampling_seconds']:.1f} ms, whole `benchmark()` "
            f"{1000 * b['benchmark_call_seconds']:.0f} ms against {b['rescore_seconds_extrapolated']:.1f} s "
            f"re-scoring: {b['speedup_resampling']:.0f}x / {b['speedup_benchmark_call']:.0f}x",
            _status(b["speedup_benchmark_call"] >= 100 and b["benchmark_call_seconds"] < 1))


def _commands(check: Callable[[dict[str, Any], list[dict[str, Any]]], tuple[str, bool]], perl: bool = False,
              sizes: int = 1) -> Callable[[Results], tuple[str, str] | None]:
    """A goal on the streaming commands' rows (smallest size first), measured only if conlleval.pl ran if ``perl``,
    and on at least ``sizes`` sizes."""
    def judged(results: Results) -> tuple[str, str] | None:
        figures = results.get("commands")
        if figures is None or (perl and not figures["conlleval_pl"]) or len(figures["sizes"]) < sizes:
            return None
        measured, met = check(figures, list(figures["sizes"].values()))
        return measured, _status(met)

    return judged


def _speed(command: str, times: float) -> Callable[[dict[str, Any], list[dict[str, Any]]], tuple[str, bool]]:
    def check(_: dict[str, Any], rows: list[dict[str, Any]]) -> tuple[str, bool]:
        ratios = [row[command]["speedup_vs_conlleval_pl"] for row in rows]
        measured = " / ".join(f"{r:.1f}x at {row['tokens']:,} tokens" for r, row in zip(ratios, rows))
        return measured, ratios[-1] >= times

    return check


def _memory(command: str, mb: float) -> Callable[[dict[str, Any], list[dict[str, Any]]], tuple[str, bool]]:
    def check(_: dict[str, Any], rows: list[dict[str, Any]]) -> tuple[str, bool]:
        return f"{rows[-1][command]['peak_mb']:.1f} MB at {rows[-1]['tokens']:,} tokens", rows[-1][command]["peak_mb"] < mb

    return check


def _identical(_: dict[str, Any], rows: list[dict[str, Any]]) -> tuple[str, bool]:
    same = [row["identical_to_conlleval_pl"] for row in rows]
    sizes = " and ".join(f"{row['tokens']:,}" for row in rows)
    return ("identical at " if all(same) else "differs at ") + sizes + " tokens", all(same)


def _flat_peaks(figures: dict[str, Any], _: list[dict[str, Any]]) -> tuple[str, bool]:
    ratios = figures["peak_ratio_largest_to_smallest"]
    return " / ".join(f"{ratios[name]:.2f}" for name in ratios), max(ratios.values()) <= 1.2


COMMANDS = "(at the largest size, 10M tokens by default)"

GOALS = [
    *(_flat_goal(tool) for tool, entry in TOOLS.items() if entry.goal),
    Goal("import nested_span_f1 after numpy <= half of numpy's, no heavy module loaded", _import),
    Goal("`score_nested` on GENIA test with all breakdowns < 50 ms", _nested),
    Goal("streaming `count_exact` in batches of 32: the peak does not grow with the data (at 10x the sentences, "
         "within 1 MB)", _streaming),
    Goal("benchmark: 1,000 bootstrap resamples >= 100x re-scoring each, the whole call under 1 s", _bootstrap),
    Goal("`conlleval` output byte-identical to conlleval.pl's", _commands(_identical, perl=True)),
    Goal(f"`conlleval` >= 3x faster than conlleval.pl {COMMANDS}", _commands(_speed("conlleval", 3), perl=True)),
    Goal(f"`conlleval` peak under 80 MB {COMMANDS}", _commands(_memory("conlleval", 80))),
    Goal(f"`score` on two column files >= 5x faster than conlleval.pl {COMMANDS}",
         _commands(_speed("score", 5), perl=True)),
    Goal(f"`score` peak under 100 MB {COMMANDS}", _commands(_memory("score", 100))),
    Goal("peak at the largest size within 20% of the smallest's (`conlleval`, `score`, `nested`)",
         _commands(_flat_peaks, sizes=2)),
]


def judge(results: Results) -> list[tuple[str, str, str]]:
    """Per goal: its text, what the run measured, and ``met``, ``**missed**`` (where) or ``not measured``."""
    return [(goal.text, *(goal.check(results) or ("", "not measured"))) for goal in GOALS]


def print_goals(results: Results) -> None:
    datasets = " / ".join(dict.fromkeys(r["data"] for r in results.get("flat", [])))
    print(f"| goal | measured (flat goals: first calls on {datasets or 'no flat data'}) | status |")
    print("|---|---|---|")
    for text, measured, status in judge(results):
        print(f"| {text} | {measured} | {status} |")
