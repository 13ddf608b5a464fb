"""Every tool's result in one shape, so that a tool's numbers can be held equal to its baseline's.

A shape is a tree of dicts and lists of floats: ``types`` maps a type to
[precision, recall, F1, support]; ``micro``, ``macro`` and ``weighted`` are
[precision, recall, F1]; ``accuracy`` is token accuracy; a lenient result maps
each scheme to its counts and scores (``LENIENT_KEYS``). The benchmark prints a
speed ratio only when :func:`differences` finds nothing.
"""
from __future__ import annotations

from typing import Any

LENIENT_KEYS = ("correct", "incorrect", "partial", "missed", "spurious", "precision", "recall", "f1")
LENIENT_SCHEMES = {"strict": "strict", "exact": "exact", "partial": "partial", "type": "ent_type"}
"""Our lenient schemes and nervaluate's names for them."""


def from_seqeval(report: dict[str, Any], accuracy: float | None = None) -> dict[str, Any]:
    """seqeval's ``classification_report(..., output_dict=True)``, with its ``accuracy_score`` if given."""
    out: dict[str, Any] = {"types": {}}
    for key, value in report.items():
        row = [float(value["precision"]), float(value["recall"]), float(value["f1-score"])]
        if key.endswith(" avg"):
            out[key.split()[0]] = row
        else:
            out["types"][key] = [*row, int(value["support"])]
    if accuracy is not None:
        out["accuracy"] = float(accuracy)
    return out


def from_ours(result: dict[str, Any]) -> dict[str, Any]:
    """A seqeval-shaped result: ``score_exact``, ``summarize`` or an evaluate module's ``compute``."""
    out: dict[str, Any] = {"types": {}}
    for key, value in result.items():
        if isinstance(value, dict):
            out["types"][key] = [float(value["precision"]), float(value["recall"]), float(value["f1"]),
                                 int(value["number"])]
    if "overall_precision" in result:
        out["micro"] = [float(result[f"overall_{m}"]) for m in ("precision", "recall", "f1")]
    for average in ("macro", "weighted"):
        if f"{average}_precision" in result:
            out[average] = [float(result[f"{average}_{m}"]) for m in ("precision", "recall", "f1")]
    if "overall_accuracy" in result:
        out["accuracy"] = float(result["overall_accuracy"])
    return out


def from_nervaluate(results: dict[str, Any]) -> dict[str, Any]:
    """nervaluate's ``Evaluator(...).evaluate()``: the overall counts and scores of each scheme."""
    overall = results["overall"]
    return {ours: [float(getattr(overall[theirs], key)) for key in LENIENT_KEYS]
            for ours, theirs in LENIENT_SCHEMES.items()}


def from_lenient(result: dict[str, Any]) -> dict[str, Any]:
    """``score_lenient``'s flat result."""
    return {scheme: [float(result[f"{scheme}_{key}"]) for key in LENIENT_KEYS] for scheme in LENIENT_SCHEMES}


def differences(a: Any, b: Any, path: str = "") -> list[str]:
    """Where two shapes differ by more than 1e-12 (only keys both have are compared), as ``path: a vs b``."""
    if isinstance(a, dict) and isinstance(b, dict):
        if "types" in a and "types" in b and set(a["types"]) != set(b["types"]):
            return [f"{path}types: {sorted(a['types'])} vs {sorted(b['types'])}"]
        return [d for k in sorted(a.keys() & b.keys()) for d in differences(a[k], b[k], f"{path}{k}.")]
    if isinstance(a, list) and isinstance(b, list):
        return [d for i, (x, y) in enumerate(zip(a, b)) for d in differences(x, y, f"{path}{i}.")]
    if abs(float(a) - float(b)) > 1e-12:
        return [f"{path[:-1]}: {a} vs {b}"]
    return []
