"""``nested-span-f1 thresholds``: precision-recall curves of scored predictions, average precision, and a threshold
chosen on dev and applied to test.

The prediction file's entities carry scores (``score`` or ``prob`` on the mentions of
a span file, text spans as GLiNER writes them, the pipeline's output, a span
group's ``attrs["scores"]`` in a DocBin, or a CoNLL column named with
``--score-column``). The report gives average precision and the best-F1
threshold, overall and per type, the figures at the system's own threshold,
and with ``--json`` every point of the curve. With ``--dev-gold`` and ``--dev-pred`` the
threshold is chosen on dev (overall, or per type with ``--per-type``) and test is
reported at it, beside test at the system's threshold and the oracle (best on
test itself), which is labelled as such.
"""
from __future__ import annotations

import argparse
import json
import math
import sys
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

from ...align.score import alignment
from ...formats import Corpus
from ...thresholds.curve import ThresholdCurve
from ...thresholds.score import DECODINGS, METRICS, ScoredPair, apply_thresholds, curve_of, scored_pair
from ...thresholds.select import ORACLE, dev_then_test, without_best
from .inputs import (
    ANSWERS,
    COLUMNS,
    add_command,
    add_format_options,
    add_tag_options,
    check_outputs,
    column_index,
    duplicates_in_output,
    for_people,
)
from .texts import add_text_options, alignment_lines, check_text_options, read_any

EXAMPLES = """more examples:
  nested-span-f1 thresholds --gold test.jsonl --pred scored.jsonl --json
  nested-span-f1 thresholds --gold test.jsonl --pred gliner.jsonl --decode flat --json
  nested-span-f1 thresholds --gold test.jsonl --pred test.scored.jsonl --dev-gold dev.jsonl --dev-pred dev.scored.jsonl \\
      --per-type --plot curves.png
  nested-span-f1 thresholds --gold test.conll --pred pred.conll --pred-format conll --column 2 --score-column 3

A span is kept when its score is at least the threshold; scores need not lie in [0, 1] (logits are allowed).
Decoding: nested keeps every span at or above the threshold (one sort of the scores); flat keeps the
highest-scoring spans that do not overlap, as GLiNER's flat mode (one greedy pass over the spans, then the same
sort). --plot writes .png, .svg or .pdf (the plots extra: pip install ".[plots]" in a clone), or a self-contained .html
page."""

CURVE_PLOTS = (".png", ".svg", ".pdf", ".html")


def add_parser(sub: argparse._SubParsersAction) -> None:
    p, io = add_command(
        sub, "thresholds", "nested-span-f1 thresholds --gold nested.gold.jsonl --pred nested.scored.jsonl",
        __doc__.split("\n\n", 1)[1].replace("\n", " ").replace("``", ""), EXAMPLES,
        usage="%(prog)s --gold GOLD --pred PRED [options]",
    )
    io.add_argument("--gold", required=True, help="gold file (any format the readers take)")
    io.add_argument("--pred", required=True, help="scored predictions (the same sentences or documents as --gold)")
    io.add_argument("--json", action="store_true", help="print the result as JSON, every point of the curves included")
    io.add_argument("--plot", metavar="FILE", help="draw the curves (overall, then per type) with iso-F1 lines and "
                                                    "the thresholds reported: .png, .svg, .pdf or .html")
    curves = p.add_argument_group("curves and thresholds")
    curves.add_argument("--metric", choices=METRICS, default="nested",
                        help="exact and nested: (start, end, label) matched exactly (the same curve); lenient: overlap "
                             "with the same label, matched one to one (the type scheme) (default: nested)")
    curves.add_argument("--decode", choices=DECODINGS, default="nested",
                        help="nested: every span at or above the threshold; flat: the highest-scoring spans that do "
                             "not overlap (default: nested)")
    curves.add_argument("--threshold", type=finite_float, default=0.5,
                        help="the system's own threshold, reported beside the others (default: 0.5)")
    curves.add_argument("--dev-gold", metavar="FILE", help="development gold: the threshold is chosen on it")
    curves.add_argument("--dev-pred", metavar="FILE", help="scored development predictions")
    curves.add_argument("--per-type", action="store_true", help="with --dev-gold: choose a threshold for each type")
    curves.add_argument("--min-iou", type=finite_float, default=None,
                        help="lenient: least intersection over union of a matched pair (default: any shared token)")
    tags = add_tag_options(p, " of column files")
    tags.add_argument("--score-column", type=column_index, metavar="N",
                      help="CoNLL predictions: the column of each token's score, counted from 1 or from the end (a "
                           "span's score is its tokens' mean)")
    add_format_options(p, gold="--gold and --dev-gold", pred="--pred and --dev-pred")
    add_text_options(p)
    p.set_defaults(run=run)


