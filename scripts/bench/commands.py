"""Wall time and peak memory of the streaming commands (conlleval, score, nested) on generated files, beside conlleval.pl.

For each size (default 1M and 10M tokens) the script writes, in a temporary
folder, seeded CoNLL-like data with realistic errors (``data.synthetic``: type,
boundary, missing and spurious entities, I- starts): one conlleval file
(``token POS gold pred``), the same tags as two column files (``token tag``) for
``score``, and the same sentences as OneIE jsonl with nested spans added (each
gold entity of 2+ tokens gets an inner one-token entity; predictions keep it for
80% of the sentences) for ``nested``. Each command then runs once in a fresh
process under GNU time (``/usr/bin/time``), which records its wall time and
peak resident set. ``conlleval.pl`` runs on the same file when its path
is given, and its output must equal ours byte for byte.

    python scripts/bench/commands.py --conlleval-pl /tmp/conlleval.pl
    python scripts/bench/commands.py --sizes 1000000 --json

``run.py`` calls :func:`measure` in the benchmark's one run. conlleval.pl is
not part of the repository: pass the path of your copy.
"""
from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import tempfile
from pathlib import Path
from typing import Any

from data import synthetic

from nested_span_f1 import tags_to_spans

SIZES = (1_000_000, 10_000_000)
TIME = "/usr/bin/time"
CHUNK = 10_000
"""Sentences generated at a time (each chunk seeded from the seed and its index), so the generator's memory stays small."""


def _inner(spans: list[tuple[int, int, str]]) -> list[tuple[int, int, str]]:
    return [(start, start + 1, f"{label}-HEAD") for start, end, label in spans if end - start > 1]


def write_files(folder: Path, tokens: int, seed: int = 0) -> dict[str, Any]:
    """The conlleval, column and nested files of about ``tokens`` tokens; their paths and sizes."""
    paths = {name: folder / f"{tokens}.{name}" for name in ("conlleval.txt", "gold.conll", "pred.conll",
                                                            "gold.jsonl", "pred.jsonl")}
    handles = {name: path.open("w", encoding="utf-8") for name, path in paths.items()}
    written = sentences = chunk = 0
    while written < tokens:
        preds, refs = synthetic(CHUNK, seed=seed * 1_000_003 + chunk)
        chunk += 1
        gold_spans, pred_spans = tags_to_spans(refs), tags_to_spans(preds)
        for s, (pred, ref) in enumerate(zip(preds, refs)):
            if written >= tokens:
                break
            words = [f"w{(sentences * 7 + i * 13) % 5003}" for i in range(len(ref))]
            handles["conlleval.txt"].write("".join(f"{w} NN {g} {p}\n" for w, g, p in zip(words, ref, pred)) + "\n")
            handles["gold.conll"].write("".join(f"{w} {g}\n" for w, g in zip(words, ref)) + "\n")
            handles["pred.conll"].write("".join(f"{w} {p}\n" for w, p in zip(words, pred)) + "\n")
            gold = gold_spans[s] + _inner(gold_spans[s])
            pred_nested = pred_spans[s] + (_inner(pred_spans[s]) if sentences % 5 else [])
            for name, spans in (("gold.jsonl", gold), ("pred.jsonl", pred_nested)):
                record = {"tokens": words, "entity_mentions": [{"start": b, "end": e, "entity_type": t} for b, e, t in spans]}
                handles[name].write(json.dumps(record) + "\n")
            written += len(ref)
            sentences += 1
    for handle in handles.values():
        handle.close()
    return {"tokens": written, "sentences": sentences, "paths": paths,
            "mb": {name: path.stat().st_size / 2**20 for name, path in paths.items()}}


def run(command: list[str], stdin: Path | None, stdout: Path) -> dict[str, Any]:
    """Run ``command`` once in a fresh process under GNU time: wall seconds and peak resident set (MB).

    GNU time forks from a small process; the peak of a child forked from this one
    would start from this process's own resident set.
    """
    report = stdout.with_suffix(".time")
    with open(stdout, "wb") as out, open(stdin or os.devnull, "rb") as given:
        done = subprocess.run([TIME, "-f", "%e %M", "-o", str(report), *command], stdin=given, stdout=out,
                              stderr=subprocess.PIPE, check=False)
    if done.returncode != 0:
        raise RuntimeError(f"{' '.join(command)} exited with {done.returncode}: {done.stderr.decode(errors='replace')}")
    seconds, kb = report.read_text().split()[-2:]
    return {"seconds": float(seconds), "peak_mb": int(kb) / 1024}


