"""The ``thresholds`` command's report as text, from its JSON result (formatting only).

The curve's summary, the figures at the thresholds reported (each with its
bootstrap interval where one is computed, and why not where it is not), the
per-type table (``predicted`` counted at the threshold its row names, beside the
predictions saved), top k per sentence, the reliability table with the expected
calibration error, and the warnings.
"""
from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

ORACLE_ROW = "ORACLE: best on test (do not report)"


def figures(row: Mapping[str, Any]) -> str:
    """``precision 0.6667, recall 0.6667, F1 0.6667 (tp 2, fp 1, fn 1)``."""
    return (f"precision {row['precision']:.4f}, recall {row['recall']:.4f}, F1 {row['f1']:.4f} "
            f"(tp {row['tp']}, fp {row['fp']}, fn {row['fn']})")


def drawn(bootstrap: Mapping[str, Any]) -> str:
    """``95% interval (1,000 resamples of 12 documents)``."""
    return (f"{bootstrap['confidence']:.0%} interval ({bootstrap['resamples']:,} resamples of "
            f"{bootstrap['n_units']:,} {bootstrap['units']})")


def _bounds(interval: Mapping[str, Any], key: str) -> str:
    return f"[{interval[key]['low']:.4f}, {interval[key]['high']:.4f}]"


def interval_line(row: Mapping[str, Any], bootstrap: Mapping[str, Any], indent: str = "    ") -> str:
    """The interval of a row's figures, or why it has none."""
    if "interval" not in row:
        return f"{indent}no interval: {row.get('no_interval', 'not computed')}"
    found = row["interval"]
    return (f"{indent}{drawn(bootstrap)}: precision {_bounds(found, 'precision')}, recall {_bounds(found, 'recall')}, "
            f"F1 {_bounds(found, 'f1')}")


def _type_cells(label: str, curve: Mapping[str, Any], applied: Mapping[str, Any] | None,
                fallback: Mapping[str, str], interval: bool) -> list[str]:
    """A type's cells from its threshold to ``predicted`` (see :func:`type_table`)."""
    if applied is not None:
        row = applied["per_type"].get(label)
        own = applied.get("thresholds") or {}
        threshold = f"{own[label]:.4g}" if label in own else (
            f"{applied['threshold']:.4g}" + ("*" if label in fallback else ""))
        predicted = None if row is None else row["predicted"]
    else:
        row = curve["best"]
        threshold = "-" if row is None else f"{row['threshold']:.4g}"
        predicted = curve["predicted_at_best"]
    if row is None:
        never = applied is None and curve["predicted"]
        return ["none" if never else "-", "-", "-", "-"] + (["-"] if interval else []) + ["-"]
    cells = [threshold, f"{row['precision']:.4f}", f"{row['recall']:.4f}", f"{row['f1']:.4f}"]
    if interval:
        cells.append(_bounds(row["interval"], "f1") if row.get("interval") else "-")
    return [*cells, str(predicted)]


def type_table(curves: Mapping[str, Mapping[str, Any]], applied: Mapping[str, Any] | None = None,
               fallback: Mapping[str, str] | None = None) -> list[str]:
    """Per type: average precision, then the best point of its curve or (``applied``) the figures at the threshold
    the row names, with ``predicted`` counted there and ``saved`` (every prediction of the type); a type without
    a best threshold shows ``none``, one given the overall threshold (``fallback``: type -> why) a ``*``."""
    head = "threshold" if applied is not None else "best at"
    interval = applied is not None and "interval" in applied
    widths = [10, 9, 9, 9] + ([18] if interval else [])
    lines = [f"{'type':<16} {'AP':>8} {head:>10} {'precision':>9} {'recall':>9} {'f1':>9}"
             + (f" {'f1 interval':>18}" if interval else "") + f" {'number':>7} {'predicted':>9} {'saved':>7}"]
    for label, curve in curves.items():
        cells = _type_cells(label, curve, applied, fallback or {}, interval)
        middle = " ".join(f"{cell:>{width}}" for cell, width in zip(cells[:-1], widths))
        lines.append(f"{label:<16} {curve['average_precision']:>8.4f} {middle} {curve['number']:>7} "
                     f"{cells[-1]:>9} {curve['predicted']:>7}")
    never = [label for label, curve in curves.items() if applied is None and curve["best"] is None
             and curve["predicted"]]
    if never:
        lines.append(f"none: {', '.join(never)} never right at any threshold (F1 0 at every one): no best threshold")
    if fallback:
        reasons = "; ".join(f"{label}: {why}" for label, why in fallback.items())
        lines.append(f"* no threshold of its own on dev ({reasons}): the overall dev threshold applied")
    return lines


def curve_lines(result: Mapping[str, Any]) -> list[str]:
    """The report of one curve (no dev data): its summary, the figures at the system's threshold, the types."""
    at, best = result["at_system_threshold"], result["best"]
    lines = ["", f"overall: {result['thresholds']} thresholds, average precision {result['average_precision']:.4f}"]
    if best is not None:
        lines.append(f"  best F1 at threshold {best['threshold']:.4g}: precision {best['precision']:.4f}, recall "
                     f"{best['recall']:.4f}, F1 {best['f1']:.4f} (chosen on these files: on a test set an oracle "
                     "figure; choose it on dev with --dev-gold and --dev-pred)")
    elif result["thresholds"]:
        lines.append("  no best threshold: no prediction is right at any threshold (F1 0 at every one)")
    lines += [f"  at the system's threshold {at['threshold']:g}: {figures(at)}",
              interval_line(at, result["bootstrap"]), "", *type_table(result["per_type"])]
    return lines


