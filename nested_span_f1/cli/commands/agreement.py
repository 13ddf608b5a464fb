"""``nested-span-f1 agreement``: agreement between annotators of the same documents, and a model beside them.

Each argument is one annotator's annotations (``NAME=PATH``, or a path named by its
file or folder name): a brat folder, text spans, CoNLL tag columns or any nested
format; or one brat project's root holding a folder per annotator (bratiaa's
layout). Prints pairwise F1 (exact, lenient, untyped; or on whitespace tokens with
``--unit token``) with Cohen's kappa, the mean pairwise F1 with its standard
deviation and bootstrap interval, per annotator, the F1 matrices, per-type and
per-document F1 (mean ± sd over the pairs), Fleiss' kappa and Krippendorff's alpha
with their unit, the disagreements by kind and the label confusion;
``--adjudication`` the disputed places, ``--adjudication-folder`` writes them as a
brat folder, ``--plot`` draws the heatmaps; ``--json`` prints every figure instead
(:func:`nested_span_f1.agreement.agreement`'s result).
"""
from __future__ import annotations

import argparse
import json
import os
import sys
from pathlib import Path
from typing import Any

from ...agreement import agreement
from ...agreement.annotations import project_annotators
from ...agreement.report import to_text
from ...agreement.sides import DISCONTINUOUS, UNITS
from ...benchmark.options import MAX_ROUNDS, check_level, check_rounds, check_seed
from ...formats import FORMATS, PATH_FORMATS
from ...formats.offsets import CODEPOINTS
from .benchmark import prediction
from .inputs import COLUMNS, TEXTS, add_command, check_outputs, duplicates_in_output, for_people
from .texts import add_reader_options

EXAMPLES = """more examples:
  nested-span-f1 agreement ann1/ ann2/ ann3/                        # three brat folders of the same texts
  nested-span-f1 agreement project/ --unit token                    # a brat project's root, one folder per annotator
  nested-span-f1 agreement ann1/ ann2/ --adjudication --adjudication-folder to-adjudicate/ --plot agreement.png
  nested-span-f1 agreement alice=alice.jsonl bob=bob.conll --show 3  # text spans against CoNLL tags of its tokens
  nested-span-f1 agreement a.jsonl b.jsonl c.jsonl --reference adjudicated.jsonl --model crf=crf.jsonl --json

Documents pair by id (brat file names, the id of text spans, OneIE's sent_id), else by position; a document some
set lacks is listed and left out of every figure. Files of different formats are compared when they hold the same
text (tokens are located in the text: every figure is then in characters)."""


def _named(text: str) -> tuple[str, str]:
    """An argparse type: ``NAME=PATH``, or a path named by its file name without the suffix (a folder: its name)."""
    name, path = prediction(text)
    if name == path:
        resolved = Path(path)
        name = resolved.name if resolved.is_dir() or not resolved.suffix else resolved.stem
    return name, path


def _reference(text: str) -> tuple[str, str] | str:
    """An argparse type: an annotator's name (checked once the annotators are known), ``NAME=PATH`` or a path."""
    return text if "=" not in text or os.path.exists(text) else prediction(text)


def add_parser(sub: argparse._SubParsersAction) -> None:
    p, io = add_command(
        sub, "agreement", "nested-span-f1 agreement brat-project/",
        ("Agreement between annotators of the same documents: pairwise span F1 (exact, lenient: overlap "
         "with the same type, and untyped), the mean pairwise F1 with a bootstrap interval over "
         "documents, per type and per document; Cohen's kappa per pair, Fleiss' kappa and "
         "Krippendorff's alpha on tokens labelled with their IOB2 tag (characters for texts); the "
         "disagreements by kind. With --reference, each annotator's F1 against the adjudicated gold "
         "beside each --model's."),
        EXAMPLES, usage="%(prog)s [NAME=]PATH [NAME=]PATH ... [options]",
    )
    io.add_argument("annotations", nargs="+", type=_named, metavar="[NAME=]PATH",
                    help="each annotator's annotations, two or more: a brat folder or .ann file, text spans, "
                         "pipeline output, a spaCy DocBin, CoNLL tag columns or any nested format; named by the file "
                         "or folder name unless NAME= is given")
    io.add_argument("--format", choices=[*sorted(FORMATS), *sorted(PATH_FORMATS), COLUMNS],
                    help="format of every file (default: detected for each; text that no span reader knows is read as "
                         "CoNLL tag columns, the tag last)")
    io.add_argument("--json", action="store_true", help="print every figure as JSON")
    io.add_argument("--plot", metavar="FILE",
                    help="draw heatmaps of pairwise F1 and of the label confusion to FILE (.png, .svg, .pdf, or a "
                         "self-contained .html page)")
    io.add_argument("--title", help="the plot's title (default: 'Agreement between annotators')")
    io.add_argument("--show", type=int, default=0, metavar="N",
                    help="print up to N disagreements of each kind and pair, with their context (default: none)")
    io.add_argument("--adjudication", action="store_true",
                    help="list every place the annotators disagree on, one row each: every annotator's spans there, "
                         "with their brat T id and line, by document and offset")
    io.add_argument("--adjudication-folder", metavar="DIR",
                    help="write every document as a brat folder for an adjudicator (new or empty): what all marked "
                         "as is, what only some marked typed TYPE_by_NAMES with a note; implies --adjudication")
    against = p.add_argument_group("against a reference")
    against.add_argument("--reference", type=_reference, metavar="NAME|[NAME=]PATH",
                         help="the adjudicated gold: an annotator's name (it stays an annotator), or a file of its own; "
                              "each annotator's F1 against it is reported, beside each --model's")
    against.add_argument("--model", action="append", type=prediction, metavar="NAME=PATH",
                         help="a model's predictions of the same documents, scored against --reference (repeat for more)")
    figures = p.add_argument_group("figures")
    figures.add_argument("--unit", choices=UNITS, default="instance",
                         help="what an annotation counts as in F1: itself (instance, the default), or the whitespace-"
                              "delimited tokens it overlaps, a multiset (token: bratiaa's token-based agreement; kappa "
                              "and alpha then label whitespace tokens too)")
    figures.add_argument("--discontinuous", choices=DISCONTINUOUS, default="leave-out",
                         help="discontinuous entities (brat T lines of several fragments): left out and counted (the "
                              "default), or compared by their fragments (fragments: two agree where every fragment and "
                              "the type do)")
    figures.add_argument("--bootstrap", type=int, default=1000, metavar="N",
                         help=f"bootstrap resamples of the documents for the intervals, at most {MAX_ROUNDS:,} (default 1000)")
    figures.add_argument("--seed", type=int, default=0, help="random seed, 0 or more (default 0)")
    figures.add_argument("--confidence", type=float, default=0.95, help="interval level (default 0.95)")
    figures.add_argument("--alpha-partial", action="store_true",
                         help="Krippendorff's alpha also over documents that two or more annotators (not all) hold, the "
                              "absent annotators' values missing; every other figure stays on the documents all hold")
    add_reader_options(p.add_argument_group(TEXTS), sides=False)
    p.set_defaults(run=run)


