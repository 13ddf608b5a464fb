"""Text views of a benchmark result dict: Markdown tables and a Hub ``model-index`` block (formatting only).

Scores are shown as percentages with two decimals, intervals in brackets,
p-values with four decimals.
"""
from __future__ import annotations

import json
from collections.abc import Mapping, Sequence
from typing import Any

from ..core.wording import plural
from ..lenient import BREAKDOWN
from ..render.tables import DASH, interval_text, pct

ERROR_TITLES = {
    "correct": "Correct", "boundary_error": "Boundary", "type_error": "Type",
    "boundary_type_error": "Boundary and type", "missed": "Missed", "spurious": "Spurious",
}


def _cell(text: Any) -> str:
    return str(text).replace("|", "\\|")


def _row(cells: Sequence[Any]) -> str:
    return "| " + " | ".join(_cell(c) for c in cells) + " |"


def table_lines(head: Sequence[str], rows: Sequence[Sequence[Any]], left: int = 1) -> list[str]:
    """A GitHub-flavoured Markdown table; the first ``left`` columns left-aligned, the others right."""
    rule = ["---" if k < left else "---:" for k in range(len(head))]
    return [_row(head), "|" + "|".join(rule) + "|", *(_row(r) for r in rows), ""]


def _recall(bucket: Mapping[str, Any] | None) -> str:
    return pct(bucket["recall"]) if bucket and bucket["number"] else DASH


def _signed(value: float) -> str:
    return f"{100 * value:+.2f}"


def markdown(result: Mapping[str, Any]) -> str:
    """The report: systems with intervals, per-type F1, error categories, pairwise differences, what holds."""
    settings, systems, pairs = result["settings"], result["systems"], result["comparisons"]
    level = f"{100 * settings['confidence']:g}%"
    steps = any(s["step"] is not None for s in systems)
    lines = [
        f"## Benchmark on {settings['dataset']}",
        "",
        (f"{settings['sentences']} sentences, {systems[0]['gold']} gold entities; {level} percentile bootstrap "
         f"intervals over {settings['n_units']} {settings['units']} ({settings['n_resamples']} resamples, "
         f"seed {settings['seed']}); scores in %."),
        "",
    ]
    lines += [split_text(settings), ""]
    if settings.get("gold_read"):
        lines += [f"Gold read as {settings['gold_read']}.", ""]
    if settings.get("selection"):
        lines += [settings["selection"]["text"], ""]
    lines += _notes(systems)
    dev = any(s.get("dev") for s in systems)
    head = ["System", *(["Step"] if steps else []), *([f"Dev F1 ({level} CI)"] if dev else []), "Precision",
            "Recall", "F1", f"F1 {level} CI", "Nested recall", "Flat recall"]
    rows = [[s["name"], *([DASH if s["step"] is None else s["step"]] if steps else []),
             *([f"{pct(s['dev']['f1']['value'])} {interval_text(s['dev']['f1'])}" if s.get("dev") else DASH]
               if dev else []),
             pct(s["precision"]["value"]), pct(s["recall"]["value"]), pct(s["f1"]["value"]), interval_text(s["f1"]),
             _recall(s["by_nesting"].get("nested")), _recall(s["by_nesting"].get("flat"))] for s in systems]
    lines += table_lines(head, rows)
    labels = sorted({label for s in systems for label in s["per_type"]})
    lines += [f"### Per-type F1 ({level} CI)", ""]
    lines += table_lines(["System", *labels], [
        [s["name"], *(f"{pct(s['per_type'][k]['f1']['value'])} {interval_text(s['per_type'][k]['f1'])}"
                      if k in s["per_type"] else DASH for k in labels)] for s in systems])
    lines += _answers(systems, level)
    lines += ["### Error categories (lenient matching)", ""]
    lines += table_lines(["System", *(ERROR_TITLES[k] for k in BREAKDOWN)],
                    [[s["name"], *(s["errors"][k] for k in BREAKDOWN)] for s in systems])
    if pairs:
        lines += _differences(pairs, settings, level)
    return "\n".join(lines)


