"""The flat comparison's table: every flat tool on every dataset, each against its baseline where its numbers agree.

A ratio is the baseline's median seconds over the tool's, printed only when
the two tools' scores are equal (``scores.differences`` finds nothing); else
the row says where they differ.
"""
from __future__ import annotations

from typing import Any

import scores
from tools import TOOLS


def speedup(row: dict[str, Any], base: dict[str, Any], key: str = "seconds") -> float | list[str]:
    """How many times faster ``row`` is than ``base`` (``key``: ``seconds`` or ``second_seconds``), or where
    their numbers differ."""
    return scores.differences(row["scores"], base["scores"]) or base[key] / row[key]


def ratio_text(row: dict[str, Any], base: dict[str, Any] | None) -> str:
    """``53.6x faster``, ``1.20x slower`` or ``NUMBERS DIFFER (count: first difference)``."""
    if base is None:
        return "n/a (baseline missing)"
    ratio = speedup(row, base)
    if isinstance(ratio, list):
        return f"NUMBERS DIFFER ({len(ratio)}: {ratio[0]})"
    return f"{ratio:.1f}x faster" if ratio >= 1 else f"{1 / ratio:.2f}x slower"


def goal_text(tool: str) -> str:
    """A tool's goal against its baseline, as the tables print it: ``>= 50x faster``, ``>= 5x faster, less memory``."""
    entry = TOOLS[tool]
    return f">= {entry.goal:g}x faster" + (", less memory" if entry.less_memory else "")


def print_table(rows: list[dict[str, Any]]) -> None:
    """The full table, a row per tool and dataset, then the second calls at eval sizes."""
    by_key = {(r["tool"], r["data"]): r for r in rows}
    header = (f"| {'tool':38s} | {'data':>9s} | {'tokens':>9s} | runs | {'median s':>9s} | {'tokens/s':>10s} | "
              f"{'peak MB':>8s} | vs baseline (goal) |")
    print(header)
    print("|" + "|".join("-" * len(c) for c in header.split("|")[1:-1]) + "|")
    for row in rows:
        entry = TOOLS[row["tool"]]
        if entry.baseline is None:
            versus = entry.note or "baseline"
        else:
            base = by_key.get((entry.baseline, row["data"]))
            versus = f"{ratio_text(row, base)} than {TOOLS[entry.baseline].label} ({goal_text(row['tool'])})"
        print(f"| {entry.label:38s} | {row['data']:>9s} | {row['tokens']:>9,d} | {row['runs']:>4d} | "
              f"{row['seconds']:>9.4f} | {row['tokens'] / row['seconds']:>10.3g} | {row['peak_mb']:>8.1f} | {versus} |")
    seconds = [(row, by_key.get((TOOLS[row["tool"]].baseline, row["data"]))) for row in rows
               if row["second_seconds"] and TOOLS[row["tool"]].baseline]
    if seconds:
        print("\nSecond call in the same process (as at every Trainer evaluation after the first), median s:")
    for row, base in seconds:
        ratio = speedup(row, base, "second_seconds") if base and base["second_seconds"] else None
        versus = "n/a" if ratio is None else "numbers differ" if isinstance(ratio, list) else f"{ratio:.1f}x"
        print(f"  {row['label']} on {row['data']}: {row['second_seconds']:.4f} s; {versus} against "
              f"{TOOLS[TOOLS[row['tool']].baseline].label}")
