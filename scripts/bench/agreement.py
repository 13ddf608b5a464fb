"""Speed of agreement between annotators (issue 40): 3 annotators of 10,000 GENIA documents, under 5 s on one core.

The GENIA test sentences (classic split, nested) are cycled to 10,000 documents
(one sentence each, about 270,000 tokens and 30,000 entities an annotator). The
first annotator is the gold; the second and third are the seeded perturbations
of the nested benchmark job (``data.genia_nested``: dropped, shifted, relabelled
and spurious spans), a fresh seed for each cycle of the test set. Each annotator
is written as a OneIE jsonl file. The timed job is the command
``nested-span-f1 agreement a.jsonl b.jsonl c.jsonl --json`` run in this process:
reading and pairing the three files, the exact, lenient and untyped matchings of
the three pairs, 1,000 bootstrap resamples, Cohen's and Fleiss' kappa and
Krippendorff's alpha over the tokens, and the JSON of every figure (per document
included). Goal: under 5 s.

More figures, not goals: ``agreement()`` on the three corpora already in
memory (the command without reading files and writing JSON); the command on
the same annotations as text spans (the tokens joined by spaces), whose kappa
and alpha count characters; the command with ``--unit token`` (bratiaa's
token-based F1, kappa and alpha on whitespace tokens) and with ``--adjudication``
(every disputed place as a row, in the JSON) on the OneIE files (issue 50).

Each figure is the median of ``--repeat`` runs in CPU seconds of this process
(``time.process_time``; run it with ``OMP_NUM_THREADS=1``, which holds numpy's
threads to one): one core's work, which other processes on a busy machine do not
inflate as they inflate wall-clock time.

    OMP_NUM_THREADS=1 python scripts/bench/agreement.py                # ../shared/data GENIA
    OMP_NUM_THREADS=1 python scripts/bench/agreement.py --repeat 5 --json
"""
from __future__ import annotations

import argparse
import contextlib
import io
import json
import tempfile
import warnings
from pathlib import Path
from typing import Any

from answers import cpu_median
from data import GENIA_CLASSIC_TEST, genia_nested

from nested_span_f1.agreement import agreement
from nested_span_f1.align import join_tokens
from nested_span_f1.cli.main import main as command
from nested_span_f1.formats import Corpus, read_corpus, write_corpus

DOCUMENTS = 10_000
GOAL_SECONDS = 5.0