def finite_float(value: str) -> float:
    """An argparse type: a finite number (``nan`` and ``inf`` are refused: no span's score is compared with them,
    and JSON cannot hold them)."""
    try:
        number = float(value)
    except ValueError:
        raise argparse.ArgumentTypeError(f"{value!r} is not a number") from None
    if not math.isfinite(number):
        raise argparse.ArgumentTypeError(f"{value!r} is not a finite number") from None
    return number


def check_plot(path: str) -> None:
    """Fail before reading anything when the curves cannot be drawn to ``path``."""
    if not path.lower().endswith(CURVE_PLOTS):
        raise ValueError(f"--plot {path}: curves are drawn as .png, .svg, .pdf or .html")
    if not path.lower().endswith(".html"):
        import matplotlib  # noqa: F401  (a missing extra is named by the command line)


def read_pair(gold_path: str, pred_path: str, args: argparse.Namespace,
              options: tuple[str, str] = ("--gold", "--pred")) -> tuple[ScoredPair, Corpus, Corpus]:
    """A gold file and a scored prediction file, read and paired (documents by id, texts aligned); an error of the
    pairing (which is of both files) names the two, by their ``options`` and names, unless it names a file."""
    if ANSWERS in (args.gold_format, args.pred_format):
        raise ValueError("language models' answers carry no scores; a threshold curve needs scored predictions")
    gold = read_any(gold_path, args.gold_format, args)
    pred = read_any(pred_path, args.pred_format, args, score_column=args.score_column)
    check_text_options(args, {"references": gold, "predictions": pred})
    if pred.scores is None:
        where = ("name the column of the tokens' scores with --score-column" if pred.format == COLUMNS else
                 "give each entity a 'score' (or 'prob')")
        raise ValueError(f"{pred_path}: the predictions carry no scores; {where}")
    try:
        return scored_pair(gold, pred, trim=args.trim, snap=args.snap), gold, pred
    except (ValueError, TypeError) as error:
        found = for_people(error)
        if str(found).startswith((gold_path, pred_path)):
            raise found from None
        raise type(found)(f"{options[0]} {gold_path} and {options[1]} {pred_path}: {found}") from None


def _inputs(args: argparse.Namespace) -> list[tuple[str, str | None]]:
    return [(f"--{name.replace('_', '-')} {getattr(args, name)}", getattr(args, name))
            for name in ("gold", "pred", "dev_gold", "dev_pred")]


def run(args: argparse.Namespace) -> int:
    check_outputs(_inputs(args), [("--plot", args.plot)])
    if (args.dev_gold is None) != (args.dev_pred is None):
        raise ValueError("--dev-gold and --dev-pred go together: the threshold is chosen on development predictions "
                         "against their gold")
    if args.per_type and args.dev_gold is None:
        raise ValueError("--per-type chooses a threshold for each type on dev; give --dev-gold and --dev-pred")
    if args.score_column is not None and args.pred_format not in (None, COLUMNS):
        raise ValueError(f"--score-column names a column of a CoNLL column file, but --pred-format is "
                         f"{args.pred_format}")
    if args.plot:
        check_plot(args.plot)
    settings = {"metric": args.metric, "decode": args.decode, "min_iou": args.min_iou}
    with duplicates_in_output():
        test, gold, pred = read_pair(args.gold, args.pred, args)
        curve = curve_of(test, zero_division=0, **settings)
        if args.dev_gold is None:
            report: dict[str, Any] = {"at_system_threshold": {
                "threshold": args.threshold, **apply_thresholds(test, args.threshold, **settings)}}
        else:
            dev = read_pair(args.dev_gold, args.dev_pred, args, ("--dev-gold", "--dev-pred"))[0]
            dev_curve = curve_of(dev, zero_division=0, **settings)
            report = dev_then_test(dev, dev_curve, test, curve, per_type=args.per_type,
                                   system_threshold=args.threshold, names=(args.dev_gold, args.gold), **settings)
            report["dev"].update(curve=dev_curve.to_dict())
    if args.plot:
        _draw(args, curve, report)
    if args.json:
        sys.stdout.write(json.dumps(_json(curve, report, test), indent=2, allow_nan=False) + "\n")
        return 0
    lines = _about(args, gold, pred, curve, test)
    lines += _dev_test_lines(args, curve, report) if args.dev_gold else _curve_lines(curve, report)
    sys.stdout.write("\n".join(lines) + "\n")
    return 0


