"""``nested-span-f1 thresholds``: precision-recall curves of scored predictions, average precision, a threshold
chosen on dev and applied to test with a bootstrap interval, top k per sentence, and calibration.

The prediction file's entities carry scores (``score`` or ``prob`` on the mentions of
a span file, text spans as GLiNER writes them, the pipeline's output, a span
group's ``attrs["scores"]`` in a DocBin, or a CoNLL column named with
``--score-column``). The report gives average precision and the best-F1
threshold, overall and per type, the figures at the system's own threshold with
their bootstrap interval, and with ``--json`` every point of the curve. With
``--dev-gold`` and ``--dev-pred`` the threshold is chosen on dev (overall, or per
type with ``--per-type``) and test is reported at it with its interval, beside
test at the system's threshold and the oracle (best on test itself), which is
labelled as such. ``--top-k`` keeps each sentence's k best predictions instead of
a threshold, ``--calibration`` gives a reliability table and the expected
calibration error. A best threshold among the lowest saved scores is warned
about: the curve stops where the predictions were saved.
"""
from __future__ import annotations

import argparse
import json
import math
import sys
from collections.abc import Mapping
from typing import Any

from ...align.score import alignment
from ...benchmark.intervals import drawn, resampling_units, threshold_intervals, top_k_intervals
from ...benchmark.options import MAX_ROUNDS, check_level, check_rounds, check_seed
from ...core.wording import plural
from ...formats import Corpus
from ...render.thresholds import calibration_lines, curve_lines, dev_test_lines, top_k_lines, warning_lines
from ...thresholds.calibration import Bins, bin_edges, reliability
from ...thresholds.curve import ThresholdCurve
from ...thresholds.score import (
    DECODINGS,
    METRICS,
    Gains,
    ScoredPair,
    apply_thresholds,
    check_settings,
    curve_of_gains,
    gains,
    scored_pair,
)
from ...thresholds.select import ORACLE, dev_then_test, without_best
from ...thresholds.topk import curve_over_k, top_k_figures
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
    same_data,
)
from .texts import add_text_options, alignment_lines, check_text_options, read_any

EXAMPLES = """more examples:
  nested-span-f1 thresholds --gold test.jsonl --pred scored.jsonl --json
  nested-span-f1 thresholds --gold test.jsonl --pred gliner.jsonl --decode flat --json
  nested-span-f1 thresholds --gold test.jsonl --pred test.scored.jsonl --dev-gold dev.jsonl --dev-pred dev.scored.jsonl \\
      --per-type --plot curves.png --title "Span classifier on GENIA"
  nested-span-f1 thresholds --gold test.jsonl --pred scored.jsonl --top-k 3 --calibration --calibration-plot rel.html
  nested-span-f1 thresholds --gold test.conll --pred pred.conll --pred-format conll --column 2 --score-column 3

A span is kept when its score is at least the threshold; scores need not lie in [0, 1] (logits are allowed; not
for --calibration). Decoding: nested keeps every span at or above the threshold (one sort of the scores); flat
keeps the highest-scoring spans that do not overlap, as GLiNER's flat mode (one greedy pass over the spans, then
the same sort). A best threshold with at most 5% of the saved predictions scoring below it is warned about (the
curve stops where the predictions were saved). Plots write .png, .svg or .pdf (the plots extra: pip install
".[plots]" in a clone), or a self-contained .html page."""

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
    curves.add_argument("--top-k", type=positive_int, metavar="K",
                        help="keep each sentence's K highest-scoring predictions instead of thresholding: the figures "
                             "at K, the curve over k (every k in --json), and with --dev-gold the k best on dev "
                             "applied to test")
    curves.add_argument("--calibration", nargs="?", const="10", metavar="BINS", type=bins_type,
                        help="a reliability table (score bins against the share of right predictions, counts per "
                             "bin) and the expected calibration error, overall and per type, of the test "
                             "predictions: BINS equal bins over [0, 1] (default 10), or their edges, comma-separated "
                             "(0,0.5,0.8,0.99,1)")
    curves.add_argument("--min-iou", type=finite_float, default=None,
                        help="lenient: least intersection over union of a matched pair (default: any shared token)")
    tags = add_tag_options(p, " of column files")
    tags.add_argument("--score-column", type=column_index, metavar="N",
                      help="CoNLL predictions: the column of each token's score, counted from 1 or from the end (a "
                           "span's score is its tokens' mean)")
    add_format_options(p, gold="--gold and --dev-gold", pred="--pred and --dev-pred")
    intervals = p.add_argument_group("intervals (on the test figures at the dev threshold, the system's threshold "
                                     "and top k)")
    intervals.add_argument("--bootstrap", type=int, default=1000, metavar="N",
                           help=f"bootstrap resamples, at most {MAX_ROUNDS:,} (default 1000)")
    intervals.add_argument("--seed", type=int, default=0, help="random seed, 0 or more (default 0)")
    intervals.add_argument("--confidence", type=float, default=0.95, help="interval level (default 0.95)")
    intervals.add_argument("--units", choices=["auto", "documents", "sentences"], default="auto",
                           help="what is resampled (default: documents when the gold names them, as the benchmark)")
    plots = p.add_argument_group("plots")
    plots.add_argument("--plot", metavar="FILE", help="draw the precision-recall curves (overall, then per type) with "
                                                      "iso-F1 lines and the thresholds reported: .png, .svg, .pdf or "
                                                      ".html")
    plots.add_argument("--calibration-plot", metavar="FILE",
                       help="draw the reliability diagrams (overall, then per type): .png, .svg, .pdf or .html "
                            "(implies --calibration)")
    plots.add_argument("--title", help="the plots' title (default: what they show, without file names; '' for none)")
    plots.add_argument("--percent", action="store_true", help="both axes of every plot in percent (0-100), not 0-1")
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


