"""Speed of scoring language models' answers (issues 29 and 37): 10,000 answers of every shape read, placed and
scored, and the package's reading of them beside a bare regular-expression parse of the same answers.

The CoNLL-2003 test sentences (the documents of the shared data's CoNLL-2003
files, which mark no document boundaries) are cycled to 10,000 documents, the
gold as tokens (joined by single spaces into each document's text, as a CoNLL
gold is scored). For each, a model's raw answer is written from the gold in one
of the shapes models write, by the document's number ``k`` (:data:`MIX`):
``string (TYPE)`` lines (a third of them, the commonest shape of prompted NER,
some after a lead-in line, some with list markers and a declined line, some
correcting themselves), JSON lists of pairs (every tenth in a sentence of prose),
objects keyed by type, ``TYPE: a, b`` lines, ``string: TYPE``, ``string - TYPE``,
``(string, TYPE)`` tuples, Markdown tables, ``[string, TYPE, first, last]``
token-index lists, GNER's ``word(tag)`` and inline tags. In every shape every
fifth mention is in lower case, every ninth dropped, every eleventh answer names
a name the text lacks, every hundredth answer is prose only (unparseable), and a
document without entities is answered "No entities" (``[]`` in JSON).

Timed, each the median of ``--repeat`` runs:

- **the goal**: :func:`nested_span_f1.answers.score_answers` on those JSON lines
  (one ``output`` a line) against the gold corpus in memory: reading every answer,
  pairing the documents, the string protocol, placing every mention, scoring the
  located spans (``--metric``; both metrics are timed). Under 2 s on one core.
- **reading beside a bare parse**, side by side in one run, the calls taking turns:
  the package reading the answers' file (:func:`~nested_span_f1.answers.read_answers`,
  then :func:`~nested_span_f1.answers.read.read_answer` for each answer, with its
  document's text and the gold's types, as ``score_answers`` reads them), and a
  plain regular-expression loop over the same file that knows each answer's shape
  (:func:`bare_parse`: a line shape's one expression matched line by line, a JSON
  answer loaded, GNER's and the tags' expression found anywhere), the least work
  that turns the answers into ``(string, type)`` pairs. Goal: the package's reading
  at most 2x the loop's, on the answers as issue 37's models wrote them
  (:data:`AS_WRITTEN`) and on the mix. The whole ``score_answers`` call is shown
  against the loop too, and, on the answers as written, the floor under any reader
  that gives the package's objects (:func:`floor_parse`: the same loop with the
  package's line expression and its ``Mention`` and ``Answer``, and no check).

A second figure, not a goal: the same for 10,000 documents of 15 sentences each
(about 24 entities and 1,000 characters a document), as large as the CoNLL-2003
test set's own documents.

Times are CPU seconds of this process (``time.process_time``): one core's work,
which other processes on a busy machine do not inflate as they inflate
wall-clock time.

    python scripts/bench/answers.py                 # ../shared/data CoNLL-2003
    python scripts/bench/answers.py --repeat 5 --json
"""
from __future__ import annotations

import argparse
import json
import re
import statistics
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

from nested_span_f1 import Corpus, tags_to_spans
from nested_span_f1.answers import read_answers, score_answers
from nested_span_f1.answers.lines import SIMPLE
from nested_span_f1.answers.mention import Answer, Mention
from nested_span_f1.answers.read import read_answer
from nested_span_f1.formats.columns import read_columns

CONLL = Path(__file__).resolve().parents[3] / "shared" / "data" / "conll2003"
ANSWERS = 10_000

Span = tuple[int, int, str]
Item = tuple[str, str, int, int]
"""A mention as an answer writes it: its string, type, and first and last token."""


def _lines(items: list[Item]) -> str:
    return "\n".join(f"{s} ({label})" for s, label, _, _ in items)


def _by_type(items: list[Item]) -> dict[str, list[str]]:
    keyed: dict[str, list[str]] = {}
    for string, label, _, _ in items:
        keyed.setdefault(label, []).append(string)
    return keyed


def _tagged(tokens: list[str], items: list[Item]) -> str:
    words = list(tokens)
    for _, label, first, last in items:
        if first < len(tokens):
            words[first] = f"<{label}>{words[first]}"
            words[last] = f"{words[last]}</{label}>"
    return " ".join(words)


def _gner(tokens: list[str], items: list[Item]) -> str:
    tags = ["O"] * len(tokens)
    for _, label, first, last in items:
        if first < len(tokens):
            tags[first:last + 1] = [f"B-{label}"] + [f"I-{label}"] * (last - first)
    return " ".join(f"{token}({tag})" for token, tag in zip(tokens, tags))