def split_text(settings: Mapping[str, Any]) -> str:
    """One sentence naming the gold's standard split and the counts compared, saying which counts alone match a
    split where not all could be compared, or saying it is none."""
    split, counts = settings.get("split"), settings.get("gold_counts") or {}
    given = ", ".join(f"{counts[k]:,} {k}" for k in ("sentences", "tokens", "characters", "entities")
                      if counts.get(k) is not None)
    if split is None:
        return f"Gold: no known standard split ({given})."
    compared, unchecked = split["matched_on"], split.get("unchecked", [])
    if unchecked:
        words = [key.removesuffix("s").replace("entitie", "entity") for key in compared]
        values = ", ".join(f"{split['counts'][key]:,}" for key in compared)
        return (f"Gold: {_and(words)} count{'s' if len(words) > 1 else ''} match{'' if len(words) > 1 else 'es'} "
                f"{split['dataset']} {split['part']} ({values}) in the {split['name']}; {_and(unchecked)} not checked, "
                f"so the gold is not named as that split ({given}).")
    as_in = "" if split["as_in"] in split["name"] else f", as in {split['as_in']}"
    return (f"Gold: {split['dataset']} {split['part']}, {split['name']}{as_in} ({given}; recognised by its sentence, "
            "token and entity counts).")


def _and(words: Sequence[str]) -> str:
    """``"a"``, ``"a and b"``, ``"a, b and c"``."""
    return words[0] if len(words) == 1 else f"{', '.join(words[:-1])} and {words[-1]}"


NOTES = {
    "discontinuous_left_out": "Discontinuous entities left out of every figure (gold and predicted)",
    "duplicate_predictions": "Duplicate predicted spans removed before scoring",
    "duplicate_references": "Duplicate gold spans removed before scoring",
}


def _answers(systems: Sequence[Mapping[str, Any]], level: str) -> list[str]:
    """Answer systems (a language model's entity lists): the located spans' F1 beside the string protocol's,
    with what could not be placed or read."""
    rows = [[s["name"], pct(s["f1"]["value"]), interval_text(s["f1"]), pct(s["strings"]["f1"]["value"]),
             interval_text(s["strings"]["f1"]), s["answers"]["not_in_text"], s["answers"]["excess"],
             s["answers"]["unparseable"]] for s in systems if "strings" in s]
    if not rows:
        return []
    head = ["System", "Located F1", f"{level} CI", "String F1", f"{level} CI", "Not in text", "Excess", "Unparseable"]
    return ["### Answer systems: located spans and strings", "",
            "Located spans are scored above like every system; the string protocol (UniversalNER's: normalised "
            "strings per document and type, as sets) is resampled with the same draws.", "", *table_lines(head, rows)]


def _notes(systems: Sequence[Mapping[str, Any]]) -> list[str]:
    """One line per kind of note some system has: what was left out or removed, per system."""
    lines = []
    for key, text in NOTES.items():
        found = [f"{s['name']} {s['notes'][key]}" for s in systems if s["notes"][key]]
        if found:
            lines += [f"{text}: {'; '.join(found)}.", ""]
    return lines


def _differences(pairs: Sequence[Mapping[str, Any]], settings: Mapping[str, Any], level: str) -> list[str]:
    """The pairs table (Holm columns with more than one pair) and a sentence saying which differences hold."""
    alpha, corrected = settings["alpha"], len(pairs) > 1
    keys = ["p_bootstrap", "p_randomization"]
    titles = ["p bootstrap", "p randomization"]
    if corrected:
        keys += ["p_bootstrap_holm", "p_randomization_holm"]
        titles += ["p bootstrap (Holm)", "p randomization (Holm)"]
    lines = [f"### Differences in F1 (A minus B; paired tests over {settings['units']})", ""]
    lines += table_lines(
        ["A", "B", "ΔF1", f"{level} CI", *titles, f"Holds at {alpha:g}"],
        [[p["a"], p["b"], _signed(p["f1_difference"]["value"]), interval_text(p["f1_difference"]),
          *(f"{p[key]:.4f}" for key in keys), "yes" if p["significant"] else "no"] for p in pairs], left=2)
    how = (f"both the paired bootstrap ({settings['n_resamples']:,} resamples) and approximate randomization "
           f"({settings['n_permutations']:,} rounds) give p < {alpha:g}"
           + (f" after Holm's correction over {len(pairs)} pairs" if corrected else ""))
    lines += [comparisons_text(settings, len(pairs)), ""]
    held = [p for p in pairs if p["significant"]]
    if not held:
        return [*lines, f"No difference holds at {alpha:g}: none where {how}.", ""]
    said = "; ".join(
        f"{p['a']} > {p['b']} (+{pct(p['f1_difference']['value'])})" if p["f1_difference"]["value"] > 0
        else f"{p['b']} > {p['a']} (+{pct(-p['f1_difference']['value'])})" for p in held)
    return [*lines, f"Differences that hold at {alpha:g} ({how}): {said}.", ""]