def positive_int(value: str) -> int:
    """An argparse type: an integer from 1."""
    try:
        number = int(value)
    except ValueError:
        raise argparse.ArgumentTypeError(f"{value!r} is not a whole number") from None
    if number < 1:
        raise argparse.ArgumentTypeError(f"{value!r}: keep at least 1 prediction a sentence") from None
    return number


def bins_type(value: str) -> list[float]:
    """An argparse type: a number of equal bins over [0, 1], or the bins' edges, comma-separated."""
    try:
        bins: Bins = int(value) if "," not in value else [float(edge) for edge in value.split(",")]
        return bin_edges(bins)
    except ValueError as error:
        raise argparse.ArgumentTypeError(f"{value!r}: {error}" if "," in value or value.strip().lstrip("-").isdigit()
                                         else f"{value!r} is neither a number of bins nor edges") from None


def check_plot(option: str, path: str) -> None:
    """Fail before reading anything when a plot cannot be drawn to ``path``."""
    if not path.lower().endswith(CURVE_PLOTS):
        raise ValueError(f"{option} {path}: plots are drawn as .png, .svg, .pdf or .html")
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


def check_command_line(args: argparse.Namespace) -> None:
    """Every refusal that needs no file read: options that go together, the development files not the test
    files (a threshold chosen on the test set is the oracle), the bootstrap's numbers, the plots."""
    check_outputs(_inputs(args), [("--plot", args.plot), ("--calibration-plot", args.calibration_plot)])
    if (args.dev_gold is None) != (args.dev_pred is None):
        raise ValueError("--dev-gold and --dev-pred go together: the threshold is chosen on development predictions "
                         "against their gold")
    if args.per_type and args.dev_gold is None:
        raise ValueError("--per-type chooses a threshold for each type on dev; give --dev-gold and --dev-pred")
    if args.dev_gold is not None:
        for dev, test, what in (("--dev-gold", "--gold", "gold"), ("--dev-pred", "--pred", "predictions")):
            dev_path, test_path = getattr(args, dev[2:].replace("-", "_")), getattr(args, test[2:])
            same = same_data(dev_path, test_path)
            if same:
                raise ValueError(f"{dev} {dev_path} is the test {what} (--{test[2:]} {test_path}: {same}); a "
                                 "threshold is chosen on development data, and one chosen on the test set is the "
                                 "oracle, which the report gives without --dev-gold and --dev-pred")
    if args.score_column is not None and args.pred_format not in (None, COLUMNS):
        raise ValueError(f"--score-column names a column of a CoNLL column file, but --pred-format is "
                         f"{args.pred_format}")
    check_rounds(args.bootstrap, "--bootstrap")
    check_seed(args.seed, "--seed")
    check_level(args.confidence, "--confidence")
    check_settings(args.metric, args.decode, args.min_iou)
    for option, path in (("--plot", args.plot), ("--calibration-plot", args.calibration_plot)):
        if path:
            check_plot(option, path)


