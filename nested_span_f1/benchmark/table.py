"""The table papers print, from benchmark results of several datasets: Markdown and LaTeX (booktabs).

Systems are rows and datasets columns, each with precision, recall and F1 and their
bootstrap intervals. A dagger marks a system whose F1 differs from the baseline's
by a difference that holds in that dataset's benchmark (both paired tests, after
Holm's correction over the comparisons it made); the best F1 of a dataset is bold.
Footnotes name each dataset's split (:func:`~nested_span_f1.benchmark.report.split_text`)
and what the intervals are. Formatting only: every number is read from the results.

>>> gold = [[(0, 1, "X")], [(1, 2, "X")], [(0, 2, "Y")]]
>>> from nested_span_f1.benchmark import benchmark
>>> result = benchmark(gold, {"base": [[(0, 1, "X")], [], []], "new": gold}, n_resamples=50, progress=False)
>>> print(markdown_table([result.to_dict()], baseline="base").splitlines()[2])
| base | 100.00 [100.00, 100.00] | 33.33 [0.00, 100.00] | 50.00 [0.00, 100.00] |
"""
from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from ..core.wording import quote
from ..render.tables import DASH, estimate_text, interval_text, pct
from .report import split_text, table_lines

KEYS = ("precision", "recall", "f1")
TITLES = {"precision": "P", "recall": "R", "f1": "F1"}
MARK = "†"


@dataclass(frozen=True)
class Cell:
    """One system on one dataset: its estimates, whether its F1 is the dataset's best, and its mark.

    ``differs``: True when the difference from the baseline holds, False when it was
    tested and does not, None when the baseline is the system, none was given, or the
    benchmark did not compare the two.
    """

    system: Mapping[str, Any]
    best: bool
    differs: bool | None


@dataclass(frozen=True)
class Grid:
    """Rows (system names), columns (dataset names), cells by (system, dataset), and the footnotes:
    ``notes`` on the marks, ``datasets_notes`` one per dataset (its split and intervals)."""

    systems: list[str]
    datasets: list[str]
    cells: dict[tuple[str, str], Cell]
    notes: list[str]
    dataset_notes: list[str]


def _check(results: Sequence[Mapping[str, Any]], names: Sequence[str]) -> None:
    if not results:
        raise ValueError("no benchmark results to tabulate")
    for result, name in zip(results, names):
        if not isinstance(result, Mapping) or not {"settings", "systems", "comparisons"} <= set(result):
            raise ValueError(f"{name}: not a benchmark result (the --json of nested-span-f1 benchmark)")
    seen: dict[str, str] = {}
    for result, name in zip(results, names):
        dataset = result["settings"]["dataset"]
        if dataset in seen:
            raise ValueError(f"{seen[dataset]} and {name} are both benchmarks on {quote(dataset)}; one result per dataset "
                             "(name them apart with --dataset-name when benchmarking)")
        seen[dataset] = name


def _differs(result: Mapping[str, Any], system: str, baseline: str | None) -> bool | None:
    if baseline is None or system == baseline:
        return None
    for pair in result["comparisons"]:
        if {pair["a"], pair["b"]} == {system, baseline}:
            return bool(pair["significant"])
    return None


def grid(results: Sequence[Mapping[str, Any]], baseline: str | None = None,
         names: Sequence[str] | None = None) -> Grid:
    """The cells and footnotes of the table; ``names`` name the results in messages (file names).

    Raises:
        ValueError: a result that is no benchmark result, two results on one dataset,
            or a baseline that is not a system of every result.
    """
    names = list(names or [f"result {k + 1}" for k in range(len(results))])
    _check(results, names)
    systems: list[str] = []
    datasets, cells, notes, dataset_notes, untested = [], {}, [], [], []
    for result, name in zip(results, names):
        settings = result["settings"]
        dataset = settings["dataset"]
        datasets.append(dataset)
        listed = [s["name"] for s in result["systems"]]
        if baseline is not None and baseline not in listed:
            raise ValueError(f"{name}: the baseline {quote(baseline)} is not one of its systems ({', '.join(listed)})")
        top = max(s["f1"]["value"] for s in result["systems"])
        for system in result["systems"]:
            if system["name"] not in systems:
                systems.append(system["name"])
            differs = _differs(result, system["name"], baseline)
            if baseline is not None and system["name"] != baseline and differs is None:
                untested.append(f"{system['name']} on {dataset}")
            cells[system["name"], dataset] = Cell(system, system["f1"]["value"] == top, differs)
        split = split_text(settings).removeprefix("Gold: ")
        dataset_notes.append(f"{split if settings.get('split') else f'{dataset}: {split}'} Intervals: {100 * settings['confidence']:g}% percentile "
                     f"bootstrap over {settings['n_units']:,} {settings['units']} ({settings['n_resamples']:,} "
                     f"resamples).")
    if baseline is not None:
        alphas = sorted({f"{r['settings']['alpha']:g}" for r in results})
        notes.append(f"{MARK} F1 differs from {baseline}'s: the paired bootstrap and approximate randomization both "
                        f"give p < {' or '.join(alphas)} after Holm's correction over the comparisons of its benchmark.")
        if untested:
            notes.append(f"Not compared with {baseline} in their benchmarks (no mark either way): "
                            f"{'; '.join(untested)}.")
    return Grid(systems, datasets, cells, notes, dataset_notes)


