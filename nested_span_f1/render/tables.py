"""Views of a result: conlleval.pl's text, a report table, Trainer's flat dict, and an estimate with its interval.

Formatting only; every number comes from :mod:`nested_span_f1.core.scores`.
"""
from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from ..core.counts import Counts, Tally
from ..core.scores import percent_prf
from ..flat import EMPTY_TYPE
from ..lenient import BREAKDOWN, LENIENT_SCHEMES

AVERAGES = ("overall", "macro", "weighted", "untyped")

DASH = "–"
"""What a table or chart shows where a score is absent."""


def pct(value: float) -> str:
    """A score as a percentage with two decimals: ``0.8831`` -> ``"88.31"``."""
    return f"{100 * value:.2f}"


def interval_text(estimate: Mapping[str, float]) -> str:
    """An estimate's interval in percent: ``"[87.10, 89.40]"``."""
    return f"[{pct(estimate['low'])}, {pct(estimate['high'])}]"


def estimate_text(estimate: Mapping[str, float] | None) -> str:
    """An estimate and its interval in percent, ``"88.31 [87.10, 89.40]"``, or :data:`DASH` for none."""
    return DASH if estimate is None else f"{pct(estimate['value'])} {interval_text(estimate)}"


def _pad(text: str, width: int, left: bool = False) -> str:
    # conlleval.pl pads by bytes (Perl without `use utf8`), not by characters
    gap = " " * max(0, width - len(text.encode("utf-8")))
    return text + gap if left else gap + text


def _conlleval_name(label: str) -> str:
    return "" if label == EMPTY_TYPE else label


def _conlleval_rows(counts: Counts) -> list[tuple[str, Tally]]:
    """Per-type rows in conlleval.pl's order: byte-sorted names from gold and predictions.

    conlleval de-duplicates the merged name list with a Perl truth test, so a
    false name ("" for untyped chunks, or "0") is listed once per side it occurs in.
    """
    names = [label for label, t in counts.labels.items() if t.gold] + [
        label for label, t in counts.labels.items() if t.predicted
    ]
    names.sort(key=lambda label: _conlleval_name(label).encode("utf-8", "surrogateescape"))
    rows: list[tuple[str, Tally]] = []
    last = None
    for label in names:
        name = _conlleval_name(label)
        if last in (None, "", "0") or last != name:
            rows.append((name, counts.labels[label]))
        last = name
    return rows


def conlleval_text(counts: Counts) -> str:
    """The report conlleval.pl prints, character for character.

    >>> from nested_span_f1.core.counts import Counts, Tally
    >>> print(conlleval_text(Counts({"PER": Tally(1, 2, 1)}, Tally(1, 2, 1), 4, 3)), end="")
    processed 4 tokens with 1 phrases; found: 2 phrases; correct: 1.
    accuracy:  75.00%; precision:  50.00%; recall: 100.00%; FB1:  66.67
                  PER: precision:  50.00%; recall: 100.00%; FB1:  66.67  2
    """
    total = counts.total
    out = [f"processed {counts.tokens} tokens with {total.gold} phrases; "
           f"found: {total.predicted} phrases; correct: {total.tp}.\n"]
    if counts.tokens > 0:
        p, r, f = percent_prf(total)
        accuracy = 100 * counts.correct_tokens / counts.tokens
        out.append(f"accuracy: {accuracy:6.2f}%; precision: {p:6.2f}%; recall: {r:6.2f}%; FB1: {f:6.2f}\n")
    for name, tally in _conlleval_rows(counts):
        p, r, f = percent_prf(tally)
        out.append(
            f"{_pad(name, 17)}: precision: {p:6.2f}%; recall: {r:6.2f}%; "
            f"FB1: {f:6.2f}  {tally.predicted}\n"
        )
    return "".join(out)


def conlleval_latex(counts: Counts) -> str:
    """conlleval.pl's ``-l`` output: a LaTeX table body, per type then overall."""
    out = ["        & Precision &  Recall  & F$_{\\beta=1} \\\\\\hline"]
    for name, tally in _conlleval_rows(counts):
        p, r, f = percent_prf(tally)
        out.append(f"\n{_pad(name, 7, left=True)} &  {p:6.2f}\\% & {r:6.2f}\\% & {f:6.2f} \\\\")
    out.append("\\hline\n")
    p, r, f = percent_prf(counts.total)
    out.append(f"Overall &  {p:6.2f}\\% & {r:6.2f}\\% & {f:6.2f} \\\\\\hline\n")
    return "".join(out)


