"""The text view of an agreement result: formatting only, every figure comes from :func:`.score.agreement`."""
from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from ..core.wording import plural
from .disagreements import GROUPS, NOTHING

LISTED = 10
"""Documents left out that the report names (the JSON lists them all)."""


def _number(value: float | None, digits: int = 4) -> str:
    return "-" if value is None else f"{value:.{digits}f}"


def _rows(head: Sequence[str], rows: Sequence[Sequence[str]]) -> list[str]:
    """Columns padded to their widest cell, the first left-aligned and the others right-aligned."""
    widths = [max(len(str(row[c])) for row in [head, *rows]) for c in range(len(head))]
    return ["  ".join(str(cell).ljust(w) if c == 0 else str(cell).rjust(w) for c, (cell, w) in
                      enumerate(zip(row, widths))).rstrip() for row in [head, *rows]]


DOCUMENT_ROWS = 30
"""Documents the per-document table shows; with more, those of the lowest mean F1 (the JSON has them all)."""

PLACES_SHOWN = 50
"""Disputed places the report shows (the JSON has them all)."""


def _modes(result: Mapping[str, Any]) -> list[str]:
    """The matchings the result holds, exact first."""
    return [mode for mode in ("exact", "lenient", "untyped") if mode == "exact" or mode in result]


def _block(result: Mapping[str, Any], mode: str) -> Mapping[str, Any]:
    return result if mode == "exact" else result[mode]


def _spread(row: Mapping[str, Any]) -> str:
    """A row's mean F1 and standard deviation over the pairs: ``0.8904 ± 0.0527``."""
    return f"{_number(row['mean_f1'])} ± {_number(row['sd_f1'])}"


def _documents(result: Mapping[str, Any]) -> list[str]:
    documents = result["documents"]
    names = result["annotators"]
    item = documents["word"]
    lines = [f"agreement of {len(names)} annotators ({', '.join(names)}) on {plural(documents['scored'], item)} "
             f"held by every set; the intervals resample {plural(documents['units'], documents['resampled'][:-1])}"]
    root = result["notes"].get("project_root")
    if root is not None:
        lines.append(f"the annotators are the folders of the brat project {root}")
    lines.append(_unit_line(result))
    left_out = documents["left_out"]
    if left_out:
        shown = "; ".join(f"{ident!r} (held by {', '.join(have)})" for ident, have in list(left_out.items())[:LISTED])
        more = f"; and {len(left_out) - LISTED} more (--json lists them)" if len(left_out) > LISTED else ""
        lines.append(f"left out of every figure: {plural(len(left_out), item)} some sets lack: {shown}{more}")
    nothing = {name: ids for name, ids in documents["marked_nothing"].items() if ids}
    if nothing:
        said = "; ".join(f"{name} {len(ids)} ({', '.join(map(repr, ids[:LISTED]))}{', ...' if len(ids) > LISTED else ''})"
                         for name, ids in nothing.items())
        brat = "brat" in result["notes"]["formats"].values()
        why = " (an empty brat .ann: one no one opened?)" if brat else ""
        lines.append(f"{item}s an annotator marked nothing in{why}, scored as marking nothing: {said}")
    return lines + _types_lines(result)


def _unit_line(result: Mapping[str, Any]) -> str:
    """What the F1 figures count, and what became of discontinuous entities."""
    if result["unit"] == "token":
        what = ("F1 on tokens: each annotation counts as the whitespace-delimited tokens it overlaps (a partly covered "
                "token whole), a multiset per annotator (bratiaa's token-based agreement)")
    else:
        what = "F1 on annotations: each annotation counts once (instance-based)"
    compared = {name: n for name, n in result["notes"]["discontinuous_compared"].items() if n}
    left_out = {name: n for name, n in result["notes"]["discontinuous_left_out"].items() if n}
    if result["settings"]["discontinuous"] == "fragments":
        shown = ", ".join(f"{name} {n}" for name, n in compared.items()) or "none"
        fragments = f"discontinuous entities compared by their fragments ({shown})"
    elif left_out:
        fragments = ("discontinuous entities left out (" + ", ".join(f"{name} {n}" for name, n in left_out.items())
                     + "; --discontinuous fragments compares them)")
    else:
        fragments = "no discontinuous entity"
    return f"{what}; {fragments}; every mean is over the pairs of annotators, ± its standard deviation (population)"


def _types_lines(result: Mapping[str, Any]) -> list[str]:
    """The types a brat project's annotation.conf does not declare, and those one annotator alone uses."""
    notes = result["notes"]
    lines = []
    undeclared = notes.get("undeclared_types")
    if undeclared:
        confs = ", ".join(sorted(set(notes["annotation_conf"].values())))
        said = "; ".join(f"{label} (" + ", ".join(f"{name} {n}" for name, n in who.items()) + ")"
                         for label, who in undeclared.items())
        lines.append(f"types {confs} does not declare: {said}")
    alone = notes.get("one_annotator_types")
    if alone:
        said = "; ".join(f"{label} ({name} {n})" for label, who in alone.items() for name, n in who.items())
        lines.append(f"types only one annotator uses: {said}")
    return lines


