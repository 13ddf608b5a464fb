"""The flat algorithm in plain Python, one loop per sentence: what the package must compute.

A reader can check this file against seqeval's ``get_entities`` and strict
``Tokens.entities`` loops and against the rule tables in
``nested_span_f1/flat/schemes.py`` (which it reads, one rule lookup per token).
``nested_span_f1/flat/decoding.py`` computes these loops for every sentence at
once, each docstring naming the lines it computes; the hypothesis tests hold
the vectorised pipeline to this file, counts and notes included.
"""
from __future__ import annotations

from collections import Counter

from nested_span_f1.flat.schemes import PREFIXES, SEQEVAL_DEFAULT, DefaultRules, Scheme, get_scheme

Chunk = tuple[int, int, str]


def split(tag: str, suffix: bool = False) -> tuple[str, str]:
    """(prefix, type) of a well-formed tag; untyped tags and ``O`` get type ``_``, as in seqeval."""
    if tag == "O":
        return "O", "_"
    prefix, name = (tag[-1], tag[:-2]) if suffix else (tag[0], tag[2:])
    return prefix, name or "_"


def _rule(table, prev: tuple[str, str], cur: tuple[str, str]) -> bool:
    return bool(table[PREFIXES.index(prev[0]), PREFIXES.index(cur[0]), int(prev[1] == cur[1])])


def default_chunks(tags: list[str], rules: DefaultRules = SEQEVAL_DEFAULT, suffix: bool = False) -> list[Chunk]:
    """seqeval's ``get_entities`` on one sentence followed by an ``O``: end a chunk, then maybe start one."""
    chunks, begin, prev = [], 0, ("O", "_")
    for i, tag in enumerate([*tags, "O"]):
        cur = split(tag, suffix)
        if _rule(rules.ends, prev, cur):
            chunks.append((begin, i, prev[1]))
        if _rule(rules.starts, prev, cur):
            begin = i
        prev = cur
    return chunks


def strict_chunks(tags: list[str], scheme: Scheme, suffix: bool = False) -> list[Chunk]:
    """seqeval's strict ``Tokens.entities`` on one sentence: a start runs while inside holds; kept if it ends."""
    tokens = [split(tag, suffix) for tag in tags] + [("O", "_")]
    chunks, i = [], 0
    while i < len(tags):
        prev = tokens[i - 1] if i else ("O", "_")
        if _rule(scheme.starts, prev, tokens[i]):
            end = i + 1
            while _rule(scheme.inside, tokens[end - 1], tokens[end]):
                end += 1
            if _rule(scheme.ends, tokens[end - 1], tokens[end]):
                chunks.append((i, end, tokens[i][1]))
            i = end
        else:
            i += 1
    return chunks


def decode(tags: list[str], scheme: str | None, mode: str | None, rules: DefaultRules, suffix: bool) -> list[Chunk]:
    if mode == "strict":
        return strict_chunks(tags, get_scheme(scheme), suffix)
    return default_chunks(tags, rules, suffix)


def invalid_chunks(tags: list[str], scheme: str, suffix: bool, rules: DefaultRules) -> int:
    """Chunks the default decoder makes (reading the scheme's own prefixes as seqeval's default
    mode knows them) that strict mode drops."""
    chosen = get_scheme(scheme)
    read_as = dict(pair for pair in chosen.read_as.split())
    if read_as:
        rules = SEQEVAL_DEFAULT
    prefixed = [split(t, suffix) for t in tags]
    repaired = [t if p == "O" else f"{read_as.get(p, p)}-{name}" for t, (p, name) in zip(tags, prefixed)]
    kept = set(strict_chunks(tags, chosen, suffix))
    return sum(chunk not in kept for chunk in default_chunks(repaired, rules))


def count(predictions, references, *, scheme=None, mode=None, rules=SEQEVAL_DEFAULT, suffix=False) -> dict:
    """Per-type (tp, predicted, gold), untyped tally, tokens and notes, matched as sets per sentence."""
    tp, predicted, gold, untyped = Counter(), Counter(), Counter(), [0, 0, 0]
    notes = Counter()
    tokens = correct = 0
    for pred, ref in zip(predictions, references):
        p, r = set(decode(pred, scheme, mode, rules, suffix)), set(decode(ref, scheme, mode, rules, suffix))
        predicted.update(c[2] for c in p)
        gold.update(c[2] for c in r)
        tp.update(c[2] for c in p & r)
        p_bounds, r_bounds = {c[:2] for c in p}, {c[:2] for c in r}
        untyped = [untyped[0] + len(p_bounds & r_bounds), untyped[1] + len(p_bounds), untyped[2] + len(r_bounds)]
        tokens += len(ref)
        correct += sum(a == b for a, b in zip(pred, ref))
        if scheme is not None:
            notes["invalid_predicted_chunks"] += invalid_chunks(pred, scheme, suffix, rules)
            notes["invalid_reference_chunks"] += invalid_chunks(ref, scheme, suffix, rules)
    labels = {t: (tp[t], predicted[t], gold[t]) for t in sorted(set(predicted) | set(gold))}
    return {"labels": labels, "untyped": tuple(untyped), "tokens": tokens, "correct_tokens": correct,
            "notes": dict(notes)}
