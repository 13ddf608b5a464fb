"""An answer system's report as text: both protocols side by side per type, with what could not be placed or read.

It formats the dict :func:`nested_span_f1.answers.score_answers` returns, quoting
values as every message does (:func:`~nested_span_f1.core.wording.quote`): rows per
type (the string protocol's precision, recall and F1, the located spans' under the
metric used, the mentions not in the text, the excess mentions and the gold entities
of unparseable answers), then the micro and macro averages, then how the answers
were read (their shapes, the lines skipped and declined, the answers corrected, the
items unreadable), where the mentions went, the token indices, the types the gold
never uses, and examples.
"""
from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from ..core.wording import plural, quote
from ..core.wording import unreadable_line as _unreadable


def _located(result: Mapping[str, Any], label: str | None) -> tuple[float, float, float, int] | None:
    """Precision, recall, F1 and gold support of the located spans for a label (None: micro), under the exact
    scheme when the metric was lenient; None when the label has no row."""
    if "strict_f1" in result:
        row = result["per_type"].get(label) if label is not None else {
            "precision": result["strict_precision"], "recall": result["strict_recall"], "f1": result["strict_f1"],
            "possible": result["strict_possible"]}
        row = row["strict"] if label is not None and row is not None else row
        return None if row is None else (row["precision"], row["recall"], row["f1"], row["possible"])
    if label is None:
        return result["overall_precision"], result["overall_recall"], result["overall_f1"], result["tp"] + result["fn"]
    row = result.get(label)
    return None if not isinstance(row, Mapping) else (row["precision"], row["recall"], row["f1"], row["number"])


def _scores(values: tuple[float, ...] | None, digits: int) -> str:
    if values is None:
        return "  ".join(f"{'-':>9}" for _ in range(3))
    return "  ".join(f"{v:>9.{digits}f}" for v in values[:3])


def answers_table(result: Mapping[str, Any], digits: int = 4) -> str:
    """The report of an answer system (see the module docstring).

    >>> from nested_span_f1 import Corpus
    >>> from nested_span_f1.answers import score_answers
    >>> gold = Corpus(["The Beatles played in Liverpool ."], [[(4, 11, "ORG"), (22, 31, "LOC")]], unit="characters")
    >>> r = score_answers([{"output": '[["The Beatles", "ORG"], ["Liverpool", "LOC"]]'}], gold, zero_division=0)
    >>> print(answers_table(r, digits=2).splitlines()[3])
         ORG      1       1.00       1.00       1.00       0.00       0.00       0.00         0       0            0
    """
    strings, located, report = result["strings"], result["located"], result["answers"]
    settings = report["settings"]
    lenient = "strict_f1" in located
    labels = sorted(report["per_type"])
    width = max([len(label) for label in labels] + [len("overall"), 5])
    columns = f"{'precision':>9}  {'recall':>9}  {'f1':>9}"
    lines = [
        f"{'':>{width}}  {'':>5}  {'strings (set)' if not settings['multiset'] else 'strings (multiset)':<31}  "
        f"{'located spans' + (' (strict)' if lenient else ''):<31}  {'not in':>6}  {'':>6}  {'unparseable':>11}",
        f"{'type':>{width}}  {'gold':>5}  {columns}  {columns}  {'text':>6}  {'excess':>6}  {'(gold lost)':>11}",
        "",
    ]
    for label in labels:
        row = report["per_type"][label]
        string_row = strings.get(label)
        string_scores = None if string_row is None else (string_row["precision"], string_row["recall"], string_row["f1"])
        placed = _located(located, label)
        gold = placed[3] if placed is not None else 0
        lines.append(f"{label:>{width}}  {gold:>5}  {_scores(string_scores, digits)}  {_scores(placed, digits)}  "
                     f"{row['not_in_text']:>6}  {row['excess']:>6}  {row['unparseable_gold']:>11}")
    lines.append("")
    micro = _located(located, None)
    lines.append(f"{'overall':>{width}}  {micro[3] if micro else 0:>5}  "
                 f"{_scores((strings['overall_precision'], strings['overall_recall'], strings['overall_f1']), digits)}  "
                 f"{_scores(micro, digits)}  {report['not_in_text']:>6}  {report['excess']:>6}  "
                 f"{report['unparseable_gold']:>11}")
    if not lenient:
        macro = tuple(located[f"macro_{m}"] for m in ("precision", "recall", "f1"))
        string_macro = tuple(strings[f"macro_{m}"] for m in ("precision", "recall", "f1"))
        lines.append(f"{'macro':>{width}}  {'':>5}  {_scores(string_macro, digits)}  {_scores(macro, digits)}")
    lines += ["", *_counts(report, settings)]
    for example in report["examples"]:
        lines.append(_example(example))
    return "\n".join(lines) + "\n"