def comparisons_text(settings: Mapping[str, Any], m: int) -> str:
    """What was compared, and the smallest p-value Holm's correction could give with the resamples drawn (raised,
    when they were, so that it is below alpha)."""
    what = settings["compared"]
    rounds = min(settings["n_resamples"], settings["n_permutations"])
    holm = "after Holm's correction " if m > 1 else ""
    text = (f"Compared: {what} ({plural(m, 'comparison')}). With {rounds:,} resamples the smallest p-value "
            f"{holm}is {m}/{rounds + 1:,} = {m / (rounds + 1):.4f}, below alpha {settings['alpha']:g}")
    if settings.get("raised_from"):
        text += (f"; the resamples were raised from {settings['raised_from']:,} to {settings['n_resamples']:,} for "
                 f"that (at least {settings['rounds_needed']:,} are needed)")
    return text + "."


def model_index(system: Mapping[str, Any], model_name: str, dataset_name: str, dataset_type: str,
                dataset_config: str | None, split: str) -> str:
    """A Hub ``model-index`` block (YAML front matter for a model card) with one system's F1, precision and recall
    on a dataset (its Hub id ``dataset_type``, ``dataset_config`` when given, ``split``).

    Strings are written as JSON strings, which YAML reads as double-quoted scalars.
    """
    q = json.dumps
    lines = [
        "---",
        "model-index:",
        f"- name: {q(model_name)}",
        "  results:",
        "  - task:",
        "      type: token-classification",
        "      name: Token Classification",
        "    dataset:",
        f"      name: {q(dataset_name)}",
        f"      type: {q(dataset_type)}",
        *([f"      config: {q(dataset_config)}"] if dataset_config else []),
        f"      split: {q(split)}",
        "    metrics:",
    ]
    for key in ("f1", "precision", "recall"):
        estimate = system[key]
        lines += [
            f"    - type: {key}",
            f"      value: {round(estimate['value'], 4)!r}",
            f"      name: {q(key.capitalize() if key != 'f1' else 'F1')}",
            f"      # bootstrap interval: [{round(estimate['low'], 4)!r}, {round(estimate['high'], 4)!r}]",
        ]
    return "\n".join([*lines, "---", ""])


def model_card(result: Mapping[str, Any], model_name: str, dataset_name: str, dataset_type: str,
               dataset_config: str | None, split: str) -> str:
    """A model card for the selected system: the ``model-index`` front matter, then what was scored, on which split
    of the data, and how the checkpoint was selected."""
    settings = result["settings"]
    system = next(s for s in result["systems"] if s["name"] == settings["selection"]["system"])
    level = f"{100 * settings['confidence']:g}%"
    data = f"{dataset_name} ({dataset_type}" + (f", config {dataset_config}" if dataset_config else "") + f", {split})"
    selected = settings["selection"]
    how = (f"The checkpoint ({system['name']}) was selected on the development set: the highest F1 on "
           f"{selected['dev_gold']} ({pct(system['dev']['f1']['value'])}) among {len(selected['candidates'])}; the "
           "test set played no part in the choice." if selected["on"] == "development" else
           f"The checkpoint ({system['name']}) was selected on the test set itself (no development data was given), so "
           "these test scores overstate what it would score on new data.")
    body = [
        f"# {model_name}", "",
        "## Evaluation", "",
        (f"Entity-level exact-match scores on {data}: F1 {pct(system['f1']['value'])} ({level} bootstrap interval "
         f"{interval_text(system['f1'])} over {settings['n_units']:,} {settings['units']}), precision "
         f"{pct(system['precision']['value'])}, recall {pct(system['recall']['value'])}; scored with nested-span-f1 "
         f"{settings['version']}."), "",
        split_text(settings), "",
        how, "",
    ]
    return model_index(system, model_name, dataset_name, dataset_type, dataset_config, split) + "\n" + "\n".join(body)