def _json(curve: ThresholdCurve, report: Mapping[str, Any], pair: ScoredPair) -> dict[str, Any]:
    """The command's JSON: the curve (its best labelled as the oracle when a dev set chose the threshold)."""
    found = curve.to_dict()
    extra = {"alignment": alignment(pair.texts)} if pair.texts is not None else {}
    if "selection" not in report:
        return {**found, **report, **extra}
    settings = {key: found.pop(key) for key in list(found) if key in curve.settings}
    return {**settings, "selection": report["selection"], "dev": report["dev"],
            "test": {**report["test"], **without_best(found)}, **extra}


def _about(args: argparse.Namespace, gold: Corpus, pred: Corpus, curve: ThresholdCurve, pair: ScoredPair) -> list[str]:
    """What was read and how it is scored."""
    scores = [s for row in pair.scores for s in row]
    span = f"scores {min(scores):.4g} to {max(scores):.4g}" if scores else "no entity"
    how = {"exact": "(start, end, label) matched exactly", "nested": "(start, end, label) matched exactly",
           "lenient": "overlap with the same label, matched one to one: the type scheme"}[args.metric]
    decoding = {"nested": "every span at or above the threshold",
                "flat": "the highest-scoring spans that do not overlap"}[args.decode]
    notes = curve.notes
    found = (f"found: duplicates {notes['duplicate_references']} gold / {notes['duplicate_predictions']} predicted "
             "(a span predicted twice counts once, at its higher score)")
    if "flat_decoding_left_out" in notes:
        found += f"; flat decoding left out {notes['flat_decoding_left_out']} predicted spans"
    lines = [f"gold:        {args.gold} ({gold.format}; {gold.conversion})",
             f"predictions: {args.pred} ({pred.format}; {pred.conversion}); {len(scores)} scored entities, {span}",
             f"metric: {args.metric} ({how}); decoding: {args.decode} ({decoding})", found]
    if pair.texts is not None:
        lines += ["alignment (every predicted span, whatever its score):", *alignment_lines(alignment(pair.texts))]
    return lines


def _figures(row: Mapping[str, Any]) -> str:
    return (f"precision {row['precision']:.4f}, recall {row['recall']:.4f}, F1 {row['f1']:.4f} "
            f"(tp {row['tp']}, fp {row['fp']}, fn {row['fn']})")


def _type_table(curve: ThresholdCurve, thresholds: Mapping[str, Any] | None = None,
                applied: Mapping[str, Any] | None = None) -> list[str]:
    """Per type: average precision, then the best point of its curve, or (``applied``) the figures at the
    thresholds given."""
    head = "threshold" if applied is not None else "best at"
    lines = [f"{'type':<16} {'AP':>8} {head:>10} {'precision':>9} {'recall':>9} {'f1':>9} {'number':>7} "
             f"{'predicted':>9}"]
    for label, typed in curve.per_type.items():
        summary = typed.summary()
        if applied is not None:
            row = applied["per_type"].get(label)
            threshold = (thresholds or {}).get(label, applied["threshold"])
            point = None if row is None else {"threshold": threshold, **row}
        else:
            point = typed.best
        shown = ("-", "-", "-", "-") if point is None else (f"{point['threshold']:.4g}", f"{point['precision']:.4f}",
                                                          f"{point['recall']:.4f}", f"{point['f1']:.4f}")
        lines.append(f"{label:<16} {summary['average_precision']:>8.4f} {shown[0]:>10} {shown[1]:>9} {shown[2]:>9} "
                     f"{shown[3]:>9} {summary['number']:>7} {summary['predicted']:>9}")
    return lines


def _curve_lines(curve: ThresholdCurve, report: Mapping[str, Any]) -> list[str]:
    at = report["at_system_threshold"]
    best = curve.best
    lines = ["", f"overall: {len(curve)} thresholds, average precision {curve.average_precision:.4f}"]
    if best is not None:
        lines.append(f"  best F1 at threshold {best['threshold']:.4g}: precision {best['precision']:.4f}, recall "
                     f"{best['recall']:.4f}, F1 {best['f1']:.4f} (chosen on these files: on a test set an oracle "
                     "figure; choose it on dev with --dev-gold and --dev-pred)")
    lines += [f"  at the system's threshold {at['threshold']:g}: {_figures(at)}", "", *_type_table(curve), "",
              "--json prints every point of the curves (threshold, precision, recall, f1, tp, fp, fn)"]
    return lines