def _pairwise(result: Mapping[str, Any]) -> list[str]:
    modes = _modes(result)
    head = ["pair", "exact F1", "precision", "recall", "tp", "fp", "fn", *(f"{mode} F1" for mode in modes[1:]),
            "Cohen's kappa"]
    rows = []
    for key, exact in result["pairwise"].items():
        rows.append([key, _number(exact["f1"]), _number(exact["precision"]), _number(exact["recall"]), exact["tp"],
                     exact["fp"], exact["fn"], *(_number(result[mode]["pairwise"][key]["f1"]) for mode in modes[1:]),
                     _number(result["cohen_kappa"][key])])
    first, second = result["annotators"][:2]
    things = "tokens" if result["unit"] == "token" else "spans"
    means = ", ".join(f"{mode} {_number(_block(result, mode)['mean_f1']['value'])} ± "
                      f"{_number(_block(result, mode)['sd_f1'])}{_interval(_block(result, mode)['mean_f1'])}"
                      for mode in modes)
    return ["", f"pairwise {things[:-1]} F1 ({second} scored against {first}: precision is the share of {second}'s "
                f"{things} that {first} marks too, recall the share of {first}'s that {second} marks; F1 is the same "
                "either way)",
            *_rows(head, rows), "", f"mean pairwise F1 ± sd [interval of the mean]: {means}"]


def _interval(figure: Mapping[str, Any]) -> str:
    return f" [{figure['low']:.4f}, {figure['high']:.4f}]" if "low" in figure else ""


def _per_annotator(result: Mapping[str, Any]) -> list[str]:
    modes = _modes(result)[:2]
    rows = [[name, *(_spread(_block(result, mode)["per_annotator"][name]) for mode in modes)]
            for name in result["annotators"]]
    return ["", "per annotator (mean F1 ± sd over the pairs the annotator is in)", *_rows(["annotator", *modes], rows)]


def _matrix(result: Mapping[str, Any], mode: str) -> list[str]:
    names = result["annotators"]
    pairwise = _block(result, mode)["pairwise"]

    def cell(a: str, b: str) -> str:
        if a == b:
            return "-"
        return _number(pairwise.get(f"{a}|{b}", pairwise.get(f"{b}|{a}", {"f1": None}))["f1"])

    return ["", f"{mode} F1 matrix", *_rows(["", *names], [[a, *(cell(a, b) for b in names)] for a in names])]


def _per_type(result: Mapping[str, Any]) -> list[str]:
    per_type = result["per_type"]
    if not per_type:
        return []
    modes = [mode for mode in _modes(result) if "per_type" in _block(result, mode)]
    rows = [[label, *(_spread(_block(result, mode)["per_type"][label]) for mode in modes)] for label in per_type]
    return ["", "per type (mean F1 ± sd over the pairs where either marks the type)", *_rows(["type", *modes], rows)]


def _per_document(result: Mapping[str, Any]) -> list[str]:
    documents = result["per_document"]
    modes = _modes(result)[:2]
    names = list(documents)
    title = f"per {result['documents']['resampled'][:-1]} (mean F1 ± sd over the pairs where either marks something)"
    if len(names) > DOCUMENT_ROWS:
        names = sorted(names, key=lambda n: (documents[n]["mean_f1"] is None, documents[n]["mean_f1"] or 0))
        names = names[:DOCUMENT_ROWS]
        title += f"; the {DOCUMENT_ROWS} of lowest exact mean F1 of {len(documents):,} (--json has them all)"
    rows = [[name, *(_spread(_block(result, mode)["per_document"][name]) for mode in modes)] for name in names]
    return ["", title, *_rows([result["documents"]["resampled"][:-1], *modes], rows)]


