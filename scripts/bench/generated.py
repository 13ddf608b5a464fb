"""Speed of scoring generated entity lists (issue 29): parsing, locating and scoring 10,000 answers.

The CoNLL-2003 test sentences (the documents of the shared data's CoNLL-2003
files, which mark no document boundaries) are cycled to 10,000 documents with
their texts (tokens joined by single spaces). For each, a model's raw answer is
written from the gold: a JSON list of ``[text, label]`` pairs, every tenth in a
sentence of prose, every seventh as an object keyed by type, every fifth
mention in lower case, every ninth dropped, every eleventh answer with a name
the text lacks, every hundredth answer unparseable. The timed call is
:func:`nested_span_f1.generated.score_generated` on those JSON lines (one
``output`` a line) against the gold corpus in memory: reading and parsing every
answer, pairing the documents, the string protocol, placing every mention on the
text, and scoring the located spans (``--metric``; both metrics are timed).
Goal: under 2 s on one core.

A second figure, not a goal: the same for 10,000 documents of 15 sentences each
(about 24 entities and 1,000 characters a document), as large as the CoNLL-2003
test set's own documents.

Each figure is the median of ``--repeat`` runs, in CPU seconds of this process
(``time.process_time``): one core's work, which other processes on a busy machine
do not inflate as they inflate wall-clock time.

    python scripts/bench/generated.py                 # ../shared/data CoNLL-2003
    python scripts/bench/generated.py --repeat 5 --json
"""
from __future__ import annotations

import argparse
import json
import statistics
import time
from pathlib import Path
from typing import Any

from nested_span_f1 import Corpus, tags_to_spans
from nested_span_f1.align import join_tokens
from nested_span_f1.formats.columns import read_columns
from nested_span_f1.generated import read_generated, score_generated

CONLL = Path(__file__).resolve().parents[3] / "shared" / "data" / "conll2003"
ANSWERS = 10_000


def _answer(k: int, text: str, entities: list[tuple[int, int, str]]) -> str:
    """A model's answer for document ``k`` (see the module docstring)."""
    if k % 100 == 99:
        return "I am sorry, I cannot find the entities in this text."
    pairs = [[text[s:e].lower() if (k + n) % 5 == 0 else text[s:e], label]
             for n, (s, e, label) in enumerate(sorted(entities)) if (k + n) % 9 != 0]
    if k % 11 == 0:
        pairs.append(["Atlantis", "LOC"])
    if k % 7 == 0:
        keyed: dict[str, list[str]] = {}
        for string, label in pairs:
            keyed.setdefault(label, []).append(string)
        return json.dumps(keyed)
    body = json.dumps(pairs)
    return f"Here are the entities I found: {body}. Let me know if you need more." if k % 10 == 0 else body


def corpus(documents: list[tuple[str, list[tuple[int, int, str]]]], size: int) -> tuple[Corpus, str]:
    """The gold (``size`` documents cycled from ``documents``) and the answers' JSON lines."""
    picked = [documents[k % len(documents)] for k in range(size)]
    gold = Corpus([t for t, _ in picked], [e for _, e in picked], [f"d{k}" for k in range(size)],
                  source="gold", unit="characters")
    lines = "".join(json.dumps({"id": f"d{k}", "output": _answer(k, t, e)}) + "\n" for k, (t, e) in enumerate(picked))
    return gold, lines


def conll_documents(folder: Path, sentences: int = 1) -> list[tuple[str, list[tuple[int, int, str]]]]:
    """The CoNLL-2003 test gold as texts, ``sentences`` consecutive sentences a document."""
    columns = read_columns(folder / "test.gold.conll")
    texts = join_tokens(Corpus(columns.tokens, tags_to_spans(columns.column()), source="gold"))
    out = []
    for first in range(0, len(texts), sentences):
        text, entities = "", []
        for s in range(first, min(first + sentences, len(texts))):
            offset = len(text) + (1 if text else 0)
            text = f"{text} {texts.texts[s]}" if text else texts.texts[s]
            entities += [(a + offset, b + offset, label) for a, b, label in texts.entities[s]]
        out.append((text, entities))
    return out


def cpu_median(call: Any, repeat: int) -> float:
    """The median CPU seconds of this process over ``repeat`` calls (``time.process_time``)."""
    spent = []
    for _ in range(repeat):
        start = time.process_time()
        call()
        spent.append(time.process_time() - start)
    return statistics.median(spent)


def measure(documents: list[tuple[str, list[tuple[int, int, str]]]], repeat: int) -> dict[str, Any]:
    gold, lines = corpus(documents, ANSWERS)
    result = score_generated(read_generated(lines), gold, metric="exact", zero_division=0)
    out: dict[str, Any] = {
        "answers": ANSWERS, "characters": sum(len(t) for t in gold.texts),
        "gold_entities": sum(map(len, gold.entities)), "mentions": result["generated"]["mentions"],
        "unparseable": result["generated"]["unparseable"], "not_in_text": result["generated"]["not_in_text"],
        "string_f1": result["strings"]["overall_f1"], "located_f1": result["located"]["overall_f1"],
        "read_and_parse_seconds": cpu_median(lambda: read_generated(lines), repeat),
    }
    for metric in ("exact", "nested"):
        out[f"{metric}_seconds"] = cpu_median(
            lambda metric=metric: score_generated(read_generated(lines), gold, metric=metric, zero_division=0), repeat)
    return out


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--conll", type=Path, default=CONLL, help="folder with test.gold.conll (default: %(default)s)")
    parser.add_argument("--repeat", type=int, default=3, help="runs per figure; the median is reported")
    parser.add_argument("--json", action="store_true", help="print the figures as JSON")
    args = parser.parse_args()
    if not (args.conll / "test.gold.conll").is_file():
        parser.exit(2, f"generated.py: {args.conll / 'test.gold.conll'} not found (the shared data's CoNLL-2003)\n")
    figures = {"sentences": measure(conll_documents(args.conll), args.repeat),
               "documents_of_15_sentences": measure(conll_documents(args.conll, 15), args.repeat)}
    if args.json:
        print(json.dumps(figures, indent=2))
        return
    for name, row in figures.items():
        print(f"{name}: {row['answers']} answers, {row['gold_entities']} gold entities, {row['mentions']} mentions, "
              f"{row['characters']} characters; string F1 {row['string_f1']:.4f}, located F1 {row['located_f1']:.4f}")
        print(f"  read and parse {row['read_and_parse_seconds']:.3f} s; read, parse, place and score both protocols: "
              f"exact {row['exact_seconds']:.3f} s, nested {row['nested_seconds']:.3f} s (CPU)")
    goal = max(figures["sentences"]["exact_seconds"], figures["sentences"]["nested_seconds"])
    print(f"goal (10,000 CoNLL-2003 answers under 2 s on one core): {'met' if goal < 2 else 'NOT met'} ({goal:.3f} s)")


if __name__ == "__main__":
    main()
