"""Worked example: which checkpoint of a run is best, and is it really better than the others?

Give the gold test file and a run's output directory (``checkpoint-STEP/`` folders
each holding the test predictions in the gold's format, as
``scripts/train_nested.py`` writes them, or ``checkpoint-STEP.jsonl`` files), and
optionally the development gold (the checkpoint is then selected on the development
predictions the folders hold) and other systems to compare with. Writes the Markdown
report, the JSON, the HTML page, the plots and a model card for the selected
checkpoint into ``--out``, and prints which differences with it hold.

    python scripts/benchmark_checkpoints.py --demo --out report/   # made-up checkpoints of the package's sample
    python scripts/benchmark_checkpoints.py --demo --gold ../shared/data/genia/genia-docsplit.test.jsonl --out report/
    python scripts/benchmark_checkpoints.py --gold test.jsonl --run output/ --dev-gold dev.jsonl --out report/
    python scripts/benchmark_checkpoints.py --gold test.jsonl --run output/ --pred baseline=base.jsonl

``--demo`` without ``--gold`` takes the sample data installed with the package
(``nested.gold.jsonl``, 6 sentences), so it runs in a fresh clone; with ``--gold``
it makes the checkpoints from that file (the GENIA test set, for a realistic
size). The same with the command line:
``nested-span-f1 benchmark --gold test.jsonl --pred run=output/ --compare best ...``.
"""
from __future__ import annotations

import argparse
import tempfile
from pathlib import Path

import numpy as np

from nested_span_f1 import sample_path
from nested_span_f1.benchmark.compare import benchmark
from nested_span_f1.cli.commands.benchmark import prediction
from nested_span_f1.formats import Corpus, read_corpus, write_corpus

SAMPLE = Path(sample_path("nested.gold.jsonl"))
"""The demo's gold when none is given: the sample data installed with the package."""


def make_demo_run(gold_path: Path, folder: Path) -> Path:
    """Three made-up checkpoints of the gold: entities dropped or cut short less often as steps grow."""
    gold = read_corpus(gold_path)
    rng = np.random.default_rng(0)
    for step, error in ((500, 0.25), (1000, 0.12), (1500, 0.10)):
        entities = [[(s, e - 1 if e - s > 1 and rng.random() < error / 2 else e, label)
                     for s, e, label in ents if rng.random() >= error] for ents in gold.entities]
        (folder / f"checkpoint-{step}").mkdir(parents=True)
        write_corpus(Corpus(gold.tokens, entities, gold.sentence_ids, gold.doc_ids),
                     folder / f"checkpoint-{step}" / "test_predictions.jsonl")
    return folder


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0],
                                     epilog=__doc__.split("\n\n", 1)[1],
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--gold", type=Path, help="gold test file (with --demo, default: the package's sample, "
                                                  f"{SAMPLE})")
    parser.add_argument("--run", type=Path, help="directory of checkpoint-STEP folders or files")
    parser.add_argument("--pred", action="append", default=[], type=prediction, metavar="NAME=FILE",
                        help="another system (repeat for more)")
    parser.add_argument("--dev-gold", type=Path, help="development gold: select the checkpoint on it")
    parser.add_argument("--demo", action="store_true", help="benchmark three made-up checkpoints of the gold (--gold, else the sample)")
    parser.add_argument("--out", type=Path, default=Path("benchmark"), help="folder for the report files")
    parser.add_argument("--bootstrap", type=int, help="default: 1000, or what the comparisons need")
    parser.add_argument("--seed", type=int, default=0)
    args = parser.parse_args()
    if args.gold is None:
        if not args.demo:
            parser.error("give the gold test file, --gold FILE (or --demo, which takes the package's sample data)")
        args.gold = SAMPLE
    if not args.gold.is_file():
        parser.error(f"--gold {args.gold}: no such file")
    if args.run is None and not args.demo:
        parser.error("give --run DIR, a run's directory of checkpoint-STEP folders or files (or --demo)")
    with tempfile.TemporaryDirectory() as scratch:
        run = make_demo_run(args.gold, Path(scratch)) if args.demo else args.run
        systems = {"run": run, **dict(args.pred)}
        result = benchmark(args.gold, systems, comparisons="best", dev_references=args.dev_gold,
                           n_resamples=args.bootstrap, seed=args.seed)

    args.out.mkdir(parents=True, exist_ok=True)
    print(result.to_markdown(args.out / "benchmark.md"))
    result.to_json(args.out / "benchmark.json")
    result.to_html(args.out / "benchmark.html")
    result.plot(args.out / "benchmark.png")
    result.model_index(split="test", path=args.out / "model_card.md")

    best = result.best
    f1 = best["f1"]
    print(f"selected on the {result.settings['selection']['on']} set: {best['name']} test F1 {100 * f1['value']:.2f} "
          f"[{100 * f1['low']:.2f}, {100 * f1['high']:.2f}]")
    for pair in result.comparisons:
        if best["name"] in (pair["a"], pair["b"]):
            other = pair["b"] if pair["a"] == best["name"] else pair["a"]
            verdict = "better, the difference holds" if pair["significant"] else "not shown to differ"
            print(f"  vs {other}: {verdict} (p = {pair['p_bootstrap_holm']:.4f} bootstrap, "
                  f"{pair['p_randomization_holm']:.4f} randomization, Holm-corrected)")
    print(f"wrote {args.out}/benchmark.md, .json, .html, .png and model_card.md")


if __name__ == "__main__":
    main()
