"""The text view of an agreement result: formatting only, every figure comes from :func:`.score.agreement`."""
from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from ..core.wording import plural
from .disagreements import GROUPS

LISTED = 10
"""Documents left out that the report names (the JSON lists them all)."""


def _number(value: float | None, digits: int = 4) -> str:
    return "-" if value is None else f"{value:.{digits}f}"


def _with_interval(figure: Mapping[str, Any]) -> str:
    if "low" not in figure:
        return _number(figure["value"])
    return f"{_number(figure['value'])} [{figure['low']:.4f}, {figure['high']:.4f}]"


def _rows(head: Sequence[str], rows: Sequence[Sequence[str]]) -> list[str]:
    """Columns padded to their widest cell, the first left-aligned and the others right-aligned."""
    widths = [max(len(str(row[c])) for row in [head, *rows]) for c in range(len(head))]
    return ["  ".join(str(cell).ljust(w) if c == 0 else str(cell).rjust(w) for c, (cell, w) in
                      enumerate(zip(row, widths))).rstrip() for row in [head, *rows]]


def _documents(result: Mapping[str, Any]) -> list[str]:
    documents = result["documents"]
    names = result["annotators"]
    item = "sentence" if result["kappa_unit"] == "tokens" else "document"
    lines = [f"agreement of {len(names)} annotators ({', '.join(names)}) on {plural(documents['scored'], item)} "
             f"held by every set; the intervals resample {plural(documents['units'], documents['resampled'][:-1])}"]
    left_out = documents["left_out"]
    if left_out:
        shown = "; ".join(f"{ident!r} (held by {', '.join(have)})" for ident, have in list(left_out.items())[:LISTED])
        more = f"; and {len(left_out) - LISTED} more (--json lists them)" if len(left_out) > LISTED else ""
        lines.append(f"left out of every figure: {plural(len(left_out), item)} some sets lack: {shown}{more}")
    return lines


def _pairwise(result: Mapping[str, Any]) -> list[str]:
    head = ["pair", "exact F1", "precision", "recall", "tp", "fp", "fn", "lenient F1", "untyped F1", "Cohen's kappa"]
    rows = []
    for key, exact in result["pairwise"].items():
        rows.append([key, _number(exact["f1"]), _number(exact["precision"]), _number(exact["recall"]), exact["tp"],
                     exact["fp"], exact["fn"], _number(result["lenient"]["pairwise"][key]["f1"]),
                     _number(result["untyped"]["pairwise"][key]["f1"]), _number(result["cohen_kappa"][key])])
    first, second = result["annotators"][:2]
    return ["", f"pairwise span F1 ({second} scored against {first}: precision is the share of {second}'s spans that "
                f"{first} marks too, recall the share of {first}'s that {second} marks; F1 is the same either way)",
            *_rows(head, rows), "",
            f"mean pairwise F1: exact {_with_interval(result['mean_f1'])}, "
            f"lenient {_with_interval(result['lenient']['mean_f1'])}, "
            f"untyped {_with_interval(result['untyped']['mean_f1'])}"]


def _matrix(result: Mapping[str, Any], mode: str) -> list[str]:
    names = result["annotators"]
    pairwise = result["pairwise"] if mode == "exact" else result[mode]["pairwise"]

    def cell(a: str, b: str) -> str:
        if a == b:
            return "-"
        return _number(pairwise.get(f"{a}|{b}", pairwise.get(f"{b}|{a}", {"f1": None}))["f1"])

    return ["", f"{mode} F1 matrix", *_rows(["", *names], [[a, *(cell(a, b) for b in names)] for a in names])]


def _per_type(result: Mapping[str, Any]) -> list[str]:
    per_type = result["per_type"]
    if not per_type:
        return []
    rows = [[label, _number(figures["mean_f1"]), _number(result["lenient"]["per_type"][label]["mean_f1"])]
            for label, figures in per_type.items()]
    return ["", "per type (mean pairwise F1, over the pairs where either marks the type)",
            *_rows(["type", "exact", "lenient"], rows)]


