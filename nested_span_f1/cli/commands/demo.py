"""``nested-span-f1 demo``: the main job, on the sample data shipped with the package.

Scores the flat sample (exact span F1 in seqeval's default and strict modes,
the conlleval view, the lenient MUC / SemEval schemes) and the nested sample
(exact span F1 with the nested/depth/length breakdowns).
"""
from __future__ import annotations

import argparse
import sys
from pathlib import Path

from ... import sample_path
from ...core.scores import summarize
from ...flat.pipeline import count_exact
from ...formats import align, read_corpus
from ...formats.columns import check_same_tokens, read_columns
from ...lenient.score import score_lenient
from ...render.tables import conlleval_text, lenient_table, table
from .inputs import add_command, check_outputs
from .nested import BREAKDOWN_TITLES, breakdown_table, score_corpora

SAMPLES = Path(sample_path())


def add_parser(sub: argparse._SubParsersAction) -> None:
    p, _ = add_command(
        sub, "demo", "nested-span-f1 demo",
        "Score the sample data shipped inside the package: flat span F1 in seqeval's default and strict modes, the "
        "same counts as conlleval.pl prints them, the lenient MUC / SemEval-2013 schemes, and nested span F1 with its "
        "breakdowns. Needs no files and no network. The other commands' examples run on these samples, in a copy of "
        "their folder (convert's example writes a file there).", f"the samples: {SAMPLES}", where="example:",
    )
    p.set_defaults(run=run)


def run(args: argparse.Namespace) -> int:
    check_outputs([(f"the sample {path}", path) for path in sorted(SAMPLES.iterdir())])
    out = sys.stdout
    gold = read_columns(SAMPLES / "sample.gold.conll")
    pred = read_columns(SAMPLES / "sample.pred.conll")
    check_same_tokens(gold, pred)
    gold_tags, pred_tags = gold.column(), pred.column()
    out.write(f"== Flat span F1: {Path(pred.name).name} against {Path(gold.name).name} ({len(gold.tokens)} sentences, IOB2) ==\n\n")
    for mode in (None, "strict"):
        out.write(f"-- mode={mode or 'default'}: {'drop' if mode else 'repair'} chunks IOB2 does not allow --\n")
        out.write(table(summarize(count_exact(pred_tags, gold_tags, scheme="IOB2", mode=mode), zero_division=0)))
        out.write("\n")
    out.write("-- the same, as conlleval.pl prints it: the last column of a type counts its PREDICTED phrases "
              "(`found`), not gold support as `number` above --\n")
    out.write(conlleval_text(count_exact(pred_tags, gold_tags)))
    out.write("\n== Lenient matching (MUC / SemEval-2013), same sample ==\n\n")
    out.write(lenient_table(score_lenient(pred_tags, gold_tags, zero_division=0)))
    nested_gold = read_corpus(SAMPLES / "nested.gold.jsonl")
    nested_pred = align(nested_gold, read_corpus(SAMPLES / "nested.pred.jsonl"))
    result = score_corpora(nested_gold, nested_pred)
    out.write(f"\n== Nested span F1: {len(nested_gold)} sentences of nested spans ==\n\n")
    out.write(table(result))
    for key, title in BREAKDOWN_TITLES.items():
        if key in result:
            out.write("\n" + breakdown_table(result[key], title))
    return 0
