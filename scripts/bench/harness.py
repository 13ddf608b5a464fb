"""Speed of counting answers one at a time, as an evaluation harness does (issue 49): 10,000 answers, each counted
by its own :func:`~nested_span_f1.answers.tally.count_answer` call and the counts summed, beside one
:func:`~nested_span_f1.answers.score_answers` call on the same answers, side by side in one run.

The answers are ``answers.py``'s: the CoNLL-2003 test sentences cycled to 10,000
documents, a model's raw answer written for each in one of the shapes models write
(``answers.py``'s ``MIX``). Each document is a dataset's row as a harness hands it over
(``{"id", "tokens", "entities"}``, token spans), counted with the corpus's types
(``labels=``) and the counts summed with :func:`~nested_span_f1.answers.tally.total`
(what the harnesses' corpus functions do); the one corpus call reads the same answers from
their JSON lines against the same gold corpus. Both give the same result, every key of it
(checked before timing). Goal: the answers counted one at a time and summed cost at most
1.5x the one call, for each metric: exact (the harnesses' entity F1), nested (with its
breakdowns) and lenient (its optimal matching); the F1 printed is the located spans'
(lenient: its strict scheme's).

Times are CPU seconds of this process (``time.process_time``), the median of
``--repeat`` rounds, the calls taking turns within a round.

    python scripts/bench/harness.py                 # ../shared/data CoNLL-2003
    python scripts/bench/harness.py --repeat 7 --json
"""
from __future__ import annotations

import argparse
import json
import warnings
from pathlib import Path
from typing import Any

from answers import ANSWERS, CONLL, conll_documents, corpus, side_by_side

from nested_span_f1.answers import read_answers, score_answers
from nested_span_f1.answers.score import UnreadableAnswersWarning
from nested_span_f1.answers.tally import count_answer, total

GOAL = 1.5
"""Counting one answer a call and summing: at most this many times one corpus call."""


F1 = {"exact": "overall_f1", "nested": "overall_f1", "lenient": "strict_f1"}
"""Each metric's located F1 the script prints (lenient: the strict scheme's, exact spans and types)."""


def measure(documents: list[Any], repeat: int, metrics: tuple[str, ...] = tuple(F1),
            size: int = ANSWERS) -> dict[str, Any]:
    """Both ways timed side by side for each metric (``size`` answers), after checking that they give the same
    figures."""
    gold, lines, _ = corpus(documents, size)
    outputs = [json.loads(line)["output"] for line in lines.splitlines()]
    rows = [{"id": ident, "tokens": tokens, "entities": entities}
            for ident, tokens, entities in zip(gold.sentence_ids, gold.tokens, gold.entities)]
    labels = sorted({e[-1] for entities in gold.entities for e in entities})
    out: dict[str, Any] = {"answers": size}
    calls = {}
    for metric in metrics:
        def one_call(metric: str = metric) -> dict[str, Any]:
            return score_answers(read_answers(lines), gold, metric=metric, zero_division=0)

        def one_at_a_time(metric: str = metric) -> dict[str, Any]:
            return total(count_answer(output, row, labels=labels, metric=metric)
                         for output, row in zip(outputs, rows)).result(zero_division=0)

        expected, got = one_call(), one_at_a_time()
        del expected["located"]["alignment"], expected["answers"]["paired"], expected["answers"]["examples"]
        if got != expected:
            raise SystemExit(f"harness.py: the answers counted one at a time do not give the corpus call's figures "
                             f"({metric})")
        out[f"{metric}_f1"] = expected["located"][F1[metric]]
        calls[f"{metric}_one_call"], calls[f"{metric}_one_at_a_time"] = one_call, one_at_a_time
    timed = side_by_side(calls, repeat)
    out.update({f"{name}_seconds": seconds for name, seconds in timed.items()})
    for metric in metrics:
        out[f"{metric}_ratio"] = timed[f"{metric}_one_at_a_time"] / timed[f"{metric}_one_call"]
    return out


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--conll", type=Path, default=CONLL, help="folder with test.gold.conll (default: %(default)s)")
    parser.add_argument("--repeat", type=int, default=5, help="rounds; the median is reported")
    parser.add_argument("--json", action="store_true", help="print the figures as JSON")
    args = parser.parse_args()
    if not (args.conll / "test.gold.conll").is_file():
        parser.exit(2, f"harness.py: {args.conll / 'test.gold.conll'} not found (the shared data's CoNLL-2003)\n")
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", UnreadableAnswersWarning)  # one answer in a hundred is prose: 1%, no warning
        figures = measure(conll_documents(args.conll), args.repeat)
    if args.json:
        print(json.dumps(figures, indent=2))
        return
    for metric in F1:
        ratio = figures[f"{metric}_ratio"]
        print(f"{metric}: {figures['answers']:,} answers, located F1 {figures[f'{metric}_f1']:.4f}; one score_answers "
              f"call {figures[f'{metric}_one_call_seconds']:.3f} s, counted one at a time and summed "
              f"{figures[f'{metric}_one_at_a_time_seconds']:.3f} s ({ratio:.2f}x, goal at most {GOAL}x: "
              f"{'met' if ratio <= GOAL else 'NOT met'}) (CPU)")


if __name__ == "__main__":
    main()