def per_label(result: Mapping[str, Any]) -> dict[str, Mapping[str, Any]]:
    """The per-label entries of a result dict (the nested ``{precision, recall, f1, number}`` ones)."""
    return {k: v for k, v in result.items() if isinstance(v, Mapping) and "f1" in v and "number" in v}


def flatten(result: Mapping[str, Any]) -> dict[str, Any]:
    """Trainer's view: scalars only, per-label entries as ``{LABEL}_{precision|recall|f1|number}``.

    ``metric_for_best_model`` must name a top-level scalar, so nested dicts are
    spread out, as run_ner.py's ``return_entity_level_metrics`` does.

    >>> flatten({"PER": {"precision": 1.0, "recall": 0.5, "f1": 0.6, "number": 2}, "overall_f1": 0.6})
    {'PER_precision': 1.0, 'PER_recall': 0.5, 'PER_f1': 0.6, 'PER_number': 2, 'overall_f1': 0.6}
    """
    out: dict[str, Any] = {}
    for key, value in result.items():
        if isinstance(value, Mapping):
            out.update({f"{key}_{k}": v for k, v in value.items() if isinstance(v, (int, float))})
        elif isinstance(value, (int, float)):
            out[key] = value
    return out


def table(result: Mapping[str, Any], digits: int = 4) -> str:
    """A classification-report style table of a result dict: per label, then the averages."""
    labels = per_label(result)
    width = max([len(name) for name in labels] + [len("weighted"), 8])
    head = f"{'':>{width}}  {'precision':>9}  {'recall':>9}  {'f1':>9}  {'number':>7}"
    lines = [head]
    for name, row in labels.items():
        lines.append(
            f"{name:>{width}}  {row['precision']:>9.{digits}f}  {row['recall']:>9.{digits}f}  "
            f"{row['f1']:>9.{digits}f}  {row['number']:>7}"
        )
    lines.append("")
    support = sum(row["number"] for row in labels.values())
    for avg in AVERAGES:
        if f"{avg}_f1" in result:
            lines.append(
                f"{avg:>{width}}  {result[f'{avg}_precision']:>9.{digits}f}  {result[f'{avg}_recall']:>9.{digits}f}  "
                f"{result[f'{avg}_f1']:>9.{digits}f}  {support:>7}"
            )
    extra = {k: v for k, v in result.items() if k not in labels and not k.startswith(AVERAGES) and isinstance(v, int)}
    if "overall_accuracy" in result:
        lines.append(f"\ntoken accuracy {result['overall_accuracy']:.{digits}f}")
    if extra:
        lines.append("  ".join(f"{k}={v}" for k, v in extra.items()))
    return "\n".join(lines) + "\n"


def lenient_table(result: Mapping[str, Any], digits: int = 4) -> str:
    """The four MUC / SemEval schemes of a lenient result, one row each, then the error breakdown."""
    head = f"{'':>8}  {'precision':>9}  {'recall':>9}  {'f1':>9}  {'COR':>5}  {'INC':>5}  {'PAR':>5}  {'MIS':>5}  {'SPU':>5}"
    lines = [head]
    for s in LENIENT_SCHEMES:
        lines.append(
            f"{s:>8}  {result[f'{s}_precision']:>9.{digits}f}  {result[f'{s}_recall']:>9.{digits}f}  "
            f"{result[f'{s}_f1']:>9.{digits}f}  {result[f'{s}_correct']:>5}  {result[f'{s}_incorrect']:>5}  "
            f"{result[f'{s}_partial']:>5}  {result[f'{s}_missed']:>5}  {result[f'{s}_spurious']:>5}"
        )
    lines.append("")
    lines.append("errors: " + "  ".join(f"{c}={result[c]}" for c in BREAKDOWN))
    return "\n".join(lines) + "\n"