def markdown_table(results: Sequence[Mapping[str, Any]], baseline: str | None = None,
                   names: Sequence[str] | None = None) -> str:
    """The table as GitHub-flavoured Markdown, scores in %, footnotes below it."""
    g = grid(results, baseline, names)
    head = ["System", *(f"{d} {TITLES[k]}" for d in g.datasets for k in KEYS)]
    rows = []
    for name in g.systems:
        row = [name]
        for dataset in g.datasets:
            cell = g.cells.get((name, dataset))
            if cell is None:
                row += [DASH] * len(KEYS)
                continue
            f1 = estimate_text(cell.system["f1"]) + (f" {MARK}" if cell.differs else "")
            row += [estimate_text(cell.system["precision"]), estimate_text(cell.system["recall"]),
                    f"**{f1}**" if cell.best else f1]
        rows.append(row)
    return "\n".join([*table_lines(head, rows), *(f"- {note}" for note in [*g.notes, *g.dataset_notes]), ""])


LATEX_SPECIAL = {"\\": r"\textbackslash{}", "&": r"\&", "%": r"\%", "$": r"\$", "#": r"\#", "_": r"\_",
                 "{": r"\{", "}": r"\}", "~": r"\textasciitilde{}", "^": r"\textasciicircum{}", "<": r"$<$", ">": r"$>$",
                 MARK: r"$^\dagger$"}


def latex_escape(text: str) -> str:
    """``text`` with LaTeX's special characters escaped (``"a_b & c"`` -> ``"a\\_b \\& c"``)."""
    return "".join(LATEX_SPECIAL.get(char, char) for char in str(text))


def _latex_value(estimate: Mapping[str, float], bold: bool = False, mark: bool = False) -> str:
    value = pct(estimate["value"])
    return (rf"\textbf{{{value}}}" if bold else value) + (r"$^\dagger$" if mark else "")


def _latex_interval(estimate: Mapping[str, float]) -> str:
    return rf"{{\scriptsize {interval_text(estimate)}}}"


LATEX_PACKAGES = r"\usepackage{booktabs,graphicx}"
"""What the LaTeX table needs in the preamble: booktabs' rules, and graphicx to shrink a table wider than the text."""


def latex_table(results: Sequence[Mapping[str, Any]], baseline: str | None = None,
                names: Sequence[str] | None = None) -> str:
    """The table as a LaTeX ``table*`` float with booktabs rules, to ``\\input`` (:data:`LATEX_PACKAGES`).

    Each system takes two lines, the scores on the first and their intervals under
    them in small type, so that two datasets fit an ``article`` page at full size; a
    table still wider than the text (more datasets, long system names) is shrunk to
    the text width by graphicx's ``\\resizebox``, and one that fits is left as it is.
    """
    g = grid(results, baseline, names)
    width = len(KEYS)
    lines = [r"\begin{table*}[t]", r"\centering", r"\small",
             r"\resizebox{\ifdim\width>\linewidth\linewidth\else\width\fi}{!}{%",
             r"\begin{tabular}{l" + ("c" * width) * len(g.datasets) + "}", r"\toprule",
             " & ".join(["", *(rf"\multicolumn{{{width}}}{{c}}{{{latex_escape(d)}\textsuperscript{{{_letter(k)}}}}}"
                               for k, d in enumerate(g.datasets))]) + r" \\",
             " ".join(rf"\cmidrule(lr){{{2 + width * k}-{1 + width * (k + 1)}}}" for k in range(len(g.datasets))),
             " & ".join(["System", *(TITLES[key] for _ in g.datasets for key in KEYS)]) + r" \\", r"\midrule"]
    for name in g.systems:
        values, intervals = [latex_escape(name)], [""]
        for dataset in g.datasets:
            cell = g.cells.get((name, dataset))
            if cell is None:
                values += ["--"] * width
                intervals += [""] * width
                continue
            values += [_latex_value(cell.system["precision"]), _latex_value(cell.system["recall"]),
                       _latex_value(cell.system["f1"], bold=cell.best, mark=bool(cell.differs))]
            intervals += [_latex_interval(cell.system[key]) for key in KEYS]
        lines += [" & ".join(values) + r" \\", " & ".join(intervals) + r" \\[2pt]"]
    lines += [r"\bottomrule", r"\end{tabular}}", r"\par\smallskip", r"\begin{minipage}{\linewidth}\footnotesize"]
    lines += [latex_escape(note) + r"\\" for note in g.notes]
    lines += [rf"\textsuperscript{{{_letter(k)}}}" + latex_escape(note) + r"\\" for k, note in enumerate(g.dataset_notes)]
    lines += [r"\end{minipage}",
              r"\caption{Precision (P), recall (R) and F1 in \%, with bootstrap intervals under them; best F1 per "
              r"dataset in bold.}",
              r"\end{table*}", ""]
    return "\n".join(lines)


def _letter(k: int) -> str:
    return "abcdefghijklmnopqrstuvwxyz"[k % 26]