def run(args: argparse.Namespace) -> int:
    check_command_line(args)
    settings = {"metric": args.metric, "decode": args.decode, "min_iou": args.min_iou}
    with duplicates_in_output():
        test, gold, pred = read_pair(args.gold, args.pred, args)
        found = gains(test, **settings)
        curve = curve_of_gains(found, zero_division=0, **settings)
        dev, read = None, {"pred": score_keys(pred)}
        if args.dev_gold is not None:
            pair, _, dev_pred = read_pair(args.dev_gold, args.dev_pred, args, ("--dev-gold", "--dev-pred"))
            dev_found = gains(pair, **settings)
            dev = (pair, dev_found, curve_of_gains(dev_found, zero_division=0, **settings))
            read["dev_pred"] = score_keys(dev_pred)
    result = build_result(args, test, found, curve, dev, settings)
    if any(read.values()):
        result["score_keys"] = {side: keys for side, keys in read.items() if keys}
    if test.texts is not None:
        result["alignment"] = alignment(test.texts)
    if args.plot:
        _draw(args, result)
    if args.calibration_plot:
        tested = result if "selection" not in result else result["test"]
        _draw_calibration(args, result["calibration"], tested.get("per_type", {}))
    if args.json:
        sys.stdout.write(json.dumps(result, indent=2, allow_nan=False) + "\n")
        return 0
    lines = _about(args, gold, pred, curve, test)
    lines[2:2] = [score_keys_line(f"--{side.replace('_', '-')}", keys)
                  for side, keys in result.get("score_keys", {}).items()]
    if args.dev_gold:
        lines += dev_test_lines(result, f"{args.dev_gold}, {args.dev_pred}", args.gold)
    else:
        lines += curve_lines(result)
    if "top_k" in result:
        lines += top_k_lines(result["top_k"], result["bootstrap"])
    if "calibration" in result:
        lines += calibration_lines(result["calibration"])
    lines += warning_lines(result["warnings"])
    lines += ["", "--json prints every point of the curves (threshold, precision, recall, f1, tp, fp, fn)"]
    sys.stdout.write("\n".join(lines) + "\n")
    return 0


Dev = tuple[ScoredPair, Gains, ThresholdCurve]


def build_result(args: argparse.Namespace, test: ScoredPair, found: Gains, curve: ThresholdCurve, dev: Dev | None,
                 settings: Mapping[str, Any]) -> dict[str, Any]:
    """The command's result, as ``--json`` prints it (docs/thresholds.md lists its keys)."""
    unit_of, units = resampling_units(test, args.units, f"--gold {args.gold}")
    bootstrap = {"n_resamples": args.bootstrap, "seed": args.seed, "confidence": args.confidence}

    def interval(row: dict[str, Any]) -> dict[str, Any]:
        """A row of figures at a threshold (or one a type), with their intervals."""
        return with_interval(row, threshold_intervals(test, row["threshold"], row.get("thresholds"),
                                                      units=args.units, **bootstrap, **settings))

    result: dict[str, Any]
    if dev is None:
        at = {"threshold": args.threshold, **apply_thresholds(test, args.threshold, **settings)}
        result = {**curve.to_dict(), "at_system_threshold": interval(at)}
    else:
        pair, _, dev_curve = dev
        report = dev_then_test(pair, dev_curve, test, curve, per_type=args.per_type, system_threshold=args.threshold,
                               names=(args.dev_gold, args.gold), **settings)
        tested = report["test"]
        interval(tested["at_dev_threshold"])
        interval(tested["at_system_threshold"])
        if "oracle_best_on_test" in tested:
            tested["oracle_best_on_test"]["no_interval"] = NO_ORACLE_INTERVAL
        found_dict = curve.to_dict()
        named = {key: found_dict.pop(key) for key in list(found_dict) if key in curve.settings}
        result = {**named, "selection": report["selection"], "dev": {**report["dev"], "curve": dev_curve.to_dict()},
                  "test": {**tested, **without_best(found_dict)},
                  "warnings": dev_curve.warnings("dev, ") + curve.warnings("test, ")}
    result["bootstrap"] = drawn(args.bootstrap, args.seed, args.confidence, units, unit_of)
    if args.top_k is not None:
        result["top_k"] = _top_k(args.top_k, found, unit_of, bootstrap, dev)
    if args.calibration is not None or args.calibration_plot:
        try:
            result["calibration"] = reliability(found, args.calibration or 10)
        except ValueError as error:
            if args.calibration_plot:
                raise ValueError(f"--calibration-plot {args.calibration_plot}: {error}") from None
            result["calibration"] = {"not_computed": str(error)}
    return result