def dev_test_lines(result: Mapping[str, Any], dev_files: str, test_gold: str) -> list[str]:
    """The report of a threshold chosen on dev (``dev_files`` names them) and applied to test (``test_gold``)."""
    selection, test, bootstrap = result["selection"], result["test"], result["bootstrap"]
    chosen = f"{selection['threshold']:.4g} (overall)"
    if selection["thresholds"] is not None:
        chosen = ", ".join(f"{label} {t:.4g}" for label, t in selection["thresholds"].items())
        chosen += f"; overall {selection['threshold']:.4g}"
    lines = ["", f"threshold chosen on dev ({dev_files}): {chosen}"]
    if selection["types_without_dev_threshold"]:
        lines.append("  types without a threshold of their own on dev, given the overall dev threshold: "
                     + "; ".join(f"{label} ({why})" for label, why in selection["types_without_dev_threshold"].items()))
    for key, what in (("labels_only_in_dev", "labels only in dev"), ("labels_only_in_test", "labels only in test")):
        if selection[key]:
            lines.append(f"  {what}: {', '.join(selection[key])}")
    lines += [f"dev at that threshold: {figures(result['dev'])}", "", f"test ({test_gold}):",
              f"  {'':<37} {'threshold':>9} {'precision':>9} {'recall':>9} {'f1':>9} {'tp':>7} {'fp':>7} {'fn':>7}"]
    rows = [("at the dev threshold (report this)", test["at_dev_threshold"]),
            ("at the system's threshold", test["at_system_threshold"])]
    if "oracle_best_on_test" in test:
        rows.append((ORACLE_ROW, test["oracle_best_on_test"]))
    for name, row in rows:
        threshold = "per type" if row.get("thresholds") else f"{row['threshold']:.4g}"
        lines.append(f"  {name:<37} {threshold:>9} {row['precision']:>9.4f} {row['recall']:>9.4f} {row['f1']:>9.4f} "
                     f"{row['tp']:>7} {row['fp']:>7} {row['fn']:>7}")
        lines.append(interval_line(row, bootstrap))
    if "oracle_best_on_test" in test:
        lines.append(f"  {test['oracle_best_on_test']['note']}")
    else:
        lines.append(f"  {test['no_oracle']}")
    lines += [f"test average precision (no threshold): {test['average_precision']:.4f}", "",
              "per type, on test at the dev threshold:",
              *type_table(test["per_type"], test["at_dev_threshold"], selection["types_without_dev_threshold"])]
    return lines


def top_k_lines(top_k: Mapping[str, Any], bootstrap: Mapping[str, Any]) -> list[str]:
    """Top k per sentence: the best k, the figures at the k asked (and at the k chosen on dev)."""
    lines = ["", f"top k per sentence (each sentence's k highest-scoring predictions kept, instead of a threshold; "
                 f"k from 1 to {len(top_k['curve'])}):"]
    if "chosen_on_dev" in top_k:
        if top_k["chosen_on_dev"] is None:
            lines.append(f"  no k chosen on dev: {top_k['no_dev_k']}")
        else:
            row = top_k["at_dev_k"]
            lines += [f"  k chosen on dev: {top_k['chosen_on_dev']}; test at it (report this): {figures(row)}",
                      interval_line(row, bootstrap)]
        oracle = top_k.get("oracle_best_on_test")
        if oracle is not None:
            lines.append(f"  ORACLE: best k on test {oracle['k']}: F1 {oracle['f1']:.4f} (do not report)")
    elif top_k["best"] is not None:
        best = top_k["best"]
        lines.append(f"  best F1 at k={best['k']}: precision {best['precision']:.4f}, recall {best['recall']:.4f}, "
                     f"F1 {best['f1']:.4f} (chosen on these files: on a test set an oracle figure)")
    at = top_k["at_k"]
    lines += [f"  at k={top_k['k']}: {figures(at)}", interval_line(at, bootstrap)]
    return lines


def _bin(row: Mapping[str, Any]) -> str:
    return f"[{row['lower']:g}, {row['upper']:g}{']' if row['upper'] == 1 else ')'}"


def calibration_lines(found: Mapping[str, Any]) -> list[str]:
    """The overall reliability table and the expected calibration errors, or why none was computed."""
    if "not_computed" in found:
        return ["", f"calibration: not computed: {found['not_computed']}"]
    lines = ["", f"calibration ({len(found['bins'])} score bins; right: a true positive as the spans are kept in "
                 "decreasing score):",
             f"  {'bin':<14} {'count':>9} {'right':>9} {'mean score':>10} {'precision':>9} {'gap':>8}"]
    for row in found["bins"]:
        if row["count"]:
            gap = row["mean_score"] - row["precision"]
            lines.append(f"  {_bin(row):<14} {row['count']:>9,} {row['right']:>9,} {row['mean_score']:>10.4f} "
                         f"{row['precision']:>9.4f} {gap:>+8.4f}")
        else:
            lines.append(f"  {_bin(row):<14} {0:>9} {0:>9} {'-':>10} {'-':>9} {'-':>8}")
    ece = "-" if found["ece"] is None else f"{found['ece']:.4f}"
    types = ", ".join(f"{label} {table['ece']:.4f}" for label, table in found["per_type"].items())
    lines.append(f"expected calibration error: {ece} overall" + (f"; per type: {types}" if types else ""))
    lines.append("  (gap: mean score minus precision; positive where the model is overconfident. --json gives every "
                 "type's table)")
    return lines


def warning_lines(warnings: Sequence[str]) -> list[str]:
    """The warnings, one a line."""
    return ["", *(f"WARNING: {line}" for line in warnings)] if warnings else []