def _dev_test_lines(args: argparse.Namespace, curve: ThresholdCurve, report: Mapping[str, Any]) -> list[str]:
    selection, test = report["selection"], report["test"]
    chosen = f"{selection['threshold']:.4g} (overall)"
    if selection["thresholds"] is not None:
        chosen = ", ".join(f"{label} {t:.4g}" for label, t in selection["thresholds"].items())
        chosen += f"; overall {selection['threshold']:.4g}"
    lines = ["", f"threshold chosen on dev ({args.dev_gold}, {args.dev_pred}): {chosen}"]
    if selection["types_without_dev_threshold"]:
        lines.append("  types never predicted on dev, given the overall dev threshold: "
                     + ", ".join(selection["types_without_dev_threshold"]))
    for key, what in (("labels_only_in_dev", "labels only in dev"), ("labels_only_in_test", "labels only in test")):
        if selection[key]:
            lines.append(f"  {what}: {', '.join(selection[key])}")
    lines += [f"dev at that threshold: {_figures(report['dev'])}", "", f"test ({args.gold}):",
              f"  {'':<37} {'threshold':>9} {'precision':>9} {'recall':>9} {'f1':>9} {'tp':>7} {'fp':>7} {'fn':>7}"]
    rows = [("at the dev threshold (report this)", test["at_dev_threshold"]),
            ("at the system's threshold", test["at_system_threshold"])]
    if "oracle_best_on_test" in test:
        rows.append(("ORACLE: best on test (do not report)", test["oracle_best_on_test"]))
    for name, row in rows:
        threshold = "per type" if row.get("thresholds") else f"{row['threshold']:.4g}"
        lines.append(f"  {name:<37} {threshold:>9} {row['precision']:>9.4f} {row['recall']:>9.4f} {row['f1']:>9.4f} "
                     f"{row['tp']:>7} {row['fp']:>7} {row['fn']:>7}")
    if "oracle_best_on_test" in test:
        lines.append(f"  {ORACLE}")
    lines += [f"test average precision (no threshold): {curve.average_precision:.4f}", "",
              "per type, on test at the dev threshold:",
              *_type_table(curve, selection["thresholds"], test["at_dev_threshold"]), "",
              "--json prints every point of the curves (threshold, precision, recall, f1, tp, fp, fn)"]
    return lines


def _marks(report: Mapping[str, Any], curve: ThresholdCurve, label: str | None) -> list[dict[str, Any]]:
    """The points marked on a panel (``label`` None: the overall one): the figures reported, as their thresholds
    give them."""
    def point(kind: str, name: str, row: Mapping[str, Any] | None) -> list[dict[str, Any]]:
        if row is None:
            return []
        figures = row if label is None else row["per_type"].get(label)
        if figures is None:
            return []
        return [{"kind": kind, "label": name, "recall": figures["recall"], "precision": figures["precision"]}]

    def threshold(row: Mapping[str, Any]) -> str:
        per = row.get("thresholds")
        if per is None:
            return f"{row['threshold']:.4g}"
        return f"{per.get(label, row['threshold']):.4g}" if label is not None else "per type"

    if "selection" not in report:
        typed = curve if label is None else curve.per_type[label]
        best = typed.best
        marks = [] if best is None else [{"kind": "best", "label": f"best F1 here ({best['threshold']:.4g})",
                                          "recall": best["recall"], "precision": best["precision"]}]
        at = report["at_system_threshold"]
        return marks + point("system", f"system threshold ({at['threshold']:g})", at)
    test = report["test"]
    marks = point("chosen", f"chosen on dev ({threshold(test['at_dev_threshold'])})", test["at_dev_threshold"])
    marks += point("system", f"system threshold ({test['at_system_threshold']['threshold']:g})",
                   test["at_system_threshold"])
    oracle = test.get("oracle_best_on_test")
    return marks + point("oracle", f"ORACLE: best on test ({threshold(oracle)})" if oracle else "", oracle)


def _draw(args: argparse.Namespace, curve: ThresholdCurve, report: Mapping[str, Any]) -> None:
    from ...render.curves import curves_page, panel, plot_curves

    found = curve.to_dict()
    panels = [panel("all types", found, _marks(report, curve, None))]
    panels += [panel(label, row, _marks(report, curve, label)) for label, row in found.get("per_type", {}).items()]
    title = (f"{Path(args.pred).name} against {Path(args.gold).name}: {args.metric} metric, {args.decode} decoding"
             + (f", threshold chosen on {Path(args.dev_gold).name}" if args.dev_gold else ""))
    notes: Sequence[str] = [ORACLE] if args.dev_gold else []
    if args.plot.lower().endswith(".html"):
        from ...formats.output import write_file

        write_file(args.plot, curves_page(panels, title, notes))
        return
    import matplotlib.pyplot as plt

    plt.close(plot_curves(panels, args.plot, title))