NO_ORACLE_INTERVAL = ("the oracle's threshold was chosen on these test answers: its figure overstates the system "
                      "and is not one to report, so no interval is drawn for it")


def with_interval(row: dict[str, Any], found: Mapping[str, Any]) -> dict[str, Any]:
    """``row`` (figures at a threshold, overall and ``per_type``) with the bounds of ``found``'s intervals."""
    def bounds(figures: Mapping[str, Any]) -> dict[str, dict[str, float]]:
        return {key: {"low": figures[key]["low"], "high": figures[key]["high"]} for key in ("precision", "recall", "f1")}

    row["interval"] = bounds(found)
    for label, typed in row["per_type"].items():
        if label in found["per_type"]:
            typed["interval"] = bounds(found["per_type"][label])
    return row


def _top_k(k: int, found: Gains, unit_of: Any, bootstrap: Mapping[str, Any], dev: Dev | None) -> dict[str, Any]:
    """The top-k section: the figures at ``k`` with their interval, the curve over k, and with dev data the k
    best on dev applied to test (the best on test then the oracle's)."""
    def at(chosen: int) -> dict[str, Any]:
        return with_interval(top_k_figures(found, chosen), top_k_intervals(found, chosen, unit_of, **bootstrap))

    over_k = curve_over_k(found)
    out: dict[str, Any] = {"k": k}
    if dev is not None:
        on_dev = curve_over_k(dev[1])
        out["dev"] = on_dev.to_dict()
        out["chosen_on_dev"] = None if on_dev.best is None else on_dev.best["k"]
        if on_dev.best is None:
            out["no_dev_k"] = "no dev prediction is right at any k"
        else:
            out["at_dev_k"] = at(on_dev.best["k"])
        best = over_k.to_dict()
        oracle = best.pop("best")
        out.update(best)
        out["oracle_best_on_test"] = None if oracle is None else {"note": ORACLE, **oracle}
    else:
        out.update(over_k.to_dict())
    out["at_k"] = at(k)
    return out


def score_keys(pred: Corpus) -> dict[str, int] | None:
    """How many of a prediction file's entities held both ``score`` and ``prob`` (``score`` read) and ``prob``
    alone (read as the score), when any did (the reader's notes, :func:`~nested_span_f1.core.scored.entity_scores`)."""
    keys = {key: int(pred.notes.get(key, 0)) for key in ("score_and_prob", "scores_from_prob")}
    return keys if any(keys.values()) else None


def score_keys_line(option: str, keys: Mapping[str, int]) -> str:
    """The header line saying which key a prediction file's scores were read from."""
    both, prob = keys["score_and_prob"], keys["scores_from_prob"]
    read = [f"{plural(both, 'entity', 'entities')} hold both 'score' and 'prob': 'score' read, 'prob' not"] * bool(
        both) + [f"{plural(prob, 'entity', 'entities')} hold 'prob' alone: read as the score"] * bool(prob)
    return f"scores read ({option}): {'; '.join(read)}"


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
             f"predictions: {args.pred} ({pred.format}; {pred.conversion}); {len(scores)} scored entities, {span}"]
    lines += [f"metric: {args.metric} ({how}); decoding: {args.decode} ({decoding})", found]
    if pair.texts is not None:
        lines += ["alignment (every predicted span, whatever its score):", *alignment_lines(alignment(pair.texts))]
    return lines