def _chance(result: Mapping[str, Any]) -> list[str]:
    unit = result["kappa_unit"]
    said = {"characters": "characters, whitespace and line ends included",
            "tokens": "tokens (the documents' own)",
            "whitespace tokens": "whitespace-delimited tokens of the text (whitespace not counted)"}[unit]
    return ["", f"chance-corrected agreement on {plural(result['kappa_positions'], unit[:-1])}: the unit is {said}, "
                "each labelled with its IOB2 tag (a position inside several spans: all their tags, outermost first)",
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


def _confusion(result: Mapping[str, Any]) -> list[str]:
    """The label confusion, and its most frequent pairs of different types."""
    confusion = result["label_confusion"]
    labels = list(confusion)
    if len(labels) < 3:  # one type and nothing: no confusion of types to show
        return []
    pairs = sorted(((confusion[a][b], a, b) for i, a in enumerate(labels) for b in labels[i + 1:]
                    if a != NOTHING and b != NOTHING and confusion[a][b]), reverse=True)
    total = sum(n for n, _, _ in pairs)
    lines = ["", "label confusion between annotators (each pair's overlapping spans paired one to one, summed over "
                 "the pairs of annotators, either way round; the diagonal: pairs of one type)",
             *_rows(["", *labels], [[a, *(confusion[a][b] for b in labels)] for a in labels])]
    if pairs:
        top = ", ".join(f"{a}/{b} {n}" for n, a, b in pairs[:3])
        lines.append(f"types confused: {total} span pairs; the most: {top}")
    return lines


def _adjudication(result: Mapping[str, Any]) -> list[str]:
    found = result.get("adjudication")
    if found is None:
        return []
    lines = ["", f"disputed places: {found['disputed']} (and {plural(found['agreed'], 'place')} every annotator agrees on), by "
                 "document and offset, each annotator's spans there" + (f"; written as a brat folder to {found['folder']}"
                                                                     if "folder" in found else "")]
    width = max(len(name) for name in result["annotators"])
    for row in found["places"][:PLACES_SHOWN]:
        lines.append(f"{_document(result, row['document'])} {row['start']}-{row['end']} {row['text']!r}")
        for name, held in row["annotators"].items():
            spans = "; ".join(_placed(span) for span in held["spans"]) or "nothing"
            lines.append(f"  {name.ljust(width)}  {spans}")
    if found["disputed"] > PLACES_SHOWN:
        lines.append(f"and {found['disputed'] - PLACES_SHOWN} more (--json has them all)")
    return lines


def _placed(span: Mapping[str, Any]) -> str:
    """An annotator's span at a disputed place: type, offsets, text, and its T id and line when known."""
    offsets = (",".join(f"{a}-{b}" for a, b in span["fragments"]) if "fragments" in span
               else f"{span['start']}-{span['end']}")
    where = f" ({span['id']}, line {span['line']})" if span["id"] is not None else ""
    return f"{span['label']} {offsets} {span['text']!r}{where}"


def _reference(result: Mapping[str, Any]) -> list[str]:
    reference = result.get("reference")
    if reference is None:
        return []
    others = _modes(result)[1:]
    head = ["set", "exact F1", "interval", "precision", "recall", *(f"{mode} F1" for mode in others)]
    rows = []
    for role in ("annotators", "models"):
        for name, figures in reference[role].items():
            exact = figures["exact"]
            low, high = exact["interval"]
            rows.append([f"{name} ({role[:-1]})", _number(exact["f1"]), f"[{low:.4f}, {high:.4f}]",
                         _number(exact["precision"]), _number(exact["recall"]),
                         *(_number(figures[mode]["f1"]) for mode in others)])
    if "annotator_mean_f1" in reference:
        mean = reference["annotator_mean_f1"]
        low, high = mean["exact"]["interval"]
        rows.append(["annotators' mean", _number(mean["exact"]["value"]), f"[{low:.4f}, {high:.4f}]", "", "",
                     *(_number(mean[mode]["value"]) for mode in others)])
    return ["", f"against the reference {reference['name']} (each set scored as predictions of it)", *_rows(head, rows)]


def _notes(result: Mapping[str, Any]) -> list[str]:
    notes = result["notes"]
    lines = []
    for key, what in (("duplicates", "duplicate spans removed"),):
        found = {name: n for name, n in notes[key].items() if n}
        if found:
            lines.append(f"{what}: " + ", ".join(f"{name} {n}" for name, n in found.items()))
    lines += [f"{name} read as {notes['read'][name]}" for name, format in notes["formats"].items() if format == "brat"]
    lines += [f"{mode} not computed: {why}" for mode, why in notes.get("not_computed", {}).items()]
    return ["", *lines] if lines else []


def _document(result: Mapping[str, Any], ident: str) -> str:
    """A document as the report names it: ``document 'x'`` by its id, ``sentence 3`` by its position counted from 1
    (the result's ids are positions from 0 when documents pair by position)."""
    if result["documents"]["paired"] == "position":
        return f"{result['documents']['word']} {int(ident) + 1}"
    return f"document {ident!r}"


def to_text(result: Mapping[str, Any]) -> str:
    """The report: documents and units, pairwise F1 with kappa and the mean ± sd, per annotator, the F1 matrices,
    per type and per document (mean ± sd), kappa and alpha with their unit, the disagreements (and their examples
    when the result holds them), the label confusion, the disputed places when asked, the reference's table,
    notes."""
    lines = [*_documents(result), *_pairwise(result), *_per_annotator(result),
             *(line for mode in _modes(result)[:2] for line in _matrix(result, mode)), *_per_type(result),
             *_per_document(result), *_chance(result), *_disagreements(result), *_confusion(result),
             *_adjudication(result), *_reference(result), *_notes(result)]
    return "\n".join(lines) + "\n"