def unreadable_line(report: Mapping[str, Any]) -> str:
    """The line that says how many answers could not be read, and which (by id, or by line)."""
    return _unreadable(report["unparseable"], report["answers"], report["unparseable_ids"])


def _listed(counts: Mapping[str, int]) -> str:
    return ", ".join(f"{name} {n}" for name, n in counts.items())


def _counts(report: Mapping[str, Any], settings: Mapping[str, Any]) -> list[str]:
    """The lines under the table: how the answers were read, where the mentions went, the settings."""
    shapes = ", ".join(f"{shape} {n}" for shape, n in sorted(report["shapes"].items()))
    lines = [
        f"answers: {report['answers']:,} for {plural(report['documents'], 'document')} paired by {report['paired']} "
        f"({shapes})",
        f"reading: lines skipped {report['skipped_lines']}, declined {report['declined_lines']}; answers corrected "
        f"{report['corrected_answers']}; items unreadable {report['unreadable_items']}",
        f"mentions: {report['mentions']}: markup {report['markup']}, index {report['index']}, exact "
        f"{report['exact']}, normalized {report['normalized']}, not in the text {report['not_in_text']}, excess "
        f"{report['excess']}; {plural(report['spans'], 'span')} placed",
    ]
    indices = report["indices"]
    if report["index"] or any(indices.values()):
        lines.append(f"token indices: placed by index {report['index']}, index and string disagree "
                     f"{indices['disagree']} (trusted: {settings['trust']}), out of range {indices['out_of_range']}, "
                     f"without gold tokens {indices['without_tokens']}")
    if report["labels_not_in_gold"]:
        lines.append(f"labels not in the gold: {_listed(report['labels_not_in_gold'])}")
    if report["mapped"]:
        lines.append(f"labels mapped: {_listed(report['mapped'])}")
    gold = report["gold_strings"]
    if gold is not None:
        lines.append(f"gold strings: {gold['strings']}: exact {gold['exact']}, normalized {gold['normalized']}, "
                     f"not in the text {gold['not_in_text']}, excess {gold['excess']}")
    lines.append(
        f"strings: normalised by {settings['normalization']}, as {'multisets' if settings['multiset'] else 'sets'}; "
        f"located: policy {settings['policy']}, loose fallback {'on' if settings['fallback'] else 'off'}, "
        f"inner occurrences last {'on' if settings['inner_last'] else 'off'}")
    if report["unparseable_ids"]:
        lines.append(f"unparseable answers: {unreadable_line(report)}")
    return lines


def _example(example: Mapping[str, Any]) -> str:
    """One example: its category, document (and line), type, and what it is."""
    where = str(example["id"]) + (f" ({example['line']})" if example.get("line") else "")
    label = f" ({example['label']})" if example.get("label") else ""
    what = example.get("error") or quote(example.get("text"))
    if "tokens" in example:
        first, last = example["tokens"]
        what += f" at tokens {first}-{last}" + (f" ({quote(example['at'])})" if "at" in example else "")
    return f"  {example['category'].replace('_', ' ')}: {where}{label}: {what}"