MIX: dict[str, Callable[[list[str], list[Item]], str]] = {
    "parentheses": lambda tokens, items: _lines(items),
    "lead-in": lambda tokens, items: "Here is the answer:\n\n" + _lines(items),
    "markers": lambda tokens, items: "\n".join(f"- **{s}** ({label})" for s, label, _, _ in items) +
    "\n- the rest (no entity, as it is not a name)",
    "corrected": lambda tokens, items: "Answer:\n" + _lines(items[:1]) + "\n\nHowever, the corrected answer would "
    "be:\n" + _lines(items),
    "json": lambda tokens, items: json.dumps([[s, label] for s, label, _, _ in items]),
    "json in prose": lambda tokens, items: "Here are the entities I found: " + json.dumps(
        [[s, label] for s, label, _, _ in items]) + ". Let me know if you need more.",
    "object": lambda tokens, items: json.dumps(_by_type(items)),
    "type_lines": lambda tokens, items: "\n".join(f"{label}: {', '.join(strings)}"
                                                  for label, strings in _by_type(items).items()),
    "colon": lambda tokens, items: "\n".join(f"{s}: {label}" for s, label, _, _ in items),
    "dash": lambda tokens, items: "\n".join(f"{s} - {label}" for s, label, _, _ in items),
    "tuples": lambda tokens, items: "\n".join(f"({s}, {label})" for s, label, _, _ in items),
    "table": lambda tokens, items: "| Entity | Type |\n|---|---|\n" + "\n".join(f"| {s} | {label} |"
                                                                            for s, label, _, _ in items),
    "indexed": lambda tokens, items: json.dumps([[s, label, first, last] for s, label, first, last in items]),
    "gner": _gner,
    "tags": _tagged,
}
"""The shapes in the mix, by how an answer is written from the document's tokens and items."""

ORDER = ("parentheses", "lead-in", "markers", "corrected", "parentheses", "lead-in", "json", "json in prose",
         "object", "type_lines", "colon", "dash", "tuples", "table", "indexed", "gner", "tags", "json", "parentheses",
         "lead-in")
"""Document ``k``'s shape is ``ORDER[k % 20]``: string (TYPE) lines in 9 of 20, JSON in 4."""
AS_WRITTEN = ("lead-in",) * 18 + ("markers", "corrected")
"""The answers as the models of issue 37 wrote them: string (TYPE) lines after a lead-in line, one in 20 with a
declined line among them, one in 20 correcting itself."""

LINE = {
    "parentheses": re.compile(r"(.+?) \(([^()]+)\)$"),
    "markers": re.compile(r"- \*\*(.+?)\*\* \(([^()]+)\)$"),
    "type_lines": re.compile(r"([^:]+): (.+)$"),
    "colon": re.compile(r"(.+): ([^:]+)$"),
    "dash": re.compile(r"(.+) - (.+)$"),
    "tuples": re.compile(r"\((.+), ([^,()]+)\)$"),
    "table": re.compile(r"\| (.+?) \| (.+?) \|$"),
}
"""The line shapes' regular expression, one a shape, matched line by line."""
FOUND = {
    "json in prose": re.compile(r'\["((?:[^"\\]|\\.)*)", "([^"]*)"\]'),
    "gner": re.compile(r"(\S+)\(([BI]-[^()]+)\)"),
    "tags": re.compile(r"<([^/>]+)>(.*?)</\1>"),
}
"""The shapes that are not lines: one regular expression found anywhere in the answer."""
BARE_OF = {"lead-in": "parentheses", "corrected": "parentheses"}


def _answer(k: int, tokens: list[str], spans: list[Span], order: tuple[str, ...] = ORDER) -> tuple[str, str]:
    """A model's answer for document ``k`` and the shape it is written in (see the module docstring)."""
    if k % 100 == 99:
        return "I am sorry, I cannot find the entities in this text.", "prose"
    items: list[Item] = [(" ".join(tokens[s:e]).lower() if (k + n) % 5 == 0 else " ".join(tokens[s:e]), label, s,
                          e - 1) for n, (s, e, label) in enumerate(sorted(spans)) if (k + n) % 9 != 0]
    shape = order[k % len(order)]
    if k % 11 == 0 and shape not in ("gner", "tags"):
        items.append(("Atlantis", "LOC", 999, 999))
    if not items:
        return ("[]" if shape in ("json", "json in prose", "object", "indexed") else "No entities"), "empty"
    return MIX[shape](tokens, items), shape