def _chance(result: Mapping[str, Any]) -> list[str]:
    unit = result["kappa_unit"]
    return ["", f"chance-corrected agreement on {plural(result['kappa_positions'], unit[:-1])}, each labelled with its "
                "IOB2 tag (a position inside several spans: all their tags, outermost first)",
            f"Fleiss' kappa {_number(result['fleiss_kappa'])}; Krippendorff's alpha (nominal) "
            f"{_number(result['krippendorff_alpha'])} on {plural(result['alpha_positions'], unit[:-1])}"]


def _disagreements(result: Mapping[str, Any]) -> list[str]:
    rows = [[key, *(counts[group] for group in GROUPS)] for key, counts in result["disagreements"].items()]
    lines = ["", "disagreements (the lenient error breakdown of each pair: overlapping spans paired one to one)",
             *_rows(["pair", *GROUPS], rows)]
    for key, groups in result.get("examples", {}).items():
        for group in GROUPS:
            shown = groups[group]
            if not shown:
                continue
            lines.append(f"{key} {group} ({result['disagreements'][key][group]}, showing {len(shown)}):")
            for example in shown:
                spans = " | ".join(f"{name} " + (f"{span[2]} {span[3]!r}" if span else "nothing")
                                   for name, span in example["spans"].items())
                lines.append(f"  {_document(result, example['document'])}: {spans}")
                lines.append(f"      in: {example['context']}")
    return lines


def _reference(result: Mapping[str, Any]) -> list[str]:
    reference = result.get("reference")
    if reference is None:
        return []
    head = ["set", "exact F1", "interval", "precision", "recall", "lenient F1", "untyped F1"]
    rows = []
    for role in ("annotators", "models"):
        for name, figures in reference[role].items():
            exact = figures["exact"]
            low, high = exact["interval"]
            rows.append([f"{name} ({role[:-1]})", _number(exact["f1"]), f"[{low:.4f}, {high:.4f}]",
                         _number(exact["precision"]), _number(exact["recall"]), _number(figures["lenient"]["f1"]),
                         _number(figures["untyped"]["f1"])])
    if "annotator_mean_f1" in reference:
        mean = reference["annotator_mean_f1"]
        low, high = mean["exact"]["interval"]
        rows.append(["annotators' mean", _number(mean["exact"]["value"]), f"[{low:.4f}, {high:.4f}]", "", "",
                     _number(mean["lenient"]["value"]), _number(mean["untyped"]["value"])])
    return ["", f"against the reference {reference['name']} (each set scored as predictions of it)", *_rows(head, rows)]


def _notes(result: Mapping[str, Any]) -> list[str]:
    notes = result["notes"]
    lines = []
    for key, what in (("duplicates", "duplicate spans removed"),
                      ("discontinuous_left_out", "discontinuous entities left out")):
        found = {name: n for name, n in notes[key].items() if n}
        if found:
            lines.append(f"{what}: " + ", ".join(f"{name} {n}" for name, n in found.items()))
    lines += [f"{name} read as {notes['read'][name]}" for name, format in notes["formats"].items() if format == "brat"]
    return ["", *lines] if lines else []


def _document(result: Mapping[str, Any], ident: str) -> str:
    """A document as the report names it: ``document 'x'`` by its id, ``sentence 3`` by its position counted from 1
    (the result's ids are positions from 0 when documents pair by position)."""
    if result["documents"]["paired"] == "position":
        return f"{'sentence' if result['kappa_unit'] == 'tokens' else 'document'} {int(ident) + 1}"
    return f"document {ident!r}"


def to_text(result: Mapping[str, Any]) -> str:
    """The report: documents, pairwise F1 with kappa, the F1 matrices, per type, kappa and alpha, the disagreements
    (and their examples when the result holds them), the reference's table, notes."""
    lines = [*_documents(result), *_pairwise(result), *_matrix(result, "exact"), *_matrix(result, "lenient"),
             *_per_type(result), *_chance(result), *_disagreements(result), *_reference(result), *_notes(result)]
    return "\n".join(lines) + "\n"