def annotators(n_documents: int = DOCUMENTS) -> dict[str, Corpus]:
    """The gold and two perturbations of it, cycled to ``n_documents`` documents named ``d0``, ``d1``, ..."""
    gold = read_corpus(GENIA_CLASSIC_TEST)
    cycles = -(-n_documents // len(gold))
    tokens = [gold.tokens[k % len(gold)] for k in range(n_documents)]
    sides = {"gold": [list(gold.entities[k % len(gold)]) for k in range(n_documents)]}
    for name, first_seed in (("second", 1), ("third", 2)):
        spans = [span for cycle in range(cycles) for span in genia_nested(first_seed + 2 * cycle)[0]]
        sides[name] = spans[:n_documents]
    ids = [f"d{k}" for k in range(n_documents)]
    return {name: Corpus(tokens, entities, ids, source=name) for name, entities in sides.items()}


def _run_command(paths: list[str], *options: str) -> dict[str, Any]:
    """The command's JSON for the files (its duplicate spans are in the result's notes, not warned about)."""
    out = io.StringIO()
    with contextlib.redirect_stdout(out):
        code = command(["agreement", *paths, *options, "--json"])
    if code != 0:
        raise RuntimeError(f"nested-span-f1 agreement exited {code}")
    return json.loads(out.getvalue())


def measure(n_documents: int = DOCUMENTS, repeat: int = 3) -> dict[str, Any]:
    sets = annotators(n_documents)
    with tempfile.TemporaryDirectory() as folder:
        tokens = [str(Path(folder) / f"{name}.jsonl") for name in sets]
        texts = [str(Path(folder) / f"{name}.text.jsonl") for name in sets]
        for corpus, token_path, text_path in zip(sets.values(), tokens, texts):
            write_corpus(corpus, token_path, "oneie")
            write_corpus(join_tokens(corpus), text_path, "text")
        result = _run_command(tokens)
        on_texts = _run_command(texts)
        by_token = _run_command(tokens, "--unit", "token")
        adjudicated = _run_command(tokens, "--adjudication")
        figures = {
            "documents": n_documents, "annotators": len(sets),
            "tokens": int(sum(len(t) for t in sets["gold"].tokens)),
            "characters": on_texts["kappa_positions"],
            "entities": {name: sum(map(len, corpus.entities)) for name, corpus in sets.items()},
            "mean_f1": result["mean_f1"], "lenient_mean_f1": result["lenient"]["mean_f1"]["value"],
            "fleiss_kappa": result["fleiss_kappa"], "krippendorff_alpha": result["krippendorff_alpha"],
            "fleiss_kappa_characters": on_texts["fleiss_kappa"],
            "token_mean_f1": by_token["mean_f1"], "token_sd_f1": by_token["sd_f1"], "sd_f1": result["sd_f1"],
            "disputed_places": adjudicated["adjudication"]["disputed"],
            "command_seconds": cpu_median(lambda: _run_command(tokens), repeat),
            "command_on_texts_seconds": cpu_median(lambda: _run_command(texts), repeat),
            "command_token_unit_seconds": cpu_median(lambda: _run_command(tokens, "--unit", "token"), repeat),
            "command_adjudication_seconds": cpu_median(lambda: _run_command(tokens, "--adjudication"), repeat),
        }
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # the perturbations repeat a few spans; the result counts them
        figures["call_in_memory_seconds"] = cpu_median(lambda: agreement(sets), repeat)
    return figures


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--documents", type=int, default=DOCUMENTS, help="documents (default: %(default)s)")
    parser.add_argument("--repeat", type=int, default=3, help="runs per figure; the median is reported")
    parser.add_argument("--json", action="store_true", help="print the figures as JSON")
    args = parser.parse_args()
    if not GENIA_CLASSIC_TEST.is_file():
        parser.exit(2, f"agreement.py: {GENIA_CLASSIC_TEST} not found (the shared data's GENIA)\n")
    figures = measure(args.documents, args.repeat)
    if args.json:
        print(json.dumps(figures, indent=2))
        return
    entities = ", ".join(f"{name} {n}" for name, n in figures["entities"].items())
    print(f"{figures['annotators']} annotators of {figures['documents']} GENIA documents, {figures['tokens']} tokens "
          f"({figures['characters']} characters as texts); entities: {entities}")
    print(f"  mean pairwise F1 {figures['mean_f1']['value']:.4f} ± {figures['sd_f1']:.4f} "
          f"[{figures['mean_f1']['low']:.4f}, {figures['mean_f1']['high']:.4f}], lenient "
          f"{figures['lenient_mean_f1']:.4f}; on tokens {figures['token_mean_f1']['value']:.4f} ± "
          f"{figures['token_sd_f1']:.4f}; {figures['disputed_places']} disputed places; Fleiss' kappa "
          f"{figures['fleiss_kappa']:.4f} (tokens), {figures['fleiss_kappa_characters']:.4f} (characters); "
          f"alpha {figures['krippendorff_alpha']:.4f}")
    print(f"  command on OneIE files {figures['command_seconds']:.3f} s; on text spans "
          f"{figures['command_on_texts_seconds']:.3f} s; agreement() in memory {figures['call_in_memory_seconds']:.3f} s; "
          f"--unit token {figures['command_token_unit_seconds']:.3f} s; --adjudication "
          f"{figures['command_adjudication_seconds']:.3f} s (CPU)")
    met = figures["command_seconds"] < GOAL_SECONDS
    print(f"goal (3 annotators of {DOCUMENTS:,} GENIA documents under {GOAL_SECONDS:g} s on one core): "
          f"{'met' if met else 'NOT met'} ({figures['command_seconds']:.3f} s)")


if __name__ == "__main__":
    main()