def corpus(documents: list[tuple[list[str], list[Span]]], size: int,
           order: tuple[str, ...] = ORDER) -> tuple[Corpus, str, list[str]]:
    """The gold (``size`` documents cycled from ``documents``, as tokens), the answers' JSON lines, and the shape
    each answer is written in (by ``order``)."""
    picked = [documents[k % len(documents)] for k in range(size)]
    gold = Corpus([t for t, _ in picked], [e for _, e in picked], [f"d{k}" for k in range(size)], source="gold")
    written = [_answer(k, t, e, order) for k, (t, e) in enumerate(picked)]
    lines = "".join(json.dumps({"id": f"d{k}", "output": a}) + "\n" for k, (a, _) in enumerate(written))
    return gold, lines, [shape for _, shape in written]


def conll_documents(folder: Path, sentences: int = 1) -> list[tuple[list[str], list[Span]]]:
    """The CoNLL-2003 test gold as tokens and token spans, ``sentences`` consecutive sentences a document."""
    columns = read_columns(folder / "test.gold.conll")
    spans = tags_to_spans(columns.column())
    out = []
    for first in range(0, len(columns.tokens), sentences):
        tokens: list[str] = []
        entities: list[Span] = []
        for s in range(first, min(first + sentences, len(columns.tokens))):
            entities += [(a + len(tokens), b + len(tokens), label) for a, b, label in spans[s]]
            tokens += columns.tokens[s]
        out.append((tokens, entities))
    return out


def bare_parse(lines: str, shapes: list[str]) -> list[list[Any]]:
    """A plain regular-expression loop over the answers' file, that knows each answer's shape: the line shapes'
    one expression matched line by line, whole JSON answers loaded, the other shapes' expression found anywhere.
    The least work that turns these answers into ``(string, type)`` pairs, with none of the checks the package
    makes (it splits no ``TYPE: a, b`` items and keeps both lists of a self-correction)."""
    out: list[list[Any]] = []
    for line, shape in zip(lines.splitlines(), shapes):
        answer = json.loads(line)["output"]
        shape = BARE_OF.get(shape, shape)
        pattern = LINE.get(shape)
        if pattern is not None:
            pairs = []
            for row in answer.split("\n"):
                found = pattern.match(row)
                if found:
                    pairs.append(found.groups())
            out.append(pairs)
        elif shape in ("json", "object", "indexed"):
            value = json.loads(answer)
            out.append(list(value.items()) if isinstance(value, dict) else value)
        else:
            out.append(FOUND[shape].findall(answer) if shape in FOUND else [])
    return out


def package_parse(lines: str, texts: list[str], labels: set[str]) -> list[Any]:
    """The answers' file read by the package and each answer read with its document's text and the gold's types,
    as ``score_answers`` reads them."""
    answers = read_answers(lines)
    return [read_answer(question, text, labels) for questions, text in zip(answers.answers, texts)
            for question in questions]


def floor_parse(lines: str) -> list[Answer]:
    """Not a reader: the least a reader that gives the package's objects can do on the answers as written
    (:data:`AS_WRITTEN`), timed beside the goal to show where its time goes. ``json.loads`` of each line, then the
    package's own expression for a plain ``string (TYPE)`` line (``lines.SIMPLE``) matched line by line, a
    :class:`Mention` for each match and an :class:`Answer` for each answer; no check at all (no ids gathered, no
    line kept, no lead-in, declined line or correction told apart, no other shape tried)."""
    line_of = SIMPLE["parentheses"]
    out = []
    for line in lines.splitlines():
        mentions = []
        for row in json.loads(line)["output"].split("\n"):
            found = line_of.fullmatch(row.strip())
            if found is not None:
                mentions.append(Mention(found[2], found[3]))
        out.append(Answer(tuple(mentions), "parentheses"))
    return out


def side_by_side(calls: dict[str, Any], repeat: int) -> dict[str, float]:
    """The median of ``repeat`` rounds of each call, the calls taking turns within a round (so that they share
    each stretch of the machine's load)."""
    spent: dict[str, list[float]] = {name: [] for name in calls}
    for _ in range(repeat):
        for name, call in calls.items():
            start = time.process_time()
            call()
            spent[name].append(time.process_time() - start)
    return {name: statistics.median(times) for name, times in spent.items()}


def cpu_median(call: Any, repeat: int) -> float:
    """The median CPU seconds of this process over ``repeat`` calls (``time.process_time``)."""
    return side_by_side({"call": call}, repeat)["call"]