def _marks(result: Mapping[str, Any], label: str | None) -> list[dict[str, Any]]:
    """The points marked on a panel (``label`` None: the overall one): the figures reported, each labelled by its
    kind (one legend for every panel) with its threshold written beside it."""
    def point(kind: str, name: str, row: Mapping[str, Any] | None) -> list[dict[str, Any]]:
        if row is None:
            return []
        figures = row if label is None else row["per_type"].get(label)
        if figures is None:
            return []
        per = row.get("thresholds") or {}
        value = f"{per.get(label, row['threshold']):.4g}" if label is not None else (
            "per type" if per else f"{row['threshold']:.4g}")
        return [{"kind": kind, "label": name, "value": value, "recall": figures["recall"],
                 "precision": figures["precision"]}]

    if "selection" not in result:
        typed = result if label is None else result["per_type"][label]
        best = typed["best"]
        marks = [] if best is None else [{"kind": "best", "label": "best F1 on these files", "value":
                                          f"{best['threshold']:.4g}", "recall": best["recall"],
                                          "precision": best["precision"]}]
        at = result["at_system_threshold"]
        return marks + point("system", f"system threshold ({at['threshold']:g})", at)
    test = result["test"]
    marks = point("chosen", "threshold chosen on dev", test["at_dev_threshold"])
    marks += point("system", f"system threshold ({test['at_system_threshold']['threshold']:g})",
                   test["at_system_threshold"])
    return marks + point("oracle", "ORACLE: best on test", test.get("oracle_best_on_test"))


def _unplotted(curves: Mapping[str, Mapping[str, Any]]) -> list[str]:
    """The note naming the types left out of a figure because nothing of theirs was predicted."""
    missing = [f"{label} ({curve['number']} gold)" for label, curve in curves.items() if not curve["predicted"]]
    return [f"not drawn, no predictions: {', '.join(missing)}"] if missing else []


def _draw(args: argparse.Namespace, result: Mapping[str, Any]) -> None:
    from ...render.curves import curves_page, panel, plot_curves

    found = result if "selection" not in result else result["test"]
    shown = {label: row for label, row in found.get("per_type", {}).items() if row["predicted"]}
    panels = [panel("all types", found, _marks(result, None))]
    panels += [panel(label, row, _marks(result, label)) for label, row in shown.items()]
    if "top_k" in result:
        panels[0]["lines"] = [{"label": "top k per sentence (k = 1, 2, ...)",
                               "points": [(p["recall"], p["precision"]) for p in result["top_k"]["curve"]]}]
    title = args.title if args.title is not None else (
        f"Precision-recall: {args.metric} metric, {args.decode} decoding"
        + (", threshold chosen on dev" if args.dev_gold else ""))
    notes = [*_unplotted(found.get("per_type", {})), *([ORACLE] if args.dev_gold else [])]
    _write_figure(args.plot, lambda: curves_page(panels, title, notes, args.percent),
                  lambda path: plot_curves(panels, path, title, notes, args.percent))


def _draw_calibration(args: argparse.Namespace, found: Mapping[str, Any],
                      curves: Mapping[str, Mapping[str, Any]]) -> None:
    from ...render.reliability import plot_reliability, reliability_page, reliability_panel

    panels = [reliability_panel("all types", found)]
    panels += [reliability_panel(label, table) for label, table in found["per_type"].items()]
    title = args.title if args.title is not None else f"Reliability: {args.metric} metric, {args.decode} decoding"
    notes = _unplotted(curves)
    _write_figure(args.calibration_plot, lambda: reliability_page(panels, title, notes, args.percent),
                  lambda path: plot_reliability(panels, path, title, notes, args.percent))


def _write_figure(path: str, page: Any, figure: Any) -> None:
    """Write an HTML page (``page()``) or a matplotlib figure (``figure(path)``) to ``path``, by its name."""
    if path.lower().endswith(".html"):
        from ...formats.output import write_file

        write_file(path, page())
        return
    import matplotlib.pyplot as plt

    plt.close(figure(path))