def measure(sizes: tuple[int, ...] = SIZES, conlleval_pl: str | None = None, seed: int = 0) -> dict[str, Any]:
    """Seconds and peak RSS of each command at each size, conlleval.pl beside ours when its path is given."""
    ours = [sys.executable, "-m", "nested_span_f1.cli"]
    figures: dict[str, Any] = {"sizes": {}, "conlleval_pl": conlleval_pl,
                               "note": None if conlleval_pl else "conlleval.pl comparison skipped: pass --conlleval-pl PATH"}
    with tempfile.TemporaryDirectory() as tmp:
        folder = Path(tmp)
        for tokens in sizes:
            files = write_files(folder, tokens, seed)
            p = files["paths"]
            row: dict[str, Any] = {"tokens": files["tokens"], "sentences": files["sentences"], "file_mb": files["mb"]}
            out = folder / "ours.txt"
            row["conlleval"] = run([*ours, "conlleval"], p["conlleval.txt"], out)
            row["score"] = run([*ours, "score", "--gold", str(p["gold.conll"]), "--pred", str(p["pred.conll"])], None,
                               folder / "score.txt")
            row["nested"] = run([*ours, "nested", "--gold", str(p["gold.jsonl"]), "--pred", str(p["pred.jsonl"])], None,
                                folder / "nested.txt")
            row["python_numpy_import"] = run([sys.executable, "-c", "import numpy"], None, folder / "import.txt")
            row["cli_version"] = run([*ours, "--version"], None, folder / "version.txt")
            if conlleval_pl:
                perl = folder / "perl.txt"
                row["conlleval_pl"] = run(["perl", conlleval_pl], p["conlleval.txt"], perl)
                row["identical_to_conlleval_pl"] = perl.read_bytes() == out.read_bytes()
                if not row["identical_to_conlleval_pl"]:
                    raise RuntimeError(f"conlleval output differs from conlleval.pl's at {tokens} tokens")
                for name in ("conlleval", "score"):
                    row[name]["speedup_vs_conlleval_pl"] = row["conlleval_pl"]["seconds"] / row[name]["seconds"]
            row["conlleval_output"] = out.read_text(encoding="utf-8")
            for path in p.values():
                path.unlink()
            figures["sizes"][str(tokens)] = row
    if len(sizes) > 1:
        small, large = (figures["sizes"][str(n)] for n in (min(sizes), max(sizes)))
        figures["peak_ratio_largest_to_smallest"] = {
            name: large[name]["peak_mb"] / small[name]["peak_mb"] for name in ("conlleval", "score", "nested")
        }
    return figures


def print_report(figures: dict[str, Any]) -> None:
    if figures["note"]:
        print(figures["note"])
    for tokens, row in figures["sizes"].items():
        print(f"\n{int(tokens):,} tokens ({row['sentences']:,} sentences; conlleval file "
              f"{row['file_mb']['conlleval.txt']:.0f} MB, nested gold {row['file_mb']['gold.jsonl']:.0f} MB)")
        print(f"  {'command':<34} {'seconds':>8} {'peak MB':>8} {'conlleval.pl s / ours':>22}")
        names = ["conlleval", "score", "nested", "python_numpy_import", "cli_version"] + (["conlleval_pl"] if "conlleval_pl" in row else [])
        for name in names:
            speedup = row[name].get("speedup_vs_conlleval_pl")
            ratio = f"{speedup:.1f}x" if speedup else ""
            print(f"  {name:<34} {row[name]['seconds']:>8.2f} {row[name]['peak_mb']:>8.1f} {ratio:>22}")
        if "identical_to_conlleval_pl" in row:
            print(f"  conlleval output byte-identical to conlleval.pl's: {row['identical_to_conlleval_pl']}")
    if "peak_ratio_largest_to_smallest" in figures:
        ratios = ", ".join(f"{k} {v:.2f}" for k, v in figures["peak_ratio_largest_to_smallest"].items())
        print(f"\npeak RSS, largest size / smallest: {ratios}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--sizes", default=",".join(map(str, SIZES)), help="tokens per generated file, comma-separated")
    parser.add_argument("--conlleval-pl", metavar="PATH", help="conlleval.pl to compare with (skipped when not given)")
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--json", action="store_true", help="print the figures as JSON")
    args = parser.parse_args()
    if not os.path.exists(TIME):
        parser.error(f"{TIME} (GNU time) is needed to measure each command's peak memory")
    figures = measure(tuple(int(n) for n in args.sizes.split(",")), args.conlleval_pl, args.seed)
    if args.json:
        print(json.dumps(figures, indent=2))
    else:
        print_report(figures)


if __name__ == "__main__":
    main()