PLOTS = (".png", ".svg", ".pdf", ".html")


def _check_plot(path: str | None) -> None:
    """Fail before reading anything when the heatmaps cannot be drawn to ``path``."""
    if path is None:
        return
    if not path.lower().endswith(PLOTS):
        raise ValueError(f"--plot {path}: heatmaps are drawn as .png, .svg, .pdf or .html")
    import matplotlib  # noqa: F401  (a missing extra is named by the command line)


def _draw(result: dict, path: str, title: str | None) -> None:
    """The heatmaps of a result to ``path``."""
    from ...formats.output import write_file
    from ...render.heatmaps import heatmaps_page, plot_heatmaps

    title = title or "Agreement between annotators"
    if path.lower().endswith(".html"):
        write_file(path, heatmaps_page(result, title))
        return
    import matplotlib.pyplot as plt

    plt.close(plot_heatmaps(result, path, title))


def _check(args: argparse.Namespace, names: list[str]) -> None:
    """Refuse options that cannot be met, before anything is read."""
    repeated = sorted({name for name in names if names.count(name) > 1})
    if repeated:
        raise ValueError(f"two annotators are named {repeated[0]}; name each with NAME=PATH")
    if args.show < 0:
        raise ValueError(f"--show takes a number of disagreements, 0 or more; got {args.show}")
    check_rounds(args.bootstrap, "--bootstrap")
    check_seed(args.seed, "--seed")
    check_level(args.confidence, "--confidence")
    if args.title is not None and args.plot is None:
        raise ValueError("--title names the plot; give --plot FILE too")


def _reference_of(reference: Any, names: list[str]) -> Any:
    """``--reference``: an annotator's name as given, or a file of its own as ``{name: path}``."""
    if isinstance(reference, str) and reference not in names and not os.path.exists(reference):
        raise ValueError(f"--reference {reference}: no annotator is named so ({', '.join(names)}) and no file or "
                         "folder has that path")
    if isinstance(reference, str) and reference not in names:
        name, path = _named(reference)  # a file of its own, named by its file or folder name as an annotator is
        return {name if name not in names else "reference": path}
    if isinstance(reference, tuple):
        return dict([reference])
    return reference


def run(args: argparse.Namespace) -> int:
    given = args.annotations
    inside = project_annotators(given[0][1]) if len(given) == 1 else None
    names = list(inside) if inside is not None else [name for name, _ in given]
    _check(args, names)
    reference = _reference_of(args.reference, names)
    models = dict(args.model or [])
    paths = [(f"annotator {name}={path}", path) for name, path in (inside or dict(given)).items()]
    if isinstance(reference, dict):
        paths += [(f"--reference {name}={path}", path) for name, path in reference.items()]
    check_outputs(paths + [(f"--model {name}={path}", path) for name, path in models.items()],
                  [("--plot", args.plot), ("--adjudication-folder", args.adjudication_folder)],
                  folders=["--adjudication-folder"])
    _check_plot(args.plot)
    root = given[0][1] if inside is not None else None
    try:
        with duplicates_in_output():  # the report counts them
            result = agreement(root if root is not None else dict(given), reference=reference, models=models or None,
                               format=args.format, types=args.types, spans_key=args.spans_key,
                               event_triggers=not args.no_event_triggers, unit=args.unit,
                               discontinuous=args.discontinuous, n_resamples=args.bootstrap, seed=args.seed,
                               confidence=args.confidence, alpha_partial=args.alpha_partial, examples=args.show,
                               adjudication=args.adjudication, adjudication_folder=args.adjudication_folder,
                               offsets=args.offsets.get("", CODEPOINTS))
    except (ValueError, TypeError) as error:
        raise for_people(error) from None
    if args.plot:
        _draw(result, args.plot, args.title)
    sys.stdout.write(json.dumps(result, indent=2) + "\n" if args.json else to_text(result))
    return 0