def measure(documents: list[tuple[list[str], list[Span]]], repeat: int, order: tuple[str, ...] = ORDER,
            metrics: tuple[str, ...] = ("exact", "nested"), floor: bool = False) -> dict[str, Any]:
    """The figures of one set of answers (see the module docstring); ``floor``: :func:`floor_parse` timed too."""
    gold, lines, shapes = corpus(documents, ANSWERS, order)
    result = score_answers(read_answers(lines), gold, metric="exact", zero_division=0)
    report = result["answers"]
    texts = [" ".join(tokens) for tokens in gold.tokens]
    labels = {e[-1] for entities in gold.entities for e in entities}
    labels |= {label.lower() for label in labels}
    out: dict[str, Any] = {
        "answers": ANSWERS, "characters": sum(map(len, texts)), "gold_entities": sum(map(len, gold.entities)),
        "written": {shape: shapes.count(shape) for shape in dict.fromkeys(shapes)},
        "shapes": report["shapes"], "mentions": report["mentions"], "unparseable": report["unparseable"],
        "not_in_text": report["not_in_text"], "index": report["index"], "skipped_lines": report["skipped_lines"],
        "declined_lines": report["declined_lines"], "corrected_answers": report["corrected_answers"],
        "string_f1": result["strings"]["overall_f1"], "located_f1": result["located"]["overall_f1"],
        "bare_pairs": sum(map(len, bare_parse(lines, shapes))),
    }
    calls = {"bare_parse": lambda: bare_parse(lines, shapes), "package_parse": lambda: package_parse(lines, texts, labels)}
    if floor:
        calls["floor_parse"] = lambda: floor_parse(lines)
    for metric in metrics:
        calls[metric] = lambda metric=metric: score_answers(read_answers(lines), gold, metric=metric,
                                                              zero_division=0)
    timed = side_by_side(calls, repeat)
    out.update({f"{name}_seconds": seconds for name, seconds in timed.items()})
    out["parse_ratio"] = timed["package_parse"] / timed["bare_parse"]
    out["api_ratio"] = timed["exact"] / timed["bare_parse"]
    if floor:
        out["floor_ratio"] = timed["floor_parse"] / timed["bare_parse"]
    return out


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--conll", type=Path, default=CONLL, help="folder with test.gold.conll (default: %(default)s)")
    parser.add_argument("--repeat", type=int, default=3, help="runs per figure; the median is reported")
    parser.add_argument("--json", action="store_true", help="print the figures as JSON")
    args = parser.parse_args()
    if not (args.conll / "test.gold.conll").is_file():
        parser.exit(2, f"answers.py: {args.conll / 'test.gold.conll'} not found (the shared data's CoNLL-2003)\n")
    sentences = conll_documents(args.conll)
    figures = {"sentences": measure(sentences, args.repeat),
               "as_written": measure(sentences, args.repeat, AS_WRITTEN, ("exact",), floor=True),
               "documents_of_15_sentences": measure(conll_documents(args.conll, 15), args.repeat)}
    if args.json:
        print(json.dumps(figures, indent=2))
        return
    for name, row in figures.items():
        print(f"{name}: {row['answers']} answers, {row['gold_entities']} gold entities, {row['mentions']} mentions, "
              f"{row['characters']} characters; string F1 {row['string_f1']:.4f}, located F1 {row['located_f1']:.4f}")
        print(f"  read as: {', '.join(f'{shape} {n}' for shape, n in sorted(row['shapes'].items()))}; lines skipped "
              f"{row['skipped_lines']}, declined {row['declined_lines']}, answers corrected {row['corrected_answers']}")
        print(f"  read, parse, place and score both protocols: exact {row['exact_seconds']:.3f} s" + (
            f", nested {row['nested_seconds']:.3f} s" if "nested_seconds" in row else "") + " (CPU)")
        print(f"  side by side: bare regular-expression parse {row['bare_parse_seconds']:.3f} s, the package's reading "
              f"{row['package_parse_seconds']:.3f} s ({row['parse_ratio']:.2f}x), score_answers "
              f"{row['exact_seconds']:.3f} s ({row['api_ratio']:.2f}x)" + (
                  f"; the floor under any reader of these objects {row['floor_parse_seconds']:.3f} s "
                  f"({row['floor_ratio']:.2f}x)" if "floor_ratio" in row else ""))
    rows = figures["sentences"]
    goal = max(rows["exact_seconds"], rows["nested_seconds"])
    print(f"goal (10,000 CoNLL-2003 answers of every shape under 2 s on one core): {'met' if goal < 2 else 'NOT met'} "
          f"({goal:.3f} s)")
    for name, what in (("sentences", "every shape in the mix"), ("as_written", "as issue 37's models wrote them")):
        ratio = figures[name]["parse_ratio"]
        print(f"goal (reading the answers, {what}, at most 2x a bare regular-expression parse): "
              f"{'met' if ratio <= 2 else 'NOT met'} ({ratio:.2f}x)")


if __name__ == "__main__":
    main()
